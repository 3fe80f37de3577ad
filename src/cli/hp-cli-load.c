/* hp-cli-load.c - opening what a sub-command reads: a capture or a perf.data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Every sub-command that reads a profile starts the same way: a perf.data
 * is imported once into a cached capture (reused while the file is
 * unchanged, the cache the window uses too), the capture is opened
 * read-only and its tables are loaded. A failure is printed as the one
 * line a failure gets.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include <math.h>

#include "analysis/hp-capture-filter.h"
#include "analysis/hp-measure.h"
#include "analysis/hp-name-match.h"
#include "analysis/hp-sample-index.h"
#include "analysis/hp-text.h"
#include "store/hp-capture-keys.h"
#include "cli/hp-cli.h"
#include "store/hp-capture-pending.h"
#include "perf/hp-perf-file.h"
#include "record/hp-perf-import.h"

gboolean
hp_cli_load_capture (const char     *file,
                     HpCapture     **out_capture,
                     HpCaptureData **out_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autofree char *cached = NULL;

  g_return_val_if_fail (file != NULL, FALSE);
  g_return_val_if_fail (out_capture != NULL, FALSE);
  g_return_val_if_fail (out_data != NULL, FALSE);

  if (hp_perf_import_is_perf_data (file))
    {
      g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();

      cached = hp_perf_import_cached (file, hp_cli_fetch_progress, NULL, cancellable, &error);
      if (cached == NULL)
        {
          hp_cli_error ("%s", error->message);
          return FALSE;
        }
      file = cached;
    }

  capture = hp_capture_open (file, FALSE, &error);
  if (capture == NULL)
    {
      hp_cli_error ("%s", error->message);
      return FALSE;
    }
  data = hp_capture_load (capture, &error);
  if (data == NULL)
    {
      hp_cli_error ("%s", error->message);
      return FALSE;
    }
  /* rows its recorder could not write (another program held the write
   * lock, and then the recorder was killed or gave up): beside it, as
   * NAME.pending.sql (or -N when that name was taken) */
  {
    g_autoptr(GPtrArray) pending = hp_capture_list_pending (file);

    for (guint i = 0; i < pending->len; i++)
      {
        g_autofree char *safe_file = hp_text_escape (file);
        g_autofree char *safe_pending = hp_text_escape (g_ptr_array_index (pending, i));

        hp_cli_error (_("%s: %s holds samples of this recording that waited for another program's write "
                        "lock and are not in the capture yet; 'hotpath-cli add-pending %s' adds them"),
                      safe_file, safe_pending, safe_file);
      }
  }
  /* off-CPU stacks end in [waiting], as the window shows them, so that
   * a wall report sets the time a function waited apart from the time
   * it computed (hp-measure.h) */
  if (hp_capture_data_find_event (data, HP_EVENT_OFF_CPU) != 0)
    {
      HpCaptureData *marked = hp_measure_mark_waiting (data);

      hp_capture_data_free (data);
      data = marked;
    }
  *out_capture = g_steal_pointer (&capture);
  *out_data = g_steal_pointer (&data);
  return TRUE;
}

/* Filters ------------------------------------------------------------- */

/* Fills @spec->modules and @spec->functions with what each --fold NAME
 * names: the modules of that name, or else the functions by the rules of
 * report --callers, but not by a mere substring (--fold a would fold half
 * the program). Appends what was folded to @what. */
static gboolean
resolve_folds (const char          *command,
               const HpCaptureData *data,
               const char * const  *names,
               HpFoldSpec          *spec,
               GString             *what)
{
  g_autoptr(HpProfile) profile = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr(GHashTable) modules = hp_capture_data_find_modules (data, names[i]);
      g_autoptr(GArray) ids = NULL;
      g_autofree char *safe = hp_text_escape (names[i]);
      HpNameMatch how = HP_NAME_MATCH_NONE;

      if (g_hash_table_size (modules) > 0)
        {
          GHashTableIter iter;
          gpointer key;

          g_hash_table_iter_init (&iter, modules);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            g_hash_table_add (spec->modules, key);
          g_string_append_printf (what, "%s%s", what->len > 0 ? ", " : "", safe);
          continue;
        }
      if (profile == NULL)
        profile = hp_profile_new (data, NULL);
      ids = hp_profile_match_functions (profile, names[i], &how);
      if (ids->len == 0 || how == HP_NAME_MATCH_SUBSTRING)
        {
          g_autoptr(GPtrArray) close = hp_profile_suggest_functions (profile, names[i], 3);
          g_autoptr(GString) hint = g_string_new (NULL);

          for (guint k = 0; k < close->len; k++)
            {
              g_autofree char *name = hp_text_escape (g_ptr_array_index (close, k));

              g_string_append_printf (hint, "%s%s", k > 0 ? ", " : "", name);
            }
          if (close->len > 0)
            /* Translators: a command, a name, then the names of functions it may mean */
            hp_cli_error (_("%s: --fold %s names no module and no function of the capture; did you mean %s"),
                          command, safe, hint->str);
          else
            hp_cli_error (_("%s: --fold %s names no module and no function of the capture"), command, safe);
          return FALSE;
        }
      for (guint k = 0; k < ids->len; k++)
        g_hash_table_add (spec->functions, GSIZE_TO_POINTER ((gsize) g_array_index (ids, gint64, k)));
      g_string_append_printf (what, "%s%s", what->len > 0 ? ", " : "", safe);
      if (ids->len > 1)
        g_string_append_printf (what, g_dngettext (GETTEXT_PACKAGE, " (%u function)", " (%u functions)", ids->len), ids->len);
    }
  return TRUE;
}

void
hp_cli_filter_add_options (HpCliFilter    *filter,
                           GOptionContext *context)
{
  GOptionEntry entries[] = {
    { "event", 0, 0, G_OPTION_ARG_STRING, &filter->event,
      N_("Show EVENT of a capture that holds several (default the first); wall: cpu-clock and off-cpu time together"), N_("EVENT") },
    { "from", 0, 0, G_OPTION_ARG_STRING, &filter->from, N_("Only samples from SECONDS after the first sample"), N_("SECONDS") },
    { "to", 0, 0, G_OPTION_ARG_STRING, &filter->to, N_("Only samples up to SECONDS after the first sample"), N_("SECONDS") },
    { "tid", 0, 0, G_OPTION_ARG_INT, &filter->tid, N_("Only samples of thread TID"), N_("TID") },
    { "pid", 0, 0, G_OPTION_ARG_INT, &filter->pid, N_("Only samples of the threads of process PID"), N_("PID") },
    { "merge-recursion", 0, 0, G_OPTION_ARG_NONE, &filter->merge_recursion,
      N_("Fold directly recursive calls (f → f → f) into one f"), NULL },
    { "inline", 0, 0, G_OPTION_ARG_STRING, &filter->inline_mode,
      N_("Inlined functions as rows of their own (own, the default) or folded into the function "
      "they were inlined into (fold), as perf report --sort sym counts them"), N_("own|fold") },
    { "hide-kernel", 0, 0, G_OPTION_ARG_NONE, &filter->hide_kernel,
      N_("Count kernel frames in the function that entered the kernel; leave out samples in the kernel only"), NULL },
    { "fold", 0, 0, G_OPTION_ARG_STRING_ARRAY, &filter->fold,
      N_("Count a module (libc: libc.so.6) or a function (a name, alias or glob) in its callers; repeatable"),
      N_("NAME") },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
}

void
hp_cli_filter_clear (HpCliFilter *filter)
{
  g_clear_pointer (&filter->event, g_free);
  g_clear_pointer (&filter->from, g_free);
  g_clear_pointer (&filter->to, g_free);
  g_clear_pointer (&filter->inline_mode, g_free);
  g_clear_pointer (&filter->fold, g_strfreev);
  g_clear_pointer (&filter->description, g_free);
  hp_measure_clear (&filter->measure);
}

guint64
hp_cli_event_mask (const char          *command,
                   const char          *file,
                   const HpCaptureData *data,
                   const char          *name)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint64 mask = hp_capture_data_event_mask (data, name);

  if (mask != 0)
    return mask;
  if (g_strcmp0 (name, HP_EVENT_WALL) == 0)
    {
      hp_cli_error (_("%s: --event wall needs cpu-clock and off-cpu, and %s has no %s "
                    "(record with --off-cpu)"), command, file,
                    hp_capture_data_find_event (data, HP_EVENT_CPU_CLOCK) == 0 ? HP_EVENT_CPU_CLOCK : HP_EVENT_OFF_CPU);
      return 0;
    }
  for (guint i = 1; i < data->events->len; i++)
    g_string_append_printf (names, "%s%s", i > 1 ? ", " : "",
                            g_array_index (data->events, HpCaptureEvent, i).name);
  {
    g_autofree char *valid = hp_text_make_valid (names->str);

    hp_cli_error (_("%s: %s has no event %s; it has %s"), command, file, name, valid);
  }
  return 0;
}

static gboolean
parse_seconds (const char *command,
               const char *option,
               const char *text,
               gdouble    *seconds)
{
  char *end = NULL;
  gdouble value = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !isfinite (value) || value < 0 || value > 1e9)
    {
      hp_cli_error (_("%s: %s must be a number of seconds, 0 or more, not '%s'"), command, option, text);
      return FALSE;
    }
  *seconds = value;
  return TRUE;
}

gboolean
hp_cli_filter_apply (HpCliFilter    *filter,
                     const char     *command,
                     HpCapture      *capture,
                     HpCaptureData **data,
                     GHashTable    **tids)
{
  g_autoptr(GHashTable) set = NULL;
  g_autoptr(GString) description = g_string_new (NULL);
  gdouble from = 0, to = G_MAXDOUBLE;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (data != NULL && *data != NULL, FALSE);
  g_return_val_if_fail (tids != NULL, FALSE);

  if ((filter->from != NULL && !parse_seconds (command, "--from", filter->from, &from)) ||
      (filter->to != NULL && !parse_seconds (command, "--to", filter->to, &to)))
    return FALSE;
  if (from > to)
    {
      hp_cli_error (_("%s: --from %s is after --to %s"), command, filter->from, filter->to);
      return FALSE;
    }
  if (filter->from != NULL || filter->to != NULL)
    {
      /* an import of a format without times has no samples to cut, only
       * counts (schema.sql): a range would silently hold all or none */
      g_autofree char *lacks = hp_capture_get_metadata (capture, HP_META_LACKS);
      g_auto(GStrv) missing = lacks != NULL ? g_strsplit (lacks, ",", -1) : NULL;

      if (missing != NULL && g_strv_contains ((const char * const *) missing, "times"))
        {
          g_autofree char *source = hp_capture_get_metadata (capture, HP_META_SOURCE);
          g_autofree char *safe = hp_text_escape (source != NULL ? source : "another profiler");

          hp_cli_error (_("%s: %s has no sample times (imported from %s): --from and --to cannot select a range"),
                        command, hp_capture_get_path (capture), safe);
          return FALSE;
        }
    }
  if (filter->inline_mode != NULL && g_strcmp0 (filter->inline_mode, "own") != 0 &&
      g_strcmp0 (filter->inline_mode, "fold") != 0)
    {
      g_autofree char *safe = hp_text_escape (filter->inline_mode);

      hp_cli_error (_("%s: --inline must be 'own' or 'fold', not '%s'"), command, safe);
      return FALSE;
    }

  if (filter->event != NULL)
    {
      guint64 mask = hp_cli_event_mask (command, hp_capture_get_path (capture), *data, filter->event);
      HpCaptureData *selected;

      if (mask == 0)
        return FALSE;
      selected = hp_capture_data_select_events (*data, mask);
      hp_capture_data_free (*data);
      *data = selected;
    }
  {
    const char *name, *unit;

    /* what the chosen event counts: the samples of a clock, the weights
     * of every other event (page faults, ns off the CPU, cycles), as the
     * window counts them (hp-measure.c) and perf report does (its event
     * count is the sum of the periods) */
    hp_capture_data_get_event (*data, &name, &unit);
    hp_measure_clear (&filter->measure);
    if (!hp_measure_init (&filter->measure, *data, filter->event != NULL ? filter->event : name))
      hp_measure_init (&filter->measure, *data, NULL);
    filter->weighted = filter->measure.by_weight;
  }

  if (filter->tid != 0 || filter->pid != 0)
    {
      set = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < (*data)->threads->len; i++)
        {
          const HpCaptureThread *t = &g_array_index ((*data)->threads, HpCaptureThread, i);

          if ((filter->tid == 0 || t->tid == filter->tid) && (filter->pid == 0 || t->pid == filter->pid))
            g_hash_table_add (set, GINT_TO_POINTER (t->tid));
        }
      if (g_hash_table_size (set) == 0)
        {
          if (filter->tid != 0 && filter->pid != 0)
            hp_cli_error (_("%s: %s has no thread %d in process %d"), command,
                          hp_capture_get_path (capture), filter->tid, filter->pid);
          else if (filter->tid != 0)
            hp_cli_error (_("%s: %s has no thread %d"), command, hp_capture_get_path (capture), filter->tid);
          else
            hp_cli_error (_("%s: %s has no process %d"), command, hp_capture_get_path (capture), filter->pid);
          return FALSE;
        }
      if (filter->tid != 0)
        g_string_append_printf (description, _("thread %d"), filter->tid);
      else
        g_string_append_printf (description, g_dngettext (GETTEXT_PACKAGE, "process %d (%u thread)", "process %d (%u threads)",
                                                            g_hash_table_size (set)),
                                filter->pid, g_hash_table_size (set));
    }

  if (filter->from != NULL || filter->to != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(HpSampleIndex) index = NULL;
      GArray *samples = hp_capture_load_samples (capture, *data, &error);
      guint64 start, from_ns, to_ns, n;
      GArray *counts;

      if (samples == NULL)
        {
          hp_cli_error ("%s", error->message);
          return FALSE;
        }
      index = hp_sample_index_new (samples);
      start = hp_sample_index_get_start (index);
      from_ns = start + (guint64) (from * 1e9 + 0.5);
      to_ns = to >= (gdouble) (G_MAXUINT64 - start) / 1e9 ? G_MAXUINT64 : start + (guint64) (to * 1e9 + 0.5);
      counts = hp_sample_index_count (index, HP_SAMPLE_INDEX_ALL_EVENTS, from_ns, to_ns, set, &n);
      {
        HpCaptureData *filtered = hp_capture_data_new_with_counts (*data, counts);

        hp_capture_data_free (*data);
        *data = filtered;
      }
      if (description->len > 0)
        g_string_append (description, ", ");
      if (filter->to != NULL)
        g_string_append_printf (description, _("%.3f s to %.3f s after the first sample"), from, to);
      else
        g_string_append_printf (description, _("from %.3f s after the first sample"), from);
    }

  if (filter->merge_recursion)
    {
      HpCaptureData *merged = hp_capture_data_merge_recursion (*data);

      hp_capture_data_free (*data);
      *data = merged;
      g_string_append_printf (description, _("%srecursion merged"), description->len > 0 ? ", " : "");
    }

  if (g_strcmp0 (filter->inline_mode, "fold") == 0)
    {
      HpCaptureData *folded = hp_capture_data_fold_inline (*data);

      hp_capture_data_free (*data);
      *data = folded;
      g_string_append_printf (description, _("%sinlined functions folded into their callers"),
                              description->len > 0 ? ", " : "");
    }

  if (filter->hide_kernel || (filter->fold != NULL && filter->fold[0] != NULL))
    {
      g_autoptr(GHashTable) functions = g_hash_table_new (NULL, NULL);
      g_autoptr(GHashTable) modules = g_hash_table_new (NULL, NULL);
      g_autoptr(GString) what = g_string_new (NULL);
      HpFoldSpec spec = { .hide_kernel = filter->hide_kernel, .functions = functions, .modules = modules };
      HpCaptureData *folded;
      guint64 dropped = 0;

      if (filter->fold != NULL &&
          !resolve_folds (command, *data, (const char * const *) filter->fold, &spec, what))
        return FALSE;
      folded = hp_capture_data_fold (*data, &spec, &dropped);
      hp_capture_data_free (*data);
      *data = folded;
      if (filter->hide_kernel)
        {
          g_autofree char *samples = hp_cli_samples (dropped);

          g_string_append_printf (description, _("%skernel frames hidden (%s in the kernel only left out)"),
                                  description->len > 0 ? ", " : "", samples);
        }
      if (what->len > 0)
        g_string_append_printf (description, _("%s%s folded into their callers"),
                                description->len > 0 ? ", " : "", what->str);
    }

  g_free (filter->description);
  filter->description = description->len > 0 ? g_strdup (description->str) : NULL;
  *tids = g_steal_pointer (&set);
  return TRUE;
}
