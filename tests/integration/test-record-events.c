/* test-record-events.c - other events than CPU time, off-CPU time, the whole system
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/workloads/events.c knows what it does by construction: N page
 * faults in touch_pages, half of its wall-clock time asleep in
 * sleep_half, or a busy loop in busy_loop. The recordings here must find
 * those numbers, read through `report --format json --event`:
 *
 *   page-faults of touch_pages (every 10th fault)   N ± 10 %, in N/10
 *                                                   samples ± 10 %
 *   the same with cpu-clock in the same capture     the same
 *   wall-clock time under sleep_half (--off-cpu)    50 ± 5 %
 *   two busy programs recorded system-wide (-a)     both, each with a share
 *   the same, its duration (--duration 1.5)         1.5 s, and its samples
 *                                                   span no more
 *
 * The thread that empties the rings runs at a raised priority as root.
 * And the refusals must say what is missing: -a and --off-cpu as a user
 * without privileges (setpriv), a hardware event on a machine without
 * counters, an event that does not exist.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "integration-common.h"
#include "test-common.h"
#include "record/hp-events.h"

#define PAGES 5000

/* report --format json of @capture, for @event (NULL: the default). */
static JsonObject *
report_json (const char *capture,
             const char *event)
{
  const char *args[] = { "report", capture, "--format", "json", event ? "--event" : NULL, event, NULL };
  g_autoptr(ItResult) r = it_run_cli (args);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static JsonObject *
find_function (JsonObject *report,
               const char *name)
{
  JsonArray *functions = json_object_get_array_member (report, "functions");

  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);

      if (g_strcmp0 (json_object_get_string_member (f, "name"), name) == 0)
        return f;
    }
  return NULL;
}

static gint64
total_weight_of (JsonObject *report,
                 const char *name)
{
  JsonObject *f = find_function (report, name);

  return f != NULL ? json_object_get_int_member (f, "total_weight") : 0;
}

/* Every sample's weight counts once as some function's self weight. */
static gint64
all_weight (JsonObject *report)
{
  JsonArray *functions = json_object_get_array_member (report, "functions");
  gint64 sum = 0;

  for (guint i = 0; i < json_array_get_length (functions); i++)
    sum += json_object_get_int_member (json_array_get_object_element (functions, i), "self_weight");
  return sum;
}

static void
record (const char * const *args)
{
  g_autoptr(ItResult) r = it_run_cli (args);

  if (r->status != 0)
    g_error ("hotpath-cli record failed (%d): %s", r->status, r->err);
}

static void
test_page_faults (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *one = g_build_filename (dir, "faults.hotpath", NULL);
  g_autofree char *two = g_build_filename (dir, "two.hotpath", NULL);
  g_autofree char *workload = it_workload_path ("events-fp");
  g_autofree char *pages = g_strdup_printf ("%d", PAGES);
  g_autoptr(JsonObject) faults = NULL;
  g_autoptr(JsonObject) faults2 = NULL;
  g_autoptr(JsonObject) clock = NULL;
  gint64 n1, n2;

  if (!it_require_perf_events ())
    return;
  record ((const char *[]) { "record", "-e", "page-faults", "-c", "10", "--call-graph", "fp",
                             "-o", one, "--", workload, "faults", pages, NULL });
  faults = report_json (one, NULL);
  g_assert_cmpstr (json_object_get_string_member (faults, "event"), ==, "page-faults");
  g_assert_cmpstr (json_object_get_string_member (faults, "unit"), ==, "page faults");
  n1 = total_weight_of (faults, "touch_pages");
  g_test_message ("page-faults of touch_pages: %" G_GINT64_FORMAT " (touched %d pages)", n1, PAGES);
  g_assert_cmpint (n1, >=, PAGES * 0.9);
  g_assert_cmpint (n1, <=, PAGES * 1.1);
  /* in a tenth as many samples: a page-faults sample that carried its
   * period was taken at every fault, -c 10 or not */
  {
    JsonObject *f = find_function (faults, "touch_pages");
    gint64 samples = json_object_get_int_member (f, "total");

    g_test_message ("in %" G_GINT64_FORMAT " samples", samples);
    g_assert_cmpint (samples, >=, PAGES / 10 * 0.9);
    g_assert_cmpint (samples, <=, PAGES / 10 * 1.1);
  }

  /* two events in one capture: the faults are the same, and cpu-clock is
   * there beside them, each counted alone */
  record ((const char *[]) { "record", "-e", "page-faults,cpu-clock", "-c", "10", "--call-graph", "fp",
                             "-o", two, "--", workload, "faults", pages, NULL });
  faults2 = report_json (two, "page-faults");
  n2 = total_weight_of (faults2, "touch_pages");
  g_test_message ("with cpu-clock beside: %" G_GINT64_FORMAT, n2);
  g_assert_cmpint (n2, >=, PAGES * 0.9);
  g_assert_cmpint (n2, <=, PAGES * 1.1);
  g_assert_cmpint (ABS (n2 - n1), <=, PAGES / 10);
  clock = report_json (two, "cpu-clock");
  g_assert_cmpstr (json_object_get_string_member (clock, "unit"), ==, "ns");
  /* the default is the first event; the cpu-clock samples are others */
  g_clear_pointer (&faults2, json_object_unref);
  faults2 = report_json (two, NULL);
  g_assert_cmpstr (json_object_get_string_member (faults2, "event"), ==, "page-faults");
  g_assert_cmpint (json_object_get_int_member (faults2, "samples") +
                   json_object_get_int_member (clock, "samples"), ==, it_count_sample_rows (two));
  {
    g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "report", two, "--event", "cycles", NULL });

    g_assert_cmpint (r->status, ==, 1);
    g_assert_nonnull (strstr (r->err, "has no event cycles; it has page-faults, cpu-clock"));
  }
  {
    g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "report", two, NULL });

    g_assert_cmpint (r->status, ==, 0);
    g_assert_nonnull (strstr (r->out, "# Event:     page-faults (unit: page faults), sampled every 10"));
    g_assert_nonnull (strstr (r->out, "# Events:    page-faults, cpu-clock (choose with --event)"));
  }
  it_tmpdir_free (g_steal_pointer (&dir));
}

static void
test_off_cpu (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "off.hotpath", NULL);
  g_autofree char *workload = it_workload_path ("events-nofp");
  g_autoptr(GError) error = NULL;
  g_autofree char *tracefs = NULL;
  g_autoptr(JsonObject) wall = NULL;
  g_autoptr(JsonObject) off = NULL;
  double share;

  if (!it_require_perf_events ())
    return;
  if (geteuid () != 0)
    {
      g_test_skip ("off-CPU time needs root");
      return;
    }
  if ((tracefs = hp_event_find_tracefs (&error)) == NULL)
    {
      g_test_skip (error->message);
      return;
    }
  record ((const char *[]) { "record", "--off-cpu", "-o", path, "--", workload, "sleep", "1500", NULL });
  wall = report_json (path, "wall");
  g_assert_cmpstr (json_object_get_string_member (wall, "event"), ==, "wall");
  g_assert_cmpstr (json_object_get_string_member (wall, "unit"), ==, "ns");
  share = 100.0 * total_weight_of (wall, "sleep_half") / MAX (all_weight (wall), 1);
  g_test_message ("wall-clock time under sleep_half: %.1f %% (of %.3f s)", share, all_weight (wall) / 1e9);
  it_assert_percent ("sleep_half", share, 50.0, 5.0);
  /* the whole recording is about 1.5 s of wall-clock time */
  g_assert_cmpint (all_weight (wall), >, 1.2e9);

  off = report_json (path, "off-cpu");
  g_assert_cmpstr (json_object_get_string_member (off, "unit"), ==, "ns");
  g_assert_cmpint (total_weight_of (off, "sleep_half"), >, all_weight (off) / 2);
  {
    g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "report", path, "--event", "off-cpu", NULL });

    g_assert_cmpint (r->status, ==, 0);
    g_assert_nonnull (strstr (r->out, "ns off CPU"));
  }
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* --duration @seconds recorded that long, and the samples span what the
 * capture's duration says: reading /proc for every process took 1.4 s
 * with the events already running, and those samples were kept, so a
 * capture of "3.16 s" held 4.58 s of samples. The end may trail by the
 * time it takes to disable the events on a loaded machine. @said is what
 * hotpath-cli record wrote on stderr. */
static void
check_duration (ItCapture  *cap,
                const char *said,
                double      seconds)
{
  const char *text = g_hash_table_lookup (cap->data->metadata, "duration_ns");
  const char *in = strstr (said, " Hz in ");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) samples = hp_capture_load_samples (cap->capture, cap->data, &error);
  guint64 first = G_MAXUINT64, last = 0;
  double duration, span;

  g_assert_no_error (error);
  g_assert_nonnull (text);
  g_assert_cmpuint (samples->len, >, 0);
  for (guint i = 0; i < samples->len; i++)
    {
      const HpCaptureSample *s = &g_array_index (samples, HpCaptureSample, i);

      first = MIN (first, s->time);
      last = MAX (last, s->time);
    }
  duration = g_ascii_strtod (text, NULL) / 1e9;
  span = (last - first) / 1e9;
  g_test_message ("--duration %.2f: duration %.3f s, samples over %.3f s", seconds, duration, span);
  g_assert_cmpfloat (fabs (duration - seconds), <, 0.25);
  g_assert_cmpfloat (span, <, duration + 0.25);
  g_assert_cmpfloat (span, >, duration / 2);
  /* and hotpath-cli's last line says that length too, not the time it
   * took to write the samples afterwards */
  g_assert_nonnull (in);
  g_assert_cmpfloat (fabs (g_ascii_strtod (in + strlen (" Hz in "), NULL) - duration), <, 0.01);
}

static guint64
samples_of_pid (const HpCaptureData *data,
                GPid                 pid,
                guint64             *all)
{
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  guint64 n = 0;

  for (guint i = 0; i < data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);

      if (t->pid == pid)
        g_hash_table_add (tids, GINT_TO_POINTER (t->tid));
    }
  *all = 0;
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      *all += c->samples;
      if (g_hash_table_contains (tids, GINT_TO_POINTER (c->tid)))
        n += c->samples;
    }
  return n;
}

static void
test_system_wide (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "all.hotpath", NULL);
  g_autofree char *workload = it_workload_path ("events-fp");
  g_autoptr(ItCapture) cap = NULL;
  g_autoptr(ItResult) recorded = NULL;
  GPid busy[2];

  if (!it_require_perf_events ())
    return;
  if (geteuid () != 0)
    {
      g_test_skip ("recording the whole system needs root");
      return;
    }
  busy[0] = hp_test_start_busy (workload, "4");
  busy[1] = hp_test_start_busy (workload, "4");
  g_usleep (200 * 1000);
  recorded = it_run_cli ((const char *[]) { "record", "-a", "--duration", "1.5", "--call-graph", "fp",
                                             "-o", path, NULL });
  for (guint i = 0; i < 2; i++)
    {
      kill (busy[i], SIGKILL);
      waitpid (busy[i], NULL, 0);
    }
  g_assert_cmpint (recorded->status, ==, 0);

  cap = it_capture_open (path);
  g_assert_cmpstr (g_hash_table_lookup (cap->data->metadata, "system_wide"), ==, "1");
  g_assert_cmpstr (g_hash_table_lookup (cap->data->metadata, "command"), ==, "the whole system");
  check_duration (cap, recorded->err, 1.5);
  g_assert_cmpint (it_total_percent (cap->profile, "busy_loop"), >, 2.0);
  for (guint i = 0; i < 2; i++)
    {
      guint64 all;
      guint64 n = samples_of_pid (cap->data, busy[i], &all);
      g_autofree char *pid = g_strdup_printf ("%d", busy[i]);
      g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "report", path, "--pid", pid, NULL });

      g_test_message ("busy program %d: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples",
                      busy[i], n, all);
      /* each had a share of two CPUs that a loaded machine shares with others */
      g_assert_cmpfloat (100.0 * n / MAX (all, 1), >, 1.0);
      g_assert_cmpint (r->status, ==, 0);
      g_assert_nonnull (strstr (r->out, "busy_loop"));
    }
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* Runs hotpath-cli as nobody, without any privilege. */
static ItResult *
run_unprivileged (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "--reuid=65534");
  g_ptr_array_add (argv, (gpointer) "--regid=65534");
  g_ptr_array_add (argv, (gpointer) "--clear-groups");
  g_ptr_array_add (argv, (gpointer) "--inh-caps=-all");
  g_ptr_array_add (argv, (gpointer) HOTPATH_CLI);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  {
    g_autofree char *setpriv = g_find_program_in_path ("setpriv");
    const char *full[64] = { setpriv };
    ItResult *r = g_new0 (ItResult, 1);
    int status = 0;
    g_autoptr(GError) error = NULL;

    g_assert_cmpuint (argv->len, <, G_N_ELEMENTS (full));
    for (guint i = 0; i < argv->len; i++)
      full[i + 1] = argv->pdata[i];
    if (!g_spawn_sync ("/", (char **) full, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                       &r->out, &r->err, &status, &error))
      g_error ("cannot run setpriv: %s", error->message);
    r->status = WIFEXITED (status) ? WEXITSTATUS (status) : 128;
    g_test_message ("as nobody: exit %d, %s", r->status, r->err);
    return r;
  }
}

static void
test_refusals (void)
{
  g_autofree char *paranoid = NULL;
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");

  if (geteuid () != 0 || setpriv == NULL)
    {
      g_test_skip ("needs root and setpriv to drop privileges");
      return;
    }
  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL))
    paranoid = g_strdup ("2");

  if (atoi (paranoid) > 0)
    {
      g_autoptr(ItResult) r = run_unprivileged ((const char *[]) { "record", "-a", "--duration", "1",
                                                                   "-o", "/tmp/hp-never.hotpath", NULL });

      g_assert_cmpint (r->status, ==, 1);
      g_assert_nonnull (strstr (r->err, "recording the whole system (-a) needs root"));
      g_assert_nonnull (strstr (r->err, "kernel.perf_event_paranoid <= 0"));
      g_assert_false (g_file_test ("/tmp/hp-never.hotpath", G_FILE_TEST_EXISTS));
    }
  {
    g_autoptr(ItResult) r = run_unprivileged ((const char *[]) { "record", "--off-cpu",
                                                                 "-o", "/tmp/hp-never.hotpath",
                                                                 "--", "/bin/true", NULL });

    g_assert_cmpint (r->status, ==, 1);
    g_assert_nonnull (strstr (r->err, "off-cpu needs the tracepoint sched:sched_switch"));
    g_assert_nonnull (strstr (r->err, "tracefs"));
    g_assert_false (g_file_test ("/tmp/hp-never.hotpath", G_FILE_TEST_EXISTS));
  }
}

static void
test_event_names (void)
{
  g_autofree char *why = NULL;

  {
    g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "record", "-e", "nosuch", "--", "/bin/true", NULL });

    g_assert_cmpint (r->status, ==, 1);
    g_assert_nonnull (strstr (r->err, "nosuch: no such event"));
  }
  {
    g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "record", "--list-events", NULL });

    g_assert_cmpint (r->status, ==, 0);
    g_assert_nonnull (strstr (r->out, "page-faults"));
    g_assert_nonnull (strstr (r->out, "context-switches"));
    g_assert_nonnull (strstr (r->out, "off-cpu"));
  }
  /* a tracepoint is sampled at every event, and the last line says so,
   * not "at 999 Hz" */
  if (geteuid () == 0)
    {
      g_autofree char *dir = it_tmpdir_new ();
      g_autofree char *path = g_build_filename (dir, "exec.hotpath", NULL);
      g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "record", "-e", "sched:sched_process_exec",
                                                             "-g", "fp", "-o", path, "--", "/bin/true", NULL });

      g_assert_cmpint (r->status, ==, 0);
      g_assert_nonnull (strstr (r->err, " of sched:sched_process_exec, one at every event, in "));
      g_assert_null (strstr (r->err, "Hz"));
      it_tmpdir_free (g_steal_pointer (&dir));
    }
  /* never a silent fallback: a hardware event without counters is refused */
  if (!hp_event_hardware_available (&why))
    {
      g_autoptr(ItResult) r = it_run_cli ((const char *[]) { "record", "-e", "cycles", "--", "/bin/true", NULL });
      g_autoptr(ItResult) list = it_run_cli ((const char *[]) { "record", "--list-events", NULL });

      g_assert_cmpint (r->status, ==, 1);
      g_assert_nonnull (strstr (r->err, "cycles is a hardware event, and this machine has no hardware performance counters"));
      g_assert_nonnull (strstr (list->out, "none: this machine has no hardware performance counters"));
    }
}

/* The thread that empties the rings runs ahead of the others where the
 * user may say so (root): at -c 1 with DWARF stacks a ring fills in
 * milliseconds, and at the usual priority on a loaded machine a fifth of
 * the samples were lost where perf lost a few percent
 * (tests/bench/record-lost.sh). The recorded command reads the nice value
 * of its recorder's hp-drain thread. */
static void
test_drain_priority (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "nice.hotpath", NULL);
  /* up to 10 s for the thread to be there with its priority set */
  const char *script =
    "for i in $(seq 200); do"
    "  for t in /proc/$PPID/task/*; do"
    "    if [ \"$(cat $t/comm)\" = hp-drain ]; then"
    "      nice=$(sed 's/.*) //' $t/stat | cut -d' ' -f17);"
    "      [ \"$nice\" = -10 ] && { echo \"drain nice $nice\"; exit 0; };"
    "    fi;"
    "  done;"
    "  sleep 0.05;"
    "done;"
    "echo \"drain nice ${nice:-none}\"";
  g_autoptr(ItResult) r = NULL;

  if (!it_require_perf_events ())
    return;
  if (geteuid () != 0)
    {
      g_test_skip ("raising a thread's priority needs root");
      return;
    }
  r = it_run_cli ((const char *[]) { "record", "-e", "page-faults", "-c", "1", "--call-graph", "fp",
                                     "-o", path, "--", "/bin/sh", "-c", script, NULL });
  g_test_message ("%s", r->out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->out, "drain nice -10\n"));
  it_tmpdir_free (g_steal_pointer (&dir));
}

/* Self share of @name among @report's samples, in percent */
static double
self_share (JsonObject *report,
            const char *name)
{
  JsonObject *f = find_function (report, name);
  gint64 all = json_object_get_int_member (report, "samples");

  g_assert_nonnull (f);
  g_assert_cmpint (all, >, 0);
  return 100.0 * (double) json_object_get_int_member (f, "self") / (double) all;
}

/* Two events in one capture: the cpu-clock profile of paths-fp (60/20/20
 * by construction) is the one a cpu-clock recording alone gives, within
 * sampling noise, with page faults counted beside it. */
static void
test_two_events_clock (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *one = g_build_filename (dir, "clock.hotpath", NULL);
  g_autofree char *two = g_build_filename (dir, "both.hotpath", NULL);
  g_autofree char *workload = it_workload_path ("paths-fp");
  const char *leaves[] = { "alpha_leaf", "beta_leaf", "shared_leaf" };
  const double expected[] = { 60.0, 20.0, 20.0 };
  g_autoptr(JsonObject) alone = NULL;
  g_autoptr(JsonObject) beside = NULL;

  if (!it_require_perf_events ())
    return;
  record ((const char *[]) { "record", "-e", "cpu-clock", "--call-graph", "fp", "-o", one, "--", workload, NULL });
  record ((const char *[]) { "record", "-e", "cpu-clock,page-faults", "--call-graph", "fp", "-o", two, "--", workload, NULL });
  alone = report_json (one, NULL);
  beside = report_json (two, "cpu-clock");
  g_assert_cmpstr (json_object_get_string_member (beside, "event"), ==, "cpu-clock");
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      double a = self_share (alone, leaves[i]);
      double b = self_share (beside, leaves[i]);

      g_test_message ("%s: %.1f %% alone, %.1f %% beside page-faults (by construction %.0f %%)",
                      leaves[i], a, b, expected[i]);
      it_assert_percent (leaves[i], a, expected[i], 8.0);
      it_assert_percent (leaves[i], b, expected[i], 8.0);
      g_assert_cmpfloat (fabs (a - b), <=, 8.0);
    }
  it_tmpdir_free (g_steal_pointer (&dir));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/record-events/page-faults", test_page_faults);
  g_test_add_func ("/record-events/two-events-clock", test_two_events_clock);
  g_test_add_func ("/record-events/off-cpu", test_off_cpu);
  g_test_add_func ("/record-events/system-wide", test_system_wide);
  g_test_add_func ("/record-events/refusals", test_refusals);
  g_test_add_func ("/record-events/event-names", test_event_names);
  g_test_add_func ("/record-events/drain-priority", test_drain_priority);

  return g_test_run ();
}
