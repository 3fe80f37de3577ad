/* hp-perf-map.h - names of run-time compiled code from perf map files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A line table row of JIT code (jitdump's JIT_CODE_DEBUG_INFO): code
 * from @address up to the next row's is from @file at @line. */
typedef struct {
  guint64     address;
  const char *file;
  guint       line;
} HpJitLine;

/* One line of a perf map file: "START SIZE NAME", START and SIZE in hex;
 * or one JIT_CODE_LOAD of a jitdump, with its line table. */
typedef struct {
  guint64          start;
  guint64          end;      /* exclusive */
  const char      *name;     /* valid UTF-8, owned by the map */
  const HpJitLine *lines;    /* sorted by address; NULL when none */
  guint            n_lines;
} HpPerfMapEntry;

typedef struct _HpPerfMap HpPerfMap;

/* A map read from @path (/tmp/perf-PID.map). Nothing is read until
 * hp_perf_map_update(); a file that does not exist yet is not an error:
 * the program may write it later (JDK's DumpPerfMapAtExit writes it only
 * when the program exits). */
HpPerfMap            *hp_perf_map_new         (const char *path);
void                  hp_perf_map_free        (HpPerfMap  *self);

/* Reads what was appended to the file since the last call; the whole file
 * again when it was replaced by a shorter one (a pid reused). Only whole
 * lines are read: a line being written is read by the next call. Returns
 * whether new entries were read. Never fails: lines that do not parse are
 * skipped and counted in the warning. */
gboolean              hp_perf_map_update      (HpPerfMap  *self);

/* The entry that names @address; where entries overlap, the one written
 * last (code compiled later at an address that was freed). NULL when none. */
const HpPerfMapEntry *hp_perf_map_lookup      (HpPerfMap  *self,
                                               guint64     address);

/* Adds an entry, as a line of the file would (for the jitdump reader,
 * which keeps its code in a map). @name need not be valid UTF-8; @lines
 * are copied and sorted. */
void                  hp_perf_map_add         (HpPerfMap       *self,
                                               guint64          start,
                                               guint64          size,
                                               const char      *name,
                                               const HpJitLine *lines,
                                               guint            n_lines);
/* The source position of @address in @entry's line table; FALSE when
 * it has none there. @file is NULL when the row names no usable file
 * (node 20 writes garbled names for optimized code): the line holds. */
gboolean              hp_perf_map_entry_get_line (const HpPerfMapEntry *entry,
                                                  guint64               address,
                                                  const char          **file,
                                                  guint                *line);

const char           *hp_perf_map_get_path    (const HpPerfMap *self);
guint                 hp_perf_map_get_n_entries (const HpPerfMap *self);

/* One sentence that names the file and what was wrong with it (lines
 * skipped, overlapping entries), or NULL when nothing was. */
char                 *hp_perf_map_get_warning (HpPerfMap  *self);

/* What a JIT's code name says. V8 (node --perf-basic-prof, --perf-prof):
 * "JS:*fib /src/x.js:3:10" is the function "fib" of /src/x.js at line 3,
 * optimized ('*'). CPython 3.12+: "py::fib:/src/x.py". perf's JVMTI
 * agent: "LJitHot;spin(J)J" is "long JitHot.spin(long)", as the JVM's own
 * map writes it. .NET: "void [App] App::Spin()[OptimizedTier1]" is
 * "void [App] App::Spin()", optimized. Other names give @function = the
 * name itself. */
typedef struct {
  char *function;   /* "fib"; "(anonymous)" for an unnamed JS function */
  char *file;       /* NULL when the name holds none */
  guint line;       /* 0 when unknown */
  char  tier;       /* V8's marker: '~' interpreted, '^' baseline, '+' Maglev,
                     * '*' optimized; 0 when none */
} HpJitName;

void                  hp_jit_name_parse       (const char *name,
                                               HpJitName  *out);
void                  hp_jit_name_clear       (HpJitName  *name);

G_END_DECLS
