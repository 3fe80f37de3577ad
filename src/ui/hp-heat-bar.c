/* hp-heat-bar.c - a bar whose length and colour say how hot something is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Drawn in snapshot() as two rectangles: a faint trough and a bar whose
 * length is the fraction and whose colour runs from yellow (cool) to red
 * (hot), so that a column of them reads as a heat map. It has no child
 * and no text, so a list of thousands of source lines stays cheap; the
 * numbers beside it are labels of their own.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <math.h>

#include "ui/hp-heat-bar.h"

struct _HpHeatBar {
  GtkWidget parent_instance;
  double    fraction;
};

G_DEFINE_FINAL_TYPE (HpHeatBar, hp_heat_bar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hp_heat_bar_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  HpHeatBar *self = HP_HEAT_BAR (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double f = CLAMP (self->fraction, 0.0, 1.0);
  /* a share worth seeing gets at least a sliver */
  double w = f > 0.0 ? MAX (2.0, f * width) : 0.0;
  double t = sqrt (f);   /* small shares still get some warmth */
  GdkRGBA trough = { 0.5, 0.5, 0.5, 0.15 };
  GdkRGBA bar = {
    0.96 - 0.08 * t,
    0.76 - 0.65 * t,
    0.07 + 0.07 * t,
    0.55 + 0.45 * t,
  };

  gtk_snapshot_append_color (snapshot, &trough, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (w > 0)
    gtk_snapshot_append_color (snapshot, &bar, &GRAPHENE_RECT_INIT (0, 0, w, height));
}

static void
hp_heat_bar_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 40;
  else
    *minimum = *natural = 6;
}

static void
hp_heat_bar_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  HpHeatBar *self = HP_HEAT_BAR (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_heat_bar_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  HpHeatBar *self = HP_HEAT_BAR (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      hp_heat_bar_set_fraction (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_heat_bar_class_init (HpHeatBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = hp_heat_bar_get_property;
  object_class->set_property = hp_heat_bar_set_property;
  widget_class->snapshot = hp_heat_bar_snapshot;
  widget_class->measure = hp_heat_bar_measure;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "heatbar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_PROGRESS_BAR);
}

static void
hp_heat_bar_init (HpHeatBar *self)
{
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
}

GtkWidget *
hp_heat_bar_new (void)
{
  return g_object_new (HP_TYPE_HEAT_BAR, NULL);
}

void
hp_heat_bar_set_fraction (HpHeatBar *self,
                          double     fraction)
{
  g_return_if_fail (HP_IS_HEAT_BAR (self));

  fraction = CLAMP (fraction, 0.0, 1.0);
  if (self->fraction == fraction)
    return;
  self->fraction = fraction;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                               GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, fraction * 100.0, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

double
hp_heat_bar_get_fraction (HpHeatBar *self)
{
  g_return_val_if_fail (HP_IS_HEAT_BAR (self), 0.0);

  return self->fraction;
}
