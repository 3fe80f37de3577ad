/* hp-source-file.h - the lines of a source file with their samples, as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/hp-measure.h"
#include "analysis/hp-source.h"

G_BEGIN_DECLS

#define HP_TYPE_SOURCE_FILE (hp_source_file_get_type ())
G_DECLARE_FINAL_TYPE (HpSourceFile, hp_source_file, HP, SOURCE_FILE, GObject)

#define HP_TYPE_SOURCE_ROW (hp_source_row_get_type ())
G_DECLARE_FINAL_TYPE (HpSourceRow, hp_source_row, HP, SOURCE_ROW, GObject)

/* Takes @contents (the file's text) and @annotation; shares are of
 * @whole (the function's total in what @measure counts: samples, page
 * faults, ns). The counts read as the call tree's do: a time as a time
 * ("12.5 ms"), anything else as a number. */
HpSourceFile *hp_source_file_new         (char               *contents,
                                          gsize               length,
                                          HpSourceAnnotation *annotation,
                                          guint64             whole,
                                          const HpMeasure    *measure);
guint         hp_source_file_get_n_lines (HpSourceFile       *self);
/* Longest line, in characters (tabs expanded), to size the column */
guint         hp_source_file_get_width   (HpSourceFile       *self);
const HpSourceAnnotation *hp_source_file_get_annotation (HpSourceFile *self);

guint         hp_source_row_get_number  (HpSourceRow      *self);
const char   *hp_source_row_get_text    (HpSourceRow      *self);
guint64       hp_source_row_get_self    (HpSourceRow      *self);
guint64       hp_source_row_get_total   (HpSourceRow      *self);

G_END_DECLS
