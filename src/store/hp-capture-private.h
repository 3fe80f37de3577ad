/* hp-capture-private.h - what the tests of the capture reader reach inside it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* Steps @sql to its end on the reader's connection, as one operation under
 * the same progress handler as hp_capture_load(): the tests use it to show
 * that an endless query stops (cancelled, or over the work limit) without
 * needing a capture whose schema smuggles one in past the checks. A
 * @work_limit above 0 replaces the file's limit, in SQLite VM steps. */
gboolean hp_capture_run_sql_for_testing (HpCapture   *self,
                                         const char  *sql,
                                         gint64       work_limit,
                                         GError     **error);

G_END_DECLS
