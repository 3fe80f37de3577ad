/* hp-cli.c - hotpath-cli: record and report without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/hp-name-match.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "document/hp-format.h"
#include "store/hp-store-db.h"

static const struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} commands[] = {
  { "record", hp_cli_record, N_("Record perf samples of a command or process into a capture") },
  { "import", hp_cli_import, N_("Import a perf.data file, a pprof profile or folded stacks into a capture") },
  { "report", hp_cli_report, N_("Print what a capture measured: functions, call tree, callers, callees") },
  { "summary", hp_cli_summary, N_("List, read or write the summaries of call paths in a capture") },
  { "flamegraph", hp_cli_flamegraph, N_("Write the flame graph of a capture as a standalone SVG") },
  { "diff", hp_cli_diff, N_("Compare captures: what got slower or faster, with statistics") },
  { "export", hp_cli_export, N_("Write a capture as folded stacks, speedscope, Firefox Profiler or pprof") },
  { "add-pending", hp_cli_add_pending, N_("Add the samples that waited for another program's write lock to a capture") },
};

gboolean
hp_cli_parse_one_file (GOptionContext *context,
                       const char     *command,
                       int            *argc,
                       char         ***argv,
                       char         ***files,
                       const char     *give_one)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      hp_cli_error ("%s: %s", command, error->message);
      return FALSE;
    }
  if (*files == NULL || (*files)[0] == NULL || (*files)[1] != NULL)
    {
      hp_cli_error ("%s: %s", command, give_one);
      return FALSE;
    }
  return TRUE;
}

GOptionContext *
hp_cli_option_context_new (const char *parameters)
{
  GOptionContext *context = g_option_context_new (parameters);

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  return context;
}

char *
hp_cli_samples (guint64 n)
{
  return hp_format_amount_full (NULL, n, HP_FORMAT_PLAIN);
}

const char *
hp_cli_short_name (HpProfile  *profile,
                   gint64      id,
                   GHashTable *cache)
{
  const char *name = hp_profile_get_function_name (profile, id);
  g_autofree char *bare = NULL;
  g_autoptr(GArray) ids = NULL;
  char *shortest;

  if (name == NULL)
    return "?";
  if ((shortest = g_hash_table_lookup (cache, &id)) != NULL)
    return shortest;
  bare = hp_name_strip_parameters (name);
  if (bare[0] == '\0' || strcmp (bare, name) == 0)
    shortest = (char *) name;
  else
    {
      /* bare when every function it finds bears this very name */
      ids = hp_profile_match_functions (profile, bare, NULL);
      shortest = ids->len > 0 ? bare : (char *) name;
      for (guint i = 0; i < ids->len; i++)
        if (g_strcmp0 (hp_profile_get_function_name (profile, g_array_index (ids, gint64, i)), name) != 0)
          shortest = (char *) name;
    }
  shortest = g_strdup (shortest);
  g_hash_table_insert (cache, g_memdup2 (&id, sizeof id), shortest);
  return shortest;
}

GHashTable *
hp_cli_short_names_new (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

guint
hp_cli_listing_size (gint  limit,
                     guint n)
{
  return MIN (n, limit > 0 ? (guint) limit : 10);
}

void
hp_cli_note_summaries_cut (HpCapture *capture)
{
  if (hp_capture_summaries_cut (capture))
    hp_cli_error (g_dngettext (GETTEXT_PACKAGE,
                               "%s: the capture holds more summaries than Hotpath reads: only the first %d "
                               "(by call path) are used, the others left out",
                               "%s: the capture holds more summaries than Hotpath reads: only the first %d "
                               "(by call path) are used, the others left out", HP_STORE_MAX_SUMMARY_ROWS),
                  hp_capture_get_path (capture), HP_STORE_MAX_SUMMARY_ROWS);
}

void
hp_cli_error (const char *format,
              ...)
{
  g_autofree char *message = NULL;
  g_autofree char *escaped = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  /* a message may quote a path, a name or SQLite's words about a capture:
   * one line, no terminal escapes */
  escaped = hp_text_escape (message);
  fprintf (stderr, "hotpath-cli: %s\n", escaped);
}

gboolean
hp_cli_output_is_file (const char *command,
                       const char *output)
{
  /* "-" is standard output, where a command takes it */
  if (strcmp (output, "-") != 0 && g_file_test (output, G_FILE_TEST_IS_DIR))
    {
      hp_cli_error (_("%s: %s is a folder; -o takes the name of the file to write"), command, output);
      return FALSE;
    }
  return TRUE;
}

void
hp_cli_fetch_progress (const char *path,
                       guint64     done,
                       guint64     total,
                       gpointer    user_data)
{
  /* called on the one thread that symbolizes */
  static char *current;
  static gboolean finished;
  g_autofree char *escaped = hp_text_escape (path);

  if (g_strcmp0 (current, path) != 0)
    {
      g_free (current);
      current = g_strdup (path);
      finished = FALSE;
      fprintf (stderr, _("hotpath-cli: asking debuginfod for the debug info of %s\n"), escaped);
    }
  if (!finished && total > 0 && done >= total)
    {
      finished = TRUE;
      fprintf (stderr, _("hotpath-cli: debuginfod sent the debug info of %s (%" PRIu64 " KiB)\n"),
               escaped, (total + 1023) / 1024);
    }
  else if (!finished && total > 0 && isatty (STDERR_FILENO))
    fprintf (stderr, "\r%" PRIu64 " of %" PRIu64 " KiB\033[K\r", done / 1024, (total + 1023) / 1024);
}

/* Signals are blocked in every thread and taken by sigwait() in one, which
 * may then call what a signal handler may not (g_cancellable_cancel). */
static gpointer
signal_thread (gpointer data)
{
  GCancellable *cancellable = data;
  sigset_t set;
  int sig;

  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  if (sigwait (&set, &sig) == 0)
    g_cancellable_cancel (cancellable);
  return NULL;
}

GCancellable *
hp_cli_cancel_on_signals (void)
{
  GCancellable *cancellable = g_cancellable_new ();
  sigset_t set;

  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  g_thread_unref (g_thread_new ("hp-signals", signal_thread, g_object_ref (cancellable)));
  return cancellable;
}

static void
usage (FILE *out)
{
  fprintf (out, _("Usage: hotpath-cli COMMAND [OPTION…]\n\nCommands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (out, _("\nRun 'hotpath-cli COMMAND --help' for the options of a command.\n"));
}

int
main (int    argc,
      char **argv)
{
  const char *localedir = g_getenv ("HOTPATH_LOCALEDIR");

  setlocale (LC_ALL, "");
  /* as the window does (src/ui/main.c): messages, --help and the reports'
   * headings in the user's language; HOTPATH_LOCALEDIR: the catalogues
   * of a build tree (build/po), for the tests */
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && localedir[0] != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* Past a file size limit (ulimit -f) a write then fails with EFBIG, which
   * the recorder reports and survives, instead of killing the process with
   * the capture half written. */
  signal (SIGXFSZ, SIG_IGN);

  if (argc < 2)
    {
      usage (stderr);
      return 2;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("hotpath-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("hotpath-cli %s", commands[i].name);

        /* what --help's usage line starts with */
        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }

  hp_cli_error (_("unknown command '%s'; try 'hotpath-cli --help'"), argv[1]);
  return 2;
}
