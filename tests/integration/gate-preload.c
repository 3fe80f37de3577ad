/* gate-preload.c - hold a program before main until a test lets it go
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * compare-perf-dwarf.py lets Hotpath start a program and attaches perf to
 * it by pid (perf record -p), so that both sample the same run. perf must
 * be attached before the program does its work, and no exec may come
 * after it attaches: with a shell that waited and then exec'd the
 * program, perf's unwinding stopped at __libc_start_call_main in 3 runs of
 * 5 ("unwind: no map for 1" in perf report -v). Preloaded
 * into the program with HOTPATH_TEST_GATE=FIFO, this constructor runs in
 * the program's own image, after the dynamic loader mapped everything and
 * before main, and reads one line from FIFO: the test writes it once perf
 * has acknowledged that its events are on.
 */
#define G_LOG_DOMAIN "hp-gate"

#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void
hp_test_gate (void)
{
  const char *path = getenv ("HOTPATH_TEST_GATE");
  char c;
  int fd;

  if (path == NULL)
    return;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  /* The program's own children (fork, exec) run free. */
  unsetenv ("HOTPATH_TEST_GATE");
  unsetenv ("LD_PRELOAD");
  if (fd < 0)
    return;
  while (read (fd, &c, 1) == 1 && c != '\n')
    ;
  close (fd);
}
