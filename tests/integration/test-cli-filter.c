/* test-cli-filter.c - --from/--to/--tid/--pid count exactly what SQL counts; folds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capture written here has two processes: pid 100 with threads 100 and
 * 101, pid 200 with thread 200, sampled at irregular times over about
 * three seconds. For many ranges and thread choices, the number of
 * samples `hotpath-cli report` counts must equal a COUNT(*) over the
 * samples table with the same bounds (both ends included, counted from
 * the first sample), and the flame graph's root must say the same.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "integration-common.h"
#include "test-common.h"
#include "store/hp-capture-writer.h"

#define FIRST G_GINT64_CONSTANT (5000000000)  /* time of the first sample, ns */

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 module, fns[3], stacks[3];
  const gint32 tids[] = { 100, 101, 200 };
  GRand *rand = g_rand_new_with_seed (42);
  guint64 time = (guint64) FIRST;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_process (w, 100, "app");
  hp_capture_writer_set_process (w, 200, "helper");
  hp_capture_writer_set_thread (w, 100, 100, "app");
  hp_capture_writer_set_thread (w, 101, 100, "worker");
  hp_capture_writer_set_thread (w, 200, 200, "helper");
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("work_%u", i);

      fns[i] = hp_capture_writer_intern_function (w, name, module, NULL, 0);
      stacks[i] = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, fns[i], NULL, 0, FALSE, 0x10 * (i + 1)));
    }
  for (guint i = 0; i < 3000; i++)
    {
      guint which = g_rand_int_range (rand, 0, 3);

      hp_capture_writer_add_sample (w, time, tids[which], 0, stacks[(which + i) % 3], 1000000);
      /* 0 to 2 ms apart, sometimes twice at one time */
      time += g_rand_int_range (rand, 0, 3) * 1000000;
    }
  g_rand_free (rand);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

static gint64
report_count (const char         *path,
              const char * const *filter)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(ItResult) res = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (args, (gpointer) "report");
  g_ptr_array_add (args, (gpointer) path);
  g_ptr_array_add (args, (gpointer) "--format");
  g_ptr_array_add (args, (gpointer) "json");
  for (guint i = 0; filter[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) filter[i]);
  g_ptr_array_add (args, NULL);
  res = it_run_cli ((const char * const *) args->pdata);
  if (res->status != 0)
    g_error ("report failed: %s", res->err);
  g_assert_true (json_parser_load_from_data (parser, res->out, -1, &error));
  g_assert_no_error (error);
  return json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)), "samples");
}

static void
test_ranges (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "filter.hotpath", NULL);
  static const struct { const char *from, *to; } ranges[] = {
    { "0", "0" }, { "0", "0.5" }, { "0.25", "1.25" }, { "1", "1.002" }, { "0.0005", "2.9995" },
    { "1.5", NULL }, { NULL, "0.75" }, { "2.5", "100" }, { "100", NULL },
  };
  static const struct { const char *option, *value, *where; } threads[] = {
    { NULL, NULL, "1" }, { "--tid", "101", "tid = 101" }, { "--pid", "100", "tid IN (100, 101)" },
    { "--pid", "200", "tid = 200" },
  };

  write_capture (path);
  g_assert_cmpint (report_count (path, (const char *[]) { NULL }), ==, 3000);

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
      {
        const char *filter[7] = { NULL };
        g_autofree char *where = NULL;
        guint n = 0;
        gint64 from_ns = ranges[r].from ? (gint64) (g_ascii_strtod (ranges[r].from, NULL) * 1e9 + 0.5) : 0;
        gint64 to_ns = ranges[r].to ? (gint64) (g_ascii_strtod (ranges[r].to, NULL) * 1e9 + 0.5) : G_MAXINT64 - FIRST;
        gint64 expected, got;

        if (threads[t].option)
          {
            filter[n++] = threads[t].option;
            filter[n++] = threads[t].value;
          }
        if (ranges[r].from)
          {
            filter[n++] = "--from";
            filter[n++] = ranges[r].from;
          }
        if (ranges[r].to)
          {
            filter[n++] = "--to";
            filter[n++] = ranges[r].to;
          }
        where = g_strdup_printf ("%s AND time >= %" G_GUINT64_FORMAT " + %" G_GINT64_FORMAT
                                 " AND time <= %" G_GINT64_FORMAT " + %" G_GINT64_FORMAT,
                                 threads[t].where, FIRST, from_ns, FIRST, to_ns);
        expected = hp_test_sql_count (path, where);
        got = report_count (path, filter);
        g_test_message ("%s %s, %s..%s: %" G_GINT64_FORMAT " (SQL %" G_GINT64_FORMAT ")",
                        threads[t].option ?: "", threads[t].value ?: "",
                        ranges[r].from ?: "start", ranges[r].to ?: "end", got, expected);
        g_assert_cmpint (got, ==, expected);
      }
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_flamegraph (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "filter.hotpath", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "range.svg", NULL);
  g_autofree char *svg = NULL;
  g_autofree char *root = NULL;
  g_autoptr(ItResult) res = NULL;
  gint64 expected;

  write_capture (path);
  expected = hp_test_sql_count (path, "tid = 200 AND time >= 5500000000 AND time <= 6000000000");
  {
    const char *args[] = { "flamegraph", path, "-o", svg_path, "--pid", "200", "--from", "0.5", "--to", "1", NULL };
    res = it_run_cli (args);
  }
  g_assert_cmpint (res->status, ==, 0);
  g_assert_true (g_file_get_contents (svg_path, &svg, NULL, NULL));
  root = g_strdup_printf ("<title>all (%" G_GINT64_FORMAT " samples, 100.00%%)</title>", expected);
  g_assert_nonnull (strstr (svg, root));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_bad_filters (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "filter.hotpath", NULL);
  static const struct { const char *args[4]; const char *message; } cases[] = {
    { { "--from", "nan", NULL }, "--from must be a number of seconds" },
    { { "--to", "-1", NULL }, "--to must be a number of seconds" },
    { { "--from", "2", "--to", "1" }, "--from 2 is after --to 1" },
    { { "--tid", "999", NULL }, "has no thread 999" },
    { { "--pid", "999", NULL }, "has no process 999" },
    { { "--inline", "flat", NULL }, "--inline must be 'own' or 'fold', not 'flat'" },
  };

  write_capture (path);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[8] = { "report", path, NULL };
      g_autoptr(ItResult) res = NULL;

      for (guint j = 0; j < 4 && cases[i].args[j] != NULL; j++)
        args[2 + j] = cases[i].args[j];
      res = it_run_cli (args);
      g_assert_cmpint (res->status, !=, 0);
      g_assert_nonnull (strstr (res->err, cases[i].message));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* main → f → f → f → g: merged, the tree is main → f → g */
static void
test_merge_recursion (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "recursion.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ItResult) res = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *node;
  const char *expected[] = { "main", "f", "g" };

  {
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 module, stack = 0;
    const char *names[] = { "main", "f", "f", "f", "g" };

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        gint64 fn = hp_capture_writer_intern_function (w, names[i], module, NULL, 0);

        stack = hp_capture_writer_intern_stack (w, stack, hp_capture_writer_intern_frame (w, fn, NULL, i, FALSE, 0x10 * i));
      }
    for (guint i = 0; i < 5; i++)
      hp_capture_writer_add_sample (w, 1000 + i, 1, 0, stack, 1);
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  {
    const char *args[] = { "report", path, "--tree", "--format", "json", "--merge-recursion", NULL };
    res = it_run_cli (args);
  }
  g_assert_cmpint (res->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, res->out, -1, &error));
  g_assert_no_error (error);
  node = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "tree");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonArray *children = json_object_get_array_member (node, "children");

      g_assert_cmpuint (json_array_get_length (children), ==, 1);
      node = json_array_get_object_element (children, 0);
      g_assert_cmpstr (json_object_get_string_member (node, "name"), ==, expected[i]);
      g_assert_cmpint (json_object_get_int_member (node, "total"), ==, 5);
    }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (node, "children")), ==, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* app's main → work → memcpy (libc.so.6) → sys_write (kernel), and a
 * kernel thread's stack of kernel frames only:
 *   main > work                         10
 *   main > work > memcpy                30
 *   main > work > memcpy > sys_write    20
 *   kthread_loop                         5 */
static void
write_fold_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, libc, kernel, s_main, s_work, s_memcpy, s_write, s_kthread;
  guint64 t = 1000;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  app = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  libc = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, FALSE);
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
#define FRAME(module, name, off) \
  hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, NULL, 0), NULL, 0, FALSE, off)
  s_main = hp_capture_writer_intern_stack (w, 0, FRAME (app, "main", 0x10));
  s_work = hp_capture_writer_intern_stack (w, s_main, FRAME (app, "work", 0x20));
  s_memcpy = hp_capture_writer_intern_stack (w, s_work, FRAME (libc, "__memmove_avx_unaligned_erms", 0x30));
  s_write = hp_capture_writer_intern_stack (w, s_memcpy, FRAME (kernel, "sys_write", 0xffff0000));
  s_kthread = hp_capture_writer_intern_stack (w, 0, FRAME (kernel, "kthread_loop", 0xffff0100));
#undef FRAME
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, t++, 1, 0, s_work, 1);
  for (guint i = 0; i < 30; i++)
    hp_capture_writer_add_sample (w, t++, 1, 0, s_memcpy, 1);
  for (guint i = 0; i < 20; i++)
    hp_capture_writer_add_sample (w, t++, 1, 0, s_write, 1);
  for (guint i = 0; i < 5; i++)
    hp_capture_writer_add_sample (w, t++, 2, 0, s_kthread, 1);
  g_assert_true (hp_capture_writer_finish (w, &error));
}

/* self of @name in report --format json with @options, -1 when absent;
 * *@samples receives the report's sample count */
static gint64
fold_self (const char         *path,
           const char * const *options,
           const char         *name,
           gint64             *samples)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(ItResult) res = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonArray *functions;

  g_ptr_array_add (args, (gpointer) "report");
  g_ptr_array_add (args, (gpointer) path);
  g_ptr_array_add (args, (gpointer) "--format");
  g_ptr_array_add (args, (gpointer) "json");
  for (guint i = 0; options[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) options[i]);
  g_ptr_array_add (args, NULL);
  res = it_run_cli ((const char * const *) args->pdata);
  if (res->status != 0)
    g_error ("report failed: %s", res->err);
  g_assert_true (json_parser_load_from_data (parser, res->out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  *samples = json_object_get_int_member (root, "samples");
  functions = json_object_get_array_member (root, "functions");
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);

      if (g_strcmp0 (json_object_get_string_member (f, "name"), name) == 0)
        return json_object_get_int_member (f, "total") > 0 ? json_object_get_int_member (f, "self") : -1;
    }
  return -1;
}

/* A module perf already names in brackets keeps one pair in the text
 * report: "[kernel.kallsyms]", not "[[kernel.kallsyms]]" */
static void
test_module_brackets (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "brackets.hotpath", NULL);
  const char *forms[][5] = {
    { "report", NULL, "--tree", NULL },
    { "report", NULL, "--callers", "sys_write", NULL },
    { "report", NULL, "--callees", "memcpy", NULL },
  };

  write_fold_capture (path);
  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(ItResult) res = NULL;

      forms[i][1] = path;
      res = it_run_cli (forms[i]);
      if (res->status != 0)
        g_error ("%s %s failed: %s", forms[i][0], forms[i][2], res->err);
      g_assert_nonnull (strstr (res->out, "[kernel.kallsyms]"));
      g_assert_null (strstr (res->out, "[[kernel.kallsyms]]"));
      /* a path still gets its pair */
      g_assert_nonnull (strstr (res->out, "[libc.so.6]"));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_fold (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "fold.hotpath", NULL);
  gint64 samples = 0;

  write_fold_capture (path);
  g_assert_cmpint (fold_self (path, (const char *[]) { NULL }, "sys_write", &samples), ==, 20);
  g_assert_cmpint (samples, ==, 65);

  /* the kernel hidden: sys_write's 20 are memcpy's, the kernel thread's 5 left out */
  g_assert_cmpint (fold_self (path, (const char *[]) { "--hide-kernel", NULL }, "sys_write", &samples), ==, -1);
  g_assert_cmpint (samples, ==, 60);
  g_assert_cmpint (fold_self (path, (const char *[]) { "--hide-kernel", NULL }, "__memmove_avx_unaligned_erms",
                              &samples), ==, 50);

  /* fold libc: memcpy's own 30 are work's; the kernel below it stays */
  g_assert_cmpint (fold_self (path, (const char *[]) { "--fold", "libc", NULL }, "work", &samples), ==, 40);
  g_assert_cmpint (samples, ==, 65);
  g_assert_cmpint (fold_self (path, (const char *[]) { "--fold", "libc", NULL }, "sys_write", &samples), ==, 20);
  g_assert_cmpint (fold_self (path, (const char *[]) { "--fold", "libc", NULL }, "__memmove_avx_unaligned_erms",
                              &samples), ==, -1);

  /* a function by the name people type (memcpy is an alias), both at once */
  g_assert_cmpint (fold_self (path, (const char *[]) { "--fold", "memcpy", "--hide-kernel", NULL }, "work",
                              &samples), ==, 60);
  g_assert_cmpint (samples, ==, 60);
  g_assert_cmpint (fold_self (path, (const char *[]) { "--fold", "work", "--fold", "libc", NULL }, "main",
                              &samples), ==, 40);

  /* the header says what is hidden; a name that names nothing is refused */
  {
    const char *args[] = { "report", path, "--hide-kernel", "--fold", "libc", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->out, "kernel frames hidden (5 samples in the kernel only left out)"));
    g_assert_nonnull (strstr (res->out, "libc folded into their callers"));
  }
  {
    const char *args[] = { "report", path, "--fold", "wrok", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, !=, 0);
    g_assert_nonnull (strstr (res->err, "--fold wrok names no module and no function"));
    g_assert_nonnull (strstr (res->err, "did you mean work"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/filter-ranges", test_ranges);
  g_test_add_func ("/integration/cli/filter-flamegraph", test_flamegraph);
  g_test_add_func ("/integration/cli/filter-bad", test_bad_filters);
  g_test_add_func ("/integration/cli/merge-recursion", test_merge_recursion);
  g_test_add_func ("/integration/cli/fold", test_fold);
  g_test_add_func ("/integration/cli/module-brackets", test_module_brackets);
  return g_test_run ();
}
