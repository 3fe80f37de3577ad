/* hp-text.h - text from a capture, made safe to show
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything a capture holds is untrusted: a capture is a file people mail
 * to each other, and even a genuine recording carries names its program
 * chose (thread names, mangled symbols, command lines with newlines). Before
 * such text reaches a terminal, a JSON document or a Pango layout it goes
 * through one of these, which never fail and never return NULL for a
 * non-NULL input:
 *
 *   hp_text_make_valid     valid UTF-8: each invalid byte becomes U+FFFD.
 *                          For JSON (json-glib then escapes what JSON
 *                          requires) and for widgets that show the text as
 *                          it is.
 *   hp_text_escape         valid UTF-8 on one line with no control
 *                          character: for a terminal or a one-line label.
 *                          \n \r \t and ESC (\e) are written as C does, other
 *                          C0 controls and DEL as \xHH, C1 controls
 *                          (U+0080..U+009F), line and paragraph separators
 *                          and the bidirectional overrides and isolates
 *                          (which reorder what follows them on screen) as
 *                          \uHHHH. A backslash is left as it is: the result
 *                          is for reading, not for parsing back.
 *
 * GTK-free, so that hotpath-cli and the window share it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char     *hp_text_make_valid             (const char *text);
char     *hp_text_escape                 (const char *text);
/* Appends hp_text_escape (@text) to @out; NULL appends nothing. */
void      hp_text_append_escaped         (GString    *out,
                                          const char *text);
/* TRUE when hp_text_escape (@text) would differ from @text. */
gboolean  hp_text_needs_escape           (const char *text);

/* Rewrites, in the JSON document @json (as JsonGenerator writes it, from
 * valid UTF-8 strings), the characters JSON allows raw inside strings but
 * a terminal or a JavaScript parser may act on: C1 controls and U+2028,
 * U+2029 become \uHHHH escapes. The document keeps its meaning. */
void      hp_text_escape_json_controls   (GString    *json);

G_END_DECLS
