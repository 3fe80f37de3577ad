/* hp-source-find.h - finding a recorded source file on this machine
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The regular file on this machine for @file, a source path as DWARF
 * names it: @file itself when it is absolute and exists, else the first
 * of FOLDER/a/b/c.c, FOLDER/b/c.c, FOLDER/c.c that exists, for each
 * folder of @dirs in turn (NULL-terminated, may be NULL). Each folder
 * looked in is appended to @looked_in (may be NULL), so that a front end
 * can say where it looked. NULL when none is found. */
char *hp_source_find_file (const char         *file,
                           const char * const *dirs,
                           GPtrArray          *looked_in);

G_END_DECLS
