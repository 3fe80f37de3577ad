/* hp-regular-file.h - opening a named file that may be a FIFO, without waiting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sys/stat.h>

#include <glib.h>

G_BEGIN_DECLS

/* Opens @path for reading when it is a regular file, and fills @st (may be
 * NULL); -1 when it cannot be opened or is anything else (a FIFO, a
 * device, a folder). Never blocks: opening a FIFO for reading waits for a
 * writer, and `hotpath-cli report FIFO` once hung there. Close the result. */
int hp_regular_file_open (const char  *path,
                          struct stat *st);
/* The same, with an error that names @path and says why it cannot be
 * read as @what ("a pprof profile") when the result is -1. */
int hp_regular_file_open_as (const char   *path,
                             const char   *what,
                             struct stat  *st,
                             GError      **error);

G_END_DECLS
