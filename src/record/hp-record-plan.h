/* hp-record-plan.h - a recording as the window plans it, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "record/hp-recorder.h"

G_BEGIN_DECLS

/* Which choice of the plan a problem found while preparing belongs to, so
 * that a front end can show it beside that choice. */
#define HP_RECORD_PLAN_ERROR (hp_record_plan_error_quark ())
GQuark hp_record_plan_error_quark (void);

typedef enum {
  HP_RECORD_PLAN_ERROR_COMMAND,
  HP_RECORD_PLAN_ERROR_DIRECTORY,
  HP_RECORD_PLAN_ERROR_PROCESS,
  HP_RECORD_PLAN_ERROR_FOLDER,
  HP_RECORD_PLAN_ERROR_EVENTS,    /* an event, off-CPU time or the whole system refused */
} HpRecordPlanError;

/* What to record, how and where, as the user chose it. */
typedef struct {
  char        **argv;               /* NULL when attaching */
  char         *working_directory;  /* as typed; "" for the home folder */
  GPid          pid;                /* the process to attach to */
  char         *folder;             /* for the capture, as set; "" for the default */
  guint         frequency;
  double        duration;           /* seconds; 0: no limit */
  HpCallGraph   call_graph;
  guint         stack_size;         /* bytes, as chosen: rounded up to whole words */
  char        **events;             /* names (hp-events.h); NULL: the default */
  gboolean      off_cpu;            /* also time spent blocked (root: tracefs) */
  gboolean      system_wide;        /* every process; argv, if any, says when to stop */
} HpRecordPlan;

/* What hp_record_plan_prepare() made ready on the disk. */
typedef struct {
  char  **argv;               /* argv[0] made absolute when it was a path */
  char   *working_directory;
  char   *capture_path;       /* a free name in the folder */
  char   *log_path;           /* NULL when attaching: nothing to log */
  int     log_fd;             /* open on log_path, or -1 */
} HpRecordPrepared;

/* A recording under way: the recorder and where it writes. */
typedef struct {
  HpRecorder  *recorder;
  char        *capture_path;
  char        *log_path;
  int          log_fd;
} HpRecordJob;

/* How a recording went, from hp_record_job_run(). */
typedef struct {
  GError          *error;       /* hp_recorder_run() failed */
  HpRecordResult   result;      /* how the program ended; the kernel's rate limit */
  guint64          samples;
  guint64          lost;
  double           elapsed;
  char            *event;
  gboolean         kept;        /* the capture is on disk */
  char            *output_tail; /* the last lines of the program's output, or NULL */
  gboolean         cut_short;   /* kept, but a write error (a full disk) stopped it early */
  char            *warning;     /* kept cut short or in an unusual way: a sentence, or NULL */
  char            *saved_as;    /* with error: the capture, taken from its name while it was
                                 * written, was kept there instead (see hp_recorder_get_saved_as) */
} HpRecordOutcome;

void              hp_record_plan_free        (HpRecordPlan       *plan);
void              hp_record_prepared_free    (HpRecordPrepared   *prepared);
void              hp_record_job_free         (HpRecordJob        *job);
void              hp_record_outcome_free     (HpRecordOutcome    *outcome);

/* "~/x" as a shell reads it. */
char             *hp_record_expand_home      (const char         *path);
/* Where captures go when no folder was chosen: Documents, else home. */
char             *hp_record_default_folder   (void);
/* "~/Documents" for a path under the home folder, for showing. */
char             *hp_record_display_path     (const char         *path);
/* @text (a message) with each path under the home folder in it shown as
 * hp_record_display_path() shows one ("~/x"): a path starts @text or
 * follows a character that cannot be in one's middle (a space, a quote,
 * a bracket); "/home/ann2" is not under "/home/ann". A copy when nothing
 * changes. */
char             *hp_record_display_paths_in (const char         *text);

/* "hotpath-20261201-181500" for the @n-th capture started in that second
 * (n > 1 adds "-n"): the name of a new capture, without its suffix. */
char             *hp_record_capture_stem     (GDateTime          *time,
                                              guint               n);

/* The program execvp would run for @program: a name without a slash in
 * PATH, a path relative to @working_directory. A typo is an
 * HP_RECORD_PLAN_ERROR_COMMAND that names the problem. */
char             *hp_record_resolve_program  (const char         *program,
                                              const char         *working_directory,
                                              GError            **error);

/* Whether this machine lets @plan count what it asks for: each event
 * exists here (hardware counters, tracepoints), off-CPU time has tracefs,
 * the whole system is allowed (root, or kernel.perf_event_paranoid <= 0).
 * The refusal is an HP_RECORD_PLAN_ERROR_EVENTS naming what is needed.
 * hp_record_plan_prepare() calls it; cheap enough for a dialog's checks. */
gboolean          hp_record_plan_check_events (const HpRecordPlan *plan,
                                               GError            **error);

/* Checks what needs the disk (the program, the working folder, the
 * process, the capture folder), picks a free capture name for @time
 * (NULL: now) and creates the log for the program's output in
 * $XDG_CACHE_HOME/hotpath/logs. Blocks: call it from a worker. */
HpRecordPrepared *hp_record_plan_prepare     (const HpRecordPlan *plan,
                                              GDateTime          *time,
                                              GError            **error);

/* The recorder for @plan as @prepared made it ready; takes its log_fd. */
HpRecordJob      *hp_record_job_new          (const HpRecordPlan *plan,
                                              HpRecordPrepared   *prepared);

/* Runs the recording to its end (blocks for as long as it lasts: call it
 * from a thread of its own) and says how it went. A capture without a
 * sample is removed: it would only open to an empty window. */
HpRecordOutcome  *hp_record_job_run          (HpRecordJob        *job);

/* The last lines of the text file at @path (valid UTF-8, "…" first when
 * cut), or NULL when it is empty or cannot be read. */
char             *hp_record_read_output_tail (const char         *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRecordPlan, hp_record_plan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRecordPrepared, hp_record_prepared_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRecordJob, hp_record_job_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRecordOutcome, hp_record_outcome_free)

G_END_DECLS
