/* display-common.h - running the real window in a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "store/hp-capture-writer.h"
#include "ui/hp-application.h"
#include "ui/hp-window-private.h"
#include "../common/test-common.h"

G_BEGIN_DECLS

/* Sets up a private XDG home (recent files, caches) and runs @run inside
 * the application's activate, so that windows can be made; returns the
 * exit status of @run. */
int         display_run          (int          argc,
                                  char       **argv,
                                  int        (*run) (HpApplication *app));

/* Spins the main loop until @cond holds or @timeout_ms pass; FALSE then. */
gboolean    display_wait         (gboolean   (*cond) (gpointer data),
                                  gpointer     data,
                                  guint        timeout_ms);
/* Spins the main loop for @ms. */
void        display_spin         (guint        ms);

/* Opens @path in a new window and waits until it shows the capture (or
 * an error). */
HpWindow   *display_open         (HpApplication *app,
                                  const char    *path);
/* The same in a window of @width × @height. */
HpWindow   *display_open_sized   (HpApplication *app,
                                  const char    *path,
                                  int            width,
                                  int            height);
/* Closes @window and waits until its summaries are written. */
/* display_open_sized() at SCREENSHOT_SIZE=WxH (1280x800 without it), in
 * the dark style with SCREENSHOT_DARK=1, as make-screenshots takes them */
HpWindow   *display_open_for_screenshot (HpApplication *app,
                                         const char    *path);
void        display_close        (HpWindow      *window);
/* Waits until the source pane has loaded. */
gboolean    display_wait_source  (HpWindow      *window);

/* Activates @action of @window (asserting it exists and is enabled) and
 * spins the main loop a little for what it starts. */
void        display_activate     (HpWindow      *window,
                                  const char    *action,
                                  GVariant      *parameter);
/* The function name of the call tree's selected node, or NULL. */
const char *display_selected_name (HpWindow     *window);

/* The first mapped widget under @widget (itself included), depth first
 * and through visible children only, for which @match holds. */
/* The name cell (a GtkInscription) of the call tree row showing @name,
 * if it is whole within the tree's scrolled window; NULL otherwise */
GtkWidget  *display_row_on_screen (GtkWidget    *tree,
                                   const char   *name);
/* Whether the selected row of @window's call tree is whole on screen
 * (a condition for display_wait) */
gboolean    display_selected_on_screen (gpointer window);
GtkWidget  *display_find_widget  (GtkWidget     *widget,
                                  gboolean     (*match) (GtkWidget *, gconstpointer),
                                  gconstpointer  data);
/* The first descendant of @widget of @type, mapped or not. */
GtkWidget  *display_find_descendant (GtkWidget  *widget,
                                     GType       type);

/* Takes `--screenshots DIR` out of the arguments (main's, before
 * display_run) and returns DIR, or NULL when it is not given. */
const char *display_take_screenshots_option (int   *argc,
                                             char **argv);

/* Renders @window (a dialog as well as an HpWindow) into a PNG file. */
void        display_save_png     (GtkWindow     *window,
                                  const char    *path);
/* Renders @window with @popover open over it into a PNG file: a popover
 * is a surface of its own, which the window's rendering leaves out. The
 * picture grows to hold a popover that reaches past the window. */
void        display_save_png_with_popover (GtkWindow  *window,
                                           GtkPopover *popover,
                                           const char *path);

/* The pixels of @widget as its window's renderer draws it, in
 * GDK_MEMORY_DEFAULT order (premultiplied B, G, R, A per pixel, rows of
 * 4 × width bytes); the size in @width and @height. What a user sees of
 * a colour, where a widget's state flags only say what should be seen.
 * NULL while @widget has nothing drawn (not laid out yet). */
guchar     *display_render_pixels (GtkWidget    *widget,
                                   int          *width,
                                   int          *height);
/* WCAG 2 contrast ratio of two sRGB colours (0-255): 1 to 21 */
double      display_contrast_ratio (const guchar *bgr1,
                                    const guchar *bgr2);

/* For a failing size check: the widgets under @widget whose minimum
 * width is above @limit, one a line, indented by depth. */
char       *display_describe_wide (GtkWidget    *widget,
                                   int           limit);

/* Asserts that @window is at most @width wide, can be, and that the page
 * it shows asks for no more width than the window gives it at the height
 * it has (else the page is cut off on both sides); says which widgets ask
 * for more when not. */
void        display_assert_fits_width (HpWindow *window,
                                       int       width);

/* From now on, perf_event_open fails with EACCES in every thread of this
 * process, as when kernel.perf_event_paranoid forbids it (a seccomp
 * filter; the machine's setting is left alone). FALSE when the filter
 * cannot be installed. */
gboolean    display_refuse_perf_event_open (void);

/* A sqlite3 shell that takes the write lock of the capture at @path and
 * keeps it (BEGIN EXCLUSIVE, waiting up to 5 s for it), as a user's would,
 * until display_release_write_lock(); its pid, with its standard input in
 * *@input. */
GPid        display_hold_write_lock (const char *path,
                                     int        *input);
void        display_release_write_lock (GPid     shell,
                                        int      input);

/* A scratch folder, removed by display_run() at the end */
const char *display_tmpdir       (void);

/* The synthetic capture: known stacks over a source file written beside
 * it (see display-common.c). @source_path receives that file's path. */
char       *display_make_capture (const char    *name,
                                  gboolean       with_source,
                                  char         **source_path);

/* A perf.data as `perf record` writes it, as perf/perf.data in the
 * scratch folder: one thread, 20 samples at an address no mapping
 * covers (imported as an unknown frame). */
char       *display_make_perf_data (void);
/* A perf.data as `perf record` writes it, as DIR/perf.data: one thread
 * of @program (its base name), which maps @program at 0x400000 and has @n
 * samples at @offset in it; a NULL @program maps nothing and its thread
 * is "dropped". */
char       *display_write_perf_data (const char *dir,
                                    const char *program,
                                    guint64     offset,
                                    guint       n);

/* A capture of one million samples for the benchmarks, with 20 000 stack
 * nodes, or with @stress 700 000 (a worst case). */
static inline void
display_make_big_capture (const char *path,
                          gboolean    stress)
{
  HpTestBigCapture how = { .stress = stress };

  hp_test_make_big_capture (path, &how);
}

G_END_DECLS
