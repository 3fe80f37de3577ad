/* hp-capture-private.h - what the rest of store/ and the tests reach inside the capture reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* Loads the capture as @db sees it, inside a write transaction of the
 * caller's (hp-capture-pending.c), under the reader's checks and work
 * limit (that of the file with @added_bytes more, what the transaction
 * added and may not have written to the file yet): FALSE, with the
 * reader's error, when hp_capture_load() would refuse the file as the
 * transaction left it. @db is not closed, and its transaction is neither
 * committed nor rolled back here. */
gboolean hp_capture_check_loads (sqlite3       *db,
                                 const char    *path,
                                 gint64         added_bytes,
                                 GCancellable  *cancellable,
                                 GError       **error);

/* Steps @sql to its end on the reader's connection, as one operation under
 * the same progress handler as hp_capture_load(): the tests use it to show
 * that an endless query stops (cancelled, or over the work limit) without
 * needing a capture whose schema smuggles one in past the checks. A
 * @work_limit above 0 replaces the file's limit, in SQLite VM steps. */
gboolean hp_capture_run_sql_for_testing (HpCapture   *self,
                                         const char  *sql,
                                         gint64       work_limit,
                                         GError     **error);

/* Writes with @func on the capture's own connection, inside one write
 * transaction after the checks every write makes in it (the name still
 * leads to the file opened; its schema, checked again; an older format
 * brought up to this one), and commits when @func returns TRUE, else
 * rolls back. What is checked is what is written: a second connection
 * would see a file changed, or another file renamed over it, after the
 * checks (hotpath-cli add-pending wrote through one). @func reads and
 * writes @db only inside that transaction, and sets @error when it fails
 * for a reason of its own. @extra_bytes: the size of what @func writes
 * from elsewhere, added to the work allowed (the progress handler stops
 * an endless statement); @what says what failed ("cannot add the
 * samples"). */
typedef gboolean (*HpCaptureWriteFunc) (sqlite3   *db,
                                        gpointer   user_data,
                                        GError   **error);

gboolean hp_capture_write (HpCapture           *self,
                           const char          *what,
                           gint64               extra_bytes,
                           HpCaptureWriteFunc   func,
                           gpointer             user_data,
                           GError             **error);

/* Whether this process has a capture open through HpCapture (any
 * capture): a connection the capture writer cannot see from outside, as
 * it sees another process's (see "Leaving the lock free" in
 * hp-capture-writer.c). */
gboolean hp_capture_any_open (void);

G_END_DECLS
