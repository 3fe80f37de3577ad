/* hp-perf-import.c - turns a perf.data file into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the import of perf.data: it reads the file with
 * HpPerfFile, feeds its kernel records to the same HpProcessor the live
 * recorder uses (push per record, finish_round at FINISHED_ROUND, flush at
 * the end) and stores what the feature sections say as capture metadata
 * under the keys the recorder writes (schema.sql).
 *
 * A capture holds the samples of one event. perf.data may hold several
 * (perf record -e a,b); the first sampling event is imported unless
 * another is asked for, and the samples of the others are counted.
 *
 * A perf.data that does not hold together is an error, not a partial
 * capture: the capture is written under a temporary name (NAME.PID.part)
 * and only renamed into place once complete, and removed on any error.
 * Parts that killed importers left behind are removed by the next import
 * into the same folder.
 *
 * A pipe on stdin is read through a relay thread that also watches the
 * cancellable, so that Ctrl-C stops an import waiting for data at once
 * rather than at the next record.
 */

#define G_LOG_DOMAIN "hp-import"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "perf/hp-perf-file.h"
#include "record/hp-folded-import.h"
#include "record/hp-pprof-import.h"
#include "record/hp-perf-import.h"
#include "record/hp-processor.h"
#include "store/hp-capture-writer.h"

void
hp_perf_import_result_clear (HpPerfImportResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->event, g_free);
  memset (result, 0, sizeof *result);
}

/* "cpu-clock:ppp" -> "cpu-clock": precise-ip modifiers say nothing about
 * what was measured, unlike :u or :k, which stay. */
static char *
event_display_name (const char *name)
{
  const char *colon = strrchr (name, ':');

  if (colon != NULL && colon[1] != '\0' && strspn (colon + 1, "pP") == strlen (colon + 1))
    return g_strndup (name, colon - name);
  return g_strdup (name);
}

static gboolean
event_is_dummy (const HpPerfFileEvent *event)
{
  return event->type == PERF_TYPE_SOFTWARE && event->config == PERF_COUNT_SW_DUMMY;
}

static const char *
event_unit (const HpPerfFileEvent *event)
{
  if (event->type == PERF_TYPE_SOFTWARE
      && (event->config == PERF_COUNT_SW_CPU_CLOCK || event->config == PERF_COUNT_SW_TASK_CLOCK))
    return "ns";
  if (event->type == PERF_TYPE_HARDWARE
      && (event->config == PERF_COUNT_HW_CPU_CYCLES || event->config == PERF_COUNT_HW_REF_CPU_CYCLES))
    return "cycles";
  if (event->type == PERF_TYPE_HARDWARE && event->config == PERF_COUNT_HW_INSTRUCTIONS)
    return "instructions";
  return "events";
}

static const char *
call_graph_of (const HpPerfFileEvent *event)
{
  guint64 st = event->info.sample_type;

  if ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER))
    return "dwarf";
  if (st & PERF_SAMPLE_BRANCH_STACK)
    return "lbr";
  if (st & PERF_SAMPLE_CALLCHAIN)
    return "fp";
  return "none";
}

/* The event to import: @wanted by name (with or without modifiers), or the
 * first one that samples. */
static const HpPerfFileEvent *
choose_event (HpPerfFile  *file,
              const char  *wanted,
              GError     **error)
{
  guint n = hp_perf_file_get_n_events (file);
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      const HpPerfFileEvent *event = hp_perf_file_get_event (file, i);
      g_autofree char *short_name = event_display_name (event->name);

      if ((wanted == NULL && !event_is_dummy (event))
          || (wanted != NULL && (strcmp (wanted, event->name) == 0 || strcmp (wanted, short_name) == 0)))
        {
          /* The layout of a branch stack depends on branch_sample_type,
           * which the decoder does not follow: refuse rather than call
           * every sample corrupted. */
          if (event->info.sample_type & PERF_SAMPLE_BRANCH_STACK)
            {
              g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_UNSUPPORTED,
                           _("%s: the samples of %s carry branch stacks (perf record -b or --call-graph lbr), "
                             "which are not supported; record with -g or --call-graph dwarf"),
                           hp_perf_file_get_name (file), event->name);
              return NULL;
            }
          return event;
        }
      g_string_append_printf (names, "%s%s", names->len ? ", " : "", event->name);
    }

  if (wanted != NULL)
    g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                 _("%s: no event '%s' in the recording (it has: %s)"),
                 hp_perf_file_get_name (file), wanted, names->str);
  else
    g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                 _("%s: no sampling event in the recording"), hp_perf_file_get_name (file));
  return NULL;
}

static void
configure_symbolizer (HpSymbolizer              *symbolizer,
                      const HpPerfImportOptions *options,
                      const HpPerfFileFeatures  *features)
{
  if (options != NULL && options->sysroot != NULL)
    hp_symbolizer_set_sysroot (symbolizer, options->sysroot);
  if (options != NULL && options->debug_dirs != NULL)
    for (guint i = 0; options->debug_dirs[i] != NULL; i++)
      hp_symbolizer_add_debug_dir (symbolizer, options->debug_dirs[i]);
  if (options != NULL)
    hp_symbolizer_set_fetch_func (symbolizer, options->fetch_func, options->fetch_data);

  /* perf stores the build ids of the files that had samples only here,
   * not in its MMAP records. */
  for (guint i = 0; i < features->build_ids->len; i++)
    {
      const HpPerfFileBuildId *bid = g_ptr_array_index (features->build_ids, i);

      hp_symbolizer_add_build_id (symbolizer, bid->filename, bid->build_id, bid->size);
    }
}

static void
write_metadata (HpCaptureWriter          *writer,
                HpPerfFile               *file,
                const HpPerfFileEvent    *event,
                const char               *perf_data,
                guint64                   first_time,
                guint64                   last_time)
{
  const HpPerfFileFeatures *f = hp_perf_file_get_features (file);
  g_autofree char *name = event_display_name (event->name);
  guint64 duration = 0;
  struct stat st;

  hp_capture_writer_set_metadata (writer, HP_META_COMMAND, f->cmdline);
  hp_capture_writer_set_metadata (writer, HP_META_EVENT, name);
  hp_capture_writer_set_metadata (writer, HP_META_EVENT_UNIT, event_unit (event));
  if (event->freq)
    hp_capture_writer_set_metadata_int (writer, HP_META_FREQUENCY, (gint64) event->sample_freq);
  else
    hp_capture_writer_set_metadata_int (writer, HP_META_PERIOD, (gint64) event->sample_freq);
  hp_capture_writer_set_metadata (writer, HP_META_CALL_GRAPH, call_graph_of (event));
  if (f->hostname != NULL)
    hp_capture_writer_set_metadata (writer, HP_META_HOSTNAME, f->hostname);
  if (f->os_release != NULL)
    hp_capture_writer_set_metadata (writer, HP_META_KERNEL_RELEASE, f->os_release);
  if (f->nr_cpus_online > 0)
    hp_capture_writer_set_metadata_int (writer, HP_META_CPU_COUNT, f->nr_cpus_online);
  if (f->arch != NULL)
    hp_capture_writer_set_metadata (writer, HP_META_ARCH, f->arch);
  if (f->cpu_desc != NULL)
    hp_capture_writer_set_metadata (writer, HP_META_CPU_DESCRIPTION, f->cpu_desc);
  if (f->perf_version != NULL)
    hp_capture_writer_set_metadata (writer, HP_META_PERF_VERSION, f->perf_version);
  if (event->clockid >= 0)
    hp_capture_writer_set_metadata_int (writer, HP_META_CLOCKID, event->clockid);
  if ((event->info.sample_type & PERF_SAMPLE_STACK_USER) && event->sample_stack_user > 0)
    hp_capture_writer_set_metadata_int (writer, HP_META_STACK_SIZE, event->sample_stack_user);

  /* perf's own record of the sample times is exact; in pipe mode there is
   * none and the times seen stand in. */
  if (f->last_sample_time > f->first_sample_time)
    duration = f->last_sample_time - f->first_sample_time;
  else if (last_time > first_time)
    duration = last_time - first_time;
  hp_capture_writer_set_metadata_int (writer, HP_META_DURATION_NS, (gint64) duration);

  /* perf writes the file when the recording ends, so its modification
   * time less the duration is about when it began. */
  if (strcmp (perf_data, "-") != 0 && g_stat (perf_data, &st) == 0)
    {
      g_autoptr(GDateTime) end = g_date_time_new_from_unix_local (st.st_mtime);
      g_autoptr(GDateTime) start = g_date_time_add_seconds (end, -(gdouble) duration / 1e9);
      g_autofree char *iso = g_date_time_format_iso8601 (start);

      hp_capture_writer_set_metadata (writer, HP_META_START_TIME, iso);
    }
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE, hp_perf_file_is_pipe (file) ? "perf.data (pipe mode)" : "perf.data");
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE_PATH, perf_data);
  hp_capture_writer_set_metadata (writer, HP_META_HOTPATH_VERSION, PACKAGE_VERSION);
}

/* A record the decoder rejects is corruption: name it and where it is. */
static gboolean
record_error (HpPerfFile              *file,
              const HpPerfFileRecord  *rec,
              GError                 **error)
{
  g_autoptr(GError) local_error = NULL;
  HpPerfRecord decoded;

  hp_perf_record_decode (&rec->event->info, rec->data, rec->size, &decoded, &local_error);
  g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID, _("%s: corrupted record at offset %" PRIu64 "%s: %s"),
               hp_perf_file_get_name (file), rec->offset,
               rec->compressed ? _(" (in its compressed data)") : "",
               local_error ? local_error->message : _("not decodable"));
  return FALSE;
}

static gboolean
import_records (HpPerfFile                *file,
                HpProcessor               *processor,
                HpCaptureWriter           *writer,
                const HpPerfImportOptions *options,
                const char                *perf_data,
                HpPerfImportResult        *result,
                GCancellable              *cancellable,
                GError                   **error)
{
  const HpPerfFileEvent *selected = NULL;
  HpPerfFileRecord rec;
  guint64 bad_records = 0;
  guint64 first_time = G_MAXUINT64, last_time = 0;
  guint64 n = 0;
  gboolean need_times;
  GError *local_error = NULL;
  HpProcessorStats stats;

  need_times = hp_perf_file_get_features (file)->last_sample_time == 0;

  while (hp_perf_file_next (file, &rec, &local_error))
    {
      if ((++n & 0xfff) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      /* A full disk: the rest would not be written either. */
      if ((n & 0xfff) == 0 && hp_capture_writer_get_error (writer) != NULL)
        return hp_capture_writer_flush (writer, error);

      if (rec.type == HP_PERF_RECORD_FINISHED_ROUND)
        {
          hp_processor_finish_round (processor);
          continue;
        }
      if (rec.event == NULL)
        {
          if (hp_perf_file_get_n_events (file) == 0)
            return g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                                _("%s: corrupted: record at offset %" PRIu64 " comes before any event attribute"),
                                hp_perf_file_get_name (file), rec.offset), FALSE;
          result->other_samples++; /* a sample of an unknown id */
          continue;
        }

      if (rec.type == PERF_RECORD_SAMPLE)
        {
          /* In pipe mode the attributes arrive as records before the
           * first sample: the event to import is known by now. */
          if (selected == NULL && (selected = choose_event (file, options ? options->event : NULL, error)) == NULL)
            return FALSE;
          if (rec.event != selected)
            {
              result->other_samples++;
              continue;
            }
          if (need_times)
            {
              HpPerfRecord decoded;

              if (!hp_perf_record_decode (&rec.event->info, rec.data, rec.size, &decoded, NULL))
                return record_error (file, &rec, error);
              if (decoded.has_time)
                {
                  first_time = MIN (first_time, decoded.time);
                  last_time = MAX (last_time, decoded.time);
                }
            }
        }

      if (rec.lasting)
        hp_processor_push_lasting (processor, &rec.event->info, rec.data, rec.size);
      else
        hp_processor_push (processor, &rec.event->info, rec.data, rec.size);
      hp_processor_get_stats (processor, &stats);
      if (stats.bad_records != bad_records)
        return record_error (file, &rec, error);
    }
  /* Cancelled while reading: the stream was cut, and that is why. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_clear_error (&local_error);
      return FALSE;
    }
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  hp_processor_flush (processor);

  if (selected == NULL && (selected = choose_event (file, options ? options->event : NULL, error)) == NULL)
    return FALSE;
  write_metadata (writer, file, selected, perf_data, first_time, last_time);
  hp_processor_write_stats (processor);
  if (result->other_samples > 0)
    hp_capture_writer_set_metadata_int (writer, HP_META_OTHER_EVENT_SAMPLES, (gint64) result->other_samples);

  hp_processor_get_stats (processor, &stats);
  result->samples = stats.samples;
  result->lost = stats.lost;
  result->unresolved_frames = stats.unresolved_frames;
  result->event = event_display_name (selected->name);
  return TRUE;
}

/* Relay: stdin (a pipe, a FIFO, a terminal) to a socket the reader reads,
 * until stdin ends, the import is cancelled or the reader is gone. */
typedef struct {
  int           in_fd;
  int           out_fd;    /* ours; closed at the end: the reader sees EOF */
  int           stop_fd;   /* readable when the reader is done */
  GCancellable *cancellable;
} Relay;

/* bytes moved per read: a pipe's default capacity is 64 KiB */
#define RELAY_CHUNK 65536

static gpointer
relay_thread (gpointer data)
{
  Relay *relay = data;
  GPollFD cancel_fd = { -1, 0, 0 };
  gboolean have_cancel = relay->cancellable != NULL
                         && g_cancellable_make_pollfd (relay->cancellable, &cancel_fd);
  g_autofree char *buf = g_malloc (RELAY_CHUNK);

  for (;;)
    {
      struct pollfd pfds[3] = {
        { relay->in_fd, POLLIN, 0 },
        { relay->stop_fd, POLLIN, 0 },
        { have_cancel ? cancel_fd.fd : -1, POLLIN, 0 },
      };
      gssize n;
      gsize done = 0;

      if (poll (pfds, 3, -1) < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (pfds[1].revents != 0 || pfds[2].revents != 0
          || g_cancellable_is_cancelled (relay->cancellable))
        break;
      n = read (relay->in_fd, buf, RELAY_CHUNK);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0)
        break;
      /* A reader that stopped reading is done (stop_fd) or gone (EPIPE);
       * a full socket waits in poll, where a cancel still reaches us. */
      while (done < (gsize) n)
        {
          struct pollfd wait[3] = {
            { relay->out_fd, POLLOUT, 0 },
            { relay->stop_fd, POLLIN, 0 },
            { have_cancel ? cancel_fd.fd : -1, POLLIN, 0 },
          };
          gssize w;

          if (poll (wait, 3, -1) < 0)
            {
              if (errno == EINTR)
                continue;
              goto out;
            }
          if (wait[1].revents != 0 || wait[2].revents != 0)
            goto out;
          w = send (relay->out_fd, buf + done, n - done, MSG_NOSIGNAL | MSG_DONTWAIT);
          if (w < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
          if (w <= 0)
            goto out;
          done += w;
        }
    }
out:
  if (have_cancel)
    g_cancellable_release_fd (relay->cancellable);
  shutdown (relay->out_fd, SHUT_WR);
  return NULL;
}

static void
relay_stop (Relay   *relay,
            GThread *thread)
{
  if (thread == NULL)
    return;
  if (write (relay->stop_fd, "x", 1) < 0) {}
  g_thread_join (thread);
}

gboolean
hp_perf_import (const char                *perf_data,
                const char                *capture,
                const HpPerfImportOptions *options,
                HpPerfImportResult        *result,
                GCancellable              *cancellable,
                GError                   **error)
{
  g_autoptr(HpPerfFile) file = NULL;
  HpPerfImportResult local_result = { 0 };
  HpCaptureWriter *writer;
  HpProcessor *processor;
  gint64 start = g_get_monotonic_time ();
  Relay relay = { -1, -1, -1, cancellable };
  GThread *relay_th = NULL;
  int sock[2] = { -1, -1 };
  int stop_pipe[2] = { -1, -1 };
  struct stat st;
  gboolean ok;

  g_return_val_if_fail (perf_data != NULL, FALSE);
  g_return_val_if_fail (capture != NULL, FALSE);

  if (result == NULL)
    result = &local_result;
  memset (result, 0, sizeof *result);

  if (strcmp (perf_data, "-") == 0 && fstat (STDIN_FILENO, &st) == 0 && !S_ISREG (st.st_mode)
      && cancellable != NULL
      && socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock) == 0)
    {
      if (pipe2 (stop_pipe, O_CLOEXEC) != 0)
        {
          close (sock[0]);
          close (sock[1]);
          sock[0] = sock[1] = -1;
        }
      else
        {
          relay.in_fd = STDIN_FILENO;
          relay.out_fd = sock[1];
          relay.stop_fd = stop_pipe[0];
          relay_th = g_thread_new ("hp-stdin", relay_thread, &relay);
        }
    }

  if (relay_th != NULL)
    file = hp_perf_file_open_fd (sock[0], "stdin", error);
  else
    file = hp_perf_file_open (perf_data, error);
  if (file == NULL)
    {
      if (g_cancellable_is_cancelled (cancellable))
        {
          g_clear_error (error);
          g_cancellable_set_error_if_cancelled (cancellable, error);
        }
      ok = FALSE;
      goto out;
    }
  if (hp_perf_file_get_n_events (file) > 0
      && choose_event (file, options ? options->event : NULL, error) == NULL)
    {
      ok = FALSE;
      goto out;
    }

  writer = hp_capture_writer_new_part (capture, error);
  if (writer == NULL)
    {
      ok = FALSE;
      goto out;
    }

  processor = hp_processor_new (writer);
  configure_symbolizer (hp_processor_get_symbolizer (processor), options, hp_perf_file_get_features (file));
  if (strcmp (perf_data, "-") != 0)
    {
      /* perf-PID.map files copied beside the perf.data (the ones in /tmp
       * may be gone, or another process's by now) */
      g_autofree char *dir = g_path_get_dirname (perf_data);

      hp_processor_add_perf_map_dir (processor, dir);
    }

  ok = import_records (file, processor, writer, options, perf_data, result, cancellable, error);
  hp_processor_free (processor);

  ok = hp_capture_writer_end_part (writer, capture, ok, error);
  if (!ok)
    {
      hp_perf_import_result_clear (&local_result);
      goto out;
    }

  result->seconds = (g_get_monotonic_time () - start) / 1e6;
  hp_perf_import_result_clear (&local_result);

out:
  relay_stop (&relay, relay_th);
  g_clear_pointer (&file, hp_perf_file_free);
  for (guint i = 0; i < 2; i++)
    {
      if (sock[i] >= 0)
        close (sock[i]);
      if (stop_pipe[i] >= 0)
        close (stop_pipe[i]);
    }
  return ok;
}

/* Cache -------------------------------------------------------------------- */

static char *
short_hash (const char *text)
{
  g_autofree char *full = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);

  return g_strndup (full, 16);
}

char *
hp_perf_import_cached (const char        *perf_data,
                       HpSymbolFetchFunc  fetch_func,
                       gpointer           fetch_data,
                       GCancellable      *cancellable,
                       GError           **error)
{
  HpPerfImportOptions options = { .fetch_func = fetch_func, .fetch_data = fetch_data };
  g_autofree char *real = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path_key = NULL;
  g_autofree char *state_key = NULL;
  g_autofree char *state = NULL;
  g_autofree char *name = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(GDir) listing = NULL;
  struct stat st;
  const char *entry;

  g_return_val_if_fail (perf_data != NULL, NULL);

  if (g_stat (perf_data, &st) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", perf_data, g_strerror (errsv));
      return NULL;
    }
  real = realpath (perf_data, NULL);
  if (real == NULL)
    real = g_canonicalize_filename (perf_data, NULL);

  /* Keyed by what says the file changed; the version of Hotpath is part of
   * the key, so a newer importer does not reuse an older one's capture. */
  state = g_strdup_printf ("%s\n%" PRId64 "\n%" PRId64 ".%09ld\n%s\n",
                           real, (gint64) st.st_size, (gint64) st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                           PACKAGE_VERSION);
  path_key = short_hash (real);
  state_key = short_hash (state);
  dir = g_build_filename (g_get_user_cache_dir (), "hotpath", "perf-data", NULL);
  name = g_strdup_printf ("%s-%s.hotpath", path_key, state_key);
  capture = g_build_filename (dir, name, NULL);

  if (g_file_test (capture, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&capture);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("cannot create the cache folder %s: %s"), dir, g_strerror (errsv));
      return NULL;
    }

  /* pprof profiles and folded stacks open the same way, through the same cache */
  if (hp_perf_file_sniff (perf_data))
    {
      if (!hp_perf_import (perf_data, capture, &options, NULL, cancellable, error))
        return NULL;
    }
  else if (hp_pprof_sniff (perf_data))
    {
      if (!hp_pprof_import (perf_data, capture, NULL, cancellable, error))
        return NULL;
    }
  else if (hp_folded_sniff (perf_data))
    {
      if (!hp_folded_import (perf_data, capture, NULL, cancellable, error))
        return NULL;
    }
  else if (!hp_perf_import (perf_data, capture, &options, NULL, cancellable, error))
    return NULL;

  /* Older captures of the same perf.data are stale now. */
  listing = g_dir_open (dir, 0, NULL);
  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (entry, path_key) && entry[strlen (path_key)] == '-'
        && g_str_has_suffix (entry, ".hotpath") && strcmp (entry, name) != 0)
      {
        g_autofree char *stale = g_build_filename (dir, entry, NULL);

        hp_capture_writer_remove_files (stale);
      }

  return g_steal_pointer (&capture);
}

char *
hp_perf_import_capture_name (const char *input)
{
  static const char *const suffixes[] = { ".data", ".folded", ".collapsed", ".pb.gz", ".pprof", ".pb" };
  g_autofree char *base = NULL;

  g_return_val_if_fail (input != NULL, NULL);

  if (strcmp (input, "-") == 0)
    return g_strdup ("perf.hotpath");
  base = g_path_get_basename (input);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (base, suffixes[i]))
      {
        base[strlen (base) - strlen (suffixes[i])] = '\0';
        break;
      }
  return g_strconcat (base, ".hotpath", NULL);
}

gboolean
hp_perf_import_is_perf_data (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);

  return hp_perf_file_sniff (path) || hp_pprof_sniff (path) || hp_folded_sniff (path);
}
