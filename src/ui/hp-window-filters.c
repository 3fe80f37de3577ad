/* hp-window-filters.c - the Hotpath window's folds and the bar that shows the filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Filters that Hotspot users ask for, beside the thread and time filters
 * of the thread list and the timeline: kernel frames hidden (win.hide-
 * kernel), inlined functions folded into their callers (win.fold-inline,
 * as perf report --sort sym counts), a function or a whole module folded
 * into its callers (win.fold-function, win.fold-module: the call tree's
 * context menu), and merged recursion. Each gives a new profile, built in
 * a worker from the capture (hp_loaded_profile_build_filtered_async),
 * which every view follows. The bar above the call tree names what the
 * shown profile has folded or hidden, so that nobody reads filtered
 * numbers as whole ones, and Clear (win.clear-filters) undoes them all.
 */

#define G_LOG_DOMAIN "hp-ui"

#include "config.h"

#include <glib/gi18n.h>

#include "analysis/hp-capture-filter.h"
#include "document/hp-format.h"
#include "ui/hp-window-private.h"

/* the longest name shown in the bar for a folded function, in characters */
#define SHOWN_FOLD_CHARS 40

static gint64
module_of (HpWindow *self,
           gint64    function_id)
{
  const HpCaptureData *data = self->profile->capture->data;

  if (function_id <= 0 || (guint64) function_id >= data->functions->len)
    return 0;
  return g_array_index (data->functions, HpCaptureFunction, function_id).module_id;
}

static void
add_fold (GHashTable **set,
          gint64       id)
{
  if (*set == NULL)
    *set = g_hash_table_new (NULL, NULL);
  g_hash_table_add (*set, GSIZE_TO_POINTER ((gsize) id));
}

static void
fold_function_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  gint64 function_id = g_variant_get_int64 (parameter);

  if (self->profile == NULL || function_id <= 0 ||
      (guint64) function_id >= self->profile->capture->data->functions->len)
    return;
  add_fold (&self->fold_functions, function_id);
  hp_window_rebuild_profile (self);
}

static void
fold_module_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);
  gint64 module_id;

  if (self->profile == NULL)
    return;
  module_id = module_of (self, g_variant_get_int64 (parameter));
  if (module_id <= 0)
    return;
  add_fold (&self->fold_modules, module_id);
  hp_window_rebuild_profile (self);
}

void
hp_window_clear_folds (HpWindow *self)
{
  g_clear_pointer (&self->fold_functions, g_hash_table_unref);
  g_clear_pointer (&self->fold_modules, g_hash_table_unref);
}

static void
clear_filters_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  HpWindow *self = HP_WINDOW (widget);

  gboolean kernel = self->hide_kernel, inlined = self->fold_inline, recursion = self->merge_recursion;

  /* one rebuild for all, after the properties say they changed */
  hp_window_clear_folds (self);
  self->hide_kernel = self->fold_inline = self->merge_recursion = FALSE;
  g_object_freeze_notify (G_OBJECT (self));
  if (kernel)
    g_object_notify (G_OBJECT (self), "hide-kernel");
  if (inlined)
    g_object_notify (G_OBJECT (self), "fold-inline");
  if (recursion)
    g_object_notify (G_OBJECT (self), "merge-recursion");
  g_object_thaw_notify (G_OBJECT (self));
  hp_window_rebuild_profile (self);
}

static gint
compare_ids (gconstpointer a,
             gconstpointer b)
{
  gsize x = GPOINTER_TO_SIZE (a), y = GPOINTER_TO_SIZE (b);

  return x < y ? -1 : x > y;
}

static void
append_names (GString         *text,
              HpLoadedProfile *profile,
              GHashTable      *ids,
              gboolean         modules)
{
  g_autoptr(GList) keys = NULL;

  if (ids == NULL)
    return;
  keys = g_list_sort (g_hash_table_get_keys (ids), compare_ids);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      gint64 id = (gint64) GPOINTER_TO_SIZE (l->data);
      g_autofree char *shown = NULL;

      if (modules)
        {
          const HpCaptureData *data = profile->capture->data;

          if (id <= 0 || (guint64) id >= data->modules->len)
            continue;
          shown = g_strdup (profile->capture->module_names[id]);
        }
      else
        shown = g_utf8_substring (hp_loaded_capture_get_shown_name (profile->capture, id, TRUE), 0, SHOWN_FOLD_CHARS);
      g_string_append_printf (text, "%s%s", text->len == 0 ? "" : ", ", shown);
    }
}

void
hp_window_update_filter_bar (HpWindow *self)
{
  HpLoadedProfile *p = self->profile;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) folded = g_string_new (NULL);

  if (p == NULL || self->filter_bar == NULL)
    return;
  if (p->hide_kernel)
    {
      /* in what the view counts: "12 samples", "1,234 page faults", "2.41 s off CPU" */
      g_autofree char *n = hp_format_amount (&p->measure, p->hidden_samples);

      /* Translators: %s is an amount with its unit ("12 samples", "1,234 page faults", "2.41 s off CPU") */
      g_string_append_printf (text, _("Kernel frames hidden (%s only in the kernel left out)"), n);
    }
  if (p->fold_inline)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " · " : "", _("Inlined functions in their callers"));
  if (p->merge_recursion)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " · " : "", _("Recursion merged"));
  append_names (folded, p, p->fold_modules, TRUE);
  append_names (folded, p, p->fold_functions, FALSE);
  if (folded->len > 0)
    {
      /* Translators: %s lists the modules and functions folded */
      g_autofree char *what = g_strdup_printf (_("Folded into their callers: %s"), folded->str);

      g_string_append_printf (text, "%s%s", text->len > 0 ? " · " : "", what);
    }
  gtk_widget_set_visible (self->filter_bar, text->len > 0);
  gtk_label_set_text (self->filter_label, text->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_label), text->str);
}

void
hp_window_class_filters_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.fold-function", "x", fold_function_action);
  gtk_widget_class_install_action (widget_class, "win.fold-module", "x", fold_module_action);
  gtk_widget_class_install_action (widget_class, "win.clear-filters", NULL, clear_filters_action);
}
