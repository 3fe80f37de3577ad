/* display-common.c - running the real window in a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Display tests run the window itself (the libhotpath-ui the executable
 * links) under Xvfb, in a GtkApplication that has started up, and look at
 * it through its actions and the accessors of hp-window-private.h.
 *
 * The synthetic capture is written with the store's writer, so every
 * number in it is known by construction:
 *
 *   main → run_alpha → alpha_leaf    600 samples  (line 12 of paths.c)
 *   main → run_alpha → shared_leaf   150
 *   main → run_beta  → beta_leaf     200
 *   main → run_beta  → shared_leaf    50
 *
 * in thread 101 (alpha) and 102 (beta), 1000 samples in all. Functions
 * live in module /opt/display-test/paths (not a system module) and their
 * file is paths.c in the scratch folder (or a path that does not exist).
 * alpha_leaf's samples are at lines 11 (100 self) and 12 (500 self).
 */

#define G_LOG_DOMAIN "hp-display-test"

#include "config.h"

#include <math.h>

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "display-common.h"
#include "ui/hp-window-png.h"
#include "../common/perf-data-builder.h"
#include "../common/test-common.h"

static char *tmpdir;
static int (*run_func) (HpApplication *app);
static int run_status;

const char *
display_tmpdir (void)
{
  return tmpdir;
}

static void
on_activate (GApplication *app)
{
  /* the tests create and close windows; keep the application alive */
  g_application_hold (app);
  run_status = run_func (HP_APPLICATION (app));
  g_application_release (app);
  g_application_quit (app);
}

int
display_run (int    argc,
             char **argv,
             int  (*run) (HpApplication *app))
{
  g_autoptr(HpApplication) app = NULL;
  g_autofree char *data = NULL;
  g_autofree char *cache = NULL;
  g_autoptr(GError) error = NULL;

  tmpdir = g_dir_make_tmp ("hp-display-XXXXXX", &error);
  g_assert_no_error (error);
  data = g_build_filename (tmpdir, "xdg-data", NULL);
  cache = g_build_filename (tmpdir, "xdg-cache", NULL);
  g_mkdir_with_parents (data, 0700);
  g_mkdir_with_parents (cache, 0700);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* HOTPATH_LOCALEDIR=build/po with LANGUAGE: the window in that language,
   * from the build's catalogues, as src/ui/main.c binds them (screenshots
   * of a translation: build-aux/make-screenshots.sh) */
  if (g_getenv ("HOTPATH_LOCALEDIR") != NULL)
    {
      setlocale (LC_ALL, "");
      bindtextdomain (GETTEXT_PACKAGE, g_getenv ("HOTPATH_LOCALEDIR"));
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      textdomain (GETTEXT_PACKAGE);
    }

  g_test_init (&argc, &argv, NULL);

  run_func = run;
  app = hp_application_new ();
  /* tests run side by side with a real session's Hotpath */
  g_application_set_flags (G_APPLICATION (app),
                           g_application_get_flags (G_APPLICATION (app)) | G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  g_application_run (G_APPLICATION (app), 1, argv);

  hp_test_remove_tree (tmpdir);
  g_clear_pointer (&tmpdir, g_free);
  return run_status;
}

typedef struct {
  gboolean done;
} Timeout;

static gboolean
timeout_cb (gpointer data)
{
  ((Timeout *) data)->done = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
display_wait (gboolean (*cond) (gpointer data),
              gpointer   data,
              guint      timeout_ms)
{
  Timeout t = { FALSE };
  guint id = g_timeout_add (timeout_ms, timeout_cb, &t);

  while (!cond (data) && !t.done)
    g_main_context_iteration (NULL, TRUE);
  if (!t.done)
    g_source_remove (id);
  return cond (data);
}

/* No window has panes still catching up with a selection. */
static gboolean
windows_settled (gpointer data)
{
  GListModel *windows = gtk_window_get_toplevels ();  /* (transfer none) */
  guint n = g_list_model_get_n_items (windows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (windows, i);

      if (HP_IS_WINDOW (w) && hp_window_is_following (HP_WINDOW (w)))
        return FALSE;
    }
  return TRUE;
}

void
display_spin (guint ms)
{
  Timeout t = { FALSE };

  g_timeout_add (ms, timeout_cb, &t);
  while (!t.done)
    g_main_context_iteration (NULL, TRUE);
  /* the panes follow a selection a frame or two later */
  display_wait (windows_settled, NULL, 5000);
}

static gboolean
window_loaded (gpointer data)
{
  const char *state = hp_window_get_state (data);

  return g_strcmp0 (state, "capture") == 0 || g_strcmp0 (state, "error") == 0;
}

static gboolean
source_loaded (gpointer data)
{
  return !hp_source_view_is_loading (hp_window_get_source_view (data));
}

gboolean
display_wait_source (HpWindow *window)
{
  display_wait (windows_settled, NULL, 5000);
  return display_wait (source_loaded, window, 10000);
}

HpWindow *
display_open (HpApplication *app,
              const char    *path)
{
  return display_open_sized (app, path, 1280, 800);
}

HpWindow *
display_open_for_screenshot (HpApplication *app,
                             const char    *path)
{
  const char *size = g_getenv ("SCREENSHOT_SIZE");
  int width = 1280, height = 800;

  if (size != NULL)
    sscanf (size, "%dx%d", &width, &height);
  if (g_strcmp0 (g_getenv ("SCREENSHOT_DARK"), "1") == 0)
    g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  return display_open_sized (app, path, width, height);
}

HpWindow *
display_open_sized (HpApplication *app,
                    const char    *path,
                    int            width,
                    int            height)
{
  HpWindow *window = hp_window_new (GTK_APPLICATION (app));
  g_autoptr(GFile) file = g_file_new_for_path (path);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  hp_window_open (window, file);
  g_assert_true (display_wait (window_loaded, window, 30000));
  if (g_strcmp0 (hp_window_get_state (window), "capture") == 0)
    {
      display_wait_source (window);
      /* the hottest path is selected once the sort has settled */
      display_spin (50);
    }
  return window;
}

void
display_activate (HpWindow   *window,
                   const char *action,
                   GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
  display_spin (30);
}

const char *
display_selected_name (HpWindow *window)
{
  HpCallTreeView *tree = hp_window_get_tree_view (window);
  HpLoadedProfile *p = hp_call_tree_view_get_profile (tree);
  const HpCallNode *node = hp_call_tree_view_get_selected (tree);

  return node ? hp_profile_get_function_name (p->profile, node->function_id) : NULL;
}

static gboolean
is_inscription_of (GtkWidget    *widget,
                   gconstpointer text)
{
  return GTK_IS_INSCRIPTION (widget) &&
         g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0;
}

GtkWidget *
display_row_on_screen (GtkWidget  *tree,
                       const char *name)
{
  GtkWidget *inscription = display_find_widget (tree, is_inscription_of, name);
  GtkWidget *scrolled;
  graphene_rect_t bounds;

  if (inscription == NULL || !gtk_widget_get_mapped (inscription) ||
      (scrolled = gtk_widget_get_ancestor (inscription, GTK_TYPE_SCROLLED_WINDOW)) == NULL ||
      !gtk_widget_compute_bounds (inscription, scrolled, &bounds))
    return NULL;
  return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled) ?
         inscription : NULL;
}

gboolean
display_selected_on_screen (gpointer window)
{
  const char *name = display_selected_name (window);

  return name != NULL && display_row_on_screen (GTK_WIDGET (hp_window_get_tree_view (window)), name) != NULL;
}

GtkWidget *
display_find_widget (GtkWidget    *widget,
                     gboolean    (*match) (GtkWidget *, gconstpointer),
                     gconstpointer data)
{
  if (gtk_widget_get_mapped (widget) && match (widget, data))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = gtk_widget_get_child_visible (c) ? display_find_widget (c, match, data) : NULL;

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
display_find_descendant (GtkWidget *widget,
                         GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = G_TYPE_CHECK_INSTANCE_TYPE (child, type) ? child : display_find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

const char *
display_take_screenshots_option (int   *argc,
                                 char **argv)
{
  for (int i = 1; i + 1 < *argc; i++)
    if (strcmp (argv[i], "--screenshots") == 0)
      {
        const char *dir = argv[i + 1];

        for (int j = i; j + 2 <= *argc; j++)
          argv[j] = argv[j + 2];
        *argc -= 2;
        return dir;
      }
  return NULL;
}

static gboolean
saved (gpointer data)
{
  return hp_summary_store_get_n_pending (data) == 0;
}

void
display_close (HpWindow *window)
{
  HpSummaryStore *store = hp_window_get_summary_store (window);

  if (store != NULL)
    g_object_ref (store);
  gtk_window_close (GTK_WINDOW (window));
  if (store != NULL)
    {
      g_assert_true (display_wait (saved, store, 10000));
      g_object_unref (store);
    }
  display_spin (20);
}

static int
min_width (GtkWidget *widget)
{
  int min = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min;
}

/* Which widget asks for the width: from @widget down, each visible child
 * that asks for more than @limit, with its type (and text, for a label). */
static void
describe_wide (GtkWidget *widget,
               int        limit,
               int        depth,
               GString   *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int min, for_height = 0;

      if (!gtk_widget_get_visible (child))
        continue;
      /* at any height, and at the one it has */
      min = min_width (child);
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, gtk_widget_get_height (child),
                          &for_height, NULL, NULL, NULL);
      if (MAX (min, for_height) <= limit)
        continue;
      g_string_append_printf (out, "%*s%s", depth * 2, "", G_OBJECT_TYPE_NAME (child));
      if (GTK_IS_LABEL (child))
        g_string_append_printf (out, " “%s”", gtk_label_get_text (GTK_LABEL (child)));
      g_string_append_printf (out, " min %d (%d for its height %d) width %d\n", min, for_height,
                              gtk_widget_get_height (child), gtk_widget_get_width (child));
      describe_wide (child, limit, depth + 1, out);
    }
}

char *
display_describe_wide (GtkWidget *widget,
                       int        limit)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "%s min %d\n", G_OBJECT_TYPE_NAME (widget), min_width (widget));
  describe_wide (widget, limit, 1, out);
  return g_string_free (out, FALSE);
}

void
display_assert_fits_width (HpWindow *window,
                           int       width)
{
  GtkWidget *stack = gtk_window_get_child (GTK_WINDOW (window));
  GtkWidget *page = gtk_stack_get_visible_child (GTK_STACK (stack));
  int window_min = min_width (GTK_WIDGET (window));
  int page_min = 0;

  /* settled: the sizes below are of the last layout */
  display_spin (100);
  /* for the height it has: a label that wraps, given fewer lines than it
   * needs, asks for the width of one long line; GtkStack then gives its
   * page that width, wider than the window, cut off on both sides */
  gtk_widget_measure (page, GTK_ORIENTATION_HORIZONTAL, gtk_widget_get_height (page),
                      &page_min, NULL, NULL, NULL);
  g_test_message ("window %d×%d (minimum width %d), page %d wide (minimum %d for its height %d), asked %d",
                  gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_height (GTK_WIDGET (window)),
                  window_min, gtk_widget_get_width (page), page_min, gtk_widget_get_height (page), width);
  if (gtk_widget_get_width (GTK_WIDGET (window)) > width || window_min > width ||
      page_min > gtk_widget_get_width (stack) || gtk_widget_get_width (page) > gtk_widget_get_width (stack))
    {
      g_autofree char *wide = display_describe_wide (GTK_WIDGET (window), width / 3);

      g_error ("the window does not fit %d px: it is %d wide, its page %d (minimum %d) in %d; "
               "what asks for the width:\n%s",
               width, gtk_widget_get_width (GTK_WIDGET (window)), gtk_widget_get_width (page),
               page_min, gtk_widget_get_width (stack), wide);
    }
}

GPid
display_hold_write_lock (const char *path,
                         int        *input)
{
  const char *argv[] = { "sqlite3", path, NULL };
  const char *commands = ".timeout 5000\nBEGIN EXCLUSIVE;\n";
  g_autoptr(GError) error = NULL;
  GPid shell = 0;

  if (!g_spawn_async_with_pipes (NULL, (char **) argv, NULL,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                 NULL, NULL, &shell, input, NULL, NULL, &error))
    g_error ("cannot run sqlite3: %s", error->message);
  g_assert_cmpint (write (*input, commands, strlen (commands)), ==, (gssize) strlen (commands));
  return shell;
}

void
display_release_write_lock (GPid shell,
                            int  input)
{
  /* at the end of its input the shell quits, and its transaction ends */
  close (input);
  waitpid (shell, NULL, 0);
  g_spawn_close_pid (shell);
}

gboolean
display_refuse_perf_event_open (void)
{
  struct sock_filter filter[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = { G_N_ELEMENTS (filter), filter };

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return FALSE;
  /* TSYNC: GTK's and GLib's threads too, and the ones started later */
  return syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) == 0;
}

void
display_save_png (GtkWindow  *window,
                  const char *path)
{
  g_autoptr(GError) error = NULL;

  gboolean saved = hp_window_save_png (window, path, &error);

  /* the reason first: "should be TRUE" alone says nothing */
  g_assert_no_error (error);
  g_assert_true (saved);
}

void
display_save_png_with_popover (GtkWindow  *window,
                               GtkPopover *popover,
                               const char *path)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) under = gtk_widget_paintable_new (widget);
  g_autoptr(GdkPaintable) over = gtk_widget_paintable_new (GTK_WIDGET (popover));
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (popover));
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  double wx, wy, px, py;
  float x, y, left, top, right, bottom;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  int pw = gtk_widget_get_width (GTK_WIDGET (popover)), ph = gtk_widget_get_height (GTK_WIDGET (popover));

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  g_assert_true (GDK_IS_POPUP (surface));
  g_assert_nonnull (renderer);
  /* the popup's place is of its surface in the window's surface; each
   * widget is drawn from its own origin, inside its surface's margins
   * (the window's decorations, the popover's shadow) */
  gtk_native_get_surface_transform (GTK_NATIVE (window), &wx, &wy);
  gtk_native_get_surface_transform (GTK_NATIVE (popover), &px, &py);
  x = gdk_popup_get_position_x (GDK_POPUP (surface)) + px - wx;
  y = gdk_popup_get_position_y (GDK_POPUP (surface)) + py - wy;
  left = MIN (0, x);
  top = MIN (0, y);
  right = MAX (width, x + pw);
  bottom = MAX (height, y + ph);

  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (-left, -top));
  gdk_paintable_snapshot (under, snapshot, width, height);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gdk_paintable_snapshot (over, snapshot, pw, ph);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, right - left, bottom - top));
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

guchar *
display_render_pixels (GtkWidget *widget,
                       int       *width,
                       int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  guchar *pixels;

  g_assert_nonnull (renderer);
  if (w <= 0 || h <= 0)
    return NULL;
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_to_node (snapshot);
  if (node == NULL)
    return NULL;  /* nothing drawn yet */
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (texture, pixels, (gsize) w * 4);
  *width = w;
  *height = h;
  return pixels;
}

static double
relative_luminance (const guchar *bgr)
{
  double l[3];

  for (guint i = 0; i < 3; i++)
    {
      double c = bgr[2 - i] / 255.0;

      l[i] = c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
    }
  return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

double
display_contrast_ratio (const guchar *bgr1,
                        const guchar *bgr2)
{
  double a = relative_luminance (bgr1), b = relative_luminance (bgr2);

  return (MAX (a, b) + 0.05) / (MIN (a, b) + 0.05);
}

static const char source_text[] =
  "/* paths.c - the display tests' synthetic program */\n"   /*  1 */
  "\n"
  "static void shared_leaf (int units)\n"                     /*  3 */
  "{\n"
  "  work (units);\n"                                         /*  5 */
  "}\n"
  "\n"
  "static void alpha_leaf (void)\n"                           /*  8 */
  "{\n"
  "  prepare ();\n"                                           /* 10 */
  "  work (2);\n"                                             /* 11 */
  "  work (10);\n"                                            /* 12: the hottest line */
  "}\n"
  "\n"
  "static void beta_leaf (void)\n"                            /* 15 */
  "{\n"
  "  work (4);\n"                                             /* 17 */
  "}\n"
  "\n"
  "static void run_alpha (void)\n"                            /* 20 */
  "{\n"
  "  alpha_leaf ();\n"                                        /* 22 */
  "  shared_leaf (3);\n"                                      /* 23 */
  "}\n"
  "\n"
  "static void run_beta (void)\n"                             /* 26 */
  "{\n"
  "  beta_leaf ();\n"                                         /* 28 */
  "  shared_leaf (1);\n"                                      /* 29 */
  "}\n"
  "\n"
  "int main (void)\n"                                         /* 32 */
  "{\n"
  "  for (;;) { run_alpha (); run_beta (); }\n"               /* 34 */
  "}\n";

char *
display_make_capture (const char  *name,
                      gboolean     with_source,
                      char       **source_path)
{
  g_autofree char *path = g_build_filename (tmpdir, name, NULL);
  g_autofree char *src = NULL;
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  gint64 mod, f_main, f_ra, f_rb, f_al, f_bl, f_sl;
  gint64 s_main, s_ra, s_rb;
  struct { gint64 stack; guint count; gint32 tid; } leaves[5];
  guint64 t = 0;

  if (with_source)
    {
      g_autofree char *dir = g_build_filename (tmpdir, "src", NULL);

      g_mkdir_with_parents (dir, 0755);
      src = g_build_filename (dir, "paths.c", NULL);
      g_assert_true (g_file_set_contents (src, source_text, -1, NULL));
    }
  else
    src = g_strdup ("/nonexistent/display-test/src/paths.c");

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/display-test/paths 300");
  hp_capture_writer_set_metadata (w, "start_time", "2024-05-01T12:00:00Z");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "1000");
  hp_capture_writer_set_metadata (w, "call_graph", "fp");
  hp_capture_writer_set_metadata_int (w, "duration_ns", 1000000000);
  hp_capture_writer_set_metadata_int (w, "lost_samples", 0);
  hp_capture_writer_set_metadata_int (w, "truncated_stacks", 0);
  hp_capture_writer_set_process (w, 100, "paths");
  hp_capture_writer_set_thread (w, 101, 100, "alpha");
  hp_capture_writer_set_thread (w, 102, 100, "beta");

  mod = hp_capture_writer_intern_module (w, "/opt/display-test/paths", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, src, 32);
  f_ra = hp_capture_writer_intern_function (w, "run_alpha", mod, src, 20);
  f_rb = hp_capture_writer_intern_function (w, "run_beta", mod, src, 26);
  f_al = hp_capture_writer_intern_function (w, "alpha_leaf", mod, src, 8);
  f_bl = hp_capture_writer_intern_function (w, "beta_leaf", mod, src, 15);
  f_sl = hp_capture_writer_intern_function (w, "shared_leaf", mod, src, 3);

  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, src, 34, FALSE, 0x100));
  s_ra = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_ra, src, 22, FALSE, 0x200));
  s_rb = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_rb, src, 28, FALSE, 0x300));
  leaves[0].stack = hp_capture_writer_intern_stack (w, s_ra, hp_capture_writer_intern_frame (w, f_al, src, 12, FALSE, 0x400));
  leaves[0].count = 500; leaves[0].tid = 101;
  leaves[1].stack = hp_capture_writer_intern_stack (w, s_ra, hp_capture_writer_intern_frame (w, f_al, src, 11, FALSE, 0x410));
  leaves[1].count = 100; leaves[1].tid = 101;
  leaves[2].stack = hp_capture_writer_intern_stack (w,
                      hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_ra, src, 23, FALSE, 0x210)),
                      hp_capture_writer_intern_frame (w, f_sl, src, 5, FALSE, 0x500));
  leaves[2].count = 150; leaves[2].tid = 101;
  leaves[3].stack = hp_capture_writer_intern_stack (w, s_rb, hp_capture_writer_intern_frame (w, f_bl, src, 17, FALSE, 0x600));
  leaves[3].count = 200; leaves[3].tid = 102;
  leaves[4].stack = hp_capture_writer_intern_stack (w,
                      hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_rb, src, 29, FALSE, 0x310)),
                      hp_capture_writer_intern_frame (w, f_sl, src, 5, FALSE, 0x500));
  leaves[4].count = 50; leaves[4].tid = 102;

  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    for (guint n = 0; n < leaves[i].count; n++)
      hp_capture_writer_add_sample (w, t += 1000000, leaves[i].tid, 0, leaves[i].stack, 1000000);

  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  if (source_path != NULL)
    *source_path = g_strdup (src);
  return g_steal_pointer (&path);
}

/* A perf.data as `perf record` writes it: one thread, a few samples at an
 * address no mapping covers (imported as an unknown frame). */
char *
display_write_perf_data (const char *dir,
                         const char *program,
                         guint64     offset,
                         guint       n)
{
  const guint64 st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
  const PdAttr attr = {
    .type = PERF_TYPE_SOFTWARE,
    .config = PERF_COUNT_SW_CPU_CLOCK,
    .period = 4000,
    .freq = TRUE,
    .sample_type = st,
    .sample_id_all = TRUE,
  };
  char *path = g_build_filename (dir, "perf.data", NULL);
  g_autofree char *comm = program != NULL ? g_path_get_basename (program) : g_strdup ("dropped");
  PdFile *f = pd_file_new (128);
  PdId id = { 4242, 4242, 10, 0, 0 };
  g_autoptr(GByteArray) bytes = NULL;

  pd_file_add_attr (f, &attr, NULL, 0);
  pd_comm (f->data, st, &id, comm, TRUE);
  if (program != NULL)
    {
      GStatBuf st_buf;

      g_assert_cmpint (g_stat (program, &st_buf), ==, 0);
      pd_mmap2 (f->data, st, &id, 0x400000, (guint64) st_buf.st_size, 0, program);
    }
  for (guint i = 0; i < n; i++)
    {
      id.time = 20 + i;
      pd_sample (f->data, st, &id, 0x400000 + offset, 250000, NULL, 0);
    }
  pd_finished_round (f->data);
  bytes = pd_file_build (f);
  pd_file_free (f);
  g_mkdir_with_parents (dir, 0755);
  g_assert_true (g_file_set_contents (path, (const char *) bytes->data, bytes->len, NULL));
  return path;
}

char *
display_make_perf_data (void)
{
  g_autofree char *dir = g_build_filename (display_tmpdir (), "perf", NULL);

  return display_write_perf_data (dir, NULL, 0x1000, 20);
}
