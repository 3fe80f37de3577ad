/* hp-cli.h - sub-commands of hotpath-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

int  hp_cli_record (int argc, char **argv);
int  hp_cli_import (int argc, char **argv);
int  hp_cli_report (int argc, char **argv);
int  hp_cli_summary (int argc, char **argv);

/* A cancellable that SIGINT and SIGTERM cancel (Ctrl-C during an import
 * then removes the half-written capture instead of leaving it behind).
 * Call before any other thread is started. */
GCancellable *hp_cli_cancel_on_signals (void);

/* Prints "hotpath-cli: MESSAGE" on stderr: the one line a failure gets. */
void hp_cli_error  (const char *format, ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS
