/* test-jit.c - names of run-time compiled code: perf map files, V8 names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every map here is written by the test, so what names which address is
 * known by construction; the hostile ones (bad hex, overlaps, a 100 MB
 * name, a FIFO) must give the address form and a warning, never a crash
 * or a hang.
 */
#define G_LOG_DOMAIN "test-jit"

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "analysis/hp-jit-tiers.h"
#include "document/hp-loaded-capture.h"
#include "record/hp-processor.h"
#include "store/hp-capture.h"
#include "symbols/hp-jitdump.h"
#include "symbols/hp-perf-map.h"
#include "jitdump-builder.h"
#include "test-common.h"

static gint64
test_query_int (sqlite3    *db,
                const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);
  return value;
}

static char *
test_query_text (sqlite3    *db,
                 const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return value;
}

static char *
write_map (const char *dir,
           const char *name,
           const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static void
append (const char *path,
        const char *text)
{
  FILE *f = fopen (path, "a");

  g_assert_nonnull (f);
  fputs (text, f);
  fclose (f);
}

static const char *
name_at (HpPerfMap *map,
         guint64    address)
{
  const HpPerfMapEntry *e = hp_perf_map_lookup (map, address);

  return e != NULL ? e->name : NULL;
}

static void
test_parse (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", NULL);
  g_autofree char *path = write_map (dir, "perf-1.map",
                                     "7f160e7c6340 180 JS:*fib /tmp/fib.js:1:13\n"
                                     "0x00007f00aa000000 0x40 java.lang.String::hashCode\r\n"
                                     "18c4000 300 Builtin:DeoptimizationEntry_Eager\n");
  HpPerfMap *map = hp_perf_map_new (path);

  g_assert_null (name_at (map, 0x7f160e7c6340)); /* nothing read yet */
  g_assert_true (hp_perf_map_update (map));
  g_assert_cmpuint (hp_perf_map_get_n_entries (map), ==, 3);
  g_assert_cmpstr (name_at (map, 0x7f160e7c6340), ==, "JS:*fib /tmp/fib.js:1:13");
  g_assert_cmpstr (name_at (map, 0x7f160e7c64bf), ==, "JS:*fib /tmp/fib.js:1:13");
  g_assert_null (name_at (map, 0x7f160e7c64c0));
  g_assert_null (name_at (map, 0x7f160e7c633f));
  g_assert_cmpstr (name_at (map, 0x7f00aa00003f), ==, "java.lang.String::hashCode");
  g_assert_cmpstr (name_at (map, 0x18c4000), ==, "Builtin:DeoptimizationEntry_Eager");
  g_assert_null (hp_perf_map_get_warning (map));
  /* Unchanged: nothing new. */
  g_assert_false (hp_perf_map_update (map));
  hp_perf_map_free (map);

  /* A map that does not exist (yet) is empty, not an error. */
  map = hp_perf_map_new ("/nonexistent/perf-2.map");
  g_assert_false (hp_perf_map_update (map));
  g_assert_null (name_at (map, 0x1000));
  hp_perf_map_free (map);

  g_remove (path);
  g_rmdir (dir);
}

/* The program appends while it runs: a line is read only once it ends. */
static void
test_grows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", NULL);
  g_autofree char *path = write_map (dir, "perf-1.map", "1000 100 first\n2000 10");
  HpPerfMap *map = hp_perf_map_new (path);

  g_assert_true (hp_perf_map_update (map));
  g_assert_cmpstr (name_at (map, 0x1010), ==, "first");
  g_assert_null (name_at (map, 0x2000));

  append (path, "0 sec");
  g_assert_false (hp_perf_map_update (map));
  append (path, "ond\n3000 10 third\n");
  g_assert_true (hp_perf_map_update (map));
  g_assert_cmpstr (name_at (map, 0x2001), ==, "second");
  g_assert_cmpstr (name_at (map, 0x3001), ==, "third");
  g_assert_cmpuint (hp_perf_map_get_n_entries (map), ==, 3);

  /* Replaced by a shorter file (the pid reused): read anew. */
  g_assert_true (g_file_set_contents (path, "5000 10 other\n", -1, NULL));
  g_assert_true (hp_perf_map_update (map));
  g_assert_null (name_at (map, 0x1010));
  g_assert_cmpstr (name_at (map, 0x5000), ==, "other");
  hp_perf_map_free (map);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", NULL);
  g_autofree char *path = write_map (dir, "perf-1.map",
                                     "zz12 10 bad-start\n"
                                     "1000 1g bad-size\n"
                                     "1000 10\n"
                                     "1000 0 empty\n"
                                     "ffffffffffffffff 10 wraps\n"
                                     "11234567890abcdef0 10 too-long\n"
                                     "4000 1000 outer\n"
                                     "4100 10 inner-later\n"
                                     "4000 \xff\xfe 10 not-hex\n"
                                     "6000 10 na\xffme\n");
  g_autofree char *warning = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *big = NULL;
  HpPerfMap *map;
  char *line;
  FILE *f;

  map = hp_perf_map_new (path);
  hp_perf_map_update (map);
  g_assert_cmpuint (hp_perf_map_get_n_entries (map), ==, 3);
  g_assert_null (name_at (map, 0x1000));
  g_assert_null (name_at (map, 0x12));
  /* Overlapping entries: the one written last names the address. */
  g_assert_cmpstr (name_at (map, 0x4108), ==, "inner-later");
  g_assert_cmpstr (name_at (map, 0x4110), ==, "outer");
  g_assert_cmpstr (name_at (map, 0x40ff), ==, "outer");
  /* Names are valid UTF-8, whatever the file holds. */
  g_assert_true (g_utf8_validate (name_at (map, 0x6000), -1, NULL));
  warning = hp_perf_map_get_warning (map);
  g_test_message ("%s", warning);
  g_assert_nonnull (strstr (warning, path));
  g_assert_nonnull (strstr (warning, "7 lines not of the form"));
  g_assert_nonnull (strstr (warning, "1 entry overlap"));
  hp_perf_map_free (map);
  g_clear_pointer (&warning, g_free);

  /* A 100 MB name, then a good line: skipped without holding it. */
  big = g_build_filename (dir, "perf-2.map", NULL);
  f = fopen (big, "w");
  g_assert_nonnull (f);
  fputs ("1000 10 ", f);
  line = g_malloc (1024 * 1024);
  memset (line, 'x', 1024 * 1024);
  for (guint i = 0; i < 100; i++)
    g_assert_cmpuint (fwrite (line, 1, 1024 * 1024, f), ==, 1024 * 1024);
  g_free (line);
  fputs ("\n2000 10 after\n", f);
  fclose (f);
  map = hp_perf_map_new (big);
  g_assert_true (hp_perf_map_update (map));
  g_assert_null (name_at (map, 0x1000));
  g_assert_cmpstr (name_at (map, 0x2000), ==, "after");
  warning = hp_perf_map_get_warning (map);
  g_assert_nonnull (strstr (warning, "1 line longer than"));
  hp_perf_map_free (map);
  g_remove (big);

  /* A FIFO in the map's place must not block. */
  fifo = g_build_filename (dir, "perf-3.map", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  map = hp_perf_map_new (fifo);
  g_assert_false (hp_perf_map_update (map));
  hp_perf_map_free (map);
  g_remove (fifo);

  g_remove (path);
  g_rmdir (dir);
}

static void
check_name (const char *name,
            const char *function,
            const char *file,
            guint       line,
            char        tier)
{
  HpJitName parsed;

  hp_jit_name_parse (name, &parsed);
  g_assert_cmpstr (parsed.function, ==, function);
  g_assert_cmpstr (parsed.file, ==, file);
  g_assert_cmpuint (parsed.line, ==, line);
  g_assert_cmpint (parsed.tier, ==, tier);
  hp_jit_name_clear (&parsed);
}

static void
test_v8_names (void)
{
  check_name ("JS:*fib /path/x.js:3:10", "fib", "/path/x.js", 3, '*');
  check_name ("JS:~fib /path/x.js:3:10", "fib", "/path/x.js", 3, '~');
  check_name ("JS:^spin /tmp/jitw/fib.js:2:14", "spin", "/tmp/jitw/fib.js", 2, '^');
  check_name ("JS:+spin /tmp/a b/fib.js:2:14", "spin", "/tmp/a b/fib.js", 2, '+');
  check_name ("JS:~ /tmp/jitw/fib.js:1:1", "(anonymous)", "/tmp/jitw/fib.js", 1, '~');
  check_name ("JS:~get foo /x.js:7:3", "get foo", "/x.js", 7, '~');
  check_name ("LazyCompile:*main /x.js:12", "main", "/x.js", 12, '*');
  check_name ("JS:~resolveMainPath node:internal/modules/run_main:23:25",
              "resolveMainPath", "node:internal/modules/run_main", 23, '~');
  check_name ("Builtin:ArgumentsAdaptorTrampoline", "Builtin:ArgumentsAdaptorTrampoline", NULL, 0, 0);
  check_name ("java.lang.String::hashCode", "java.lang.String::hashCode", NULL, 0, 0);
  check_name ("py::fib:/tmp/fib.py", "fib", "/tmp/fib.py", 0, 0);
  check_name ("JS:*", "(anonymous)", NULL, 0, '*');
  check_name ("JS:", "(anonymous)", NULL, 0, 0);
}

/* perf's JVMTI agent names a method by its class signature and
 * descriptor; it reads as the JVM's own perf map names it. */
static void
test_java_names (void)
{
  check_name ("LJitHot;hotTwice(J)J", "long JitHot.hotTwice(long)", NULL, 0, 0);
  check_name ("Ljava/lang/String;hashCode()I", "int java.lang.String.hashCode()", NULL, 0, 0);
  check_name ("Ljdk/internal/misc/Unsafe;getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object;",
              "java.lang.Object jdk.internal.misc.Unsafe.getReferenceVolatile(java.lang.Object, long)", NULL, 0, 0);
  check_name ("Lcom/example/Outer$Inner;<init>([[I[Ljava/lang/String;ZBCSFD)V",
              "void com.example.Outer$Inner.<init>(int[][], java.lang.String[], boolean, byte, char, short, float, double)",
              NULL, 0, 0);
  check_name ("LMain;lambda$main$0()V", "void Main.lambda$main$0()", NULL, 0, 0);
  /* what is not a descriptor stays as it is */
  check_name ("Interpreter", "Interpreter", NULL, 0, 0);
  check_name ("LJitHot;hotTwice(J)", "LJitHot;hotTwice(J)", NULL, 0, 0);
  check_name ("LJitHot;hotTwice(V)V", "LJitHot;hotTwice(V)V", NULL, 0, 0);
  check_name ("LJitHot;hotTwice(Q)J", "LJitHot;hotTwice(Q)J", NULL, 0, 0);
  check_name ("LJitHot;hotTwice(J)JJ", "LJitHot;hotTwice(J)JJ", NULL, 0, 0);
  check_name ("LJitHot;(J)J", "LJitHot;(J)J", NULL, 0, 0);
  check_name ("L;f()V", "L;f()V", NULL, 0, 0);
  check_name ("LJitHot;f([V)V", "LJitHot;f([V)V", NULL, 0, 0);
  check_name ("LJitHot;f(Ljava/lang/String)V", "LJitHot;f(Ljava/lang/String)V", NULL, 0, 0);
  check_name ("Lunterminated", "Lunterminated", NULL, 0, 0);
}

/* .NET (DOTNET_PerfMapEnabled=1) appends the optimization tier; CPython
 * 3.12+ (-X perf) writes "py::QUALNAME:FILE". */
static void
test_dotnet_python_names (void)
{
  check_name ("void [App] App.Program::Spin(int32)[OptimizedTier1]", "void [App] App.Program::Spin(int32)", NULL, 0, '*');
  check_name ("void [App] App.Program::Spin(int32)[QuickJitted]", "void [App] App.Program::Spin(int32)", NULL, 0, '^');
  check_name ("void [App] App.Program::Spin(int32)[InstrumentedTier]", "void [App] App.Program::Spin(int32)", NULL, 0, '^');
  check_name ("int32 [System.Private.CoreLib] System.String::GetHashCode()[PreJIT]",
              "int32 [System.Private.CoreLib] System.String::GetHashCode()", NULL, 0, '*');
  check_name ("void [App] App.Program::Main(class System.String[])[OptimizedTier1OSR]",
              "void [App] App.Program::Main(class System.String[])", NULL, 0, '*');
  check_name ("void [App] App.Program::Spin(int32)[Unknown]", "void [App] App.Program::Spin(int32)", NULL, 0, 0);
  /* without tiers (PerfMapShowOptimizationTiers=0), a stub, a tier not
   * after a parameter list, a bracket that names no tier */
  check_name ("void [App] App.Program::Spin(int32)", "void [App] App.Program::Spin(int32)", NULL, 0, 0);
  check_name ("stub<1> StubPrecode<App.Program::Spin>", "stub<1> StubPrecode<App.Program::Spin>", NULL, 0, 0);
  check_name ("[OptimizedTier1]", "[OptimizedTier1]", NULL, 0, 0);
  check_name ("Spin[OptimizedTier1]", "Spin[OptimizedTier1]", NULL, 0, 0);
  check_name ("void App::Spin()[Tier9]", "void App::Spin()[Tier9]", NULL, 0, 0);

  check_name ("py::Worker.spin:/srv/app/work.py", "Worker.spin", "/srv/app/work.py", 0, 0);
  check_name ("py::<module>:/srv/app/main.py", "<module>", "/srv/app/main.py", 0, 0);
  check_name ("py::spin:", "py::spin:", NULL, 0, 0);
  check_name ("py:::/x.py", "py:::/x.py", NULL, 0, 0);
}

/* Names of the frames on the stack of the sample at @time, root first. */
static char *
stack_at (sqlite3 *db,
          gint64   time)
{
  g_autoptr(GString) joined = g_string_new (NULL);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db,
                     "WITH RECURSIVE up(id, depth) AS ("
                     "  SELECT stack_id, 0 FROM samples WHERE time = ?1"
                     "  UNION ALL SELECT s.parent_id, depth + 1 FROM stacks s JOIN up ON s.id = up.id"
                     "  WHERE s.parent_id != 0) "
                     "SELECT fn.name || '@' || COALESCE(m.path, '') || COALESCE(':' || f.file || ':' || f.line, '') "
                     "FROM up JOIN stacks s ON s.id = up.id JOIN frames f ON f.id = s.frame_id "
                     "JOIN functions fn ON fn.id = f.function_id LEFT JOIN modules m ON m.id = fn.module_id "
                     "ORDER BY depth DESC", -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_int64 (stmt, 1, time);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_string_append_printf (joined, "%s%s", joined->len ? " " : "", sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return g_strdup (joined->str);
}

static void
process_mmap (HpProcessor *processor,
              guint32      pid,
              guint64      start,
              guint64      len,
              const char  *name)
{
  HpPerfRecord rec = { 0 };

  rec.type = PERF_RECORD_MMAP2;
  rec.pid = rec.tid = pid;
  rec.mmap.addr = start;
  rec.mmap.len = len;
  rec.mmap.prot = PROT_READ | PROT_EXEC;
  rec.mmap.filename = name;
  hp_processor_process (processor, &rec);
}

static void
process_sample (HpProcessor *processor,
                guint32      pid,
                guint64      time,
                guint64      leaf,
                guint64      caller)
{
  guint64 ips[] = { PERF_CONTEXT_USER, leaf, caller };
  HpPerfRecord rec = { 0 };

  rec.type = PERF_RECORD_SAMPLE;
  rec.misc = PERF_RECORD_MISC_USER;
  rec.pid = rec.tid = pid;
  rec.time = time;
  rec.sample.ip = leaf;
  rec.sample.period = 1;
  rec.sample.ips = ips;
  rec.sample.n_ips = G_N_ELEMENTS (ips);
  hp_processor_process (processor, &rec);
}

/* A capture recorded through the processor in a scratch folder, as the
 * processor tests make it: recording_start makes the folder, the writer
 * and the processor; the test feeds records; recording_finish ends the
 * capture, removes the files it names (the maps and dumps, so that what
 * is checked comes from the capture alone) and opens the capture
 * read-only in @db. The folder goes with the variable. */
typedef struct {
  char            *dir;
  char            *capture;
  HpCaptureWriter *writer;
  HpProcessor     *processor;
  sqlite3         *db;
} Recording;

static Recording
recording_start (void)
{
  Recording r = { 0 };
  g_autoptr(GError) error = NULL;

  r.dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", &error);
  g_assert_no_error (error);
  r.capture = g_build_filename (r.dir, "jit.hotpath", NULL);
  r.writer = hp_capture_writer_new (r.capture, &error);
  g_assert_no_error (error);
  r.processor = hp_processor_new (r.writer);
  return r;
}

static void
recording_finish (Recording *r,
                  ...)
{
  g_autoptr(GError) error = NULL;
  const char *scratch;
  va_list args;

  hp_processor_write_stats (r->processor);
  g_clear_pointer (&r->processor, hp_processor_free);
  g_assert_true (hp_capture_writer_finish (r->writer, &error));
  g_assert_no_error (error);
  g_clear_pointer (&r->writer, hp_capture_writer_free);
  va_start (args, r);
  while ((scratch = va_arg (args, const char *)) != NULL)
    g_remove (scratch);
  va_end (args);
  g_assert_cmpint (sqlite3_open_v2 (r->capture, &r->db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
}

static void
recording_clear (Recording *r)
{
  g_clear_pointer (&r->processor, hp_processor_free);
  g_clear_pointer (&r->writer, hp_capture_writer_free);
  if (r->db != NULL)
    sqlite3_close (r->db);
  if (r->dir != NULL)
    hp_test_remove_tree (r->dir);
  g_free (r->capture);
  g_free (r->dir);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Recording, recording_clear)

/* The processor names JIT code from the map in the folder it is told,
 * groups what is unnamed per mapping, names at the end what the map gained
 * only then (JDK's DumpPerfMapAtExit), and the capture keeps the names
 * when the map is gone. */
static void
test_processor (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *map = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL, *s5 = NULL;
  HpProcessorStats stats;

  hp_processor_add_perf_map_dir (r.processor, r.dir);

  map = write_map (r.dir, "perf-4242.map", "7f0000001000 100 JS:*fib /src/x.js:3:10\n");
  process_mmap (r.processor, 4242, 0x7f0000000000, 0x10000, "//anon");
  process_mmap (r.processor, 4242, 0x7f0000100000, 0x10000, "//anon");

  process_sample (r.processor, 4242, 1, 0x7f0000001010, 0x7f0000001080);
  /* The map grew since: read again. */
  append (map, "7f0000002000 100 JS:~main /src/x.js:9:1\n");
  process_sample (r.processor, 4242, 2, 0x7f0000002010, 0x7f0000001080);
  /* Named by no map while recording: two addresses of one mapping. */
  process_sample (r.processor, 4242, 3, 0x7f0000003010, 0x7f0000002080);
  process_sample (r.processor, 4242, 4, 0x7f0000003020, 0x7f0000002080);
  /* Written when the program exits. */
  process_sample (r.processor, 4242, 5, 0x7f0000100010, 0x7f0000002080);
  append (map, "7f0000100000 100 Lcom/example/Hot;::spin\n");

  hp_processor_get_stats (r.processor, &stats);
  g_assert_cmpuint (stats.samples, ==, 5);
  recording_finish (&r, map, NULL);

  s1 = stack_at (r.db, 1);
  s2 = stack_at (r.db, 2);
  s3 = stack_at (r.db, 3);
  s4 = stack_at (r.db, 4);
  s5 = stack_at (r.db, 5);
  g_test_message ("%s | %s | %s | %s | %s", s1, s2, s3, s4, s5);
  g_assert_cmpstr (s1, ==, "[truncated]@ fib@[jit]:/src/x.js:3 fib@[jit]:/src/x.js:3");
  g_assert_cmpstr (s2, ==, "[truncated]@ fib@[jit]:/src/x.js:3 main@[jit]:/src/x.js:9");
  g_assert_cmpstr (s3, ==, "[truncated]@ main@[jit]:/src/x.js:9 [anon] 0x7f0000000000-0x7f0000010000@[anon]");
  g_assert_cmpstr (s4, ==, s3);
  g_assert_cmpstr (s5, ==, "[truncated]@ main@[jit]:/src/x.js:9 Lcom/example/Hot;::spin@[jit]");
  /* The function is declared where V8 says; one function per mapping for
   * what no map names. */
  /* Every stack here ends in JIT code: all cut there, and counted. */
  g_assert_cmpint (test_query_int (r.db, "SELECT value FROM metadata WHERE key = 'truncated_at_jit'"), ==, 5);
  g_assert_cmpint (test_query_int (r.db, "SELECT line FROM functions WHERE name = 'fib'"), ==, 3);
  g_assert_cmpint (test_query_int (r.db, "SELECT count(DISTINCT function_id) FROM frames JOIN functions fn ON fn.id = function_id WHERE fn.name LIKE '[anon]%'"), ==, 1);
  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM functions WHERE name LIKE '%0x7f0000003%'"), ==, 0);
}

/* A bad map beside a recording: the address form, and the warning in
 * the capture. */
static void
test_processor_bad_map (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *map = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL;
  g_autofree char *warnings = NULL;

  hp_processor_add_perf_map_dir (r.processor, r.dir);
  map = write_map (r.dir, "perf-4243.map", "7f0000001000 1x0 JS:*fib /src/x.js:3:10\n");
  process_mmap (r.processor, 4243, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4243, 1, 0x7f0000001010, 0x7f0000001080);
  recording_finish (&r, NULL);

  s1 = stack_at (r.db, 1);
  g_assert_cmpstr (s1, ==, "[truncated]@ [anon] 0x7f0000000000-0x7f0000010000@[anon] "
                           "[anon] 0x7f0000000000-0x7f0000010000@[anon]");
  warnings = test_query_text (r.db, "SELECT value FROM metadata WHERE key = 'symbol_notes'");
  g_assert_nonnull (strstr (warnings, map));
  g_assert_nonnull (strstr (warnings, "1 line not of the form"));
}

/* jitdump files: jitdump-builder.h */

static void
write_bytes (const char *path, const GByteArray *b, gsize len)
{
  g_assert_true (g_file_set_contents (path, (const char *) b->data, (gssize) len, NULL));
}

static void
test_jitdump (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "jit-4244.dump", NULL);
  g_autoptr(GByteArray) b = jd_example ();
  const HpPerfMapEntry *e;
  const char *file = NULL;
  guint line = 0;
  HpJitDump *dump;

  g_assert_true (hp_jitdump_is_path (path));
  g_assert_false (hp_jitdump_is_path ("/tmp/jit-.dump"));
  g_assert_false (hp_jitdump_is_path ("/tmp/jit-12.dump.bak"));

  write_bytes (path, b, b->len);
  dump = hp_jitdump_new (path);
  g_assert_true (hp_jitdump_update (dump));
  e = hp_jitdump_lookup (dump, 0x7f0000005010);
  g_assert_nonnull (e);
  g_assert_cmpstr (e->name, ==, "Hot::spin");
  g_assert_true (hp_perf_map_entry_get_line (e, 0x7f0000005010, &file, &line));
  g_assert_cmpstr (file, ==, "/src/Hot.java");
  g_assert_cmpuint (line, ==, 10);
  g_assert_true (hp_perf_map_entry_get_line (e, 0x7f00000050ff, &file, &line));
  g_assert_cmpuint (line, ==, 12);
  e = hp_jitdump_lookup (dump, 0x7f0000007010);
  g_assert_nonnull (e);
  g_assert_cmpstr (e->name, ==, "Hot::other");
  g_assert_false (hp_perf_map_entry_get_line (e, 0x7f0000007010, &file, &line));
  g_assert_null (hp_jitdump_lookup (dump, 0x7f0000008000));
  g_assert_null (hp_jitdump_get_warning (dump));
  hp_jitdump_free (dump);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_jitdump_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-jit-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "jit-4244.dump", NULL);
  g_autoptr(GByteArray) b = jd_example ();
  g_autofree char *warning = NULL;
  HpJitDump *dump;
  guint32 bad;

  /* Cut inside the second LOAD: the first is named, and a warning. */
  write_bytes (path, b, 40 + 16 + 16 + 2 * (16 + 14) + 16 + 40 + 10 + 0x100 + 30);
  dump = hp_jitdump_new (path);
  hp_jitdump_update (dump);
  g_assert_nonnull (hp_jitdump_lookup (dump, 0x7f0000005010));
  g_assert_null (hp_jitdump_lookup (dump, 0x7f0000006010));
  warning = hp_jitdump_get_warning (dump);
  g_test_message ("%s", warning);
  g_assert_nonnull (strstr (warning, "truncated"));
  g_assert_nonnull (strstr (warning, path));
  g_clear_pointer (&warning, g_free);
  /* The rest arrives (the program was still writing): read on. */
  write_bytes (path, b, b->len);
  g_assert_true (hp_jitdump_update (dump));
  g_assert_nonnull (hp_jitdump_lookup (dump, 0x7f0000007010));
  g_assert_null (hp_jitdump_get_warning (dump));
  hp_jitdump_free (dump);

  /* A record that claims less than its header: stop with a warning. */
  bad = 8;
  memcpy (b->data + 40 + 4, &bad, 4);
  write_bytes (path, b, b->len);
  dump = hp_jitdump_new (path);
  g_assert_false (hp_jitdump_update (dump));
  warning = hp_jitdump_get_warning (dump);
  g_assert_nonnull (strstr (warning, "claims 8 bytes"));
  g_clear_pointer (&warning, g_free);
  hp_jitdump_free (dump);

  /* A debug info record claiming 2^60 entries: no allocation of that. */
  g_byte_array_unref (b);
  b = jd_header (4244);
  {
    guint at = jd_begin (b, 2);

    jd_u64 (b, 0x1000);
    jd_u64 (b, G_GUINT64_CONSTANT (1) << 60);
    jd_end (b, at);
  }
  jd_load (b, 0x1000, 0x10, 1, "after");
  write_bytes (path, b, b->len);
  dump = hp_jitdump_new (path);
  hp_jitdump_update (dump);
  warning = hp_jitdump_get_warning (dump);
  g_assert_nonnull (strstr (warning, "claims 1152921504606846976 entries"));
  g_clear_pointer (&warning, g_free);
  hp_jitdump_free (dump);

  /* Not a jitdump at all. */
  g_assert_true (g_file_set_contents (path, "7f00 10 a perf map, not a jitdump\n" "0123456789012345678901234567890123456789", -1, NULL));
  dump = hp_jitdump_new (path);
  g_assert_false (hp_jitdump_update (dump));
  warning = hp_jitdump_get_warning (dump);
  g_assert_nonnull (strstr (warning, "not a jitdump"));
  hp_jitdump_free (dump);

  g_remove (path);
  g_rmdir (dir);
}

/* A jitdump that the program mapped (as runtimes do for perf): its names
 * and lines in the capture. */
static void
test_processor_jitdump (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *dump = g_build_filename (r.dir, "jit-4244.dump", NULL);
  g_autoptr(GByteArray) b = jd_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL;

  write_bytes (dump, b, b->len);
  /* Not in a folder the processor searches: found through its MMAP. */
  process_mmap (r.processor, 4244, 0x7effff000000, 0x1000, dump);
  process_mmap (r.processor, 4244, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4244, 1, 0x7f0000005048, 0x7f0000007010);
  recording_finish (&r, dump, NULL);

  s1 = stack_at (r.db, 1);
  g_assert_cmpstr (s1, ==, "[truncated]@ Hot::other@[jit] Hot::spin@[jit]:/src/Hot.java:12");
  g_assert_cmpint (test_query_int (r.db, "SELECT line FROM functions WHERE name = 'Hot::spin'"), ==, 10);
}

/* A jitdump read while the runtime was writing its last record (the JVMTI
 * agent writes from every compiler thread): the record cut short then is
 * whole when the recording ends, so the capture must not say that the
 * file is truncated. A Java recording said "jit-N.dump: truncated: the
 * record at offset 761701 is cut short" of a file that was whole. */
static void
test_processor_jitdump_growing (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *dump = g_build_filename (r.dir, "jit-4244.dump", NULL);
  g_autoptr(GByteArray) b = jd_example ();
  g_autofree char *s1 = NULL;
  g_autofree char *notes = NULL;
  guint written;

  written = b->len;
  jd_load (b, 0x7f0000008000, 0x100, 3, "Hot::late");
  write_bytes (dump, b, written + 10);
  process_mmap (r.processor, 4244, 0x7effff000000, 0x1000, dump);
  process_mmap (r.processor, 4244, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4244, 1, 0x7f0000005048, 0x7f0000007010);
  /* the runtime ends its record; nothing sampled needs it */
  write_bytes (dump, b, b->len);
  recording_finish (&r, dump, NULL);

  s1 = stack_at (r.db, 1);
  g_assert_cmpstr (s1, ==, "[truncated]@ Hot::other@[jit] Hot::spin@[jit]:/src/Hot.java:12");
  notes = test_query_text (r.db, "SELECT value FROM metadata WHERE key = 'symbol_notes'");
  g_test_message ("notes: %s", notes);
  g_assert_true (notes == NULL || strstr (notes, "jit-4244.dump") == NULL);
}

/* perf's JVMTI agent: a method the JVM compiled twice (C1, then C2 or
 * on-stack replacement), each copy's line table starting on another line
 * of its body, is one function named as the JVM names it, declared
 * where the first copy's table starts; each sample on its own line. */
static void
test_processor_jvmti (void)
{
  static const guint64 c1_addrs[] = { 0x7f0000005000, 0x7f0000005040 };
  static const guint c1_lines[] = { 8, 9 };
  static const guint64 c2_addrs[] = { 0x7f0000006000, 0x7f0000006020 };
  static const guint c2_lines[] = { 9, 10 };
  g_auto(Recording) r = recording_start ();
  g_autofree char *dump = g_build_filename (r.dir, "jit-4248.dump", NULL);
  g_autoptr(GByteArray) b = jd_header (4248);
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL;

  jd_debug (b, 0x7f0000005000, 2, c1_addrs, c1_lines, "JitHot.java");
  jd_load (b, 0x7f0000005000, 0x100, 1, "LJitHot;hotOnce(J)J");
  jd_debug (b, 0x7f0000006000, 2, c2_addrs, c2_lines, "JitHot.java");
  jd_load (b, 0x7f0000006000, 0x100, 2, "LJitHot;hotOnce(J)J");
  jd_load (b, 0x7f0000007000, 0x100, 3, "LJitHot;main([Ljava/lang/String;)V");
  write_bytes (dump, b, b->len);
  process_mmap (r.processor, 4248, 0x7effff000000, 0x1000, dump);
  process_mmap (r.processor, 4248, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4248, 1, 0x7f0000005048, 0x7f0000007010);
  process_sample (r.processor, 4248, 2, 0x7f0000006028, 0x7f0000007010);
  recording_finish (&r, dump, NULL);

  s1 = stack_at (r.db, 1);
  s2 = stack_at (r.db, 2);
  g_assert_cmpstr (s1, ==, "[truncated]@ void JitHot.main(java.lang.String[])@[jit] "
                           "long JitHot.hotOnce(long)@[jit]:JitHot.java:9");
  g_assert_cmpstr (s2, ==, "[truncated]@ void JitHot.main(java.lang.String[])@[jit] "
                           "long JitHot.hotOnce(long)@[jit]:JitHot.java:10");
  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM functions WHERE name = 'long JitHot.hotOnce(long)'"), ==, 1);
  g_assert_cmpint (test_query_int (r.db, "SELECT line FROM functions WHERE name = 'long JitHot.hotOnce(long)'"), ==, 8);
}

/* A jitdump the runtime maps only after code of it was sampled (node
 * --perf-prof compiles before it opens its dump): the later MMAP makes the
 * processor look again, and what it could not name meanwhile is named at
 * the end. */
static void
test_processor_late_jitdump (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *dump = g_build_filename (r.dir, "jit-4245.dump", NULL);
  g_autoptr(GByteArray) b = jd_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL;

  write_bytes (dump, b, b->len);
  process_mmap (r.processor, 4245, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4245, 1, 0x7f0000005048, 0x7f0000007010);
  process_mmap (r.processor, 4245, 0x7effff000000, 0x1000, dump);
  process_sample (r.processor, 4245, 2, 0x7f0000005048, 0x7f0000007010);
  recording_finish (&r, dump, NULL);

  s1 = stack_at (r.db, 1);
  s2 = stack_at (r.db, 2);
  g_assert_cmpstr (s2, ==, "[truncated]@ Hot::other@[jit] Hot::spin@[jit]:/src/Hot.java:12");
  g_assert_cmpstr (s1, ==, s2);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* V8 names each tier's copy of a function ("JS:*fib", "JS:~fib"): one
 * function, a frame per tier, and the tiers counted per function, once
 * per sample however deep it recurses. A capture of format version 3 has
 * no tiers and opens as before. */
static void
test_processor_tiers (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *map = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) opened = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpJitTiers) tiers = NULL;
  guint64 total[HP_N_JIT_TIERS], self[HP_N_JIT_TIERS];
  gint64 fib = 0, main_fn = 0;

  hp_processor_add_perf_map_dir (r.processor, r.dir);
  map = write_map (r.dir, "perf-4246.map",
                   "7f0000001000 100 JS:*fib /src/x.js:3:10\n"
                   "7f0000002000 100 JS:~fib /src/x.js:3:10\n"
                   "7f0000003000 100 JS:~main /src/x.js:9:1\n");
  process_mmap (r.processor, 4246, 0x7f0000000000, 0x10000, "//anon");
  for (guint i = 0; i < 3; i++)
    process_sample (r.processor, 4246, 1 + i, 0x7f0000001010, 0x7f0000003010);
  /* optimized fib called from its interpreted self: counts once per tier */
  process_sample (r.processor, 4246, 4, 0x7f0000001010, 0x7f0000002010);
  process_sample (r.processor, 4246, 5, 0x7f0000002010, 0x7f0000003010);
  recording_finish (&r, map, NULL);

  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM functions WHERE name = 'fib'"), ==, 1);
  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM frames f JOIN functions fn ON fn.id = f.function_id "
                                       "WHERE fn.name = 'fib'"), ==, 2);
  sqlite3_close (r.db);
  r.db = NULL;

  opened = hp_capture_open (r.capture, FALSE, &error);
  g_assert_no_error (error);
  data = hp_capture_load (opened, &error);
  g_assert_no_error (error);
  for (guint f = 1; f < data->functions->len; f++)
    {
      const char *name = g_array_index (data->functions, HpCaptureFunction, f).name;

      if (g_str_equal (name, "fib"))
        fib = f;
      else if (g_str_equal (name, "main"))
        main_fn = f;
    }
  g_assert_cmpint (fib, >, 0);
  g_assert_cmpint (main_fn, >, 0);
  tiers = hp_jit_tiers_new (data, NULL);
  g_assert_nonnull (tiers);
  g_assert_true (hp_jit_tiers_get (tiers, fib, total, self));
  g_assert_cmpuint (total[HP_JIT_TIER_OPTIMIZED], ==, 4);
  g_assert_cmpuint (self[HP_JIT_TIER_OPTIMIZED], ==, 4);
  g_assert_cmpuint (total[HP_JIT_TIER_INTERPRETED], ==, 2);
  g_assert_cmpuint (self[HP_JIT_TIER_INTERPRETED], ==, 1);
  g_assert_cmpuint (total[HP_JIT_TIER_BASELINE], ==, 0);
  g_assert_cmpint (hp_jit_tiers_dominant (total), ==, HP_JIT_TIER_OPTIMIZED);
  g_assert_true (hp_jit_tiers_get (tiers, main_fn, total, self));
  g_assert_cmpuint (total[HP_JIT_TIER_INTERPRETED], ==, 4);
  g_assert_cmpuint (self[HP_JIT_TIER_INTERPRETED], ==, 0);
  g_assert_false (hp_jit_tiers_get (tiers, 0, total, self));
  g_clear_pointer (&data, hp_capture_data_free);
  g_clear_pointer (&opened, hp_capture_close);

  /* What the window shows: one row, its main tier in the module column,
   * the split in words. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    HpLoadedProfile *loaded;
    g_autofree char *text = NULL;

    hp_loaded_capture_load_async (r.capture, NULL, NULL, NULL, on_loaded, &result);
    while (result == NULL)
      g_main_context_iteration (NULL, TRUE);
    loaded = hp_loaded_capture_load_finish (result, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (hp_loaded_capture_get_shown_module (loaded->capture, fib), ==, "[jit] · optimized");
    g_assert_cmpstr (hp_loaded_capture_get_shown_module (loaded->capture, main_fn), ==, "[jit] · interpreted");
    text = hp_loaded_capture_dup_tier_text (loaded->capture, fib);
    g_assert_cmpstr (text, ==, "Compiled at run time: optimized 66.7 %, interpreted 33.3 % of its samples in the whole capture");
    hp_loaded_profile_unref (loaded);
  }

  /* The same capture as version 3 wrote it: no tier column, no tiers. */
  g_assert_cmpint (sqlite3_open (r.capture, &r.db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (r.db, "ALTER TABLE frames DROP COLUMN tier; PRAGMA user_version = 3;",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (r.db);
  r.db = NULL;
  opened = hp_capture_open (r.capture, FALSE, &error);
  g_assert_no_error (error);
  data = hp_capture_load (opened, &error);
  g_assert_no_error (error);
  g_assert_null (hp_jit_tiers_new (data, NULL));

  /* A hostile tier reads as none. */
  g_clear_pointer (&data, hp_capture_data_free);
  g_clear_pointer (&opened, hp_capture_close);
  g_assert_cmpint (sqlite3_open (r.capture, &r.db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (r.db, "ALTER TABLE frames ADD COLUMN tier TEXT; PRAGMA user_version = 4;"
                                     "UPDATE frames SET tier = CASE id % 3 WHEN 0 THEN '**' WHEN 1 THEN x'00' ELSE 'z' END;",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (r.db);
  r.db = NULL;
  opened = hp_capture_open (r.capture, FALSE, &error);
  g_assert_no_error (error);
  data = hp_capture_load (opened, &error);
  g_assert_no_error (error);
  g_assert_null (hp_jit_tiers_new (data, NULL));

}

/* The perf maps of .NET (DOTNET_PerfMapEnabled=1: upper-case addresses
 * without "0x", the tier after the name, stubs) and CPython 3.12+ (-X
 * perf: "py::QUALNAME:FILE"), as they write them; neither runtime is in
 * Debian 12. A .NET method compiled in two tiers is one function with a
 * frame per tier, a Python function is named with its file. */
static void
test_processor_dotnet_python (void)
{
  g_auto(Recording) r = recording_start ();
  g_autofree char *dotnet = NULL, *python = NULL;
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL;
  g_autoptr(GError) error = NULL;

  hp_processor_add_perf_map_dir (r.processor, r.dir);
  dotnet = write_map (r.dir, "perf-4250.map",
                      "00007F0000001000 4a void [App] App.Program::Spin(int32)[QuickJitted]\n"
                      "00007F0000002000 3C void [App] App.Program::Spin(int32)[OptimizedTier1]\n"
                      "00007F0000003000 80 void [App] App.Program::Main(class System.String[])[OptimizedTier1OSR]\n"
                      "00007F0000004000 18 stub<1> StubPrecode<App.Program::Spin>\n");
  python = write_map (r.dir, "perf-4251.map",
                      "7f0000001000 b py::Worker.spin:/srv/app/work.py\n"
                      "7f0000002000 b py::<module>:/srv/app/main.py\n");
  process_mmap (r.processor, 4250, 0x7f0000000000, 0x10000, "//anon");
  process_mmap (r.processor, 4251, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4250, 1, 0x7f0000001010, 0x7f0000003010);
  process_sample (r.processor, 4250, 2, 0x7f0000002010, 0x7f0000003010);
  process_sample (r.processor, 4250, 3, 0x7f0000004004, 0x7f0000003010);
  process_sample (r.processor, 4251, 4, 0x7f0000001004, 0x7f0000002004);
  recording_finish (&r, dotnet, python, NULL);

  s1 = stack_at (r.db, 1);
  s2 = stack_at (r.db, 2);
  s3 = stack_at (r.db, 3);
  g_assert_cmpstr (s1, ==, "[truncated]@ void [App] App.Program::Main(class System.String[])@[jit] "
                           "void [App] App.Program::Spin(int32)@[jit]");
  g_assert_cmpstr (s2, ==, s1);
  g_assert_cmpstr (s3, ==, "[truncated]@ void [App] App.Program::Main(class System.String[])@[jit] "
                           "stub<1> StubPrecode<App.Program::Spin>@[jit]");
  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM functions WHERE name = 'void [App] App.Program::Spin(int32)'"), ==, 1);
  g_assert_cmpint (test_query_int (r.db, "SELECT count(*) FROM functions WHERE name LIKE '%Tier%'"), ==, 0);
  {
    g_autofree char *tiers = test_query_text (r.db, "SELECT group_concat(f.tier, '') FROM (SELECT f.tier FROM frames f "
                                                  "JOIN functions fn ON fn.id = f.function_id WHERE fn.name LIKE '%::Spin(%' "
                                                  "ORDER BY f.tier) f");
    g_autofree char *python_frame = test_query_text (r.db, "SELECT fn.name || '@' || m.path || ':' || fn.file "
                                                         "FROM functions fn JOIN modules m ON m.id = fn.module_id "
                                                         "WHERE fn.name = 'Worker.spin'");
    g_autofree char *python_caller = test_query_text (r.db, "SELECT fn.file FROM functions fn WHERE fn.name = '<module>'");

    g_assert_cmpstr (tiers, ==, "*^");
    g_assert_cmpstr (python_frame, ==, "Worker.spin@[jit]:/srv/app/work.py");
    g_assert_cmpstr (python_caller, ==, "/srv/app/main.py");
  }
}

/* node 20's --perf-prof writes a few heap bytes before the script name
 * of optimized code ("\xe0>\x02...ts/x.js"): the line table's lines hold,
 * the file is the one V8's name gives, never the garbled bytes. */
static void
test_processor_garbled_file (void)
{
  static const guint64 addrs[] = { 0x7f0000005000, 0x7f0000005040 };
  static const guint lines[] = { 3, 5 };
  static const guint64 addrs2[] = { 0x7f0000006000 };
  static const guint64 addrs3[] = { 0x7f0000007000 };
  static const guint64 addrs4[] = { 0x7f0000008000 };
  g_auto(Recording) r = recording_start ();
  g_autofree char *dump = g_build_filename (r.dir, "jit-4247.dump", NULL);
  g_autoptr(GByteArray) b = jd_header (4247);
  g_autoptr(GError) error = NULL;
  g_autofree char *s1 = NULL;

  jd_debug (b, 0x7f0000005000, 2, addrs, lines, "\xe0>\x02\x01\x0e\x97uz\xf2\x8c\xe1\xd3ts/x.js");
  jd_load (b, 0x7f0000005000, 0x100, 1, "JS:*fast /src/x.js:3:10");
  /* garbled into printable bytes */
  jd_debug (b, 0x7f0000006000, 1, addrs2, lines + 1, "<LT(");
  jd_load (b, 0x7f0000006000, 0x100, 2, "JS:*fast /src/x.js:3:10");
  /* garbled bytes with a colon, as if a URL: seen once in CI */
  jd_debug (b, 0x7f0000007000, 1, addrs3, lines + 1, "W\xde\x9f:");
  jd_load (b, 0x7f0000007000, 0x100, 3, "JS:*fast /src/x.js:3:10");
  /* a real URL-like name stays: node's own scripts */
  jd_debug (b, 0x7f0000008000, 1, addrs4, lines + 1, "node:internal/main");
  jd_load (b, 0x7f0000008000, 0x100, 4, "JS:*fast /src/x.js:3:10");
  write_bytes (dump, b, b->len);
  process_mmap (r.processor, 4247, 0x7effff000000, 0x1000, dump);
  process_mmap (r.processor, 4247, 0x7f0000000000, 0x10000, "//anon");
  process_sample (r.processor, 4247, 1, 0x7f0000005048, 0x7f0000005010);
  process_sample (r.processor, 4247, 2, 0x7f0000006048, 0x7f0000005010);
  process_sample (r.processor, 4247, 3, 0x7f0000007048, 0x7f0000005010);
  process_sample (r.processor, 4247, 4, 0x7f0000008048, 0x7f0000005010);
  recording_finish (&r, dump, NULL);

  s1 = stack_at (r.db, 1);
  g_assert_cmpstr (s1, ==, "[truncated]@ fast@[jit]:/src/x.js:3 fast@[jit]:/src/x.js:5");
  g_free (s1);
  s1 = stack_at (r.db, 2);
  g_assert_cmpstr (s1, ==, "[truncated]@ fast@[jit]:/src/x.js:3 fast@[jit]:/src/x.js:5");
  g_free (s1);
  s1 = stack_at (r.db, 3);
  g_assert_cmpstr (s1, ==, "[truncated]@ fast@[jit]:/src/x.js:3 fast@[jit]:/src/x.js:5");
  g_free (s1);
  s1 = stack_at (r.db, 4);
  g_assert_cmpstr (s1, ==, "[truncated]@ fast@[jit]:/src/x.js:3 fast@[jit]:node:internal/main:5");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/jit/perf-map/parse", test_parse);
  g_test_add_func ("/jit/perf-map/grows", test_grows);
  g_test_add_func ("/jit/perf-map/hostile", test_hostile);
  g_test_add_func ("/jit/v8-names", test_v8_names);
  g_test_add_func ("/jit/java-names", test_java_names);
  g_test_add_func ("/jit/dotnet-python-names", test_dotnet_python_names);
  g_test_add_func ("/jit/processor/perf-map", test_processor);
  g_test_add_func ("/jit/processor/bad-map", test_processor_bad_map);
  g_test_add_func ("/jit/jitdump/read", test_jitdump);
  g_test_add_func ("/jit/jitdump/hostile", test_jitdump_hostile);
  g_test_add_func ("/jit/processor/late-jitdump", test_processor_late_jitdump);
  g_test_add_func ("/jit/processor/tiers", test_processor_tiers);
  g_test_add_func ("/jit/processor/dotnet-python", test_processor_dotnet_python);
  g_test_add_func ("/jit/processor/garbled-file", test_processor_garbled_file);
  g_test_add_func ("/jit/processor/jitdump", test_processor_jitdump);
  g_test_add_func ("/jit/processor/jitdump-growing", test_processor_jitdump_growing);
  g_test_add_func ("/jit/processor/jvmti", test_processor_jvmti);

  return g_test_run ();
}
