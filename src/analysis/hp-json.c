/* hp-json.c - members of the JSON documents Hotpath writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `hotpath-cli report --json`, `diff --json`, `summary --json` and the
 * input Suggest hands a summarizer write their members through these, so
 * that every one of them says a missing string and a non-finite number
 * the same way (null), never writes invalid UTF-8 from a capture, and
 * never wraps a count past gint64.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <math.h>

#include "analysis/hp-json.h"
#include "analysis/hp-text.h"

void
hp_json_add_string (JsonBuilder *builder,
                    const char  *member,
                    const char  *value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  if (value == NULL)
    json_builder_add_null_value (builder);
  else if (g_utf8_validate (value, -1, NULL))
    json_builder_add_string_value (builder, value);
  else
    {
      g_autofree char *valid = hp_text_make_valid (value);

      json_builder_add_string_value (builder, valid);
    }
}

void
hp_json_add_count (JsonBuilder *builder,
                   const char  *member,
                   guint64      value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, (gint64) MIN (value, (guint64) G_MAXINT64));
}

void
hp_json_add_number (JsonBuilder *builder,
                    const char  *member,
                    double       value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (member != NULL);

  json_builder_set_member_name (builder, member);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}
