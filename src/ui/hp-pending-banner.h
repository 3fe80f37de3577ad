/* hp-pending-banner.h - the banner of samples that wait beside a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_PENDING_BANNER (hp_pending_banner_get_type ())
G_DECLARE_FINAL_TYPE (HpPendingBanner, hp_pending_banner, HP, PENDING_BANNER, GtkWidget)

/* Looks, off the main loop, for NAME.pending.sql (and -N) beside the
 * capture at @path and shows the banner when there is one; NULL hides it.
 * Once Add Them has added them, the banner emits "added": the capture
 * holds more samples, and the window opens it again. */
void        hp_pending_banner_set_capture (HpPendingBanner *self,
                                           const char      *path);

/* For tests: what the banner says (NULL when hidden), and whether it is
 * busy (looking, or adding). */
const char *hp_pending_banner_get_text    (HpPendingBanner *self);
gboolean    hp_pending_banner_is_busy     (HpPendingBanner *self);

G_END_DECLS
