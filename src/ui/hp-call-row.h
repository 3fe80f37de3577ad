/* hp-call-row.h - a shown row of a call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "ui/hp-call-tree-context.h"

G_BEGIN_DECLS

#define HP_TYPE_CALL_ROW (hp_call_row_get_type ())
G_DECLARE_FINAL_TYPE (HpCallRow, hp_call_row, HP, CALL_ROW, GObject)

HpCallRow         *hp_call_row_new           (HpCallTreeContext *context,
                                              const HpCallNode  *node);
const HpCallNode  *hp_call_row_get_node      (HpCallRow         *self);
HpCallTreeContext *hp_call_row_get_context   (HpCallRow         *self);
/* The function's and the module's names as the row shows them
 * (hp_loaded_capture_get_shown_name): safe to show, templates folded. */
const char        *hp_call_row_get_name      (HpCallRow         *self);
const char        *hp_call_row_get_module    (HpCallRow         *self);
gboolean           hp_call_row_get_has_summary (HpCallRow       *self);

/* Called by the context when what the row shows changed. */
void               hp_call_row_marks_changed (HpCallRow         *self);

G_END_DECLS
