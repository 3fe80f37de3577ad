/* recurse.c - deep recursion with the work at the bottom
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * main → recurse_start → descend × 150 → recurse_leaf, repeated.  All the
 * time is in recurse_leaf, 150 frames of descend deep.  Unwinders that give
 * up early (a DWARF unwinder with a small stack copy, a frame limit) show
 * up as truncated stacks; total(descend) must still be ~100 % and counted
 * once per sample however deep it recurses.
 *
 * Usage: recurse [ROUNDS]   (default 1600, about 1.5-2 s)
 */
#include "workload.h"

#include <stdio.h>

#define RECURSE_DEPTH 150

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
recurse_leaf (void)
{
  WORK_UNITS (4);
}

WORKLOAD_NOINLINE static void
descend (unsigned depth)
{
  if (depth == 0)
    recurse_leaf ();
  else
    descend (depth - 1);
  /* not a tail call: every level keeps its frame */
  __asm__ volatile ("" ::: "memory");
}

WORKLOAD_NOINLINE static void
recurse_start (void)
{
  descend (RECURSE_DEPTH - 1);
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long rounds = workload_arg (argc, argv, 1600);

  for (unsigned long i = 0; i < rounds; i++)
    recurse_start ();

  printf ("recurse: %lu rounds of depth %d, sink %llx\n", rounds,
          RECURSE_DEPTH, (unsigned long long) workload_sink);
  return 0;
}
