/* ab.c - one program in two versions, for comparing captures (A/A, A/B)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every iteration burns, in work units of workload.h (0.25 ms each):
 *
 *   main → step → parse_input      8 units   40 %
 *   main → step → build_index      5 units   25 %
 *   main → step → score_matches    4 units   20 %   × TARGET_PERCENT / 100
 *   main → step → write_output     3 units   15 %
 *
 * TARGET_PERCENT (default 100) scales the work of score_matches only: at
 * 110 it does 10 % more work, and so takes 10 % more time, while the other
 * three functions do exactly what they did.  That is the "B" of an A/B
 * comparison; two runs at the same value are an A/A comparison.
 *
 * Usage: ab [ITERATIONS [TARGET_PERCENT]]   (default 80 and 100, ~0.4 s)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

/* WORK_UNITS in hundredths of a unit, so that 4 units can become 4.4. */
#define WORK_CENTI_UNITS(centi)                                         \
  do {                                                                  \
    uint64_t work_x_ = 0x9e3779b97f4a7c15ull ^ __LINE__;                \
    uint64_t work_n_ = (uint64_t) (centi) * (WORK_ITERATIONS_PER_UNIT / 100); \
    for (uint64_t work_i_ = 0; work_i_ < work_n_; work_i_++)            \
      {                                                                 \
        work_x_ = work_x_ * 6364136223846793005ull + 1442695040888963407ull; \
        __asm__ volatile ("" : "+r" (work_x_));                         \
      }                                                                 \
    workload_consume (work_x_);                                         \
    __asm__ volatile ("" ::: "memory");                                 \
  } while (0)

WORKLOAD_NOINLINE static void
parse_input (void)
{
  WORK_CENTI_UNITS (800);
}

WORKLOAD_NOINLINE static void
build_index (void)
{
  WORK_CENTI_UNITS (500);
}

WORKLOAD_NOINLINE static void
score_matches (unsigned long percent)
{
  WORK_CENTI_UNITS (4 * percent);
}

WORKLOAD_NOINLINE static void
write_output (void)
{
  WORK_CENTI_UNITS (300);
}

WORKLOAD_NOINLINE static void
step (unsigned long percent)
{
  parse_input ();
  build_index ();
  score_matches (percent);
  write_output ();
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long iterations = workload_arg (argc, argv, 80);
  unsigned long percent = argc > 2 ? workload_arg (argc - 1, argv + 1, 100) : 100;

  for (unsigned long i = 0; i < iterations; i++)
    step (percent);

  printf ("ab: %lu iterations, score_matches at %lu %%, sink %llx\n", iterations, percent,
          (unsigned long long) workload_sink);
  return 0;
}
