/* threads.c - named threads and an exec'd child, each burning a known amount
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The recorder must follow every thread and every child process, with their
 * names as they change.  This program:
 *
 *   - renames its main thread "hp-main" (a COMM change after exec),
 *   - starts two threads named "hp-worker-1" and "hp-worker-2",
 *   - forks and execs threads-child-SUFFIX (found next to argv[0], SUFFIX
 *     being this program's own "-fp"/"-nofp"), which burns in child_work,
 *
 * and burns, all four at once, in functions found only in one of them:
 *
 *   hp-main       main_work        2 units x N
 *   hp-worker-1   worker_one_work  4 units x N
 *   hp-worker-2   worker_two_work  2 units x N
 *   child         child_work       2 units x N   (in threads-child)
 *
 * cpu-clock samples count CPU time, so worker_one_work:worker_two_work is
 * 2:1 however the threads are scheduled.  Total CPU time about 3 s, wall
 * time about 1.5 s on two CPUs.
 *
 * Usage: threads [N]   (default 900)
 */
#include "workload.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

volatile uint64_t workload_sink;

static unsigned long n_rounds;

WORKLOAD_NOINLINE static void
main_work (void)
{
  WORK_UNITS (2);
}

WORKLOAD_NOINLINE static void
worker_one_work (void)
{
  WORK_UNITS (4);
}

WORKLOAD_NOINLINE static void
worker_two_work (void)
{
  WORK_UNITS (2);
}

static void *
worker_one (void *data)
{
  pthread_setname_np (pthread_self (), "hp-worker-1");
  for (unsigned long i = 0; i < n_rounds; i++)
    worker_one_work ();
  return NULL;
}

static void *
worker_two (void *data)
{
  pthread_setname_np (pthread_self (), "hp-worker-2");
  for (unsigned long i = 0; i < n_rounds; i++)
    worker_two_work ();
  return NULL;
}

static pid_t
spawn_child (const char *argv0)
{
  char path[PATH_MAX];
  char rounds[32];
  const char *base = strrchr (argv0, '/');
  const char *suffix = strrchr (base ? base : argv0, '-');
  int dir_len = base ? (int) (base - argv0 + 1) : 0;
  pid_t pid;

  /* threads-fp → threads-child-fp; a bare "threads" → threads-child */
  if (suffix == NULL || strcmp (suffix, "-fp") != 0)
    suffix = (suffix && strcmp (suffix, "-nofp") == 0) ? suffix : "";
  snprintf (path, sizeof path, "%.*sthreads-child%s", dir_len, argv0, suffix);
  snprintf (rounds, sizeof rounds, "%lu", n_rounds);

  pid = fork ();
  if (pid < 0)
    {
      perror ("threads: fork");
      exit (1);
    }
  if (pid == 0)
    {
      execl (path, path, rounds, (char *) NULL);
      fprintf (stderr, "threads: cannot exec %s: %s\n", path, strerror (errno));
      _exit (127);
    }
  return pid;
}

int
main (int argc, char **argv)
{
  pthread_t one, two;
  pid_t child;
  int status = 0;

  n_rounds = workload_arg (argc, argv, 900);

  /* Before anything else, so every sample of the main thread after the
   * rename carries the new name. */
  prctl (PR_SET_NAME, "hp-main", 0, 0, 0);

  child = spawn_child (argv[0]);
  if (pthread_create (&one, NULL, worker_one, NULL) != 0 ||
      pthread_create (&two, NULL, worker_two, NULL) != 0)
    {
      fprintf (stderr, "threads: cannot start workers\n");
      return 1;
    }

  for (unsigned long i = 0; i < n_rounds; i++)
    main_work ();

  pthread_join (one, NULL);
  pthread_join (two, NULL);
  if (waitpid (child, &status, 0) < 0 || !WIFEXITED (status) ||
      WEXITSTATUS (status) != 0)
    {
      fprintf (stderr, "threads: child failed (status %d)\n", status);
      return 1;
    }

  printf ("threads: %lu rounds, sink %llx\n", n_rounds,
          (unsigned long long) workload_sink);
  return 0;
}
