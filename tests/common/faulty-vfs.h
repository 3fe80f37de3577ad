/* faulty-vfs.h - a SQLite VFS that fails chosen reads and writes, for tests of I/O errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Header-only, as perf-data-builder.h. faulty_vfs_install() puts a VFS
 * in front of SQLite's default one (as the default: the code under test
 * opens its files by name) that passes everything through, except, for
 * the files whose name starts with a prefix (a capture and its journal):
 * every write once faulty_vfs.fail_writes is set, and the one read at the
 * byte offset faulty_vfs.fail_read_at (a page: (page - 1) * page size),
 * once. Each fails as the disk would, with SQLITE_IOERR_WRITE or
 * SQLITE_IOERR_READ; faulty_vfs.n_failed counts them. Its files have no
 * shared memory (a WAL capture cannot be opened through it): make the
 * test's files before installing it, in rollback-journal mode.
 */
#pragma once

#include <string.h>
#include <glib.h>
#include <sqlite3.h>

typedef struct {
  sqlite3_file  base;
  sqlite3_file *real;      /* the default VFS's, right after this struct */
  gboolean      watched;   /* its name starts with faulty_vfs.prefix */
} FaultyFile;

static struct {
  sqlite3_vfs  vfs;
  sqlite3_vfs *real;
  char        *prefix;
  gboolean     fail_writes;
  gint64       fail_read_at;  /* -1: none */
  guint        n_failed;
} faulty_vfs;

static int
faulty_close (sqlite3_file *f)
{
  return ((FaultyFile *) f)->real->pMethods->xClose (((FaultyFile *) f)->real);
}

static int
faulty_read (sqlite3_file *f, void *buf, int n, sqlite3_int64 offset)
{
  FaultyFile *ff = (FaultyFile *) f;

  if (ff->watched && offset == faulty_vfs.fail_read_at)
    {
      faulty_vfs.fail_read_at = -1;
      faulty_vfs.n_failed++;
      return SQLITE_IOERR_READ;
    }
  return ff->real->pMethods->xRead (ff->real, buf, n, offset);
}

static int
faulty_write (sqlite3_file *f, const void *buf, int n, sqlite3_int64 offset)
{
  FaultyFile *ff = (FaultyFile *) f;

  if (ff->watched && faulty_vfs.fail_writes)
    {
      faulty_vfs.n_failed++;
      return SQLITE_IOERR_WRITE;
    }
  return ff->real->pMethods->xWrite (ff->real, buf, n, offset);
}

static int
faulty_truncate (sqlite3_file *f, sqlite3_int64 size)
{
  return ((FaultyFile *) f)->real->pMethods->xTruncate (((FaultyFile *) f)->real, size);
}

static int
faulty_sync (sqlite3_file *f, int flags)
{
  return ((FaultyFile *) f)->real->pMethods->xSync (((FaultyFile *) f)->real, flags);
}

static int
faulty_file_size (sqlite3_file *f, sqlite3_int64 *size)
{
  return ((FaultyFile *) f)->real->pMethods->xFileSize (((FaultyFile *) f)->real, size);
}

static int
faulty_lock (sqlite3_file *f, int level)
{
  return ((FaultyFile *) f)->real->pMethods->xLock (((FaultyFile *) f)->real, level);
}

static int
faulty_unlock (sqlite3_file *f, int level)
{
  return ((FaultyFile *) f)->real->pMethods->xUnlock (((FaultyFile *) f)->real, level);
}

static int
faulty_check_reserved (sqlite3_file *f, int *out)
{
  return ((FaultyFile *) f)->real->pMethods->xCheckReservedLock (((FaultyFile *) f)->real, out);
}

static int
faulty_file_control (sqlite3_file *f, int op, void *arg)
{
  return ((FaultyFile *) f)->real->pMethods->xFileControl (((FaultyFile *) f)->real, op, arg);
}

static int
faulty_sector_size (sqlite3_file *f)
{
  return ((FaultyFile *) f)->real->pMethods->xSectorSize (((FaultyFile *) f)->real);
}

static int
faulty_device_characteristics (sqlite3_file *f)
{
  return ((FaultyFile *) f)->real->pMethods->xDeviceCharacteristics (((FaultyFile *) f)->real);
}

/* version 1: no shared memory, no memory-mapped reads (every page is read
 * through faulty_read) */
static const sqlite3_io_methods faulty_io = {
  1, faulty_close, faulty_read, faulty_write, faulty_truncate, faulty_sync, faulty_file_size,
  faulty_lock, faulty_unlock, faulty_check_reserved, faulty_file_control, faulty_sector_size,
  faulty_device_characteristics, NULL, NULL, NULL, NULL, NULL, NULL,
};

static int
faulty_open (sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
  FaultyFile *ff = (FaultyFile *) f;
  int rc;

  ff->real = (sqlite3_file *) (ff + 1);
  ff->watched = name != NULL && faulty_vfs.prefix != NULL && g_str_has_prefix (name, faulty_vfs.prefix);
  rc = faulty_vfs.real->xOpen (faulty_vfs.real, name, ff->real, flags, out_flags);
  /* SQLite calls xClose only on a file whose pMethods is set */
  ff->base.pMethods = ff->real->pMethods != NULL ? &faulty_io : NULL;
  return rc;
}

static int
faulty_delete (sqlite3_vfs *vfs, const char *name, int sync_dir)
{
  return faulty_vfs.real->xDelete (faulty_vfs.real, name, sync_dir);
}

static int
faulty_access (sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
  return faulty_vfs.real->xAccess (faulty_vfs.real, name, flags, out);
}

static int
faulty_full_pathname (sqlite3_vfs *vfs, const char *name, int n, char *out)
{
  return faulty_vfs.real->xFullPathname (faulty_vfs.real, name, n, out);
}

static int
faulty_randomness (sqlite3_vfs *vfs, int n, char *out)
{
  return faulty_vfs.real->xRandomness (faulty_vfs.real, n, out);
}

static int
faulty_sleep (sqlite3_vfs *vfs, int us)
{
  return faulty_vfs.real->xSleep (faulty_vfs.real, us);
}

static int
faulty_current_time (sqlite3_vfs *vfs, double *out)
{
  return faulty_vfs.real->xCurrentTime (faulty_vfs.real, out);
}

static int
faulty_last_error (sqlite3_vfs *vfs, int n, char *out)
{
  return faulty_vfs.real->xGetLastError (faulty_vfs.real, n, out);
}

/* Puts the faulty VFS in front of the default one, watching the files
 * whose name starts with @prefix; nothing fails until asked. */
static inline void
faulty_vfs_install (const char *prefix)
{
  g_assert_null (faulty_vfs.real);
  faulty_vfs.real = sqlite3_vfs_find (NULL);
  g_assert_nonnull (faulty_vfs.real);
  faulty_vfs.prefix = g_strdup (prefix);
  faulty_vfs.fail_writes = FALSE;
  faulty_vfs.fail_read_at = -1;
  faulty_vfs.n_failed = 0;
  memset (&faulty_vfs.vfs, 0, sizeof faulty_vfs.vfs);
  faulty_vfs.vfs.iVersion = 1;
  faulty_vfs.vfs.szOsFile = (int) sizeof (FaultyFile) + faulty_vfs.real->szOsFile;
  faulty_vfs.vfs.mxPathname = faulty_vfs.real->mxPathname;
  faulty_vfs.vfs.zName = "hotpath-test-faulty";
  faulty_vfs.vfs.xOpen = faulty_open;
  faulty_vfs.vfs.xDelete = faulty_delete;
  faulty_vfs.vfs.xAccess = faulty_access;
  faulty_vfs.vfs.xFullPathname = faulty_full_pathname;
  faulty_vfs.vfs.xRandomness = faulty_randomness;
  faulty_vfs.vfs.xSleep = faulty_sleep;
  faulty_vfs.vfs.xCurrentTime = faulty_current_time;
  faulty_vfs.vfs.xGetLastError = faulty_last_error;
  g_assert_cmpint (sqlite3_vfs_register (&faulty_vfs.vfs, 1), ==, SQLITE_OK);
}

/* The default VFS as it was; files opened through the faulty one must be
 * closed first. */
static inline void
faulty_vfs_remove (void)
{
  g_assert_cmpint (sqlite3_vfs_unregister (&faulty_vfs.vfs), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_vfs_register (faulty_vfs.real, 1), ==, SQLITE_OK);
  faulty_vfs.real = NULL;
  g_clear_pointer (&faulty_vfs.prefix, g_free);
}
