/* paths.c - two call paths that split the time 3:1, by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every iteration burns 20 units of the same work (see workload.h):
 *
 *   main → run_alpha → alpha_leaf    12 units  60 %
 *   main → run_alpha → shared_leaf    3 units  15 %
 *   main → run_beta  → beta_leaf      4 units  20 %
 *   main → run_beta  → shared_leaf    1 unit    5 %
 *
 * so run_alpha:run_beta = 75 %:25 % = 3:1 of the total, shared_leaf has
 * 20 % self time and its callers run_alpha:run_beta are 3:1.  alpha_leaf
 * never runs under run_beta, nor beta_leaf under run_alpha.  The two paths
 * are interleaved every iteration so that a time-varying machine (frequency
 * scaling, a noisy neighbour) biases neither.
 *
 * Usage: paths [ITERATIONS]   (default 300, about 1.5-2 s)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
alpha_leaf (void)
{
  WORK_UNITS (12);
}

WORKLOAD_NOINLINE static void
beta_leaf (void)
{
  WORK_UNITS (4);
}

WORKLOAD_NOINLINE static void
shared_leaf (unsigned units)
{
  WORK_UNITS (units);
}

WORKLOAD_NOINLINE static void
run_alpha (void)
{
  alpha_leaf ();
  shared_leaf (3);
  workload_sink++;
}

WORKLOAD_NOINLINE static void
run_beta (void)
{
  beta_leaf ();
  shared_leaf (1);
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long iterations = workload_arg (argc, argv, 300);

  for (unsigned long i = 0; i < iterations; i++)
    {
      run_alpha ();
      run_beta ();
    }

  printf ("paths: %lu iterations, sink %llx\n", iterations,
          (unsigned long long) workload_sink);
  return 0;
}
