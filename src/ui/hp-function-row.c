/* hp-function-row.c - a function with a sample count, as a list row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Rows of the callers and callees lists. These lists are short (the
 * distinct callers of one function), so they are built whole. Rows of the
 * flat function list carry a second count, the function's total, beside
 * its self samples.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include "document/hp-format.h"
#include "ui/hp-function-row.h"

struct _HpFunctionRow {
  GObject  parent_instance;
  gint64   function_id;
  char    *name;
  char    *module;
  guint64  samples;
  guint64  whole;
  guint64  total;
  char    *tooltip;
  gboolean is_time;   /* the count is ns: shown as a time */
};

G_DEFINE_FINAL_TYPE (HpFunctionRow, hp_function_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_MODULE,
  PROP_PERCENT,
  PROP_COUNT,
  PROP_FRACTION,
  PROP_TOOLTIP,
  PROP_SAMPLES,
  PROP_TOTAL,
  PROP_TOTAL_PERCENT,
  PROP_TOTAL_COUNT,
  PROP_TOTAL_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
hp_function_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  HpFunctionRow *self = HP_FUNCTION_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_MODULE:
      g_value_set_string (value, self->module);
      break;
    case PROP_PERCENT:
      g_value_take_string (value, hp_format_percent (self->samples, self->whole));
      break;
    case PROP_COUNT:
      g_value_take_string (value, self->is_time ? hp_format_count_of (&(HpMeasure) { .is_time = TRUE }, self->samples)
                                                : hp_format_count (self->samples));
      break;
    case PROP_FRACTION:
      g_value_set_double (value, self->whole ? MIN (1.0, (double) self->samples / self->whole) : 0.0);
      break;
    case PROP_TOOLTIP:
      g_value_set_string (value, self->tooltip);
      break;
    case PROP_SAMPLES:
      g_value_set_uint64 (value, self->samples);
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, self->total);
      break;
    case PROP_TOTAL_PERCENT:
      g_value_take_string (value, hp_format_percent (self->total, self->whole));
      break;
    case PROP_TOTAL_COUNT:
      g_value_take_string (value, hp_format_count (self->total));
      break;
    case PROP_TOTAL_FRACTION:
      g_value_set_double (value, self->whole ? MIN (1.0, (double) self->total / self->whole) : 0.0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_function_row_finalize (GObject *object)
{
  HpFunctionRow *self = HP_FUNCTION_ROW (object);

  g_free (self->name);
  g_free (self->module);
  g_free (self->tooltip);

  G_OBJECT_CLASS (hp_function_row_parent_class)->finalize (object);
}

static void
hp_function_row_class_init (HpFunctionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hp_function_row_get_property;
  object_class->finalize = hp_function_row_finalize;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  properties[PROP_PERCENT] = g_param_spec_string ("percent", NULL, NULL, NULL, flags);
  properties[PROP_COUNT] = g_param_spec_string ("count", NULL, NULL, NULL, flags);
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0, flags);
  properties[PROP_TOOLTIP] = g_param_spec_string ("tooltip", NULL, NULL, NULL, flags);
  properties[PROP_SAMPLES] = g_param_spec_uint64 ("samples", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TOTAL_PERCENT] = g_param_spec_string ("total-percent", NULL, NULL, NULL, flags);
  properties[PROP_TOTAL_COUNT] = g_param_spec_string ("total-count", NULL, NULL, NULL, flags);
  properties[PROP_TOTAL_FRACTION] = g_param_spec_double ("total-fraction", NULL, NULL, 0, 1, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
hp_function_row_init (HpFunctionRow *self)
{
}

HpFunctionRow *
hp_function_row_new (gint64      function_id,
                     const char *name,
                     const char *module,
                     guint64     samples,
                     guint64     whole,
                     const char *tooltip)
{
  HpFunctionRow *self = g_object_new (HP_TYPE_FUNCTION_ROW, NULL);

  self->function_id = function_id;
  self->name = g_strdup (name);
  self->module = g_strdup (module);
  self->samples = samples;
  self->whole = whole;
  self->tooltip = g_strdup (tooltip);
  return self;
}

void
hp_function_row_set_time (HpFunctionRow *self,
                          gboolean       is_time)
{
  g_return_if_fail (HP_IS_FUNCTION_ROW (self));

  self->is_time = is_time;
}

gint64
hp_function_row_get_function_id (HpFunctionRow *self)
{
  g_return_val_if_fail (HP_IS_FUNCTION_ROW (self), 0);

  return self->function_id;
}

guint64
hp_function_row_get_samples (HpFunctionRow *self)
{
  g_return_val_if_fail (HP_IS_FUNCTION_ROW (self), 0);

  return self->samples;
}

const char *
hp_function_row_get_name (HpFunctionRow *self)
{
  g_return_val_if_fail (HP_IS_FUNCTION_ROW (self), NULL);

  return self->name;
}

void
hp_function_row_set_total (HpFunctionRow *self,
                           guint64        total)
{
  g_return_if_fail (HP_IS_FUNCTION_ROW (self));

  self->total = total;
}

guint64
hp_function_row_get_total (HpFunctionRow *self)
{
  g_return_val_if_fail (HP_IS_FUNCTION_ROW (self), 0);

  return self->total;
}
