/* hp-summary-item.c - a summarized call path, as a row of the Summaries list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-call-path.h"
#include "ui/hp-summary-item.h"

/* the longest first line of a summary shown in the list */
#define EXCERPT_CHARS 200

struct _HpSummaryItem {
  GObject   parent_instance;
  char     *key;
  char     *path;
  char     *excerpt;
  char     *origin;
  gboolean  in_profile;
};

G_DEFINE_FINAL_TYPE (HpSummaryItem, hp_summary_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PATH,
  PROP_EXCERPT,
  PROP_ORIGIN,
  PROP_HAS_ORIGIN,
  PROP_TOOLTIP,
  PROP_IN_PROFILE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hp_summary_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HpSummaryItem *self = HP_SUMMARY_ITEM (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case PROP_EXCERPT:
      g_value_set_string (value, self->excerpt);
      break;
    case PROP_ORIGIN:
      g_value_set_string (value, self->origin);
      break;
    case PROP_HAS_ORIGIN:
      g_value_set_boolean (value, self->origin != NULL);
      break;
    case PROP_TOOLTIP:
      if (self->in_profile)
        g_value_take_string (value, g_strdup_printf (_("%s\nActivate to select this call path in the call tree"), self->path));
      else
        g_value_take_string (value, g_strdup_printf (_("%s\nThis call path has no samples in the shown profile "
                                                       "(another thread filter, or another build of the program)"),
                                                     self->path));
      break;
    case PROP_IN_PROFILE:
      g_value_set_boolean (value, self->in_profile);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_summary_item_finalize (GObject *object)
{
  HpSummaryItem *self = HP_SUMMARY_ITEM (object);

  g_free (self->key);
  g_free (self->path);
  g_free (self->excerpt);
  g_free (self->origin);

  G_OBJECT_CLASS (hp_summary_item_parent_class)->finalize (object);
}

static void
hp_summary_item_class_init (HpSummaryItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hp_summary_item_get_property;
  object_class->finalize = hp_summary_item_finalize;

  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL, flags);
  properties[PROP_EXCERPT] = g_param_spec_string ("excerpt", NULL, NULL, NULL, flags);
  /* where a summary written in another capture comes from, and its share then and now */
  properties[PROP_ORIGIN] = g_param_spec_string ("origin", NULL, NULL, NULL, flags);
  properties[PROP_HAS_ORIGIN] = g_param_spec_boolean ("has-origin", NULL, NULL, FALSE, flags);
  properties[PROP_TOOLTIP] = g_param_spec_string ("tooltip", NULL, NULL, NULL, flags);
  properties[PROP_IN_PROFILE] = g_param_spec_boolean ("in-profile", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hp_summary_item_init (HpSummaryItem *self)
{
}

HpSummaryItem *
hp_summary_item_new (const char *key,
                     const char *text,
                     const char *origin,
                     gboolean    in_profile)
{
  HpSummaryItem *self = g_object_new (HP_TYPE_SUMMARY_ITEM, NULL);
  const char *nl;

  self->key = g_strdup (key);
  self->path = hp_call_path_readable (key);
  while (text != NULL && (*text == '\n' || *text == ' '))
    text++;
  nl = text ? strchr (text, '\n') : NULL;
  /* one line of an inscription, from the capture: cut and made safe */
  self->excerpt = hp_symbol_name_sanitize (text, text == NULL ? 0 : nl ? nl - text : -1, EXCERPT_CHARS);
  self->origin = g_strdup (origin);
  self->in_profile = in_profile;
  return self;
}

const char *
hp_summary_item_get_key (HpSummaryItem *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_ITEM (self), NULL);

  return self->key;
}

const char *
hp_summary_item_get_path (HpSummaryItem *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_ITEM (self), NULL);

  return self->path;
}

const char *
hp_summary_item_get_excerpt (HpSummaryItem *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_ITEM (self), NULL);

  return self->excerpt;
}

const char *
hp_summary_item_get_origin (HpSummaryItem *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_ITEM (self), NULL);

  return self->origin;
}

gboolean
hp_summary_item_get_in_profile (HpSummaryItem *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_ITEM (self), FALSE);

  return self->in_profile;
}
