/* hp-perf-import.h - turns a perf.data file into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "symbols/hp-symbolizer.h"

G_BEGIN_DECLS

typedef struct {
  const char         *sysroot;     /* prefix for the recorded paths (files from another machine); NULL: / */
  const char * const *debug_dirs;  /* NULL-terminated; searched by build id before ~/.debug and /usr/lib/debug */
  const char         *event;       /* import the samples of this event; NULL: the first sampling event */
  HpSymbolFetchFunc   fetch_func;  /* downloads of debug info (debuginfod); NULL: none */
  gpointer            fetch_data;
} HpPerfImportOptions;

typedef struct {
  guint64  samples;          /* samples written */
  guint64  other_samples;    /* samples of other events, not imported */
  guint64  lost;             /* samples the kernel lost while recording */
  guint64  unresolved_frames;
  char    *event;            /* the imported event's name */
  gdouble  seconds;          /* time the import took */
} HpPerfImportResult;

void      hp_perf_import_result_clear (HpPerfImportResult        *result);

/* Imports @perf_data ("-": stdin) into a new capture at @capture. The
 * capture is written next to @capture under a temporary name and renamed
 * into place when complete, replacing any file there; on an error nothing
 * is left behind. @options and @result may be NULL. */
gboolean  hp_perf_import              (const char                *perf_data,
                                       const char                *capture,
                                       const HpPerfImportOptions *options,
                                       HpPerfImportResult        *result,
                                       GCancellable              *cancellable,
                                       GError                   **error);

/* Whether @path is a perf.data file (of any endianness or version), a
 * pprof profile (hp_pprof_sniff()) or folded stacks (hp_folded_sniff()),
 * rather than a capture: what the
 * window and the CLI import instead of opening. */
gboolean  hp_perf_import_is_perf_data (const char                *path);

/* The name a capture of the imported file @input is given, the same by
 * `hotpath-cli import` (in the current folder) and the window's Save as
 * Capture (beside the file): its base name without the suffix of its
 * format, perf.data -> perf.hotpath, run.perf.data -> run.perf.hotpath,
 * x.folded -> x.hotpath, x.pb.gz -> x.hotpath, x -> x.hotpath; standard
 * input ("-") -> perf.hotpath. */
char     *hp_perf_import_capture_name (const char                *input);

/* The capture of @perf_data (or of a pprof profile or folded stacks) in the cache
 * ($XDG_CACHE_HOME/hotpath/perf-data), imported first unless a capture of the same path, size and modification
 * time is there already. Returns its path. @fetch_func hears of the
 * downloads of debug info (debuginfod) that importing a perf.data makes;
 * NULL: nobody. */
char     *hp_perf_import_cached       (const char                *perf_data,
                                       HpSymbolFetchFunc          fetch_func,
                                       gpointer                   fetch_data,
                                       GCancellable              *cancellable,
                                       GError                   **error);

G_END_DECLS
