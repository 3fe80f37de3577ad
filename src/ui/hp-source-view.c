/* hp-source-view.c - annotated source of the selected function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Selecting a function starts a worker that computes its per-line samples
 * (hp_source_annotation_new) and finds and reads its source file, so the
 * main loop never waits on the disk; a newer selection cancels the older
 * one and its result is dropped.
 *
 * The file is looked for where the debugging information says, then in
 * the source folders the user added (GSettings source-paths): as
 * FOLDER/PATH for a relative path, and as FOLDER/SUFFIX for every suffix of
 * the path's components, so a tree built in /build/x/ and checked out in
 * ~/src/x/ is found by adding ~/src. The capture names the file and may
 * be hostile: only a file that is plausibly the program's source is read
 * (document/hp-source-find), and the pane says why another is not shown.
 *
 * The pane is never empty for a function of a file on this machine: when
 * its source is not found, or it has no line information, the same worker
 * disassembles it (document/hp-disassembly: objdump, under a deadline)
 * and the pane shows its machine code with the samples of each source
 * line at the row naming that line, under a bar that says what is missing
 * and offers Choose Folder… in place.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "analysis/hp-capture-health.h"
#include "analysis/hp-source.h"
#include "analysis/hp-symbol-name.h"
#include "document/hp-disassembly.h"
#include "document/hp-source-find.h"
#include "record/hp-recorder.h"
#include "store/hp-capture-keys.h"
#include "ui/hp-file-chooser.h"
#include "document/hp-format.h"
#include "ui/hp-gtk-compat.h"
#include "ui/hp-cell.h"
#include "ui/hp-source-file.h"
#include "ui/hp-source-view.h"
#include "ui/hp-template.h"

/* Larger files are not shown: a "source" that big is generated data. */
#define MAX_SOURCE_SIZE (32 * 1024 * 1024)
/* Lines shown above the hottest one when it is scrolled to */
#define CONTEXT_LINES 4

/* objdump's deadline: a function of a few thousand instructions takes
 * well under a second; a hostile file is given up on */
#define DISASSEMBLY_TIMEOUT_MS 15000

/* the longest source path shown, in characters */
#define SHOWN_PATH_CHARS 1000

/* A read that takes longer than this shows the spinner; a quicker one
 * goes straight to the source, without a page flip in between. */
#define LOADING_DELAY_MS 200

struct _HpSourceView {
  GtkWidget            parent_instance;

  GtkStack            *stack;
  GtkSpinner          *spinner;
  GtkLabel            *file_label;
  GtkInscription      *caption;
  GtkColumnView       *lines_view;
  GtkColumnViewColumn *line_column;
  GtkColumnViewColumn *self_column;
  GtkColumnViewColumn *total_column;
  GtkColumnViewColumn *text_column;
  GtkLabel            *missing_title;
  GtkLabel            *missing_label;
  GtkLabel            *no_lines_label;
  GtkWidget           *missing_bar;
  GtkLabel            *missing_bar_label;
  GtkWidget           *missing_bar_button;

  GtkSingleSelection  *selection;      /* kept: a new model reuses the rows' widgets */
  GStrv                source_paths;
  HpLoadedProfile     *profile;
  gint64               function_id;
  GCancellable        *cancellable;
  HpSourceFile        *file;
  char                *path;
  char                *message;
  guint                shown_line;
  guint                scroll_tick;
  gint64               scroll_after_frame; /* the tick scrolls in a later frame */
  gboolean             scroll_pending;
  gboolean             placed;             /* the view is still where scroll_tick_cb put it */
  double               placed_value;
  double               placed_page;
  guint                loading_source;
  gboolean             disassembly;        /* the rows are machine code */
  gboolean             file_missing;       /* the source file was not found, or not shown */
  gboolean             file_refused;       /* it is not plausibly source code (self->message says why) */
};

G_DEFINE_FINAL_TYPE (HpSourceView, hp_source_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SOURCE_PATHS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const HpCellSpec number_cell = { .count = "number", .count_chars = 5 };
static const HpCellSpec self_cell = { .percent = "self-percent", .count = "self-count", .count_chars = 6 };
static const HpCellSpec total_cell = { .fraction = "fraction", .percent = "total-percent", .count = "total-count", .count_chars = 6 };
static const HpCellSpec text_cell = { .text = "text", .css_class = "source-text" };

static void
set_column_factory (GtkColumnViewColumn *column,
                    const HpCellSpec    *spec)
{
  g_autoptr(GtkListItemFactory) factory = hp_cell_factory_new (spec);

  gtk_column_view_column_set_factory (column, factory);
}

/* Worker ------------------------------------------------------------- */

typedef struct {
  HpLoadedProfile    *profile;
  gint64              function_id;
  GStrv               source_paths;
  char               *working_directory; /* the capture's, or NULL */
} SourceRequest;

typedef struct {
  HpSourceAnnotation *annotation;
  char               *path;        /* found, or the recorded one */
  gboolean            found;
  char               *contents;
  gsize               length;
  GPtrArray          *looked_in;   /* folders also tried */
  char               *read_error;
  char               *refused;     /* why the file the capture names is not read */
  HpDisassembly      *disassembly; /* when there is no source to show */
  char               *disassembly_error;
} SourceResult;

static void
source_request_free (gpointer p)
{
  SourceRequest *r = p;

  hp_loaded_profile_unref (r->profile);
  g_strfreev (r->source_paths);
  g_free (r->working_directory);
  g_free (r);
}

static void
source_result_free (gpointer p)
{
  SourceResult *r = p;

  g_clear_pointer (&r->annotation, hp_source_annotation_free);
  g_free (r->path);
  g_free (r->contents);
  g_clear_pointer (&r->looked_in, g_ptr_array_unref);
  g_free (r->read_error);
  g_free (r->refused);
  g_clear_pointer (&r->disassembly, hp_disassembly_free);
  g_free (r->disassembly_error);
  g_free (r);
}

static void
source_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SourceRequest *req = task_data;
  SourceResult *res = g_new0 (SourceResult, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *found = NULL;

  res->annotation = hp_source_annotation_new (req->profile->profile, req->function_id);
  res->looked_in = g_ptr_array_new_with_free_func (g_free);
  if (res->annotation->file != NULL && res->annotation->lines->len > 0 &&
      !g_cancellable_is_cancelled (cancellable))
    {
      g_autoptr(GError) find_error = NULL;

      /* only a file that is plausibly the program's source: the capture
       * may name /etc/shadow or "../../.ssh/id_rsa" */
      found = hp_source_find_file (res->annotation->file, (const char * const *) req->source_paths,
                                   res->looked_in, cancellable, &find_error);
      /* a relative file (a jitdump's "JitHot.java") also where the
       * program ran, after the folders the user chose */
      if (found == NULL && (g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
                            g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED)) &&
          !g_path_is_absolute (res->annotation->file) &&
          req->working_directory != NULL && g_path_is_absolute (req->working_directory))
        {
          const char * const cwd[] = { req->working_directory, NULL };
          g_autoptr(GError) cwd_error = NULL;

          found = hp_source_find_file (res->annotation->file, cwd, res->looked_in, cancellable, &cwd_error);
          if (found == NULL && !g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
            {
              g_clear_error (&find_error);
              find_error = g_steal_pointer (&cwd_error);
            }
        }
      /* a file there but not read, or a name no file can have */
      if (found == NULL && (g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) ||
                            g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME)))
        res->refused = g_strdup (find_error->message);
      res->path = g_strdup (found ? found : res->annotation->file);
      if (found != NULL)
        {
          GStatBuf st;

          if (g_stat (found, &st) == 0 && st.st_size > MAX_SOURCE_SIZE)
            res->read_error = g_strdup_printf (_("%s is larger than %d MB; not shown"), found,
                                               MAX_SOURCE_SIZE / (1024 * 1024));
          else if (!g_file_get_contents (found, &res->contents, &res->length, &error))
            res->read_error = g_strdup (error->message);
          else
            res->found = TRUE;
        }
    }
  if (!res->found && !g_cancellable_is_cancelled (cancellable))
    {
      g_autoptr(GError) disassembly_error = NULL;

      res->disassembly = hp_disassembly_new (req->profile->profile, req->function_id, NULL,
                                             DISASSEMBLY_TIMEOUT_MS, cancellable, &disassembly_error);
      if (res->disassembly == NULL)
        res->disassembly_error = g_strdup (disassembly_error->message);
    }
  g_task_return_pointer (task, res, source_result_free);
}

/* Showing ------------------------------------------------------------ */

/* Scrolling to the hottest line
 *
 * GTK 4.8's "list.scroll-to-item" shows an item with as little movement
 * as possible, so coming from the top it puts the item at the bottom edge,
 * and the top row is cut wherever the viewport is not a whole number of
 * rows high. The rows of this list all have one height (one GtkInscription
 * line of monospace text; style.css, .source-lines), so the view is
 * scrolled by value instead, to a whole number of rows: the top row is
 * whole, and the hottest line shows below a few lines of context.
 *
 * The list's adjustment and rows describe its last layout, so the scroll
 * waits in a tick callback for the frame after the one that laid out the
 * new file; nothing forces a layout, and only one row is looked at.
 */

/* the height of one laid-out row, 0 when none is */
static int
row_height (GtkWidget *list)
{
  for (GtkWidget *child = gtk_widget_get_first_child (list);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "row") == 0 &&
        gtk_widget_get_child_visible (child) && gtk_widget_get_height (child) > 0)
      return gtk_widget_get_height (child);
  return 0;
}

/* The adjustment value that shows the hottest line (row @hot) with up to
 * CONTEXT_LINES whole rows above it, starting at a whole row */
static double
hottest_value (guint hot,
               guint n,
               int   h,
               int   page)
{
  guint rows = page / h;
  guint above = MIN (CONTEXT_LINES, rows > 0 ? (rows - 1) / 2 : 0);
  gint64 max = (gint64) n * h - page;
  gint64 value = (gint64) (hot - MIN (hot, above)) * h;

  if (max <= 0)
    return 0;
  if (value > max)
    {
      /* near the end: the last whole-row start, unless that cuts the
       * hottest line at the bottom edge; then the end itself */
      value = max / h * h;
      if ((gint64) (hot + 1) * h > value + page)
        value = max;
    }
  return value;
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  HpSourceView *self = user_data;
  GtkWidget *list = hp_column_view_get_list (self->lines_view);
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->lines_view));
  guint hot, n;
  int h, page;

  /* hidden (another page, another pane): on_lines_mapped() starts again */
  if (list == NULL || vadj == NULL || self->file == NULL || self->shown_line == 0 ||
      !gtk_widget_get_mapped (list))
    {
      self->scroll_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (gdk_frame_clock_get_frame_counter (clock) <= self->scroll_after_frame)
    return G_SOURCE_CONTINUE;
  h = row_height (list);
  page = (int) gtk_adjustment_get_page_size (vadj);
  if (h <= 0 || page <= 0)
    {
      /* not laid out yet: a list never shown has no rows */
      self->scroll_after_frame = gdk_frame_clock_get_frame_counter (clock);
      return G_SOURCE_CONTINUE;
    }
  self->scroll_tick = 0;
  self->scroll_pending = FALSE;
  n = hp_source_file_get_n_lines (self->file);
  hot = self->shown_line - 1;
  /* GTK counts the rows it has not measured at the median height of
   * those it has, so a list of one row height is exactly n rows high */
  if (gtk_adjustment_get_upper (vadj) == MAX ((double) n * h, (double) page))
    {
      /* set first: on_vadjustment_changed() sees this value */
      self->placed = TRUE;
      self->placed_value = hottest_value (hot, n, h, page);
      self->placed_page = page;
      gtk_adjustment_set_value (vadj, self->placed_value);
    }
  else
    {
      /* rows of several heights: at least show the line, a few past it */
      self->placed = FALSE;
      hp_column_view_scroll_to (self->lines_view, MIN (n - 1, hot + CONTEXT_LINES));
    }
  return G_SOURCE_REMOVE;
}

/* Scrolls in the frame after the next @frames ones (those that lay out
 * the rows), if the list is on screen; otherwise on_lines_mapped() calls
 * this once it is. */
static void
queue_scroll (HpSourceView *self,
              guint         frames)
{
  GdkFrameClock *clock;

  if (!self->scroll_pending || !gtk_widget_get_mapped (GTK_WIDGET (self->lines_view)))
    return;
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (self->lines_view));
  self->scroll_after_frame = clock ? gdk_frame_clock_get_frame_counter (clock) + frames : 0;
  if (self->scroll_tick == 0)
    self->scroll_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->lines_view), scroll_tick_cb, self, NULL);
}

static void
cancel_scroll (HpSourceView *self)
{
  self->scroll_pending = FALSE;
  self->placed = FALSE;
  if (self->scroll_tick != 0 && self->lines_view != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->lines_view), self->scroll_tick);
  self->scroll_tick = 0;
}

static void
on_lines_mapped (HpSourceView *self)
{
  /* the rows are laid out in the next frame */
  queue_scroll (self, 1);
}

/* The list keeps neither the top row nor the hottest line in place when
 * its height changes, so as long as the user has not scrolled, a resize
 * places the hottest line again; in the next frame, as the list set this
 * adjustment in its allocation and is not to be moved from inside it. */
static void
on_vadjustment_changed (GtkAdjustment *vadj,
                        HpSourceView  *self)
{
  if (!self->placed || self->scroll_pending)
    return;
  if (gtk_adjustment_get_page_size (vadj) != self->placed_page)
    {
      self->scroll_pending = TRUE;
      queue_scroll (self, 0);
    }
  else if (gtk_adjustment_get_value (vadj) != self->placed_value)
    self->placed = FALSE;
}

static void
set_state (HpSourceView *self,
           const char   *state)
{
  gtk_spinner_set_spinning (self->spinner, g_strcmp0 (state, "loading") == 0);
  gtk_stack_set_visible_child_name (self->stack, state);
}

/* The root that truncated stacks hang under (schema.sql, truncated_stacks):
 * no code of its own, so no source; what the user needs is why the
 * stacks were cut and what would have kept them whole. */
static gboolean
is_truncated_root (HpLoadedProfile *profile,
                   gint64           function_id)
{
  const HpCaptureData *data = profile->capture->data;
  const HpCaptureFunction *f;

  if (function_id <= 0 || (guint64) function_id >= data->functions->len)
    return FALSE;
  f = &g_array_index (data->functions, HpCaptureFunction, function_id);
  return f->module_id == 0 && g_strcmp0 (f->name, HP_FUNCTION_TRUNCATED) == 0;
}

static char *
describe_truncation (HpLoadedProfile *profile,
                     guint64          samples)
{
  const HpCaptureData *data = profile->capture->data;
  const char *call_graph = g_hash_table_lookup (data->metadata, HP_META_CALL_GRAPH);
  g_autofree char *count = hp_format_share_of (&profile->measure, samples,
                                                hp_profile_get_n_samples (profile->profile));
  HpCaptureHealth health;
  GString *text = g_string_new (NULL);

  hp_capture_health_judge (&health, profile->profile, profile->capture->n_all_samples);

  /* Translators: "[truncated]", then a share as in "3.1 % (42 samples)"
   * or "3.1 % (1,234 page faults)" */
  g_string_append_printf (text, _("%s is not a function of the program: under it are the samples whose call stack "
                                  "was cut before it reached the start of its thread, %s. The functions below it "
                                  "are right, but their callers above the cut are unknown, and are missing from "
                                  "those callers’ totals."),
                          HP_FUNCTION_TRUNCATED, count);
  g_string_append (text, "\n\n");
  if (g_strcmp0 (call_graph, "dwarf") == 0)
    {
      g_autofree char *ended = hp_format_count (health.stack_copy_ended);
      const char *size = g_hash_table_lookup (data->metadata, HP_META_STACK_SIZE);
      guint64 bigger = hp_record_bigger_stack_size (size ? g_ascii_strtoull (size, NULL, 10) : 0);

      if (bigger > 0)
        {
          g_autofree char *bigger_text = g_strdup_printf ("%" G_GUINT64_FORMAT, bigger);

          /* Translators: a count of stacks, then a size in bytes (not to be grouped) */
          g_string_append_printf (text, _("Each sample copied only part of the stack (call graph dwarf); %s stacks "
                                          "ended where their copy ended. A bigger copy reaches further: record again "
                                          "with “hotpath-cli record --call-graph dwarf,%s”, or "
                                          "more bytes of stack per sample in the Record dialog. Deep recursion may "
                                          "need more than any copy holds."),
                                  ended, bigger_text);
        }
      else
        /* Translators: a count of stacks, then a size in bytes (not to be grouped) */
        g_string_append_printf (text, _("Each sample copied only part of the stack (call graph dwarf); %s stacks ended "
                                        "where their copy ended, and the copy was already the largest the kernel "
                                        "allows (%d bytes): these stacks are deeper than any copy holds."),
                                ended, HP_RECORD_MAX_STACK_SIZE);
    }
  else if (g_strcmp0 (call_graph, "fp") == 0)
    g_string_append (text, _("With frame pointers (call graph fp), the chain breaks at code built without them, "
                             "often a library: rebuild with -fno-omit-frame-pointer, or record with "
                             "“hotpath-cli record --call-graph dwarf”."));
  else
    g_string_append (text, _("A deeper stack copy (perf record --call-graph dwarf,SIZE) or frame pointers in every "
                             "library keep stacks whole."));
  if (health.truncated_at_jit > 0)
    {
      g_autofree char *advice = hp_capture_health_jit_advice (&health);

      g_string_append (text, " ");
      g_string_append (text, _("Some were cut at code compiled at run time."));
      g_string_append_printf (text, " %s", advice);
    }
  return g_string_free (text, FALSE);
}

/* Shows self->file in the list, scrolled to self->shown_line */
static void
show_rows (HpSourceView *self)
{
  PangoLayout *layout;
  int width = 0;

  /* the source column as wide as the longest line, so nothing is cut
   * and the view scrolls sideways instead */
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->lines_view), "0");
  {
    PangoFontDescription *mono = pango_font_description_from_string ("Monospace");

    pango_layout_set_font_description (layout, mono);
    pango_layout_get_pixel_size (layout, &width, NULL);
    pango_font_description_free (mono);
  }
  g_object_unref (layout);
  gtk_column_view_column_set_fixed_width (self->text_column,
                                          MAX (200, (int) hp_source_file_get_width (self->file) * width + 24));

  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->file));
  gtk_single_selection_set_selected (self->selection, self->shown_line ? self->shown_line - 1 : GTK_INVALID_LIST_POSITION);
  set_state (self, "source");

  cancel_scroll (self);
  self->scroll_pending = self->shown_line > 0;
  /* the rows of the new file are laid out in the next frame */
  queue_scroll (self, 1);
}

/* The machine code of the function, when its source cannot be shown */
static void
show_disassembly (HpSourceView *self,
                  SourceResult *res,
                  const char   *name,
                  guint64       whole)
{
  HpDisassembly *d = res->disassembly;
  g_autofree char *tooltip = NULL;
  g_autofree char *heading = hp_disassembly_get_heading (d, SHOWN_PATH_CHARS, &tooltip);
  g_autofree char *caption = NULL;
  g_autofree char *whole_text = hp_format_count (whole);
  g_autofree char *bar = NULL;

  self->disassembly = TRUE;
  self->file = hp_source_file_new (g_steal_pointer (&d->text), d->length,
                                   g_steal_pointer (&d->rows), whole, &self->profile->measure);
  self->shown_line = hp_source_file_get_annotation (self->file)->hottest_line;
  if (self->shown_line > hp_source_file_get_n_lines (self->file))
    self->shown_line = 0;

  gtk_label_set_text (self->file_label, heading);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), tooltip);
  if (self->profile->measure.by_weight)
    {
      g_autofree char *amount = hp_format_amount (&self->profile->measure, whole);

      /* Translators: %s are a function name and an amount with its unit ("1,234 page faults") */
      caption = g_strdup_printf (_("%s by source line, as a share of its %s in all, at the row "
                                   "naming each line: the capture keeps a location per line, not per instruction. "
                                   "▸ marks the address each counted line was first seen at."),
                                 name, amount);
    }
  else
    /* Translators: %s are a function name and a sample count */
    caption = g_strdup_printf (ngettext ("Samples of %s by source line, as a share of its %s total sample, at the row "
                                         "naming each line: the capture keeps a location per line, not per instruction. "
                                         "▸ marks the address each sampled line was first seen at.",
                                         "Samples of %s by source line, as a share of its %s total samples, at the row "
                                         "naming each line: the capture keeps a location per line, not per instruction. "
                                         "▸ marks the address each sampled line was first seen at.", whole),
                               name, whole_text);
  gtk_inscription_set_text (self->caption, caption);

  if (self->file_refused)
    /* Translators: shown above the machine code when the file the capture
     * names is not read, with why ("/etc/shadow is not named as source code (…)") */
    bar = g_strdup_printf (_("Source file not shown: %s"), res->refused);
  else if (self->file_missing)
    /* Translators: shown above the machine code when the source file is missing */
    bar = g_strdup_printf (_("Source file not found: %s"), self->path);
  else
    bar = g_strdup_printf (_("No line information for %s: machine code only"), name);
  {
    g_autofree char *shown = hp_symbol_name_sanitize (bar, -1, SHOWN_PATH_CHARS);

    gtk_label_set_text (self->missing_bar_label, shown);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->missing_bar_label), self->message);
  }
  /* refused too: what the capture names may not be the program's file
   * (a folder of the same name, a link elsewhere), and a source folder's
   * tail of the name may be */
  gtk_widget_set_visible (self->missing_bar_button, self->file_missing);
  gtk_widget_set_visible (self->missing_bar, TRUE);
  gtk_column_view_column_set_visible (self->line_column, FALSE);
  gtk_column_view_column_set_title (self->text_column, _("Line and Instruction"));
  show_rows (self);
}

static void
show_result (HpSourceView *self,
             SourceResult *res)
{
  const char *name = hp_loaded_capture_get_shown_name (self->profile->capture, self->function_id, TRUE);
  const char *module = hp_loaded_capture_get_shown_module (self->profile->capture, self->function_id);
  const HpFunctionStats *stats = hp_profile_get_function_stats (self->profile->profile, self->function_id);
  guint64 whole = stats ? stats->total : 0;
  g_autofree char *caption = NULL;
  g_autofree char *whole_text = hp_format_count (whole);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->message, g_free);
  g_clear_object (&self->file);
  self->shown_line = 0;

  self->disassembly = FALSE;
  self->file_missing = FALSE;
  self->file_refused = FALSE;
  if (is_truncated_root (self->profile, self->function_id))
    {
      self->message = describe_truncation (self->profile, whole);
      gtk_label_set_text (self->no_lines_label, self->message);
      set_state (self, "no-lines");
      return;
    }
  if (res->annotation->file == NULL || res->annotation->lines->len == 0)
    {
      self->message = g_strdup_printf (_("No line information for %s in %s: its module was built without "
                                         "debugging information, or its debugging information is not installed. "
                                         "Install the debug symbols (for a Debian package, its -dbgsym package) "
                                         "and record again."),
                                       name, module && *module ? module : _("an unknown module"));
      if (res->disassembly != NULL)
        {
          show_disassembly (self, res, name, whole);
          return;
        }
      if (res->disassembly_error != NULL)
        {
          g_autofree char *more = g_strdup_printf ("%s\n\n%s %s", self->message,
                                                   _("Its machine code cannot be shown either:"),
                                                   res->disassembly_error);

          g_free (self->message);
          self->message = g_steal_pointer (&more);
        }
      gtk_label_set_text (self->no_lines_label, self->message);
      set_state (self, "no-lines");
      return;
    }

  self->path = g_strdup (res->path);
  if (!res->found)
    {
      GString *msg = g_string_new (NULL);

      self->file_missing = TRUE;
      self->file_refused = res->refused != NULL;
      if (res->refused != NULL)
        {
          /* names from the capture: any bytes, any length */
          g_autofree char *why = hp_symbol_name_sanitize (res->refused, -1, 2 * SHOWN_PATH_CHARS);

          /* Translators: a function name, then why its file is not read,
           * as "/etc/shadow is not named as source code (…)" */
          g_string_printf (msg, _("The source of %s is not shown: %s."), name, why);
        }
      else if (res->read_error != NULL)
        g_string_printf (msg, _("Cannot read the source of %s: %s"), name, res->read_error);
      else
        {
          g_autofree char *shown = hp_symbol_name_sanitize (res->path, -1, SHOWN_PATH_CHARS);

          g_string_printf (msg, _("The source of %s was recorded as\n%s\nand is not there."), name, shown);
        }
      if (res->looked_in->len > 0)
        {
          g_string_append (msg, "\n");
          g_string_append (msg, _("Also looked in:"));
          for (guint i = 0; i < res->looked_in->len; i++)
            g_string_append_printf (msg, "\n%s", (char *) g_ptr_array_index (res->looked_in, i));
        }
      if (res->disassembly != NULL)
        {
          self->message = g_string_free (msg, FALSE);
          show_disassembly (self, res, name, whole);
          return;
        }
      if (res->disassembly_error != NULL)
        {
          g_string_append (msg, "\n\n");
          g_string_append (msg, _("Its machine code cannot be shown either:"));
          g_string_append_printf (msg, " %s", res->disassembly_error);
        }
      g_string_append (msg, "\n\n");
      if (res->refused == NULL)
        g_string_append (msg, _("Choose the folder that holds the sources, or one above it."));
      else
        g_string_append (msg, _("If that is not the program's file, choose the folder that holds the sources, "
                                "or one above it."));
      self->message = g_string_free (msg, FALSE);
      gtk_label_set_text (self->missing_title,
                          res->refused != NULL ? _("Source File Not Shown") : _("Source File Not Found"));
      gtk_label_set_text (self->missing_label, self->message);
      set_state (self, "missing");
      return;
    }

  gtk_widget_set_visible (self->missing_bar, FALSE);
  gtk_column_view_column_set_visible (self->line_column, TRUE);
  gtk_column_view_column_set_title (self->text_column, _("Source"));
  self->file = hp_source_file_new (g_steal_pointer (&res->contents), res->length,
                                   g_steal_pointer (&res->annotation), whole, &self->profile->measure);
  self->shown_line = hp_source_file_get_annotation (self->file)->hottest_line;
  if (self->shown_line > hp_source_file_get_n_lines (self->file))
    self->shown_line = 0;

  {
    /* a path from the capture: any bytes, any length */
    g_autofree char *shown = hp_symbol_name_sanitize (self->path, -1, SHOWN_PATH_CHARS);

    gtk_label_set_text (self->file_label, shown);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), shown);
  }
  if (self->profile->measure.by_weight)
    {
      /* page faults, time off the CPU: the amount names its unit */
      g_autofree char *amount = hp_format_amount (&self->profile->measure, whole);

      /* Translators: %s are a function name and an amount with its unit ("1,234 page faults", "2.41 s off CPU") */
      caption = g_strdup_printf (_("%s by line, on all its call paths: %s in all "
                                   "(a row of the call tree counts one path). Self: counted at that line; "
                                   "Total: at that line or in what it calls. Code inlined from other "
                                   "files counts at the line that calls it."),
                                 name, amount);
    }
  else
    /* The function's samples on every path: a row of the call tree counts
     * one path (and a [truncated] copy of the same calls is another), so
     * its Total can be smaller. Translators: a function name and a count */
    caption = g_strdup_printf (ngettext ("Samples of %s by line, on all its call paths: %s sample in all "
                                         "(a row of the call tree counts one path). Self: taken at that line; "
                                         "Total: at that line or in what it calls. Code inlined from other "
                                         "files counts at the line that calls it.",
                                         "Samples of %s by line, on all its call paths: %s samples in all "
                                         "(a row of the call tree counts one path). Self: taken at that line; "
                                         "Total: at that line or in what it calls. Code inlined from other "
                                         "files counts at the line that calls it.", whole),
                               name, whole_text);
  gtk_inscription_set_text (self->caption, caption);

  show_rows (self);
}

static void
source_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HpSourceView) self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  SourceResult *res = g_task_propagate_pointer (G_TASK (result), NULL);

  if (res == NULL)
    return;
  if (cancellable != self->cancellable || g_cancellable_is_cancelled (cancellable) || self->profile == NULL)
    {
      source_result_free (res);
      return;
    }
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->loading_source, g_source_remove);
  show_result (self, res);
  source_result_free (res);
}

static gboolean
show_loading_cb (gpointer user_data)
{
  HpSourceView *self = user_data;

  self->loading_source = 0;
  if (self->cancellable != NULL)
    set_state (self, "loading");
  return G_SOURCE_REMOVE;
}

static void
reload (HpSourceView *self)
{
  g_autoptr(GTask) task = NULL;
  SourceRequest *req;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  cancel_scroll (self);

  if (self->profile == NULL || self->function_id <= 0)
    {
      g_clear_handle_id (&self->loading_source, g_source_remove);
      gtk_single_selection_set_model (self->selection, NULL);
      g_clear_object (&self->file);
      g_clear_pointer (&self->path, g_free);
      self->shown_line = 0;
      self->disassembly = FALSE;
      self->file_missing = FALSE;
      self->file_refused = FALSE;
      set_state (self, "none");
      return;
    }

  /* the spinner only for a slow read: flipping pages costs a layout */
  if (self->loading_source == 0)
    self->loading_source = g_timeout_add (LOADING_DELAY_MS, show_loading_cb, self);
  req = g_new0 (SourceRequest, 1);
  req->profile = hp_loaded_profile_ref (self->profile);
  req->function_id = self->function_id;
  req->source_paths = g_strdupv (self->source_paths);
  req->working_directory = g_strdup (hp_loaded_capture_get_metadata (self->profile->capture,
                                                                     HP_META_WORKING_DIRECTORY));

  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, source_done, g_object_ref (self));
  g_task_set_source_tag (task, hp_source_view_set_function);
  g_task_set_task_data (task, req, source_request_free);
  g_task_run_in_thread (task, source_thread);
}

void
hp_source_view_set_function (HpSourceView    *self,
                             HpLoadedProfile *profile,
                             gint64           function_id)
{
  g_return_if_fail (HP_IS_SOURCE_VIEW (self));

  if (profile == self->profile && function_id == self->function_id && self->cancellable == NULL &&
      function_id > 0)
    return;
  if (profile != self->profile)
    {
      g_clear_pointer (&self->profile, hp_loaded_profile_unref);
      if (profile != NULL)
        self->profile = hp_loaded_profile_ref (profile);
    }
  self->function_id = function_id;
  reload (self);
}

const char * const *
hp_source_view_get_source_paths (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), NULL);

  return (const char * const *) self->source_paths;
}

void
hp_source_view_set_source_paths (HpSourceView       *self,
                                 const char * const *paths)
{
  g_return_if_fail (HP_IS_SOURCE_VIEW (self));

  if (self->source_paths != NULL && paths != NULL &&
      g_strv_equal ((const char * const *) self->source_paths, paths))
    return;
  g_strfreev (self->source_paths);
  self->source_paths = g_strdupv ((char **) paths);
  if (self->source_paths == NULL)
    self->source_paths = g_new0 (char *, 1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE_PATHS]);
  if (g_strcmp0 (hp_source_view_get_state (self), "missing") == 0 || self->file_missing)
    reload (self);
}

HpLoadedProfile *
hp_source_view_get_profile (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), NULL);

  return self->profile;
}

gboolean
hp_source_view_is_loading (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), FALSE);

  return self->cancellable != NULL;
}

const char *
hp_source_view_get_state (HpSourceView *self)
{
  const char *page;

  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), NULL);

  page = gtk_stack_get_visible_child_name (self->stack);
  if (g_strcmp0 (page, "source") == 0 && self->disassembly)
    return "disassembly";
  return page;
}

guint
hp_source_view_get_shown_line (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), 0);

  return self->shown_line;
}

const char *
hp_source_view_get_path (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), NULL);

  return self->path;
}

const char *
hp_source_view_get_message (HpSourceView *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_VIEW (self), NULL);

  return self->message;
}

/* Choose Folder… ----------------------------------------------------- */

static void
on_folder_chosen (GtkWidget  *widget,
                  const char *path)
{
  hp_source_view_add_source_path (HP_SOURCE_VIEW (widget), path);
}

void
hp_source_view_add_source_path (HpSourceView *self,
                                const char   *path)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;

  g_return_if_fail (HP_IS_SOURCE_VIEW (self));
  g_return_if_fail (path != NULL);

  if (g_strv_contains ((const char * const *) self->source_paths, path))
    return;
  g_strv_builder_addv (builder, (const char **) self->source_paths);
  g_strv_builder_add (builder, path);
  paths = g_strv_builder_end (builder);
  hp_source_view_set_source_paths (self, (const char * const *) paths);
}

static void
choose_folder (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  HpSourceView *self = HP_SOURCE_VIEW (widget);
  g_autofree char *dir = self->path != NULL ? g_path_get_dirname (self->path) : NULL;

  /* from the recorded folder, when there is one */
  hp_folder_chooser_show (widget, _("Choose a Source Folder"), _("_Add Folder"), dir, on_folder_chosen);
}

/* GObject ------------------------------------------------------------ */

static void
hp_source_view_dispose (GObject *object)
{
  HpSourceView *self = HP_SOURCE_VIEW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  cancel_scroll (self);
  g_clear_handle_id (&self->loading_source, g_source_remove);
  if (self->lines_view != NULL)
    gtk_column_view_set_model (self->lines_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->file);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  hp_template_dispose (GTK_WIDGET (self), HP_TYPE_SOURCE_VIEW);

  G_OBJECT_CLASS (hp_source_view_parent_class)->dispose (object);
}

static void
hp_source_view_finalize (GObject *object)
{
  HpSourceView *self = HP_SOURCE_VIEW (object);

  g_strfreev (self->source_paths);
  g_free (self->path);
  g_free (self->message);

  G_OBJECT_CLASS (hp_source_view_parent_class)->finalize (object);
}

static void
hp_source_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HpSourceView *self = HP_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE_PATHS:
      g_value_set_boxed (value, self->source_paths);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_source_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  HpSourceView *self = HP_SOURCE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SOURCE_PATHS:
      hp_source_view_set_source_paths (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_source_view_class_init (HpSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = hp_source_view_dispose;
  object_class->finalize = hp_source_view_finalize;
  object_class->get_property = hp_source_view_get_property;
  object_class->set_property = hp_source_view_set_property;

  properties[PROP_SOURCE_PATHS] =
    g_param_spec_boxed ("source-paths", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-source-view.ui");
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, stack);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, spinner);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, file_label);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, caption);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, lines_view);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, line_column);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, self_column);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, total_column);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, text_column);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, missing_title);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, missing_label);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, no_lines_label);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, missing_bar);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, missing_bar_label);
  gtk_widget_class_bind_template_child (widget_class, HpSourceView, missing_bar_button);

  gtk_widget_class_install_action (widget_class, "source.choose-folder", NULL, choose_folder);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
hp_source_view_init (HpSourceView *self)
{
  self->source_paths = g_new0 (char *, 1);
  gtk_widget_init_template (GTK_WIDGET (self));
  hp_cell_keep_focus_in_view (self->lines_view);
  set_column_factory (self->line_column, &number_cell);
  set_column_factory (self->self_column, &self_cell);
  set_column_factory (self->total_column, &total_cell);
  set_column_factory (self->text_column, &text_cell);
  /* (the text column's width follows the file, see show_result()) */
  hp_cell_set_column_width (self->line_column, &number_cell);
  hp_cell_set_column_width (self->self_column, &self_cell);
  hp_cell_set_column_width (self->total_column, &total_cell);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->lines_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->lines_view, "map", G_CALLBACK (on_lines_mapped), self);
  /* set by the template's GtkScrolledWindow, which owns it */
  g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->lines_view)), "value-changed",
                           G_CALLBACK (on_vadjustment_changed), self, 0);
  g_signal_connect_object (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->lines_view)), "changed",
                           G_CALLBACK (on_vadjustment_changed), self, 0);
}
