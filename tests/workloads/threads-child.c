/* threads-child.c - the program the threads workload forks and execs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Burns 2 units x N in child_work, so that samples of an exec'd child are
 * recognisable by function and by process name (its comm is the first 15
 * bytes of its file name, "threads-child-f" for threads-child-fp).
 *
 * Usage: threads-child [N]   (default 900)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
child_work (void)
{
  WORK_UNITS (2);
}

int
main (int argc, char **argv)
{
  unsigned long n_rounds = workload_arg (argc, argv, 900);

  for (unsigned long i = 0; i < n_rounds; i++)
    child_work ();

  printf ("threads-child: %lu rounds, sink %llx\n", n_rounds,
          (unsigned long long) workload_sink);
  return 0;
}
