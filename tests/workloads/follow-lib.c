/* follow-lib.c - the shared library of the follow workload
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built as libfollowlib.so.1.2 for the old build of follow.c and as
 * libfollowlib.so.1.3 for the new one: the module's base name in a
 * summary's path key changes with its version.
 */
#include "workload.h"

#include "follow-lib.h"

/* The program's own sink interposes this one; it is here so that the
 * library links on its own (-Wl,--no-undefined). */
volatile uint64_t workload_sink;

__attribute__((noinline)) void
followlib_work (unsigned long units)
{
  WORK_UNITS (units);
}
