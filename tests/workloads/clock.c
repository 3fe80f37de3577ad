/* clock.c - reads the clock in a hot loop: time spent in the vDSO
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * clock_gettime and gettimeofday do not enter the kernel: glibc calls
 * the vDSO's __vdso_clock_gettime and __vdso_gettimeofday, so most of this
 * program's samples are in [vdso], which the tests check is symbolized
 * from the vDSO image. Runs for about MILLISECONDS (default 1000).
 */
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "workload.h"

volatile uint64_t workload_sink;

static double
seconds_since (const struct timespec *start)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) (now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

int
main (int argc, char **argv)
{
  double seconds = workload_arg (argc, argv, 1000) / 1000.0;
  struct timespec start;

  clock_gettime (CLOCK_MONOTONIC, &start);
  do
    {
      for (int i = 0; i < 1000; i++)
        {
          struct timespec ts;
          struct timeval tv;

          clock_gettime (CLOCK_MONOTONIC, &ts);
          gettimeofday (&tv, NULL);
          workload_consume ((uint64_t) ts.tv_nsec + (uint64_t) tv.tv_usec);
        }
    }
  while (seconds_since (&start) < seconds);
  return 0;
}
