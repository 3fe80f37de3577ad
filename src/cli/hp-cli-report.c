/* hp-cli-report.c - hotpath-cli report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Text output is for people and says what its numbers measure; the JSON
 * output is a stable contract for scripts:
 *   {"samples": N, "lost": N, "event": "…", "unit": "…", "truncated": N,
 *    "functions": [{"name", "module", "file", "line", "self", "total",
 *                   "self_weight", "total_weight"}…]}
 * self and total count samples; the weights sum theirs, in "unit".
 * and with --tree a nested {"name", "module", "self", "total", "children"}.
 *
 * Every string a capture holds is untrusted (src/analysis/hp-text.h): the
 * text output escapes control characters so that a name cannot move the
 * cursor, recolour the terminal or start a line of its own, and the JSON
 * is written by hp_json_append_node() from valid UTF-8, so that it always
 * parses.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "store/hp-capture-keys.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "analysis/hp-capture-health.h"
#include "analysis/hp-jit-tiers.h"
#include "analysis/hp-json.h"
#include "analysis/hp-name-match.h"
#include "analysis/hp-profile.h"
#include "analysis/hp-symbol-name.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "document/hp-debug-package.h"
#include "document/hp-format.h"
#include "document/hp-thread-list.h"
#include "perf/hp-perf-file.h"
#include "record/hp-perf-import.h"
#include "record/hp-recorder.h"
#include "store/hp-capture.h"

typedef struct {
  HpProfile  *profile;
  HpCapture  *capture;
  GHashTable *summaries;  /* path key -> text */
  GPtrArray  *escaped;    /* text: strings made by esc(), freed per line */
  guint64     n_samples;  /* what shares are of: samples, or weights when weighted */
  guint64     all_samples; /* in the whole capture, of every event, before --from/--to/--tid/--pid */
  guint64     n_counted;  /* samples, for the header */
  const char *quantity;   /* what n_samples counts: "samples", "ns off CPU", ... */
  const char *event;      /* the event shown, and its unit */
  const char *unit;
  const HpCaptureData *data;
  HpProfile  *sample_profile; /* by samples, whatever profile ranks */
  const char *filter;     /* what --from/--to/--tid/--pid kept, or NULL */
  const HpMeasure *measure; /* what the shown event counts */
  gdouble     threshold;  /* tree: hide nodes under this share of total, % */
  gint        limit;
  gint        asked_limit; /* --limit as given, -1 when not */
  gboolean    by_total;
  HpJitTiers *tiers;      /* NULL when no code ran in a JIT tier */
} Report;

static gdouble
percent (guint64 part,
         guint64 whole)
{
  return whole ? 100.0 * (gdouble) part / (gdouble) whole : 0.0;
}

/* @s escaped for the terminal (hp_text_escape), valid until the next
 * done_line(); @s itself when it needs nothing. NULL gives @fallback. */
static const char *
esc (Report     *r,
     const char *s,
     const char *fallback)
{
  char *escaped;

  if (s == NULL)
    return fallback;
  if (!hp_text_needs_escape (s))
    return s;
  escaped = hp_text_escape (s);
  g_ptr_array_add (r->escaped, escaped);
  return escaped;
}

/* Whether @module is a name perf already brackets ("[kernel.kallsyms]",
 * "[vdso]"), which the report shows as it is rather than in a second pair */
static gboolean
has_brackets (const char *module)
{
  gsize len = module ? strlen (module) : 0;

  return len >= 2 && module[0] == '[' && module[len - 1] == ']';
}

/* @separator then @module escaped as esc() does, in brackets as the report
 * shows modules; nothing for a row of no module ("[truncated]"), rather
 * than an empty pair. Valid until the next done_line(). */
static const char *
bracketed (Report     *r,
           const char *module,
           const char *separator)
{
  const char *shown = esc (r, module, "?");
  char *text;

  if (shown[0] == '\0')
    return "";
  text = has_brackets (shown) ? g_strconcat (separator, shown, NULL) : g_strdup_printf ("%s[%s]", separator, shown);
  g_ptr_array_add (r->escaped, text);
  return text;
}

static void
done_line (Report *r)
{
  g_ptr_array_set_size (r->escaped, 0);
}

/* "1 sample", "12 samples"; in what the report counts ("2000 page
 * faults", "1.500 s off CPU") when it counts weights */
static char *
counted (Report  *r,
         guint64  amount)
{
  g_autofree char *text = hp_format_amount_full (r->profile == r->sample_profile ? NULL : r->measure,
                                                 amount, HP_FORMAT_PLAIN);

  return hp_text_escape (text);
}

static guint64
metadata_u64 (HpCapture  *capture,
              const char *key)
{
  g_autofree char *value = hp_capture_get_metadata (capture, key);

  return value ? g_ascii_strtoull (value, NULL, 10) : 0;
}

/* "signal 11 (SIGSEGV)" for the exit_signal metadata, as
 * hp_capture_health_exit_signal reads it. */
static char *
describe_signal (const char *value)
{
  int signo = hp_capture_health_exit_signal (value);

  if (signo > 0)
    {
      const char *abbrev = hp_capture_health_signal_abbrev (signo);

      if (abbrev != NULL)
        return g_strdup_printf (_("signal %d (SIG%s)"), signo, abbrev);
      return g_strdup_printf (_("signal %d"), signo);
    }
  {
    g_autofree char *escaped = hp_text_escape (value);

    return g_strdup_printf (_("the signal \u201c%s\u201d"), escaped);
  }
}

/* "N % of samples are in code without symbols", in samples (the number
 * of code locations says little on its own: one hot unnamed loop is one
 * location), said once: with the modules that hold most of them, and,
 * where it is worth a note, the -dbgsym packages that would name them. */
static void
print_unsymbolized (Report                *r,
                    const HpCaptureHealth *health)
{
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  guint64 total = 0;
  g_autoptr(GArray) modules = hp_profile_get_unsymbolized (r->profile, &total);
  g_autofree char *packages = NULL;
  g_autoptr(GString) where = g_string_new (NULL);
  const char *quantity = r->profile != r->sample_profile ? esc (r, r->quantity, _("samples")) : NULL;
  double share = percent (total, r->n_samples);
  guint n_main;

  if (health->unresolved == 0 && total == 0)
    {
      printf (_("# Without symbols: none\n"));
      return;
    }
  n_main = hp_unsymbolized_main_modules (modules, r->n_samples);
  for (guint i = 0; i < n_main; i++)
    {
      const HpUnsymbolized *u = &g_array_index (modules, HpUnsymbolized, i);

      g_string_append_printf (where, "%s%s %.1f%%", i ? ", " : "", esc (r, u->module, "?"), percent (u->samples, r->n_samples));
    }
  /* what the recording counted (a capture made elsewhere may not say) */
  if (health->unresolved > 0 && where->len > 0)
    g_string_append (where, "; ");
  if (health->unresolved > 0)
    g_string_append_printf (where, g_dngettext (GETTEXT_PACKAGE, "%" PRIu64 " code location",
                                                "%" PRIu64 " code locations", health->unresolved),
                            health->unresolved);
  if (health->unsymbolized_level != HP_HEALTH_FINE)
    packages = hp_debug_packages_for (data, modules, r->n_samples);

  if (where->len == 0 && quantity != NULL)
    /* Translators: a share, then what is counted ("page faults") */
    printf (_("# Without symbols: %.1f%% of all %s.\n"), share, quantity);
  else if (where->len == 0)
    printf (_("# Without symbols: %.1f%% of samples.\n"), share);
  else if (quantity != NULL && packages != NULL)
    /* Translators: a share, what is counted ("page faults"), the modules
     * with their shares and the number of code locations ("libfoo.so
     * 12.0%; 3 code locations"), then the Debian packages that hold the
     * symbols */
    printf (_("# Without symbols: %.1f%% of all %s (%s); Debian's %s would name it.\n"),
            share, quantity, where->str, esc (r, packages, ""));
  else if (quantity != NULL)
    /* Translators: a share, what is counted ("page faults"), then the
     * modules with their shares and the number of code locations
     * ("libfoo.so 12.0%; 3 code locations") */
    printf (_("# Without symbols: %.1f%% of all %s (%s).\n"), share, quantity, where->str);
  else if (packages != NULL)
    /* Translators: a share, the modules with their shares and the number
     * of code locations ("libfoo.so 12.0%; 3 code locations"), then the
     * Debian packages that hold the symbols */
    printf (_("# Without symbols: %.1f%% of samples (%s); Debian's %s would name it.\n"),
            share, where->str, esc (r, packages, ""));
  else
    /* Translators: a share, then the modules with their shares and the
     * number of code locations ("libfoo.so 12.0%; 3 code locations") */
    printf (_("# Without symbols: %.1f%% of samples (%s).\n"), share, where->str);
}

/* A capture of several processes (a build, a script and its children):
 * which of them the shown samples are in, busiest first, as the window's
 * overview lists them. */
static void
print_processes (Report *r)
{
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  g_autofree guint64 *thread_amounts = NULL;
  g_autoptr(GHashTable) index = NULL;
  g_autoptr(GArray) amounts = NULL;
  g_autoptr(GString) text = NULL;
  guint64 whole = 0;

  if (data->processes->len < 2)
    return;
  index = g_hash_table_new (NULL, NULL);
  thread_amounts = g_new0 (guint64, data->threads->len + 1);
  for (guint i = 0; i < data->threads->len; i++)
    g_hash_table_insert (index, GINT_TO_POINTER (g_array_index (data->threads, HpCaptureThread, i).tid),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (index, GINT_TO_POINTER (c->tid)));

      if (at > 0)
        thread_amounts[at - 1] += r->measure->by_weight ? c->weight : c->samples;
    }
  amounts = hp_process_amounts (data, thread_amounts, &whole);
  if (amounts->len < 2)
    return;
  text = g_string_new (NULL);
  for (guint i = 0; i < amounts->len && i < 8; i++)
    {
      const HpProcessAmount *a = &g_array_index (amounts, HpProcessAmount, i);
      /* one line however long the recorded command, as the overview has it */
      g_autofree char *command = hp_symbol_name_sanitize (a->command ? a->command : "?", -1, 40);

      /* Translators: a process in the report's list: command, pid, share */
      g_string_append_printf (text, _("%s%s (%d) %.1f%%"), i > 0 ? ", " : "",
                              esc (r, command, "?"), a->pid, percent (a->amount, whole));
    }
  if (amounts->len > 8)
    /* Translators: after the busiest processes of the report's list */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", and %u more", ", and %u more", amounts->len - 8),
                            amounts->len - 8);
  /* Translators: a count of processes with samples, then the list of them */
  printf (g_dngettext (GETTEXT_PACKAGE, "# Processes: %u, by share: %s\n", "# Processes: %u, by share: %s\n",
                       amounts->len),
          amounts->len, text->str);
}

static void
print_header (Report *r)
{
  g_autofree char *command = hp_capture_get_metadata (r->capture, HP_META_COMMAND);
  const char *event = r->event;
  const char *unit = r->unit;
  g_autofree char *freq = hp_capture_get_metadata (r->capture, HP_META_FREQUENCY);
  g_autofree char *call_graph = hp_capture_get_metadata (r->capture, HP_META_CALL_GRAPH);
  g_autofree char *start = hp_capture_get_metadata (r->capture, HP_META_START_TIME);
  g_autofree char *exit_signal = hp_capture_get_metadata (r->capture, HP_META_EXIT_SIGNAL);
  g_autofree char *exit_status = hp_capture_get_metadata (r->capture, HP_META_EXIT_STATUS);
  g_autofree char *duration = hp_capture_get_metadata (r->capture, HP_META_DURATION_NS);
  g_autofree char *stop_signal = hp_capture_get_metadata (r->capture, HP_META_STOP_SIGNAL);
  g_autofree char *ended_by_recorder = hp_capture_get_metadata (r->capture, HP_META_ENDED_BY_RECORDER);
  g_autofree char *stopped = hp_capture_health_describe_stop (stop_signal, exit_signal, exit_status,
                                                              ended_by_recorder);
  guint64 throttled = metadata_u64 (r->capture, HP_META_THROTTLE_EVENTS);
  HpCaptureHealth health;
  guint64 lost, truncated;

  hp_capture_health_judge (&health, r->sample_profile, r->all_samples);
  lost = health.lost;
  truncated = health.truncated;

  printf (_("# Capture:   %s\n"), esc (r, hp_capture_get_path (r->capture), "?"));
  printf (_("# Command:   %s\n"), esc (r, command, "(unknown)"));
  if (start)
    printf (_("# Started:   %s\n"), esc (r, start, NULL));
  g_autofree char *period = hp_capture_get_metadata (r->capture, HP_META_PERIOD);
  g_autofree char *rate = NULL;

  guint event_id = event != NULL ? hp_capture_data_find_event (r->data, event) : 0;

  /* the shown event's own rate, when it is one event of several */
  if (event_id != 0 && r->data->events->len > 2)
    {
      const HpCaptureEvent *e = &g_array_index (r->data->events, HpCaptureEvent, event_id);

      g_clear_pointer (&freq, g_free);
      g_clear_pointer (&period, g_free);
      if (e->frequency > 0)
        freq = g_strdup_printf ("%" PRIu64, e->frequency);
      else if (e->period > 0)
        period = g_strdup_printf ("%" PRIu64, e->period);
    }
  /* A recording sampled by period (perf record -c N) has no frequency. */
  if (g_strcmp0 (event, HP_EVENT_OFF_CPU) == 0 || g_strcmp0 (event, HP_EVENT_WALL) == 0)
    /* Translators: after "# Event:     off-cpu (unit: ns), sampled " */
    rate = g_strdup (_("at every switch off the CPU, weighted by the time away"));
  else if (freq == NULL && period != NULL)
    rate = g_strdup_printf (_("every %s %s"), esc (r, period, NULL), esc (r, unit, "events"));
  else if (freq != NULL)
    rate = g_strdup_printf (_("at %s Hz"), esc (r, freq, NULL));
  else
    /* not said, or not a rate (hp_capture_get_metadata) */
    rate = g_strdup (_("at an unknown rate"));
  printf (_("# Event:     %s (unit: %s), sampled %s, call graph: %s\n"),
          esc (r, event, "(unknown)"), esc (r, unit, "?"), rate,
          esc (r, call_graph, "?"));
  done_line (r);
  if (duration != NULL)
    printf (_("# Duration:  %.3f s\n"), g_ascii_strtoull (duration, NULL, 10) / 1e9);
  else if (r->data->last_time > r->data->first_time)
    /* cut short before the end wrote its length: what the samples span */
    printf (_("# Duration:  %.3f s, from its first sample to its last (the recording was cut short)\n"),
            (r->data->last_time - r->data->first_time) / 1e9);
  else
    printf (_("# Duration:  unknown\n"));
  if (r->filter != NULL)
    printf (_("# Filter:    %s\n"), r->filter);
  if (r->filter != NULL)
    printf (_("# Samples:   %" PRIu64 " in the filter (lost: %" PRIu64 ", throttled: %" PRIu64 ")\n"),
            r->n_counted, lost, throttled);
  else
    printf (_("# Samples:   %" PRIu64 " (lost: %" PRIu64 ", throttled: %" PRIu64 ")\n"),
            r->n_counted, lost, throttled);
  print_processes (r);
  if (r->data->events->len > 2)
    {
      g_autoptr(GString) others = g_string_new (NULL);

      for (guint i = 1; i < r->data->events->len; i++)
        g_string_append_printf (others, "%s%s", i > 1 ? ", " : "",
                                g_array_index (r->data->events, HpCaptureEvent, i).name);
      printf (_("# Events:    %s (choose with --event)\n"), esc (r, others->str, "?"));
    }
  printf (_("# Truncated stacks: %" PRIu64 " (%.1f%%)\n"), truncated, percent (truncated, r->all_samples));
  print_unsymbolized (r, &health);
  {
    g_auto(GStrv) notes = hp_capture_health_symbol_notes (&health);

    /* why some code has no names: a capture's text, escaped like all of it */
    for (guint i = 0; notes[i] != NULL && i < 16; i++)
      printf (_("# Note: %s\n"), esc (r, notes[i], NULL));
  }
  if (stopped != NULL)
    printf (_("# Note: %s\n"), stopped);
  else if (exit_signal != NULL)
    {
      g_autofree char *signal = describe_signal (exit_signal);

      printf (_("# Note: the program was killed by %s; the profile ends there.\n"), signal);
    }
  else if (exit_status != NULL && g_ascii_strtoll (exit_status, NULL, 10) != 0)
    printf (_("# Note: the program exited with status %" PRId64 ".\n"),
            g_ascii_strtoll (exit_status, NULL, 10));
  {
    g_autofree char *source = hp_capture_get_metadata (r->capture, HP_META_SOURCE);
    g_autofree char *lacks = hp_capture_get_metadata (r->capture, HP_META_LACKS);

    /* an import from a format that holds less than a recording */
    if (lacks != NULL)
      {
        g_auto(GStrv) parts = g_strsplit (lacks, ",", -1);
        g_autofree char *list = g_strjoinv (", ", parts);

        printf (_("# Note: imported from %s, which has no %s: what needs them is empty.\n"),
                esc (r, source, "another format"), esc (r, list, NULL));
      }
  }
  if (health.cut_short)
    printf (_("# Note: the recording was cut short; this capture holds what was written until then.\n"));
  if (health.counts_summed)
    printf (_("# Note: the capture is marked finished, but its totals (table stack_counts) are empty; "
              "the counts here are its samples, summed.\n"));
  if (health.lost_many)
    printf (_("# Note: %.1f%% of the samples were lost; the shares may be biased toward the time before the losses.\n"),
            percent (lost, r->all_samples + lost));
  if (health.truncated_many)
    printf (_("# Note: many stacks are truncated; callers and totals above them are incomplete.\n"));
  if (health.truncated_at_jit > 0)
    {
      g_autofree char *advice = hp_capture_health_jit_advice (&health);

      printf (g_dngettext (GETTEXT_PACKAGE,
                           "# Note: %" PRIu64 " of the truncated stacks was cut at code compiled at run time. %s\n",
                           "# Note: %" PRIu64 " of the truncated stacks were cut at code compiled at run time. %s\n",
                           health.truncated_at_jit),
              health.truncated_at_jit, advice);
    }
  {
    g_autofree char *advice = hp_capture_health_jit_name_advice (&health);

    if (advice != NULL)
      printf (_("# Note: %s\n"), advice);
  }
  if (health.stack_copy_small)
    {
      guint64 bigger = hp_record_bigger_stack_size (metadata_u64 (r->capture, HP_META_STACK_SIZE));

      if (bigger > 0)
        printf (_("# Note: %.1f%% of the stacks ended with their stack copy; record with a bigger one, "
                "e.g. --call-graph dwarf,%" PRIu64 ".\n"),
                percent (health.stack_copy_ended, r->all_samples), bigger);
      else
        printf (_("# Note: %.1f%% of the stacks ended with their stack copy, already the largest the kernel "
                "allows (%d bytes): they are deeper than any copy holds.\n"),
                percent (health.stack_copy_ended, r->all_samples), HP_RECORD_MAX_STACK_SIZE);
    }
  printf ("#\n");
}

/* Which tier the listed run-time compiled functions ran in: one row per
 * function above, so say here how each one's samples split. */
static void
print_tiers (Report       *r,
             const GArray *functions,
             guint         n)
{
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  gboolean first = TRUE;

  for (guint i = 0; i < n && r->tiers != NULL; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, s->function_id);
      guint64 samples[HP_N_JIT_TIERS], sum = 0;
      const char *sep = "";

      if (!hp_jit_tiers_get (r->tiers, s->function_id, samples, NULL))
        continue;
      for (guint t = 0; t < HP_N_JIT_TIERS; t++)
        sum += samples[t];
      if (sum == 0)
        continue;
      if (first)
        printf (_("#\n# Compiled at run time: the share of each function's samples per tier\n"));
      first = FALSE;
      printf ("  %-40s ", esc (r, f->name, "?"));
      /* the most optimized tier first */
      for (int t = HP_N_JIT_TIERS - 1; t >= 0; t--)
        if (samples[t] > 0)
          {
            printf ("%s%s %.1f%%", sep, hp_jit_tier_get_name (t), percent (samples[t], sum));
            sep = ", ";
          }
      printf ("\n");
      done_line (r);
    }
}

static void
print_functions (Report *r)
{
  const GArray *functions = hp_profile_get_functions (r->profile, r->by_total);
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  guint n = functions->len;
  /* as wide as the largest count: a weight may be ns or cycles */
  g_autofree char *largest = g_strdup_printf ("%" PRIu64, r->n_samples);
  int width = MAX (9, (int) strlen (largest));
  /* [counted in a unit][by total][all of them] */
  static const char * const headings[2][2][2] = {
    /* Translators: "# Functions by self samples (top of 1234)" */
    { { N_("# Functions by self %s (top of %" PRIu64 ")\n"), N_("# Functions by self %s (all of %" PRIu64 ")\n") },
      { N_("# Functions by total %s (top of %" PRIu64 ")\n"), N_("# Functions by total %s (all of %" PRIu64 ")\n") } },
    /* counted in a unit: say what the shares are of, and in how many samples */
    /* Translators: "# Functions by self ns off CPU (top; shares of all 52 ns off CPU, in 3 samples)" */
    { { N_("# Functions by self %s (top; shares of all %" PRIu64 " %s, in %" PRIu64 " samples)\n"),
        N_("# Functions by self %s (all; shares of all %" PRIu64 " %s, in %" PRIu64 " samples)\n") },
      { N_("# Functions by total %s (top; shares of all %" PRIu64 " %s, in %" PRIu64 " samples)\n"),
        N_("# Functions by total %s (all; shares of all %" PRIu64 " %s, in %" PRIu64 " samples)\n") } },
  };
  gboolean in_unit = r->profile != r->sample_profile;
  const char *quantity = esc (r, r->quantity, _("samples"));

  if (r->limit > 0)
    n = MIN (n, (guint) r->limit);

  /* the arguments past those of its format are not read */
  printf (_(headings[in_unit][r->by_total][n == functions->len]), quantity, r->n_samples, quantity, r->n_counted);
  /* Translators: the columns of the report's table: 7 characters at most for "Self%" and "Total%" */
  printf ("%7s %*s %7s %*s  %-40s %s\n", _("Self%"), width, _("Self"), _("Total%"), width, _("Total"),
          _("Function"), _("Module"));
  for (guint i = 0; i < n; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, s->function_id);

      const char *name = esc (r, f->name, "?");
      /* Padded to 40 characters, not bytes. */
      int pad = 40 - (int) MIN (g_utf8_strlen (name, -1), 40);

      printf ("%6.2f%% %*" PRIu64 " %6.2f%% %*" PRIu64 "  %s%*s %s\n",
              percent (s->self, r->n_samples), width, s->self,
              percent (s->total, r->n_samples), width, s->total,
              name, pad, "",
              esc (r, hp_profile_get_module_name (r->profile, s->function_id), "?"));
      done_line (r);
    }
  print_tiers (r, functions, n);
}

/* "tiers": {"optimized": {"self": N, "total": N}, ...} for run-time
 * compiled code: samples in and through the function in each tier */
static void
json_tiers (Report      *r,
            gint64       function_id,
            JsonBuilder *b)
{
  guint64 total[HP_N_JIT_TIERS], self[HP_N_JIT_TIERS];

  if (!hp_jit_tiers_get (r->tiers, function_id, total, self))
    return;
  json_builder_set_member_name (b, "tiers");
  json_builder_begin_object (b);
  for (guint t = 0; t < HP_N_JIT_TIERS; t++)
    if (total[t] > 0)
      {
        json_builder_set_member_name (b, hp_jit_tier_get_name (t));
        json_builder_begin_object (b);
        hp_json_add_count (b, "self", self[t]);
        hp_json_add_count (b, "total", total[t]);
        json_builder_end_object (b);
      }
  json_builder_end_object (b);
}

static void
json_functions (Report      *r,
                HpProfile   *weights,
                JsonBuilder *b)
{
  const GArray *functions = hp_profile_get_functions (r->profile, r->by_total);
  const HpCaptureData *data = hp_profile_get_data (r->profile);
  guint n = functions->len;

  if (r->limit > 0)
    n = MIN (n, (guint) r->limit);

  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const HpFunctionStats *s = &g_array_index (functions, HpFunctionStats, i);
      const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, s->function_id);

      json_builder_begin_object (b);
      hp_json_add_string (b, "name", f->name);
      hp_json_add_string (b, "module", hp_profile_get_module_name (r->profile, s->function_id));
      hp_json_add_string (b, "file", f->file);
      hp_json_add_count (b, "line", f->line);
      hp_json_add_count (b, "self", s->self);
      hp_json_add_count (b, "total", s->total);
      if (weights != NULL)
        {
          const HpFunctionStats *w = hp_profile_get_function_stats (weights, s->function_id);

          hp_json_add_count (b, "self_weight", w != NULL ? w->self : 0);
          hp_json_add_count (b, "total_weight", w != NULL ? w->total : 0);
        }
      json_tiers (r, s->function_id, b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* The text tree indents a level by two spaces up to this depth, and then
 * says the depth instead: the indentation of a stack 100 000 calls deep
 * would be 10^10 bytes of spaces. */
#define MAX_INDENT_DEPTH 64

typedef void (*TreeVisit) (Report           *r,
                           const HpCallNode *node,
                           guint             depth,
                           const char       *summary,
                           gpointer          data);

typedef struct {
  const HpCallNode *node;
  guint             next;     /* the next child to look at */
  gsize             key_len;  /* the path key's length without this node */
} TreeStep;

/* Walks the top-down tree depth first, children by total, leaving out
 * those under the threshold: @enter on each node (the root at depth 0)
 * with its summary, @leave after its children. A loop, not recursion, and
 * each node's path key made from its parent's: a stack is as deep as the
 * capture makes it, and a recursion or a key per node from the root was
 * a crash or quadratic time at 100 000 calls deep. */
static void
walk_tree (Report    *r,
           TreeVisit  enter,
           TreeVisit  leave,
           gpointer   data)
{
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (TreeStep));
  g_autoptr(GString) key = g_string_new (NULL);
  gboolean keys = r->summaries != NULL && g_hash_table_size (r->summaries) > 0;
  TreeStep root = { hp_profile_get_top_down (r->profile), 0, 0 };

  enter (r, root.node, 0, NULL, data);
  g_array_append_val (stack, root);
  while (stack->len > 0)
    {
      TreeStep *top = &g_array_index (stack, TreeStep, stack->len - 1);
      const HpCallNode *node = top->node;
      const HpCallNode *child = NULL;
      TreeStep step;
      const char *summary = NULL;

      while (child == NULL && node->children != NULL && top->next < node->children->len)
        {
          const HpCallNode *c = g_ptr_array_index (node->children, top->next++);

          if (percent (c->total, r->n_samples) >= r->threshold)
            child = c;
        }
      if (child == NULL)
        {
          g_string_truncate (key, top->key_len);
          leave (r, node, stack->len - 1, NULL, data);
          g_array_set_size (stack, stack->len - 1);
          continue;
        }
      step.node = child;
      step.next = 0;
      step.key_len = key->len;
      if (keys)
        {
          g_string_append (key, hp_profile_get_module_name (r->profile, child->function_id));
          g_string_append_c (key, '\t');
          g_string_append (key, hp_profile_get_function_name (r->profile, child->function_id));
          g_string_append_c (key, '\n');
          summary = g_hash_table_lookup (r->summaries, key->str);
        }
      enter (r, child, stack->len, summary, data);
      g_array_append_val (stack, step);
    }
}

static void
print_tree_enter (Report           *r,
                  const HpCallNode *node,
                  guint             depth,
                  const char       *summary,
                  gpointer          data)
{
  GString *indent = data;
  char shown[32] = "";

  if (node->function_id == 0)
    return;
  g_string_truncate (indent, 0);
  for (guint i = 1; i < depth && i <= MAX_INDENT_DEPTH; i++)
    g_string_append (indent, "  ");
  if (depth > MAX_INDENT_DEPTH)
    g_snprintf (shown, sizeof shown, "[depth %u] ", depth);

  printf ("%6.2f%% %6.2f%%  %s%s%s%s\n",
          percent (node->total, r->n_samples), percent (node->self, r->n_samples),
          indent->str, shown, esc (r, hp_profile_get_function_name (r->profile, node->function_id), "?"),
          bracketed (r, hp_profile_get_module_name (r->profile, node->function_id), "  "));
  done_line (r);
  if (summary != NULL)
    {
      /* A summary has lines of its own; each is escaped like a name. */
      g_auto(GStrv) lines = g_strsplit (summary, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          printf ("%16s%s  │ %s\n", "", indent->str, esc (r, lines[i], ""));
          done_line (r);
        }
    }
}

static void
print_tree_leave (Report           *r,
                  const HpCallNode *node,
                  guint             depth,
                  const char       *summary,
                  gpointer          data)
{
}

/* The JSON tree is written as it is walked, never built as a JsonNode
 * tree: json-glib frees one by recursion, which crashed at 100 000 levels. */
static void
json_tree_enter (Report           *r,
                 const HpCallNode *node,
                 guint             depth,
                 const char       *summary,
                 gpointer          data)
{
  HpJsonWriter *w = data;

  hp_json_writer_begin_object (w);
  hp_json_writer_member (w, "name");
  hp_json_writer_string (w, node->function_id ? hp_profile_get_function_name (r->profile, node->function_id) : "[root]");
  hp_json_writer_member (w, "module");
  hp_json_writer_string (w, node->function_id ? hp_profile_get_module_name (r->profile, node->function_id) : NULL);
  hp_json_writer_member (w, "self");
  hp_json_writer_count (w, node->self);
  hp_json_writer_member (w, "total");
  hp_json_writer_count (w, node->total);
  if (summary != NULL)
    {
      hp_json_writer_member (w, "summary");
      hp_json_writer_string (w, summary);
    }
  hp_json_writer_member (w, "children");
  hp_json_writer_begin_array (w);
}

static void
json_tree_leave (Report           *r,
                 const HpCallNode *node,
                 guint             depth,
                 const char       *summary,
                 gpointer          data)
{
  HpJsonWriter *w = data;

  hp_json_writer_end_array (w);
  hp_json_writer_end_object (w);
}

/* The members of @object, without its braces. */
static void
json_write_members (HpJsonWriter *w,
                    JsonNode     *object)
{
  g_autoptr(GList) members = json_object_get_members (json_node_get_object (object));

  for (GList *l = members; l != NULL; l = l->next)
    {
      hp_json_writer_member (w, l->data);
      hp_json_writer_node (w, json_object_get_member (json_node_get_object (object), l->data));
    }
}

/* The functions that NAME stands for (hp-name-match.c), or NULL after
 * saying why none: no match (with close names), or several different
 * ones by a loose rule (listed, for the user to choose). Before anything
 * is printed, so that a failed lookup prints no half report. */
static GArray *
resolve_name (Report     *r,
              const char *name)
{
  HpNameMatch how = HP_NAME_MATCH_NONE;
  g_autoptr(GArray) ids = hp_profile_match_functions (r->profile, name, &how);
  g_autoptr(GHashTable) distinct = g_hash_table_new (g_str_hash, g_str_equal);

  /* A name that is not UTF-8 may be held with U+FFFD in its place. */
  if (ids->len == 0 && !g_utf8_validate (name, -1, NULL))
    {
      g_autofree char *valid = hp_text_make_valid (name);

      g_clear_pointer (&ids, g_array_unref);
      ids = hp_profile_match_functions (r->profile, valid, &how);
    }

  if (ids->len == 0)
    {
      g_autoptr(GPtrArray) close = hp_profile_suggest_functions (r->profile, name, 12);
      g_autoptr(GPtrArray) shown = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GString) names = g_string_new (NULL);

      /* as they can be typed: C++ names without their parameter lists,
       * each once (overloads and template instances share one) */
      for (guint i = 0; i < close->len && shown->len < 5; i++)
        {
          char *bare = hp_name_strip_parameters (g_ptr_array_index (close, i));

          if (g_ptr_array_find_with_equal_func (shown, bare, g_str_equal, NULL))
            g_free (bare);
          else
            g_ptr_array_add (shown, bare);
        }
      for (guint i = 0; i < shown->len; i++)
        /* Translators: joins the last two of the names a misspelt one may
         * mean, as in "'parse', 'parse_args' or 'parser'" */
        g_string_append_printf (names, "%s'%s'", i == 0 ? "" : i + 1 == shown->len ? _(" or ") : ", ",
                                (char *) g_ptr_array_index (shown, i));
      if (shown->len > 0)
        /* Translators: a name, a capture file, then names in quotes */
        hp_cli_error (_("no function named '%s' in %s; did you mean %s?"), name, hp_capture_get_path (r->capture),
                      names->str);
      else
        hp_cli_error (_("no function named '%s' in %s"), name, hp_capture_get_path (r->capture));
      return NULL;
    }

  for (guint i = 0; i < ids->len; i++)
    g_hash_table_add (distinct, (gpointer) hp_profile_get_function_name (r->profile, g_array_index (ids, gint64, i)));
  /* a loose rule that finds several different functions: ask which */
  if (how >= HP_NAME_MATCH_NO_PARAMS && g_hash_table_size (distinct) > 1)
    {
      g_autoptr(GHashTable) short_names = hp_cli_short_names_new ();
      g_autoptr(GArray) listed = g_array_new (FALSE, FALSE, sizeof (gint64));
      guint n = g_hash_table_size (distinct), shown;

      /* one line per function, hottest first (as ids come), by the
       * shortest name that finds it again: a long list of C++ template
       * instances is read, not scrolled; --limit N shows more */
      g_hash_table_remove_all (distinct);
      for (guint i = 0; i < ids->len; i++)
        {
          gint64 id = g_array_index (ids, gint64, i);
          const char *found = hp_profile_get_function_name (r->profile, id);

          if (!g_hash_table_contains (distinct, found))
            {
              g_hash_table_add (distinct, (gpointer) found);
              g_array_append_val (listed, id);
            }
        }
      shown = hp_cli_listing_size (r->asked_limit, listed->len);
      hp_cli_error (g_dngettext (GETTEXT_PACKAGE, "'%s' matches %u function; give one of them (as listed, or a glob):",
                                 "'%s' matches %u functions; give one of them (as listed, or a glob):", n),
                    name, n);
      for (guint i = 0; i < shown; i++)
        {
          gint64 id = g_array_index (listed, gint64, i);
          const HpFunctionStats *stats = hp_profile_get_function_stats (r->profile, id);

          /* each line escaped on its own by hp_cli_error() */
          const char *module = hp_profile_get_module_name (r->profile, id);
          gboolean own = has_brackets (module);

          hp_cli_error ("  %5.1f%%  %s %s%s%s", percent (stats ? stats->total : 0, r->n_samples),
                        hp_cli_short_name (r->profile, id, short_names),
                        own ? "" : "[", module ? module : "?", own ? "" : "]");
        }
      if (listed->len > shown)
        hp_cli_error (g_dngettext (GETTEXT_PACKAGE, "  … and %u more (--limit N lists N)", "  … and %u more (--limit N lists N)",
                                   listed->len - shown),
                      listed->len - shown);
      return NULL;
    }
  return g_steal_pointer (&ids);
}

/* Callers or callees of the functions @ids, merged: in JSON (@b not
 * NULL) as the member "callers"/"callees", else as text. */
static void
relations (Report       *r,
           const GArray *ids,
           gboolean      callers,
           JsonBuilder  *b)
{
  const char *what = callers ? "callers" : "callees";

  if (b != NULL)
    {
      json_builder_set_member_name (b, what);
      json_builder_begin_array (b);
    }

  for (guint i = 0; i < ids->len; i++)
    {
      gint64 id = g_array_index (ids, gint64, i);
      const HpFunctionStats *stats = hp_profile_get_function_stats (r->profile, id);
      g_autoptr(GArray) edges = callers ? hp_profile_get_callers (r->profile, id)
                                        : hp_profile_get_callees (r->profile, id);
      guint64 total = stats ? stats->total : 0;

      if (b != NULL)
        {
          json_builder_begin_object (b);
          hp_json_add_string (b, "name", hp_profile_get_function_name (r->profile, id));
          hp_json_add_string (b, "module", hp_profile_get_module_name (r->profile, id));
          hp_json_add_count (b, "total", total);
          json_builder_set_member_name (b, what);
          json_builder_begin_array (b);
        }
      else
        {
          const char *quantity = esc (r, r->quantity, _("samples"));
          g_autofree char *amount = counted (r, total);

          /* Translators: the first two %s are a function and its module
           * with its leading space (" [libc.so.6]"; nothing for a row of
           * no module, "[truncated]") */
          printf (callers ? _("# Callers of %s%s (total %s, %.2f%% of all %s); share of its total %s\n")
                          : _("# Callees of %s%s (total %s, %.2f%% of all %s); share of its total %s\n"),
                  esc (r, hp_profile_get_function_name (r->profile, id), "?"),
                  bracketed (r, hp_profile_get_module_name (r->profile, id), " "),
                  amount, percent (total, r->n_samples), quantity, quantity);
          done_line (r);
        }

      for (guint j = 0; j < edges->len && (r->limit <= 0 || j < (guint) r->limit); j++)
        {
          const HpCallEdge *e = &g_array_index (edges, HpCallEdge, j);

          if (b != NULL)
            {
              json_builder_begin_object (b);
              hp_json_add_string (b, "name", hp_profile_get_function_name (r->profile, e->function_id));
              hp_json_add_string (b, "module", hp_profile_get_module_name (r->profile, e->function_id));
              hp_json_add_count (b, "samples", e->samples);
              json_builder_end_object (b);
            }
          else
            {
              printf ("%6.2f%% %9" PRIu64 "  %s%s\n", percent (e->samples, total), e->samples,
                      esc (r, hp_profile_get_function_name (r->profile, e->function_id), "?"),
                      bracketed (r, hp_profile_get_module_name (r->profile, e->function_id), " "));
              done_line (r);
            }
        }
      if (b != NULL)
        {
          json_builder_end_array (b);
          json_builder_end_object (b);
        }
      else if (edges->len == 0)
        printf ("%s\n", callers ? _("  (none: it is where the stacks start)") : _("  (none: all its samples are its own)"));
    }

  if (b != NULL)
    json_builder_end_array (b);
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
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Show the first N functions (text default 30, JSON default all)"), N_("N") },
    { "sort", 's', 0, G_OPTION_ARG_STRING, &sort, N_("Rank functions by self or total samples (default self)"), N_("self|total") },
    { "tree", 't', 0, G_OPTION_ARG_NONE, &tree, N_("Print the top-down call tree"), NULL },
    /* xgettext:no-c-format */
    { "threshold", 0, 0, G_OPTION_ARG_DOUBLE, &threshold, N_("Tree: hide paths under PCT% of samples (default 0.5)"), N_("PCT") },
    /* Names as bytes, whatever the locale: they are matched against the
     * capture's names, not shown. */
    { "callers", 0, 0, G_OPTION_ARG_FILENAME, &callers, N_("Print the callers of function NAME"), N_("NAME") },
    { "callees", 0, 0, G_OPTION_ARG_FILENAME, &callees, N_("Print the callees of function NAME"), N_("NAME") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("Output format (default text)"), N_("text|json") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("CAPTURE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpCaptureData) weighted = NULL;
  g_autoptr(HpProfile) weights = NULL;
  g_autofree char *quantity = NULL;
  g_autoptr(HpJitTiers) tiers = NULL;
  g_autoptr(GPtrArray) escaped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) summaries = NULL;
  g_auto(HpCliFilter) filter = { 0 };
  g_autoptr(GHashTable) tids = NULL;
  g_autoptr(GArray) caller_ids = NULL;
  g_autoptr(GArray) callee_ids = NULL;
  gboolean json;
  Report r = { 0 };

  g_option_context_set_summary (context,
                                N_("Print what a capture measured.\n\n"
                                "Examples:\n"
                                "  hotpath-cli report app.hotpath\n"
                                "  hotpath-cli report app.hotpath --sort total --limit 10\n"
                                "  hotpath-cli report app.hotpath --callers memcpy      # aliases and globs: 'parse*'\n"
                                "  hotpath-cli report perf.data --inline fold           # counts as perf report --sort sym"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  hp_cli_filter_add_options (&filter, context);
  if (!hp_cli_parse_one_file (context, "report", &argc, &argv, &files,
                              "give one capture file"))
    return 2;
  if (sort != NULL && strcmp (sort, "self") != 0 && strcmp (sort, "total") != 0)
    {
      hp_cli_error (_("report: --sort must be self or total, not '%s'"), sort);
      return 2;
    }
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      hp_cli_error (_("report: --format must be text or json, not '%s'"), format);
      return 2;
    }
  json = g_strcmp0 (format, "json") == 0;

  if (!hp_cli_load_capture (files[0], &capture, &data))
    return 1;
  r.all_samples = hp_capture_data_count_all_samples (data);
  if (!hp_cli_filter_apply (&filter, "report", capture, &data, &tids))
    return 1;
  profile = hp_profile_new (data, tids);
  /* weights: for the JSON's self_weight and total_weight, and what the
   * text ranks by when samples weigh differently (off-CPU time) */
  if (json || filter.weighted)
    {
      weighted = hp_capture_data_new_weighted (data);
      weights = hp_profile_new (weighted, tids);
    }

  r.capture = capture;
  r.data = data;
  hp_capture_data_get_event (data, &r.event, &r.unit);
  r.profile = profile;
  r.sample_profile = profile;
  r.escaped = escaped;
  r.n_samples = hp_profile_get_n_samples (profile);
  r.n_counted = r.n_samples;
  r.quantity = _("samples");
  /* an event whose samples weigh differently (page faults sampled every
   * N, ns off the CPU): the text counts what the user asked to count, as
   * perf report counts periods; the JSON's self and total stay samples */
  if (filter.weighted && !json)
    {
      r.profile = weights;
      r.n_samples = hp_profile_get_n_samples (weights);
      r.quantity = quantity = hp_format_measure_name_full (&filter.measure, HP_FORMAT_PLAIN);
    }
  r.filter = filter.description;
  r.measure = &filter.measure;
  r.tiers = tiers = hp_jit_tiers_new (data, tids);
  r.by_total = g_strcmp0 (sort, "total") == 0;
  r.limit = limit >= 0 ? limit : (json ? 0 : 30);
  r.asked_limit = limit;
  r.threshold = threshold;
  if (tree)
    {
      r.summaries = summaries = hp_capture_list_summaries (capture, NULL);
      hp_cli_note_summaries_cut (capture);
    }
  if (callers != NULL && (caller_ids = resolve_name (&r, callers)) == NULL)
    return 1;
  if (callees != NULL && (callee_ids = resolve_name (&r, callees)) == NULL)
    return 1;

  if (json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonBuilder) tail = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(JsonNode) after = NULL;
      g_autoptr(GString) out = g_string_new (NULL);
      HpJsonWriter w;

      json_builder_begin_object (b);
      hp_json_add_count (b, "samples", r.n_samples);
      hp_json_add_count (b, "lost", metadata_u64 (capture, HP_META_LOST_SAMPLES));
      hp_json_add_string (b, "event", r.event);
      hp_json_add_string (b, "unit", r.unit);
      hp_json_add_count (b, "truncated", metadata_u64 (capture, HP_META_TRUNCATED_STACKS));
      json_functions (&r, weights, b);
      json_builder_end_object (b);
      json_builder_begin_object (tail);
      if (caller_ids != NULL)
        relations (&r, caller_ids, TRUE, tail);
      if (callee_ids != NULL)
        relations (&r, callee_ids, FALSE, tail);
      json_builder_end_object (tail);

      root = json_builder_get_root (b);
      after = json_builder_get_root (tail);
      hp_json_writer_init (&w, out);
      hp_json_writer_begin_object (&w);
      json_write_members (&w, root);
      if (tree)
        {
          hp_json_writer_member (&w, "tree");
          walk_tree (&r, json_tree_enter, json_tree_leave, &w);
        }
      json_write_members (&w, after);
      hp_json_writer_end_object (&w);
      g_string_append_c (out, '\n');
      fwrite (out->str, 1, out->len, stdout);
    }
  else
    {
      print_header (&r);
      if (callers != NULL || callees != NULL)
        {
          if (caller_ids != NULL)
            relations (&r, caller_ids, TRUE, NULL);
          if (callee_ids != NULL)
            relations (&r, callee_ids, FALSE, NULL);
        }
      else if (tree)
        {
          g_autoptr(GString) indent = g_string_new (NULL);

          g_autofree char *amount = counted (&r, r.n_samples);

          printf (_("# Call tree, top-down: total%% self%% of %s%s (paths under %.1f%% hidden)\n"),
                  r.profile != r.sample_profile ? "all " : "", amount, r.threshold);
          walk_tree (&r, print_tree_enter, print_tree_leave, indent);
        }
      else
        print_functions (&r);
    }

  return 0;
}
