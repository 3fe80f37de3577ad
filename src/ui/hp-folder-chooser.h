/* hp-folder-chooser.h - asking for a folder, for any widget
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

G_END_DECLS
