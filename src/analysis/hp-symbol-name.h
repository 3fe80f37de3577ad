/* hp-symbol-name.h - function names made fit to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How much of a demangled C++ name to leave out. */
typedef enum {
  /* "std::map<std::__cxx11::basic_string<…>, …>::find" -> "std::map<…>::find";
   * short argument lists ("std::vector<int>") stay */
  HP_SYMBOL_NAME_FOLD_TEMPLATES   = 1 << 0,
  /* "std::pair<…> std::make_pair<…>(…)" -> "std::make_pair<…>(…)" */
  HP_SYMBOL_NAME_DROP_RETURN_TYPE = 1 << 1,
  /* "Foo::bar(int, char const*) const" -> "Foo::bar" (a " [clone .cold]" stays) */
  HP_SYMBOL_NAME_DROP_PARAMETERS  = 1 << 2,
} HpSymbolNameFlags;

/* For a row of a list or a tree: templates folded, no return type. */
#define HP_SYMBOL_NAME_ROW   (HP_SYMBOL_NAME_FOLD_TEMPLATES | HP_SYMBOL_NAME_DROP_RETURN_TYPE)
/* For narrow places (breadcrumbs, captions, callers): the row form without parameters. */
#define HP_SYMBOL_NAME_SHORT (HP_SYMBOL_NAME_ROW | HP_SYMBOL_NAME_DROP_PARAMETERS)

/* The longest tooltip text of a full name, in characters. */
#define HP_SYMBOL_NAME_TOOLTIP_CHARS 1000

/* @text made safe to show as plain text: valid UTF-8 (U+FFFD for invalid
 * bytes), control characters visible in glyphs that fonts have (a newline
 * as "⏎", a tab as "⇥", others in caret notation: ESC as "^["), C1 controls and bidirectional overrides as U+FFFD, and
 * cut to @max_chars characters with a trailing "…" (0: no limit).
 * @length is in bytes, or -1 for a NUL-terminated @text; NULL gives "". */
char *hp_symbol_name_sanitize (const char        *text,
                               gssize             length,
                               guint              max_chars);

/* @name shortened by @flags, sanitized, and cut in the middle to
 * @max_chars characters (0: no limit). Names that do not parse as C++
 * (unbalanced brackets, plain C, placeholders like "[unknown]") are only
 * sanitized and cut. An empty or blank name gives "[no name]". */
char *hp_symbol_name_shorten  (const char        *name,
                               HpSymbolNameFlags  flags,
                               guint              max_chars);

G_END_DECLS
