/* hp-cli-report.c - hotpath-cli report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text output is for people and says what its numbers measure; the JSON
 * output is a stable contract for scripts:
 *   {"samples": N, "lost": N, "event": "…",
 *    "functions": [{"name", "module", "file", "line", "self", "total"}…]}
 * and with --tree a nested {"name", "module", "self", "total", "children"}.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hp-profile.h"
#include "cli/hp-cli.h"
#include "perf/hp-perf-file.h"
#include "record/hp-perf-import.h"
#include "store/hp-capture.h"

typedef struct {
  HpProfile  *profile;
  HpCapture  *capture;
  GHashTable *summaries;  /* path key -> text */
  guint64     n_samples;
  gdouble     threshold;  /* tree: hide nodes under this share of total, % */
  gint        limit;
  gboolean    by_total;
} Report;

static gdouble
percent (guint64 part,
         guint64 whole)
{
  return whole ? 100.0 * (gdouble) part / (gdouble) whole : 0.0;
}

static void
json_string (GString    *out,
             const char *s)
{
  if (s == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\r': g_string_append (out, "\\r"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static guint64
metadata_u64 (HpCapture  *capture,
              const char *key)
{
  g_autofree char *value = hp_capture_get_metadata (capture, key);

  return value ? g_ascii_strtoull (value, NULL, 10) : 0;
}

static void
print_header (Report *r)
{
  g_autofree char *command = hp_capture_get_metadata (r->capture, "command");
  g_autofree char *event = hp_capture_get_metadata (r->capture, "event");
  g_autofree char *unit = hp_capture_get_metadata (r->capture, "event_unit");
  g_autofree char *freq = hp_capture_get_metadata (r->capture, "frequency");
  g_autofree char *call_graph = hp_capture_get_metadata (r->capture, "call_graph");
  g_autofree char *start = hp_capture_get_metadata (r->capture, "start_time");
  g_autofree char *complete = hp_capture_get_metadata (r->capture, "complete");
  guint64 duration_ns = metadata_u64 (r->capture, "duration_ns");
  guint64 lost = metadata_u64 (r->capture, "lost_samples");
  guint64 truncated = metadata_u64 (r->capture, "truncated_stacks");
  guint64 unresolved = metadata_u64 (r->capture, "unresolved_frames");
  guint64 throttled = metadata_u64 (r->capture, "throttle_events");

  printf ("# Capture:   %s\n", hp_capture_get_path (r->capture));
  printf ("# Command:   %s\n", command ? command : "(unknown)");
  if (start)
    printf ("# Started:   %s\n", start);
  g_autofree char *period = hp_capture_get_metadata (r->capture, "period");
  g_autofree char *rate = NULL;

  /* A recording sampled by period (perf record -c N) has no frequency. */
  if (freq == NULL && period != NULL)
    rate = g_strdup_printf ("every %s %s", period, unit ? unit : "events");
  else
    rate = g_strdup_printf ("at %s Hz", freq ? freq : "?");
  printf ("# Event:     %s (unit: %s), sampled %s, call graph: %s\n",
          event ? event : "(unknown)", unit ? unit : "?", rate,
          call_graph ? call_graph : "?");
  printf ("# Duration:  %.3f s\n", duration_ns / 1e9);
  printf ("# Samples:   %" G_GUINT64_FORMAT " (lost: %" G_GUINT64_FORMAT ", throttled: %" G_GUINT64_FORMAT ")\n",
          r->n_samples, lost, throttled);
  printf ("# Truncated stacks: %" G_GUINT64_FORMAT " (%.1f%%); unresolved frames: %" G_GUINT64_FORMAT "\n",
          truncated, percent (truncated, r->n_samples), unresolved);
  if (g_strcmp0 (complete, "1") != 0)
    printf ("# Note: the recording was cut short; this capture holds what was written until then.\n");
  if (r->n_samples > 0 && percent (truncated, r->n_samples) > 10.0)
    printf ("# Note: many stacks are truncated; callers and totals above them are incomplete.\n");
  if (r->n_samples > 0 && percent (truncated, r->n_samples) > 3.0 && g_strcmp0 (call_graph, "dwarf") == 0)
    {
      g_autofree char *by_copy = hp_capture_get_metadata (r->capture, "truncated_stack_copy");
      guint64 copy_ended = by_copy != NULL ? metadata_u64 (r->capture, "truncated_stack_copy") : truncated;
      guint64 stack_size = metadata_u64 (r->capture, "stack_size");

      /* Only when the copies were too small: more of them does not help
       * a stack cut by a missing file or code without CFI. */
      if (percent (copy_ended, r->n_samples) > 3.0)
        printf ("# Note: %.1f%% of the stacks ended with their stack copy; record with a bigger one, "
                "e.g. --call-graph dwarf,%" G_GUINT64_FORMAT ".\n",
                percent (copy_ended, r->n_samples),
                MIN (MAX (stack_size, 8192) * 4, 65528));
    }
  printf ("#\n");
}

static void
print_functions (Report *r)
{
  const GArray *functions = hp_profile_get_functions (r->profile, r->by_total);
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  guint n = functions->len;

  if (r->limit > 0)
    n = MIN (n, (guint) r->limit);

  printf ("# Functions by %s samples (%s of %" G_GUINT64_FORMAT ")\n",
          r->by_total ? "total" : "self", n == functions->len ? "all" : "top", r->n_samples);
  printf ("%7s %9s %7s %9s  %-40s %s\n", "Self%", "Self", "Total%", "Total", "Function", "Module");
  for (guint i = 0; i < n; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, s->function_id);

      printf ("%6.2f%% %9" G_GUINT64_FORMAT " %6.2f%% %9" G_GUINT64_FORMAT "  %-40s %s\n",
              percent (s->self, r->n_samples), s->self,
              percent (s->total, r->n_samples), s->total,
              f->name, hp_profile_get_module_name (r->profile, s->function_id));
    }
}

static void
json_functions (Report  *r,
                GString *out)
{
  const GArray *functions = hp_profile_get_functions (r->profile, r->by_total);
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  guint n = functions->len;

  if (r->limit > 0)
    n = MIN (n, (guint) r->limit);

  g_string_append (out, "\"functions\": [");
  for (guint i = 0; i < n; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, s->function_id);

      g_string_append (out, i ? ",\n  {" : "\n  {");
      g_string_append (out, "\"name\": ");
      json_string (out, f->name);
      g_string_append (out, ", \"module\": ");
      json_string (out, hp_profile_get_module_name (r->profile, s->function_id));
      g_string_append (out, ", \"file\": ");
      json_string (out, f->file);
      g_string_append_printf (out, ", \"line\": %u, \"self\": %" G_GUINT64_FORMAT ", \"total\": %" G_GUINT64_FORMAT "}",
                              f->line, s->self, s->total);
    }
  g_string_append (out, "\n]");
}

static void
print_tree_node (Report           *r,
                 const HpCallNode *node,
                 GString          *indent)
{
  if (node->function_id != 0)
    {
      g_autofree char *key = hp_call_node_path_key (r->profile, node);
      const char *summary = r->summaries ? g_hash_table_lookup (r->summaries, key) : NULL;

      printf ("%6.2f%% %6.2f%%  %s%s  [%s]\n",
              percent (node->total, r->n_samples), percent (node->self, r->n_samples),
              indent->str, hp_profile_get_function_name (r->profile, node->function_id),
              hp_profile_get_module_name (r->profile, node->function_id));
      if (summary != NULL)
        {
          g_auto(GStrv) lines = g_strsplit (summary, "\n", -1);

          for (guint i = 0; lines[i] != NULL; i++)
            printf ("%16s%s  │ %s\n", "", indent->str, lines[i]);
        }
      g_string_append (indent, "  ");
    }

  if (node->children != NULL)
    for (guint i = 0; i < node->children->len; i++)
      {
        const HpCallNode *child = g_ptr_array_index (node->children, i);

        if (percent (child->total, r->n_samples) < r->threshold)
          continue;
        print_tree_node (r, child, indent);
      }

  if (node->function_id != 0)
    g_string_truncate (indent, indent->len - 2);
}

static void
json_tree_node (Report           *r,
                const HpCallNode *node,
                GString          *out)
{
  gboolean first = TRUE;

  g_string_append (out, "{\"name\": ");
  json_string (out, node->function_id ? hp_profile_get_function_name (r->profile, node->function_id) : "[root]");
  g_string_append (out, ", \"module\": ");
  json_string (out, node->function_id ? hp_profile_get_module_name (r->profile, node->function_id) : NULL);
  g_string_append_printf (out, ", \"self\": %" G_GUINT64_FORMAT ", \"total\": %" G_GUINT64_FORMAT,
                          node->self, node->total);
  if (node->function_id != 0 && r->summaries != NULL)
    {
      g_autofree char *key = hp_call_node_path_key (r->profile, node);
      const char *summary = g_hash_table_lookup (r->summaries, key);

      if (summary != NULL)
        {
          g_string_append (out, ", \"summary\": ");
          json_string (out, summary);
        }
    }
  g_string_append (out, ", \"children\": [");
  if (node->children != NULL)
    for (guint i = 0; i < node->children->len; i++)
      {
        const HpCallNode *child = g_ptr_array_index (node->children, i);

        if (percent (child->total, r->n_samples) < r->threshold)
          continue;
        if (!first)
          g_string_append (out, ", ");
        first = FALSE;
        json_tree_node (r, child, out);
      }
  g_string_append (out, "]}");
}

/* Callers or callees of every function called NAME, merged. */
static gboolean
relations (Report     *r,
           const char *name,
           gboolean    callers,
           gboolean    json,
           GString    *out)
{
  g_autoptr(GArray) ids = hp_profile_find_functions (r->profile, name);

  if (ids->len == 0)
    {
      hp_cli_error ("no function named '%s' in %s", name, hp_capture_get_path (r->capture));
      return FALSE;
    }

  if (json)
    g_string_append_printf (out, "\"%s\": [", callers ? "callers" : "callees");

  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      const HpFunctionStats *stats = hp_profile_get_function_stats (r->profile, id);
      g_autoptr(GArray) edges = callers ? hp_profile_get_callers (r->profile, id)
                                        : hp_profile_get_callees (r->profile, id);
      guint64 total = stats ? stats->total : 0;

      if (json)
        {
          g_string_append (out, i ? ",\n {" : "\n {");
          g_string_append (out, "\"name\": ");
          json_string (out, name);
          g_string_append (out, ", \"module\": ");
          json_string (out, hp_profile_get_module_name (r->profile, id));
          g_string_append_printf (out, ", \"total\": %" G_GUINT64_FORMAT ", \"%s\": [", total,
                                  callers ? "callers" : "callees");
        }
      else
        printf ("# %s of %s [%s] (total %" G_GUINT64_FORMAT " samples, %.2f%%); share of its total samples\n",
                callers ? "Callers" : "Callees", name, hp_profile_get_module_name (r->profile, id),
                total, percent (total, r->n_samples));

      for (guint j = 0; j < edges->len; j++)
        {
          const HpCallEdge *e = &g_array_index (edges, HpCallEdge, j);

          if (json)
            {
              g_string_append (out, j ? ", {" : "{");
              g_string_append (out, "\"name\": ");
              json_string (out, hp_profile_get_function_name (r->profile, e->function_id));
              g_string_append (out, ", \"module\": ");
              json_string (out, hp_profile_get_module_name (r->profile, e->function_id));
              g_string_append_printf (out, ", \"samples\": %" G_GUINT64_FORMAT "}", e->samples);
            }
          else
            printf ("%6.2f%% %9" G_GUINT64_FORMAT "  %s [%s]\n", percent (e->samples, total), e->samples,
                    hp_profile_get_function_name (r->profile, e->function_id),
                    hp_profile_get_module_name (r->profile, e->function_id));
        }
      if (json)
        g_string_append (out, "]}");
      else if (edges->len == 0)
        printf ("  (none: %s)\n", callers ? "it is where the stacks start" : "all its samples are its own");
    }

  if (json)
    g_string_append (out, "\n]");
  return TRUE;
}

int
hp_cli_report (int    argc,
               char **argv)
{
  g_auto(GStrv) files = NULL;
  g_autofree char *sort = NULL;
  g_autofree char *format = NULL;
  g_autofree char *callers = NULL;
  g_autofree char *callees = NULL;
  gboolean tree = FALSE;
  gint limit = -1;
  gdouble threshold = 0.5;
  GOptionEntry entries[] = {
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, "Show the first N functions (text default 30, JSON default all)", "N" },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort, "Rank functions by self or total samples (default self)", "self|total" },
    { "tree", 't', 0, G_OPTION_ARG_NONE, &tree, "Print the top-down call tree", NULL },
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &threshold, "Tree: hide paths under PCT% of samples (default 0.5)", "PCT" },
    { "callers", 0, 0, G_OPTION_ARG_STRING, &callers, "Print the callers of function NAME", "NAME" },
    { "callees", 0, 0, G_OPTION_ARG_STRING, &callees, "Print the callees of function NAME", "NAME" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, "Output format (default text)", "text|json" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE");
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean json;
  Report r = { 0 };

  g_option_context_set_summary (context, "Print what a capture measured.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      hp_cli_error ("report: %s", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      hp_cli_error ("report: give one capture file");
      return 2;
    }
  if (sort != NULL && strcmp (sort, "self") != 0 && strcmp (sort, "total") != 0)
    {
      hp_cli_error ("report: --sort must be self or total, not '%s'", sort);
      return 2;
    }
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      hp_cli_error ("report: --format must be text or json, not '%s'", format);
      return 2;
    }
  json = g_strcmp0 (format, "json") == 0;

  /* A perf.data is imported once into a cached capture, reused while the
   * file is unchanged. */
  if (hp_perf_file_sniff (files[0]))
    {
      g_autoptr(GCancellable) cancellable = hp_cli_cancel_on_signals ();
      g_autofree char *cached = hp_perf_import_cached (files[0], cancellable, &error);

      if (cached == NULL)
        {
          hp_cli_error ("%s", error->message);
          return 1;
        }
      g_free (files[0]);
      files[0] = g_steal_pointer (&cached);
    }

  capture = hp_capture_open (files[0], FALSE, &error);
  if (capture == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  data = hp_capture_load (capture, &error);
  if (data == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  profile = hp_profile_new (data, NULL);

  r.capture = capture;
  r.profile = profile;
  r.n_samples = hp_profile_get_n_samples (profile);
  r.by_total = g_strcmp0 (sort, "total") == 0;
  r.limit = limit >= 0 ? limit : (json ? 0 : 30);
  r.threshold = threshold;
  if (tree)
    r.summaries = hp_capture_list_summaries (capture, NULL);

  if (json)
    {
      g_autofree char *event = hp_capture_get_metadata (capture, "event");

      g_string_append_printf (out, "{\"samples\": %" G_GUINT64_FORMAT ", \"lost\": %" G_GUINT64_FORMAT ", \"event\": ",
                              r.n_samples, metadata_u64 (capture, "lost_samples"));
      json_string (out, event);
      g_string_append_printf (out, ", \"truncated\": %" G_GUINT64_FORMAT ",\n",
                              metadata_u64 (capture, "truncated_stacks"));
      json_functions (&r, out);
      if (tree)
        {
          g_string_append (out, ",\n\"tree\": ");
          json_tree_node (&r, hp_profile_get_top_down (profile), out);
        }
      if (callers != NULL)
        {
          g_string_append (out, ",\n");
          if (!relations (&r, callers, TRUE, TRUE, out))
            return 1;
        }
      if (callees != NULL)
        {
          g_string_append (out, ",\n");
          if (!relations (&r, callees, FALSE, TRUE, out))
            return 1;
        }
      g_string_append (out, "}\n");
      fputs (out->str, stdout);
    }
  else
    {
      print_header (&r);
      if (callers != NULL || callees != NULL)
        {
          if (callers != NULL && !relations (&r, callers, TRUE, FALSE, out))
            return 1;
          if (callees != NULL && !relations (&r, callees, FALSE, FALSE, out))
            return 1;
        }
      else if (tree)
        {
          g_autoptr(GString) indent = g_string_new (NULL);

          printf ("# Call tree, top-down: total%% self%% of %" G_GUINT64_FORMAT " samples (paths under %.1f%% hidden)\n",
                  r.n_samples, r.threshold);
          print_tree_node (&r, hp_profile_get_top_down (profile), indent);
        }
      else
        print_functions (&r);
    }

  g_clear_pointer (&r.summaries, g_hash_table_unref);
  return 0;
}
