/* hp-capture-writer.h - writes a .hotpath capture (SQLite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HP_STORE_ERROR (hp_store_error_quark ())
GQuark hp_store_error_quark (void);

typedef enum {
  HP_STORE_ERROR_IO,          /* cannot create, read or write the file */
  HP_STORE_ERROR_NOT_CAPTURE, /* not a SQLite file, or not a Hotpath capture */
  HP_STORE_ERROR_VERSION,     /* a capture of a newer (or unknown) format version */
  HP_STORE_ERROR_CORRUPT,     /* a capture whose tables do not hold together */
  HP_STORE_ERROR_READ_ONLY,   /* a capture that cannot be written (summaries) */
} HpStoreError;

/* PRAGMA application_id of every capture: "HPTH" */
#define HP_CAPTURE_APPLICATION_ID 0x48505448
/* PRAGMA user_version: the format version this build writes and reads */
#define HP_CAPTURE_FORMAT_VERSION 5
/* The most a capture's samples, or its weights, add up to: a reader
 * refuses more. No recording comes near, and the front ends may add a
 * few such sums (lost samples to all samples) without overflowing. */
#define HP_CAPTURE_MAX_TOTAL (G_GUINT64_CONSTANT (1) << 62)

typedef struct _HpCaptureWriter HpCaptureWriter;

/* Creates a new capture at @path: set up as this process's part and
 * renamed to @path with its tables, so that no other program can lock it
 * before they exist. Fails if the file exists (to replace a
 * capture, write a part and hp_capture_writer_replace() it). Rows are
 * written in batched transactions, so a process killed at any moment leaves
 * a capture that opens (without the aggregates hp_capture_writer_finish()
 * adds). */
HpCaptureWriter *hp_capture_writer_new             (const char      *path,
                                                    GError         **error);

void             hp_capture_writer_set_metadata    (HpCaptureWriter *self,
                                                    const char      *key,
                                                    const char      *value);
void             hp_capture_writer_set_metadata_int (HpCaptureWriter *self,
                                                    const char      *key,
                                                    gint64           value);

/* Insert or update (the name changes on COMM). */
void             hp_capture_writer_set_process     (HpCaptureWriter *self,
                                                    gint32           pid,
                                                    const char      *command);
void             hp_capture_writer_set_thread      (HpCaptureWriter *self,
                                                    gint32           tid,
                                                    gint32           pid,
                                                    const char      *name);

/* Interning: the same arguments give the same id (ids start at 1). Strings may be NULL. */
gint64           hp_capture_writer_intern_module   (HpCaptureWriter *self,
                                                    const char      *path,
                                                    const char      *build_id,
                                                    gboolean         is_kernel);
gint64           hp_capture_writer_intern_function (HpCaptureWriter *self,
                                                    const char      *name,
                                                    gint64           module_id,
                                                    const char      *file,
                                                    guint            line);
/* A frame is keyed by (function, file, line, is_inline); @offset is the module
 * offset (or kernel address) of the first address seen there. */
gint64           hp_capture_writer_intern_frame    (HpCaptureWriter *self,
                                                    gint64           function_id,
                                                    const char      *file,
                                                    guint            line,
                                                    gboolean         is_inline,
                                                    guint64          offset);
/* A frame of run-time compiled code in compilation tier @tier (a V8 tier
 * mark, see frames.tier in schema.sql; 0 for none): keyed by (function,
 * file, line, tier), so that the tiers of one function stay apart in the
 * capture while the views count them as one function. */
gint64           hp_capture_writer_intern_tier_frame (HpCaptureWriter *self,
                                                      gint64           function_id,
                                                      const char      *file,
                                                      guint            line,
                                                      char             tier,
                                                      guint64          offset);
/* A frame of its own, never shared: code whose name may only be known
 * later (run-time compiled code named when its program exits), so that
 * hp_capture_writer_update_frame() renames it alone. */
gint64           hp_capture_writer_add_frame       (HpCaptureWriter *self,
                                                    gint64           function_id,
                                                    guint64          offset);
/* Gives a frame made by hp_capture_writer_add_frame() its function and
 * source position, once known. */
void             hp_capture_writer_update_frame    (HpCaptureWriter *self,
                                                    gint64           frame_id,
                                                    gint64           function_id,
                                                    const char      *file,
                                                    guint            line,
                                                    char             tier);
/* Node of the stack prefix tree: @parent_id is 0 for a root frame. */
gint64           hp_capture_writer_intern_stack    (HpCaptureWriter *self,
                                                    gint64           parent_id,
                                                    gint64           frame_id);

/* Adds a row to the events table and returns its id (1, 2, ...): what the
 * samples of hp_capture_writer_add_event_sample() with that id count.
 * @unit names the unit of their weights; @frequency (Hz) or @period (in
 * units) says how the event was sampled, 0 for the other. The first event
 * is also written as metadata event, event_unit and frequency or period,
 * which scripts that know one event read. A writer that adds no event
 * writes event 1 all the same, described by its metadata alone. */
gint64           hp_capture_writer_add_event       (HpCaptureWriter *self,
                                                    const char      *name,
                                                    const char      *unit,
                                                    guint64          frequency,
                                                    guint64          period);

/* A sample of event @event_id (an id hp_capture_writer_add_event()
 * returned, or 1). */
void             hp_capture_writer_add_event_sample (HpCaptureWriter *self,
                                                    gint64           event_id,
                                                    guint64          time,
                                                    gint32           tid,
                                                    gint32           cpu,
                                                    gint64           stack_id,
                                                    guint64          weight);
/* A sample of event 1. */
void             hp_capture_writer_add_sample      (HpCaptureWriter *self,
                                                    guint64          time,
                                                    gint32           tid,
                                                    gint32           cpu,
                                                    gint64           stack_id,
                                                    guint64          weight);

/* @samples samples of event @event_id in @stack_id and thread @tid, whose
 * weights add up to @weight, counted in stack_counts alone, without a row
 * of samples each: for an import of a format without times (folded
 * stacks, pprof), where a row per sample would say nothing more and a
 * count of 10^9 in a 20-byte file must not become 10^9 rows. The capture
 * then has no timeline of them (schema.sql: samples). Only in a part
 * (hp_capture_writer_new_part()): the counts are written at finish, so a
 * capture cut short would not have them. */
void             hp_capture_writer_add_count       (HpCaptureWriter *self,
                                                    gint64           event_id,
                                                    gint32           tid,
                                                    gint64           stack_id,
                                                    guint64          samples,
                                                    guint64          weight);

guint64          hp_capture_writer_get_n_samples   (HpCaptureWriter *self);
/* Samples in the capture as committed so far (what a crash keeps). */
guint64          hp_capture_writer_get_n_committed_samples (HpCaptureWriter *self);

/* The first write error (a full disk, a capture locked by another program
 * for longer than the busy timeout), or NULL. After it nothing more is
 * written: what was committed before stays, a capture cut short. */
const GError    *hp_capture_writer_get_error       (HpCaptureWriter *self);

/* Commits what is pending (a batch) and releases the write lock until the
 * next row; called by the writer itself every few thousand samples, and by
 * the recorder at the end of every round of records. */
gboolean         hp_capture_writer_flush           (HpCaptureWriter *self,
                                                    GError         **error);

/* Commits, fills the aggregate tables and marks the capture complete; FALSE
 * when that commit failed (the capture is then cut short, not gone). After
 * it, the capture is made one file again; when another program has it open
 * it is kept in WAL mode instead, complete all the same, and
 * hp_capture_writer_get_note() says so. */
gboolean         hp_capture_writer_finish          (HpCaptureWriter *self,
                                                    GError         **error);

/* After hp_capture_writer_finish(): a sentence for the user when the
 * capture was kept with its -wal file beside it, or NULL. */
const char      *hp_capture_writer_get_note        (HpCaptureWriter *self);

/* How long writing has waited for a write lock that another program holds
 * (seconds; 0 when it does not wait), with the samples that wait for it in
 * *@samples: they are written once the lock is free (see
 * hp-capture-writer.c). Call from the writer's thread. */
gdouble          hp_capture_writer_get_lock_wait   (HpCaptureWriter *self,
                                                    guint64         *samples);
/* Called from hp_capture_writer_finish(), about ten times a second, while
 * it waits for a write lock that another program holds (a minute at
 * most): hp_capture_writer_get_lock_wait() says how long it has waited, so
 * that a front end tells the user, as it does while recording. */
typedef void (*HpCaptureWriterWaitFunc) (gpointer data);
void             hp_capture_writer_set_wait_func   (HpCaptureWriter        *self,
                                                    HpCaptureWriterWaitFunc func,
                                                    gpointer                data);
/* How long hp_capture_writer_finish() waits for a write lock that another
 * program holds before it gives up (a minute unless set): tests set less. */
void             hp_capture_writer_set_finish_wait (HpCaptureWriter *self,
                                                    guint            ms);
/* Who holds the capture's write lock, as far as the system says: its PID
 * (0: not known), and its command name in *@name (NULL: not known). */
int              hp_capture_writer_get_lock_holder (HpCaptureWriter *self,
                                                    char           **name);
/* "another program (sqlite3, PID 4242)": the same in a sentence. */
char            *hp_capture_writer_describe_lock_holder (HpCaptureWriter *self);

/* Ends writing (after hp_capture_writer_finish(), or without it: a
 * capture cut short) and checks that the file written is still at the
 * writer's path. When it is not, because its folder was removed or
 * renamed, or the file deleted, moved or replaced meanwhile, the capture
 * is not lost: one moved is made one file where it is now (a part there
 * renamed NAME.recovered.hotpath); one deleted is copied from the
 * descriptor the writer holds, to @capture (the name the user asked
 * for) when that name is free in a folder that exists, else to
 * NAME.recovered.hotpath beside it, else to the user's data folder
 * (hotpath/recovered/NAME.hotpath), else to the temporary folder. Then
 * FALSE, with @error naming the file, what happened and where the
 * capture is. The writer can only be freed after this. */
gboolean         hp_capture_writer_close           (HpCaptureWriter *self,
                                                    const char      *capture,
                                                    GError         **error);

/* After hp_capture_writer_close() failed: where the capture is now (moved
 * with its folder, or saved elsewhere), so that a front end can open it;
 * NULL when it was not moved or could not be saved. */
const char      *hp_capture_writer_get_saved_as    (HpCaptureWriter *self);

/* Renames the closed capture @part (with its -wal) to NAME.recovered.hotpath
 * (-2, -3, ...) beside @capture, NAME.hotpath, when moving it to @capture
 * failed: a name that no cleanup of parts removes. The new name, or NULL. */
char            *hp_capture_writer_keep_aside      (const char      *part,
                                                    const char      *capture);

/* Closes the database and deletes the file (on errors before any useful data). */
void             hp_capture_writer_abort           (HpCaptureWriter *self);

/* Deletes the capture at @path with the -wal, -shm and -journal files
 * SQLite keeps beside it; what does not exist is no error. */
void             hp_capture_writer_remove_files    (const char      *path);

/* "@path.PID.part": where a capture is written before it replaces @path or
 * appears under its name. */
char            *hp_capture_writer_part_path       (const char      *path);

/* Removes from the folder of @path the parts (with their -wal, -shm and
 * -journal) left by writers that no longer run (killed, or a power cut);
 * those of running processes stay. A part that holds a recording's
 * samples (a recording killed as it was to replace NAME.hotpath) is not
 * removed but kept as NAME.cut-short.hotpath: a sentence for the user
 * saying so is added to @kept (or logged, when @kept is NULL); so is one
 * for each NAME.PID.part.pending.sql whose part is gone, which stays
 * (its rows belong to no capture it can tell). Returns how many parts
 * were removed. */
guint            hp_capture_writer_remove_stale_parts (const char   *path,
                                                       GPtrArray    *kept);

/* Moves the closed capture @part to @path, replacing what is there (and any
 * -wal or -shm of the old one), with its -wal when it was kept in WAL mode. */
gboolean         hp_capture_writer_replace         (const char      *part,
                                                    const char      *path,
                                                    GError         **error);

/* An import writes its capture as a part and moves it into place only
 * when complete, so that a failed or cancelled import leaves the old
 * capture as it was. hp_capture_writer_new_part() removes the parts
 * that dead writers left beside @capture and creates this process's
 * (hp_capture_writer_part_path). */
HpCaptureWriter *hp_capture_writer_new_part        (const char      *capture,
                                                    GError         **error);
/* Ends a writer made by hp_capture_writer_new_part(): when @ok, finishes
 * the capture and moves it to @capture; otherwise (the import failed and
 * set its error) or when that fails, deletes the part. Frees @self. */
gboolean         hp_capture_writer_end_part        (HpCaptureWriter *self,
                                                    const char      *capture,
                                                    gboolean         ok,
                                                    GError         **error);

void             hp_capture_writer_free            (HpCaptureWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpCaptureWriter, hp_capture_writer_free)

G_END_DECLS
