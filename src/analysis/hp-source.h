/* hp-source.h - samples per source line of a function (annotated source)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* One line of a source file with the samples spent there. A frame's
 * file:line is where its code appears: lines of code inlined into a function
 * count in the inlined function's own file (selecting the inlined function
 * shows them), and the call site's line counts in the caller's total. */
typedef struct {
  guint   line;
  guint64 self;   /* samples whose leaf frame is this line of this function */
  guint64 total;  /* samples with a frame of this function at this line (once per sample) */
} HpSourceLine;

typedef struct {
  char   *file;        /* the source file the lines belong to (as DWARF names it), NULL if unknown */
  GArray *lines;       /* HpSourceLine, sorted by line, only lines with samples */
  guint   hottest_line; /* line with the most total samples (ties: most self), 0 if none */
  guint64 self;        /* sums over the lines */
  guint64 total;
} HpSourceAnnotation;

/* Per-line samples of @function_id in @profile (respecting its thread
 * filter). When the function's frames name several files (inlined code of
 * other files is not included: those frames belong to other functions), the
 * file with the most samples is chosen. Never NULL; lines may be empty. */
HpSourceAnnotation *hp_source_annotation_new  (HpProfile          *profile,
                                               gint64              function_id);
void                hp_source_annotation_free (HpSourceAnnotation *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSourceAnnotation, hp_source_annotation_free)

G_END_DECLS
