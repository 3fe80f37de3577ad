/* hp-summary-library.h - the per-user library of summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* PRAGMA application_id of the library: "HPSL" */
#define HP_SUMMARY_LIBRARY_APPLICATION_ID 0x4850534c
#define HP_SUMMARY_LIBRARY_VERSION        1

typedef struct _HpSummaryLibrary HpSummaryLibrary;

/* $XDG_DATA_HOME/hotpath/summaries.db */
char             *hp_summary_library_default_path (void);

/* Opens the library at @path (NULL: the default), creating it and its
 * folder when missing. Fails, naming the file and the problem, on a file
 * that is not a library this build can use (another database, a corrupt
 * or newer one) and on one that another program keeps locked: callers
 * warn and go on without it. */
HpSummaryLibrary *hp_summary_library_open   (const char        *path,
                                             GError           **error);
void              hp_summary_library_close  (HpSummaryLibrary  *self);
const char       *hp_summary_library_get_path (HpSummaryLibrary *self);

/* Stores @summary (its key, path, text, times, capture and share) as the
 * latest of its path for @program; an empty text deletes it. */
gboolean          hp_summary_library_put    (HpSummaryLibrary       *self,
                                             const char             *program,
                                             const HpCaptureSummary *summary,
                                             GError                **error);
/* Stores @summary, a copy of one written before (summary --import, the
 * window's import), unless the library holds a text of its path updated
 * later: an old capture's summaries never replace newer ones. */
gboolean          hp_summary_library_put_copy (HpSummaryLibrary       *self,
                                               const char             *program,
                                               const HpCaptureSummary *summary,
                                               GError                **error);
/* hp_summary_library_put() (or _put_copy() when @copied) of each of
 * @summaries (HpCaptureSummary*), in one transaction: all or none. */
gboolean          hp_summary_library_put_all (HpSummaryLibrary      *self,
                                              const char            *program,
                                              GPtrArray             *summaries,
                                              gboolean               copied,
                                              GError               **error);
/* The summaries of @program (HpCaptureSummary*, found TRUE), by path key. */
GPtrArray        *hp_summary_library_list   (HpSummaryLibrary  *self,
                                             const char        *program,
                                             GError           **error);

/* Opens the default library, stores @summary in it (with
 * hp_summary_library_put_copy() when @copied) and closes it: what every
 * writer of a summary does beside the capture. FALSE with @error (for a
 * warning) when the library cannot be used. */
gboolean          hp_summary_library_mirror (const char             *program,
                                             const HpCaptureSummary *summary,
                                             gboolean                copied,
                                             GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSummaryLibrary, hp_summary_library_close)

G_END_DECLS
