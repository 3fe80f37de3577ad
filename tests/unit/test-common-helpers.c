/* test-common-helpers.c - the helpers of tests/common, tested
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every suite cleans up with hp_test_remove_tree, and tests put links to
 * files outside their folder in it (/bin/sh, the build's programs): the
 * helper must remove the links and leave what they point to as it was.
 */
#define G_LOG_DOMAIN "hp-test"

#include "config.h"

#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "test-common.h"

static guint
mode_of (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_lstat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

static void
test_remove_tree (void)
{
  g_autofree char *outside = g_dir_make_tmp ("hotpath-outside-XXXXXX", NULL);
  g_autofree char *tree = g_dir_make_tmp ("hotpath-tree-XXXXXX", NULL);
  g_autofree char *program = g_build_filename (outside, "program", NULL);
  g_autofree char *folder = g_build_filename (outside, "folder", NULL);
  g_autofree char *sub = g_build_filename (tree, "read-only", NULL);
  g_autofree char *file = g_build_filename (sub, "file", NULL);
  g_autofree char *to_program = g_build_filename (tree, "to-program", NULL);
  g_autofree char *to_folder = g_build_filename (sub, "to-folder", NULL);

  g_assert_true (g_file_set_contents (program, "#!/bin/sh\n", -1, NULL));
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  g_assert_cmpint (g_chmod (file, 0400), ==, 0);
  g_assert_cmpint (symlink (program, to_program), ==, 0);
  g_assert_cmpint (symlink (folder, to_folder), ==, 0);
  g_assert_cmpint (g_chmod (sub, 0555), ==, 0);

  hp_test_remove_tree (tree);

  g_assert_false (g_file_test (tree, G_FILE_TEST_EXISTS));
  /* What the links pointed to is untouched: not removed, not re-moded. */
  g_assert_cmpuint (mode_of (program), ==, 0755);
  g_assert_cmpuint (mode_of (folder), ==, 0700);

  hp_test_remove_tree (outside);
  g_assert_false (g_file_test (outside, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/test-common/remove-tree", test_remove_tree);

  return g_test_run ();
}
