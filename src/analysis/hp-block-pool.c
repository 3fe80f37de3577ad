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
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <string.h>

#include "analysis/hp-block-pool.h"

#define POOL_BLOCKS 32

typedef struct {
  gpointer mem;
  gsize    size;
} Block;

static GMutex pool_lock;
static Block pool[POOL_BLOCKS];
static guint reuses;

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

  if (block == NULL)
    return;
  if (capacity >= HP_BLOCK_POOL_MIN_SIZE)
    {
      gint slot = -1;

      /* an empty place, or else the place of the smallest block if this
       * one is bigger: big blocks cost the most to fault in again */
      g_mutex_lock (&pool_lock);
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
          pool[slot] = (Block) { block, capacity };
        }
      g_mutex_unlock (&pool_lock);
    }
  g_free (drop);
}

void
hp_block_pool_trim (void)
{
  g_mutex_lock (&pool_lock);
  for (guint i = 0; i < POOL_BLOCKS; i++)
    {
      g_free (pool[i].mem);
      pool[i] = (Block) { NULL, 0 };
    }
  g_mutex_unlock (&pool_lock);
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
