/* test-file-locator.c - where the file of a recorded mapping is searched
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The symbolizer and the unwinder find files through HpFileLocator, so
 * its search order is what --sysroot and --debug-dir mean to both. The
 * expected lists are written out here from the documented order.
 */
#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <glib/gstdio.h>

#include "symbols/hp-file-locator.h"
#include "test-common.h"

static void
assert_files (GPtrArray          *files,
              const char * const *expected)
{
  guint n = g_strv_length ((char **) expected);

  for (guint i = 0; i < MIN (files->len, n); i++)
    g_assert_cmpstr (g_ptr_array_index (files, i), ==, expected[i]);
  g_assert_cmpuint (files->len, ==, n);
}

static void
test_no_build_id (void)
{
  g_autoptr(HpFileLocator) locator = hp_file_locator_new ();
  g_autoptr(GPtrArray) plain = NULL;
  g_autoptr(GPtrArray) short_id = NULL;
  g_autoptr(GPtrArray) special = NULL;
  g_autoptr(GPtrArray) rooted = NULL;
  const char *path_only[] = { "/usr/bin/demo", NULL };
  const char *none[] = { NULL };
  const char *under_root[] = { "/srv/root/usr/bin/demo", NULL };

  /* Without a build id only the path itself, as recorded; a name that is
   * no path ([vdso], [heap]) gives nothing to open. */
  plain = hp_file_locator_find (locator, "/usr/bin/demo", NULL, HP_FILE_LOCATE_DEBUG_INFO);
  assert_files (plain, path_only);
  short_id = hp_file_locator_find (locator, "/usr/bin/demo", "ab", HP_FILE_LOCATE_CODE);
  assert_files (short_id, path_only);
  special = hp_file_locator_find (locator, "[vdso]", NULL, HP_FILE_LOCATE_CODE);
  assert_files (special, none);

  /* "/" is no sysroot; a sysroot is used in canonical form. */
  hp_file_locator_set_sysroot (locator, "/");
  g_assert_null (hp_file_locator_get_sysroot (locator));
  hp_file_locator_set_sysroot (locator, "/srv/other/../root/");
  g_assert_cmpstr (hp_file_locator_get_sysroot (locator), ==, "/srv/root");
  rooted = hp_file_locator_find (locator, "/usr/bin/demo", NULL, HP_FILE_LOCATE_CODE);
  assert_files (rooted, under_root);
}

static void
test_search_order (void)
{
  g_autoptr(HpFileLocator) locator = hp_file_locator_new ();
  g_autofree char *tmp = g_dir_make_tmp ("hotpath-locator-XXXXXX", NULL);
  g_autofree char *one = g_build_filename (tmp, "one", NULL);
  g_autofree char *two = g_build_filename (tmp, "two", NULL);
  g_autofree char *root = g_build_filename (tmp, "root", NULL);
  g_autofree char *cache_dir = g_build_filename (two, ".build-id", "ab", "cdef01", NULL);
  g_autofree char *home = g_build_filename (g_get_home_dir (), ".debug", ".build-id", "ab", "cdef01", NULL);
  g_autofree char *home_debug = g_strconcat (home, ".debug", NULL);
  g_autofree char *one_file = g_build_filename (one, ".build-id", "ab", "cdef01", NULL);
  g_autofree char *one_debug = g_strconcat (one_file, ".debug", NULL);
  g_autofree char *two_elf = g_build_filename (cache_dir, "elf", NULL);
  g_autofree char *two_debug = g_strconcat (cache_dir, ".debug", NULL);
  g_autofree char *sys = g_build_filename (root, "usr", "lib", "debug", ".build-id", "ab", "cdef01", NULL);
  g_autofree char *sys_debug = g_strconcat (sys, ".debug", NULL);
  g_autofree char *recorded = g_build_filename (root, "usr", "bin", "demo", NULL);
  g_autofree char *sys_dir = g_build_filename (root, "usr", "lib", "debug", NULL);
  g_autofree char *home_dir = g_build_filename (g_get_home_dir (), ".debug", NULL);
  g_autofree char *debuginfo_expected = NULL;
  g_autofree char *debuginfo = NULL;
  g_autoptr(GPtrArray) code = NULL;
  g_autoptr(GPtrArray) debug = NULL;
  g_autoptr(GPtrArray) dirs = NULL;

  /* In "two", perf's cache layout: .build-id/xx/rest is a directory that
   * holds the copy as "elf". */
  g_assert_cmpint (g_mkdir_with_parents (cache_dir, 0755), ==, 0);

  hp_file_locator_add_debug_dir (locator, one);
  hp_file_locator_add_debug_dir (locator, two);
  hp_file_locator_set_sysroot (locator, root);

  {
    const char *dirs_expected[] = { one, two, home_dir, sys_dir, NULL };

    dirs = hp_file_locator_get_build_id_dirs (locator);
    assert_files (dirs, dirs_expected);
  }

  /* Copies by build id, in the order of the directories, before the
   * recorded path under the sysroot; the code search leaves out the
   * .debug files, which hold no code. */
  {
    const char *expected[] = { one_file, two_elf, home, sys, recorded, NULL };

    code = hp_file_locator_find (locator, "/usr/bin/demo", "abcdef01", HP_FILE_LOCATE_CODE);
    assert_files (code, expected);
  }
  {
    const char *expected[] = { one_file, one_debug, two_elf, two_debug, home, home_debug,
                               sys, sys_debug, recorded, NULL };

    debug = hp_file_locator_find (locator, "/usr/bin/demo", "abcdef01", HP_FILE_LOCATE_DEBUG_INFO);
    assert_files (debug, expected);
  }

  /* libdwfl's search for separate debug files: the same directories, and
   * the host's own last. */
  debuginfo_expected = g_strdup_printf ("-:.debug:%s:%s:%s:/usr/lib/debug", one, two, sys_dir);
  debuginfo = hp_file_locator_get_debuginfo_path (locator);
  g_assert_cmpstr (debuginfo, ==, debuginfo_expected);

  hp_test_remove_tree (tmp);
}

static void
test_build_id_hex (void)
{
  static const guint8 id[] = { 0x00, 0x0f, 0xa0, 0xff };
  g_autofree char *hex = hp_build_id_to_hex (id, sizeof id);
  g_autofree char *empty = hp_build_id_to_hex (NULL, 0);

  g_assert_cmpstr (hex, ==, "000fa0ff");
  g_assert_cmpstr (empty, ==, "");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file-locator/no-build-id", test_no_build_id);
  g_test_add_func ("/file-locator/search-order", test_search_order);
  g_test_add_func ("/file-locator/build-id-hex", test_build_id_hex);

  return g_test_run ();
}
