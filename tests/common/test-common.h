/* test-common.h - helpers shared by the test suites
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

/* Removes the folder @path and everything below it, making read-only
 * folders writable first (tests make some to provoke errors). Symbolic
 * links are removed, never followed nor changed through. */
void       hp_test_remove_tree        (const char      *path);

/* Opens and loads the capture at @path, asserting that both succeed; the
 * caller owns *@data_out, which the profile points into. */
HpProfile *hp_test_load_profile       (const char      *path,
                                       HpCaptureData  **data_out);

/* The file offset and size of function symbol @name in the ELF file at
 * @path, read from its .symtab with libelf, apart from the code under
 * test. FALSE when there is no such function. */
gboolean   hp_test_elf_function       (const char      *path,
                                       const char      *name,
                                       guint64         *offset,
                                       guint64         *size);

/* The GNU build id of the ELF file at @path, asserting it has one (at
 * most 20 bytes); returns its length. */
gsize      hp_test_elf_build_id       (const char      *path,
                                       guint8           id[20]);

G_END_DECLS
