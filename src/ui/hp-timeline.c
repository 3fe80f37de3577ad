/* hp-timeline.c - sample density per thread over time, and a time range
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * One lane per thread, grouped by process (a header line names each
 * process), each lane named by its thread's name and start function and
 * showing how many samples fell in each slice of time. Dragging across
 * the lanes selects a time range; clicking a lane's name selects that
 * thread (Ctrl adds or removes it). The widget only says what was
 * selected ("selection-changed", "threads-changed"); the window rebuilds
 * the profile off the main thread and every view follows it.
 *
 * The lanes are drawn into a render node that is kept until the samples,
 * the width, the visible span or the thread selection change; the range
 * being dragged is an overlay, so dragging never recounts a sample.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "document/hp-loaded-capture.h"
#include "document/hp-thread-list.h"
#include "ui/hp-draw.h"
#include "ui/hp-timeline.h"

/* the names' column: as wide as the widest name, within bounds; names
 * start LABEL_START from the left and end LABEL_END before the lanes */
#define MIN_LABEL_WIDTH 200
#define MAX_LABEL_SHARE 0.4
#define LABEL_START    12
#define LABEL_END      8
#define LANE_HEIGHT    24
#define HEADER_HEIGHT  18
#define BIN_WIDTH      2
#define CLICK_SLOP     3

typedef struct {
  gint32 tid;
  gint32 pid;
  guint  thread;     /* index in the sample index */
  char  *label;      /* "name (tid) — start function" */
  char  *process;    /* set on the first lane of a process: its header */
} Lane;

struct _HpTimeline {
  GtkWidget            parent_instance;

  HpSampleIndex       *samples;   /* borrowed */
  const HpCaptureData *data;      /* borrowed */
  const char * const  *starts;    /* borrowed: per entry of data->threads; NULL */
  GArray              *lanes;     /* Lane */
  int                  names_width; /* the widest lane name's, in px */
  guint64              view_from;
  guint64              view_to;
  gboolean             has_range;
  guint64              range_from;
  guint64              range_to;
  GHashTable          *tids;      /* selected threads, NULL: all */
  guint64              event_mask; /* the events the lanes count (bit id - 1) */

  gboolean             dragging;
  double               drag_x;
  double               drag_now;

  GskRenderNode       *layer;
  int                  layer_width;
  guint                n_layers;  /* lanes rendered since made, for tests */
};

G_DEFINE_FINAL_TYPE (HpTimeline, hp_timeline, GTK_TYPE_WIDGET)

enum {
  SELECTION_CHANGED,
  THREADS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
lane_clear (gpointer p)
{
  Lane *lane = p;

  g_free (lane->label);
  g_free (lane->process);
}

static void
invalidate (HpTimeline *self)
{
  g_clear_pointer (&self->layer, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Geometry ---------------------------------------------------------------- */

/* The names' column. A fifth of the width cut the start function off
 * every name at 1024 px ("hp-worker-1 (15082) — w…"): it takes what the
 * widest name needs, up to MAX_LABEL_SHARE of the width, where a name
 * too long is cut in its middle so that the start function's end shows. */
static double
label_width (HpTimeline *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  return MAX (MIN_LABEL_WIDTH, MIN (self->names_width + LABEL_START + LABEL_END, width * MAX_LABEL_SHARE));
}

static double
lanes_width (HpTimeline *self)
{
  return MAX (1, gtk_widget_get_width (GTK_WIDGET (self)) - label_width (self));
}

guint64
hp_timeline_time_at (HpTimeline *self,
                     double      x)
{
  double f;

  g_return_val_if_fail (HP_IS_TIMELINE (self), 0);

  f = CLAMP ((x - label_width (self)) / lanes_width (self), 0, 1);
  return self->view_from + (guint64) (f * (double) (self->view_to - self->view_from) + 0.5);
}

static double
x_of_time (HpTimeline *self,
           guint64     time)
{
  double span = MAX (1.0, (double) (self->view_to - self->view_from));

  if (time <= self->view_from)
    return label_width (self);
  return label_width (self) + (double) (time - self->view_from) / span * lanes_width (self);
}

/* y of each lane's top; the process headers take a line each */
static double
lane_y (HpTimeline *self,
        guint       index)
{
  double y = 0;

  for (guint i = 0; i <= index; i++)
    {
      const Lane *lane = &g_array_index (self->lanes, Lane, i);

      if (lane->process != NULL)
        y += HEADER_HEIGHT;
      if (i < index)
        y += LANE_HEIGHT;
    }
  return y;
}

static gint
lane_at (HpTimeline *self,
         double      y)
{
  for (guint i = 0; i < self->lanes->len; i++)
    {
      double top = lane_y (self, i);

      if (y >= top && y < top + LANE_HEIGHT)
        return (gint) i;
    }
  return -1;
}

/* Lanes -------------------------------------------------------------------- */

static int
compare_lanes (gconstpointer a,
               gconstpointer b)
{
  const Lane *la = a, *lb = b;

  if (la->pid != lb->pid)
    return la->pid < lb->pid ? -1 : 1;
  return la->tid < lb->tid ? -1 : la->tid > lb->tid;
}

static void
measure_names (HpTimeline *self)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);

  self->names_width = 0;
  for (guint i = 0; i < self->lanes->len; i++)
    {
      int width;

      pango_layout_set_text (layout, g_array_index (self->lanes, Lane, i).label, -1);
      pango_layout_get_pixel_size (layout, &width, NULL);
      self->names_width = MAX (self->names_width, width);
    }
}

static void
build_lanes (HpTimeline *self)
{
  g_array_set_size (self->lanes, 0);
  if (self->samples == NULL)
    return;

  for (guint t = 0; t < hp_sample_index_get_n_threads (self->samples); t++)
    {
      Lane lane = { 0 };
      const char *name = NULL;
      guint entry = G_MAXUINT;

      lane.tid = hp_sample_index_get_tid (self->samples, t);
      lane.pid = lane.tid;
      lane.thread = t;
      for (guint i = 0; i < self->data->threads->len; i++)
        {
          const HpCaptureThread *th = &g_array_index (self->data->threads, HpCaptureThread, i);

          if (th->tid == lane.tid)
            {
              lane.pid = th->pid;
              name = th->name;
              entry = i;
              break;
            }
        }
      {
        /* a pass over the stack counts per lane without them: a second
         * on the main thread for a capture of the whole system */
        const char *start = self->starts != NULL ? (entry != G_MAXUINT ? self->starts[entry] : NULL)
                                                 : hp_thread_start_function (self->data, lane.tid);
        g_autofree char *valid_name = g_utf8_make_valid (name ? name : "?", -1);

        if (start != NULL)
          {
            g_autofree char *valid_start = g_utf8_make_valid (start, -1);

            lane.label = g_strdup_printf ("%s (%d) — %s", valid_name, lane.tid, valid_start);
          }
        else
          lane.label = g_strdup_printf ("%s (%d)", valid_name, lane.tid);
      }
      g_array_append_val (self->lanes, lane);
    }
  g_array_sort (self->lanes, compare_lanes);

  for (guint i = 0; i < self->lanes->len; i++)
    {
      Lane *lane = &g_array_index (self->lanes, Lane, i);
      const char *command = NULL;
      g_autofree char *valid = NULL;

      if (i > 0 && g_array_index (self->lanes, Lane, i - 1).pid == lane->pid)
        continue;
      for (guint p = 0; p < self->data->processes->len; p++)
        if (g_array_index (self->data->processes, HpCaptureProcess, p).pid == lane->pid)
          command = g_array_index (self->data->processes, HpCaptureProcess, p).command;
      valid = g_utf8_make_valid (command ? command : "?", -1);
      /* Translators: a process in the timeline, "make (pid 1234)" */
      lane->process = g_strdup_printf (_("%s (pid %d)"), valid, lane->pid);
    }
  measure_names (self);
}

/* Drawing ------------------------------------------------------------------ */

static GskRenderNode *
render_lanes (HpTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(PangoLayout) layout = hp_draw_line_layout_new (widget);
  g_autoptr(PangoLayout) name_layout = hp_draw_line_layout_new (widget);
  double width = lanes_width (self);
  guint n_bins = MAX (1, (guint) (width / BIN_WIDTH));
  g_autofree guint32 *bins = g_new0 (guint32, n_bins);
  g_autoptr(GPtrArray) all_bins = g_ptr_array_new_with_free_func (g_free);
  guint32 max = 1;
  GdkRGBA ink, dim, bar = { 0.89, 0.45, 0.13, 1 }, line;

  self->n_layers++;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &ink);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dim = ink;
  dim.alpha = 0.55;
  line = ink;
  line.alpha = 0.12;
  pango_layout_set_ellipsize (name_layout, PANGO_ELLIPSIZE_MIDDLE);

  for (guint i = 0; i < self->lanes->len; i++)
    {
      const Lane *lane = &g_array_index (self->lanes, Lane, i);
      guint32 *lane_bins = g_new0 (guint32, n_bins);

      hp_sample_index_density (self->samples, lane->thread, self->event_mask,
                               self->view_from, self->view_to, n_bins, lane_bins);
      for (guint b = 0; b < n_bins; b++)
        max = MAX (max, lane_bins[b]);
      g_ptr_array_add (all_bins, lane_bins);
    }

  for (guint i = 0; i < self->lanes->len; i++)
    {
      const Lane *lane = &g_array_index (self->lanes, Lane, i);
      const guint32 *lane_bins = g_ptr_array_index (all_bins, i);
      double y = lane_y (self, i);
      gboolean selected = self->tids == NULL || g_hash_table_contains (self->tids, GINT_TO_POINTER (lane->tid));
      GdkRGBA fill = bar;

      if (lane->process != NULL)
        hp_draw_text (snapshot, layout, lane->process, 4, y - HEADER_HEIGHT, label_width (self) + width - 8, HEADER_HEIGHT, &dim);
      if (self->tids != NULL && selected)
        {
          GdkRGBA mark = { 0.21, 0.52, 0.89, 0.18 };

          gtk_snapshot_append_color (snapshot, &mark, &GRAPHENE_RECT_INIT (0, y, label_width (self) - 4, LANE_HEIGHT - 1));
        }
      hp_draw_text (snapshot, name_layout, lane->label, LABEL_START, y, label_width (self) - LABEL_START - LABEL_END,
                    LANE_HEIGHT, selected ? &ink : &dim);
      gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (label_width (self), y + LANE_HEIGHT - 1, width, 1));
      if (!selected)
        fill.alpha = 0.3;
      for (guint b = 0; b < n_bins; b++)
        if (lane_bins[b] > 0)
          {
            double h = MAX (1.0, (LANE_HEIGHT - 4) * (double) lane_bins[b] / max);

            gtk_snapshot_append_color (snapshot, &fill,
                                       &GRAPHENE_RECT_INIT (label_width (self) + b * BIN_WIDTH, y + LANE_HEIGHT - 2 - h,
                                                            BIN_WIDTH, h));
          }
    }
  return gtk_snapshot_free_to_node (snapshot);
}

static void
hp_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  HpTimeline *self = HP_TIMELINE (widget);
  double height = gtk_widget_get_height (widget);
  double x0, x1;

  if (self->samples == NULL)
    return;
  if (self->layer == NULL)
    self->layer = render_lanes (self);
  /* no lanes (no samples of the event shown) draw nothing at all */
  if (self->layer != NULL)
    gtk_snapshot_append_node (snapshot, self->layer);

  if (self->dragging)
    {
      x0 = MIN (self->drag_x, self->drag_now);
      x1 = MAX (self->drag_x, self->drag_now);
    }
  else if (self->has_range)
    {
      x0 = x_of_time (self, self->range_from);
      x1 = x_of_time (self, self->range_to);
    }
  else
    return;
  x0 = MAX (x0, label_width (self));
  x1 = MAX (x1, x0 + 1);
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.21, 0.52, 0.89, 0.22 },
                             &GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height));
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.21, 0.52, 0.89, 0.9 }, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.21, 0.52, 0.89, 0.9 }, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
}

static void
hp_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  HpTimeline *self = HP_TIMELINE (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MIN_LABEL_WIDTH + 100;
      *natural = MIN_LABEL_WIDTH + 600;
    }
  else
    *minimum = *natural = self->lanes->len > 0 ? (int) lane_y (self, self->lanes->len - 1) + LANE_HEIGHT : LANE_HEIGHT;
}

static void
hp_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  HpTimeline *self = HP_TIMELINE (widget);

  if (width != self->layer_width)
    {
      self->layer_width = width;
      g_clear_pointer (&self->layer, gsk_render_node_unref);
    }
}

/* Input ---------------------------------------------------------------------- */

/* A lane's name whole, over the names' column: cut, it is the only way
 * to read it */
static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  HpTimeline *self)
{
  gint lane;

  if (keyboard || self->samples == NULL || x >= label_width (self))
    return FALSE;
  lane = lane_at (self, y);
  if (lane < 0)
    return FALSE;
  gtk_tooltip_set_text (tooltip, g_array_index (self->lanes, Lane, lane).label);
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               HpTimeline     *self)
{
  if (self->samples == NULL)
    return;
  if (x < label_width (self))
    {
      gint lane = lane_at (self, y);
      GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

      if (lane >= 0)
        hp_timeline_toggle_thread (self, g_array_index (self->lanes, Lane, lane).tid,
                                   (state & GDK_CONTROL_MASK) != 0);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  self->dragging = TRUE;
  self->drag_x = self->drag_now = x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                HpTimeline     *self)
{
  if (!self->dragging)
    return;
  self->drag_now = CLAMP (self->drag_x + dx, label_width (self), gtk_widget_get_width (GTK_WIDGET (self)));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             HpTimeline     *self)
{
  double x0, x1;

  if (!self->dragging)
    return;
  self->dragging = FALSE;
  if (ABS (dx) < CLICK_SLOP)
    {
      /* a click in the lanes clears the range */
      hp_timeline_set_selection (self, FALSE, 0, 0);
      return;
    }
  x0 = MIN (self->drag_x, self->drag_x + dx);
  x1 = MAX (self->drag_x, self->drag_x + dx);
  hp_timeline_set_selection (self, TRUE, hp_timeline_time_at (self, x0), hp_timeline_time_at (self, x1));
}

/* GObject ------------------------------------------------------------------- */

static void
hp_timeline_finalize (GObject *object)
{
  HpTimeline *self = HP_TIMELINE (object);

  g_clear_pointer (&self->layer, gsk_render_node_unref);
  g_clear_pointer (&self->tids, g_hash_table_unref);
  g_array_unref (self->lanes);
  G_OBJECT_CLASS (hp_timeline_parent_class)->finalize (object);
}

static void
hp_timeline_class_init (HpTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = hp_timeline_finalize;
  widget_class->snapshot = hp_timeline_snapshot;
  widget_class->measure = hp_timeline_measure;
  widget_class->size_allocate = hp_timeline_size_allocate;

  /* the range or its absence changed (hp_timeline_get_selection) */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* the selected threads changed (hp_timeline_get_selected_tids) */
  signals[THREADS_CHANGED] =
    g_signal_new ("threads-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
hp_timeline_init (HpTimeline *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->lanes = g_array_new (FALSE, TRUE, sizeof (Lane));
  g_array_set_clear_func (self->lanes, lane_clear);
  self->event_mask = HP_SAMPLE_INDEX_ALL_EVENTS;
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
}

GtkWidget *
hp_timeline_new (void)
{
  return g_object_new (HP_TYPE_TIMELINE, NULL);
}

void
hp_timeline_set_samples (HpTimeline          *self,
                         HpSampleIndex       *samples,
                         const HpCaptureData *data,
                         const char * const  *starts)
{
  g_return_if_fail (HP_IS_TIMELINE (self));
  g_return_if_fail (samples == NULL || data != NULL);

  self->samples = samples;
  self->data = data;
  self->starts = starts;
  self->has_range = FALSE;
  g_clear_pointer (&self->tids, g_hash_table_unref);
  build_lanes (self);
  hp_timeline_zoom_out (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
hp_timeline_set_selection (HpTimeline *self,
                           gboolean    has_range,
                           guint64     from,
                           guint64     to)
{
  g_return_if_fail (HP_IS_TIMELINE (self));

  if (has_range && from > to)
    {
      guint64 swap = from;

      from = to;
      to = swap;
    }
  if (self->has_range == has_range && (!has_range || (self->range_from == from && self->range_to == to)))
    return;
  self->has_range = has_range;
  self->range_from = has_range ? from : 0;
  self->range_to = has_range ? to : 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

gboolean
hp_timeline_get_selection (HpTimeline *self,
                           guint64    *from,
                           guint64    *to)
{
  g_return_val_if_fail (HP_IS_TIMELINE (self), FALSE);

  if (from != NULL)
    *from = self->range_from;
  if (to != NULL)
    *to = self->range_to;
  return self->has_range;
}

void
hp_timeline_set_selected_tids (HpTimeline *self,
                               GHashTable *tids)
{
  g_return_if_fail (HP_IS_TIMELINE (self));

  /* every new profile passes its threads: the same ones (a range, a
   * fold) must not count every sample into the lanes again, 15% of the
   * CPU of a range on the 1M-sample stress capture */
  if (hp_id_set_equal (self->tids, tids))
    return;
  g_clear_pointer (&self->tids, g_hash_table_unref);
  if (tids != NULL && g_hash_table_size (tids) > 0)
    {
      GHashTableIter iter;
      gpointer key;

      self->tids = g_hash_table_new (NULL, NULL);
      g_hash_table_iter_init (&iter, tids);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (self->tids, key);
    }
  invalidate (self);
}

GHashTable *
hp_timeline_get_selected_tids (HpTimeline *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE (self), NULL);

  return self->tids;
}

void
hp_timeline_toggle_thread (HpTimeline *self,
                           gint32      tid,
                           gboolean    add)
{
  gpointer key = GINT_TO_POINTER (tid);

  g_return_if_fail (HP_IS_TIMELINE (self));

  if (add)
    {
      if (self->tids == NULL)
        self->tids = g_hash_table_new (NULL, NULL);
      if (!g_hash_table_remove (self->tids, key))
        g_hash_table_add (self->tids, key);
      if (g_hash_table_size (self->tids) == 0)
        g_clear_pointer (&self->tids, g_hash_table_unref);
    }
  else if (self->tids != NULL && g_hash_table_size (self->tids) == 1 && g_hash_table_contains (self->tids, key))
    g_clear_pointer (&self->tids, g_hash_table_unref);  /* the only one again: all threads */
  else
    {
      g_clear_pointer (&self->tids, g_hash_table_unref);
      self->tids = g_hash_table_new (NULL, NULL);
      g_hash_table_add (self->tids, key);
    }
  invalidate (self);
  g_signal_emit (self, signals[THREADS_CHANGED], 0);
}

void
hp_timeline_zoom_to_selection (HpTimeline *self)
{
  g_return_if_fail (HP_IS_TIMELINE (self));

  if (!self->has_range || self->range_to <= self->range_from)
    return;
  self->view_from = self->range_from;
  self->view_to = self->range_to;
  invalidate (self);
}

void
hp_timeline_set_event_mask (HpTimeline *self,
                            guint64     event_mask)
{
  g_return_if_fail (HP_IS_TIMELINE (self));

  if (self->event_mask == event_mask)
    return;
  self->event_mask = event_mask;
  invalidate (self);
}

guint64
hp_timeline_get_event_mask (HpTimeline *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE (self), 0);

  return self->event_mask;
}

void
hp_timeline_zoom_out (HpTimeline *self)
{
  g_return_if_fail (HP_IS_TIMELINE (self));

  self->view_from = self->samples ? hp_sample_index_get_start (self->samples) : 0;
  self->view_to = self->samples ? hp_sample_index_get_end (self->samples) : 0;
  invalidate (self);
}

guint
hp_timeline_get_n_layers (HpTimeline *self)
{
  g_return_val_if_fail (HP_IS_TIMELINE (self), 0);

  return self->n_layers;
}

GPtrArray *
hp_timeline_get_lane_labels (HpTimeline *self)
{
  GPtrArray *labels = g_ptr_array_new ();

  g_return_val_if_fail (HP_IS_TIMELINE (self), labels);

  for (guint i = 0; i < self->lanes->len; i++)
    g_ptr_array_add (labels, g_array_index (self->lanes, Lane, i).label);
  return labels;
}

guint
hp_timeline_count_cut_names (HpTimeline *self)
{
  g_autoptr(PangoLayout) layout = NULL;
  guint cut = 0;

  g_return_val_if_fail (HP_IS_TIMELINE (self), 0);

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  for (guint i = 0; i < self->lanes->len; i++)
    {
      int width;

      pango_layout_set_text (layout, g_array_index (self->lanes, Lane, i).label, -1);
      pango_layout_get_pixel_size (layout, &width, NULL);
      if (width > label_width (self) - LABEL_START - LABEL_END)
        cut++;
    }
  return cut;
}
