/* hp-symbolizer.h - ELF modules and address-to-source resolution with libdw
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <libelf.h>

G_BEGIN_DECLS

/* One ELF file (or the kernel) as seen by a capture. Owned by the
 * HpSymbolizer that returned it; each file is opened and indexed once. */
typedef struct _HpModule HpModule;

/* One frame of a resolved address. */
typedef struct {
  const char *function;      /* demangled name; NULL when unknown */
  const char *file;          /* source file (absolute when DWARF says so); NULL when unknown */
  guint       line;          /* 0 when unknown */
  const char *function_file; /* file declaring the function (DW_AT_decl_file); NULL when unknown */
  guint       function_line; /* first line of the function (DW_AT_decl_line); 0 when unknown */
  gboolean    is_inline;     /* code of this function inlined into the next frame */
} HpSymbolFrame;

/* An address resolved to its inline chain, innermost first: frames[0] is the
 * function whose code is at the address; frames[i] (i < n_frames - 1) is
 * inlined into frames[i + 1], whose file/line is the call site of frames[i].
 * The last frame is the real (out-of-line) function. n_frames >= 1. */
typedef struct {
  HpModule      *module;
  guint64        offset;  /* file offset (user) or address (kernel) that was resolved */
  /* When no symbol names the function: where it starts, from the call
   * frame information that unwinding uses (.eh_frame FDEs survive
   * stripping), so every address of an unnamed function shares one name.
   * An ELF address (objdump's, addr2line's) when the file was read; else
   * @offset itself. */
  guint64        function_start;
  guint          n_frames;
  HpSymbolFrame *frames;
} HpResolvedAddress;

typedef struct _HpSymbolizer HpSymbolizer;

/* Progress of a download of debug info for the module recorded at @path:
 * @done of @total bytes (@total 0 while unknown). Called on the thread
 * that symbolizes. */
typedef void (*HpSymbolFetchFunc) (const char *path,
                                   guint64     done,
                                   guint64     total,
                                   gpointer    user_data);

HpSymbolizer            *hp_symbolizer_new             (void);
void                     hp_symbolizer_free            (HpSymbolizer  *self);
/* Like hp_symbolizer_new() but reads kernel symbols from @path instead of
 * /proc/kallsyms (a saved copy, or a fake one in tests). */
HpSymbolizer            *hp_symbolizer_new_with_kallsyms (const char *path);
/* Where the kernel symbols read from kallsyms are kept for the next
 * recording of this boot: @cache, keyed by the boot id read from
 * @boot_id_path and the modules listed in @modules_path. hp_symbolizer_new()
 * keeps them in $XDG_CACHE_HOME/hotpath/kallsyms, from /proc; @cache NULL:
 * not kept. Call before the first lookup. */
void                     hp_symbolizer_set_kallsyms_cache (HpSymbolizer *self,
                                                           const char   *cache,
                                                           const char   *modules_path,
                                                           const char   *boot_id_path);

/* Where decompressed copies of debug files with compressed DWARF are kept,
 * by build id, so that libdw need not inflate them in every recording.
 * hp_symbolizer_new() keeps them in $XDG_CACHE_HOME/hotpath/debug; NULL:
 * not kept. Call before the first lookup. */
void                     hp_symbolizer_set_debug_copies (HpSymbolizer *self,
                                                         const char   *dir);
/* At most @max_total bytes of such copies are kept, the least recently
 * used going first; 0: the default, 512 MiB. */
void                     hp_symbolizer_set_debug_copies_limit (HpSymbolizer *self,
                                                               guint64       max_total);

/* Files recorded on another machine (perf.data): the recorded paths are
 * looked up under @sysroot, and files are found by build id in @dir
 * (DIR/.build-id/xx/rest[.debug]) before ~/.debug and /usr/lib/debug
 * (hp-file-locator.h). The unwinder finds its files through the modules
 * of this symbolizer (hp_module_find_code_files), so the same search.
 * Call before the first lookup. */
void                     hp_symbolizer_set_sysroot     (HpSymbolizer  *self,
                                                        const char    *sysroot);
void                     hp_symbolizer_add_debug_dir   (HpSymbolizer  *self,
                                                        const char    *dir);
/* The build id the recording saw for @path (perf.data's build-id table),
 * used when a mapping of @path carries none. For "[kernel.kallsyms]", a
 * kernel other than the running one takes its symbols from perf's
 * build-id cache (DIR/[kernel.kallsyms]/ID/kallsyms) or stays unresolved. */
void                     hp_symbolizer_add_build_id    (HpSymbolizer  *self,
                                                        const char    *path,
                                                        const guint8  *build_id,
                                                        gsize          build_id_len);

/* A module for the file at @path as mapped by the profiled program.
 * @build_id (may be NULL) is the one the recording saw; the file is searched
 * by build id in the debug directories, then at @path (under the sysroot);
 * a file with a different build id is not used for symbols. Never returns NULL:
 * a file that cannot be opened gives a module that resolves nothing. */
HpModule                *hp_symbolizer_get_module      (HpSymbolizer  *self,
                                                        const char    *path,
                                                        const guint8  *build_id,
                                                        gsize          build_id_len);

/* The module of the [vdso] mapping of process @pid at @start, @size bytes
 * long. Its image is, best first: read from the process (live recordings,
 * while it runs), perf's build-id cache (DIR/[vdso]/ID/vdso in the
 * build-id directories) for the build id @build_id or the recording's
 * (hp_symbolizer_add_build_id of "[vdso]"), or this process's own vDSO
 * when the build ids match (live: when the sizes match, for a process
 * gone before it could be read). Without an image the module resolves
 * nothing and a note says why (hp_symbolizer_get_notes). Modules are
 * shared by build id. Never returns NULL. */
HpModule                *hp_symbolizer_get_vdso_module (HpSymbolizer  *self,
                                                        guint32        pid,
                                                        guint64        start,
                                                        guint64        size,
                                                        const guint8  *build_id,
                                                        gsize          build_id_len);

/* Whether the records describe processes running on this machine now (a
 * live recording): only then is a process's memory, or our own vDSO
 * without a build id to compare, the image that was mapped. Default FALSE. */
void                     hp_symbolizer_set_live        (HpSymbolizer  *self,
                                                        gboolean       live);

/* When DEBUGINFOD_URLS is set (read when the symbolizer is created;
 * unset or empty: no server is asked), debug info found nowhere on disk
 * is fetched from those servers by build id (libdwfl, with
 * libdebuginfod's cache), during the first lookup in the module. @func
 * hears of each download as it goes; NULL: nobody. */
void                     hp_symbolizer_set_fetch_func  (HpSymbolizer     *self,
                                                        HpSymbolFetchFunc func,
                                                        gpointer          user_data);

/* Sentences for the user about symbols that could not be had (a vDSO
 * image that is nowhere), each once; owned by @self. */
const GPtrArray         *hp_symbolizer_get_notes       (HpSymbolizer  *self);
/* How many times the symbol tables were searched (once per class of
 * addresses that resolve alike), so that tests can see lookups shared. */
guint                    hp_symbolizer_get_symtab_searches (HpSymbolizer *self);
/* How many symbol table entries those searches looked at, so that tests
 * can see a search that does not read the whole table. */
guint64                  hp_symbolizer_get_symtab_steps (HpSymbolizer *self);

/* Resolves a file offset within @module (mapping address - start + pgoff).
 * The result is cached and owned by @self. Unresolved addresses give one frame
 * with function == NULL. */
const HpResolvedAddress *hp_symbolizer_lookup          (HpSymbolizer  *self,
                                                        HpModule      *module,
                                                        guint64        file_offset);

/* Resolves a kernel address through /proc/kallsyms (read once). The module is
 * "[kernel.kallsyms]" or "[MODNAME]" for loadable modules. */
const HpResolvedAddress *hp_symbolizer_lookup_kernel   (HpSymbolizer  *self,
                                                        guint64        address);

/* Whether /proc/kallsyms gave real addresses (kptr_restrict may hide them). */
gboolean                 hp_symbolizer_has_kernel_symbols (HpSymbolizer *self);

const char              *hp_module_get_path            (const HpModule *module);
/* Lower-case hex build id of the file on disk (or of the recording); NULL if none. */
const char              *hp_module_get_build_id        (const HpModule *module);
gboolean                 hp_module_is_kernel           (const HpModule *module);
/* The file the symbols come from: the recorded path (under the sysroot),
 * or the copy found by build id (perf's cache, a debug directory; a
 * separate .debug file from /usr/lib/debug has no code). NULL when none
 * was usable. */
const char              *hp_module_get_file            (const HpModule *module);
/* The files that may hold @module's code and CFI, best first, searched as
 * the symbolizer searches (hp-file-locator.h): copies found by build id in
 * the debug directories and caches, then the recorded path under the
 * sysroot; separate .debug files, which hold no code, are left out. Each
 * must still be checked against the module's build id. Empty for the
 * kernel. */
GPtrArray               *hp_module_find_code_files     (const HpModule *module);
/* The short name used in reports: basename of the path, or "[kernel.kallsyms]". */
const char              *hp_module_get_name            (const HpModule *module);

/* The bounds of the function around @vaddr (an ELF virtual address) of
 * @elf by its unwind information, the only ones a stripped file keeps: the
 * .eh_frame FDE that covers it, found through .eh_frame_hdr's table. FALSE
 * when none covers it. */
gboolean                 hp_elf_fde_bounds             (Elf           *elf,
                                                        guint64        vaddr,
                                                        guint64       *start,
                                                        guint64       *end);

/* Demangles a C++ or Rust symbol with libiberty; returns NULL when @name is not mangled. */
char                    *hp_demangle                   (const char    *name);

G_END_DECLS
