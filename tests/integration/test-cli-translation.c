/* test-cli-translation.c - hotpath-cli speaks the user's language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * With LANGUAGE=de, the usage, errors (the CLI's own and those of the
 * library below it: a file that is no capture), a report's header and
 * table, and a diff's tables come from po/de.po, compiled by the build into build/po (HOTPATH_LOCALEDIR points
 * the CLI there instead of the installed catalogues). LC_ALL=C.UTF-8 is
 * built into glibc (2.35 and later), so no German locale needs to be
 * generated; gettext honours LANGUAGE under any locale but plain "C".
 * Without the CLI's bindtextdomain the catalogue is not found and every
 * string stays English.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <string.h>
#include <sys/wait.h>

#include "integration-common.h"
#include "test-common.h"

static char *dir;
static char *path;

/* hotpath-cli @args with LANGUAGE=@language (NULL: unset); returns its
 * exit status, its standard output and error in @out and @err */
static int
run_in (const char         *language,
        const char * const *args,
        char              **out,
        char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_ptr_array_add (argv, (char *) HOTPATH_CLI);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  envp = g_environ_setenv (envp, "LC_ALL", "C.UTF-8", TRUE);
  envp = g_environ_setenv (envp, "HOTPATH_LOCALEDIR", BUILD_LOCALEDIR, TRUE);
  if (language != NULL)
    envp = g_environ_setenv (envp, "LANGUAGE", language, TRUE);
  else
    envp = g_environ_unsetenv (envp, "LANGUAGE");
  if (!g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL, out, err, &wait_status, &error))
    g_error ("cannot run %s: %s", HOTPATH_CLI, error->message);
  g_test_message ("LANGUAGE=%s hotpath-cli %s -> %d\nstdout: %s\nstderr: %s", language ? language : "(unset)",
                  args[0] ? args[0] : "", wait_status, *out, *err);
  return WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128;
}

static void
assert_has (const char *text,
            const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("no \"%s\" in:\n%s", part, text);
}

static void
test_usage (void)
{
  const char *none[] = { NULL };
  const char *unknown[] = { "no-such-command", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *out3 = NULL, *err3 = NULL;

  g_assert_cmpint (run_in ("de", none, &out, &err), ==, 2);
  assert_has (err, "Aufruf: hotpath-cli BEFEHL [OPTION");
  assert_has (err, "Ausgeben, was eine Aufzeichnung gemessen hat");
  g_assert_cmpint (run_in ("de", unknown, &out2, &err2), ==, 2);
  assert_has (err2, "unbekannter Befehl „no-such-command“");
  /* and English without LANGUAGE: the German came from the catalogue */
  g_assert_cmpint (run_in (NULL, unknown, &out3, &err3), ==, 2);
  assert_has (err3, "unknown command 'no-such-command'");
}

static void
test_report (void)
{
  const char *args[] = { "report", path, NULL };
  const char *help[] = { "report", "--help", NULL };
  g_autofree char *out = NULL, *err = NULL, *help_out = NULL, *help_err = NULL;

  g_assert_cmpint (run_in ("de", args, &out, &err), ==, 0);
  assert_has (out, "# Aufzeichnung: ");
  assert_has (out, "# Stichproben:  600 (verloren: 0, gedrosselt: 0)");
  /* --help's usage line, from GOption and the command's own words */
  g_assert_cmpint (run_in ("de", help, &help_out, &help_err), ==, 0);
  assert_has (help_out, "AUFZEICHNUNG");
}

/* The other commands' words and a plural form come from the catalogue too */
static void
test_commands (void)
{
  const char *tree[] = { "report", path, "--tree", NULL };
  const char *diff_help[] = { "diff", "--help", NULL };
  const char *missing[] = { "diff", path, "no-such.hotpath", NULL };
  g_autofree char *out = NULL, *err = NULL, *help_out = NULL, *help_err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (run_in ("de", tree, &out, &err), ==, 0);
  assert_has (out, "# Aufrufbaum von oben: gesamt% selbst% von 600 Stichproben");
  g_assert_cmpint (run_in ("de", diff_help, &help_out, &help_err), ==, 0);
  assert_has (help_out, "BASIS NEU");
  assert_has (help_out, "Aufzeichnungen vergleichen: welche Funktionen und Aufrufpfade");
  g_assert_cmpint (run_in ("de", missing, &out2, &err2), !=, 0);
  assert_has (err2, "no-such.hotpath: Datei oder Ordner existiert nicht");
}

/* The library's errors and the tables' headings are translated too, not
 * only the CLI's own sentences */
static void
test_library (void)
{
  g_autofree char *empty = g_build_filename (dir, "empty.hotpath", NULL);
  const char *empty_args[] = { "report", empty, NULL };
  const char *folder_args[] = { "report", dir, NULL };
  const char *callers[] = { "report", path, "--callers", "no_such_function", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *out3 = NULL, *err3 = NULL;
  g_autofree char *out4 = NULL, *err4 = NULL;
  const char *report[] = { "report", path, NULL };

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_cmpint (run_in ("de", empty_args, &out, &err), !=, 0);
  assert_has (err, "empty.hotpath: keine Hotpath-Aufzeichnung: Die Datei ist leer");
  g_assert_cmpint (run_in ("de", folder_args, &out2, &err2), !=, 0);
  assert_has (err2, ": keine Hotpath-Aufzeichnung: Es ist ein Ordner");
  g_assert_cmpint (run_in ("de", callers, &out3, &err3), !=, 0);
  assert_has (err3, "keine Funktion namens „no_such_function“ in ");
  g_assert_cmpint (run_in ("de", report, &out4, &err4), ==, 0);
  assert_has (out4, "Selbst%");
  assert_has (out4, "Gesamt%");
  assert_has (out4, "Funktion");
}

static void
test_diff (void)
{
  const char *args[] = { "diff", path, path, NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (run_in ("de", args, &out, &err), ==, 0);
  assert_has (out, "# Basis: ");
  assert_has (out, "# Neu: ");
  assert_has (out, "Befund");
  assert_has (out, "Funktion [Modul]");
  assert_has (out, "# Funktionen nach eigenen Kosten (alle ");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  dir = it_tmpdir_new ();
  path = g_build_filename (dir, "events.hotpath", NULL);
  hp_test_make_events_capture (path, &(HpTestEventsCapture) { .whole_system = FALSE });

  g_test_add_func ("/cli-translation/usage", test_usage);
  g_test_add_func ("/cli-translation/report", test_report);
  g_test_add_func ("/cli-translation/commands", test_commands);
  g_test_add_func ("/cli-translation/library", test_library);
  g_test_add_func ("/cli-translation/diff", test_diff);
  status = g_test_run ();
  it_tmpdir_free (dir);
  g_free (path);
  return status;
}
