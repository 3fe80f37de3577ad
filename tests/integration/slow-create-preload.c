/* slow-create-preload.c - a new capture's file stays empty for a second
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preloaded into hotpath-cli by test-record-survives: a file whose name
 * ends in ".hotpath", created with O_EXCL, is left as it is (empty) for a
 * second before the program goes on. The writer once created its capture
 * in place and then its tables: another program that locked the empty
 * file in between ended the recording, a window of a millisecond that
 * this makes one a test can hit every time. A writer that creates its
 * capture under another name and renames it into place is not slowed.
 */
#define G_LOG_DOMAIN "hp-slow-create"
/* both open and open64 are defined here, not one redirected to the other */
#undef _FILE_OFFSET_BITS

#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

typedef int (*OpenFunc) (const char *path, int flags, ...);

static void
linger (const char *path,
        int         flags)
{
  size_t len = strlen (path);

  if ((flags & O_CREAT) && (flags & O_EXCL) && len >= 8 && strcmp (path + len - 8, ".hotpath") == 0)
    sleep (1);
}

static int
open_slowly (const char *name,
             const char *path,
             int         flags,
             mode_t      mode)
{
  OpenFunc real = (OpenFunc) dlsym (RTLD_NEXT, name);
  int fd = real (path, flags, mode);

  if (fd >= 0)
    linger (path, flags);
  return fd;
}

int
open (const char *path,
      int         flags,
      ...)
{
  mode_t mode = 0;
  va_list args;

  va_start (args, flags);
  if (flags & O_CREAT)
    mode = va_arg (args, mode_t);
  va_end (args);
  return open_slowly ("open", path, flags, mode);
}

int
open64 (const char *path,
        int         flags,
        ...)
{
  mode_t mode = 0;
  va_list args;

  va_start (args, flags);
  if (flags & O_CREAT)
    mode = va_arg (args, mode_t);
  va_end (args);
  return open_slowly ("open64", path, flags, mode);
}
