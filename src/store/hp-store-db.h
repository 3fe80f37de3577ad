/* hp-store-db.h - opening a SQLite file of Hotpath's that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* Opens @path with @flags (SQLITE_OPEN_*) hardened for a file that may
 * come from anyone: extended result codes, defensive mode, no extensions,
 * an untrusted schema, triggers and views off, no value longer than
 * @max_value_length, and @busy_ms of waiting for another writer. @what
 * names the file in the error ("the capture"). NULL with @error set on
 * failure. */
sqlite3  *hp_store_db_open          (const char  *path,
                                     int          flags,
                                     const char  *what,
                                     int          max_value_length,
                                     int          busy_ms,
                                     GError     **error);

/* FALSE, with @error set, when the file's @version (its user_version) is
 * newer than this build's @supported; @what names the format ("capture
 * format"). */
gboolean  hp_store_db_check_version (const char  *path,
                                     const char  *what,
                                     gint64       version,
                                     int          supported,
                                     GError     **error);

G_END_DECLS
