/* events.c - workloads whose counts of events other than CPU time are known
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For the tests of recording several events, off-CPU time and the whole
 * system:
 *
 *   events faults N     main → touch_pages: touches N fresh pages, one
 *                       page fault each (and a few of its own start)
 *   events sleep MS     main → sleep_half: nanosleeps 5 ms at a time, and
 *                       main → spin_half: spins, for MS ms; each phase is
 *                       chosen to even out the wall-clock time the two
 *                       took so far (wake-up delays and preemption
 *                       included, both measured), so half of the time is
 *                       under sleep_half, off the CPU, whatever the load
 *   events busy S       main → busy_loop: spins for S seconds
 */
#include "workload.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t workload_sink;

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

WORKLOAD_NOINLINE static void
touch_pages (unsigned long n)
{
  long page = sysconf (_SC_PAGESIZE);
  volatile char *p = mmap (NULL, n * page, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (p == MAP_FAILED)
    exit (1);
  for (unsigned long i = 0; i < n; i++)
    p[i * page] = 1;
  workload_sink += p[0];
  munmap ((void *) p, n * page);
}

/* Each returns how long it took, from its start to its return. */
WORKLOAD_NOINLINE static uint64_t
sleep_half (void)
{
  struct timespec ts = { 0, 5 * 1000 * 1000 };
  uint64_t start = now_ns ();

  nanosleep (&ts, NULL);
  workload_sink++;
  return now_ns () - start;
}

WORKLOAD_NOINLINE static uint64_t
spin_half (uint64_t ns)
{
  uint64_t start = now_ns (), t;

  while ((t = now_ns ()) < start + ns)
    workload_sink++;
  return t - start;
}

WORKLOAD_NOINLINE static void
busy_loop (unsigned long seconds)
{
  uint64_t end = now_ns () + seconds * 1000000000ull;

  while (now_ns () < end)
    WORK_UNITS (1);
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  unsigned long n = workload_arg (argc - 1, argv + 1, 1);

  if (strcmp (mode, "faults") == 0)
    touch_pages (n);
  else if (strcmp (mode, "sleep") == 0)
    {
      uint64_t end = now_ns () + n * 1000000ull;
      uint64_t slept = 0, spun = 0;

      while (now_ns () < end)
        {
          if (spun < slept)
            spun += spin_half (slept - spun);
          else
            slept += sleep_half ();
        }
    }
  else if (strcmp (mode, "busy") == 0)
    busy_loop (n);
  else
    {
      fprintf (stderr, "usage: events faults N | sleep MS | busy S\n");
      return 2;
    }
  return 0;
}
