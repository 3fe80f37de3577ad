/* hp-source-file.c - the lines of a source file with their samples, as a GListModel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A source file can have tens of thousands of lines; like the call tree,
 * the list creates the object of a line (HpSourceRow, defined here too
 * because it is only a view on the file's arrays) when the view asks for
 * it. The text is split once, in the worker that read it.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <string.h>

#include "document/hp-format.h"
#include "ui/hp-source-file.h"

struct _HpSourceFile {
  GObject             parent_instance;
  char               *contents;
  GPtrArray          *lines;      /* char*, into contents */
  guint64            *self;       /* per line, [0] = line 1 */
  guint64            *total;
  guint64             whole;
  HpMeasure           measure;
  guint               width;
  HpSourceAnnotation *annotation;
};

struct _HpSourceRow {
  GObject       parent_instance;
  HpSourceFile *file;
  guint         index;
};

G_DEFINE_FINAL_TYPE (HpSourceRow, hp_source_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NUMBER,
  PROP_TEXT,
  PROP_SELF_PERCENT,
  PROP_SELF_COUNT,
  PROP_TOTAL_PERCENT,
  PROP_TOTAL_COUNT,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *line_properties[N_PROPS];

static void
hp_source_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  HpSourceRow *self = HP_SOURCE_ROW (object);
  HpSourceFile *f = self->file;
  guint i = self->index;

  switch (prop_id)
    {
    case PROP_NUMBER:
      g_value_take_string (value, g_strdup_printf ("%u", i + 1));
      break;
    case PROP_TEXT:
      g_value_set_string (value, g_ptr_array_index (f->lines, i));
      break;
    case PROP_SELF_PERCENT:
      g_value_take_string (value, hp_format_percent (f->self[i], f->whole));
      break;
    case PROP_SELF_COUNT:
      g_value_take_string (value, f->self[i] ? hp_format_count_of (&f->measure, f->self[i]) : g_strdup (""));
      break;
    case PROP_TOTAL_PERCENT:
      g_value_take_string (value, hp_format_percent (f->total[i], f->whole));
      break;
    case PROP_TOTAL_COUNT:
      g_value_take_string (value, f->total[i] ? hp_format_count_of (&f->measure, f->total[i]) : g_strdup (""));
      break;
    case PROP_FRACTION:
      g_value_set_double (value, f->whole ? MIN (1.0, (double) f->total[i] / f->whole) : 0.0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hp_source_row_finalize (GObject *object)
{
  g_clear_object (&HP_SOURCE_ROW (object)->file);

  G_OBJECT_CLASS (hp_source_row_parent_class)->finalize (object);
}

static void
hp_source_row_class_init (HpSourceRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = hp_source_row_get_property;
  object_class->finalize = hp_source_row_finalize;

  line_properties[PROP_NUMBER] = g_param_spec_string ("number", NULL, NULL, NULL, flags);
  line_properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, flags);
  line_properties[PROP_SELF_PERCENT] = g_param_spec_string ("self-percent", NULL, NULL, NULL, flags);
  line_properties[PROP_SELF_COUNT] = g_param_spec_string ("self-count", NULL, NULL, NULL, flags);
  line_properties[PROP_TOTAL_PERCENT] = g_param_spec_string ("total-percent", NULL, NULL, NULL, flags);
  line_properties[PROP_TOTAL_COUNT] = g_param_spec_string ("total-count", NULL, NULL, NULL, flags);
  line_properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, line_properties);
}

static void
hp_source_row_init (HpSourceRow *self)
{
}

guint
hp_source_row_get_number (HpSourceRow *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_ROW (self), 0);

  return self->index + 1;
}

const char *
hp_source_row_get_text (HpSourceRow *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_ROW (self), NULL);

  return g_ptr_array_index (self->file->lines, self->index);
}

guint64
hp_source_row_get_self (HpSourceRow *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_ROW (self), 0);

  return self->file->self[self->index];
}

guint64
hp_source_row_get_total (HpSourceRow *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_ROW (self), 0);

  return self->file->total[self->index];
}

/* The file ------------------------------------------------------------ */

static GType
hp_source_file_get_item_type (GListModel *model)
{
  return HP_TYPE_SOURCE_ROW;
}

static guint
hp_source_file_get_n_items (GListModel *model)
{
  return HP_SOURCE_FILE (model)->lines->len;
}

static gpointer
hp_source_file_get_item (GListModel *model,
                         guint       position)
{
  HpSourceFile *self = HP_SOURCE_FILE (model);
  HpSourceRow *line;

  if (position >= self->lines->len)
    return NULL;
  line = g_object_new (HP_TYPE_SOURCE_ROW, NULL);
  line->file = g_object_ref (self);
  line->index = position;
  return line;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = hp_source_file_get_item_type;
  iface->get_n_items = hp_source_file_get_n_items;
  iface->get_item = hp_source_file_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (HpSourceFile, hp_source_file, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
hp_source_file_finalize (GObject *object)
{
  HpSourceFile *self = HP_SOURCE_FILE (object);

  g_ptr_array_unref (self->lines);
  g_free (self->contents);
  g_free (self->self);
  g_free (self->total);
  g_clear_pointer (&self->annotation, hp_source_annotation_free);
  hp_measure_clear (&self->measure);

  G_OBJECT_CLASS (hp_source_file_parent_class)->finalize (object);
}

static void
hp_source_file_class_init (HpSourceFileClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hp_source_file_finalize;
}

static void
hp_source_file_init (HpSourceFile *self)
{
}

HpSourceFile *
hp_source_file_new (char               *contents,
                    gsize               length,
                    HpSourceAnnotation *annotation,
                    guint64             whole,
                    const HpMeasure    *measure)
{
  HpSourceFile *self = g_object_new (HP_TYPE_SOURCE_FILE, NULL);
  char *p, *end;

  self->contents = contents;
  self->annotation = annotation;
  self->whole = whole;
  if (measure != NULL)
    hp_measure_copy (&self->measure, measure);
  self->lines = g_ptr_array_new ();

  /* split in place; a last line without newline counts too */
  for (p = contents, end = contents + length; p < end; )
    {
      char *nl = memchr (p, '\n', end - p);
      guint width = 0;

      if (nl != NULL)
        *nl = '\0';
      if (nl != NULL && nl > p && nl[-1] == '\r')
        nl[-1] = '\0';
      g_ptr_array_add (self->lines, p);
      for (const char *c = p; *c; c = g_utf8_next_char (c))
        width = *c == '\t' ? (width / 8 + 1) * 8 : width + 1;
      self->width = MAX (self->width, width);
      if (nl == NULL)
        break;
      p = nl + 1;
    }

  self->self = g_new0 (guint64, self->lines->len + 1);
  self->total = g_new0 (guint64, self->lines->len + 1);
  for (guint i = 0; annotation != NULL && i < annotation->lines->len; i++)
    {
      const HpSourceLine *l = &g_array_index (annotation->lines, HpSourceLine, i);

      if (l->line >= 1 && l->line <= self->lines->len)
        {
          self->self[l->line - 1] = l->self;
          self->total[l->line - 1] = l->total;
        }
    }
  return self;
}

guint
hp_source_file_get_n_lines (HpSourceFile *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_FILE (self), 0);

  return self->lines->len;
}

guint
hp_source_file_get_width (HpSourceFile *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_FILE (self), 0);

  return self->width;
}

const HpSourceAnnotation *
hp_source_file_get_annotation (HpSourceFile *self)
{
  g_return_val_if_fail (HP_IS_SOURCE_FILE (self), NULL);

  return self->annotation;
}
