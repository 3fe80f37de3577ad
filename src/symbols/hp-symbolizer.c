/* hp-symbolizer.c - ELF modules and address-to-source resolution with libdw
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the mapping from (module, file offset) to an inline chain of
 * functions with file:line, and from kernel addresses to kallsyms names.
 *
 * Every ELF file is opened once, in its own Dwfl, reported at bias 0 so that
 * libdw addresses are the file's own virtual addresses. Samples carry file
 * offsets (address - map start + pgoff), which the PT_LOAD headers translate
 * to virtual addresses. Separate debug files (/usr/lib/debug/.build-id, debug
 * links) are found by dwfl_standard_find_debuginfo.
 *
 * Lookups run per sample, at up to tens of kHz, and a profile has few
 * distinct addresses compared to samples, so every result is cached per
 * (module, offset) and never freed before the symbolizer: callers may keep
 * the returned pointers. Strings are interned in one GStringChunk, so a file
 * name is stored once however many addresses point into it.
 *
 * An HpSymbolizer is not thread-safe: use it from one thread at a time.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/debuginfod.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libiberty/demangle.h>

#include <glib/gstdio.h>

#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"

#define KERNEL_MODULE_NAME "[kernel.kallsyms]"
#define VDSO_MODULE_NAME   "[vdso]"
/* A vDSO is two pages; anything much bigger is not one. */
#define VDSO_MAX_SIZE      (1024 * 1024)

/* ELF note names and descriptors are padded to 4 bytes (the kernel's
 * notes, and every 64-bit note in practice, despite the gABI's 8). */
#define NOTE_ALIGN(n) (((gsize) (n) + 3) & ~(gsize) 3)

typedef struct
{
  guint64 offset;
  guint64 filesz;
  guint64 vaddr;
} LoadSegment;

/* HOTPATH_CHECK_CACHES=1 (see HACKING.md): every lookup through a CU's
 * index of code scopes is done by the walk too (check_code_scopes), and
 * a difference is a warning. */
static gboolean check_scopes;

struct _HpModule
{
  char        *path;
  char        *name;
  char        *build_id;    /* lower-case hex, or NULL */
  char        *file;        /* what was opened: path, or a copy found by build id */
  gboolean     is_kernel;
  /* A vDSO image copied from memory is kept in a memfd, named
   * /proc/self/fd/N in ->file so that the unwinder opens it like a file;
   * -1 otherwise. */
  int          image_fd;
  /* The symbolizer's, which outlives its modules; NULL for the kernel's. */
  const HpFileLocator *locator;
  struct _HpSymbolizer *symbolizer;

  /* NULL when the module resolves nothing (special mapping, missing file,
   * not ELF, build id mismatch). */
  Dwfl        *dwfl;
  Dwfl_Module *dwfl_module;
  Dwarf_Addr   bias;        /* dwfl address = ELF vaddr + bias */
  GArray      *loads;       /* LoadSegment */

  /* guint64 offset -> HpResolvedAddress; the key points at ->offset */
  GHashTable  *cache;

  /* The outermost function of the previous DWARF resolution. Distinct
   * addresses of a profile cluster in hot functions, and starting the
   * search there skips the walk over the CU's top-level DIEs. */
  gboolean     has_last_function;
  Dwarf_Die    last_function;
  Dwarf_Addr   last_function_bias;
  /* CU DIE offset -> CodeScopeIndex (see index_code_scopes) */
  GHashTable  *code_scopes;

  /* PLT stubs by ELF vaddr (PltStub, sorted), read on first need */
  GArray      *plt;

  /* The scopes of the C++ CUs that named a function without a linkage
   * name (see die_function_name): ScopeEntry by DieKey of the scope, and
   * the DieKeys of the CUs already walked; NULL until then. */
  GHashTable  *scope_parents;
  GHashTable  *scope_cus;

  /* The program's ELF entry point (program_entry), read on first need */
  gboolean     entry_loaded;
  guint64      entry;
  guint64      main;         /* program_main(): main's ELF address, 0 if unknown */

  /* The symbol table as libdwfl's search sees it (SymEntry, in table
   * order, globals from sym_first_global on), the main file's allocated
   * sections (SectionRange, by address), and answers by address class
   * (see symtab_class); read on first need: sym_bounds NULL until then. */
  GArray      *syms;
  guint        sym_first_global;
  gboolean     sym_search_locals;
  GArray      *sym_sections;
  GArray      *sym_bounds;  /* guint64, sorted, unique */
  GHashTable  *sym_answers; /* class -> SymtabAnswer */
  /* The same table indexed (see symtab_search_indexed): the sized
   * entries of each pass sorted by start (SizedEntry), and the sizeless
   * ones (SizelessEntry, by start), [0] the globals, [1] the locals */
  GArray      *sym_sized[2];
  GArray      *sym_sizeless[2];

  /* The .eh_frame_hdr search table (PT_GNU_EH_FRAME): pairs of 32-bit
   * (FDE start, FDE) relative to hdr_vaddr, sorted by start; read on
   * first need (eh_loaded), NULL when absent or in another encoding. */
  gboolean        eh_loaded;
  const guint8   *eh_table;
  guint32         eh_count;
  guint64         eh_hdr_vaddr;
  gboolean        eh_big_endian;
  /* Without that table (static programs: gcc links them without
   * --eh-frame-hdr), the FDEs of .eh_frame read one by one: FdeRange,
   * sorted by start; NULL when there is none */
  GArray         *eh_ranges;

  /* The debuginfod request for this module (on_debuginfod_progress): what
   * it last reported, and when it started or last received bytes
   * (g_get_monotonic_time; 0: a request is to start) */
  gint64          fetch_done;
  gint64          fetch_changed;
};

typedef struct
{
  guint64 start;
  guint64 end;      /* start + size, saturated */
  guint64 max_end;  /* the largest end of this entry and every one before */
  guint   index;    /* in HpModule.syms */
} SizedEntry;

typedef struct
{
  guint64 start;
  guint   section;  /* section_of (start) */
  guint   index;    /* in HpModule.syms */
} SizelessEntry;

typedef struct
{
  const char *name;    /* libdwfl's string */
  GElf_Addr   value;   /* where the symbol is, as libdwfl places it */
  GElf_Sym    sym;
  GElf_Word   shndx;
} SymEntry;

typedef struct
{
  guint64 start;
  guint64 end;
  guint   index;
} SectionRange;

/* What dwfl_module_addrinfo said for one address class. */
typedef struct
{
  const char *name;    /* libdwfl's string; NULL: no symbol */
  GElf_Sym    sym;
  GElf_Word   shndx;
  GElf_Addr   value;   /* the symbol's address, as libdwfl adjusted it */
} SymtabAnswer;

typedef struct
{
  guint64     vaddr;
  guint64     size;
  const char *name;   /* "strncmp@plt", interned */
} PltStub;

typedef struct
{
  guint64     address;
  const char *name;   /* points into kallsyms_data */
  HpModule   *module;
} KernelSymbol;

/* Seconds a debuginfod request may go unanswered, or without receiving a byte, unless
 * $DEBUGINFOD_TIMEOUT says (as it does for libdebuginfod's own timeouts) */
#define DEBUGINFOD_STALL_S 30

struct _HpSymbolizer
{
  GHashTable   *modules;        /* "path\nbuild-id" -> HpModule */
  GStringChunk *strings;

  char         *kallsyms_path;
  gboolean      kallsyms_loaded;
  gboolean      has_kernel_symbols;
  char         *kallsyms_data;  /* the file, NUL-split in place; names point here */
  GMappedFile  *kallsyms_map;   /* or the cache, mapped; names point there */
  GArray       *kernel_symbols; /* KernelSymbol, sorted by address */
  /* Or the cache's table, used where it is mapped (n_cached > 0): copying
   * its 120 000 symbols into kernel_symbols cost a recording more than
   * all its lookups in them. CachedSymbol, sorted by address and checked. */
  const char   *cached_symbols;
  guint32       n_cached;
  const char   *cached_strings;
  /* Kernel symbols kept between recordings (see "Kernel symbols kept
   * between recordings" below): NULL paths, no cache. */
  char         *kallsyms_cache;
  char         *modules_path;
  char         *boot_id_path;
  GArray       *kernel_ranges;  /* KernelRange: what a table from the cache covers; NULL: the whole file was read */
  HpModule     *kernel;         /* also in kernel_modules */
  GHashTable   *kernel_modules; /* "[name]" -> HpModule */

  /* Where files recorded elsewhere are found (perf.data imports). */
  HpFileLocator *locator;
  GHashTable   *build_ids;      /* recorded path -> GBytes build id */
  char         *kernel_build_id; /* lower-case hex, of the recorded kernel */
  char         *debuginfo_path; /* for dwfl_standard_find_debuginfo; NULL: default */
  Dwfl_Callbacks callbacks;
  char         *debug_copies;   /* decompressed copies of debug files (see find_debuginfo); NULL: none */
  guint64       debug_copies_max; /* bytes all copies may take; 0: DEBUG_COPIES_MAX_TOTAL */

  /* Whether the records describe processes running now (live recording):
   * only then may a process's memory, or our own vDSO, be read. */
  gboolean      live;
  GBytes       *own_vdso;       /* this process's vDSO image; NULL until needed or none */
  gboolean      own_vdso_loaded;
  /* What the user should know about missing symbols (hp_symbolizer_get_notes) */
  GPtrArray    *notes;

  /* DEBUGINFOD_URLS was set: libdwfl asks those servers for the debug
   * info it finds nowhere else, and we follow its downloads. */
  gboolean      debuginfod;
  /* Microseconds a request may go without a byte before it is given up
   * ($DEBUGINFOD_TIMEOUT, else DEBUGINFOD_STALL_S), and whether one was:
   * then the servers are not waited for again (atomic). */
  gint64        debuginfod_stall_us;
  gint          debuginfod_stalled;
  HpSymbolFetchFunc fetch_func;
  gpointer      fetch_data;

  /* dwfl_module_addrinfo calls, for the tests (hp_symbolizer_get_symtab_searches) */
  guint         symtab_searches;
  /* symbol table entries those searches looked at (hp_symbolizer_get_symtab_steps) */
  guint64       symtab_steps;
};


static void
hp_module_free (HpModule *module)
{
  if (module == NULL)
    return;
  g_clear_pointer (&module->cache, g_hash_table_unref);
  g_clear_pointer (&module->code_scopes, g_hash_table_unref);
  g_clear_pointer (&module->plt, g_array_unref);
  g_clear_pointer (&module->scope_parents, g_hash_table_unref);
  g_clear_pointer (&module->scope_cus, g_hash_table_unref);
  g_clear_pointer (&module->eh_ranges, g_array_unref);
  g_clear_pointer (&module->syms, g_array_unref);
  g_clear_pointer (&module->sym_sections, g_array_unref);
  g_clear_pointer (&module->sym_bounds, g_array_unref);
  g_clear_pointer (&module->sym_answers, g_hash_table_unref);
  g_clear_pointer (&module->sym_sized[0], g_array_unref);
  g_clear_pointer (&module->sym_sized[1], g_array_unref);
  g_clear_pointer (&module->sym_sizeless[0], g_array_unref);
  g_clear_pointer (&module->sym_sizeless[1], g_array_unref);
  g_clear_pointer (&module->dwfl, dwfl_end);
  g_clear_pointer (&module->loads, g_array_unref);
  if (module->image_fd >= 0)
    close (module->image_fd);
  g_free (module->path);
  g_free (module->name);
  g_free (module->build_id);
  g_free (module->file);
  g_free (module);
}

static HpModule *
hp_module_new (const char *path,
               const char *name)
{
  HpModule *module = g_new0 (HpModule, 1);

  module->path = g_strdup (path);
  module->name = g_strdup (name);
  module->image_fd = -1;
  /* Results are allocated with their frames in one block (see
   * resolved_new), so the value destructor is a plain g_free. */
  module->cache = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  return module;
}

static HpFindDebuginfoFunc find_debuginfo;

static HpSymbolizer *
hp_symbolizer_new_internal (const char *kallsyms_path)
{
  HpSymbolizer *self = g_new0 (HpSymbolizer, 1);

  check_scopes = g_strcmp0 (g_getenv ("HOTPATH_CHECK_CACHES"), "1") == 0;
  self->modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) hp_module_free);
  self->strings = g_string_chunk_new (64 * 1024);
  self->kallsyms_path = g_strdup (kallsyms_path);
  self->kernel_symbols = g_array_new (FALSE, FALSE, sizeof (KernelSymbol));
  self->kernel_modules = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                (GDestroyNotify) hp_module_free);
  self->kernel = hp_module_new (KERNEL_MODULE_NAME, KERNEL_MODULE_NAME);
  self->kernel->is_kernel = TRUE;
  g_hash_table_insert (self->kernel_modules, self->kernel->name, self->kernel);
  self->locator = hp_file_locator_new ();
  self->build_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  self->callbacks.find_elf = dwfl_build_id_find_elf;
  self->callbacks.find_debuginfo = find_debuginfo;
  self->callbacks.section_address = dwfl_offline_section_address;
  self->callbacks.debuginfo_path = &self->debuginfo_path;
  self->notes = g_ptr_array_new_with_free_func (g_free);
  {
    const char *urls = g_getenv ("DEBUGINFOD_URLS");

    const char *timeout = g_getenv ("DEBUGINFOD_TIMEOUT");
    guint64 seconds = timeout != NULL ? g_ascii_strtoull (timeout, NULL, 10) : 0;

    self->debuginfod = urls != NULL && urls[0] != '\0';
    self->debuginfod_stall_us = (gint64) (seconds > 0 && seconds < 3600 ? seconds : DEBUGINFOD_STALL_S) * G_USEC_PER_SEC;
  }
  return self;
}

HpSymbolizer *
hp_symbolizer_new (void)
{
  HpSymbolizer *self = hp_symbolizer_new_internal ("/proc/kallsyms");
  g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "hotpath", "kallsyms", NULL);

  g_autofree char *copies = g_build_filename (g_get_user_cache_dir (), "hotpath", "debug", NULL);

  hp_symbolizer_set_kallsyms_cache (self, cache, "/proc/modules", "/proc/sys/kernel/random/boot_id");
  hp_symbolizer_set_debug_copies (self, copies);
  return self;
}

HpSymbolizer *
hp_symbolizer_new_with_kallsyms (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  return hp_symbolizer_new_internal (path);
}

void
hp_symbolizer_free (HpSymbolizer *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->modules);
  g_hash_table_unref (self->kernel_modules);
  g_array_unref (self->kernel_symbols);
  g_free (self->kallsyms_data);
  g_clear_pointer (&self->kallsyms_map, g_mapped_file_unref);
  g_free (self->kallsyms_path);
  g_free (self->kallsyms_cache);
  g_free (self->modules_path);
  g_free (self->boot_id_path);
  g_clear_pointer (&self->kernel_ranges, g_array_unref);
  g_string_chunk_free (self->strings);
  hp_file_locator_free (self->locator);
  g_hash_table_unref (self->build_ids);
  g_free (self->kernel_build_id);
  g_free (self->debuginfo_path);
  g_free (self->debug_copies);
  g_clear_pointer (&self->own_vdso, g_bytes_unref);
  g_ptr_array_unref (self->notes);
  g_free (self);
}

static const char *
intern (HpSymbolizer *self,
        const char   *str)
{
  if (str == NULL)
    return NULL;
  return g_string_chunk_insert_const (self->strings, str);
}

char *
hp_demangle (const char *name)
{
  char *demangled;
  char *ret;

  if (name == NULL)
    return NULL;
  /* Itanium C++ and Rust (legacy and v0) manglings all start with an
   * underscore; skipping the rest saves a libiberty call per C symbol. */
  if (name[0] != '_')
    return NULL;

  demangled = cplus_demangle (name, DMGL_PARAMS | DMGL_ANSI);
  if (demangled == NULL)
    return NULL;
  /* libiberty allocates with malloc; hand out GLib memory. */
  ret = g_strdup (demangled);
  free (demangled);
  return ret;
}

/* Interns the demangled form of @name, or @name itself. */
static const char *
intern_symbol_name (HpSymbolizer *self,
                    const char   *name)
{
  g_autofree char *demangled = NULL;

  if (name == NULL)
    return NULL;
  demangled = hp_demangle (name);
  return intern (self, demangled != NULL ? demangled : name);
}

/* Names that perf gives to mappings without a regular file behind them:
 * "[vdso]", "[heap]", "[stack]", "//anon", "/dev/zero", "/memfd:x (deleted)".
 * Opening them would at best fail and at worst block on a device. */
static gboolean
is_openable_path (const char *path)
{
  struct stat st;

  if (path[0] != '/' || path[1] == '/')
    return FALSE;
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return FALSE;
  return TRUE;
}

/* debuginfod ------------------------------------------------------------ */

/* libdebuginfod's functions, looked up in the copy libdw loaded. Hotpath
 * does not link libdebuginfod itself: it brings libcurl, GnuTLS, Kerberos
 * and LDAP with it, 25 more libraries whose loading took 26 ms of CPU at
 * the start of every hotpath-cli and window, 1.3 % of recording a 2 s
 * program. libdw opens it by itself (dlopen) when DEBUGINFOD_URLS is set,
 * which is the only time a client exists. */
typedef struct
{
  void *(*get_user_data) (debuginfod_client *client);
  void  (*set_user_data) (debuginfod_client *client, void *data);
  void  (*set_progressfn) (debuginfod_client *client, debuginfod_progressfn_t fn);
} DebuginfodApi;

static const DebuginfodApi *
debuginfod_api (void)
{
  static DebuginfodApi api;
  static gsize looked_up;

  if (g_once_init_enter (&looked_up))
    {
      /* RTLD_NOLOAD: libdw's copy (a client exists, so it is loaded);
       * never a second one. */
      void *lib = dlopen ("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD);

      if (lib != NULL)
        {
          *(void **) &api.get_user_data = dlsym (lib, "debuginfod_get_user_data");
          *(void **) &api.set_user_data = dlsym (lib, "debuginfod_set_user_data");
          *(void **) &api.set_progressfn = dlsym (lib, "debuginfod_set_progressfn");
        }
      if (lib == NULL || api.get_user_data == NULL || api.set_user_data == NULL || api.set_progressfn == NULL)
        {
          g_debug ("libdebuginfod: %s; its downloads are not followed", lib == NULL ? dlerror () : "functions missing");
          memset (&api, 0, sizeof api);
        }
      g_once_init_leave (&looked_up, 1);
    }
  return api.set_progressfn != NULL ? &api : NULL;
}

/* libdebuginfod calls this about once a second while it waits for the
 * servers: @done counts those calls until a server answers, then the
 * bytes received of @total. A slow download goes on (a recording must not
 * lose its names to a slow server), but a request that no server answers,
 * or whose download stops, for the stall time is given up: a server that
 * accepts the connection and never answers kept libdebuginfod waiting for
 * good (over 16 minutes with elfutils 0.188, deaf to Ctrl-C), and the
 * recording, import or window with it. After one such request the
 * servers are not waited for again by this symbolizer: every later
 * request is given up at once. */
static int
on_debuginfod_progress (debuginfod_client *client,
                        long               done,
                        long               total)
{
  HpModule *module = debuginfod_api ()->get_user_data (client);
  HpSymbolizer *self = module != NULL ? module->symbolizer : NULL;
  gint64 now = g_get_monotonic_time ();

  if (self == NULL)
    return 0;
  if (g_atomic_int_get (&self->debuginfod_stalled))
    return 1;
  if (module->fetch_changed == 0 || done < module->fetch_done)
    module->fetch_changed = now;  /* a new request */
  else if (total > 0 && done != module->fetch_done)
    module->fetch_changed = now;  /* bytes came */
  module->fetch_done = done;
  if (now - module->fetch_changed >= self->debuginfod_stall_us)
    {
      g_atomic_int_set (&self->debuginfod_stalled, 1);
      g_debug ("debuginfod: nothing for %s in %" G_GINT64_FORMAT " s; the servers are not asked again",
               module->path, self->debuginfod_stall_us / G_USEC_PER_SEC);
      return 1;
    }
  if (self->fetch_func != NULL)
    self->fetch_func (module->path,
                      done > 0 && total > 0 ? (guint64) done : 0,
                      total > 0 ? (guint64) total : 0,
                      self->fetch_data);
  return 0;
}

/* Decompressed copies of debug files ---------------------------------------
 *
 * Debian's -dbgsym files (and most distributions') compress their DWARF
 * sections, and libdw inflates every one of them when it opens the file:
 * for libc's 4 MB debug file, about 0.1 s of CPU in each recording whose
 * samples touch libc, more than the rest of the symbolizing of a short
 * recording together. The first recording that needs such a file keeps an
 * uncompressed copy in $XDG_CACHE_HOME/hotpath/debug/BUILD-ID.debug, and
 * later ones map the copy instead. A copy is found by the module's build id
 * and used only when its own build id says it is that file: the names are
 * the same as from the original. When a new copy is written, copies unused
 * for DEBUG_COPY_MAX_AGE days are removed, and then the least recently used
 * ones until all of them together take at most DEBUG_COPIES_MAX_TOTAL (a
 * copy is touched each time it is used). Files whose DWARF would inflate
 * beyond DEBUG_COPY_MAX_SIZE, half the total, are not copied: one of them
 * would otherwise push every other copy out.
 */

#define DEBUG_COPIES_MAX_TOTAL ((guint64) 512 * 1024 * 1024)
#define DEBUG_COPY_MAX_SIZE    (DEBUG_COPIES_MAX_TOTAL / 2)
#define DEBUG_COPY_MAX_AGE     30

void
hp_symbolizer_set_debug_copies (HpSymbolizer *self,
                                const char   *dir)
{
  g_return_if_fail (self != NULL);

  g_free (self->debug_copies);
  self->debug_copies = g_strdup (dir);
}

void
hp_symbolizer_set_debug_copies_limit (HpSymbolizer *self,
                                      guint64       max_total)
{
  g_return_if_fail (self != NULL);

  self->debug_copies_max = max_total;
}


/* The inflated size of @elf's compressed sections; 0: none compressed. */
static guint64
compressed_size (Elf *elf)
{
  Elf_Scn *scn = NULL;
  guint64 total = 0;

  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr_mem;
      GElf_Shdr *shdr = gelf_getshdr (scn, &shdr_mem);
      GElf_Chdr chdr;

      if (shdr == NULL || !(shdr->sh_flags & SHF_COMPRESSED))
        continue;
      if (gelf_getchdr (scn, &chdr) == NULL)
        return G_MAXUINT64;
      total += chdr.ch_size;
    }
  return total;
}

/* An fd of @path if it is an ELF file with build id @id; else -1. */
static int
open_with_build_id (const char          *path,
                    const unsigned char *id,
                    int                  id_len)
{
  const void *disk_id = NULL;
  gboolean same;
  Elf *elf;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

  if (fd < 0)
    return -1;
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  same = elf != NULL && elf_kind (elf) == ELF_K_ELF
         && dwelf_elf_gnu_build_id (elf, &disk_id) == id_len
         && memcmp (disk_id, id, id_len) == 0;
  if (elf != NULL)
    elf_end (elf);
  if (!same)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* Writes @in with its sections inflated to @path (through a temporary
 * file, so a reader never sees half a copy). */
static gboolean
write_decompressed (Elf        *in,
                    const char *path)
{
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  GElf_Ehdr ehdr_mem;
  GElf_Ehdr *ehdr;
  size_t phnum = 0;
  size_t shstrndx = 0;
  gboolean ok = FALSE;
  Elf_Scn *scn = NULL;
  Elf *out = NULL;
  int fd;

  ehdr = gelf_getehdr (in, &ehdr_mem);
  if (ehdr == NULL || elf_getphdrnum (in, &phnum) != 0 || elf_getshdrstrndx (in, &shstrndx) != 0
      || shstrndx >= SHN_LORESERVE)
    return FALSE;

  fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    return FALSE;
  out = elf_begin (fd, ELF_C_WRITE, NULL);
  if (out == NULL || gelf_newehdr (out, gelf_getclass (in)) == 0)
    goto out;
  if (phnum > 0)
    {
      if (gelf_newphdr (out, phnum) == 0)
        goto out;
      for (size_t i = 0; i < phnum; i++)
        {
          GElf_Phdr phdr;

          if (gelf_getphdr (in, i, &phdr) == NULL || !gelf_update_phdr (out, i, &phdr))
            goto out;
        }
    }

  while ((scn = elf_nextscn (in, scn)) != NULL)
    {
      Elf_Scn *copy = elf_newscn (out);
      GElf_Shdr shdr;
      Elf_Data *data = NULL;

      if (copy == NULL || gelf_getshdr (scn, &shdr) == NULL)
        goto out;
      if ((shdr.sh_flags & SHF_COMPRESSED) != 0
          && (elf_compress (scn, 0, 0) < 0 || gelf_getshdr (scn, &shdr) == NULL))
        goto out;
      while ((data = elf_getdata (scn, data)) != NULL)
        {
          Elf_Data *copied = elf_newdata (copy);

          if (copied == NULL)
            goto out;
          copied->d_buf = data->d_buf;
          copied->d_type = data->d_type;
          copied->d_size = data->d_size;
          copied->d_off = data->d_off;
          copied->d_align = data->d_align;
          copied->d_version = data->d_version;
        }
      if (!gelf_update_shdr (copy, &shdr))
        goto out;
    }

  /* libelf lays the file out anew: offsets and counts are its own. */
  ehdr->e_shstrndx = shstrndx;
  if (!gelf_update_ehdr (out, ehdr) || elf_update (out, ELF_C_WRITE) < 0)
    goto out;
  ok = TRUE;

out:
  if (!ok)
    g_debug ("%s: no decompressed copy: %s", path, elf_errmsg (-1));
  if (out != NULL)
    elf_end (out);
  if (close (fd) != 0)
    ok = FALSE;
  if (ok && rename (tmp, path) != 0)
    ok = FALSE;
  if (!ok)
    g_unlink (tmp);
  return ok;
}

typedef struct
{
  char   *path;
  gint64  mtime;
  guint64 size;
} DebugCopy;

static void
debug_copy_clear (DebugCopy *copy)
{
  g_free (copy->path);
}

/* Newest first. */
static int
compare_debug_copies (gconstpointer a,
                      gconstpointer b)
{
  const DebugCopy *ca = a, *cb = b;

  if (ca->mtime != cb->mtime)
    return ca->mtime > cb->mtime ? -1 : 1;
  return g_strcmp0 (ca->path, cb->path);
}

/* Run after the copy @kept is written: copies nobody used for a month go,
 * then the least recently used ones until they fit in @max_total bytes
 * together with @kept. A temporary file that a killed recording left
 * behind goes after a day. */
static void
prune_debug_copies (const char *dir,
                    const char *kept,
                    guint64     max_total)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  g_autoptr(GArray) copies = g_array_new (FALSE, FALSE, sizeof (DebugCopy));
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gint64 limit = now - DEBUG_COPY_MAX_AGE * 24 * 3600;
  guint64 total = 0;
  const char *name;
  struct stat kept_st = { 0 };

  if (listing == NULL)
    return;
  if (lstat (kept, &kept_st) == 0)
    total = (guint64) kept_st.st_size;
  g_array_set_clear_func (copies, (GDestroyNotify) debug_copy_clear);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      struct stat st;

      if (lstat (path, &st) != 0 || !S_ISREG (st.st_mode)
          || (st.st_ino == kept_st.st_ino && st.st_dev == kept_st.st_dev))
        continue;
      if (g_str_has_suffix (name, ".debug"))
        {
          DebugCopy copy = { NULL, st.st_mtime, (guint64) st.st_size };

          if (st.st_mtime < limit)
            {
              g_unlink (path);
              continue;
            }
          copy.path = g_steal_pointer (&path);
          g_array_append_val (copies, copy);
        }
      else if (strstr (name, ".debug.") != NULL && st.st_mtime < now - 24 * 3600)
        g_unlink (path);
    }

  g_array_sort (copies, compare_debug_copies);
  for (guint i = 0; i < copies->len; i++)
    {
      const DebugCopy *copy = &g_array_index (copies, DebugCopy, i);

      if (total + copy->size > max_total)
        {
          g_debug ("%s: removed, the decompressed debug copies are over %" G_GUINT64_FORMAT " bytes",
                   copy->path, max_total);
          g_unlink (copy->path);
        }
      else
        total += copy->size;
    }
}

/* Whether a search of the debug directories by name (the second step of
 * dwfl_standard_find_debuginfo, after the build id) could find a file:
 * whether any of the names it may try exists, other than the main file.
 * A superset of them, after find_debuginfo_in_path() in libdwfl (elfutils
 * 0.188), for the main file's path as given and resolved; entries of the
 * path are separated by ':', each may start with '+' or '-' (CRC check):
 *   an empty entry: the main file's directory, and its .dwz (dwz files);
 *   a relative one: that folder in the main file's directory;
 *   an absolute one: the main file's directory below it and then each
 *     shorter tail of that directory (/D/a/b/c: D/a/b/c, D/b/c, D/c, D),
 *     and D/.dwz;
 * with the debuglink's name and its base name, or without a debuglink
 * NAME.debug and, except in the main file's directory, NAME itself.
 *
 * libdwfl (elfutils 0.188) ends that search, when it finds nothing, by
 * loading libdebuginfod and with it libcurl, GnuTLS and Kerberos
 * (dlopen), whether DEBUGINFOD_URLS is set or not: 6-8 ms of CPU in
 * every recording of a stripped program, and in every benchmark run
 * whose wrapper has no debug information. When no server is set and no
 * name exists, the search is skipped: it could only have failed. */
static gboolean
debug_name_exists (const char        *dir,
                   const char        *name,
                   const struct stat *main_stat)
{
  g_autofree char *candidate = g_build_filename (dir, name, NULL);
  struct stat st;

  /* libdwfl passes over the main file by another name (try_open) */
  return stat (candidate, &st) == 0
         && (main_stat == NULL || st.st_dev != main_stat->st_dev || st.st_ino != main_stat->st_ino);
}

static gboolean
debug_file_may_exist (const char *debuginfo_path,
                      const char *file_name,
                      const char *debuglink_file)
{
  g_autofree char *resolved = file_name != NULL ? realpath (file_name, NULL) : NULL;
  const char *mains[] = { file_name, resolved };
  g_autofree char *link_base = debuglink_file != NULL ? g_path_get_basename (debuglink_file) : NULL;
  g_auto(GStrv) entries = NULL;
  const char *path = debuginfo_path != NULL ? debuginfo_path : ":.debug:/usr/lib/debug";
  struct stat main_stat;
  gboolean have_main_stat;

  if (debuglink_file != NULL && g_path_is_absolute (debuglink_file)
      && g_file_test (debuglink_file, G_FILE_TEST_EXISTS))
    return TRUE;
  if (debuglink_file == NULL && file_name == NULL)
    return FALSE;
  have_main_stat = file_name != NULL && stat (file_name, &main_stat) == 0;

  /* a leading + or - says whether to check CRCs */
  if (path[0] == '+' || path[0] == '-')
    path++;
  entries = g_strsplit (path, ":", -1);
  for (guint m = 0; m < G_N_ELEMENTS (mains); m++)
    {
      g_autofree char *dir = NULL;
      g_autofree char *base = NULL;
      g_autofree char *base_debug = NULL;
      const char *names[2];
      /* the names tried in the main file's directory, and elsewhere */
      const char *own_dir_names[2];

      if (mains[m] == NULL)
        continue;
      dir = g_path_get_dirname (mains[m]);
      base = g_path_get_basename (mains[m]);
      if (debuglink_file != NULL)
        {
          names[0] = own_dir_names[0] = debuglink_file;
          names[1] = own_dir_names[1] = link_base;
        }
      else
        {
          base_debug = g_strconcat (base, ".debug", NULL);
          names[0] = own_dir_names[0] = base_debug;
          names[1] = base;
          own_dir_names[1] = base_debug;
        }

      for (guint e = 0; entries[e] != NULL; e++)
        {
          const char *entry = entries[e];
          g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
          const char * const *try_names = names;

          if (entry[0] == '+' || entry[0] == '-')
            entry++;
          if (entry[0] == '\0')
            {
              g_ptr_array_add (dirs, g_strdup (dir));
              g_ptr_array_add (dirs, g_build_filename (dir, ".dwz", NULL));
              try_names = own_dir_names;
            }
          else if (!g_path_is_absolute (entry))
            g_ptr_array_add (dirs, g_build_filename (dir, entry, NULL));
          else
            {
              /* the whole directory and each shorter tail of it */
              for (const char *tail = dir; tail != NULL; tail = strchr (tail + 1, '/'))
                g_ptr_array_add (dirs, g_build_filename (entry, tail, NULL));
              g_ptr_array_add (dirs, g_strdup (entry));
              g_ptr_array_add (dirs, g_build_filename (entry, ".dwz", NULL));
            }
          for (guint d = 0; d < dirs->len; d++)
            for (guint n = 0; n < 2; n++)
              if (debug_name_exists (g_ptr_array_index (dirs, d), try_names[n],
                                     have_main_stat ? &main_stat : NULL))
                return TRUE;
        }
    }
  return FALSE;
}

/* dwfl_standard_find_debuginfo, but a debug file with compressed DWARF
 * is served from its decompressed copy (made the first time), and without
 * libdebuginfod when no server is set (see debug_file_may_exist). */
static int
find_debuginfo (Dwfl_Module  *mod,
                void        **userdata,
                const char   *modname,
                Dwarf_Addr    base,
                const char   *file_name,
                const char   *debuglink_file,
                GElf_Word     debuglink_crc,
                char        **debuginfo_file_name)
{
  HpModule *module = userdata != NULL ? *userdata : NULL;
  const unsigned char *id = NULL;
  GElf_Addr id_vaddr;
  g_autofree char *copy = NULL;
  guint64 max_total;
  guint64 size;
  Elf *elf;
  int id_len = 0;
  int fd;

  /* The vDSO in memory has only its exported symbols: the image it was
   * made from, with the same build id, names its static functions too. */
  if (module != NULL && module->locator != NULL && strcmp (module->path, VDSO_MODULE_NAME) == 0
      && (id_len = dwfl_module_build_id (mod, &id, &id_vaddr)) > 0)
    {
      g_autoptr(GPtrArray) images = hp_file_locator_find_vdso_images (module->locator);

      for (guint i = 0; i < images->len; i++)
        {
          const char *image = g_ptr_array_index (images, i);

          fd = open_with_build_id (image, id, id_len);
          if (fd >= 0)
            {
              *debuginfo_file_name = strdup (image);
              return fd;
            }
        }
    }

  if (module != NULL && module->symbolizer != NULL && module->symbolizer->debug_copies != NULL
      && (id_len = dwfl_module_build_id (mod, &id, &id_vaddr)) > 0)
    {
      g_autofree char *hex = hp_build_id_to_hex (id, id_len);

      copy = g_strconcat (module->symbolizer->debug_copies, G_DIR_SEPARATOR_S, hex, ".debug", NULL);
      fd = open_with_build_id (copy, id, id_len);
      if (fd >= 0)
        {
          /* used: kept from pruning */
          utimensat (AT_FDCWD, copy, NULL, 0);
          *debuginfo_file_name = g_steal_pointer (&copy);
          return fd;
        }
    }

  if (module != NULL)
    module->fetch_changed = 0;  /* a debuginfod request may start */
  if (module != NULL && module->symbolizer != NULL && !module->symbolizer->debuginfod)
    {
      /* the first step of the standard search, then the second only
       * where it could find something */
      fd = dwfl_build_id_find_debuginfo (mod, userdata, modname, base, file_name,
                                         debuglink_file, debuglink_crc, debuginfo_file_name);
      if (fd < 0 && !debug_file_may_exist (module->symbolizer->debuginfo_path, file_name, debuglink_file))
        {
          errno = 0;
          return -1;
        }
      if (fd < 0)
        fd = dwfl_standard_find_debuginfo (mod, userdata, modname, base, file_name,
                                           debuglink_file, debuglink_crc, debuginfo_file_name);
    }
  else
    fd = dwfl_standard_find_debuginfo (mod, userdata, modname, base, file_name,
                                       debuglink_file, debuglink_crc, debuginfo_file_name);
  /* no copies kept, or none to make */
  if (fd < 0 || copy == NULL)
    return fd;

  elf = elf_begin (fd, ELF_C_READ, NULL);
  size = elf != NULL && elf_kind (elf) == ELF_K_ELF ? compressed_size (elf) : 0;
  max_total = module->symbolizer->debug_copies_max > 0 ? module->symbolizer->debug_copies_max
                                                      : DEBUG_COPIES_MAX_TOTAL;
  if (size > 0 && size <= MIN (DEBUG_COPY_MAX_SIZE, max_total / 2)
      && g_mkdir_with_parents (module->symbolizer->debug_copies, 0700) == 0)
    {
      if (write_decompressed (elf, copy))
        {
          int copy_fd;

          prune_debug_copies (module->symbolizer->debug_copies, copy, max_total);
          copy_fd = open_with_build_id (copy, id, id_len);
          if (copy_fd >= 0)
            {
              close (fd);
              fd = copy_fd;
              free (*debuginfo_file_name);
              *debuginfo_file_name = strdup (copy);
            }
        }
    }
  if (elf != NULL)
    elf_end (elf);
  return fd;
}

/* libdwfl's dwfl_standard_find_debuginfo asks the servers of
 * DEBUGINFOD_URLS, through libdebuginfod and its cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), for debug
 * info it finds nowhere on disk; it does so on the thread that
 * symbolizes, never the window's. Its client for @dwfl reports to us. */
static void
follow_debuginfod (HpSymbolizer *self,
                   HpModule     *module,
                   Dwfl         *dwfl)
{
  debuginfod_client *client = dwfl_get_debuginfod_client (dwfl);
  const DebuginfodApi *api;

  if (client == NULL || (api = debuginfod_api ()) == NULL)
    return;
  api->set_user_data (client, module);
  api->set_progressfn (client, on_debuginfod_progress);
}

/* Opens @file for @module; FALSE when it is not usable or its build id
 * differs from @build_id (when given). */
static gboolean
hp_module_try_open (HpSymbolizer *self,
                    HpModule     *module,
                    const char   *file,
                    const guint8 *build_id,
                    gsize         build_id_len)
{
  g_autoptr(GArray) loads = NULL;
  const unsigned char *disk_id = NULL;
  GElf_Addr id_vaddr;
  Dwfl_Module *dwfl_module;
  Dwarf_Addr bias = 0;
  Dwfl *dwfl;
  size_t phnum;
  Elf *elf;
  int disk_id_len;

  if (!is_openable_path (file))
    return FALSE;

  dwfl = dwfl_begin (&self->callbacks);
  if (dwfl == NULL)
    return FALSE;

  /* add_p_vaddr with base 0 gives bias 0 for ET_DYN and ET_EXEC alike, so
   * libdw addresses are the ELF virtual addresses. */
  dwfl_report_begin (dwfl);
  dwfl_module = dwfl_report_elf (dwfl, module->name, file, -1, 0, true);
  dwfl_report_end (dwfl, NULL, NULL);
  if (dwfl_module == NULL)
    {
      g_debug ("%s: not usable for symbols: %s", file, dwfl_errmsg (-1));
      dwfl_end (dwfl);
      return FALSE;
    }

  elf = dwfl_module_getelf (dwfl_module, &bias);
  if (elf == NULL)
    {
      dwfl_end (dwfl);
      return FALSE;
    }
  {
    void **userdata = NULL;

    /* find_debuginfo finds its symbolizer through the module */
    if (dwfl_module_info (dwfl_module, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) != NULL)
      *userdata = module;
  }
  if (self->debuginfod)
    follow_debuginfod (self, module, dwfl);

  disk_id_len = dwfl_module_build_id (dwfl_module, &disk_id, &id_vaddr);
  if (build_id != NULL)
    {
      if (disk_id_len <= 0
          || (gsize) disk_id_len != build_id_len
          || memcmp (disk_id, build_id, build_id_len) != 0)
        {
          /* A rebuilt or replaced file: its symbols would be confidently
           * wrong, which is worse than none. */
          g_debug ("%s: build id differs from the recording, not using it", file);
          dwfl_end (dwfl);
          return FALSE;
        }
    }
  else if (disk_id_len > 0)
    {
      module->build_id = hp_build_id_to_hex (disk_id, disk_id_len);
    }

  loads = g_array_new (FALSE, FALSE, sizeof (LoadSegment));
  if (elf_getphdrnum (elf, &phnum) == 0)
    {
      for (size_t i = 0; i < phnum; i++)
        {
          GElf_Phdr phdr_mem;
          GElf_Phdr *phdr = gelf_getphdr (elf, i, &phdr_mem);

          if (phdr != NULL && phdr->p_type == PT_LOAD)
            {
              LoadSegment seg = { phdr->p_offset, phdr->p_filesz, phdr->p_vaddr };

              g_array_append_val (loads, seg);
            }
        }
    }

  module->dwfl = dwfl;
  module->dwfl_module = dwfl_module;
  module->bias = bias;
  module->loads = g_steal_pointer (&loads);
  module->file = g_strdup (file);
  return TRUE;
}

static void
hp_module_open (HpSymbolizer *self,
                HpModule     *module,
                const guint8 *build_id,
                gsize         build_id_len)
{
  g_autoptr(GPtrArray) candidates = NULL;

  if (build_id == NULL || build_id_len == 0)
    {
      GBytes *known = g_hash_table_lookup (self->build_ids, module->path);

      build_id = known ? g_bytes_get_data (known, &build_id_len) : NULL;
    }
  if (build_id != NULL && build_id_len > 0)
    module->build_id = hp_build_id_to_hex (build_id, build_id_len);
  else
    build_id = NULL;

  candidates = hp_file_locator_find (self->locator, module->path, module->build_id,
                                     HP_FILE_LOCATE_DEBUG_INFO);
  for (guint i = 0; i < candidates->len; i++)
    if (hp_module_try_open (self, module, g_ptr_array_index (candidates, i), build_id, build_id_len))
      return;
}

HpModule *
hp_symbolizer_get_module (HpSymbolizer *self,
                          const char   *path,
                          const guint8 *build_id,
                          gsize         build_id_len)
{
  g_autofree char *key = NULL;
  g_autofree char *hex = NULL;
  HpModule *module;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  /* perf names the kernel image mapping "[kernel.kallsyms]_text". */
  if (g_str_has_prefix (path, KERNEL_MODULE_NAME))
    return self->kernel;

  if (build_id == NULL)
    build_id_len = 0;

  /* The build id is part of the key: the same path seen with two build ids
   * (a program rebuilt during a recording) are two different files. */
  hex = hp_build_id_to_hex (build_id, build_id_len);
  key = g_strconcat (path, "\n", hex, NULL);
  module = g_hash_table_lookup (self->modules, key);
  if (module != NULL)
    return module;

  {
    g_autofree char *name = g_path_get_basename (path);

    module = hp_module_new (path, path[0] == '/' ? name : path);
  }
  module->locator = self->locator;
  module->symbolizer = self;
  hp_module_open (self, module, build_id, build_id_len);
  g_hash_table_insert (self->modules, g_steal_pointer (&key), module);
  return module;
}

/* The vDSO ------------------------------------------------------------- */

/* The build id in the notes of an ELF image in memory; NULL if none. */
static char *
image_build_id (GBytes *image)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (image, &size);
  g_autofree char *copy = g_memdup2 (data, size);
  const void *id = NULL;
  char *hex = NULL;
  Elf *elf = elf_memory (copy, size);
  ssize_t len;

  if (elf == NULL)
    return NULL;
  if (elf_kind (elf) == ELF_K_ELF && (len = dwelf_elf_gnu_build_id (elf, &id)) > 0)
    hex = hp_build_id_to_hex (id, len);
  elf_end (elf);
  return hex;
}

/* Our own vDSO: the kernel maps the same image into every process of
 * the same ABI, so it describes a profiled program's when the build ids
 * match. The size comes from /proc/self/maps (AT_SYSINFO_EHDR gives only
 * the start). */
static GBytes *
get_own_vdso (HpSymbolizer *self)
{
  g_autofree char *maps = NULL;
  guint64 base;

  if (self->own_vdso_loaded)
    return self->own_vdso;
  self->own_vdso_loaded = TRUE;
  base = getauxval (AT_SYSINFO_EHDR);
  if (base == 0 || !g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    return NULL;
  for (char *line = maps; line != NULL && *line != '\0';)
    {
      char *eol = strchr (line, '\n');
      unsigned long long start, end;

      if (eol != NULL)
        *eol = '\0';
      if (sscanf (line, "%llx-%llx", &start, &end) == 2 && start == base && end > start
          && end - start <= VDSO_MAX_SIZE && strstr (line, VDSO_MODULE_NAME) != NULL)
        self->own_vdso = g_bytes_new (GSIZE_TO_POINTER (base), end - start);
      line = eol != NULL ? eol + 1 : NULL;
    }
  return self->own_vdso;
}

/* The [vdso] mapping of a running process, read from its memory; NULL
 * when it is gone or we may not read it (ptrace access rules). */
static GBytes *
read_process_vdso (guint32 pid,
                   guint64 start,
                   guint64 size)
{
  g_autofree char *path = g_strdup_printf ("/proc/%u/mem", pid);
  g_autofree guint8 *buf = NULL;
  ssize_t n;
  int fd;

  if (size == 0 || size > VDSO_MAX_SIZE || start > G_MAXINT64)
    return NULL;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  buf = g_malloc (size);
  n = pread (fd, buf, size, (off_t) start);
  close (fd);
  if (n != (ssize_t) size)
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&buf), size);
}

/* Puts @image into a memfd that @module owns and opens it from there:
 * libdwfl and the unwinder open files by name. */
static gboolean
hp_module_open_image (HpSymbolizer *self,
                      HpModule     *module,
                      GBytes       *image)
{
  g_autofree char *file = NULL;
  gsize size = 0;
  const char *data = g_bytes_get_data (image, &size);
  int fd = memfd_create ("hotpath-vdso", MFD_CLOEXEC);

  if (fd < 0)
    {
      g_debug ("cannot keep the vDSO image: %s", g_strerror (errno));
      return FALSE;
    }
  if (write (fd, data, size) != (ssize_t) size)
    {
      close (fd);
      return FALSE;
    }
  module->image_fd = fd;
  file = g_strdup_printf ("/proc/self/fd/%d", fd);
  return hp_module_try_open (self, module, file, NULL, 0);
}

static void
add_note (HpSymbolizer *self,
          char         *note)
{
  for (guint i = 0; i < self->notes->len; i++)
    if (strcmp (g_ptr_array_index (self->notes, i), note) == 0)
      {
        g_free (note);
        return;
      }
  g_ptr_array_add (self->notes, note);
}

HpModule *
hp_symbolizer_get_vdso_module (HpSymbolizer *self,
                               guint32       pid,
                               guint64       start,
                               guint64       size,
                               const guint8 *build_id,
                               gsize         build_id_len)
{
  g_autoptr(GBytes) image = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  HpModule *module;

  g_return_val_if_fail (self != NULL, NULL);

  if (build_id == NULL || build_id_len == 0)
    {
      GBytes *known = g_hash_table_lookup (self->build_ids, VDSO_MODULE_NAME);

      build_id = known ? g_bytes_get_data (known, &build_id_len) : NULL;
    }
  if (build_id != NULL && build_id_len > 0)
    hex = hp_build_id_to_hex (build_id, build_id_len);

  /* Where the image is, best first: the process itself (live), perf's
   * build-id cache (DIR/[vdso]/ID/vdso, where perf record saves the
   * image), our own when it is the same. */
  if (self->live)
    {
      image = read_process_vdso (pid, start, size);
      if (image != NULL)
        {
          g_free (hex);
          hex = image_build_id (image);
        }
    }
  if (image == NULL && hex != NULL)
    {
      g_autoptr(GPtrArray) dirs = hp_file_locator_get_build_id_dirs (self->locator);

      for (guint i = 0; i < dirs->len && file == NULL; i++)
        {
          char *candidate = g_build_filename (g_ptr_array_index (dirs, i), VDSO_MODULE_NAME, hex, "vdso", NULL);

          if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
            file = candidate;
          else
            g_free (candidate);
        }
    }
  if (image == NULL && file == NULL)
    {
      GBytes *own = get_own_vdso (self);
      g_autofree char *own_hex = own != NULL ? image_build_id (own) : NULL;

      /* Live, a process that is gone already had the image we have, if it
       * had our ABI: a mapping of another size is the 32-bit one. */
      if (own != NULL && (hex != NULL ? g_strcmp0 (own_hex, hex) == 0
                                      : self->live && g_bytes_get_size (own) == size))
        {
          image = g_bytes_ref (own);
          g_free (hex);
          hex = g_steal_pointer (&own_hex);
        }
    }

  key = g_strconcat (VDSO_MODULE_NAME, "\n", hex, NULL);
  module = g_hash_table_lookup (self->modules, key);
  if (module != NULL)
    return module;

  module = hp_module_new (VDSO_MODULE_NAME, VDSO_MODULE_NAME);
  module->locator = self->locator;
  module->symbolizer = self;
  if (image != NULL)
    hp_module_open_image (self, module, image);
  else if (file != NULL)
    hp_module_try_open (self, module, file, build_id, build_id_len);
  else if (hex != NULL)
    add_note (self, g_strdup_printf (_("The recording's vDSO (build id %s) is neither in perf's build-id cache "
                                       "(~/.debug/[vdso]/%s/vdso) nor this machine's: its frames stay addresses."),
                                     hex, hex));
  else
    add_note (self, g_strdup (_("The recording names no build id for its vDSO, so no image of it can be "
                                "trusted: its frames stay addresses.")));
  if (module->build_id == NULL)
    module->build_id = g_steal_pointer (&hex);
  g_hash_table_insert (self->modules, g_steal_pointer (&key), module);
  return module;
}

void
hp_symbolizer_set_live (HpSymbolizer *self,
                        gboolean      live)
{
  g_return_if_fail (self != NULL);

  self->live = live;
}

void
hp_symbolizer_set_fetch_func (HpSymbolizer     *self,
                              HpSymbolFetchFunc func,
                              gpointer          user_data)
{
  g_return_if_fail (self != NULL);

  self->fetch_func = func;
  self->fetch_data = user_data;
}

const GPtrArray *
hp_symbolizer_get_notes (HpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->notes;
}

guint
hp_symbolizer_get_symtab_searches (HpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->symtab_searches;
}

guint64
hp_symbolizer_get_symtab_steps (HpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->symtab_steps;
}

static void
update_debuginfo_path (HpSymbolizer *self)
{
  g_free (self->debuginfo_path);
  self->debuginfo_path = hp_file_locator_get_debuginfo_path (self->locator);
}

void
hp_symbolizer_set_sysroot (HpSymbolizer *self,
                           const char   *sysroot)
{
  g_return_if_fail (self != NULL);

  hp_file_locator_set_sysroot (self->locator, sysroot);
  update_debuginfo_path (self);
}

void
hp_symbolizer_add_debug_dir (HpSymbolizer *self,
                             const char   *dir)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (dir != NULL);

  hp_file_locator_add_debug_dir (self->locator, dir);
  update_debuginfo_path (self);
}

void
hp_symbolizer_add_build_id (HpSymbolizer *self,
                            const char   *path,
                            const guint8 *build_id,
                            gsize         build_id_len)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (path != NULL);

  if (build_id == NULL || build_id_len == 0)
    return;
  if (g_str_has_prefix (path, KERNEL_MODULE_NAME))
    {
      g_free (self->kernel_build_id);
      self->kernel_build_id = hp_build_id_to_hex (build_id, build_id_len);
      g_free (self->kernel->build_id);
      self->kernel->build_id = g_strdup (self->kernel_build_id);
      return;
    }
  g_hash_table_replace (self->build_ids, g_strdup (path), g_bytes_new (build_id, build_id_len));
}

static HpResolvedAddress *
resolved_new (HpModule *module,
              guint64   offset,
              guint     n_frames)
{
  HpResolvedAddress *resolved;

  /* One block for the result and its frames: one allocation per distinct
   * address, freed by the cache with g_free. */
  resolved = g_malloc0 (sizeof *resolved + n_frames * sizeof (HpSymbolFrame));
  resolved->module = module;
  resolved->offset = offset;
  resolved->function_start = offset;
  resolved->n_frames = n_frames;
  resolved->frames = (HpSymbolFrame *) (resolved + 1);
  return resolved;
}

static gboolean
offset_to_vaddr (const HpModule *module,
                 guint64         offset,
                 guint64        *vaddr)
{
  for (guint i = 0; i < module->loads->len; i++)
    {
      const LoadSegment *seg = &g_array_index (module->loads, LoadSegment, i);

      if (offset >= seg->offset && offset - seg->offset < seg->filesz)
        {
          *vaddr = offset - seg->offset + seg->vaddr;
          return TRUE;
        }
    }
  return FALSE;
}

/* A DIE by its file and offset: a DIE reached through DW_AT_abstract_origin
 * or DW_AT_specification may sit in a supplementary file (dwz). */
typedef struct {
  Dwarf     *dbg;
  Dwarf_Off  offset;
} DieKey;

typedef struct {
  DieKey key;
  DieKey parent;
} ScopeEntry;

static guint
die_key_hash (gconstpointer p)
{
  const DieKey *key = p;

  return g_direct_hash (key->dbg) ^ (guint) (key->offset * 2654435761u) ^ (guint) (key->offset >> 32);
}

static gboolean
die_key_equal (gconstpointer a,
               gconstpointer b)
{
  const DieKey *x = a, *y = b;

  return x->dbg == y->dbg && x->offset == y->offset;
}

static DieKey
die_key (Dwarf_Die *die)
{
  return (DieKey) { dwarf_cu_getdwarf (die->cu), dwarf_dieoffset (die) };
}

static gboolean
die_is_scope (int tag)
{
  return tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type
         || tag == DW_TAG_union_type || tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block;
}

/* Records the parent of every scope under @parent: libdw has no way up
 * from a DIE, and a walk of the CU per name (dwarf_getscopes_die) would
 * cost a whole C++ CU each time. */
static void
scope_walk (HpModule  *module,
            Dwarf_Die *parent,
            guint      depth)
{
  DieKey parent_key = die_key (parent);
  Dwarf_Die child;

  if (depth > 64 || dwarf_child (parent, &child) != 0)
    return;
  do
    {
      ScopeEntry *entry;

      if (!die_is_scope (dwarf_tag (&child)))
        continue;
      entry = g_new (ScopeEntry, 1);
      entry->key = die_key (&child);
      entry->parent = parent_key;
      g_hash_table_replace (module->scope_parents, &entry->key, entry);
      scope_walk (module, &child, depth + 1);
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

/* The scope that holds @die (a namespace, class, function or block), or
 * FALSE at the top of its CU. */
static gboolean
scope_parent (HpModule  *module,
              Dwarf_Die *die,
              Dwarf_Die *parent)
{
  Dwarf_Die cu;
  DieKey cu_key, key;
  const ScopeEntry *entry;

  if (dwarf_diecu (die, &cu, NULL, NULL) == NULL)
    return FALSE;
  if (module->scope_parents == NULL)
    {
      module->scope_parents = g_hash_table_new_full (die_key_hash, die_key_equal, NULL, g_free);
      module->scope_cus = g_hash_table_new_full (die_key_hash, die_key_equal, g_free, NULL);
    }
  cu_key = die_key (&cu);
  if (!g_hash_table_contains (module->scope_cus, &cu_key))
    {
      g_hash_table_add (module->scope_cus, g_memdup2 (&cu_key, sizeof cu_key));
      scope_walk (module, &cu, 0);
    }
  key = die_key (die);
  entry = g_hash_table_lookup (module->scope_parents, &key);
  if (entry == NULL || die_key_equal (&entry->parent, &cu_key))
    return FALSE;
  return dwarf_offdie (entry->parent.dbg, entry->parent.offset, parent) != NULL;
}

/* The DIE that declares @die: a concrete instance's abstract origin, a
 * definition's declaration (in its class). Its parent is the scope. */
static void
die_declaration (Dwarf_Die *die,
                 Dwarf_Die *decl)
{
  *decl = *die;
  for (guint i = 0; i < 8; i++)
    {
      Dwarf_Attribute attr_mem;
      Dwarf_Attribute *attr = dwarf_attr (decl, DW_AT_abstract_origin, &attr_mem);

      if (attr == NULL)
        attr = dwarf_attr (decl, DW_AT_specification, &attr_mem);
      if (attr == NULL || dwarf_formref_die (attr, decl) == NULL)
        return;
    }
}

static gboolean
die_is_cplusplus (Dwarf_Die *die)
{
  Dwarf_Die cu;

  if (dwarf_diecu (die, &cu, NULL, NULL) == NULL)
    return FALSE;
  switch (dwarf_srclang (&cu))
    {
    case DW_LANG_C_plus_plus:
    case DW_LANG_C_plus_plus_03:
    case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14:
      return TRUE;
    default:
      return FALSE;
    }
}

static void append_scope        (HpSymbolizer *self, HpModule *module, Dwarf_Die *die, GString *name, guint depth);
static void append_function_name (HpSymbolizer *self, HpModule *module, Dwarf_Die *die, GString *name, guint depth);

/* A type as the demangler writes it in a parameter list ("long",
 * "std::string const&"), for the name of a lambda. */
static void
append_type (HpSymbolizer *self,
             HpModule     *module,
             Dwarf_Die    *die,
             GString      *name,
             guint         depth)
{
  static const char *const base[][2] = {
    { "long int", "long" }, { "long unsigned int", "unsigned long" },
    { "long long int", "long long" }, { "long long unsigned int", "unsigned long long" },
    { "short int", "short" }, { "short unsigned int", "unsigned short" }, { "_Bool", "bool" },
  };
  Dwarf_Attribute attr_mem;
  Dwarf_Die type;
  const char *type_name;

  if (depth > 16 || dwarf_formref_die (dwarf_attr_integrate (die, DW_AT_type, &attr_mem), &type) == NULL)
    {
      g_string_append (name, "void");
      return;
    }
  switch (dwarf_tag (&type))
    {
    case DW_TAG_pointer_type:
      append_type (self, module, &type, name, depth + 1);
      g_string_append_c (name, '*');
      return;
    case DW_TAG_reference_type:
      append_type (self, module, &type, name, depth + 1);
      g_string_append_c (name, '&');
      return;
    case DW_TAG_rvalue_reference_type:
      append_type (self, module, &type, name, depth + 1);
      g_string_append (name, "&&");
      return;
    case DW_TAG_const_type:
      append_type (self, module, &type, name, depth + 1);
      g_string_append (name, " const");
      return;
    case DW_TAG_volatile_type:
      append_type (self, module, &type, name, depth + 1);
      g_string_append (name, " volatile");
      return;
    default:
      break;
    }
  type_name = dwarf_diename (&type);
  if (dwarf_tag (&type) == DW_TAG_base_type && type_name != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (base); i++)
        if (strcmp (type_name, base[i][0]) == 0)
          type_name = base[i][1];
      g_string_append (name, type_name);
      return;
    }
  append_scope (self, module, &type, name, depth + 1);
  g_string_append (name, type_name != NULL ? type_name : "{unnamed type}");
}

/* A lambda's closure type: a class without a name, with an operator().
 * Its operator() in @call. */
static gboolean
die_is_lambda (Dwarf_Die *die,
               Dwarf_Die *call)
{
  if (dwarf_diename (die) != NULL || dwarf_child (die, call) != 0)
    return FALSE;
  do
    if (dwarf_tag (call) == DW_TAG_subprogram && g_strcmp0 (dwarf_diename (call), "operator()") == 0)
      return TRUE;
  while (dwarf_siblingof (call, call) == 0);
  return FALSE;
}

/* The parameters of a lambda's operator() ("long", "std::string const&"),
 * which name it as g++ does; NULL when @die is not a lambda. */
static char *
lambda_parameters (HpSymbolizer *self,
                   HpModule     *module,
                   Dwarf_Die    *die,
                   guint         depth)
{
  Dwarf_Die call, param;
  GString *params;
  gboolean first = TRUE;

  if (!die_is_lambda (die, &call))
    return NULL;
  params = g_string_new (NULL);
  if (dwarf_child (&call, &param) == 0)
    do
      {
        Dwarf_Attribute attr_mem;
        bool artificial = false;

        if (dwarf_tag (&param) != DW_TAG_formal_parameter)
          continue;
        if (dwarf_formflag (dwarf_attr (&param, DW_AT_artificial, &attr_mem), &artificial) == 0 && artificial)
          continue; /* this */
        if (!first)
          g_string_append (params, ", ");
        append_type (self, module, &param, params, depth + 1);
        first = FALSE;
      }
    while (dwarf_siblingof (&param, &param) == 0);
  return g_string_free (params, FALSE);
}

/* Counts, in DIE order, the lambdas declared in @scope and in its blocks,
 * until @lambda: 1 for the first, as g++ numbers them, whatever their
 * parameters ("main::{lambda(long)#2}", then "main::{lambda(int)#3}"). */
static gboolean
lambda_number (Dwarf_Die *scope,
               Dwarf_Off  lambda,
               guint     *number,
               guint      depth)
{
  Dwarf_Die child, call;

  if (depth > 16 || dwarf_child (scope, &child) != 0)
    return FALSE;
  do
    {
      int tag = dwarf_tag (&child);

      if (tag == DW_TAG_lexical_block)
        {
          if (lambda_number (&child, lambda, number, depth + 1))
            return TRUE;
        }
      else if (tag == DW_TAG_class_type || tag == DW_TAG_structure_type)
        {
          if (die_is_lambda (&child, &call))
            (*number)++;
          if (dwarf_dieoffset (&child) == lambda)
            return TRUE;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);
  return FALSE;
}

/* Appends "ns::Class::" for the scopes that hold @die. */
static void
append_scope (HpSymbolizer *self,
              HpModule     *module,
              Dwarf_Die    *die,
              GString      *name,
              guint         depth)
{
  Dwarf_Die parent;
  const char *part;
  g_autofree char *params = NULL;

  if (depth > 16 || !scope_parent (module, die, &parent))
    return;
  switch (dwarf_tag (&parent))
    {
    case DW_TAG_lexical_block:
      append_scope (self, module, &parent, name, depth + 1);
      return;
    case DW_TAG_subprogram:
      /* a class local to a function: "main::", "Foo::run()::" */
      append_function_name (self, module, &parent, name, depth + 1);
      g_string_append (name, "::");
      return;
    default:
      break;
    }
  append_scope (self, module, &parent, name, depth + 1);
  part = dwarf_diename (&parent);
  if (part != NULL)
    g_string_append (name, part);
  else if (dwarf_tag (&parent) == DW_TAG_namespace)
    g_string_append (name, "(anonymous namespace)");
  else if ((params = lambda_parameters (self, module, &parent, depth)) != NULL)
    {
      Dwarf_Die scope = parent, block;
      guint number = 0;

      /* numbered within the function (or namespace), blocks included */
      while (scope_parent (module, &scope, &block))
        {
          scope = block;
          if (dwarf_tag (&scope) != DW_TAG_lexical_block)
            break;
        }
      if (dwarf_dieoffset (&scope) == dwarf_dieoffset (&parent)
          || !lambda_number (&scope, dwarf_dieoffset (&parent), &number, 0))
        number = 1;
      g_string_append_printf (name, "{lambda(%s)#%u}", params, MAX (number, 1));
    }
  else
    g_string_append (name, "{unnamed type}");
  g_string_append (name, "::");
}

static void
append_function_name (HpSymbolizer *self,
                      HpModule     *module,
                      Dwarf_Die    *die,
                      GString      *name,
                      guint         depth)
{
  Dwarf_Attribute attr_mem;
  const char *linkage;
  const char *plain;
  Dwarf_Die decl;

  linkage = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_linkage_name, &attr_mem));
  if (linkage == NULL)
    linkage = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr_mem));
  if (linkage != NULL)
    {
      g_autofree char *demangled = hp_demangle (linkage);

      if (demangled != NULL)
        {
          g_string_append (name, demangled);
          return;
        }
    }
  plain = dwarf_formstring (dwarf_attr_integrate (die, DW_AT_name, &attr_mem));
  if (plain == NULL)
    {
      if (linkage != NULL)
        g_string_append (name, linkage);
      return;
    }
  /* C++ without a linkage name (a lambda's operator(), some template
   * instances): DW_AT_name alone ("operator()", "_M_invoke") would make
   * one function of every lambda of the program; its scopes tell them
   * apart ("main::{lambda(long)#2}::operator()"). */
  if (die_is_cplusplus (die))
    {
      die_declaration (die, &decl);
      append_scope (self, module, &decl, name, depth + 1);
    }
  g_string_append (name, plain);
}

/* The name of a subprogram or inlined subroutine, following
 * DW_AT_abstract_origin and DW_AT_specification. The demangled linkage name
 * carries namespaces and parameters (like the symbol table fallback does);
 * DW_AT_name is the fallback for C, and with its scopes for C++ functions
 * without one. */
static const char *
die_function_name (HpSymbolizer *self,
                   HpModule     *module,
                   Dwarf_Die    *die)
{
  g_autoptr(GString) name = g_string_new (NULL);

  append_function_name (self, module, die, name, 0);
  return name->len > 0 ? intern (self, name->str) : NULL;
}

static gboolean
die_has_linkage_name (Dwarf_Die *die)
{
  Dwarf_Attribute attr_mem;

  return dwarf_attr_integrate (die, DW_AT_linkage_name, &attr_mem) != NULL
         || dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &attr_mem) != NULL;
}

/* "a/./b/../c" -> "a/c", for paths that are relative and must stay so. */
static char *
normalize_relative (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = parts[i];

      if (part[0] == '\0' || strcmp (part, ".") == 0)
        continue;
      if (strcmp (part, "..") == 0 && kept->len > 0 &&
          strcmp (g_ptr_array_index (kept, kept->len - 1), "..") != 0)
        g_ptr_array_remove_index (kept, kept->len - 1);
      else
        g_ptr_array_add (kept, (gpointer) part);
    }
  g_ptr_array_add (kept, NULL);
  return g_strjoinv ("/", (char **) kept->pdata);
}

/* Source file names in DWARF are often relative to the compilation
 * directory ("../src/foo.c", "./malloc/malloc.c"); the annotated source view
 * needs a path it can open, so join them with DW_AT_comp_dir. Debian's
 * glibc has relative compilation directories ("./csu") too: the same header
 * is then "../libio/libioP.h" from one and "./libio/libioP.h" from another,
 * and both must become one name ("libio/libioP.h"), or a function declared
 * there would be two functions. */
static const char *
intern_source_file (HpSymbolizer *self,
                    const char   *file,
                    const char   *comp_dir)
{
  g_autofree char *absolute = NULL;
  g_autofree char *joined = NULL;

  if (file == NULL)
    return NULL;
  if (g_path_is_absolute (file))
    return intern (self, file);
  if (comp_dir != NULL && g_path_is_absolute (comp_dir))
    {
      absolute = g_canonicalize_filename (file, comp_dir);
      return intern (self, absolute);
    }
  /* The line table's directory 0 is the compilation directory itself, so
   * a file of that directory arrives joined already ("./csu/start.c"). */
  if (comp_dir != NULL && !g_str_has_prefix (file, comp_dir))
    joined = g_build_filename (comp_dir, file, NULL);
  else
    joined = g_strdup (file);
  absolute = normalize_relative (joined);
  return intern (self, absolute);
}

static const char *
cu_comp_dir (Dwarf_Die *cu)
{
  Dwarf_Attribute attr_mem;

  return dwarf_formstring (dwarf_attr (cu, DW_AT_comp_dir, &attr_mem));
}

static guint
die_decl_line (Dwarf_Die *die)
{
  int line = 0;

  if (dwarf_decl_line (die, &line) != 0 || line < 0)
    return 0;
  return line;
}

/* The file that declares a function, which is not always the file of the
 * lines being executed: glibc's __vfprintf_internal runs code of
 * vfprintf-process-arg.c, #included into vfprintf-internal.c. The function's
 * identity must not depend on which of its lines a sample hit. */
static const char *
die_decl_file (HpSymbolizer *self,
               Dwarf_Die    *die)
{
  const char *file = dwarf_decl_file (die);
  Dwarf_Die cu;

  if (file == NULL)
    return NULL;
  if (dwarf_diecu (die, &cu, NULL, NULL) == NULL)
    return intern (self, file);
  return intern_source_file (self, file, cu_comp_dir (&cu));
}

/* The call site of an inlined subroutine, i.e. the file:line of the frame
 * it is inlined into. */
static void
die_call_site (HpSymbolizer *self,
               Dwarf_Die    *die,
               const char  **file,
               guint        *line)
{
  Dwarf_Attribute attr_mem;
  Dwarf_Word value;
  Dwarf_Files *files;
  size_t n_files;
  Dwarf_Die cu;

  *file = NULL;
  *line = 0;

  if (dwarf_formudata (dwarf_attr (die, DW_AT_call_line, &attr_mem), &value) == 0)
    *line = value;
  if (dwarf_formudata (dwarf_attr (die, DW_AT_call_file, &attr_mem), &value) == 0
      && dwarf_diecu (die, &cu, NULL, NULL) != NULL
      && dwarf_getsrcfiles (&cu, &files, &n_files) == 0
      && value < n_files)
    *file = intern_source_file (self, dwarf_filesrc (files, value, NULL, NULL), cu_comp_dir (&cu));
}

/* Symbol tables -------------------------------------------------------- */

static int
compare_guint64 (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_sections (gconstpointer a,
                  gconstpointer b)
{
  const SectionRange *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

static void
add_section_bounds (GArray     *bounds,
                    Elf        *elf,
                    Dwarf_Addr  bias,
                    GArray     *sections)
{
  Elf_Scn *scn = NULL;

  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      SectionRange range;

      if (gelf_getshdr (scn, &shdr) == NULL)
        continue;
      range.start = shdr.sh_addr + bias;
      range.end = range.start + shdr.sh_size;
      range.index = elf_ndxscn (scn);
      g_array_append_val (bounds, range.start);
      g_array_append_val (bounds, range.end);
      if (sections != NULL && (shdr.sh_flags & SHF_ALLOC))
        g_array_append_val (sections, range);
    }
}

static guint section_of (const HpModule *module,
                         guint64         address);

static int
compare_sized (gconstpointer a,
               gconstpointer b)
{
  const SizedEntry *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static int
compare_sizeless (gconstpointer a,
                  gconstpointer b)
{
  const SizelessEntry *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* Indexes module->syms for symtab_search_indexed: per pass of libdwfl's
 * search, the entries with a size sorted by start, each with the largest
 * end up to it; and every entry without a size. */
static void
index_syms (HpModule *module)
{
  const SymEntry *syms = (const SymEntry *) (gconstpointer) module->syms->data;

  for (guint pass = 0; pass < 2; pass++)
    {
      guint first = pass == 0 ? module->sym_first_global : 0;
      guint last = pass == 0 ? module->syms->len : module->sym_first_global;
      GArray *sized = g_array_new (FALSE, FALSE, sizeof (SizedEntry));
      GArray *sizeless = g_array_new (FALSE, FALSE, sizeof (SizelessEntry));
      guint64 max_end = 0;

      for (guint i = first; i < last; i++)
        {
          SizedEntry e;

          if (syms[i].sym.st_size == 0)
            {
              SizelessEntry l = { syms[i].value, section_of (module, syms[i].value), i };

              g_array_append_val (sizeless, l);
              continue;
            }
          e.start = syms[i].value;
          e.end = syms[i].value + syms[i].sym.st_size < syms[i].value
                  ? G_MAXUINT64 : syms[i].value + syms[i].sym.st_size;
          e.index = i;
          g_array_append_val (sized, e);
        }
      g_array_sort (sized, compare_sized);
      for (guint i = 0; i < sized->len; i++)
        {
          SizedEntry *e = &g_array_index (sized, SizedEntry, i);

          max_end = MAX (max_end, e->end);
          e->max_end = max_end;
        }
      g_array_sort (sizeless, compare_sizeless);
      module->sym_sized[pass] = sized;
      module->sym_sizeless[pass] = sizeless;
    }
}

/* dwfl_module_addrinfo reads the whole symbol table through libelf at
 * every call: over the 29,000 dynamic symbols of a stripped cc1, that was
 * most of what recording a build cost. So the symbolizer reads the table
 * once into an array and runs libdwfl's search over it (symtab_search),
 * and runs it once per class of addresses: the answer depends on the
 * address only through comparisons with symbol starts and ends and with
 * section bounds, so between two consecutive such bounds it is the same
 * symbol, and at a bound itself too. */
static void
load_syms (HpModule *module)
{
  g_autoptr(GHashTable) elves = g_hash_table_new (NULL, NULL);
  GArray *bounds = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) locals = g_array_new (FALSE, FALSE, sizeof (SymEntry));
  Dwarf_Addr main_bias = 0;
  Elf *main_elf = dwfl_module_getelf (module->dwfl_module, &main_bias);
  int n = dwfl_module_getsymtab (module->dwfl_module);
  int first_global = dwfl_module_getsymtab_first_global (module->dwfl_module);
  guint kept = 0;

  module->syms = g_array_new (FALSE, FALSE, sizeof (SymEntry));
  module->sym_sections = g_array_new (FALSE, FALSE, sizeof (SectionRange));
  if (main_elf != NULL)
    {
      add_section_bounds (bounds, main_elf, main_bias, module->sym_sections);
      g_hash_table_add (elves, main_elf);
    }
  g_array_sort (module->sym_sections, compare_sections);

  /* libdwfl searches the globals (from first_global on; the whole table
   * when that is 0, a table of dynamic symbols alone) and then, when they
   * gave nothing, the locals. */
  for (int i = 1; n > 0 && first_global >= 0 && i < n; i++)
    {
      SymEntry entry;
      Elf *elf = NULL;
      Dwarf_Addr bias = 0;
      guint64 end;
      int type;

      entry.name = dwfl_module_getsym_info (module->dwfl_module, i, &entry.sym, &entry.value,
                                            &entry.shndx, &elf, &bias);
      if (entry.name == NULL)
        continue;
      g_array_append_val (bounds, entry.value);
      end = entry.value + entry.sym.st_size;
      g_array_append_val (bounds, end);
      /* The symbols of a separate debug file or of MiniDebugInfo are
       * placed by that file's sections. */
      if (elf != NULL && !g_hash_table_contains (elves, elf))
        {
          add_section_bounds (bounds, elf, bias, NULL);
          g_hash_table_add (elves, elf);
        }

      /* What libdwfl's search never considers. */
      type = GELF_ST_TYPE (entry.sym.st_info);
      if (entry.name[0] == '\0' || entry.sym.st_shndx == SHN_UNDEF
          || type == STT_SECTION || type == STT_FILE || type == STT_TLS)
        continue;
      if (first_global == 0 || i >= first_global)
        g_array_append_val (module->syms, entry);
      else
        g_array_append_val (locals, entry);
    }
  module->sym_first_global = locals->len;
  module->sym_search_locals = first_global > 1;
  g_array_prepend_vals (module->syms, locals->data, locals->len);

  g_array_sort (bounds, compare_guint64);
  for (guint i = 0; i < bounds->len; i++)
    if (kept == 0 || g_array_index (bounds, guint64, i) != g_array_index (bounds, guint64, kept - 1))
      g_array_index (bounds, guint64, kept++) = g_array_index (bounds, guint64, i);
  g_array_set_size (bounds, kept);

  module->sym_bounds = bounds;
  module->sym_answers = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  index_syms (module);
}

/* The class of @address: 0 below every bound, 2k + 1 at bound k, 2k + 2
 * strictly between bounds k and k + 1 (or above the last). */
static guint
symtab_class (const HpModule *module,
              guint64         address)
{
  const guint64 *bounds = (const guint64 *) (gconstpointer) module->sym_bounds->data;
  guint lo = 0, hi = module->sym_bounds->len;

  /* the number of bounds <= address */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (bounds[mid] <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  return bounds[lo - 1] == address ? 2 * (lo - 1) + 1 : 2 * (lo - 1) + 2;
}

/* The index of the main file's allocated section that holds @address;
 * SHN_UNDEF: none. As libdwfl finds it (find_section in elfutils'
 * derelocate.c): a section's end is in it, unless the next one starts
 * there. */
static guint
section_of (const HpModule *module,
            guint64         address)
{
  const SectionRange *sections = (const SectionRange *) (gconstpointer) module->sym_sections->data;
  guint lo = 0, hi = module->sym_sections->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (address < sections[mid].start)
        hi = mid;
      else if (address > sections[mid].end)
        lo = mid + 1;
      else
        {
          if (address == sections[mid].end && mid + 1 < module->sym_sections->len
              && address == sections[mid + 1].start)
            mid++;
          return sections[mid].index;
        }
    }
  return SHN_UNDEF;
}

/* GELF_ST_BIND as higher-is-better, as libdwfl ranks it. */
static int
binding_value (const GElf_Sym *sym)
{
  switch (GELF_ST_BIND (sym->st_info))
    {
    case STB_GLOBAL:
      return 3;
    case STB_WEAK:
      return 2;
    case STB_LOCAL:
      return 1;
    default:
      return 0;
    }
}

typedef struct
{
  guint64             address;
  guint               address_section;
  const SymEntry     *closest;
  const SymEntry     *sizeless;
  guint64             min_label;
} SymSearch;

/* One step of libdwfl's search (__libdwfl_addrsym in elfutils' libdwfl,
 * as dwfl_module_addrinfo runs it), in its order and with its ties, so
 * that the names are exactly the ones it gives. */
static void
symtab_try (const HpModule *module,
            SymSearch      *search,
            const SymEntry *entry)
{
  const GElf_Sym *sym = &entry->sym;
  guint64 addr = search->address;

  if (entry->value > addr)
    return;
  if (entry->value + sym->st_size > search->min_label)
    search->min_label = entry->value + sym->st_size;
  if (sym->st_size != 0 && addr - entry->value >= sym->st_size)
    return;

  if (search->closest == NULL
      || search->closest->value < entry->value
      || binding_value (&search->closest->sym) < binding_value (sym))
    {
      if (sym->st_size != 0)
        search->closest = entry;
      else if (search->closest == NULL && entry->value >= search->min_label)
        {
          gboolean same;

          /* Handwritten assembly has labels without a size: the nearest
           * one in the address's section names it. */
          if (entry->shndx >= SHN_LORESERVE)
            same = entry->value == addr;
          else
            same = search->address_section == section_of (module, entry->value);
          if (same)
            search->sizeless = entry;
        }
    }
  else if (sym->st_size != 0
           && search->closest->value == entry->value
           && ((search->closest->sym.st_size > sym->st_size
                && binding_value (&search->closest->sym) <= binding_value (sym))
               || (search->closest->sym.st_size >= sym->st_size
                   && binding_value (&search->closest->sym) < binding_value (sym))))
    search->closest = entry;
}

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* The closest entry of one pass: only entries with a size that hold
 * @address can become it (an entry without a size never does, and one
 * that does not hold the address is skipped), and they compete in table
 * order, so these alone, in that order, give libdwfl's answer. */
static const SymEntry *
symtab_pass_closest (HpSymbolizer   *self,
                     const HpModule *module,
                     guint           pass,
                     guint64         address,
                     guint           address_section,
                     GArray         *found,
                     guint64        *max_end)
{
  const SizedEntry *sized = (const SizedEntry *) (gconstpointer) module->sym_sized[pass]->data;
  const SymEntry *syms = (const SymEntry *) (gconstpointer) module->syms->data;
  SymSearch search = { address, address_section, NULL, NULL, 0 };
  guint lo = 0, hi = module->sym_sized[pass]->len;

  /* the number of entries that start at or below the address */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sized[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_array_set_size (found, 0);
  *max_end = lo > 0 ? sized[lo - 1].max_end : 0;
  /* Below an entry whose max_end is at or below the address, none holds it. */
  for (guint i = lo; i > 0 && sized[i - 1].max_end > address; i--)
    {
      self->symtab_steps++;
      if (sized[i - 1].end > address)
        g_array_append_val (found, sized[i - 1].index);
    }
  g_array_sort (found, compare_guint);
  for (guint i = 0; i < found->len; i++)
    symtab_try (module, &search, &syms[g_array_index (found, guint, i)]);
  return search.closest;
}

/* The labels (entries without a size) of @pass at or below @address:
 * whether there is one, the highest start among them, and the last in
 * table order at that start that may name the address (in its section,
 * or outside sections only at the address itself); NULL: none may. */
static gboolean
symtab_pass_labels (HpSymbolizer    *self,
                    const HpModule  *module,
                    guint            pass,
                    guint64          address,
                    guint            address_section,
                    guint64         *max_start,
                    const SymEntry **at_max)
{
  const SizelessEntry *labels = (const SizelessEntry *) (gconstpointer) module->sym_sizeless[pass]->data;
  const SymEntry *syms = (const SymEntry *) (gconstpointer) module->syms->data;
  guint lo = 0, hi = module->sym_sizeless[pass]->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (labels[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  *at_max = NULL;
  if (lo == 0)
    return FALSE;
  *max_start = labels[lo - 1].start;
  /* sorted by start, then table order: the last that may name it */
  for (guint i = lo; i > 0 && labels[i - 1].start == *max_start; i--)
    {
      const SymEntry *entry = &syms[labels[i - 1].index];

      self->symtab_steps++;
      if (entry->shndx >= SHN_LORESERVE
          ? labels[i - 1].start == address
          : labels[i - 1].section == address_section)
        {
          *at_max = entry;
          break;
        }
    }
  return TRUE;
}

/* libdwfl's search (symtab_try over every entry of the table, in order:
 * the globals, then, if they gave nothing, the locals) without reading
 * the whole table, with exactly its answer.
 *
 * A sized entry that holds the address wins over any label. When none
 * does, symtab_try keeps as the label the last one (in table order) that
 * starts at or above min_label, the largest end of the entries before it,
 * and returns it only if it starts at or above the final min_label, F.
 * Every label ends where it starts, so F is at least the highest start M
 * of the labels: a label is returned only if M = F and it starts at M.
 * Any label at M passes when it comes (min_label <= F = M then), and any
 * label after it below M fails (min_label >= M then): the answer is the
 * last label at M that may name the address, if F = M. The locals are
 * searched unless a global label sits at the address itself. */
static const SymEntry *
symtab_search (HpSymbolizer   *self,
               const HpModule *module,
               guint64         address)
{
  guint address_section = section_of (module, address);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint));
  const SymEntry *closest, *label = NULL, *label_b = NULL;
  guint64 end = 0, end_b = 0, max_start = 0, max_start_b = 0;
  gboolean has_label, has_label_b;

  closest = symtab_pass_closest (self, module, 0, address, address_section, found, &end);
  if (closest != NULL)
    return closest;
  has_label = symtab_pass_labels (self, module, 0, address, address_section, &max_start, &label);

  if (module->sym_search_locals && !(has_label && label != NULL && max_start == address))
    {
      closest = symtab_pass_closest (self, module, 1, address, address_section, found, &end_b);
      if (closest != NULL)
        return closest;
      has_label_b = symtab_pass_labels (self, module, 1, address, address_section, &max_start_b, &label_b);
      end = MAX (end, end_b);
      if (has_label_b && (!has_label || max_start_b >= max_start))
        {
          /* the locals come after the globals */
          if (!has_label || max_start_b > max_start || label_b != NULL)
            label = label_b;
          max_start = max_start_b;
          has_label = TRUE;
        }
    }

  if (!has_label || end > max_start)
    return NULL;
  return label;
}

static const SymtabAnswer *
symtab_lookup (HpSymbolizer *self,
               HpModule     *module,
               Dwarf_Addr    address)
{
  SymtabAnswer *answer;
  const SymEntry *entry;
  guint class;

  if (module->sym_bounds == NULL)
    load_syms (module);
  class = symtab_class (module, address);
  answer = g_hash_table_lookup (module->sym_answers, GUINT_TO_POINTER (class));
  if (answer != NULL)
    return answer;

  answer = g_new0 (SymtabAnswer, 1);
  entry = symtab_search (self, module, address);
  if (entry != NULL)
    {
      answer->name = entry->name;
      answer->sym = entry->sym;
      answer->shndx = entry->shndx;
      answer->value = entry->value;
    }
  self->symtab_searches++;
  g_hash_table_insert (module->sym_answers, GUINT_TO_POINTER (class), answer);
  return answer;
}

static const char *
symtab_name (HpSymbolizer *self,
             HpModule     *module,
             Dwarf_Addr    address)
{
  const SymtabAnswer *answer = symtab_lookup (self, module, address);
  int type;

  if (answer->name == NULL)
    return NULL;

  /* The nearest symbol below an address outside any function can be a
   * version definition (an absolute "GLIBC_2.2.5" at 0) or a data object:
   * naming a sample after it would be wrong, so only code symbols count
   * (NOTYPE for labels in assembly). */
  type = GELF_ST_TYPE (answer->sym.st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
    return NULL;
  if (answer->shndx == SHN_UNDEF || answer->shndx == SHN_ABS)
    return NULL;

  return intern_symbol_name (self, answer->name);
}

static gboolean
has_pc_attributes (Dwarf_Die *die)
{
  return dwarf_hasattr (die, DW_AT_low_pc) || dwarf_hasattr (die, DW_AT_ranges);
}

/* Appends to @scopes, outermost first, the concrete code scopes (functions,
 * inlined calls, blocks) of @parent that contain @pc.
 *
 * dwarf_getscopes would do, but it stops at the innermost inlined
 * subroutine and continues with the scopes of its abstract definition,
 * losing the outer inlines; following it with dwarf_getscopes_die (as
 * eu-addr2line -i does) walks the whole CU twice. Descending only into the
 * scopes that contain @pc measured about twice as fast over libc.
 *
 * Namespaces and classes are searched because clang nests function
 * definitions in them; imported units because dwz moves shared DIEs there. */
static gboolean
find_code_scopes (Dwarf_Die  *parent,
                  Dwarf_Addr  pc,
                  GArray     *scopes,
                  guint       depth)
{
  Dwarf_Die child;

  /* Real nesting is shallow; the bound guards against malformed DWARF
   * (an imported unit importing itself). */
  if (depth > 64 || dwarf_child (parent, &child) != 0)
    return FALSE;

  do
    {
      switch (dwarf_tag (&child))
        {
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
        case DW_TAG_lexical_block:
        case DW_TAG_try_block:
        case DW_TAG_catch_block:
          if (has_pc_attributes (&child))
            {
              if (dwarf_haspc (&child, pc) == 1)
                {
                  g_array_append_val (scopes, child);
                  find_code_scopes (&child, pc, scopes, depth + 1);
                  return TRUE;
                }
            }
          else if (dwarf_tag (&child) == DW_TAG_lexical_block
                   && find_code_scopes (&child, pc, scopes, depth + 1))
            {
              /* A block without its own range still holds code scopes. */
              return TRUE;
            }
          break;

        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_module:
          if (dwarf_haschildren (&child) && find_code_scopes (&child, pc, scopes, depth + 1))
            return TRUE;
          break;

        case DW_TAG_imported_unit:
          {
            Dwarf_Attribute attr_mem;
            Dwarf_Die unit;

            if (dwarf_formref_die (dwarf_attr (&child, DW_AT_import, &attr_mem), &unit) != NULL
                && find_code_scopes (&unit, pc, scopes, depth + 1))
              return TRUE;
          }
          break;

        default:
          break;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);

  return FALSE;
}

/* The code scopes find_code_scopes() meets at the top of a CU (through
 * namespaces, classes, imported units and blocks without a range), in
 * the order it meets them, with their ranges: the walk over a CU's
 * top-level DIEs skips every function's subtree, a hundred thousand
 * instructions a lookup in a large CU, and a recording looks up hundreds
 * of addresses per CU. The first entry whose ranges hold the pc is the
 * one the walk would stop at (dwarf_haspc reads the same ranges). */
typedef struct
{
  Dwarf_Die die;
  guint     depth;        /* the walk's depth where it meets the DIE */
  guint     first_range;  /* in CodeScopeIndex.ranges, pairs */
  guint     n_ranges;
} CodeScopeEntry;

typedef struct
{
  GArray *entries;  /* CodeScopeEntry */
  GArray *ranges;   /* Dwarf_Addr start, end */
} CodeScopeIndex;

static void
code_scope_index_free (CodeScopeIndex *index)
{
  g_array_unref (index->entries);
  g_array_unref (index->ranges);
  g_free (index);
}

static void
add_code_scope (CodeScopeIndex *index,
                Dwarf_Die      *die,
                guint           depth)
{
  CodeScopeEntry entry = { *die, depth, index->ranges->len / 2, 0 };
  Dwarf_Addr base, start, end;
  ptrdiff_t at = 0;

  while ((at = dwarf_ranges (die, at, &base, &start, &end)) > 0)
    {
      g_array_append_val (index->ranges, start);
      g_array_append_val (index->ranges, end);
      entry.n_ranges++;
    }
  g_array_append_val (index->entries, entry);
}

/* find_code_scopes()'s walk over @parent, the scopes it would test
 * recorded in @index instead. */
static void
index_code_scopes (Dwarf_Die      *parent,
                   CodeScopeIndex *index,
                   guint           depth)
{
  Dwarf_Die child;

  if (depth > 64 || dwarf_child (parent, &child) != 0)
    return;

  do
    {
      switch (dwarf_tag (&child))
        {
        case DW_TAG_subprogram:
        case DW_TAG_inlined_subroutine:
        case DW_TAG_lexical_block:
        case DW_TAG_try_block:
        case DW_TAG_catch_block:
          if (has_pc_attributes (&child))
            add_code_scope (index, &child, depth);
          else if (dwarf_tag (&child) == DW_TAG_lexical_block)
            index_code_scopes (&child, index, depth + 1);
          break;

        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_module:
          if (dwarf_haschildren (&child))
            index_code_scopes (&child, index, depth + 1);
          break;

        case DW_TAG_imported_unit:
          {
            Dwarf_Attribute attr_mem;
            Dwarf_Die unit;

            if (dwarf_formref_die (dwarf_attr (&child, DW_AT_import, &attr_mem), &unit) != NULL)
              index_code_scopes (&unit, index, depth + 1);
          }
          break;

        default:
          break;
        }
    }
  while (dwarf_siblingof (&child, &child) == 0);
}

/* find_code_scopes (@cudie, @pc, @scopes, 0), through the CU's index,
 * made the first time. */
static void
find_code_scopes_indexed (HpModule  *module,
                          Dwarf_Die *cudie,
                          Dwarf_Addr pc,
                          GArray    *scopes)
{
  guint64 key = dwarf_dieoffset (cudie);
  CodeScopeIndex *index;

  if (module->code_scopes == NULL)
    module->code_scopes = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                 (GDestroyNotify) code_scope_index_free);
  index = g_hash_table_lookup (module->code_scopes, &key);
  if (index == NULL)
    {
      index = g_new0 (CodeScopeIndex, 1);
      index->entries = g_array_new (FALSE, FALSE, sizeof (CodeScopeEntry));
      index->ranges = g_array_new (FALSE, FALSE, sizeof (Dwarf_Addr));
      index_code_scopes (cudie, index, 0);
      g_hash_table_insert (module->code_scopes, g_memdup2 (&key, sizeof key), index);
    }

  for (guint i = 0; i < index->entries->len; i++)
    {
      CodeScopeEntry *entry = &g_array_index (index->entries, CodeScopeEntry, i);
      const Dwarf_Addr *range = &g_array_index (index->ranges, Dwarf_Addr, 2 * entry->first_range);

      for (guint r = 0; r < entry->n_ranges; r++)
        if (pc >= range[2 * r] && pc < range[2 * r + 1])
          {
            g_array_append_val (scopes, entry->die);
            find_code_scopes (&entry->die, pc, scopes, entry->depth + 1);
            return;
          }
    }
}

static void
check_code_scopes (Dwarf_Die  *cudie,
                   Dwarf_Addr  pc,
                   GArray     *scopes)
{
  g_autoptr(GArray) walked = g_array_new (FALSE, FALSE, sizeof (Dwarf_Die));
  gboolean same;

  find_code_scopes (cudie, pc, walked, 0);
  same = walked->len == scopes->len;
  for (guint i = 0; same && i < walked->len; i++)
    same = dwarf_dieoffset (&g_array_index (walked, Dwarf_Die, i))
           == dwarf_dieoffset (&g_array_index (scopes, Dwarf_Die, i));
  if (!same)
    g_warning ("CU at %#" G_GINT64_MODIFIER "x, pc %#" G_GINT64_MODIFIER "x: %u code scopes by the index, %u by the walk",
               (guint64) dwarf_dieoffset (cudie), (guint64) pc, scopes->len, walked->len);
}

/* PLT stubs ------------------------------------------------------------ */

/* One jump slot of .rela.plt: its GOT slot and what it names. */
typedef struct
{
  guint64     got;
  const char *name;  /* interned, without "@plt" */
} PltSlot;

static int
compare_plt_slots (gconstpointer a,
                   gconstpointer b)
{
  const PltSlot *x = a, *y = b;

  return x->got < y->got ? -1 : x->got > y->got;
}

static int
compare_plt_stubs (gconstpointer a,
                   gconstpointer b)
{
  const PltStub *x = a, *y = b;

  return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* Whether @sym, named @name, is a global IFUNC whose resolver is at
 * @resolver (memcpy rather than a weak alias); the first weak one goes
 * into *@weak. */
static gboolean
is_ifunc_global (const GElf_Sym *sym,
                 const char     *name,
                 guint64         resolver,
                 const char    **weak)
{
  if (name == NULL || name[0] == '\0' || GELF_ST_TYPE (sym->st_info) != STT_GNU_IFUNC || sym->st_value != resolver)
    return FALSE;
  if (GELF_ST_BIND (sym->st_info) == STB_GLOBAL)
    return TRUE;
  if (*weak == NULL)
    *weak = name;
  return FALSE;
}

/* The name of the IFUNC symbol of @symtab whose resolver is at @resolver
 * (an IRELATIVE relocation names no symbol, only the resolver as its
 * addend: libc's internal calls to memcpy, strlen... go through such
 * slots), from the file's symbol table or else its debug file's;
 * objdump's "*ABS*+0xADDR" when no symbol says. */
static const char *
ifunc_name (HpSymbolizer *self,
            HpModule     *module,
            Elf          *elf,
            Elf_Data     *sym_data,
            GElf_Shdr    *symtab_shdr,
            guint64       resolver)
{
  g_autofree char *abs_name = NULL;
  const char *weak = NULL;

  for (gsize j = 0; symtab_shdr->sh_entsize > 0 && j < symtab_shdr->sh_size / symtab_shdr->sh_entsize; j++)
    {
      GElf_Sym sym;
      const char *name;

      if (gelf_getsym (sym_data, (int) j, &sym) != NULL
          && (name = elf_strptr (elf, symtab_shdr->sh_link, sym.st_name)) != NULL
          && is_ifunc_global (&sym, name, resolver, &weak))
        return intern_symbol_name (self, name);
    }
  if (weak != NULL)
    return intern_symbol_name (self, weak);
  /* A stripped static program's .rela.plt links no symbol table, but its
   * debug file (a -dbgsym package, --debug-dir, debuginfod) has one, which
   * libdwfl reads as the module's */
  for (int j = 1, n = dwfl_module_getsymtab (module->dwfl_module); j < n; j++)
    {
      GElf_Sym sym;
      GElf_Addr value;
      const char *name = dwfl_module_getsym_info (module->dwfl_module, j, &sym, &value, NULL, NULL, NULL);

      if (is_ifunc_global (&sym, name, resolver, &weak))
        return intern_symbol_name (self, name);
    }
  if (weak != NULL)
    return intern_symbol_name (self, weak);
  abs_name = g_strdup_printf ("*ABS*+0x%" G_GINT64_MODIFIER "x", resolver);
  return intern (self, abs_name);
}

/* The GOT slot that the x86-64 stub at @code (@size bytes, at @vaddr)
 * jumps through: jmp *disp(%rip), after an endbr64 and with a bnd prefix
 * under IBT. FALSE for any other code. */
static gboolean
stub_got_slot (const guint8 *code,
               gsize         size,
               guint64       vaddr,
               guint64      *got)
{
  static const guint8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
  gsize at = 0;
  gint32 disp;

  if (size >= sizeof endbr64 && memcmp (code, endbr64, sizeof endbr64) == 0)
    at += sizeof endbr64;
  if (at < size && code[at] == 0xf2)  /* bnd */
    at++;
  if (at + 6 > size || code[at] != 0xff || code[at + 1] != 0x25)
    return FALSE;
  disp = (gint32) ((guint32) code[at + 2] | (guint32) code[at + 3] << 8
                   | (guint32) code[at + 4] << 16 | (guint32) code[at + 5] << 24);
  *got = vaddr + at + 6 + (guint64) (gint64) disp;
  return TRUE;
}

/* The stubs of .plt (lazy binding: entry 0 is the resolver, entry k + 1
 * jumps through the k-th jump slot in GOT order) or of .plt.sec (IBT:
 * entry k for the k-th slot), named after the symbol of the slot's
 * relocation and "@plt", as perf names them. The relocations of .rela.plt
 * are not in GOT order where IRELATIVE ones are among them (libc.so.6:
 * realloc is the first relocation and the third stub), so the slots are
 * sorted first. The stubs of .plt.got (no lazy binding: malloc and free
 * in libc.so.6, __cxa_finalize in programs) are named after the
 * GLOB_DAT relocation of the slot they jump through. No symbol table
 * covers stubs, and naming them after the nearest symbol would be wrong. */
static void
load_plt (HpSymbolizer *self,
          HpModule     *module)
{
  Dwarf_Addr bias;
  Elf *elf = dwfl_module_getelf (module->dwfl_module, &bias);
  Elf_Scn *scn = NULL, *rela = NULL, *rela_dyn = NULL, *plt = NULL, *plt_sec = NULL, *plt_got = NULL;
  GElf_Shdr rela_shdr, plt_shdr, symtab_shdr;
  guint64 entry_size, header;
  Elf_Scn *symtab;
  Elf_Data *rela_data, *sym_data;
  g_autoptr(GArray) slots = NULL;
  size_t shstrndx;

  module->plt = g_array_new (FALSE, FALSE, sizeof (PltStub));
  if (elf == NULL || elf_getshdrstrndx (elf, &shstrndx) != 0)
    return;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;

      if (gelf_getshdr (scn, &shdr) == NULL || (name = elf_strptr (elf, shstrndx, shdr.sh_name)) == NULL)
        continue;
      if (strcmp (name, ".rela.plt") == 0 && shdr.sh_type == SHT_RELA)
        rela = scn;
      else if (strcmp (name, ".rela.dyn") == 0 && shdr.sh_type == SHT_RELA)
        rela_dyn = scn;
      else if (strcmp (name, ".plt") == 0)
        plt = scn;
      else if (strcmp (name, ".plt.sec") == 0)
        plt_sec = scn;
      else if (strcmp (name, ".plt.got") == 0 && shdr.sh_type == SHT_PROGBITS)
        plt_got = scn;
    }

  slots = g_array_new (FALSE, FALSE, sizeof (PltSlot));
  if (rela != NULL && (plt != NULL || plt_sec != NULL)
      && gelf_getshdr (rela, &rela_shdr) != NULL
      && gelf_getshdr (plt_sec != NULL ? plt_sec : plt, &plt_shdr) != NULL
      && (symtab = elf_getscn (elf, rela_shdr.sh_link)) != NULL
      && gelf_getshdr (symtab, &symtab_shdr) != NULL
      && (rela_data = elf_getdata (rela, NULL)) != NULL
      && (sym_data = elf_getdata (symtab, NULL)) != NULL)
    {
      for (gsize i = 0; rela_shdr.sh_entsize > 0 && i < rela_shdr.sh_size / rela_shdr.sh_entsize; i++)
        {
          GElf_Rela r;
          GElf_Sym sym;
          const char *name = NULL;
          PltSlot slot;

          if (gelf_getrela (rela_data, (int) i, &r) == NULL)
            continue;
          if (GELF_R_SYM (r.r_info) == 0)
            name = r.r_addend > 0 ? ifunc_name (self, module, elf, sym_data, &symtab_shdr, (guint64) r.r_addend) : NULL;
          else if (gelf_getsym (sym_data, (int) GELF_R_SYM (r.r_info), &sym) != NULL
                   && (name = elf_strptr (elf, symtab_shdr.sh_link, sym.st_name)) != NULL && name[0] != '\0')
            name = intern_symbol_name (self, name);
          else
            name = NULL;
          slot.got = r.r_offset;
          slot.name = name;
          g_array_append_val (slots, slot);
        }
      g_array_sort (slots, compare_plt_slots);
      /* 16-byte stubs after a 16-byte resolver entry; but a static
       * program's .plt (IFUNC calls only, no lazy binding) is 8-byte
       * stubs without that entry, as perf reads it: the entry size from
       * sh_entsize or else the alignment, and no header where the stubs
       * fill the section */
      entry_size = 16;
      if (plt_sec == NULL && (plt_shdr.sh_entsize == 8 || plt_shdr.sh_entsize == 16))
        entry_size = plt_shdr.sh_entsize;
      else if (plt_sec == NULL && plt_shdr.sh_addralign == 8)
        entry_size = 8;
      header = plt_sec == NULL && (guint64) slots->len * entry_size != plt_shdr.sh_size ? 1 : 0;
      for (guint k = 0; k < slots->len; k++)
        {
          const PltSlot *slot = &g_array_index (slots, PltSlot, k);
          g_autofree char *stub_name = NULL;
          PltStub stub;

          stub.size = entry_size;
          stub.vaddr = plt_shdr.sh_addr + (k + header) * stub.size;
          if (stub.vaddr + stub.size > plt_shdr.sh_addr + plt_shdr.sh_size)
            break;
          if (slot->name == NULL)
            continue;
          stub_name = g_strconcat (slot->name, "@plt", NULL);
          stub.name = intern (self, stub_name);
          g_array_append_val (module->plt, stub);
        }
    }

  if (plt_got != NULL && rela_dyn != NULL)
    {
      GElf_Shdr got_shdr, dyn_shdr, dynsym_shdr;
      Elf_Data *code, *dyn_data, *dynsym_data;
      Elf_Scn *dynsym;
      g_autoptr(GHashTable) by_slot = g_hash_table_new (g_int64_hash, g_int64_equal);
      g_autoptr(GArray) got_slots = g_array_new (FALSE, FALSE, sizeof (PltSlot));
      gsize entry;

      if (gelf_getshdr (plt_got, &got_shdr) == NULL || gelf_getshdr (rela_dyn, &dyn_shdr) == NULL
          || (dynsym = elf_getscn (elf, dyn_shdr.sh_link)) == NULL || gelf_getshdr (dynsym, &dynsym_shdr) == NULL
          || (code = elf_getdata (plt_got, NULL)) == NULL || code->d_buf == NULL
          || (dyn_data = elf_getdata (rela_dyn, NULL)) == NULL || (dynsym_data = elf_getdata (dynsym, NULL)) == NULL)
        goto sort;
      /* GLOB_DAT relocations by slot */
      for (gsize i = 0; dyn_shdr.sh_entsize > 0 && i < dyn_shdr.sh_size / dyn_shdr.sh_entsize; i++)
        {
          GElf_Rela r;
          GElf_Sym sym;
          const char *name;
          PltSlot slot;

          if (gelf_getrela (dyn_data, (int) i, &r) == NULL || GELF_R_SYM (r.r_info) == 0
              || gelf_getsym (dynsym_data, (int) GELF_R_SYM (r.r_info), &sym) == NULL
              || (name = elf_strptr (elf, dynsym_shdr.sh_link, sym.st_name)) == NULL || name[0] == '\0')
            continue;
          slot.got = r.r_offset;
          slot.name = intern_symbol_name (self, name);
          g_array_append_val (got_slots, slot);
        }
      for (guint i = 0; i < got_slots->len; i++)
        {
          PltSlot *slot = &g_array_index (got_slots, PltSlot, i);

          g_hash_table_insert (by_slot, &slot->got, slot);
        }
      entry = got_shdr.sh_entsize == 8 || got_shdr.sh_entsize == 16 ? got_shdr.sh_entsize : 8;
      for (gsize at = 0; at + entry <= code->d_size && at + entry <= got_shdr.sh_size; at += entry)
        {
          guint64 got;
          const PltSlot *slot;
          g_autofree char *stub_name = NULL;
          PltStub stub;

          if (!stub_got_slot ((const guint8 *) code->d_buf + at, entry, got_shdr.sh_addr + at, &got)
              || (slot = g_hash_table_lookup (by_slot, &got)) == NULL)
            continue;
          stub.vaddr = got_shdr.sh_addr + at;
          stub.size = entry;
          stub_name = g_strconcat (slot->name, "@plt", NULL);
          stub.name = intern (self, stub_name);
          g_array_append_val (module->plt, stub);
        }
    }
sort:
  g_array_sort (module->plt, compare_plt_stubs);
}

static const char *
plt_name (HpSymbolizer *self,
          HpModule     *module,
          guint64       vaddr)
{
  const PltStub *stubs;
  guint lo = 0, hi;

  if (module->plt == NULL)
    load_plt (self, module);
  /* in vaddr order (load_plt sorts them); a stripped cc1 has about 500
   * and every unnamed address asks */
  stubs = (const PltStub *) (gconstpointer) module->plt->data;
  hi = module->plt->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (stubs[mid].vaddr <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0 && vaddr - stubs[lo - 1].vaddr < stubs[lo - 1].size)
    return stubs[lo - 1].name;
  return NULL;
}

static guint64
read_eh_value (const guint8 *p,
               guint         size,
               gboolean      big_endian)
{
  guint64 v = 0;

  for (guint i = 0; i < size; i++)
    v |= (guint64) p[big_endian ? i : size - 1 - i] << (8 * (size - 1 - i));
  return v;
}

/* The FDE search table of .eh_frame_hdr: pairs of 32-bit (FDE start,
 * FDE) relative to hdr_vaddr, sorted by start. */
typedef struct
{
  const guint8 *table;
  guint32       count;
  guint64       hdr_vaddr;
  gboolean      big_endian;
} EhTable;

/* Reads the FDE search table of .eh_frame_hdr of @elf, found by its
 * program header (stripped files may lack section headers). Only the
 * table encoding that binutils, gold, lld and the kernel's vDSO write
 * (DW_EH_PE_datarel | DW_EH_PE_sdata4) is read; FALSE for another. */
static gboolean
eh_table_read (Elf     *elf,
               EhTable *out)
{
  GElf_Ehdr ehdr;
  size_t n_phdrs;

  if (elf == NULL || gelf_getehdr (elf, &ehdr) == NULL || elf_getphdrnum (elf, &n_phdrs) != 0)
    return FALSE;
  for (size_t i = 0; i < n_phdrs; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;
      const guint8 *p;
      gsize size, pos = 4, ptr_size;
      gboolean big = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
      guint64 count;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_GNU_EH_FRAME)
        continue;
      data = elf_getdata_rawchunk (elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_BYTE);
      if (data == NULL || data->d_buf == NULL || data->d_size < 4)
        return FALSE;
      p = data->d_buf;
      size = data->d_size;
      /* version 1; eh_frame_ptr of 4 or 8 bytes; fde_count udata4; table */
      if (p[0] != 1 || p[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4) || p[2] != DW_EH_PE_udata4)
        return FALSE;
      switch (p[1] & 0x0f)
        {
        case DW_EH_PE_udata4: case DW_EH_PE_sdata4: ptr_size = 4; break;
        case DW_EH_PE_udata8: case DW_EH_PE_sdata8: ptr_size = 8; break;
        case DW_EH_PE_absptr: ptr_size = ehdr.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4; break;
        default: return FALSE;
        }
      pos += ptr_size;
      if (pos + 4 > size)
        return FALSE;
      count = read_eh_value (p + pos, 4, big);
      pos += 4;
      if (count == 0 || count > (size - pos) / 8)
        return FALSE;
      out->table = p + pos;
      out->count = (guint32) count;
      out->hdr_vaddr = phdr.p_vaddr;
      out->big_endian = big;
      return TRUE;
    }
  return FALSE;
}

typedef struct
{
  guint64 start;
  guint64 end;
} FdeRange;

static int
compare_fde_ranges (gconstpointer a,
                    gconstpointer b)
{
  const FdeRange *ra = a, *rb = b;

  return ra->start < rb->start ? -1 : ra->start > rb->start;
}

static gboolean
read_uleb (const guint8 **p,
           const guint8  *end,
           guint64       *value)
{
  guint shift = 0;

  *value = 0;
  while (*p < end && shift < 64)
    {
      guint8 b = *(*p)++;

      *value |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return TRUE;
      shift += 7;
    }
  return FALSE;
}

/* Reads a pointer in encoding @enc at *@p, the field at @vaddr; only the
 * fixed-size formats, absolute or pc-relative (what compilers write). */
static gboolean
read_eh_pointer (const guint8 **p,
                 const guint8  *end,
                 guint8         enc,
                 guint64        vaddr,
                 gboolean       big,
                 gboolean       is_64,
                 guint64       *value)
{
  guint size;
  gboolean is_signed = FALSE;
  guint64 v;

  switch (enc & 0x0f)
    {
    case DW_EH_PE_absptr: size = is_64 ? 8 : 4; break;
    case DW_EH_PE_udata2: size = 2; break;
    case DW_EH_PE_udata4: size = 4; break;
    case DW_EH_PE_udata8: size = 8; break;
    case DW_EH_PE_sdata2: size = 2; is_signed = TRUE; break;
    case DW_EH_PE_sdata4: size = 4; is_signed = TRUE; break;
    case DW_EH_PE_sdata8: size = 8; break;
    default: return FALSE;
    }
  if ((gsize) (end - *p) < size)
    return FALSE;
  v = read_eh_value (*p, size, big);
  if (is_signed && size < 8 && (v >> (8 * size - 1)) != 0)
    v |= ~(guint64) 0 << (8 * size);
  *p += size;
  switch (enc & 0x70)
    {
    case 0: break;
    case DW_EH_PE_pcrel: v += vaddr; break;
    default: return FALSE;
    }
  *value = v;
  return TRUE;
}

/* The FDEs of the .eh_frame section of @elf, as FdeRange sorted by start;
 * NULL when it has none or cannot be read. For files without the
 * .eh_frame_hdr table, which a search would otherwise use. */
static GArray *
eh_frame_ranges (Elf *elf)
{
  GElf_Ehdr ehdr;
  size_t shstrndx;
  Elf_Scn *scn = NULL;
  g_autoptr(GArray) ranges = NULL;
  g_autoptr(GHashTable) cie_encodings = NULL;  /* CIE offset -> encoding + 1 */

  if (elf == NULL || gelf_getehdr (elf, &ehdr) == NULL || elf_getshdrstrndx (elf, &shstrndx) != 0)
    return NULL;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;
      Elf_Data *data;
      const guint8 *base, *p, *end;
      gboolean big = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
      gboolean is_64 = ehdr.e_ident[EI_CLASS] == ELFCLASS64;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_PROGBITS
          || (name = elf_strptr (elf, shstrndx, shdr.sh_name)) == NULL || strcmp (name, ".eh_frame") != 0)
        continue;
      data = elf_rawdata (scn, NULL);
      if (data == NULL || data->d_buf == NULL)
        return NULL;
      ranges = g_array_new (FALSE, FALSE, sizeof (FdeRange));
      cie_encodings = g_hash_table_new (NULL, NULL);
      base = p = data->d_buf;
      end = base + data->d_size;
      while ((gsize) (end - p) >= 8)
        {
          const guint8 *entry = p, *body, *next;
          guint64 length = read_eh_value (p, 4, big);
          guint64 id;

          p += 4;
          if (length == 0)
            break;  /* the terminator */
          if (length == 0xffffffff || length > (guint64) (end - p) || length < 4)
            break;  /* 64-bit DWARF in .eh_frame, or a bad length */
          next = p + length;
          body = p;
          id = read_eh_value (p, 4, big);
          p += 4;
          if (id == 0)
            {
              /* a CIE: the encoding of its FDEs' addresses ('R') */
              const char *aug;
              guint8 version = *p++;
              guint64 skip, aug_len;
              guint8 encoding = DW_EH_PE_absptr;

              aug = (const char *) p;
              p = memchr (p, '\0', (gsize) (next - p));
              if (p == NULL || version == 0)
                {
                  p = next;
                  continue;
                }
              p++;
              if (!read_uleb (&p, next, &skip) || !read_uleb (&p, next, &skip))
                {
                  p = next;
                  continue;
                }
              if (version == 1 && p < next)
                p++;
              else if (!read_uleb (&p, next, &skip))
                {
                  p = next;
                  continue;
                }
              if (aug[0] == 'z' && read_uleb (&p, next, &aug_len))
                for (const char *a = aug + 1; *a != '\0' && p < next; a++)
                  {
                    if (*a == 'R')
                      encoding = *p++;
                    else if (*a == 'L')
                      p++;
                    else if (*a == 'P')
                      {
                        guint8 enc = *p++;
                        guint64 ignored;

                        if (!read_eh_pointer (&p, next, enc & 0x7f, 0, big, is_64, &ignored))
                          break;
                      }
                    else if (*a != 'S' && *a != 'B')
                      break;
                  }
              g_hash_table_insert (cie_encodings, GSIZE_TO_POINTER ((gsize) (entry - base)),
                                   GUINT_TO_POINTER ((guint) encoding + 1));
            }
          else if (id <= (guint64) (body - base))
            {
              /* an FDE: its CIE is @id bytes before the id */
              gpointer enc = g_hash_table_lookup (cie_encodings, GSIZE_TO_POINTER ((gsize) (body - base - id)));
              FdeRange r;
              guint64 range;

              if (enc != NULL
                  && read_eh_pointer (&p, next, (guint8) (GPOINTER_TO_UINT (enc) - 1), shdr.sh_addr + (guint64) (p - base),
                                      big, is_64, &r.start)
                  && read_eh_pointer (&p, next, (guint8) ((GPOINTER_TO_UINT (enc) - 1) & 0x0f), 0, big, is_64, &range)
                  && range > 0 && r.start + range > r.start)
                {
                  r.end = r.start + range;
                  g_array_append_val (ranges, r);
                }
            }
          p = next;
        }
      break;
    }
  if (ranges == NULL || ranges->len == 0)
    return NULL;
  g_array_sort (ranges, compare_fde_ranges);
  return g_steal_pointer (&ranges);
}

/* The FDE of @ranges that covers @vaddr */
static const FdeRange *
fde_range_find (GArray  *ranges,
                guint64  vaddr)
{
  guint lo = 0, hi = ranges->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (ranges, FdeRange, mid).start <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || vaddr >= g_array_index (ranges, FdeRange, lo - 1).end)
    return NULL;
  return &g_array_index (ranges, FdeRange, lo - 1);
}

/* The index of the entry of @t that starts last at or before @vaddr;
 * FALSE when none does. */
static gboolean
eh_table_find (const EhTable *t,
               guint64        vaddr,
               guint32       *index)
{
  guint32 lo = 0, hi = t->count;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;
      guint64 s = t->hdr_vaddr + (guint64) (gint64) (gint32) read_eh_value (t->table + 8 * (gsize) mid, 4, t->big_endian);

      if (s <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  *index = lo - 1;
  return TRUE;
}

/* Field @field (0: the FDE's start, 1: the FDE's address) of entry @i. */
static guint64
eh_table_value (const EhTable *t,
                guint32        i,
                guint          field)
{
  return t->hdr_vaddr + (guint64) (gint64) (gint32) read_eh_value (t->table + 8 * (gsize) i + 4 * field, 4, t->big_endian);
}

static void
load_eh_table (HpModule *module)
{
  Dwarf_Addr bias;
  EhTable t;

  module->eh_loaded = TRUE;
  if (eh_table_read (dwfl_module_getelf (module->dwfl_module, &bias), &t))
    {
      module->eh_table = t.table;
      module->eh_count = t.count;
      module->eh_hdr_vaddr = t.hdr_vaddr;
      module->eh_big_endian = t.big_endian;
    }
  else
    module->eh_ranges = eh_frame_ranges (dwfl_module_getelf (module->dwfl_module, &bias));
}

gboolean
hp_elf_fde_bounds (Elf     *elf,
                   guint64  vaddr,
                   guint64 *start,
                   guint64 *end)
{
  EhTable t;
  guint32 i;
  guint64 fde_start, fde, range = 0;
  size_t n_phdrs;
  const guint8 *p = NULL;
  gboolean found = FALSE;

  g_return_val_if_fail (start != NULL && end != NULL, FALSE);

  if (!eh_table_read (elf, &t) || !eh_table_find (&t, vaddr, &i) || elf_getphdrnum (elf, &n_phdrs) != 0)
    return FALSE;
  fde_start = eh_table_value (&t, i, 0);
  fde = eh_table_value (&t, i, 1);
  /* the FDE's bytes, through the segment that loads them */
  for (size_t k = 0; k < n_phdrs && p == NULL; k++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;

      if (gelf_getphdr (elf, (int) k, &phdr) == NULL || phdr.p_type != PT_LOAD
          || fde < phdr.p_vaddr || fde - phdr.p_vaddr + 24 > phdr.p_filesz)
        continue;
      data = elf_getdata_rawchunk (elf, (int64_t) (phdr.p_offset + (fde - phdr.p_vaddr)), 24, ELF_T_BYTE);
      if (data != NULL && data->d_buf != NULL && data->d_size >= 24)
        p = data->d_buf;
    }
  /* length (32-bit format only), CIE pointer, pc_begin, pc_range: the
   * table already says pc_begin, which tells its encoding (the CIE's) as
   * pcrel sdata4, as compilers write it, or an 8-byte absolute pointer */
  if (p == NULL || read_eh_value (p, 4, t.big_endian) == 0xffffffff)
    return FALSE;
  if (fde + 8 + (guint64) (gint64) (gint32) read_eh_value (p + 8, 4, t.big_endian) == fde_start)
    {
      range = read_eh_value (p + 12, 4, t.big_endian);
      found = TRUE;
    }
  else if (read_eh_value (p + 8, 8, t.big_endian) == fde_start)
    {
      range = read_eh_value (p + 16, 8, t.big_endian);
      found = TRUE;
    }
  if (!found || vaddr >= fde_start + range)
    return FALSE;
  *start = fde_start;
  *end = fde_start + range;
  return TRUE;
}

/* The ELF vaddr where the FDE of .eh_frame_hdr's table that starts last
 * at or before @vaddr starts; FALSE when there is no table or no FDE
 * starts before. FDEs do not overlap, so when an FDE covers @vaddr it is
 * this one. */
static gboolean
eh_table_start (HpModule *module,
                guint64   vaddr,
                guint64  *start)
{
  EhTable t;
  guint32 i;

  if (!module->eh_loaded)
    load_eh_table (module);
  if (module->eh_table == NULL && module->eh_ranges != NULL)
    {
      const FdeRange *r = fde_range_find (module->eh_ranges, vaddr);

      if (r == NULL)
        return FALSE;
      *start = r->start;
      return TRUE;
    }
  if (module->eh_table == NULL)
    return FALSE;
  t = (EhTable) { module->eh_table, module->eh_count, module->eh_hdr_vaddr, module->eh_big_endian };
  if (!eh_table_find (&t, vaddr, &i))
    return FALSE;
  *start = eh_table_value (&t, i, 0);
  return TRUE;
}

/* The @size bytes of @elf at ELF address @vaddr, from its loaded
 * segments; NULL when they are not all in one segment's file part. */
static const guint8 *
code_at (Elf    *elf,
         guint64 vaddr,
         gsize   size)
{
  size_t n_phdrs = 0;

  if (elf_getphdrnum (elf, &n_phdrs) != 0)
    return NULL;
  for (size_t i = 0; i < n_phdrs; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_LOAD || vaddr < phdr.p_vaddr
          || vaddr - phdr.p_vaddr >= phdr.p_filesz || phdr.p_filesz - (vaddr - phdr.p_vaddr) < size)
        continue;
      data = elf_getdata_rawchunk (elf, (int64_t) (phdr.p_offset + (vaddr - phdr.p_vaddr)), size, ELF_T_BYTE);
      return data != NULL ? data->d_buf : NULL;
    }
  return NULL;
}

/* main's ELF address in a program whose entry point @entry is glibc's
 * x86-64 _start (sysdeps/x86_64/start.S), which passes main to
 * __libc_start_main in %rdi: "mov $main, %rdi" (not PIE) or "lea
 * main(%rip), %rdi" (PIE) right before the call. Decoded only where every
 * instruction from the entry on is one that start.S has, or 0: any other
 * program's first instructions are no claim about its main. */
static guint64
start_main_argument (Elf    *elf,
                     guint64 entry)
{
  /* xor %ebp,%ebp; mov %rdx,%r9; pop %rsi; mov %rsp,%rdx; and $-16,%rsp; push %rax; push %rsp */
  static const guint8 prologue[] = { 0x31, 0xed, 0x49, 0x89, 0xd1, 0x5e, 0x48, 0x89, 0xe2,
                                     0x48, 0x83, 0xe4, 0xf0, 0x50, 0x54 };
  static const guint8 endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
  const gsize size = 64;
  const guint8 *code = code_at (elf, entry, size);
  gsize at = 0;

  if (code == NULL)
    return 0;
  if (memcmp (code, endbr64, sizeof endbr64) == 0)
    at += sizeof endbr64;
  if (memcmp (code + at, prologue, sizeof prologue) != 0)
    return 0;
  at += sizeof prologue;
  /* %r8 and %rcx: 0 (glibc 2.34 on), or fini and init before */
  while (at + 7 <= size)
    {
      const guint8 *op = code + at;

      if (op[0] == 0x45 && op[1] == 0x31 && op[2] == 0xc0)         /* xor %r8d,%r8d */
        at += 3;
      else if (op[0] == 0x31 && op[1] == 0xc9)                     /* xor %ecx,%ecx */
        at += 2;
      else if ((op[0] == 0x49 && op[1] == 0xc7 && op[2] == 0xc0)   /* mov $fini,%r8 */
               || (op[0] == 0x4c && op[1] == 0x8d && op[2] == 0x05) /* lea fini(%rip),%r8 */
               || (op[0] == 0x48 && op[1] == 0xc7 && op[2] == 0xc1) /* mov $init,%rcx */
               || (op[0] == 0x48 && op[1] == 0x8d && op[2] == 0x0d)) /* lea init(%rip),%rcx */
        at += 7;
      else
        break;
    }
  if (at + 7 + 6 > size)
    return 0;
  {
    const guint8 *op = code + at;
    const guint8 *call = op + 7;
    gint32 value;
    guint64 main_address;

    /* then the call: call rel32, addr32 call rel32, call *rel32(%rip) */
    if (!(call[0] == 0xe8 || (call[0] == 0x67 && call[1] == 0xe8) || (call[0] == 0xff && call[1] == 0x15)))
      return 0;
    memcpy (&value, op + 3, sizeof value);
    value = GINT32_FROM_LE (value);
    if (op[0] == 0x48 && op[1] == 0xc7 && op[2] == 0xc7)              /* mov $main,%rdi */
      main_address = (guint64) (gint64) value;
    else if (op[0] == 0x48 && op[1] == 0x8d && op[2] == 0x3d)         /* lea main(%rip),%rdi */
      main_address = entry + at + 7 + (guint64) (gint64) value;
    else
      return 0;
    return main_address != entry ? main_address : 0;
  }
}

/* The ELF entry point of a program, where the kernel starts its first
 * thread; 0 for a library (libc.so.6 and ld.so have an entry point too,
 * but name it, and have a DT_SONAME) or when there is none. */
static guint64
program_entry (HpModule *module)
{
  Dwarf_Addr bias;
  Elf *elf;
  GElf_Ehdr ehdr;
  gboolean pie = FALSE;
  size_t n_phdrs = 0;

  if (module->entry_loaded)
    return module->entry;
  module->entry_loaded = TRUE;
  elf = dwfl_module_getelf (module->dwfl_module, &bias);
  if (elf == NULL || gelf_getehdr (elf, &ehdr) == NULL || ehdr.e_entry == 0)
    return 0;
  if (ehdr.e_type == ET_DYN && elf_getphdrnum (elf, &n_phdrs) == 0)
    {
      /* a PIE has an interpreter (or DF_1_PIE when static) and no soname */
      for (size_t i = 0; i < n_phdrs; i++)
        {
          size_t entsize = gelf_fsize (elf, ELF_T_DYN, 1, EV_CURRENT);
          GElf_Phdr phdr;
          Elf_Data *data;

          if (gelf_getphdr (elf, (int) i, &phdr) == NULL)
            continue;
          if (phdr.p_type == PT_INTERP)
            pie = TRUE;
          if (phdr.p_type != PT_DYNAMIC || phdr.p_filesz > 1 << 20 || entsize == 0
              || (data = elf_getdata_rawchunk (elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_DYN)) == NULL)
            continue;
          for (size_t j = 0; j < phdr.p_filesz / entsize; j++)
            {
              GElf_Dyn dyn;

              if (gelf_getdyn (data, (int) j, &dyn) == NULL || dyn.d_tag == DT_NULL)
                break;
              if (dyn.d_tag == DT_SONAME)
                return 0;
              if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE))
                pie = TRUE;
            }
        }
    }
  if (ehdr.e_type == ET_EXEC || (ehdr.e_type == ET_DYN && pie))
    {
      module->entry = ehdr.e_entry;
      if (ehdr.e_machine == EM_X86_64)
        module->main = start_main_argument (elf, ehdr.e_entry);
    }
  return module->entry;
}

/* The ELF address of a stripped program's main, or 0: with no symbol to
 * name it, a stack of frame pointers stops at main (the code that calls
 * it keeps none) and would count as truncated. */
static guint64
program_main (HpModule *module)
{
  program_entry (module);
  return module->main;
}

/* Where the function around @address starts, as a file offset: the start
 * of the FDE that covers it (.eh_frame, kept by strip for unwinding, else
 * .debug_frame), the function's first instruction. @offset when no FDE
 * covers it. libdw gives the range of the CFI row of @address, which
 * starts after each push of the prologue: with .eh_frame, the FDE is
 * found in .eh_frame_hdr's table. */
static guint64
unnamed_function_start (HpModule   *module,
                        guint64     offset,
                        guint64     vaddr,
                        Dwarf_Addr  address)
{
  Dwarf_Addr cfi_bias = 0, start = 0, end = 0;
  Dwarf_CFI *cfi = dwfl_module_eh_cfi (module->dwfl_module, &cfi_bias);
  Dwarf_Frame *frame = NULL;
  guint64 start_address, fde_vaddr;

  if (cfi == NULL || dwarf_cfi_addrframe (cfi, address - cfi_bias, &frame) != 0)
    {
      cfi = dwfl_module_dwarf_cfi (module->dwfl_module, &cfi_bias);
      if (cfi == NULL || dwarf_cfi_addrframe (cfi, address - cfi_bias, &frame) != 0)
        return offset;
    }
  else if (eh_table_start (module, vaddr, &fde_vaddr) && fde_vaddr <= vaddr
           && vaddr - fde_vaddr <= offset)
    {
      free (frame);
      return offset - (vaddr - fde_vaddr);
    }
  dwarf_frame_info (frame, &start, &end, NULL);
  free (frame);
  start_address = start + cfi_bias;
  if (start_address > address || address - start_address > offset)
    return offset;
  return offset - (address - start_address);
}

static HpResolvedAddress *
resolve (HpSymbolizer *self,
         HpModule     *module,
         guint64       offset)
{
  g_autoptr(GPtrArray) inlines = NULL;
  g_autoptr(GArray) scopes = NULL;
  HpResolvedAddress *resolved;
  Dwarf_Die *function = NULL;
  Dwarf_Die *cudie;
  Dwarf_Addr cu_bias = 0;
  Dwarf_Addr address;
  Dwfl_Line *src;
  const char *src_file = NULL;
  guint64 vaddr;
  int src_line = 0;
  guint n;

  if (module->dwfl_module == NULL || !offset_to_vaddr (module, offset, &vaddr))
    return resolved_new (module, offset, 1);

  address = vaddr + module->bias;

  src = dwfl_module_getsrc (module->dwfl_module, address);
  if (src != NULL)
    {
      src_file = intern_source_file (self,
                                     dwfl_lineinfo (src, NULL, &src_line, NULL, NULL, NULL),
                                     dwfl_line_comp_dir (src));
      if (src_line < 0)
        src_line = 0;
    }

  cudie = dwfl_module_addrdie (module->dwfl_module, address, &cu_bias);
  scopes = g_array_new (FALSE, FALSE, sizeof (Dwarf_Die));
  if (cudie != NULL)
    {
      Dwarf_Addr pc = address - cu_bias;

      if (module->has_last_function
          && module->last_function_bias == cu_bias
          && dwarf_haspc (&module->last_function, pc) == 1)
        {
          g_array_append_val (scopes, module->last_function);
          find_code_scopes (&module->last_function, pc, scopes, 1);
        }
      else
        {
          find_code_scopes_indexed (module, cudie, pc, scopes);
          if (check_scopes)
            check_code_scopes (cudie, pc, scopes);
          for (guint i = 0; i < scopes->len; i++)
            {
              Dwarf_Die *die = &g_array_index (scopes, Dwarf_Die, i);

              if (dwarf_tag (die) == DW_TAG_subprogram)
                {
                  module->last_function = *die;
                  module->last_function_bias = cu_bias;
                  module->has_last_function = TRUE;
                  break;
                }
            }
        }
    }

  /* scopes is outermost first; walk it innermost first. */
  inlines = g_ptr_array_new ();
  for (guint i = scopes->len; i > 0; i--)
    {
      Dwarf_Die *die = &g_array_index (scopes, Dwarf_Die, i - 1);
      int tag = dwarf_tag (die);

      if (tag == DW_TAG_inlined_subroutine)
        g_ptr_array_add (inlines, die);
      else if (tag == DW_TAG_subprogram)
        {
          function = die;
          break;
        }
    }

  n = inlines->len + 1;
  resolved = resolved_new (module, offset, n);
  resolved->frames[0].file = src_file;
  resolved->frames[0].line = src_line;

  for (guint i = 0; i < inlines->len; i++)
    {
      Dwarf_Die *die = g_ptr_array_index (inlines, i);

      resolved->frames[i].function = die_function_name (self, module, die);
      resolved->frames[i].function_line = die_decl_line (die);
      resolved->frames[i].function_file = die_decl_file (self, die);
      resolved->frames[i].is_inline = TRUE;
      die_call_site (self, die, &resolved->frames[i + 1].file, &resolved->frames[i + 1].line);
    }

  if (function != NULL)
    {
      resolved->frames[n - 1].function = die_function_name (self, module, function);
      resolved->frames[n - 1].function_line = die_decl_line (function);
      resolved->frames[n - 1].function_file = die_decl_file (self, function);
      /* GCC gives some C++ functions no linkage name: template instances
       * ("__unguarded_linear_insert<…>", without std::) and the members of
       * classes made for lambdas ("_M_invoke" of two std::function
       * handlers). The symbol of the out-of-line copy names them whole and
       * apart, as perf shows them. */
      if (resolved->frames[n - 1].function != NULL && !die_has_linkage_name (function)
          && die_is_cplusplus (function))
        {
          const char *symbol = symtab_name (self, module, address);

          if (symbol != NULL && strstr (symbol, "::") != NULL)
            resolved->frames[n - 1].function = symbol;
        }
    }
  /* No DWARF (stripped, or assembly without DW_TAG_subprogram): the symbol
   * table still names the function, just without lines. */
  if (resolved->frames[n - 1].function == NULL)
    resolved->frames[n - 1].function = symtab_name (self, module, address);
  if (resolved->frames[n - 1].function == NULL)
    resolved->frames[n - 1].function = plt_name (self, module, vaddr);
  if (resolved->frames[n - 1].function == NULL)
    {
      /* Unresolved: one frame with no function, per the header. */
      resolved->n_frames = 1;
      memset (&resolved->frames[0], 0, sizeof resolved->frames[0]);
      /* named by its ELF address, as objdump and addr2line give it: in a
       * program linked at 0x400000 (not PIE) that is not the file offset */
      resolved->function_start = vaddr - (offset - unnamed_function_start (module, offset, vaddr, address));
      /* A stripped program's entry point is still its _start: the
       * processor knows a stack that reaches it as complete. */
      if (resolved->function_start == program_entry (module))
        resolved->frames[0].function = intern (self, "_start");
      /* and glibc's _start hands __libc_start_main the program's main */
      else if (resolved->function_start == program_main (module))
        resolved->frames[0].function = intern (self, "main");
    }

  return resolved;
}

static const HpResolvedAddress *lookup_kernel (HpSymbolizer *self,
                                               guint64       address);

const HpResolvedAddress *
hp_symbolizer_lookup (HpSymbolizer *self,
                      HpModule     *module,
                      guint64       file_offset)
{
  HpResolvedAddress *resolved;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (module != NULL, NULL);

  if (module->is_kernel)
    return lookup_kernel (self, file_offset);

  resolved = g_hash_table_lookup (module->cache, &file_offset);
  if (resolved != NULL)
    return resolved;

  resolved = resolve (self, module, file_offset);
  g_hash_table_insert (module->cache, &resolved->offset, resolved);
  return resolved;
}

/* Kernel symbols --------------------------------------------------------- */

static int
kernel_symbol_compare (gconstpointer a,
                       gconstpointer b)
{
  const KernelSymbol *sa = a;
  const KernelSymbol *sb = b;

  if (sa->address != sb->address)
    return sa->address < sb->address ? -1 : 1;
  return 0;
}

static HpModule *
kernel_module_for (HpSymbolizer *self,
                   const char   *bracketed)
{
  HpModule *module;

  if (bracketed == NULL)
    return self->kernel;

  module = g_hash_table_lookup (self->kernel_modules, bracketed);
  if (module == NULL)
    {
      module = hp_module_new (bracketed, bracketed);
      module->is_kernel = TRUE;
      g_hash_table_insert (self->kernel_modules, module->name, module);
    }
  return module;
}

/* Build id of the running kernel, from the ELF notes in /sys/kernel/notes. */
static char *
running_kernel_build_id (void)
{
  g_autofree char *notes = NULL;
  gsize len = 0;
  gsize pos = 0;

  if (!g_file_get_contents ("/sys/kernel/notes", &notes, &len, NULL))
    return NULL;
  /* Each note: an Elf64_Nhdr (the same three 4-byte words as Elf32_Nhdr),
   * its name and its descriptor, each padded to 4 bytes. */
  while (len - pos >= sizeof (Elf64_Nhdr))
    {
      Elf64_Nhdr nhdr;
      gsize name_at = pos + sizeof nhdr;
      gsize desc_at;

      memcpy (&nhdr, notes + pos, sizeof nhdr);
      desc_at = name_at + NOTE_ALIGN (nhdr.n_namesz);
      if (nhdr.n_namesz > len || nhdr.n_descsz > len || desc_at > len || nhdr.n_descsz > len - desc_at)
        break;
      if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == sizeof ELF_NOTE_GNU &&
          memcmp (notes + name_at, ELF_NOTE_GNU, sizeof ELF_NOTE_GNU) == 0)
        return hp_build_id_to_hex ((const guint8 *) notes + desc_at, nhdr.n_descsz);
      pos = desc_at + NOTE_ALIGN (nhdr.n_descsz);
    }
  return NULL;
}

/* A recording of another kernel than the running one must not be named
 * with this kernel's symbols: use the kallsyms perf saved in its build-id
 * cache (DIR/[kernel.kallsyms]/ID/kallsyms) or none. FALSE: none. */
static gboolean
choose_kallsyms (HpSymbolizer *self)
{
  g_autofree char *running = NULL;
  g_autoptr(GPtrArray) dirs = NULL;

  if (self->kernel_build_id == NULL || strcmp (self->kallsyms_path, "/proc/kallsyms") != 0)
    return TRUE;

  running = running_kernel_build_id ();
  if (running != NULL && strcmp (running, self->kernel_build_id) == 0)
    return TRUE;

  /* The same directories as files are searched in by build id; only
   * perf's caches (~/.debug, an extracted perf archive) hold kallsyms. */
  dirs = hp_file_locator_get_build_id_dirs (self->locator);
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = g_ptr_array_index (dirs, i);
      g_autofree char *saved = g_build_filename (dir, KERNEL_MODULE_NAME, self->kernel_build_id, "kallsyms", NULL);

      if (g_file_test (saved, G_FILE_TEST_IS_REGULAR))
        {
          g_free (self->kallsyms_path);
          self->kallsyms_path = g_steal_pointer (&saved);
          return TRUE;
        }
    }
  g_debug ("the recording is of another kernel (build id %s), whose symbols are not available",
           self->kernel_build_id);
  return FALSE;
}

/* Kernel symbols kept between recordings ----------------------------------
 *
 * Reading /proc/kallsyms costs a recording more than anything else that
 * does not depend on its length: the kernel prints some 100 000 lines and
 * we parse and sort them. Kernel text does not change while the machine
 * runs, so the sorted table is kept in the user's cache, keyed by the boot
 * id and the list of loaded modules (/proc/modules: name, size, address),
 * and read back in one piece.
 *
 * What the file may hold beyond that (BPF programs, ftrace and kprobe
 * trampolines) comes and goes without either changing, so the cache keeps
 * only the kernel image's symbols and those of the loaded modules, with the
 * address ranges they cover: the image from _stext to _etext, a module from
 * its first to its last function (one allocation, in which nothing else
 * can lie). An address outside them reads /proc/kallsyms whole, so every
 * name is what reading it would have given.
 *
 * The file, native byte order (it never leaves the machine):
 *   "HPKSYMS1", guint32 key length, ranges, symbols, strings length
 *   key (boot id and module list, hashed)
 *   ranges   { guint64 first, last }
 *   symbols  { guint64 address; guint32 name, module } (string offsets;
 *            module G_MAXUINT32 for the kernel image), sorted by address
 *   strings  NUL-terminated
 */

#define KALLSYMS_CACHE_MAGIC "HPKSYMS1"
#define KALLSYMS_NO_MODULE   G_MAXUINT32

typedef struct
{
  guint64 first;
  guint64 last;   /* inclusive: the address of the last function */
} KernelRange;

typedef struct
{
  guint64 address;
  guint32 name;
  guint32 module;
} CachedSymbol;

void
hp_symbolizer_set_kallsyms_cache (HpSymbolizer *self,
                                  const char   *cache,
                                  const char   *modules_path,
                                  const char   *boot_id_path)
{
  g_return_if_fail (self != NULL);

  g_free (self->kallsyms_cache);
  self->kallsyms_cache = g_strdup (cache);
  g_free (self->modules_path);
  self->modules_path = g_strdup (modules_path);
  g_free (self->boot_id_path);
  self->boot_id_path = g_strdup (boot_id_path);
}

/* The key of this boot and module list; NULL when there is no boot id.
 * @modules gets the loaded modules' "[name]"s. */
static char *
kallsyms_cache_key (HpSymbolizer *self,
                    GHashTable   *modules)
{
  g_autofree char *boot_id = NULL;
  g_autofree char *list = NULL;
  g_autoptr(GChecksum) checksum = NULL;

  if (self->kallsyms_cache == NULL || self->boot_id_path == NULL
      || !g_file_get_contents (self->boot_id_path, &boot_id, NULL, NULL))
    return NULL;
  g_strstrip (boot_id);
  if (boot_id[0] == '\0')
    return NULL;

  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, (const guchar *) boot_id, -1);
  /* No /proc/modules: a kernel without loadable modules. Lines are
   * "ext4 987136 2 - Live 0xffffffffc0a00000"; the use count and the state
   * change without the symbols changing. */
  if (self->modules_path != NULL && g_file_get_contents (self->modules_path, &list, NULL, NULL))
    {
      g_auto(GStrv) lines = g_strsplit (list, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);

          if (g_strv_length (fields) < 6)
            continue;
          g_checksum_update (checksum, (const guchar *) "\n", 1);
          g_checksum_update (checksum, (const guchar *) fields[0], -1);
          g_checksum_update (checksum, (const guchar *) " ", 1);
          g_checksum_update (checksum, (const guchar *) fields[1], -1);
          g_checksum_update (checksum, (const guchar *) " ", 1);
          g_checksum_update (checksum, (const guchar *) fields[5], -1);
          g_hash_table_add (modules, g_strdup_printf ("[%s]", fields[0]));
        }
    }
  return g_strdup (g_checksum_get_string (checksum));
}

static gboolean
in_kernel_ranges (GArray  *ranges,
                  guint64  address)
{
  for (guint i = 0; i < ranges->len; i++)
    {
      const KernelRange *range = &g_array_index (ranges, KernelRange, i);

      if (address >= range->first && address <= range->last)
        return TRUE;
    }
  return FALSE;
}

/* Fills the table from the cache if it was written with @key. A cache that
 * does not hold together is not used (and rewritten later). */
static gboolean
read_kallsyms_cache (HpSymbolizer *self,
                     const char   *key)
{
  g_autoptr(GMappedFile) map = NULL;
  g_autoptr(GArray) ranges = NULL;
  guint32 header[4];
  gsize symbols_at;
  const char *data;
  gsize len;
  gsize pos;
  gsize key_len = strlen (key);
  const char *strings;
  guint64 previous = 0;

  /* Mapped, not read: most of it is never touched. The cache is only ever
   * replaced by a rename (g_file_set_contents), never cut short in place,
   * so the mapping stays whole. */
  map = g_mapped_file_new (self->kallsyms_cache, FALSE, NULL);
  if (map == NULL)
    return FALSE;
  data = g_mapped_file_get_contents (map);
  len = g_mapped_file_get_length (map);
  pos = sizeof KALLSYMS_CACHE_MAGIC - 1;
  if (len < pos + sizeof header || memcmp (data, KALLSYMS_CACHE_MAGIC, pos) != 0)
    goto bad;
  memcpy (header, data + pos, sizeof header);
  pos += sizeof header;
  /* key, ranges, symbols and strings must be exactly the file */
  if (header[0] != key_len
      || (guint64) header[1] * sizeof (KernelRange) + (guint64) header[2] * sizeof (CachedSymbol)
         + header[3] + key_len != len - pos
      || header[3] == 0 || header[2] == 0)
    goto bad;
  if (memcmp (data + pos, key, key_len) != 0)
    {
      g_debug ("%s: another boot or other modules", self->kallsyms_cache);
      return FALSE;
    }
  pos += key_len;

  ranges = g_array_sized_new (FALSE, FALSE, sizeof (KernelRange), header[1]);
  g_array_set_size (ranges, header[1]);
  memcpy (ranges->data, data + pos, header[1] * sizeof (KernelRange));
  pos += header[1] * sizeof (KernelRange);

  strings = data + len - header[3];
  if (strings[header[3] - 1] != '\0')
    goto bad;
  /* Checked once here, so that lookups may trust it: sorted, and every
   * name and module inside the strings. */
  symbols_at = pos;
  for (guint32 i = 0; i < header[2]; i++, pos += sizeof (CachedSymbol))
    {
      CachedSymbol cached;

      memcpy (&cached, data + pos, sizeof cached);
      if (cached.name >= header[3] || cached.address < previous
          || (cached.module != KALLSYMS_NO_MODULE
              && (cached.module >= header[3] || strings[cached.module] != '[')))
        goto bad;
      previous = cached.address;
    }

  g_array_set_size (self->kernel_symbols, 0);
  g_clear_pointer (&self->kallsyms_data, g_free);
  g_clear_pointer (&self->kallsyms_map, g_mapped_file_unref);
  self->kallsyms_map = g_steal_pointer (&map);
  self->cached_symbols = data + symbols_at;
  self->n_cached = header[2];
  self->cached_strings = strings;
  g_clear_pointer (&self->kernel_ranges, g_array_unref);
  self->kernel_ranges = g_steal_pointer (&ranges);
  self->has_kernel_symbols = TRUE;
  return TRUE;

bad:
  g_debug ("%s: not a cache of kernel symbols", self->kallsyms_cache);
  return FALSE;
}

/* Keeps the image's and @modules' part of the whole table just read. */
static void
write_kallsyms_cache (HpSymbolizer *self,
                      const char   *key,
                      GHashTable   *modules)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (KernelRange));
  g_autoptr(GArray) cached = g_array_new (FALSE, FALSE, sizeof (CachedSymbol));
  g_autoptr(GHashTable) module_ranges = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GHashTable) offsets = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) strings = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  KernelRange image = { 0, 0 };
  gboolean have_stext = FALSE, have_etext = FALSE;
  guint32 header[4];

  for (guint i = 0; i < self->kernel_symbols->len; i++)
    {
      const KernelSymbol *sym = &g_array_index (self->kernel_symbols, KernelSymbol, i);
      CachedSymbol c;

      if (sym->module != self->kernel && !g_hash_table_contains (modules, sym->module->name))
        continue;  /* BPF, trampolines: they come and go */
      if (sym->module == self->kernel)
        {
          if (strcmp (sym->name, "_stext") == 0 && !have_stext)
            image.first = sym->address, have_stext = TRUE;
          else if (strcmp (sym->name, "_etext") == 0)
            image.last = sym->address, have_etext = TRUE;
          c.module = KALLSYMS_NO_MODULE;
        }
      else
        {
          KernelRange *range = g_hash_table_lookup (module_ranges, sym->module->name);

          if (range == NULL)
            {
              range = g_new (KernelRange, 1);
              range->first = range->last = sym->address;
              g_hash_table_insert (module_ranges, sym->module->name, range);
            }
          range->first = MIN (range->first, sym->address);
          range->last = MAX (range->last, sym->address);
          if (!g_hash_table_lookup_extended (offsets, sym->module->name, NULL, NULL))
            {
              g_hash_table_insert (offsets, sym->module->name, GUINT_TO_POINTER (strings->len));
              g_string_append_len (strings, sym->module->name, strlen (sym->module->name) + 1);
            }
          c.module = GPOINTER_TO_UINT (g_hash_table_lookup (offsets, sym->module->name));
        }
      c.address = sym->address;
      c.name = strings->len;
      g_string_append_len (strings, sym->name, strlen (sym->name) + 1);
      g_array_append_val (cached, c);
    }

  if (have_stext && have_etext && image.first < image.last)
    g_array_append_val (ranges, image);
  {
    GHashTableIter iter;
    KernelRange *range;

    g_hash_table_iter_init (&iter, module_ranges);
    while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &range))
      g_array_append_val (ranges, *range);
  }
  if (ranges->len == 0 || cached->len == 0 || strings->len >= G_MAXUINT32)
    return;

  header[0] = strlen (key);
  header[1] = ranges->len;
  header[2] = cached->len;
  header[3] = strings->len;
  g_byte_array_append (out, (const guint8 *) KALLSYMS_CACHE_MAGIC, sizeof KALLSYMS_CACHE_MAGIC - 1);
  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  g_byte_array_append (out, (const guint8 *) key, header[0]);
  g_byte_array_append (out, (const guint8 *) ranges->data, ranges->len * sizeof (KernelRange));
  g_byte_array_append (out, (const guint8 *) cached->data, cached->len * sizeof (CachedSymbol));
  g_byte_array_append (out, (const guint8 *) strings->str, strings->len);

  dir = g_path_get_dirname (self->kallsyms_cache);
  if (g_mkdir_with_parents (dir, 0700) != 0
      || !g_file_set_contents (self->kallsyms_cache, (const char *) out->data, out->len, &error))
    g_debug ("%s: kernel symbols not kept: %s", self->kallsyms_cache,
             error != NULL ? error->message : g_strerror (errno));
}

/* Lines are "ffffffff81000000 T _stext" or
 * "ffffffffc0a01000 t foo_init\t[foo]". */
static void
read_kallsyms_file (HpSymbolizer *self)
{
  g_autoptr(GError) error = NULL;
  gboolean any_nonzero = FALSE;
  gsize len;
  char *line;
  char *end;

  g_array_set_size (self->kernel_symbols, 0);
  g_clear_pointer (&self->kallsyms_data, g_free);
  g_clear_pointer (&self->kallsyms_map, g_mapped_file_unref);
  self->cached_symbols = self->cached_strings = NULL;
  self->n_cached = 0;
  g_clear_pointer (&self->kernel_ranges, g_array_unref);
  self->has_kernel_symbols = FALSE;

  if (!g_file_get_contents (self->kallsyms_path, &self->kallsyms_data, &len, &error))
    {
      g_debug ("kernel symbols unavailable: %s", error->message);
      return;
    }

  end = self->kallsyms_data + len;
  for (line = self->kallsyms_data; line < end;)
    {
      char *eol = memchr (line, '\n', end - line);
      char *p;
      char *name;
      char *module_name = NULL;
      KernelSymbol sym;
      char type;

      if (eol == NULL)
        eol = end;
      *eol = '\0';

      sym.address = g_ascii_strtoull (line, &p, 16);
      if (p == line || p[0] != ' ' || p[1] == '\0' || p[2] != ' ')
        goto next;
      type = p[1];
      if (type != 't' && type != 'T' && type != 'w' && type != 'W')
        goto next;
      name = p + 3;
      p = strchr (name, '\t');
      if (p != NULL)
        {
          *p = '\0';
          module_name = g_strstrip (p + 1);
          if (module_name[0] != '[')
            module_name = NULL;
        }
      if (name[0] == '\0')
        goto next;

      sym.name = name;
      sym.module = kernel_module_for (self, module_name);
      if (sym.address != 0)
        any_nonzero = TRUE;
      g_array_append_val (self->kernel_symbols, sym);

    next:
      line = eol + 1;
    }

  /* With kptr_restrict, unprivileged readers see every address as zero:
   * the names would all map to address 0 and name every sample wrongly. */
  if (!any_nonzero)
    {
      g_array_set_size (self->kernel_symbols, 0);
      return;
    }

  g_array_sort (self->kernel_symbols, kernel_symbol_compare);
  self->has_kernel_symbols = TRUE;
}

static void
load_kallsyms (HpSymbolizer *self)
{
  g_autoptr(GHashTable) modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *path = g_strdup (self->kallsyms_path);
  g_autofree char *key = NULL;

  self->kallsyms_loaded = TRUE;

  if (!choose_kallsyms (self))
    return;

  /* A saved kallsyms of another kernel is read as it is. */
  if (strcmp (path, self->kallsyms_path) == 0)
    key = kallsyms_cache_key (self, modules);
  if (key != NULL && read_kallsyms_cache (self, key))
    return;

  read_kallsyms_file (self);
  if (key != NULL && self->has_kernel_symbols)
    write_kallsyms_cache (self, key, modules);
}

gboolean
hp_symbolizer_has_kernel_symbols (HpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (!self->kallsyms_loaded)
    load_kallsyms (self);
  return self->has_kernel_symbols;
}

/* The symbol of the cache's table at @index. */
static void
cached_symbol_at (HpSymbolizer *self,
                  guint32       index,
                  KernelSymbol *sym)
{
  CachedSymbol cached;

  memcpy (&cached, self->cached_symbols + (gsize) index * sizeof cached, sizeof cached);
  sym->address = cached.address;
  sym->name = self->cached_strings + cached.name;
  sym->module = kernel_module_for (self, cached.module == KALLSYMS_NO_MODULE ? NULL : self->cached_strings + cached.module);
}

/* The last symbol whose address is <= @address, into @sym; FALSE when
 * there is none. */
static gboolean
find_kernel_symbol (HpSymbolizer *self,
                    guint64       address,
                    KernelSymbol *sym)
{
  guint lo = 0;
  guint hi = self->n_cached > 0 ? self->n_cached : self->kernel_symbols->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint64 at;

      if (self->n_cached > 0)
        memcpy (&at, self->cached_symbols + (gsize) mid * sizeof (CachedSymbol) + G_STRUCT_OFFSET (CachedSymbol, address), sizeof at);
      else
        at = g_array_index (self->kernel_symbols, KernelSymbol, mid).address;
      if (at <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  if (self->n_cached > 0)
    cached_symbol_at (self, lo - 1, sym);
  else
    *sym = g_array_index (self->kernel_symbols, KernelSymbol, lo - 1);
  return TRUE;
}

static const HpResolvedAddress *
lookup_kernel (HpSymbolizer *self,
               guint64       address)
{
  HpResolvedAddress *resolved;
  KernelSymbol symbol;
  const KernelSymbol *sym = NULL;

  /* Kernel results are cached in the kernel image's module, keyed by
   * address, whatever module the symbol turns out to belong to. */
  resolved = g_hash_table_lookup (self->kernel->cache, &address);
  if (resolved != NULL)
    return resolved;

  if (!self->kallsyms_loaded)
    load_kallsyms (self);
  /* Outside what the cache covers: the whole file says. Results already
   * given stay right, they came from the covered part. */
  if (self->kernel_ranges != NULL && !in_kernel_ranges (self->kernel_ranges, address))
    {
      g_debug ("kernel address %" G_GINT64_MODIFIER "x outside the kept symbols: reading %s",
               address, self->kallsyms_path);
      read_kallsyms_file (self);
    }
  if (self->has_kernel_symbols && find_kernel_symbol (self, address, &symbol))
    sym = &symbol;

  resolved = resolved_new (sym != NULL ? sym->module : self->kernel, address, 1);
  if (sym != NULL)
    resolved->frames[0].function = intern_symbol_name (self, sym->name);
  g_hash_table_insert (self->kernel->cache, &resolved->offset, resolved);
  return resolved;
}

const HpResolvedAddress *
hp_symbolizer_lookup_kernel (HpSymbolizer *self,
                             guint64       address)
{
  g_return_val_if_fail (self != NULL, NULL);

  return lookup_kernel (self, address);
}

/* Modules ---------------------------------------------------------------- */

const char *
hp_module_get_path (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);

  return module->path;
}

const char *
hp_module_get_build_id (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);

  return module->build_id;
}

gboolean
hp_module_is_kernel (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, FALSE);

  return module->is_kernel;
}

GPtrArray *
hp_module_find_code_files (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);

  if (module->is_kernel || module->locator == NULL)
    return g_ptr_array_new_with_free_func (g_free);
  /* A vDSO: the image the symbolizer found is the only candidate. */
  if (strcmp (module->path, VDSO_MODULE_NAME) == 0)
    {
      GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

      if (module->file != NULL)
        g_ptr_array_add (files, g_strdup (module->file));
      return files;
    }
  return hp_file_locator_find (module->locator, module->path, module->build_id, HP_FILE_LOCATE_CODE);
}

const char *
hp_module_get_file (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);

  return module->file;
}

const char *
hp_module_get_name (const HpModule *module)
{
  g_return_val_if_fail (module != NULL, NULL);

  return module->name;
}
