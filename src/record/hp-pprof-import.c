/* hp-pprof-import.c - turns a pprof profile into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A pprof profile (Go's runtime/pprof and net/http/pprof, and every tool
 * that writes profile.proto) is a gzipped protobuf message, decoded here by
 * protobuf-c from src/record/profile.proto. What it holds maps onto a
 * capture: a mapping is a module (path, build id), a location is a machine
 * frame whose Line entries are its inline chain (innermost first), a
 * function has its name, file and start line.
 *
 * Every sample type becomes an event of the capture, counted in its unit
 * ("ns" for nanoseconds), pprof's default type (default_sample_type, else
 * the last) first, so the report shows what go tool pprof shows: cpu of a
 * CPU profile, inuse_space of a Go heap profile (--event alloc_space for
 * another). A sample's value of a type is its weight in that event; how
 * many samples it is comes from the type "samples" (Go's CPU profiles,
 * Hotpath's export), which is no event of its own beside others, else in a
 * profile with a type of time from its first count (a block profile's
 * contentions), else each sample of the profile is one. The labels "tid", "pid" and "thread" (which the pprof
 * export writes) give the thread; without them every sample is in one
 * thread. pprof has no sample times: metadata "lacks" says so (schema.sql).
 *
 * Everything is checked before it is used: a string, mapping, location or
 * function index that points at nothing is an error naming it, as are
 * gzip that does not inflate and a protobuf that does not decode.
 */

#define G_LOG_DOMAIN "hp-import"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "perf/hp-regular-file.h"
#include "record/hp-events.h"
#include "record/hp-folded-import.h"
#include "record/hp-pprof-import.h"
#include "record/profile.pb-c.h"
#include "store/hp-capture-writer.h"

/* A profile bigger than this once inflated is refused: a few kilobytes of
 * gzip must not take the machine's memory. */
#define MAX_INFLATED ((gsize) 1 << 30)
/* What decoding may allocate: 24 times the protobuf (a real profile
 * takes 6 to 12: a sample of 20 frames is 50 bytes on the wire and 300 in
 * memory), at least 256 MiB and at most 4 GiB. An empty message is 2
 * bytes on the wire and a hundred in memory: a megabyte of gzip would
 * otherwise have taken 50 GB. */
#define DECODE_FACTOR     24
#define MIN_DECODE_BUDGET ((gsize) 256 << 20)
#define MAX_DECODE_BUDGET ((gsize) 4 << 30)
/* malloc's own bookkeeping of each block, counted with it */
#define ALLOC_OVERHEAD    16
#define DEFAULT_TID  1
/* Frames of one sample at most: the deepest real stacks hold thousands;
 * a few kilobytes of location ids that each name a location of a
 * thousand inline lines would otherwise make 10^8 frames, minutes of work
 * that nothing could interrupt. */
#define MAX_SAMPLE_FRAMES ((gsize) 1 << 20)
/* Frames of all samples at most, per byte of the protobuf: a location id
 * is a byte or more on the wire, and a real profile's locations hold an
 * inline chain of a few lines, under 2 frames a byte (a Go CPU profile,
 * Hotpath's export). A sample that names a location of a thousand lines
 * a thousand times made 10^6 frames of 1 kB, each one interned: ten such
 * samples, 1.8 kB of gzip, took a minute, and a thousand distinct ones
 * would have written a billion stack rows. At least one sample of
 * MAX_SAMPLE_FRAMES fits, however small the profile. */
#define MAX_FRAMES_PER_BYTE 16
/* How many frames are added between two looks at the cancellable */
#define FRAMES_PER_CHECK  4096

typedef Perftools__Profiles__Profile  PbProfile;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Function PbFunction;
typedef Perftools__Profiles__Mapping  PbMapping;

void
hp_pprof_import_result_clear (HpPprofImportResult *result)
{
  g_clear_pointer (&result->event, g_free);
}

gboolean
hp_pprof_sniff (const char *path)
{
  guint8 head[2];
  gboolean ret;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);

  fd = hp_regular_file_open (path, NULL);
  if (fd < 0)
    return FALSE;
  ret = read (fd, head, sizeof head) == sizeof head && head[0] == 0x1f && head[1] == 0x8b;
  close (fd);
  return ret || g_str_has_suffix (path, ".pprof") || g_str_has_suffix (path, ".pb")
    || g_str_has_suffix (path, ".pb.gz");
}

static gboolean
read_varint (const guint8 *data,
             gsize         size,
             gsize        *pos,
             guint64      *value)
{
  *value = 0;
  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*pos >= size)
        return FALSE;
      byte = data[(*pos)++];
      *value |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The offset of the first top-level field of @data that is not well-formed
 * protobuf wire format (a field number 0, an unknown wire type, a length
 * past the end), or @size when every field is. */
static gsize
first_bad_field (const guint8 *data,
                 gsize         size)
{
  gsize pos = 0;

  while (pos < size)
    {
      gsize start = pos;
      guint64 key, value;

      if (!read_varint (data, size, &pos, &key) || (key >> 3) == 0)
        return start;
      switch (key & 7)
        {
        case 0:
          if (!read_varint (data, size, &pos, &value))
            return start;
          break;
        case 1:
          if (size - pos < 8)
            return start;
          pos += 8;
          break;
        case 2:
          if (!read_varint (data, size, &pos, &value) || value > size - pos)
            return start;
          pos += value;
          break;
        case 5:
          if (size - pos < 4)
            return start;
          pos += 4;
          break;
        default:
          return start;
        }
    }
  return size;
}

static GBytes *
gunzip (const char    *path,
        const guint8  *data,
        gsize          size,
        GError       **error)
{
  g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint8 buffer[1 << 16];
  gsize offset = 0;

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      gsize read = 0, written = 0;
      GConverterResult res = g_converter_convert (G_CONVERTER (decompressor), data + offset, size - offset,
                                                  buffer, sizeof buffer, G_CONVERTER_INPUT_AT_END,
                                                  &read, &written, &local_error);

      if (res == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: bad gzip: the compressed data ends early, at byte %zu (a truncated file?)"),
                         path, size);
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         _("%s: bad gzip near byte %zu: %s"), path, offset, local_error->message);
          return NULL;
        }
      offset += read;
      g_byte_array_append (out, buffer, written);
      if (out->len > MAX_INFLATED)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: inflates to more than %zu MiB; not imported"), path, MAX_INFLATED >> 20);
          return NULL;
        }
      if (res == G_CONVERTER_FINISHED)
        break;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* protobuf-c's allocations, counted against a budget: the first past it
 * fails, and with it the decoding. */
typedef struct {
  gsize    used;
  gsize    budget;
  gboolean exceeded;
} DecodeBudget;

static void *
budget_alloc (void   *data,
              size_t  size)
{
  DecodeBudget *b = data;

  /* used <= budget: no overflow */
  if (size > b->budget || b->used + ALLOC_OVERHEAD > b->budget - size)
    {
      b->exceeded = TRUE;
      return NULL;
    }
  b->used += size + ALLOC_OVERHEAD;
  return g_try_malloc (size ? size : 1);
}

static void
budget_free (void *data,
             void *pointer)
{
  g_free (pointer);
}

typedef struct {
  const char      *path;
  const char      *name;       /* the file's base name: the process's command */
  PbProfile       *profile;
  HpCaptureWriter *writer;
  GHashTable      *mappings;   /* guint64 id -> PbMapping* */
  GHashTable      *modules;    /* guint64 mapping id -> capture module id */
  GHashTable      *locations;  /* guint64 id -> PbLocation* */
  GHashTable      *functions;  /* guint64 id -> PbFunction* */
  GHashTable      *location_frames;  /* PbLocation* -> GArray of its frame ids, outermost first */
  GHashTable      *threads;    /* tid -> TRUE */
  gsize            frames;     /* of the sample being added */
  gsize            all_frames;      /* of the samples added so far */
  gsize            max_all_frames;
  gsize            protobuf_size;   /* its bytes (once inflated) */
} Import;

static gboolean
get_string (Import      *im,
            gint64       index,
            const char **out,
            GError     **error)
{
  if (index < 0 || (guint64) index >= im->profile->n_string_table)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: string %" PRId64 " does not exist (the string table has %zu)"),
                   im->path, index, im->profile->n_string_table);
      return FALSE;
    }
  *out = im->profile->string_table[index];
  return TRUE;
}

static GHashTable *
index_by_id (gpointer *items,
             gsize     n,
             gsize     id_offset)
{
  GHashTable *table = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (gsize i = 0; i < n; i++)
    g_hash_table_insert (table, (guint8 *) items[i] + id_offset, items[i]);
  return table;
}

static gboolean
module_of (Import  *im,
           guint64  mapping_id,
           gint64  *module_id,
           GError **error)
{
  PbMapping *m;
  const char *file, *build_id;
  gpointer found;

  *module_id = 0;
  if (mapping_id == 0)
    return TRUE;
  if (g_hash_table_lookup_extended (im->modules, &mapping_id, NULL, &found))
    {
      *module_id = GPOINTER_TO_SIZE (found);
      return TRUE;
    }
  m = g_hash_table_lookup (im->mappings, &mapping_id);
  if (m == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: mapping %" PRIu64 " does not exist"), im->path, mapping_id);
      return FALSE;
    }
  if (!get_string (im, m->filename, &file, error) || !get_string (im, m->build_id, &build_id, error))
    return FALSE;
  {
    g_autofree char *vfile = g_utf8_make_valid (*file ? file : "[unknown]", -1);
    g_autofree char *vbuild = *build_id ? g_utf8_make_valid (build_id, -1) : NULL;

    *module_id = hp_capture_writer_intern_module (im->writer, vfile, vbuild,
                                                  g_str_has_prefix (file, "[kernel"));
  }
  g_hash_table_insert (im->modules, &m->id, GSIZE_TO_POINTER ((gsize) *module_id));
  return TRUE;
}

/* The frames of @loc, outermost first, into @frames. */
static gboolean
location_frames (Import     *im,
                 PbLocation *loc,
                 GArray     *frames,
                 GError    **error)
{
  gint64 module_id;
  PbMapping *m;
  guint64 offset = loc->address;

  if (!module_of (im, loc->mapping_id, &module_id, error))
    return FALSE;
  m = loc->mapping_id ? g_hash_table_lookup (im->mappings, &loc->mapping_id) : NULL;
  if (m != NULL && offset >= m->memory_start)
    offset = offset - m->memory_start + m->file_offset;

  if (loc->n_line == 0)
    {
      g_autofree char *name = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", loc->address);
      gint64 fn = hp_capture_writer_intern_function (im->writer, name, module_id, NULL, 0);
      gint64 frame = hp_capture_writer_intern_frame (im->writer, fn, NULL, 0, FALSE, offset);

      g_array_append_val (frames, frame);
      return TRUE;
    }
  for (gsize k = loc->n_line; k > 0; k--)
    {
      Perftools__Profiles__Line *line = loc->line[k - 1];
      PbFunction *f = g_hash_table_lookup (im->functions, &line->function_id);
      const char *name, *file;
      g_autofree char *vname = NULL, *vfile = NULL;
      gint64 fn, frame;

      if (f == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: location %" PRIu64 " refers to function %" PRIu64 ", which does not exist"),
                       im->path, loc->id, line->function_id);
          return FALSE;
        }
      if (!get_string (im, f->name, &name, error) || !get_string (im, f->filename, &file, error))
        return FALSE;
      vname = g_utf8_make_valid (*name ? name : "[unknown]", -1);
      vfile = *file ? g_utf8_make_valid (file, -1) : NULL;
      fn = hp_capture_writer_intern_function (im->writer, vname, module_id, vfile,
                                              (guint) CLAMP (f->start_line, 0, G_MAXINT32));
      frame = hp_capture_writer_intern_frame (im->writer, fn, vfile, (guint) CLAMP (line->line, 0, G_MAXINT32),
                                              k < loc->n_line, offset);
      g_array_append_val (frames, frame);
    }
  return TRUE;
}

/* Adds the frames of @loc, outermost first, under @stack: made once for
 * each location, however many samples name it. */
static gboolean
push_location (Import     *im,
               PbLocation *loc,
               gint64     *stack,
               GError    **error)
{
  GArray *frames = g_hash_table_lookup (im->location_frames, loc);

  if (frames == NULL)
    {
      frames = g_array_sized_new (FALSE, FALSE, sizeof (gint64), MAX (loc->n_line, 1));
      if (!location_frames (im, loc, frames, error))
        {
          g_array_unref (frames);
          return FALSE;
        }
      g_hash_table_insert (im->location_frames, loc, frames);
    }
  im->frames += frames->len;
  if (im->frames > MAX_SAMPLE_FRAMES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: a sample's stack holds more than %zu frames; not imported"),
                   im->path, MAX_SAMPLE_FRAMES);
      return FALSE;
    }
  im->all_frames += frames->len;
  if (im->all_frames > im->max_all_frames)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: its samples' stacks hold more than %zu frames in all, more than %d for each of "
                     "the profile's %zu bytes (locations of many inline lines named again and again); "
                     "not imported"),
                   im->path, im->max_all_frames, MAX_FRAMES_PER_BYTE, im->protobuf_size);
      return FALSE;
    }
  for (guint i = 0; i < frames->len; i++)
    *stack = hp_capture_writer_intern_stack (im->writer, *stack, g_array_index (frames, gint64, i));
  return TRUE;
}

/* What a sample type becomes: an event of the capture, its unit as the
 * capture names units ("ns" for nanoseconds). */
typedef struct {
  gsize    index;        /* into the sample's values */
  gint64   event_id;
  guint64  total;        /* of its values, bounded by HP_CAPTURE_MAX_TOTAL */
} TypeEvent;

/* The unit Hotpath counts the event @type in ("page faults" for
 * "page-faults"), when it is an event Hotpath records: pprof knows no such
 * unit (it prints "12page faults"), so the export says "count" of it, and
 * the import gives the unit back. NULL for any other type. */
static char *
known_event_unit (const char *type)
{
  g_autoptr(GArray) known = hp_event_list_known ();

  for (guint i = 0; i < known->len; i++)
    {
      const HpEvent *e = &g_array_index (known, HpEvent, i);

      if (strcmp (e->name, type) == 0 && e->unit != NULL && strcmp (e->unit, "ns") != 0)
        return g_strdup (e->unit);
    }
  return NULL;
}

static gboolean
import_profile (Import               *im,
                HpPprofImportResult  *result,
                GCancellable         *cancellable,
                GError              **error)
{
  PbProfile *p = im->profile;
  gssize count_index = -1, samples_index = -1, ns_index = -1, default_index;
  const char *type, *unit, *period_unit = NULL;
  gboolean has_threads = FALSE;
  g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (TypeEvent));
  guint64 n_samples = 0;

  if (p->n_sample_type == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: no sample type: not a pprof profile, or an empty one"), im->path);
      return FALSE;
    }
  /* pprof's own choice of what to show: default_sample_type, else the
   * last type (inuse_space of a Go heap profile, cpu of a CPU profile) */
  default_index = p->n_sample_type - 1;
  for (gsize i = 0; i < p->n_sample_type; i++)
    {
      if (!get_string (im, p->sample_type[i]->type, &type, error) ||
          !get_string (im, p->sample_type[i]->unit, &unit, error))
        return FALSE;
      if (count_index < 0 && strcmp (unit, "count") == 0)
        count_index = i;
      if (samples_index < 0 && strcmp (unit, "count") == 0 && strcmp (type, "samples") == 0)
        samples_index = i;
      if (ns_index < 0 && strcmp (unit, "nanoseconds") == 0)
        ns_index = i;
      if (p->default_sample_type != 0 && p->sample_type[i]->type == p->default_sample_type)
        default_index = i;
    }
  /* how many samples a row is: the type "samples" (Go's CPU profiles,
   * Hotpath's export), else in a profile of time the first count (a block
   * profile's contentions), else one per row of the profile (a heap
   * profile's values are objects and bytes, not samples) */
  if (samples_index < 0 && ns_index >= 0)
    samples_index = count_index;
  if (p->period_type != NULL && !get_string (im, p->period_type->unit, &period_unit, error))
    return FALSE;

  /* every sample type is an event, pprof's default first; the type that
   * counts samples is one only when it is the profile's one type */
  for (gsize pass = 0; pass < 2; pass++)
    for (gsize i = 0; i < p->n_sample_type; i++)
      {
        TypeEvent te = { i, 0, 0 };
        g_autofree char *name = NULL, *valid_unit = NULL;
        gboolean ns;
        guint64 frequency = 0, period = 0;

        if ((pass == 0) != ((gssize) i == default_index))
          continue;
        if ((gssize) i == samples_index && p->n_sample_type > 1 && (gssize) i != default_index)
          continue;
        if (!get_string (im, p->sample_type[i]->type, &type, error) ||
            !get_string (im, p->sample_type[i]->unit, &unit, error))
          return FALSE;
        ns = strcmp (unit, "nanoseconds") == 0;
        name = g_utf8_make_valid (*type ? type : "samples", -1);
        /* the type that counts samples, as the one event, counts samples */
        valid_unit = g_utf8_make_valid (ns ? "ns" : (gssize) i == samples_index ? "samples" : (*unit ? unit : "count"), -1);
        if (strcmp (valid_unit, "count") == 0)
          {
            char *known = known_event_unit (name);

            if (known != NULL)
              {
                g_free (valid_unit);
                valid_unit = known;
              }
          }
        /* the period is in the unit of the period type: a CPU profile's
         * period of ns is its frequency, a heap profile's of bytes its
         * byte types' period, nothing of its object counts */
        if (p->period > 0 && period_unit != NULL && strcmp (period_unit, unit) == 0)
          {
            if (ns)
              frequency = (guint64) (1e9 / p->period + 0.5);
            else
              period = (guint64) p->period;
          }
        te.event_id = hp_capture_writer_add_event (im->writer, name, valid_unit, frequency, period);
        g_array_append_val (events, te);
        if (pass == 0)
          result->event = g_strdup (name);
      }
  if (p->duration_nanos > 0)
    hp_capture_writer_set_metadata_int (im->writer, HP_META_DURATION_NS, p->duration_nanos);
  if (p->time_nanos > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (p->time_nanos / 1000000000);

      if (when != NULL)
        {
          g_autofree char *iso = g_date_time_format_iso8601 (when);

          hp_capture_writer_set_metadata (im->writer, HP_META_START_TIME, iso);
        }
    }

  for (gsize i = 0; i < p->n_sample; i++)
    {
      Perftools__Profiles__Sample *s = p->sample[i];
      gint64 stack = 0, count;
      gint32 tid = DEFAULT_TID, pid = DEFAULT_TID;
      const char *thread = NULL;

      if (s->n_value != p->n_sample_type)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: sample %zu has %zu values for %zu sample types"),
                       im->path, i, s->n_value, p->n_sample_type);
          return FALSE;
        }
      count = samples_index >= 0 ? s->value[samples_index] : 1;
      if (count < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%s: sample %zu has a negative value"), im->path, i);
          return FALSE;
        }
      for (guint e = 0; e < events->len; e++)
        {
          TypeEvent *te = &g_array_index (events, TypeEvent, e);
          gint64 value = s->value[te->index];

          if (value < 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: sample %zu has a negative value"), im->path, i);
              return FALSE;
            }
          if ((guint64) count > HP_CAPTURE_MAX_TOTAL || n_samples + count > HP_CAPTURE_MAX_TOTAL ||
              (guint64) value > HP_CAPTURE_MAX_TOTAL || te->total + value > HP_CAPTURE_MAX_TOTAL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: sample %zu takes the profile past the %" PRIu64 " samples"
                             " or weight a capture holds"),
                           im->path, i, HP_CAPTURE_MAX_TOTAL);
              return FALSE;
            }
        }
      for (gsize l = 0; l < s->n_label; l++)
        {
          const char *key;

          if (!get_string (im, s->label[l]->key, &key, error))
            return FALSE;
          if (strcmp (key, "tid") == 0 && s->label[l]->num > 0 && s->label[l]->num <= G_MAXINT32)
            tid = (gint32) s->label[l]->num;
          else if (strcmp (key, "pid") == 0 && s->label[l]->num > 0 && s->label[l]->num <= G_MAXINT32)
            pid = (gint32) s->label[l]->num;
          else if (strcmp (key, "thread") == 0 && !get_string (im, s->label[l]->str, &thread, error))
            return FALSE;
        }
      if (tid != DEFAULT_TID)
        has_threads = TRUE;
      if (!g_hash_table_contains (im->threads, GINT_TO_POINTER (tid)))
        {
          g_autofree char *vthread = g_utf8_make_valid (thread ? thread : "pprof", -1);

          g_hash_table_add (im->threads, GINT_TO_POINTER (tid));
          hp_capture_writer_set_process (im->writer, pid, im->name);
          hp_capture_writer_set_thread (im->writer, tid, pid, vthread);
        }

      im->frames = 0;
      for (gsize k = s->n_location_id, checked = im->all_frames; k > 0; k--)
        {
          PbLocation *loc = g_hash_table_lookup (im->locations, &s->location_id[k - 1]);

          if (loc == NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("%s: sample %zu refers to location %" PRIu64 ", which does not exist"),
                           im->path, i, s->location_id[k - 1]);
              return FALSE;
            }
          if (!push_location (im, loc, &stack, error))
            return FALSE;
          /* by frames, not ids: one id may be a thousand frames */
          if (im->all_frames - checked >= FRAMES_PER_CHECK)
            {
              checked = im->all_frames;
              if (g_cancellable_set_error_if_cancelled (cancellable, error))
                return FALSE;
            }
        }
      /* a count, not a row per sample: the format has no times to keep.
       * A row counts in each event it has a value of (a heap profile's
       * inuse_space is 0 where everything allocated was freed); one of
       * samples without any value weighs nothing */
      for (guint e = 0; e < events->len; e++)
        {
          TypeEvent *te = &g_array_index (events, TypeEvent, e);
          gint64 value = s->value[te->index];
          guint64 rows = samples_index >= 0 ? (guint64) count : (value > 0 ? 1 : 0);

          if (rows == 0 || (value == 0 && (gssize) te->index != samples_index))
            continue;
          hp_capture_writer_add_count (im->writer, te->event_id, tid, stack, rows, (guint64) value);
          te->total += value;
          if (e == 0)
            result->samples += rows;
        }
      n_samples += count;
      if (i % 1024 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  hp_capture_writer_set_metadata (im->writer, HP_META_LACKS, has_threads ? "times" : "times,threads");
  return TRUE;
}

/* Reads @path whole, when it is a regular file of at most MAX_INFLATED
 * bytes: a profile can be no bigger inflated, nor (gzip does not make
 * data smaller than that much bigger) compressed. A sparse file of
 * 8 GB was read whole, into as much memory, before a byte was looked at. */
static gboolean
read_profile (const char  *path,
              char       **contents,
              gsize       *size,
              GError     **error)
{
  g_autofree char *data = NULL;
  struct stat st;
  gsize done = 0;
  int fd = hp_regular_file_open_as (path, "a pprof profile", &st, error);

  if (fd < 0)
    return FALSE;
  if ((guint64) st.st_size > MAX_INFLATED)
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: %" G_GUINT64_FORMAT " MiB, more than the %" G_GSIZE_FORMAT " MiB a pprof profile may take; "
                   "not imported", path, (guint64) st.st_size >> 20, MAX_INFLATED >> 20);
      return FALSE;
    }
  data = g_malloc ((gsize) st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, data + done, (gsize) st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          close (fd);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path, g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        break;  /* shorter now than it was: what is there */
      done += (gsize) n;
    }
  close (fd);
  data[done] = '\0';
  *contents = g_steal_pointer (&data);
  *size = done;
  return TRUE;
}

gboolean
hp_pprof_import (const char           *pprof,
                 const char           *capture,
                 HpPprofImportResult  *result,
                 GCancellable         *cancellable,
                 GError              **error)
{
  g_autofree char *contents = NULL;
  g_autofree char *base = NULL;
  g_autoptr(GBytes) inflated = NULL;
  HpPprofImportResult local_result = { 0 };
  HpCaptureWriter *writer;
  const guint8 *data;
  gsize size;
  PbProfile *profile;
  Import im = { 0 };
  DecodeBudget budget = { 0 };
  ProtobufCAllocator allocator = { budget_alloc, budget_free, &budget };
  gboolean ok;

  g_return_val_if_fail (pprof != NULL, FALSE);
  g_return_val_if_fail (capture != NULL, FALSE);

  if (!read_profile (pprof, &contents, &size, error))
    return FALSE;
  if (size >= 2 && (guint8) contents[0] == 0x1f && (guint8) contents[1] == 0x8b)
    {
      inflated = gunzip (pprof, (const guint8 *) contents, size, error);
      if (inflated == NULL)
        return FALSE;
      data = g_bytes_get_data (inflated, &size);
    }
  else
    data = (const guint8 *) contents;
  if (size == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: empty: not a pprof profile"), pprof);
      return FALSE;
    }
  budget.budget = CLAMP (size > MAX_DECODE_BUDGET / DECODE_FACTOR ? MAX_DECODE_BUDGET : size * DECODE_FACTOR,
                         MIN_DECODE_BUDGET, MAX_DECODE_BUDGET);
  profile = perftools__profiles__profile__unpack (&allocator, size, data);
  if (profile == NULL && budget.exceeded)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: decoding its %zu bytes%s would take more than %zu MiB of memory (%d times their size); not imported"),
                   pprof, size, inflated ? _(" (once inflated)") : "", budget.budget >> 20, DECODE_FACTOR);
      return FALSE;
    }
  if (profile == NULL)
    {
      gsize bad = first_bad_field (data, size);

      /* protobuf-c says only that it failed: say where, when the wire
       * format itself is broken */
      if (bad < size)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s: bad protobuf at byte %zu of %zu%s: "
                       "not a well-formed field of a pprof Profile message"),
                     pprof, bad, size, inflated ? _(" (once inflated)") : "");
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s: bad protobuf: its %zu bytes%s are well-formed fields "
                       "that do not decode as a pprof Profile message"),
                     pprof, size, inflated ? _(" (once inflated)") : "");
      return FALSE;
    }

  writer = hp_capture_writer_new_part (capture, error);
  if (writer == NULL)
    {
      perftools__profiles__profile__free_unpacked (profile, &allocator);
      return FALSE;
    }
  base = g_path_get_basename (pprof);
  hp_capture_writer_set_metadata (writer, HP_META_COMMAND, base);
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE, "pprof");
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE_PATH, pprof);
  hp_capture_writer_set_metadata (writer, HP_META_HOTPATH_VERSION, PACKAGE_VERSION);

  im.path = pprof;
  im.name = base;
  /* pprof's program is its first mapping ("File:" in go tool pprof) */
  if (profile->n_mapping > 0 && profile->mapping[0]->filename > 0
      && (guint64) profile->mapping[0]->filename < profile->n_string_table)
    {
      g_autofree char *program = g_path_get_basename (profile->string_table[profile->mapping[0]->filename]);

      g_free (base);
      base = g_utf8_make_valid (program, -1);
      im.name = base;
    }
  im.profile = profile;
  im.writer = writer;
  im.protobuf_size = size;
  im.max_all_frames = size > MAX_SAMPLE_FRAMES / MAX_FRAMES_PER_BYTE ? size * MAX_FRAMES_PER_BYTE
                                                                      : MAX_SAMPLE_FRAMES;
  im.mappings = index_by_id ((gpointer *) profile->mapping, profile->n_mapping, G_STRUCT_OFFSET (PbMapping, id));
  im.locations = index_by_id ((gpointer *) profile->location, profile->n_location, G_STRUCT_OFFSET (PbLocation, id));
  im.functions = index_by_id ((gpointer *) profile->function, profile->n_function, G_STRUCT_OFFSET (PbFunction, id));
  im.location_frames = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  im.modules = g_hash_table_new (g_int64_hash, g_int64_equal);
  im.threads = g_hash_table_new (NULL, NULL);
  ok = import_profile (&im, &local_result, cancellable, error);
  g_hash_table_unref (im.mappings);
  g_hash_table_unref (im.locations);
  g_hash_table_unref (im.functions);
  g_hash_table_unref (im.location_frames);
  g_hash_table_unref (im.modules);
  g_hash_table_unref (im.threads);
  perftools__profiles__profile__free_unpacked (profile, &allocator);

  if (!hp_capture_writer_end_part (writer, capture, ok, error))
    {
      hp_pprof_import_result_clear (&local_result);
      return FALSE;
    }
  if (result != NULL)
    *result = local_result;
  else
    hp_pprof_import_result_clear (&local_result);
  return TRUE;
}
