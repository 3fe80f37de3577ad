/* hp-call-row.c - a shown row of a call tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The GObject face of one HpCallNode, created by HpCallNodeList only when
 * the tree list model asks for the row (it is shown, or sorted among shown
 * rows), so a capture with a million samples and a hundred thousand nodes
 * costs as many rows as the user expands. The strings the cells show are
 * properties, computed on read, so the .ui cell templates bind to them.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-call-path.h"
#include "ui/hp-call-row.h"
#include "document/hp-format.h"

struct _HpCallRow {
  GObject            parent_instance;
  HpCallTreeContext *context;
  const HpCallNode  *node;
};

G_DEFINE_FINAL_TYPE (HpCallRow, hp_call_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_NAME_MARKUP,
  PROP_MODULE,
  PROP_SELF_PERCENT,
  PROP_SELF_COUNT,
  PROP_TOTAL_PERCENT,
  PROP_TOTAL_COUNT,
  PROP_SELF_FRACTION,
  PROP_TOTAL_FRACTION,
  PROP_HAS_SUMMARY,
  PROP_TOOLTIP,
  PROP_COUNT_CHARS,
  PROP_RATIO,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static double
fraction (HpCallRow *self,
          guint64    part)
{
  return self->context->n_samples ? (double) part / (double) self->context->n_samples : 0.0;
}

static char *
name_markup (HpCallRow *self)
{
  const char *name = hp_call_row_get_name (self);
  gboolean hot = g_hash_table_contains (self->context->hot, self->node);
  GString *s;
  g_autofree char *folded = NULL;
  const char *match = NULL;

  /* Highlight the first match. Casefolding may change byte lengths, so
   * the match is located in the original by character offsets. */
  if (self->context->search != NULL)
    {
      folded = g_utf8_casefold (name, -1);
      match = strstr (folded, self->context->search);
    }
  /* the time a wall or off-CPU view's thread waited: set apart */
  if (self->node->function_id != 0 &&
      hp_measure_is_waiting (self->context->profile->capture->data, self->node->function_id))
    {
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      return g_strdup_printf ("<i>%s%s%s</i>", hot ? "<b>" : "", escaped, hot ? "</b>" : "");
    }
  /* NULL: plain text will do, which is much cheaper to show */
  if (!hot && match == NULL)
    return NULL;
  s = g_string_new (hot ? "<b>" : NULL);
  if (match != NULL && g_utf8_strlen (folded, -1) == g_utf8_strlen (name, -1))
    {
      glong start = g_utf8_pointer_to_offset (folded, match);
      glong len = g_utf8_strlen (self->context->search, -1);
      const char *a = g_utf8_offset_to_pointer (name, start);
      const char *b = g_utf8_offset_to_pointer (a, len);
      g_autofree char *pre = g_markup_escape_text (name, a - name);
      g_autofree char *mid = g_markup_escape_text (a, b - a);
      g_autofree char *post = g_markup_escape_text (b, -1);

      /* opaque colours with black text: readable on the light and the
       * dark theme and on a selected row alike (a translucent yellow
       * read white on olive in the dark theme); the current match, the
       * one Enter went to, in orange and bold */
      if (self->node == self->context->current_match)
        g_string_append_printf (s, "%s<span weight=\"bold\" underline=\"single\" background=\"#ffa348\" foreground=\"#000000\">%s</span>%s",
                                pre, mid, post);
      else
        g_string_append_printf (s, "%s<span underline=\"single\" background=\"#f9f06b\" foreground=\"#000000\">%s</span>%s",
                                pre, mid, post);
    }
  else
    {
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      g_string_append (s, escaped);
    }
  if (hot)
    g_string_append (s, "</b>");
  return g_string_free (s, FALSE);
}

static char *
tooltip (HpCallRow *self)
{
  HpLoadedCapture *capture = self->context->profile->capture;
  g_autofree char *name = hp_loaded_capture_dup_tooltip_name (capture, self->node->function_id);
  g_autofree char *path = hp_call_path_shown (capture, self->node, HP_SYMBOL_NAME_TOOLTIP_CHARS);
  const HpMeasure *measure = &self->context->profile->measure;
  g_autofree char *self_text = hp_format_share_of (measure, self->node->self, self->context->n_samples);
  g_autofree char *total_text = hp_format_share_of (measure, self->node->total, self->context->n_samples);
  g_autofree char *whole = hp_format_measure_name (measure);
  const char *mark = hp_call_row_get_has_summary (self) ? _("\nThis call path has a summary.") : "";
  g_autofree char *tiers = hp_loaded_capture_dup_tier_text (capture, self->node->function_id);
  g_autofree char *tier_line = tiers != NULL ? g_strconcat ("\n", tiers, NULL) : NULL;

  /* the whole name first (capped: a tooltip is no place for 20,000
   * characters; Copy Name has them all), then the path in short names */
  if (self->context->bottom_up)
    /* Translators: function name; a bottom-up path lists the sampled function first, then its callers */
    return g_strdup_printf (_("%s\n\n%s\n(sampled function first, then its callers)\n%s of the %s end in this path%s"),
                            name, path, total_text, whole, tier_line ? tier_line : "");
  /* Translators: function name, call path, shares ("12.0 % (120 samples)",
   * "12.0 % (1,234 page faults)" or "no samples"), whether the path has a
   * summary, the JIT tier */
  return g_strdup_printf (_("%s\n\n%s\nSelf: %s in this function itself, on this path\nTotal: %s in it or in what it calls%s%s"),
                          name, path, self_text, total_text, mark, tier_line ? tier_line : "");
}

/* The ratio of the capture's two events in this call path, or "" */
static char *
ratio (HpCallRow *self)
{
  HpLoadedProfile *profile = self->context->profile;
  /* the bottom-up map is made with that tree: by its worker when big */
  HpRatioMap *map = hp_loaded_profile_get_ratio_map (profile, self->context->bottom_up);
  guint64 num, den;

  if (map == NULL || !hp_ratio_map_lookup (map, self->node, &num, &den))
    return g_strdup ("");
  return hp_format_ratio_value (&profile->ratio, num, den);
}

static void
hp_call_row_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  HpCallRow *self = HP_CALL_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, hp_call_row_get_name (self));
      break;
    case PROP_NAME_MARKUP:
      g_value_take_string (value, name_markup (self));
      break;
    case PROP_MODULE:
      g_value_set_string (value, hp_call_row_get_module (self));
      break;
    case PROP_SELF_PERCENT:
      g_value_take_string (value, hp_format_percent (self->node->self, self->context->n_samples));
      break;
    case PROP_SELF_COUNT:
      g_value_take_string (value, hp_format_count_of (&self->context->profile->measure, self->node->self));
      break;
    case PROP_COUNT_CHARS:
      g_value_set_uint (value, self->context->count_chars);
      break;
    case PROP_TOTAL_PERCENT:
      g_value_take_string (value, hp_format_percent (self->node->total, self->context->n_samples));
      break;
    case PROP_TOTAL_COUNT:
      g_value_take_string (value, hp_format_count_of (&self->context->profile->measure, self->node->total));
      break;
    case PROP_SELF_FRACTION:
      g_value_set_double (value, fraction (self, self->node->self));
      break;
    case PROP_TOTAL_FRACTION:
      g_value_set_double (value, fraction (self, self->node->total));
      break;
    case PROP_HAS_SUMMARY:
      g_value_set_boolean (value, hp_call_row_get_has_summary (self));
      break;
    case PROP_TOOLTIP:
      g_value_take_string (value, tooltip (self));
      break;
    case PROP_RATIO:
      g_value_take_string (value, ratio (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_call_row_finalize (GObject *object)
{
  HpCallRow *self = HP_CALL_ROW (object);

  if (g_hash_table_lookup (self->context->rows, self->node) == self)
    g_hash_table_remove (self->context->rows, self->node);
  hp_call_tree_context_unref (self->context);

  G_OBJECT_CLASS (hp_call_row_parent_class)->finalize (object);
}

static void
hp_call_row_class_init (HpCallRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hp_call_row_get_property;
  object_class->finalize = hp_call_row_finalize;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_NAME_MARKUP] = g_param_spec_string ("name-markup", NULL, NULL, NULL, flags);
  properties[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  properties[PROP_SELF_PERCENT] = g_param_spec_string ("self-percent", NULL, NULL, NULL, flags);
  properties[PROP_SELF_COUNT] = g_param_spec_string ("self-count", NULL, NULL, NULL, flags);
  properties[PROP_TOTAL_PERCENT] = g_param_spec_string ("total-percent", NULL, NULL, NULL, flags);
  properties[PROP_TOTAL_COUNT] = g_param_spec_string ("total-count", NULL, NULL, NULL, flags);
  properties[PROP_SELF_FRACTION] = g_param_spec_double ("self-fraction", NULL, NULL, 0, 1, 0, flags);
  properties[PROP_TOTAL_FRACTION] = g_param_spec_double ("total-fraction", NULL, NULL, 0, 1, 0, flags);
  properties[PROP_HAS_SUMMARY] = g_param_spec_boolean ("has-summary", NULL, NULL, FALSE, flags);
  properties[PROP_TOOLTIP] = g_param_spec_string ("tooltip", NULL, NULL, NULL, flags);
  properties[PROP_COUNT_CHARS] = g_param_spec_uint ("count-chars", NULL, NULL, 0, G_MAXUINT, 0, flags);
  properties[PROP_RATIO] = g_param_spec_string ("ratio", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hp_call_row_init (HpCallRow *self)
{
}

HpCallRow *
hp_call_row_new (HpCallTreeContext *context,
                 const HpCallNode  *node)
{
  HpCallRow *self;

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (node != NULL, NULL);

  self = g_object_new (HP_TYPE_CALL_ROW, NULL);
  self->context = hp_call_tree_context_ref (context);
  self->node = node;
  g_hash_table_insert (context->rows, (gpointer) node, self);
  return self;
}

const HpCallNode *
hp_call_row_get_node (HpCallRow *self)
{
  g_return_val_if_fail (HP_IS_CALL_ROW (self), NULL);

  return self->node;
}

HpCallTreeContext *
hp_call_row_get_context (HpCallRow *self)
{
  g_return_val_if_fail (HP_IS_CALL_ROW (self), NULL);

  return self->context;
}

const char *
hp_call_row_get_name (HpCallRow *self)
{
  g_return_val_if_fail (HP_IS_CALL_ROW (self), NULL);

  return hp_loaded_capture_get_shown_name (self->context->profile->capture, self->node->function_id, FALSE);
}

const char *
hp_call_row_get_module (HpCallRow *self)
{
  g_return_val_if_fail (HP_IS_CALL_ROW (self), NULL);

  return hp_loaded_capture_get_shown_module (self->context->profile->capture, self->node->function_id);
}

gboolean
hp_call_row_get_has_summary (HpCallRow *self)
{
  g_return_val_if_fail (HP_IS_CALL_ROW (self), FALSE);

  return g_hash_table_contains (self->context->marked, self->node);
}

void
hp_call_row_marks_changed (HpCallRow *self)
{
  g_return_if_fail (HP_IS_CALL_ROW (self));

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME_MARKUP]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SUMMARY]);
}
