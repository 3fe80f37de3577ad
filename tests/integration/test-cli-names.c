/* test-cli-names.c - report --callers/--callees by the names people type, and --help
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The README's own example, `report --callers memcpy`, must work on a glibc
 * program, where the function is an ifunc implementation such as
 * __memmove_avx_unaligned_erms; C++ names must not need their parameter
 * lists; several matches are listed and refused; no match suggests close
 * names; --limit applies. Every sub-command's --help gives its usage once,
 * starting with hotpath-cli.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>

#include "integration-common.h"
#include "store/hp-capture-writer.h"

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, libc, main_stack, parse_stack;
  const char *callers[] = { "count_word", "hash_word", "load_file" };

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  app = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  libc = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, FALSE);
  main_stack = hp_capture_writer_intern_stack (w, 0,
                 hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 0, FALSE, 0x10));
  parse_stack = hp_capture_writer_intern_stack (w, main_stack,
                 hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "ns::Parser::parse(std::vector<int, std::allocator<int> > const&) const", app, NULL, 0), NULL, 0, FALSE, 0x20));
  for (guint i = 0; i < G_N_ELEMENTS (callers); i++)
    {
      gint64 caller = hp_capture_writer_intern_stack (w, parse_stack,
                        hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, callers[i], app, NULL, 0), NULL, 0, FALSE, 0x100 + i));
      gint64 leaf = hp_capture_writer_intern_stack (w, caller,
                      hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "__memmove_avx_unaligned_erms", libc, NULL, 0), NULL, 0, FALSE, 0x900));

      for (guint n = 0; n < 10 * (i + 1); n++)
        hp_capture_writer_add_sample (w, 1000 + n, 1, 0, leaf, 1);
    }
  /* main → app+0x1f2e → leafy: a frame without a symbol */
  {
    gint64 anon = hp_capture_writer_intern_stack (w, main_stack,
                    hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "app+0x1f2e", app, NULL, 0), NULL, 0, FALSE, 0x1f2e));
    gint64 leafy = hp_capture_writer_intern_stack (w, anon,
                     hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "leafy", app, NULL, 0), NULL, 0, FALSE, 0x2000));

    for (guint n = 0; n < 5; n++)
      hp_capture_writer_add_sample (w, 2000 + n, 1, 0, leafy, 1);
  }
  g_assert_true (hp_capture_writer_finish (w, &error));
}

static ItResult *
report (const char *path,
        const char *option,
        const char *name,
        const char *extra)
{
  const char *args[] = { "report", path, option, name, extra, extra ? "1" : NULL, NULL };

  return it_run_cli (args);
}

static void
test_names (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "names.hotpath", NULL);
  g_autoptr(ItResult) memcpy_callers = NULL, limited = NULL, cxx = NULL, ambiguous = NULL, typo = NULL;

  write_capture (path);

  memcpy_callers = report (path, "--callers", "memcpy", NULL);
  g_assert_cmpint (memcpy_callers->status, ==, 0);
  g_assert_nonnull (strstr (memcpy_callers->out, "Callers of __memmove_avx_unaligned_erms"));
  g_assert_nonnull (strstr (memcpy_callers->out, "load_file"));
  g_assert_nonnull (strstr (memcpy_callers->out, "count_word"));

  /* the C library's internal name finds its ifunc variant too */
  {
    g_autoptr(ItResult) gi = report (path, "--callers", "__GI_memmove", NULL);

    g_assert_cmpint (gi->status, ==, 0);
    g_assert_nonnull (strstr (gi->out, "Callers of __memmove_avx_unaligned_erms"));
  }

  /* --limit 1: the heaviest caller only */
  limited = report (path, "--callers", "memcpy", "--limit");
  g_assert_cmpint (limited->status, ==, 0);
  g_assert_nonnull (strstr (limited->out, "load_file"));
  g_assert_null (strstr (limited->out, "count_word"));

  cxx = report (path, "--callees", "Parser::parse", NULL);
  g_assert_cmpint (cxx->status, ==, 0);
  g_assert_nonnull (strstr (cxx->out, "Callees of ns::Parser::parse("));

  ambiguous = report (path, "--callers", "word", NULL);
  g_assert_cmpint (ambiguous->status, !=, 0);
  g_assert_nonnull (strstr (ambiguous->err, "'word' matches 2 functions"));
  g_assert_nonnull (strstr (ambiguous->err, "count_word"));
  g_assert_nonnull (strstr (ambiguous->err, "hash_word"));

  typo = report (path, "--callers", "load_flie", NULL);
  g_assert_cmpint (typo->status, !=, 0);
  g_assert_nonnull (strstr (typo->err, "did you mean 'load_file'?"));
  /* a failed lookup prints no half report */
  g_assert_cmpstr (typo->out, ==, "");

  /* a typo of a C++ method: compared with its last component, and
   * suggested as it can be typed, without the parameter list */
  {
    const char *typos[] = { "prase", "Parser::prase", "ns::Parser::prse" };

    for (guint i = 0; i < G_N_ELEMENTS (typos); i++)
      {
        g_autoptr(ItResult) res = report (path, "--callers", typos[i], NULL);

        g_test_message ("%s: %s", typos[i], res->err);
        g_assert_cmpint (res->status, !=, 0);
        g_assert_nonnull (strstr (res->err, "did you mean 'ns::Parser::parse'?"));
      }
  }
  /* and a C library function by the name it documents */
  {
    g_autoptr(ItResult) res = report (path, "--callers", "memmvoe_avx_unaligned_erms", NULL);

    g_assert_nonnull (strstr (res->err, "did you mean '__memmove_avx_unaligned_erms'?"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A name that ends several paths is refused for writing, with the paths;
 * a path through a frame without a symbol gets a warning. */
static void
test_summary_paths (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "names.hotpath", NULL);

  write_capture (path);
  {
    const char *args[] = { "summary", path, "__memmove_avx_unaligned_erms", "--set", "copies", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, !=, 0);
    g_assert_nonnull (strstr (res->err, "3 call paths end with __memmove_avx_unaligned_erms"));
    /* each by the shortest PATH that names it alone, ready to paste */
    g_assert_nonnull (strstr (res->err, "  'load_file;__memmove_avx_unaligned_erms'\n"));
    g_assert_nonnull (strstr (res->err, "  'count_word;__memmove_avx_unaligned_erms'\n"));
  }
  {
    const char *args[] = { "summary", path, "load_file;__memmove_avx_unaligned_erms", "--set", "copies", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_null (strstr (res->err, "without symbols"));
  }
  /* names as report --callers takes them: a C++ name without its
   * parameters, memcpy for its ifunc; several functions for one name
   * give several paths, refused and listed */
  {
    const char *args[] = { "summary", path, "Parser::parse;load_file;memcpy", "--set", "loading", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->err, "saved the summary of main → ns::Parser::parse(std::vector<int, std::allocator<int> > const&) const → load_file → __memmove_avx_unaligned_erms"));
  }
  {
    const char *args[] = { "summary", path, "parse;word;memcpy", "--set", "words", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, !=, 0);
    g_assert_nonnull (strstr (res->err, "2 call paths end with parse;word;memcpy"));
    /* as long as the PATH given, names without their parameter lists */
    g_assert_nonnull (strstr (res->err, "  'ns::Parser::parse;hash_word;__memmove_avx_unaligned_erms'\n"));
    g_assert_nonnull (strstr (res->err, "  'ns::Parser::parse;count_word;__memmove_avx_unaligned_erms'\n"));
  }
  {
    const char *args[] = { "summary", path, "leafy", "--set", "a leaf", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->err, "without symbols (app+0x1f2e)"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The dynamic loader has a malloc and a memset of its own: asking for
 * malloc must find the C library's __libc_malloc too, which the program's
 * calls reach, not only the loader's (python3: 2 samples in ld.so's
 * malloc hid 33 in __libc_malloc). */
static void
test_loader_names (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "loader.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  const struct { const char *caller, *leaf; gboolean in_loader; guint samples; } stacks[] = {
    { "_dl_init_paths", "malloc", TRUE, 1 },
    { "xmalloc", "__libc_malloc", FALSE, 5 },
    { "_dl_map_segments", "memset", TRUE, 1 },
    { "clear_table", "__memset_evex_unaligned_erms", FALSE, 4 },
  };
  gint64 app, ld, libc, main_stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  app = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  ld = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", NULL, FALSE);
  libc = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/libc.so.6", NULL, FALSE);
  main_stack = hp_capture_writer_intern_stack (w, 0,
                 hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 0, FALSE, 0x10));
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      gint64 module = stacks[i].in_loader ? ld : libc;
      gint64 caller = hp_capture_writer_intern_stack (w, main_stack,
                        hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, stacks[i].caller, stacks[i].in_loader ? ld : app, NULL, 0),
                                                        NULL, 0, FALSE, 0x100 + i));
      gint64 leaf = hp_capture_writer_intern_stack (w, caller,
                      hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, stacks[i].leaf, module, NULL, 0),
                                                      NULL, 0, FALSE, 0x1000 + i));

      for (guint n = 0; n < stacks[i].samples; n++)
        hp_capture_writer_add_sample (w, 1000 + n, 1, 0, leaf, 1);
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  {
    g_autoptr(ItResult) res = report (path, "--callers", "malloc", NULL);
    const char *libc_at, *ld_at;

    g_test_message ("%s%s", res->out, res->err);
    g_assert_cmpint (res->status, ==, 0);
    libc_at = strstr (res->out, "# Callers of __libc_malloc [libc.so.6]");
    ld_at = strstr (res->out, "# Callers of malloc [ld-linux-x86-64.so.2]");
    g_assert_nonnull (libc_at);
    g_assert_nonnull (ld_at);
    /* the hotter first */
    g_assert_true (libc_at < ld_at);
    g_assert_nonnull (strstr (res->out, "xmalloc [app]"));
  }
  {
    g_autoptr(ItResult) res = report (path, "--callers", "memset", NULL);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->out, "# Callers of __memset_evex_unaligned_erms [libc.so.6]"));
    g_assert_nonnull (strstr (res->out, "clear_table [app]"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* main → calc::Fib<10>::eval(long) → Fib<9> and Fib<8> → … down to Fib<1>
 * and Fib<0>, a sample at every leaf: a C++ template recursion, where a
 * name ends dozens of paths many frames deep. */
static void
write_fib_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (gint64) * 2);
  gint64 app, functions[11], frames[11], main_stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, "event", "cpu-clock");
  app = hp_capture_writer_intern_module (w, "/usr/bin/fib", NULL, FALSE);
  for (guint n = 0; n <= 10; n++)
    {
      g_autofree char *name = g_strdup_printf ("calc::Fib<%u>::eval(long)", n);

      functions[n] = hp_capture_writer_intern_function (w, name, app, NULL, 0);
      frames[n] = hp_capture_writer_intern_frame (w, functions[n], NULL, 0, FALSE, 0x100 * (n + 1));
    }
  main_stack = hp_capture_writer_intern_stack (w, 0,
                 hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 0, FALSE, 0x10));
  {
    gint64 first[2] = { hp_capture_writer_intern_stack (w, main_stack, frames[10]), 10 };

    g_array_append_val (pending, first);
  }
  while (pending->len > 0)
    {
      gint64 top[2];

      memcpy (top, &g_array_index (pending, gint64, 2 * (pending->len - 1)), sizeof top);
      g_array_set_size (pending, pending->len - 1);
      if (top[1] < 2)
        {
          hp_capture_writer_add_sample (w, 1000, 1, 0, top[0], 1);
          continue;
        }
      for (gint64 d = 1; d <= 2; d++)
        {
          gint64 child[2] = { hp_capture_writer_intern_stack (w, top[0], frames[top[1] - d]), top[1] - d };

          g_array_append_val (pending, child);
        }
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
}

static guint
count_listed (const char *err,
              const char *prefix)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      /* "hotpath-cli:    12.3%  NAME": a share, then what it is of */
      const char *rest = lines[i] + strlen (prefix);

      if (g_str_has_prefix (lines[i], prefix) && g_ascii_isdigit (rest[strspn (rest, " ")]))
        n++;
    }
  return n;
}

/* An ambiguous name lists a bounded number of candidates (10, or
 * --limit N), says how many more there are, and gives each in the
 * shortest form that names it alone: a PATH that summary then takes,
 * names without their parameter lists. */
static void
test_long_listings (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "fib.hotpath", NULL);

  write_fib_capture (path);
  {
    const char *args[] = { "summary", path, "Fib<3>::eval", "--set", "three", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);
    g_auto(GStrv) lines = NULL;
    g_autofree char *first = NULL;

    g_test_message ("%s", res->err);
    g_assert_cmpint (res->status, !=, 0);
    /* Fib<3> is reached by 21 paths from Fib<10> */
    g_assert_nonnull (strstr (res->err, "21 call paths end with Fib<3>::eval"));
    g_assert_cmpuint (count_listed (res->err, "hotpath-cli:   "), ==, 10);
    g_assert_nonnull (strstr (res->err, "… and 11 more"));
    g_assert_null (strstr (res->err, "(long)"));
    g_assert_null (strstr (res->err, "main"));
    /* the first one listed, pasted back, is one path */
    lines = g_strsplit (res->err, "\n", -1);
    first = g_strndup (strchr (lines[1], '\'') + 1, strrchr (lines[1], '\'') - strchr (lines[1], '\'') - 1);
    g_assert_true (g_str_has_suffix (first, ";calc::Fib<3>::eval"));
    {
      const char *again[] = { "summary", path, first, "--set", "three", NULL };
      g_autoptr(ItResult) set = it_run_cli (again);

      g_assert_cmpint (set->status, ==, 0);
    }
  }
  {
    const char *args[] = { "summary", path, "Fib<3>::eval", "--set", "three", "--limit", "3", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, !=, 0);
    g_assert_cmpuint (count_listed (res->err, "hotpath-cli:   "), ==, 3);
    g_assert_nonnull (strstr (res->err, "… and 18 more"));
  }
  {
    const char *args[] = { "report", path, "--callers", "eval", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_test_message ("%s", res->err);
    g_assert_cmpint (res->status, !=, 0);
    g_assert_nonnull (strstr (res->err, "'eval' matches 11 functions"));
    g_assert_cmpuint (count_listed (res->err, "hotpath-cli:   "), ==, 10);
    g_assert_nonnull (strstr (res->err, "… and 1 more"));
    /* hottest first, as typed */
    g_assert_nonnull (strstr (res->err, "100.0%  calc::Fib<10>::eval [fib]\n"));
    g_assert_null (strstr (res->err, "(long)"));
  }
  {
    const char *args[] = { "report", path, "--callers", "eval", "--limit", "2", NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpuint (count_listed (res->err, "hotpath-cli:   "), ==, 2);
    g_assert_nonnull (strstr (res->err, "… and 9 more"));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The header gives the share of samples in code without symbols, by
 * module, once (it said it twice). */
static void
test_unsymbolized (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *path = g_build_filename (dir, "stripped.hotpath", NULL);
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
    gint64 app, lib, main_stack;
    const char *leaves[] = { "liblzma.so.5+0x15a20", "liblzma.so.5+0x16263", "compress" };
    const guint counts[] = { 60, 15, 25 };

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, "event", "cpu-clock");
    app = hp_capture_writer_intern_module (w, "/usr/bin/xz", NULL, FALSE);
    lib = hp_capture_writer_intern_module (w, "/usr/lib/x86_64-linux-gnu/liblzma.so.5", NULL, FALSE);
    main_stack = hp_capture_writer_intern_stack (w, 0,
                   hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 0, FALSE, 0x10));
    for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
      {
        gint64 leaf = hp_capture_writer_intern_stack (w, main_stack,
                        hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, leaves[i], i < 2 ? lib : app, NULL, 0),
                                                        NULL, 0, FALSE, 0x100 * (i + 1)));

        for (guint n = 0; n < counts[i]; n++)
          hp_capture_writer_add_sample (w, 1000 + n, 1, 0, leaf, 1);
      }
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  {
    const char *args[] = { "report", path, NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->out, "# Without symbols: 75.0% of samples (liblzma.so.5 75.0%)"));
    /* said once */
    g_assert_null (strstr (strstr (res->out, "75.0%") + 1, "75.0% of"));
    /* the same package the window's overview names (document/hp-debug-package) */
    if (g_find_program_in_path ("dpkg-query") != NULL)
      g_assert_nonnull (strstr (res->out, "(liblzma.so.5 75.0%); Debian's liblzma5-dbgsym would name it."));
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* No line says "1 samples": every count of samples, summaries, stacks
 * and captures goes through ngettext. */
static void
test_plurals (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *folded = g_build_filename (dir, "one.folded", NULL);
  g_autofree char *path = g_build_filename (dir, "one.hotpath", NULL);
  g_autofree char *copy = g_build_filename (dir, "copy.hotpath", NULL);
  g_autofree char *svg = g_build_filename (dir, "one.svg", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) all = g_string_new (NULL);
  g_autoptr(GRegex) wrong = g_regex_new ("(^|[^0-9.])1 (samples|summaries|stacks|captures)\\b", G_REGEX_MULTILINE, 0, NULL);
  const char *import[] = { "import", folded, "-o", path, NULL };
  const char *import_copy[] = { "import", folded, "-o", copy, NULL };
  const char *set[] = { "summary", path, "main;work", "--set", "the work", NULL };
  const char *runs[][8] = {
    { "report", path, NULL },
    { "report", path, "--tree", NULL },
    { "report", path, "--callers", "work", NULL },
    { "summary", path, "--format", "markdown", NULL },
    { "summary", copy, "--import", path, NULL },
    { "diff", path, path, NULL },
    { "flamegraph", path, "-o", svg, NULL },
  };

  g_file_set_contents (folded, "main;work 1\n", -1, &error);
  g_assert_no_error (error);
  {
    g_autoptr(ItResult) res = it_run_cli (import);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->err, ": 1 sample in 1 stack from"));
  }
  {
    g_autoptr(ItResult) res = it_run_cli (import_copy);
    g_autoptr(ItResult) s = it_run_cli (set);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_cmpint (s->status, ==, 0);
  }
  for (guint i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      g_autoptr(ItResult) res = it_run_cli (runs[i]);

      g_assert_cmpint (res->status, ==, 0);
      g_string_append_printf (all, "%s\n%s\n", res->out, res->err);
    }
  {
    g_autofree char *text = NULL;

    g_file_get_contents (svg, &text, NULL, &error);
    g_assert_no_error (error);
    g_string_append (all, text);
  }
  g_test_message ("%s", all->str);
  g_assert_false (g_regex_match (wrong, all->str, 0, NULL));
  g_assert_nonnull (strstr (all->str, "(total 1 sample, "));
  g_assert_nonnull (strstr (all->str, "self% of 1 sample ("));
  g_assert_nonnull (strstr (all->str, "1 sample of `samples`, 1 summary."));
  g_assert_nonnull (strstr (all->str, "1 capture, 1 sample, 1 sample per run"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_help (void)
{
  const char *commands[] = { "record", "import", "report", "summary", "flamegraph", "diff", "export" };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      const char *args[] = { commands[i], "--help", NULL };
      g_autoptr(ItResult) res = it_run_cli (args);
      g_autofree char *usage = g_strdup_printf ("\n  hotpath-cli %s [OPTION…]", commands[i]);
      const char *at;

      g_assert_cmpint (res->status, ==, 0);
      at = strstr (res->out, usage);
      g_assert_nonnull (at);
      /* the usage names its arguments once: no "FILE FILE" */
      {
        g_autofree char *line = g_strndup (at + 1, strcspn (at + 1, "\n"));
        g_auto(GStrv) words = g_strsplit (line, " ", -1);

        for (guint w = 1; words[w] != NULL; w++)
          if (words[w][0] != '\0' && g_ascii_isupper (words[w][0]))
            g_assert_cmpstr (words[w], !=, words[w - 1]);
      }
      /* and shows how it is used (issue 14) */
      {
        g_autofree char *example = g_strdup_printf ("Examples:\n  hotpath-cli %s ", commands[i]);

        g_assert_nonnull (strstr (res->out, example));
      }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/names", test_names);
  g_test_add_func ("/integration/cli/help", test_help);
  g_test_add_func ("/integration/cli/plurals", test_plurals);
  g_test_add_func ("/integration/cli/summary-paths", test_summary_paths);
  g_test_add_func ("/integration/cli/long-listings", test_long_listings);
  g_test_add_func ("/integration/cli/loader-names", test_loader_names);
  g_test_add_func ("/integration/cli/unsymbolized", test_unsymbolized);
  return g_test_run ();
}
