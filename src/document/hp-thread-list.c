/* hp-thread-list.c - a capture's processes and threads, as people name them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The thread filter and the timeline's lanes name a thread the way a
 * person tells threads apart: its name (often the program's, for every
 * thread), its tid, and the function it starts in, which is what differs
 * between a pool's workers and the main thread. The start is read from
 * the thread's most sampled stack, so it costs one pass over the stack
 * counts.
 *
 * The filter lists only what has samples, and no set of threads twice: a
 * process gets an entry of its own only when it is one of several and
 * has several sampled threads (one process is "All threads"; a process of
 * one thread is that thread), and a capture of one sampled thread has
 * only "All threads".
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <glib/gi18n.h>

#include "analysis/hp-symbol-name.h"
#include "document/hp-format.h"
#include "document/hp-thread-list.h"
#include "store/hp-capture-keys.h"

/* thread and process names come from the capture: any bytes, any length */
#define SHOWN_NAME_CHARS 60

static gboolean
is_thread_start (const char *name)
{
  static const char * const starts[] = {
    "_start", "__libc_start_main", "__libc_start_main_impl", "__libc_start_call_main",
    "start_thread", "clone", "clone3", HP_FUNCTION_TRUNCATED, "main",
  };

  for (guint i = 0; i < G_N_ELEMENTS (starts); i++)
    if (g_strcmp0 (name, starts[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Walks from @stack_id to the root, remembering the outermost frame that
 * is not a thread start. */
static const char *
start_of_stack (const HpCaptureData *data,
                gint64               stack_id)
{
  const char *found = NULL;

  for (gint64 id = stack_id; id > 0 && (guint) id < data->stacks->len;
       id = g_array_index (data->stacks, HpCaptureStack, id).parent_id)
    {
      const HpCaptureStack *s = &g_array_index (data->stacks, HpCaptureStack, id);
      const HpCaptureFrame *f = &g_array_index (data->frames, HpCaptureFrame, s->frame_id);
      const char *name = g_array_index (data->functions, HpCaptureFunction, f->function_id).name;

      if (g_strcmp0 (name, "main") == 0)
        return name;
      if (!is_thread_start (name))
        found = name;
      else if (found != NULL)
        break;
    }
  return found;
}

const char *
hp_thread_start_function (const HpCaptureData *data,
                          gint32               tid)
{
  gint64 best = -1;
  guint64 best_samples = 0;

  g_return_val_if_fail (data != NULL, NULL);

  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);

      if (c->tid == tid && c->stack_id > 0 && c->samples > best_samples)
        {
          best = c->stack_id;
          best_samples = c->samples;
        }
    }
  return start_of_stack (data, best);
}

const char **
hp_thread_start_functions (const HpCaptureData *data)
{
  g_autoptr(GHashTable) best = g_hash_table_new (NULL, NULL);  /* tid -> index of its most sampled count + 1 */
  const char **starts;

  g_return_val_if_fail (data != NULL, NULL);

  starts = g_new0 (const char *, data->threads->len + 1);
  for (guint i = 0; i < data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *c = &g_array_index (data->stack_counts, HpCaptureStackCount, i);
      guint prev;

      if (c->stack_id <= 0)
        continue;
      prev = GPOINTER_TO_UINT (g_hash_table_lookup (best, GINT_TO_POINTER (c->tid)));
      if (prev == 0 || g_array_index (data->stack_counts, HpCaptureStackCount, prev - 1).samples < c->samples)
        g_hash_table_insert (best, GINT_TO_POINTER (c->tid), GUINT_TO_POINTER (i + 1));
    }
  for (guint t = 0; t < data->threads->len; t++)
    {
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (best, GINT_TO_POINTER (g_array_index (data->threads, HpCaptureThread, t).tid)));

      if (at > 0)
        starts[t] = start_of_stack (data, g_array_index (data->stack_counts, HpCaptureStackCount, at - 1).stack_id);
    }
  return starts;
}

void
hp_thread_filter_entry_free (HpThreadFilterEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->label);
  g_clear_pointer (&entry->tids, g_hash_table_unref);
  g_free (entry);
}

static HpThreadFilterEntry *
entry_new (char       *label,
           GHashTable *tids,
           guint64     samples)
{
  HpThreadFilterEntry *entry = g_new0 (HpThreadFilterEntry, 1);

  entry->label = label;
  entry->tids = tids;
  entry->samples = samples;
  return entry;
}

/* "1,234 samples": what the entries count when the caller does not say */
static char *
format_samples (guint64  samples,
                gpointer user_data)
{
  g_autofree char *count = hp_format_count (samples);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", samples), count);
}

static char *
thread_label (const HpCaptureThread *th,
              const char            *start,
              const char            *amount)
{
  g_autofree char *name = hp_symbol_name_sanitize (th->name ? th->name : "?", -1, SHOWN_NAME_CHARS);

  if (start != NULL)
    {
      g_autofree char *shown_start = hp_symbol_name_sanitize (start, -1, SHOWN_NAME_CHARS);

      /* Translators: thread name, the function it starts in, tid, an amount ("1,234 samples", "12 page faults") */
      return g_strdup_printf (_("Thread %s in %s (%d, %s)"), name, shown_start, th->tid, amount);
    }
  /* Translators: thread name, tid, an amount ("1,234 samples", "12 page faults") */
  return g_strdup_printf (_("Thread %s (%d, %s)"), name, th->tid, amount);
}

GPtrArray *
hp_thread_filter_entries (const HpCaptureData  *data,
                          const char * const   *starts,
                          const guint64        *listed,
                          const guint64        *thread_samples,
                          gint32                pid,
                          HpThreadFilterFormat  format,
                          gpointer              user_data)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_thread_filter_entry_free);
  g_autoptr(GHashTable) listed_pids = g_hash_table_new (NULL, NULL);
  g_autofree const char **found_starts = NULL;
  guint64 total = 0;
  guint n_processes = 0;
  guint n_threads = 0;

  g_return_val_if_fail (data != NULL, entries);

  if (format == NULL)
    format = format_samples;
  if (listed == NULL)
    listed = thread_samples;
  if (starts == NULL)
    starts = found_starts = hp_thread_start_functions (data);

  if (pid != 0)
    {
      /* one process chosen (the process filter): its threads, all first */
      GHashTable *tids = g_hash_table_new (NULL, NULL);
      g_autofree char *amount = NULL;

      for (guint t = 0; t < data->threads->len; t++)
        {
          const HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, t);

          if (th->pid == pid)
            {
              g_hash_table_add (tids, GINT_TO_POINTER (th->tid));
              total += thread_samples[t];
            }
        }
      amount = format (total, user_data);
      /* Translators: first entry of the thread filter when one process is chosen, with what it counts ("1,234 samples") */
      g_ptr_array_add (entries, entry_new (g_strdup_printf (_("All its threads (%s)"), amount), tids, total));
    }
  else
    {
      g_autofree char *amount = NULL;

      for (guint t = 0; t < data->threads->len; t++)
        total += thread_samples[t];
      amount = format (total, user_data);
      /* Translators: first entry of the thread filter, with what it counts ("1,234 samples") */
      g_ptr_array_add (entries, entry_new (g_strdup_printf (_("All threads (%s)"), amount), NULL, total));
    }

  /* processes with samples; a process may be listed without threads, or
   * threads name a pid no process row has: both count by the threads */
  for (guint t = 0; t < data->threads->len; t++)
    if (listed[t] > 0 && (pid == 0 || g_array_index (data->threads, HpCaptureThread, t).pid == pid))
      {
        n_threads++;
        if (g_hash_table_add (listed_pids, GINT_TO_POINTER (g_array_index (data->threads, HpCaptureThread, t).pid)))
          n_processes++;
      }
  g_hash_table_remove_all (listed_pids);

  /* one thread in all: it is "All threads" */
  if (n_threads < 2)
    return entries;

  for (guint start = 0; start < data->threads->len; start++)
    {
      gint32 start_pid = g_array_index (data->threads, HpCaptureThread, start).pid;
      const char *command = NULL;
      GHashTable *tids;
      guint64 samples = 0;
      guint n = 0;

      if (listed[start] == 0 || (pid != 0 && start_pid != pid) ||
          !g_hash_table_add (listed_pids, GINT_TO_POINTER (start_pid)))
        continue;
      for (guint p = 0; p < data->processes->len && command == NULL; p++)
        if (g_array_index (data->processes, HpCaptureProcess, p).pid == start_pid)
          command = g_array_index (data->processes, HpCaptureProcess, p).command;

      tids = g_hash_table_new (NULL, NULL);
      for (guint t = start; t < data->threads->len; t++)
        {
          const HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, t);

          if (th->pid == start_pid && listed[t] > 0)
            {
              g_hash_table_add (tids, GINT_TO_POINTER (th->tid));
              samples += thread_samples[t];
              n++;
            }
        }
      if (n > 1 && n_processes > 1)
        {
          g_autofree char *amount = format (samples, user_data);
          g_autofree char *shown = hp_symbol_name_sanitize (command ? command : "?", -1, SHOWN_NAME_CHARS);

          /* Translators: process command, pid, an amount ("1,234 samples", "12 page faults") */
          g_ptr_array_add (entries, entry_new (g_strdup_printf (_("Process %s (%d, %s)"), shown, start_pid, amount),
                                               tids, samples));
        }
      else
        g_hash_table_unref (tids);

      for (guint t = start; t < data->threads->len; t++)
        {
          const HpCaptureThread *th = &g_array_index (data->threads, HpCaptureThread, t);
          GHashTable *one;

          if (th->pid != start_pid || listed[t] == 0)
            continue;
          one = g_hash_table_new (NULL, NULL);
          g_hash_table_add (one, GINT_TO_POINTER (th->tid));
          {
            g_autofree char *amount = format (thread_samples[t], user_data);

            g_ptr_array_add (entries, entry_new (thread_label (th, starts[t], amount), one, thread_samples[t]));
          }
        }
    }
  return entries;
}

static int
compare_process_amounts (gconstpointer a,
                         gconstpointer b)
{
  const HpProcessAmount *x = a, *y = b;

  if (x->amount != y->amount)
    return x->amount > y->amount ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

GArray *
hp_process_amounts (const HpCaptureData *data,
                    const guint64       *thread_amounts,
                    guint64             *whole)
{
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  GArray *amounts = g_array_new (FALSE, FALSE, sizeof (HpProcessAmount));
  guint64 sum = 0;
  guint kept = 0;

  g_return_val_if_fail (data != NULL, amounts);
  g_return_val_if_fail (thread_amounts != NULL || data->threads->len == 0, amounts);

  for (guint i = 0; i < data->processes->len; i++)
    {
      const HpCaptureProcess *p = &g_array_index (data->processes, HpCaptureProcess, i);
      HpProcessAmount a = { p->pid, p->command, 0 };

      /* a pid the processes list twice counts in its last entry */
      g_array_append_val (amounts, a);
      g_hash_table_insert (index, GINT_TO_POINTER (a.pid), GUINT_TO_POINTER (i + 1));
    }
  for (guint i = 0; i < data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (data->threads, HpCaptureThread, i);
      guint at = GPOINTER_TO_UINT (g_hash_table_lookup (index, GINT_TO_POINTER (t->pid)));

      sum += thread_amounts[i];
      if (at > 0)
        g_array_index (amounts, HpProcessAmount, at - 1).amount += thread_amounts[i];
    }
  for (guint i = 0; i < amounts->len; i++)
    if (g_array_index (amounts, HpProcessAmount, i).amount > 0)
      g_array_index (amounts, HpProcessAmount, kept++) = g_array_index (amounts, HpProcessAmount, i);
  g_array_set_size (amounts, kept);
  g_array_sort (amounts, compare_process_amounts);
  if (whole != NULL)
    *whole = sum;
  return amounts;
}
