/* hp-capture.h - reads a .hotpath capture (SQLite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "store/hp-capture-writer.h"

G_BEGIN_DECLS

/* Rows of the capture, loaded into plain arrays indexed by row id
 * (ids are dense from 1; index 0 is an unused zeroed entry). */
typedef struct {
  char     *path;
  char     *name;       /* basename, or "[kernel.kallsyms]" */
  char     *build_id;
  gboolean  is_kernel;
} HpCaptureModule;

typedef struct {
  char   *name;
  gint64  module_id;
  char   *file;
  guint   line;
} HpCaptureFunction;

typedef struct {
  gint64   function_id;
  char    *file;
  guint    line;
  gboolean is_inline;
  guint64  offset;
  char     tier;       /* compilation tier of run-time compiled code
                        * ('~', '^', '+', '*'), 0 for other code */
} HpCaptureFrame;

typedef struct {
  gint64 parent_id;  /* 0 for a root frame */
  gint64 frame_id;
} HpCaptureStack;

/* Samples aggregated per (leaf stack, thread, event). */
typedef struct {
  gint64  stack_id;
  gint32  tid;
  guint64 samples;
  guint64 weight;
  guint32 event_id;  /* events index; 0 in counts a filter rebuilt from samples */
} HpCaptureStackCount;

/* An event the capture counts (schema.sql, table events). */
typedef struct {
  char   *name;       /* "cpu-clock", "page-faults", "off-cpu", ... */
  char   *unit;       /* unit of its weights: "ns", "page faults", ... */
  guint64 frequency;  /* Hz, 0 when sampled by period */
  guint64 period;     /* units, 0 when sampled by frequency */
} HpCaptureEvent;

/* A capture holds at most this many events: a selection of events is a
 * bit mask (bit id - 1). */
#define HP_CAPTURE_MAX_EVENTS 64

/* The highest sampling frequency a capture's metadata or events may
 * state, in Hz: a hundred times what perf_event_max_sample_rate allows by
 * default. A higher one reads as unknown. */
#define HP_CAPTURE_MAX_FREQUENCY (10 * 1000 * 1000)
/* A metadata value is read cut to this many bytes (and "…"). */
#define HP_CAPTURE_MAX_METADATA_BYTES (16 * 1024)

/* One sample, as hp_capture_load_samples() returns it. */
typedef struct {
  guint64 time;      /* ns of the perf clock */
  guint64 weight;
  guint32 stack_id;  /* leaf stack node, 0 for none */
  gint32  tid;
  guint32 event_id;  /* events index; 0 in samples made by hand counts as 1 */
} HpCaptureSample;

typedef struct {
  gint32 tid;
  gint32 pid;
  char  *name;
} HpCaptureThread;

typedef struct {
  gint32 pid;
  char  *command;
} HpCaptureProcess;

typedef struct {
  GArray *modules;      /* HpCaptureModule, [0] unused */
  GArray *functions;    /* HpCaptureFunction, [0] unused */
  GArray *frames;       /* HpCaptureFrame, [0] unused */
  GArray *stacks;       /* HpCaptureStack, [0] unused; parent_id < id */
  GArray *stack_counts; /* HpCaptureStackCount of the selected events */
  GArray *threads;      /* HpCaptureThread */
  GArray *processes;    /* HpCaptureProcess */
  GHashTable *metadata; /* char* -> char*; without the values that make
                         * no sense for their key (a frequency of -5 Hz, a
                         * start time that is no time), cut to
                         * HP_CAPTURE_MAX_METADATA_BYTES */
  GArray *events;       /* HpCaptureEvent, [0] unused; at least one */
  GArray *all_counts;   /* HpCaptureStackCount of every event */
  guint64 event_mask;   /* the events stack_counts counts: bit id - 1 */
  /* a capture cut short (no stack_counts): the times of its first and
   * last sample, which give its length when the end did not write
   * duration_ns; 0 and 0 otherwise */
  guint64 first_time;
  guint64 last_time;
  /* marked complete, but its stack_counts was empty while it holds
   * samples (a script deleted the totals, or a tool set complete): the
   * counts are its samples summed, as for a capture cut short */
  gboolean counts_summed;
} HpCaptureData;

typedef struct _HpCapture HpCapture;

/* Whether summaries could be written into the capture at @path, checked
 * without writing: root passes access(W_OK) on anything, so a file
 * without any write permission bit counts as read-only too (the user
 * asked for it to stay unchanged); a rollback journal is created beside
 * the file, so its folder must be writable. */
typedef enum {
  HP_CAPTURE_WRITABLE,
  HP_CAPTURE_FILE_READ_ONLY,
  HP_CAPTURE_FOLDER_READ_ONLY,
} HpCaptureWritable;

HpCaptureWritable hp_capture_check_writable (const char *path);

/* What the file at @path starts as, read without blocking and without
 * SQLite: for the importers, to say that a file they were given is a
 * capture already rather than that its magic number is wrong. A capture
 * whose header was not yet checkpointed from its WAL is only a SQLite
 * database here. */
typedef enum {
  HP_CAPTURE_SNIFF_OTHER,    /* not a SQLite database, or unreadable */
  HP_CAPTURE_SNIFF_SQLITE,   /* a SQLite database of another application */
  HP_CAPTURE_SNIFF_CAPTURE,  /* application_id says: a Hotpath capture */
} HpCaptureSniff;

HpCaptureSniff hp_capture_sniff (const char *path);

/* Opens a capture. @writable for summary edits; read-only otherwise.
 * Errors name the file and the reason (not a capture, newer version, ...). */
HpCapture     *hp_capture_open          (const char  *path,
                                         gboolean     writable,
                                         GError     **error);
void           hp_capture_close         (HpCapture   *self);

/* Makes every later SQLite step of @self (hp_capture_load() above all)
 * stop soon after @cancellable is cancelled, from any thread: the call then
 * fails with G_IO_ERROR_CANCELLED. NULL removes it. Call it from the thread
 * that uses @self, before the work it should stop. */
void           hp_capture_set_cancellable (HpCapture    *self,
                                           GCancellable *cancellable);

const char    *hp_capture_get_path      (HpCapture   *self);
/* NULL when absent, or when the value makes no sense for @key (a negative
 * frequency: see HpCaptureData.metadata) */
char          *hp_capture_get_metadata  (HpCapture   *self,
                                         const char  *key);

/* Loads every table the analysis needs. Uses the aggregate table when the
 * recording finished, and aggregates the samples table when it was cut short.
 * stack_counts holds the counts of the first event (events[1]), so that
 * what reads it never adds up samples of different events;
 * hp_capture_data_select_events() gives the others.
 * Fails with G_IO_ERROR_CANCELLED once the cancellable set with
 * hp_capture_set_cancellable() is cancelled. */
HpCaptureData *hp_capture_load          (HpCapture   *self,
                                         GError     **error);
/* As hp_capture_load(), for what needs no threads (a comparison): the
 * counts of each stack and event summed over the threads, tid 0. One row
 * a stack instead of one a stack and thread, which is most of what
 * loading a capture of many threads costs; each row is checked all the
 * same. */
HpCaptureData *hp_capture_load_stack_totals (HpCapture *self,
                                             GError   **error);
void           hp_capture_data_free     (HpCaptureData *data);

/* Every sample of the events @data selects (HpCaptureSample), sorted by
 * thread and then by time, for time ranges and timelines; @data is what
 * hp_capture_load() (or a selection of it) returned, against which each
 * row's stack and event are checked. Rows out of range
 * or of the wrong type are HP_STORE_ERROR_CORRUPT, naming the row. */
GArray        *hp_capture_load_samples  (HpCapture           *self,
                                         const HpCaptureData *data,
                                         GError             **error);

/* Deep copies of @data's functions and frames tables, with room for
 * @extra more rows, that own their strings as the loaded ones do: what
 * adds rows to a capture seen differently (hp_measure_mark_waiting())
 * gives the copy its own tables and leaves the shared ones alone. */
GArray        *hp_capture_functions_copy (const GArray *functions,
                                          guint         extra);
GArray        *hp_capture_frames_copy    (const GArray *frames,
                                          guint         extra);

/* A copy of @data that shares its tables but counts @stack_counts
 * (HpCaptureStackCount, taken) instead: the capture seen through a filter. */
HpCaptureData *hp_capture_data_new_with_counts (const HpCaptureData *data,
                                                GArray              *stack_counts);

/* A copy of @data that shares its tables but whose stack_counts count the
 * events in @event_mask (bit id - 1; bits of events the capture lacks are
 * ignored). Adding weights across events makes sense only when they share
 * a unit (cpu-clock and off-cpu: wall-clock time). */
HpCaptureData *hp_capture_data_select_events (const HpCaptureData *data,
                                              guint64              event_mask);

/* A copy of @data that shares its tables but whose stack_counts count
 * weights as samples: a profile of it ranks by weight (ns off the CPU)
 * where samples do not weigh the same. */
HpCaptureData *hp_capture_data_new_weighted (const HpCaptureData *data);

/* What @data's stack_counts count: the event's name and unit ("wall" and
 * "ns" for cpu-clock with off-cpu; "several events" when they differ). */
void           hp_capture_data_get_event  (const HpCaptureData *data,
                                           const char         **name,
                                           const char         **unit);

/* The events mask (bit id - 1) of @name in @data: one event, or "wall"
 * for cpu-clock and off-cpu together; 0 when @data has no such event. */
guint64        hp_capture_data_event_mask (const HpCaptureData *data,
                                           const char          *name);

/* The samples of every event @data holds (all_counts; stack_counts when
 * it has no other), whichever it selects: what the metadata's counts of
 * lost and truncated stacks, which the recorder keeps over all of them,
 * are a share of. */
guint64        hp_capture_data_count_all_samples (const HpCaptureData *data);

/* The id of the event named @name, or 0. */
guint          hp_capture_data_find_event (const HpCaptureData *data,
                                           const char          *name);

/* Summaries, keyed by path key (see hp-call-path.h in analysis). */
char          *hp_capture_get_summary   (HpCapture   *self,
                                         const char  *path_key,
                                         GError     **error);
gboolean       hp_capture_set_summary   (HpCapture   *self,
                                         const char  *path_key,
                                         const char  *readable_path,
                                         const char  *text,
                                         GError     **error);
/* One row of the summaries table (schema.sql). */
typedef struct {
  char     *path_key;
  char     *path;      /* readable: "main → run → parse" */
  char     *text;
  char     *created;   /* ISO 8601 UTC; NULL: now, when written */
  char     *updated;
  char     *capture;   /* base name of the capture it was written in; NULL when unknown */
  double    share;     /* the path's share then, percent of all samples; NAN when unknown */
  gboolean  found;     /* FALSE: imported, and its path is not in this capture */
} HpCaptureSummary;

HpCaptureSummary *hp_capture_summary_copy (const HpCaptureSummary *summary);
void              hp_capture_summary_free (HpCaptureSummary       *summary);

/* As hp_capture_set_summary(), recording that it is written in this
 * capture now, with the path's @share (percent; NAN when unknown). */
gboolean       hp_capture_set_summary_full (HpCapture  *self,
                                            const char *path_key,
                                            const char *readable_path,
                                            const char *text,
                                            double      share,
                                            GError    **error);
/* Writes @summaries (HpCaptureSummary*) as they are, where and when they
 * were written included, replacing any of the same key, in one
 * transaction: what an import copies. */
gboolean       hp_capture_put_summaries  (HpCapture  *self,
                                          GPtrArray  *summaries,
                                          GError    **error);
/* Every summary (HpCaptureSummary*), by path key. A capture older than
 * format version 2 gives NULL capture, NAN share and found. */
GPtrArray     *hp_capture_list_summary_rows (HpCapture  *self,
                                             GError    **error);
/* The same, of the summaries whose path key sorts after @after (NULL:
 * from the first): the next page of a capture of more summaries than a
 * list holds, read whole a page at a time. */
GPtrArray     *hp_capture_list_summary_rows_after (HpCapture   *self,
                                                   const char  *after,
                                                   GError     **error);
/* Whether the last of these lists left summaries out: a list holds
 * HP_STORE_MAX_SUMMARY_ROWS (10 000) summaries at most, the first by path
 * key, and HP_STORE_MAX_SUMMARY_BYTES of their text. */
gboolean       hp_capture_summaries_cut  (HpCapture  *self);
/* path_key -> text for every summary */
GHashTable    *hp_capture_list_summaries (HpCapture  *self,
                                          GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCapture, hp_capture_close)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCaptureData, hp_capture_data_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCaptureSummary, hp_capture_summary_free)

G_END_DECLS
