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

G_END_DECLS
