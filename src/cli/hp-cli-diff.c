/* hp-cli-diff.c - hotpath-cli diff: what got slower or faster between captures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each side is a capture or a folder of captures (repeated runs). The text
 * output is for people: what was compared, with which method and what it
 * can and cannot detect, then the functions and call paths ordered by
 * significance and size. The JSON output is a stable contract:
 *   {"base": {"captures": N, "samples": N, …}, "new": {…},
 *    "functions": [{"name", "module", "base", "new", "change", "low",
 *                   "high", "q", "verdict", …, "total": {…}}],
 *    "renames": [{"removed", "added", "module", "base", …, "total": {…}}],
 *    "paths": [{"path", "key", "name", "module", "base", …}]}
 * base/new are mean event units per run, change/low/high percent (null
 * when base is 0, or the interval unbounded), verdict one of "slower",
 * "faster", "unchanged", "negligible" (its difference lies within the
 * floor, whatever its change in percent), "unresolved". A rename is a function only in the
 * base and one only in the new runs taken as one renamed function (same
 * module, callers and callees; hp_comparison_get_renames()), compared as
 * one; --fail-on-regression goes by its verdict, not by its new name's.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/hp-compare.h"
#include "analysis/hp-json.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "document/hp-format.h"
#include "store/hp-capture-keys.h"
#include "perf/hp-perf-file.h"
#include "record/hp-perf-import.h"

/* Exit status of --fail-on-regression when something is slower: apart
 * from 1 (an error) and 2 (a usage error). */
#define EXIT_REGRESSION 3

/* Text from a capture (function names come from the profiled program's
 * symbols, commands from its command line) for the terminal. */
static char *
printable (const char *text)
{
  return hp_text_escape (text ? text : "");
}

/* A cost in event units, readable: "12.300 ms" for ns, as every
 * time the CLI writes (hp-format's plain form), "1.24 G cycles". A
 * count is a mean per run, often not whole, and its column is 11
 * characters wide: four significant digits and a k, M or G, which the
 * plain form's whole counts do not have. */
static char *
format_cost (double      value,
             const char *unit)
{
  double a = fabs (value);

  if (value == 1.0 && g_strcmp0 (unit, "samples") == 0)
    return g_strdup ("1 sample");
  if (g_strcmp0 (unit, "ns") == 0)
    return hp_format_time ((guint64) llround (MAX (value, 0.0)), HP_FORMAT_PLAIN);
  if (a >= 1e9)
    return g_strdup_printf ("%.4g G%s%s", value / 1e9, unit ? " " : "", unit ? unit : "");
  if (a >= 1e6)
    return g_strdup_printf ("%.4g M%s%s", value / 1e6, unit ? " " : "", unit ? unit : "");
  if (a >= 1e3)
    return g_strdup_printf ("%.4g k%s%s", value / 1e3, unit ? " " : "", unit ? unit : "");
  return g_strdup_printf ("%.4g%s%s", value, unit ? " " : "", unit ? unit : "");
}

static char *
format_percent (double value)
{
  if (isnan (value))
    return g_strdup ("—");
  if (isinf (value))
    return g_strdup (value > 0 ? "+∞" : "−∞");
  return g_strdup_printf ("%+.1f%%", value);
}

static char *
format_interval (const HpCompareStat *s)
{
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;

  if (s->base_samples == 0 && s->new_samples == 0)
    return g_strdup ("(no samples)");
  if (isnan (s->low) || isnan (s->high))
    return g_strdup ("(unbounded)");
  low = format_percent (s->low);
  high = format_percent (s->high);
  return g_strdup_printf ("[%s, %s]", low, high);
}

static char *
format_q (double q)
{
  if (isnan (q))
    return g_strdup ("-");
  if (q < 0.0001)
    return g_strdup ("<0.0001");
  return g_strdup_printf ("%.4f", q);
}

static char *
format_mde (double mde)
{
  if (!isfinite (mde))
    return g_strdup ("—");
  if (mde >= 1000)
    return g_strdup (">999%");
  return g_strdup_printf ("%.1f%%", mde);
}

/* @text padded to @width characters (printf's widths count bytes, and
 * "—" or "+∞" is three or four), right-aligned unless @left. */
static char *
pad (const char *text,
     int         width,
     gboolean    left)
{
  glong n = g_utf8_strlen (text, -1);
  g_autofree char *spaces = g_strnfill (n < width ? width - n : 0, ' ');

  return left ? g_strconcat (text, spaces, NULL) : g_strconcat (spaces, text, NULL);
}

static void
print_row (const HpCompareStat *s,
           const char          *unit,
           const char          *what)
{
  g_autofree char *change = format_percent (s->change);
  g_autofree char *interval = format_interval (s);
  g_autofree char *q = format_q (s->q);
  g_autofree char *base = format_cost (s->base, unit);
  g_autofree char *new_cost = format_cost (s->new_cost, unit);
  g_autofree char *mde = format_mde (s->mde);
  g_autofree char *safe = printable (what);

  g_autofree char *change_padded = pad (change, 8, FALSE);
  g_autofree char *interval_padded = pad (interval, 20, TRUE);
  g_autofree char *mde_padded = pad (mde, 7, FALSE);

  printf ("%-10s %s  %s %8s %11s %11s %s  %s\n",
          hp_verdict_to_string (s->verdict), change_padded, interval_padded, q, base, new_cost, mde_padded, safe);
}

static void
print_table_header (void)
{
  /* Translators: the columns of diff's tables; widths 10, 8, 20, 8, 11, 11, 7 */
  printf ("%-10s %8s  %-20s %8s %11s %11s %7s  %s\n",
          _("Verdict"), _("Change"), _("95 % interval"), _("q"), _("Base"), _("New"), _("MDE"), _("Function [module]"));
}

/* "name [module]", with the other name when it is half of a renamed pair. */
static char *
function_label (HpComparison *cmp,
                guint         index)
{
  const HpCompareFunction *fn = hp_comparison_get_function (cmp, index);
  GArray *renames = hp_comparison_get_renames (cmp);

  for (guint i = 0; i < renames->len; i++)
    {
      const HpCompareRename *pair = &g_array_index (renames, HpCompareRename, i);

      if (pair->removed == index)
        return g_strdup_printf (_("%s [%s] (renamed %s?)"), fn->name, fn->module[0] ? fn->module : "?",
                                hp_comparison_get_function (cmp, pair->added)->name);
      if (pair->added == index)
        return g_strdup_printf (_("%s [%s] (renamed from %s?)"), fn->name, fn->module[0] ? fn->module : "?",
                                hp_comparison_get_function (cmp, pair->removed)->name);
    }
  /* "[truncated]" has no module: no "[?]" after it */
  if (fn->module[0] == '\0')
    return g_strdup (fn->name);
  return g_strdup_printf ("%s [%s]", fn->name, fn->module);
}

static void
print_renames (HpComparison *cmp,
               const char   *unit)
{
  GArray *renames = hp_comparison_get_renames (cmp);

  if (renames->len == 0)
    return;
  printf (_("#\n# Renamed? Functions only in the base paired with one only in the new runs: same module, the same\n"
            "#         callers and the same callees, each over the floor; compared as one function (each name's\n"
            "#         own row below says -100%% and new)\n"));
  print_table_header ();
  for (guint i = 0; i < renames->len; i++)
    {
      const HpCompareRename *pair = &g_array_index (renames, HpCompareRename, i);
      const HpCompareFunction *removed = hp_comparison_get_function (cmp, pair->removed);
      const HpCompareFunction *added = hp_comparison_get_function (cmp, pair->added);
      /* Translators: old name → new name [module], then "self" or "total" cost */
      g_autofree char *self_label = g_strdup_printf (_("%s → %s [%s], self"), removed->name, added->name,
                                                     removed->module);
      g_autofree char *total_label = g_strdup_printf (_("%s → %s [%s], total"), removed->name, added->name,
                                                      removed->module);

      print_row (&pair->self, unit, self_label);
      print_row (&pair->total, unit, total_label);
    }
}

static void
count_verdicts (HpComparison *cmp,
                guint         counts[HP_N_VERDICTS])
{
  memset (counts, 0, HP_N_VERDICTS * sizeof (guint));
  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    counts[hp_comparison_get_function (cmp, i)->self.verdict]++;
}

static void
print_side (const char              *title,
            const char              *path,
            const HpCompareSideInfo *info)
{
  g_autofree char *cost = format_cost (info->cost, info->unit);
  g_autofree char *command = printable (info->command ? info->command : _("(unknown)"));
  g_autofree char *where = printable (path);

  g_autofree char *samples = hp_cli_samples (info->n_samples);

  printf (g_dngettext (GETTEXT_PACKAGE, "# %-5s %s: %u capture, %s, %s per run; command: %s\n",
                       "# %-5s %s: %u captures, %s, %s per run; command: %s\n", info->n_captures),
          title, where, info->n_captures, samples, cost, command);
}

/* What was compared, how, and what it can detect: the text's "#" lines
 * before its tables. */
static void
print_header (HpComparison *cmp,
              const char   *base_path,
              const char   *new_path)
{
  const HpCompareSideInfo *base = hp_comparison_get_side (cmp, HP_COMPARE_BASE);
  const HpCompareSideInfo *new_side = hp_comparison_get_side (cmp, HP_COMPARE_NEW);
  const char *unit = base->unit;
  const char * const *warnings = hp_comparison_get_warnings (cmp);
  g_autofree char *floor = format_cost (hp_comparison_get_floor (cmp), unit);
  guint counts[HP_N_VERDICTS];
  double mde = hp_comparison_get_mde (cmp);

  /* Translators: the sides of a diff, in a column of 5 */
  print_side (_("Base:"), base_path, base);
  print_side (_("New:"), new_path, new_side);
  /* off-CPU time weighs each switch by the time away, not by a period */
  printf (_("# Event: %s (unit: %s); costs are mean %s per run (%s)\n"),
          base->event ? base->event : _("(unknown)"), unit ? unit : "?", unit ? unit : _("units"),
          g_strcmp0 (base->event, HP_EVENT_OFF_CPU) == 0 ? _("the time each thread was off the CPU")
          : g_strcmp0 (base->event, HP_EVENT_WALL) == 0 ? _("time on the CPU, samples × period, and off it")
          : _("samples × period"));
  switch (hp_comparison_get_method (cmp))
    {
    case HP_COMPARE_METHOD_WELCH:
      printf (_("# Method: Welch's t test on the per-run costs (%u and %u runs), so run-to-run noise is measured;\n"
              "#         95%% intervals (Fieller) of the change; q-values: Benjamini–Hochberg false discovery rate\n"),
              base->n_captures, new_side->n_captures);
      break;
    case HP_COMPARE_METHOD_ONE_RUN:
      printf (_("# Method: t test with the run-to-run variance of the side that has several runs (%u and %u runs),\n"
              "#         assumed the same for the side with one; 95%% intervals; q-values: Benjamini–Hochberg\n"),
              base->n_captures, new_side->n_captures);
      break;
    case HP_COMPARE_METHOD_COUNTS:
      printf (_("# Method: one run per side: only the sampling error of the counts (Poisson) is accounted for,\n"
              "#         NOT the run-to-run noise of the machine; compare folders of repeated runs for that.\n"
              "#         95%% intervals; q-values: Benjamini–Hochberg false discovery rate\n"));
      break;
    }
  {
    const HpCompareStat *program = hp_comparison_get_program (cmp);
    g_autofree char *change = format_percent (program->change);
    g_autofree char *interval = format_interval (program);
    guint n_reference = hp_comparison_get_n_reference (cmp);

    g_autofree char *explained = hp_comparison_explain (cmp, program);

    printf (_("# Whole program: %s per run, %s, %s (as measured: the machine's speed and the code's together)\n"),
            change, interval, hp_verdict_to_string (program->verdict));
    printf ("#         %s\n", explained);
    if (hp_comparison_get_program_scaled (cmp) != NULL)
      {
        const HpCompareStat *scaled = hp_comparison_get_program_scaled (cmp);
        g_autofree char *scaled_change = format_percent (scaled->change);
        g_autofree char *scaled_interval = format_interval (scaled);
        g_autofree char *scaled_explained = hp_comparison_explain (cmp, scaled);

        printf (_("# At the runs' common speed, as the tables: %s per run, %s, %s\n"
                  "#         %s\n"), scaled_change, scaled_interval, hp_verdict_to_string (scaled->verdict),
                scaled_explained);
      }
    if (n_reference > 0)
      printf (_("# Runs scaled by their speed (median over %u functions present in every run), so that each\n"
              "#         function is compared at the speed of the whole program\n"), n_reference);
    else
      printf (_("# Runs not scaled by their speed (the noise is not common to the functions, or too few runs or functions)\n"));
  }
  printf (_("# Materiality floor: %g%% of the total (%s per run): smaller changes are never flagged\n"),
          100 * hp_comparison_get_floor (cmp) / ((base->cost + new_side->cost) / 2), floor);
  if (isnan (mde))
    printf (_("# Minimum detectable effect: none can be given (no function has samples in the base)\n"));
  else
    printf (_("# Minimum detectable effect: %.1f%% of a hot function's cost (median over the functions with ≥ 5%% of\n"
            "#         the time; 80%% power at the 5%% level); per function in the MDE column\n"), mde);
  for (guint i = 0; warnings[i] != NULL; i++)
    printf (_("# Warning: %s\n"), warnings[i]);
  printf (_("# Verdicts: slower/faster: significant (q < 0.05) and above the floor; unchanged: the 95%% interval\n"
            "#         rules out a change above the MDE; negligible: its difference, whatever the change in percent,\n"
            "#         is under the floor; unresolved: neither, the runs cannot tell\n"));
  count_verdicts (cmp, counts);
  printf (_("# Verdicts (functions, self cost): %u slower, %u faster, %u unchanged, %u negligible, %u unresolved\n"),
          counts[HP_VERDICT_SLOWER], counts[HP_VERDICT_FASTER], counts[HP_VERDICT_UNCHANGED],
          counts[HP_VERDICT_NEGLIGIBLE], counts[HP_VERDICT_UNRESOLVED]);
  print_renames (cmp, unit);
  printf ("#\n");
}

static void
print_text (HpComparison *cmp,
            gint          limit)
{
  const char *unit = hp_comparison_get_side (cmp, HP_COMPARE_BASE)->unit;
  g_autoptr(GArray) paths = hp_comparison_get_material_paths (cmp);
  const guint *by_total = hp_comparison_get_functions_by_total (cmp);
  guint n_functions = hp_comparison_get_n_functions (cmp);
  guint n;

  n = limit > 0 ? MIN (n_functions, (guint) limit) : n_functions;
  printf (n == n_functions ? _("# Functions by self cost (all of %u)\n") : _("# Functions by self cost (top of %u)\n"),
          n_functions);
  print_table_header ();
  for (guint i = 0; i < n; i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);
      g_autofree char *label = function_label (cmp, i);

      print_row (&fn->self, unit, label);
    }

  printf (n == n_functions ? _("#\n# Functions by total cost, callees included (all of %u)\n")
          : _("#\n# Functions by total cost, callees included (top of %u)\n"), n_functions);
  print_table_header ();
  for (guint i = 0; i < n; i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, by_total[i]);
      g_autofree char *label = function_label (cmp, by_total[i]);

      print_row (&fn->total, unit, label);
    }

  n = limit > 0 ? MIN (paths->len, (guint) limit) : paths->len;
  printf (n == paths->len ? _("#\n# Call paths by total cost, those over the floor on either side (all of %u)\n")
          : _("#\n# Call paths by total cost, those over the floor on either side (top of %u)\n"), paths->len);
  printf ("%-10s %8s  %-20s %8s %11s %11s %7s  %s\n",
          _("Verdict"), _("Change"), _("95 % interval"), _("q"), _("Base"), _("New"), _("MDE"), _("Path"));
  for (guint i = 0; i < n; i++)
    {
      guint index = g_array_index (paths, guint, i);
      g_autofree char *readable = hp_comparison_get_path_readable (cmp, index);

      print_row (hp_comparison_get_path_stat (cmp, index), unit, readable);
    }
}

/* Source lines (--lines) ---------------------------------------------------- */

/* The function named @name (GCC's clone suffixes folded, as the
 * comparison folds them): of several, in other modules, the one with the
 * most cost on either side. -1 when neither side has it. */
static gint
find_function_by_name (HpComparison *cmp,
                       const char   *name)
{
  g_autofree char *folded = hp_compare_fold_clone_name (name);
  gint best = -1;
  double best_cost = -1;

  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);
      g_autofree char *fn_folded = hp_compare_fold_clone_name (fn->name);
      double cost = MAX (fn->total.base, fn->total.new_cost);

      if ((strcmp (fn->name, name) == 0 || strcmp (fn_folded, folded) == 0) && cost > best_cost)
        {
          best = (gint) i;
          best_cost = cost;
        }
    }
  return best;
}

/* "file.c:30", "file.c:30 (was 25)" for a line that moved, "file.c:base
 * 25" for one only in the base: as the window's Source page numbers them. */
static char *
line_label (const HpCompareLine *line)
{
  g_autofree char *file = g_path_get_basename (line->file ? line->file : "?");

  if (line->line == 0)
    /* Translators: a file, then a line number in the base's version of it */
    return g_strdup_printf (_("%s:base %u"), file, line->base_line);
  if (line->base_line > 0 && line->base_line != line->line)
    /* Translators: a file and a line number, then its number in the base's version */
    return g_strdup_printf (_("%s:%u (was %u)"), file, line->line, line->base_line);
  return g_strdup_printf ("%s:%u", file, line->line);
}

static void
print_lines (HpComparison       *cmp,
             guint               function,
             GArray             *lines,
             HpCompareLineMatch  match,
             gint                limit)
{
  const HpCompareFunction *fn = hp_comparison_get_function (cmp, function);
  const char *unit = hp_comparison_get_side (cmp, HP_COMPARE_BASE)->unit;
  g_autofree char *label = function_label (cmp, function);
  g_autofree char *safe = printable (label);
  guint n = limit > 0 ? MIN (lines->len, (guint) limit) : lines->len;

  printf (_("# Function %s: self %s, total %s\n"), safe, hp_verdict_to_string (fn->self.verdict),
          hp_verdict_to_string (fn->total.verdict));
  if (lines->len == 0)
    {
      printf (_("# The captures have no line information for this function (built without -g?)\n"));
      return;
    }
  if (match == HP_COMPARE_LINES_BY_DECLARATION)
    printf (_("# Lines matched by their distance from the function's first line, which moved between the builds:\n"
              "#         a line added or removed inside the function still shifts those below it\n"));
  printf (n == lines->len ? _("# Source lines by their order in the file, self cost at each line (all of %u)\n")
          : _("# Source lines by their order in the file, self cost at each line (first %u)\n"), lines->len);
  printf ("%-10s %8s  %-20s %8s %11s %11s %7s  %s\n",
          _("Verdict"), _("Change"), _("95 % interval"), _("q"), _("Base"), _("New"), _("MDE"), _("Line"));
  for (guint i = 0; i < n; i++)
    {
      const HpCompareLine *line = &g_array_index (lines, HpCompareLine, i);
      g_autofree char *where = line_label (line);

      /* self is where the time is spent; total would repeat the callees */
      print_row (&line->self, unit, where);
    }
}

/* JSON ------------------------------------------------------------------- */

/* Written member by member (hp_json_writer_*()): a comparison of two big
 * captures writes hundreds of thousands of numbers, and a JsonBuilder's
 * tree of them took a tenth of the time of the whole diff. */

static void
member_string (HpJsonWriter *w,
               const char   *name,
               const char   *value)
{
  hp_json_writer_member (w, name);
  hp_json_writer_string (w, value);
}

static void
member_number (HpJsonWriter *w,
               const char   *name,
               double        value)
{
  hp_json_writer_member (w, name);
  hp_json_writer_number (w, value);
}

static void
member_count (HpJsonWriter *w,
              const char   *name,
              guint64       value)
{
  hp_json_writer_member (w, name);
  hp_json_writer_count (w, value);
}

static void
add_stat (HpJsonWriter        *w,
          const HpCompareStat *s)
{
  member_number (w, "base", s->base);
  member_number (w, "new", s->new_cost);
  member_number (w, "change", s->change);
  member_number (w, "low", s->low);
  member_number (w, "high", s->high);
  /* out of the family (it cannot reach the floor): never tested */
  member_number (w, "q", isnan (s->q) ? 1.0 : s->q);
  member_number (w, "p", s->p);
  member_number (w, "mde", s->mde);
  member_string (w, "verdict", hp_verdict_to_string (s->verdict));
  member_count (w, "base_samples", s->base_samples);
  member_count (w, "new_samples", s->new_samples);
}

static void
add_side (HpJsonWriter            *w,
          const char              *name,
          const char              *path,
          const HpCompareSideInfo *info)
{
  hp_json_writer_member (w, name);
  hp_json_writer_begin_object (w);
  member_string (w, "path", path);
  hp_json_writer_member (w, "captures");
  hp_json_writer_int (w, info->n_captures);
  member_count (w, "samples", info->n_samples);
  member_number (w, "cost", info->cost);
  member_string (w, "command", info->command);
  hp_json_writer_end_object (w);
}

static char *
json_output (HpComparison *cmp,
             const char   *base_path,
             const char   *new_path,
             GArray       *lines)
{
  static const char *methods[] = { "welch", "one-run", "counts" };
  const HpCompareSideInfo *base = hp_comparison_get_side (cmp, HP_COMPARE_BASE);
  const char * const *warnings = hp_comparison_get_warnings (cmp);
  g_autoptr(GArray) paths = hp_comparison_get_material_paths (cmp);
  guint n_functions = hp_comparison_get_n_functions (cmp);
  /* about 430 bytes a function, 250 a path */
  GString *out = g_string_sized_new (1024 + 450 * (gsize) n_functions + 300 * (gsize) paths->len);
  HpJsonWriter writer;
  HpJsonWriter *w = &writer;

  hp_json_writer_init (w, out);
  hp_json_writer_begin_object (w);
  add_side (w, "base", base_path, base);
  add_side (w, "new", new_path, hp_comparison_get_side (cmp, HP_COMPARE_NEW));
  member_string (w, "event", base->event);
  member_string (w, "unit", base->unit);
  member_string (w, "method", methods[hp_comparison_get_method (cmp)]);
  member_number (w, "floor", hp_comparison_get_floor (cmp));
  member_number (w, "mde", hp_comparison_get_mde (cmp));
  hp_json_writer_member (w, "scaled_by");
  hp_json_writer_int (w, hp_comparison_get_n_reference (cmp));
  hp_json_writer_member (w, "program");
  hp_json_writer_begin_object (w);
  add_stat (w, hp_comparison_get_program (cmp));
  hp_json_writer_end_object (w);
  if (hp_comparison_get_program_scaled (cmp) != NULL)
    {
      hp_json_writer_member (w, "program_scaled");
      hp_json_writer_begin_object (w);
      add_stat (w, hp_comparison_get_program_scaled (cmp));
      hp_json_writer_end_object (w);
    }
  hp_json_writer_member (w, "warnings");
  hp_json_writer_begin_array (w);
  for (guint i = 0; warnings[i] != NULL; i++)
    hp_json_writer_string (w, warnings[i]);
  hp_json_writer_end_array (w);

  hp_json_writer_member (w, "functions");
  hp_json_writer_begin_array (w);
  for (guint i = 0; i < n_functions; i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);

      hp_json_writer_begin_object (w);
      member_string (w, "name", fn->name);
      member_string (w, "module", fn->module);
      add_stat (w, &fn->self);
      hp_json_writer_member (w, "total");
      hp_json_writer_begin_object (w);
      add_stat (w, &fn->total);
      hp_json_writer_end_object (w);
      hp_json_writer_end_object (w);
    }
  hp_json_writer_end_array (w);

  hp_json_writer_member (w, "renames");
  hp_json_writer_begin_array (w);
  for (guint i = 0; i < hp_comparison_get_renames (cmp)->len; i++)
    {
      const HpCompareRename *pair = &g_array_index (hp_comparison_get_renames (cmp), HpCompareRename, i);

      hp_json_writer_begin_object (w);
      member_string (w, "removed", hp_comparison_get_function (cmp, pair->removed)->name);
      member_string (w, "added", hp_comparison_get_function (cmp, pair->added)->name);
      member_string (w, "module", hp_comparison_get_function (cmp, pair->removed)->module);
      add_stat (w, &pair->self);
      hp_json_writer_member (w, "total");
      hp_json_writer_begin_object (w);
      add_stat (w, &pair->total);
      hp_json_writer_end_object (w);
      hp_json_writer_end_object (w);
    }
  hp_json_writer_end_array (w);

  hp_json_writer_member (w, "paths");
  hp_json_writer_begin_array (w);
  for (guint i = 0; i < paths->len; i++)
    {
      guint index = g_array_index (paths, guint, i);
      const HpComparePath *path = hp_comparison_get_path (cmp, index);
      g_autofree char *readable = hp_comparison_get_path_readable (cmp, index);
      g_autofree char *key = hp_comparison_get_path_key (cmp, index);

      hp_json_writer_begin_object (w);
      member_string (w, "path", readable);
      member_string (w, "key", key);
      member_string (w, "name", path->name);
      member_string (w, "module", path->module);
      add_stat (w, hp_comparison_get_path_stat (cmp, index));
      hp_json_writer_end_object (w);
    }
  hp_json_writer_end_array (w);

  if (lines != NULL)
    {
      hp_json_writer_member (w, "lines");
      hp_json_writer_begin_array (w);
      for (guint i = 0; i < lines->len; i++)
        {
          const HpCompareLine *line = &g_array_index (lines, HpCompareLine, i);

          hp_json_writer_begin_object (w);
          member_string (w, "file", line->file);
          hp_json_writer_member (w, "line");
          hp_json_writer_int (w, line->line);
          hp_json_writer_member (w, "base_line");
          hp_json_writer_int (w, line->base_line);
          add_stat (w, &line->self);
          hp_json_writer_member (w, "total");
          hp_json_writer_begin_object (w);
          add_stat (w, &line->total);
          hp_json_writer_end_object (w);
          hp_json_writer_end_object (w);
        }
      hp_json_writer_end_array (w);
    }
  hp_json_writer_end_object (w);
  return g_string_free (out, FALSE);
}

/* Whether path @index passes through the new name of a renamed pair. */
static gboolean
through_renamed (HpComparison *cmp,
                 gint          index)
{
  GArray *renames = hp_comparison_get_renames (cmp);

  for (; index >= 0; index = hp_comparison_get_path (cmp, index)->parent)
    {
      const HpComparePath *path = hp_comparison_get_path (cmp, index);

      for (guint i = 0; i < renames->len; i++)
        {
          const HpCompareFunction *added =
            hp_comparison_get_function (cmp, g_array_index (renames, HpCompareRename, i).added);

          if (strcmp (added->name, path->name) == 0 && strcmp (added->module, path->module) == 0)
            return TRUE;
        }
    }
  return FALSE;
}

/* Slower: a function, a call path or a renamed pair. The new name of a
 * pair, and the paths through it, are new only by their name: the pair's
 * verdict stands for them. */
static gboolean
any_slower (HpComparison *cmp)
{
  g_autoptr(GArray) paths = hp_comparison_get_material_paths (cmp);
  GArray *renames = hp_comparison_get_renames (cmp);
  g_autofree gboolean *renamed = g_new0 (gboolean, MAX (hp_comparison_get_n_functions (cmp), 1));

  for (guint i = 0; i < renames->len; i++)
    {
      const HpCompareRename *pair = &g_array_index (renames, HpCompareRename, i);

      if (pair->self.verdict == HP_VERDICT_SLOWER || pair->total.verdict == HP_VERDICT_SLOWER)
        return TRUE;
      renamed[pair->added] = TRUE;
    }
  for (guint i = 0; i < hp_comparison_get_n_functions (cmp); i++)
    {
      const HpCompareFunction *fn = hp_comparison_get_function (cmp, i);

      if (!renamed[i] && (fn->self.verdict == HP_VERDICT_SLOWER || fn->total.verdict == HP_VERDICT_SLOWER))
        return TRUE;
    }
  for (guint i = 0; i < paths->len; i++)
    if (hp_comparison_get_path_stat (cmp, g_array_index (paths, guint, i))->verdict == HP_VERDICT_SLOWER &&
        (renames->len == 0 || !through_renamed (cmp, g_array_index (paths, guint, i))))
      return TRUE;
  return FALSE;
}

/* A side: a folder or a capture; a perf.data file is imported once into a
 * cached capture, as report does. */
static gboolean
add_side_path (HpComparison  *cmp,
               HpCompareSide  side,
               const char    *path,
               GError       **error)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, _("%s: no such file or folder"), path);
      return FALSE;
    }
  if (!g_file_test (path, G_FILE_TEST_IS_DIR) && hp_perf_file_sniff (path))
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autofree char *cached = hp_perf_import_cached (path, hp_cli_fetch_progress, NULL, cancellable, error);

      if (cached == NULL)
        return FALSE;
      return hp_comparison_add_path (cmp, side, cached, NULL, error);
    }
  return hp_comparison_add_path (cmp, side, path, NULL, error);
}

int
hp_cli_diff (int    argc,
             char **argv)
{
  g_auto(GStrv) files = NULL;
  g_autofree char *format = NULL;
  gboolean fail_on_regression = FALSE;
  gint limit = 20;
  gdouble floor_percent = 1.0;
  g_autofree char *event = NULL;
  g_autofree char *lines_of = NULL;
  g_autoptr(GArray) lines = NULL;
  HpCompareLineMatch match = HP_COMPARE_LINES_BY_NUMBER;
  gint function = -1;
  GOptionEntry entries[] = {
    { "event", 0, 0, G_OPTION_ARG_STRING, &event,
      N_("Compare EVENT of captures that hold several (default the first); wall: cpu-clock and off-cpu"), N_("EVENT") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format, N_("Output format (default text)"), N_("text|json") },
    { "fail-on-regression", 0, 0, G_OPTION_ARG_NONE, &fail_on_regression,
      N_("Exit with status 3 when anything is judged slower (for CI)"), NULL },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Text: show the first N rows of each table (default 20, 0: all)"), N_("N") },
    { "floor", 0, 0, G_OPTION_ARG_DOUBLE, &floor_percent,
      /* xgettext:no-c-format */
      N_("Never flag a change smaller than PCT% of the total cost (default 1)"), N_("PCT") },
    { "lines", 0, 0, G_OPTION_ARG_STRING, &lines_of,
      N_("Compare the source lines of function NAME (self cost at each line) instead of listing functions and "
         "call paths; JSON: adds \"lines\""), N_("NAME") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("BASE NEW"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpComparison) cmp = NULL;
  HpCompareOptions options = HP_COMPARE_OPTIONS_DEFAULT;
  const char * const *warnings;
  gboolean json;

  g_option_context_set_summary (context,
                                N_("Compare captures: which functions and call paths got slower or faster, and\n"
                                "whether that is more than noise. BASE and NEW are each a capture, or a folder\n"
                                "of captures of repeated runs (then the run-to-run noise is measured).\n\n"
                                "Examples:\n"
                                "  hotpath-cli diff before.hotpath after.hotpath\n"
                                "  hotpath-cli diff runs-before/ runs-after/ --format json\n"
                                "  hotpath-cli diff runs-before/ runs-after/ --lines score_matches"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      hp_cli_error (_("diff: %s"), error->message);
      return 2;
    }
  if (files == NULL || g_strv_length (files) != 2)
    {
      hp_cli_error (_("diff: give two sides, BASE and NEW (each a capture or a folder of captures)"));
      return 2;
    }
  if (format != NULL && strcmp (format, "text") != 0 && strcmp (format, "json") != 0)
    {
      hp_cli_error (_("diff: --format must be text or json, not '%s'"), format);
      return 2;
    }
  if (!(floor_percent >= 0 && floor_percent < 100))
    {
      hp_cli_error (_("diff: --floor must be a percentage from 0 to 100, not %g"), floor_percent);
      return 2;
    }
  json = g_strcmp0 (format, "json") == 0;
  options.floor_percent = floor_percent;

  cmp = hp_comparison_new ();
  if (lines_of != NULL)
    hp_comparison_keep_lines (cmp);
  if (event != NULL)
    hp_comparison_set_event (cmp, event);
  if (!add_side_path (cmp, HP_COMPARE_BASE, files[0], &error) ||
      !add_side_path (cmp, HP_COMPARE_NEW, files[1], &error) ||
      !hp_comparison_run (cmp, &options, &error))
    {
      g_autofree char *message = hp_text_escape (error->message);

      hp_cli_error (_("diff: %s"), message);
      return 1;
    }

  if (lines_of != NULL)
    {
      function = find_function_by_name (cmp, lines_of);
      if (function < 0)
        {
          g_autofree char *name = hp_text_escape (lines_of);

          hp_cli_error (_("diff: --lines: no function %s in %s or %s"), name, files[0], files[1]);
          return 1;
        }
      lines = hp_comparison_get_lines_aligned (cmp, (guint) function, NULL, 0, NULL, 0, &match);
    }

  warnings = hp_comparison_get_warnings (cmp);
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_autofree char *warning = hp_text_escape (warnings[i]);

      hp_cli_error (_("diff: warning: %s"), warning);
    }

  if (json)
    {
      g_autofree char *text = json_output (cmp, files[0], files[1], lines);

      printf ("%s\n", text);
    }
  else
    {
      print_header (cmp, files[0], files[1]);
      if (lines != NULL)
        print_lines (cmp, (guint) function, lines, match, limit);
      else
        print_text (cmp, limit);
    }

  if (fail_on_regression && any_slower (cmp))
    return EXIT_REGRESSION;
  return 0;
}
