/* hp-block-pool.c - big blocks kept from one analysis for the next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Building a profile of a big capture fills blocks of tens of megabytes
 * (a tree's nodes, per-stack counts) and frees them when the next profile
 * replaces it. malloc returns blocks that big to the kernel on free (they
 * are mmap()ed), so each build touched all its memory fresh: on the
 * 1M-sample stress capture, 6 800 page faults per build, more than half
 * its CPU time (tests/bench/bench-range.c). A range, a thread or an event
 * chosen in the window asks for blocks of the same sizes again, so the
 * freed ones are kept here and handed out again, their pages already in
 * memory.
 *
 * At most POOL_BLOCKS blocks are kept, and a block is handed out only for
 * a request of at least half its size, so a small request never takes the
 * block a big one will need. What is kept is about one profile's memory;
 * hp_block_pool_trim() frees it.
 *
 * What is kept serves the next build of the same capture only: an open
 * capture holds the pool (hp_block_pool_hold), and when the last one is
 * closed the pool gives everything back, kept blocks and the free memory
 * of malloc's heap, and keeps nothing more until a capture is open again.
 * Without that, a window whose capture was closed kept about one
 * profile's memory for as long as it ran. The blocks freed later (the
 * last profile is freed by a worker) are then unmapped at once.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "analysis/hp-block-pool.h"

#define POOL_BLOCKS 32

/* Blocks this big are mapped in huge pages where the kernel allows them
 * (transparent huge pages, "madvise" or "always"): a fresh profile of a
 * third of the stress capture touched 100 MB in 25 000 page faults, 80%
 * of its CPU time in a virtual machine; in 2 MB pages, 50 faults. */
#define HUGE_PAGE  ((gsize) 2 * 1024 * 1024)
#define HUGE_BLOCK HUGE_PAGE

typedef struct {
  gpointer mem;
  gsize    size;
} Block;

static GMutex pool_lock;
static Block pool[POOL_BLOCKS];
static guint reuses;
static guint holders;
static gboolean closed;  /* the last holder let go: keep nothing */

/* A fresh block of @size bytes or more, mapped on a boundary of huge
 * pages and marked for them (madvise). Every block of HUGE_BLOCK bytes or
 * more is one of these, so that its capacity says how to free it. */
static gpointer
huge_alloc (gsize  size,
            gsize *capacity)
{
  gsize rounded = (size + HUGE_PAGE - 1) & ~(gsize) (HUGE_PAGE - 1);
  gsize mapped = rounded + HUGE_PAGE;
  guint8 *mem = mmap (NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  guint8 *aligned;

  if (mem == MAP_FAILED)
    g_error ("%s: failed to map %" G_GSIZE_FORMAT " bytes", G_STRLOC, mapped);  /* as g_malloc() aborts */
  /* keep the aligned part of the mapping */
  aligned = (guint8 *) (((guintptr) mem + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1));
  if (aligned > mem)
    munmap (mem, aligned - mem);
  if (aligned + rounded < mem + mapped)
    munmap (aligned + rounded, mem + mapped - (aligned + rounded));
#ifdef MADV_HUGEPAGE
  madvise (aligned, rounded, MADV_HUGEPAGE);
#endif
  *capacity = rounded;
  return aligned;
}

/* Frees a block of hp_block_alloc(): mapped when its capacity says so,
 * else malloc()ed. */
static void
block_release (gpointer block,
               gsize    capacity)
{
  if (block == NULL)
    return;
  if (capacity >= HUGE_BLOCK)
    munmap (block, capacity);
  else
    g_free (block);
}

gpointer
hp_block_alloc (gsize  size,
                gsize *capacity)
{
  gint best = -1;

  g_return_val_if_fail (capacity != NULL, NULL);

  size = MAX (size, 1);
  if (size >= HP_BLOCK_POOL_MIN_SIZE)
    {
      g_mutex_lock (&pool_lock);
      for (guint i = 0; i < POOL_BLOCKS; i++)
        if (pool[i].mem != NULL && pool[i].size >= size && pool[i].size / 2 <= size &&
            (best < 0 || pool[i].size < pool[best].size))
          best = (gint) i;
      if (best >= 0)
        {
          gpointer mem = pool[best].mem;

          *capacity = pool[best].size;
          pool[best] = (Block) { NULL, 0 };
          reuses++;
          g_mutex_unlock (&pool_lock);
          return mem;
        }
      g_mutex_unlock (&pool_lock);
    }
  if (size >= HUGE_BLOCK)
    return huge_alloc (size, capacity);
  *capacity = size;
  return g_malloc (size);
}

gpointer
hp_block_alloc0 (gsize  size,
                 gsize *capacity)
{
  gpointer mem;

  g_return_val_if_fail (capacity != NULL, NULL);

  if (size < HP_BLOCK_POOL_MIN_SIZE)
    {
      *capacity = MAX (size, 1);
      return g_malloc0 (*capacity);
    }
  mem = hp_block_alloc (size, capacity);
  memset (mem, 0, size);
  return mem;
}

void
hp_block_free (gpointer block,
               gsize    capacity)
{
  gpointer drop = block;
  gsize drop_capacity = capacity;

  if (block == NULL)
    return;
  if (capacity >= HP_BLOCK_POOL_MIN_SIZE)
    {
      gint slot = -1;

      /* an empty place, or else the place of the smallest block if this
       * one is bigger: big blocks cost the most to fault in again */
      g_mutex_lock (&pool_lock);
      if (closed)
        {
          g_mutex_unlock (&pool_lock);
          block_release (block, capacity);
          return;
        }
      for (guint i = 0; i < POOL_BLOCKS; i++)
        {
          if (pool[i].mem == NULL)
            {
              slot = (gint) i;
              break;
            }
          if (slot < 0 || pool[i].size < pool[slot].size)
            slot = (gint) i;
        }
      if (pool[slot].mem == NULL || pool[slot].size < capacity)
        {
          drop = pool[slot].mem;
          drop_capacity = pool[slot].size;
          pool[slot] = (Block) { block, capacity };
        }
      g_mutex_unlock (&pool_lock);
    }
  block_release (drop, drop_capacity);
}

void
hp_block_pool_reserve (const gsize *sizes,
                       guint        n_sizes)
{
  gboolean claimed[POOL_BLOCKS] = { FALSE };

  for (guint k = 0; k < n_sizes; k++)
    {
      gsize size = sizes[k], capacity;
      gboolean kept = FALSE;
      guint8 *mem;

      if (size < HP_BLOCK_POOL_MIN_SIZE)
        continue;
      /* a kept block that hp_block_alloc (size) would take, and that an
       * earlier size of this reserve has not counted on */
      g_mutex_lock (&pool_lock);
      if (closed)
        {
          g_mutex_unlock (&pool_lock);
          return;
        }
      for (guint i = 0; i < POOL_BLOCKS && !kept; i++)
        if (!claimed[i] && pool[i].mem != NULL && pool[i].size >= size && pool[i].size / 2 <= size)
          kept = claimed[i] = TRUE;
      g_mutex_unlock (&pool_lock);
      if (kept)
        continue;

      mem = size >= HUGE_BLOCK ? huge_alloc (size, &capacity) : g_malloc (capacity = size);
      /* one write per page faults it in (a huge page at its first) */
      for (gsize at = 0; at < capacity; at += 4096)
        mem[at] = 0;
      hp_block_free (mem, capacity);
      /* where it went (it may have replaced a smaller block) */
      g_mutex_lock (&pool_lock);
      for (guint i = 0; i < POOL_BLOCKS; i++)
        if (pool[i].mem == mem)
          claimed[i] = TRUE;
      g_mutex_unlock (&pool_lock);
    }
}

void
hp_block_advise_huge (gpointer mem,
                      gsize    size)
{
#ifdef MADV_HUGEPAGE
  guintptr start = ((guintptr) mem + HUGE_PAGE - 1) & ~(guintptr) (HUGE_PAGE - 1);
  guintptr end = ((guintptr) mem + size) & ~(guintptr) (HUGE_PAGE - 1);

  if (mem == NULL || size < 2 * HUGE_PAGE || end <= start)
    return;
  madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
#endif
}

/* Empties the pool; pool_lock held. */
static void
trim_locked (void)
{
  for (guint i = 0; i < POOL_BLOCKS; i++)
    {
      block_release (pool[i].mem, pool[i].size);
      pool[i] = (Block) { NULL, 0 };
    }
}

void
hp_block_pool_trim (void)
{
  g_mutex_lock (&pool_lock);
  trim_locked ();
  g_mutex_unlock (&pool_lock);
}

void
hp_block_pool_hold (void)
{
  g_mutex_lock (&pool_lock);
  holders++;
  closed = FALSE;
  g_mutex_unlock (&pool_lock);
}

void
hp_block_pool_release (void)
{
  gboolean last;

  g_mutex_lock (&pool_lock);
  if (holders == 0)
    {
      g_mutex_unlock (&pool_lock);
      g_return_if_reached ();
    }
  last = --holders == 0;
  if (last)
    {
      closed = TRUE;
      trim_locked ();
    }
  g_mutex_unlock (&pool_lock);
#ifdef __GLIBC__
  /* the smaller blocks, and the profile's own arrays, were malloc()ed:
   * the heap keeps freed pages mapped until asked */
  if (last)
    malloc_trim (0);
#endif
}

gsize
hp_block_pool_get_kept_size (void)
{
  gsize size = 0;

  g_mutex_lock (&pool_lock);
  for (guint i = 0; i < POOL_BLOCKS; i++)
    size += pool[i].size;
  g_mutex_unlock (&pool_lock);
  return size;
}

guint
hp_block_pool_get_reuses (void)
{
  guint n;

  g_mutex_lock (&pool_lock);
  n = reuses;
  g_mutex_unlock (&pool_lock);
  return n;
}
