/* hp-summarizer.c - runs a summarizer command on a call path's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A summarizer is any local program (a model runner, a script) that reads
 * one JSON document on stdin (hp_suggest_input_to_json()) and writes a
 * suggested summary on stdout. It is somebody else's program, so it is
 * treated like hostile input: everything here is asynchronous on the
 * caller's main context (the window's main loop must never wait for it),
 * its output is bounded, checked to be UTF-8, and it is stopped on a
 * timeout or a cancel.
 *
 * Stopping it must stop everything it started: a shell script that runs
 * "sleep 600" leaves the sleep holding the write end of our stdout pipe,
 * and reading would then wait for the sleep. So the command runs in a
 * process group of its own (setsid in the child) and is stopped with
 * SIGKILL to the whole group; and the reads are cancelled as well, for a
 * grandchild that left the group. For the same reason, once the command
 * itself has exited, what is still unread gets READ_GRACE_MS to arrive.
 *
 * The child starts with every signal unblocked and SIGPIPE at its default:
 * hotpath-cli blocks SIGINT and SIGTERM in all its threads (it takes them
 * with sigwait), and a blocked mask or an ignored signal survives exec.
 * Writing the JSON to a summarizer that exits without reading it must not
 * kill Hotpath with SIGPIPE, so the parent ignores SIGPIPE while it runs
 * one (set once; a write to a closed pipe then fails with EPIPE).
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <glib/gi18n.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "document/hp-summarizer.h"
#include "analysis/hp-text.h"

#define READ_CHUNK    (64 * 1024)
#define READ_GRACE_MS 500

typedef struct {
  char         *command;
  GBytes       *input;
  GPid          pid;          /* also its process group's id; 0 before it runs */
  gboolean      exited;       /* reaped: wait_status holds how it ended */
  int           wait_status;
  GOutputStream *stdin_pipe;
  GInputStream *stdout_pipe;
  GInputStream *stderr_pipe;
  GSource      *child_watch;
  GCancellable *io;           /* cancels the pipes' I/O when the command is stopped */
  GByteArray   *out;
  GByteArray   *err;
  gboolean      err_cut;
  guint         timeout_seconds;
  GSource      *timeout;
  GSource      *cancel_source;
  GSource      *grace;
  guint         pending;      /* stdin, stdout, stderr, wait */
  gboolean      timed_out;
  gboolean      too_much;
  gboolean      killed;
  gboolean      returned;
} Run;

typedef struct {
  char   *text;
  char   *err;
  GError *error;
} Outcome;

static void
outcome_free (gpointer p)
{
  Outcome *o = p;

  g_free (o->text);
  g_free (o->err);
  g_clear_error (&o->error);
  g_free (o);
}

static void
destroy_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
reap (GPid     pid,
      gint     wait_status,
      gpointer user_data)
{
  g_spawn_close_pid (pid);
}

static void
run_free (gpointer p)
{
  Run *run = p;

  destroy_source (&run->timeout);
  destroy_source (&run->cancel_source);
  destroy_source (&run->grace);
  destroy_source (&run->child_watch);
  /* a child not reaped yet (the task ended early): killed, then reaped by GLib */
  if (run->pid > 0 && !run->exited)
    {
      kill (-run->pid, SIGKILL);
      g_child_watch_add (run->pid, reap, NULL);
    }
  g_free (run->command);
  g_clear_pointer (&run->input, g_bytes_unref);
  g_clear_object (&run->stdin_pipe);
  g_clear_object (&run->stdout_pipe);
  g_clear_object (&run->stderr_pipe);
  g_clear_object (&run->io);
  g_clear_pointer (&run->out, g_byte_array_unref);
  g_clear_pointer (&run->err, g_byte_array_unref);
  g_free (run);
}

static void
child_setup (gpointer user_data)
{
  sigset_t none;

  /* async-signal-safe calls only: this runs between fork and exec */
  setsid ();
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  signal (SIGPIPE, SIG_DFL);
}

/* Stops the command and all it started, and what is left of the I/O. */
static void
stop (Run *run)
{
  /* until it is reaped its pid is not reused, and after, its group keeps
   * the id while any member lives */
  if (run->pid > 0 && !run->killed)
    {
      run->killed = TRUE;
      kill (-run->pid, SIGKILL);
    }
  g_cancellable_cancel (run->io);
}

static char *
stderr_text (Run *run)
{
  g_autofree char *raw = g_strndup (run->err->len ? (const char *) run->err->data : "", run->err->len);
  g_autofree char *valid = hp_text_make_valid (raw);

  g_strchomp (valid);
  if (run->err_cut)
    /* Translators: after the first part of what a summarizer wrote on stderr */
    return g_strdup_printf ("%s\n[… cut after %d KiB]", valid, HP_SUMMARIZER_MAX_STDERR / 1024);
  return g_steal_pointer (&valid);
}

/* Everything has ended: the result, from what happened. */
static void
finish (GTask *task)
{
  Run *run = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  Outcome *o = g_new0 (Outcome, 1);
  const char *end = NULL;
  gsize len;

  if (run->returned)
    return;
  run->returned = TRUE;
  destroy_source (&run->timeout);
  destroy_source (&run->cancel_source);
  destroy_source (&run->grace);
  o->err = stderr_text (run);
  len = run->out->len;

  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                 "summarizer “%s”: cancelled", run->command);
  else if (run->timed_out)
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                 _("summarizer “%s”: no answer within %u s; stopped"), run->command, run->timeout_seconds);
  else if (run->too_much)
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                 _("summarizer “%s”: wrote more than %d KiB on stdout; stopped"),
                 run->command, HP_SUMMARIZER_MAX_OUTPUT / 1024);
  else if (WIFSIGNALED (run->wait_status))
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 _("summarizer “%s”: killed by signal %d (%s)"), run->command,
                 WTERMSIG (run->wait_status), g_strsignal (WTERMSIG (run->wait_status)));
  else if (!WIFEXITED (run->wait_status) || WEXITSTATUS (run->wait_status) != 0)
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_FAILED,
                 _("summarizer “%s”: exited with status %d"), run->command,
                 WIFEXITED (run->wait_status) ? WEXITSTATUS (run->wait_status) : -1);
  else if (!g_utf8_validate_len ((const char *) run->out->data, len, &end))
    g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 _("summarizer “%s”: its output is not UTF-8 text (at byte %zu)"),
                 run->command, (gsize) (end - (const char *) run->out->data));
  else
    {
      g_autofree char *text = g_strndup (len ? (const char *) run->out->data : "", len);

      g_strstrip (text);
      if (text[0] == '\0')
        g_set_error (&o->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("summarizer “%s”: wrote nothing on stdout"), run->command);
      else
        o->text = g_steal_pointer (&text);
    }
  g_task_return_pointer (task, o, outcome_free);
}

static void
one_done (GTask *task)
{
  Run *run = g_task_get_task_data (task);

  g_assert (run->pending > 0);
  if (--run->pending == 0)
    finish (task);
}

static gboolean
grace_cb (gpointer user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);

  /* something the command started still holds a pipe open */
  g_clear_pointer (&run->grace, g_source_unref);
  kill (-run->pid, SIGKILL);
  g_cancellable_cancel (run->io);
  return G_SOURCE_REMOVE;
}

static void
child_exited (GPid     pid,
              gint     wait_status,
              gpointer user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);

  g_clear_pointer (&run->child_watch, g_source_unref);
  run->exited = TRUE;
  run->wait_status = wait_status;
  g_spawn_close_pid (pid);
  if (run->pending > 1 && run->grace == NULL && !g_cancellable_is_cancelled (run->io))
    {
      run->grace = g_timeout_source_new (READ_GRACE_MS);
      g_source_set_callback (run->grace, grace_cb, g_object_ref (task), g_object_unref);
      g_source_attach (run->grace, g_task_get_context (task));
    }
  one_done (task);
}

static void read_next (GTask *task, GInputStream *stream);

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  GInputStream *stream = G_INPUT_STREAM (object);
  gboolean is_out = stream == run->stdout_pipe;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (stream, result, NULL);
  gsize size;
  const guint8 *data;

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      one_done (task);
      return;
    }
  data = g_bytes_get_data (bytes, &size);
  if (is_out)
    {
      if (run->out->len + size > HP_SUMMARIZER_MAX_OUTPUT)
        {
          run->too_much = TRUE;
          stop (run);
          one_done (task);
          return;
        }
      g_byte_array_append (run->out, data, size);
    }
  else if (run->err->len < HP_SUMMARIZER_MAX_STDERR)
    {
      gsize keep = MIN (size, HP_SUMMARIZER_MAX_STDERR - run->err->len);

      g_byte_array_append (run->err, data, keep);
      run->err_cut |= keep < size;
    }
  else
    run->err_cut = TRUE;
  read_next (task, stream);
}

static void
read_next (GTask        *task,
           GInputStream *stream)
{
  Run *run = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (stream, READ_CHUNK, G_PRIORITY_DEFAULT, run->io,
                                   read_cb, g_object_ref (task));
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  /* a summarizer may exit without reading all of it (EPIPE): its exit
   * status and its output say whether that was a failure */
  g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, NULL);
  g_output_stream_close (G_OUTPUT_STREAM (object), NULL, NULL);
  one_done (task);
}

static gboolean
timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);

  g_clear_pointer (&run->timeout, g_source_unref);
  run->timed_out = TRUE;
  stop (run);
  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  GTask *task = user_data;
  Run *run = g_task_get_task_data (task);

  g_clear_pointer (&run->cancel_source, g_source_unref);
  stop (run);
  return G_SOURCE_REMOVE;
}

void
hp_summarizer_run_async (const char          *command,
                         const char          *input,
                         guint                timeout_seconds,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  int in_fd = -1, out_fd = -1, err_fd = -1;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  static gsize sigpipe_ignored;
  Run *run;

  g_return_if_fail (command != NULL);
  g_return_if_fail (input != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, hp_summarizer_run_async);
  run = g_new0 (Run, 1);
  run->command = hp_text_escape (command);
  run->input = g_bytes_new (input, strlen (input));
  run->io = g_cancellable_new ();
  run->out = g_byte_array_new ();
  run->err = g_byte_array_new ();
  run->timeout_seconds = timeout_seconds;
  g_task_set_task_data (task, run, run_free);

  if (g_once_init_enter (&sigpipe_ignored))
    {
      signal (SIGPIPE, SIG_IGN);
      g_once_init_leave (&sigpipe_ignored, 1);
    }

  if (!g_shell_parse_argv (command, NULL, &argv, &error))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "summarizer “%s”: %s", run->command, error->message);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  if (!g_spawn_async_with_pipes_and_fds (NULL, (const char * const *) argv, NULL,
                                         G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                         child_setup, NULL, -1, -1, -1, NULL, NULL, 0,
                                         &run->pid, &in_fd, &out_fd, &err_fd, &error))
    {
      run->pid = 0;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               "summarizer “%s”: %s", run->command, error->message);
      return;
    }
  run->stdin_pipe = g_unix_output_stream_new (in_fd, TRUE);
  run->stdout_pipe = g_unix_input_stream_new (out_fd, TRUE);
  run->stderr_pipe = g_unix_input_stream_new (err_fd, TRUE);

  run->pending = 4;
  g_output_stream_write_all_async (run->stdin_pipe,
                                   g_bytes_get_data (run->input, NULL), g_bytes_get_size (run->input),
                                   G_PRIORITY_DEFAULT, run->io, write_cb, g_object_ref (task));
  read_next (task, run->stdout_pipe);
  read_next (task, run->stderr_pipe);
  run->child_watch = g_child_watch_source_new (run->pid);
  g_source_set_callback (run->child_watch, G_SOURCE_FUNC (child_exited), g_object_ref (task), g_object_unref);
  g_source_attach (run->child_watch, g_task_get_context (task));

  if (timeout_seconds > 0)
    {
      run->timeout = g_timeout_source_new_seconds (timeout_seconds);
      g_source_set_callback (run->timeout, timeout_cb, g_object_ref (task), g_object_unref);
      g_source_attach (run->timeout, g_task_get_context (task));
    }
  if (cancellable != NULL)
    {
      run->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (run->cancel_source, G_SOURCE_FUNC (cancelled_cb),
                             g_object_ref (task), g_object_unref);
      g_source_attach (run->cancel_source, g_task_get_context (task));
    }
}

char *
hp_summarizer_run_finish (GAsyncResult  *result,
                          char         **stderr_text,
                          GError       **error)
{
  g_autoptr(GError) local = NULL;
  Outcome *o;
  char *text;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  if (stderr_text != NULL)
    *stderr_text = NULL;
  o = g_task_propagate_pointer (G_TASK (result), &local);
  if (o == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  if (stderr_text != NULL)
    *stderr_text = g_steal_pointer (&o->err);
  if (o->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&o->error));
      outcome_free (o);
      return NULL;
    }
  text = g_steal_pointer (&o->text);
  outcome_free (o);
  return text;
}

static void
sync_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

char *
hp_summarizer_run (const char    *command,
                   const char    *input,
                   guint          timeout_seconds,
                   GCancellable  *cancellable,
                   char         **stderr_text,
                   GError       **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) result = NULL;

  g_main_context_push_thread_default (context);
  hp_summarizer_run_async (command, input, timeout_seconds, cancellable, sync_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  return hp_summarizer_run_finish (result, stderr_text, error);
}
