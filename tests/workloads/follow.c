/* follow.c - one program built twice, its call paths changed three ways
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Summaries follow the code (issue 16): a summary written in a capture of
 * one build must find its call path in a capture of the next build, even
 * where the path itself changed. This program is built twice under the
 * name "follow", each build with its own libfollowlib (follow-lib.c):
 *
 *   follow-old/  -O0 -g, linked with libfollowlib.so.1.2
 *   follow-new/  -O2 without debug information (a release build),
 *                linked with libfollowlib.so.1.3
 *
 * and its three hot paths change between the builds as real rebuilds
 * change them (tests/integration/test-cli-summary-import.c):
 *
 *   main → followlib_work          the library's file name carries its
 *                                  version: module version folded
 *   main → outer → helper → inner  at -O2 GCC inlines helper into outer,
 *                                  and without DWARF nothing says it was
 *                                  there: one frame disappears (appears,
 *                                  from the new build to the old)
 *   main → scaled                  at -O2, called with a constant, scaled
 *                                  becomes GCC's clone scaled.constprop.0:
 *                                  clones folded
 *
 * Each path burns the same units per round, so each holds about a third
 * of the samples in either build.
 *
 * Usage: follow [ROUNDS]   (default 200, about half a second)
 */
#include "workload.h"

#include "follow-lib.h"

volatile uint64_t workload_sink;

WORKLOAD_NOINLINE static void
inner (unsigned long units)
{
  WORK_UNITS (units);
}

/* Not noinline: -O2 inlines it, -O0 keeps it. */
static inline void
helper (unsigned long units)
{
  inner (units);
  workload_sink++;  /* not a tail call: helper (or outer) stays on the stack */
}

WORKLOAD_NOINLINE static void
outer (unsigned long units)
{
  helper (units);
  workload_sink++;
}

/* noinline but clonable: -O2's constant propagation clones it for the one
 * constant factor it is called with. */
__attribute__((noinline)) static void
scaled (unsigned long units,
        unsigned int  factor)
{
  WORK_UNITS (units * factor);
}

int
main (int argc, char **argv)
{
  unsigned long rounds = workload_arg (argc, argv, 200);

  for (unsigned long r = 0; r < rounds; r++)
    {
      followlib_work (3);
      outer (3);
      scaled (1, 3);
    }
  return 0;
}
