/* hp-thread-list.h - a capture's processes and threads, as people name them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

/* One entry of the thread filter */
typedef struct {
  char       *label;    /* shown; made safe, one line */
  GHashTable *tids;     /* the threads it keeps (GINT_TO_POINTER (tid)); NULL: all */
  guint64     samples;
} HpThreadFilterEntry;

void        hp_thread_filter_entry_free     (HpThreadFilterEntry *entry);

/* How an entry says what it counts: "1,234 samples", "12 page faults" */
typedef char *(*HpThreadFilterFormat) (guint64  amount,
                                       gpointer user_data);

/* The entries of the thread filter for @data, @thread_samples[i] being
 * what data->threads[i] counts of the event shown (samples, or page
 * faults, ns), said by @format (NULL: "N samples"): "All threads" first, then per process
 * that has samples, the process (only when there are several processes
 * and it has several threads with samples: otherwise it is the same set
 * as the "All threads" entry or its one thread) and each of its threads
 * with samples, named by name, tid and the function it starts in
 * (@starts, per entry of data->threads as hp_thread_start_functions()
 * gives them; NULL: found here, a pass over the stack counts).
 * Which threads have samples is said by @listed (NULL: @thread_samples):
 * a time range counts @thread_samples in the range, and lists what the
 * whole capture has, so that the entries stay put while it moves.
 * @pid not 0 (a process chosen in the process filter): "All its threads"
 * first, which keeps the process's threads, then each of them.
 * (element-type HpThreadFilterEntry) */
GPtrArray  *hp_thread_filter_entries        (const HpCaptureData  *data,
                                             const char * const   *starts,
                                             const guint64        *listed,
                                             const guint64        *thread_samples,
                                             gint32                pid,
                                             HpThreadFilterFormat  format,
                                             gpointer              user_data);

/* The function thread @tid starts in: on the root side of its most
 * sampled stack, the first frame past the C library's thread start (main
 * for the main thread); NULL when it has no stack. Points into @data. */
const char *hp_thread_start_function        (const HpCaptureData *data,
                                             gint32               tid);
/* The same for every entry of data->threads at once, in one pass over
 * the stack counts (NULL where a thread has no stack); free the array,
 * not its strings, which point into @data. */
const char **hp_thread_start_functions      (const HpCaptureData *data);

/* A process and what a view counts of it (hp_process_amounts) */
typedef struct {
  gint32      pid;
  const char *command;  /* the capture's, not made safe; NULL: not known */
  guint64     amount;
} HpProcessAmount;

/* The processes of @data by what @thread_amounts[i] counts of
 * data->threads[i], busiest first (then by pid), those with nothing left
 * out; @whole, if not NULL, is set to the sum of @thread_amounts, which
 * the shares are of. The window's overview and `hotpath-cli report` list
 * the processes of a capture of several with it.
 * (element-type HpProcessAmount) */
GArray     *hp_process_amounts              (const HpCaptureData *data,
                                             const guint64       *thread_amounts,
                                             guint64             *whole);

G_END_DECLS
