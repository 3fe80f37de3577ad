/* hp-suggest.h - a summary of a call path drafted from the code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* One step of the path, root first */
typedef struct {
  char    *name;
  char    *module;
  char    *file;     /* where the function is declared (DW_AT_decl_file), NULL when unknown */
  guint    line;     /* its DW_AT_decl_line, 0 when unknown */
  guint64  self;     /* samples of this node of the call tree */
  guint64  total;
  char    *source;   /* the doc comment above the function, NULL when none was found */
} HpSuggestStep;

/* A line of the leaf function, with the samples this path spent there */
typedef struct {
  guint    line;
  guint64  self;
  guint64  total;
  char    *text;     /* the line of source, trimmed; NULL when the file was not read */
} HpSuggestLine;

/* A callee of the leaf node on this path */
typedef struct {
  char    *name;
  char    *module;
  guint64  total;
} HpSuggestCallee;

/* What Suggest knows about one call path: built in a worker (it reads
 * source files), then immutable. */
typedef struct {
  char      *program;     /* the executable's base name, "" when unknown */
  char      *readable;    /* "main → run → parse" */
  char      *path_key;    /* the summaries table's key */
  guint64    samples;     /* samples of the whole profile */
  GPtrArray *steps;       /* HpSuggestStep*, root first */
  char      *leaf_file;   /* the file of hot_lines, NULL when no line is known */
  GPtrArray *hot_lines;   /* HpSuggestLine*, hottest first */
  GPtrArray *callees;     /* HpSuggestCallee*, those that dominate, by total */
  GPtrArray *missing;     /* char*: source files that were not found */
  GPtrArray *changed;     /* char*: source files edited since the program was
                           * built (a function of the path no longer at the
                           * line DWARF gives): their hot lines have no text,
                           * doc comments are found by the functions' names */
  char      *draft;       /* the summary drafted from all of the above */
} HpSuggestInput;

/* At most this many hot lines and dominant callees */
#define HP_SUGGEST_MAX_LINES   5
#define HP_SUGGEST_MAX_CALLEES 5

/* Gathers what the code says about the top-down @node of @profile: the
 * doc comment above each function of its path (read from its source file,
 * found with hp_source_find_file() in @source_dirs), the lines of the leaf
 * where the path spends its samples, the callees that take most of them,
 * and a draft summary made of these. Reads files: call it in a worker. */
HpSuggestInput *hp_suggest_input_new    (HpProfile          *profile,
                                         const HpCallNode   *node,
                                         const char * const *source_dirs);
void            hp_suggest_input_free   (HpSuggestInput     *self);

/* The JSON document a summarizer command reads on stdin (one line, valid
 * UTF-8, made with json-glib):
 * {"program", "path": [{"name", "module", "file", "line", "self", "total",
 * "source"}…], "hot_lines": [{"line", "self", "total", "text"}…],
 * "callees": [{"name", "module", "total"}…], "samples", "file", "changed",
 * "draft"}; "changed" lists the source files edited since the recording,
 * whose hot lines have no "text". */
char           *hp_suggest_input_to_json (const HpSuggestInput *self);

/* The comment just above line @decl_line (1-based) of @contents, skipping
 * the lines of the declaration before it (a return type on its own line,
 * attributes): a block comment or a run of // lines, its markers
 * removed. NULL when there is none. */
char           *hp_suggest_doc_comment  (const char         *contents,
                                         gsize               length,
                                         guint               decl_line);

/* The line (1-based) where the function @name is declared in @contents:
 * @decl_line (its DW_AT_decl_line) when that line names it; else, the
 * file having been edited since the build, the definition of that name
 * nearest to @decl_line ("static int\nparse (…)" with no ";" after it);
 * 0 when there is none. C++ names are looked for by their last
 * component ("ns::Parser::parse(int)" as "parse"). */
guint           hp_suggest_find_declaration (const char *contents,
                                             gsize       length,
                                             const char *name,
                                             guint       decl_line);

/* The program a capture recorded: the base name of its command's first
 * word; NULL when the capture does not say. */
char           *hp_suggest_program_name (const HpCaptureData *data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSuggestInput, hp_suggest_input_free)

G_END_DECLS
