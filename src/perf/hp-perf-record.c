/* hp-perf-record.c - decodes PERF_RECORD_* records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One decoder for every source of records: the live ring buffers and (later)
 * perf.data files hand it a record's bytes and the layout of the event that
 * produced it (sample_type, read_format, ...). The layout of each record type
 * is the one documented in <linux/perf_event.h>; fields appear in the order
 * of the PERF_SAMPLE_* bits. Nothing here trusts a size: every read is
 * bounds-checked, so a corrupt record is an error, never a crash.
 */

#define G_LOG_DOMAIN "hp-perf"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "perf/hp-perf-reader.h"
#include "perf/hp-perf-record.h"

G_DEFINE_QUARK (hp-perf-error-quark, hp_perf_error)

/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID holds, where maj, min, ino and
 * ino_generation would be: u8 build_id_size, u8 and u16 reserved, then
 * u8 build_id[20]. */
#define MMAP2_BUILD_ID_BYTES    24
#define MMAP2_BUILD_ID_SIZE_AT  0
#define MMAP2_BUILD_ID_AT       4
#define MMAP2_BUILD_ID_MAX      20

/* A PERF_FORMAT_GROUP read holds one value per event of the group; we
 * never open groups, and no real one has this many members. */
#define MAX_GROUP_MEMBERS       4096

static gboolean
read_pid_tid (HpPerfReader *r,
              HpPerfRecord *rec)
{
  return hp_perf_reader_u32 (r, &rec->pid) && hp_perf_reader_u32 (r, &rec->tid);
}

static gboolean
skip_read_values (HpPerfReader *r,
                  guint64  read_format)
{
  guint64 per_value = 8;
  guint64 nr = 1;

  if (read_format & PERF_FORMAT_ID)
    per_value += 8;
#ifdef PERF_FORMAT_LOST
  if (read_format & PERF_FORMAT_LOST)
    per_value += 8;
#endif
  if (read_format & PERF_FORMAT_GROUP)
    {
      if (!hp_perf_reader_u64 (r, &nr) || nr > MAX_GROUP_MEMBERS)
        return FALSE;
      if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED && !hp_perf_reader_skip (r, 8))
        return FALSE;
      if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING && !hp_perf_reader_skip (r, 8))
        return FALSE;
      return hp_perf_reader_skip (r, nr * per_value);
    }

  if (!hp_perf_reader_skip (r, 8))
    return FALSE;
  if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED && !hp_perf_reader_skip (r, 8))
    return FALSE;
  if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING && !hp_perf_reader_skip (r, 8))
    return FALSE;
  return hp_perf_reader_skip (r, per_value - 8);
}

/* The fields after the user stack, of eight bytes each, in the order the
 * kernel writes them (perf_output_sample); PERF_SAMPLE_REGS_INTR, whose
 * size depends on sample_regs_intr, and PERF_SAMPLE_AUX, sized by its
 * first word, come among and after them. */
#define SAMPLE_LATER_FIXED (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC | \
                            PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | \
                            PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE)
#define SAMPLE_KNOWN       ((guint64) PERF_SAMPLE_MAX - 1)

/* Whether the fields after the user stack, which nothing reads, fill the
 * rest of the sample exactly. A sample longer or shorter than its
 * sample_type says means the attribute and the records disagree (a forged
 * or spliced file): every field read before may then be another's bytes,
 * a time read as a period, a call chain ignored, and the import would be
 * wrong without a word. Unknown to us (a newer kernel's bit, or REGS_INTR
 * with registers), the size is not checked. */
static gboolean
sample_ends_here (const HpPerfEventInfo *info,
                  HpPerfReader          *r)
{
  guint64 st = info->sample_type;
  guint64 later = st & SAMPLE_LATER_FIXED;

  if ((st & ~SAMPLE_KNOWN) != 0)
    return TRUE;
  /* WEIGHT and WEIGHT_STRUCT share their place: the kernel takes one. */
  if ((later & PERF_SAMPLE_WEIGHT_TYPE) == PERF_SAMPLE_WEIGHT_TYPE)
    later &= ~(guint64) PERF_SAMPLE_WEIGHT_STRUCT;
  if (st & PERF_SAMPLE_REGS_INTR)
    {
      guint64 abi;

      /* after WEIGHT, DATA_SRC and TRANSACTION */
      if (!hp_perf_reader_skip (r, 8 * __builtin_popcountll (later & (PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC |
                                                                       PERF_SAMPLE_TRANSACTION)))
          || !hp_perf_reader_u64 (r, &abi))
        return FALSE;
      if (abi != 0)
        return TRUE;
      later &= ~(guint64) (PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION);
    }
  if (!hp_perf_reader_skip (r, 8 * __builtin_popcountll (later)))
    return FALSE;
  if (st & PERF_SAMPLE_AUX)
    {
      guint64 size;

      if (!hp_perf_reader_u64 (r, &size) || !hp_perf_reader_skip (r, size))
        return FALSE;
    }
  return hp_perf_reader_remaining (r) == 0;
}

static gboolean
decode_sample (const HpPerfEventInfo *info,
               HpPerfReader          *r,
               HpPerfRecord          *rec)
{
  guint64 st = info->sample_type;
  guint64 v;

  if (st & PERF_SAMPLE_IDENTIFIER && !hp_perf_reader_u64 (r, &rec->id))
    return FALSE;
  if (st & PERF_SAMPLE_IP && !hp_perf_reader_u64 (r, &rec->sample.ip))
    return FALSE;
  if (st & PERF_SAMPLE_TID && !read_pid_tid (r, rec))
    return FALSE;
  if (st & PERF_SAMPLE_TIME)
    {
      if (!hp_perf_reader_u64 (r, &rec->time))
        return FALSE;
      rec->has_time = TRUE;
    }
  if (st & PERF_SAMPLE_ADDR && !hp_perf_reader_skip (r, 8))
    return FALSE;
  if (st & PERF_SAMPLE_ID && !hp_perf_reader_u64 (r, &rec->id))
    return FALSE;
  if (st & PERF_SAMPLE_STREAM_ID && !hp_perf_reader_skip (r, 8))
    return FALSE;
  if (st & PERF_SAMPLE_CPU)
    {
      if (!hp_perf_reader_u32 (r, &rec->cpu) || !hp_perf_reader_skip (r, 4))
        return FALSE;
    }
  if (st & PERF_SAMPLE_PERIOD && !hp_perf_reader_u64 (r, &rec->sample.period))
    return FALSE;
  if (st & PERF_SAMPLE_READ && !skip_read_values (r, info->read_format))
    return FALSE;
  if (st & PERF_SAMPLE_CALLCHAIN)
    {
      if (!hp_perf_reader_u64 (r, &v) || !hp_perf_reader_u64_array (r, v, &rec->sample.ips))
        return FALSE;
      rec->sample.n_ips = v;
    }
  if (st & PERF_SAMPLE_RAW)
    {
      guint32 raw_size;

      if (!hp_perf_reader_u32 (r, &raw_size) || !hp_perf_reader_skip (r, raw_size))
        return FALSE;
    }
  if (st & PERF_SAMPLE_BRANCH_STACK)
    {
      /* The layout depends on branch_sample_type, which we never ask for. */
      return FALSE;
    }
  if (st & PERF_SAMPLE_REGS_USER)
    {
      if (!hp_perf_reader_u64 (r, &rec->sample.abi))
        return FALSE;
      if (rec->sample.abi != 0)
        {
          guint n = (guint) __builtin_popcountll (info->sample_regs_user);

          if (!hp_perf_reader_u64_array (r, n, &rec->sample.regs))
            return FALSE;
          rec->sample.n_regs = n;
        }
    }
  if (st & PERF_SAMPLE_STACK_USER)
    {
      guint64 size;

      if (!hp_perf_reader_u64 (r, &size) || size > hp_perf_reader_remaining (r))
        return FALSE;
      if (size != 0)
        {
          const guint8 *stack = hp_perf_reader_take (r, size);
          guint64 dyn_size;

          if (!hp_perf_reader_u64 (r, &dyn_size))
            return FALSE;
          rec->sample.stack = stack;
          rec->sample.stack_size = MIN (size, dyn_size);
        }
    }
  return sample_ends_here (info, r);
}

/* The sample_id trailer of non-sample records, read from the end. */
static gboolean
decode_sample_id (const HpPerfEventInfo *info,
                  const guint8          *data,
                  gsize                  size,
                  gsize                  body_end,
                  HpPerfRecord          *rec)
{
  guint64 st = info->sample_type;
  gsize trailer = 0;
  HpPerfReader r;

  if (!info->sample_id_all)
    return TRUE;

  if (st & PERF_SAMPLE_TID)        trailer += 8;
  if (st & PERF_SAMPLE_TIME)       trailer += 8;
  if (st & PERF_SAMPLE_ID)         trailer += 8;
  if (st & PERF_SAMPLE_STREAM_ID)  trailer += 8;
  if (st & PERF_SAMPLE_CPU)        trailer += 8;
  if (st & PERF_SAMPLE_IDENTIFIER) trailer += 8;

  if (trailer > size || size - trailer < body_end)
    return FALSE;

  hp_perf_reader_init (&r, data, size);
  r.pos = size - trailer;

  if (st & PERF_SAMPLE_TID)
    {
      guint32 pid, tid;

      if (!hp_perf_reader_u32 (&r, &pid) || !hp_perf_reader_u32 (&r, &tid))
        return FALSE;
      /* The body's pid/tid win for records that have their own. */
      if (rec->pid == 0 && rec->tid == 0)
        {
          rec->pid = pid;
          rec->tid = tid;
        }
    }
  if (st & PERF_SAMPLE_TIME)
    {
      if (!hp_perf_reader_u64 (&r, &rec->time))
        return FALSE;
      rec->has_time = TRUE;
    }
  if (st & PERF_SAMPLE_ID && !hp_perf_reader_u64 (&r, &rec->id))
    return FALSE;
  if (st & PERF_SAMPLE_STREAM_ID && !hp_perf_reader_skip (&r, 8))
    return FALSE;
  if (st & PERF_SAMPLE_CPU && (!hp_perf_reader_u32 (&r, &rec->cpu) || !hp_perf_reader_skip (&r, 4)))
    return FALSE;
  if (st & PERF_SAMPLE_IDENTIFIER && !hp_perf_reader_u64 (&r, &rec->id))
    return FALSE;
  return TRUE;
}

/* Decodes the record at @data (whose header says how long it is; @size is
 * what is available). Unknown record types decode to their header only. */
gboolean
hp_perf_record_decode (const HpPerfEventInfo *info,
                       const guint8          *data,
                       gsize                  size,
                       HpPerfRecord          *rec,
                       GError               **error)
{
  struct perf_event_header header;
  HpPerfReader r;
  gboolean ok = TRUE;

  g_return_val_if_fail (info != NULL, FALSE);
  g_return_val_if_fail (rec != NULL, FALSE);

  memset (rec, 0, sizeof *rec);

  if (size < sizeof header)
    {
      g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_TRUNCATED,
                   _("truncated record header (%zu bytes)"), size);
      return FALSE;
    }
  memcpy (&header, data, sizeof header);
  if (header.size < sizeof header || header.size > size)
    {
      g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_TRUNCATED,
                   _("record of type %u claims %u bytes, %zu available"),
                   header.type, header.size, size);
      return FALSE;
    }

  rec->type = header.type;
  rec->misc = header.misc;
  rec->size = header.size;

  hp_perf_reader_init (&r, data, header.size);
  r.pos = sizeof header;

  switch (header.type)
    {
    case PERF_RECORD_SAMPLE:
      ok = decode_sample (info, &r, rec);
      break;

    case PERF_RECORD_MMAP:
      ok = read_pid_tid (&r, rec) &&
           hp_perf_reader_u64 (&r, &rec->mmap.addr) &&
           hp_perf_reader_u64 (&r, &rec->mmap.len) &&
           hp_perf_reader_u64 (&r, &rec->mmap.pgoff) &&
           hp_perf_reader_record_string (&r, &rec->mmap.filename) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    case PERF_RECORD_MMAP2:
      ok = read_pid_tid (&r, rec) &&
           hp_perf_reader_u64 (&r, &rec->mmap.addr) &&
           hp_perf_reader_u64 (&r, &rec->mmap.len) &&
           hp_perf_reader_u64 (&r, &rec->mmap.pgoff);
      if (ok && (header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
        {
          const guint8 *id = hp_perf_reader_take (&r, MMAP2_BUILD_ID_BYTES);

          ok = id != NULL;
          if (ok)
            {
              rec->mmap.build_id_size = MIN (id[MMAP2_BUILD_ID_SIZE_AT], MMAP2_BUILD_ID_MAX);
              memcpy (rec->mmap.build_id, id + MMAP2_BUILD_ID_AT, MMAP2_BUILD_ID_MAX);
            }
        }
      else if (ok)
        ok = hp_perf_reader_skip (&r, MMAP2_BUILD_ID_BYTES); /* maj, min, ino, ino_generation */
      ok = ok &&
           hp_perf_reader_u32 (&r, &rec->mmap.prot) &&
           hp_perf_reader_u32 (&r, &rec->mmap.flags) &&
           hp_perf_reader_record_string (&r, &rec->mmap.filename) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    case PERF_RECORD_COMM:
      ok = read_pid_tid (&r, rec) &&
           hp_perf_reader_record_string (&r, &rec->comm.comm) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      rec->comm.exec = (header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
      break;

    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
      {
        guint64 time;

        ok = hp_perf_reader_u32 (&r, &rec->pid) &&
             hp_perf_reader_u32 (&r, &rec->fork.ppid) &&
             hp_perf_reader_u32 (&r, &rec->tid) &&
             hp_perf_reader_u32 (&r, &rec->fork.ptid) &&
             hp_perf_reader_u64 (&r, &time) &&
             decode_sample_id (info, data, header.size, r.pos, rec);
        if (ok && !rec->has_time)
          {
            rec->time = time;
            rec->has_time = TRUE;
          }
      }
      break;

    case PERF_RECORD_LOST:
      ok = hp_perf_reader_u64 (&r, &rec->id) &&
           hp_perf_reader_u64 (&r, &rec->lost.lost) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    case PERF_RECORD_LOST_SAMPLES:
      ok = hp_perf_reader_u64 (&r, &rec->lost.lost) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    case PERF_RECORD_THROTTLE:
    case PERF_RECORD_UNTHROTTLE:
      {
        guint64 time;

        ok = hp_perf_reader_u64 (&r, &time) &&
             hp_perf_reader_u64 (&r, &rec->id) &&
             hp_perf_reader_skip (&r, 8) &&
             decode_sample_id (info, data, header.size, r.pos, rec);
        if (ok && !rec->has_time)
          {
            rec->time = time;
            rec->has_time = TRUE;
          }
      }
      break;

    case PERF_RECORD_SWITCH:
      ok = decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    case PERF_RECORD_SWITCH_CPU_WIDE:
      /* next_prev_pid, next_prev_tid: the other task; the sample_id names
       * the one switched in or out */
      ok = hp_perf_reader_skip (&r, 8) &&
           decode_sample_id (info, data, header.size, r.pos, rec);
      break;

    default:
      break;
    }

  if (!ok && header.type == PERF_RECORD_SAMPLE)
    {
      g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                   "malformed sample (%u bytes): its fields are not those its event's sample_type "
                   "0x%" G_GINT64_MODIFIER "x lays out",
                   header.size, info->sample_type);
      return FALSE;
    }
  if (!ok)
    {
      g_set_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID,
                   _("malformed record of type %u (%u bytes)"), header.type, header.size);
      return FALSE;
    }

  return TRUE;
}
