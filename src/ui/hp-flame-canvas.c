/* hp-flame-canvas.c - draws a flame graph and answers where the pointer is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The boxes come laid out from HpFlameGraph (analysis/); this widget only
 * scales them to its width and draws. Drawing is split in two layers:
 *
 *   boxes    every box at least a pixel wide, with its name, recorded once
 *            into a render node and kept until what it shows changes (the
 *            graph, the zoom, the width, the search, the marks, the
 *            colours or the orientation);
 *   overlay  the selected and the hovered box's outlines, drawn on top at
 *            every snapshot.
 *
 * So moving the pointer costs a hit test (one step per level) and an
 * overlay, never a new layout or a new box layer, however large the
 * capture (docs/ARCHITECTURE.md, How to add a view).
 *
 * Zooming into a box draws it across the whole width with its subtree
 * scaled to match; its ancestors stay, full width and dimmed, so the way
 * back is in view.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "ui/hp-draw.h"
#include "ui/hp-flame-canvas.h"
#include "document/hp-format.h"

#define ROW_HEIGHT   18
#define MARK_CORNER  8     /* the folded corner of a summarized path's box */
#define LABEL_PAD    3
#define MIN_LABEL_PX 24
/* The most of a name a box can show: a 17,000-character C++ name costs
 * a whole shaping at every render otherwise. */
#define MAX_LABEL_CHARS 300
#define MAX_TOOLTIP_CHARS 1000

struct _HpFlameCanvas {
  GtkWidget      parent_instance;

  HpFlameGraph  *graph;       /* borrowed */
  HpLoadedCapture *names;     /* borrowed: the names as the window shows them, or NULL */
  const HpMeasure *measure;   /* borrowed: what the graph's widths count, or NULL (samples) */
  guint          zoom;
  const HpCallNode *selected;
  gint           selected_box;  /* its box, -1 when none */
  char          *search;      /* casefolded, NULL when none */
  GHashTable    *marks;       /* HpCallNode* -> text, borrowed reference */
  gboolean       icicle;
  HpFlameColors  colors;

  gint           hover;
  GskRenderNode *layer;
  int            layer_width;
  int            layer_height;
  guint          n_drawn;
  guint          n_renders;

  /* Labels whole, as shaped at their natural width (see Label) */
  GHashTable    *labels;
  guint          labels_serial;  /* of the pango context they were shaped in */
  guint          n_shaped;
};

G_DEFINE_FINAL_TYPE (HpFlameCanvas, hp_flame_canvas, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ZOOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  BOX_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
invalidate (HpFlameCanvas *self)
{
  g_clear_pointer (&self->layer, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static guint
n_rows (HpFlameCanvas *self)
{
  return self->graph != NULL ? hp_flame_graph_get_depth (self->graph) + 1 : 0;
}

static double
row_y (HpFlameCanvas *self,
       guint          depth)
{
  if (self->icicle)
    return depth * ROW_HEIGHT;
  return gtk_widget_get_height (GTK_WIDGET (self)) - (depth + 1.0) * ROW_HEIGHT;
}

static const HpFlameBox *
get_box (HpFlameCanvas *self,
         guint          index)
{
  guint n;
  const HpFlameBox *boxes = hp_flame_graph_get_boxes (self->graph, &n);

  g_assert (index < n);
  return &boxes[index];
}

/* Pixels per sample inside the zoomed box. */
static double
get_scale (HpFlameCanvas *self)
{
  const HpFlameBox *z = get_box (self, self->zoom);

  return z->width > 0 ? gtk_widget_get_width (GTK_WIDGET (self)) / (double) z->width : 0;
}

static const char *
box_name (HpFlameCanvas    *self,
          const HpFlameBox *box)
{
  if (box->node == NULL)
    return _("(narrow calls merged)");
  if (box->node->function_id == 0)
    return self->measure != NULL && self->measure->by_weight ? _("All") : _("All samples");
  /* the window's shown form: safe, templates folded (hp-symbol-name.h) */
  if (self->names != NULL)
    return hp_loaded_capture_get_shown_name (self->names, box->node->function_id, FALSE);
  return hp_profile_get_function_name (hp_flame_graph_get_profile (self->graph), box->node->function_id);
}

static gboolean
matches_search (HpFlameCanvas    *self,
                const HpFlameBox *box)
{
  g_autofree char *folded = NULL;

  if (self->search == NULL || box->node == NULL || box->node->function_id == 0)
    return FALSE;
  folded = g_utf8_casefold (box_name (self, box), -1);
  return strstr (folded, self->search) != NULL;
}

/* Labels ---------------------------------------------------------------------- */

/* A name shaped once at its natural width, and its text node. Zooming
 * draws the box layer anew, and shaping its few hundred labels was most
 * of the time the main loop then stalled: a box wide enough for its
 * whole name now reuses the node, and only a name cut to a box's width
 * is shaped at that width. Keyed by the text (bold or not), so a new
 * profile of the same capture, whose names are the same, reuses them. */
typedef struct {
  GskRenderNode *node;
  int            width;
  int            height;
} Label;

/* labels kept at most: a layer draws a few hundred, a session of zooms
 * a few thousand */
#define MAX_LABELS 20000

static void
label_free (gpointer p)
{
  Label *label = p;

  g_clear_pointer (&label->node, gsk_render_node_unref);
  g_free (label);
}

static const Label *
get_label (HpFlameCanvas *self,
           PangoLayout   *layout,
           const char    *name,
           gboolean       bold,
           const GdkRGBA *ink)
{
  g_autofree char *key = g_strconcat (bold ? "b" : "r", name, NULL);
  Label *label = g_hash_table_lookup (self->labels, key);
  GtkSnapshot *snapshot;

  if (label != NULL)
    return label;
  if (g_hash_table_size (self->labels) >= MAX_LABELS)
    g_hash_table_remove_all (self->labels);
  label = g_new0 (Label, 1);
  self->n_shaped++;
  pango_layout_set_text (layout, name, -1);
  pango_layout_set_width (layout, -1);
  pango_layout_get_pixel_size (layout, &label->width, &label->height);
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_layout (snapshot, layout, ink);
  label->node = gtk_snapshot_free_to_node (snapshot);
  g_hash_table_insert (self->labels, g_steal_pointer (&key), label);
  return label;
}

/* Rendering the box layer ----------------------------------------------- */

/* The colour a box is filled with, before dimming */
static GdkRGBA
box_fill (HpFlameCanvas    *self,
          const HpFlameBox *box)
{
  gdouble rgb[3];

  /* search matches stand out of any scheme */
  if (matches_search (self, box))
    return (GdkRGBA) { 0.85, 0.2, 0.85, 1 };
  /* time a thread waited (wall and off-CPU views): grey, apart from
   * the warm colours of time on the CPU */
  if (self->names != NULL && box->node != NULL && box->node->function_id != 0 &&
      hp_measure_is_waiting (self->names->data, box->node->function_id))
    return (GdkRGBA) { 0.62, 0.66, 0.72, 1 };
  hp_flame_graph_box_color (self->graph, box, self->colors, rgb);
  return (GdkRGBA) { rgb[0], rgb[1], rgb[2], 1 };
}

typedef struct {
  HpFlameCanvas  *self;
  GtkSnapshot    *snapshot;
  PangoLayout    *layout;
  PangoAttrList  *bold;
  double          scale;
  guint64         zoom_x;
  guint           zoom_depth;
  int             width;
} Render;

static void
draw_box (Render           *r,
          const HpFlameBox *box,
          double            x,
          double            w,
          gboolean          dim)
{
  HpFlameCanvas *self = r->self;
  graphene_rect_t rect;
  GdkRGBA fill = box_fill (self, box), ink = { 0.1, 0.1, 0.1, 1 };
  double y = row_y (self, box->depth);

  if (dim)
    fill.alpha = 0.55;

  /* a one-pixel gap between neighbours, once they are wide enough */
  graphene_rect_init (&rect, x, y, w > 3 ? w - 1 : w, ROW_HEIGHT - 1);
  gtk_snapshot_append_color (r->snapshot, &fill, &rect);
  r->self->n_drawn++;

  /* A summarized path: a strip at the box's start, and a folded corner
   * at its end, as a note is marked. The strip alone, 4 px of dark blue
   * at a box's edge, read as the selection's outline (also blue), or
   * was not seen at all. */
  if (box->node != NULL && self->marks != NULL && g_hash_table_contains (self->marks, box->node))
    {
      GdkRGBA mark = { 0.1, 0.3, 0.75, 1 };
      graphene_rect_t strip;

      graphene_rect_init (&strip, x, y, MIN (4, w), ROW_HEIGHT - 1);
      gtk_snapshot_append_color (r->snapshot, &mark, &strip);
      if (w >= 2 * MARK_CORNER)
        for (int i = 0; i < MARK_CORNER; i++)
          {
            graphene_rect_t step;

            /* its right edge where the box's fill ends, before the gap */
            graphene_rect_init (&step, x + w - 1 - (MARK_CORNER - i), y + i, MARK_CORNER - i, 1);
            gtk_snapshot_append_color (r->snapshot, &mark, &step);
          }
    }

  if (w >= MIN_LABEL_PX)
    {
      const char *name = box_name (self, box);
      g_autofree char *cut = NULL;
      const Label *label;

      if (g_utf8_strlen (name, MAX_LABEL_CHARS + 1) > MAX_LABEL_CHARS)
        name = cut = g_utf8_substring (name, 0, MAX_LABEL_CHARS);
      pango_layout_set_attributes (r->layout, box->hot ? r->bold : NULL);
      label = get_label (self, r->layout, name, box->hot, &ink);
      if (label->node != NULL && label->width <= w - 2 * LABEL_PAD)
        {
          /* placed as hp_draw_text() places it: centred in the row */
          gtk_snapshot_save (r->snapshot);
          gtk_snapshot_translate (r->snapshot, &GRAPHENE_POINT_INIT (x + LABEL_PAD, y + (ROW_HEIGHT - 1 - label->height) / 2.0));
          gtk_snapshot_append_node (r->snapshot, label->node);
          gtk_snapshot_restore (r->snapshot);
        }
      else
        hp_draw_text (r->snapshot, r->layout, name, x + LABEL_PAD, y, w - 2 * LABEL_PAD, ROW_HEIGHT - 1, &ink);
    }
}

static void
visit_cb (const HpFlameBox *box,
          gpointer          user_data)
{
  Render *r = user_data;

  draw_box (r, box, (box->x - r->zoom_x) * r->scale, box->width * r->scale, FALSE);
}

static GskRenderNode *
render_layer (HpFlameCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const HpFlameBox *z = get_box (self, self->zoom);
  Render r = { 0 };

  r.self = self;
  r.snapshot = gtk_snapshot_new ();
  r.layout = hp_draw_line_layout_new (widget);
  /* labels shaped with another font (or scale) are no longer right: the
   * widget's own context changes its serial when its style does */
  if (pango_context_get_serial (gtk_widget_get_pango_context (widget)) != self->labels_serial)
    {
      g_hash_table_remove_all (self->labels);
      self->labels_serial = pango_context_get_serial (gtk_widget_get_pango_context (widget));
    }
  r.bold = pango_attr_list_new ();
  pango_attr_list_insert (r.bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  r.width = gtk_widget_get_width (widget);
  r.scale = get_scale (self);
  r.zoom_x = z->x;
  r.zoom_depth = z->depth;
  self->n_drawn = 0;
  self->n_renders++;

  /* the zoomed box's ancestors, full width and dimmed */
  for (guint d = 0; d < z->depth; d++)
    {
      gint a = hp_flame_graph_hit (self->graph, 0, z->x, d);

      if (a >= 0)
        draw_box (&r, get_box (self, (guint) a), 0, r.width, TRUE);
    }
  if (r.scale > 0)
    hp_flame_graph_visit (self->graph, self->zoom, 1.0 / r.scale, visit_cb, &r);

  pango_attr_list_unref (r.bold);
  g_object_unref (r.layout);
  return gtk_snapshot_free_to_node (r.snapshot);
}

/* Geometry ---------------------------------------------------------------- */

gboolean
hp_flame_canvas_get_box_area (HpFlameCanvas   *self,
                              guint            index,
                              graphene_rect_t *area)
{
  const HpFlameBox *z, *b;
  double scale, x, w;
  guint n;

  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), FALSE);
  g_return_val_if_fail (area != NULL, FALSE);

  if (self->graph == NULL)
    return FALSE;
  hp_flame_graph_get_boxes (self->graph, &n);
  if (index >= n)
    return FALSE;
  z = get_box (self, self->zoom);
  b = get_box (self, index);
  scale = get_scale (self);
  if (b->depth < z->depth)
    {
      /* an ancestor of the zoom spans the width */
      if (b->x > z->x || b->x + b->width < z->x + z->width)
        return FALSE;
      x = 0;
      w = gtk_widget_get_width (GTK_WIDGET (self));
    }
  else
    {
      if (index < self->zoom || index >= z->end)
        return FALSE;
      x = (b->x - z->x) * scale;
      w = b->width * scale;
    }
  if (w < 1)
    return FALSE;
  graphene_rect_init (area, x, row_y (self, b->depth), w, ROW_HEIGHT - 1);
  return TRUE;
}

void
hp_flame_canvas_get_box_fill (HpFlameCanvas *self,
                              guint          index,
                              GdkRGBA       *fill)
{
  guint n = 0;

  g_return_if_fail (HP_IS_FLAME_CANVAS (self));
  g_return_if_fail (fill != NULL);
  g_return_if_fail (self->graph != NULL);

  hp_flame_graph_get_boxes (self->graph, &n);
  g_return_if_fail (index < n);
  *fill = box_fill (self, get_box (self, index));
}

gint
hp_flame_canvas_box_at (HpFlameCanvas *self,
                        double         x,
                        double         y)
{
  const HpFlameBox *z;
  double scale, depth_f;
  guint depth;
  gint index;
  graphene_rect_t area;

  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), -1);

  if (self->graph == NULL || x < 0 || y < 0)
    return -1;
  depth_f = self->icicle ? y / ROW_HEIGHT
                         : (gtk_widget_get_height (GTK_WIDGET (self)) - y) / ROW_HEIGHT;
  if (depth_f < 0)
    return -1;
  depth = (guint) depth_f;
  z = get_box (self, self->zoom);
  if (depth < z->depth)
    index = hp_flame_graph_hit (self->graph, 0, z->x, depth);
  else
    {
      scale = get_scale (self);
      if (scale <= 0)
        return -1;
      index = hp_flame_graph_hit (self->graph, self->zoom, z->x + (guint64) (x / scale), depth);
    }
  /* only what is drawn can be pointed at */
  if (index < 0 || !hp_flame_canvas_get_box_area (self, (guint) index, &area))
    return -1;
  return index;
}

char *
hp_flame_canvas_describe_box (HpFlameCanvas *self,
                              guint          index)
{
  HpProfile *profile;
  const HpFlameBox *b;
  guint64 whole;
  g_autofree char *name = NULL;
  g_autofree char *total = NULL;
  g_autofree char *self_share = NULL;
  GString *text;
  const char *mark;

  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), NULL);
  g_return_val_if_fail (self->graph != NULL, NULL);

  profile = hp_flame_graph_get_profile (self->graph);
  b = get_box (self, index);
  whole = hp_profile_get_n_samples (profile);
  if (self->names != NULL && b->node != NULL && b->node->function_id != 0)
    name = hp_loaded_capture_dup_tooltip_name (self->names, b->node->function_id);
  else
    name = g_utf8_make_valid (box_name (self, b), -1);
  if (g_utf8_strlen (name, -1) > MAX_TOOLTIP_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (name, 0, MAX_TOOLTIP_CHARS);

      g_free (name);
      name = g_strconcat (cut, "…", NULL);
    }
  text = g_string_new (name);
  total = hp_format_share_of (self->measure, b->width, whole);
  if (b->node != NULL && b->node->function_id != 0)
    {
      g_autofree char *tiers = NULL;

      self_share = hp_format_share (b->node->self, whole);
      self_share = hp_format_share_of (self->measure, b->node->self, whole);
      /* Translators: hover text of a flame graph box; each %s is a share such as "12.3 % (1234)" */
      g_string_append_printf (text, _("\nTotal: %s · Self: %s"), total, self_share);
      g_string_append_printf (text, "\n%s", self->names != NULL
                              ? hp_loaded_capture_get_shown_module (self->names, b->node->function_id)
                              : hp_profile_get_module_name (profile, b->node->function_id));
      if (self->names != NULL &&
          (tiers = hp_loaded_capture_dup_tier_text (self->names, b->node->function_id)) != NULL)
        g_string_append_printf (text, "\n%s", tiers);
    }
  else
    g_string_append_printf (text, "\n%s", total);
  if (b->node != NULL && self->marks != NULL
      && (mark = g_hash_table_lookup (self->marks, b->node)) != NULL)
    g_string_append_printf (text, _("\nSummary: %s"), mark);
  return g_string_free (text, FALSE);
}

/* GtkWidget --------------------------------------------------------------- */

static void
hp_flame_canvas_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 400;
    }
  else
    *minimum = *natural = MAX (1, n_rows (self)) * ROW_HEIGHT;
}

static void
hp_flame_canvas_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (widget);

  /* in flame orientation rows are counted from the bottom */
  if (width != self->layer_width || height != self->layer_height)
    {
      self->layer_width = width;
      self->layer_height = height;
      g_clear_pointer (&self->layer, gsk_render_node_unref);
    }
}

static void
outline (GtkSnapshot           *snapshot,
         const graphene_rect_t *area,
         const GdkRGBA         *color,
         float                  width)
{
  GskRoundedRect rect;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rect, area, 0);
  gtk_snapshot_append_border (snapshot, &rect, widths, colors);
}

static void
hp_flame_canvas_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (widget);
  graphene_rect_t area;
  gint selected;

  if (self->graph == NULL)
    return;
  if (self->layer == NULL)
    self->layer = render_layer (self);
  if (self->layer != NULL)
    gtk_snapshot_append_node (snapshot, self->layer);

  selected = self->selected_box;
  if (selected >= 0 && hp_flame_canvas_get_box_area (self, (guint) selected, &area))
    outline (snapshot, &area, &(GdkRGBA) { 0.11, 0.35, 0.85, 1 }, 2);
  if (self->hover >= 0 && hp_flame_canvas_get_box_area (self, (guint) self->hover, &area))
    outline (snapshot, &area, &(GdkRGBA) { 0, 0, 0, 0.8 }, 1);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (widget);
  gint index = hp_flame_canvas_box_at (self, x, y);
  g_autofree char *text = NULL;
  graphene_rect_t area;
  GdkRectangle tip_area;

  if (index < 0)
    return FALSE;
  text = hp_flame_canvas_describe_box (self, (guint) index);
  gtk_tooltip_set_text (tooltip, text);
  if (hp_flame_canvas_get_box_area (self, (guint) index, &area))
    {
      tip_area = (GdkRectangle) { (int) area.origin.x, (int) area.origin.y,
                                  MAX (1, (int) area.size.width), (int) area.size.height };
      gtk_tooltip_set_tip_area (tooltip, &tip_area);
    }
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           HpFlameCanvas            *self)
{
  gint index = hp_flame_canvas_box_at (self, x, y);

  if (index != self->hover)
    {
      self->hover = index;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_leave (GtkEventControllerMotion *controller,
          HpFlameCanvas            *self)
{
  if (self->hover >= 0)
    {
      self->hover = -1;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            HpFlameCanvas   *self)
{
  gint index = hp_flame_canvas_box_at (self, x, y);

  if (index < 0)
    return;
  if (n_press == 2)
    hp_flame_canvas_set_zoom (self, get_box (self, (guint) index)->node != NULL ? (guint) index : self->zoom);
  else if (n_press == 1 && get_box (self, (guint) index)->node != NULL)
    g_signal_emit (self, signals[BOX_ACTIVATED], 0, (guint) index);
}

static void
hp_flame_canvas_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (object);

  switch (prop_id)
    {
    case PROP_ZOOM:
      g_value_set_uint (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_flame_canvas_finalize (GObject *object)
{
  HpFlameCanvas *self = HP_FLAME_CANVAS (object);

  g_clear_pointer (&self->layer, gsk_render_node_unref);
  g_clear_pointer (&self->marks, g_hash_table_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_free (self->search);
  G_OBJECT_CLASS (hp_flame_canvas_parent_class)->finalize (object);
}

static void
hp_flame_canvas_class_init (HpFlameCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = hp_flame_canvas_get_property;
  object_class->finalize = hp_flame_canvas_finalize;
  widget_class->measure = hp_flame_canvas_measure;
  widget_class->size_allocate = hp_flame_canvas_size_allocate;
  widget_class->snapshot = hp_flame_canvas_snapshot;

  properties[PROP_ZOOM] =
    g_param_spec_uint ("zoom", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* (index) a box was clicked */
  signals[BOX_ACTIVATED] =
    g_signal_new ("box-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "flamegraph");
}

static void
hp_flame_canvas_init (HpFlameCanvas *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->hover = -1;
  self->selected_box = -1;
  self->labels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, label_free);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

void
hp_flame_canvas_set_names (HpFlameCanvas   *self,
                           HpLoadedCapture *names)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  self->names = names;
  invalidate (self);
}

void
hp_flame_canvas_set_measure (HpFlameCanvas   *self,
                             const HpMeasure *measure)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  self->measure = measure;
}

GtkWidget *
hp_flame_canvas_new (void)
{
  return g_object_new (HP_TYPE_FLAME_CANVAS, NULL);
}

void
hp_flame_canvas_set_graph (HpFlameCanvas *self,
                           HpFlameGraph  *graph)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  self->graph = graph;
  self->zoom = 0;
  self->hover = -1;
  /* one search per selection, not one per frame */
  self->selected_box = graph != NULL && self->selected != NULL ? hp_flame_graph_find_node (graph, self->selected) : -1;
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

HpFlameGraph *
hp_flame_canvas_get_graph (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), NULL);

  return self->graph;
}

void
hp_flame_canvas_set_zoom (HpFlameCanvas *self,
                          guint          index)
{
  guint n = 0;

  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (self->graph != NULL)
    hp_flame_graph_get_boxes (self->graph, &n);
  if (index >= n)
    index = 0;
  if (index == self->zoom)
    return;
  self->zoom = index;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
}

guint
hp_flame_canvas_get_zoom (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), 0);

  return self->zoom;
}

void
hp_flame_canvas_set_selected (HpFlameCanvas    *self,
                              const HpCallNode *node)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (self->selected == node)
    return;
  self->selected = node;
  self->selected_box = self->graph != NULL && node != NULL ? hp_flame_graph_find_node (self->graph, node) : -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const HpCallNode *
hp_flame_canvas_get_selected (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), NULL);

  return self->selected;
}

void
hp_flame_canvas_set_search (HpFlameCanvas *self,
                            const char    *text)
{
  g_autofree char *folded = NULL;

  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (text != NULL && text[0] != '\0')
    folded = g_utf8_casefold (text, -1);
  if (g_strcmp0 (folded, self->search) == 0)
    return;
  g_free (self->search);
  self->search = g_steal_pointer (&folded);
  invalidate (self);
}

void
hp_flame_canvas_set_marks (HpFlameCanvas *self,
                           GHashTable    *marks)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (marks != NULL)
    g_hash_table_ref (marks);
  g_clear_pointer (&self->marks, g_hash_table_unref);
  self->marks = marks;
  invalidate (self);
}

void
hp_flame_canvas_set_icicle (HpFlameCanvas *self,
                            gboolean       icicle)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (self->icicle == !!icicle)
    return;
  self->icicle = !!icicle;
  invalidate (self);
}

void
hp_flame_canvas_set_colors (HpFlameCanvas *self,
                            HpFlameColors  colors)
{
  g_return_if_fail (HP_IS_FLAME_CANVAS (self));

  if (self->colors == colors)
    return;
  self->colors = colors;
  invalidate (self);
}

guint
hp_flame_canvas_get_n_drawn (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), 0);

  return self->n_drawn;
}

guint
hp_flame_canvas_get_n_renders (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), 0);

  return self->n_renders;
}

guint
hp_flame_canvas_get_n_shaped (HpFlameCanvas *self)
{
  g_return_val_if_fail (HP_IS_FLAME_CANVAS (self), 0);

  return self->n_shaped;
}
