/* symtest-target.c - a program whose inline chain is known by construction
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built with -g -O2. test-symbolizer finds the code of helper() inside
 * outer() and checks the chain helper (inline) -> outer. The marker comments
 * let the test compute the expected lines from this file, so editing it does
 * not break the test.
 */
#include <stdlib.h>

static volatile int sink;

static inline __attribute__((always_inline)) int
helper (int x) /* MARK: helper-decl */
{
  int acc = 0;

  for (int i = 0; i < x; i++)
    acc += i * sink + (acc >> 3); /* MARK: helper-body */
  return acc;
} /* MARK: helper-end */

__attribute__((noinline)) int
outer (int x) /* MARK: outer-decl */
{
  int r = helper (x); /* MARK: call-helper */

  sink = r;
  return r + 1;
}

int
main (int argc, char **argv)
{
  return outer (argc > 1 ? atoi (argv[1]) : 10) == 0;
}
