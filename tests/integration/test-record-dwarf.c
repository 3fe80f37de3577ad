/* test-record-dwarf.c - record programs built without frame pointers with DWARF
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 3: with --call-graph dwarf (the default) the user stack is copied
 * with every sample and unwound with libdw. The workloads of tests/workloads
 * split their time between call paths by construction (see each .c), so:
 *
 *   paths-nofp     recorded with DWARF gives the shares of paths-fp recorded
 *                  with frame pointers (and of the construction);
 *   recurse-nofp   150 frames of recursion unwind to main with a large copy,
 *                  and a small copy gives counted "[truncated]" stacks;
 *   inline-nofp,   inlined helpers show as inline frames, at the leaf and in
 *   inline-calls-nofp  the middle of the stack;
 *   python3.11-dbg a real Debian program with full debug information
 *                  unwinds through the interpreter into the C library, with
 *                  function names and source lines (skipped when absent).
 *
 * and each of them has at least 97 % complete stacks (main or a thread
 * start reached). Every recording runs with HOTPATH_CHECK_CACHES=1: each
 * sample the unwinder's rules by pc unwind is unwound by libdwfl as well,
 * and not one may differ (frames or how the stack ended); most samples
 * must be unwound by the rules (see hp-unwinder.c). Likewise every
 * address's functions found through a CU's index of code scopes are
 * found by the walk over the CU as well (hp-symbolizer.c): a difference
 * is a warning, and no warning may be said. About 1500-2000 samples a recording: a share's binomial
 * standard error is at most 1.2 pp, so the ±5 pp tolerances fail only on a
 * real error.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sqlite3.h>

#include "integration-common.h"

#define TOLERANCE 5.0
#define MIN_COMPLETE 97.0

static char *tmpdir;

/* One sample's stack, root first. */
typedef struct {
  GPtrArray *names;   /* function names */
  GArray    *inline_; /* gboolean per frame */
  GPtrArray *modules; /* module path or "" */
  GPtrArray *files;   /* source file or "" */
  GArray    *lines;   /* guint per frame */
  guint64    weight;  /* samples with this stack */
} Stack;

typedef struct {
  GPtrArray *stacks;  /* Stack */
  guint64    n_samples;
  gint64     complete;
  gint64     truncated;
  gint64     lost;
  gint64     truncated_copy;
  char      *call_graph;
  gint64     stack_size;
  guint64    by_rules;   /* samples the unwinder's rules unwound */
  guint64    by_libdwfl; /* ... and those libdwfl unwound */
} Recording;

static void
stack_free (Stack *s)
{
  g_ptr_array_unref (s->names);
  g_array_unref (s->inline_);
  g_ptr_array_unref (s->modules);
  g_ptr_array_unref (s->files);
  g_array_unref (s->lines);
  g_free (s);
}

static void
recording_free (Recording *r)
{
  g_ptr_array_unref (r->stacks);
  g_free (r->call_graph);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Recording, recording_free)

static char *
metadata (sqlite3    *db,
          const char *key)
{
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT value FROM metadata WHERE key = ?", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, key, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_text (stmt, 0) != NULL)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

static gint64
metadata_int (sqlite3    *db,
              const char *key)
{
  g_autofree char *value = metadata (db, key);

  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : -1;
}

/* Reads every distinct stack of a capture with SQL, as a script would. */
static Recording *
read_recording (const char *path)
{
  Recording *r = g_new0 (Recording, 1);
  sqlite3_stmt *samples = NULL;
  sqlite3_stmt *node = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  r->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) stack_free);
  r->complete = metadata_int (db, "complete_stacks");
  r->truncated = metadata_int (db, "truncated_stacks");
  r->lost = metadata_int (db, "lost_samples");
  r->truncated_copy = metadata_int (db, "truncated_stack_copy");
  r->stack_size = metadata_int (db, "stack_size");
  r->call_graph = metadata (db, "call_graph");

  g_assert_cmpint (sqlite3_prepare_v2 (db,
                     "SELECT stack_id, count(*) FROM samples GROUP BY stack_id", -1, &samples, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                     "SELECT s.parent_id, fn.name, f.is_inline, coalesce(m.path, ''), "
                     "       coalesce(f.file, ''), f.line "
                     "FROM stacks s JOIN frames f ON f.id = s.frame_id "
                     "JOIN functions fn ON fn.id = f.function_id "
                     "LEFT JOIN modules m ON m.id = fn.module_id WHERE s.id = ?", -1, &node, NULL), ==, SQLITE_OK);
  while (sqlite3_step (samples) == SQLITE_ROW)
    {
      Stack *s = g_new0 (Stack, 1);
      gint64 id = sqlite3_column_int64 (samples, 0);

      s->weight = sqlite3_column_int64 (samples, 1);
      s->names = g_ptr_array_new_with_free_func (g_free);
      s->modules = g_ptr_array_new_with_free_func (g_free);
      s->files = g_ptr_array_new_with_free_func (g_free);
      s->inline_ = g_array_new (FALSE, FALSE, sizeof (gboolean));
      s->lines = g_array_new (FALSE, FALSE, sizeof (guint));
      while (id != 0)
        {
          gboolean is_inline;
          guint line;

          sqlite3_reset (node);
          sqlite3_bind_int64 (node, 1, id);
          g_assert_cmpint (sqlite3_step (node), ==, SQLITE_ROW);
          g_ptr_array_insert (s->names, 0, g_strdup ((const char *) sqlite3_column_text (node, 1)));
          is_inline = sqlite3_column_int (node, 2) != 0;
          g_array_prepend_val (s->inline_, is_inline);
          g_ptr_array_insert (s->modules, 0, g_strdup ((const char *) sqlite3_column_text (node, 3)));
          g_ptr_array_insert (s->files, 0, g_strdup ((const char *) sqlite3_column_text (node, 4)));
          line = sqlite3_column_int (node, 5);
          g_array_prepend_val (s->lines, line);
          id = sqlite3_column_int64 (node, 0);
        }
      r->n_samples += s->weight;
      g_ptr_array_add (r->stacks, s);
    }
  sqlite3_finalize (node);
  sqlite3_finalize (samples);
  sqlite3_close (db);
  return r;
}

/* Position of @names (consecutive) in @s, or -1. */
static gint
find_run (const Stack        *s,
          const char * const *names)
{
  guint n = g_strv_length ((char **) names);

  for (guint i = 0; i + n <= s->names->len; i++)
    {
      guint j = 0;

      while (j < n && strcmp (g_ptr_array_index (s->names, i + j), names[j]) == 0)
        j++;
      if (j == n)
        return i;
    }
  return -1;
}

/* Percent of samples whose stack holds @names consecutively; with
 * @at_leaf, as its last frames. */
static double
path_percent (const Recording    *r,
              gboolean            at_leaf,
              const char * const *names)
{
  guint64 n = 0;

  for (guint i = 0; i < r->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (r->stacks, i);
      gint at = find_run (s, names);

      if (at >= 0 && (!at_leaf || at + g_strv_length ((char **) names) == s->names->len))
        n += s->weight;
    }
  return r->n_samples ? 100.0 * n / r->n_samples : 0;
}

#define PATH(...) ((const char * const []) { __VA_ARGS__, NULL })

static double
complete_percent (const Recording *r)
{
  g_assert_cmpint (r->complete, >=, 0);
  g_assert_cmpint (r->truncated, >=, 0);
  if (r->complete + r->truncated == 0)
    return 0;
  return 100.0 * r->complete / (r->complete + r->truncated);
}

/* The unwinder's count, at the end of a recording with
 * HOTPATH_CHECK_CACHES=1, of the samples its rules unwound, of those
 * libdwfl unwound, and of the rules' that differed from libdwfl's. */
static void
check_unwinding (const char *name,
                 const char *err,
                 Recording  *r)
{
  const char *line = strstr (err, " samples unwound by the rules of their pcs, ");
  guint64 differed = G_MAXUINT64;

  g_assert_nonnull (line);
  while (line > err && line[-1] != ' ')
    line--;
  g_assert_cmpint (sscanf (line, "%" G_GUINT64_FORMAT " samples unwound by the rules of their pcs, %"
                           G_GUINT64_FORMAT " by libdwfl; %" G_GUINT64_FORMAT " differed",
                           &r->by_rules, &r->by_libdwfl, &differed), ==, 3);
  g_test_message ("%s: %" G_GUINT64_FORMAT " samples unwound by rules, %" G_GUINT64_FORMAT
                  " by libdwfl, %" G_GUINT64_FORMAT " differed", name, r->by_rules, r->by_libdwfl, differed);
  g_assert_cmpuint (differed, ==, 0);
  g_assert_null (strstr (err, "WARNING"));
  g_assert_cmpuint (r->by_rules + r->by_libdwfl, <=, r->n_samples);
  /* the samples of a program in code GCC compiled: its rules are simple */
  g_assert_cmpuint (r->by_rules, >=, r->n_samples * 9 / 10);
}

/* Records @program (a path, with @args) with extra record options. */
static Recording *
record (const char         *name,
        const char * const *options,
        const char * const *command)
{
  g_autofree char *capture = g_strdup_printf ("%s/%s.hotpath", tmpdir, name);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(ItResult) result = NULL;
  Recording *r;

  g_ptr_array_add (args, (char *) "record");
  g_ptr_array_add (args, (char *) "-o");
  g_ptr_array_add (args, capture);
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (args, (char *) options[i]);
  g_ptr_array_add (args, (char *) "--");
  for (guint i = 0; command[i] != NULL; i++)
    g_ptr_array_add (args, (char *) command[i]);
  g_ptr_array_add (args, NULL);

  result = it_run_cli ((const char * const *) args->pdata);
  if (result->status != 0)
    g_error ("hotpath-cli record -- %s failed with exit %d: %s", command[0], result->status, result->err);
  r = read_recording (capture);
  g_test_message ("%s: %" G_GUINT64_FORMAT " samples, %" G_GINT64_FORMAT " complete, %"
                  G_GINT64_FORMAT " truncated, %" G_GINT64_FORMAT " lost",
                  name, r->n_samples, r->complete, r->truncated, r->lost);
  if (g_strcmp0 (r->call_graph, "dwarf") == 0)
    check_unwinding (name, result->err, r);
  return r;
}

static Recording *
record_workload (const char         *name,
                 const char         *workload,
                 const char * const *options)
{
  g_autofree char *program = it_workload_path (workload);
  const char *command[] = { program, NULL };

  return record (name, options, command);
}

static void
test_paths (void)
{
  g_autoptr(Recording) dwarf = NULL;
  g_autoptr(Recording) fp = NULL;
  g_autoptr(Recording) fp_dwarf = NULL;
  static const struct {
    gboolean at_leaf;
    const char *path[4];
    double expected;
  } shares[] = {
    { TRUE,  { "main", "run_alpha", "alpha_leaf" }, 60 },
    { TRUE,  { "main", "run_alpha", "shared_leaf" }, 15 },
    { TRUE,  { "main", "run_beta", "beta_leaf" }, 20 },
    { TRUE,  { "main", "run_beta", "shared_leaf" }, 5 },
    { FALSE, { "main", "run_alpha" }, 75 },
    { FALSE, { "main", "run_beta" }, 25 },
  };

  if (!it_require_perf_events ())
    return;

  dwarf = record_workload ("paths-nofp", "paths-nofp", NULL);
  fp = record_workload ("paths-fp", "paths-fp", PATH ("--call-graph", "fp"));
  /* frame-pointer code unwound with DWARF: its CFA is %rbp + 16, and
   * each caller's %rbp is read from the stack (see check_unwinding) */
  fp_dwarf = record_workload ("paths-fp-dwarf", "paths-fp", NULL);
  it_assert_percent ("complete stacks, paths-fp with DWARF", complete_percent (fp_dwarf), 100, 100 - MIN_COMPLETE);

  g_assert_cmpstr (dwarf->call_graph, ==, "dwarf");
  g_assert_cmpint (dwarf->stack_size, ==, 8192);
  g_assert_cmpstr (fp->call_graph, ==, "fp");
  g_assert_cmpuint (dwarf->n_samples, >=, 1000);
  g_assert_cmpuint (fp->n_samples, >=, 1000);
  /* 999 Hz with 8 KiB stack copies loses nothing on two CPUs. */
  g_assert_cmpint (dwarf->lost, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (shares); i++)
    {
      g_autofree char *what = g_strjoinv (" > ", (char **) shares[i].path);
      double d = path_percent (dwarf, shares[i].at_leaf, shares[i].path);
      double f = path_percent (fp, shares[i].at_leaf, shares[i].path);

      g_test_message ("%s: dwarf (nofp) %.1f %%, fp %.1f %%, by construction %.0f %%",
                      what, d, f, shares[i].expected);
      it_assert_percent (what, d, shares[i].expected, TOLERANCE);
      it_assert_percent (what, d, f, TOLERANCE);
    }

  it_assert_percent ("complete stacks, paths-nofp", complete_percent (dwarf), 100, 100 - MIN_COMPLETE);
}

static void
test_recurse (void)
{
  g_autoptr(Recording) big = NULL;
  g_autoptr(Recording) small = NULL;
  g_autofree char *capture = NULL;
  guint64 deep = 0, under_truncated = 0;
  guint max_descend = 0;

  if (!it_require_perf_events ())
    return;

  /* 150 frames of descend and all their callers fit in 64 KiB. */
  big = record_workload ("recurse-big", "recurse-nofp", PATH ("--call-graph", "dwarf,65528"));
  g_assert_cmpint (big->stack_size, ==, 65528);
  for (guint i = 0; i < big->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (big->stacks, i);
      guint n = 0;

      for (guint j = 0; j < s->names->len; j++)
        n += strcmp (g_ptr_array_index (s->names, j), "descend") == 0;
      max_descend = MAX (max_descend, n);
      if (n >= 150 && find_run (s, PATH ("main", "recurse_start", "descend")) >= 0)
        deep += s->weight;
    }
  g_test_message ("recurse-nofp, 65528-byte copies: %.1f %% of samples 150 frames deep under main, "
                  "deepest %u descend frames", 100.0 * deep / big->n_samples, max_descend);
  g_assert_cmpuint (max_descend, ==, 150); /* descend (149) down to descend (0) */
  it_assert_percent ("recursion unwound to main", 100.0 * deep / big->n_samples, 100, TOLERANCE);
  it_assert_percent ("complete stacks, recurse-nofp", complete_percent (big), 100, 100 - MIN_COMPLETE);

  /* A 1 KiB copy holds a few dozen frames: the stacks are cut, counted,
   * and rooted under "[truncated]" rather than under a false caller. */
  small = record_workload ("recurse-small", "recurse-nofp", PATH ("--call-graph", "dwarf,1024"));
  for (guint i = 0; i < small->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (small->stacks, i);

      if (s->names->len > 0 && strcmp (g_ptr_array_index (s->names, 0), "[truncated]") == 0)
        {
          under_truncated += s->weight;
          g_assert_cmpint (find_run (s, PATH ("main")), ==, -1);
          g_assert_cmpstr (g_ptr_array_index (s->modules, 0), ==, "");
        }
    }
  g_assert_cmpint (small->truncated, >=, (gint64) (small->n_samples * 9 / 10));
  g_assert_cmpint (under_truncated, ==, small->truncated);
  /* ... cut where the copy ended, which the capture says. */
  g_assert_cmpint (small->truncated_copy, >=, small->truncated * 9 / 10);

  /* And the report says so, with a way out. */
  capture = g_strdup_printf ("%s/recurse-small.hotpath", tmpdir);
  {
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) report = it_run_cli (args);

    g_assert_cmpint (report->status, ==, 0);
    g_assert_nonnull (strstr (report->out, "--call-graph dwarf,32768"));
  }

  /* Stacks cut by copies of the kernel's largest size: no bigger copy
   * exists, so the report must not suggest the size they had. */
  {
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) report = NULL;
    sqlite3 *db = NULL;

    g_assert_cmpint (sqlite3_open (capture, &db), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_exec (db, "UPDATE metadata SET value = '65528' WHERE key = 'stack_size'",
                                   NULL, NULL, NULL), ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_changes (db), ==, 1);
    sqlite3_close (db);
    report = it_run_cli (args);
    g_test_message ("%s", report->out);
    g_assert_cmpint (report->status, ==, 0);
    g_assert_null (strstr (report->out, "--call-graph dwarf,"));
    g_assert_nonnull (strstr (report->out, "already the largest the kernel allows (65528 bytes)"));
  }
}

static void
test_inline (void)
{
  g_autoptr(Recording) leaf = NULL;
  g_autoptr(Recording) calls = NULL;
  guint64 inline_leaf = 0, inline_middle = 0;

  if (!it_require_perf_events ())
    return;

  /* Inline helpers at the leaf: hot_loop's own code is theirs. */
  leaf = record_workload ("inline-nofp", "inline-nofp", NULL);
  it_assert_percent ("hot_loop > mix_heavy", path_percent (leaf, TRUE, PATH ("main", "hot_loop", "mix_heavy")), 75, TOLERANCE);
  it_assert_percent ("hot_loop > mix_light", path_percent (leaf, TRUE, PATH ("main", "hot_loop", "mix_light")), 25, TOLERANCE);
  it_assert_percent ("complete stacks, inline-nofp", complete_percent (leaf), 100, 100 - MIN_COMPLETE);

  /* Inline helpers in the middle: the return address into run_stages
   * resolves to the helper that made the call. */
  calls = record_workload ("inline-calls-nofp", "inline-calls-nofp", NULL);
  it_assert_percent ("run_stages > stage_heavy > burn",
                     path_percent (calls, TRUE, PATH ("main", "run_stages", "stage_heavy", "burn")), 75, TOLERANCE);
  it_assert_percent ("run_stages > stage_light > burn",
                     path_percent (calls, TRUE, PATH ("main", "run_stages", "stage_light", "burn")), 25, TOLERANCE);
  it_assert_percent ("complete stacks, inline-calls-nofp", complete_percent (calls), 100, 100 - MIN_COMPLETE);

  /* ... and they are marked inline, their callers not. */
  for (guint i = 0; i < leaf->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (leaf->stacks, i);
      gint at = find_run (s, PATH ("hot_loop", "mix_heavy"));

      if (at >= 0)
        {
          g_assert_false (g_array_index (s->inline_, gboolean, at));
          g_assert_true (g_array_index (s->inline_, gboolean, at + 1));
          inline_leaf += s->weight;
        }
    }
  for (guint i = 0; i < calls->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (calls->stacks, i);
      gint at = find_run (s, PATH ("run_stages", "stage_heavy", "burn"));

      if (at >= 0)
        {
          g_assert_false (g_array_index (s->inline_, gboolean, at));
          g_assert_true (g_array_index (s->inline_, gboolean, at + 1));
          g_assert_false (g_array_index (s->inline_, gboolean, at + 2));
          /* The call site: the line of stage_heavy that calls burn. */
          g_assert_true (g_str_has_suffix (g_ptr_array_index (s->files, at + 1), "inline-calls.c"));
          g_assert_cmpuint (g_array_index (s->lines, guint, at + 1), >, 0);
          inline_middle += s->weight;
        }
    }
  g_assert_cmpuint (inline_leaf, >, 0);
  g_assert_cmpuint (inline_middle, >, 0);
}

/* A short script that runs the interpreter loop, calls, dicts, strings,
 * and byte copies that land in the C library. -S: no site import, so the
 * deep import machinery of start-up is not most of a short run. */
static const char python_script[] =
  "def fib(n):\n"
  "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
  "\n"
  "def words(n):\n"
  "    counts = {}\n"
  "    for i in range(n):\n"
  "        w = 'w%d' % (i % 97)\n"
  "        counts[w] = counts.get(w, 0) + 1\n"
  "    return len(counts)\n"
  "\n"
  "def copies(n):\n"
  "    total = 0\n"
  "    for i in range(n):\n"
  "        block = bytes(1 << 16) + b'x' * (1 << 15)\n"
  "        total += len(block * 8)\n"
  "    return total\n"
  "\n"
  "total = 0\n"
  "for r in range(15):\n"
  "    total += fib(20) + words(40000) + copies(300)\n"
  "print(total)\n";

static void
test_python (void)
{
  g_autofree char *python = g_find_program_in_path ("python3.11-dbg");
  g_autofree char *script = NULL;
  g_autoptr(Recording) r = NULL;
  g_autoptr(GError) error = NULL;
  guint64 eval_with_lines = 0, libc_leaf = 0, libc_lines = 0;

  if (python == NULL)
    {
      g_test_skip ("python3.11-dbg is not installed (apt-get install python3.11-dbg libc6-dbg)");
      return;
    }
  if (!it_require_perf_events ())
    return;

  script = g_build_filename (tmpdir, "script.py", NULL);
  g_assert_true (g_file_set_contents (script, python_script, -1, &error));
  r = record ("python", NULL, PATH (python, "-S", script));

  g_assert_cmpuint (r->n_samples, >=, 500);
  it_assert_percent ("complete stacks, python3.11-dbg", complete_percent (r), 100, 100 - MIN_COMPLETE);

  for (guint i = 0; i < r->stacks->len; i++)
    {
      const Stack *s = g_ptr_array_index (r->stacks, i);
      guint last = s->names->len - 1;
      gint eval = find_run (s, PATH ("_PyEval_EvalFrameDefault"));

      /* The interpreter loop, named and with its line in ceval.c. */
      if (eval >= 0 && g_str_has_suffix (g_ptr_array_index (s->files, eval), "ceval.c")
          && g_array_index (s->lines, guint, eval) > 0)
        eval_with_lines += s->weight;

      /* Into the C library (memset, memcpy, malloc) and back out through
       * the interpreter to main. */
      if (s->names->len > 0 && g_str_has_suffix (g_ptr_array_index (s->modules, last), "/libc.so.6")
          && find_run (s, PATH ("main")) >= 0 && eval >= 0)
        libc_leaf += s->weight;

      /* libc6-dbg gives the C library's frames their source lines. */
      for (guint j = 0; j < s->names->len; j++)
        if (g_str_has_suffix (g_ptr_array_index (s->modules, j), "/libc.so.6")
            && g_array_index (s->lines, guint, j) > 0
            && strlen (g_ptr_array_index (s->files, j)) > 0)
          {
            libc_lines += s->weight;
            break;
          }
    }
  g_test_message ("python3.11-dbg: %.1f %% complete, %.1f %% in _PyEval_EvalFrameDefault with a "
                  "ceval.c line, %.1f %% with a libc leaf under main, %.1f %% with libc source lines",
                  complete_percent (r), 100.0 * eval_with_lines / r->n_samples,
                  100.0 * libc_leaf / r->n_samples, 100.0 * libc_lines / r->n_samples);
  it_assert_percent ("stacks through _PyEval_EvalFrameDefault with lines",
                     100.0 * eval_with_lines / r->n_samples, 100, 10);
  g_assert_cmpuint (libc_leaf, >=, r->n_samples / 20);
  if (libc_lines < r->n_samples / 2)
    g_error ("only %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples have libc frames with "
             "source lines: is libc6-dbg installed?", libc_lines, r->n_samples);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = it_tmpdir_new ();
  g_setenv ("HOTPATH_CHECK_CACHES", "1", TRUE);

  g_test_add_func ("/dwarf/paths", test_paths);
  g_test_add_func ("/dwarf/recurse", test_recurse);
  g_test_add_func ("/dwarf/inline", test_inline);
  g_test_add_func ("/dwarf/python", test_python);

  ret = g_test_run ();
  it_tmpdir_free (tmpdir);
  return ret;
}
