/* test-record-stripped.c - a stripped program gives one row per function
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Debian's programs and libraries are stripped: every sampled address of
 * an unnamed function used to become a row of its own. A stripped copy of
 * paths-nofp (no symbols, no DWARF: only .eh_frame, which unwinding needs)
 * must give one row per function, named module+0xSTART where START is
 * where the function begins (nm on the unstripped program says where),
 * each with about the share its named twin has.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "integration-common.h"
#include "test-common.h"

/* nm's lines of @program: "ADDRESS TYPE NAME" */
static GStrv
nm_lines (const char *program)
{
  const char *argv[] = { "nm", program, NULL };
  g_autofree char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, NULL));
  return g_strsplit (out, "\n", -1);
}

/* Whether an FDE of @program's .eh_frame covers @address. The C
 * runtime's own functions (crtstuff: deregister_tm_clones,
 * __do_global_dtors_aux, frame_dummy) are built without unwind tables: a
 * stray sample in them, at exit, has no function start to find in a
 * stripped program, and stays at its address. */
static gboolean
fde_covers (const char *program,
            guint64     address)
{
  g_autoptr(GArray) ranges = hp_test_elf_fdes (program);

  for (guint i = 0; i + 1 < ranges->len; i += 2)
    if (address >= g_array_index (ranges, guint64, i) && address < g_array_index (ranges, guint64, i + 1))
      return TRUE;
  return FALSE;
}

/* nm's address of @symbol in @program: its file offset in a PIE whose
 * text is mapped at the offset it has in the file. */
static guint64
symbol_address (const char *program,
                const char *symbol)
{
  g_auto(GStrv) lines = nm_lines (program);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", 3);

      if (g_strv_length (fields) == 3 && strcmp (fields[2], symbol) == 0)
        return g_ascii_strtoull (fields[0], NULL, 16);
    }
  g_error ("%s has no symbol %s", program, symbol);
}

static void
test_stripped (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *program = it_workload_path ("paths-nofp");
  g_autofree char *copy = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *strip = g_find_program_in_path ("strip");
  g_autoptr(ItCapture) cap = NULL;
  const char *leaves[] = { "alpha_leaf", "beta_leaf", "shared_leaf" };
  const GArray *functions;
  guint unnamed_rows = 0;

  if (!it_require_perf_events ())
    return;
  if (strip == NULL || g_find_program_in_path ("nm") == NULL)
    {
      g_test_skip ("binutils (strip, nm) are not installed");
      return;
    }
  dir = it_tmpdir_new ();
  copy = g_build_filename (dir, "paths-stripped", NULL);
  capture = g_build_filename (dir, "stripped.hotpath", NULL);
  {
    g_autofree char *contents = NULL;
    gsize length;
    const char *argv[] = { strip, copy, NULL };
    int status;

    g_assert_true (g_file_get_contents (program, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
    g_assert_cmpint (g_chmod (copy, 0755), ==, 0);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  {
    const char *args[] = { "record", "-o", capture, "--", copy, NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
  }
  cap = it_capture_open (capture);

  /* each leaf is one row at its own start, with its share (60/20/20 by
   * construction, see paths.c) */
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      g_autofree char *name = g_strdup_printf ("paths-stripped+0x%" G_GINT64_MODIFIER "x",
                                               symbol_address (program, leaves[i]));
      double share = it_self_percent (cap->profile, name);

      g_test_message ("%s (%s): %.1f %%", name, leaves[i], share);
      g_assert_cmpfloat (share, >, 10.0);
    }
  {
    g_autofree char *alpha = g_strdup_printf ("paths-stripped+0x%" G_GINT64_MODIFIER "x",
                                              symbol_address (program, "alpha_leaf"));

    it_assert_percent (alpha, it_self_percent (cap->profile, alpha), 60.0, 8.0);
  }

  /* and no row per address: the program has few functions, and every
   * row starts where one of them does, also the callers, whose return
   * addresses lie after their prologue's pushes (libdw's CFI row for such
   * an address starts after the last push, not at the function) */
  functions = hp_profile_get_functions (cap->profile, FALSE);
  for (guint i = 0; i < functions->len; i++)
    {
      const HpFunctionStats *f = &g_array_index (functions, HpFunctionStats, i);
      const char *name = hp_profile_get_function_name (cap->profile, f->function_id);
      g_auto(GStrv) lines = NULL;
      guint64 start;
      gboolean is_start = FALSE;

      if (!g_str_has_prefix (name, "paths-stripped+0x"))
        continue;
      unnamed_rows++;
      start = g_ascii_strtoull (name + strlen ("paths-stripped+0x"), NULL, 16);
      lines = nm_lines (program);
      for (guint k = 0; lines[k] != NULL && !is_start; k++)
        {
          g_auto(GStrv) fields = g_strsplit (lines[k], " ", 3);

          is_start = g_strv_length (fields) == 3 && g_ascii_tolower (fields[1][0]) == 't'
                     && g_ascii_strtoull (fields[0], NULL, 16) == start;
        }
      g_test_message ("%s: %s a function's start", name, is_start ? "is" : "is not");
      if (!is_start && !fde_covers (program, start))
        {
          g_test_message ("%s: no FDE covers it (the C runtime's code without unwind tables)", name);
          continue;
        }
      g_assert_true (is_start);
    }
  g_test_message ("%u rows of unnamed functions in the stripped program", unnamed_rows);
  g_assert_cmpuint (unnamed_rows, <=, 12);
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/record/stripped", test_stripped);
  return g_test_run ();
}
