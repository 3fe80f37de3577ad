/* hp-window.c - the Hotpath window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The window wires its views together; each view draws itself. It owns
 * the loaded capture (HpLoadedProfile, rebuilt in a worker when the thread
 * filter changes), the summary store of the capture, and the actions the
 * header bar, the menus, the shortcuts and the display tests use.
 *
 * States are pages of main_stack: "empty" (says what to do), "loading"
 * (progress of the worker, which can be cancelled), "error" (the file and
 * the reason, from the store's errors) and "capture".
 *
 * Selection flows one way: the call tree emits node-selected, and the
 * window hands that node (or its function) to the callers/callees, the
 * source and the summary panes. Everything that selects (callers, the
 * breadcrumbs, the Summaries list, search) asks the call tree to select a
 * node, and the same flow follows.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <time.h>
#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-thread-list.h"
#include "store/hp-capture-keys.h"
#include "ui/hp-window-png.h"
#include "ui/hp-application.h"
#include "ui/hp-cell.h"
#include "document/hp-call-path.h"
#include "ui/hp-flame-view.h"
#include "document/hp-format.h"
#include "ui/hp-timeline-view.h"
#include "document/hp-loaded-capture.h"
#include "ui/hp-record-dialog.h"
#include "ui/hp-window-private.h"

enum {
  FOLLOW_SUMMARY = 1 << 0,
  FOLLOW_BOTTOM  = 1 << 1,
};

G_DEFINE_FINAL_TYPE (HpWindow, hp_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_TREE_MODE,
  PROP_MERGE_RECURSION,
  PROP_HIDE_KERNEL,
  PROP_FOLD_INLINE,
  PROP_SHOW_SUMMARY,
  PROP_OFFER_LIBRARY_SUMMARIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A window at least this wide shows the summary pane beside the call
 * tree, even when the capture has no summary yet. A narrower one makes
 * it a page of the bottom pane, Summary, beside Source: at 1024 px the
 * side pane took a quarter of the width from the Function column, and
 * was itself 200 px wide, its summary and Suggest half hidden. */
#define WIDE_WINDOW 1200

/* The longest command shown under the title, in characters: it comes
 * from the capture. */
#define SHOWN_COMMAND_CHARS 200

/* A file name as the user knows it, in UTF-8 whatever its bytes */
static char *
display_basename (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  return path ? g_filename_display_basename (path) : g_file_get_basename (file);
}

/* The summary pane's place ------------------------------------------ */

/* A page whose height is not known yet: not fitted until its layout */
#define NEED_UNKNOWN G_MININT

/* The height @page needs for its @content, which scrolls, to show
 * whole: its chrome and the content's natural height. Unknown until the
 * scrolled window has been laid out: just shown, its height is 0, and a
 * lane of 42 px took the Summary's Suggest out of view at 1280×800 (the
 * next layout fits the page again). Both heights are of the page's own
 * last layout, which may be older than the pane's. */
static int
scrolled_need (GtkWidget *page,
               GtkWidget *content)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (content, GTK_TYPE_SCROLLED_WINDOW);
  int natural = 0;

  if (scrolled == NULL || !gtk_widget_get_mapped (scrolled) || gtk_widget_get_height (scrolled) <= 0)
    return NEED_UNKNOWN;
  gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (scrolled), NULL, &natural, NULL, NULL);
  return gtk_widget_get_height (page) - gtk_widget_get_height (scrolled) + natural;
}

/* The height the bottom pane's page would like to have: the Summary
 * page of a small screen, for its summary and Suggest (at 1024×700 the
 * source's share was 170 px of the 212 they need), the Timeline, for
 * its lanes (at 1024×700 the last lane was cut, its overlay scrollbar
 * hidden), and the Flame Graph, for its rows (at 1024×700 it showed
 * four). The other pages scroll, and are not fitted. */
static int
bottom_page_need (HpWindow *self)
{
  GtkWidget *page = gtk_stack_get_visible_child (self->bottom_stack);
  int natural = 0;

  if (self->summary_below && page == GTK_WIDGET (self->summary_paned))
    {
      GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->summary_pane));

      gtk_widget_measure (content, GTK_ORIENTATION_VERTICAL, gtk_paned_get_position (self->summary_paned),
                          NULL, &natural, NULL, NULL);
      return natural;
    }
  /* (still reading the samples: the lanes are not there yet) */
  if (page == GTK_WIDGET (self->timeline_view))
    return scrolled_need (page, GTK_WIDGET (hp_timeline_view_get_timeline (self->timeline_view)));
  if (page == GTK_WIDGET (self->flame_view))
    return scrolled_need (page, GTK_WIDGET (hp_flame_view_get_canvas (self->flame_view)));
  return NEED_UNKNOWN;
}

static gboolean get_show_summary (HpWindow *self);

/* The most of the side pane's height the bottom page is fitted to. The
 * flame graph is read as a whole and gets three fifths, the call tree
 * keeping a third or more; half while the summary pane is beside the
 * tree, whose summary and Suggest need their height too. */
static int
bottom_page_most (HpWindow *self,
                  int       side)
{
  if (gtk_stack_get_visible_child (self->bottom_stack) == GTK_WIDGET (self->flame_view) &&
      !(get_show_summary (self) && !self->summary_below))
    return side * 3 / 5;
  return side / 2;
}

/* A move for a page is not the user's choice: it is neither saved as
 * the pane's position (the next window opened with the call tree cut to
 * the Timeline's share) nor undone as one (see on_paned_moved). */
static void
move_side_paned (HpWindow *self,
                 int       position)
{
  self->fitting = TRUE;
  gtk_paned_set_position (self->side_paned, position);
  self->fitting = FALSE;
}

/* Whether the shown page of the bottom pane is one that is fitted */
static gboolean
bottom_page_fits (HpWindow *self)
{
  GtkWidget *page = gtk_stack_get_visible_child (self->bottom_stack);

  return (self->summary_below && page == GTK_WIDGET (self->summary_paned)) ||
         page == GTK_WIDGET (self->timeline_view) || page == GTK_WIDGET (self->flame_view);
}

/* The call tree above gives the bottom page the height it lacks, up to
 * half of their height or so (bottom_page_most), and takes it back when
 * another page is shown. Each page is fitted from the call tree's own
 * height (the position before any fit), not from the last page's: the
 * Flame Graph's share is not the Timeline's. */
static gboolean
fit_bottom_page_cb (gpointer data)
{
  HpWindow *self = data;
  int side = gtk_widget_get_height (GTK_WIDGET (self->side_paned));
  int stack = gtk_widget_get_height (GTK_WIDGET (self->bottom_stack));
  /* the position of the last layout, which the heights measured are of */
  int laid_out = gtk_widget_get_height (gtk_paned_get_start_child (self->side_paned));
  int base, base_stack, need, target;

  self->fit_source = 0;
  /* (another page may have been shown since this was queued); once the
   * user moved the pane, the page keeps their height until another is
   * shown, whatever asked for this fit (a page filled late: the
   * timeline's samples, read in the background) */
  if (side <= 0 || stack <= 0 || !bottom_page_fits (self) || self->side_moved_by_user)
    return G_SOURCE_REMOVE;
  need = bottom_page_need (self);
  if (need == NEED_UNKNOWN)
    return G_SOURCE_REMOVE;
  base = self->side_position_before_fit >= 0 ? self->side_position_before_fit
                                             : gtk_paned_get_position (self->side_paned);
  base_stack = stack + (laid_out - base);
  target = MAX (base_stack, MIN (need, bottom_page_most (self, side)));
  if (target > base_stack)
    {
      if (self->side_position_before_fit < 0)
        self->side_position_before_fit = base;
      move_side_paned (self, base - (target - base_stack));
      /* the selected row may have been in the height given away */
      hp_call_tree_view_show_selected (self->tree_view);
    }
  else if (self->side_position_before_fit >= 0)
    {
      move_side_paned (self, self->side_position_before_fit);
      self->side_position_before_fit = -1;
    }
  return G_SOURCE_REMOVE;
}

/* Fits the page once laid out: it may just have been added, or filled.
 * Before the next frame rather than when the main loop is idle: while
 * the call tree grew to a deep selection, an idle waited seconds for its
 * turn on a loaded machine. */
static void
queue_fit (HpWindow *self)
{
  if (self->fit_source == 0)
    self->fit_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 15, fit_bottom_page_cb, self, NULL);
}

static void
fit_bottom_page (HpWindow *self)
{
  if (bottom_page_fits (self))
    queue_fit (self);
  else if (self->side_position_before_fit >= 0)
    {
      move_side_paned (self, self->side_position_before_fit);
      self->side_position_before_fit = -1;
    }
}

/* Puts the summary paned (the call path's summary and Suggest above the
 * Summaries list) beside the call tree, or, @below, as the Summary page
 * of the bottom pane, the summary and the list side by side. There each
 * has the width of half a small screen rather than a sixth of it, and
 * the call tree keeps the whole width; the price is that the source and
 * the summary take turns. */
static void
place_summary (HpWindow *self,
               gboolean  below)
{
  GtkWidget *paned = GTK_WIDGET (self->summary_paned);
  const char *key;

  if (self->summary_below == below)
    return;
  g_object_ref (paned);
  if (below)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self));
      int height;

      if (width <= 0)  /* (both pointers: GTK 4.8 writes through each) */
        gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      /* the saved position is a height; this one is a width */
      key = g_object_get_data (G_OBJECT (paned), "hp-settings-key");
      g_object_set_data_full (G_OBJECT (paned), "hp-side-settings-key", g_strdup (key), g_free);
      g_object_set_data (G_OBJECT (paned), "hp-settings-key", NULL);
      self->summary_side_position = gtk_paned_get_position (self->summary_paned);
      gtk_paned_set_end_child (self->main_paned, NULL);
      gtk_orientable_set_orientation (GTK_ORIENTABLE (paned), GTK_ORIENTATION_HORIZONTAL);
      /* the summary keeps its width, the list takes the rest (the
       * paned does not resize its start child, see hp-window.ui); else
       * the paned scales the position by the last height it had (563 px
       * became 821, the list left with 200) */
      gtk_widget_set_visible (paned, TRUE);
      self->summary_below = TRUE;
      gtk_stack_add_titled (self->bottom_stack, paned, "summary", _("Summary"));
      gtk_paned_set_position (self->summary_paned, MAX (width, 600) * 55 / 100);
    }
  else
    {
      if (gtk_stack_get_visible_child (self->bottom_stack) == paned)
        gtk_stack_set_visible_child_name (self->bottom_stack,
                                          self->page_before_summary ? self->page_before_summary : "source");
      self->summary_below = FALSE;
      gtk_stack_remove (self->bottom_stack, paned);
      fit_bottom_page (self);
      gtk_orientable_set_orientation (GTK_ORIENTABLE (paned), GTK_ORIENTATION_VERTICAL);
      gtk_paned_set_position (self->summary_paned, self->summary_side_position);
      key = g_object_get_data (G_OBJECT (paned), "hp-side-settings-key");
      g_object_set_data_full (G_OBJECT (paned), "hp-settings-key", g_strdup (key), g_free);
      /* a wide window shows it, as when a capture opens in one */
      gtk_widget_set_visible (paned, TRUE);
      gtk_paned_set_end_child (self->main_paned, paned);
    }
  g_object_unref (paned);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SUMMARY]);
}

static gboolean
place_summary_cb (gpointer data)
{
  HpWindow *self = data;

  self->place_source = 0;
  place_summary (self, gtk_widget_get_width (GTK_WIDGET (self)) < WIDE_WINDOW);
  return G_SOURCE_REMOVE;
}

/* The width the summary pane beside the call tree gets until the user
 * moves it: a fixed 850 px for the call tree left the summary more than
 * half of a 1920 px screen (Function 350 px, the thread filter "All
 * thre…"). A profile is read in its call tree; the summary's text wraps. */
static int
summary_share (int width)
{
  return CLAMP (width * 3 / 10, 400, 640);
}

/* Moves the summary pane when the window crosses WIDE_WINDOW: after this
 * layout, since moving it lays the window out again. The call tree's
 * share is set before the main paned is first laid out with both its
 * children, after which GtkPaned keeps its proportion as the window is
 * resized; moves during a layout are not the user's, and are not saved
 * (see on_paned_moved). */
static void
hp_window_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  HpWindow *self = HP_WINDOW (widget);

  self->allocating = TRUE;
  if (!self->main_paned_placed)
    gtk_paned_set_position (self->main_paned, width - summary_share (width));
  GTK_WIDGET_CLASS (hp_window_parent_class)->size_allocate (widget, width, height, baseline);
  self->allocating = FALSE;
  if (!self->summary_below && gtk_widget_get_width (GTK_WIDGET (self->main_paned)) > 0)
    self->main_paned_placed = TRUE;
  /* The page's content may have grown since it was shown: the summary
   * pane is filled for the path selected at opening after the page was
   * fitted (on a 200-deep recursion at 1024×700 Suggest stayed below the
   * fold), Suggest's row comes later. Not once the user moved the pane. */
  if (!self->side_moved_by_user && bottom_page_fits (self))
    queue_fit (self);
  if ((gtk_widget_get_width (widget) < WIDE_WINDOW) != self->summary_below && self->place_source == 0)
    self->place_source = g_idle_add (place_summary_cb, self);
}

static gboolean
get_show_summary (HpWindow *self)
{
  if (self->summary_paned == NULL)
    return FALSE;
  if (self->summary_below)
    return gtk_stack_get_visible_child (self->bottom_stack) == GTK_WIDGET (self->summary_paned);
  return gtk_widget_get_visible (GTK_WIDGET (self->summary_paned));
}

static void
set_show_summary (HpWindow *self,
                  gboolean  show)
{
  if (get_show_summary (self) == show)
    return;
  if (!self->summary_below)
    gtk_widget_set_visible (GTK_WIDGET (self->summary_paned), show);
  else if (show)
    gtk_stack_set_visible_child (self->bottom_stack, GTK_WIDGET (self->summary_paned));
  else
    gtk_stack_set_visible_child_name (self->bottom_stack,
                                      self->page_before_summary ? self->page_before_summary : "source");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SUMMARY]);
}

/* Loading ------------------------------------------------------------ */

static void
on_load_progress (HpLoadStage  stage,
                  double       fraction,
                  const char  *detail,
                  GObject     *object)
{
  HpWindow *self = HP_WINDOW (object);
  const char *text = NULL;

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "loading") != 0)
    return;
  switch (stage)
    {
    case HP_LOAD_STAGE_OPENING:   text = _("Opening the capture…"); break;
    case HP_LOAD_STAGE_IMPORTING: text = _("Importing the perf.data file…"); break;
    case HP_LOAD_STAGE_FETCHING:  text = detail; break;
    case HP_LOAD_STAGE_READING:   text = _("Reading stacks and samples…"); break;
    case HP_LOAD_STAGE_ANALYZING: text = _("Building the call trees…"); break;
    case HP_LOAD_STAGE_DONE:      text = _("Showing…"); break;
    default: break;
    }
  gtk_progress_bar_set_fraction (self->loading_progress, fraction);
  gtk_progress_bar_set_text (self->loading_progress, text);
}

static void
show_error (HpWindow     *self,
            const GError *error)
{
  g_autofree char *name = self->file ? display_basename (self->file) : g_strdup ("");
  g_autofree char *title = g_strdup_printf (_("Could Not Open “%s”"), name);
  const char *hint = "";

  if (error->domain == HP_STORE_ERROR)
    {
      switch (error->code)
        {
        case HP_STORE_ERROR_NOT_CAPTURE:
          hint = _("Hotpath opens the captures “hotpath-cli record” writes (NAME.hotpath) and perf.data files written by “perf record”.");
          break;
        case HP_STORE_ERROR_VERSION:
          hint = _("The capture was written by a newer version of Hotpath. Open it with that version, or update Hotpath.");
          break;
        case HP_STORE_ERROR_CORRUPT:
          hint = _("The file is damaged. If the recording is still running, wait until it ends; otherwise record again.");
          break;
        case HP_STORE_ERROR_IO:
          hint = _("Check that the file exists and that you may read it.");
          break;
        default:
          break;
        }
    }
  gtk_label_set_text (self->error_title, title);
  gtk_label_set_text (self->error_label, error->message);
  gtk_label_set_text (self->error_hint, hint);
  gtk_widget_set_visible (GTK_WIDGET (self->error_hint), hint[0] != '\0');
  gtk_stack_set_visible_child_name (self->main_stack, "error");
  /* not the selectable message, which would show all selected */
  gtk_widget_grab_focus (self->error_open_button);
  gtk_label_select_region (self->error_label, 0, 0);
  hp_window_update_title (self);
}

void
hp_window_update_title (HpWindow *self)
{
  g_autofree char *name = NULL;
  const char *command = NULL;

  if (self->file != NULL)
    name = display_basename (self->file);
  if (self->profile != NULL)
    command = hp_loaded_capture_get_metadata (self->profile->capture, HP_META_COMMAND);

  gtk_label_set_text (self->title_label, name ? name : _("Hotpath"));
  gtk_window_set_title (GTK_WINDOW (self), name ? name : _("Hotpath"));
  {
    /* a command of many lines (python3 -c '…') on one line, cut */
    g_autofree char *shown = hp_symbol_name_sanitize (command, -1, SHOWN_COMMAND_CHARS);
    g_autofree char *tip = hp_symbol_name_sanitize (command, -1, HP_SYMBOL_NAME_TOOLTIP_CHARS);

    gtk_label_set_text (self->subtitle_label, shown);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), command ? tip : NULL);
    gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), command != NULL);
  }
  if (self->file != NULL)
    {
      g_autofree char *path = g_file_get_parse_name (self->file);

      gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), path);
    }
}

static void on_thread_filter_changed (GtkDropDown *dropdown,
                                      GParamSpec  *pspec,
                                      HpWindow    *self);

static char *
format_amount (guint64  amount,
               gpointer user_data)
{
  HpLoadedProfile *profile = user_data;

  return hp_format_amount (&profile->measure, amount);
}

/* The thread filter's entries: every thread (@pid 0), by process, or
 * the threads of process @pid, the first entry keeping them all; each
 * with what the shown event counts of it. */
void
hp_window_fill_thread_filter (HpWindow *self,
                              gint32    pid)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  HpLoadedProfile *profile = self->profile;
  g_autoptr(GPtrArray) entries = hp_thread_filter_entries (profile->capture->data, profile->capture->thread_starts,
                                                           profile->thread_amounts,
                                                           profile->range_amounts != NULL ? profile->range_amounts
                                                                                          : profile->thread_amounts,
                                                           pid, format_amount, profile);

  g_ptr_array_set_size (self->filters, 0);
  g_clear_pointer (&self->filter_tids, g_hash_table_unref);
  self->lanes_entry = FALSE;

  for (guint i = 0; i < entries->len; i++)
    {
      HpThreadFilterEntry *entry = g_ptr_array_index (entries, i);

      gtk_string_list_append (list, entry->label);
      g_ptr_array_add (self->filters, g_steal_pointer (&entry->tids));
    }

  g_signal_handlers_block_by_func (self->thread_dropdown, on_thread_filter_changed, self);
  gtk_drop_down_set_model (self->thread_dropdown, G_LIST_MODEL (list));
  gtk_drop_down_set_selected (self->thread_dropdown, 0);
  g_signal_handlers_unblock_by_func (self->thread_dropdown, on_thread_filter_changed, self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->thread_dropdown), self->filters->len > 1);
}

guint
hp_window_add_lanes_entry (HpWindow *self)
{
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (self->thread_dropdown));
  guint n = g_hash_table_size (self->filter_tids);
  g_autofree char *label = g_strdup_printf (ngettext ("%u thread chosen in the timeline",
                                                      "%u threads chosen in the timeline", n), n);

  gtk_string_list_append (list, label);
  g_ptr_array_add (self->filters, hp_id_set_copy (self->filter_tids));
  self->lanes_entry = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->thread_dropdown), TRUE);
  return self->filters->len - 1;
}

void
hp_window_select_thread_entry (HpWindow *self,
                               guint     position)
{
  g_signal_handlers_block_by_func (self->thread_dropdown, on_thread_filter_changed, self);
  gtk_drop_down_set_selected (self->thread_dropdown, position);
  g_signal_handlers_unblock_by_func (self->thread_dropdown, on_thread_filter_changed, self);
}

static void
on_store_changed (HpSummaryStore *store,
                  const char     *key,
                  HpWindow       *self)
{
  hp_call_tree_view_set_marked (self->tree_view, key, hp_summary_store_get (store, key) != NULL);
}

static void
set_store (HpWindow       *self,
           HpSummaryStore *store)
{
  if (self->store != NULL)
    g_clear_signal_handler (&self->store_changed_handler, self->store);
  g_set_object (&self->store, store);
  hp_flame_view_set_summary_store (self->flame_view, store);
  if (store != NULL)
    self->store_changed_handler = g_signal_connect (store, "changed", G_CALLBACK (on_store_changed), self);
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Notes what @view cost since @since (thread_cpu_ms), for the display
 * benchmark; returns the time now, the next view's start. */
static double
note_cost (HpWindow   *self,
           const char *view,
           double      since)
{
  double now = thread_cpu_ms ();

  if (self->n_costs < HP_WINDOW_MAX_COSTS)
    self->costs[self->n_costs++] = (HpWindowCost) { view, now - since };
  return now;
}

/* The bottom panes that are hidden let go of the profile they showed:
 * each catches up with the window's profile when shown again
 * (update_bottom_pane), so what it held would only be kept alive: the
 * trees the profile replaced, and the flame graph's layout of them. Let
 * go, their blocks serve the next filter's build (hp-block-pool.c) rather
 * than fresh memory, whose page faults cost that build more than half its
 * CPU on the display benchmark's stress capture. */
static void
release_hidden_panes (HpWindow *self)
{
  const char *pane = gtk_stack_get_visible_child_name (self->bottom_stack);

  if (g_strcmp0 (pane, "calls") != 0)
    hp_calls_view_set_function (self->calls_view, NULL, 0);
  if (g_strcmp0 (pane, "flame") != 0)
    hp_flame_view_set_profile (self->flame_view, NULL, FALSE);
  if (g_strcmp0 (pane, "source") != 0)
    hp_source_view_set_function (self->source_view, NULL, 0);
}

static void
show_profile (HpWindow        *self,
              HpLoadedProfile *profile,
              const char      *select_key)
{
  double t = thread_cpu_ms ();

  self->n_costs = 0;
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  self->profile = hp_loaded_profile_ref (profile);

  hp_window_update_filter_counts (self);
  t = note_cost (self, "thread and process filters", t);
  hp_capture_overview_set_profile (self->overview, profile);
  t = note_cost (self, "overview", t);
  if (self->timeline_view != NULL)
    hp_timeline_view_set_profile (self->timeline_view, profile);
  t = note_cost (self, "timeline", t);
  hp_summary_list_set_store (self->summary_list, self->store, profile);
  t = note_cost (self, "summary list", t);
  hp_call_tree_view_set_profile (self->tree_view, profile, select_key);
  t = note_cost (self, "call tree", t);
  hp_function_list_set_profile (self->function_list, profile);
  t = note_cost (self, "function list", t);
  release_hidden_panes (self);
  t = note_cost (self, "hidden panes", t);
  hp_window_update_filter_bar (self);
  {
    const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

    if (text[0] != '\0')
      hp_call_tree_view_search (self->tree_view, text);
  }
  note_cost (self, "filter bar and search", t);
}

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(HpWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpLoadedProfile) profile = hp_loaded_capture_load_finish (result, &error);
  g_autoptr(HpSummaryStore) store = NULL;
  GHashTableIter iter;
  gpointer key;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->load_cancellable);

  if (profile == NULL)
    {
      show_error (self, error);
      return;
    }

  store = hp_summary_store_new (profile->capture->path, profile->capture->summaries,
                                profile->capture->read_only_reason);
  hp_summary_store_set_rows (store, profile->capture->summary_rows);
  hp_summary_store_set_program (store, profile->capture->program);
  hp_summary_offer_set_capture (self->summary_offer, profile, store, self->offer_library_summaries);
  /* samples that wait beside it (not beside an import's cached copy) */
  hp_pending_banner_set_capture (self->pending_banner, profile->capture->imported ? NULL : profile->capture->path);
  set_store (self, store);
  hp_summary_pane_set_store (self->summary_pane, store);

  /* marks first, so the rows of the hottest path show theirs at once */
  g_hash_table_iter_init (&iter, profile->capture->summaries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    hp_call_tree_view_set_marked (self->tree_view, key, TRUE);

  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  self->profile = hp_loaded_profile_ref (profile);
  hp_window_fill_thread_filter (self, 0);
  hp_window_fill_event_filters (self);
  gtk_stack_set_visible_child_name (self->main_stack, "capture");
  /* the summary pane when there is a summary to read, or room for it */
  {
    int width = gtk_widget_get_width (GTK_WIDGET (self));
    int height;

    if (width <= 0)  /* (opened before the window was first laid out) */
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
    place_summary (self, width < WIDE_WINDOW);
    g_object_set (self, "show-summary",
                  g_hash_table_size (profile->capture->summaries) > 0 || width >= WIDE_WINDOW, NULL);
  }
  show_profile (self, profile, NULL);
  /* the keys work in the tree at once, from the hot row it selects
   * (rather than from the Top-Down button, the first one in the window) */
  gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
  hp_window_update_title (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.find", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-summaries", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as-capture", profile->capture->imported);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-capture-to", profile->capture->imported);

  hp_application_add_recent (HP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))),
                             self->file, g_strcmp0 (profile->capture->path, g_file_peek_path (self->file)) != 0);
  /* the window's filters stay on for the next capture (merged recursion,
   * hidden kernel, folded inlines); folded functions and modules are ids
   * of the capture they were chosen in */
  hp_window_clear_folds (self);
  hp_window_rebuild_profile (self);
}

/* The samples that waited beside the capture are in it now: it holds
 * more, and is read again. */
static void
on_pending_added (HpWindow *self)
{
  if (self->file != NULL)
    {
      g_autoptr(GFile) file = g_object_ref (self->file);

      hp_window_open (self, file);
    }
}

void
hp_window_open (HpWindow *self,
                GFile    *file)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (HP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);

  hp_summary_pane_flush (self->summary_pane);
  hp_summary_pane_set_store (self->summary_pane, NULL);
  hp_summary_list_set_store (self->summary_list, NULL, NULL);
  hp_summary_offer_set_capture (self->summary_offer, NULL, NULL, FALSE);
  hp_pending_banner_set_capture (self->pending_banner, NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import-summaries", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as-capture", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-capture-to", FALSE);
  set_store (self, NULL);
  hp_call_tree_view_set_profile (self->tree_view, NULL, NULL);
  hp_calls_view_set_function (self->calls_view, NULL, 0);
  hp_source_view_set_function (self->source_view, NULL, 0);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  g_set_object (&self->file, file);

  name = display_basename (file);
  title = g_strdup_printf (_("Opening “%s”"), name);
  gtk_label_set_text (self->loading_title, title);
  gtk_progress_bar_set_fraction (self->loading_progress, 0.0);
  gtk_progress_bar_set_text (self->loading_progress, _("Opening the capture…"));
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
  hp_window_update_title (self);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (&error, HP_STORE_ERROR, HP_STORE_ERROR_IO,
                   _("%s: only local files can be opened"), uri);
      show_error (self, error);
      return;
    }

  self->load_cancellable = g_cancellable_new ();
  hp_loaded_capture_load_async (path, self->load_cancellable, on_load_progress, G_OBJECT (self),
                                load_done, g_object_ref (self));
}

gboolean
hp_window_is_empty (HpWindow *self)
{
  g_return_val_if_fail (HP_IS_WINDOW (self), FALSE);

  return self->load_cancellable == NULL &&
         (self->file == NULL || g_strcmp0 (hp_window_get_state (self), "error") == 0);
}

/* Thread filter ------------------------------------------------------ */

static void
filter_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(HpWindow) self = user_data;
  g_autoptr(HpLoadedProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;
  const HpCallNode *selected;

  profile = hp_loaded_profile_build_finish (result, &error);
  if (profile == NULL || g_task_get_cancellable (G_TASK (result)) != self->filter_cancellable)
    return;
  g_clear_object (&self->filter_cancellable);

  /* keep the selected path when the new profile has it */
  selected = hp_call_tree_view_get_selected (self->tree_view);
  if (selected != NULL && self->profile != NULL && !hp_call_tree_view_get_bottom_up (self->tree_view))
    key = hp_call_node_path_key (self->profile->profile, selected);
  show_profile (self, profile, key);
}

/* Builds the profile for what the filters keep (threads, the timeline's
 * range, merged recursion, folds) in a worker; filter_done shows it. */
void
hp_window_rebuild_profile (HpWindow *self)
{
  HpTimeline *timeline;
  HpSampleIndex *samples;
  HpProfileFilter filter = { 0 };

  /* the window is being torn down */
  if (self->profile == NULL || self->timeline_view == NULL)
    return;
  timeline = hp_timeline_view_get_timeline (self->timeline_view);
  samples = hp_timeline_view_get_samples (self->timeline_view);
  filter.tids = self->filter_tids;
  filter.has_range = samples != NULL && hp_timeline_get_selection (timeline, &filter.from, &filter.to);
  filter.merge_recursion = self->merge_recursion;
  filter.fold_inline = self->fold_inline;
  filter.hide_kernel = self->hide_kernel;
  filter.fold_functions = self->fold_functions;
  filter.fold_modules = self->fold_modules;
  filter.event = self->event;
  /* the callers' tree costs as much as the rest: only when it is shown */
  filter.bottom_up = hp_call_tree_view_get_bottom_up (self->tree_view);
  if (hp_id_set_equal (filter.tids, self->profile->tids) && hp_loaded_profile_has_folds (self->profile, &filter) &&
      (self->event == NULL || g_strcmp0 (self->event, self->profile->measure.event) == 0) &&
      filter.has_range == self->profile->has_range &&
      (!filter.has_range || (filter.from == self->profile->from && filter.to == self->profile->to)))
    return;

  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  self->filter_cancellable = g_cancellable_new ();
  hp_loaded_profile_build_filtered_async (self->profile->capture, &filter, samples, self->filter_cancellable,
                                          filter_done, g_object_ref (self));
}

static void
on_thread_filter_changed (GtkDropDown *dropdown,
                          GParamSpec  *pspec,
                          HpWindow    *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->profile == NULL || selected >= self->filters->len)
    return;
  g_clear_pointer (&self->filter_tids, g_hash_table_unref);
  self->filter_tids = hp_id_set_copy (g_ptr_array_index (self->filters, selected));
  if (self->timeline_view != NULL)
    hp_timeline_set_selected_tids (hp_timeline_view_get_timeline (self->timeline_view), self->filter_tids);
  hp_window_rebuild_profile (self);
}

/* Threads chosen in the timeline's lanes: the dropdown shows "all" or the
 * entry that holds exactly those threads, when there is one; else an
 * entry of its own, last, that says how many (it kept showing the last
 * thread that had an entry: two threads chosen read "Thread hp-worker-1"). */
static void
on_timeline_threads_changed (HpTimeline *timeline,
                             HpWindow   *self)
{
  GHashTable *tids = hp_timeline_get_selected_tids (timeline);
  GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (self->thread_dropdown));
  guint position = G_MAXUINT;

  g_clear_pointer (&self->filter_tids, g_hash_table_unref);
  self->filter_tids = hp_id_set_copy (tids);
  g_signal_handlers_block_by_func (self->thread_dropdown, on_thread_filter_changed, self);
  if (self->lanes_entry)
    {
      gtk_string_list_remove (list, self->filters->len - 1);
      g_ptr_array_set_size (self->filters, self->filters->len - 1);
      self->lanes_entry = FALSE;
    }
  for (guint i = 0; i < self->filters->len && position == G_MAXUINT; i++)
    if (hp_id_set_equal (g_ptr_array_index (self->filters, i), self->filter_tids))
      position = i;
  if (position == G_MAXUINT && self->filter_tids != NULL)
    position = hp_window_add_lanes_entry (self);
  if (position != G_MAXUINT)
    gtk_drop_down_set_selected (self->thread_dropdown, position);
  g_signal_handlers_unblock_by_func (self->thread_dropdown, on_thread_filter_changed, self);
  hp_window_rebuild_profile (self);
}

static void
on_timeline_range_changed (HpTimeline *timeline,
                           HpWindow   *self)
{
  hp_window_rebuild_profile (self);
}

static void
on_timeline_samples_loaded (HpTimelineView *view,
                            HpWindow       *self)
{
  /* a range chosen before the samples were read (a test, an action) */
  hp_window_rebuild_profile (self);
  fit_bottom_page (self);
  /* ranges are coming: the first must not fault its memory in fresh
   * while the whole profile is still shown */
  if (self->profile != NULL)
    hp_loaded_profile_prepare_filters (self->profile);
}

/* Selection ---------------------------------------------------------- */

/* The source, the callers and the flame graph share a place with the
 * function list and the timeline; only the shown one follows the
 * selection, the others catch up when they are shown. Each costs row
 * widgets to refill or a worker (the source read and annotated: 80 ms
 * of CPU on the stress capture, for every range chosen in the timeline),
 * and a selection must not wait for a hidden one. */
static void
update_bottom_pane (HpWindow *self)
{
  HpLoadedProfile *profile = hp_call_tree_view_get_profile (self->tree_view);
  const HpCallNode *node = hp_call_tree_view_get_selected (self->tree_view);
  gint64 function_id = node ? node->function_id : 0;
  const char *pane = gtk_stack_get_visible_child_name (self->bottom_stack);

  if (g_strcmp0 (pane, "calls") == 0)
    hp_calls_view_set_function (self->calls_view, profile, function_id);
  else if (g_strcmp0 (pane, "flame") == 0)
    {
      hp_flame_view_set_profile (self->flame_view, profile, hp_call_tree_view_get_bottom_up (self->tree_view));
      hp_flame_view_set_selected (self->flame_view, node);
    }
  else if (g_strcmp0 (pane, "source") == 0)
    hp_source_view_set_function (self->source_view, profile, function_id);
}

static void
update_summary_pane (HpWindow *self)
{
  hp_summary_pane_set_node (self->summary_pane, hp_call_tree_view_get_profile (self->tree_view),
                            hp_call_tree_view_get_selected (self->tree_view),
                            hp_call_tree_view_get_bottom_up (self->tree_view));
  hp_suggest_box_set_node (self->suggest_box, hp_call_tree_view_get_profile (self->tree_view),
                           hp_call_tree_view_get_selected (self->tree_view),
                           hp_call_tree_view_get_bottom_up (self->tree_view),
                           hp_summary_pane_get_editable (self->summary_pane),
                           hp_source_view_get_source_paths (self->source_view));
}

/* A suggestion the user chose: into the summary, as if typed, and saved
 * now rather than after the pause that typing waits for. */
static void
on_suggestion_accepted (HpSuggestBox *box,
                        const char   *text,
                        HpWindow     *self)
{
  hp_summary_pane_set_text (self->summary_pane, text);
  hp_summary_pane_flush (self->summary_pane);
}

/* The panes follow a selection a frame apart: the summary pane one frame
 * after the tree shows it, the source or the callers the frame after.
 * Each relays out and repaints its part of the window (rewrapping its
 * labels at every width its parents ask about), and all of it in the
 * frame of the selection took longer than a frame on a large capture. */
static gboolean
follow_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  HpWindow *self = HP_WINDOW (widget);

  if (gdk_frame_clock_get_frame_counter (clock) <= self->follow_frame)
    return G_SOURCE_CONTINUE;  /* the frame that shows the selection */
  self->follow_frame = gdk_frame_clock_get_frame_counter (clock);
  if (self->follow_pending & FOLLOW_SUMMARY)
    {
      double t = thread_cpu_ms ();

      self->follow_pending &= ~FOLLOW_SUMMARY;
      update_summary_pane (self);
      note_cost (self, "summary pane", t);
      if (self->follow_pending != 0)
        return G_SOURCE_CONTINUE;
    }
  if (self->follow_pending & FOLLOW_BOTTOM)
    {
      double t = thread_cpu_ms ();

      update_bottom_pane (self);
      note_cost (self, "bottom pane", t);
    }
  self->follow_pending = 0;
  self->follow_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
on_node_selected (HpCallTreeView   *tree,
                  const HpCallNode *node,
                  HpWindow         *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (clock == NULL)
    {
      /* not shown: no frames to spread it over */
      update_summary_pane (self);
      update_bottom_pane (self);
      return;
    }
  self->follow_pending = FOLLOW_SUMMARY | FOLLOW_BOTTOM;
  if (self->follow_tick == 0)
    {
      self->follow_frame = gdk_frame_clock_get_frame_counter (clock);
      self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick_cb, NULL, NULL);
    }
}

static void
on_bottom_pane_changed (GtkStack   *stack,
                        GParamSpec *pspec,
                        HpWindow   *self)
{
  const char *page = gtk_stack_get_visible_child_name (stack);

  /* where Hide goes back to, on a small screen */
  if (page != NULL && g_strcmp0 (page, "summary") != 0)
    {
      g_free (self->page_before_summary);
      self->page_before_summary = g_strdup (page);
    }
  update_bottom_pane (self);
  self->side_moved_by_user = FALSE;
  fit_bottom_page (self);
  if (self->summary_below)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SUMMARY]);
}

static void
on_flame_node_activated (HpFlameView      *view,
                         const HpCallNode *node,
                         HpWindow         *self)
{
  hp_call_tree_view_select_node (self->tree_view, node);
}

static void
on_function_activated (HpCallsView *view,
                       gint64       function_id,
                       HpWindow    *self)
{
  hp_call_tree_view_select_function (self->tree_view, function_id);
}

static void
on_step_activated (HpSummaryPane    *pane,
                   const HpCallNode *node,
                   HpWindow         *self)
{
  hp_call_tree_view_select_node (self->tree_view, node);
}

static void
on_path_activated (HpSummaryList *list,
                   const char    *key,
                   HpWindow      *self)
{
  hp_call_tree_view_select_path_key (self->tree_view, key);
}

static void
on_tree_mode_changed (HpCallTreeView *tree,
                      GParamSpec     *pspec,
                      HpWindow       *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE_MODE]);
  if (text[0] != '\0')
    hp_call_tree_view_search (self->tree_view, text);
}

/* Search ------------------------------------------------------------- */

static void
update_match_label (HpWindow *self)
{
  guint index, n;
  g_autofree char *text = NULL;

  hp_call_tree_view_get_search_status (self->tree_view, &index, &n);
  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] == '\0')
    text = g_strdup ("");
  else if (n == 0)
    text = g_strdup (_("No match"));
  else
    /* Translators: search position, as in "3 of 57" */
    text = g_strdup_printf (_("%u of %u"), index + 1, n);
  gtk_label_set_text (self->match_label, text);
  /* its width, while nothing is searched, is the filters' at 1024 px */
  gtk_widget_set_visible (GTK_WIDGET (self->match_label), text[0] != '\0');
  /* while a search shows its position, the entry holds what was typed
   * rather than its placeholder ("Find function"), which sizes it even
   * unseen: the position takes room from the entry, not from the
   * filters' counts (German "Alle Prozesse (3234 Stichproben)" was cut
   * at 1024 px). The property: gtk_search_entry_set_placeholder_text()
   * is GTK 4.10. */
  g_object_set (self->search_entry, "placeholder-text", text[0] != '\0' ? "" : _("Find function"), NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->search_entry), text[0] != '\0' ? 8 : 13);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (self->search_entry), text[0] != '\0' ? 8 : 13);
}

static void
on_search_changed (GtkSearchEntry *entry,
                   HpWindow       *self)
{
  hp_call_tree_view_search (self->tree_view, gtk_editable_get_text (GTK_EDITABLE (entry)));
  hp_flame_view_set_search (self->flame_view, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_search_done (HpCallTreeView *tree,
                HpWindow       *self)
{
  update_match_label (self);
}

static void
on_search_next (GtkSearchEntry *entry,
                HpWindow       *self)
{
  hp_call_tree_view_next_match (self->tree_view, FALSE);
  update_match_label (self);
}

static void
on_search_previous (GtkSearchEntry *entry,
                    HpWindow       *self)
{
  hp_call_tree_view_next_match (self->tree_view, TRUE);
  update_match_label (self);
}

static void
on_search_stop (GtkSearchEntry *entry,
                HpWindow       *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  /* Escape ends the search: back to the tree, on the match it reached */
  if (g_strcmp0 (hp_window_get_state (self), "capture") == 0)
    gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
}

/* Closing ------------------------------------------------------------ */

static void
flush_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GApplication *app = user_data;

  hp_summary_store_flush_finish (HP_SUMMARY_STORE (object), result, NULL);
  g_application_release (app);
  g_object_unref (app);
}

static gboolean
hp_window_close_request (GtkWindow *window)
{
  HpWindow *self = HP_WINDOW (window);
  GtkApplication *app = gtk_window_get_application (window);

  /* Save what was typed now, and keep the application alive (not the
   * window) until the worker has written it. */
  hp_summary_pane_flush (self->summary_pane);
  if (self->store != NULL && app != NULL && hp_summary_store_get_n_pending (self->store) > 0)
    {
      g_application_hold (G_APPLICATION (app));
      hp_summary_store_flush_async (self->store, flush_done, g_object_ref (app));
    }
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);

  return GTK_WINDOW_CLASS (hp_window_parent_class)->close_request (window);
}

/* GObject ------------------------------------------------------------ */

static void
bind_paned (HpWindow   *self,
            GtkPaned   *paned,
            const char *key)
{
  GSettingsSchema *schema = NULL;
  int position;

  if (self->settings == NULL)
    return;
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  if (schema == NULL || !g_settings_schema_has_key (schema, key))
    {
      g_clear_pointer (&schema, g_settings_schema_unref);
      return;
    }
  g_settings_schema_unref (schema);
  /* -1 lets the window choose, which a plain binding cannot express */
  position = g_settings_get_int (self->settings, key);
  if (position >= 0)
    {
      gtk_paned_set_position (paned, position);
      if (paned == self->main_paned)
        self->main_paned_placed = TRUE;
    }
  g_object_set_data_full (G_OBJECT (paned), "hp-settings-key", g_strdup (key), g_free);
}

static void
on_paned_moved (GtkPaned   *paned,
                GParamSpec *pspec,
                HpWindow   *self)
{
  const char *key = g_object_get_data (G_OBJECT (paned), "hp-settings-key");

  /* GtkPaned keeping its proportion in a resized window, or the call
   * tree's first share: the user chose neither */
  if (self->allocating)
    return;
  if (paned == self->side_paned)
    {
      if (self->fitting)
        return;
      /* the user moved it while a page had it: that position stays,
       * and the page is not fitted again until another is shown */
      if (gtk_widget_get_mapped (GTK_WIDGET (paned)))
        {
          self->side_position_before_fit = -1;
          self->side_moved_by_user = TRUE;
        }
    }
  /* only a position the user chose, not the initial layout */
  if (key != NULL && self->settings != NULL && gtk_widget_get_mapped (GTK_WIDGET (paned)) &&
      gtk_paned_get_position (paned) != g_settings_get_int (self->settings, key))
    g_settings_set_int (self->settings, key, gtk_paned_get_position (paned));
}

static void
hp_window_constructed (GObject *object)
{
  HpWindow *self = HP_WINDOW (object);
  GtkApplication *app;

  G_OBJECT_CLASS (hp_window_parent_class)->constructed (object);

  /* the application's Open Recent items, kept up to date by it, go in
   * the submenu of the first section of the main menu (hp-window.ui) */
  app = gtk_window_get_application (GTK_WINDOW (self));
  if (app != NULL && HP_IS_APPLICATION (app))
    {
      GMenuModel *menu = gtk_menu_button_get_menu_model (self->menu_button);
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) recent = section ? g_menu_model_get_item_link (section, 1, G_MENU_LINK_SUBMENU) : NULL;

      g_assert (G_IS_MENU (recent));
      g_menu_append_section (G_MENU (recent), NULL, hp_application_get_recent_menu (HP_APPLICATION (app)));
    }
}

static void
hp_window_dispose (GObject *object)
{
  HpWindow *self = HP_WINDOW (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  g_clear_handle_id (&self->screenshot_source, g_source_remove);
  g_clear_handle_id (&self->place_source, g_source_remove);
  g_clear_handle_id (&self->fit_source, g_source_remove);
  self->follow_tick = 0;  /* (tick callbacks go with the widget) */
  g_clear_weak_pointer (&self->record_dialog);
  set_store (self, NULL);
  g_clear_pointer (&self->profile, hp_loaded_profile_unref);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), HP_TYPE_WINDOW);

  G_OBJECT_CLASS (hp_window_parent_class)->dispose (object);
}

static void
hp_window_finalize (GObject *object)
{
  HpWindow *self = HP_WINDOW (object);

  g_ptr_array_unref (self->filters);
  g_clear_pointer (&self->filter_tids, g_hash_table_unref);
  g_clear_pointer (&self->fold_functions, g_hash_table_unref);
  g_clear_pointer (&self->fold_modules, g_hash_table_unref);
  g_clear_pointer (&self->process_pids, g_array_unref);
  g_clear_pointer (&self->event, g_free);
  g_clear_pointer (&self->counted_event, g_free);
  g_clear_pointer (&self->page_before_summary, g_free);

  G_OBJECT_CLASS (hp_window_parent_class)->finalize (object);
}

static void
hp_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  HpWindow *self = HP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MERGE_RECURSION:
      g_value_set_boolean (value, self->merge_recursion);
      break;
    case PROP_HIDE_KERNEL:
      g_value_set_boolean (value, self->hide_kernel);
      break;
    case PROP_FOLD_INLINE:
      g_value_set_boolean (value, self->fold_inline);
      break;
    case PROP_SHOW_SUMMARY:
      g_value_set_boolean (value, get_show_summary (self));
      break;
    case PROP_OFFER_LIBRARY_SUMMARIES:
      g_value_set_boolean (value, self->offer_library_summaries);
      break;
    case PROP_TREE_MODE:
      /* asked for while the template is built, before tree_view is set */
      g_value_set_string (value, self->tree_view != NULL && hp_call_tree_view_get_bottom_up (self->tree_view) ?
                                 "bottom-up" : "top-down");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* A boolean of the profile filter: a change is notified and the profile
 * rebuilt for it. */
static void
set_filter_flag (HpWindow     *self,
                 gboolean     *flag,
                 const GValue *value,
                 GParamSpec   *pspec)
{
  if (*flag == g_value_get_boolean (value))
    return;
  *flag = g_value_get_boolean (value);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  hp_window_rebuild_profile (self);
}

static void
hp_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  HpWindow *self = HP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_MERGE_RECURSION:
      set_filter_flag (self, &self->merge_recursion, value, pspec);
      break;
    case PROP_HIDE_KERNEL:
      set_filter_flag (self, &self->hide_kernel, value, pspec);
      break;
    case PROP_FOLD_INLINE:
      set_filter_flag (self, &self->fold_inline, value, pspec);
      break;
    case PROP_SHOW_SUMMARY:
      set_show_summary (self, g_value_get_boolean (value));
      break;
    case PROP_OFFER_LIBRARY_SUMMARIES:
      if (self->offer_library_summaries != g_value_get_boolean (value))
        {
          self->offer_library_summaries = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
          /* on: look now; off: the banner goes */
          if (self->summary_offer != NULL)
            hp_summary_offer_set_capture (self->summary_offer, self->profile, self->store,
                                          self->offer_library_summaries);
        }
      break;
    case PROP_TREE_MODE:
      hp_call_tree_view_set_bottom_up (self->tree_view, g_strcmp0 (g_value_get_string (value), "bottom-up") == 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_window_class_init (HpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = hp_window_constructed;
  object_class->dispose = hp_window_dispose;
  object_class->finalize = hp_window_finalize;
  object_class->get_property = hp_window_get_property;
  object_class->set_property = hp_window_set_property;
  window_class->close_request = hp_window_close_request;
  widget_class->size_allocate = hp_window_size_allocate;

  properties[PROP_TREE_MODE] =
    g_param_spec_string ("tree-mode", NULL, NULL, "top-down",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* f → f → f shown as one f, in every view */
  properties[PROP_MERGE_RECURSION] =
    g_param_spec_boolean ("merge-recursion", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* kernel frames counted in the user function that entered the kernel */
  properties[PROP_HIDE_KERNEL] =
    g_param_spec_boolean ("hide-kernel", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* inlined functions counted in their caller, as perf report --sort sym */
  properties[PROP_FOLD_INLINE] =
    g_param_spec_boolean ("fold-inline", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the pane of the call path's summary and the Summaries list (F9):
   * beside the call tree in a wide window; in a narrow one, whether the
   * bottom pane shows its Summary page (place_summary) */
  properties[PROP_SHOW_SUMMARY] =
    g_param_spec_boolean ("show-summary", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* the library's summaries for a capture's paths, offered in a banner */
  properties[PROP_OFFER_LIBRARY_SUMMARIES] =
    g_param_spec_boolean ("offer-library-summaries", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_type_ensure (HP_TYPE_SUMMARY_OFFER);
  g_type_ensure (HP_TYPE_PENDING_BANNER);

  g_type_ensure (HP_TYPE_CAPTURE_OVERVIEW);
  g_type_ensure (HP_TYPE_CALL_TREE_VIEW);
  g_type_ensure (HP_TYPE_SUGGEST_BOX);
  g_type_ensure (HP_TYPE_CALLS_VIEW);
  g_type_ensure (HP_TYPE_FUNCTION_LIST);
  g_type_ensure (HP_TYPE_EVENT_SELECTOR);
  g_type_ensure (HP_TYPE_FLAME_VIEW);
  g_type_ensure (HP_TYPE_TIMELINE_VIEW);
  g_type_ensure (HP_TYPE_SOURCE_VIEW);
  g_type_ensure (HP_TYPE_SUMMARY_LIST);
  g_type_ensure (HP_TYPE_SUMMARY_PANE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/hotpath/Hotpath/ui/hp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, HpWindow, record_button);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, empty_open_button);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, error_hint);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, main_paned);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, side_paned);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, event_selector);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, process_dropdown);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, match_label);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, tree_view);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, bottom_stack);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, summary_paned);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, source_view);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, calls_view);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, function_list);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, filter_label);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, flame_view);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, summary_list);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, summary_pane);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, summary_offer);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, pending_banner);
  gtk_widget_class_bind_template_callback (widget_class, on_pending_added);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, suggest_box);
  gtk_widget_class_bind_template_child (widget_class, HpWindow, menu_button);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_next);
  gtk_widget_class_bind_template_callback (widget_class, on_search_previous);
  gtk_widget_class_bind_template_callback (widget_class, on_search_stop);

  hp_window_class_actions_init (widget_class);
  gtk_widget_class_install_property_action (widget_class, "win.tree-mode", "tree-mode");
  gtk_widget_class_install_property_action (widget_class, "win.merge-recursion", "merge-recursion");
  gtk_widget_class_install_property_action (widget_class, "win.hide-kernel", "hide-kernel");
  gtk_widget_class_install_property_action (widget_class, "win.fold-inline", "fold-inline");
  hp_window_class_filters_init (widget_class);
  gtk_widget_class_install_property_action (widget_class, "win.show-summary", "show-summary");
  gtk_widget_class_install_property_action (widget_class, "win.offer-library-summaries", "offer-library-summaries");
}

static void
free_filter (gpointer p)
{
  /* NULL stands for all threads */
  if (p != NULL)
    g_hash_table_unref (p);
}

static void
hp_window_init (HpWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  self->offer_library_summaries = TRUE;
  self->side_position_before_fit = -1;
  self->filters = g_ptr_array_new_with_free_func (free_filter);
  self->process_pids = g_array_new (FALSE, FALSE, sizeof (gint32));

  gtk_widget_init_template (GTK_WIDGET (self));
  /* until an imported capture is shown */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-as-capture", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-capture-to", FALSE);
  /* Not a bound template child: gtk_widget_dispose_template() unparents
   * bound direct children, and GtkWindow's dispose then unparents its
   * child a second time. */
  self->main_stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (self)));

  if (source != NULL &&
      (schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE)) != NULL)
    {
      self->settings = g_settings_new_full (schema, NULL, NULL);
      /* read once: a window takes the size last saved, and saves its own;
       * following the setting would resize every other open window
       * whenever one is resized */
      g_settings_bind (self->settings, "window-width", self, "default-width",
                       G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_GET_NO_CHANGES);
      g_settings_bind (self->settings, "window-height", self, "default-height",
                       G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_GET_NO_CHANGES);
      g_settings_bind (self->settings, "window-maximized", self, "maximized",
                       G_SETTINGS_BIND_DEFAULT | G_SETTINGS_BIND_GET_NO_CHANGES);
      g_settings_bind (self->settings, "source-paths", self->source_view, "source-paths", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "offer-library-summaries", self, "offer-library-summaries",
                       G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "summarizer-command", self->suggest_box, "command", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "summarizer-timeout", self->suggest_box, "timeout", G_SETTINGS_BIND_DEFAULT);
      bind_paned (self, self->main_paned, "main-paned-position");
      bind_paned (self, self->side_paned, "side-paned-position");
      bind_paned (self, self->summary_paned, "summary-paned-position");
    }
  else
    g_warning ("GSettings schema %s is not installed; window size and source folders are not kept",
               APPLICATION_ID);

  g_signal_connect (self->main_paned, "notify::position", G_CALLBACK (on_paned_moved), self);
  g_signal_connect (self->side_paned, "notify::position", G_CALLBACK (on_paned_moved), self);
  g_signal_connect (self->summary_paned, "notify::position", G_CALLBACK (on_paned_moved), self);
  g_signal_connect (self->tree_view, "node-selected", G_CALLBACK (on_node_selected), self);
  g_signal_connect (self->bottom_stack, "notify::visible-child", G_CALLBACK (on_bottom_pane_changed), self);
  g_signal_connect (self->tree_view, "notify::bottom-up", G_CALLBACK (on_tree_mode_changed), self);
  g_signal_connect (self->tree_view, "search-done", G_CALLBACK (on_search_done), self);
  g_signal_connect (self->calls_view, "function-activated", G_CALLBACK (on_function_activated), self);
  g_signal_connect (self->function_list, "function-activated", G_CALLBACK (on_function_activated), self);
  g_signal_connect (self->flame_view, "node-activated", G_CALLBACK (on_flame_node_activated), self);
  g_signal_connect (hp_timeline_view_get_timeline (self->timeline_view), "selection-changed",
                    G_CALLBACK (on_timeline_range_changed), self);
  g_signal_connect (hp_timeline_view_get_timeline (self->timeline_view), "threads-changed",
                    G_CALLBACK (on_timeline_threads_changed), self);
  g_signal_connect (self->timeline_view, "samples-loaded", G_CALLBACK (on_timeline_samples_loaded), self);
  g_signal_connect (self->summary_pane, "step-activated", G_CALLBACK (on_step_activated), self);
  g_signal_connect (self->suggest_box, "accepted", G_CALLBACK (on_suggestion_accepted), self);
  g_signal_connect (self->summary_list, "path-activated", G_CALLBACK (on_path_activated), self);
  g_signal_connect (self->thread_dropdown, "notify::selected", G_CALLBACK (on_thread_filter_changed), self);
  hp_window_events_init (self);
  {
    g_autoptr(GtkListItemFactory) button = hp_cell_dropdown_factory_new (TRUE);
    g_autoptr(GtkListItemFactory) list = hp_cell_dropdown_factory_new (FALSE);

    gtk_drop_down_set_factory (self->thread_dropdown, button);
    gtk_drop_down_set_list_factory (self->thread_dropdown, list);
  }

  hp_window_dnd_init (self);

  gtk_search_entry_set_key_capture_widget (self->search_entry, NULL);

  gtk_window_set_focus (GTK_WINDOW (self), self->empty_open_button);

  hp_window_screenshot_init (self);
}

HpWindow *
hp_window_new (GtkApplication *application)
{
  return g_object_new (HP_TYPE_WINDOW, "application", application, NULL);
}
