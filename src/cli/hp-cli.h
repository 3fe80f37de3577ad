/* hp-cli.h - sub-commands of hotpath-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/hp-measure.h"
#include "analysis/hp-profile.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

int  hp_cli_record (int argc, char **argv);
int  hp_cli_import (int argc, char **argv);
int  hp_cli_report (int argc, char **argv);
int  hp_cli_summary (int argc, char **argv);
/* What @path is, of the files hp_perf_import_is_perf_data() takes, for a
 * message: "a perf.data file", "a pprof profile", "a file of folded
 * stacks" (hp-cli-summary-import.c). */
const char *hp_cli_profile_kind (const char *path);
/* summary NEW --import OLD (hp-cli-summary-import.c) */
int  hp_cli_summary_import (const char *new_path,
                            const char *old_path);
/* Writes @summaries (HpCaptureSummary*) of @data's program into the
 * per-user library (@copied: copies of older ones, which do not replace
 * a later text of their path); warns, and goes on, when it cannot. */
void hp_cli_summary_mirror (const HpCaptureData *data,
                            HpCapture           *capture,
                            GPtrArray           *summaries,
                            gboolean             copied);
int  hp_cli_flamegraph (int argc, char **argv);
int  hp_cli_diff (int argc, char **argv);
int  hp_cli_export (int argc, char **argv);
int  hp_cli_add_pending (int argc, char **argv);

/* A cancellable that SIGINT and SIGTERM cancel (Ctrl-C during an import
 * then removes the half-written capture instead of leaving it behind).
 * Call before any other thread is started. */
GCancellable *hp_cli_cancel_on_signals (void);

/* "1 sample", "12 samples": a count of samples as a sentence says it
 * (ngettext), for the lines people read. */
char *hp_cli_samples (guint64 n);

/* The shortest name that finds function @id again, as `report --callers`
 * and summary PATHs take names: without its C++ parameter list
 * ("calc::Fib<7>::eval") unless that also names another function (an
 * overload), else the full name. @cache (gint64 id -> name, made by
 * hp_cli_short_names_new()) keeps the answers of a listing. */
const char *hp_cli_short_name (HpProfile  *profile,
                               gint64      id,
                               GHashTable *cache);

GHashTable *hp_cli_short_names_new (void);

/* The listing of candidates that are too many to print: how many of
 * @n to show, --limit N when given (@limit > 0), else 10. */
guint hp_cli_listing_size (gint  limit,
                           guint n);

/* A command's option parser; @parameters, its usage after the options
 * ("CAPTURE"), its summary and its options are translated: GOption
 * translates the first two only with a translation domain of the
 * context's own, which g_option_context_add_main_entries() does not set. */
GOptionContext *hp_cli_option_context_new (const char *parameters);

/* Prints "hotpath-cli: MESSAGE" on stderr: the one line a failure gets. */
void hp_cli_error  (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* On stderr, when the last list of @capture's summaries left some out
 * (a hostile capture of millions). */
void hp_cli_note_summaries_cut (HpCapture *capture);

/* Whether @output, the file -o names for @command ("record"), may be
 * written: a folder is refused with one line that says so (rather than
 * "exists; use --force" for a folder --force cannot replace either, or
 * GLib's words about a temporary file renamed over it). */
gboolean hp_cli_output_is_file (const char *command,
                                const char *output);

/* An HpSymbolFetchFunc that tells on stderr which debug info debuginfod
 * is asked for and how far its download is. */
void hp_cli_fetch_progress (const char *path,
                            guint64     done,
                            guint64     total,
                            gpointer    user_data);

/* Parses @argv with @context for the sub-command @command; its
 * G_OPTION_REMAINING argument, @files, must then name exactly one file.
 * On failure prints "COMMAND: what is wrong" (@give_one when the files are
 * not one: "give one capture file") and returns FALSE: exit with 2. */
gboolean hp_cli_parse_one_file (GOptionContext *context,
                                const char     *command,
                                int            *argc,
                                char         ***argv,
                                char         ***files,
                                const char     *give_one);

/* Opens @file (a capture, or a perf.data imported into a cached capture)
 * and loads it; on failure prints why and returns FALSE. */
gboolean hp_cli_load_capture (const char     *file,
                              HpCapture     **out_capture,
                              HpCaptureData **out_data);

/* --from/--to (seconds after the first sample, both ends included),
 * --tid, --pid, --merge-recursion, --inline, --hide-kernel and --fold, for
 * the sub-commands that read a profile. */
typedef struct {
  char *event;        /* --event NAME: an event of the capture, or "wall" */
  char *from;
  char *to;
  gint  tid;
  gint  pid;
  gboolean merge_recursion;
  char *inline_mode;  /* "own" (NULL) or "fold" */
  gboolean hide_kernel;
  GStrv fold;         /* --fold NAME: modules or functions folded into their callers */
  char *description;  /* what the filter kept, once applied; NULL: everything */
  gboolean weighted;  /* once applied: what is counted is the samples'
                       * weights (page faults, ns off CPU), not the samples:
                       * measure.by_weight */
  HpMeasure measure;  /* once applied: what the shown event counts (hp-measure.h) */
} HpCliFilter;

void     hp_cli_filter_add_options (HpCliFilter    *filter,
                                    GOptionContext *context);
/* Replaces *@data by the capture seen through the event and the time
 * range, and sets
 * *@tids to the threads to keep (NULL: all), for hp_profile_new(). On a
 * bad option or an empty thread choice prints why and returns FALSE. */
gboolean hp_cli_filter_apply       (HpCliFilter    *filter,
                                    const char     *command,
                                    HpCapture      *capture,
                                    HpCaptureData **data,
                                    GHashTable    **tids);
void     hp_cli_filter_clear       (HpCliFilter    *filter);
/* The events mask of @name in @data ("wall": cpu-clock and off-cpu), or 0
 * after printing why not, for @command. */
guint64  hp_cli_event_mask         (const char          *command,
                                    const char          *file,
                                    const HpCaptureData *data,
                                    const char          *name);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HpCliFilter, hp_cli_filter_clear)

G_END_DECLS
