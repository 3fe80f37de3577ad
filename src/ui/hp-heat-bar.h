/* hp-heat-bar.h - a bar whose length and colour say how hot something is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define HP_TYPE_HEAT_BAR (hp_heat_bar_get_type ())
G_DECLARE_FINAL_TYPE (HpHeatBar, hp_heat_bar, HP, HEAT_BAR, GtkWidget)

GtkWidget *hp_heat_bar_new          (void);
void       hp_heat_bar_set_fraction (HpHeatBar *self,
                                     double     fraction);
double     hp_heat_bar_get_fraction (HpHeatBar *self);

G_END_DECLS
