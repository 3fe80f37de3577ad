/* hp-json.h - members of the JSON documents Hotpath writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @member: @value made valid UTF-8 (hp_text_make_valid: a capture's text
 * is untrusted), or null when @value is NULL. */
void hp_json_add_string (JsonBuilder *builder,
                         const char  *member,
                         const char  *value);

/* @member: a count, clamped to what a JSON integer (gint64) holds. */
void hp_json_add_count  (JsonBuilder *builder,
                         const char  *member,
                         guint64      value);

/* @member: @value, or null when it is not finite (JSON has no NaN and no
 * infinity). */
void hp_json_add_number (JsonBuilder *builder,
                         const char  *member,
                         double       value);

/* Writing a document straight into a string, member by member, for the
 * big ones (hotpath-cli diff of two big captures writes hundreds of
 * thousands of numbers: a JsonBuilder's tree of them costs more than the
 * comparison). The text is what JsonGenerator (without pretty printing)
 * and hp_text_escape_json_controls() make of the same document, except
 * where json-glib 1.6 writes invalid JSON: a raw U+001F in a string, and
 * ".0" after a whole number in exponent form ("1e+20.0"). */
typedef struct {
  GString *out;
  guint    depth;
  gboolean need_comma;    /* a value was written at this level: the next needs a comma */
  gboolean after_member;  /* a member's name is written, its value not yet */
} HpJsonWriter;

void hp_json_writer_init         (HpJsonWriter *writer,
                                  GString      *out);
void hp_json_writer_begin_object (HpJsonWriter *writer);
void hp_json_writer_end_object   (HpJsonWriter *writer);
void hp_json_writer_begin_array  (HpJsonWriter *writer);
void hp_json_writer_end_array    (HpJsonWriter *writer);
/* The name of the next member of the object being written. */
void hp_json_writer_member       (HpJsonWriter *writer,
                                  const char   *member);
/* Values, as the hp_json_add_*() functions write them: a string made
 * valid UTF-8 (null for NULL), a count clamped to gint64, a number null
 * when it is not finite. */
void hp_json_writer_string       (HpJsonWriter *writer,
                                  const char   *value);
void hp_json_writer_count        (HpJsonWriter *writer,
                                  guint64       value);
void hp_json_writer_int          (HpJsonWriter *writer,
                                  gint64        value);
void hp_json_writer_number       (HpJsonWriter *writer,
                                  double        value);
void hp_json_writer_boolean      (HpJsonWriter *writer,
                                  gboolean      value);
/* @node and everything in it, members in the order they were added, as
 * the functions above write them: a document a JsonBuilder made is
 * written through here rather than by JsonGenerator, whose JSON 1.6 is
 * invalid for U+001F and for doubles such as 1e20 (see above). Nesting
 * has no limit (a call tree of 100 000 levels) and uses no recursion. */
void hp_json_writer_node         (HpJsonWriter *writer,
                                  JsonNode     *node);
/* @root as one document, appended to @out. */
void hp_json_append_node         (GString      *out,
                                  JsonNode     *root);

G_END_DECLS
