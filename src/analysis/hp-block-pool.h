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
