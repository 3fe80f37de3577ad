/* stop-at-end-preload.c - hotpath-cli stands still once its program ended
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preloaded into hotpath-cli by test-record-survives with
 * HOTPATH_TEST_STOP_AT_END set: the first waitpid() that reaps a process
 * that ended stops the whole recorder (SIGSTOP) right there, after the
 * recorded program's end and before the capture is finished, so that a
 * test takes the capture's write lock at that moment every time and lets
 * the recorder go on (SIGCONT).
 */
#define G_LOG_DOMAIN "hp-stop-at-end"

#include "config.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef pid_t (*WaitpidFunc) (pid_t pid, int *status, int options);

pid_t
waitpid (pid_t pid,
         int  *status,
         int   options)
{
  static int stopped;
  WaitpidFunc real = (WaitpidFunc) dlsym (RTLD_NEXT, "waitpid");
  int local = 0;
  pid_t r = real (pid, status != NULL ? status : &local, options);

  if (r > 0 && !stopped && getenv ("HOTPATH_TEST_STOP_AT_END") != NULL
      && (WIFEXITED (status != NULL ? *status : local) || WIFSIGNALED (status != NULL ? *status : local)))
    {
      stopped = 1;
      kill (getpid (), SIGSTOP);
    }
  return r;
}
