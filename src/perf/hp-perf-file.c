/* hp-perf-file.c - reads perf.data files (and perf record -o - streams)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the perf.data container format, as written by perf's
 * util/header.c and util/session.c; the records inside are decoded by
 * hp-perf-record.c, the same decoder the live recorder uses.
 *
 * File mode ("PERFILE2", 104-byte header):
 *
 *   header | attrs: n x (perf_event_attr of attr_size - 16 bytes, ids section)
 *          | data: records | feature sections table (one per bit set in
 *          | adds_features, in bit order) | the feature sections
 *
 * Pipe mode (perf record -o -, a 16-byte header): everything is a record;
 * attributes come as HEADER_ATTR, features as HEADER_FEATURE, event names
 * as EVENT_UPDATE, before the kernel records that need them.
 *
 * This reader handles the user-space records (type >= 64) itself and hands
 * out the kernel records (type < 64) and FINISHED_ROUND, with the event that
 * produced each one. COMPRESSED records are zstd streams cut at arbitrary
 * points: one decompression context lives for the whole file and a record
 * may straddle two COMPRESSED records, as in perf's session.c.
 *
 * Nothing here trusts a size or an offset from the file: every read is
 * bounds-checked, and a file that does not hold together gives one error
 * that names the file and the offset or section at fault. Big-endian files
 * (magic "2ELIFREP") are refused rather than byte-swapped.
 *
 * Regular files are mapped; pipes are read through a sliding buffer. A
 * file-mode perf.data arriving on a pipe is read into memory first, since
 * its feature sections come after the data. The pages of a mapped file that
 * the reader has passed are given back (MADV_DONTNEED) as it goes: a
 * perf.data of a gigabyte would otherwise stay resident until the end of
 * the import. A record handed out earlier stays readable (the kernel reads
 * a page given back in again from the file), so records may be kept.
 */

#define G_LOG_DOMAIN "hp-perf"

#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "perf/hp-perf-file.h"
#include "perf/hp-perf-reader.h"
#include "perf/hp-regular-file.h"

#define PERF_MAGIC_LE      G_GUINT64_CONSTANT (0x32454c4946524550) /* "PERFILE2" */
#define PERF_MAGIC_BE      G_GUINT64_CONSTANT (0x50455246494c4532) /* "2ELIFREP" read as LE */
#define PERF_MAGIC_V1      G_GUINT64_CONSTANT (0x454c494646524550) /* "PERFFILE" */

#define FILE_HEADER_SIZE   104  /* magic, size, attr_size, 3 sections, 256-bit feature bitmap */
#define FILE_HEADER_V0     72   /* the same without the bitmap */
#define PIPE_HEADER_SIZE   16
#define ATTR_SIZE_VER0     64
#define FEATURE_BITS       256
/* No perf_event_attr is near this size (128 bytes in Linux 6.x); the bound
 * keeps a forged size from making one attribute swallow the file. */
#define MAX_ATTR_SIZE      4096

/* perf's struct perf_file_section and perf_file_header (util/header.h),
 * for their field offsets: the file is read through get_u64, never cast. */
typedef struct {
  guint64 offset;
  guint64 size;
} PerfFileSection;

typedef struct {
  guint64         magic;
  guint64         size;
  guint64         attr_size;
  PerfFileSection attrs;
  PerfFileSection data;
  PerfFileSection event_types;
  guint64         adds_features[FEATURE_BITS / 64];
} PerfFileHeader;

G_STATIC_ASSERT (sizeof (PerfFileHeader) == FILE_HEADER_SIZE);
G_STATIC_ASSERT (offsetof (PerfFileHeader, adds_features) == FILE_HEADER_V0);

#define HEADER_AT(field)   offsetof (PerfFileHeader, field)

/* Every record starts with a perf_event_header; the layouts of the
 * user-space records this file reads past it (tools/lib/perf/include/
 * perf/event.h), for their field offsets. */
#define RECORD_HEADER_SIZE sizeof (struct perf_event_header)
#define RECORD_TYPE_AT     offsetof (struct perf_event_header, type)
#define RECORD_SIZE_AT     offsetof (struct perf_event_header, size)

typedef struct {
  struct perf_event_header header;
  guint64                  type;    /* EVENT_UPDATE_NAME: a name follows */
  guint64                  id;
} PerfEventUpdateRecord;

typedef struct {
  struct perf_event_header header;
  guint64                  feat_id; /* the feature section follows */
} PerfFeatureRecord;

typedef struct {
  struct perf_event_header header;
  guint64                  data_size; /* COMPRESSED2; COMPRESSED has none */
} PerfCompressed2Record;

typedef struct {
  struct perf_event_header header;
  guint32                  size;    /* of the data after the record */
  guint32                  pad;
} PerfTracingDataRecord;

typedef struct {
  struct perf_event_header header;
  guint64                  size;    /* of the data after the record */
} PerfAuxtraceRecord;

/* The offsets of perf's layouts, which no padding of ours may move. */
G_STATIC_ASSERT (sizeof (PerfEventUpdateRecord) == 24);
G_STATIC_ASSERT (sizeof (PerfFeatureRecord) == 16);
G_STATIC_ASSERT (sizeof (PerfCompressed2Record) == 16);
G_STATIC_ASSERT (offsetof (PerfTracingDataRecord, pad) == 12);
G_STATIC_ASSERT (sizeof (PerfAuxtraceRecord) == 16);

/* perf's struct perf_record_header_build_id: header, pid, then 24 bytes
 * that are the build id (20 bytes, zero-padded) or, with
 * MISC_BUILD_ID_SIZE, 20 bytes, their length and 3 reserved; then the
 * file name to the end of the record. */
typedef struct {
  struct perf_event_header header;
  gint32                   pid;
  guint8                   build_id[20];
  guint8                   size;
  guint8                   reserved[3];
} PerfBuildIdRecord;

G_STATIC_ASSERT (sizeof (PerfBuildIdRecord) == 36);

#define BUILD_ID_AT(field) offsetof (PerfBuildIdRecord, field)

/* perf's user-space record types (tools/lib/perf/include/perf/event.h) */
enum {
  REC_HEADER_ATTR        = 64,
  REC_HEADER_EVENT_TYPE  = 65,
  REC_HEADER_TRACING_DATA = 66,
  REC_HEADER_BUILD_ID    = 67,
  REC_FINISHED_ROUND     = 68,
  REC_ID_INDEX           = 69,
  REC_AUXTRACE_INFO      = 70,
  REC_AUXTRACE           = 71,
  REC_EVENT_UPDATE       = 78,
  REC_HEADER_FEATURE     = 80,
  REC_COMPRESSED         = 81,
  REC_FINISHED_INIT      = 82,
  REC_COMPRESSED2        = 83,
};

/* perf's feature bits (util/header.h) */
enum {
  FEAT_BUILD_ID    = 2,
  FEAT_HOSTNAME    = 3,
  FEAT_OSRELEASE   = 4,
  FEAT_VERSION     = 5,
  FEAT_ARCH        = 6,
  FEAT_NRCPUS      = 7,
  FEAT_CPUDESC     = 8,
  FEAT_CMDLINE     = 11,
  FEAT_EVENT_DESC  = 12,
  FEAT_SAMPLE_TIME = 21,
  FEAT_COMPRESSED  = 27,
};

#define EVENT_UPDATE_NAME        2
#define MISC_BUILD_ID_SIZE       (1 << 15)

/* One COMPRESSED record decompresses to at most perf's ring size (a few
 * MiB); the bound keeps a forged record from exhausting memory. */
#define MAX_DECOMPRESSED         (64u << 20)
/* What the compressed data of a whole file may decompress to, so that the
 * time and memory a file costs grow with its size: a few kB of zstd can
 * inflate to gigabytes of 8-byte records. perf record -z (perf 6.1, level
 * 1) measured at most 1296 times (--call-graph dwarf,65528 on a loop at 4
 * kHz: the same stack copy over and over) and at most 0.2 records per
 * compressed byte (cpu-clock at 20 kHz without call graphs); the bounds
 * leave 6 and 160 times that. Both count from the first compressed byte
 * on, plus a floor, and are checked as the data inflates, so that a bomb
 * stops at its first record. */
#define DECOMPRESSED_PER_BYTE    8192u
#define DECOMPRESSED_FLOOR       (4u << 20)
#define RECORDS_PER_BYTE         32u
#define RECORDS_FLOOR            4096u
#define STREAM_CHUNK             (256u << 10)
/* Mapped pages behind the reader are given back in steps of RELEASE_STEP,
 * keeping the last RELEASE_KEEP bytes (the records of the current round,
 * which are read again when they are processed). */
#define RELEASE_STEP             (32u << 20)
#define RELEASE_KEEP             (32u << 20)
/* Mapped pages ahead of the reader are mapped in by the kernel in steps of
 * POPULATE_STEP (MADV_POPULATE_READ, Linux 5.14) rather than one page
 * fault at a time: the faults were a tenth of an import, more in a VM. */
#define POPULATE_STEP            (4u << 20)

struct _HpPerfFile {
  char         *name;

  /* The input, when all of it is in memory (mapped file or given buffer). */
  const guint8 *mem;
  gsize         mem_size;
  gpointer      mapping;      /* munmap on free */
  gsize         mapping_size;
  gsize         released;     /* mapping bytes before this were given back */
  gsize         populated;    /* mapping bytes before this were mapped in ahead */
  guint8       *owned;        /* g_free on free */

  /* The input, when read from a pipe: buf holds the stream's bytes from
   * file offset buf_offset on. */
  int           fd;
  GByteArray   *buf;
  guint64       buf_offset;
  gboolean      eof;

  gboolean      pipe;         /* pipe-mode format */
  guint64       pos;          /* file offset of the next record */
  guint64       data_start;
  guint64       data_end;     /* G_MAXUINT64: up to the end of the input */

  GPtrArray    *events;       /* HpPerfFileEvent* */
  GHashTable   *event_by_id;  /* guint64* -> HpPerfFileEvent* */
  int           id_pos;       /* u64 index of the id in a sample body, -1: none */
  int           is_pos;       /* u64 index from the end of a sample_id trailer, -1: none */

  HpPerfFileFeatures features;

  ZSTD_DCtx    *zstd;
  GByteArray   *decomp;       /* decompressed records not handed out yet */
  gsize         decomp_pos;
  guint64       decomp_offset; /* offset of the COMPRESSED record being read */
  guint64       compressed_in;     /* compressed bytes read so far */
  guint64       decompressed_out;  /* what they decompressed to */
  guint64       decompressed_records;
};

/* Errors --------------------------------------------------------------- */

static gboolean G_GNUC_PRINTF (4, 5)
fail (HpPerfFile  *self,
      GError     **error,
      HpPerfError  code,
      const char  *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, HP_PERF_ERROR, code, "%s: %s", self->name, message);
  return FALSE;
}

/* Little-endian reads from bytes already bounds-checked ------------------ */

static inline guint64
get_u64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint32
get_u32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline guint16
get_u16 (const guint8 *p)
{
  guint16 v;

  memcpy (&v, p, 2);
  return GUINT16_FROM_LE (v);
}

/* Events ----------------------------------------------------------------- */

static void
event_free (gpointer data)
{
  HpPerfFileEvent *event = data;

  g_free (event->name);
  g_array_unref (event->ids);
  g_free (event);
}

static void
build_id_free (gpointer data)
{
  HpPerfFileBuildId *bid = data;

  g_free (bid->filename);
  g_free (bid);
}

char *
hp_perf_event_name_for (guint32 type,
                        guint64 config)
{
  static const char * const hardware[] = {
    "cycles", "instructions", "cache-references", "cache-misses",
    "branch-instructions", "branch-misses", "bus-cycles",
    "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
  };
  static const char * const software[] = {
    "cpu-clock", "task-clock", "page-faults", "context-switches",
    "cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
    "emulation-faults", "dummy", "bpf-output", "cgroup-switches",
  };

  if (type == PERF_TYPE_HARDWARE && config < G_N_ELEMENTS (hardware))
    return g_strdup (hardware[config]);
  if (type == PERF_TYPE_SOFTWARE && config < G_N_ELEMENTS (software))
    return g_strdup (software[config]);
  return g_strdup_printf ("%u:0x%" G_GINT64_MODIFIER "x", type, config);
}

/* Offsets of perf_event_attr fields (a stable ABI: fields are only ever
 * appended, and the size field says how many a file has). */
#define ATTR_TYPE              offsetof (struct perf_event_attr, type)
#define ATTR_SIZE              offsetof (struct perf_event_attr, size)
#define ATTR_CONFIG            offsetof (struct perf_event_attr, config)
#define ATTR_SAMPLE_PERIOD     offsetof (struct perf_event_attr, sample_period)
#define ATTR_SAMPLE_TYPE       offsetof (struct perf_event_attr, sample_type)
#define ATTR_READ_FORMAT       offsetof (struct perf_event_attr, read_format)
#define ATTR_FLAGS             (offsetof (struct perf_event_attr, read_format) + 8)
#define ATTR_SAMPLE_REGS_USER  offsetof (struct perf_event_attr, sample_regs_user)
#define ATTR_SAMPLE_STACK_USER offsetof (struct perf_event_attr, sample_stack_user)
#define ATTR_CLOCKID           offsetof (struct perf_event_attr, clockid)
#define ATTR_SIZE_VER3         96   /* PERF_ATTR_SIZE_VER3: up to clockid */

G_STATIC_ASSERT (ATTR_SAMPLE_REGS_USER == 80 && ATTR_CLOCKID == 92 && ATTR_FLAGS == 40);

#define FLAG_FREQ                   (1ull << 10)
#define FLAG_SAMPLE_ID_ALL          (1ull << 18)
#define FLAG_EXCLUDE_CALLCHAIN_USER (1ull << 22)
#define FLAG_USE_CLOCKID            (1ull << 25)

/* Adds the event described by the @size bytes of attribute at @attr;
 * fields beyond @size are zero, as the kernel treats them. The layout is
 * read field by field rather than through struct perf_event_attr so that
 * files written with a larger attribute than our headers know still read. */
static HpPerfFileEvent *
add_event (HpPerfFile   *self,
           const guint8 *attr,
           gsize         size)
{
  HpPerfFileEvent *event = g_new0 (HpPerfFileEvent, 1);
  guint64 flags;

  g_assert (size >= ATTR_SIZE_VER0);

  flags = get_u64 (attr + ATTR_FLAGS);
  event->type = get_u32 (attr + ATTR_TYPE);
  event->config = get_u64 (attr + ATTR_CONFIG);
  event->sample_freq = get_u64 (attr + ATTR_SAMPLE_PERIOD);
  event->freq = (flags & FLAG_FREQ) != 0;
  event->exclude_callchain_user = (flags & FLAG_EXCLUDE_CALLCHAIN_USER) != 0;
  event->info.sample_type = get_u64 (attr + ATTR_SAMPLE_TYPE);
  event->info.read_format = get_u64 (attr + ATTR_READ_FORMAT);
  event->info.sample_id_all = (flags & FLAG_SAMPLE_ID_ALL) != 0;
  event->clockid = -1;
  if (size >= ATTR_SIZE_VER3)
    {
      event->info.sample_regs_user = get_u64 (attr + ATTR_SAMPLE_REGS_USER);
      event->sample_stack_user = get_u32 (attr + ATTR_SAMPLE_STACK_USER);
      if (flags & FLAG_USE_CLOCKID)
        event->clockid = (gint32) get_u32 (attr + ATTR_CLOCKID);
    }
  event->name = hp_perf_event_name_for (event->type, event->config);
  event->ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_ptr_array_add (self->events, event);

  /* perf requires the id at the same place in every event's records and
   * computes it from the first event (evlist__id_pos). */
  if (self->events->len == 1)
    {
      guint64 st = event->info.sample_type;

      if (st & PERF_SAMPLE_IDENTIFIER)
        self->id_pos = 0, self->is_pos = 1;
      else if (st & PERF_SAMPLE_ID)
        {
          self->id_pos = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
                         !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
          self->is_pos = 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
        }
      else
        self->id_pos = self->is_pos = -1;
    }
  return event;
}

/* FALSE when @id is already another event's: the kernel gives every
 * event its own, and a file that gives one to two events would have its
 * samples counted as the second's, without a word. */
static gboolean
add_event_id (HpPerfFile      *self,
              HpPerfFileEvent *event,
              guint64          id)
{
  HpPerfFileEvent *other = g_hash_table_lookup (self->event_by_id, &id);

  if (other != NULL && other != event)
    return FALSE;
  g_array_append_val (event->ids, id);
  g_hash_table_insert (self->event_by_id, g_memdup2 (&id, sizeof id), event);
  return TRUE;
}

static HpPerfFileEvent *
event_for_id (HpPerfFile *self,
              guint64     id)
{
  return g_hash_table_lookup (self->event_by_id, &id);
}

/* The event of a kernel record, from its id when there are several. */
static const HpPerfFileEvent *
event_of_record (HpPerfFile   *self,
                 const guint8 *data,
                 gsize         size,
                 guint32       type)
{
  const HpPerfFileEvent *first;
  HpPerfFileEvent *event;
  gsize at;

  if (self->events->len == 0)
    return NULL;
  first = g_ptr_array_index (self->events, 0);
  if (self->events->len == 1)
    return first;

  if (type == PERF_RECORD_SAMPLE)
    {
      if (self->id_pos < 0)
        return first;
      at = RECORD_HEADER_SIZE + (gsize) self->id_pos * sizeof (guint64);
      if (at + sizeof (guint64) > size)
        return NULL;
      /* A sample whose id names no event is not attributed to a guess. */
      return event_for_id (self, get_u64 (data + at));
    }

  if (self->is_pos < 0 || !first->info.sample_id_all ||
      size < RECORD_HEADER_SIZE + (gsize) self->is_pos * sizeof (guint64))
    return first;
  event = event_for_id (self, get_u64 (data + size - (gsize) self->is_pos * sizeof (guint64)));
  return event != NULL ? event : first;
}

static void
set_event_name (HpPerfFileEvent *event,
                const char      *name)
{
  if (name == NULL || name[0] == '\0')
    return;
  g_free (event->name);
  event->name = g_strdup (name);
}

/* Features --------------------------------------------------------------- */

static gboolean
parse_build_ids (HpPerfFile   *self,
                 const guint8 *data,
                 gsize         size)
{
  gsize pos = 0;

  /* A list of PerfBuildIdRecord, each followed by its file name. */
  while (size - pos >= sizeof (struct perf_event_header))
    {
      const guint8 *rec = data + pos;
      guint16 misc = get_u16 (rec + BUILD_ID_AT (header.misc));
      guint16 rsize = get_u16 (rec + BUILD_ID_AT (header.size));
      HpPerfFileBuildId *bid;

      if (rsize < sizeof (PerfBuildIdRecord) || rsize > size - pos)
        return FALSE;
      bid = g_new0 (HpPerfFileBuildId, 1);
      bid->pid = get_u32 (rec + BUILD_ID_AT (pid));
      bid->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
      memcpy (bid->build_id, rec + BUILD_ID_AT (build_id), sizeof bid->build_id);
      bid->size = (misc & MISC_BUILD_ID_SIZE) ? MIN (rec[BUILD_ID_AT (size)], sizeof bid->build_id)
                                              : sizeof bid->build_id;
      bid->filename = g_strndup ((const char *) rec + sizeof (PerfBuildIdRecord),
                                 rsize - sizeof (PerfBuildIdRecord));
      g_ptr_array_add (self->features.build_ids, bid);
      pos += rsize;
    }
  return TRUE;
}

static gboolean
parse_event_desc (HpPerfFile   *self,
                  const guint8 *data,
                  gsize         size)
{
  HpPerfReader c = { data, size, 0 };
  guint32 n_events, attr_size;

  if (!hp_perf_reader_u32 (&c, &n_events) || !hp_perf_reader_u32 (&c, &attr_size))
    return FALSE;
  if (attr_size < ATTR_SIZE_VER0 || attr_size > MAX_ATTR_SIZE)
    return FALSE;

  for (guint32 i = 0; i < n_events; i++)
    {
      g_autofree char *name = NULL;
      HpPerfFileEvent *event = NULL;
      guint32 n_ids;
      guint64 id = 0;

      if (!hp_perf_reader_skip (&c, attr_size) ||
          !hp_perf_reader_u32 (&c, &n_ids) ||
          !hp_perf_reader_string (&c, &name))
        return FALSE;
      if (n_ids > hp_perf_reader_remaining (&c) / sizeof (guint64))
        return FALSE;
      for (guint32 j = 0; j < n_ids; j++)
        {
          hp_perf_reader_u64 (&c, &id);
          if (event == NULL)
            event = event_for_id (self, id);
        }
      /* perf matches descriptions to events by id; without ids, by order. */
      if (event == NULL && n_ids == 0 && i < self->events->len)
        event = g_ptr_array_index (self->events, i);
      if (event != NULL)
        set_event_name (event, name);
    }
  return TRUE;
}

static gboolean
parse_feature (HpPerfFile   *self,
               guint         feature,
               const guint8 *data,
               gsize         size)
{
  HpPerfFileFeatures *f = &self->features;
  HpPerfReader c = { data, size, 0 };
  char **target = NULL;

  switch (feature)
    {
    case FEAT_HOSTNAME:  target = &f->hostname; break;
    case FEAT_OSRELEASE: target = &f->os_release; break;
    case FEAT_VERSION:   target = &f->perf_version; break;
    case FEAT_ARCH:      target = &f->arch; break;
    case FEAT_CPUDESC:   target = &f->cpu_desc; break;

    case FEAT_NRCPUS:
      return hp_perf_reader_u32 (&c, &f->nr_cpus_available) && hp_perf_reader_u32 (&c, &f->nr_cpus_online);

    case FEAT_CMDLINE:
      {
        g_autoptr(GString) s = g_string_new (NULL);
        guint32 n;

        if (!hp_perf_reader_u32 (&c, &n))
          return FALSE;
        for (guint32 i = 0; i < n; i++)
          {
            g_autofree char *arg = NULL;

            if (!hp_perf_reader_string (&c, &arg))
              return FALSE;
            if (i > 0)
              g_string_append_c (s, ' ');
            g_string_append (s, arg);
          }
        g_free (f->cmdline);
        f->cmdline = g_string_free (g_steal_pointer (&s), FALSE);
        return TRUE;
      }

    case FEAT_EVENT_DESC:
      return parse_event_desc (self, data, size);

    case FEAT_BUILD_ID:
      return parse_build_ids (self, data, size);

    case FEAT_SAMPLE_TIME:
      return hp_perf_reader_u64 (&c, &f->first_sample_time) && hp_perf_reader_u64 (&c, &f->last_sample_time);

    case FEAT_COMPRESSED:
      {
        guint32 version;

        return hp_perf_reader_u32 (&c, &version) && hp_perf_reader_u32 (&c, &f->compression);
      }

    default:
      return TRUE;  /* not needed for a profile */
    }

  g_free (*target);
  *target = NULL;
  return hp_perf_reader_string (&c, target);
}

static const char *
feature_name (guint feature)
{
  switch (feature)
    {
    case FEAT_BUILD_ID:    return "BUILD_ID";
    case FEAT_HOSTNAME:    return "HOSTNAME";
    case FEAT_OSRELEASE:   return "OSRELEASE";
    case FEAT_VERSION:     return "VERSION";
    case FEAT_ARCH:        return "ARCH";
    case FEAT_NRCPUS:      return "NRCPUS";
    case FEAT_CPUDESC:     return "CPUDESC";
    case FEAT_CMDLINE:     return "CMDLINE";
    case FEAT_EVENT_DESC:  return "EVENT_DESC";
    case FEAT_SAMPLE_TIME: return "SAMPLE_TIME";
    case FEAT_COMPRESSED:  return "COMPRESSED";
    default:               return "unknown";
    }
}

/* Input ------------------------------------------------------------------ */

/* Reads from the pipe into buf until it holds @n bytes from @offset on,
 * or the stream ends. Bytes before @offset are forgotten. */
static gboolean
stream_fill (HpPerfFile  *self,
             guint64      offset,
             gsize        n,
             GError     **error)
{
  g_assert (offset >= self->buf_offset);

  /* Forget what has been read; compact only when it is worth a copy. */
  if (offset - self->buf_offset >= self->buf->len)
    {
      self->buf_offset += self->buf->len;
      g_byte_array_set_size (self->buf, 0);
    }
  else if (offset - self->buf_offset > STREAM_CHUNK)
    {
      g_byte_array_remove_range (self->buf, 0, (guint) (offset - self->buf_offset));
      self->buf_offset = offset;
    }

  while (!self->eof && self->buf_offset + self->buf->len < offset + n)
    {
      gsize old = self->buf->len;
      gssize r;

      g_byte_array_set_size (self->buf, old + STREAM_CHUNK);
      do
        r = read (self->fd, self->buf->data + old, STREAM_CHUNK);
      while (r < 0 && errno == EINTR);
      g_byte_array_set_size (self->buf, old + MAX (r, 0));
      if (r < 0)
        {
          int errsv = errno;

          return fail (self, error, HP_PERF_ERROR_TRUNCATED, "read error at offset %" PRIu64 ": %s",
                       self->buf_offset + old, g_strerror (errsv));
        }
      if (r == 0)
        self->eof = TRUE;

      /* Skipping a payload: drop what lies before @offset as it comes. */
      if (self->buf_offset + self->buf->len <= offset)
        {
          self->buf_offset += self->buf->len;
          g_byte_array_set_size (self->buf, 0);
        }
    }
  return TRUE;
}

/* Pointer to @n bytes at file offset @offset, or NULL when the input ends
 * before (or on a read error, with @error set); *available receives how
 * many bytes there are from @offset on. For pipes the pointer is valid
 * until the next call. */
static const guint8 *
input_peek (HpPerfFile  *self,
            guint64      offset,
            gsize        n,
            gsize       *available,
            GError     **error)
{
  if (self->buf == NULL)
    {
      gsize have = offset <= self->mem_size ? self->mem_size - (gsize) offset : 0;

      *available = have;
      return have >= n ? self->mem + offset : NULL;
    }

  *available = 0;
  if (!stream_fill (self, offset, n, error))
    return NULL;
  if (offset < self->buf_offset || offset - self->buf_offset > self->buf->len)
    return NULL;
  *available = self->buf->len - (gsize) (offset - self->buf_offset);
  return *available >= n ? self->buf->data + (offset - self->buf_offset) : NULL;
}

/* Header ----------------------------------------------------------------- */

static gboolean
check_section (HpPerfFile  *self,
               const char  *what,
               guint64      offset,
               guint64      size,
               GError     **error)
{
  if (offset > self->mem_size || size > self->mem_size - offset)
    return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                 "truncated or corrupted: the %s (offset %" PRIu64 ", %" PRIu64
                 " bytes) ends past the end of the file (%zu bytes)",
                 what, offset, size, self->mem_size);
  return TRUE;
}

static gboolean
read_attrs (HpPerfFile  *self,
            guint64      attr_size,
            guint64      offset,
            guint64      size,
            GError     **error)
{
  guint64 n;

  /* Each entry is an attribute and the file section of its ids. */
  if (attr_size < ATTR_SIZE_VER0 + sizeof (PerfFileSection) || attr_size > MAX_ATTR_SIZE ||
      attr_size % sizeof (guint64) != 0)
    return fail (self, error, HP_PERF_ERROR_INVALID,
                 "corrupted header: attribute size %" PRIu64 " at offset %zu is not a perf_event_attr size",
                 attr_size, HEADER_AT (attr_size));
  if (!check_section (self, "attribute section", offset, size, error))
    return FALSE;
  if (size == 0 || size % attr_size != 0)
    return fail (self, error, HP_PERF_ERROR_INVALID,
                 "corrupted header: the attribute section at offset %" PRIu64 " holds %" PRIu64
                 " bytes, not a whole number of %" PRIu64 "-byte attributes",
                 offset, size, attr_size);

  n = size / attr_size;
  for (guint64 i = 0; i < n; i++)
    {
      const guint8 *entry = self->mem + offset + i * attr_size;
      gsize attr_bytes = (gsize) attr_size - sizeof (PerfFileSection);
      guint32 declared = get_u32 (entry + ATTR_SIZE);
      guint64 ids_offset = get_u64 (entry + attr_bytes + offsetof (PerfFileSection, offset));
      guint64 ids_size = get_u64 (entry + attr_bytes + offsetof (PerfFileSection, size));
      HpPerfFileEvent *event;

      /* attr.size 0 means PERF_ATTR_SIZE_VER0 (perf's read_attr). */
      if (declared == 0)
        declared = ATTR_SIZE_VER0;
      if (declared < ATTR_SIZE_VER0 || declared > attr_bytes)
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted attribute %" PRIu64 " at offset %" PRIu64
                     ": size %u does not fit its %zu-byte slot",
                     i, offset + i * attr_size, declared, attr_bytes);

      event = add_event (self, entry, declared);
      if (!check_section (self, "ids of an attribute", ids_offset, ids_size, error))
        return FALSE;
      for (guint64 j = 0; j + 8 <= ids_size; j += 8)
        if (!add_event_id (self, event, get_u64 (self->mem + ids_offset + j)))
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted attribute %" G_GUINT64_FORMAT " at offset %" G_GUINT64_FORMAT
                       ": its id %" G_GUINT64_FORMAT " is already another event's",
                       i, offset + i * attr_size, get_u64 (self->mem + ids_offset + j));
    }
  return TRUE;
}

static gboolean
read_features (HpPerfFile   *self,
               const guint8 *bitmap,
               guint64       table_offset,
               GError      **error)
{
  guint n = 0;
  guint index = 0;

  for (guint bit = 0; bit < FEATURE_BITS; bit++)
    if (get_u64 (bitmap + (bit / 64) * 8) & (G_GUINT64_CONSTANT (1) << (bit % 64)))
      n++;
  if (n == 0)
    return TRUE;
  if (!check_section (self, "feature section table", table_offset, (guint64) n * sizeof (PerfFileSection), error))
    return FALSE;

  for (guint bit = 0; bit < FEATURE_BITS; bit++)
    {
      const guint8 *entry;
      guint64 offset, size;

      if (!(get_u64 (bitmap + (bit / 64) * 8) & (G_GUINT64_CONSTANT (1) << (bit % 64))))
        continue;
      entry = self->mem + table_offset + index * sizeof (PerfFileSection);
      offset = get_u64 (entry + offsetof (PerfFileSection, offset));
      size = get_u64 (entry + offsetof (PerfFileSection, size));
      index++;

      if (offset > self->mem_size || size > self->mem_size - offset)
        return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                     "truncated or corrupted: the %s feature section (offset %" PRIu64 ", %" PRIu64
                     " bytes) ends past the end of the file (%zu bytes)",
                     feature_name (bit), offset, size, self->mem_size);
      if (!parse_feature (self, bit, self->mem + offset, (gsize) size))
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted %s feature section at offset %" PRIu64,
                     feature_name (bit), offset);
    }
  return TRUE;
}

static gboolean
check_magic (HpPerfFile    *self,
             const guint8  *data,
             gsize          size,
             GError       **error)
{
  guint64 magic;

  if (size == 0)
    return fail (self, error, HP_PERF_ERROR_TRUNCATED, "empty file (0 bytes), not a perf.data file");
  if (size < 8)
    return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                 "truncated header at offset 0: %zu bytes, a perf.data header has at least 16",
                 size);

  magic = get_u64 (data);
  if (magic == PERF_MAGIC_BE)
    return fail (self, error, HP_PERF_ERROR_UNSUPPORTED,
                 "big-endian perf.data (recorded on a big-endian machine) is not supported; "
                 "convert it there with 'perf script' or record on this architecture");
  if (magic == PERF_MAGIC_V1)
    return fail (self, error, HP_PERF_ERROR_UNSUPPORTED,
                 "perf.data version 1 (magic PERFFILE, perf before 2.6.38) is not supported");
  if (magic != PERF_MAGIC_LE)
    {
      g_autofree char *shown = g_strndup ((const char *) data, 8);

      for (char *p = shown; *p; p++)
        if (!g_ascii_isprint (*p))
          *p = '?';
      return fail (self, error, HP_PERF_ERROR_INVALID,
                   "not a perf.data file: magic '%s' at offset 0, expected 'PERFILE2'", shown);
    }
  return TRUE;
}

/* Parses the header of the in-memory input. */
static gboolean
read_header (HpPerfFile  *self,
             GError     **error)
{
  const guint8 *h = self->mem;
  guint64 header_size, attr_size, data_offset, data_size;

  if (!check_magic (self, self->mem, self->mem_size, error))
    return FALSE;
  if (self->mem_size < PIPE_HEADER_SIZE)
    return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                 "truncated header at offset 0: %zu bytes", self->mem_size);

  header_size = get_u64 (h + HEADER_AT (size));
  if (header_size == PIPE_HEADER_SIZE)
    {
      self->pipe = TRUE;
      self->pos = self->data_start = PIPE_HEADER_SIZE;
      self->data_end = G_MAXUINT64;
      return TRUE;
    }
  if (header_size != FILE_HEADER_SIZE && header_size != FILE_HEADER_V0)
    return fail (self, error, HP_PERF_ERROR_INVALID,
                 "corrupted header: header size %" PRIu64 " at offset %zu (expected %d, or %d for pipe mode)",
                 header_size, HEADER_AT (size), FILE_HEADER_SIZE, PIPE_HEADER_SIZE);
  if (self->mem_size < header_size)
    return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                 "truncated header: %zu bytes of a %" PRIu64 "-byte header",
                 self->mem_size, header_size);

  attr_size = get_u64 (h + HEADER_AT (attr_size));
  if (!read_attrs (self, attr_size, get_u64 (h + HEADER_AT (attrs.offset)),
                   get_u64 (h + HEADER_AT (attrs.size)), error))
    return FALSE;

  data_offset = get_u64 (h + HEADER_AT (data.offset));
  data_size = get_u64 (h + HEADER_AT (data.size));
  if (!check_section (self, "data section", data_offset, data_size, error))
    return FALSE;
  self->pos = self->data_start = data_offset;
  self->data_end = data_offset + data_size;

  if (header_size == FILE_HEADER_V0)
    return TRUE;

  if (data_size == 0 && data_offset >= header_size && data_offset < self->mem_size)
    {
      g_autoptr(GError) feature_error = NULL;

      /* Either an empty recording, whose feature sections follow, or perf
       * record was killed before it rewrote the header: then records run
       * to the end of the file and there are no feature sections (what
       * would be their table is a record). */
      if (read_features (self, h + HEADER_AT (adds_features), data_offset, &feature_error))
        return TRUE;
      g_message ("%s: the data size in the header is 0 (perf record did not finish?); "
                 "reading records to the end of the file", self->name);
      self->data_end = self->mem_size;
      return TRUE;
    }

  return read_features (self, h + HEADER_AT (adds_features), data_offset + data_size, error);
}

static HpPerfFile *
hp_perf_file_alloc (const char *name)
{
  HpPerfFile *self = g_new0 (HpPerfFile, 1);

  self->name = g_strdup (name);
  self->fd = -1;
  self->events = g_ptr_array_new_with_free_func (event_free);
  self->event_by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->features.build_ids = g_ptr_array_new_with_free_func (build_id_free);
  self->id_pos = self->is_pos = -1;
  return self;
}

HpPerfFile *
hp_perf_file_new_from_data (const guint8  *data,
                            gsize          size,
                            const char    *name,
                            GError       **error)
{
  g_autoptr(HpPerfFile) self = NULL;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  self = hp_perf_file_alloc (name ? name : "perf.data");
  self->mem = data;
  self->mem_size = size;
  if (!read_header (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

HpPerfFile *
hp_perf_file_open_fd (int          fd,
                      const char  *name,
                      GError     **error)
{
  g_autoptr(HpPerfFile) self = NULL;
  const guint8 *head;
  struct stat st;
  gsize available;

  g_return_val_if_fail (fd >= 0, NULL);

  self = hp_perf_file_alloc (name ? name : "perf.data");

  if (fstat (fd, &st) != 0)
    {
      int errsv = errno;

      fail (self, error, HP_PERF_ERROR_TRUNCATED, "%s", g_strerror (errsv));
      return NULL;
    }

  if (S_ISREG (st.st_mode))
    {
      if (st.st_size > 0)
        {
          self->mapping = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
          if (self->mapping == MAP_FAILED)
            {
              int errsv = errno;

              self->mapping = NULL;
              fail (self, error, HP_PERF_ERROR_TRUNCATED, "cannot map the file: %s", g_strerror (errsv));
              return NULL;
            }
          self->mapping_size = st.st_size;
          madvise (self->mapping, self->mapping_size, MADV_SEQUENTIAL);
          self->mem = self->mapping;
          self->mem_size = st.st_size;
        }
      if (!read_header (self, error))
        return NULL;
      return g_steal_pointer (&self);
    }

  /* A pipe: peek at the header to tell pipe mode from a whole file. */
  self->fd = fd;
  self->buf = g_byte_array_new ();
  head = input_peek (self, 0, PIPE_HEADER_SIZE, &available, error);
  if (head == NULL)
    {
      if (error != NULL && *error != NULL)
        return NULL;
      if (check_magic (self, self->buf->data, available, error))
        fail (self, error, HP_PERF_ERROR_TRUNCATED,
              "truncated header at offset 0: %zu bytes", available);
      return NULL;
    }
  if (!check_magic (self, head, available, error))
    return NULL;

  if (get_u64 (head + 8) == PIPE_HEADER_SIZE)
    {
      self->pipe = TRUE;
      self->pos = self->data_start = PIPE_HEADER_SIZE;
      self->data_end = G_MAXUINT64;
      return g_steal_pointer (&self);
    }

  /* File mode on a pipe: its features follow the data, so read it all. */
  while (!self->eof)
    if (!stream_fill (self, 0, self->buf->len + STREAM_CHUNK, error))
      return NULL;
  self->mem_size = self->buf->len;
  self->owned = g_byte_array_free (g_steal_pointer (&self->buf), FALSE);
  self->mem = self->owned;
  self->fd = -1;
  if (!read_header (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

HpPerfFile *
hp_perf_file_open (const char  *path,
                   GError     **error)
{
  HpPerfFile *self;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (strcmp (path, "-") == 0)
    return hp_perf_file_open_fd (STDIN_FILENO, "stdin", error);

  /* Without blocking: opening a FIFO for reading waits for a writer, for
   * ever, and a signal cannot interrupt it where the CLI blocks them to
   * cancel. A named file is a regular one; a stream comes as '-'. */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0)
    {
      int errsv = errno;

      g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_TRUNCATED, "%s: %s", path, g_strerror (errsv));
      return NULL;
    }
  if (fstat (fd, &st) == 0 && !S_ISREG (st.st_mode))
    {
      close (fd);
      if (S_ISDIR (st.st_mode))
        g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID, _("%s: not a perf.data file: it is a directory"), path);
      else
        g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                     _("%s: not a perf.data file: it is not a regular file (%s); to read a stream, "
                       "give '-' and redirect it to the standard input"),
                     path, S_ISFIFO (st.st_mode) ? "a FIFO" : S_ISCHR (st.st_mode) ? _("a character device") :
                     S_ISSOCK (st.st_mode) ? "a socket" : S_ISBLK (st.st_mode) ? _("a block device") : "not a file");
      return NULL;
    }
  self = hp_perf_file_open_fd (fd, path, error);
  /* A mapping outlives its descriptor; pipes are only ever stdin. */
  if (self == NULL || self->fd < 0)
    close (fd);
  else
    self->fd = fd;
  return self;
}

void
hp_perf_file_free (HpPerfFile *self)
{
  if (self == NULL)
    return;
  if (self->mapping != NULL)
    munmap (self->mapping, self->mapping_size);
  g_free (self->owned);
  if (self->buf != NULL)
    g_byte_array_unref (self->buf);
  if (self->fd > STDERR_FILENO)
    close (self->fd);
  g_ptr_array_unref (self->events);
  g_hash_table_unref (self->event_by_id);
  g_free (self->features.hostname);
  g_free (self->features.os_release);
  g_free (self->features.perf_version);
  g_free (self->features.arch);
  g_free (self->features.cpu_desc);
  g_free (self->features.cmdline);
  g_ptr_array_unref (self->features.build_ids);
  if (self->zstd != NULL)
    ZSTD_freeDCtx (self->zstd);
  if (self->decomp != NULL)
    g_byte_array_unref (self->decomp);
  g_free (self->name);
  g_free (self);
}

const char *
hp_perf_file_get_name (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

gboolean
hp_perf_file_is_pipe (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->pipe;
}

guint
hp_perf_file_get_n_events (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->events->len;
}

const HpPerfFileEvent *
hp_perf_file_get_event (HpPerfFile *self,
                        guint       index)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->events->len, NULL);
  return g_ptr_array_index (self->events, index);
}

const HpPerfFileFeatures *
hp_perf_file_get_features (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return &self->features;
}

guint64
hp_perf_file_get_position (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->pos - self->data_start;
}

guint64
hp_perf_file_get_data_size (HpPerfFile *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->buf != NULL)
    return 0;
  return MIN (self->data_end, self->mem_size) - self->data_start;
}

/* Records ---------------------------------------------------------------- */

static const char *
record_name (guint32 type)
{
  static const char * const kernel[] = {
    NULL, "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK",
    "READ", "SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES",
    "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES", "KSYMBOL", "BPF_EVENT",
    "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID",
  };

  if (type < G_N_ELEMENTS (kernel) && kernel[type] != NULL)
    return kernel[type];
  switch (type)
    {
    case REC_HEADER_ATTR:     return "HEADER_ATTR";
    case REC_HEADER_FEATURE:  return "HEADER_FEATURE";
    case REC_EVENT_UPDATE:    return "EVENT_UPDATE";
    case REC_COMPRESSED:      return "COMPRESSED";
    case REC_COMPRESSED2:     return "COMPRESSED2";
    case REC_HEADER_BUILD_ID: return "HEADER_BUILD_ID";
    case REC_FINISHED_ROUND:  return "FINISHED_ROUND";
    case REC_HEADER_TRACING_DATA: return "HEADER_TRACING_DATA";
    case REC_AUXTRACE:        return "AUXTRACE";
    default:                  return "unknown";
    }
}

static gboolean
decompress (HpPerfFile    *self,
            const guint8  *src,
            gsize          size,
            guint64        offset,
            GError       **error)
{
  ZSTD_inBuffer in = { src, size, 0 };
  gsize produced = 0;

  if (self->features.compression > 1)
    return fail (self, error, HP_PERF_ERROR_UNSUPPORTED,
                 "compressed record at offset %" PRIu64 " uses compression type %u; only zstd (1) is supported",
                 offset, self->features.compression);

  if (self->zstd == NULL)
    {
      self->zstd = ZSTD_createDCtx ();
      self->decomp = g_byte_array_new ();
    }

  /* Keep the tail of a record cut by the previous COMPRESSED record. */
  if (self->decomp_pos > 0)
    {
      g_byte_array_remove_range (self->decomp, 0, self->decomp_pos);
      self->decomp_pos = 0;
    }
  self->compressed_in += size;

  for (;;)
    {
      gsize old = self->decomp->len;
      gsize room = MAX (STREAM_CHUNK, size * 8);
      ZSTD_outBuffer out;
      size_t r;

      g_byte_array_set_size (self->decomp, old + room);
      out.dst = self->decomp->data + old;
      out.size = room;
      out.pos = 0;
      r = ZSTD_decompressStream (self->zstd, &out, &in);
      g_byte_array_set_size (self->decomp, old + out.pos);
      produced += out.pos;
      self->decompressed_out += out.pos;
      if (ZSTD_isError (r))
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted compressed record at offset %" PRIu64 ": zstd: %s",
                     offset, ZSTD_getErrorName (r));
      if (produced > MAX_DECOMPRESSED)
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted compressed record at offset %" PRIu64 ": decompresses to more than %u MiB",
                     offset, MAX_DECOMPRESSED >> 20);
      if (self->decompressed_out > DECOMPRESSED_FLOOR + (guint64) DECOMPRESSED_PER_BYTE * self->compressed_in)
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     _("refused: its compressed data decompresses to more than %u times its size "
                       "(its %" PRIu64 " bytes up to the record at offset %" PRIu64 " to over %" PRIu64
                       " MiB), which no perf record -z writes"),
                     DECOMPRESSED_PER_BYTE, self->compressed_in, offset, self->decompressed_out >> 20);
      /* Done when the input is used up and the output had room to spare
       * (a full output buffer may leave data inside zstd). */
      if (in.pos == in.size && out.pos < out.size)
        break;
    }

  self->decomp_offset = offset;
  return TRUE;
}

/* Handles a user-space record: FALSE with @error set on a corrupt one. */
static gboolean
handle_user_record (HpPerfFile    *self,
                    const guint8  *data,
                    gsize          size,
                    guint64        offset,
                    gboolean       in_compressed,
                    GError       **error)
{
  guint32 type = get_u32 (data);

  switch (type)
    {
    case REC_HEADER_ATTR:
      {
        /* The attribute, then its ids to the end of the record. */
        const guint8 *attr = data + RECORD_HEADER_SIZE;
        gsize body = size - RECORD_HEADER_SIZE;
        guint32 attr_size = body >= ATTR_SIZE + sizeof (guint32) ? get_u32 (attr + ATTR_SIZE) : 0;
        HpPerfFileEvent *event;

        if (attr_size == 0)
          attr_size = ATTR_SIZE_VER0;
        if (body < ATTR_SIZE_VER0 || attr_size < ATTR_SIZE_VER0 || attr_size > body)
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted HEADER_ATTR record at offset %" PRIu64, offset);
        event = add_event (self, attr, attr_size);
        for (gsize at = attr_size; at + sizeof (guint64) <= body; at += sizeof (guint64))
          if (!add_event_id (self, event, get_u64 (attr + at)))
            return fail (self, error, HP_PERF_ERROR_INVALID,
                         "corrupted HEADER_ATTR record at offset %" G_GUINT64_FORMAT
                         ": its id %" G_GUINT64_FORMAT " is already another event's",
                         offset, get_u64 (attr + at));
        return TRUE;
      }

    case REC_EVENT_UPDATE:
      {
        HpPerfFileEvent *event;

        if (size < sizeof (PerfEventUpdateRecord))
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted EVENT_UPDATE record at offset %" PRIu64, offset);
        event = event_for_id (self, get_u64 (data + offsetof (PerfEventUpdateRecord, id)));
        if (event != NULL && get_u64 (data + offsetof (PerfEventUpdateRecord, type)) == EVENT_UPDATE_NAME)
          {
            g_autofree char *name = g_strndup ((const char *) data + sizeof (PerfEventUpdateRecord),
                                               size - sizeof (PerfEventUpdateRecord));

            set_event_name (event, name);
          }
        return TRUE;
      }

    case REC_HEADER_FEATURE:
      {
        guint64 feature;

        if (size < sizeof (PerfFeatureRecord))
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted HEADER_FEATURE record at offset %" PRIu64, offset);
        feature = get_u64 (data + offsetof (PerfFeatureRecord, feat_id));
        if (feature < FEATURE_BITS &&
            !parse_feature (self, (guint) feature, data + sizeof (PerfFeatureRecord),
                            size - sizeof (PerfFeatureRecord)))
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted %s feature record at offset %" PRIu64,
                       feature_name ((guint) feature), offset);
        return TRUE;
      }

    case REC_HEADER_BUILD_ID:
      if (!parse_build_ids (self, data, size))
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted HEADER_BUILD_ID record at offset %" PRIu64, offset);
      return TRUE;

    case REC_COMPRESSED:
    case REC_COMPRESSED2:
      {
        gsize start = RECORD_HEADER_SIZE;
        gsize n = size - RECORD_HEADER_SIZE;

        if (in_compressed)
          return fail (self, error, HP_PERF_ERROR_INVALID,
                       "corrupted compressed record at offset %" PRIu64 ": it nests another one", offset);
        if (type == REC_COMPRESSED2)
          {
            /* 8-byte aligned variant: data_size says how much is data. */
            guint64 data_size = size >= sizeof (PerfCompressed2Record)
                                ? get_u64 (data + offsetof (PerfCompressed2Record, data_size))
                                : G_MAXUINT64;

            if (data_size > size - sizeof (PerfCompressed2Record))
              return fail (self, error, HP_PERF_ERROR_INVALID,
                           "corrupted COMPRESSED2 record at offset %" PRIu64, offset);
            start = sizeof (PerfCompressed2Record);
            n = (gsize) data_size;
          }
        return decompress (self, data + start, n, offset, error);
      }

    default:
      /* HEADER_TRACING_DATA, AUXTRACE, ID_INDEX, TIME_CONV, STAT, ...: not
       * needed for a profile; the payloads that follow some of them are
       * skipped by the caller. */
      return TRUE;
    }
}

/* Bytes that follow a record without being counted in its size. */
static gboolean
trailing_payload (const guint8 *data,
                  gsize         size,
                  guint64      *extra)
{
  guint32 type = get_u32 (data);

  *extra = 0;
  if (type == REC_HEADER_TRACING_DATA)
    {
      if (size < offsetof (PerfTracingDataRecord, pad))
        return FALSE;
      *extra = get_u32 (data + offsetof (PerfTracingDataRecord, size));
    }
  else if (type == REC_AUXTRACE)
    {
      if (size < sizeof (PerfAuxtraceRecord))
        return FALSE;
      *extra = get_u64 (data + offsetof (PerfAuxtraceRecord, size));
    }
  return TRUE;
}

static void
fill_record (HpPerfFile       *self,
             HpPerfFileRecord *record,
             const guint8     *data,
             gsize             size,
             guint64           offset,
             gboolean          compressed)
{
  record->data = data;
  record->size = size;
  record->type = get_u32 (data);
  record->offset = offset;
  record->compressed = compressed;
  record->lasting = !compressed && self->buf == NULL;
  record->event = record->type < HP_PERF_RECORD_USER_TYPE_START
                  ? event_of_record (self, data, size, record->type)
                  : NULL;
}

/* The next record from the decompressed buffer, if a whole one is there. */
static int
next_decompressed (HpPerfFile        *self,
                   HpPerfFileRecord  *record,
                   GError           **error)
{
  while (self->decomp != NULL && self->decomp->len - self->decomp_pos >= RECORD_HEADER_SIZE)
    {
      const guint8 *data = self->decomp->data + self->decomp_pos;
      guint16 size = get_u16 (data + RECORD_SIZE_AT);
      guint32 type = get_u32 (data + RECORD_TYPE_AT);

      if (size < RECORD_HEADER_SIZE)
        {
          fail (self, error, HP_PERF_ERROR_INVALID,
                "corrupted record in the compressed data of the record at offset %" PRIu64
                ": size %u at decompressed byte %" G_GSIZE_FORMAT,
                self->decomp_offset, size, self->decomp_pos);
          return -1;
        }
      if (self->decomp->len - self->decomp_pos < size)
        return 0; /* the rest is in the next COMPRESSED record */
      if (++self->decompressed_records > RECORDS_FLOOR + (guint64) RECORDS_PER_BYTE * self->compressed_in)
        {
          fail (self, error, HP_PERF_ERROR_INVALID,
                _("refused: its compressed data holds more than %u records per compressed byte "
                  "(its %" PRIu64 " bytes up to the record at offset %" PRIu64 " hold over %" PRIu64
                  " records), which no perf record -z writes"),
                RECORDS_PER_BYTE, self->compressed_in, self->decomp_offset, self->decompressed_records);
          return -1;
        }

      self->decomp_pos += size;
      if (type < HP_PERF_RECORD_USER_TYPE_START || type == REC_FINISHED_ROUND)
        {
          fill_record (self, record, data, size, self->decomp_offset, TRUE);
          return 1;
        }
      if (type == REC_HEADER_TRACING_DATA || type == REC_AUXTRACE)
        {
          fail (self, error, HP_PERF_ERROR_UNSUPPORTED,
                "%s record inside the compressed record at offset %" PRIu64 " is not supported",
                record_name (type), self->decomp_offset);
          return -1;
        }
      if (!handle_user_record (self, data, size, self->decomp_offset, TRUE, error))
        return -1;
    }
  return 0;
}

/* Gives back the mapped pages well behind @offset (see the top), and maps
 * in those just ahead of it. */
static void
slide_mapping (HpPerfFile *self,
               guint64     offset)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize end;

  if (self->mapping == NULL)
    return;
  if (offset + POPULATE_STEP / 2 > self->populated && self->populated < self->mapping_size)
    {
      gsize start = MAX (self->populated, (gsize) offset / page * page);

      end = MIN (start + POPULATE_STEP, self->mapping_size);
      /* Only a hint: an older kernel refuses it, and the pages fault in. */
      madvise ((guint8 *) self->mapping + start, end - start, MADV_POPULATE_READ);
      self->populated = end;
    }
  if (offset < (guint64) self->released + RELEASE_STEP + RELEASE_KEEP)
    return;
  end = ((gsize) offset - RELEASE_KEEP) / page * page;
  if (end <= self->released)
    return;
  madvise ((guint8 *) self->mapping + self->released, end - self->released, MADV_DONTNEED);
  self->released = end;
}

gboolean
hp_perf_file_next (HpPerfFile        *self,
                   HpPerfFileRecord  *record,
                   GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);

  slide_mapping (self, self->pos);

  for (;;)
    {
      const guint8 *data;
      gsize available;
      guint64 offset = self->pos;
      guint64 limit;
      guint64 extra;
      guint32 type;
      guint16 size;
      int r;

      r = next_decompressed (self, record, error);
      if (r != 0)
        return r > 0;

      limit = self->data_end == G_MAXUINT64 ? G_MAXUINT64 : self->data_end - offset;
      data = input_peek (self, offset, (gsize) MIN (limit, 8), &available, error);
      if (error != NULL && *error != NULL)
        return FALSE;
      available = (gsize) MIN ((guint64) available, limit);
      if (available == 0)
        {
          if (self->decomp != NULL && self->decomp->len > self->decomp_pos)
            return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                         "truncated: the compressed data ends inside a record (after the record at offset %" PRIu64 ")",
                         self->decomp_offset);
          return FALSE;
        }
      if (data == NULL || available < RECORD_HEADER_SIZE)
        return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                     "truncated record header at offset %" PRIu64 " (%zu bytes left)",
                     offset, available);

      type = get_u32 (data);
      size = get_u16 (data + RECORD_SIZE_AT);
      if (size < RECORD_HEADER_SIZE)
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted record at offset %" PRIu64 ": type %u, size %u",
                     offset, type, size);

      data = input_peek (self, offset, size, &available, error);
      if (error != NULL && *error != NULL)
        return FALSE;
      if (data == NULL || size > limit)
        return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                     "truncated or corrupted %s record at offset %" PRIu64 ": it claims %u bytes, %" PRIu64 " are left",
                     record_name (type), offset, size, MIN ((guint64) available, limit));

      if (!trailing_payload (data, size, &extra)
          || extra > G_MAXUINT64 - offset - size)
        return fail (self, error, HP_PERF_ERROR_INVALID,
                     "corrupted %s record at offset %" PRIu64, record_name (type), offset);
      self->pos = offset + size + extra;

      if (type < HP_PERF_RECORD_USER_TYPE_START || type == REC_FINISHED_ROUND)
        {
          fill_record (self, record, data, size, offset, FALSE);
          return TRUE;
        }
      if (!handle_user_record (self, data, size, offset, FALSE, error))
        return FALSE;

      if (extra > 0)
        {
          /* Tracing data or AUX data: skipped, but it must be there. */
          if ((self->data_end != G_MAXUINT64 && self->pos > self->data_end)
              || (input_peek (self, self->pos - 1, 1, &available, error) == NULL))
            {
              if (error != NULL && *error != NULL)
                return FALSE;
              return fail (self, error, HP_PERF_ERROR_TRUNCATED,
                           "truncated or corrupted %s record at offset %" PRIu64
                           ": its %" PRIu64 "-byte payload ends past the data",
                           record_name (type), offset, extra);
            }
        }
    }
}

gboolean
hp_perf_file_sniff (const char *path)
{
  guint8 head[8];
  gboolean ret = FALSE;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);

  /* Only a regular file is sniffed; anything else goes on to the capture
   * reader, which says what it is. */
  fd = hp_regular_file_open (path, NULL);
  if (fd < 0)
    return FALSE;
  if (read (fd, head, sizeof head) == sizeof head)
    {
      guint64 magic = get_u64 (head);

      ret = magic == PERF_MAGIC_LE || magic == PERF_MAGIC_BE || magic == PERF_MAGIC_V1;
    }
  close (fd);
  return ret;
}
