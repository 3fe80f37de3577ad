/* hp-summary-store.c - the summaries of a capture, saved by a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * The window's copy of the summaries table. Reads are answered from
 * memory; writes change memory at once and are queued to one worker
 * thread (a GThreadPool of one thread, so they reach the file in the
 * order they were made) that owns its own writable connection, opened on
 * the first write. Each write is one transaction (hp_capture_set_summary),
 * so a crash or a kill leaves every finished edit in the file.
 *
 * Every queued job holds a reference to the store and hands it back to
 * the main thread with its result, so the store is finalized on the main
 * thread, after its last write, even when its window closed before.
 */

#define G_LOG_DOMAIN "hp-document"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>

#include "store/hp-capture.h"
#include "store/hp-summary-library.h"
#include "document/hp-summary-store.h"

typedef struct {
  char      *path;
  HpCapture *capture;   /* worker thread only */
} Writer;

static HpCaptureSummary *
summary_new_here (const char *path,
                  const char *key,
                  const char *readable,
                  const char *text,
                  double      share)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  HpCaptureSummary *row = g_new0 (HpCaptureSummary, 1);

  row->path_key = g_strdup (key);
  row->path = g_strdup (readable ? readable : "");
  row->text = g_strdup (text ? text : "");
  row->updated = g_date_time_format (now, "%Y-%m-%dT%H:%M:%SZ");
  row->created = g_strdup (row->updated);
  row->capture = g_path_get_basename (path);
  row->share = share;
  row->found = TRUE;
  return row;
}

struct _HpSummaryStore {
  GObject       parent_instance;
  char         *path;
  GHashTable   *summaries;
  GHashTable   *rows;      /* path key -> HpCaptureSummary, where known */
  char         *program;   /* whose library mirrors the writes; NULL: none */
  char         *read_only_reason;
  Writer       *writer;
  GThreadPool  *pool;
  GMainContext *context;
  guint         n_pending;
};

G_DEFINE_FINAL_TYPE (HpSummaryStore, hp_summary_store, G_TYPE_OBJECT)

enum {
  CHANGED,
  SAVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

typedef struct {
  HpSummaryStore *store;    /* a reference, handed back to the main thread */
  GTask          *flush;    /* NULL for a write */
  char           *key;
  char           *readable;
  char           *text;
  double          share;
  HpCaptureSummary *put;    /* written as it is (an import), else NULL */
  char           *program;  /* mirror into its library; NULL: not */
  gboolean        ok;
  char           *message;
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->flush);
  g_free (job->key);
  g_free (job->readable);
  g_free (job->text);
  g_clear_pointer (&job->put, hp_capture_summary_free);
  g_free (job->program);
  g_free (job->message);
  g_clear_object (&job->store);
  g_free (job);
}

static gboolean
deliver (gpointer p)
{
  Job *job = p;
  HpSummaryStore *self = job->store;

  if (job->flush != NULL)
    g_task_return_boolean (job->flush, TRUE);
  else
    {
      g_assert (self->n_pending > 0);
      self->n_pending--;
      g_signal_emit (self, signals[SAVED], 0, job->key, job->ok, job->message);
    }
  return G_SOURCE_REMOVE;
}

static void
worker (gpointer data,
        gpointer user_data)
{
  Job *job = data;
  Writer *writer = user_data;
  g_autoptr(GError) error = NULL;

  if (job->flush == NULL)
    {
      if (writer->capture == NULL)
        writer->capture = hp_capture_open (writer->path, TRUE, &error);
      if (writer->capture != NULL && job->put != NULL)
        {
          g_autoptr(GPtrArray) one = g_ptr_array_new ();

          g_ptr_array_add (one, job->put);
          job->ok = hp_capture_put_summaries (writer->capture, one, &error);
        }
      else if (writer->capture != NULL)
        job->ok = hp_capture_set_summary_full (writer->capture, job->key, job->readable, job->text,
                                               job->share, &error);
      if (!job->ok)
        job->message = g_strdup (error->message);
      /* The library is a convenience: the capture has the summary whatever
       * happens to it, so a library that cannot be written is only said. */
      /* an import's summary not found in this capture too: the library is
       * per program, and another capture of it may run that path */
      if (job->ok && job->program != NULL)
        {
          g_autoptr(HpCaptureSummary) row = job->put ? hp_capture_summary_copy (job->put) :
                                            summary_new_here (writer->path, job->key, job->readable,
                                                              job->text, job->share);
          g_autoptr(GError) library_error = NULL;

          if (!hp_summary_library_mirror (job->program, row, job->put != NULL, &library_error))
            g_message ("%s", library_error->message);
        }
    }
  g_main_context_invoke_full (job->store->context, G_PRIORITY_DEFAULT, deliver, job,
                              (GDestroyNotify) job_free);
}

static void
hp_summary_store_finalize (GObject *object)
{
  HpSummaryStore *self = HP_SUMMARY_STORE (object);

  /* no job is left: each holds a reference */
  g_thread_pool_free (self->pool, FALSE, TRUE);
  g_clear_pointer (&self->writer->capture, hp_capture_close);
  g_free (self->writer->path);
  g_free (self->writer);
  g_hash_table_unref (self->summaries);
  g_hash_table_unref (self->rows);
  g_free (self->program);
  g_free (self->read_only_reason);
  g_free (self->path);
  g_main_context_unref (self->context);

  G_OBJECT_CLASS (hp_summary_store_parent_class)->finalize (object);
}

static void
hp_summary_store_class_init (HpSummaryStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hp_summary_store_finalize;

  /* (key) the summary of the path changed in memory */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* (key, ok, message) a write finished; message says why it failed */
  signals[SAVED] =
    g_signal_new ("saved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_BOOLEAN, G_TYPE_STRING);
}

static void
hp_summary_store_init (HpSummaryStore *self)
{
}

HpSummaryStore *
hp_summary_store_new (const char *path,
                      GHashTable *summaries,
                      const char *read_only_reason)
{
  HpSummaryStore *self;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (HP_TYPE_SUMMARY_STORE, NULL);
  self->path = g_strdup (path);
  self->read_only_reason = g_strdup (read_only_reason);
  self->context = g_main_context_ref_thread_default ();
  self->summaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                      (GDestroyNotify) hp_capture_summary_free);
  if (summaries != NULL)
    {
      g_hash_table_iter_init (&iter, summaries);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_hash_table_insert (self->summaries, g_strdup (key), g_strdup (value));
    }
  self->writer = g_new0 (Writer, 1);
  self->writer->path = g_strdup (path);
  self->pool = g_thread_pool_new (worker, self->writer, 1, FALSE, NULL);
  return self;
}

const char *
hp_summary_store_get_path (HpSummaryStore *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), NULL);

  return self->path;
}

const char *
hp_summary_store_get (HpSummaryStore *self,
                      const char     *key)
{
  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->summaries, key);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

GPtrArray *
hp_summary_store_list_keys (HpSummaryStore *self)
{
  GPtrArray *keys;
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), NULL);

  keys = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&iter, self->summaries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  g_ptr_array_sort (keys, compare_keys);
  return keys;
}

const char *
hp_summary_store_get_read_only_reason (HpSummaryStore *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), NULL);

  return self->read_only_reason;
}

void
hp_summary_store_set (HpSummaryStore *self,
                      const char     *key,
                      const char     *readable_path,
                      const char     *text)
{
  hp_summary_store_set_full (self, key, readable_path, text, NAN);
}

/* Changes memory at once and queues the write of @job (taken). */
static void
queue (HpSummaryStore *self,
       Job            *job,
       const char     *text)
{
  if (text == NULL || text[0] == '\0')
    {
      g_hash_table_remove (self->summaries, job->key);
      g_hash_table_remove (self->rows, job->key);
    }
  else
    g_hash_table_insert (self->summaries, g_strdup (job->key), g_strdup (text));
  g_signal_emit (self, signals[CHANGED], 0, job->key);

  job->store = g_object_ref (self);
  job->program = g_strdup (self->program);
  self->n_pending++;
  g_thread_pool_push (self->pool, job, NULL);
}

void
hp_summary_store_set_full (HpSummaryStore *self,
                           const char     *key,
                           const char     *readable_path,
                           const char     *text,
                           double          share)
{
  Job *job;

  g_return_if_fail (HP_IS_SUMMARY_STORE (self));
  g_return_if_fail (key != NULL);

  if (self->read_only_reason != NULL)
    {
      g_signal_emit (self, signals[SAVED], 0, key, FALSE, self->read_only_reason);
      return;
    }
  if (g_strcmp0 (g_hash_table_lookup (self->summaries, key), text && *text ? text : NULL) == 0)
    return;

  if (text != NULL && text[0] != '\0')
    g_hash_table_insert (self->rows, g_strdup (key),
                         summary_new_here (self->path, key, readable_path, text, share));
  job = g_new0 (Job, 1);
  job->key = g_strdup (key);
  job->readable = g_strdup (readable_path);
  job->text = g_strdup (text ? text : "");
  job->share = share;
  queue (self, job, text);
}

void
hp_summary_store_put (HpSummaryStore         *self,
                      const HpCaptureSummary *summary)
{
  Job *job;

  g_return_if_fail (HP_IS_SUMMARY_STORE (self));
  g_return_if_fail (summary != NULL && summary->path_key != NULL && summary->text != NULL);

  if (self->read_only_reason != NULL)
    {
      g_signal_emit (self, signals[SAVED], 0, summary->path_key, FALSE, self->read_only_reason);
      return;
    }
  g_hash_table_insert (self->rows, g_strdup (summary->path_key), hp_capture_summary_copy (summary));
  job = g_new0 (Job, 1);
  job->key = g_strdup (summary->path_key);
  job->put = hp_capture_summary_copy (summary);
  queue (self, job, summary->text);
}

const HpCaptureSummary *
hp_summary_store_get_row (HpSummaryStore *self,
                          const char     *key)
{
  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->rows, key);
}

GPtrArray *
hp_summary_store_dup_rows (HpSummaryStore *self)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hp_capture_summary_free);
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), rows);

  /* every summary, with what is known of where it was written */
  g_hash_table_iter_init (&iter, self->summaries);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const HpCaptureSummary *known = g_hash_table_lookup (self->rows, key);
      HpCaptureSummary *row;

      if (known != NULL)
        row = hp_capture_summary_copy (known);
      else
        {
          row = g_new0 (HpCaptureSummary, 1);
          row->path_key = g_strdup (key);
          row->path = g_strdup ("");
          row->share = NAN;
          row->found = TRUE;
        }
      g_free (row->text);
      row->text = g_strdup (value);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

void
hp_summary_store_set_rows (HpSummaryStore *self,
                           GPtrArray      *rows)
{
  g_return_if_fail (HP_IS_SUMMARY_STORE (self));

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const HpCaptureSummary *row = g_ptr_array_index (rows, i);

      g_hash_table_insert (self->rows, g_strdup (row->path_key), hp_capture_summary_copy (row));
    }
}

void
hp_summary_store_set_program (HpSummaryStore *self,
                              const char     *program)
{
  g_return_if_fail (HP_IS_SUMMARY_STORE (self));

  g_free (self->program);
  self->program = g_strdup (program);
}

guint
hp_summary_store_get_n_pending (HpSummaryStore *self)
{
  g_return_val_if_fail (HP_IS_SUMMARY_STORE (self), 0);

  return self->n_pending;
}

void
hp_summary_store_flush_async (HpSummaryStore      *self,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  Job *job;

  g_return_if_fail (HP_IS_SUMMARY_STORE (self));

  job = g_new0 (Job, 1);
  job->store = g_object_ref (self);
  job->flush = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (job->flush, hp_summary_store_flush_async);
  g_thread_pool_push (self->pool, job, NULL);
}

gboolean
hp_summary_store_flush_finish (HpSummaryStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
