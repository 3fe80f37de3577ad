/* test-common.c - helpers shared by the test suites
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What more than one suite needs and each used to copy: removing a
 * test's folder, loading a capture into a profile, and reading an ELF
 * file's symbols and build id with libelf, independently of the
 * symbolizer under test.
 */
#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/hp-capture-writer.h"
#include "test-common.h"

void
hp_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  /* Read-only folders are made by tests to provoke errors. */
  if (!g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    g_chmod (path, 0755);
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      /* A link is removed, never followed: tests link to /bin/sh and to
       * the build's own files, and a chmod through one once made /bin/sh
       * unexecutable. Files need no mode to be unlinked; their folder does. */
      if (g_file_test (child, G_FILE_TEST_IS_SYMLINK) || !g_file_test (child, G_FILE_TEST_IS_DIR))
        g_unlink (child);
      else
        hp_test_remove_tree (child);
    }
  g_rmdir (path);
}

void
hp_test_scratch_set_up (HpTestScratch *scratch,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  scratch->dir = g_dir_make_tmp ("hp-test-XXXXXX", &error);
  g_assert_no_error (error);
  scratch->path = g_build_filename (scratch->dir, "test.hotpath", NULL);
}

void
hp_test_scratch_tear_down (HpTestScratch *scratch,
                           gconstpointer  data)
{
  hp_test_remove_tree (scratch->dir);
  g_clear_pointer (&scratch->path, g_free);
  g_clear_pointer (&scratch->dir, g_free);
}

HpProfile *
hp_test_load_profile (const char     *path,
                      HpCaptureData **data_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = hp_capture_open (path, FALSE, &error);
  HpCaptureData *data;

  g_assert_no_error (error);
  data = hp_capture_load (capture, &error);
  g_assert_no_error (error);
  *data_out = data;
  return hp_profile_new (data, NULL);
}

static Elf *
elf_open (const char *path,
          int        *fd)
{
  Elf *elf;

  elf_version (EV_CURRENT);
  *fd = open (path, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (*fd, >=, 0);
  elf = elf_begin (*fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  return elf;
}

gboolean
hp_test_elf_section (const char *path,
                     const char *name,
                     guint64    *offset,
                     guint64    *size)
{
  gboolean found = FALSE;
  Elf_Scn *scn = NULL;
  size_t shstrndx;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  g_assert_cmpint (elf_getshdrstrndx (elf, &shstrndx), ==, 0);
  while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;

      if (gelf_getshdr (scn, &shdr) != NULL && g_strcmp0 (elf_strptr (elf, shstrndx, shdr.sh_name), name) == 0)
        {
          *offset = shdr.sh_offset;
          *size = shdr.sh_size;
          found = TRUE;
        }
    }
  elf_end (elf);
  close (fd);
  return found;
}

gboolean
hp_test_elf_function (const char *path,
                      const char *name,
                      guint64    *offset,
                      guint64    *size)
{
  gboolean found = FALSE;
  Elf_Scn *scn = NULL;
  GElf_Addr vaddr = 0;
  size_t phnum;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      Elf_Data *data;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_SYMTAB)
        continue;
      data = elf_getdata (scn, NULL);
      for (size_t i = 0; data != NULL && i < shdr.sh_size / shdr.sh_entsize; i++)
        {
          GElf_Sym sym;
          const char *sym_name;

          if (gelf_getsym (data, i, &sym) == NULL || GELF_ST_TYPE (sym.st_info) != STT_FUNC)
            continue;
          sym_name = elf_strptr (elf, shdr.sh_link, sym.st_name);
          if (g_strcmp0 (sym_name, name) == 0)
            {
              vaddr = sym.st_value;
              *size = sym.st_size;
              found = TRUE;
              break;
            }
        }
    }

  /* Virtual address to file offset, through the load segment that holds it. */
  if (found)
    {
      found = FALSE;
      g_assert_cmpint (elf_getphdrnum (elf, &phnum), ==, 0);
      for (size_t i = 0; i < phnum; i++)
        {
          GElf_Phdr phdr;

          if (gelf_getphdr (elf, i, &phdr) != NULL && phdr.p_type == PT_LOAD
              && vaddr >= phdr.p_vaddr && vaddr < phdr.p_vaddr + phdr.p_filesz)
            {
              *offset = vaddr - phdr.p_vaddr + phdr.p_offset;
              found = TRUE;
              break;
            }
        }
    }

  elf_end (elf);
  close (fd);
  return found;
}

gboolean
hp_test_elf_needs (const char *path,
                   const char *soname)
{
  gboolean found = FALSE;
  Elf_Scn *scn = NULL;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  while (!found && (scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      Elf_Data *data;

      if (gelf_getshdr (scn, &shdr) == NULL || shdr.sh_type != SHT_DYNAMIC || shdr.sh_entsize == 0)
        continue;
      data = elf_getdata (scn, NULL);
      for (gsize i = 0; data != NULL && !found && i < shdr.sh_size / shdr.sh_entsize; i++)
        {
          GElf_Dyn dyn;

          if (gelf_getdyn (data, (int) i, &dyn) != NULL && dyn.d_tag == DT_NEEDED)
            found = g_strcmp0 (elf_strptr (elf, shdr.sh_link, dyn.d_un.d_val), soname) == 0;
        }
    }
  elf_end (elf);
  close (fd);
  return found;
}

gsize
hp_test_elf_build_id (const char *path,
                      guint8      id[20])
{
  const void *bytes;
  ssize_t len;
  Elf *elf;
  int fd;

  elf = elf_open (path, &fd);
  len = dwelf_elf_gnu_build_id (elf, &bytes);
  g_assert_cmpint (len, >, 0);
  g_assert_cmpint (len, <=, 20);
  memcpy (id, bytes, len);
  elf_end (elf);
  close (fd);
  return len;
}

GArray *
hp_test_elf_fdes (const char *path)
{
  const char *argv[] = { "readelf", "--debug-dump=frames", path, NULL };
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree char *out = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *pc = strstr (lines[i], " FDE ") != NULL ? strstr (lines[i], "pc=") : NULL;
      char *end = NULL;
      guint64 range[2];

      if (pc == NULL)
        continue;
      range[0] = g_ascii_strtoull (pc + 3, &end, 16);
      if (end == NULL || !g_str_has_prefix (end, ".."))
        continue;
      range[1] = g_ascii_strtoull (end + 2, NULL, 16);
      g_array_append_vals (ranges, range, 2);
    }
  return ranges;
}

/* The benchmarks' captures: a program of BIG_FUNCTIONS functions, one
 * million samples over 8 threads, 250 us apart. */
#define BIG_SAMPLES   1000000
#define BIG_FUNCTIONS 3000
#define BIG_LEAVES    60000
#define BIG_PATHS     10000

/* @stress: random walks down a call graph, 60 000 of them, which gives
 * 700 000 stack nodes (a worst case); otherwise 10 000 call paths that
 * each extend an earlier one by 1 to 3 frames, as the stacks of one
 * program do (the shape of test-capture's 1M-sample timing): 20 000
 * stack nodes. The generator is left where the samples' draws start. */
HpTestBigShape *
hp_test_big_shape_new (gboolean stress,
                       GRand   *rand)
{
  HpTestBigShape *shape = g_new0 (HpTestBigShape, 1);
  g_autofree int *callees = g_new0 (int, BIG_FUNCTIONS * 6);

  shape->n_functions = BIG_FUNCTIONS;
  shape->n_leaves = BIG_LEAVES;
  shape->n_samples = BIG_SAMPLES;
  shape->depth = g_new0 (guint, BIG_LEAVES);
  shape->frames = g_new0 (guint, BIG_LEAVES * HP_TEST_BIG_MAX_DEPTH);
  shape->leaf_function = g_new0 (guint, BIG_LEAVES);

  /* a call graph that goes "down": callees have higher numbers */
  for (int f = 0; f < BIG_FUNCTIONS; f++)
    for (int c = 0; c < 6; c++)
      callees[f * 6 + c] = MIN (BIG_FUNCTIONS - 1, f + 1 + g_rand_int_range (rand, 0, 1 + (BIG_FUNCTIONS - f) / 8));

  if (stress)
    {
      /* random walks from main (function 0) down the call graph */
      for (int i = 0; i < BIG_LEAVES; i++)
        {
          int depth = g_rand_int_range (rand, 4, 29);
          int f = 0;

          shape->depth[i] = depth;
          for (int d = 0; d < depth; d++)
            {
              shape->frames[i * HP_TEST_BIG_MAX_DEPTH + d] = f * 4 + g_rand_int_range (rand, 0, 4);
              shape->leaf_function[i] = f;
              f = callees[f * 6 + (g_rand_int_range (rand, 0, 6) * g_rand_int_range (rand, 0, 6)) / 6];
            }
        }
    }
  else
    {
      /* each path a prefix of an earlier one plus 1-3 frames */
      g_autofree int *paths = g_new0 (int, BIG_PATHS * HP_TEST_BIG_MAX_DEPTH);
      g_autofree int *depths = g_new0 (int, BIG_PATHS);

      depths[0] = 8;
      for (int d = 0; d < depths[0]; d++)
        paths[d] = g_rand_int_range (rand, 0, BIG_FUNCTIONS);
      for (int p = 1; p < BIG_PATHS; p++)
        {
          int q = g_rand_int_range (rand, 0, p);
          int keep = MAX (depths[q] - g_rand_int_range (rand, 0, 3), 1);

          memcpy (&paths[p * HP_TEST_BIG_MAX_DEPTH], &paths[q * HP_TEST_BIG_MAX_DEPTH], keep * sizeof (int));
          depths[p] = MIN (keep + g_rand_int_range (rand, 1, 4), HP_TEST_BIG_MAX_DEPTH);
          for (int d = keep; d < depths[p]; d++)
            paths[p * HP_TEST_BIG_MAX_DEPTH + d] = g_rand_int_range (rand, 0, BIG_FUNCTIONS);
        }
      for (int p = 0; p < BIG_LEAVES; p++)
        {
          int path = p % BIG_PATHS;

          shape->depth[p] = depths[path];
          for (int d = 0; d < depths[path]; d++)
            shape->frames[p * HP_TEST_BIG_MAX_DEPTH + d] = paths[path * HP_TEST_BIG_MAX_DEPTH + d] * 4;
          shape->leaf_function[p] = paths[path * HP_TEST_BIG_MAX_DEPTH + depths[path] - 1];
        }
    }
  return shape;
}

void
hp_test_big_shape_free (HpTestBigShape *shape)
{
  g_free (shape->depth);
  g_free (shape->frames);
  g_free (shape->leaf_function);
  g_free (shape);
}

char *
hp_test_big_function_name (guint    f,
                           gboolean clone_names)
{
  return g_strdup_printf ("big_function_%04u_%s%s", f, f % 3 ? "work" : "dispatch",
                          clone_names && f % 7 == 0 ? ".part.0" : "");
}

/* skewed: a few stacks take most samples */
guint
hp_test_big_shape_draw (const HpTestBigShape *shape,
                        GRand                *draw)
{
  double u = g_rand_double (draw);

  return (guint) (shape->n_leaves * u * u * u);
}

void
hp_test_make_big_capture (const char             *path,
                          const HpTestBigCapture *how)
{
  g_autoptr(HpCaptureWriter) w = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240501);
  g_autoptr(GRand) own_draw = how->sample_seed != 0 ? g_rand_new_with_seed (how->sample_seed) : NULL;
  GRand *draw = own_draw != NULL ? own_draw : rand;
  HpTestBigShape *shape = hp_test_big_shape_new (how->stress, rand);
  guint64 period = how->period_ns != 0 ? how->period_ns : 250000;
  g_autofree gint64 *frames = g_new0 (gint64, BIG_FUNCTIONS * 4);
  g_autofree gint64 *leaves = g_new0 (gint64, BIG_LEAVES);
  gint64 module;
  gint64 start = g_get_monotonic_time ();

  g_unlink (path);
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/bench/big --work");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  hp_capture_writer_set_metadata (w, "event_unit", "ns");
  hp_capture_writer_set_metadata (w, "frequency", "999");
  hp_capture_writer_set_metadata (w, "call_graph", "fp");
  hp_capture_writer_set_metadata_int (w, "duration_ns", 250000000000);
  hp_capture_writer_set_process (w, 1000, "big");
  for (int t = 0; t < 8; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%d", t);

      hp_capture_writer_set_thread (w, 1000 + t, 1000, name);
    }

  module = hp_capture_writer_intern_module (w, "/opt/bench/big", NULL, FALSE);
  for (guint f = 0; f < BIG_FUNCTIONS; f++)
    {
      g_autofree char *name = hp_test_big_function_name (f, how->clone_names);
      gint64 function = hp_capture_writer_intern_function (w, name, module, "/opt/bench/src/big.c", 10 * f + 1);

      for (guint l = 0; l < 4; l++)
        frames[f * 4 + l] = hp_capture_writer_intern_frame (w, function, "/opt/bench/src/big.c",
                                                            10 * f + 2 + l, FALSE, 0x1000 + 16 * (f * 4 + l));
    }
  for (guint i = 0; i < shape->n_leaves; i++)
    {
      gint64 stack = 0;

      for (guint d = 0; d < shape->depth[i]; d++)
        stack = hp_capture_writer_intern_stack (w, stack, frames[shape->frames[i * HP_TEST_BIG_MAX_DEPTH + d]]);
      leaves[i] = stack;
    }

  for (guint s = 0; s < shape->n_samples; s++)
    {
      guint leaf = hp_test_big_shape_draw (shape, draw);
      guint64 weight = period;

      if (how->slower_hottest && shape->leaf_function[leaf] == shape->leaf_function[0])
        weight = period + period / 10;
      hp_capture_writer_add_sample (w, (guint64) s * period, 1000 + s % 8, s % 4, leaves[leaf], weight);
    }
  hp_test_big_shape_free (shape);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  printf ("# wrote %s in %.1f s\n", path, (g_get_monotonic_time () - start) / 1e6);
}

void
hp_test_make_events_capture (const char                *path,
                             const HpTestEventsCapture *how)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = NULL;
  const char *source = how->source;
  gint64 mod, f_main, f_compute, f_fault, f_wait, f_other;
  gint64 s_main, s_compute, s_fault, s_wait, s_other = 0;
  gint64 cpu, faults, off;
  guint64 t = 1000000;

  g_unlink (path);
  if (source != NULL)
    g_assert_true (g_file_set_contents (source,
                                        "int main (void);\n"      /* 1 */
                                        "void compute (void);\n"  /* 2 */
                                        "void fault_in (void);\n" /* 3 */
                                        "void wait_io (void);\n"  /* 4 */
                                        "void other_main (void);\n", -1, NULL));
  w = hp_capture_writer_new (path, &error);
  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "/opt/events/app");
  hp_capture_writer_set_metadata (w, "call_graph", "fp");
  if (how->whole_system)
    {
      hp_capture_writer_set_metadata_int (w, "duration_ns", 5000000000);
      hp_capture_writer_set_metadata (w, "system_wide", "1");
    }
  hp_capture_writer_set_process (w, 100, "app");
  hp_capture_writer_set_thread (w, 101, 100, "app");
  hp_capture_writer_set_thread (w, 102, 100, "helper");
  if (how->whole_system)
    {
      hp_capture_writer_set_process (w, 200, "other");
      hp_capture_writer_set_thread (w, 201, 200, "other");
    }
  cpu = hp_capture_writer_add_event (w, "cpu-clock", "ns", 1000, 0);
  faults = hp_capture_writer_add_event (w, "page-faults", "page faults", 1000, 0);
  off = hp_capture_writer_add_event (w, "off-cpu", "ns", 0, 0);

  mod = hp_capture_writer_intern_module (w, "/opt/events/app", NULL, FALSE);
  f_main = hp_capture_writer_intern_function (w, "main", mod, source, source != NULL ? 1 : 0);
  f_compute = hp_capture_writer_intern_function (w, "compute", mod, source, source != NULL ? 2 : 0);
  f_fault = hp_capture_writer_intern_function (w, "fault_in", mod, source, source != NULL ? 3 : 0);
  f_wait = hp_capture_writer_intern_function (w, "wait_io", mod, source, source != NULL ? 4 : 0);
  s_main = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_main, source, source != NULL ? 1 : 0, FALSE, 0x100));
  s_compute = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_compute, source, source != NULL ? 2 : 0, FALSE, 0x200));
  s_fault = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_fault, source, source != NULL ? 3 : 0, FALSE, 0x300));
  s_wait = hp_capture_writer_intern_stack (w, s_main, hp_capture_writer_intern_frame (w, f_wait, source, source != NULL ? 4 : 0, FALSE, 0x400));
  if (how->whole_system)
    {
      f_other = hp_capture_writer_intern_function (w, "other_main", mod, source, source != NULL ? 5 : 0);
      s_other = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (w, f_other, source, source != NULL ? 5 : 0, FALSE, 0x500));
    }

  for (guint i = 0; i < 600; i++)
    hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 101, 0, s_compute, 1000000);
  if (how->whole_system)
    {
      for (guint i = 0; i < 200; i++)
        hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 101, 0, s_fault, 1000000);
      for (guint i = 0; i < 200; i++)
        hp_capture_writer_add_event_sample (w, cpu, t += 1000000, 201, 1, s_other, 1000000);
    }
  for (guint i = 0; i < 50; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 101, 0, s_fault, 40);
  for (guint i = 0; i < 100; i++)
    hp_capture_writer_add_event_sample (w, faults, t += 1000, 101, 0, s_compute, 1);
  for (guint i = 0; i < 30; i++)
    hp_capture_writer_add_event_sample (w, off, t += 1000, 102, 0, s_wait, 100000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
}

void
hp_test_sql (const char *path,
             const char *statements)
{
  sqlite3 *db = NULL;
  char *errmsg = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, statements, NULL, NULL, &errmsg) != SQLITE_OK)
    g_error ("%s: %s", statements, errmsg);
  sqlite3_close (db);
}

gint64
hp_test_sql_int (const char *path,
                 const char *query)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gint64 v = -1;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, query, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    v = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return v;
}

gint64
hp_test_sql_count (const char *path,
                   const char *where)
{
  g_autofree char *query = g_strdup_printf ("SELECT count(*) FROM samples WHERE %s", where);
  gint64 n = hp_test_sql_int (path, query);

  g_assert_cmpint (n, >=, 0);
  return n;
}

/* debuginfod ------------------------------------------------------------ */

/* The server dies with the test (PR_SET_PDEATHSIG) however that ends. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

static guint16
free_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;

  g_assert_nonnull (socket);
  g_assert_true (g_socket_bind (socket, any, FALSE, NULL));
  bound = g_socket_get_local_address (socket, NULL);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

/* The HTTP status of GET @path on 127.0.0.1:@port; 0 when it does not answer. */
static guint
http_status (guint16     port,
             const char *path)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;
  g_autofree char *request = g_strdup_printf ("GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
  char reply[64] = { 0 };
  gssize n;

  g_socket_client_set_timeout (client, 5);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
  if (connection == NULL
      || !g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                                     request, strlen (request), NULL, NULL, NULL))
    return 0;
  n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM (connection)),
                           reply, sizeof reply - 1, NULL, NULL);
  /* "HTTP/1.1 200 OK" */
  if (n < 12 || !g_str_has_prefix (reply, "HTTP/"))
    return 0;
  return (guint) g_ascii_strtoull (strchr (reply, ' ') + 1, NULL, 10);
}

char *
hp_test_debuginfod_start (const char *served,
                          const char *build_id_hex,
                          const char *db,
                          GPid       *pid)
{
  g_autofree char *debuginfod = g_find_program_in_path ("debuginfod");
  g_autofree char *port_arg = NULL;
  g_autofree char *query = NULL;
  g_autoptr(GError) error = NULL;
  guint status = 0;
  guint16 port;

  g_assert_nonnull (debuginfod);
  /* port 0 is refused, so a port that was free a moment ago */
  port = free_port ();
  port_arg = g_strdup_printf ("%u", port);
  {
    const char *argv[] = { debuginfod, "-p", port_arg, "-d", db, "-F", "-t", "0", "-g", "0", served, NULL };

    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                  G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                  die_with_parent, NULL, pid, &error));
    g_assert_no_error (error);
  }
  /* ready once it has scanned the folder: it then serves the debug info */
  query = g_strdup_printf ("/buildid/%s/debuginfo", build_id_hex);
  for (guint i = 0; i < 300 && status != 200; i++)
    {
      status = http_status (port, query);
      if (status != 200)
        g_usleep (100 * 1000);
    }
  g_test_message ("debuginfod on port %u answers %u for %s", port, status, query);
  g_assert_cmpuint (status, ==, 200);
  return g_strdup_printf ("http://127.0.0.1:%u", port);
}

void
hp_test_debuginfod_stop (GPid pid)
{
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

GPid
hp_test_start_busy (const char *workload,
                    const char *seconds)
{
  const char *argv[] = { workload, "busy", seconds, NULL };
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

void
hp_test_make_pending_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pending = g_strconcat (path, ".pending.sql", NULL);
  HpCaptureWriter *w = hp_capture_writer_new (path, &error);
  sqlite3 *holder = NULL;
  gint64 m, f, fr, s;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "command", "./app");
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  m = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  f = hp_capture_writer_intern_function (w, "main", m, "app.c", 10);
  fr = hp_capture_writer_intern_frame (w, f, "app.c", 12, FALSE, 0x100);
  s = hp_capture_writer_intern_stack (w, 0, fr);
  hp_capture_writer_set_process (w, 42, "app");
  hp_capture_writer_set_thread (w, 42, 42, "app");
  for (guint i = 0; i < 10; i++)
    hp_capture_writer_add_sample (w, 1000 + i, 42, 0, s, 1);
  g_assert_true (hp_capture_writer_flush (w, &error));

  g_assert_cmpint (sqlite3_open (path, &holder), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (holder, "BEGIN EXCLUSIVE", NULL, NULL, NULL), ==, SQLITE_OK);
  /* a name with a quote and a line break: values are not one a line */
  f = hp_capture_writer_intern_function (w, "it's\nwaited", m, "app.c", 20);
  fr = hp_capture_writer_intern_frame (w, f, "app.c", 21, FALSE, 0x200);
  s = hp_capture_writer_intern_stack (w, s, fr);
  for (guint i = 0; i < 5; i++)
    hp_capture_writer_add_sample (w, 2000 + i, 42, 1, s, 1);
  hp_capture_writer_flush (w, NULL);
  hp_capture_writer_flush (w, NULL);
  g_assert_true (g_file_test (pending, G_FILE_TEST_IS_REGULAR));
  /* killed: nothing more is written */
  hp_capture_writer_free (w);
  g_assert_cmpint (sqlite3_exec (holder, "COMMIT", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (holder);
  g_assert_true (g_file_test (pending, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (hp_test_sql_int (path, "SELECT count(*) FROM samples"), ==, 10);
}
