/* perf-data-builder.h - writes perf.data files byte by byte, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout follows perf's util/header.c and util/session.c, written down
 * here independently of the reader under test: a file-mode perf.data is
 *
 *   header (104 bytes) | attrs: n x (attr, ids section) | ids | data
 *   | feature section table | feature sections
 *
 * and a pipe-mode one a 16-byte header followed by records only.
 */
#pragma once

#include <string.h>

#include <glib.h>
#include <linux/perf_event.h>

static inline void
pd_put (GByteArray *b, const void *data, gsize n)
{
  g_byte_array_append (b, data, n);
}

static inline void
pd_u64 (GByteArray *b, guint64 v)
{
  pd_put (b, &v, 8);
}

static inline void
pd_u32 (GByteArray *b, guint32 v)
{
  pd_put (b, &v, 4);
}

static inline void
pd_zeros (GByteArray *b, gsize n)
{
  static const guint8 zeros[64];

  while (n > 0)
    {
      gsize k = MIN (n, sizeof zeros);

      pd_put (b, zeros, k);
      n -= k;
    }
}

/* A NUL-terminated string padded to @align bytes, as records and perf's
 * do_write_string (with a u32 length first when @with_len) store them. */
static inline void
pd_string (GByteArray *b, const char *s, gsize align, gboolean with_len)
{
  gsize n = strlen (s) + 1;
  gsize padded = (n + align - 1) / align * align;

  if (with_len)
    pd_u32 (b, (guint32) padded);
  pd_put (b, s, n);
  pd_zeros (b, padded - n);
}

typedef struct {
  guint32 type;
  guint64 config;
  guint64 period;        /* sample_period or sample_freq */
  gboolean freq;
  guint64 sample_type;
  guint64 read_format;
  gboolean sample_id_all;
  gboolean exclude_callchain_user;
  guint64 regs_user;
  guint32 stack_user;
} PdAttr;

/* The attribute as @size bytes (PERF_ATTR_SIZE_VER0 = 64 up to 136 and
 * more): fields that do not fit are left out, as an older perf would. */
static inline void
pd_attr (GByteArray *b, const PdAttr *a, guint32 size)
{
  guint8 buf[256] = { 0 };
  guint64 flags = 0;

  g_assert (size <= sizeof buf);
  if (a->freq)
    flags |= 1ull << 10;
  if (a->sample_id_all)
    flags |= 1ull << 18;
  if (a->exclude_callchain_user)
    flags |= 1ull << 22;
  memcpy (buf + 0, &a->type, 4);
  memcpy (buf + 4, &size, 4);
  memcpy (buf + 8, &a->config, 8);
  memcpy (buf + 16, &a->period, 8);
  memcpy (buf + 24, &a->sample_type, 8);
  memcpy (buf + 32, &a->read_format, 8);
  memcpy (buf + 40, &flags, 8);
  if (size >= 96)
    {
      memcpy (buf + 80, &a->regs_user, 8);
      memcpy (buf + 88, &a->stack_user, 4);
    }
  pd_put (b, buf, size);
}

/* Records ------------------------------------------------------------------ */

static inline gsize
pd_begin (GByteArray *b, guint32 type, guint16 misc)
{
  gsize start = b->len;
  struct perf_event_header h = { type, misc, 0 };

  pd_put (b, &h, sizeof h);
  return start;
}

static inline void
pd_end (GByteArray *b, gsize start)
{
  guint16 size = (guint16) (b->len - start);

  g_assert_cmpuint (b->len - start, <, 65536);
  memcpy (b->data + start + 6, &size, 2);
}

typedef struct {
  guint32 pid, tid;
  guint64 time;
  guint64 id;
  guint32 cpu;
} PdId;

/* The sample_id trailer of non-sample records, fields in the order of the
 * PERF_SAMPLE_* bits. */
static inline void
pd_trailer (GByteArray *b, guint64 st, const PdId *id)
{
  if (st & PERF_SAMPLE_TID)
    {
      pd_u32 (b, id->pid);
      pd_u32 (b, id->tid);
    }
  if (st & PERF_SAMPLE_TIME)
    pd_u64 (b, id->time);
  if (st & PERF_SAMPLE_ID)
    pd_u64 (b, id->id);
  if (st & PERF_SAMPLE_STREAM_ID)
    pd_u64 (b, 0);
  if (st & PERF_SAMPLE_CPU)
    {
      pd_u32 (b, id->cpu);
      pd_u32 (b, 0);
    }
  if (st & PERF_SAMPLE_IDENTIFIER)
    pd_u64 (b, id->id);
}

static inline void
pd_comm (GByteArray *b, guint64 st, const PdId *id, const char *comm, gboolean exec)
{
  gsize r = pd_begin (b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);

  pd_u32 (b, id->pid);
  pd_u32 (b, id->tid);
  pd_string (b, comm, 8, FALSE);
  pd_trailer (b, st, id);
  pd_end (b, r);
}

static inline void
pd_mmap2 (GByteArray *b, guint64 st, const PdId *id,
          guint64 addr, guint64 len, guint64 pgoff, const char *filename)
{
  gsize r = pd_begin (b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);

  pd_u32 (b, id->pid);
  pd_u32 (b, id->tid);
  pd_u64 (b, addr);
  pd_u64 (b, len);
  pd_u64 (b, pgoff);
  pd_zeros (b, 24);          /* maj, min, ino, ino_generation */
  pd_u32 (b, 5);             /* PROT_READ | PROT_EXEC */
  pd_u32 (b, 2);             /* MAP_PRIVATE */
  pd_string (b, filename, 8, FALSE);
  pd_trailer (b, st, id);
  pd_end (b, r);
}

/* A sample of sample_type @st (IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD,
 * CALLCHAIN are supported) with @n_ips call-chain entries. */
static inline void
pd_sample (GByteArray *b, guint64 st, const PdId *id, guint64 ip, guint64 period,
           const guint64 *ips, guint n_ips)
{
  gsize r = pd_begin (b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);

  if (st & PERF_SAMPLE_IDENTIFIER)
    pd_u64 (b, id->id);
  if (st & PERF_SAMPLE_IP)
    pd_u64 (b, ip);
  if (st & PERF_SAMPLE_TID)
    {
      pd_u32 (b, id->pid);
      pd_u32 (b, id->tid);
    }
  if (st & PERF_SAMPLE_TIME)
    pd_u64 (b, id->time);
  if (st & PERF_SAMPLE_ID)
    pd_u64 (b, id->id);
  if (st & PERF_SAMPLE_CPU)
    {
      pd_u32 (b, id->cpu);
      pd_u32 (b, 0);
    }
  if (st & PERF_SAMPLE_PERIOD)
    pd_u64 (b, period);
  if (st & PERF_SAMPLE_CALLCHAIN)
    {
      pd_u64 (b, n_ips);
      for (guint i = 0; i < n_ips; i++)
        pd_u64 (b, ips[i]);
    }
  pd_end (b, r);
}

static inline void
pd_finished_round (GByteArray *b)
{
  pd_end (b, pd_begin (b, 68, 0));
}

/* perf_record_header_build_id: pid, build_id[20] + size + 3 reserved
 * (with PERF_RECORD_MISC_BUILD_ID_SIZE), filename. */
static inline void
pd_build_id (GByteArray *b, guint16 cpumode, gint32 pid, const guint8 *id, guint8 id_size,
             const char *filename, gboolean with_size)
{
  gsize r = pd_begin (b, 67, cpumode | (with_size ? (1 << 15) : 0));
  guint8 raw[24] = { 0 };

  memcpy (raw, id, MIN (id_size, 20));
  if (with_size)
    raw[20] = id_size;
  pd_u32 (b, (guint32) pid);
  pd_put (b, raw, 24);
  pd_string (b, filename, 64, FALSE);
  pd_end (b, r);
}

/* Files -------------------------------------------------------------------- */

typedef struct {
  guint32     attr_size;            /* sizeof perf_event_attr in the file */
  GPtrArray  *attrs;                /* PdAttr* */
  GPtrArray  *ids;                  /* GArray<guint64>*, one per attr */
  GByteArray *data;                 /* the records */
  GByteArray *features[256];        /* feature sections; NULL: absent */
} PdFile;

static inline PdFile *
pd_file_new (guint32 attr_size)
{
  PdFile *f = g_new0 (PdFile, 1);

  f->attr_size = attr_size;
  f->attrs = g_ptr_array_new_with_free_func (g_free);
  f->ids = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  f->data = g_byte_array_new ();
  return f;
}

static inline void
pd_file_free (PdFile *f)
{
  g_ptr_array_unref (f->attrs);
  g_ptr_array_unref (f->ids);
  g_byte_array_unref (f->data);
  for (guint i = 0; i < 256; i++)
    if (f->features[i] != NULL)
      g_byte_array_unref (f->features[i]);
  g_free (f);
}

static inline void
pd_file_add_attr (PdFile *f, const PdAttr *attr, const guint64 *ids, guint n_ids)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_array_append_vals (a, ids, n_ids);
  g_ptr_array_add (f->attrs, g_memdup2 (attr, sizeof *attr));
  g_ptr_array_add (f->ids, a);
}

static inline GByteArray *
pd_file_feature (PdFile *f, guint feature)
{
  if (f->features[feature] == NULL)
    f->features[feature] = g_byte_array_new ();
  return f->features[feature];
}

static inline GByteArray *
pd_file_build (PdFile *f)
{
  GByteArray *b = g_byte_array_new ();
  guint64 attrs_offset = 104;
  guint64 attrs_size = (guint64) f->attrs->len * (f->attr_size + 16);
  guint64 ids_offset = attrs_offset + attrs_size;
  guint64 data_offset, feat_offset;
  guint64 bitmap[4] = { 0 };
  guint64 n_ids = 0;
  guint n_features = 0;

  for (guint i = 0; i < f->ids->len; i++)
    n_ids += ((GArray *) g_ptr_array_index (f->ids, i))->len;
  data_offset = ids_offset + n_ids * 8;
  feat_offset = data_offset + f->data->len;
  for (guint i = 0; i < 256; i++)
    if (f->features[i] != NULL)
      {
        bitmap[i / 64] |= 1ull << (i % 64);
        n_features++;
      }

  pd_put (b, "PERFILE2", 8);
  pd_u64 (b, 104);
  pd_u64 (b, f->attr_size + 16);
  pd_u64 (b, attrs_offset);
  pd_u64 (b, attrs_size);
  pd_u64 (b, data_offset);
  pd_u64 (b, f->data->len);
  pd_u64 (b, 0);             /* event_types: unused */
  pd_u64 (b, 0);
  pd_put (b, bitmap, sizeof bitmap);

  {
    guint64 at = ids_offset;

    for (guint i = 0; i < f->attrs->len; i++)
      {
        GArray *ids = g_ptr_array_index (f->ids, i);

        pd_attr (b, g_ptr_array_index (f->attrs, i), f->attr_size);
        pd_u64 (b, at);
        pd_u64 (b, ids->len * 8);
        at += ids->len * 8;
      }
  }
  for (guint i = 0; i < f->ids->len; i++)
    {
      GArray *ids = g_ptr_array_index (f->ids, i);

      pd_put (b, ids->data, ids->len * 8);
    }
  g_assert_cmpuint (b->len, ==, data_offset);
  pd_put (b, f->data->data, f->data->len);

  {
    guint64 at = feat_offset + n_features * 16;

    for (guint i = 0; i < 256; i++)
      if (f->features[i] != NULL)
        {
          pd_u64 (b, at);
          pd_u64 (b, f->features[i]->len);
          at += f->features[i]->len;
        }
  }
  for (guint i = 0; i < 256; i++)
    if (f->features[i] != NULL)
      pd_put (b, f->features[i]->data, f->features[i]->len);
  return b;
}

/* Pipe mode: HEADER_ATTR records carry the attributes. */
static inline void
pd_header_attr (GByteArray *b, const PdAttr *attr, guint32 attr_size, const guint64 *ids, guint n_ids)
{
  gsize r = pd_begin (b, 64, 0);

  pd_attr (b, attr, attr_size);
  for (guint i = 0; i < n_ids; i++)
    pd_u64 (b, ids[i]);
  pd_end (b, r);
}

static inline void
pd_header_feature (GByteArray *b, guint64 feature, const GByteArray *content)
{
  gsize r = pd_begin (b, 80, 0);

  pd_u64 (b, feature);
  pd_put (b, content->data, content->len);
  pd_end (b, r);
}

static inline void
pd_event_update_name (GByteArray *b, guint64 id, const char *name)
{
  gsize r = pd_begin (b, 78, 0);

  pd_u64 (b, 2);             /* PERF_EVENT_UPDATE__NAME */
  pd_u64 (b, id);
  pd_string (b, name, 8, FALSE);
  pd_end (b, r);
}

static inline GByteArray *
pd_pipe_header (void)
{
  GByteArray *b = g_byte_array_new ();

  pd_put (b, "PERFILE2", 8);
  pd_u64 (b, 16);
  return b;
}
