/* test-record-memory.c - how hotpath-cli record holds its memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A page touched for the first time costs a fault; in a VM about 13 us.
 * hotpath-cli record grows its heap in one step and advises it to be backed
 * by transparent huge pages (tune_malloc_for_recording in
 * src/cli/hp-cli-record.c): libdw's first source line in libc alone took
 * some 600 faults of 4 KiB, a tenth of a short recording's own CPU. The
 * benchmark tests/bench/record-multiprocess.py measures what it saves; this
 * test checks that the advice is there, in /proc/PID/smaps of a recorder
 * while it records, where the kernel gives huge pages on request only
 * (transparent_hugepage/enabled "madvise": elsewhere every heap has them,
 * or none may).
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "integration-common.h"

#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

/* TRUE when a [heap] mapping of @pid is eligible for huge pages. */
static gboolean
heap_has_huge_page_advice (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/smaps", (int) pid);
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean in_heap = FALSE;

  if (!g_file_get_contents (path, &smaps, NULL, NULL))
    return FALSE;
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      /* a mapping's first line starts with its address range, lowercase hex */
      if (g_ascii_isxdigit (line[0]) && strchr (line, '-') != NULL && strchr (line, ':') != NULL &&
          !g_str_has_suffix (line, ":"))
        in_heap = g_str_has_suffix (line, "[heap]");
      else if (in_heap && g_str_has_prefix (line, "THPeligible:") &&
               g_ascii_strtoll (line + strlen ("THPeligible:"), NULL, 10) == 1)
        return TRUE;
    }
  return FALSE;
}

static void
test_heap_huge_pages (void)
{
  g_autofree char *enabled = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autofree char *oracle = NULL;
  g_autoptr(GError) error = NULL;
  gboolean advised = FALSE;
  GPid pid;
  int status;

  if (!g_file_get_contents (THP_ENABLED, &enabled, NULL, NULL))
    {
      g_test_skip ("no " THP_ENABLED ": this kernel has no transparent huge pages");
      return;
    }
  if (strstr (enabled, "[madvise]") == NULL)
    {
      g_test_skip_printf ("transparent huge pages are \"%s\", not \"madvise\": the advice makes no "
                          "difference to check", g_strstrip (enabled));
      return;
    }
  if (!it_require_perf_events ())
    return;

  dir = it_tmpdir_new ();
  capture = g_build_filename (dir, "memory.hotpath", NULL);
  oracle = it_workload_path ("oracle");
  {
    const char *argv[] = { HOTPATH_CLI, "record", "--call-graph", "dwarf", "-o", capture,
                           "--", oracle, "30", NULL };

    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                  G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
                                  G_SPAWN_STDERR_TO_DEV_NULL,
                                  NULL, NULL, &pid, &error));
  }
  g_assert_no_error (error);

  /* The advice is given before the recording starts; the program runs
   * about a second. */
  for (guint i = 0; i < 200 && !advised; i++)
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          pid = 0;
          break;
        }
      advised = heap_has_huge_page_advice (pid);
      if (!advised)
        g_usleep (10 * 1000);
    }
  if (pid != 0)
    {
      waitpid (pid, &status, 0);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  g_assert_true (advised);
  it_tmpdir_free (g_steal_pointer (&dir));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/record/heap-huge-pages", test_heap_huge_pages);
  return g_test_run ();
}
