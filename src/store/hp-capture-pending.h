/* hp-capture-pending.h - the samples that waited for another program's write lock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The files beside the capture at @path that hold rows its recorder could
 * not write because another program held the write lock
 * (NAME.pending.sql, NAME.pending-2.sql, ...), sorted; an empty array
 * when there are none. */
GPtrArray *hp_capture_list_pending (const char    *path);

/* Reads @pending and checks that it holds only what the capture writer
 * writes there: the writer's own statements (hp-writer-sql.h) with plain
 * values, between BEGIN; and COMMIT;. The file may come from anyone (it
 * travels with a capture), so nothing in it is run as SQL: its values
 * are bound to the writer's statements. *@n_samples: how many samples it
 * holds. FALSE with @error naming the file and the line otherwise. */
gboolean   hp_capture_check_pending (const char   *pending,
                                     guint64      *n_samples,
                                     GError      **error);

/* Adds the rows of @pending (checked as above, all of them or none, in
 * one transaction) to the capture at @path, and then removes @pending.
 * Refused for a finished capture: its totals are written, and rows added
 * after them would not be counted. The capture is checked again (its
 * schema, that it is not finished, that its name still leads to it) in
 * the transaction that writes, on the same connection. *@n_samples: how
 * many were added.
 * May block on the disk and wait for another program's lock: call it
 * from a worker thread. */
gboolean   hp_capture_add_pending   (const char   *path,
                                     const char   *pending,
                                     GCancellable *cancellable,
                                     guint64      *n_samples,
                                     GError      **error);

/* @hook runs in hp_capture_add_pending() between the capture's opening
 * (and checks) and its write transaction, with the capture's path: the
 * tests change the file there, as another program could. NULL: none. */
void       hp_capture_pending_set_before_write_for_testing (void (*hook) (const char *path));

G_END_DECLS
