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

/* Whether @path (a regular file; a symbolic link is not followed) starts
 * with the @n (at most 16) bytes of @magic, without blocking on a FIFO;
 * *@missing, when given, tells a file that is not there. */
gboolean  hp_store_db_file_starts_with (const char   *path,
                                        const guint8 *magic,
                                        gsize         n,
                                        gboolean     *missing);

/* The first bytes of a rollback journal's header, once SQLite has synced
 * it: before they are there, SQLite has not touched the database. */
extern const guint8 hp_store_db_journal_magic[8];

/* Whether @path starts with hp_store_db_journal_magic: a journal that
 * SQLite would roll back into its database, rather than a file it
 * discards unread. */
gboolean  hp_store_db_is_journal    (const char  *path);

/* FALSE, with @error set, when the file's @version (its user_version) is
 * newer than this build's @supported; @what names the format ("capture
 * format"). */
gboolean  hp_store_db_check_version (const char  *path,
                                     const char  *what,
                                     gint64       version,
                                     int          supported,
                                     GError     **error);

/* The most of a summary's text that is read, in characters: a summary is
 * what a person wrote about a call path, a paragraph or a page. A query
 * selects HP_STORE_SUMMARY_TEXT_COLUMN (one character more than that, so
 * that a longer text is known to be longer) and reads it with
 * hp_store_db_column_summary_text(). */
#define HP_STORE_MAX_SUMMARY_CHARS (256 * 1024)
#define HP_STORE_SUMMARY_TEXT_COLUMN "substr (text, 1, 262145)"

/* The most summaries a list reads from one file (a capture, or the
 * library for one program), in path key order, and the most bytes of
 * their texts, keys and paths: a program with more summaries than this
 * is not one a person wrote, and a hostile file holds millions. The
 * readers say when they left some out. */
#define HP_STORE_MAX_SUMMARY_ROWS  10000
#define HP_STORE_MAX_SUMMARY_BYTES (64 * 1024 * 1024)

/* @name (from a file), fit for a message: valid UTF-8, at most 64
 * characters, in double quotes. */
char     *hp_store_db_quote_name   (const char *name);

/* Holds the tables @tables of @db (a file at @path that Hotpath writes
 * into) to the CHECK constraints and DEFAULTs that @declared_sql (the
 * format's CREATE TABLEs) declares, compared with a database made of
 * it: each column's DEFAULT must be the declared one, a constant of at
 * most 64 bytes or none (an expression runs on each row written, and a
 * constant is written into it), and every CHECK that SQLite compiles
 * into an INSERT must be a declared one; a table the file lacks is
 * passed over. Either runs SQL from the file on each row written: one of
 * zeroblob (60000000) wrote 60 MB into a capture with each summary
 * saved. A table may have no ON CONFLICT clause the declared one has
 * not, and those of @keyed_tables (NULL-terminated, may be NULL: those
 * Hotpath writes with INSERT OR REPLACE) no UNIQUE or PRIMARY KEY
 * constraint, unique index included, it does not declare: either makes a
 * row written silently replace others ("capture TEXT UNIQUE ON CONFLICT
 * REPLACE" deleted the last summary with each one saved). FALSE with
 * HP_STORE_ERROR_CORRUPT naming @path, the table and the column or
 * constraint; @format names the format in it ("the capture format"). */
gboolean  hp_store_db_check_declared (sqlite3            *db,
                                      const char         *path,
                                      const char         *format,
                                      const char         *declared_sql,
                                      const char * const *tables,
                                      guint               n_tables,
                                      const char * const *keyed_tables,
                                      GError            **error);

/* Column @i of @stmt as the rest of Hotpath takes text: valid UTF-8, with
 * U+FFFD for each invalid byte and for each NUL inside the value; NULL for
 * SQL NULL. */
char     *hp_store_db_column_text   (sqlite3_stmt *stmt,
                                     int           i);
/* A summary's text (HP_STORE_SUMMARY_TEXT_COLUMN): as
 * hp_store_db_column_text(), cut to HP_STORE_MAX_SUMMARY_CHARS with a note
 * that says so when longer. */
char     *hp_store_db_column_summary_text (sqlite3_stmt *stmt,
                                           int           i);

G_END_DECLS
