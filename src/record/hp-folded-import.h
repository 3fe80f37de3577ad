/* hp-folded-import.h - turns folded stacks into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  guint64 samples;  /* samples written (the sum of the counts) */
  guint64 stacks;   /* lines with a count */
} HpFoldedImportResult;

/* Whether @path holds folded stacks ("a;b;c 12" lines: flamegraph.pl's
 * stackcollapse, async-profiler's collapsed output, py-spy --format raw),
 * judged by its content, or by its name (.folded, .collapsed) when the
 * content cannot say (an empty or broken file, whose import then says
 * what is wrong). Only regular files; never blocks. */
gboolean  hp_folded_sniff   (const char            *path);

/* Imports the folded stacks in @folded into a new capture at @capture,
 * written under a temporary name and renamed into place when complete,
 * replacing any file there; on an error nothing is left behind and the
 * error names the file and the line. @result may be NULL. */
gboolean  hp_folded_import  (const char            *folded,
                             const char            *capture,
                             HpFoldedImportResult  *result,
                             GCancellable          *cancellable,
                             GError               **error);

G_END_DECLS
