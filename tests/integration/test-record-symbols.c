/* test-record-symbols.c - names from where Debian and Fedora keep them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 15: code that a plain symbol table does not name.
 *  - vdso: clock_gettime runs in the vDSO, which has no file; its frames
 *    are named from the image in memory (__vdso_clock_gettime, as perf
 *    names it), not [vdso]+0x....
 *  - minidebuginfo: a stripped program with a .gnu_debugdata section
 *    (an xz-compressed symbol table, made as Fedora's find-debuginfo
 *    does) is named from it.
 *  - debuginfod: with DEBUGINFOD_URLS pointing at a local debuginfod
 *    server that serves the -g build, a stripped copy is named from the
 *    debug info it sends; without DEBUGINFOD_URLS nothing is asked.
 *  - static-stripped: a stripped static program (gcc -static, not PIE,
 *    so linked at 0x400000 and without .eh_frame_hdr) has one row per
 *    function, named by the function's ELF address, where objdump and
 *    nm put it, not by its file offset nor by where a push ended; its
 *    entry point, which no symbol names, is _start, so its stacks are
 *    complete rather than all "[truncated]".
 *  - static-fp: the same static program, named and stripped, recorded
 *    with frame pointers. A static glibc's __libc_start_main keeps none,
 *    so the kernel's chain went on past __libc_start_call_main into data
 *    read as frames ([unknown]+0xbe55…, __do_global_dtors_aux); stripped,
 *    nothing named the start and every stack counted as truncated. The
 *    chain now ends there: __libc_start_call_main is the only caller of
 *    main and has none; stripped, main is named (from what _start hands
 *    __libc_start_main) and is the root; under 10 % truncated either way.
 *  - debuginfod-silent: a server that takes the connection and never
 *    answers is given up after 30 s; libdebuginfod alone waited for it
 *    for good (its own DEBUGINFOD_TIMEOUT, 90 s, did not end the wait),
 *    and the recording with it.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "integration-common.h"
#include "symbols/hp-file-locator.h"
#include "test-common.h"

static void
run_or_fail (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err, &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s\n%s", argv[0], error->message, err);
}

/* The standard output of @argv, which must succeed. */
static char *
output_of (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("%s failed: %s", argv[0], error->message);
  return out;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (to, contents, (gssize) length, NULL));
  g_assert_cmpint (g_chmod (to, 0755), ==, 0);
}

static void
test_vdso (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *program = it_workload_path ("clock-fp");
  g_autoptr(ItCapture) cap = NULL;
  double total;
  gint64 id;

  if (!it_require_perf_events ())
    return;
  dir = it_tmpdir_new ();
  capture = g_build_filename (dir, "clock.hotpath", NULL);
  {
    const char *args[] = { "record", "-o", capture, "--", program, "500", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
  }
  cap = it_capture_open (capture);

  /* Every clock_gettime goes through it; glibc's own clock_gettime is its
   * caller. Without the image it would be [vdso]+0x... */
  total = it_total_percent (cap->profile, "__vdso_clock_gettime");
  g_test_message ("__vdso_clock_gettime: %.1f %% total, __vdso_gettimeofday %.1f %%", total,
                  it_total_percent (cap->profile, "__vdso_gettimeofday"));
  g_assert_cmpfloat (total, >, 15.0);
  id = it_find_function (cap->profile, "__vdso_clock_gettime");
  g_assert_cmpint (id, >, 0);
  {
    const HpCaptureData *data = hp_profile_get_data (cap->profile);
    const HpCaptureFunction *f = &g_array_index (data->functions, HpCaptureFunction, id);

    g_assert_cmpint (f->module_id, >, 0);
    g_assert_cmpstr (g_array_index (data->modules, HpCaptureModule, f->module_id).name, ==, "[vdso]");
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Fedora's find-debuginfo recipe for MiniDebugInfo: the function symbols
 * that .dynsym lacks, from the debug copy, xz-compressed into the stripped
 * program's .gnu_debugdata. */
static void
add_minidebuginfo (const char *dir,
                   const char *program)
{
  g_autofree char *dynsyms = NULL;
  g_autofree char *funcsyms = NULL;
  g_autofree char *debug = g_build_filename (dir, "debug", NULL);
  g_autofree char *mini = g_build_filename (dir, "mini_debuginfo", NULL);
  g_autofree char *mini_xz = g_build_filename (dir, "mini_debuginfo.xz", NULL);
  g_autofree char *keep = g_build_filename (dir, "keep_symbols", NULL);
  g_autofree char *section = g_strconcat (".gnu_debugdata=", mini_xz, NULL);
  g_autoptr(GString) kept = g_string_new (NULL);
  g_autoptr(GHashTable) exported = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) dyn_lines = NULL;
  g_auto(GStrv) func_lines = NULL;

  {
    const char *argv[] = { "nm", "-D", "--format=posix", "--defined-only", program, NULL };

    dynsyms = output_of (argv);
  }
  {
    const char *argv[] = { "nm", "--format=posix", "--defined-only", program, NULL };

    funcsyms = output_of (argv);
  }
  dyn_lines = g_strsplit (dynsyms, "\n", -1);
  for (guint i = 0; dyn_lines[i] != NULL; i++)
    {
      char *space = strchr (dyn_lines[i], ' ');

      if (space != NULL)
        *space = '\0';
      g_hash_table_add (exported, dyn_lines[i]);
    }
  func_lines = g_strsplit (funcsyms, "\n", -1);
  for (guint i = 0; func_lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (func_lines[i], " ", 3);

      if (g_strv_length (f) >= 2 && (strcmp (f[1], "T") == 0 || strcmp (f[1], "t") == 0)
          && !g_hash_table_contains (exported, f[0]))
        g_string_append_printf (kept, "%s\n", f[0]);
    }
  g_assert_true (g_file_set_contents (keep, kept->str, -1, NULL));
  {
    const char *argv[] = { "objcopy", "--only-keep-debug", program, debug, NULL };

    run_or_fail (argv);
  }
  {
    g_autofree char *keep_arg = g_strconcat ("--keep-symbols=", keep, NULL);
    const char *argv[] = { "objcopy", "-S", "--remove-section", ".gdb_index", "--remove-section", ".comment",
                           keep_arg, debug, mini, NULL };

    run_or_fail (argv);
  }
  {
    const char *argv[] = { "xz", "-f", mini, NULL };

    run_or_fail (argv);
  }
  {
    const char *argv[] = { "strip", "--strip-all", program, NULL };

    run_or_fail (argv);
  }
  {
    const char *argv[] = { "objcopy", "--add-section", section, program, NULL };

    run_or_fail (argv);
  }
}

static void
test_minidebuginfo (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *sections = NULL;
  g_autoptr(ItCapture) cap = NULL;
  const char *tools[] = { "nm", "objcopy", "strip", "xz", "readelf" };

  if (!it_require_perf_events ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *found = g_find_program_in_path (tools[i]);

      if (found == NULL)
        {
          g_autofree char *reason = g_strdup_printf ("%s is not installed (binutils, xz-utils)", tools[i]);

          g_test_skip (reason);
          return;
        }
    }
  dir = it_tmpdir_new ();
  copy = g_build_filename (dir, "paths-mini", NULL);
  capture = g_build_filename (dir, "mini.hotpath", NULL);
  {
    g_autofree char *program = it_workload_path ("paths-nofp");

    copy_file (program, copy);
  }
  add_minidebuginfo (dir, copy);
  /* the names can come from nowhere else */
  {
    const char *argv[] = { "readelf", "-SW", copy, NULL };

    sections = output_of (argv);
    g_assert_nonnull (strstr (sections, ".gnu_debugdata"));
    g_assert_null (strstr (sections, ".symtab"));
    g_assert_null (strstr (sections, ".debug_info"));
  }
  {
    const char *args[] = { "record", "-o", capture, "--", copy, "60", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
  }
  cap = it_capture_open (capture);
  /* 60/20/20 by construction (paths.c); static functions all */
  g_test_message ("alpha_leaf %.1f %%, beta_leaf %.1f %%, shared_leaf %.1f %%",
                  it_self_percent (cap->profile, "alpha_leaf"), it_self_percent (cap->profile, "beta_leaf"),
                  it_self_percent (cap->profile, "shared_leaf"));
  g_assert_cmpfloat (it_self_percent (cap->profile, "alpha_leaf"), >, 30.0);
  g_assert_cmpfloat (it_self_percent (cap->profile, "beta_leaf"), >, 5.0);
  g_assert_cmpfloat (it_total_percent (cap->profile, "main"), >, 80.0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* libdebuginfod is not loaded at start: it brings 25 libraries (libcurl,
 * GnuTLS, Kerberos, LDAP) whose loading cost every hotpath-cli 26 ms of
 * CPU, debuginfod or not. libdw loads it when DEBUGINFOD_URLS is set, and
 * test_debuginfod checks that its downloads are still followed. */
static void
test_debuginfod_not_linked (void)
{
  g_assert_true (hp_test_elf_needs (HOTPATH_CLI, "libdw.so.1"));
  g_assert_false (hp_test_elf_needs (HOTPATH_CLI, "libdebuginfod.so.1"));
  g_assert_false (hp_test_elf_needs (HOTPATH_CLI, "libcurl-gnutls.so.4"));
}

static void
test_debuginfod (void)
{
  g_autofree char *debuginfod = g_find_program_in_path ("debuginfod");
  g_autofree char *strip = g_find_program_in_path ("strip");
  g_autofree char *dir = NULL;
  g_autofree char *served = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *hex = NULL;
  g_autofree char *db = NULL;
  g_autofree char *url = NULL;
  g_autofree char *cache = NULL;
    guint8 id[20];
  gsize id_len;
  GPid server;

  if (debuginfod == NULL)
    {
      g_test_skip ("debuginfod is not installed (Debian package debuginfod)");
      return;
    }
  if (strip == NULL)
    {
      g_test_skip ("strip (binutils) is not installed");
      return;
    }
  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  served = g_build_filename (dir, "served", NULL);
  g_assert_cmpint (g_mkdir (served, 0755), ==, 0);
  {
    g_autofree char *program = it_workload_path ("paths-nofp");
    g_autofree char *copy = g_build_filename (served, "paths-nofp", NULL);

    copy_file (program, copy);
    id_len = hp_test_elf_build_id (program, id);
  }
  hex = hp_build_id_to_hex (id, id_len);
  stripped = g_build_filename (dir, "paths-stripped", NULL);
  {
    g_autofree char *program = it_workload_path ("paths-nofp");
    const char *argv[] = { strip, stripped, NULL };

    copy_file (program, stripped);
    run_or_fail (argv);
  }

  db = g_build_filename (dir, "debuginfod.sqlite", NULL);
  url = hp_test_debuginfod_start (served, hex, db, &server);

  cache = g_build_filename (dir, "cache", NULL);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);

  /* with DEBUGINFOD_URLS: the names come back, through the cache */
  {
    g_autofree char *capture = g_build_filename (dir, "fetched.hotpath", NULL);
    g_autofree char *fetched = g_build_filename (cache, hex, "debuginfo", NULL);
    const char *args[] = { "record", "-o", capture, "--", stripped, "60", NULL };
    g_autoptr(ItResult) res = NULL;
    g_autoptr(ItCapture) cap = NULL;

    g_setenv ("DEBUGINFOD_URLS", url, TRUE);
    res = it_run_cli (args);
    g_unsetenv ("DEBUGINFOD_URLS");
    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->err, "asking debuginfod for the debug info of"));
    g_assert_true (g_file_test (fetched, G_FILE_TEST_IS_REGULAR));
    cap = it_capture_open (capture);
    g_test_message ("with debuginfod: alpha_leaf %.1f %%, beta_leaf %.1f %%",
                    it_self_percent (cap->profile, "alpha_leaf"), it_self_percent (cap->profile, "beta_leaf"));
    g_assert_cmpfloat (it_self_percent (cap->profile, "alpha_leaf"), >, 30.0);
    g_assert_cmpfloat (it_self_percent (cap->profile, "beta_leaf"), >, 5.0);
  }

  /* unset: no server is asked, and the program stays unnamed */
  {
    g_autofree char *capture = g_build_filename (dir, "unset.hotpath", NULL);
    const char *args[] = { "record", "-o", capture, "--", stripped, "60", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);
    g_autoptr(ItCapture) cap = NULL;

    g_assert_cmpint (res->status, ==, 0);
    g_assert_null (strstr (res->err, "debuginfod"));
    cap = it_capture_open (capture);
    g_assert_cmpfloat (it_self_percent (cap->profile, "alpha_leaf"), ==, 0.0);
  }

  hp_test_debuginfod_stop (server);
  g_unsetenv ("DEBUGINFOD_CACHE_PATH");
  g_clear_pointer (&dir, it_tmpdir_free);
}

static const char static_source[] =
  "#include <stdlib.h>\n"
  "long (*volatile step) (long, long);\n"
  "static long add (long a, long b) { return a * 31 + b; }\n"
  "__attribute__((noinline)) long spin (long n)\n"
  "{\n"
  "  long a = 1, b = 2, c = 3, d = 4, e = 5;\n"
  "  for (long i = 0; i < n; i++)\n"
  "    { a = step (a, i); b += a ^ c; c += b * d; d ^= c + e; e += d; }\n"
  "  return a + b + c + d + e;\n"
  "}\n"
  "int main (int argc, char **argv)\n"
  "{\n"
  "  step = add;\n"
  "  return spin (atol (argv[1])) == 42;\n"
  "}\n";

/* A new folder (it_tmpdir_new()) with static_source built in it as spin
 * (static, frame pointers) and its stripped copy spin-stripped; NULL (the
 * test skipped) when perf cannot sample or without cc or libc.a. */
static char *
build_static (char **program,
              char **stripped)
{
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *source = NULL;
  char *dir;

  if (cc == NULL)
    {
      g_test_skip ("no C compiler");
      return NULL;
    }
  if (!it_require_perf_events ())
    return NULL;
  dir = it_tmpdir_new ();
  source = g_build_filename (dir, "spin.c", NULL);
  *program = g_build_filename (dir, "spin", NULL);
  *stripped = g_build_filename (dir, "spin-stripped", NULL);
  g_assert_true (g_file_set_contents (source, static_source, -1, NULL));
  {
    const char *argv[] = { cc, "-O2", "-static", "-no-pie", "-fno-omit-frame-pointer", "-o", *program, source, NULL };
    g_autoptr(GError) error = NULL;
    int status;

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, &error)
        || !g_spawn_check_wait_status (status, NULL))
      {
        g_test_skip ("cc -static failed (no libc.a: Debian package libc6-dev)");
        it_tmpdir_free (dir);
        return NULL;
      }
  }
  {
    const char *argv[] = { "strip", "-o", *stripped, *program, NULL };

    run_or_fail (argv);
  }
  return dir;
}

static void
test_static_stripped (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *program = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *symbols = NULL;
  g_autofree char *row = NULL;
  g_autoptr(ItResult) res = NULL;
  g_autoptr(ItCapture) cap = NULL;
  guint64 spin = 0;

  dir = build_static (&program, &stripped);
  if (dir == NULL)
    return;
  {
    const char *argv[] = { "nm", program, NULL };
    g_auto(GStrv) lines = NULL;

    symbols = output_of (argv);
    lines = g_strsplit (symbols, "\n", -1);
    for (guint i = 0; lines[i] != NULL; i++)
      if (g_str_has_suffix (lines[i], " T spin"))
        spin = g_ascii_strtoull (lines[i], NULL, 16);
  }
  g_assert_cmpuint (spin, >=, 0x400000);

  capture = g_build_filename (dir, "static.hotpath", NULL);
  {
    const char *args[] = { "record", "-o", capture, "--", stripped, "300000000", NULL };

    res = it_run_cli (args);
  }
  g_assert_cmpint (res->status, ==, 0);
  cap = it_capture_open (capture);
  row = g_strdup_printf ("spin-stripped+0x%" G_GINT64_MODIFIER "x", spin);
  g_test_message ("%s: %.1f %% self", row, it_self_percent (cap->profile, row));
  /* one row for the whole function, named where nm puts it */
  g_assert_cmpfloat (it_self_percent (cap->profile, row), >, 40.0);
  /* the unwinder reaches the entry point: named _start although nothing
   * names it, every stack is complete under it */
  g_test_message ("_start: %.1f %% total, %.1f %% truncated", it_total_percent (cap->profile, "_start"),
                  it_total_percent (cap->profile, "[truncated]"));
  g_assert_cmpfloat (it_total_percent (cap->profile, "_start"), >, 90.0);
  g_assert_cmpfloat (it_total_percent (cap->profile, "[truncated]"), <, 10.0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The callers of @name in @profile, as "a b": "" for a root */
static char *
callers_of (HpProfile  *profile,
            const char *name)
{
  g_autoptr(GArray) callers = hp_profile_get_callers (profile, it_find_function (profile, name));
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < callers->len; i++)
    g_string_append_printf (names, "%s%s", i > 0 ? " " : "",
                            hp_profile_get_function_name (profile, g_array_index (callers, HpCallEdge, i).function_id));
  return g_strdup (names->str);
}

static void
test_static_fp (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *program = NULL;
  g_autofree char *stripped = NULL;

  dir = build_static (&program, &stripped);
  if (dir == NULL)
    return;
  for (guint i = 0; i < 2; i++)
    {
      const char *recorded = i == 0 ? program : stripped;
      const char *start = i == 0 ? "__libc_start_call_main" : "main";
      g_autofree char *capture = g_strdup_printf ("%s.hotpath", recorded);
      g_autofree char *main_callers = NULL;
      g_autofree char *start_callers = NULL;
      const char *args[] = { "record", "-g", "fp", "-o", capture, "--", recorded, "300000000", NULL };
      g_autoptr(ItResult) res = it_run_cli (args);
      g_autoptr(ItCapture) cap = NULL;

      g_assert_cmpint (res->status, ==, 0);
      cap = it_capture_open (capture);
      main_callers = callers_of (cap->profile, "main");
      start_callers = callers_of (cap->profile, start);
      g_test_message ("%s: %s %.1f %% total, %.1f %% truncated; callers of main: \"%s\", of %s: \"%s\"",
                      recorded, start, it_total_percent (cap->profile, start),
                      it_total_percent (cap->profile, "[truncated]"), main_callers, start, start_callers);
      g_assert_cmpfloat (it_total_percent (cap->profile, start), >, 90.0);
      g_assert_cmpfloat (it_total_percent (cap->profile, "[truncated]"), <, 10.0);
      /* nothing read past the start: it is a root */
      g_assert_cmpstr (start_callers, ==, "");
      g_assert_cmpstr (main_callers, ==, i == 0 ? "__libc_start_call_main" : "");
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A "server" that accepts connections (the kernel does, from the listen
 * backlog) and never answers. */
static void
test_debuginfod_silent (void)
{
  g_autofree char *strip = g_find_program_in_path ("strip");
  g_autofree char *dir = NULL;
  g_autofree char *stripped = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) any = NULL;
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(ItResult) res = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  double seconds;

  if (strip == NULL)
    {
      g_test_skip ("strip (binutils) is not installed");
      return;
    }
  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  stripped = g_build_filename (dir, "paths-stripped", NULL);
  {
    g_autofree char *program = it_workload_path ("paths-nofp");
    const char *argv[] = { strip, stripped, NULL };

    copy_file (program, stripped);
    run_or_fail (argv);
  }

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  any = g_inet_socket_address_new (loopback, 0);
  g_assert_true (g_socket_bind (socket, any, TRUE, &error));
  g_assert_no_error (error);
  g_socket_set_listen_backlog (socket, 64);
  g_assert_true (g_socket_listen (socket, &error));
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  cache = g_build_filename (dir, "cache", NULL);
  capture = g_build_filename (dir, "silent.hotpath", NULL);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  g_setenv ("DEBUGINFOD_URLS", url, TRUE);
  g_unsetenv ("DEBUGINFOD_TIMEOUT");
  start = g_get_monotonic_time ();
  {
    const char *args[] = { "record", "-o", capture, "--", stripped, "20", NULL };

    res = it_run_cli (args);
  }
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_unsetenv ("DEBUGINFOD_URLS");
  g_unsetenv ("DEBUGINFOD_CACHE_PATH");
  g_test_message ("recording with a silent debuginfod server: %.1f s", seconds);
  /* without the stall check this did not return (the test's timeout fails it) */
  g_assert_cmpint (res->status, ==, 0);
  g_assert_nonnull (strstr (res->err, "asking debuginfod for the debug info of"));
  g_assert_cmpint (it_json_samples (capture), >, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/record/vdso", test_vdso);
  g_test_add_func ("/integration/record/minidebuginfo", test_minidebuginfo);
  g_test_add_func ("/integration/record/debuginfod", test_debuginfod);
  g_test_add_func ("/integration/record/static-stripped", test_static_stripped);
  g_test_add_func ("/integration/record/static-fp", test_static_fp);
  g_test_add_func ("/integration/record/debuginfod-silent", test_debuginfod_silent);
  g_test_add_func ("/integration/record/debuginfod-not-linked", test_debuginfod_not_linked);
  return g_test_run ();
}
