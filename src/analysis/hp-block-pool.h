/* hp-block-pool.h - big blocks kept from one analysis for the next
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Blocks smaller than this are plain g_malloc() blocks. */
#define HP_BLOCK_POOL_MIN_SIZE (256 * 1024)

/* A block of at least @size bytes, its contents undefined: a kept one
 * when one fits, else a fresh one. *@capacity receives its real size,
 * which hp_block_free() needs. Thread-safe. */
gpointer hp_block_alloc          (gsize    size,
                                  gsize   *capacity);
/* Like hp_block_alloc(), its first @size bytes zeroed. */
gpointer hp_block_alloc0         (gsize    size,
                                  gsize   *capacity);
/* Gives back a block of hp_block_alloc() (NULL is ignored). */
void     hp_block_free           (gpointer block,
                                  gsize    capacity);

/* Makes sure the pool keeps, for each of @sizes, a block that a request
 * of that size takes, its pages already in memory: fresh blocks are
 * allocated and written to as needed. For a build that has to run
 * beside the profile it replaces, whose blocks are not free yet (the
 * first filter after opening a capture): call it in a worker, ahead of
 * time. Blocks smaller than HP_BLOCK_POOL_MIN_SIZE are not kept. */
void     hp_block_pool_reserve   (const gsize *sizes,
                                  guint        n_sizes);

/* Advises the kernel to back the whole 2 MiB pages of @size bytes at
 * @mem (malloc()ed memory, say a big GArray's) with huge pages: a fresh
 * 4 KiB page costs a page fault each, and those cost the most in a
 * virtual machine (hp-block-pool.c). Does nothing for less than two
 * huge pages. */
void     hp_block_advise_huge    (gpointer     mem,
                                  gsize        size);

/* Frees every kept block. */
void     hp_block_pool_trim      (void);

/* An open capture holds the pool while its profiles may be rebuilt;
 * when the last holder releases it, every kept block and malloc's free
 * memory go back to the system, and blocks freed afterwards are not
 * kept until the pool is held again. Without any hold (the CLI, the
 * tests), the pool keeps blocks as before. */
void     hp_block_pool_hold      (void);
void     hp_block_pool_release   (void);

/* Bytes kept for reuse now (for tests). */
gsize    hp_block_pool_get_kept_size (void);

/* Blocks handed out again since the start (for tests). */
guint    hp_block_pool_get_reuses (void);

G_END_DECLS
