/* test-unwinder.c - DWARF unwinding of stacks copied from this very process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The expected stacks are known by construction: the test calls
 * level_one → level_two → snapshot(), which saves the registers and copies
 * the stack exactly as the kernel does for PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER. Unwinding that copy must give back those
 * functions, in that order, on to main and _start. The same snapshot, fed
 * to the processor as a perf sample record, must give that stack in the
 * capture; damaged copies (no stack, garbage registers, random stack bytes,
 * a missing or replaced file) must give short, counted "[truncated]"
 * stacks and never a crash.
 */
#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "record/hp-processor.h"
#include "symbols/hp-address-space.h"
#include "symbols/hp-symbolizer.h"
#include "symbols/hp-unwinder.h"
#include "test-common.h"

#if defined(__x86_64__)

/* perf's register order for the mask the unwinder asks for (0xff01ff):
 * AX BX CX DX SI DI BP SP IP R8..R15 */
#define N_REGS    17
#define REG_SP    7
#define REG_IP    8
#define MAX_STACK 32768

typedef struct {
  guint64 regs[N_REGS];
  guint8  stack[MAX_STACK];
  gsize   stack_size;
} Snapshot;

/* Where the main thread's stack ends: a copy must stop there, as the
 * kernel's does. */
static guint64
stack_end (guint64 sp)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end;

      if (sscanf (lines[i], "%llx-%llx", &start, &end) == 2 && sp >= start && sp < end)
        return end;
    }
  g_assert_not_reached ();
}

/* Saves the registers as they are at one instruction, whose address is the
 * saved IP, so that the CFI for that address describes the saved SP. */
__attribute__((noinline, noclone)) static void
snapshot (Snapshot *snap)
{
  guint64 *r = snap->regs;
  guint64 end;

  __asm__ volatile ("movq %%rax, 0(%0)\n\t"
                    "movq %%rbx, 8(%0)\n\t"
                    "movq %%rcx, 16(%0)\n\t"
                    "movq %%rdx, 24(%0)\n\t"
                    "movq %%rsi, 32(%0)\n\t"
                    "movq %%rdi, 40(%0)\n\t"
                    "movq %%rbp, 48(%0)\n\t"
                    "movq %%rsp, 56(%0)\n\t"
                    "leaq 0(%%rip), %%rax\n\t"
                    "movq %%rax, 64(%0)\n\t"
                    "movq %%r8, 72(%0)\n\t"
                    "movq %%r9, 80(%0)\n\t"
                    "movq %%r10, 88(%0)\n\t"
                    "movq %%r11, 96(%0)\n\t"
                    "movq %%r12, 104(%0)\n\t"
                    "movq %%r13, 112(%0)\n\t"
                    "movq %%r14, 120(%0)\n\t"
                    "movq %%r15, 128(%0)\n\t"
                    : : "r" (r) : "rax", "memory");

  /* Only frames above the saved SP matter, and what runs from here on
   * writes below it: this frame stays live until the copy is made. */
  end = stack_end (r[REG_SP]);
  snap->stack_size = MIN (sizeof snap->stack, end - r[REG_SP]);
  memcpy (snap->stack, GSIZE_TO_POINTER (r[REG_SP]), snap->stack_size);
  /* Not a tail call: as one, memcpy runs after this frame is popped, with
   * the stack pointer above the saved one, and the dynamic linker's lazy
   * binding of memcpy (_dl_runtime_resolve) writes over the registers this
   * frame saved before they are copied. The unwind then restores garbage
   * into the callers (rbp among them, on which fixture_set_up's CFA
   * depends, whenever the saved SP is 48 modulo 64). */
  __asm__ volatile ("" ::: "memory");
}

__attribute__((noinline, noclone)) static void
level_two (Snapshot *snap)
{
  snapshot (snap);
  __asm__ volatile ("" ::: "memory"); /* not a tail call */
}

__attribute__((noinline, noclone)) static void
level_one (Snapshot *snap)
{
  level_two (snap);
  __asm__ volatile ("" ::: "memory");
}

__attribute__((noinline, noclone)) static Snapshot *
take_snapshot (void)
{
  Snapshot *snap = g_new0 (Snapshot, 1);

  level_one (snap);
  return snap;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpAddressSpace, hp_address_space_free)

/* This process's executable mappings, as MMAP2 records would give them. */
static void
map_self (HpSymbolizer   *symbolizer,
          HpAddressSpace *space)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end, pgoff;
      char perms[8] = "";
      int name_at = 0;
      const char *name;

      if (sscanf (lines[i], "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff, &name_at) < 4
          || strchr (perms, 'x') == NULL || name_at == 0)
        continue;
      name = g_strstrip (lines[i] + name_at);
      hp_address_space_add (space, start, end - start, pgoff, name,
                            name[0] == '/' ? hp_symbolizer_get_module (symbolizer, name, NULL, 0) : NULL);
    }
}

/* The function (outermost of the inline chain) at each pc. */
static GPtrArray *
names_of (HpSymbolizer   *symbolizer,
          HpAddressSpace *space,
          GArray         *pcs)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < pcs->len; i++)
    {
      guint64 pc = g_array_index (pcs, guint64, i);
      const HpMapping *map = hp_address_space_lookup (space, pc);
      const HpResolvedAddress *r;
      const char *name = "?";

      if (map != NULL && map->module != NULL)
        {
          r = hp_symbolizer_lookup (symbolizer, map->module, pc - map->start + map->pgoff);
          if (r->frames[r->n_frames - 1].function != NULL)
            name = r->frames[r->n_frames - 1].function;
        }
      g_ptr_array_add (names, (gpointer) name);
    }
  return names;
}

static gint
index_of (GPtrArray  *names,
          const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), name) == 0)
      return i;
  return -1;
}

static HpUnwindSample
sample_of (const Snapshot *snap)
{
  HpUnwindSample sample = {
    .pid = getpid (),
    .tid = getpid (),
    .abi = PERF_SAMPLE_REGS_ABI_64,
    .regs_mask = hp_unwinder_get_sample_regs_user (),
    .regs = snap->regs,
    .n_regs = N_REGS,
    .stack = snap->stack,
    .stack_size = snap->stack_size,
  };

  return sample;
}

typedef struct {
  HpSymbolizer   *symbolizer;
  HpAddressSpace *space;
  HpUnwinder     *unwinder;
  GArray         *pcs;
  Snapshot       *snap;
} Fixture;

static void
fixture_set_up (Fixture      *f,
                gconstpointer data)
{
  g_assert_cmphex (hp_unwinder_get_sample_regs_user (), ==, 0xff01ff);
  f->symbolizer = hp_symbolizer_new ();
  f->space = hp_address_space_new ();
  f->unwinder = hp_unwinder_new ();
  f->pcs = g_array_new (FALSE, FALSE, sizeof (guint64));
  map_self (f->symbolizer, f->space);
  f->snap = take_snapshot ();
}

static void
fixture_tear_down (Fixture      *f,
                   gconstpointer data)
{
  g_free (f->snap);
  g_array_unref (f->pcs);
  hp_unwinder_free (f->unwinder);
  hp_address_space_free (f->space);
  hp_symbolizer_free (f->symbolizer);
}

static void
test_whole_stack (Fixture      *f,
                  gconstpointer data)
{
  HpUnwindSample sample = sample_of (f->snap);
  g_autoptr(GPtrArray) names = NULL;
  HpUnwindStatus status;
  gint two, one, test, main_at;

  status = hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs);
  names = names_of (f->symbolizer, f->space, f->pcs);

  /* The leaf is the saved IP itself, not moved back. */
  g_assert_cmpuint (f->pcs->len, >=, 5);
  g_assert_cmphex (g_array_index (f->pcs, guint64, 0), ==, f->snap->regs[REG_IP]);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "snapshot");

  two = index_of (names, "level_two");
  one = index_of (names, "level_one");
  test = index_of (names, "take_snapshot");
  main_at = index_of (names, "main");
  g_assert_cmpint (two, ==, 1);
  g_assert_cmpint (one, ==, 2);
  g_assert_cmpint (test, ==, 3);
  /* Through GLib's test harness (no frame pointers either) to main and
   * the C library's start. */
  g_assert_cmpint (main_at, >, test);
  g_assert_cmpint (index_of (names, "__libc_start_call_main"), >, main_at);
  g_assert_cmpstr (g_ptr_array_index (names, names->len - 1), ==, "_start");
  g_assert_cmpint (status, ==, HP_UNWIND_END);

  /* A second unwind in the same session gives the same frames. */
  g_array_set_size (f->pcs, 0);
  hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs);
  g_assert_cmpuint (f->pcs->len, ==, names->len);
}

static void
test_short_copy (Fixture      *f,
                 gconstpointer data)
{
  HpUnwindSample sample = sample_of (f->snap);
  HpUnwindStatus status;

  /* No stack at all (a process in exit, a kernel thread): the leaf only. */
  sample.stack = NULL;
  sample.stack_size = 0;
  status = hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs);
  g_assert_cmpint (status, ==, HP_UNWIND_STOPPED);
  g_assert_cmpuint (f->pcs->len, >=, 1);
  g_assert_cmpuint (f->pcs->len, <=, 2);
  g_assert_cmphex (g_array_index (f->pcs, guint64, 0), ==, f->snap->regs[REG_IP]);

  /* A copy that ends inside level_one's frame: stops, without inventing,
   * and says a bigger copy would have gone on. */
  g_array_set_size (f->pcs, 0);
  sample.stack = f->snap->stack;
  sample.stack_size = 64;
  status = hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs);
  g_assert_cmpint (status, ==, HP_UNWIND_COPY_ENDED);
  g_assert_cmpuint (f->pcs->len, <, 6);
}

static void
test_no_registers (Fixture      *f,
                   gconstpointer data)
{
  HpUnwindSample sample = sample_of (f->snap);

  sample.abi = PERF_SAMPLE_REGS_ABI_32;
  g_assert_cmpint (hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs), ==, HP_UNWIND_NO_REGS);
  sample.abi = PERF_SAMPLE_REGS_ABI_64;
  sample.n_regs = REG_SP; /* SP and IP missing */
  g_assert_cmpint (hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs), ==, HP_UNWIND_NO_REGS);
  g_assert_cmpuint (f->pcs->len, ==, 0);
}

static void
test_garbage (Fixture      *f,
              gconstpointer data)
{
  g_autofree guint8 *junk = g_malloc (MAX_STACK);
  GRand *rand = g_rand_new_with_seed (3);

  /* Registers and stacks of random bytes, random bytes in a real stack,
   * and real registers over random stacks: never a crash, never more
   * frames than the copy can hold. */
  for (guint round = 0; round < 3000; round++)
    {
      Snapshot snap = { 0 };
      HpUnwindSample sample;

      memcpy (snap.regs, f->snap->regs, sizeof snap.regs);
      memcpy (snap.stack, f->snap->stack, f->snap->stack_size);
      snap.stack_size = f->snap->stack_size;
      if (round % 3 == 0)
        for (guint i = 0; i < N_REGS; i++)
          snap.regs[i] = g_rand_int_range (rand, 0, 4) == 0
                         ? f->snap->regs[i] + g_rand_int_range (rand, -4096, 4096)
                         : ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      else if (round % 3 == 1)
        for (guint i = 0; i < 64; i++)
          snap.stack[g_rand_int_range (rand, 0, snap.stack_size)] = g_rand_int (rand);
      else
        {
          for (guint i = 0; i < MAX_STACK; i++)
            junk[i] = g_rand_int (rand);
          /* Plausible return addresses: our own code, shuffled. */
          for (guint i = 0; i + 8 <= MAX_STACK; i += 64)
            memcpy (junk + i, &f->snap->regs[REG_IP], 8);
          memcpy (snap.stack, junk, MAX_STACK);
          snap.stack_size = g_rand_int_range (rand, 0, MAX_STACK);
        }

      sample = sample_of (&snap);
      g_array_set_size (f->pcs, 0);
      hp_unwinder_unwind (f->unwinder, f->space, 1, &sample, f->pcs);
      g_assert_cmpuint (f->pcs->len, <=, 2 + snap.stack_size / 8);
    }
  g_rand_free (rand);
}

static void
test_missing_file (Fixture      *f,
                   gconstpointer data)
{
  HpUnwindSample sample = sample_of (f->snap);
  const HpMapping *self_map = hp_address_space_lookup (f->space, f->snap->regs[REG_IP]);
  static const guint8 other_id[20] = { 0xde, 0xad, 0xbe, 0xef };
  g_autoptr(HpAddressSpace) missing = NULL;
  g_autoptr(HpAddressSpace) replaced = NULL;

  g_assert_nonnull (self_map);

  /* The executable gone from disk: the leaf, and a stop. */
  missing = hp_address_space_new ();
  hp_address_space_add (missing, self_map->start, self_map->end - self_map->start, self_map->pgoff,
                        "/nonexistent/test-unwinder",
                        hp_symbolizer_get_module (f->symbolizer, "/nonexistent/test-unwinder", NULL, 0));
  g_assert_cmpint (hp_unwinder_unwind (f->unwinder, missing, 1, &sample, f->pcs), ==, HP_UNWIND_STOPPED);
  g_assert_cmpuint (f->pcs->len, ==, 1);

  /* The file on disk is another build than the one mapped: its CFI
   * describes other code, so it is not used either. pid 2 is another
   * session, so the mapping of the first one is not reused. */
  replaced = hp_address_space_new ();
  hp_address_space_add (replaced, self_map->start, self_map->end - self_map->start, self_map->pgoff,
                        self_map->name,
                        hp_symbolizer_get_module (f->symbolizer, self_map->name, other_id, sizeof other_id));
  sample.pid = 2;
  g_array_set_size (f->pcs, 0);
  g_assert_cmpint (hp_unwinder_unwind (f->unwinder, replaced, 1, &sample, f->pcs), ==, HP_UNWIND_STOPPED);
  g_assert_cmpuint (f->pcs->len, ==, 1);

  /* Back to the real address space under pid 2: a new generation reports
   * the right file and the whole stack unwinds again. */
  g_array_set_size (f->pcs, 0);
  g_assert_cmpint (hp_unwinder_unwind (f->unwinder, f->space, 2, &sample, f->pcs), ==, HP_UNWIND_END);
  g_assert_cmpuint (f->pcs->len, >=, 6);
}

/* An import of a recording made elsewhere ------------------------------------ */

/* @space with this process's executable renamed @path, under a module of
 * @symbolizer (whose sysroot and debug directories say where its file is),
 * and every other mapping as it is. */
static HpAddressSpace *
space_with_executable_at (Fixture        *f,
                          HpSymbolizer   *symbolizer,
                          const char     *path,
                          const guint8   *build_id,
                          gsize           build_id_len)
{
  const HpMapping *self_map = hp_address_space_lookup (f->space, f->snap->regs[REG_IP]);
  HpAddressSpace *space = hp_address_space_new ();
  const HpMapping *maps;
  guint n_maps;

  g_assert_nonnull (self_map);
  maps = hp_address_space_get_mappings (f->space, &n_maps);
  for (guint i = 0; i < n_maps; i++)
    {
      gboolean exe = g_strcmp0 (maps[i].name, self_map->name) == 0;
      const char *name = exe ? path : maps[i].name;

      hp_address_space_add (space, maps[i].start, maps[i].end - maps[i].start, maps[i].pgoff, name,
                            maps[i].module == NULL ? NULL
                            : exe ? hp_symbolizer_get_module (symbolizer, path, build_id, build_id_len)
                            : hp_symbolizer_get_module (symbolizer, name, NULL, 0));
    }
  return space;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  g_autofree char *dir = g_path_get_dirname (to);
  g_autoptr(GError) error = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (from, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (to, contents, len, &error));
  g_assert_no_error (error);
}

/* The whole stack, and the copy found through @symbolizer's search is the
 * file that was unwound: without it the unwind stops at the leaf. */
static void
assert_unwinds_through (Fixture        *f,
                        HpSymbolizer   *symbolizer,
                        HpAddressSpace *space)
{
  HpUnwindSample sample = sample_of (f->snap);
  HpUnwinder *unwinder = hp_unwinder_new ();
  g_autoptr(GPtrArray) names = NULL;

  g_assert_cmpint (hp_unwinder_unwind (unwinder, space, 1, &sample, f->pcs), ==, HP_UNWIND_END);
  names = names_of (symbolizer, space, f->pcs);
  g_assert_cmpint (index_of (names, "level_two"), ==, 1);
  g_assert_cmpint (index_of (names, "level_one"), ==, 2);
  g_assert_cmpint (index_of (names, "take_snapshot"), ==, 3);
  g_assert_cmpstr (g_ptr_array_index (names, names->len - 1), ==, "_start");
  hp_unwinder_free (unwinder);
}

/* --sysroot: the recorded paths name files of another machine, whose copies
 * are under the sysroot; the executable's path names nothing here at all. */
static void
test_sysroot (Fixture      *f,
              gconstpointer data)
{
  const HpMapping *self_map = hp_address_space_lookup (f->space, f->snap->regs[REG_IP]);
  g_autofree char *root = g_dir_make_tmp ("hotpath-sysroot-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (root, "opt/elsewhere/test-unwinder", NULL);
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  g_autoptr(HpAddressSpace) space = NULL;
  const HpMapping *maps;
  guint n_maps;

  g_assert_false (g_file_test ("/opt/elsewhere/test-unwinder", G_FILE_TEST_EXISTS));
  copy_file (self_map->name, copy);
  maps = hp_address_space_get_mappings (f->space, &n_maps);
  for (guint i = 0; i < n_maps; i++)
    if (maps[i].module != NULL && maps[i].module != self_map->module)
      {
        g_autofree char *lib = g_build_filename (root, maps[i].name, NULL);

        if (!g_file_test (lib, G_FILE_TEST_EXISTS))
          copy_file (maps[i].name, lib);
      }
  hp_symbolizer_set_sysroot (symbolizer, root);
  space = space_with_executable_at (f, symbolizer, "/opt/elsewhere/test-unwinder", NULL, 0);
  assert_unwinds_through (f, symbolizer, space);
  hp_symbolizer_free (symbolizer);

  hp_test_remove_tree (root);
}

/* --debug-dir: the recorded path is gone; a copy of the very file is kept
 * by build id in the debug directory, as an extracted perf archive has it. */
static void
test_debug_dir (Fixture      *f,
                gconstpointer data)
{
  const HpMapping *self_map = hp_address_space_lookup (f->space, f->snap->regs[REG_IP]);
  const char *hex = hp_module_get_build_id (self_map->module);
  g_autofree char *dir = g_dir_make_tmp ("hotpath-debug-XXXXXX", NULL);
  g_autofree char *copy = NULL;
  g_autofree guint8 *build_id = NULL;
  gsize build_id_len;
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  g_autoptr(HpAddressSpace) space = NULL;

  g_assert_nonnull (hex);
  g_assert_cmpuint (strlen (hex), >, 2);
  build_id_len = strlen (hex) / 2;
  build_id = g_malloc (build_id_len);
  for (gsize i = 0; i < build_id_len; i++)
    build_id[i] = g_ascii_xdigit_value (hex[2 * i]) << 4 | g_ascii_xdigit_value (hex[2 * i + 1]);
  copy = g_strdup_printf ("%s/.build-id/%.2s/%s", dir, hex, hex + 2);
  copy_file (self_map->name, copy);

  hp_symbolizer_add_debug_dir (symbolizer, dir);
  space = space_with_executable_at (f, symbolizer, "/nonexistent/test-unwinder", build_id, build_id_len);
  assert_unwinds_through (f, symbolizer, space);
  hp_symbolizer_free (symbolizer);

  hp_test_remove_tree (dir);
}

/* The processor ------------------------------------------------------------ */

static const HpPerfEventInfo dwarf_info = {
  .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
                 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
  .sample_regs_user = 0xff01ff,
  .sample_id_all = TRUE,
};

static void
put_u64 (GByteArray *b,
         guint64     v)
{
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

/* A PERF_RECORD_SAMPLE as the kernel writes it for dwarf_info. */
static GByteArray *
sample_record (const Snapshot *snap,
               guint64         time,
               gboolean        garbage)
{
  GByteArray *b = g_byte_array_new ();
  struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };
  guint32 pid = getpid ();

  g_byte_array_append (b, (const guint8 *) &h, sizeof h);
  put_u64 (b, 1);                                  /* IDENTIFIER */
  put_u64 (b, snap->regs[REG_IP]);                 /* IP */
  put_u64 (b, pid | (guint64) pid << 32);          /* TID */
  put_u64 (b, time);                               /* TIME */
  put_u64 (b, 0);                                  /* CPU */
  put_u64 (b, 1000);                               /* PERIOD */
  put_u64 (b, 0);                                  /* CALLCHAIN: none (user excluded) */
  put_u64 (b, PERF_SAMPLE_REGS_ABI_64);            /* REGS_USER */
  for (guint i = 0; i < N_REGS; i++)
    put_u64 (b, garbage && i != REG_IP ? G_GUINT64_CONSTANT (0x7fff00000000) + i * 4096 : snap->regs[i]);
  if (garbage)
    put_u64 (b, 0);                                /* STACK_USER: nothing copied */
  else
    {
      gsize size = MIN (snap->stack_size, 16384);

      put_u64 (b, size);
      g_byte_array_append (b, snap->stack, size);
      put_u64 (b, size);                           /* dyn_size */
    }
  ((struct perf_event_header *) b->data)->size = b->len;
  return b;
}

static gint64
query_int (sqlite3    *db,
           const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

/* Names along the stack of @stack_id, root first, joined with ' '. */
static char *
stack_names (sqlite3 *db,
             gint64   stack_id)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GString *joined = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db,
                     "SELECT s.parent_id, fn.name FROM stacks s JOIN frames f ON f.id = s.frame_id "
                     "JOIN functions fn ON fn.id = f.function_id WHERE s.id = ?", -1, &stmt, NULL), ==, SQLITE_OK);
  while (stack_id != 0)
    {
      sqlite3_reset (stmt);
      sqlite3_bind_int64 (stmt, 1, stack_id);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
      g_ptr_array_insert (names, 0, g_strdup ((const char *) sqlite3_column_text (stmt, 1)));
      stack_id = sqlite3_column_int64 (stmt, 0);
    }
  sqlite3_finalize (stmt);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (joined, "%s%s", i ? " " : "", (char *) g_ptr_array_index (names, i));
  g_ptr_array_unref (names);
  return g_string_free (joined, FALSE);
}

static void
test_processor (Fixture      *f,
                gconstpointer data)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-unwinder-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "unwound.hotpath", NULL);
  g_autofree char *good = NULL;
  g_autofree char *cut = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GByteArray) rec1 = sample_record (f->snap, 100, FALSE);
  g_autoptr(GByteArray) rec2 = sample_record (f->snap, 200, TRUE);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  HpCaptureWriter *writer;
  HpProcessor *processor;
  HpProcessorStats stats;
  sqlite3 *db = NULL;

  writer = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  processor = hp_processor_new (writer);

  /* This process's mappings, as the recorder synthesizes them. */
  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long long start, end, pgoff;
      char perms[8] = "";
      int name_at = 0;
      HpPerfRecord rec = { 0 };

      if (sscanf (lines[i], "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &pgoff, &name_at) < 4
          || strchr (perms, 'x') == NULL || name_at == 0)
        continue;
      rec.type = PERF_RECORD_MMAP2;
      rec.pid = rec.tid = getpid ();
      rec.mmap.addr = start;
      rec.mmap.len = end - start;
      rec.mmap.pgoff = pgoff;
      rec.mmap.prot = 5; /* PROT_READ | PROT_EXEC */
      rec.mmap.filename = g_strstrip (lines[i] + name_at);
      hp_processor_process (processor, &rec);
    }

  hp_processor_push (processor, &dwarf_info, rec1->data, rec1->len);
  hp_processor_push (processor, &dwarf_info, rec2->data, rec2->len);
  hp_processor_flush (processor);
  hp_processor_get_stats (processor, &stats);
  g_assert_cmpuint (stats.samples, ==, 2);
  g_assert_cmpuint (stats.complete, ==, 1);
  g_assert_cmpuint (stats.truncated, ==, 1);
  /* No stack copy at all: a bigger one would not have helped. */
  g_assert_cmpuint (stats.truncated_copy, ==, 0);
  g_assert_cmpuint (stats.bad_records, ==, 0);
  hp_processor_write_stats (processor);
  hp_processor_free (processor);
  g_assert_true (hp_capture_writer_finish (writer, &error));
  g_assert_no_error (error);
  hp_capture_writer_free (writer);

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (query_int (db, "SELECT value FROM metadata WHERE key = 'truncated_stacks'"), ==, 1);
  g_assert_cmpint (query_int (db, "SELECT value FROM metadata WHERE key = 'complete_stacks'"), ==, 1);

  /* The whole stack, root first; the stack-less sample under "[truncated]"
   * with its leaf alone. */
  good = stack_names (db, query_int (db, "SELECT stack_id FROM samples WHERE time = 100"));
  cut = stack_names (db, query_int (db, "SELECT stack_id FROM samples WHERE time = 200"));
  g_test_message ("unwound: %s", good);
  g_assert_true (g_str_has_prefix (good, "_start "));
  g_assert_true (g_str_has_suffix (good, " main take_snapshot level_one level_two snapshot")
                 || strstr (good, " take_snapshot level_one level_two snapshot") != NULL);
  g_assert_nonnull (strstr (good, " main "));
  g_assert_cmpstr (cut, ==, "[truncated] snapshot");
  g_assert_cmpint (query_int (db, "SELECT module_id FROM functions WHERE name = '[truncated]'"), ==, 0);
  sqlite3_close (db);

  g_remove (path);
  g_rmdir (dir);
}

#else

static void
test_unsupported (void)
{
  g_test_skip ("DWARF unwinding is implemented for x86-64 only");
}

#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* every sample the rules by pc unwind is unwound by libdwfl too; a
   * difference is a warning, fatal in a test (see hp-unwinder.c) */
  g_setenv ("HOTPATH_CHECK_CACHES", "1", TRUE);

#if defined(__x86_64__)
  g_test_add ("/unwinder/whole-stack", Fixture, NULL, fixture_set_up, test_whole_stack, fixture_tear_down);
  g_test_add ("/unwinder/short-copy", Fixture, NULL, fixture_set_up, test_short_copy, fixture_tear_down);
  g_test_add ("/unwinder/no-registers", Fixture, NULL, fixture_set_up, test_no_registers, fixture_tear_down);
  g_test_add ("/unwinder/garbage", Fixture, NULL, fixture_set_up, test_garbage, fixture_tear_down);
  g_test_add ("/unwinder/missing-file", Fixture, NULL, fixture_set_up, test_missing_file, fixture_tear_down);
  g_test_add ("/unwinder/sysroot", Fixture, NULL, fixture_set_up, test_sysroot, fixture_tear_down);
  g_test_add ("/unwinder/debug-dir", Fixture, NULL, fixture_set_up, test_debug_dir, fixture_tear_down);
  g_test_add ("/unwinder/processor", Fixture, NULL, fixture_set_up, test_processor, fixture_tear_down);
#else
  g_test_add_func ("/unwinder/unsupported", test_unsupported);
#endif

  return g_test_run ();
}
