/* hp-compare-details.c - callers, callees and source lines of one function, both sides
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Below the differential call tree: for the function of the selected
 * path, who calls it and what it calls, and its source lines, each with
 * the base and new cost per run, the change and the verdict, from
 * hp_comparison_get_callers(), _get_callees() and _get_lines(). A
 * caller or callee whose calls are one call path is that path's row of
 * the tree, with its figures and verdict; calls on several paths add up
 * to a figure no row shows, judged among the neighbours and said so.
 * Lines are a family of their own (a line is flagged only if it holds up
 * among the function's lines). A line of the base is matched to the new's
 * by its text when the two sides' files are two versions on this computer
 * (two checkouts), else by its distance from the function's declaration
 * when that moved, else by number (hp_comparison_get_lines_aligned()); the
 * note above the lines says which, and a line that moved says where it was.
 *
 * The tables are grids: a function has tens of callers and lines, not
 * thousands, and the longest are cut at MAX_ROWS with a note. The text
 * of the lines is read from the source file in a worker.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "analysis/hp-text.h"
#include "document/hp-source-find.h"
#include "ui/hp-compare-details.h"
#include "ui/hp-compare-format.h"

#define MAX_ROWS 200
#define MAX_SOURCE_SIZE (16 * 1024 * 1024)

struct _HpCompareDetails {
  GtkBox        parent_instance;

  GtkLabel     *title;
  GtkStack     *stack;
  GtkGrid      *callers;
  GtkGrid      *callees;
  GtkGrid      *lines;
  GtkLabel     *source_note;

  char         *unit;
  HpComparison *comparison;   /* kept alive by the caller while shown */
  gint          function;
  GArray       *line_data;    /* HpCompareLine of the function, for the text */
  HpCompareLineMatch line_match;
  GCancellable *reading;
  GHashTable   *described;    /* page -> GString of rows, for tests */
};

G_DEFINE_FINAL_TYPE (HpCompareDetails, hp_compare_details, GTK_TYPE_BOX)

/* Grids ------------------------------------------------------------------ */

static void
string_free (gpointer data)
{
  g_string_free (data, TRUE);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (GtkGrid    *grid,
      int         column,
      int         row,
      const char *text,
      gboolean    number)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), number ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), number ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, column == 0);
  if (number)
    gtk_widget_add_css_class (label, "hp-compare-number");
  if (row == 0)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static void
header (GtkGrid    *grid,
        const char *first)
{
  cell (grid, 0, 0, first, FALSE);
  cell (grid, 1, 0, _("Base"), TRUE);
  cell (grid, 2, 0, _("New"), TRUE);
  cell (grid, 3, 0, _("Change"), TRUE);
  cell (grid, 4, 0, _("Verdict"), FALSE);
}

/* One row of figures after the name in column 0; returns nothing, notes
 * the row for tests. */
static void
stat_cells (HpCompareDetails    *self,
            GtkGrid             *grid,
            int                  row,
            const char          *name,
            const HpCompareStat *stat,
            GString             *described)
{
  g_autofree char *base = hp_compare_format_cost (stat->base, self->unit);
  g_autofree char *new_cost = hp_compare_format_cost (stat->new_cost, self->unit);
  g_autofree char *change = hp_compare_format_change (stat->change);
  const char *verdict = hp_compare_verdict_label (stat->verdict);

  g_autofree char *explained = hp_comparison_explain (self->comparison, stat);
  GtkWidget *verdict_label;

  cell (grid, 1, row, base, TRUE);
  cell (grid, 2, row, new_cost, TRUE);
  hp_compare_label_set_verdict_class (cell (grid, 3, row, change, TRUE), stat);
  verdict_label = cell (grid, 4, row, verdict, FALSE);
  hp_compare_label_set_verdict_class (verdict_label, stat);
  gtk_widget_set_tooltip_text (verdict_label, explained);
  g_string_append_printf (described, "%s\t%s\t%s\t%s\t%s\n", name, base, new_cost, change,
                          hp_verdict_to_string (stat->verdict));
}

static void
more_rows (GtkGrid *grid,
           int      row,
           guint    hidden)
{
  g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more, not shown",
                                                        "… and %u more, not shown", hidden), hidden);

  gtk_grid_attach (grid, gtk_label_new (text), 0, row, 5, 1);
}

static void
fill_neighbours (HpCompareDetails *self,
                 GtkGrid          *grid,
                 GArray           *neighbours,
                 const char       *first,
                 const char       *page)
{
  GString *described = g_string_new (NULL);
  guint n = MIN (neighbours->len, MAX_ROWS);

  clear_grid (grid);
  header (grid, first);
  for (guint i = 0; i < n; i++)
    {
      const HpCompareNeighbour *nb = &g_array_index (neighbours, HpCompareNeighbour, i);
      g_autofree char *safe = hp_compare_format_name (nb->name, nb->module);
      g_autofree char *shown = NULL;
      g_autofree char *tip = NULL;
      GtkWidget *label;

      /* One call path: the figure and verdict of its row in the tree. A
       * sum of several is no row there, and a question of its own. */
      if (nb->path < 0)
        {
          /* Translators: a caller or callee, then that its calls are on several call paths */
          shown = g_strdup_printf (_("%s  (several call paths)"), safe);
          /* Translators: a caller or callee */
          tip = g_strdup_printf (_("%s: its calls on several call paths added up, a figure no row of the tree "
                                   "shows; its verdict is tested among this function's callers and callees, "
                                   "not among the call paths"), safe);
        }
      else
        {
          shown = g_strdup (safe);
          /* Translators: a caller or callee */
          tip = g_strdup_printf (_("%s: these calls are one call path, with the figures and verdict of its row "
                                   "in the tree"), safe);
        }
      label = cell (grid, 0, i + 1, shown, FALSE);
      gtk_widget_set_tooltip_text (label, tip);
      stat_cells (self, grid, i + 1, shown, &nb->stat, described);
    }
  if (neighbours->len == 0)
    gtk_grid_attach (grid, gtk_label_new (_("None on either side")), 0, 1, 5, 1);
  else if (neighbours->len > n)
    more_rows (grid, n + 1, neighbours->len - n);
  g_hash_table_replace (self->described, g_strdup (page), described);
}

/* Source lines ------------------------------------------------------------ */

/* The new side's file of the function (or of its hottest line), and the
 * base's when it is another file: two versions, whose text aligns the
 * lines (hp_comparison_get_lines_aligned()). */
typedef struct {
  char   *path;
  char  **text;        /* lines of the file, or NULL */
  char   *error;
  char   *base_path;   /* NULL: the same file */
  char  **base_text;
} SourceRead;

static void
source_read_free (gpointer data)
{
  SourceRead *read = data;

  g_free (read->path);
  g_strfreev (read->text);
  g_free (read->error);
  g_free (read->base_path);
  g_strfreev (read->base_text);
  g_free (read);
}

static char **
read_lines (const char  *path,
            char       **error_out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) find_error = NULL;
  g_autofree char *found = hp_source_find_file (path, NULL, NULL, NULL, &find_error);
  g_autofree char *valid = NULL;
  GStatBuf st;

  if (found == NULL && g_error_matches (find_error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    /* Translators: why a file the capture names is not read */
    *error_out = g_strdup_printf (_("%s is not shown: %s; the lines are shown without their text"),
                                  path, find_error->message);
  else if (found == NULL || g_stat (found, &st) != 0)
    *error_out = g_strdup_printf (_("%s was not found on this computer; the lines are shown without their text"),
                                  path);
  else if (st.st_size > MAX_SOURCE_SIZE)
    *error_out = g_strdup_printf (_("%s is larger than %d MB; the lines are shown without their text"),
                                  path, MAX_SOURCE_SIZE / (1024 * 1024));
  else if (!g_file_get_contents (found, &contents, NULL, &error))
    *error_out = g_strdup (error->message);
  else
    {
      valid = hp_text_make_valid (contents);
      return g_strsplit (valid, "\n", -1);
    }
  return NULL;
}

static void
read_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SourceRead *read = task_data;

  read->text = read_lines (read->path, &read->error);
  if (read->text != NULL && read->base_path != NULL)
    {
      g_autofree char *ignored = NULL;

      /* without the base's text the lines are matched as before */
      read->base_text = read_lines (read->base_path, &ignored);
    }
  g_task_return_boolean (task, TRUE);
}

/* What the note above the lines says of how they were matched. */
static char *
match_note (HpCompareDetails *self,
            SourceRead       *read)
{
  switch (self->line_match)
    {
    case HP_COMPARE_LINES_BY_TEXT:
      {
        g_autofree char *base = hp_text_escape (read->base_path);
        g_autofree char *new_file = hp_text_escape (read->path);

        /* Translators: two versions of a source file */
        return g_strdup_printf (_("Lines matched by their text: the base's in %s, the new's in %s."), base, new_file);
      }
    case HP_COMPARE_LINES_BY_DECLARATION:
      return g_strdup (_("Lines matched by their distance from the function's first line, which moved between the "
                         "builds: a line added or removed inside the function still shifts those below it, as the "
                         "captures keep no source text. The text shown is of the file as it is now."));
    case HP_COMPARE_LINES_BY_NUMBER:
    default:
      return NULL;
    }
}

static void
fill_lines (HpCompareDetails *self,
            SourceRead       *read)
{
  GString *described = g_string_new (NULL);
  guint n = MIN (self->line_data->len, MAX_ROWS);
  guint n_text = read && read->text ? g_strv_length (read->text) : 0;
  const char *file = NULL;

  clear_grid (self->lines);
  header (self->lines, _("Line"));
  gtk_widget_set_hexpand (gtk_grid_get_child_at (self->lines, 0, 0), FALSE);
  gtk_widget_set_hexpand (cell (self->lines, 5, 0, _("Source"), FALSE), TRUE);
  guint n_base_text = read && read->base_text ? g_strv_length (read->base_text) : 0;
  g_autofree char *note = NULL;

  for (guint i = 0; i < n; i++)
    {
      const HpCompareLine *line = &g_array_index (self->line_data, HpCompareLine, i);
      g_autofree char *number = NULL;
      g_autofree char *shown = NULL;
      const char *text = "";
      g_autofree char *safe = NULL;
      GtkWidget *label;

      if (line->line > 0 && line->line <= n_text && g_strcmp0 (line->file, read->path) == 0)
        text = read->text[line->line - 1];
      else if (line->line == 0 && line->base_line > 0 && line->base_line <= n_base_text)
        text = read->base_text[line->base_line - 1];
      safe = hp_text_escape (g_strstrip (g_strdup (text)));
      /* a line that moved says where it was; one only in the base, which */
      if (line->line == 0)
        /* Translators: a line number in the base's version of the file */
        shown = g_strdup_printf (_("base %u"), line->base_line);
      else if (line->base_line > 0 && line->base_line != line->line)
        /* Translators: a line number, then its number in the base's version */
        shown = g_strdup_printf (_("%u (was %u)"), line->line, line->base_line);
      else
        shown = g_strdup_printf ("%u", line->line);
      if (g_strcmp0 (file, line->file) != 0)
        {
          g_autofree char *base = g_path_get_basename (line->file);

          number = g_strdup_printf ("%s:%s", base, shown);
          file = line->file;
        }
      else
        number = g_steal_pointer (&shown);
      gtk_widget_set_hexpand (cell (self->lines, 0, i + 1, number, FALSE), FALSE);
      /* self is where the time is spent; total would repeat the callees */
      stat_cells (self, self->lines, i + 1, number, &line->self, described);
      label = cell (self->lines, 5, i + 1, safe, FALSE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "monospace");
      gtk_widget_set_tooltip_text (label, safe);
    }
  if (self->line_data->len == 0)
    gtk_grid_attach (self->lines, gtk_label_new (_("The captures have no line information for this function")), 0, 1, 6, 1);
  else if (self->line_data->len > n)
    more_rows (self->lines, n + 1, self->line_data->len - n);
  note = match_note (self, read);
  if (read && read->error)
    {
      char *both = note ? g_strconcat (read->error, "\n", note, NULL) : g_strdup (read->error);

      g_free (note);
      note = both;
    }
  gtk_label_set_text (self->source_note, note ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->source_note), note != NULL);
  g_hash_table_replace (self->described, g_strdup ("source"), described);
}

static void
read_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  HpCompareDetails *self = HP_COMPARE_DETAILS (source);
  GTask *task = G_TASK (result);

  SourceRead *read = g_task_get_task_data (task);

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;
  g_clear_object (&self->reading);
  if (read->text != NULL && read->base_text != NULL && self->comparison != NULL)
    {
      g_clear_pointer (&self->line_data, g_array_unref);
      self->line_data = hp_comparison_get_lines_aligned (self->comparison, self->function,
                                                         (const char * const *) read->base_text,
                                                         g_strv_length (read->base_text),
                                                         (const char * const *) read->text,
                                                         g_strv_length (read->text), &self->line_match);
    }
  fill_lines (self, read);
}

/* Public --------------------------------------------------------------------- */

/**
 * hp_compare_details_set_function:
 * @comparison: (nullable): a top-down comparison that has run, kept alive by the caller
 * @function: an index of hp_comparison_get_function(), or -1 for none
 */
void
hp_compare_details_set_function (HpCompareDetails *self,
                                 HpComparison     *comparison,
                                 gint              function)
{
  g_autoptr(GArray) callers = NULL;
  g_autoptr(GArray) callees = NULL;
  const HpCompareFunction *fn;

  g_return_if_fail (HP_IS_COMPARE_DETAILS (self));

  g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_hash_table_remove_all (self->described);
  if (comparison == NULL || function < 0)
    {
      self->comparison = NULL;
      gtk_label_set_text (self->title, _("Select a call path to see its function's callers, callees and source lines"));
      clear_grid (self->callers);
      clear_grid (self->callees);
      clear_grid (self->lines);
      gtk_widget_set_visible (GTK_WIDGET (self->source_note), FALSE);
      return;
    }

  self->comparison = comparison;
  fn = hp_comparison_get_function (comparison, function);
  g_free (self->unit);
  self->unit = g_strdup (hp_comparison_get_side (comparison, HP_COMPARE_BASE)->unit);
  {
    g_autofree char *safe = hp_compare_format_name (fn->name, fn->module);

    gtk_label_set_text (self->title, safe);
  }
  callers = hp_comparison_get_callers (comparison, function);
  callees = hp_comparison_get_callees (comparison, function);
  fill_neighbours (self, self->callers, callers, _("Called by"), "callers");
  fill_neighbours (self, self->callees, callees, _("Calls"), "callees");

  g_clear_pointer (&self->line_data, g_array_unref);
  self->function = function;
  self->line_data = hp_comparison_get_lines_aligned (comparison, function, NULL, 0, NULL, 0, &self->line_match);
  fill_lines (self, NULL);
  if (self->line_data->len > 0)
    {
      g_autoptr(GTask) task = NULL;
      SourceRead *read = g_new0 (SourceRead, 1);
      const char *files[2];
      guint hottest = 0;

      /* the text of the function's file (else of the file that holds the
       * hottest line), and the base's when it is another */
      for (guint i = 1; i < self->line_data->len; i++)
        if (g_array_index (self->line_data, HpCompareLine, i).self.new_cost +
            g_array_index (self->line_data, HpCompareLine, i).self.base >
            g_array_index (self->line_data, HpCompareLine, hottest).self.new_cost +
            g_array_index (self->line_data, HpCompareLine, hottest).self.base)
          hottest = i;
      hp_comparison_get_line_files (comparison, function, &files[0], &files[1]);
      read->path = g_strdup (files[1] ? files[1] : g_array_index (self->line_data, HpCompareLine, hottest).file);
      if (files[0] != NULL && files[1] != NULL && strcmp (files[0], files[1]) != 0)
        read->base_path = g_strdup (files[0]);
      self->reading = g_cancellable_new ();
      task = g_task_new (self, self->reading, read_done, NULL);
      g_task_set_task_data (task, read, source_read_free);
      g_task_run_in_thread (task, read_thread);
    }
}

void
hp_compare_details_show_page (HpCompareDetails *self,
                              const char       *name)
{
  g_return_if_fail (HP_IS_COMPARE_DETAILS (self));

  gtk_stack_set_visible_child_name (self->stack, name);
}

/**
 * hp_compare_details_describe:
 * @page: "callers", "callees" or "source"
 *
 * Returns: the rows shown on @page, one "NAME\tBASE\tNEW\tCHANGE\tVERDICT"
 * line each (the verdict as hp_verdict_to_string() writes it), for tests
 */
char *
hp_compare_details_describe (HpCompareDetails *self,
                             const char       *page)
{
  GString *rows;

  g_return_val_if_fail (HP_IS_COMPARE_DETAILS (self), NULL);

  rows = g_hash_table_lookup (self->described, page);
  return g_strdup (rows ? rows->str : "");
}

gboolean
hp_compare_details_is_reading (HpCompareDetails *self)
{
  g_return_val_if_fail (HP_IS_COMPARE_DETAILS (self), FALSE);

  return self->reading != NULL;
}

/* Life cycle ------------------------------------------------------------------ */

static GtkWidget *
scrolled_grid (GtkGrid **grid)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (*grid, 18);
  gtk_grid_set_row_spacing (*grid, 2);
  gtk_widget_set_margin_start (GTK_WIDGET (*grid), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (*grid), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (*grid), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (*grid), 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (*grid));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_hexpand (scrolled, TRUE);
  return scrolled;
}

static void
hp_compare_details_dispose (GObject *object)
{
  HpCompareDetails *self = HP_COMPARE_DETAILS (object);

  g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  G_OBJECT_CLASS (hp_compare_details_parent_class)->dispose (object);
}

static void
hp_compare_details_finalize (GObject *object)
{
  HpCompareDetails *self = HP_COMPARE_DETAILS (object);

  g_clear_pointer (&self->line_data, g_array_unref);
  g_clear_pointer (&self->described, g_hash_table_unref);
  g_free (self->unit);
  G_OBJECT_CLASS (hp_compare_details_parent_class)->finalize (object);
}

static void
hp_compare_details_class_init (HpCompareDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = hp_compare_details_dispose;
  object_class->finalize = hp_compare_details_finalize;
}

static void
hp_compare_details_init (HpCompareDetails *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *calls = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *source = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  hp_compare_load_css ();
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->described = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, string_free);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_label_set_ellipsize (self->title, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (bar), switcher);
  gtk_box_append (GTK_BOX (self), bar);

  gtk_paned_set_start_child (GTK_PANED (calls), scrolled_grid (&self->callers));
  gtk_paned_set_end_child (GTK_PANED (calls), scrolled_grid (&self->callees));
  gtk_paned_set_resize_start_child (GTK_PANED (calls), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (calls), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (calls), FALSE);
  gtk_stack_add_titled (self->stack, calls, "calls", _("Callers & Callees"));

  self->source_note = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->source_note, 0);
  gtk_label_set_wrap (self->source_note, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->source_note), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->source_note), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->source_note), FALSE);
  gtk_box_append (GTK_BOX (source), GTK_WIDGET (self->source_note));
  gtk_box_append (GTK_BOX (source), scrolled_grid (&self->lines));
  gtk_stack_add_titled (self->stack, source, "source", _("Source"));
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->stack));

  hp_compare_details_set_function (self, NULL, -1);
}

GtkWidget *
hp_compare_details_new (void)
{
  return g_object_new (HP_TYPE_COMPARE_DETAILS, NULL);
}
