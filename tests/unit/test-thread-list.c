/* test-thread-list.c - the thread filter's entries and the threads' start functions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Issue 14, thread list: a process of one thread was listed twice (as the
 * process and as its thread), threads and processes without samples were
 * listed, "1 samples" was printed, and threads were named by their name
 * alone, which is the program's name for every thread of a pool.
 *
 * The capture is built by hand:
 *
 *   pid 10 "server": tid 10 (main: _start > __libc_start_main > main > serve)  40 samples
 *                    tid 11 (clone3 > start_thread > worker_loop > compute)    25
 *                    tid 12                                                      0
 *   pid 20 "tool":   tid 20 (_start > __libc_start_main > main > compute)        1
 *   pid 30 "idle":   no thread with samples
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <locale.h>
#include <string.h>

#include "document/hp-thread-list.h"
#include "test-capture-data.h"

enum { F_START = 1, F_LIBC_START, F_MAIN, F_SERVE, F_CLONE3, F_START_THREAD, F_WORKER, F_COMPUTE };

static TestData *
make_data (void)
{
  TestData *data = test_data_new ();
  static const char *functions[] = {
    NULL, "_start", "__libc_start_main", "main", "serve", "clone3", "start_thread", "worker_loop", "compute",
  };
  /* (parent, frame); frame i is function i */
  static const HpCaptureStack stacks[] = {
    { 0, 0 },
    { 0, F_START }, { 1, F_LIBC_START }, { 2, F_MAIN }, { 3, F_SERVE },              /* 4: main > serve */
    { 0, F_CLONE3 }, { 5, F_START_THREAD }, { 6, F_WORKER }, { 7, F_COMPUTE },       /* 8: worker_loop > compute */
    { 3, F_COMPUTE },                                                                /* 9: main > compute */
  };
  static const HpCaptureStackCount counts[] = {
    { 4, 10, 30, 30 }, { 3, 10, 10, 10 },
    { 8, 11, 20, 20 }, { 7, 11, 5, 5 },
    { 9, 20, 1, 1 },
  };
  static const HpCaptureThread threads[] = {
    { 10, 10, (char *) "server" }, { 11, 10, (char *) "server" }, { 12, 10, (char *) "server" },
    { 20, 20, (char *) "tool" }, { 31, 30, (char *) "idle" },
  };
  static const HpCaptureProcess processes[] = {
    { 10, (char *) "server --port 80" }, { 20, (char *) "tool" }, { 30, (char *) "idle" },
  };

  g_array_set_size (data->modules, 2);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      HpCaptureFunction f = { (char *) functions[i], i > 0 ? 1 : 0, NULL, 0 };
      HpCaptureFrame fr = { i, NULL, 0, FALSE, i * 16 };

      g_array_append_val (data->functions, f);
      g_array_append_val (data->frames, fr);
    }
  g_array_append_vals (data->stacks, stacks, G_N_ELEMENTS (stacks));
  g_array_append_vals (data->stack_counts, counts, G_N_ELEMENTS (counts));
  g_array_append_vals (data->threads, threads, G_N_ELEMENTS (threads));
  g_array_append_vals (data->processes, processes, G_N_ELEMENTS (processes));
  return data;
}

/* samples per entry of data->threads, as the loaded capture counts them */
static guint64 *
thread_samples (TestData *data)
{
  guint64 *samples = g_new0 (guint64, data->threads->len);

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      for (guint t = 0; t < data->threads->len; t++)
        if (g_array_index (data->threads, HpCaptureThread, t).tid == c->tid)
          samples[t] += c->samples;
    }
  return samples;
}

static void
assert_entry (GPtrArray  *entries,
              guint       index,
              const char *label,
              guint64     samples,
              const int  *tids)
{
  HpThreadFilterEntry *entry = g_ptr_array_index (entries, index);
  guint n;

  g_assert_cmpstr (entry->label, ==, label);
  g_assert_cmpuint (entry->samples, ==, samples);
  if (tids == NULL)
    {
      g_assert_null (entry->tids);
      return;
    }
  g_assert_nonnull (entry->tids);
  for (n = 0; tids[n] != 0; n++)
    g_assert_true (g_hash_table_contains (entry->tids, GINT_TO_POINTER (tids[n])));
  g_assert_cmpuint (g_hash_table_size (entry->tids), ==, n);
}

/* Processes by what their threads count, busiest first; "idle", which
 * has none, left out: server 30+10+20+5, tool 1, of 66. */
static void
test_process_amounts (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = thread_samples (data);
  g_autoptr(GArray) amounts = NULL;
  guint64 whole = 0;

  amounts = hp_process_amounts (data, samples, &whole);
  g_assert_cmpuint (whole, ==, 66);
  g_assert_cmpuint (amounts->len, ==, 2);
  g_assert_cmpint (g_array_index (amounts, HpProcessAmount, 0).pid, ==, 10);
  g_assert_cmpstr (g_array_index (amounts, HpProcessAmount, 0).command, ==, "server --port 80");
  g_assert_cmpuint (g_array_index (amounts, HpProcessAmount, 0).amount, ==, 65);
  g_assert_cmpint (g_array_index (amounts, HpProcessAmount, 1).pid, ==, 20);
  g_assert_cmpuint (g_array_index (amounts, HpProcessAmount, 1).amount, ==, 1);

  /* the tool busier than the server: it comes first */
  samples[3] = 100;
  g_clear_pointer (&amounts, g_array_unref);
  amounts = hp_process_amounts (data, samples, NULL);
  g_assert_cmpint (g_array_index (amounts, HpProcessAmount, 0).pid, ==, 20);
  g_assert_cmpuint (g_array_index (amounts, HpProcessAmount, 0).amount, ==, 100);
}

static void
test_start_function (void)
{
  g_autoptr(TestData) data = make_data ();

  g_assert_cmpstr (hp_thread_start_function (data, 10), ==, "main");
  g_assert_cmpstr (hp_thread_start_function (data, 11), ==, "worker_loop");
  g_assert_cmpstr (hp_thread_start_function (data, 20), ==, "main");
  g_assert_null (hp_thread_start_function (data, 12));
}

static void
test_entries (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = thread_samples (data);
  g_autoptr(GPtrArray) entries = hp_thread_filter_entries (data, NULL, NULL, samples, 0, NULL, NULL);
  static const int server[] = { 10, 11, 0 };
  static const int t10[] = { 10, 0 };
  static const int t11[] = { 11, 0 };
  static const int t20[] = { 20, 0 };

  for (guint i = 0; i < entries->len; i++)
    g_test_message ("%s", ((HpThreadFilterEntry *) g_ptr_array_index (entries, i))->label);
  /* no tid 12, no pid 30 (no samples), no process entry for "tool"
   * (one thread: that thread) */
  g_assert_cmpuint (entries->len, ==, 5);
  assert_entry (entries, 0, "All threads (66 samples)", 66, NULL);
  assert_entry (entries, 1, "Process server --port 80 (10, 65 samples)", 65, server);
  assert_entry (entries, 2, "Thread server in main (10, 40 samples)", 40, t10);
  assert_entry (entries, 3, "Thread server in worker_loop (11, 25 samples)", 25, t11);
  assert_entry (entries, 4, "Thread tool in main (20, 1 sample)", 1, t20);
}

/* Within a time range: the entries of the whole capture, each saying
 * what it counts in the range (here the worker none), and the start
 * functions found once for every thread the same as one by one. */
static void
test_range (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = thread_samples (data);
  g_autofree const char **starts = hp_thread_start_functions (data);
  g_autofree guint64 *in_range = g_new0 (guint64, data->threads->len);
  g_autoptr(GPtrArray) entries = NULL;
  static const int server[] = { 10, 11, 0 };
  static const int t11[] = { 11, 0 };
  static const int t20[] = { 20, 0 };

  for (guint t = 0; t < data->threads->len; t++)
    {
      gint32 tid = g_array_index (data->threads, HpCaptureThread, t).tid;

      g_assert_cmpstr (starts[t], ==, hp_thread_start_function (data, tid));
      in_range[t] = tid == 10 ? 4 : tid == 20 ? 1 : 0;
    }
  entries = hp_thread_filter_entries (data, starts, samples, in_range, 0, NULL, NULL);
  g_assert_cmpuint (entries->len, ==, 5);
  assert_entry (entries, 0, "All threads (5 samples)", 5, NULL);
  assert_entry (entries, 1, "Process server --port 80 (10, 4 samples)", 4, server);
  assert_entry (entries, 3, "Thread server in worker_loop (11, 0 samples)", 0, t11);
  assert_entry (entries, 4, "Thread tool in main (20, 1 sample)", 1, t20);
}

/* One process: its entry would be "All threads" again. */
static void
test_one_process (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = NULL;
  g_autoptr(GPtrArray) entries = NULL;

  g_array_set_size (data->stack_counts, 4);  /* tool's sample goes */
  samples = thread_samples (data);
  entries = hp_thread_filter_entries (data, NULL, NULL, samples, 0, NULL, NULL);
  g_assert_cmpuint (entries->len, ==, 3);
  assert_entry (entries, 0, "All threads (65 samples)", 65, NULL);
  g_assert_true (g_str_has_prefix (((HpThreadFilterEntry *) g_ptr_array_index (entries, 1))->label, "Thread server in main"));
  g_assert_true (g_str_has_prefix (((HpThreadFilterEntry *) g_ptr_array_index (entries, 2))->label, "Thread server in worker_loop"));
}

/* One sampled thread: "All threads" only, and "1 sample". */
static void
test_one_thread (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  HpCaptureStackCount only = g_array_index (data->stack_counts, HpCaptureStackCount, 4);

  g_array_set_size (data->stack_counts, 0);
  g_array_append_val (data->stack_counts, only);
  samples = thread_samples (data);
  entries = hp_thread_filter_entries (data, NULL, NULL, samples, 0, NULL, NULL);
  g_assert_cmpuint (entries->len, ==, 1);
  assert_entry (entries, 0, "All threads (1 sample)", 1, NULL);
}

static char *
format_faults (guint64  amount,
               gpointer user_data)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", amount, (const char *) user_data);
}

/* A process chosen in the process filter: "All its threads" keeps them,
 * then each; every entry says what the caller counts. */
static void
test_one_process_chosen (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = thread_samples (data);
  g_autoptr(GPtrArray) entries = hp_thread_filter_entries (data, NULL, NULL, samples, 10, format_faults, (gpointer) "page faults");
  static const int server[] = { 10, 11, 12, 0 };
  static const int t10[] = { 10, 0 };
  static const int t11[] = { 11, 0 };

  for (guint i = 0; i < entries->len; i++)
    g_test_message ("%s", ((HpThreadFilterEntry *) g_ptr_array_index (entries, i))->label);
  g_assert_cmpuint (entries->len, ==, 3);
  assert_entry (entries, 0, "All its threads (65 page faults)", 65, server);
  assert_entry (entries, 1, "Thread server in main (10, 40 page faults)", 40, t10);
  assert_entry (entries, 2, "Thread server in worker_loop (11, 25 page faults)", 25, t11);
}

/* Names from the capture are made safe; a thread whose pid no process
 * row names is still listed. */
static void
test_hostile_names (void)
{
  g_autoptr(TestData) data = make_data ();
  g_autofree guint64 *samples = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, 3);

  th->name = (char *) "to\nol\x1b[2J\xff";
  th->pid = 99;
  samples = thread_samples (data);
  entries = hp_thread_filter_entries (data, NULL, NULL, samples, 0, NULL, NULL);
  g_assert_cmpuint (entries->len, ==, 5);
  for (guint i = 0; i < entries->len; i++)
    {
      const char *label = ((HpThreadFilterEntry *) g_ptr_array_index (entries, i))->label;

      g_assert_true (g_utf8_validate (label, -1, NULL));
      g_assert_null (strchr (label, '\n'));
      g_assert_null (strchr (label, '\x1b'));
    }
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thread-list/start-function", test_start_function);
  g_test_add_func ("/thread-list/process-amounts", test_process_amounts);
  g_test_add_func ("/thread-list/entries", test_entries);
  g_test_add_func ("/thread-list/range", test_range);
  g_test_add_func ("/thread-list/one-process", test_one_process);
  g_test_add_func ("/thread-list/one-thread", test_one_thread);
  g_test_add_func ("/thread-list/one-process-chosen", test_one_process_chosen);
  g_test_add_func ("/thread-list/hostile-names", test_hostile_names);
  return g_test_run ();
}
