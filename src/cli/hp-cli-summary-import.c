/* hp-cli-summary-import.c - hotpath-cli summary NEW --import OLD, and the library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Copies the summaries of one capture onto the matching call paths of
 * another (hp_summary_place(): by function identity, with the rule that
 * matched said for each), keeping those it cannot place as "not found in
 * this capture" rather than dropping them; and mirrors what the CLI writes
 * into the per-user summary library.
 *
 * A perf.data (or pprof, or folded stacks) holds no summaries and cannot
 * take any: as OLD it is said to have none; as NEW its summaries go into
 * the capture `hotpath-cli import NEW` would write, imported first when it
 * is not there yet. One that is there already may be of another
 * recording, so it is named and left to the user rather than guessed.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/hp-summary-match.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli.h"
#include "perf/hp-perf-file.h"
#include "record/hp-folded-import.h"
#include "record/hp-perf-import.h"
#include "record/hp-pprof-import.h"
#include "store/hp-summary-library.h"

void
hp_cli_summary_mirror (const HpCaptureData *data,
                       HpCapture           *capture,
                       GPtrArray           *summaries,
                       gboolean             copied)
{
  g_autofree char *program = hp_summary_program_name (data);
  g_autoptr(HpSummaryLibrary) library = NULL;
  g_autoptr(GError) error = NULL;

  if (program == NULL || summaries->len == 0)
    return;
  library = hp_summary_library_open (NULL, &error);
  if (library != NULL)
    hp_summary_library_put_all (library, program, summaries, copied, &error);
  if (error != NULL)
    hp_cli_error (_("warning: %s (the summaries are saved in %s all the same)"),
                  error->message, hp_capture_get_path (capture));
}

static void
print_text (const char *text)
{
  g_autofree char *safe = hp_text_escape (text);

  printf ("    %s\n", safe);
}

/* "new.folded is a perf.data file" misled */
const char *
hp_cli_profile_kind (const char *path)
{
  if (hp_pprof_sniff (path))
    return "a pprof profile";
  if (hp_folded_sniff (path) && !hp_perf_file_sniff (path))
    return "a file of folded stacks";
  return "a perf.data file";
}

/* The capture that takes the summaries for the perf.data @perf_data:
 * the one `hotpath-cli import` writes, imported now if missing; NULL
 * after saying why not. */
static char *
capture_for_perf_data (const char *perf_data,
                       const char *old_path)
{
  g_autofree char *target = hp_perf_import_capture_name (perf_data);
  char *argv[] = { (char *) "import", (char *) perf_data, (char *) "-o", target, NULL };

  if (g_file_test (target, G_FILE_TEST_EXISTS))
    {
      hp_cli_error (_("summary: %s is %s, which cannot hold summaries, and %s (where "
                    "'hotpath-cli import %s' writes its capture) exists already; if it is the capture "
                    "of %s, run: hotpath-cli summary %s --import %s"),
                    perf_data, hp_cli_profile_kind (perf_data), target, perf_data, perf_data, target, old_path);
      return NULL;
    }
  fprintf (stderr, _("hotpath-cli: %s is %s, which cannot hold summaries: "
           "importing it into %s, which will hold them\n"), perf_data, hp_cli_profile_kind (perf_data), target);
  if (hp_cli_import (G_N_ELEMENTS (argv) - 1, argv) != 0)
    return NULL;
  return g_steal_pointer (&target);
}

typedef struct {
  guint n_read, n_placed, n_lost, n_present, n_conflict;
} ImportCounts;

/* Places one page of OLD's summaries (@old_rows) and writes them: each
 * page is judged against this capture as the pages before it left it. */
static gboolean
import_page (HpCapture        *capture,
             HpCaptureData    *data,
             HpProfile        *profile,
             HpSummaryMatcher *matcher,
             GPtrArray        *old_rows,
             const char       *old_name,
             ImportCounts     *counts,
             GError          **error)
{
  g_autoptr(GPtrArray) placements = NULL;
  g_autoptr(GPtrArray) to_write = g_ptr_array_new ();

  placements = hp_summary_place_full (profile, matcher, old_rows, old_name, NULL,
                                      hp_summary_lookup_in_capture, capture, error);
  if (placements == NULL)
    return FALSE;
  counts->n_read += old_rows->len;
  for (guint i = 0; i < placements->len; i++)
    {
      HpSummaryPlacement *p = g_ptr_array_index (placements, i);
      g_autofree char *old_readable = hp_text_escape (p->old_path);
      g_autofree char *new_readable = hp_text_escape (p->summary->path);

      if (p->present)
        {
          counts->n_present++;
          printf (_("already here  %s\n"), new_readable);
          continue;
        }
      if (p->conflict)
        {
          counts->n_conflict++;
          printf (_("kept this capture's own summary of %s (%s's differs):\n"), new_readable, old_name);
          print_text (p->summary->text);
          continue;
        }
      g_ptr_array_add (to_write, p->summary);
      if (p->how == HP_SUMMARY_MATCH_NONE)
        {
          counts->n_lost++;
          printf (_("not found in this capture (kept)  %s\n"), old_readable);
        }
      else
        {
          counts->n_placed++;
          printf (_("placed (%s)  %s"), hp_summary_match_to_string (p->how), new_readable);
          if (strcmp (p->old_path, p->summary->path) != 0)
            printf (_("  [was %s]"), old_readable);
          if (isfinite (p->summary->share) && isfinite (p->share_now))
            printf (_("  %.1f %% then, %.1f %% now"), p->summary->share, p->share_now);
          printf ("\n");
        }
    }

  if (to_write->len > 0 && !hp_capture_put_summaries (capture, to_write, error))
    return FALSE;
  hp_cli_summary_mirror (data, capture, to_write, TRUE);
  return TRUE;
}

int
hp_cli_summary_import (const char *new_path,
                       const char *old_path)
{
  g_autofree char *new_capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) old = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(HpProfile) profile = NULL;
  g_autoptr(HpSummaryMatcher) matcher = NULL;
  g_autoptr(GPtrArray) old_rows = NULL;
  g_autofree char *old_name = g_path_get_basename (old_path);
  g_autofree char *after = NULL;
  ImportCounts counts = { 0 };

  if (hp_perf_import_is_perf_data (old_path))
    {
      hp_cli_error (_("summary: %s is %s, which holds no summaries; summaries are "
                    "written into captures (.hotpath files): give one as --import OLD"),
                    old_path, hp_cli_profile_kind (old_path));
      return 1;
    }
  if (hp_perf_import_is_perf_data (new_path))
    {
      /* OLD is checked first, so that a bad one imports nothing */
      old = hp_capture_open (old_path, FALSE, &error);
      if (old == NULL)
        {
          hp_cli_error ("%s", error->message);
          return 1;
        }
      g_clear_pointer (&old, hp_capture_close);
      new_capture = capture_for_perf_data (new_path, old_path);
      if (new_capture == NULL)
        return 1;
      new_path = new_capture;
    }

  old = hp_capture_open (old_path, FALSE, &error);
  if (old == NULL || (old_rows = hp_capture_list_summary_rows (old, &error)) == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  capture = hp_capture_open (new_path, TRUE, &error);
  if (capture == NULL || (data = hp_capture_load (capture, &error)) == NULL)
    {
      hp_cli_error ("%s", error->message);
      return 1;
    }
  if (old_rows->len == 0)
    {
      printf (_("# no summaries in %s\n"), old_path);
      return 0;
    }
  profile = hp_profile_new (data, NULL);
  matcher = hp_summary_matcher_new (profile);

  /* OLD a page at a time, each checked against this capture's summaries
   * one path at a time: however many either holds, all of OLD is placed,
   * none over a summary of this capture, within a page's memory */
  for (;;)
    {
      gboolean more = hp_capture_summaries_cut (old);
      const HpCaptureSummary *last = g_ptr_array_index (old_rows, old_rows->len - 1);

      if (!import_page (capture, data, profile, matcher, old_rows, old_name, &counts, &error))
        {
          if (counts.n_placed + counts.n_lost > 0)
            hp_cli_error (_("%s (%u summaries of %s were placed in %s before it)"), error->message,
                          counts.n_placed + counts.n_lost, old_path, new_path);
          else
            hp_cli_error ("%s", error->message);
          return 1;
        }
      if (!more)
        break;
      g_free (after);
      after = g_strdup (last->path_key);
      g_clear_pointer (&old_rows, g_ptr_array_unref);
      old_rows = hp_capture_list_summary_rows_after (old, after, &error);
      if (old_rows == NULL)
        {
          hp_cli_error (_("%s (%u summaries of %s were placed in %s before it)"), error->message,
                        counts.n_placed + counts.n_lost, old_path, new_path);
          return 1;
        }
      if (old_rows->len == 0)
        break;
    }

  fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "hotpath-cli: %u of %u summary of %s placed in %s",
                                "hotpath-cli: %u of %u summaries of %s placed in %s", counts.n_read),
           counts.n_placed, counts.n_read, old_path, new_path);
  if (counts.n_lost > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "; %u not found in this capture, kept as such",
                                  "; %u not found in this capture, kept as such", counts.n_lost), counts.n_lost);
  if (counts.n_present > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "; %u already there", "; %u already there", counts.n_present),
             counts.n_present);
  if (counts.n_conflict > 0)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "; %u not copied over a different summary of the same path",
                                  "; %u not copied over a different summary of the same path", counts.n_conflict),
             counts.n_conflict);
  fprintf (stderr, "\n");
  return 0;
}
