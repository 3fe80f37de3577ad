/* test-disassembly.c - a known function disassembled, with its samples per line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * outer() of symtest-target (-g -O2, helper() inlined into it) is
 * resolved byte by byte with the symbolizer, as the recorder would, into
 * one frame per source line (offset: the first address of the line), and
 * samples are put on two of its lines: 10 in the inlined helper at the
 * line that calls it, 3 at another line of outer itself. The disassembly
 * must show outer's instructions with those numbers at those lines, mark
 * the recorded addresses, and refuse a rebuilt or missing file, a kernel
 * function, and an objdump that hangs or babbles, within its deadline.
 */

#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "analysis/hp-profile.h"
#include "document/hp-disassembly.h"
#include "symbols/hp-file-locator.h"
#include "symbols/hp-symbolizer.h"
#include "test-capture-data.h"
#include "test-common.h"

static guint
marker_line (const char *marker)
{
  g_autofree char *contents = NULL;
  g_autofree char *needle = g_strconcat ("MARK: ", marker, " ", NULL);
  const char *hit;
  guint line = 1;

  g_assert_true (g_file_get_contents (SYMTEST_SOURCE, &contents, NULL, NULL));
  hit = strstr (contents, needle);
  g_assert_nonnull (hit);
  for (const char *p = contents; p < hit; p++)
    if (*p == '\n')
      line++;
  return line;
}

typedef struct {
  TestData *data;
  guint     call_line;   /* outer's line that calls helper */
  guint     other_line;  /* another line of outer with code */
  guint64   other_offset;
  char     *build_id;
} Fixture;

static void
fixture_free (Fixture *f)
{
  test_data_free (f->data);
  g_free (f->build_id);
}

/* functions 1 outer, 2 helper; frames 1 outer:call_line, 2 helper (inline),
 * 3 outer:other_line; stacks 1 outer:call, 2 outer:call > helper, 3 outer:other */
static void
fixture_init (Fixture    *f,
              const char *module_path)
{
  HpSymbolizer *symbolizer = hp_symbolizer_new ();
  HpModule *module = hp_symbolizer_get_module (symbolizer, SYMTEST_TARGET, NULL, 0);
  guint64 offset, size, call_offset = 0, helper_offset = 0;
  guint helper_line = 0;
  guint8 id[20];
  gsize id_len = hp_test_elf_build_id (SYMTEST_TARGET, id);
  TestData *data = test_data_new ();
  static const HpCaptureStack stacks[] = { { 0, 0 }, { 0, 1 }, { 1, 2 }, { 0, 3 } };
  static const HpCaptureStackCount counts[] = { { 2, 1, 10, 10 }, { 3, 1, 3, 3 } };
  HpCaptureModule m = { 0 };
  HpCaptureFunction fn = { 0 };

  f->call_line = marker_line ("call-helper");
  f->other_line = 0;
  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &offset, &size));
  for (guint64 o = offset; o < offset + size; o++)
    {
      const HpResolvedAddress *r = hp_symbolizer_lookup (symbolizer, module, o);
      const HpSymbolFrame *own = &r->frames[r->n_frames - 1];

      if (own->line == f->call_line && r->n_frames == 2 && call_offset == 0)
        {
          call_offset = o;
          helper_offset = o;
          helper_line = r->frames[0].line;
        }
      else if (r->n_frames == 1 && own->line != 0 && own->line != f->call_line && f->other_line == 0)
        {
          f->other_line = own->line;
          f->other_offset = o;
        }
    }
  g_assert_cmpuint (call_offset, !=, 0);
  g_assert_cmpuint (f->other_line, !=, 0);
  hp_symbolizer_free (symbolizer);

  f->build_id = hp_build_id_to_hex (id, id_len);
  g_array_append_val (data->modules, m);
  m.path = (char *) module_path;
  m.name = (char *) "symtest-target";
  m.build_id = f->build_id;
  g_array_append_val (data->modules, m);
  g_array_append_val (data->functions, fn);
  fn = (HpCaptureFunction) { (char *) "outer", 1, (char *) SYMTEST_SOURCE, 0 };
  g_array_append_val (data->functions, fn);
  fn = (HpCaptureFunction) { (char *) "helper", 1, (char *) SYMTEST_SOURCE, 0 };
  g_array_append_val (data->functions, fn);
  {
    HpCaptureFrame frames[] = {
      { 0 },
      { 1, (char *) SYMTEST_SOURCE, f->call_line, FALSE, call_offset },
      { 2, (char *) SYMTEST_SOURCE, helper_line, TRUE, helper_offset },
      { 1, (char *) SYMTEST_SOURCE, f->other_line, FALSE, f->other_offset },
    };

    g_array_append_vals (data->frames, frames, G_N_ELEMENTS (frames));
  }
  g_array_append_vals (data->stacks, stacks, G_N_ELEMENTS (stacks));
  g_array_append_vals (data->stack_counts, counts, G_N_ELEMENTS (counts));
  f->data = data;
}

/* The row of @text that starts with @prefix, from 1; 0 when none */
static guint
row_of (const char *text,
        const char *prefix)
{
  g_auto(GStrv) rows = g_strsplit (text, "\n", -1);

  for (guint i = 0; rows[i] != NULL; i++)
    if (g_str_has_prefix (rows[i], prefix))
      return i + 1;
  return 0;
}

static const HpSourceLine *
samples_at (const HpDisassembly *d,
            guint                row)
{
  for (guint i = 0; i < d->rows->lines->len; i++)
    if (g_array_index (d->rows->lines, HpSourceLine, i).line == row)
      return &g_array_index (d->rows->lines, HpSourceLine, i);
  return NULL;
}

static void
test_known_function (void)
{
  Fixture f;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpDisassembly) d = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *call_header = NULL;
  g_autofree char *other_header = NULL;
  const HpSourceLine *call, *other;
  guint call_row, other_row;
  guint64 sum_total = 0;

  fixture_init (&f, SYMTEST_TARGET);
  profile = hp_profile_new (f.data, NULL);
  d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d);
  g_test_message ("%s", d->text);

  g_assert_cmpstr (d->symbol, ==, "outer");
  g_assert_cmpstr (d->binary, ==, SYMTEST_TARGET);
  g_assert_cmpstr (d->module_path, ==, SYMTEST_TARGET);
  g_assert_true (d->verified);
  g_assert_cmpuint (d->n_instructions, >=, 5);
  g_assert_cmpuint (d->end - d->start, >, 0);

  call_header = g_strdup_printf ("symtest-target.c:%u  (inlined helper)", f.call_line);
  other_header = g_strdup_printf ("symtest-target.c:%u", f.other_line);
  call_row = row_of (d->text, call_header);
  other_row = row_of (d->text, other_header);
  g_assert_cmpuint (call_row, >, 0);
  g_assert_cmpuint (other_row, >, 0);
  call = samples_at (d, call_row);
  other = samples_at (d, other_row);
  g_assert_nonnull (call);
  g_assert_nonnull (other);
  /* the inlined helper's samples are outer's total at the calling line */
  g_assert_cmpuint (call->self, ==, 0);
  g_assert_cmpuint (call->total, ==, 10);
  g_assert_cmpuint (other->self, ==, 3);
  g_assert_cmpuint (other->total, ==, 3);
  g_assert_cmpuint (d->rows->hottest_line, ==, call_row);
  g_assert_cmpuint (d->rows->total, ==, 13);
  /* every line row names a line that had samples, and only those count */
  for (guint i = 0; i < d->rows->lines->len; i++)
    {
      const HpSourceLine *l = &g_array_index (d->rows->lines, HpSourceLine, i);

      g_assert_true (l->total == 10 || l->total == 3);
      if (l->line == call_row || l->line == other_row)
        sum_total += l->total;
    }
  g_assert_cmpuint (sum_total, ==, 13);

  /* the address recorded for the other line is marked */
  {
    g_auto(GStrv) rows = g_strsplit (d->text, "\n", -1);
    guint marked = 0;

    for (guint i = 0; rows[i] != NULL; i++)
      if (g_str_has_prefix (rows[i], "▸"))
        marked++;
    g_assert_cmpuint (marked, >=, 1);
    g_assert_cmpuint (marked, <=, 2);
  }
  fixture_free (&f);
}

/* A stripped copy (no symbol table, no DWARF, as Debian ships programs):
 * the function the capture names symtest-target+0xSTART is disassembled
 * over the .eh_frame FDE around its addresses, the range its name came
 * from, where it used to be refused for want of a symbol. */
static void
test_stripped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hp-disassembly-XXXXXX", NULL);
  g_autofree char *stripped = g_build_filename (dir, "symtest-stripped", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpDisassembly) d = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "strip", "--strip-all", stripped, NULL };
  guint64 offset, size, unused;
  gsize length;
  int status;
  Fixture f;

  g_assert_true (hp_test_elf_function (SYMTEST_TARGET, "outer", &offset, &size));
  g_assert_true (g_file_get_contents (SYMTEST_TARGET, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (stripped, contents, (gssize) length, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_false (hp_test_elf_function (stripped, "outer", &unused, &unused));

  fixture_init (&f, stripped);
  name = g_strdup_printf ("symtest-stripped+0x%" G_GINT64_MODIFIER "x", offset);
  g_array_index (f.data->functions, HpCaptureFunction, 1).name = name;
  profile = hp_profile_new (f.data, NULL);
  d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (d);
  g_test_message ("%s", d->text);
  g_assert_cmpstr (d->symbol, ==, name);
  g_assert_cmpstr (d->binary, ==, stripped);
  g_assert_true (d->verified);
  /* outer's FDE is outer: its size, and all its instructions */
  g_assert_cmpuint (d->end - d->start, ==, size);
  g_assert_cmpuint (d->n_instructions, >=, 5);
  fixture_free (&f);
  g_unlink (stripped);
  g_rmdir (dir);
}

static void
test_rebuilt (void)
{
  Fixture f;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  HpDisassembly *d;

  fixture_init (&f, SYMTEST_TARGET);
  /* another build id: the file there is not the one recorded */
  g_array_index (f.data->modules, HpCaptureModule, 1).build_id = (char *) "0123456789abcdef0123456789abcdef01234567";
  profile = hp_profile_new (f.data, NULL);
  d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
  g_assert_null (d);
  g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_CHANGED);
  g_assert_nonnull (strstr (error->message, SYMTEST_TARGET));
  g_assert_nonnull (strstr (error->message, "has changed"));
  g_assert_nonnull (strstr (error->message, f.build_id));
  fixture_free (&f);
}

static void
test_missing (void)
{
  Fixture f;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  HpDisassembly *d;

  fixture_init (&f, "/nonexistent/hotpath-test/symtest-target");
  profile = hp_profile_new (f.data, NULL);
  d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
  g_assert_null (d);
  g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/hotpath-test/symtest-target"));
  g_clear_error (&error);

  /* kernel code: no file to read, said so */
  g_array_index (f.data->modules, HpCaptureModule, 1).is_kernel = TRUE;
  d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
  g_assert_null (d);
  g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NO_CODE);
  fixture_free (&f);
}

/* A capture whose module path names a FIFO (or a device) in place of the
 * program: refused at once, as a file not found, where opening it waited
 * for a writer for ever and kept the window's source thread. */
static void
test_not_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hp-disassembly-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "symtest-target", NULL);
  const char *paths[] = { fifo, "/dev/zero" };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      Fixture f;
      g_autoptr(HpProfile) profile = NULL;
      g_autoptr(GError) error = NULL;
      HpDisassembly *d;

      fixture_init (&f, paths[i]);
      profile = hp_profile_new (f.data, NULL);
      alarm (20);  /* a hang fails here, not at the suite's time limit */
      d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
      alarm (0);
      g_assert_null (d);
      g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_NOT_FOUND);
      fixture_free (&f);
    }
  g_unlink (fifo);
  g_rmdir (dir);
}

/* The module read from a copy with its build id (perf's cache keeps
 * .build-id/xx/rest; a search dir comes first): d->binary is the copy,
 * d->module_path the module's own path, which the heading names. And a
 * versioned dynamic symbol as objdump names it ("outer@@Base") is shown
 * as the function's plain name. */
static void
test_cache_copy_and_version (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hp-disasm-XXXXXX", NULL);
  g_autofree char *objdump = g_build_filename (dir, "objdump-versioned", NULL);
  g_autofree char *script = g_strdup ("#!/bin/sh\nobjdump \"$@\" | sed 's/<outer>:$/<outer@@Base>:/'\n");
  g_autofree char *copy_dir = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpDisassembly) d = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *tooltip = NULL;
  g_autofree char *expected = NULL;
  gsize length;
  Fixture f;

  fixture_init (&f, SYMTEST_TARGET);
  copy_dir = g_strdup_printf ("%s/.build-id/%.2s", dir, f.build_id);
  copy = g_build_filename (copy_dir, f.build_id + 2, NULL);
  g_assert_cmpint (g_mkdir_with_parents (copy_dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (SYMTEST_TARGET, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  g_assert_true (g_file_set_contents (objdump, script, -1, NULL));
  g_assert_cmpint (g_chmod (objdump, 0755), ==, 0);

  profile = hp_profile_new (f.data, NULL);
  g_setenv ("HOTPATH_OBJDUMP", objdump, TRUE);
  d = hp_disassembly_new (profile, 1, (const char * const[]) { dir, NULL }, 20000, NULL, &error);
  g_unsetenv ("HOTPATH_OBJDUMP");
  g_assert_no_error (error);
  g_assert_nonnull (d);
  g_assert_cmpstr (d->binary, ==, copy);
  g_assert_cmpstr (d->module_path, ==, SYMTEST_TARGET);
  g_assert_true (d->verified);
  g_assert_cmpstr (d->symbol, ==, "outer");
  /* the heading names the function and the module, the tooltip the copy */
  heading = hp_disassembly_get_heading (d, 0, &tooltip);
  expected = g_strconcat ("Machine code of outer in ", SYMTEST_TARGET, NULL);
  g_assert_cmpstr (heading, ==, expected);
  g_assert_true (g_str_has_prefix (tooltip, expected));
  g_assert_nonnull (strstr (tooltip, copy));
  fixture_free (&f);
  hp_test_remove_tree (dir);
}

/* An objdump that hangs, and one that writes without end: each is
 * stopped, and the error says why, well before any test timeout. */
static void
test_hostile_objdump (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hp-disasm-XXXXXX", NULL);
  g_autofree char *hang = g_build_filename (dir, "hang", NULL);
  g_autofree char *babble = g_build_filename (dir, "babble", NULL);
  Fixture f;
  g_autoptr(HpProfile) profile = NULL;
  gint64 start;

  g_assert_true (g_file_set_contents (hang, "#!/bin/sh\nexec sleep 60\n", -1, NULL));
  g_assert_true (g_file_set_contents (babble, "#!/bin/sh\nexec yes '    zz:\tnot an instruction'\n", -1, NULL));
  g_assert_cmpint (g_chmod (hang, 0755), ==, 0);
  g_assert_cmpint (g_chmod (babble, 0755), ==, 0);
  fixture_init (&f, SYMTEST_TARGET);
  profile = hp_profile_new (f.data, NULL);

  {
    g_autoptr(GError) error = NULL;
    HpDisassembly *d;

    g_setenv ("HOTPATH_OBJDUMP", hang, TRUE);
    start = g_get_monotonic_time ();
    d = hp_disassembly_new (profile, 1, NULL, 500, NULL, &error);
    g_assert_null (d);
    g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "took longer"));
    /* stopped at its deadline, not when sleep ends */
    g_assert_cmpint (g_get_monotonic_time () - start, <, 30 * G_USEC_PER_SEC);
  }
  {
    g_autoptr(GError) error = NULL;
    HpDisassembly *d;

    g_setenv ("HOTPATH_OBJDUMP", babble, TRUE);
    d = hp_disassembly_new (profile, 1, NULL, 20000, NULL, &error);
    g_assert_null (d);
    g_assert_error (error, HP_DISASSEMBLY_ERROR, HP_DISASSEMBLY_ERROR_FAILED);
    g_test_message ("%s", error->message);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    HpDisassembly *d;

    g_setenv ("HOTPATH_OBJDUMP", hang, TRUE);
    g_cancellable_cancel (cancellable);
    d = hp_disassembly_new (profile, 1, NULL, 20000, cancellable, &error);
    g_assert_null (d);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
  g_unsetenv ("HOTPATH_OBJDUMP");
  fixture_free (&f);
  hp_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/disassembly/known-function", test_known_function);
  g_test_add_func ("/disassembly/stripped", test_stripped);
  g_test_add_func ("/disassembly/rebuilt", test_rebuilt);
  g_test_add_func ("/disassembly/missing", test_missing);
  g_test_add_func ("/disassembly/not-regular", test_not_regular);
  g_test_add_func ("/disassembly/hostile-objdump", test_hostile_objdump);
  g_test_add_func ("/disassembly/cache-copy-and-version", test_cache_copy_and_version);
  return g_test_run ();
}
