/* workload.h - the unit of work every workload burns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A workload's split of CPU time between call paths is known by
 * construction only if every path burns the same code for a known number of
 * units.  WORK_UNITS() is a latency-bound multiply-add chain: its speed does
 * not depend on code alignment or on the surrounding function, and the empty
 * asm makes the value opaque so the compiler can neither fold nor vectorise
 * the loop.  It is a macro so that the samples land in the function that
 * expands it (that function is the leaf the tests look for).  The seed
 * differs per line so that two functions burning the same number of units
 * are not identical code, which GCC's -fipa-icf (on at -O2) would fold into
 * one symbol: main_work and worker_two_work were once reported as one.
 */
#pragma once

#include <stdint.h>
#include <stdlib.h>

/* Iterations of the chain per unit; about 0.25 ms on a 2020s x86-64 core. */
#define WORK_ITERATIONS_PER_UNIT 250000u

#define WORK_UNITS(units)                                               \
  do {                                                                  \
    uint64_t work_x_ = 0x9e3779b97f4a7c15ull ^ __LINE__;                \
    for (uint64_t work_i_ = 0;                                          \
         work_i_ < (uint64_t) (units) * WORK_ITERATIONS_PER_UNIT;       \
         work_i_++)                                                     \
      {                                                                 \
        work_x_ = work_x_ * 6364136223846793005ull + 1442695040888963407ull; \
        __asm__ volatile ("" : "+r" (work_x_));                         \
      }                                                                 \
    workload_consume (work_x_);                                         \
    __asm__ volatile ("" ::: "memory"); /* not a tail call */           \
  } while (0)

/* Keeps results alive, and after a call makes the call not a tail call, so
 * the caller stays on the stack. */
extern volatile uint64_t workload_sink;

/* GCC 12 sets up no frame in a function that calls nothing, even with
 * -fno-omit-frame-pointer, so a frame-pointer walk from a sample in such a
 * leaf skips the leaf's caller (seen with perf script: alpha_leaf directly
 * under main).  Calling this out of line after the work makes every function
 * that burns a non-leaf with a frame, so the true call path is recorded. */
__attribute__((noinline)) static void
workload_consume (uint64_t value)
{
  workload_sink += value;
  __asm__ volatile ("" ::: "memory");
}

#define WORKLOAD_NOINLINE __attribute__((noinline, noclone))

static inline unsigned long
workload_arg (int argc, char **argv, unsigned long fallback)
{
  if (argc > 1)
    {
      char *end = NULL;
      unsigned long v = strtoul (argv[1], &end, 10);
      if (end != argv[1] && *end == '\0' && v > 0)
        return v;
    }
  return fallback;
}
