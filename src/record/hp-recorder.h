/* hp-recorder.h - records perf samples of a program into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "symbols/hp-symbolizer.h"

G_BEGIN_DECLS

#define HP_RECORD_ERROR (hp_record_error_quark ())
GQuark hp_record_error_quark (void);

typedef enum {
  HP_RECORD_ERROR_FAILED,
  HP_RECORD_ERROR_PERMISSION,  /* perf_event_open refused */
  HP_RECORD_ERROR_NO_COMMAND,  /* the command does not exist or cannot run */
  HP_RECORD_ERROR_NO_PROCESS,  /* the process to attach to does not exist */
  HP_RECORD_ERROR_NO_EVENT,    /* no such event, or not on this machine */
} HpRecordError;

/* How user call stacks are recorded. */
typedef enum {
  HP_CALL_GRAPH_DWARF,  /* copy the user stack and unwind it with CFI (libdw) */
  HP_CALL_GRAPH_FP,     /* the kernel's frame-pointer chain */
} HpCallGraph;

/* Bytes of user stack copied per sample with HP_CALL_GRAPH_DWARF: a
 * multiple of 8 in this range. The record dialog's stack size
 * (data/ui/hp-record-dialog.ui) and its setting (the gschema's
 * record-stack-size) repeat these numbers; test-record-plan reads both
 * files and holds them to these. */
#define HP_RECORD_MIN_STACK_SIZE     8
/* perf's default: what it cuts of sqlite3, python3 and cc1, and what more
 * costs, is in README (Using hotpath-cli) and docs/ARCHITECTURE.md. */
#define HP_RECORD_DEFAULT_STACK_SIZE 8192
#define HP_RECORD_MAX_STACK_SIZE     65528  /* the kernel's limit, less the size field */

/* The stack copy to suggest when copies of @stack_size bytes (0: the
 * default) ended too many stacks: four times as big, within the limit;
 * 0 when @stack_size is the limit already, and no copy holds more.
 * `hotpath-cli report` and the window suggest the same. */
static inline guint64
hp_record_bigger_stack_size (guint64 stack_size)
{
  if (stack_size >= HP_RECORD_MAX_STACK_SIZE)
    return 0;
  return MIN (MAX (stack_size, HP_RECORD_DEFAULT_STACK_SIZE) * 4, HP_RECORD_MAX_STACK_SIZE);
}

typedef struct {
  char       **argv;              /* command to spawn; NULL to attach to @pid */
  GPid         pid;               /* process to attach to */
  const char  *working_directory; /* for the spawned command; NULL: ours */
  guint        frequency;         /* samples per second per CPU; 0: 999 */
  gdouble      duration;          /* seconds; 0: until the command exits or a stop */
  int          output_fd;         /* stdout and stderr of the command; -1: ours */
  HpCallGraph  call_graph;        /* default HP_CALL_GRAPH_DWARF */
  guint        stack_size;        /* DWARF: bytes of stack per sample, a multiple of 8
                                   * up to HP_RECORD_MAX_STACK_SIZE; 0: the default */
  const char *const *events;      /* names (hp-events.h), NULL-terminated; NULL:
                                   * cycles, or cpu-clock without hardware counters */
  guint64      period;            /* sample every @period occurrences of the events that
                                   * count them (not cpu-clock, task-clock: those keep
                                   * @frequency); 0: @frequency, or every one of the
                                   * rare ones (context switches, tracepoints) */
  gboolean     system_wide;       /* every process on every CPU: @argv, if any,
                                   * only says when to stop; needs root or
                                   * kernel.perf_event_paranoid <= 0 */
  gboolean     off_cpu;           /* add off-cpu (time blocked) to @events, and
                                   * cpu-clock when @events is NULL */
  HpSymbolFetchFunc fetch_func;   /* downloads of debug info (debuginfod); NULL: none */
  gpointer     fetch_data;
  /* A sentence for the user about writing the capture (another program
   * holds its write lock: the samples wait; the lock is free again),
   * called from the recorder's threads; NULL: none. */
  void       (*status_func) (const char *message, gpointer data);
  gpointer     status_data;
} HpRecordOptions;

typedef struct {
  gdouble elapsed;   /* seconds since sampling started */
  guint64 samples;   /* samples written so far (at the end: in the capture) */
  guint64 lost;      /* samples the kernel dropped so far */
  gboolean running;
  gdouble lock_wait; /* seconds writing has waited for a lock another program
                      * holds, 0 when it does not wait */
  guint64 waiting;   /* the samples that wait for it, kept until it is free */
  int     lock_holder_pid;  /* who holds that lock, with its command name: */
  char    lock_holder[16];  /* 0 and "" when not known */
} HpRecordProgress;

/* How a recording ended, filled by hp_recorder_run() whether it succeeded
 * or not: what a front end tells the user beside the error or the capture.
 * The same facts go into the capture's metadata (exit_status,
 * exit_signal); a front end need not reopen the capture to learn them. */
typedef struct {
  gboolean exited;          /* the spawned command exited, with exit_status */
  int      exit_status;
  int      exit_signal;     /* the signal that ended the spawned command, or 0 */
  gboolean core_dumped;     /* with exit_signal */
  gboolean stopped;         /* the recorder ended the command (a stop, the duration) */
  int      stop_signal;     /* the signal that stopped the recording (hp_recorder_stop_by_signal), or 0 */
  gboolean forwarded;       /* stop_signal was passed on to the spawned command */
  gboolean ended_by_recorder; /* exit_signal is the recorder's SIGTERM (SIGKILL): the command
                             * did not end on its own within the grace time after the stop */
  guint    max_sample_rate; /* the kernel's limit when the frequency asked for is
                             * over it (kernel.perf_event_max_sample_rate), else 0 */
} HpRecordResult;

typedef struct _HpRecorder HpRecorder;

HpRecorder *hp_recorder_new          (const HpRecordOptions *options);
void        hp_recorder_free         (HpRecorder            *self);

/* Records into a capture at @output_path until the command exits, the
 * duration is over or hp_recorder_stop() is called. Blocks: run it in a worker
 * thread when a main loop must go on.
 *
 * The command (or process) is checked before anything is written. A
 * capture already at @output_path is replaced only once sampling has
 * started: the new one is written beside it (@output_path.PID.part) and
 * renamed over it at the end. Parts left in that folder by recorders and
 * importers that were killed are removed.
 *
 * FALSE with @error when the recording could not start; no file is left
 * behind then. Once sampling started, the capture is always kept: TRUE,
 * even when a write error (a full disk) stopped the recording early and
 * the capture is cut short (hp_recorder_get_write_error()).
 *
 * @result (may be NULL) says how it ended, in both cases: how the spawned
 * command ended, and when perf_event_open refused the frequency, the
 * kernel's limit. */
gboolean    hp_recorder_run          (HpRecorder            *self,
                                      const char            *output_path,
                                      HpRecordResult        *result,
                                      GError               **error);

/* After hp_recorder_run(): the write error that stopped the recording and
 * left the capture cut short (holding the samples committed before it),
 * or NULL. */
const GError *hp_recorder_get_write_error (HpRecorder       *self);

/* After hp_recorder_run(): a sentence for the user when the capture was
 * kept in an unusual way (with its -wal file beside it, because another
 * program had it open), or NULL. */
const char *hp_recorder_get_note     (HpRecorder            *self);

/* After hp_recorder_run() failed because the capture was taken from its
 * name while it was written (its folder removed or renamed, the file
 * deleted or moved) or could not be renamed into place: where the
 * capture was kept instead (the error says so too), or NULL. */
const char *hp_recorder_get_saved_as (HpRecorder            *self);

/* Asks a running recording to stop (and the spawned command to exit). Safe to
 * call from any thread and from a signal handler. */
void        hp_recorder_stop         (HpRecorder            *self);

/* hp_recorder_stop() because the recorder got @signum (SIGINT, SIGTERM):
 * the spawned command is given that signal, not SIGTERM, and time to end
 * on it. @command_has_it: the signal reached the command as well (a
 * terminal's Ctrl-C goes to the whole foreground process group); else it
 * is passed on. The capture notes it (stop_signal). Async-signal-safe. */
void        hp_recorder_stop_by_signal (HpRecorder          *self,
                                      int                    signum,
                                      gboolean               command_has_it);

/* Thread-safe snapshot of the progress. */
void        hp_recorder_get_progress (HpRecorder            *self,
                                      HpRecordProgress      *progress);

/* The event that was sampled ("cycles" or "cpu-clock"), once running:
 * the first, when there are several. */
const char *hp_recorder_get_event    (HpRecorder            *self);
/* Every event sampled, comma-separated ("cpu-clock, off-cpu"), once running. */
const char *hp_recorder_get_events   (HpRecorder            *self);
/* Whether an event was sampled so many times a second (-F), rather than
 * every so many occurrences (-c, or every one: tracepoints), once running. */
gboolean    hp_recorder_get_by_frequency (HpRecorder        *self);

/* kernel.perf_event_paranoid as the kernel says it now, or 2 (the
 * kernel's default) when it cannot be read. */
int         hp_recorder_read_paranoid      (void);
/* Explains why perf_event_open was refused and how to allow it. */
char       *hp_recorder_explain_permission (void);

/* The command line of process @pid, its arguments joined by spaces, as
 * /proc/PID/cmdline has it; NULL when that is empty (a kernel thread, a
 * zombie) or the process is gone. Sets *@argv0 (when not NULL) to the
 * first argument alone. */
char       *hp_recorder_read_command_line  (GPid    pid,
                                            char  **argv0);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRecorder, hp_recorder_free)

G_END_DECLS
