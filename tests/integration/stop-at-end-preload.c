/* stop-at-end-preload.c - hotpath-cli stands still once its program ended
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preloaded into hotpath-cli by test-record-survives with
 * HOTPATH_TEST_STOP_AT_END set: once the first waitpid() has reaped a
 * process that ended, the whole recorder stops (SIGSTOP) at the next
 * "BEGIN IMMEDIATE" it runs, before running it: after the recorded
 * program's end and before the capture is finished (its finish opens a
 * write transaction of its own), and while the recorder holds no write
 * transaction, so that a test takes the capture's write lock at that
 * moment every time and lets the recorder go on (SIGCONT). Stopping in
 * waitpid() itself found the processing thread inside a transaction now
 * and then: the test then got the lock only once the recorder had
 * finished, and saw no wait.
 */
#define G_LOG_DOMAIN "hp-stop-at-end"

#include "config.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

typedef pid_t (*WaitpidFunc) (pid_t pid, int *status, int options);
typedef int (*ExecFunc) (sqlite3 *db, const char *sql, int (*callback) (void *, int, char **, char **),
                         void *data, char **errmsg);

static volatile int ended;

pid_t
waitpid (pid_t pid,
         int  *status,
         int   options)
{
  WaitpidFunc real = (WaitpidFunc) dlsym (RTLD_NEXT, "waitpid");
  int local = 0;
  pid_t r = real (pid, status != NULL ? status : &local, options);

  if (r > 0 && getenv ("HOTPATH_TEST_STOP_AT_END") != NULL
      && (WIFEXITED (status != NULL ? *status : local) || WIFSIGNALED (status != NULL ? *status : local)))
    __atomic_store_n (&ended, 1, __ATOMIC_SEQ_CST);
  return r;
}

int
sqlite3_exec (sqlite3     *db,
              const char  *sql,
              int        (*callback) (void *, int, char **, char **),
              void        *data,
              char       **errmsg)
{
  static int stopped;
  ExecFunc real = (ExecFunc) dlsym (RTLD_NEXT, "sqlite3_exec");

  if (__atomic_load_n (&ended, __ATOMIC_SEQ_CST) && sql != NULL && strcmp (sql, "BEGIN IMMEDIATE") == 0
      && !__atomic_exchange_n (&stopped, 1, __ATOMIC_SEQ_CST))
    kill (getpid (), SIGSTOP);
  return real (db, sql, callback, data, errmsg);
}
