/* hp-events.c - the events a recording can count, by the names people type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * perf's names for the kernel's software events and the CPU's generic
 * hardware events (perf list), with the unit each one's weights are in,
 * and tracepoints by "subsystem:name", whose ids tracefs holds. The
 * recorder opens what this file found; the CLI and the Record dialog list
 * what it knows, so both offer the same events under the same names.
 *
 * A hardware event is never swapped for a software one here: a machine
 * without counters (most virtual machines) gets an error that says so,
 * and the user chooses.
 */

#define G_LOG_DOMAIN "hp-record"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <gio/gio.h>

#include "record/hp-events.h"
#include "record/hp-recorder.h"

static const struct {
  const char *name;
  const char *alias;
  HpEventKind kind;
  guint32     type;
  guint64     config;
  const char *unit;
  const char *description;
  gboolean    by_period;
} known_events[] = {
  { "cpu-clock", NULL, HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "ns",
    N_("Time on the CPU, sampled by a timer: where the program computes"), FALSE },
  { "task-clock", NULL, HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns",
    N_("Time on the CPU, counted per task rather than per CPU"), FALSE },
  { "page-faults", "faults", HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
    "page faults", N_("Pages touched for the first time or brought back: where memory is first used"), FALSE },
  { "major-faults", NULL, HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ,
    "major faults", N_("Page faults that had to read from disk"), TRUE },
  { "minor-faults", NULL, HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN,
    "minor faults", N_("Page faults served from memory"), FALSE },
  { "context-switches", "cs", HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES,
    "context switches", N_("Times a thread left the CPU: where it blocks or is preempted"), TRUE },
  { "cpu-migrations", "migrations", HP_EVENT_KIND_SOFTWARE, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
    "CPU migrations", N_("Times a thread moved to another CPU"), TRUE },
  { HP_EVENT_OFF_CPU, NULL, HP_EVENT_KIND_OFF_CPU, PERF_TYPE_TRACEPOINT, 0, "ns",
    N_("Time spent blocked or waiting to run, weighted by how long (needs tracefs: root)"), TRUE },
  { "cycles", "cpu-cycles", HP_EVENT_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles",
    N_("CPU cycles (hardware counter)"), FALSE },
  { "instructions", NULL, HP_EVENT_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions",
    N_("Instructions retired (hardware counter); with cycles, instructions per cycle"), FALSE },
  { "cache-misses", NULL, HP_EVENT_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache misses",
    N_("Last-level cache misses (hardware counter): where memory is slow"), FALSE },
  { "branch-misses", NULL, HP_EVENT_KIND_HARDWARE, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch misses",
    N_("Mispredicted branches (hardware counter)"), FALSE },
};

void
hp_event_clear (HpEvent *event)
{
  if (event != NULL)
    g_clear_pointer (&event->name, g_free);
}

static void
fill_known (HpEvent *event,
            guint    i)
{
  event->name = g_strdup (known_events[i].name);
  event->kind = known_events[i].kind;
  event->type = known_events[i].type;
  event->config = known_events[i].config;
  event->unit = known_events[i].unit;
  event->description = _(known_events[i].description);
  event->by_period = known_events[i].by_period;
}

GArray *
hp_event_list_known (void)
{
  GArray *events = g_array_new (FALSE, TRUE, sizeof (HpEvent));

  g_array_set_clear_func (events, (GDestroyNotify) hp_event_clear);
  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    {
      HpEvent e = { 0, };

      fill_known (&e, i);
      g_array_append_val (events, e);
    }
  return events;
}

gboolean
hp_event_hardware_available (char **why)
{
  struct perf_event_attr attr;
  long fd;
  int errsv;

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_HARDWARE;
  attr.config = PERF_COUNT_HW_CPU_CYCLES;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  fd = syscall (SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd >= 0)
    {
      close ((int) fd);
      return TRUE;
    }
  errsv = errno;
  if (why != NULL)
    {
      if (errsv == ENOENT || errsv == EOPNOTSUPP || errsv == ENODEV)
        /* the kernel's ENOENT ("No such file or directory") says nothing
         * to a user: the sentence is the reason */
        *why = g_strdup (_("this machine has no hardware performance counters "
                           "(usual in a virtual machine)"));
      else
        *why = g_strdup_printf (_("its hardware performance counters cannot be opened: %s"),
                                g_strerror (errsv));
    }
  return FALSE;
}

char *
hp_event_find_tracefs (GError **error)
{
  static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
  gboolean denied = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *events = g_build_filename (dirs[i], "events", NULL);

      if (access (events, R_OK | X_OK) == 0 && g_file_test (events, G_FILE_TEST_IS_DIR))
        return g_strdup (dirs[i]);
      if (errno == EACCES || errno == EPERM)
        denied = TRUE;
    }
  if (denied || geteuid () != 0)
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION,
                 _("tracepoints need access to tracefs (/sys/kernel/tracing), which only root "
                   "has here: run as root (sudo)"));
  else
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                 _("tracepoints need tracefs, which is not mounted: "
                   "'sudo mount -t tracefs nodev /sys/kernel/tracing'"));
  return NULL;
}

static gboolean
is_tracepoint_part (const char *s,
                    gsize       len)
{
  if (len == 0 || len > 128)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (s[i]) && s[i] != '_' && s[i] != '-')
      return FALSE;
  return TRUE;
}

static gboolean
lookup_tracepoint (const char  *name,
                   HpEvent     *event,
                   GError     **error)
{
  const char *colon = strchr (name, ':');
  g_autofree char *tracefs = NULL;
  g_autofree char *subsystem = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;
  guint64 id;

  /* a name, not a path: nothing outside tracefs/events is read */
  if (!is_tracepoint_part (name, colon - name) ||
      !is_tracepoint_part (colon + 1, strlen (colon + 1)))
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_EVENT,
                   _("%s: not a tracepoint name (subsystem:name, such as sched:sched_switch)"), name);
      return FALSE;
    }
  if ((tracefs = hp_event_find_tracefs (&local_error)) == NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), "%s: ", name);
      return FALSE;
    }
  subsystem = g_strndup (name, colon - name);
  path = g_build_filename (tracefs, "events", subsystem, colon + 1, "id", NULL);
  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_EVENT,
                     _("%s: no such tracepoint on this machine (see hotpath-cli record --list-events)"), name);
      else
        g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION,
                     _("%s: cannot read its id: %s"), name, local_error->message);
      return FALSE;
    }
  id = g_ascii_strtoull (g_strstrip (contents), NULL, 10);
  event->name = g_strdup (name);
  event->kind = HP_EVENT_KIND_TRACEPOINT;
  event->type = PERF_TYPE_TRACEPOINT;
  event->config = id;
  event->unit = "events";
  event->description = _("A tracepoint: every time the kernel passes it");
  event->by_period = TRUE;
  return TRUE;
}

gboolean
hp_event_lookup (const char  *name,
                 HpEvent     *event,
                 GError     **error)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (event != NULL, FALSE);

  memset (event, 0, sizeof *event);
  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    {
      g_autofree char *why = NULL;

      if (g_strcmp0 (name, known_events[i].name) != 0 && g_strcmp0 (name, known_events[i].alias) != 0)
        continue;
      if (known_events[i].kind == HP_EVENT_KIND_HARDWARE && !hp_event_hardware_available (&why))
        {
          g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_EVENT,
                       _("%s is a hardware event, and %s; record a software event such as "
                         "cpu-clock instead (hotpath-cli record --list-events)"), name, why);
          return FALSE;
        }
      if (known_events[i].kind == HP_EVENT_KIND_OFF_CPU)
        {
          HpEvent tp;

          if (!lookup_tracepoint ("sched:sched_switch", &tp, error))
            {
              /* Translators: an event, before "sched:sched_switch: tracepoints need …" */
              g_prefix_error (error, _("%s needs the tracepoint "), name);
              return FALSE;
            }
          fill_known (event, i);
          event->config = tp.config;
          hp_event_clear (&tp);
          return TRUE;
        }
      fill_known (event, i);
      return TRUE;
    }
  if (strchr (name, ':') != NULL)
    return lookup_tracepoint (name, event, error);

  g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_EVENT,
               _("%s: no such event; hotpath-cli record --list-events lists those of this machine"),
               name);
  return FALSE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
hp_event_list_tracepoints (GError **error)
{
  g_autofree char *tracefs = hp_event_find_tracefs (error);
  g_autofree char *events = NULL;
  g_autoptr(GDir) dir = NULL;
  GPtrArray *names;
  const char *subsystem;

  if (tracefs == NULL)
    return NULL;
  events = g_build_filename (tracefs, "events", NULL);
  if ((dir = g_dir_open (events, 0, error)) == NULL)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((subsystem = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *sub_path = g_build_filename (events, subsystem, NULL);
      g_autoptr(GDir) sub = g_dir_open (sub_path, 0, NULL);
      const char *name;

      while (sub != NULL && (name = g_dir_read_name (sub)) != NULL)
        {
          g_autofree char *id = g_build_filename (sub_path, name, "id", NULL);

          if (g_file_test (id, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (names, g_strdup_printf ("%s:%s", subsystem, name));
        }
    }
  g_ptr_array_sort (names, compare_strings);
  return names;
}
