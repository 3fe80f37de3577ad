/* test-document.c - the document layer (src/document) without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Call paths by their summary key, as the window and `hotpath-cli
 * summary` both read them, and source files found on disk, on the
 * example capture of test-capture-data.h.
 */

#include "config.h"

#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "analysis/hp-block-pool.h"
#include "document/hp-call-path.h"
#include "document/hp-debug-package.h"
#include "document/hp-format.h"
#include "document/hp-loaded-capture.h"
#include "store/hp-capture-writer.h"
#include "document/hp-source-find.h"
#include "test-capture-data.h"
#include "test-common.h"

static void
test_key_names (void)
{
  g_auto(GStrv) names = hp_call_path_key_names ("app\tmain\napp\tfoo\n\n[kernel.kallsyms]\tfoo\n");
  g_auto(GStrv) bare = hp_call_path_key_names ("main\napp\trun");
  g_auto(GStrv) none = hp_call_path_key_names ("");
  const char * const expected[] = { "main", "foo", "foo", NULL };
  const char * const expected_bare[] = { "main", "run", NULL };

  g_assert_cmpstrv (names, expected);
  g_assert_cmpstrv (bare, expected_bare);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

/* The modules of the same steps, one per name (hotpath-cli summary
 * --format json and markdown list both) */
static void
test_key_modules (void)
{
  g_auto(GStrv) modules = hp_call_path_key_modules ("app\tmain\napp\tfoo\n\n[kernel.kallsyms]\tfoo\n");
  g_auto(GStrv) bare = hp_call_path_key_modules ("main\napp\trun");
  g_auto(GStrv) none = hp_call_path_key_modules ("");
  const char * const expected[] = { "app", "app", "[kernel.kallsyms]", NULL };
  const char * const expected_bare[] = { "", "app", NULL };

  g_assert_cmpstrv (modules, expected);
  g_assert_cmpstrv (bare, expected_bare);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

/* A key made from a node finds that node again; one of another program
 * finds nothing */
static void
test_find (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *root = hp_profile_get_top_down (profile);
  const HpCallNode *main_node = g_ptr_array_index (root->children, 0);
  guint n = 0;

  for (guint i = 0; main_node->children != NULL && i < main_node->children->len; i++)
    {
      const HpCallNode *child = g_ptr_array_index (main_node->children, i);
      g_autofree char *key = hp_call_node_path_key (profile, child);
      g_autoptr(GPtrArray) steps = hp_call_path_steps (child);
      g_auto(GStrv) names = hp_call_path_key_names (key);

      g_assert_true (hp_call_path_find (profile, key) == child);
      g_assert_cmpuint (steps->len, ==, 2);
      g_assert_true (g_ptr_array_index (steps, 0) == main_node);
      g_assert_cmpstr (names[0], ==, "main");
      g_assert_cmpstr (names[1], ==, hp_profile_get_function_name (profile, child->function_id));
      n++;
    }
  g_assert_cmpuint (n, >, 0);
  g_assert_null (hp_call_path_find (profile, "other\tmain\n"));
  g_assert_null (hp_call_path_find (profile, "no tab here\n"));
  g_assert_null (hp_call_path_find (profile, ""));
}

/* Every node of a function whose name holds the text, case-folded, in
 * depth-first order: foo is main > foo and main > foo > bar > foo */
static void
test_search (void)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = hp_profile_new (data, NULL);
  const HpCallNode *root = hp_profile_get_top_down (profile);
  g_autofree char *folded = g_utf8_casefold ("FO", -1);
  g_autoptr(GPtrArray) all = hp_call_path_search (profile, root, folded, 100);
  g_autoptr(GPtrArray) first = hp_call_path_search (profile, root, folded, 1);
  g_autoptr(GPtrArray) none = hp_call_path_search (profile, root, "zzz", 100);

  g_assert_cmpuint (all->len, ==, 2);
  for (guint i = 0; i < all->len; i++)
    {
      const HpCallNode *node = g_ptr_array_index (all, i);
      g_autoptr(GPtrArray) steps = hp_call_path_steps (node);

      g_assert_cmpstr (hp_profile_get_function_name (profile, node->function_id), ==, "foo");
      g_assert_cmpuint (steps->len, ==, i == 0 ? 2 : 4);
    }
  g_assert_cmpuint (first->len, ==, 1);
  g_assert_true (g_ptr_array_index (first, 0) == g_ptr_array_index (all, 0));
  g_assert_cmpuint (none->len, ==, 0);
}

/* A deep path keeps its first three and last eight steps */
static void
test_readable (void)
{
  g_autoptr(GString) key = g_string_new (NULL);
  g_autofree char *short_path = hp_call_path_readable ("app\tmain\napp\trun\n");
  g_autofree char *deep = NULL;

  for (guint i = 0; i < 20; i++)
    g_string_append_printf (key, "app\tf%u\n", i);
  deep = hp_call_path_readable (key->str);
  g_assert_cmpstr (short_path, ==, "main → run");
  g_assert_cmpstr (deep, ==, "f0 → f1 → f2 → … → f12 → f13 → f14 → f15 → f16 → f17 → f18 → f19");

  /* a recursion is one step, as in the breadcrumbs: the ends are runs */
  g_string_assign (key, "app\tmain\n");
  for (guint i = 0; i < 200; i++)
    g_string_append (key, "app\trecurse\n");
  g_string_append (key, "app\tleaf\n");
  g_clear_pointer (&deep, g_free);
  deep = hp_call_path_readable (key->str);
  g_assert_cmpstr (deep, ==, "main → recurse ×200 → leaf");
}

static void
test_source_find (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-document-XXXXXX", &error);
  g_autofree char *sub = g_build_filename (dir, "src", "lib", NULL);
  g_autofree char *file = g_build_filename (sub, "parse.c", NULL);
  g_autofree char *other = g_build_filename (dir, "elsewhere", NULL);
  const char *dirs[] = { other, dir, NULL };
  g_autoptr(GPtrArray) looked_in = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *found = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *missing = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0755), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (other, 0755), ==, 0);
  g_file_set_contents (file, "int x;\n", -1, &error);
  g_assert_no_error (error);

  /* recorded on another machine: a shorter tail is found under dir */
  found = hp_source_find_file ("/home/builder/project/src/lib/parse.c", dirs, looked_in, NULL, NULL);
  g_assert_cmpstr (found, ==, file);
  g_assert_cmpuint (looked_in->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (looked_in, 0), ==, other);
  /* an absolute path that exists is itself */
  absolute = hp_source_find_file (file, NULL, NULL, NULL, NULL);
  g_assert_cmpstr (absolute, ==, file);
  missing = hp_source_find_file ("/nowhere/lost.c", dirs, NULL, NULL, &error);
  g_assert_null (missing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  hp_test_remove_tree (dir);
}

/* A capture may name anything up to 64 MiB: a name no file can have is
 * refused at once (640 000 "a/" took 20 s, tail after tail), and a search
 * stops when cancelled */
static void
test_source_find_long (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-document-XXXXXX", &error);
  const char *dirs[] = { dir, NULL };
  g_autoptr(GString) name = g_string_new (NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *found = NULL;
  g_autofree char *file = g_build_filename (dir, "x.c", NULL);

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (file, "int x;\n", -1, NULL));
  /* 1 MB */
  while (name->len < 1024 * 1024)
    g_string_append (name, "a/");
  g_string_append (name, "x.c");
  found = hp_source_find_file (name->str, dirs, NULL, NULL, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_nonnull (strstr (error->message, "bytes long, longer than a file name can be"));
  /* its start only */
  g_assert_cmpuint (strlen (error->message), <, 300);
  g_clear_error (&error);

  /* short, but deeper than any source tree */
  g_string_truncate (name, 0);
  for (guint i = 0; i < 300; i++)
    g_string_append (name, "a/");
  g_string_append (name, "x.c");
  found = hp_source_find_file (name->str, dirs, NULL, NULL, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME);
  g_assert_nonnull (strstr (error->message, "more than 256 folders"));
  g_clear_error (&error);
  /* as deep as a source tree may be, it is found by its tail */
  g_string_truncate (name, 0);
  for (guint i = 0; i < 255; i++)
    g_string_append (name, "a/");
  g_string_append (name, "x.c");
  found = hp_source_find_file (name->str, dirs, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, file);
  g_clear_pointer (&found, g_free);

  g_cancellable_cancel (cancellable);
  found = hp_source_find_file ("src/x.c", dirs, NULL, cancellable, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  hp_test_remove_tree (dir);
}

/* What compilers take as source is named so in any case: .C is C++,
 * .F90 Fortran to preprocess; C++ modules, HIP and ISPC too */
static void
test_source_find_extensions (void)
{
  static const char *const code[] = {
    "a.C", "a.H", "a.F", "a.FOR", "a.F90", "a.F95", "a.F03", "a.F08", "a.cppm", "a.ixx",
    "a.mpp", "a.hip", "a.ispc", "a.s", "a.S", "a.CPP",
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-document-XXXXXX", &error);
  const char *dirs[] = { dir, NULL };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (code); i++)
    if (!hp_source_is_code_name (code[i]))
      g_error ("%s is not taken as source code", code[i]);
  g_assert_false (hp_source_is_code_name ("id_rsa"));
  g_assert_false (hp_source_is_code_name ("a.CONF"));

  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "widget.C" : "solver.F90";
      g_autofree char *file = g_build_filename (dir, name, NULL);
      g_autofree char *recorded = g_build_filename ("/home/builder", name, NULL);
      g_autofree char *found = NULL;
      g_autofree char *absolute = NULL;

      g_assert_true (g_file_set_contents (file, "int x;\n", -1, NULL));
      found = hp_source_find_file (recorded, dirs, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (found, ==, file);
      absolute = hp_source_find_file (file, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (absolute, ==, file);
    }

  hp_test_remove_tree (dir);
}

/* A hostile capture names any file as a function's source: the source
 * pane, the comparison and Suggest read only what is plausibly the
 * program's source code. */
static void
refused (const char         *file,
         const char * const *dirs,
         const char         *why)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *found = hp_source_find_file (file, dirs, NULL, NULL, &error);

  if (found != NULL)
    g_error ("%s: %s was found, and would be shown", file, found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  if (strstr (error->message, why) == NULL)
    g_error ("%s: “%s” does not say “%s”", file, error->message, why);
}

static void
test_source_find_hostile (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-document-XXXXXX", &error);
  g_autofree char *src = g_build_filename (dir, "checkout", "src", NULL);
  g_autofree char *code = g_build_filename (src, "main.c", NULL);
  g_autofree char *secret = g_build_filename (dir, "id_rsa", NULL);
  g_autofree char *secret_c = g_build_filename (dir, "secret.c", NULL);
  g_autofree char *link = g_build_filename (src, "shadow.c", NULL);
  g_autofree char *fifo = g_build_filename (src, "pipe.c", NULL);
  g_autofree char *checkout = g_build_filename (dir, "checkout", NULL);
  g_autofree char *found = NULL;
  g_autofree char *inside = NULL;
  g_autofree char *below = NULL;
  const char *dirs[] = { checkout, NULL };
  const char *src_dirs[] = { src, NULL };

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (src, 0755), ==, 0);
  g_assert_true (g_file_set_contents (code, "int main;\n", -1, NULL));
  g_assert_true (g_file_set_contents (secret, "-----BEGIN OPENSSH PRIVATE KEY-----\n", -1, NULL));
  g_assert_true (g_file_set_contents (secret_c, "int secret;\n", -1, NULL));
  g_assert_cmpint (symlink (secret, link), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  /* an absolute file that is not source code, as itself or behind a link */
  refused (secret, NULL, "is not named as source code");
  refused (link, NULL, "is not named as source code");
  refused ("/etc/passwd", NULL, "is not named as source code");
  /* not a regular file, though named like code (reading a FIFO would hang) */
  refused (fifo, NULL, "is not a regular file");
  /* a relative name whose ".." leads out of the source folder */
  refused ("../secret.c", dirs, "leads out of the source folder");
  refused ("../../secret.c", src_dirs, "leads out of the source folder");
  refused ("src/../../secret.c", dirs, "leads out of the source folder");

  /* ".." that stays inside, and source code found by its tail, are shown */
  inside = hp_source_find_file ("src/../src/main.c", dirs, NULL, NULL, NULL);
  g_assert_cmpstr (inside, ==, code);
  below = hp_source_find_file ("/x/../../checkout/src/main.c", dirs, NULL, NULL, NULL);
  g_assert_cmpstr (below, ==, code);
  /* a refused candidate is passed over: a later one is found */
  g_clear_pointer (&secret_c, g_free);
  secret_c = g_build_filename (checkout, "secret.c", NULL);
  g_assert_true (g_file_set_contents (secret_c, "int mine;\n", -1, NULL));
  found = hp_source_find_file ("../secret.c", dirs, NULL, NULL, NULL);
  g_assert_cmpstr (found, ==, secret_c);

  hp_test_remove_tree (dir);
}

/* The modules the report and the overview name: the first always, then
 * those at 0.1 % of the samples or more, three at the most */
static void
test_unsymbolized_main_modules (void)
{
  g_autoptr(GArray) modules = g_array_new (FALSE, FALSE, sizeof (HpUnsymbolized));
  const HpUnsymbolized few[] = { { "a.so", 5 }, { "b.so", 1 } };
  const HpUnsymbolized many[] = { { "a.so", 500 }, { "b.so", 20 }, { "c.so", 10 }, { "d.so", 10 } };

  g_assert_cmpuint (hp_unsymbolized_main_modules (NULL, 100), ==, 0);
  g_assert_cmpuint (hp_unsymbolized_main_modules (modules, 100), ==, 0);
  /* 5 of 10000 is under 0.1 %, but the first is named all the same */
  g_array_append_vals (modules, few, G_N_ELEMENTS (few));
  g_assert_cmpuint (hp_unsymbolized_main_modules (modules, 10000), ==, 1);
  /* 1 of 1000 is 0.1 % exactly */
  g_assert_cmpuint (hp_unsymbolized_main_modules (modules, 1000), ==, 2);
  g_array_set_size (modules, 0);
  g_array_append_vals (modules, many, G_N_ELEMENTS (many));
  g_assert_cmpuint (hp_unsymbolized_main_modules (modules, 10000), ==, HP_DEBUG_PACKAGES_MAX_MODULES);
  g_assert_cmpuint (hp_unsymbolized_main_modules (modules, 20000), ==, 2);
}

/* The package of a path, asked of dpkg once and then from the cache:
 * the same answer both times, also when dpkg knows no package */
static void
test_debian_package_of (void)
{
  g_autofree char *dpkg_query = g_find_program_in_path ("dpkg-query");

  if (dpkg_query == NULL || !g_file_test ("/usr/bin/dpkg", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("not a Debian system");
      return;
    }
  for (guint round = 0; round < 2; round++)
    {
      g_autofree char *dpkg = hp_debian_package_of ("/usr/bin/dpkg");
      g_autofree char *unknown = hp_debian_package_of ("/nonexistent/hotpath-test.so");

      g_assert_cmpstr (dpkg, ==, "dpkg");
      g_assert_null (unknown);
    }
  /* Merged /usr: the kernel maps /usr/bin/gzip where dpkg knows
   * /bin/gzip (Debian 12's gzip, sed, dash, ...): the package is found
   * under either name. Checked for every program that dpkg knows in /bin
   * only, as dpkg-query itself says. */
  {
    const char *programs[] = { "gzip", "sed", "dash", "bash", "grep", "tar" };
    g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *known = NULL;
    guint checked = 0;

    /* dpkg-query, asked once (each run costs 0.3 s of CPU), says which
     * of them dpkg knows under /usr/bin too */
    g_ptr_array_add (argv, g_strdup ("dpkg-query"));
    g_ptr_array_add (argv, g_strdup ("-S"));
    for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
      g_ptr_array_add (argv, g_strconcat ("/usr/bin/", programs[i], NULL));
    g_ptr_array_add (argv, NULL);
    g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                                 G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                                 NULL, NULL, &known, NULL, NULL, NULL));
    for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
      {
        g_autofree char *in_bin = g_strconcat ("/bin/", programs[i], NULL);
        g_autofree char *in_usr = g_strconcat ("/usr/bin/", programs[i], NULL);
        g_autofree char *line_end = g_strconcat (": ", in_usr, "\n", NULL);
        g_autofree char *expected = NULL;
        g_autofree char *found = NULL;

        /* dpkg knows only /bin/NAME */
        if (strstr (known != NULL ? known : "", line_end) != NULL || !g_file_test (in_usr, G_FILE_TEST_EXISTS))
          continue;
        expected = hp_debian_package_of (in_bin);
        if (expected == NULL)
          continue;
        found = hp_debian_package_of (in_usr);
        g_assert_cmpstr (found, ==, expected);
        checked++;
      }
    if (checked == 0)
      g_test_message ("no program of /bin is known to dpkg under /bin only: merged /usr not checked");
  }

  /* not a path: never looked up */
  g_assert_null (hp_debian_package_of ("-S"));
  g_assert_null (hp_debian_package_of (NULL));
}

/* The packages of the modules named, read from dpkg's file lists as
 * dpkg-query -S would answer: a file list of the test's own
 * ($DPKG_ADMINDIR/info) with merged /usr known by its /lib name, a path
 * in the lists of two packages (no one package), a path that is only the
 * start of a listed one, a list of another architecture, and files of
 * dpkg's that are not lists. Asked once: the second report is answered
 * from the cache, even after the lists are gone. */
static void
test_debug_packages_lists (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("hp-dpkg-XXXXXX", &error);
  g_autofree char *info = NULL;
  g_autofree char *old_admin = g_strdup (g_getenv ("DPKG_ADMINDIR"));
  g_autofree char *packages = NULL;
  g_autofree char *again = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(GArray) modules = g_array_new (FALSE, TRUE, sizeof (HpCaptureModule));
  g_autoptr(GArray) unsymbolized = g_array_new (FALSE, FALSE, sizeof (HpUnsymbolized));
  HpCaptureModule module = { 0, };
  HpCaptureData data = { 0, };
  const struct { const char *path, *name; guint64 samples; } files[] = {
    { "/opt/hp-test/bin/app", "app", 600 },
    { "/usr/lib/hp-test/libmerged.so.1", "libmerged.so.1", 300 },
    { "/opt/hp-test/lib/libshared.so", "libshared.so", 50 },
  };
  const struct { const char *file, *text; } lists[] = {
    { "hp-app:amd64.list", "/.\n/opt\n/opt/hp-test\n/opt/hp-test/bin\n/opt/hp-test/bin/app\n" },
    /* its md5sums name the file too, but are not a list */
    { "hp-app:amd64.md5sums", "0123  opt/hp-test/bin/app\n/opt/hp-test/lib/libshared.so\n" },
    { "libmerged1.list", "/.\n/lib/hp-test\n/lib/hp-test/libmerged.so.1" },  /* no last newline */
    { "liba.list", "/opt/hp-test/lib/libshared.so\n" },
    { "libb:i386.list", "/.\n/opt/hp-test/lib/libshared.so\n" },
    { "hp-prefix.list", "/.\n/opt/hp-test/bin/app-helper\n/x/opt/hp-test/bin/app\n" },
  };

  g_assert_no_error (error);
  info = g_build_filename (dir, "info", NULL);
  g_assert_cmpint (g_mkdir (info, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_autofree char *file = g_build_filename (info, lists[i].file, NULL);

      g_assert_true (g_file_set_contents (file, lists[i].text, -1, &error));
      g_assert_no_error (error);
    }

  g_array_set_size (modules, 1);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      HpUnsymbolized u = { files[i].name, files[i].samples };

      module.path = (char *) files[i].path;
      module.name = (char *) files[i].name;
      g_array_append_val (modules, module);
      g_array_append_val (unsymbolized, u);
    }
  data.modules = modules;

  g_setenv ("DPKG_ADMINDIR", dir, TRUE);
  packages = hp_debug_packages_for (&data, unsymbolized, 1000);
  prefix = hp_debian_package_of ("/opt/hp-test/bin/ap");
  hp_test_remove_tree (dir);
  again = hp_debug_packages_for (&data, unsymbolized, 1000);
  if (old_admin != NULL)
    g_setenv ("DPKG_ADMINDIR", old_admin, TRUE);
  else
    g_unsetenv ("DPKG_ADMINDIR");

  g_assert_cmpstr (packages, ==, "hp-app-dbgsym, libmerged1-dbgsym");
  g_assert_null (prefix);
  g_assert_cmpstr (again, ==, packages);
}


/* What the shares count, as the captions and the event selector name it: an
 * import whose event is "samples" (folded stacks, pprof) reads "samples",
 * never "samples samples" or "samples: samples". */
static void
test_format_bare_samples (void)
{
  HpMeasure bare = { .event = (char *) "samples", .unit = (char *) "samples" };
  HpMeasure clock = { .event = (char *) "cpu-clock", .unit = (char *) "ns" };
  HpMeasure faults = { .event = (char *) "page-faults", .unit = (char *) "page faults", .by_weight = TRUE };
  g_autofree char *bare_name = hp_format_measure_name (&bare);
  g_autofree char *bare_label = hp_format_measure_label (&bare);
  g_autofree char *clock_name = hp_format_measure_name (&clock);
  g_autofree char *clock_label = hp_format_measure_label (&clock);
  g_autofree char *faults_name = hp_format_measure_name (&faults);
  g_autofree char *faults_label = hp_format_measure_label (&faults);

  g_assert_cmpstr (bare_name, ==, "samples");
  g_assert_cmpstr (bare_label, ==, "samples");
  g_assert_cmpstr (clock_name, ==, "cpu-clock samples");
  g_assert_cmpstr (clock_label, ==, "cpu-clock: samples");
  g_assert_cmpstr (faults_name, ==, "page faults");
  g_assert_cmpstr (faults_label, ==, "page-faults: page faults");
}
/* Numbers as the window and its lists write them, in the C locale of
 * this test (no grouping of thousands) */
static void
test_format (void)
{
  const struct { guint64 part, whole; const char *percent, *share; } shares[] = {
    { 1, 3, "33.3 %", "33.3 % (1 sample)" },
    { 416, 1000, "41.6 %", "41.6 % (416 samples)" },
    { 1, 100000, "<0.1 %", "<0.1 % (1 sample)" },
    { 0, 5, "", "no samples" },
    { 3, 0, "", "" },
  };
  const struct { guint64 ns; const char *text; } durations[] = {
    { 500000000, "500 ms" },
    { 2470000000, "2.47 s" },
    { G_GUINT64_CONSTANT (63000000000), "1 min 3 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shares); i++)
    {
      g_autofree char *percent = hp_format_percent (shares[i].part, shares[i].whole);
      g_autofree char *share = NULL;

      g_assert_cmpstr (percent, ==, shares[i].percent);
      if (shares[i].whole == 0)
        continue;
      share = hp_format_share (shares[i].part, shares[i].whole);
      g_assert_cmpstr (share, ==, shares[i].share);
    }
  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autofree char *text = hp_format_duration (durations[i].ns);

      g_assert_cmpstr (text, ==, durations[i].text);
    }
  {
    g_autofree char *count = hp_format_count (G_GUINT64_CONSTANT (12345678901));

    g_assert_cmpstr (count, ==, "12345678901");
  }
}

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The profile of the capture that tests/unit/test-document.c writes at
 * @path, or of its thread @tid alone. */
static HpLoadedProfile *
load_or_filter (const char      *path,
                HpLoadedCapture *capture,
                gint32           tid)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  HpLoadedProfile *profile;

  if (capture == NULL)
    {
      hp_loaded_capture_load_async (path, NULL, NULL, NULL, on_done, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      profile = hp_loaded_capture_load_finish (result, &error);
    }
  else
    {
      g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
      HpProfileFilter filter = { .tids = tids };

      g_hash_table_add (tids, GINT_TO_POINTER (tid));
      hp_loaded_profile_build_filtered_async (capture, &filter, NULL, NULL, on_done, &result);
      while (result == NULL)
        g_main_context_iteration (NULL, TRUE);
      profile = hp_loaded_profile_build_finish (result, &error);
    }
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* Whether the pool keeps nothing, once the workers that hold the
 * capture have let it go (a GTask's thread drops its reference a moment
 * after its result is handed over). */
static gboolean
pool_emptied (void)
{
  for (guint i = 0; i < 1000 && hp_block_pool_get_kept_size () != 0; i++)
    g_usleep (10000);
  return hp_block_pool_get_kept_size () == 0;
}

/* While a capture is open, the blocks of its replaced profiles are kept
 * for the next filter (hp-block-pool.c); once it is closed, the pool
 * gives them back and keeps nothing, not even the blocks of the last
 * profile, which a worker frees afterwards. 40 000 stacks make the
 * profile's per-stack arrays big enough for the pool. */
static void
test_closed_capture_trims_pool (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-pool-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "pool.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w = hp_capture_writer_new (path, &error);
  HpLoadedProfile *whole, *one;
  gint64 module;
  gsize size;
  gpointer block;
  guint reuses;

  g_assert_no_error (error);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  hp_capture_writer_set_thread (w, 2, 1, "worker");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      gint64 frame = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, NULL, 0),
                                                     NULL, 0, FALSE, i);
      gint64 root = hp_capture_writer_intern_stack (w, 0, frame);

      for (guint j = 0; j < 200; j++)
        {
          g_autofree char *callee = g_strdup_printf ("g%u", j);
          gint64 leaf = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, callee, module, NULL, 0),
                                                        NULL, 0, FALSE, 1000 + j);

          hp_capture_writer_add_sample (w, (i * 200 + j) * 1000, 1 + j % 2, 0,
                                        hp_capture_writer_intern_stack (w, root, leaf), 1);
        }
    }
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  hp_capture_writer_free (w);

  hp_block_pool_trim ();
  whole = load_or_filter (path, NULL, 0);
  g_assert_cmpuint (hp_profile_get_n_samples (whole->profile), ==, 40000);
  /* a filter builds from the blocks of the profiles before it */
  one = load_or_filter (NULL, whole->capture, 2);
  g_assert_cmpuint (hp_profile_get_n_samples (one->profile), ==, 20000);
  block = hp_block_alloc (4 * HP_BLOCK_POOL_MIN_SIZE, &size);
  memset (block, 1, size);
  hp_block_free (block, size);
  g_assert_cmpuint (hp_block_pool_get_kept_size (), >=, size);
  reuses = hp_block_pool_get_reuses ();
  hp_loaded_profile_unref (one);
  one = load_or_filter (NULL, whole->capture, 1);
  g_assert_cmpuint (hp_profile_get_n_samples (one->profile), ==, 20000);
  g_assert_cmpuint (hp_block_pool_get_reuses (), >, reuses);

  /* closed: the last references go */
  block = hp_block_alloc (4 * HP_BLOCK_POOL_MIN_SIZE, &size);
  hp_loaded_profile_unref (one);
  hp_loaded_profile_unref (whole);
  g_assert_true (pool_emptied ());
  /* what is freed afterwards goes back at once */
  hp_block_free (block, size);
  g_assert_cmpuint (hp_block_pool_get_kept_size (), ==, 0);

  /* a capture open again keeps blocks again */
  whole = load_or_filter (path, NULL, 0);
  block = hp_block_alloc (4 * HP_BLOCK_POOL_MIN_SIZE, &size);
  hp_block_free (block, size);
  g_assert_cmpuint (hp_block_pool_get_kept_size (), >=, size);
  hp_loaded_profile_unref (whole);
  g_assert_true (pool_emptied ());

  hp_test_remove_tree (dir);
}

/* A stack 400 000 calls deep, which nothing in a capture forbids: the
 * loader's thread (8 MiB of stack) found each function's hottest node by
 * recursion, once per level, and crashed. */
static void
test_deep_stack (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-deep-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "deep.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  HpCaptureWriter *w = hp_capture_writer_new (path, &error);
  HpLoadedProfile *profile;
  gint64 module, frame, stack = 0;

  g_assert_no_error (error);
  module = hp_capture_writer_intern_module (w, "/usr/bin/app", NULL, FALSE);
  hp_capture_writer_set_process (w, 1, "app");
  hp_capture_writer_set_thread (w, 1, 1, "app");
  frame = hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "recurse", module, NULL, 0),
                                          NULL, 0, FALSE, 0x10);
  for (guint i = 0; i < 400000; i++)
    stack = hp_capture_writer_intern_stack (w, stack, frame);
  hp_capture_writer_add_sample (w, 1000, 1, 0, stack, 1);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
  hp_capture_writer_free (w);

  profile = load_or_filter (path, NULL, 0);
  g_assert_cmpuint (hp_profile_get_n_samples (profile->profile), ==, 1);
  hp_loaded_profile_unref (profile);
  hp_test_remove_tree (dir);
}

/* With two events that make a ratio, a filter's profile builds the trees
 * shown and no more: the top-down tree of the view and of both events;
 * the bottom-up ones when that tree is asked for. A view that counts one
 * of the events by weight is that event's tree (three trees became six
 * before, whichever was shown). The overview's "of N" is summed here, in
 * the worker. */
static void
test_ratio_builds_what_is_shown (void)
{
  g_autofree char *dir = g_dir_make_tmp ("hotpath-ratio-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "events.hotpath", NULL);
  HpTestEventsCapture how = { 0 };
  HpLoadedProfile *whole, *clock, *faults;
  g_autoptr(GHashTable) tids = g_hash_table_new (NULL, NULL);
  HpProfileFilter filter = { .tids = tids };
  HpRatioMap *map;
  guint64 num = 0, den = 0;

  hp_test_make_events_capture (path, &how);
  whole = load_or_filter (path, NULL, 0);
  g_assert_cmpint (whole->ratio.kind, ==, HP_RATIO_PER_MS);
  g_assert_cmpuint (whole->capture->n_samples, ==, 600);
  g_assert_cmpuint (whole->capture_amount, ==, 600);

  g_hash_table_add (tids, GINT_TO_POINTER (101));
  clock = hp_loaded_profile_build (whole->capture, &filter, NULL);
  g_assert_cmpuint (clock->capture_amount, ==, 600);
  g_assert_nonnull (clock->ratio_top_down);
  g_assert_true (clock->ratio_profiles[0] != clock->profile);
  g_assert_true (clock->ratio_profiles[1] != clock->profile);
  g_assert_false (hp_profile_has_bottom_up (clock->profile));
  g_assert_false (hp_profile_has_bottom_up (clock->ratio_profiles[0]));
  g_assert_false (hp_profile_has_bottom_up (clock->ratio_profiles[1]));
  g_assert_null (clock->ratio_bottom_up);
  /* the bottom-up tree shown: its map, with the events' trees */
  map = hp_loaded_profile_get_ratio_map (clock, TRUE);
  g_assert_nonnull (map);
  g_assert_true (map == hp_loaded_profile_get_ratio_map (clock, TRUE));
  g_assert_true (hp_profile_has_bottom_up (clock->ratio_profiles[0]));
  g_assert_true (hp_ratio_map_lookup (map, hp_profile_get_bottom_up (clock->profile), &num, &den));
  g_assert_cmpuint (num, ==, 2100);
  g_assert_cmpuint (den, ==, 600 * G_GUINT64_CONSTANT (1000000));

  /* page faults by weight: the numerator's tree is the view's */
  filter.event = "page-faults";
  faults = hp_loaded_profile_build (whole->capture, &filter, NULL);
  g_assert_cmpuint (faults->capture_amount, ==, 2100);
  g_assert_true (faults->ratio_profiles[0] == faults->profile);
  g_assert_true (faults->ratio_profiles[1] != faults->profile);
  g_assert_true (hp_ratio_map_lookup (faults->ratio_top_down, hp_profile_get_top_down (faults->profile), &num, &den));
  g_assert_cmpuint (num, ==, 2100);
  g_assert_cmpuint (den, ==, 600 * G_GUINT64_CONSTANT (1000000));
  g_assert_true (hp_ratio_map_lookup (hp_loaded_profile_get_ratio_map (faults, TRUE),
                                      hp_profile_get_bottom_up (faults->profile), &num, &den));
  g_assert_cmpuint (num, ==, 2100);

  hp_loaded_profile_unref (faults);
  hp_loaded_profile_unref (clock);
  hp_loaded_profile_unref (whole);
  hp_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document/call-path/key-names", test_key_names);
  g_test_add_func ("/document/call-path/key-modules", test_key_modules);
  g_test_add_func ("/document/call-path/find", test_find);
  g_test_add_func ("/document/call-path/readable", test_readable);
  g_test_add_func ("/document/call-path/search", test_search);
  g_test_add_func ("/document/source-find", test_source_find);
  g_test_add_func ("/document/source-find/hostile", test_source_find_hostile);
  g_test_add_func ("/document/source-find/extensions", test_source_find_extensions);
  g_test_add_func ("/document/source-find/long", test_source_find_long);
  g_test_add_func ("/document/debug-package/main-modules", test_unsymbolized_main_modules);
  g_test_add_func ("/document/debug-package/debian-package-of", test_debian_package_of);
  g_test_add_func ("/document/debug-package/lists", test_debug_packages_lists);
  g_test_add_func ("/document/format", test_format);
  g_test_add_func ("/document/format/bare-samples", test_format_bare_samples);
  g_test_add_func ("/document/closed-capture-trims-pool", test_closed_capture_trims_pool);
  g_test_add_func ("/document/deep-stack", test_deep_stack);
  g_test_add_func ("/document/ratio-builds-what-is-shown", test_ratio_builds_what_is_shown);
  return g_test_run ();
}
