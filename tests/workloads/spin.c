/* spin.c - runs until it is killed, on one known hot path
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For tests that stop a recording themselves (the record dialog's Stop):
 *
 *   main → spin_outer → spin_leaf    all the time
 *
 * It prints a line a second, so that the recorded command's output has
 * something in it, and gives up after SECONDS (default 120) so that a test
 * that fails before it stops the recording leaves nothing running.
 *
 * Usage: spin [SECONDS]
 */
#include "workload.h"

#include <stdio.h>
#include <time.h>

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
spin_leaf (void)
{
  WORK_UNITS (4);
}

WORKLOAD_NOINLINE static void
spin_outer (void)
{
  spin_leaf ();
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long limit = workload_arg (argc, argv, 120);
  time_t start = time (NULL);
  time_t last = start;

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("spin: running for at most %lu s\n", limit);
  for (;;)
    {
      time_t now;

      spin_outer ();
      now = time (NULL);
      if (now != last)
        {
          last = now;
          printf ("spin: %ld s\n", (long) (now - start));
        }
      if ((unsigned long) (now - start) >= limit)
        break;
    }
  return 0;
}
