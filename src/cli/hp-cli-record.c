/* hp-cli-record.c - hotpath-cli record
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "record/hp-events.h"
#include "record/hp-record-plan.h"
#include "record/hp-recorder.h"
#include "store/hp-capture.h"

static HpRecorder *current_recorder;

/* What the recorder says about writing the capture while it records. */
static void
on_status (const char *message,
           gpointer    data)
{
  g_autofree char *safe = hp_text_escape (message);

  hp_cli_error ("%s", safe);
}

/* SIGINT or SIGTERM stops the recording; the command gets the same
 * signal. A terminal's Ctrl-C (si_code SI_KERNEL) went to the whole
 * foreground process group, the command included (it is spawned in ours);
 * a signal sent to hotpath-cli alone (kill, an IDE's stop button) is
 * passed on to it. */
static void
on_stop_signal (int        signum,
                siginfo_t *info,
                void      *context)
{
  if (current_recorder != NULL)
    hp_recorder_stop_by_signal (current_recorder, signum, info != NULL && info->si_code == SI_KERNEL);
}

/* hotpath-YYYYMMDD-HHMMSS.hotpath, as the window names a new capture */
static char *
default_output_name (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stem = hp_record_capture_stem (now, 1);

  return g_strconcat (stem, ".hotpath", NULL);
}

/* "app was killed by signal 11 (Segmentation fault)": a command that
 * crashed or failed is worth a line, or the profile of a crash passes for
 * the profile of a run. */
static void
report_command_status (const HpRecordResult *result,
                       const char           *program)
{
  g_autofree char *name = g_path_get_basename (program);

  if (result->stop_signal != 0)
    {
      /* only these two are caught */
      const char *sig = result->stop_signal == SIGINT ? "SIGINT" : "SIGTERM";

      /* what the user's signal did to the command: said as it happened,
       * not as the SIGTERM the recorder may have had to send */
      if (result->ended_by_recorder)
        hp_cli_error (_("stopped by %s; %s did not end on it within 2 s and was ended with %s"),
                      sig, name, g_strsignal (result->exit_signal));
      else if (result->exit_signal == result->stop_signal)
        hp_cli_error (result->forwarded ? _("stopped by %s, passed on to %s, which ended on it")
                                        : _("stopped by %s, which ended %s too"), sig, name);
      else if (result->exit_signal != 0)
        hp_cli_error (_("stopped by %s; %s was then killed by signal %d (%s)"), sig, name,
                      result->exit_signal, g_strsignal (result->exit_signal));
      else if (result->exited)
        hp_cli_error (result->forwarded ? _("stopped by %s, passed on to %s, which exited with status %d")
                                        : _("stopped by %s; %s exited on it with status %d"),
                      sig, name, result->exit_status);
      return;
    }
  if (result->stopped)
    return;
  if (result->exit_signal != 0)
    hp_cli_error (result->core_dumped ? _("%s was killed by signal %d (%s), core dumped")
                                      : _("%s was killed by signal %d (%s)"),
                  name, result->exit_signal, g_strsignal (result->exit_signal));
  else if (result->exited && result->exit_status != 0)
    hp_cli_error (_("%s exited with status %d"), name, result->exit_status);
}

/* Parses "dwarf", "dwarf,SIZE" or "fp", as perf record --call-graph does. */
static gboolean
parse_call_graph (const char      *value,
                  HpRecordOptions *options)
{
  const char *size;
  guint64 n;

  if (g_strcmp0 (value, "fp") == 0)
    {
      options->call_graph = HP_CALL_GRAPH_FP;
      return TRUE;
    }
  if (!g_str_has_prefix (value, "dwarf"))
    {
      hp_cli_error (_("record: --call-graph %s: use dwarf, dwarf,SIZE or fp"), value);
      return FALSE;
    }
  options->call_graph = HP_CALL_GRAPH_DWARF;
  options->stack_size = HP_RECORD_DEFAULT_STACK_SIZE;
  size = value + strlen ("dwarf");
  if (*size == '\0')
    return TRUE;
  if (*size != ',' || !g_ascii_string_to_unsigned (size + 1, 10, HP_RECORD_MIN_STACK_SIZE,
                                                   HP_RECORD_MAX_STACK_SIZE, &n, NULL)
      || n % 8 != 0)
    {
      hp_cli_error (_("record: --call-graph %s: the stack size must be a multiple of 8 from %u to %u"),
                    value, HP_RECORD_MIN_STACK_SIZE, HP_RECORD_MAX_STACK_SIZE);
      return FALSE;
    }
  options->stack_size = (guint) n;
  return TRUE;
}

/* record --list-events: what this machine offers, with a line on each. */
static int
list_events (void)
{
  g_autoptr(GArray) known = hp_event_list_known ();
  g_autoptr(GPtrArray) tracepoints = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *why = NULL;
  gboolean hardware = hp_event_hardware_available (&why);

  printf (_("Software events:\n"));
  for (guint i = 0; i < known->len; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      if (e->kind == HP_EVENT_KIND_SOFTWARE)
        printf ("  %-18s %s (%s)\n", e->name, e->description, e->unit);
    }
  printf (_("\nOff-CPU time (also --off-cpu):\n"));
  for (guint i = 0; i < known->len; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      if (e->kind == HP_EVENT_KIND_OFF_CPU)
        printf ("  %-18s %s (%s)\n", e->name, e->description, e->unit);
    }
  printf (_("\nHardware events:\n"));
  if (!hardware)
    printf (_("  none: %s\n"), why);
  for (guint i = 0; i < known->len && hardware; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      if (e->kind == HP_EVENT_KIND_HARDWARE)
        printf ("  %-18s %s (%s)\n", e->name, e->description, e->unit);
    }
  printf (_("\nTracepoints (subsystem:name, counted in events):\n"));
  tracepoints = hp_event_list_tracepoints (&error);
  if (tracepoints == NULL)
    printf (_("  not listed: %s\n"), error->message);
  else
    for (guint i = 0; i < tracepoints->len; i++)
      printf ("  %s\n", (const char *) tracepoints->pdata[i]);
  return 0;
}

/* -e a,b -e c: every name, in order. */
static char **
split_events (char **values)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit (values[i], ",", -1);

      for (guint k = 0; parts[k] != NULL; k++)
        {
          g_strstrip (parts[k]);
          if (parts[k][0] != '\0')
            g_ptr_array_add (names, g_strdup (parts[k]));
        }
    }
  if (names->len == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* How big the heap grows at once, and the part of it advised to be backed
 * by huge pages: virtual memory, resident only where touched. */
#define RECORD_HEAP_STEP (64 * 1024 * 1024)
#define HUGE_PAGE_SIZE ((guintptr) 2 * 1024 * 1024)

/* This process only records, and exits at its end: its memory is tuned
 * for that (the window, a long-lived process, keeps glibc's defaults).
 *
 * A page touched for the first time costs a fault and a zeroed page: about
 * 13 us a page in a VM (a Firecracker guest; far less on bare metal).
 * - Memory given back to the system comes back page by page: the drain
 *   thread's buffers (up to a ring's 2 MiB, freed by the processing thread)
 *   were mapped anew or trimmed away and touched again 200 to 700 times a
 *   recording. Kept for reuse, they are touched once.
 * - What is touched once still came 4 KiB at a time: libdw alone interns
 *   every compilation unit of libc's debug info (about 1400, 2.4 MiB) at
 *   the first source line looked up in it, some 600 faults. The heap grows
 *   by RECORD_HEAP_STEP at once and is advised to be backed by transparent
 *   huge pages, one fault per 2 MiB where the kernel offers them (enabled
 *   "madvise" or "always"); all threads allocate from that one heap. */
static void
tune_malloc_for_recording (void)
{
  char *before, *after;
  void *volatile grow;  /* volatile: a malloc freed unused is optimised away */
  guintptr from, to;

  mallopt (M_MMAP_THRESHOLD, 4 * 1024 * 1024);
  mallopt (M_TRIM_THRESHOLD, RECORD_HEAP_STEP);
  mallopt (M_ARENA_MAX, 1);
  mallopt (M_TOP_PAD, RECORD_HEAP_STEP);

  /* Grow the heap now, then advise what it grew by: a 2 MiB range gets a
   * huge page only if its first touch comes after the advice. Where the
   * heap cannot grow (malloc falls back to mmap), nothing is advised. */
  before = sbrk (0);
  grow = malloc (1024 * 1024);
  free (grow);
  after = sbrk (0);
  if (before == (char *) -1 || after == (char *) -1)
    return;
  from = ((guintptr) before + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
  to = (guintptr) after & ~(HUGE_PAGE_SIZE - 1);
  if (to > from && madvise ((void *) from, to - from, MADV_HUGEPAGE) != 0)
    g_debug ("no huge pages for the recorder's heap: %s", g_strerror (errno));
}

int
hp_cli_record (int    argc,
               char **argv)
{
  g_autofree char *output = NULL;
  g_autofree char *call_graph = NULL;
  g_autofree char *samples = NULL;
  g_auto(GStrv) command = NULL;
  gint frequency = 999;
  gdouble duration = 0;
  gint pid = 0;
  gboolean force = FALSE;
  g_auto(GStrv) event_args = NULL;
  g_auto(GStrv) events = NULL;
  gint64 count = 0;
  gboolean all_cpus = FALSE;
  gboolean off_cpu = FALSE;
  gboolean list = FALSE;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the capture to FILE (default hotpath-YYYYMMDD-HHMMSS.hotpath)"), N_("FILE") },
    { "freq", 'F', 0, G_OPTION_ARG_INT, &frequency, N_("Sample HZ times a second per CPU (default 999)"), N_("HZ") },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after S seconds"), N_("S") },
    { "call-graph", 'g', 0, G_OPTION_ARG_STRING, &call_graph,
      "How to record user call stacks: dwarf (copy SIZE bytes of stack per sample and unwind "
      "them with CFI; default, SIZE " G_STRINGIFY (HP_RECORD_DEFAULT_STACK_SIZE) ", up to "
      G_STRINGIFY (HP_RECORD_MAX_STACK_SIZE) ") or fp (frame pointers)", "dwarf[,SIZE]|fp" },
    { "pid", 'p', 0, G_OPTION_ARG_INT, &pid, N_("Attach to the running process PID"), N_("PID") },
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Overwrite an existing output file"), NULL },
    { "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &event_args,
      N_("What to count: cpu-clock, page-faults, context-switches, …, cycles (with hardware "
      "counters), a tracepoint subsystem:name; several, comma-separated, in one capture "
      "(default cycles, or cpu-clock without hardware counters)"), N_("EVENT[,EVENT…]") },
    { "count", 'c', 0, G_OPTION_ARG_INT64, &count, N_("Sample every N occurrences of the counted events (page faults, …) instead of -F times a "
      "second; cpu-clock and task-clock keep -F"), N_("N") },
    { "all-cpus", 'a', 0, G_OPTION_ARG_NONE, &all_cpus,
      N_("Record the whole system, every process (root, or kernel.perf_event_paranoid <= 0)"), NULL },
    { "off-cpu", 0, 0, G_OPTION_ARG_NONE, &off_cpu,
      N_("Also record the time threads spend blocked, where they block (event off-cpu, in ns; root)"), NULL },
    { "list-events", 0, 0, G_OPTION_ARG_NONE, &list, N_("List the events this machine offers"), NULL },
    /* FILENAME: the bytes as given, whatever the locale (LC_ALL=C and "café") */
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &command, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("-- COMMAND [ARG…] | -p PID | -a"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpRecorder) recorder = NULL;
  HpRecordOptions options = { 0 };
  HpRecordProgress progress;
  HpRecordResult result;
  struct sigaction sa = { 0 };

  g_option_context_set_summary (context,
                                N_("Record perf samples of a command, or of a running process, into a capture.\n\n"
                                "Examples:\n"
                                "  hotpath-cli record -o app.hotpath -- ./app --input data.txt\n"
                                "  hotpath-cli record -p 4242 --duration 10\n"
                                "  hotpath-cli record --call-graph dwarf,32768 -- python3 script.py"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      hp_cli_error (_("record: %s"), error->message);
      return 2;
    }

  if (list)
    return list_events ();
  if ((command == NULL || command[0] == NULL) && pid <= 0 && !all_cpus)
    {
      hp_cli_error (_("record: give a command after '--', -p PID or -a"));
      return 2;
    }
  if (all_cpus && pid > 0)
    {
      hp_cli_error (_("record: -a records every process; give -p PID or -a, not both"));
      return 2;
    }
  if (count < 0)
    {
      hp_cli_error (_("record: -c %" PRId64 ": give a number of events, 1 or more"), count);
      return 2;
    }
  events = split_events (event_args);
  if (event_args != NULL && events == NULL)
    {
      hp_cli_error (_("record: -e: give an event name (hotpath-cli record --list-events)"));
      return 2;
    }
  if (command != NULL && command[0] != NULL && pid > 0)
    {
      hp_cli_error (_("record: give either a command or -p PID, not both"));
      return 2;
    }
  if (frequency <= 0 || frequency > 100000)
    {
      hp_cli_error (_("record: -F %d is out of range (1 to 100000 Hz)"), frequency);
      return 2;
    }
  if (isnan (duration) || duration < 0)
    {
      hp_cli_error (_("record: --duration %g: give a number of seconds, 0 or more"), duration);
      return 2;
    }
  if (!parse_call_graph (call_graph != NULL ? call_graph : "dwarf", &options))
    return 2;

  if (output == NULL)
    output = default_output_name ();
  if (!hp_cli_output_is_file ("record", output))
    return 1;
  /* With --force the old capture is replaced only once the recording has
   * started (hp_recorder_run writes beside it until then). */
  if (g_file_test (output, G_FILE_TEST_EXISTS))
    {
      if (!force)
        {
          hp_cli_error (_("%s exists; use --force to overwrite it"), output);
          return 1;
        }
      if (!g_file_test (output, G_FILE_TEST_IS_REGULAR))
        {
          hp_cli_error (_("cannot overwrite %s: it is not a regular file"), output);
          return 1;
        }
    }

  options.argv = pid > 0 ? NULL : command;
  options.pid = pid;
  options.frequency = (guint) frequency;
  options.duration = duration;
  options.output_fd = -1;
  options.events = (const char *const *) events;
  options.period = (guint64) count;
  options.system_wide = all_cpus;
  options.off_cpu = off_cpu;
  options.fetch_func = hp_cli_fetch_progress;
  options.status_func = on_status;
  tune_malloc_for_recording ();
  recorder = hp_recorder_new (&options);

  current_recorder = recorder;
  sa.sa_sigaction = on_stop_signal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  if (!hp_recorder_run (recorder, output, &result, &error))
    {
      current_recorder = NULL;
      hp_cli_error ("%s", error->message);
      return 1;
    }
  current_recorder = NULL;

  hp_recorder_get_progress (recorder, &progress);
  samples = hp_cli_samples (progress.samples);
  if (options.argv != NULL)
    report_command_status (&result, options.argv[0]);
  if (hp_recorder_get_write_error (recorder) != NULL)
    {
      /* One line: what failed, and what is kept. */
      hp_cli_error (_("%s; recording stopped after %.2f s. %s keeps the %s written until then (cut short)"),
                    hp_recorder_get_write_error (recorder)->message, progress.elapsed,
                    output, samples);
      return 1;
    }
  if (hp_recorder_get_note (recorder) != NULL)
    hp_cli_error ("%s: %s", output, hp_recorder_get_note (recorder));
  if (count > 0)
    fprintf (stderr, _("hotpath-cli: wrote %s: %s of %s, one every %" PRId64
             " events, in %.2f s, %" PRIu64 " lost\n"),
             output, samples, hp_recorder_get_events (recorder), count,
             progress.elapsed, progress.lost);
  else if (!hp_recorder_get_by_frequency (recorder))
    /* a tracepoint: every one is a sample, not -F a second */
    fprintf (stderr, _("hotpath-cli: wrote %s: %s of %s, one at every event, in %.2f s, %"
             PRIu64 " lost\n"),
             output, samples, hp_recorder_get_events (recorder), progress.elapsed, progress.lost);
  else
    fprintf (stderr, _("hotpath-cli: wrote %s: %s of %s at %d Hz in %.2f s, %" PRIu64 " lost\n"),
             output, samples, hp_recorder_get_events (recorder), frequency,
             progress.elapsed, progress.lost);
  return 0;
}
