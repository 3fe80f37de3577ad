/* inline-calls.c - calls made from code inlined into its caller
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every iteration burns 4 units of the same work (see workload.h), always
 * in the out-of-line function burn(), but called from two static inline
 * helpers that GCC inlines into run_stages at -O2:
 *
 *   main → run_stages → stage_heavy (inline) → burn    3 units  75 %
 *   main → run_stages → stage_light (inline) → burn    1 unit   25 %
 *
 * burn() is the leaf; the inlined helpers are in the middle of the stack,
 * so they appear only when the unwinder's return addresses (moved back into
 * their call instruction) are resolved with their inline chain: a profiler
 * that symbolizes inline frames at the leaf alone shows burn directly under
 * run_stages.  Built without frame pointers, for DWARF unwinding.
 *
 * Usage: inline-calls [ITERATIONS]   (default 1600, about 1.5-2 s)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
burn (unsigned units)
{
  WORK_UNITS (units);
}

static inline __attribute__((always_inline)) void
stage_heavy (void)
{
  burn (3);
  workload_sink++;  /* not a tail call */
}

static inline __attribute__((always_inline)) void
stage_light (void)
{
  burn (1);
  workload_sink++;
}

WORKLOAD_NOINLINE static void
run_stages (unsigned long iterations)
{
  for (unsigned long i = 0; i < iterations; i++)
    {
      stage_heavy ();
      stage_light ();
    }
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long iterations = workload_arg (argc, argv, 1600);

  run_stages (iterations);

  printf ("inline-calls: %lu iterations, sink %llx\n", iterations,
          (unsigned long long) workload_sink);
  return 0;
}
