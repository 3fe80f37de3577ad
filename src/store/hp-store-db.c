/* hp-store-db.c - opening a SQLite file of Hotpath's that may be hostile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Captures are mailed around and the summary library is a file in the
 * user's home that anything may have replaced: both are opened as hostile
 * input, with the same SQLite settings, here once. What each then checks
 * (application id, tables, columns) stays with its reader.
 */

#define G_LOG_DOMAIN "hp-store"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "store/hp-capture-writer.h"
#include "store/hp-store-db.h"

const guint8 hp_store_db_journal_magic[8] = { 0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7 };

sqlite3 *
hp_store_db_open (const char  *path,
                  int          flags,
                  const char  *what,
                  int          max_value_length,
                  int          busy_ms,
                  GError     **error)
{
  sqlite3 *db = NULL;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (what != NULL, NULL);

  rc = sqlite3_open_v2 (path, &db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_IO, _("%s: cannot open %s: %s"),
                   path, what, db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (rc));
      sqlite3_close_v2 (db);
      return NULL;
    }
  sqlite3_extended_result_codes (db, 1);
  sqlite3_db_config (db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
  /* A trigger in a mailed file would run its SQL when a summary is saved,
   * a view would run a query of its author's in place of a table: neither
   * ever runs. The readers refuse them too, with their names. */
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
  sqlite3_db_config (db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
  /* expressions of a hostile schema (a column's DEFAULT) cannot build a
   * bigger value than the file's own ever hold */
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, max_value_length);
  sqlite3_busy_timeout (db, busy_ms);
  return db;
}

gboolean
hp_store_db_file_starts_with (const char   *path,
                              const guint8 *magic,
                              gsize         n,
                              gboolean     *missing)
{
  guint8 header[16];
  gssize got;
  int fd;

  g_return_val_if_fail (n <= sizeof header, FALSE);

  fd = g_open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
  if (missing != NULL)
    *missing = fd < 0 && errno == ENOENT;
  if (fd < 0)
    return FALSE;
  do
    got = read (fd, header, n);
  while (got < 0 && errno == EINTR);
  close (fd);
  return got == (gssize) n && memcmp (header, magic, n) == 0;
}

gboolean
hp_store_db_is_journal (const char *path)
{
  return hp_store_db_file_starts_with (path, hp_store_db_journal_magic, sizeof hp_store_db_journal_magic, NULL);
}

gboolean
hp_store_db_check_version (const char  *path,
                           const char  *what,
                           gint64       version,
                           int          supported,
                           GError     **error)
{
  if (version <= supported)
    return TRUE;
  g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_VERSION,
               _("%s: %s version %" PRId64 " is newer than this Hotpath supports (%d); "
                 "update Hotpath"), path, what, version, supported);
  return FALSE;
}

char *
hp_store_db_quote_name (const char *name)
{
  g_autofree char *valid = g_utf8_make_valid (name ? name : "", -1);

  if (g_utf8_strlen (valid, -1) > 64)
    {
      g_autofree char *cut = g_utf8_substring (valid, 0, 64);

      return g_strdup_printf ("\"%s…\"", cut);
    }
  return g_strdup_printf ("\"%s\"", valid);
}

/* The longest constant DEFAULT (its SQL text) other than the declared
 * one, as of a column the format does not have: each row Hotpath writes
 * takes it, and one of x'00…' of 4 MiB
 * made a capture 4 MiB bigger with each summary saved. */
#define MAX_ADDED_DEFAULT 64

/* Whether @value, a column's DEFAULT as SQLite keeps its text, is a plain
 * constant (a number, a string or blob literal, NULL, TRUE or FALSE) that
 * runs nothing when a row takes it. */
static gboolean
is_literal_default (const char *value)
{
  const char *end = NULL;
  gsize n = strlen (value);

  if (g_ascii_strcasecmp (value, "NULL") == 0 || g_ascii_strcasecmp (value, "TRUE") == 0 ||
      g_ascii_strcasecmp (value, "FALSE") == 0)
    return TRUE;
  if (n > 0 && (g_ascii_isdigit (value[n - 1]) || value[n - 1] == '.'))
    {
      g_ascii_strtod (value, (char **) &end);
      if (end == value + n && strspn (value, "+-0123456789.eE") == n)
        return TRUE;
    }
  if (n >= 3 && (value[0] == 'x' || value[0] == 'X') && value[1] == '\'')
    return value[n - 1] == '\'' && strspn (value + 2, "0123456789abcdefABCDEF") == n - 3;
  if (n >= 2 && value[0] == '\'' && value[n - 1] == '\'')
    {
      /* inside, a quote only doubled */
      for (const char *p = value + 1; p < value + n - 1; p++)
        if (*p == '\'' && *++p != '\'')
          return FALSE;
      return TRUE;
    }
  return FALSE;
}

/* The CHECK constraints that an INSERT into @table compiles on @db, each
 * by its name or text: the program of "INSERT … DEFAULT VALUES" holds one
 * Halt with SQLITE_CONSTRAINT_CHECK per constraint (and every DEFAULT
 * evaluated). SQLite lists CHECK constraints nowhere else; its own
 * compiler reads them, so nothing in the SQL text can hide one. (On a
 * read-only connection SQLite drops them when it reads the schema: none
 * is listed, and none can run.) NULL with @message set when the INSERT
 * cannot be compiled. */
static GPtrArray *
list_checks (sqlite3     *db,
             const char  *table,
             char       **message)
{
  g_autoptr(GPtrArray) checks = g_ptr_array_new_with_free_func (g_free);
  char *sql = sqlite3_mprintf ("EXPLAIN INSERT INTO \"%w\" DEFAULT VALUES", table);
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);

  sqlite3_free (sql);
  if (rc != SQLITE_OK)
    {
      *message = g_utf8_make_valid (sqlite3_errmsg (db), -1);
      return NULL;
    }
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 1), "Halt") == 0 &&
        sqlite3_column_int (stmt, 2) == SQLITE_CONSTRAINT_CHECK)
      g_ptr_array_add (checks, hp_store_db_column_text (stmt, 5));
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    {
      *message = g_utf8_make_valid (sqlite3_errmsg (db), -1);
      return NULL;
    }
  return g_steal_pointer (&checks);
}

/* Each column of @table on @db with its DEFAULT's text (NULL: none). */
static GHashTable *
list_defaults (sqlite3    *db,
               const char *table)
{
  GHashTable *defaults = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT name, dflt_value FROM pragma_table_xinfo (?1)", -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        if (sqlite3_column_type (stmt, 0) != SQLITE_NULL)
          g_hash_table_insert (defaults, g_ascii_strdown ((const char *) sqlite3_column_text (stmt, 0), -1),
                               hp_store_db_column_text (stmt, 1));
    }
  sqlite3_finalize (stmt);
  return defaults;
}

/* Sets @error on the first column of @table in @db whose DEFAULT is an
 * expression other than the one @declared holds for it (none, or a
 * constant, runs nothing); FALSE then. */
static gboolean
check_defaults (sqlite3     *db,
                sqlite3     *declared_db,
                const char  *path,
                const char  *format,
                const char  *table,
                GError     **error)
{
  g_autoptr(GHashTable) declared = list_defaults (declared_db, table);
  g_autoptr(GHashTable) found = list_defaults (db, table);
  GHashTableIter iter;
  gpointer column, value;

  g_hash_table_iter_init (&iter, found);
  while (g_hash_table_iter_next (&iter, &column, &value))
    {
      gpointer want = NULL;
      gboolean known = g_hash_table_lookup_extended (declared, column, NULL, &want);
      g_autofree char *name = NULL;
      g_autofree char *shown = NULL;

      /* none, the declared one, or a short constant: nothing runs, and
       * little is written with each row */
      if (value == NULL || g_strcmp0 (value, want) == 0 ||
          (is_literal_default (value) && strlen (value) <= MAX_ADDED_DEFAULT))
        continue;
      name = hp_store_db_quote_name (column);
      shown = hp_store_db_quote_name (value ? value : "");
      if (is_literal_default (value))
        /* Translators: the file, a column, a table, the length of its
         * DEFAULT, "the capture format" or "the summary library's
         * format", then the longest DEFAULT taken */
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: refused: column %s of table %s has a DEFAULT of %zu bytes, which %s "
                       "does not declare (Hotpath would write it into every row it writes, as when a summary is "
                       "saved; a DEFAULT other than the declared one may be a constant of at most %d bytes)"),
                     path, name, table, strlen (value), format, MAX_ADDED_DEFAULT);
      else if (known && want != NULL)
        /* Translators: the file, a column, a table, its DEFAULT, then
         * "the capture format" or "the summary library's format" and
         * the DEFAULT that one declares */
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: refused: column %s of table %s has the DEFAULT %s where %s declares %s "
                       "(a DEFAULT runs when Hotpath writes a row, as it does when a summary is saved)"),
                     path, name, table, shown, format, (const char *) want);
      else
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: refused: column %s of table %s has the DEFAULT %s, which %s does not declare "
                       "(a DEFAULT runs when Hotpath writes a row, as it does when a summary is saved)"),
                     path, name, table, shown, format);
      return FALSE;
    }
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The UNIQUE and PRIMARY KEY constraints of @table on @db (an INTEGER
 * PRIMARY KEY, the rowid, aside), each as its columns with their
 * collations, "(a, b COLLATE NOCASE)", in column order; unique indexes
 * too. */
static GPtrArray *
list_unique (sqlite3    *db,
             const char *table)
{
  g_autoptr(GPtrArray) unique = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *index = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc = SQLITE_DONE;

  if (sqlite3_prepare_v2 (db,
                          "SELECT l.name, x.name, x.coll FROM pragma_index_list (?1) AS l, "
                          "  pragma_index_xinfo (l.name) AS x "
                          "WHERE l.\"unique\" AND x.key ORDER BY l.seq, l.name, x.seqno",
                          -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW || index != NULL)
        {
          g_autofree char *name = rc == SQLITE_ROW ? hp_store_db_column_text (stmt, 0) : NULL;
          g_autofree char *column = rc == SQLITE_ROW ? hp_store_db_column_text (stmt, 1) : NULL;
          g_autofree char *coll = rc == SQLITE_ROW ? hp_store_db_column_text (stmt, 2) : NULL;

          if (index != NULL && g_strcmp0 (name, index) != 0)
            {
              g_autofree char *joined = NULL;

              g_ptr_array_sort (columns, compare_names);
              g_ptr_array_add (columns, NULL);
              joined = g_strjoinv (", ", (char **) columns->pdata);
              g_ptr_array_add (unique, g_strdup_printf ("(%s)", joined));
              g_ptr_array_set_size (columns, 0);
              g_clear_pointer (&index, g_free);
            }
          if (rc != SQLITE_ROW)
            break;
          if (index == NULL)
            index = g_steal_pointer (&name);
          {
            g_autofree char *shown = coll == NULL || g_ascii_strcasecmp (coll, "BINARY") == 0 ?
                                     g_strdup (column ? column : "?") :
                                     g_strdup_printf ("%s COLLATE %s", column ? column : "?", coll);

            g_ptr_array_add (columns, g_ascii_strdown (shown, -1));
          }
        }
    }
  sqlite3_finalize (stmt);
  return g_steal_pointer (&unique);
}

/* Whether @sql, a CREATE TABLE, has an ON CONFLICT clause: its words,
 * past comments, strings and quoted names, read as SQLite reads them */
static gboolean
has_on_conflict (const char *sql)
{
  gboolean after_on = FALSE;
  const char *p = sql;

  while (p != NULL && *p != '\0')
    {
      if (g_ascii_isspace (*p))
        p++;
      else if (p[0] == '-' && p[1] == '-')
        p = strchr (p, '\n');
      else if (p[0] == '/' && p[1] == '*')
        p = (p = strstr (p + 2, "*/")) ? p + 2 : NULL;
      else if (*p == '\'' || *p == '"' || *p == '`' || *p == '[')
        {
          char close = *p == '[' ? ']' : *p;

          /* a doubled quote is one inside */
          for (p++; *p != '\0' && !(*p == close && p[1] != close); p += *p == close ? 2 : 1)
            ;
          if (*p != '\0')
            p++;
          after_on = FALSE;
        }
      else if (g_ascii_isalnum (*p) || *p == '_' || *p == '$' || (guchar) *p >= 0x80)
        {
          const char *word = p;

          while (g_ascii_isalnum (*p) || *p == '_' || *p == '$' || (guchar) *p >= 0x80)
            p++;
          if (after_on && p - word == 8 && g_ascii_strncasecmp (word, "CONFLICT", 8) == 0)
            return TRUE;
          after_on = p - word == 2 && g_ascii_strncasecmp (word, "ON", 2) == 0;
        }
      else
        {
          p++;
          after_on = FALSE;
        }
    }
  return FALSE;
}

/* The CREATE TABLE of @table on @db, NULL when none */
static char *
table_sql (sqlite3    *db,
           const char *table)
{
  sqlite3_stmt *stmt = NULL;
  char *sql = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE",
                          -1, &stmt, NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
      if (sqlite3_step (stmt) == SQLITE_ROW && sqlite3_column_type (stmt, 0) != SQLITE_NULL)
        sql = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
    }
  sqlite3_finalize (stmt);
  return sql;
}

/* Sets @error when @table on @db has an ON CONFLICT clause @declared_db's
 * has not, or (@keyed) a UNIQUE or PRIMARY KEY constraint it does not
 * declare: either makes a row Hotpath writes silently replace others
 * ("capture TEXT UNIQUE ON CONFLICT REPLACE" deleted the summary before
 * with each one saved) or vanish; FALSE then. */
static gboolean
check_conflicts (sqlite3     *db,
                 sqlite3     *declared_db,
                 const char  *path,
                 const char  *format,
                 const char  *table,
                 gboolean     keyed,
                 GError     **error)
{
  g_autofree char *sql = table_sql (db, table);
  g_autofree char *declared_sql = table_sql (declared_db, table);
  g_autoptr(GPtrArray) declared = NULL;
  g_autoptr(GPtrArray) found = NULL;

  if (sql != NULL && has_on_conflict (sql) && (declared_sql == NULL || !has_on_conflict (declared_sql)))
    {
      /* Translators: the file, a table, then "the capture format" or
       * "the summary library's format" */
      g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                   _("%s: refused: table %s has an ON CONFLICT clause, which %s does not declare "
                     "(it would make a row Hotpath writes, as when a summary is saved, silently replace "
                     "others or vanish)"), path, table, format);
      return FALSE;
    }
  if (!keyed)
    return TRUE;
  declared = list_unique (declared_db, table);
  found = list_unique (db, table);
  for (guint i = 0; i < found->len; i++)
    if (!g_ptr_array_find_with_equal_func (declared, found->pdata[i], g_str_equal, NULL))
      {
        g_autofree char *shown = hp_store_db_quote_name (found->pdata[i]);

        /* Translators: the file, a table, its columns, then "the capture
         * format" or "the summary library's format" */
        g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                     _("%s: refused: table %s has a UNIQUE or PRIMARY KEY constraint on %s, which %s does "
                       "not declare (a row Hotpath writes, as when a summary is saved, would replace others "
                       "or be refused)"), path, table, shown, format);
        return FALSE;
      }
  return TRUE;
}

gboolean
hp_store_db_check_declared (sqlite3            *db,
                            const char         *path,
                            const char         *format,
                            const char         *declared_sql,
                            const char * const *tables,
                            guint               n_tables,
                            const char * const *keyed_tables,
                            GError            **error)
{
  sqlite3 *declared = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (declared_sql != NULL, FALSE);

  if (sqlite3_open_v2 (":memory:", &declared, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
      sqlite3_exec (declared, declared_sql, NULL, NULL, NULL) != SQLITE_OK)
    g_error ("cannot make a database of the declared schema: %s",
             declared != NULL ? sqlite3_errmsg (declared) : "out of memory");

  for (guint t = 0; ok && t < n_tables; t++)
    {
      const char *table = tables[t];
      g_autofree char *message = NULL;
      g_autoptr(GPtrArray) declared_checks = list_checks (declared, table, &message);
      g_autoptr(GPtrArray) checks = NULL;
      gint64 exists = 0;
      sqlite3_stmt *stmt = NULL;

      g_assert (declared_checks != NULL);
      /* a table of a later version: a migration makes it */
      if (sqlite3_prepare_v2 (db, "SELECT count(*) FROM pragma_table_xinfo (?1)", -1, &stmt, NULL) == SQLITE_OK)
        {
          sqlite3_bind_text (stmt, 1, table, -1, SQLITE_STATIC);
          if (sqlite3_step (stmt) == SQLITE_ROW)
            exists = sqlite3_column_int64 (stmt, 0);
        }
      sqlite3_finalize (stmt);
      if (exists == 0)
        continue;

      if (!check_defaults (db, declared, path, format, table, error) ||
          !check_conflicts (db, declared, path, format, table, keyed_tables != NULL && g_strv_contains (keyed_tables, table), error))
        {
          ok = FALSE;
          break;
        }
      checks = list_checks (db, table, &message);
      if (checks == NULL)
        {
          g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                       _("%s: refused: Hotpath could not write into its table %s: %s"), path, table, message);
          ok = FALSE;
          break;
        }
      for (guint i = 0; ok && i < checks->len; i++)
        if (!g_ptr_array_find_with_equal_func (declared_checks, checks->pdata[i], g_str_equal, NULL))
          {
            g_autofree char *shown = hp_store_db_quote_name (checks->pdata[i]);

            /* Translators: the file, a table, a constraint's name or text,
             * then "the capture format" or "the summary library's format" */
            g_set_error (error, HP_STORE_ERROR, HP_STORE_ERROR_CORRUPT,
                         _("%s: refused: table %s has the CHECK constraint %s, which %s does not declare "
                           "(it runs when Hotpath writes a row, as it does when a summary is saved)"),
                         path, table, shown, format);
            ok = FALSE;
          }
    }
  sqlite3_close_v2 (declared);
  return ok;
}

G_STATIC_ASSERT (HP_STORE_MAX_SUMMARY_CHARS + 1 == 262145);

char *
hp_store_db_column_text (sqlite3_stmt *stmt,
                         int           i)
{
  const char *text;

  if (sqlite3_column_type (stmt, i) == SQLITE_NULL)
    return NULL;
  text = (const char *) sqlite3_column_text (stmt, i);
  if (text == NULL)  /* out of memory */
    return g_strdup ("");
  return g_utf8_make_valid (text, sqlite3_column_bytes (stmt, i));
}

char *
hp_store_db_column_summary_text (sqlite3_stmt *stmt,
                                 int           i)
{
  char *text = hp_store_db_column_text (stmt, i);
  g_autofree char *whole = NULL;

  if (text == NULL || g_utf8_strlen (text, HP_STORE_MAX_SUMMARY_CHARS + 1) <= HP_STORE_MAX_SUMMARY_CHARS)
    return text;
  whole = text;
  return g_strdup_printf ("%.*s\n\n[\u2026 cut: Hotpath reads the first %d characters of a summary]",
                          (int) (g_utf8_offset_to_pointer (whole, HP_STORE_MAX_SUMMARY_CHARS) - whole), whole,
                          HP_STORE_MAX_SUMMARY_CHARS);
}
