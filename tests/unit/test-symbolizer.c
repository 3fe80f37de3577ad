/* test-symbolizer.c - HpSymbolizer against a program built with a known inline chain
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * symtest-target.c is compiled with -g -O2; its helper() is always inlined
 * into outer(). The expected lines come from marker comments in its source,
 * so the checks hold however that file is edited.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <dlfcn.h>

#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"
#include "test-common.h"

static guint
marker_line (const char *marker)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *needle = g_strconcat ("MARK: ", marker, " ", NULL);
  const char *hit;
  guint line = 1;

  g_file_get_contents (SYMTEST_SOURCE, &contents, NULL, &error);
  g_assert_no_error (error);
  hit = strstr (contents, needle);
  g_assert_nonnull (hit);
  for (const char *p = contents; p < hit; p++)
    if (*p == '\n')
      line++;
  return line;
}

static char *
basename_of (const char *path)
{
  g_assert_nonnull (path);
  return g_path_get_basename (path);
}

static void
test_inline_chain (void)
{
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  const HpResolvedAddress *chain = NULL;
  const char *build_id;
  HpModule *module;
  guint64 offset, size;
  guint helper_decl = marker_line ("helper-decl");
  guint helper_end = marker_line ("helper-end");
  guint outer_decl = marker_line ("outer-decl");
  guint call_helper = marker_line ("call-helper");

  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &offset, &size));
  g_assert_cmpuint (size, >, 0);

  module = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, NULL, 0);
  g_assert_nonnull (module);
  g_assert_false (hp_module_is_kernel (module));
  g_assert_cmpstr (hp_module_get_name (module), ==, "symtest-target");
  g_assert_cmpstr (hp_module_get_path (module), ==, SYMTEST_TARGET);
  /* Opened once: the same path gives the same module. */
  g_assert_true (module == hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, NULL, 0));

  build_id = hp_module_get_build_id (module);
  g_assert_nonnull (build_id);
  g_assert_cmpuint (strlen (build_id), ==, 40);
  for (const char *p = build_id; *p; p++)
    g_assert_true (g_ascii_isdigit (*p) || (*p >= 'a' && *p <= 'f'));

  for (guint64 o = offset; o < offset + size; o++)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, o);

      g_assert_nonnull (r);
      g_assert_cmpuint (r->n_frames, >=, 1);
      g_assert_true (r->module == module);
      g_assert_cmpuint (r->offset, ==, o);
      /* Every byte of outer() belongs to outer(), inlined or not. */
      g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "outer");
      g_assert_false (r->frames[r->n_frames - 1].is_inline);
      if (r->n_frames == 2 && chain == NULL)
        chain = r;
    }

  g_assert_nonnull (chain);
  g_assert_cmpstr (chain->frames[0].function, ==, "helper");
  g_assert_true (chain->frames[0].is_inline);
  g_assert_cmpuint (chain->frames[0].function_line, ==, helper_decl);
  g_assert_cmpuint (chain->frames[0].line, >, helper_decl);
  g_assert_cmpuint (chain->frames[0].line, <, helper_end);
  {
    g_autofree char *base = basename_of (chain->frames[0].file);
    g_assert_cmpstr (base, ==, "symtest-target.c");
  }

  g_assert_cmpstr (chain->frames[1].function, ==, "outer");
  g_assert_false (chain->frames[1].is_inline);
  g_assert_cmpuint (chain->frames[1].function_line, ==, outer_decl);
  g_assert_cmpuint (chain->frames[1].line, ==, call_helper);
  {
    g_autofree char *base = basename_of (chain->frames[1].file);
    g_assert_cmpstr (base, ==, "symtest-target.c");
  }
  /* DWARF gives the path relative to the build directory; the symbolizer
   * makes it one the source view can open. */
  g_assert_true (g_path_is_absolute (chain->frames[0].file));
  g_assert_true (g_file_test (chain->frames[0].file, G_FILE_TEST_IS_REGULAR));
  /* Interned: one copy of a file name for all frames. */
  g_assert_true (chain->frames[0].file == chain->frames[1].file);

  /* Cached: a repeat lookup returns the same result. */
  g_assert_true (chain == hp_symbolizer_lookup (symbolizer, module, chain->offset));

  /* main is resolved too, with its own declaration line. */
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "main", &offset, &size));
  {
    const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, offset);

    g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "main");
    g_assert_cmpuint (r->frames[r->n_frames - 1].function_line, >, call_helper);
  }

  /* An offset outside every PT_LOAD segment resolves to nothing. */
  {
    const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, G_GUINT64_CONSTANT (1) << 40);

    g_assert_cmpuint (r->n_frames, ==, 1);
    g_assert_null (r->frames[0].function);
    g_assert_null (r->frames[0].file);
    g_assert_cmpuint (r->frames[0].line, ==, 0);
  }

  hp_symbolizer_free (symbolizer);
}

/* A copy of the test target without its DWARF (objcopy --strip-debug),
 * in a new folder *@dir; NULL, with the test skipped, without objcopy. */
static char *
strip_debug_copy (char **dir)
{
  g_autofree char *objcopy = g_find_program_in_path ("objcopy");
  g_autoptr(GError) error = NULL;
  char *stripped;
  int status;

  if (objcopy == NULL)
    {
      g_test_skip ("objcopy not installed");
      return NULL;
    }
  *dir = g_dir_make_tmp ("hp-symtest-XXXXXX", &error);
  g_assert_no_error (error);
  stripped = g_build_filename (*dir, "symtest-stripped", NULL);
  {
    const char *argv[] = { objcopy, "--strip-debug", SYMTEST_TARGET, stripped, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_spawn_check_wait_status (status, &error);
    g_assert_no_error (error);
  }
  return stripped;
}

/* A stripped module whose debug information is nowhere here: without a
 * debuginfod server (main() unsets DEBUGINFOD_URLS), looking its
 * addresses up must not load libdebuginfod, which libdwfl's standard
 * search does whenever it finds nothing (and libcurl, GnuTLS, Kerberos
 * with it: 6-8 ms of CPU in every recording of a stripped program). Runs
 * first, before any other test could have loaded it. */
static void
test_no_debuginfod_load (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  HpSymbolizer *symbolizer;
  HpModule *module;
  const HpResolvedAddress *r;
  guint64 offset, size;

  g_assert_null (dlopen ("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD));
  stripped = strip_debug_copy (&dir);
  if (stripped == NULL)
    return;
  g_assert_true (hp_test_elf_function (stripped, "outer", &offset, &size));

  symbolizer = hp_symbolizer_new ();
  module = hp_symbolizer_get_module (symbolizer, stripped, NULL, 0);
  r = hp_symbolizer_lookup (symbolizer, module, offset);
  g_assert_cmpstr (r->frames[0].function, ==, "outer");
  g_assert_null (r->frames[0].file);
  g_assert_null (dlopen ("libdebuginfod.so.1", RTLD_LAZY | RTLD_NOLOAD));
  hp_symbolizer_free (symbolizer);

  g_unlink (stripped);
  g_rmdir (dir);
}

static void
test_symtab_fallback (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  HpSymbolizer *symbolizer;
  HpModule *module;
  guint64 offset, size;

  stripped = strip_debug_copy (&dir);
  if (stripped == NULL)
    return;

  g_assert_true (hp_test_elf_function (stripped, "outer", &offset, &size));

  symbolizer = hp_symbolizer_new ();
  module = hp_symbolizer_get_module (symbolizer, stripped, NULL, 0);
  for (guint64 o = offset; o < offset + size; o++)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, o);

      g_assert_cmpuint (r->n_frames, ==, 1);
      g_assert_cmpstr (r->frames[0].function, ==, "outer");
      g_assert_null (r->frames[0].file);
      g_assert_cmpuint (r->frames[0].line, ==, 0);
      g_assert_false (r->frames[0].is_inline);
    }
  hp_symbolizer_free (symbolizer);

  g_unlink (stripped);
  g_rmdir (dir);
}

/* The name libdwfl's own search gives to @vaddr of @module, filtered as the
 * symbolizer filters it; NULL: none. */
static const char *
reference_symtab_name (Dwfl_Module *module,
                       Dwarf_Addr   vaddr)
{
  GElf_Off offset;
  GElf_Sym sym;
  GElf_Word shndx;
  const char *name = dwfl_module_addrinfo (module, vaddr, &offset, &sym, &shndx, NULL, NULL);
  int type;

  if (name == NULL)
    return NULL;
  type = GELF_ST_TYPE (sym.st_info);
  if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
    return NULL;
  if (shndx == SHN_UNDEF || shndx == SHN_ABS)
    return NULL;
  return name;
}

/* A file as libdwfl reads it offline, to compare the symbolizer's
 * answers with. */
typedef struct {
  Dwfl        *dwfl;
  Dwfl_Module *module;
  Elf         *elf;
  Dwarf_Addr   bias;
  size_t       phnum;
} Reference;

static void
reference_open (Reference  *ref,
                const char *path)
{
  static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
  };

  ref->dwfl = dwfl_begin (&callbacks);
  g_assert_nonnull (ref->dwfl);
  ref->module = dwfl_report_offline (ref->dwfl, "reference", path, -1);
  g_assert_nonnull (ref->module);
  dwfl_report_end (ref->dwfl, NULL, NULL);
  ref->elf = dwfl_module_getelf (ref->module, &ref->bias);
  g_assert_nonnull (ref->elf);
  g_assert_cmpint (elf_getphdrnum (ref->elf, &ref->phnum), ==, 0);
}

/* The next segment of code of @ref at or after program header *@i, into
 * @phdr; FALSE after the last. */
static gboolean
reference_next_code (Reference *ref,
                     size_t    *i,
                     GElf_Phdr *phdr)
{
  for (; *i < ref->phnum; (*i)++)
    if (gelf_getphdr (ref->elf, (int) *i, phdr) != NULL && phdr->p_type == PT_LOAD && (phdr->p_flags & PF_X))
      {
        (*i)++;
        return TRUE;
      }
  return FALSE;
}

/* Symbol table answers are shared between the addresses that libdwfl
 * would name alike (hp-symbolizer.c, load_sym_bounds): at every byte of
 * the program's code the name must still be libdwfl's, while the tables
 * are searched far fewer times than there are addresses. */
static void
test_symtab_classes (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  HpSymbolizer *symbolizer;
  HpModule *module;
  Reference ref;
  GElf_Phdr phdr;
  guint n_addresses = 0, n_named = 0;

  stripped = strip_debug_copy (&dir);
  if (stripped == NULL)
    return;

  reference_open (&ref, stripped);
  symbolizer = hp_symbolizer_new ();
  module = hp_symbolizer_get_module (symbolizer, stripped, NULL, 0);
  for (size_t i = 0; reference_next_code (&ref, &i, &phdr);)
    {
      for (guint64 o = 0; o < phdr.p_filesz; o++)
        {
          const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, phdr.p_offset + o);
          const char *expected = reference_symtab_name (ref.module, phdr.p_vaddr + o + ref.bias);
          const char *got = r->frames[r->n_frames - 1].function;

          if (expected != NULL)
            {
              g_assert_cmpstr (got, ==, expected);
              n_named++;
            }
          else
            g_assert_true (got == NULL || g_str_has_suffix (got, "@plt"));
          n_addresses++;
        }
    }
  g_test_message ("%u addresses, %u named, %u searches", n_addresses, n_named, hp_symbolizer_get_symtab_searches (symbolizer));
  /* main, outer, _start, the C runtime's helpers */
  g_assert_cmpuint (n_named, >, 100);
  g_assert_cmpuint (hp_symbolizer_get_symtab_searches (symbolizer), >, 0);
  g_assert_cmpuint (hp_symbolizer_get_symtab_searches (symbolizer), <, n_addresses / 10);

  hp_symbolizer_free (symbolizer);
  dwfl_end (ref.dwfl);
  g_unlink (stripped);
  g_rmdir (dir);
}

/* The output of @argv (searched in PATH); NULL when it cannot run. */
static char *
command_output (const char *const *argv)
{
  g_autofree char *out = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    return NULL;
  return g_steal_pointer (&out);
}

/* The system's C library has the stubs perf and objdump name in three
 * ways, each of which the demo program lacks: its .rela.plt is not in GOT
 * order (the IRELATIVE relocations of its internal calls to memcpy,
 * strlen... come between), so the i-th relocation is not the i-th stub
 * (realloc is the first relocation and the third stub); those IRELATIVE
 * stubs name no symbol (objdump: "*ABS*+0x9be70@plt"), and are named after
 * the IFUNC whose resolver is there (memcpy@plt); and malloc and free are
 * called through .plt.got, after their GLOB_DAT slot. Every stub objdump
 * names must have that name here. */
static void
test_plt_libc (void)
{
  const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
  const char *objdump_argv[] = { "objdump", "-d", "-j", ".plt", "-j", ".plt.got", libc, NULL };
  const char *nm_argv[] = { "nm", "-D", "--defined-only", libc, NULL };
  g_autofree char *disassembly = NULL;
  g_autofree char *nm = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) symbols = NULL;
  HpSymbolizer *symbolizer;
  HpModule *module;
  guint64 section_vaddr = 0, section_offset = 0, size;
  guint n_stubs = 0, n_ifunc = 0, n_got = 0;
  gboolean in_got = FALSE;

  if (!g_file_test (libc, G_FILE_TEST_IS_REGULAR)
      || (disassembly = command_output (objdump_argv)) == NULL || (nm = command_output (nm_argv)) == NULL)
    {
      g_test_skip ("no x86-64 libc.so.6, objdump or nm here");
      return;
    }
  symbolizer = hp_symbolizer_new ();
  module = hp_symbolizer_get_module (symbolizer, libc, NULL, 0);
  symbols = g_strsplit (nm, "\n", -1);
  lines = g_strsplit (disassembly, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *expected = NULL;
      const HpResolvedAddress *r;
      guint64 vaddr;
      char *end = NULL, *name, *at;

      if (g_str_has_prefix (lines[i], "Disassembly of section "))
        {
          in_got = strstr (lines[i], ".plt.got") != NULL;
          g_assert_true (hp_test_elf_section (libc, in_got ? ".plt.got" : ".plt", &section_offset, &size));
          section_vaddr = 0;
          continue;
        }
      /* "0000000000026290 <*ABS*+0x9be70@plt>:" */
      vaddr = g_ascii_strtoull (lines[i], &end, 16);
      if (end == lines[i] || !g_str_has_prefix (end, " <"))
        continue;
      if (section_vaddr == 0)
        section_vaddr = vaddr;  /* the first label is where the section starts */
      if (!g_str_has_suffix (end, "@plt>:"))
        continue;  /* .plt's entry 0, "<*ABS*+0x9f550@plt-0x10>" */
      name = g_strndup (end + 2, strlen (end + 2) - strlen ("@plt>:"));
      if (g_str_has_prefix (name, "*ABS*+0x"))
        {
          /* the IFUNC whose resolver the relocation's addend is */
          guint64 resolver = g_ascii_strtoull (name + strlen ("*ABS*+0x"), NULL, 16);

          for (guint j = 0; symbols[j] != NULL && expected == NULL; j++)
            {
              g_auto(GStrv) f = g_strsplit (symbols[j], " ", 3);

              if (g_strv_length (f) == 3 && strcmp (f[1], "i") == 0 && g_ascii_strtoull (f[0], NULL, 16) == resolver)
                expected = g_strndup (f[2], strcspn (f[2], "@"));
            }
          n_ifunc++;
        }
      else
        {
          expected = g_strdup (name);
          n_got += in_got;
        }
      g_free (name);
      g_assert_nonnull (expected);
      r = hp_symbolizer_lookup (symbolizer, module, section_offset + (vaddr - section_vaddr) + 2);
      g_assert_cmpuint (r->n_frames, ==, 1);
      if (r->frames[0].function == NULL)
        g_error ("%s at 0x%" G_GINT64_MODIFIER "x: no name, objdump says %s@plt", libc, vaddr, expected);
      at = g_strrstr (r->frames[0].function, "@plt");
      g_assert_nonnull (at);
      /* an IFUNC may have aliases at one resolver (memcpy, __memcpy): any */
      if (strncmp (r->frames[0].function, expected, at - r->frames[0].function) != 0
          || strlen (expected) != (gsize) (at - r->frames[0].function))
        {
          gboolean alias = FALSE;

          for (guint j = 0; symbols[j] != NULL && !alias && g_str_has_prefix (lines[i] + 17, "<*ABS*"); j++)
            alias = strstr (symbols[j], " i ") != NULL
                    && strncmp (strstr (symbols[j], " i ") + 3, r->frames[0].function, at - r->frames[0].function) == 0;
          if (!alias)
            g_error ("%s at 0x%" G_GINT64_MODIFIER "x: %s, objdump says %s@plt", libc, vaddr,
                     r->frames[0].function, expected);
        }
      n_stubs++;
    }
  g_test_message ("%u stubs, %u of them IFUNC, %u in .plt.got", n_stubs, n_ifunc, n_got);
  g_assert_cmpuint (n_stubs, >, 0);
  hp_symbolizer_free (symbolizer);
}

/* The symbolizer answers a lookup without reading the whole symbol table
 * (hp-symbolizer.c, symtab_search), and its answer must still be exactly
 * libdwfl's. Checked on the system's own big libraries and programs, as
 * installed here (stripped, with a separate debug file or not), at a few
 * thousand addresses spread over their code. */
static void
test_symtab_system_files (void)
{
  static const char *const candidates[] = {
    "/lib/x86_64-linux-gnu/libc.so.6",
    "/lib/x86_64-linux-gnu/liblzma.so.5",
    "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0",
    "/usr/lib/x86_64-linux-gnu/libglib-2.0.so.0",
    "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
  };
  guint n_files = 0;

  for (guint f = 0; f < G_N_ELEMENTS (candidates); f++)
    {
      const char *path = candidates[f];
      HpSymbolizer *symbolizer;
      HpModule *module;
      Reference ref;
      GElf_Phdr phdr;
      guint n_addresses = 0, n_named = 0, n_searches;
      guint64 n_steps;
      int n_syms;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      reference_open (&ref, path);
      n_syms = dwfl_module_getsymtab (ref.module);

      symbolizer = hp_symbolizer_new ();
      module = hp_symbolizer_get_module (symbolizer, path, NULL, 0);
      for (size_t i = 0; reference_next_code (&ref, &i, &phdr);)
        {
          guint64 step;

          /* Odd, so that every alignment is hit; fewer addresses in big
           * tables, which libdwfl's own search reads whole each time. */
          step = (phdr.p_filesz / CLAMP (30000000 / MAX (n_syms, 1), 500, 3000)) | 1;
          for (guint64 o = 0; o < phdr.p_filesz; o += step)
            {
              const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, phdr.p_offset + o);
              const char *expected = reference_symtab_name (ref.module, phdr.p_vaddr + o + ref.bias);
              const char *got = r->frames[r->n_frames - 1].function;

              if (expected != NULL && (r->n_frames == 1 || !r->frames[r->n_frames - 1].is_inline))
                {
                  /* DWARF, where there is some, names the outermost
                   * function by its DIE; the symbol is the fallback. */
                  if (r->frames[r->n_frames - 1].file == NULL)
                    {
                      g_autofree char *demangled = hp_demangle (expected);

                      g_assert_cmpstr (got, ==, demangled != NULL ? demangled : expected);
                    }
                  n_named++;
                }
              else if (expected == NULL && r->frames[r->n_frames - 1].file == NULL)
                g_assert_true (got == NULL || g_str_has_suffix (got, "@plt"));
              n_addresses++;
            }
        }
      n_searches = hp_symbolizer_get_symtab_searches (symbolizer);
      n_steps = hp_symbolizer_get_symtab_steps (symbolizer);
      g_test_message ("%s: %d symbols, %u addresses, %u named, %u searches, %" G_GUINT64_FORMAT " entries read",
                      path, n_syms, n_addresses, n_named, n_searches, n_steps);
      /* A linear search reads every entry at every search. */
      if (n_syms >= 1000 && n_searches > 0)
        g_assert_cmpuint (n_steps, <, (guint64) n_searches * n_syms / 20);

      hp_symbolizer_free (symbolizer);
      dwfl_end (ref.dwfl);
      n_files++;
    }
  if (n_files == 0)
    g_test_skip ("none of the system files is installed");
}

static void
test_build_id (void)
{
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  guint8 fake[20];
  guint8 real[20];
  HpModule *disk, *wrong, *right;
  const HpResolvedAddress *r;
  const char *hex;
  guint64 offset, size;

  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &offset, &size));

  disk = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, NULL, 0);
  hex = hp_module_get_build_id (disk);
  g_assert_nonnull (hex);
  g_assert_cmpuint (strlen (hex), ==, 2 * sizeof real);
  for (guint i = 0; i < sizeof real; i++)
    real[i] = g_ascii_xdigit_value (hex[2 * i]) * 16 + g_ascii_xdigit_value (hex[2 * i + 1]);

  memset (fake, 0xab, sizeof fake);
  wrong = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, fake, sizeof fake);
  g_assert_true (wrong != disk);
  g_assert_cmpstr (hp_module_get_build_id (wrong), ==, "abababababababababababababababababababab");
  r = hp_symbolizer_lookup (symbolizer, wrong, offset);
  g_assert_cmpuint (r->n_frames, ==, 1);
  g_assert_null (r->frames[0].function);

  right = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, real, sizeof real);
  g_assert_cmpstr (hp_module_get_build_id (right), ==, hex);
  r = hp_symbolizer_lookup (symbolizer, right, offset);
  g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "outer");

  hp_symbolizer_free (symbolizer);
}

static void
test_special_names (void)
{
  const char *names[] = { "[vdso]", "[heap]", "[stack]", "//anon", "/dev/zero",
                          "/nonexistent/libgone.so", "/memfd:jit (deleted)" };
  HpSymbolizer *symbolizer = hp_symbolizer_new ();

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      HpModule *module = hp_symbolizer_get_module (symbolizer, names[i], NULL, 0);
      const HpResolvedAddress *r;

      g_assert_nonnull (module);
      g_assert_false (hp_module_is_kernel (module));
      g_assert_null (hp_module_get_build_id (module));
      r = hp_symbolizer_lookup (symbolizer, module, 0x1234);
      g_assert_nonnull (r);
      g_assert_cmpuint (r->n_frames, ==, 1);
      g_assert_null (r->frames[0].function);
      g_assert_cmpuint (r->offset, ==, 0x1234);
    }
  g_assert_cmpstr (hp_module_get_name (hp_symbolizer_get_module (symbolizer, "[vdso]", NULL, 0)), ==, "[vdso]");
  g_assert_cmpstr (hp_module_get_name (hp_symbolizer_get_module (symbolizer, "/nonexistent/libgone.so", NULL, 0)), ==, "libgone.so");

  hp_symbolizer_free (symbolizer);
}

static void
test_demangle (void)
{
  g_autofree char *cxx = hp_demangle ("_ZN3foo3barEi");
  g_autofree char *plain = hp_demangle ("main");
  g_autofree char *underscore = hp_demangle ("_start");

  g_assert_cmpstr (cxx, ==, "foo::bar(int)");
  g_assert_null (plain);
  g_assert_null (underscore);
  g_assert_null (hp_demangle (NULL));
}

static char *
write_kallsyms (const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("hp-kallsyms-XXXXXX", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_kallsyms (void)
{
  /* Not in address order, as module symbols are not in the real file;
   * data symbols (D) must not name code. */
  g_autofree char *path = write_kallsyms (
    "ffffffff81000000 T _stext\n"
    "ffffffff81001000 t do_one_initcall\n"
    "ffffffff81002000 D some_data\n"
    "ffffffff81003000 W weak_func\n"
    "ffffffff81004000 T schedule\n"
    "ffffffffc0200000 t ext4_read\t[ext4]\n"
    "ffffffffc0100000 t e1000_xmit\t[e1000e]\n"
    "ffffffffc0200800 T ext4_write\t[ext4]\n");
  HpSymbolizer *symbolizer = hp_symbolizer_new_with_kallsyms (path);
  const HpResolvedAddress *r;

  g_assert_true (hp_symbolizer_has_kernel_symbols (symbolizer));

  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81001234);
  g_assert_cmpuint (r->n_frames, ==, 1);
  g_assert_cmpstr (r->frames[0].function, ==, "do_one_initcall");
  g_assert_null (r->frames[0].file);
  g_assert_cmpuint (r->offset, ==, 0xffffffff81001234);
  g_assert_true (hp_module_is_kernel (r->module));
  g_assert_cmpstr (hp_module_get_name (r->module), ==, "[kernel.kallsyms]");
  g_assert_true (r == hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81001234));

  /* Data symbols are not functions: the address stays in the one before. */
  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81002010);
  g_assert_cmpstr (r->frames[0].function, ==, "do_one_initcall");

  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81003000);
  g_assert_cmpstr (r->frames[0].function, ==, "weak_func");

  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffffc0200900);
  g_assert_cmpstr (r->frames[0].function, ==, "ext4_write");
  g_assert_cmpstr (hp_module_get_name (r->module), ==, "[ext4]");
  g_assert_true (hp_module_is_kernel (r->module));

  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffffc0100010);
  g_assert_cmpstr (r->frames[0].function, ==, "e1000_xmit");
  g_assert_cmpstr (hp_module_get_name (r->module), ==, "[e1000e]");

  /* Below the first symbol: unresolved. */
  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff80000000);
  g_assert_null (r->frames[0].function);

  /* The kernel module from a perf MMAP name routes to kallsyms. */
  {
    HpModule *kernel = hp_symbolizer_get_module (symbolizer, "[kernel.kallsyms]_text", NULL, 0);

    g_assert_true (hp_module_is_kernel (kernel));
    r = hp_symbolizer_lookup (symbolizer, kernel, 0xffffffff81004100);
    g_assert_cmpstr (r->frames[0].function, ==, "schedule");
  }

  hp_symbolizer_free (symbolizer);
  g_unlink (path);
}

static void
test_kallsyms_restricted (void)
{
  g_autofree char *path = write_kallsyms (
    "0000000000000000 T _stext\n"
    "0000000000000000 t do_one_initcall\n"
    "0000000000000000 T schedule\n");
  HpSymbolizer *symbolizer = hp_symbolizer_new_with_kallsyms (path);
  const HpResolvedAddress *r;

  g_assert_false (hp_symbolizer_has_kernel_symbols (symbolizer));
  r = hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81001234);
  g_assert_cmpuint (r->n_frames, ==, 1);
  g_assert_null (r->frames[0].function);
  g_assert_true (hp_module_is_kernel (r->module));
  hp_symbolizer_free (symbolizer);
  g_unlink (path);

  symbolizer = hp_symbolizer_new_with_kallsyms ("/nonexistent/kallsyms");
  g_assert_false (hp_symbolizer_has_kernel_symbols (symbolizer));
  g_assert_null (hp_symbolizer_lookup_kernel (symbolizer, 0xffffffff81001234)->frames[0].function);
  hp_symbolizer_free (symbolizer);
}

static void
run_objcopy (const char * const *args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int status;

  g_ptr_array_add (argv, (gpointer) "objcopy");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
}

/* Every address of @stripped's code as @symbolizer resolves it: functions,
 * files, lines and inline flags of the whole chain, one line each. */
static char *
describe_code (HpSymbolizer *symbolizer,
               const char   *stripped,
               guint64       offset,
               guint64       size)
{
  HpModule *module = hp_symbolizer_get_module (symbolizer, stripped, NULL, 0);
  GString *out = g_string_new (NULL);

  for (guint64 o = offset; o < offset + size; o++)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, o);

      g_string_append_printf (out, "%" G_GINT64_MODIFIER "x", o);
      for (guint i = 0; i < r->n_frames; i++)
        g_string_append_printf (out, " %s@%s:%u%s", r->frames[i].function, r->frames[i].file,
                                r->frames[i].line, r->frames[i].is_inline ? "i" : "");
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static gboolean
has_compressed_section (const char *path)
{
  g_autofree char *out = NULL;
  const char *argv[] = { "readelf", "-SW", path, NULL };
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, NULL));
  /* readelf's flag letter C: SHF_COMPRESSED */
  return g_regex_match_simple ("\\.debug_info +PROGBITS .* [A-Z]*C[A-Z]* ", out, 0, 0);
}

/* A debug file with compressed DWARF (as Debian's -dbgsym packages ship
 * them) is kept decompressed by build id: names, files, lines and inline
 * chains are the same as from the original, the copy is used once made,
 * and a copy that is not of that file is not. */
static void
test_debug_copies (void)
{
  g_autofree char *objcopy = g_find_program_in_path ("objcopy");
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *debug_dir = NULL;
  g_autofree char *id_dir = NULL;
  g_autofree char *debug_file = NULL;
  g_autofree char *copies = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *aside = NULL;
  g_autofree char *without = NULL;
  g_autofree char *with = NULL;
  guint8 id[20];
  gsize id_len;
  guint64 offset, size;

  if (objcopy == NULL)
    {
      g_test_skip ("objcopy not installed");
      return;
    }
  dir = g_dir_make_tmp ("hp-debug-copies-XXXXXX", NULL);
  g_assert_nonnull (dir);
  id_len = hp_test_elf_build_id (SYMTEST_TARGET, id);
  g_assert_cmpuint (id_len, >, 1);
  hex = hp_build_id_to_hex (id, id_len);
  stripped = g_build_filename (dir, "symtest-stripped", NULL);
  debug_dir = g_build_filename (dir, "debug", NULL);
  id_dir = g_strdup_printf ("%s/.build-id/%.2s", debug_dir, hex);
  debug_file = g_strdup_printf ("%s/%s.debug", id_dir, hex + 2);
  copies = g_build_filename (dir, "copies", NULL);
  copy = g_strdup_printf ("%s/%s.debug", copies, hex);
  aside = g_build_filename (dir, "aside.debug", NULL);
  g_assert_cmpint (g_mkdir_with_parents (id_dir, 0700), ==, 0);
  {
    const char *strip[] = { "--strip-debug", SYMTEST_TARGET, stripped, NULL };
    const char *keep[] = { "--only-keep-debug", "--compress-debug-sections=zlib", SYMTEST_TARGET, debug_file, NULL };

    run_objcopy (strip);
    run_objcopy (keep);
  }
  g_assert_true (has_compressed_section (debug_file));
  g_assert_true (hp_test_elf_section (SYMTEST_TARGET, ".text", &offset, &size));

  for (guint round = 0; round < 3; round++)
    {
      HpSymbolizer *symbolizer = hp_symbolizer_new ();

      hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
      hp_symbolizer_set_debug_copies (symbolizer, round == 0 ? NULL : copies);
      g_free (with);
      with = describe_code (symbolizer, stripped, offset, size);
      hp_symbolizer_free (symbolizer);
      if (round == 0)
        {
          /* the reference, without copies: names, files and lines */
          g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
          g_assert_nonnull (strstr (with, " outer@"));
          g_assert_nonnull (strstr (with, "symtest-target.c:"));
          without = g_strdup (with);
        }
      /* round 1 makes the copy, round 2 uses it */
      g_assert_cmpstr (with, ==, without);
    }
  g_assert_true (g_file_test (copy, G_FILE_TEST_IS_REGULAR));
  g_assert_false (has_compressed_section (copy));

  /* The copy is what is read: the original gone, the lines are still
   * there. */
  g_assert_cmpint (g_rename (debug_file, aside), ==, 0);
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();

    hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
    hp_symbolizer_set_debug_copies (symbolizer, copies);
    g_free (with);
    with = describe_code (symbolizer, stripped, offset, size);
    hp_symbolizer_free (symbolizer);
    g_assert_cmpstr (with, ==, without);
  }

  /* A copy of another file, or no ELF file at all, is not used: the
   * original is, and the copy is made anew. */
  g_assert_cmpint (g_rename (aside, debug_file), ==, 0);
  for (guint bad = 0; bad < 2; bad++)
    {
      HpSymbolizer *symbolizer = hp_symbolizer_new ();
      g_autofree char *other = g_build_filename (WORKLOAD_DIR, "demo", NULL);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (bad == 0)
        g_assert_true (g_file_get_contents (other, &contents, &len, NULL));
      else
        contents = g_strdup ("\x7f" "ELF but not really"), len = strlen (contents);
      g_assert_true (g_file_set_contents (copy, contents, len, NULL));
      hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
      hp_symbolizer_set_debug_copies (symbolizer, copies);
      g_free (with);
      with = describe_code (symbolizer, stripped, offset, size);
      hp_symbolizer_free (symbolizer);
      g_assert_cmpstr (with, ==, without);
      g_assert_false (has_compressed_section (copy));
      g_assert_cmpuint (hp_test_elf_build_id (copy, id), ==, id_len);
    }

  hp_test_remove_tree (dir);
}

/* A fake copy in @dir: @size bytes, last used @age seconds ago. */
static char *
make_old_file (const char *dir,
               const char *name,
               gsize       size,
               gint64      age)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *contents = g_malloc0 (size);
  struct timespec times[2];

  g_assert_true (g_file_set_contents (path, contents, size, NULL));
  times[0].tv_sec = times[1].tv_sec = g_get_real_time () / G_USEC_PER_SEC - age;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  return path;
}

/* The decompressed copies take at most their limit: writing a new one
 * removes the least recently used others until all fit, and also copies
 * unused for a month and temporary files a killed recording left. */
static void
test_debug_copies_limit (void)
{
  g_autofree char *objcopy = g_find_program_in_path ("objcopy");
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *debug_dir = NULL;
  g_autofree char *id_dir = NULL;
  g_autofree char *debug_file = NULL;
  g_autofree char *copies = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *oldest = NULL;
  g_autofree char *older = NULL;
  g_autofree char *newer = NULL;
  g_autofree char *month = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *fresh_tmp = NULL;
  const gsize fake = 100000;
  guint8 id[20];
  gsize id_len;
  guint64 offset, size;
  goffset copy_size;

  if (objcopy == NULL)
    {
      g_test_skip ("objcopy not installed");
      return;
    }
  dir = g_dir_make_tmp ("hp-debug-limit-XXXXXX", NULL);
  g_assert_nonnull (dir);
  id_len = hp_test_elf_build_id (SYMTEST_TARGET, id);
  g_assert_cmpuint (id_len, >, 1);
  hex = hp_build_id_to_hex (id, id_len);
  stripped = g_build_filename (dir, "symtest-stripped", NULL);
  debug_dir = g_build_filename (dir, "debug", NULL);
  id_dir = g_strdup_printf ("%s/.build-id/%.2s", debug_dir, hex);
  debug_file = g_strdup_printf ("%s/%s.debug", id_dir, hex + 2);
  copies = g_build_filename (dir, "copies", NULL);
  copy = g_strdup_printf ("%s/%s.debug", copies, hex);
  g_assert_cmpint (g_mkdir_with_parents (id_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (copies, 0700), ==, 0);
  {
    const char *strip[] = { "--strip-debug", SYMTEST_TARGET, stripped, NULL };
    const char *keep[] = { "--only-keep-debug", "--compress-debug-sections=zlib", SYMTEST_TARGET, debug_file, NULL };

    run_objcopy (strip);
    run_objcopy (keep);
  }
  g_assert_true (hp_test_elf_section (SYMTEST_TARGET, ".text", &offset, &size));

  /* the size of the copy, made once with no limit in sight */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    g_autofree char *described = NULL;
    GStatBuf st;

    hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
    hp_symbolizer_set_debug_copies (symbolizer, copies);
    described = describe_code (symbolizer, stripped, offset, size);
    hp_symbolizer_free (symbolizer);
    g_assert_cmpint (g_stat (copy, &st), ==, 0);
    copy_size = st.st_size;
    g_assert_cmpint (copy_size, >, 0);
    g_assert_cmpint (g_unlink (copy), ==, 0);
  }

  oldest = make_old_file (copies, "0001.debug", fake, 3 * 3600);
  older = make_old_file (copies, "0002.debug", fake, 2 * 3600);
  newer = make_old_file (copies, "0003.debug", fake, 3600);
  month = make_old_file (copies, "0004.debug", 10, 31 * 24 * 3600);
  tmp = make_old_file (copies, "0005.debug.Ab12Cd", 10, 2 * 24 * 3600);
  fresh_tmp = make_old_file (copies, "0006.debug.Ef34Gh", 10, 60);

  /* room for the new copy and two of the three others */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    g_autofree char *described = NULL;

    hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
    hp_symbolizer_set_debug_copies (symbolizer, copies);
    hp_symbolizer_set_debug_copies_limit (symbolizer, copy_size + 2 * fake + fake / 2);
    described = describe_code (symbolizer, stripped, offset, size);
    hp_symbolizer_free (symbolizer);
    g_assert_nonnull (strstr (described, " outer@"));
  }
  g_assert_true (g_file_test (copy, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (oldest, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (older, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (newer, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (month, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (fresh_tmp, G_FILE_TEST_EXISTS));

  /* A copy that alone would take more than half the limit is not made:
   * the others stay, and the names come from the original. */
  g_assert_cmpint (g_unlink (copy), ==, 0);
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    g_autofree char *described = NULL;

    hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
    hp_symbolizer_set_debug_copies (symbolizer, copies);
    hp_symbolizer_set_debug_copies_limit (symbolizer, 1000);
    described = describe_code (symbolizer, stripped, offset, size);
    hp_symbolizer_free (symbolizer);
    g_assert_nonnull (strstr (described, " outer@"));
  }
  g_assert_false (g_file_test (copy, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (older, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (newer, G_FILE_TEST_EXISTS));

  hp_test_remove_tree (dir);
}

/* The kernel symbols kept between recordings (hp-symbolizer.c, "Kernel
 * symbols kept between recordings"): a folder with a fake kallsyms, module
 * list and boot id, and the cache. */
typedef struct
{
  char *dir;
  char *kallsyms;
  char *modules;
  char *boot_id;
  char *cache;
} KernelFiles;

static const char kallsyms_a[] =
  "ffffffff81000000 T _stext\n"
  "ffffffff81001000 t do_one_initcall\n"
  "ffffffff81004000 T schedule\n"
  "ffffffff81f00000 T _etext\n"
  "ffffffffc0200000 t ext4_read\t[ext4]\n"
  "ffffffffc0100000 t bpf_prog_6deef7357e7b4530_sd_fw_egress\t[bpf]\n"
  "ffffffffc0200800 T ext4_write\t[ext4]\n"
  "ffffffffc0300000 t ftrace_trampoline\t[__builtin__ftrace]\n";

/* The same kernel as read later: only what comes and goes changed... and,
 * to see which was read, the image's names. */
static const char kallsyms_b[] =
  "ffffffff81000000 T _stext\n"
  "ffffffff81001000 t renamed_initcall\n"
  "ffffffff81004000 T renamed_schedule\n"
  "ffffffff81f00000 T _etext\n"
  "ffffffffc0200000 t renamed_ext4_read\t[ext4]\n"
  "ffffffffc0100000 t bpf_prog_other\t[bpf]\n"
  "ffffffffc0200800 T renamed_ext4_write\t[ext4]\n";

static void
kernel_files_set_up (KernelFiles *kf)
{
  kf->dir = g_dir_make_tmp ("hp-kallsyms-cache-XXXXXX", NULL);
  g_assert_nonnull (kf->dir);
  kf->kallsyms = g_build_filename (kf->dir, "kallsyms", NULL);
  kf->modules = g_build_filename (kf->dir, "modules", NULL);
  kf->boot_id = g_build_filename (kf->dir, "boot_id", NULL);
  kf->cache = g_build_filename (kf->dir, "cache", "kallsyms", NULL);
  g_assert_true (g_file_set_contents (kf->kallsyms, kallsyms_a, -1, NULL));
  g_assert_true (g_file_set_contents (kf->modules, "ext4 987136 2 - Live 0xffffffffc0200000\n", -1, NULL));
  g_assert_true (g_file_set_contents (kf->boot_id, "0b5c8a4e-5f3c-4b5e-9a43-1d2c3b4a5f60\n", -1, NULL));
}

static void
kernel_files_tear_down (KernelFiles *kf)
{
  hp_test_remove_tree (kf->dir);
  g_free (kf->dir);
  g_free (kf->kallsyms);
  g_free (kf->modules);
  g_free (kf->boot_id);
  g_free (kf->cache);
}

static HpSymbolizer *
kernel_symbolizer (KernelFiles *kf,
                   gboolean     cached)
{
  HpSymbolizer *symbolizer = hp_symbolizer_new_with_kallsyms (kf->kallsyms);

  if (cached)
    hp_symbolizer_set_kallsyms_cache (symbolizer, kf->cache, kf->modules, kf->boot_id);
  return symbolizer;
}

static const char *
kernel_name (HpSymbolizer *symbolizer,
             guint64       address)
{
  return hp_symbolizer_lookup_kernel (symbolizer, address)->frames[0].function;
}

/* Kept, the names are those the file gives, for every kind of address. */
static void
test_kallsyms_cache_same_names (void)
{
  static const guint64 addresses[] = {
    0xffffffff80000000, 0xffffffff81000000, 0xffffffff81001234, 0xffffffff81004000,
    0xffffffff81efffff, 0xffffffff81f00000, 0xffffffff81f00010, 0xffffffffc0100020,
    0xffffffffc0200000, 0xffffffffc0200400, 0xffffffffc0200800, 0xffffffffc0200900,
    0xffffffffc0300010,
  };
  KernelFiles kf;

  kernel_files_set_up (&kf);
  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < G_N_ELEMENTS (addresses); i++)
      {
        /* the first round writes the cache, the second reads it */
        HpSymbolizer *whole = kernel_symbolizer (&kf, FALSE);
        HpSymbolizer *cached = kernel_symbolizer (&kf, TRUE);
        const HpResolvedAddress *a = hp_symbolizer_lookup_kernel (whole, addresses[i]);
        const HpResolvedAddress *b = hp_symbolizer_lookup_kernel (cached, addresses[i]);

        g_assert_true (g_file_test (kf.cache, G_FILE_TEST_IS_REGULAR));
        g_assert_cmpstr (a->frames[0].function, ==, b->frames[0].function);
        g_assert_cmpstr (hp_module_get_name (a->module), ==, hp_module_get_name (b->module));
        g_assert_true (hp_symbolizer_has_kernel_symbols (cached));
        hp_symbolizer_free (whole);
        hp_symbolizer_free (cached);
      }
  kernel_files_tear_down (&kf);
}

/* The cache is read instead of the file while the boot and the modules
 * are the same; what comes and goes (BPF) is read from the file. */
static void
test_kallsyms_cache_invalidated (void)
{
  KernelFiles kf;
  HpSymbolizer *symbolizer;

  kernel_files_set_up (&kf);
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "do_one_initcall");
  hp_symbolizer_free (symbolizer);
  g_assert_true (g_file_test (kf.cache, G_FILE_TEST_IS_REGULAR));

  /* The file now says otherwise: the names of the image and of ext4 come
   * from the cache, which shows that the file was not read. */
  g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_b, -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "do_one_initcall");
  /* between ext4's first and last function (after its last, the file
   * would be read: nothing says where that function ends) */
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffffc0200400), ==, "ext4_read");
  /* A BPF program is not kept: the file is read for it, and from then on. */
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffffc0100020), ==, "bpf_prog_other");
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81004010), ==, "renamed_schedule");
  hp_symbolizer_free (symbolizer);

  /* Another module loaded: the cache is another kernel's. */
  g_assert_true (g_file_set_contents (kf.modules,
                                      "ext4 987136 2 - Live 0xffffffffc0200000\n"
                                      "e1000e 327680 0 - Live 0xffffffffc0400000\n", -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  hp_symbolizer_free (symbolizer);

  /* ... and rewritten: with the same modules, the file is not read again. */
  g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_a, -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  hp_symbolizer_free (symbolizer);

  /* A use count that changed is the same module list. */
  g_assert_true (g_file_set_contents (kf.modules,
                                      "ext4 987136 5 - Live 0xffffffffc0200000\n"
                                      "e1000e 327680 1 - Live 0xffffffffc0400000\n", -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  hp_symbolizer_free (symbolizer);

  /* Another boot. */
  g_assert_true (g_file_set_contents (kf.boot_id, "7d0e1f2a-0000-4000-8000-000000000001\n", -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "do_one_initcall");
  hp_symbolizer_free (symbolizer);

  /* A kernel without modules (no /proc/modules) is a module list too. */
  g_assert_cmpint (g_unlink (kf.modules), ==, 0);
  g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_b, -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  hp_symbolizer_free (symbolizer);
  g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_a, -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  /* without the module list, ext4 is not kept */
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffffc0200900), ==, "ext4_write");
  hp_symbolizer_free (symbolizer);

  kernel_files_tear_down (&kf);
}

/* A cache that does not hold together, or none to be had, gives the
 * file's names; hidden addresses are never kept. */
static void
test_kallsyms_cache_bad (void)
{
  g_autofree char *good = NULL;
  gsize good_len = 0;
  KernelFiles kf;
  HpSymbolizer *symbolizer;
  const char *garbage[] = { "", "HPKSYMS1", "HPKSYMS1\\xff\\xff\\xff\\xff", "not a cache at all, just text" };

  kernel_files_set_up (&kf);
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "do_one_initcall");
  hp_symbolizer_free (symbolizer);
  g_assert_true (g_file_get_contents (kf.cache, &good, &good_len, NULL));
  g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_b, -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (garbage) + 3; i++)
    {
      g_autofree char *bad = g_memdup2 (good, good_len);
      gsize bad_len = good_len;

      if (i < G_N_ELEMENTS (garbage))
        g_assert_true (g_file_set_contents (kf.cache, garbage[i], -1, NULL));
      else
        {
          if (i == G_N_ELEMENTS (garbage))
            bad_len = good_len - 1;              /* cut short */
          else if (i == G_N_ELEMENTS (garbage) + 1)
            memset (bad + good_len - 8, 'x', 8); /* strings not ended */
          else
            memset (bad + good_len / 2, 0xff, 64); /* offsets out of bounds */
          g_assert_true (g_file_set_contents (kf.cache, bad, bad_len, NULL));
        }
      symbolizer = kernel_symbolizer (&kf, TRUE);
      g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
      g_assert_cmpstr (kernel_name (symbolizer, 0xffffffffc0200900), ==, "renamed_ext4_write");
      hp_symbolizer_free (symbolizer);
      /* written anew from the file */
      g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_a, -1, NULL));
      symbolizer = kernel_symbolizer (&kf, TRUE);
      g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
      hp_symbolizer_free (symbolizer);
      g_assert_true (g_file_set_contents (kf.kallsyms, kallsyms_b, -1, NULL));
    }

  /* No boot id: nothing kept. */
  g_assert_cmpint (g_unlink (kf.cache), ==, 0);
  g_assert_cmpint (g_unlink (kf.boot_id), ==, 0);
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_cmpstr (kernel_name (symbolizer, 0xffffffff81001234), ==, "renamed_initcall");
  hp_symbolizer_free (symbolizer);
  g_assert_false (g_file_test (kf.cache, G_FILE_TEST_EXISTS));

  /* Hidden addresses (kptr_restrict): nothing kept, nothing named. */
  g_assert_true (g_file_set_contents (kf.boot_id, "0b5c8a4e\n", -1, NULL));
  g_assert_true (g_file_set_contents (kf.kallsyms,
                                      "0000000000000000 T _stext\n"
                                      "0000000000000000 t do_one_initcall\n"
                                      "0000000000000000 T _etext\n", -1, NULL));
  symbolizer = kernel_symbolizer (&kf, TRUE);
  g_assert_false (hp_symbolizer_has_kernel_symbols (symbolizer));
  g_assert_null (kernel_name (symbolizer, 0xffffffff81001234));
  hp_symbolizer_free (symbolizer);
  g_assert_false (g_file_test (kf.cache, G_FILE_TEST_EXISTS));

  kernel_files_tear_down (&kf);
}

/* PLT stubs are named NAME@plt, as perf names them: the demo calls
 * strncmp, qsort and free through its PLT (tests/workloads/demo.c). */
static void
test_plt (void)
{
  g_autofree char *demo = g_build_filename (WORKLOAD_DIR, "demo", NULL);
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  HpModule *module = hp_symbolizer_get_module (symbolizer, demo, NULL, 0);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  guint64 offset, size;

  g_assert_nonnull (module);
  /* the .plt section's place, from the ELF file apart from the code under test */
  g_assert_true (hp_test_elf_section (demo, ".plt", &offset, &size));
  for (guint64 at = offset + 16; at < offset + size; at += 4)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, at);

      g_assert_cmpuint (r->n_frames, ==, 1);
      g_assert_nonnull (r->frames[0].function);
      g_assert_true (g_str_has_suffix (r->frames[0].function, "@plt"));
      g_hash_table_add (names, (gpointer) r->frames[0].function);
    }
  g_assert_true (g_hash_table_contains (names, "strncmp@plt"));
  g_assert_true (g_hash_table_contains (names, "qsort@plt"));
  g_assert_true (g_hash_table_contains (names, "free@plt"));
  hp_symbolizer_free (symbolizer);
}

/* A static program calls memcpy, strlen... through a .plt of its own,
 * 8-byte stubs without a resolver entry, each jumping through a slot
 * whose IRELATIVE relocation names the IFUNC's resolver; stripped, its
 * .rela.plt links no symbol table, and the name is in its debug file.
 * The stub that main calls for strlen is strlen@plt in all but the copy
 * without debug file, where objdump's *ABS*+0x… is all there is. */
static void
test_plt_static (void)
{
  static const char source[] =
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "char text[64] = \"abc\";\n"
    "int main (int argc, char **argv) { return (int) strlen (text + argc); }\n";
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *dir = NULL;
  g_autofree char *src = NULL, *program = NULL, *debug = NULL, *linked = NULL, *bare = NULL;
  g_autofree char *disassembly = NULL;
  g_auto(GStrv) lines = NULL;
  guint64 plt_vaddr = 0, target = 0, offset, size;
  gboolean in_main = FALSE;

  if (cc == NULL || g_find_program_in_path ("objcopy") == NULL)
    {
      g_test_skip ("no C compiler or objcopy");
      return;
    }
  dir = g_dir_make_tmp ("hp-symtest-XXXXXX", NULL);
  src = g_build_filename (dir, "main.c", NULL);
  program = g_build_filename (dir, "prog", NULL);
  debug = g_build_filename (dir, "prog.debug", NULL);
  linked = g_build_filename (dir, "prog-linked", NULL);
  bare = g_build_filename (dir, "prog-bare", NULL);
  g_assert_true (g_file_set_contents (src, source, -1, NULL));
  {
    const char *argv[] = { cc, "-O1", "-g", "-static", "-no-pie", "-o", program, src, NULL };
    g_autofree char *out = command_output (argv);

    if (out == NULL)
      {
        g_test_skip ("cc -static failed (no libc.a: Debian package libc6-dev)");
        return;
      }
  }
  {
    const char *keep[] = { "objcopy", "--only-keep-debug", program, debug, NULL };
    const char *strip[] = { "objcopy", "--strip-all", program, bare, NULL };
    const char *link[] = { "objcopy", "--strip-all", "--add-gnu-debuglink", debug, program, linked, NULL };
    g_autofree char *a = command_output (keep), *b = command_output (strip), *c = command_output (link);

    g_assert_nonnull (a);
    g_assert_nonnull (b);
    g_assert_nonnull (c);
  }
  {
    const char *argv[] = { "objdump", "-d", "--no-show-raw-insn", program, NULL };

    disassembly = command_output (argv);
    g_assert_nonnull (disassembly);
  }
  /* "0000000000401018 <.plt>:", then main's "call   4010c8 <_init+0xc8>" */
  lines = g_strsplit (disassembly, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_suffix (lines[i], " <.plt>:"))
        plt_vaddr = g_ascii_strtoull (lines[i], NULL, 16);
      if (g_str_has_suffix (lines[i], " <main>:"))
        in_main = TRUE;
      else if (in_main && lines[i][0] == '\0')
        in_main = FALSE;
      else if (in_main && strstr (lines[i], "call") != NULL && target == 0)
        {
          guint64 to = g_ascii_strtoull (strstr (lines[i], "call") + 4, NULL, 16);

          if (to >= plt_vaddr && to < plt_vaddr + 0x1000)
            target = to;
        }
    }
  g_assert_cmpuint (plt_vaddr, >, 0);
  g_assert_cmpuint (target, >, plt_vaddr);
  g_assert_true (hp_test_elf_section (program, ".plt", &offset, &size));
  g_assert_cmpuint (target - plt_vaddr, <, size);
  {
    const char *files[] = { program, linked, bare };

    for (guint f = 0; f < G_N_ELEMENTS (files); f++)
      {
        HpSymbolizer *symbolizer = hp_symbolizer_new ();
        HpModule *module = hp_symbolizer_get_module (symbolizer, files[f], NULL, 0);
        const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, offset + (target - plt_vaddr));

        g_test_message ("%s: %s", files[f], r->frames[0].function);
        g_assert_cmpuint (r->n_frames, ==, 1);
        if (files[f] == bare)
          g_assert_true (g_str_has_prefix (r->frames[0].function, "*ABS*+0x")
                         && g_str_has_suffix (r->frames[0].function, "@plt"));
        else
          g_assert_cmpstr (r->frames[0].function, ==, "strlen@plt");
        hp_symbolizer_free (symbolizer);
      }
  }
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_autofree char *out = command_output (argv);
  }
}

/* A stripped program's main, which no symbol names, is found where
 * glibc's _start hands it to __libc_start_main: "mov $main, %rdi" in a
 * program linked at a fixed address, "lea main(%rip), %rdi" in a PIE.
 * Another function stays module+0xADDRESS. */
static void
test_stripped_main (void)
{
  static const char source[] =
    "__attribute__((noinline)) int other (int x) { return x * 3 + 1; }\n"
    "int main (int argc, char **argv) { return other (argc); }\n";
  static const char *flags[][2] = { { "-static", "-no-pie" }, { "-pie", "-fPIE" }, { "-no-pie", "-O1" } };
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *dir = NULL;
  g_autofree char *src = NULL;

  if (cc == NULL || g_find_program_in_path ("strip") == NULL)
    {
      g_test_skip ("no C compiler or strip");
      return;
    }
  dir = g_dir_make_tmp ("hp-symtest-XXXXXX", NULL);
  src = g_build_filename (dir, "main.c", NULL);
  g_assert_true (g_file_set_contents (src, source, -1, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autofree char *program = g_strdup_printf ("%s/prog-%u", dir, i);
      g_autofree char *stripped = g_strdup_printf ("%s/prog-%u-stripped", dir, i);
      const char *build[] = { cc, "-O1", flags[i][0], flags[i][1], "-o", program, src, NULL };
      const char *strip[] = { "strip", "-o", stripped, program, NULL };
      g_autofree char *built = command_output (build);
      g_autofree char *out = NULL;
      guint64 main_offset, other_offset, size;
      HpSymbolizer *symbolizer;
      HpModule *module;
      const HpResolvedAddress *r;

      if (built == NULL)
        {
          g_test_message ("cc %s %s failed (static: no libc.a)", flags[i][0], flags[i][1]);
          continue;
        }
      out = command_output (strip);
      g_assert_nonnull (out);
      g_assert_true (hp_test_elf_function (program, "main", &main_offset, &size));
      g_assert_true (hp_test_elf_function (program, "other", &other_offset, &size));
      symbolizer = hp_symbolizer_new ();
      module = hp_symbolizer_get_module (symbolizer, stripped, NULL, 0);
      r = hp_symbolizer_lookup (symbolizer, module, main_offset + 1);
      g_test_message ("%s %s: main is %s", flags[i][0], flags[i][1], r->frames[0].function);
      g_assert_cmpstr (r->frames[0].function, ==, "main");
      r = hp_symbolizer_lookup (symbolizer, module, other_offset + 1);
      g_assert_null (r->frames[0].function);
      hp_symbolizer_free (symbolizer);
    }
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_autofree char *out = command_output (argv);
  }
}

/* GCC gives some template instances (std::sort's helpers) no linkage
 * name, and their DW_AT_name has no namespace: the name is the symbol's,
 * with std::, as perf and nm -C give it, not "__unguarded_linear_insert<…>". */
static void
test_template_namespace (void)
{
  static const char source[] =
    "#include <algorithm>\n"
    "#include <vector>\n"
    "#include <functional>\n"
    "int main (int argc, char **argv)\n"
    "{\n"
    "  std::vector<std::pair<double, std::function<double (double)>>> v;\n"
    "  for (int i = 0; i < argc * 100; i++) v.push_back ({ (double) (i * 7 % 13), [] (double x) { return x; } });\n"
    "  std::sort (v.begin (), v.end (), [] (auto &a, auto &b) { return a.first > b.first; });\n"
    "  return (int) v[0].first;\n"
    "}\n";
  g_autofree char *cxx = g_find_program_in_path ("g++");
  g_autofree char *dir = NULL, *src = NULL, *program = NULL, *nm = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_checked = 0;

  if (cxx == NULL)
    {
      g_test_skip ("no g++");
      return;
    }
  dir = g_dir_make_tmp ("hp-symtest-XXXXXX", NULL);
  src = g_build_filename (dir, "main.cc", NULL);
  program = g_build_filename (dir, "prog", NULL);
  g_assert_true (g_file_set_contents (src, source, -1, NULL));
  {
    const char *argv[] = { cxx, "-O2", "-g", "-o", program, src, NULL };
    g_autofree char *out = command_output (argv);

    g_assert_nonnull (out);
  }
  {
    const char *argv[] = { "nm", "--defined-only", program, NULL };

    nm = command_output (argv);
    g_assert_nonnull (nm);
  }
  lines = g_strsplit (nm, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", 3);
      g_autofree char *demangled = NULL;
      HpSymbolizer *symbolizer;
      HpModule *module;
      const HpResolvedAddress *r;
      guint64 offset, size;

      if (g_strv_length (f) != 3 || g_ascii_tolower (f[1][0]) != 't' || !g_str_has_prefix (f[2], "_ZSt")
          || (demangled = hp_demangle (f[2])) == NULL || strstr (demangled, "std::__unguarded_linear_insert<") == NULL
          || !hp_test_elf_function (program, f[2], &offset, &size))
        continue;
      symbolizer = hp_symbolizer_new ();
      module = hp_symbolizer_get_module (symbolizer, program, NULL, 0);
      r = hp_symbolizer_lookup (symbolizer, module, offset + size / 2);
      g_test_message ("%s: %s", demangled, r->frames[r->n_frames - 1].function);
      g_assert_nonnull (strstr (r->frames[r->n_frames - 1].function, "std::__unguarded_linear_insert<"));
      hp_symbolizer_free (symbolizer);
      n_checked++;
    }
  if (n_checked == 0)
    g_test_skip ("this g++ inlined std::__unguarded_linear_insert");
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_autofree char *out = command_output (argv);
  }
}

/* GCC gives a lambda's operator() no linkage name, nor the members of the
 * classes made for it (std::function's _M_invoke): DW_AT_name alone named
 * every lambda of a program "operator()" and every handler "_M_invoke", one
 * function whose self share was all of theirs. Each handler is named by its
 * symbol, and the lambda inlined in it by its scopes, as g++ numbers them
 * (in the function, blocks included, whatever their parameters): two
 * lambdas of (long) in main, then one of (int) in a block of main. */
static void
test_lambda_names (void)
{
  static const char source[] =
    "#include <functional>\n"
    "long run (std::function<long (long)> f, long n) { long s = 0; for (long i = 0; i < n; i++) s += f (i); return s; }\n"
    "int main (int argc, char **argv)\n"
    "{\n"
    "  long s = run ([] (long x) { long t = 0; for (int i = 0; i < 300; i++) t += (x ^ i) % 7; return t; }, argc);\n"
    "  s += run ([] (long x) { long t = 0; for (int i = 0; i < 100; i++) t += (x + i) % 5; return t; }, argc);\n"
    "  if (argc > 0)\n"
    "    {\n"
    "      std::function<long (int)> g = [] (int x) { long t = 0; for (int i = 0; i < 50; i++) t += (x * i) % 3; return t; };\n"
    "      s += g (argc);\n"
    "    }\n"
    "  return (int) s;\n"
    "}\n";
  static const char *const lambdas[] = {
    "main::{lambda(long)#1}", "main::{lambda(long)#2}", "main::{lambda(int)#3}",
  };
  g_autofree char *cxx = g_find_program_in_path ("g++");
  g_autofree char *dir = NULL, *src = NULL, *program = NULL, *nm = NULL;
  g_auto(GStrv) lines = NULL;
  guint found[G_N_ELEMENTS (lambdas)] = { 0 };

  if (cxx == NULL)
    {
      g_test_skip ("no g++");
      return;
    }
  dir = g_dir_make_tmp ("hp-symtest-XXXXXX", NULL);
  src = g_build_filename (dir, "main.cc", NULL);
  program = g_build_filename (dir, "prog", NULL);
  g_assert_true (g_file_set_contents (src, source, -1, NULL));
  {
    const char *argv[] = { cxx, "-O2", "-g", "-o", program, src, NULL };
    g_autofree char *out = command_output (argv);

    g_assert_nonnull (out);
  }
  {
    const char *argv[] = { "nm", "--defined-only", program, NULL };

    nm = command_output (argv);
    g_assert_nonnull (nm);
  }
  lines = g_strsplit (nm, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", 3);
      g_autofree char *demangled = NULL;
      HpSymbolizer *symbolizer;
      HpModule *module;
      guint64 offset, size;
      int which = -1;

      if (g_strv_length (f) != 3 || g_ascii_tolower (f[1][0]) != 't'
          || (demangled = hp_demangle (f[2])) == NULL || strstr (demangled, "::_M_invoke(") == NULL
          || !hp_test_elf_function (program, f[2], &offset, &size))
        continue;
      for (guint l = 0; l < G_N_ELEMENTS (lambdas); l++)
        if (strstr (demangled, lambdas[l]) != NULL)
          which = l;
      g_assert_cmpint (which, >=, 0);
      symbolizer = hp_symbolizer_new ();
      module = hp_symbolizer_get_module (symbolizer, program, NULL, 0);
      /* every instruction of the handler: the handler itself, or the
       * lambda's operator() inlined in it, never a bare name */
      for (guint64 at = offset; at < offset + size; at++)
        {
          const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, at);

          g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, demangled);
          for (guint k = 0; k + 1 < r->n_frames; k++)
            {
              const char *name = r->frames[k].function;

              g_assert_nonnull (name);
              g_assert_cmpstr (name, !=, "operator()");
              if (g_str_has_suffix (name, "::operator()"))
                {
                  g_autofree char *expected = g_strconcat (lambdas[which], "::operator()", NULL);

                  g_assert_cmpstr (name, ==, expected);
                  found[which]++;
                }
            }
        }
      g_test_message ("%s: %u addresses in %s::operator()", demangled, found[which], lambdas[which]);
      hp_symbolizer_free (symbolizer);
    }
  for (guint l = 0; l < G_N_ELEMENTS (lambdas); l++)
    g_assert_cmpuint (found[l], >, 0);
  {
    const char *argv[] = { "rm", "-rf", dir, NULL };
    g_autofree char *out = command_output (argv);
  }
}

/* The vDSO --------------------------------------------------------------- */

/* Our own vDSO image, written to @path; its start and size in memory. */
static gboolean
save_own_vdso (const char *path,
               guint64    *start,
               guint64    *size)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;

  *start = getauxval (AT_SYSINFO_EHDR);
  *size = 0;
  if (*start == 0 || !g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long lo, hi;

      if (sscanf (lines[i], "%llx-%llx", &lo, &hi) == 2 && lo == *start && strstr (lines[i], "[vdso]"))
        *size = hi - lo;
    }
  return *size > 0 && g_file_set_contents (path, GSIZE_TO_POINTER (*start), *size, NULL);
}

/* nm -D's value of @symbol in @path (the vDSO has no .symtab); 0 if none. */
static guint64
dynamic_symbol (const char *path,
                const char *symbol)
{
  const char *argv[] = { "nm", "-D", "--defined-only", path, NULL };
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL) || !g_spawn_check_wait_status (status, NULL))
    return 0;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", 3);

      if (g_strv_length (f) == 3 && g_str_has_prefix (f[2], symbol)
          && (f[2][strlen (symbol)] == '\0' || f[2][strlen (symbol)] == '@'))
        return g_ascii_strtoull (f[0], NULL, 16);
    }
  return 0;
}

/* The start of every FDE of @path's .eh_frame. */
static GArray *
fde_starts (const char *path)
{
  g_autoptr(GArray) ranges = hp_test_elf_fdes (path);
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; i + 1 < ranges->len; i += 2)
    g_array_append_val (starts, g_array_index (ranges, guint64, i));
  return starts;
}

/* A copy of the vDSO image @image at @path with a symbol table, as the
 * kernel's build leaves it (vdso64.so.dbg): every FDE's function named
 * "full_START". */
static void
write_full_vdso (const char *image,
                 const char *path)
{
  g_autoptr(GArray) starts = fde_starts (image);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *dir = g_path_get_dirname (path);
  guint64 text, text_size;
  int status;

  g_assert_cmpuint (starts->len, >, 0);
  g_assert_true (hp_test_elf_section (image, ".text", &text, &text_size));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_ptr_array_add (argv, g_strdup ("objcopy"));
  for (guint i = 0; i < starts->len; i++)
    {
      guint64 start = g_array_index (starts, guint64, i);

      g_assert_cmpuint (start, >=, text);
      g_ptr_array_add (argv, g_strdup ("--add-symbol"));
      g_ptr_array_add (argv, g_strdup_printf ("full_%" G_GINT64_MODIFIER "x=.text:0x%" G_GINT64_MODIFIER "x,function,global",
                                              start, start - text));
    }
  g_ptr_array_add (argv, g_strdup (image));
  g_ptr_array_add (argv, g_strdup (path));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_vdso (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-vdso-XXXXXX", NULL);
  g_autofree char *own = g_build_filename (dir, "own-vdso", NULL);
  g_autofree char *nm = g_find_program_in_path ("nm");
  guint8 own_id[20], target_id[20], fake[20];
  gsize own_id_len, target_id_len;
  guint64 start, size, clock_offset, outer_offset, outer_size;

  if (nm == NULL || !save_own_vdso (own, &start, &size))
    {
      g_test_skip (nm == NULL ? "nm (binutils) is not installed" : "this process has no vDSO");
      return;
    }
  own_id_len = hp_test_elf_build_id (own, own_id);
  clock_offset = dynamic_symbol (own, "__vdso_clock_gettime");
  g_assert_cmpuint (clock_offset, >, 0);
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &outer_offset, &outer_size));
  target_id_len = hp_test_elf_build_id (SYMTEST_TARGET, target_id);
  memset (fake, 0xcd, sizeof fake);

  /* live: read from the process (this one) */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    HpModule *module;
    const HpResolvedAddress *r;

    hp_symbolizer_set_live (symbolizer, TRUE);
    module = hp_symbolizer_get_vdso_module (symbolizer, getpid (), start, size, NULL, 0);
    g_assert_cmpstr (hp_module_get_name (module), ==, "[vdso]");
    r = hp_symbolizer_lookup (symbolizer, module, clock_offset);
    g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "__vdso_clock_gettime");
    g_assert_cmpuint (hp_symbolizer_get_notes (symbolizer)->len, ==, 0);
    hp_symbolizer_free (symbolizer);
  }

  /* import: perf's build-id cache, DIR/[vdso]/ID/vdso (any ELF file will
   * do, as long as it has that build id: here, the test target) */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    g_autofree char *hex = hp_build_id_to_hex (target_id, target_id_len);
    g_autofree char *vdso_dir = g_build_filename (dir, "[vdso]", NULL);
    g_autofree char *cached_dir = g_build_filename (vdso_dir, hex, NULL);
    g_autofree char *cached = g_build_filename (cached_dir, "vdso", NULL);
    g_autofree char *contents = NULL;
    gsize length;
    HpModule *module;
    const HpResolvedAddress *r;

    g_assert_true (g_file_get_contents (SYMTEST_TARGET, &contents, &length, NULL));
    g_assert_cmpint (g_mkdir_with_parents (cached_dir, 0755), ==, 0);
    g_assert_true (g_file_set_contents (cached, contents, (gssize) length, NULL));
    hp_symbolizer_add_debug_dir (symbolizer, dir);
    hp_symbolizer_add_build_id (symbolizer, "[vdso]", target_id, target_id_len);
    module = hp_symbolizer_get_vdso_module (symbolizer, 1, 0x7fff0000, 0x2000, NULL, 0);
    g_assert_cmpstr (hp_module_get_build_id (module), ==, hex);
    r = hp_symbolizer_lookup (symbolizer, module, outer_offset);
    g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "outer");
    hp_symbolizer_free (symbolizer);
    g_unlink (cached);
    g_rmdir (cached_dir);
    g_rmdir (vdso_dir);
  }

  /* import: not in the cache, but the recording's build id is ours */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    const HpResolvedAddress *r;
    HpModule *module;

    hp_symbolizer_add_build_id (symbolizer, "[vdso]", own_id, own_id_len);
    module = hp_symbolizer_get_vdso_module (symbolizer, 1, 0x7fff0000, size, NULL, 0);
    r = hp_symbolizer_lookup (symbolizer, module, clock_offset);
    g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "__vdso_clock_gettime");
    hp_symbolizer_free (symbolizer);
  }

  /* import of another kernel's vDSO, nowhere to be had: unnamed, and a
   * note says why; our own image is not used for it */
  {
    HpSymbolizer *symbolizer = hp_symbolizer_new ();
    const HpResolvedAddress *r;
    const GPtrArray *notes;
    HpModule *module;

    hp_symbolizer_add_build_id (symbolizer, "[vdso]", fake, sizeof fake);
    module = hp_symbolizer_get_vdso_module (symbolizer, 1, 0x7fff0000, size, NULL, 0);
    r = hp_symbolizer_lookup (symbolizer, module, clock_offset);
    g_assert_null (r->frames[0].function);
    notes = hp_symbolizer_get_notes (symbolizer);
    g_assert_cmpuint (notes->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (notes, 0), "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"));
    /* a second mapping of it says it once */
    hp_symbolizer_get_vdso_module (symbolizer, 2, 0x7fff0000, size, NULL, 0);
    g_assert_cmpuint (notes->len, ==, 1);
    hp_symbolizer_free (symbolizer);
  }

  /* The vDSO in memory has only its exported symbols; the image it was
   * made from names its static functions too (the one clock_gettime
   * reads the clock in, here): found by build id where Debian's
   * linux-image-VERSION-dbg (/usr/lib/debug/lib/modules/VERSION/vdso)
   * and Fedora (/lib/modules/VERSION/vdso) keep it, under the sysroot
   * or in a debug directory; an image with another build id beside it
   * is not taken. */
  for (guint layout = 0; layout < 2; layout++)
    {
      g_autofree char *root = g_build_filename (dir, "root", NULL);
      g_autofree char *debug_dir = g_build_filename (root, "usr/lib/debug", NULL);
      g_autofree char *full = g_build_filename (root, layout == 0 ? "usr/lib/debug/lib" : "lib",
                                                "modules/6.1.0-test/vdso/vdso64.so", NULL);
      g_autofree char *other = g_build_filename (root, layout == 0 ? "usr/lib/debug/lib" : "lib",
                                                 "modules/6.1.0-test/vdso/vdso32.so", NULL);
      g_autofree char *expected = g_strdup_printf ("full_%" G_GINT64_MODIFIER "x", clock_offset);
      g_autoptr(GArray) starts = fde_starts (own);
      g_autofree char *contents = NULL;
      gsize length;
      HpSymbolizer *symbolizer = hp_symbolizer_new ();
      const HpResolvedAddress *r;
      HpModule *module;

      write_full_vdso (own, full);
      g_assert_true (g_file_get_contents (SYMTEST_TARGET, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (other, contents, (gssize) length, NULL));
      if (layout == 0)
        hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
      else
        hp_symbolizer_set_sysroot (symbolizer, root);
      hp_symbolizer_set_live (symbolizer, TRUE);
      module = hp_symbolizer_get_vdso_module (symbolizer, getpid (), start, size, NULL, 0);
      r = hp_symbolizer_lookup (symbolizer, module, clock_offset);
      g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, expected);
      /* every function has its name, those the dynamic symbols lack too */
      for (guint i = 0; i < starts->len; i++)
        {
          guint64 fde = g_array_index (starts, guint64, i);
          g_autofree char *name = g_strdup_printf ("full_%" G_GINT64_MODIFIER "x", fde);

          r = hp_symbolizer_lookup (symbolizer, module, fde + 1);
          g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, name);
        }
      hp_symbolizer_free (symbolizer);
      hp_test_remove_tree (root);
    }

  g_unlink (own);
  g_rmdir (dir);
}

/* Debug files that libdwfl's search by name finds below a --debug-dir:
 * for an absolute directory it tries the main file's directory and then
 * each shorter tail of it (/tmp/x/bin, then x/bin, then bin), with the
 * debuglink's name or, without one, NAME.debug and NAME itself. The skip
 * of that search when no file exists (debug_file_may_exist) must find
 * them too: a sysroot's /usr/lib/debug/usr/bin/prog.debug is such a
 * tail. No .build-id links here: only the search by name can find them. */
static void
test_debug_dir_by_name (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *bin = NULL, *debug_dir = NULL, *linked = NULL, *plain = NULL;
  g_autofree char *linked_debug = NULL, *plain_debug_dir = NULL, *plain_debug = NULL;
  g_autofree char *tail_dir = NULL;
  guint64 offset, size;

  if (g_find_program_in_path ("objcopy") == NULL)
    {
      g_test_skip ("objcopy not installed");
      return;
    }
  dir = g_dir_make_tmp ("hp-symtest-XXXXXX", NULL);
  g_assert_nonnull (dir);
  bin = g_build_filename (dir, "bin", NULL);
  debug_dir = g_build_filename (dir, "debug", NULL);
  linked = g_build_filename (bin, "linked", NULL);
  plain = g_build_filename (bin, "plain", NULL);
  /* debug/bin/linked.debug: the tail "bin" of DIR/bin */
  tail_dir = g_build_filename (debug_dir, "bin", NULL);
  linked_debug = g_build_filename (tail_dir, "linked.debug", NULL);
  /* debug/DIR/bin/plain: the whole directory, the file's own name */
  plain_debug_dir = g_build_filename (debug_dir, bin, NULL);
  plain_debug = g_build_filename (plain_debug_dir, "plain", NULL);
  g_assert_cmpint (g_mkdir_with_parents (bin, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (tail_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (plain_debug_dir, 0700), ==, 0);
  {
    const char *keep_linked[] = { "--only-keep-debug", SYMTEST_TARGET, linked_debug, NULL };
    const char *keep_plain[] = { "--only-keep-debug", SYMTEST_TARGET, plain_debug, NULL };
    const char *strip_linked[] = { "--strip-debug", "--add-gnu-debuglink", linked_debug, SYMTEST_TARGET, linked, NULL };
    const char *strip_plain[] = { "--strip-debug", SYMTEST_TARGET, plain, NULL };

    run_objcopy (keep_linked);
    run_objcopy (keep_plain);
    run_objcopy (strip_linked);
    run_objcopy (strip_plain);
  }
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &offset, &size));

  {
    const char *files[] = { linked, plain };

    for (guint f = 0; f < G_N_ELEMENTS (files); f++)
      {
        HpSymbolizer *symbolizer = hp_symbolizer_new ();
        HpModule *module;
        const HpResolvedAddress *r;

        hp_symbolizer_add_debug_dir (symbolizer, debug_dir);
        module = hp_symbolizer_get_module (symbolizer, files[f], NULL, 0);
        r = hp_symbolizer_lookup (symbolizer, module, offset);
        /* the outermost frame: outer, from its DWARF (a file) */
        g_test_message ("%s: %s at %s:%u", files[f], r->frames[r->n_frames - 1].function,
                        r->frames[r->n_frames - 1].file, r->frames[r->n_frames - 1].line);
        g_assert_cmpstr (r->frames[r->n_frames - 1].function, ==, "outer");
        g_assert_nonnull (r->frames[r->n_frames - 1].file);
        g_assert_true (g_str_has_suffix (r->frames[r->n_frames - 1].file, "symtest-target.c"));
        hp_symbolizer_free (symbolizer);
      }
  }
  hp_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  /* Keep the tests offline and deterministic. */
  g_unsetenv ("DEBUGINFOD_URLS");
  /* every lookup through a CU's index of code scopes is checked against
   * the walk over the CU: a difference is a warning, fatal here */
  g_setenv ("HOTPATH_CHECK_CACHES", "1", TRUE);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbolizer/no-debuginfod-load", test_no_debuginfod_load);
  g_test_add_func ("/symbolizer/inline-chain", test_inline_chain);
  g_test_add_func ("/symbolizer/plt", test_plt);
  g_test_add_func ("/symbolizer/debug-dir-by-name", test_debug_dir_by_name);
  g_test_add_func ("/symbolizer/symtab-fallback", test_symtab_fallback);
  g_test_add_func ("/symbolizer/symtab-classes", test_symtab_classes);
  g_test_add_func ("/symbolizer/symtab-system-files", test_symtab_system_files);
  g_test_add_func ("/symbolizer/plt-libc", test_plt_libc);
  g_test_add_func ("/symbolizer/plt-static", test_plt_static);
  g_test_add_func ("/symbolizer/stripped-main", test_stripped_main);
  g_test_add_func ("/symbolizer/template-namespace", test_template_namespace);
  g_test_add_func ("/symbolizer/lambda-names", test_lambda_names);
  g_test_add_func ("/symbolizer/build-id", test_build_id);
  g_test_add_func ("/symbolizer/special-names", test_special_names);
  g_test_add_func ("/symbolizer/vdso", test_vdso);
  g_test_add_func ("/symbolizer/demangle", test_demangle);
  g_test_add_func ("/symbolizer/kallsyms", test_kallsyms);
  g_test_add_func ("/symbolizer/kallsyms-restricted", test_kallsyms_restricted);
  g_test_add_func ("/symbolizer/debug-copies", test_debug_copies);
  g_test_add_func ("/symbolizer/debug-copies-limit", test_debug_copies_limit);
  g_test_add_func ("/symbolizer/kallsyms-cache-same-names", test_kallsyms_cache_same_names);
  g_test_add_func ("/symbolizer/kallsyms-cache-invalidated", test_kallsyms_cache_invalidated);
  g_test_add_func ("/symbolizer/kallsyms-cache-bad", test_kallsyms_cache_bad);
  return g_test_run ();
}
