/* hp-summary-store.h - the summaries of a capture, saved by a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

#define HP_TYPE_SUMMARY_STORE (hp_summary_store_get_type ())
G_DECLARE_FINAL_TYPE (HpSummaryStore, hp_summary_store, HP, SUMMARY_STORE, GObject)

/* @summaries: path key -> text as loaded (copied); @read_only_reason:
 * why nothing can be saved, or NULL. */
HpSummaryStore *hp_summary_store_new              (const char     *path,
                                                   GHashTable     *summaries,
                                                   const char     *read_only_reason);
const char     *hp_summary_store_get_path         (HpSummaryStore *self);
/* NULL when the path has no summary */
const char     *hp_summary_store_get (HpSummaryStore *self,
                                      const char     *key);
/* Sorted path keys of every summary */
GPtrArray      *hp_summary_store_list_keys        (HpSummaryStore *self);
const char     *hp_summary_store_get_read_only_reason (HpSummaryStore *self);

/* Sets the summary of a path (empty text deletes it) at once in memory
 * ("changed"), and queues it to be written, in order, in one transaction
 * each; "saved" reports the outcome. */
void            hp_summary_store_set              (HpSummaryStore *self,
                                                   const char     *key,
                                                   const char     *readable_path,
                                                   const char     *text);
/* As hp_summary_store_set(), with the path's share now (percent, NAN when
 * unknown): the summary is then recorded as written in this capture now,
 * with that share, and mirrored into the per-user library. */
void            hp_summary_store_set_full         (HpSummaryStore *self,
                                                   const char     *key,
                                                   const char     *readable_path,
                                                   const char     *text,
                                                   double          share);
/* Sets a summary as another capture (or the library) wrote it: where,
 * when and with what share are kept, found or not ("not found in this
 * capture"). Queued as hp_summary_store_set() is. */
void            hp_summary_store_put              (HpSummaryStore         *self,
                                                   const HpCaptureSummary *summary);
/* Where and when the summary of @key was written, or NULL when nobody
 * knows (a capture from before format version 2). */
const HpCaptureSummary *hp_summary_store_get_row  (HpSummaryStore *self,
                                                   const char     *key);
/* Every row known (HpCaptureSummary*, copies), for an import to compare. */
GPtrArray      *hp_summary_store_dup_rows         (HpSummaryStore *self);
/* @rows: the capture's summaries table as loaded (HpCaptureSummary*) */
void            hp_summary_store_set_rows         (HpSummaryStore *self,
                                                   GPtrArray      *rows);
/* The program whose library gets the summaries written here; NULL: none */
void            hp_summary_store_set_program      (HpSummaryStore *self,
                                                   const char     *program);
/* Writes not yet done */
guint           hp_summary_store_get_n_pending    (HpSummaryStore *self);
/* Calls back once every write queued so far is done. */
void            hp_summary_store_flush_async      (HpSummaryStore      *self,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean        hp_summary_store_flush_finish     (HpSummaryStore      *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

G_END_DECLS
