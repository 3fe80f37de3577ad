/* hp-recorder.c - records perf samples of a program into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns a live recording: it spawns the command (or finds the
 * threads of a running process), opens one sampling event per CPU with
 * perf_event_open, and runs two threads until the recording ends:
 *
 *   drain thread      polls the per-CPU ring buffers and copies records out,
 *                     so the kernel's rings never fill while we symbolize;
 *   processing thread decodes, orders, resolves and writes them through
 *                     HpProcessor, the same path the perf.data importer uses.
 *
 * The thread that called hp_recorder_run() waits for the end (command exit,
 * duration, stop request) and then winds both threads down in order, so
 * every record the kernel wrote is in the capture.
 *
 * Once sampling started the capture is never removed: the processing thread
 * commits what it wrote every COMMIT_INTERVAL_US (the writer then leaves the
 * write lock free a while, for a summary saved into the live capture; see
 * hp-capture-writer.c), and the first write
 * error (a full disk) stops the recording like a stop request, leaving the
 * capture cut short with what was committed. The spawned command dies with
 * the recorder (PR_SET_PDEATHSIG) should the recorder be killed.
 */

#define G_LOG_DOMAIN "hp-record"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <gio/gio.h>

#include "perf/hp-perf-ring.h"
#include "record/hp-events.h"
#include "record/hp-processor.h"
#include "record/hp-recorder.h"
#include "store/hp-capture.h"
#include "store/hp-capture-writer.h"
#include "symbols/hp-unwinder.h"

G_DEFINE_QUARK (hp-record-error-quark, hp_record_error)

/* Ring buffer pages per CPU, tried in order (unprivileged users have a
 * locked-memory budget of about 516 KiB). With frame pointers a sample is
 * a few hundred bytes: 128 pages hold seconds of them. A DWARF sample
 * carries its stack copy (8 KiB by default), so 512 pages (2 MiB) hold
 * about 240 of them: a quarter of a second at 999 Hz, which the drain
 * thread, woken at a quarter full, empties with room to spare. */
static const guint fp_ring_pages[] = { 128, 16 };
static const guint dwarf_ring_pages[] = { 512, 128, 16 };

/* The drain thread's nice value, where the user may raise priority
 * (root, CAP_SYS_NICE or RLIMIT_NICE): see drain_thread(). */
#define DRAIN_NICE (-10)

/* How often the recorder looks whether the recording is over (a stop, the
 * duration, the program's end) where it cannot sleep until one of them
 * happens (an attached process, the whole system, a kernel without
 * pidfd_open): a stop is seen within this. */
#define WAIT_POLL_US (20 * 1000)
/* How long a spawned command has, after SIGTERM at a stop, to exit on its
 * own (and flush what it writes) before SIGKILL: 2 s. */
#define STOP_GRACE_POLLS 100
/* How often the processing thread commits what it wrote. A commit after
 * every drain pass (up to 20 a second, and more while the rings fill)
 * took and released SQLite's file locks each time: 1151 fcntl calls for
 * one gcc. A quarter of a second is what a kill may lose; a summary saved
 * into the live capture meanwhile gets the lock in the writer's pause
 * after a commit (its busy timeout is 5 s). */
#define COMMIT_INTERVAL_US (250 * 1000)

typedef struct {
  GByteArray *bytes;   /* whole records; NULL marks the end of a drain pass */
  gboolean    end;
} Chunk;

struct _HpRecorder {
  HpRecordOptions  options;
  char           **argv;
  char            *working_directory;

  HpPerfEventInfo  info;       /* of every record but samples: the same for all events */
  HpPerfEventInfo  infos[HP_CAPTURE_MAX_EVENTS]; /* of each event's samples */
  GHashTable      *id_infos;   /* perf id -> its event's HpPerfEventInfo, in infos */
  const char      *event_name;
  const char      *event_unit;
  GArray          *events;    /* HpEvent asked for; empty: the default event */
  GArray          *fd_events; /* guint per fd: its index in events */
  GArray          *fds;    /* int, every event */
  char           **event_names; /* as asked for, NULL: the default */
  char            *events_text; /* hp_recorder_get_events() */
  GPtrArray       *rings;  /* HpPerfRing, one per CPU */
  guint            ring_pages;

  char            *program;  /* argv[0] found on the PATH */
  GPid             child;
  gboolean         spawned;
  gboolean         child_stopped;  /* ended by the recorder (stop, duration) */
  gboolean         child_reaped;
  int              child_status;   /* wait status, once reaped */

  GAsyncQueue     *queue;  /* Chunk* from the drain thread to the processing thread */
  HpCaptureWriter *writer;
  HpProcessor     *processor;

  gint             stop_requested;  /* atomic */
  gint             stop_signal;     /* atomic: the signal that asked for the stop, or 0 */
  gint             stop_signal_had; /* atomic: the spawned command got it too */
  int              sent_signal;     /* the signal the recorder sent the command at a stop, or 0 */
  gboolean         ended_by_recorder; /* the command died of a signal the recorder sent */
  int              stop_fd;         /* eventfd written at a stop, to wake wait_for_end; -1: none */
  gint             drain_stop;      /* atomic */
  int              drain_wake_fd;   /* eventfd written with drain_stop, so the drain
                                     * thread ends without waiting out its poll; -1: none */
  gint             write_failed;    /* atomic: the writer failed, sampling stops */
  GError          *write_error;     /* why the capture was cut short */
  char            *note;            /* how the capture was kept */
  char            *saved_as;        /* a capture taken from its name: where it is now */
  char            *output_path;     /* as the user named it, for messages */
  gint64           lock_said;       /* when the lock wait was last said; 0: not waiting */
  gboolean         lock_said_ended; /* ... and whether it said the recording had ended */
  gint             ended;           /* atomic: the program ended (or the recording stopped) */
  gint64           start_time;      /* monotonic, us */

  GMutex           progress_lock;
  HpRecordProgress progress;
};

HpRecorder *
hp_recorder_new (const HpRecordOptions *options)
{
  HpRecorder *self;

  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (options->argv != NULL || options->pid > 0 || options->system_wide, NULL);

  self = g_new0 (HpRecorder, 1);
  self->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->drain_wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  self->options = *options;
  self->argv = g_strdupv (options->argv);
  self->working_directory = g_strdup (options->working_directory);
  self->options.argv = self->argv;
  self->options.working_directory = self->working_directory;
  if (self->options.frequency == 0)
    self->options.frequency = 999;
  if (self->options.stack_size == 0)
    self->options.stack_size = HP_RECORD_DEFAULT_STACK_SIZE;
  self->fds = g_array_new (FALSE, FALSE, sizeof (int));
  self->fd_events = g_array_new (FALSE, FALSE, sizeof (guint));
  self->id_infos = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->events = g_array_new (FALSE, TRUE, sizeof (HpEvent));
  g_array_set_clear_func (self->events, (GDestroyNotify) hp_event_clear);
  self->options.events = NULL;  /* resolved into events by hp_recorder_run() */
  self->event_names = g_strdupv ((char **) options->events);
  self->rings = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_perf_ring_free);
  g_mutex_init (&self->progress_lock);
  return self;
}

static void
close_events (HpRecorder *self)
{
  g_ptr_array_set_size (self->rings, 0);
  for (guint i = 0; i < self->fds->len; i++)
    close (g_array_index (self->fds, int, i));
  g_array_set_size (self->fds, 0);
  g_array_set_size (self->fd_events, 0);
  g_hash_table_remove_all (self->id_infos);
}

void
hp_recorder_free (HpRecorder *self)
{
  if (self == NULL)
    return;
  close_events (self);
  g_array_unref (self->fds);
  g_array_unref (self->fd_events);
  g_array_unref (self->events);
  g_strfreev (self->event_names);
  g_free (self->events_text);
  g_hash_table_unref (self->id_infos);
  g_ptr_array_unref (self->rings);
  g_strfreev (self->argv);
  g_free (self->working_directory);
  g_free (self->program);
  g_clear_error (&self->write_error);
  g_free (self->note);
  g_free (self->saved_as);
  g_free (self->output_path);
  g_mutex_clear (&self->progress_lock);
  if (self->stop_fd >= 0)
    close (self->stop_fd);
  if (self->drain_wake_fd >= 0)
    close (self->drain_wake_fd);
  g_free (self);
}

void
hp_recorder_stop (HpRecorder *self)
{
  g_atomic_int_set (&self->stop_requested, 1);
  if (self->stop_fd >= 0)
    {
      guint64 one = 1;

      /* may run in a signal handler's stead (hp-signals): write is safe */
      if (write (self->stop_fd, &one, sizeof one) < 0)
        g_debug ("cannot wake the recorder: %s", g_strerror (errno));
    }
}

void
hp_recorder_stop_by_signal (HpRecorder *self,
                            int         signum,
                            gboolean    command_has_it)
{
  g_atomic_int_set (&self->stop_signal_had, command_has_it);
  g_atomic_int_set (&self->stop_signal, signum);
  hp_recorder_stop (self);
}

void
hp_recorder_get_progress (HpRecorder       *self,
                          HpRecordProgress *progress)
{
  g_mutex_lock (&self->progress_lock);
  *progress = self->progress;
  g_mutex_unlock (&self->progress_lock);
  if (progress->running)
    progress->elapsed = (g_get_monotonic_time () - self->start_time) / (gdouble) G_USEC_PER_SEC;
}

const char *
hp_recorder_get_event (HpRecorder *self)
{
  return self->event_name;
}

static void event_rate (HpRecorder    *self,
                        const HpEvent *event,
                        guint64       *frequency,
                        guint64       *period);

gboolean
hp_recorder_get_by_frequency (HpRecorder *self)
{
  for (guint i = 0; i < self->events->len; i++)
    {
      guint64 frequency, period;

      event_rate (self, &g_array_index (self->events, HpEvent, i), &frequency, &period);
      if (frequency > 0)
        return TRUE;
    }
  return FALSE;
}

const char *
hp_recorder_get_events (HpRecorder *self)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < self->events->len; i++)
    {
      if (i > 0)
        g_string_append (names, ", ");
      g_string_append (names, g_array_index (self->events, HpEvent, i).name);
    }
  g_free (self->events_text);
  self->events_text = g_string_free (names, FALSE);
  return self->events_text;
}

const GError *
hp_recorder_get_write_error (HpRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->write_error;
}

const char *
hp_recorder_get_note (HpRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->note;
}

const char *
hp_recorder_get_saved_as (HpRecorder *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->saved_as;
}

int
hp_recorder_read_paranoid (void)
{
  g_autofree char *contents = NULL;

  if (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &contents, NULL, NULL))
    return atoi (contents);
  /* the kernel's default */
  return 2;
}

/* Why a system-wide recording was refused. */
static char *
explain_system_wide (void)
{
  return g_strdup_printf (_("recording the whole system (-a) needs root, CAP_PERFMON or "
                            "kernel.perf_event_paranoid <= 0, and it is %d here: run as root "
                            "(sudo), or allow it with 'sudo sysctl kernel.perf_event_paranoid=0'"),
                          hp_recorder_read_paranoid ());
}

char *
hp_recorder_explain_permission (void)
{
  return g_strdup_printf (_("perf_event_open was refused: kernel.perf_event_paranoid is %d. "
                            "Allow per-user profiling with "
                            "'sudo sysctl kernel.perf_event_paranoid=1', "
                            "or run as root or with CAP_PERFMON."),
                          hp_recorder_read_paranoid ());
}

static long
perf_event_open (struct perf_event_attr *attr,
                 pid_t                   pid,
                 int                     cpu,
                 int                     group_fd,
                 unsigned long           flags)
{
  return syscall (SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* CPUs from /sys/devices/system/cpu/online ("0-3,5"). */
static GArray *
online_cpus (void)
{
  g_autofree char *contents = NULL;
  GArray *cpus = g_array_new (FALSE, FALSE, sizeof (int));

  if (g_file_get_contents ("/sys/devices/system/cpu/online", &contents, NULL, NULL))
    {
      g_auto(GStrv) ranges = g_strsplit (g_strstrip (contents), ",", -1);

      for (guint i = 0; ranges[i] != NULL; i++)
        {
          int lo, hi;

          if (sscanf (ranges[i], "%d-%d", &lo, &hi) == 2)
            ;
          else if (sscanf (ranges[i], "%d", &lo) == 1)
            hi = lo;
          else
            continue;
          for (int c = lo; c <= hi; c++)
            g_array_append_val (cpus, c);
        }
    }

  if (cpus->len == 0)
    for (int c = 0; c < (int) sysconf (_SC_NPROCESSORS_ONLN); c++)
      g_array_append_val (cpus, c);
  return cpus;
}

/* How often @event is sampled: every @period occurrences, or @frequency
 * times a second (one of them is 0). */
static void
event_rate (HpRecorder    *self,
            const HpEvent *event,
            guint64       *frequency,
            guint64       *period)
{
  *frequency = 0;
  *period = 0;
  if (event->kind == HP_EVENT_KIND_OFF_CPU)
    *period = 1;  /* every switch: the weights are measured, not sampled */
  else if (self->options.period > 0 && g_strcmp0 (event->unit, "ns") != 0)
    *period = self->options.period;  /* time events keep the frequency */
  else if (event->by_period)
    *period = 1;
  else
    *frequency = self->options.frequency;
}

static void
init_attr (HpRecorder             *self,
           struct perf_event_attr *attr,
           const HpEvent          *event,
           gboolean                exclude_kernel)
{
  guint64 frequency, period;

  event_rate (self, event, &frequency, &period);
  memset (attr, 0, sizeof *attr);
  attr->size = sizeof *attr;
  attr->type = event->type;
  attr->config = event->config;
  attr->freq = frequency > 0;
  if (frequency > 0)
    attr->sample_freq = frequency;
  else
    attr->sample_period = period;
  /* off-CPU: the switch back in ends each interval (PERF_RECORD_SWITCH) */
  attr->context_switch = event->kind == HP_EVENT_KIND_OFF_CPU;
  attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
                      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
  /* The period of a sample taken by frequency varies: it is its weight.
   * Sampled by period, a software event or a tracepoint that carries its
   * period is sampled at every occurrence, each of period 1 (Linux,
   * perf_swevent_event; perf record -c 10 --period does the same): -c 10
   * took 20053 samples of 20053 page faults. Its weight is the period
   * asked for (hp_processor_map_event). */
  if (frequency > 0)
    attr->sample_type |= PERF_SAMPLE_PERIOD;
  /* system-wide: every task from the start, the command's too */
  attr->disabled = self->spawned && !self->options.system_wide;
  attr->enable_on_exec = self->spawned && !self->options.system_wide;
  attr->inherit = !self->options.system_wide;
  attr->mmap = 1;
  attr->mmap2 = 1;
  attr->comm = 1;
  attr->comm_exec = 1;
  attr->task = 1;
  attr->sample_id_all = 1;
  attr->exclude_hv = 1;
  attr->exclude_kernel = exclude_kernel;
  attr->exclude_callchain_kernel = exclude_kernel;
  if (self->options.call_graph == HP_CALL_GRAPH_DWARF)
    {
      /* The kernel's chain for kernel frames only; user frames come from
       * unwinding the stack copy, as perf record --call-graph dwarf does. */
      attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
      attr->sample_regs_user = hp_unwinder_get_sample_regs_user ();
      attr->sample_stack_user = self->options.stack_size;
      attr->exclude_callchain_user = 1;
    }
  /* No attr.build_id: with it, Linux (seen on 6.18) also flags the MMAP2
   * records of every other event on the task as carrying a build id, and
   * a perf record running alongside reads garbage and aborts. */
  /* woken at a quarter full: the ring's data area is ring_pages pages
   * (hp_perf_ring_new maps it in pages of this size) */
  attr->wakeup_watermark = self->ring_pages * (guint32) sysconf (_SC_PAGESIZE) / 4;
  attr->watermark = 1;
  attr->use_clockid = 1;
  attr->clockid = CLOCK_MONOTONIC;
}

/* The tasks to open events for: the spawned child, or every thread of the
 * process to attach to (new threads and children follow by inheritance). */
static GArray *
target_tasks (HpRecorder *self)
{
  GArray *tids = g_array_new (FALSE, FALSE, sizeof (pid_t));

  if (self->options.system_wide)
    {
      pid_t all = -1;

      g_array_append_val (tids, all);
    }
  else if (self->spawned)
    {
      pid_t pid = self->child;

      g_array_append_val (tids, pid);
    }
  else
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/task", (int) self->options.pid);
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          pid_t tid = atoi (name);

          if (tid > 0)
            g_array_append_val (tids, tid);
        }
    }
  return tids;
}

static gboolean
open_events (HpRecorder *self,
             GError    **error)
{
  g_autoptr(GArray) cpus = online_cpus ();
  g_autoptr(GArray) tids = target_tasks (self);
  static const struct { gboolean hardware; gboolean exclude_kernel; } tries[] = {
    { TRUE, FALSE }, { TRUE, TRUE }, { FALSE, FALSE }, { FALSE, TRUE },
  };
  gboolean dwarf = self->options.call_graph == HP_CALL_GRAPH_DWARF;
  const guint *pages = dwarf ? dwarf_ring_pages : fp_ring_pages;
  guint n_pages = dwarf ? G_N_ELEMENTS (dwarf_ring_pages) : G_N_ELEMENTS (fp_ring_pages);
  g_autoptr(GArray) defaults = NULL;
  GArray *events = self->events;
  int last_errno = 0;

  if (dwarf && hp_unwinder_get_sample_regs_user () == 0)
    {
      g_set_error_literal (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                           _("DWARF unwinding is not supported on this architecture; "
                             "record with --call-graph fp"));
      return FALSE;
    }
  if (dwarf && (self->options.stack_size % 8 != 0
                || self->options.stack_size > HP_RECORD_MAX_STACK_SIZE))
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                   _("stack size %u is invalid: it must be a multiple of 8 up to %u"),
                   self->options.stack_size, HP_RECORD_MAX_STACK_SIZE);
      return FALSE;
    }
  self->ring_pages = pages[0];

  if (tids->len == 0)
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_PROCESS,
                   _("process %d does not exist"), (int) self->options.pid);
      return FALSE;
    }

  /* Without events asked for: cycles where the machine counts them;
   * these VMs have no hardware counters, so the software cpu-clock is the
   * usual fallback. Kernel frames where we are allowed to see them. */
  if (events->len == 0)
    {
      HpEvent e;

      defaults = g_array_new (FALSE, TRUE, sizeof (HpEvent));
      g_array_set_clear_func (defaults, (GDestroyNotify) hp_event_clear);
      if (hp_event_lookup ("cycles", &e, NULL))
        g_array_append_val (defaults, e);
      if (hp_event_lookup ("cpu-clock", &e, NULL))
        g_array_append_val (defaults, e);
    }

  for (guint t = 0; t < G_N_ELEMENTS (tries); t++)
    {
      gboolean ok = TRUE;
      guint first = 0, n_events = events->len;
      struct perf_event_attr attrs[HP_CAPTURE_MAX_EVENTS];

      /* the default: one event per try; events asked for: all of them */
      if (defaults != NULL)
        {
          first = 0;
          while (first < defaults->len &&
                 (g_array_index (defaults, HpEvent, first).kind == HP_EVENT_KIND_HARDWARE) != tries[t].hardware)
            first++;
          if (first == defaults->len)
            continue;
          n_events = 1;
          init_attr (self, &attrs[0], &g_array_index (defaults, HpEvent, first), tries[t].exclude_kernel);
        }
      else
        {
          if (tries[t].hardware)
            continue;  /* the events' own kinds, hardware or not */
          for (guint e = 0; e < n_events; e++)
            init_attr (self, &attrs[e], &g_array_index (events, HpEvent, e), tries[t].exclude_kernel);
        }

      for (guint c = 0; c < cpus->len && ok; c++)
        {
          int cpu = g_array_index (cpus, int, c);
          int leader = -1;

          for (guint k = 0; k < n_events * tids->len && ok; k++)
            {
              guint e = k / tids->len, i = k % tids->len;
              pid_t tid = g_array_index (tids, pid_t, i);
              long fd = perf_event_open (&attrs[e], tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

              if (fd < 0)
                {
                  /* A thread that exited since we listed it is no failure. */
                  if (errno == ESRCH && !self->spawned && i > 0)
                    continue;
                  last_errno = errno;
                  ok = FALSE;
                  break;
                }
              g_array_append_val (self->fds, fd);
              g_array_append_val (self->fd_events, e);
              if (leader < 0)
                {
                  HpPerfRing *ring = NULL;

                  leader = (int) fd;
                  for (guint p = 0; p < n_pages && ring == NULL; p++)
                    {
                      g_autoptr(GError) ring_error = NULL;

                      /* Unprivileged users have a locked-memory budget. */
                      if (pages[p] > self->ring_pages)
                        continue;
                      ring = hp_perf_ring_new (leader, pages[p], &ring_error);
                      if (ring == NULL && p + 1 == n_pages)
                        {
                          g_propagate_error (error, g_steal_pointer (&ring_error));
                          return FALSE;
                        }
                      if (ring != NULL)
                        self->ring_pages = pages[p];
                    }
                  g_ptr_array_add (self->rings, ring);
                }
              else if (ioctl ((int) fd, PERF_EVENT_IOC_SET_OUTPUT, leader) != 0)
                {
                  last_errno = errno;
                  ok = FALSE;
                  break;
                }
            }
        }

      if (ok)
        {
          if (defaults != NULL)
            {
              HpEvent chosen = g_array_index (defaults, HpEvent, first);

              chosen.name = g_strdup (chosen.name);
              g_array_append_val (self->events, chosen);
            }
          self->event_name = g_array_index (self->events, HpEvent, 0).name;
          self->event_unit = g_array_index (self->events, HpEvent, 0).unit;
          for (guint e = 0; e < n_events; e++)
            {
              self->infos[e].sample_type = attrs[e].sample_type;
              self->infos[e].read_format = attrs[e].read_format;
              self->infos[e].sample_id_all = attrs[e].sample_id_all;
              self->infos[e].sample_regs_user = attrs[e].sample_regs_user;
            }
          self->info = self->infos[0];
          return TRUE;
        }

      close_events (self);

      if (last_errno == ESRCH)
        break;
    }

  if ((last_errno == EACCES || last_errno == EPERM) && self->options.system_wide)
    {
      g_autofree char *why = explain_system_wide ();

      g_set_error_literal (error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION, why);
    }
  else if (last_errno == EACCES || last_errno == EPERM)
    {
      g_autofree char *why = hp_recorder_explain_permission ();

      g_set_error_literal (error, HP_RECORD_ERROR, HP_RECORD_ERROR_PERMISSION, why);
    }
  else if (last_errno == ESRCH)
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_PROCESS,
                 _("process %d exited before it could be sampled"),
                 (int) (self->spawned ? self->child : self->options.pid));
  else
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                 _("perf_event_open failed: %s"), g_strerror (last_errno));
  return FALSE;
}

/* *errsv of a file without any execute bit */
#define NOT_EXECUTABLE (-1)

/* Whether @path is a file with an execute bit. Only what is certain is
 * refused here; whether this user may run it, exec tells. */
static gboolean
is_executable_file (const char *path,
                    int        *errsv)
{
  struct stat st;

  if (stat (path, &st) != 0)
    {
      *errsv = errno;
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      *errsv = EISDIR;
      return FALSE;
    }
  if ((st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)) == 0)
    {
      *errsv = NOT_EXECUTABLE;
      return FALSE;
    }
  return TRUE;
}

/* Finds the command as execvp would, before anything is created, and says
 * what is wrong when it cannot run: not there, a folder, or a file that is
 * not executable. */
static char *
find_program (const char  *name,
              GError     **error)
{
  const char *path_env;
  g_auto(GStrv) dirs = NULL;
  int errsv = 0;
  int first_errsv = 0;
  g_autofree char *first_found = NULL;

  if (name[0] == '\0')
    {
      g_set_error_literal (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                           _("the command is empty"));
      return NULL;
    }

  if (strchr (name, '/') != NULL)
    {
      if (is_executable_file (name, &errsv))
        return g_canonicalize_filename (name, NULL);
      if (errsv == NOT_EXECUTABLE)
        g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                     _("%s: cannot run it: permission denied (it is not executable)"), name);
      else if (errsv == EISDIR)
        g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                     _("%s: cannot run it: it is a folder"), name);
      else
        g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                     _("%s: cannot run it: %s"), name, g_strerror (errsv));
      return NULL;
    }

  path_env = g_getenv ("PATH");
  dirs = g_strsplit (path_env != NULL ? path_env : "/usr/local/bin:/usr/bin:/bin", ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (dirs[i][0] != '\0' ? dirs[i] : ".", name, NULL);

      if (is_executable_file (candidate, &errsv))
        return g_canonicalize_filename (candidate, NULL);
      if (first_found == NULL && errsv != ENOENT && errsv != ENOTDIR)
        {
          first_found = g_steal_pointer (&candidate);
          first_errsv = errsv;
        }
    }

  if (first_found != NULL && first_errsv == NOT_EXECUTABLE)
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                 _("%s: cannot run %s: permission denied (it is not executable)"), name, first_found);
  else if (first_found != NULL && first_errsv == EISDIR)
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                 _("%s: command not found (%s is a folder)"), name, first_found);
  else
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                 _("%s: command not found"), name);
  return NULL;
}

/* Forks the command, stopped before exec until the events are open:
 * the child waits on @go, and reports a failed exec through @err (CLOEXEC,
 * so a successful exec closes it and the parent reads EOF). @go is a
 * socket so that the parent can send on it without SIGPIPE: a child gone
 * before it (Ctrl-C reaches it too) must not kill the recorder. */
static gboolean
spawn_child (HpRecorder *self,
             int        *go_fd,
             int        *err_fd,
             GError    **error)
{
  const char *program = self->program;
  int go[2] = { -1, -1 }, err[2] = { -1, -1 };
  pid_t parent = getpid ();
  pid_t pid;

  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) != 0 || pipe2 (err, O_CLOEXEC) != 0)
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                   _("cannot create a pipe: %s"), g_strerror (errno));
      pid = -1;
    }
  else if ((pid = fork ()) < 0)
    g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED,
                 _("cannot fork: %s"), g_strerror (errno));
  if (pid < 0)
    {
      /* The window records again and again in one process: no fd leaks. */
      for (guint i = 0; i < 2; i++)
        {
          if (go[i] >= 0)
            close (go[i]);
          if (err[i] >= 0)
            close (err[i]);
        }
      return FALSE;
    }

  if (pid == 0)
    {
      char byte;
      int errsv;

      close (go[1]);
      close (err[0]);
      /* The command does not outlive a recorder that is killed: it would
       * run on unobserved, and sampled by nobody. (Checked after the
       * prctl, in case the recorder died before it.) */
      if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != parent)
        _exit (127);
      /* hotpath-cli ignores SIGXFSZ to see a file size limit as an error;
       * the command gets the default. Ctrl-C reaches the command through
       * its process group as usual; SIGINT/SIGTERM handlers of the
       * recorder are not inherited past exec. */
      signal (SIGXFSZ, SIG_DFL);
      if (read (go[0], &byte, 1) != 1)
        _exit (127);
      if (self->working_directory != NULL && chdir (self->working_directory) != 0)
        {
          errsv = errno;
          if (write (err[1], &errsv, sizeof errsv) < 0) {}
          _exit (127);
        }
      if (self->options.output_fd >= 0)
        {
          dup2 (self->options.output_fd, STDOUT_FILENO);
          dup2 (self->options.output_fd, STDERR_FILENO);
        }
      execv (program, self->argv);
      errsv = errno;
      if (write (err[1], &errsv, sizeof errsv) < 0) {}
      _exit (127);
    }

  close (go[0]);
  close (err[1]);
  self->child = pid;
  *go_fd = go[1];
  *err_fd = err[0];
  return TRUE;
}

static void
update_progress (HpRecorder *self,
                 gboolean    running)
{
  HpProcessorStats stats;

  hp_processor_get_stats (self->processor, &stats);
  g_mutex_lock (&self->progress_lock);
  self->progress.samples = stats.samples;
  self->progress.lost = stats.lost;
  self->progress.running = running;
  self->progress.elapsed = (g_get_monotonic_time () - self->start_time) / (gdouble) G_USEC_PER_SEC;
  g_mutex_unlock (&self->progress_lock);
}

/* HpPerfStackFinder: the user stack copy of a sample, decoded with its
 * event's layout, as the processing thread decodes it. */
static gsize
find_stack (const guint8 *record,
            gsize         size,
            gpointer      data)
{
  HpRecorder *self = data;
  const struct perf_event_header *h = (gconstpointer) record;
  const HpPerfEventInfo *info = &self->info;
  const HpPerfEventInfo *of_event;
  HpPerfRecord rec;
  guint64 id;

  if (h->type != PERF_RECORD_SAMPLE || size < sizeof *h + sizeof id)
    return 0;
  memcpy (&id, record + sizeof *h, sizeof id);
  if ((of_event = g_hash_table_lookup (self->id_infos, &id)) != NULL)
    info = of_event;
  if (!(info->sample_type & PERF_SAMPLE_STACK_USER)
      || !hp_perf_record_decode (info, record, size, &rec, NULL)
      || rec.sample.stack == NULL)
    return 0;
  return (gsize) (rec.sample.stack - record) - sizeof (guint64);
}

static gpointer
drain_thread (gpointer data)
{
  HpRecorder *self = data;
  guint n = self->rings->len;
  /* the rings, then the wake-up at the end (drain_wake_fd) */
  g_autofree struct pollfd *pfds = g_new0 (struct pollfd, n + 1);

  /* The kernel drops what does not fit in a ring, and a ring of DWARF
   * samples (8 KiB each) taken at every page fault (-c 1) fills in a few
   * milliseconds: on a loaded machine, a thread woken at a quarter full
   * waits its turn among the others for longer than that, and a fifth of
   * the samples or more were lost where perf record lost a few percent.
   * Ahead of the others, as a privileged recorder may put it, it loses
   * about as few as perf (tests/bench/record-lost.sh measures both). It
   * only copies memory, so it takes little from the others. Without the
   * privilege it keeps the usual priority. */
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), DRAIN_NICE) != 0)
    g_debug ("the drain thread keeps its priority: %s", g_strerror (errno));

  for (guint i = 0; i < n; i++)
    {
      pfds[i].fd = hp_perf_ring_get_fd (g_ptr_array_index (self->rings, i));
      pfds[i].events = POLLIN;
    }
  pfds[n].fd = self->drain_wake_fd;
  pfds[n].events = POLLIN;

  for (gboolean had_records = FALSE;;)
    {
      gboolean last = g_atomic_int_get (&self->drain_stop);
      gboolean has_records = FALSE;
      Chunk *round;

      /* The end wakes the poll at once: waiting out its timeout after the
       * program's exit added up to 50 ms to every recording. */
      if (!last && poll (pfds, n + 1, 50) > 0)
        {
          /* An event whose task exited reports POLLHUP from then on, at
           * once: polling it again would spin. Its ring is still read on
           * every pass below; the other rings' wake-ups and the timeout
           * pace the loop. */
          for (guint i = 0; i < n; i++)
            if (pfds[i].revents & (POLLHUP | POLLERR | POLLNVAL))
              pfds[i].fd = -1;
        }

      for (guint i = 0; i < n; i++)
        {
          GByteArray *bytes = g_byte_array_new ();

          if (hp_perf_ring_read_trimmed (g_ptr_array_index (self->rings, i), bytes, find_stack, self) > 0)
            {
              Chunk *chunk = g_new0 (Chunk, 1);

              chunk->bytes = bytes;
              g_async_queue_push (self->queue, chunk);
              has_records = TRUE;
            }
          else
            g_byte_array_unref (bytes);
        }

      /* The end of a round lets the processor handle what the round
       * before it brought (hp_processor_finish_round holds a round back
       * to order the CPUs' records), so one follows each round with
       * records. More empty rounds would change nothing: an idle program
       * no longer wakes the processing thread 20 times a second. */
      if (has_records || had_records || last)
        {
          round = g_new0 (Chunk, 1);
          round->end = last;
          g_async_queue_push (self->queue, round);
        }
      had_records = has_records;

      if (last)
        break;
    }
  return NULL;
}

/* Every COMMIT_INTERVAL_US: commit, so that the write lock is free until
 * the next row (a summary saved into the live capture meanwhile gets in),
 * and a kill loses little. The first write error ends the recording. */
static void
say_status (HpRecorder *self,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
say_status (HpRecorder *self,
            const char *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (self->options.status_func == NULL)
    return;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  self->options.status_func (message, self->options.status_data);
}

/* Another program holds the capture's write lock: the samples wait in the
 * writer, and the user is told, every LOCK_STATUS_US while it lasts, and
 * when it ends; after the program's end too, while the rest is written
 * and while hp_capture_writer_finish() waits (its wait function), so that
 * no wait is silent. The window's Record dialog reads the same from the
 * progress. */
#define LOCK_STATUS_US (5 * G_USEC_PER_SEC)

static void
watch_lock (HpRecorder *self)
{
  guint64 waiting = 0;
  gdouble wait = hp_capture_writer_get_lock_wait (self->writer, &waiting);
  gint64 now = g_get_monotonic_time ();
  gboolean ended = g_atomic_int_get (&self->ended);
  g_autofree char *name = NULL;
  int pid = wait > 0 ? hp_capture_writer_get_lock_holder (self->writer, &name) : 0;

  g_mutex_lock (&self->progress_lock);
  self->progress.lock_wait = wait;
  self->progress.waiting = waiting;
  self->progress.lock_holder_pid = pid;
  g_strlcpy (self->progress.lock_holder, name != NULL ? name : "", sizeof self->progress.lock_holder);
  g_mutex_unlock (&self->progress_lock);
  if (wait > 0 && (self->lock_said == 0 || now - self->lock_said >= LOCK_STATUS_US
                   || (ended && !self->lock_said_ended)))
    {
      g_autofree char *holder = hp_capture_writer_describe_lock_holder (self->writer);
      gulong n = (gulong) MIN (waiting, G_MAXULONG);

      if (!ended)
        say_status (self, g_dngettext (GETTEXT_PACKAGE,
                                       "writing %s waits for the write lock that %s holds (for %.1f s now): "
                                       "the %" PRIu64 " sample since is kept until it is free, and the recording goes on",
                                       "writing %s waits for the write lock that %s holds (for %.1f s now): "
                                       "the %" PRIu64 " samples since are kept until it is free, and the recording goes on",
                                       n),
                    self->output_path, holder, wait, waiting);
      else if (waiting > 0)
        say_status (self, g_dngettext (GETTEXT_PACKAGE,
                                       "the recording ended; writing %s waits for the write lock that %s holds "
                                       "(for %.1f s now): the %" PRIu64 " sample not written yet is kept until "
                                       "it is free, a minute at most",
                                       "the recording ended; writing %s waits for the write lock that %s holds "
                                       "(for %.1f s now): the %" PRIu64 " samples not written yet are kept until "
                                       "it is free, a minute at most",
                                       n),
                    self->output_path, holder, wait, waiting);
      else
        say_status (self, _("the recording ended and its samples are written; finishing %s waits for the write "
                            "lock that %s holds (for %.1f s now): its totals are kept until it is free, "
                            "a minute at most"),
                    self->output_path, holder, wait);
      self->lock_said = now;
      self->lock_said_ended = ended;
    }
  else if (wait == 0 && self->lock_said != 0)
    {
      say_status (self, _("the write lock of %s is free again: what waited for it is written"), self->output_path);
      self->lock_said = 0;
      self->lock_said_ended = FALSE;
    }
}

/* hp_capture_writer_finish() waits for another program's lock */
static void
finish_waits (gpointer data)
{
  watch_lock (data);
}

static void
commit_round (HpRecorder *self)
{
  gboolean ok = hp_capture_writer_flush (self->writer, NULL);

  watch_lock (self);
  if (ok)
    return;
  g_atomic_int_set (&self->write_failed, 1);
  hp_recorder_stop (self);
}

static gpointer
processing_thread (gpointer data)
{
  HpRecorder *self = data;
  gint64 committed = g_get_monotonic_time ();  /* when the last commit was */
  gboolean uncommitted = FALSE;  /* rounds processed since then */

  for (;;)
    {
      Chunk *chunk;
      gboolean end;

      if (uncommitted)
        {
          gint64 left = committed + COMMIT_INTERVAL_US - g_get_monotonic_time ();

          /* No more rounds come while the program idles: what was
           * written is committed when its time comes all the same. */
          if (left <= 0 || (chunk = g_async_queue_timeout_pop (self->queue, left)) == NULL)
            {
              if (!g_atomic_int_get (&self->write_failed))
                commit_round (self);
              committed = g_get_monotonic_time ();
              uncommitted = FALSE;
              continue;
            }
        }
      else
        chunk = g_async_queue_pop (self->queue);
      end = chunk->end;

      if (g_atomic_int_get (&self->write_failed))
        {
          /* Nothing more can be written: drop what comes until the end. */
          if (chunk->bytes != NULL)
            g_byte_array_unref (chunk->bytes);
        }
      else if (chunk->bytes != NULL)
        {
          const guint8 *p = chunk->bytes->data;
          gsize left = chunk->bytes->len;

          while (left >= sizeof (struct perf_event_header))
            {
              const struct perf_event_header *h = (gconstpointer) p;

              const HpPerfEventInfo *info = &self->info;
              guint64 id;

              if (h->size < sizeof *h || h->size > left)
                break;
              /* a sample starts with its event's id (PERF_SAMPLE_IDENTIFIER),
               * and events differ in what their samples carry */
              if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof *h + sizeof id)
                {
                  const HpPerfEventInfo *of_event;

                  memcpy (&id, p + sizeof *h, sizeof id);
                  if ((of_event = g_hash_table_lookup (self->id_infos, &id)) != NULL)
                    info = of_event;
                }
              /* the records stay in the drain pass's bytes, handed over once */
              hp_processor_push_held (self->processor, info, p, h->size, chunk->bytes);
              p += h->size;
              left -= h->size;
            }
          g_byte_array_unref (chunk->bytes);
        }
      else if (!end)
        {
          hp_processor_finish_round (self->processor);
          uncommitted = TRUE;
          update_progress (self, TRUE);
        }
      g_free (chunk);

      if (end)
        break;
    }

  if (!g_atomic_int_get (&self->write_failed))
    {
      hp_processor_flush (self->processor);
      commit_round (self);
    }
  update_progress (self, FALSE);
  return NULL;
}

/* Synthesizes COMM and MMAP records for a process that runs already, from
 * /proc, as perf record -p does: the kernel reports only what happens after
 * the events are opened. */
static void
synthesize_process (HpRecorder *self,
                    GPid        process)
{
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *task_path = g_strdup_printf ("/proc/%d/task", (int) process);
  g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", (int) process);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GDir) dir = g_dir_open (task_path, 0, NULL);
  guint32 pid = (guint32) process;
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      guint32 tid = (guint32) atoi (name);

      if (tid > 0)
        g_array_append_val (tids, tid);
    }
  for (guint i = 0; i < tids->len; i++)
    {
      guint32 tid = g_array_index (tids, guint32, i);
      g_autofree char *comm_path = g_strdup_printf ("/proc/%u/task/%u/comm", pid, tid);
      g_autofree char *comm = NULL;
      HpPerfRecord rec = { 0 };

      if (!g_file_get_contents (comm_path, &comm, NULL, NULL))
        continue;
      rec.type = PERF_RECORD_COMM;
      rec.pid = pid;
      rec.tid = tid;
      rec.comm.comm = g_strchomp (comm);
      hp_processor_process (self->processor, &rec);
    }

  if (!g_file_get_contents (maps_path, &maps, NULL, NULL))
    return;
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end, pgoff;
      char perms[8] = "";
      int name_at = 0;
      HpPerfRecord rec = { 0 };

      if (sscanf (lines[i], "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff, &name_at) < 4)
        continue;
      if (strchr (perms, 'x') == NULL || name_at == 0)
        continue;

      rec.type = PERF_RECORD_MMAP2;
      rec.pid = pid;
      rec.tid = pid;
      rec.mmap.addr = start;
      rec.mmap.len = end - start;
      rec.mmap.pgoff = pgoff;
      rec.mmap.prot = PROT_READ | PROT_EXEC;
      rec.mmap.filename = g_strstrip (lines[i] + name_at);
      if (rec.mmap.filename[0] == '\0')
        rec.mmap.filename = "//anon";
      hp_processor_process (self->processor, &rec);
    }
}

/* Every process that runs, for a system-wide recording. */
static void
synthesize_all (HpRecorder *self)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      int pid = atoi (name);

      if (pid > 0)
        synthesize_process (self, pid);
    }
}

/* Resolves the events asked for into self->events, before anything is
 * written: a name that is wrong, a hardware event on a machine without
 * counters or tracefs out of reach is said at once. */
static gboolean
resolve_events (HpRecorder  *self,
                GError     **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_array_set_size (self->events, 0);
  for (guint i = 0; self->event_names != NULL && self->event_names[i] != NULL; i++)
    g_ptr_array_add (names, self->event_names[i]);
  if (self->options.off_cpu)
    {
      if (names->len == 0)
        g_ptr_array_add (names, (gpointer) "cpu-clock");
      g_ptr_array_add (names, (gpointer) HP_EVENT_OFF_CPU);
    }
  if (names->len > HP_CAPTURE_MAX_EVENTS)
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_EVENT,
                   _("%u events asked for; a recording takes at most %d"), names->len, HP_CAPTURE_MAX_EVENTS);
      return FALSE;
    }
  for (guint i = 0; i < names->len; i++)
    {
      HpEvent event;
      gboolean dup = FALSE;

      if (!hp_event_lookup (names->pdata[i], &event, error))
        return FALSE;
      for (guint k = 0; k < self->events->len; k++)
        dup = dup || g_strcmp0 (g_array_index (self->events, HpEvent, k).name, event.name) == 0;
      if (dup)
        hp_event_clear (&event);
      else
        g_array_append_val (self->events, event);
    }
  return TRUE;
}

/* Writes the events into the capture and tells the processor which perf
 * ids are which. */
static void
map_events (HpRecorder *self)
{
  for (guint e = 0; e < self->events->len; e++)
    {
      const HpEvent *event = &g_array_index (self->events, HpEvent, e);
      guint64 frequency, period;

      event_rate (self, event, &frequency, &period);
      if (event->kind == HP_EVENT_KIND_OFF_CPU)
        period = 0;  /* measured intervals, not a sampling period */
      hp_capture_writer_add_event (self->writer, event->name, event->unit, frequency, period);
    }
  for (guint i = 0; i < self->fds->len; i++)
    {
      guint e = g_array_index (self->fd_events, guint, i);
      guint64 id = 0;

      if (ioctl (g_array_index (self->fds, int, i), PERF_EVENT_IOC_ID, &id) == 0)
        {
          const HpEvent *event = &g_array_index (self->events, HpEvent, e);
          guint64 frequency, period;

          event_rate (self, event, &frequency, &period);
          hp_processor_map_event (self->processor, id, e + 1, event->kind == HP_EVENT_KIND_OFF_CPU,
                                  frequency > 0 ? 0 : period);
          g_hash_table_insert (self->id_infos, g_memdup2 (&id, sizeof id), &self->infos[e]);
        }
    }
}

char *
hp_recorder_read_command_line (GPid    pid,
                               char  **argv0)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  g_autofree char *contents = NULL;
  gsize len = 0;

  if (!g_file_get_contents (path, &contents, &len, NULL) || len == 0)
    return NULL;
  if (argv0 != NULL)
    *argv0 = g_strdup (contents);  /* up to the first NUL */
  /* the arguments end with a NUL each; the last one stays */
  for (gsize i = 0; i + 1 < len; i++)
    if (contents[i] == '\0')
      contents[i] = ' ';
  return g_steal_pointer (&contents);
}

static char *
command_line_of (HpRecorder *self)
{
  char *command;

  if (self->argv == NULL && self->options.system_wide)
    return g_strdup (_("the whole system"));
  if (self->argv != NULL)
    {
      GString *s = g_string_new (NULL);

      for (guint i = 0; self->argv[i] != NULL; i++)
        {
          g_autofree char *quoted = NULL;

          if (i > 0)
            g_string_append_c (s, ' ');
          if (strpbrk (self->argv[i], " \t\"'\\$") != NULL || self->argv[i][0] == '\0')
            g_string_append (s, quoted = g_shell_quote (self->argv[i]));
          else
            g_string_append (s, self->argv[i]);
        }
      return g_string_free (s, FALSE);
    }

  if ((command = hp_recorder_read_command_line (self->options.pid, NULL)) != NULL)
    return command;
  return g_strdup_printf ("pid %d", (int) self->options.pid);
}

static void
write_metadata_start (HpRecorder *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *start = g_date_time_format_iso8601 (now);
  g_autofree char *command = command_line_of (self);
  g_autofree char *hostname = g_strdup (g_get_host_name ());
  struct utsname uts;

  hp_capture_writer_set_metadata (self->writer, HP_META_COMMAND, command);
  {
    g_autofree char *cwd_link = self->argv == NULL && self->options.pid > 0
                                ? g_strdup_printf ("/proc/%d/cwd", (int) self->options.pid) : NULL;
    g_autofree char *cwd = self->argv != NULL
                           ? g_canonicalize_filename (self->working_directory ? self->working_directory : ".", NULL)
                           : cwd_link != NULL ? g_file_read_link (cwd_link, NULL) : NULL;

    if (cwd != NULL)
      hp_capture_writer_set_metadata (self->writer, HP_META_WORKING_DIRECTORY, cwd);
  }
  hp_capture_writer_set_metadata (self->writer, HP_META_START_TIME, start);
  if (self->options.call_graph == HP_CALL_GRAPH_DWARF)
    {
      hp_capture_writer_set_metadata (self->writer, HP_META_CALL_GRAPH, "dwarf");
      hp_capture_writer_set_metadata_int (self->writer, HP_META_STACK_SIZE, self->options.stack_size);
    }
  else
    hp_capture_writer_set_metadata (self->writer, HP_META_CALL_GRAPH, "fp");
  hp_capture_writer_set_metadata (self->writer, HP_META_HOSTNAME, hostname);
  if (uname (&uts) == 0)
    hp_capture_writer_set_metadata (self->writer, HP_META_KERNEL_RELEASE, uts.release);
  hp_capture_writer_set_metadata_int (self->writer, HP_META_CPU_COUNT, self->rings->len);
  hp_capture_writer_set_metadata (self->writer, HP_META_HOTPATH_VERSION, PACKAGE_VERSION);
  if (!self->spawned && !self->options.system_wide)
    hp_capture_writer_set_metadata_int (self->writer, HP_META_ATTACHED_PID, self->options.pid);
  if (self->options.system_wide)
    hp_capture_writer_set_metadata (self->writer, HP_META_SYSTEM_WIDE, "1");
  hp_capture_writer_flush (self->writer, NULL);
}

/* Whether a thread of @pid still runs. A process that exited stays a
 * zombie until its parent reaps it, which a parent may never do; kill()
 * still finds it then. (Its leader alone may be a zombie while other
 * threads run on, so every thread counts.) */
static gboolean
process_alive (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (kill (pid, 0) != 0 && errno == ESRCH)
    return FALSE;
  if ((dir = g_dir_open (path, 0, NULL)) == NULL)
    return TRUE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stat_path = g_strdup_printf ("%s/%s/stat", path, name);
      g_autofree char *stat = NULL;
      const char *paren;

      /* "tid (comm) S ...": the state follows the last parenthesis. */
      if (!g_file_get_contents (stat_path, &stat, NULL, NULL)
          || (paren = strrchr (stat, ')')) == NULL || paren[1] != ' ')
        continue;
      if (paren[2] != 'Z' && paren[2] != 'X')
        return TRUE;
    }
  return FALSE;
}

/* Sleeps until @pidfd (the spawned command) ends, a stop is asked for
 * or @deadline (monotonic µs) passes. Waking 50 times a second to look
 * cost a recording about 3 % of a busy program's CPU on a virtual machine,
 * and up to WAIT_POLL_US of wall time after the program's end. */
static void
sleep_until_end (HpRecorder *self,
                 int         pidfd,
                 gint64      deadline)
{
  struct pollfd fds[2] = { { .fd = pidfd, .events = POLLIN }, { .fd = self->stop_fd, .events = POLLIN } };
  int timeout = -1;

  if (deadline != G_MAXINT64)
    {
      gint64 left = deadline - g_get_monotonic_time ();

      /* rounded up: never wake just before the deadline and spin */
      timeout = left <= 0 ? 0 : (int) MIN ((left + 999) / 1000, G_MAXINT);
    }
  if (poll (fds, self->stop_fd >= 0 ? 2 : 1, timeout) < 0 && errno != EINTR)
    g_usleep (WAIT_POLL_US);
}

/* Waits for the end of the recording; returns the child's wait status. */
static int
wait_for_end (HpRecorder *self)
{
  gint64 deadline = G_MAXINT64;
  int status = 0;
  int pidfd = -1;

  /* A duration beyond what a gint64 of microseconds holds (or inf) is no
   * limit; converting it would overflow into one in the past. */
  if (self->options.duration > 0
      && self->options.duration < (gdouble) (G_MAXINT64 - self->start_time) / G_USEC_PER_SEC)
    deadline = self->start_time + (gint64) (self->options.duration * G_USEC_PER_SEC);

  for (;;)
    {
      if (g_atomic_int_get (&self->stop_requested) || g_get_monotonic_time () >= deadline)
        break;

      if (self->spawned)
        {
          pid_t r = waitpid (self->child, &status, WNOHANG);

          if (r == self->child)
            {
              if (pidfd >= 0)
                close (pidfd);
              return status;
            }
#ifdef SYS_pidfd_open
          /* opened after the first waitpid: the child is not reaped yet,
           * so its pid cannot name another process */
          if (pidfd < 0)
            pidfd = syscall (SYS_pidfd_open, self->child, 0);
#endif
        }
      else if (!self->options.system_wide && !process_alive (self->options.pid))
        return 0;

      if (pidfd >= 0)
        sleep_until_end (self, pidfd, deadline);
      else
        g_usleep (WAIT_POLL_US);
    }
  if (pidfd >= 0)
    close (pidfd);

  /* Stopped early: a command we spawned is stopped too. When the stop
   * is the user's signal (Ctrl-C), the command gets that signal, not
   * ours: a terminal's Ctrl-C reached it already (its process group),
   * a signal sent to the recorder alone is passed on; and it has the
   * grace time to end on it (a program that handles SIGINT to flush its
   * output does). Only then SIGTERM, and at last SIGKILL. */
  if (self->spawned)
    {
      int stop_signal = g_atomic_int_get (&self->stop_signal);
      const int escalate[] = { SIGTERM, SIGKILL };

      self->child_stopped = TRUE;
      if (stop_signal != 0)
        {
          if (!g_atomic_int_get (&self->stop_signal_had))
            {
              kill (self->child, stop_signal);
              self->sent_signal = stop_signal;
            }
          for (int i = 0; i < STOP_GRACE_POLLS; i++)
            {
              if (waitpid (self->child, &status, WNOHANG) == self->child)
                return status;
              g_usleep (WAIT_POLL_US);
            }
        }
      for (guint k = 0; k < G_N_ELEMENTS (escalate); k++)
        {
          /* not sent to a command that ended already */
          if (waitpid (self->child, &status, WNOHANG) == self->child)
            return status;
          kill (self->child, escalate[k]);
          self->sent_signal = escalate[k];
          self->ended_by_recorder = TRUE;
          for (int i = 0; k + 1 < G_N_ELEMENTS (escalate) && i < STOP_GRACE_POLLS; i++)
            {
              if (waitpid (self->child, &status, WNOHANG) == self->child)
                return status;
              g_usleep (WAIT_POLL_US);
            }
        }
      waitpid (self->child, &status, 0);
    }
  return status;
}

/* The end of a recording whose sampling started: the capture is kept,
 * complete or, after a write error, cut short. */
static void
finish_capture (HpRecorder *self,
                int         status,
                gint64      end_time)
{
  g_autoptr(GError) error = NULL;

  if (hp_capture_writer_get_error (self->writer) == NULL)
    {
      hp_processor_write_stats (self->processor);
      hp_capture_writer_set_metadata_int (self->writer, HP_META_DURATION_NS, (end_time - self->start_time) * 1000);
      if (self->spawned && WIFEXITED (status))
        hp_capture_writer_set_metadata_int (self->writer, HP_META_EXIT_STATUS, WEXITSTATUS (status));
      else if (self->spawned && WIFSIGNALED (status))
        hp_capture_writer_set_metadata (self->writer, HP_META_EXIT_SIGNAL, g_strsignal (WTERMSIG (status)));
      if (g_atomic_int_get (&self->stop_signal) != 0)
        hp_capture_writer_set_metadata_int (self->writer, HP_META_STOP_SIGNAL, g_atomic_int_get (&self->stop_signal));
      /* what killed it was the recorder's own SIGTERM (SIGKILL), not the program's fault */
      if (self->spawned && WIFSIGNALED (status) && self->ended_by_recorder && WTERMSIG (status) == self->sent_signal)
        hp_capture_writer_set_metadata (self->writer, HP_META_ENDED_BY_RECORDER, "1");
    }
  g_clear_pointer (&self->processor, hp_processor_free);

  /* a wait that goes on after the end is said at once, as such */
  watch_lock (self);
  hp_capture_writer_set_wait_func (self->writer, finish_waits, self);
  if (hp_capture_writer_finish (self->writer, &error))
    {
      self->note = g_strdup (hp_capture_writer_get_note (self->writer));
      watch_lock (self);
    }
  else
    {
      /* the error says where what waited is; no "free again" */
      self->write_error = g_steal_pointer (&error);
      self->lock_said = 0;
      self->lock_said_ended = FALSE;
      g_mutex_lock (&self->progress_lock);
      self->progress.lock_wait = 0;
      self->progress.waiting = 0;
      g_mutex_unlock (&self->progress_lock);
    }

  g_mutex_lock (&self->progress_lock);
  self->progress.samples = hp_capture_writer_get_n_committed_samples (self->writer);
  /* the recording's length, as the capture's duration says, not the time
   * it then took to write what the rings held */
  self->progress.elapsed = (end_time - self->start_time) / (gdouble) G_USEC_PER_SEC;
  g_mutex_unlock (&self->progress_lock);
}

/* The writer names the file it writes; when that is the part that
 * replaces an existing capture (NAME.PID.part), the user knows it by the
 * name they asked for, which is where the part is renamed to and where
 * its samples are: @error says that name instead. */
static void
name_capture_in_error (GError     *error,
                       const char *part,
                       const char *capture)
{
  g_auto(GStrv) pieces = NULL;

  if (error == NULL || part == NULL || strstr (error->message, part) == NULL)
    return;
  pieces = g_strsplit (error->message, part, -1);
  g_free (error->message);
  error->message = g_strjoinv (capture, pieces);
}

/* Once both threads ended: what ended this recording (the drain thread's
 * stop and its wake-up, a stop request, a write error) is taken back, so
 * that a next run of this recorder does not end at once. The drain thread
 * would otherwise stop after its first pass, before the program had run,
 * and that recording would lose every later sample. */
static void
end_threads_for_next_run (HpRecorder *self)
{
  guint64 count;

  g_atomic_int_set (&self->drain_stop, 0);
  g_atomic_int_set (&self->write_failed, 0);
  g_atomic_int_set (&self->stop_requested, 0);
  if (self->drain_wake_fd >= 0 && read (self->drain_wake_fd, &count, sizeof count) < 0) {}
  if (self->stop_fd >= 0 && read (self->stop_fd, &count, sizeof count) < 0) {}
}

static gboolean
run_recording (HpRecorder  *self,
               const char  *output_path,
               GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *part = NULL;
  const char *path = output_path;
  GThread *drain, *processing;
  int go_fd = -1, err_fd = -1;
  int status;
  gint64 end_time;

  self->spawned = self->argv != NULL;
  g_free (self->output_path);
  self->output_path = g_strdup (output_path);
  self->child_stopped = FALSE;
  self->child_reaped = FALSE;
  g_atomic_int_set (&self->ended, 0);
  self->lock_said = 0;
  self->lock_said_ended = FALSE;
  g_clear_error (&self->write_error);
  g_clear_pointer (&self->note, g_free);
  g_clear_pointer (&self->saved_as, g_free);

  /* What can be checked is checked before anything is written. */
  if (!resolve_events (self, error))
    return FALSE;
  if (!self->spawned && !self->options.system_wide && !process_alive (self->options.pid))
    {
      g_set_error (error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_PROCESS,
                   _("process %d does not exist"), (int) self->options.pid);
      return FALSE;
    }
  if (self->spawned)
    {
      g_free (self->program);
      if ((self->program = find_program (self->argv[0], error)) == NULL)
        return FALSE;
    }

  {
    g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);

    hp_capture_writer_remove_stale_parts (output_path, kept);
    for (guint i = 0; i < kept->len; i++)
      say_status (self, "%s", (const char *) kept->pdata[i]);
  }

  /* An existing capture is replaced only by a recording that started: the
   * new one is written beside it until then. */
  if (g_file_test (output_path, G_FILE_TEST_EXISTS))
    path = part = hp_capture_writer_part_path (output_path);

  self->writer = hp_capture_writer_new (path, error);
  if (self->writer == NULL)
    {
      /* nothing was written: the old capture is as it was */
      if (error != NULL)
        name_capture_in_error (*error, part, output_path);
      return FALSE;
    }

  if (self->spawned && !spawn_child (self, &go_fd, &err_fd, error))
    goto fail;

  if (!open_events (self, error))
    {
      if (self->spawned)
        {
          kill (self->child, SIGKILL);
          waitpid (self->child, NULL, 0);
          close (go_fd);
          close (err_fd);
        }
      goto fail;
    }

  self->processor = hp_processor_new (self->writer);
  hp_processor_set_live (self->processor, TRUE);
  map_events (self);
  hp_symbolizer_set_fetch_func (hp_processor_get_symbolizer (self->processor),
                                self->options.fetch_func, self->options.fetch_data);
  write_metadata_start (self);

  /* Attached or system-wide, the events run from their opening, so that
   * what starts or maps code while /proc is read is not missed; the rings
   * are drained meanwhile, for reading every process of a system takes
   * a second or more. The recording (its duration, --duration and its
   * samples) starts once that reading ends, as perf record -a enables its
   * events after its own: before, the samples spanned a second and a half
   * more than the duration said. The processing thread starts then too,
   * after the records read from /proc. */
  self->queue = g_async_queue_new ();
  self->start_time = g_get_monotonic_time ();
  drain = g_thread_new ("hp-drain", drain_thread, self);
  if (self->options.system_wide)
    synthesize_all (self);
  else if (!self->spawned)
    synthesize_process (self, self->options.pid);
  if (!self->spawned)
    {
      self->start_time = g_get_monotonic_time ();
      /* CLOCK_MONOTONIC, as the events' use_clockid asks */
      hp_processor_set_start_time (self->processor, (guint64) self->start_time * 1000);
    }
  processing = g_thread_new ("hp-process", processing_thread, self);

  if (self->spawned)
    {
      int errsv = 0;
      ssize_t n;

      /* Let the child exec: enable_on_exec starts sampling right there. */
      if (send (go_fd, "g", 1, MSG_NOSIGNAL) != 1) {}
      close (go_fd);
      n = read (err_fd, &errsv, sizeof errsv);
      close (err_fd);
      if (n == sizeof errsv)
        {
          g_set_error (&local_error, HP_RECORD_ERROR, HP_RECORD_ERROR_NO_COMMAND,
                       _("%s: cannot run it: %s"), self->argv[0], g_strerror (errsv));
          waitpid (self->child, NULL, 0);
        }
    }

  status = local_error ? 0 : wait_for_end (self);
  end_time = g_get_monotonic_time ();
  g_atomic_int_set (&self->ended, 1);
  if (self->spawned && local_error == NULL)
    {
      self->child_reaped = TRUE;
      self->child_status = status;
      if (g_atomic_int_get (&self->stop_requested))
        self->child_stopped = TRUE;
    }

  for (guint i = 0; i < self->fds->len; i++)
    ioctl (g_array_index (self->fds, int, i), PERF_EVENT_IOC_DISABLE, 0);

  g_atomic_int_set (&self->drain_stop, 1);
  if (self->drain_wake_fd >= 0)
    {
      guint64 one = 1;

      if (write (self->drain_wake_fd, &one, sizeof one) < 0)
        g_debug ("cannot wake the drain thread: %s", g_strerror (errno));
    }
  g_thread_join (drain);
  g_thread_join (processing);
  end_threads_for_next_run (self);
  g_async_queue_unref (self->queue);
  self->queue = NULL;
  close_events (self);

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      g_clear_pointer (&self->processor, hp_processor_free);
      goto fail;
    }

  /* Sampling ran: from here on the capture is kept, whatever fails. A
   * capture whose folder was removed or renamed, or whose file was deleted
   * or moved meanwhile, is not where the user will look: it is saved
   * elsewhere, and that is an error that says where. */
  finish_capture (self, status, end_time);
  if (!hp_capture_writer_close (self->writer, output_path, error))
    {
      self->saved_as = g_strdup (hp_capture_writer_get_saved_as (self->writer));
      g_clear_pointer (&self->writer, hp_capture_writer_free);
      return FALSE;
    }
  g_clear_pointer (&self->writer, hp_capture_writer_free);

  if (part != NULL && !hp_capture_writer_replace (part, output_path, error))
    {
      /* not as a part, which the next writer in the folder would remove */
      g_autofree char *kept = hp_capture_writer_keep_aside (part, output_path);

      g_prefix_error (error, _("the recording is kept as %s: "), kept != NULL ? kept : part);
      self->saved_as = kept != NULL ? g_steal_pointer (&kept) : g_strdup (part);
      return FALSE;
    }
  /* a full disk: the samples committed until then are in output_path now */
  name_capture_in_error (self->write_error, part, output_path);
  return TRUE;

fail:
  hp_capture_writer_abort (self->writer);
  g_clear_pointer (&self->writer, hp_capture_writer_free);
  return FALSE;
}

/* The kernel lowers its limit by itself when sampling interrupts take long,
 * and then refuses a higher frequency with a bare EINVAL. */
static guint
max_sample_rate_below (guint frequency)
{
  g_autofree char *contents = NULL;
  guint64 rate;

  if (g_file_get_contents ("/proc/sys/kernel/perf_event_max_sample_rate", &contents, NULL, NULL) &&
      g_ascii_string_to_unsigned (g_strstrip (contents), 10, 1, G_MAXUINT, &rate, NULL) &&
      frequency > rate)
    return (guint) rate;
  return 0;
}

gboolean
hp_recorder_run (HpRecorder      *self,
                 const char      *output_path,
                 HpRecordResult  *result,
                 GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  HpRecordResult unused;
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (output_path != NULL, FALSE);
  g_return_val_if_fail (self->writer == NULL, FALSE);

  if (result == NULL)
    result = &unused;
  memset (result, 0, sizeof *result);

  ok = run_recording (self, output_path, &local_error);

  if (self->spawned && self->child_reaped)
    {
      result->exited = WIFEXITED (self->child_status);
      result->exit_status = result->exited ? WEXITSTATUS (self->child_status) : 0;
      result->exit_signal = WIFSIGNALED (self->child_status) ? WTERMSIG (self->child_status) : 0;
      result->core_dumped = result->exit_signal != 0 && WCOREDUMP (self->child_status);
      result->stopped = self->child_stopped;
      result->ended_by_recorder = WIFSIGNALED (self->child_status) && self->ended_by_recorder &&
                                  WTERMSIG (self->child_status) == self->sent_signal;
    }
  result->stop_signal = g_atomic_int_get (&self->stop_signal);
  result->forwarded = self->spawned && result->stop_signal != 0 && !g_atomic_int_get (&self->stop_signal_had);
  if (!ok && g_error_matches (local_error, HP_RECORD_ERROR, HP_RECORD_ERROR_FAILED))
    result->max_sample_rate = max_sample_rate_below (self->options.frequency);

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return ok;
}
