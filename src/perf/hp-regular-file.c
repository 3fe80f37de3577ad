/* hp-regular-file.c - opening a named file that may be a FIFO, without waiting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every reader of a file that a user (or a program being profiled) names
 * (the sniffers of perf.data, pprof and folded stacks; the JIT maps and
 * jitdumps a process writes in /tmp) opens it here: with O_NONBLOCK, so
 * that a FIFO put in the file's place is refused instead of waited on,
 * and O_NOCTTY, so that a terminal never becomes our controlling one.
 */

#define G_LOG_DOMAIN "hp-perf"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "perf/hp-regular-file.h"

int
hp_regular_file_open (const char  *path,
                      struct stat *st)
{
  struct stat local;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  if (st == NULL)
    st = &local;
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    return -1;
  if (fstat (fd, st) != 0)
    {
      int errsv = errno;

      close (fd);
      errno = errsv;
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      close (fd);
      errno = EINVAL;
      return -1;
    }
  return fd;
}

int
hp_regular_file_open_as (const char   *path,
                         const char   *what,
                         struct stat  *st,
                         GError      **error)
{
  int fd = hp_regular_file_open (path, st);
  int errsv = errno;

  if (fd >= 0)
    return fd;
  if (errsv == EINVAL)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: not %s: it is not a regular file", path, what);
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "%s: %s", path, g_strerror (errsv));
  return -1;
}
