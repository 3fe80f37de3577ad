/* hp-pprof-import.h - turns a pprof profile into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  guint64  samples;   /* samples written */
  char    *event;     /* what the weights measure ("cpu", ...) */
} HpPprofImportResult;

void      hp_pprof_import_result_clear (HpPprofImportResult *result);

/* Whether @path is a pprof profile: gzip data (what pprof writes) or a
 * name ending in .pprof, .pb or .pb.gz. Only regular files; never blocks. */
gboolean  hp_pprof_sniff   (const char           *path);

/* Imports the pprof profile @pprof (gzipped or not) into a new capture at
 * @capture, written under a temporary name and renamed into place when
 * complete; on an error nothing is left behind, and the error names the
 * file and what is wrong (bad gzip, a protobuf that does not decode, a
 * reference to nothing). @result may be NULL. */
gboolean  hp_pprof_import  (const char           *pprof,
                            const char           *capture,
                            HpPprofImportResult  *result,
                            GCancellable         *cancellable,
                            GError              **error);

G_END_DECLS
