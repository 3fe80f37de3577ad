/* hp-jit-tiers.h - in which compilation tier run-time compiled code ran
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* V8's tiers, from the least to the most optimized (frames.tier in
 * schema.sql holds the mark). */
typedef enum {
  HP_JIT_TIER_INTERPRETED,  /* '~' Ignition */
  HP_JIT_TIER_BASELINE,     /* '^' Sparkplug */
  HP_JIT_TIER_MID,          /* '+' Maglev */
  HP_JIT_TIER_OPTIMIZED,    /* '*' TurboFan */
  HP_N_JIT_TIERS
} HpJitTier;

typedef struct _HpJitTiers HpJitTiers;

/* Counts, per function, the samples whose stack passes through it in each
 * tier (a sample counts once per function and tier, however deep it
 * recurses), over the threads in @tids (GINT_TO_POINTER (tid); NULL: all).
 * NULL when no frame of @data has a tier: most captures. */
HpJitTiers *hp_jit_tiers_new          (const HpCaptureData *data,
                                       GHashTable          *tids);
void        hp_jit_tiers_free         (HpJitTiers          *self);

/* Fills @total (samples through the function in each tier) and @self
 * (samples in it, in each tier), either may be NULL, and returns TRUE
 * when @function_id ran in some tier. */
gboolean    hp_jit_tiers_get          (const HpJitTiers    *self,
                                       gint64               function_id,
                                       guint64              total[HP_N_JIT_TIERS],
                                       guint64              self_samples[HP_N_JIT_TIERS]);

/* The tier a mark stands for, -1 for anything else. */
int         hp_jit_tier_from_mark     (char                 mark);
/* "interpreted", "baseline", "mid-tier", "optimized": for JSON keys and
 * the CLI; the window translates its own words. */
const char *hp_jit_tier_get_name      (HpJitTier            tier);
/* The tier holding most of @samples, or -1 when all are 0. */
int         hp_jit_tiers_dominant     (const guint64        samples[HP_N_JIT_TIERS]);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpJitTiers, hp_jit_tiers_free)

G_END_DECLS
