/* hp-capture-filter.h - a capture seen differently: recursion merged, inline frames folded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* A copy of @data in which every directly recursive call (f → f → f) is
 * one frame of f, the outermost: its stack nodes and counts are rebuilt,
 * every other table is shared. A profile of it shows a recursion as one
 * node, with the samples of all its levels. */
HpCaptureData *hp_capture_data_merge_recursion (const HpCaptureData *data);

/* A copy of @data in which every inlined call is folded into the function
 * it was inlined into (its samples become that function's), as perf
 * report --sort sym counts them. An inline frame at a stack's root has
 * nothing to fold into and stays. */
HpCaptureData *hp_capture_data_fold_inline     (const HpCaptureData *data);

G_END_DECLS
