/* hp-suggest-box.h - Suggest: a summary drafted from the code or by a summarizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "document/hp-loaded-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_SUGGEST_BOX (hp_suggest_box_get_type ())
G_DECLARE_FINAL_TYPE (HpSuggestBox, hp_suggest_box, HP, SUGGEST_BOX, GtkWidget)

typedef enum {
  HP_SUGGEST_IDLE,     /* nothing suggested */
  HP_SUGGEST_RUNNING,  /* reading the code, or the summarizer runs */
  HP_SUGGEST_SHOWN,    /* a suggestion waits to be used or discarded */
} HpSuggestState;

/* The path Suggest works on: @node of the top-down tree (a bottom-up one,
 * or NULL, disables it). Another path drops a suggestion not used yet.
 * @can_accept: whether the summary can be written (the capture is
 * writable). @source_paths: folders to look for source files in. */
void            hp_suggest_box_set_node   (HpSuggestBox       *self,
                                           HpLoadedProfile    *profile,
                                           const HpCallNode   *node,
                                           gboolean            bottom_up,
                                           gboolean            can_accept,
                                           const char * const *source_paths);

/* For tests; the actions are suggest.run, .cancel, .accept and .discard */
HpSuggestState  hp_suggest_box_get_state  (HpSuggestBox       *self);
char           *hp_suggest_box_get_text   (HpSuggestBox       *self);
/* As if typed in the suggestion */
void            hp_suggest_box_set_text   (HpSuggestBox       *self,
                                           const char         *text);
const char     *hp_suggest_box_get_status (HpSuggestBox       *self);
/* The summarizer's failure, NULL when none is shown; and its stderr */
const char     *hp_suggest_box_get_error  (HpSuggestBox       *self);
const char     *hp_suggest_box_get_stderr (HpSuggestBox       *self);

G_END_DECLS
