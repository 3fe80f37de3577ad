/* inline.c - hot static inline helpers, inlined into one loop at -O2
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * hot_loop calls two static inline helpers that the compiler inlines
 * (always_inline, so it does not depend on GCC's heuristics):
 *
 *   main → hot_loop → mix_heavy   (inlined)  3 units per iteration  75 %
 *   main → hot_loop → mix_light   (inlined)  1 unit per iteration   25 %
 *
 * No sample has mix_heavy or mix_light as a symbol: only DWARF's
 * DW_TAG_inlined_subroutine says where they are, so a symbolizer that
 * resolves inlines reports them under hot_loop (marked inline) in a 3:1
 * split, and one that does not puts 100 % in hot_loop.
 *
 * Usage: inline [ITERATIONS]   (default 1600, about 1.5-2 s)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

static inline __attribute__((always_inline)) void
mix_heavy (void)
{
  WORK_UNITS (3);
}

static inline __attribute__((always_inline)) void
mix_light (void)
{
  WORK_UNITS (1);
}

WORKLOAD_NOINLINE static void
hot_loop (unsigned long iterations)
{
  for (unsigned long i = 0; i < iterations; i++)
    {
      mix_heavy ();
      mix_light ();
    }
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long iterations = workload_arg (argc, argv, 1600);

  hot_loop (iterations);

  printf ("inline: %lu iterations, sink %llx\n", iterations,
          (unsigned long long) workload_sink);
  return 0;
}
