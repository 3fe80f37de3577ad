/* hp-file-chooser.h - asking for captures or a folder, for any widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called with the folder the user chose (a local path); not called when
 * the chooser was cancelled or the folder has no local path. */
typedef void (*HpFolderChosen) (GtkWidget  *owner,
                                const char *path);

/* Shows a modal native folder chooser over @owner's window, starting in
 * @current (NULL: the chooser's own default), with @accept_label on its
 * accept button. @owner is kept alive until the chooser closes. */
void hp_folder_chooser_show (GtkWidget      *owner,
                             const char     *title,
                             const char     *accept_label,
                             const char     *current,
                             HpFolderChosen  chosen);

typedef enum {
  HP_CHOOSE_SEVERAL = 1 << 0,  /* more than one file may be chosen */
  HP_CHOOSE_IMPORTS = 1 << 1,  /* perf.data, pprof and folded stacks too */
} HpChooseFlags;

/* Called with the files chosen (GFile, at least one); not called when
 * the chooser was cancelled. */
typedef void (*HpFilesChosen) (GListModel *files,
                               gpointer    user_data);

/* The filter of the chooser below: captures (.hotpath), and with
 * HP_CHOOSE_IMPORTS the files the window imports (perf.data, pprof,
 * folded stacks). */
GtkFileFilter *hp_capture_chooser_new_filter (HpChooseFlags flags);

/* Shows a modal native chooser of captures (with HP_CHOOSE_IMPORTS, of
 * every file the window opens) over @parent (may be NULL), starting in
 * @folder (NULL: the chooser's own default). @destroy frees @user_data
 * when the chooser closes, whether or not @chosen was called. */
void hp_capture_chooser_show (GtkWindow      *parent,
                              const char     *title,
                              const char     *accept_label,
                              HpChooseFlags   flags,
                              const char     *folder,
                              HpFilesChosen   chosen,
                              gpointer        user_data,
                              GDestroyNotify  destroy);

G_END_DECLS
