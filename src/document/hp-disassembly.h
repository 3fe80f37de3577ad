/* hp-disassembly.h - a sampled function's machine code with its samples per source line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/hp-source.h"

G_BEGIN_DECLS

#define HP_DISASSEMBLY_ERROR (hp_disassembly_error_quark ())
GQuark hp_disassembly_error_quark (void);

typedef enum {
  HP_DISASSEMBLY_ERROR_NO_CODE,         /* kernel, JIT, an unknown module: no file to read */
  HP_DISASSEMBLY_ERROR_NOT_FOUND,       /* the recorded file is not on this machine */
  HP_DISASSEMBLY_ERROR_CHANGED,         /* the file there has another build id */
  HP_DISASSEMBLY_ERROR_NO_SYMBOL,       /* no function symbol covers the sampled addresses */
  HP_DISASSEMBLY_ERROR_FAILED,          /* objdump failed, timed out or said nothing */
} HpDisassemblyError;

/* The disassembly of one function as rows of text, for the source pane:
 * a row per instruction, and above each run of instructions of one source
 * line a row that names the line. The capture keeps one location per
 * source line (frames.offset is the first address seen at it), not a
 * count per instruction, so samples are per source line: @rows holds them
 * as an HpSourceAnnotation whose "line" is the row (from 1) of each line
 * row, with the samples of that source line of the function (its own
 * line, where inlined code is counted: hp_source_annotation_new). */
typedef struct {
  char               *text;        /* the rows, one per line of text */
  gsize               length;
  HpSourceAnnotation *rows;
  char               *binary;      /* the file disassembled: the module's, or a copy
                                    * by build id (perf's ~/.debug cache, --debug-dir) */
  char               *module_path; /* the module's path, as recorded */
  char               *symbol;      /* the symbol it covers, demangled, without
                                    * a version ("memcpy", not "memcpy@@GLIBC_2.14") */
  guint64             start;       /* its address range, as objdump prints addresses */
  guint64             end;
  guint               n_instructions;
  gboolean            verified;    /* the file's build id is the recorded one */
} HpDisassembly;

/* Disassembles @function_id of @profile with objdump (binutils), in the
 * calling thread: call it from a worker. objdump is stopped after
 * @timeout_ms and its output cut at a few MB, so a hostile file costs
 * bounded time. @search_dirs: more build-id folders to look for the
 * module's file in (NULL-terminated, may be NULL). */
HpDisassembly *hp_disassembly_new  (HpProfile          *profile,
                                    gint64              function_id,
                                    const char * const *search_dirs,
                                    guint               timeout_ms,
                                    GCancellable       *cancellable,
                                    GError            **error);
void           hp_disassembly_free (HpDisassembly      *self);

/* What the source pane heads the code with: "Machine code of outer in
 * /usr/bin/app", the module by its own path, cut to @max_chars (0: no
 * limit) and safe to show; @tooltip (may be NULL): the same, and the copy
 * that was read when it is not the module's file. */
char          *hp_disassembly_get_heading (const HpDisassembly *self,
                                           guint                max_chars,
                                           char               **tooltip);

/* The objdump used, "objdump" on the PATH unless HOTPATH_OBJDUMP names
 * another (tests use it to provoke failures). */
const char    *hp_disassembly_get_objdump (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpDisassembly, hp_disassembly_free)

G_END_DECLS
