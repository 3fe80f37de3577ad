/* hp-jitdump.h - names and line tables of run-time compiled code from jitdump files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "symbols/hp-perf-map.h"

G_BEGIN_DECLS

typedef struct _HpJitDump HpJitDump;

/* A jitdump read from @path (jit-PID.dump). Nothing is read until
 * hp_jitdump_update(); a missing file is not an error. */
HpJitDump            *hp_jitdump_new          (const char *path);
void                  hp_jitdump_free         (HpJitDump  *self);

/* Reads the records appended since the last call; a record still being
 * written is read by the next call. Returns whether code was added. */
gboolean              hp_jitdump_update       (HpJitDump  *self);

/* The code at @address (JIT_CODE_LOAD, moved by JIT_CODE_MOVE), with its
 * line table (JIT_CODE_DEBUG_INFO); NULL when none. */
const HpPerfMapEntry *hp_jitdump_lookup       (HpJitDump  *self,
                                               guint64     address);

const char           *hp_jitdump_get_path     (const HpJitDump *self);

/* One sentence that names the file and what was wrong with it (not a
 * jitdump, a record cut short, records that make no sense), or NULL. */
char                 *hp_jitdump_get_warning  (HpJitDump  *self);

/* Whether @path names a jitdump (".../jit-PID.dump"): runtimes map it
 * executable so that perf's MMAP records tell where it is. */
gboolean              hp_jitdump_is_path      (const char *path);

G_END_DECLS
