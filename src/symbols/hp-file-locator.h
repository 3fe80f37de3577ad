/* hp-file-locator.h - where the ELF file of a recorded mapping is found
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <elfutils/libdwfl.h>

G_BEGIN_DECLS

/* libdwfl's find_debuginfo callback (Dwfl_Callbacks), which libdwfl.h
 * spells out in the struct but does not name: the symbolizer's (separate
 * debug files, served decompressed) and the unwinder's (none: CFI is in
 * the file) are both of this type. */
typedef int HpFindDebuginfoFunc (Dwfl_Module  *mod,
                                 void        **userdata,
                                 const char   *modname,
                                 Dwarf_Addr    base,
                                 const char   *file_name,
                                 const char   *debuglink_file,
                                 GElf_Word     debuglink_crc,
                                 char        **debuginfo_file_name);

typedef enum {
  /* Files that hold the code: the binary, or a copy of it. */
  HP_FILE_LOCATE_CODE       = 0,
  /* Also separate debug files (.build-id/xx/rest.debug), which hold
   * symbols and lines but no code (their .eh_frame and .text are empty). */
  HP_FILE_LOCATE_DEBUG_INFO = 1 << 0,
} HpFileLocateFlags;

typedef struct _HpFileLocator HpFileLocator;

HpFileLocator *hp_file_locator_new                 (void);
void           hp_file_locator_free                (HpFileLocator     *self);

/* Recorded paths are looked up under @sysroot (NULL, "" or "/": none). */
void           hp_file_locator_set_sysroot         (HpFileLocator     *self,
                                                    const char        *sysroot);
const char    *hp_file_locator_get_sysroot         (const HpFileLocator *self);
/* A directory searched by build id (DIR/.build-id/xx/rest), before the
 * others; in the order added. */
void           hp_file_locator_add_debug_dir       (HpFileLocator     *self,
                                                    const char        *dir);

/* The directories searched by build id, best first: the debug directories
 * added, perf's build-id cache ~/.debug, then SYSROOT/usr/lib/debug (or
 * /usr/lib/debug without a sysroot). */
GPtrArray     *hp_file_locator_get_build_id_dirs   (const HpFileLocator *self);

/* Where the file recorded at @path with build id @build_id (lower-case hex,
 * may be NULL) may be, best first: in each build-id directory
 * DIR/.build-id/xx/rest (or, for perf's cache, where that is a directory,
 * DIR/.build-id/xx/rest/elf) and with HP_FILE_LOCATE_DEBUG_INFO also
 * DIR/.build-id/xx/rest.debug; then @path itself under the sysroot when it
 * is absolute. The copies found by build id come first: they are the very
 * file that was recorded, where the path may hold a rebuilt one. The caller
 * still checks each candidate's build id. */
GPtrArray     *hp_file_locator_find                (const HpFileLocator *self,
                                                    const char        *path,
                                                    const char        *build_id,
                                                    HpFileLocateFlags  flags);

/* vDSO images with their symbol tables, which the vDSO in memory lacks
 * (its static functions are named only there), best first: Debian's
 * linux-image-VERSION-dbg (DIR/lib/modules/VERSION/vdso/vdso64.so in each
 * build-id directory: /usr/lib/debug under the sysroot), then
 * SYSROOT/lib/modules/VERSION/vdso/ (Fedora; make vdso_install). Every
 * kernel version's: the caller keeps the one with the recorded build id. */
GPtrArray     *hp_file_locator_find_vdso_images    (const HpFileLocator *self);

/* The search path for libdwfl's dwfl_standard_find_debuginfo (separate
 * debug files by debug link and build id): its defaults beside the main
 * file, the debug directories, the sysroot's /usr/lib/debug and the host's. */
char          *hp_file_locator_get_debuginfo_path  (const HpFileLocator *self);

/* Lower-case hex of a build id, as in .build-id paths and perf's cache. */
char          *hp_build_id_to_hex                  (const guint8      *bytes,
                                                    gsize              len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpFileLocator, hp_file_locator_free)

G_END_DECLS
