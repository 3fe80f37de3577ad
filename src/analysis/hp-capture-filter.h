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

/* What hp_capture_data_fold() folds into the callers. */
typedef struct {
  /* Kernel frames (modules.is_kernel): their samples count in the user
   * function that entered the kernel; a stack of kernel frames only is
   * left out. */
  gboolean    hide_kernel;
  GHashTable *functions;  /* GSIZE_TO_POINTER (function id); NULL: none */
  GHashTable *modules;    /* GSIZE_TO_POINTER (module id); NULL: none */
} HpFoldSpec;

gboolean       hp_fold_spec_is_empty           (const HpFoldSpec    *spec);

/* A copy of @data in which the frames @spec names are folded into their
 * callers: a folded frame's samples become its caller's own, as if the
 * code had been inlined there. A folded function at a stack's root has no
 * caller and stays; a kernel frame there is left out with every sample
 * under it, and @n_dropped (may be NULL) receives how many samples were. */
HpCaptureData *hp_capture_data_fold            (const HpCaptureData *data,
                                                const HpFoldSpec    *spec,
                                                guint64             *n_dropped);

/* The modules (a set of GSIZE_TO_POINTER (id)) whose base name is @name
 * or starts with it followed by '.' or '-': "libc" finds libc.so.6. */
GHashTable    *hp_capture_data_find_modules    (const HpCaptureData *data,
                                                const char          *name);

G_END_DECLS
