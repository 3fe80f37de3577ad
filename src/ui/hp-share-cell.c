/* hp-share-cell.c - a share of the samples: heat bar, percentage and count in one widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Every row of the call tree and of the annotated source shows one or two
 * of these, and a GtkListView keeps some 100 to 200 rows of widgets, all
 * rebuilt when a list is first shown. Built from a box, a drawing and two
 * GtkInscriptions, the cells cost over a millisecond per row on the
 * 1M-sample benchmark, most of it creating a PangoContext per label. This
 * widget draws all three in snapshot(): the bar as two rectangles (a
 * faint trough and a bar whose length is the fraction and whose colour
 * runs from yellow to red), the numbers with layouts made from the
 * window's PangoContext, tabular digits, right-aligned in columns of
 * fixed width so that they line up from row to row.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <math.h>

#include "ui/hp-share-cell.h"

#define BAR_WIDTH      40
#define BAR_HEIGHT      8
#define SPACING         6
#define PERCENT_CHARS   7   /* "100.0 %" */

struct _HpShareCell {
  GtkWidget  parent_instance;
  gboolean   show_bar;
  guint      percent_chars;
  guint      count_chars;
  double     fraction;
  char      *percent;
  char      *count;
  /* laid out once, drawn at every snapshot; for the font of font_serial */
  PangoLayout *percent_layout;
  PangoLayout *count_layout;
  guint      font_serial;
};

G_DEFINE_FINAL_TYPE (HpShareCell, hp_share_cell, GTK_TYPE_WIDGET)

static PangoContext *
context_of (HpShareCell *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  /* the window's context: one for all cells instead of one each */
  return gtk_widget_get_pango_context (root ? GTK_WIDGET (root) : GTK_WIDGET (self));
}

static PangoLayout *
make_layout (HpShareCell *self,
             const char  *text)
{
  PangoLayout *layout = pango_layout_new (context_of (self));
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_set_text (layout, text ? text : "", -1);
  return layout;
}

/* The size of a digit, which sizes every cell: measured once per font
 * (a context and its serial, which changes with the font), not once
 * per cell and frame; hundreds of cells are measured when rows are made. */
typedef struct {
  PangoContext *context;  /* not a reference: compared only */
  guint         serial;
  guint         font_hash;
  int           width, height, baseline;
} DigitSize;

static guint font_serial = 1;  /* changes when the cache below does */

static const DigitSize *
digit_size (HpShareCell *self)
{
  static DigitSize cache;
  PangoContext *context = context_of (self);
  guint font_hash = pango_font_description_hash (pango_context_get_font_description (context));

  if (cache.context != context || cache.serial != pango_context_get_serial (context) ||
      cache.font_hash != font_hash)
    {
      g_autoptr(PangoLayout) layout = make_layout (self, "0");

      pango_layout_get_pixel_size (layout, &cache.width, &cache.height);
      cache.baseline = pango_layout_get_baseline (layout) / PANGO_SCALE;
      cache.context = context;
      cache.serial = pango_context_get_serial (context);
      cache.font_hash = font_hash;
      font_serial++;
    }
  return &cache;
}

static int
digit_width (HpShareCell *self)
{
  return digit_size (self)->width;
}

static void
hp_share_cell_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  HpShareCell *self = HP_SHARE_CELL (widget);
  const DigitSize *digit = digit_size (self);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = (self->show_bar ? BAR_WIDTH + SPACING : 0)
                          + digit->width * (self->percent_chars + self->count_chars)
                          + (self->percent_chars && self->count_chars ? SPACING : 0);
  else
    {
      *minimum = *natural = digit->height;
      *minimum_baseline = *natural_baseline = digit->baseline;
    }
}

static void
draw_text (HpShareCell   *self,
           GtkSnapshot   *snapshot,
           PangoLayout  **layout,
           const char    *text,
           int            right,
           int            height,
           const GdkRGBA *color)
{
  int width, text_height;

  if (text == NULL || text[0] == '\0')
    return;
  if (*layout == NULL)
    *layout = make_layout (self, text);
  pango_layout_get_pixel_size (*layout, &width, &text_height);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (right - width, (height - text_height) / 2));
  gtk_snapshot_append_layout (snapshot, *layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
clear_layouts (HpShareCell *self)
{
  g_clear_object (&self->percent_layout);
  g_clear_object (&self->count_layout);
}

static void
hp_share_cell_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  HpShareCell *self = HP_SHARE_CELL (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int digit = digit_width (self);
  GdkRGBA color, dim;

  /* the layouts are shaped once, not at every snapshot: a list's rows
   * are all snapshotted again when it is shown again */
  if (self->font_serial != font_serial)
    {
      clear_layouts (self);
      self->font_serial = font_serial;
    }

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dim = color;
  dim.alpha *= 0.55;

  if (self->show_bar)
    {
      double f = CLAMP (self->fraction, 0.0, 1.0);
      /* a share worth seeing gets at least a sliver; small shares still
       * get some warmth */
      double w = f > 0.0 ? MAX (2.0, f * BAR_WIDTH) : 0.0;
      double t = sqrt (f);
      double y = (height - BAR_HEIGHT) / 2.0;
      GdkRGBA trough = { 0.5, 0.5, 0.5, 0.15 };
      GdkRGBA bar = {
        0.96 - 0.08 * t,
        0.76 - 0.65 * t,
        0.07 + 0.07 * t,
        0.55 + 0.45 * t,
      };

      gtk_snapshot_append_color (snapshot, &trough, &GRAPHENE_RECT_INIT (0, y, BAR_WIDTH, BAR_HEIGHT));
      if (w > 0)
        gtk_snapshot_append_color (snapshot, &bar, &GRAPHENE_RECT_INIT (0, y, w, BAR_HEIGHT));
    }

  draw_text (self, snapshot, &self->count_layout, self->count, width, height, &dim);
  draw_text (self, snapshot, &self->percent_layout, self->percent,
             width - (self->count_chars ? digit * self->count_chars + SPACING : 0), height, &color);
}

static void
hp_share_cell_finalize (GObject *object)
{
  HpShareCell *self = HP_SHARE_CELL (object);

  g_free (self->percent);
  g_free (self->count);
  clear_layouts (self);

  G_OBJECT_CLASS (hp_share_cell_parent_class)->finalize (object);
}

static void
hp_share_cell_class_init (HpShareCellClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = hp_share_cell_finalize;
  widget_class->snapshot = hp_share_cell_snapshot;
  widget_class->measure = hp_share_cell_measure;

  gtk_widget_class_set_css_name (widget_class, "sharecell");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
hp_share_cell_init (HpShareCell *self)
{
}

GtkWidget *
hp_share_cell_new (gboolean show_bar,
                   gboolean show_percent,
                   guint    count_chars)
{
  HpShareCell *self = g_object_new (HP_TYPE_SHARE_CELL, NULL);

  self->show_bar = show_bar;
  self->percent_chars = show_percent ? PERCENT_CHARS : 0;
  self->count_chars = count_chars;
  return GTK_WIDGET (self);
}

void
hp_share_cell_set (HpShareCell *self,
                   double       fraction,
                   const char  *percent,
                   const char  *count)
{
  g_return_if_fail (HP_IS_SHARE_CELL (self));

  self->fraction = CLAMP (fraction, 0.0, 1.0);
  if (g_strcmp0 (self->percent, percent) != 0)
    {
      g_free (self->percent);
      self->percent = g_strdup (percent);
      g_clear_object (&self->percent_layout);
    }
  if (g_strcmp0 (self->count, count) != 0)
    {
      g_free (self->count);
      self->count = g_strdup (count);
      g_clear_object (&self->count_layout);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
hp_share_cell_set_count_chars (HpShareCell *self,
                               guint        count_chars)
{
  g_return_if_fail (HP_IS_SHARE_CELL (self));

  if (self->count_chars == count_chars)
    return;
  self->count_chars = count_chars;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

double
hp_share_cell_get_fraction (HpShareCell *self)
{
  g_return_val_if_fail (HP_IS_SHARE_CELL (self), 0.0);

  return self->fraction;
}

const char *
hp_share_cell_get_percent (HpShareCell *self)
{
  g_return_val_if_fail (HP_IS_SHARE_CELL (self), NULL);

  return self->percent;
}

const char *
hp_share_cell_get_count (HpShareCell *self)
{
  g_return_val_if_fail (HP_IS_SHARE_CELL (self), NULL);

  return self->count;
}
