/* hp-source-find.h - finding a recorded source file on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The file on this machine for @file, a source path as a capture names
 * it (from DWARF, or anything a hostile file says), as its real path
 * (realpath(3)): @file itself when it is absolute and exists, else the
 * first of FOLDER/a/b/c.c, FOLDER/b/c.c, FOLDER/c.c that exists, for each
 * folder of @dirs in turn (NULL-terminated, may be NULL). Each folder
 * looked in is appended to @looked_in (may be NULL), so that a front end
 * can say where it looked.
 *
 * Only a file that is plausibly the program's source is returned (the one
 * rule of every reader of a file a capture names): a regular file whose
 * real path is named as source code (hp_source_is_code_name()), and, for
 * a name under a folder, one whose ".." do not lead out of that folder. A
 * candidate refused is passed over and the search goes on.
 *
 * A name longer than PATH_MAX or of more than 256 folders is refused at
 * once (G_IO_ERROR_INVALID_FILENAME, saying so): a capture may name
 * anything up to 64 MiB, and each tail is looked for. @cancellable (may
 * be NULL) stops the search (G_IO_ERROR_CANCELLED).
 *
 * NULL when none is found, with @error G_IO_ERROR_NOT_FOUND, or
 * G_IO_ERROR_PERMISSION_DENIED when a file was there but refused, its
 * message saying which and why. */
char     *hp_source_find_file    (const char         *file,
                                  const char * const *dirs,
                                  GPtrArray          *looked_in,
                                  GCancellable       *cancellable,
                                  GError            **error);

/* Whether @path (a real path) is named as source code: a known
 * source-code extension, in any case (.C is C++, .F90 Fortran), or none
 * in a folder named include (C++'s <optional>). */
gboolean  hp_source_is_code_name (const char         *path);

G_END_DECLS
