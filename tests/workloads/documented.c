/* documented.c - functions with doc comments, for Suggest
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each function of the hot path carries a doc comment of a different
 * kind (a block comment, a gtk-doc comment, // lines, none), which Suggest
 * must find from the function's DW_AT_decl_line. Every iteration burns 8
 * units (see workload.h):
 *
 *   main → parse_record → checksum_block   6 units  75 %
 *   main → parse_record → scan_fields      2 units  25 %
 *
 * Usage: documented [ITERATIONS]   (default 400, about 0.8 s)
 */
#include "workload.h"

#include <stdio.h>

volatile uint64_t workload_sink;

/* Adds up the bytes of a record into its checksum: the hot loop of this
 * program, three quarters of its time.
 *
 * A second paragraph that a one-line draft leaves out. */
WORKLOAD_NOINLINE static void
checksum_block (void)
{
  WORK_UNITS (6);
}

/**
 * scan_fields:
 *
 * Walks the separators of a record to find its fields.
 */
WORKLOAD_NOINLINE static void
scan_fields (void)
{
  WORK_UNITS (2);
}

// Parses one record: finds its fields,
// then checks its sum.
WORKLOAD_NOINLINE static void
parse_record (void)
{
  scan_fields ();
  checksum_block ();
  workload_sink++;
}

int
main (int argc, char **argv)
{
  unsigned long iterations = workload_arg (argc, argv, 400);

  for (unsigned long i = 0; i < iterations; i++)
    parse_record ();

  printf ("documented: %lu iterations, sink %llx\n", iterations,
          (unsigned long long) workload_sink);
  return 0;
}
