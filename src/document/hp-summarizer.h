/* hp-summarizer.h - runs a summarizer command on a call path's JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The environment variable hotpath-cli reads the command from */
#define HP_SUMMARIZER_ENV              "HOTPATH_SUMMARIZER"
/* Seconds a summarizer may run before it is stopped, unless told otherwise */
#define HP_SUMMARIZER_DEFAULT_TIMEOUT  120
/* Bytes of stdout a suggestion may have; more is refused */
#define HP_SUMMARIZER_MAX_OUTPUT       (256 * 1024)
/* Bytes of stderr kept to show when it fails; the rest is read and dropped */
#define HP_SUMMARIZER_MAX_STDERR       (16 * 1024)

/* Runs @command (a command line, split as a shell would, without running
 * a shell) with @input on its stdin, in a process group of its own. Its
 * stdout, trimmed, is the result. It fails, with an error that names the
 * command and the reason, when the command cannot start, exits with a
 * status other than 0 or by a signal, runs longer than @timeout_seconds
 * (0: no limit), writes more than HP_SUMMARIZER_MAX_OUTPUT bytes, text
 * that is not UTF-8, or nothing; it is then killed with its process group.
 * Cancelling @cancellable kills it too (G_IO_ERROR_CANCELLED). Runs in
 * the thread-default main context of the caller and never blocks it. */
void   hp_summarizer_run_async  (const char          *command,
                                 const char          *input,
                                 guint                timeout_seconds,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
/* The suggestion, or NULL with @error set. @stderr_text receives what the
 * command wrote on stderr (valid UTF-8, at most HP_SUMMARIZER_MAX_STDERR
 * bytes and a note that the rest was cut), success or not. */
char  *hp_summarizer_run_finish (GAsyncResult        *result,
                                 char               **stderr_text,
                                 GError             **error);

/* The same, waiting in a main context of its own (for hotpath-cli). */
char  *hp_summarizer_run        (const char          *command,
                                 const char          *input,
                                 guint                timeout_seconds,
                                 GCancellable        *cancellable,
                                 char               **stderr_text,
                                 GError             **error);

G_END_DECLS
