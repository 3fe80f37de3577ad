/* hp-source-view.h - annotated source of the selected function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_SOURCE_VIEW (hp_source_view_get_type ())
G_DECLARE_FINAL_TYPE (HpSourceView, hp_source_view, HP, SOURCE_VIEW, GtkWidget)

/* Shows the source of @function_id (0: nothing), loaded in a worker. */
void         hp_source_view_set_function    (HpSourceView    *self,
                                             HpLoadedProfile *profile,
                                             gint64           function_id);

/* Folders searched for files not found where the capture says */
const char * const *hp_source_view_get_source_paths (HpSourceView *self);
void         hp_source_view_set_source_paths (HpSourceView      *self,
                                              const char * const *paths);

/* Adds @path to the source folders (and looks again) */
void         hp_source_view_add_source_path (HpSourceView *self,
                                             const char   *path);

/* TRUE while a worker reads the source of a new selection (the pane
 * shows the previous one, or a spinner once it takes long) */
gboolean     hp_source_view_is_loading      (HpSourceView    *self);
/* For tests: "none", "loading", "source", "disassembly" (machine code
 * under a bar saying why, as the source is missing or has no lines),
 * "missing" or "no-lines" (and no machine code either) */
const char  *hp_source_view_get_state       (HpSourceView    *self);
/* The line scrolled to and selected (the hottest), 0 when none */
guint        hp_source_view_get_shown_line  (HpSourceView    *self);
/* The path of the shown file, or the one looked for when missing */
const char  *hp_source_view_get_path        (HpSourceView    *self);
/* The text the pane shows (or, above machine code, its bar's tooltip)
 * when the file is missing or has no lines */
const char  *hp_source_view_get_message     (HpSourceView    *self);
/* For tests: the profile of the function shown (NULL: none) */
HpLoadedProfile *hp_source_view_get_profile (HpSourceView    *self);

G_END_DECLS
