/* hp-perf-reader.h - a bounds-checked reader over the bytes perf writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way src/perf/ reads fields out of untrusted bytes: the feature
 * sections of a perf.data file (hp-perf-file.c) and the body of every
 * PERF_RECORD_* (hp-perf-record.c). A read checks that its bytes lie
 * inside the buffer before it touches them and returns FALSE, moving
 * nothing, when they do not; so a size or a count taken from the file can
 * make a read fail but never read past the end.
 *
 * Values are in the byte order of this machine: the kernel writes records
 * in it, and the sample's callchain and registers are handed out as
 * guint64 arrays pointing into the record. perf.data files are read only
 * when their magic says little-endian (hp-perf-file.c refuses the others),
 * which is this machine's order on every architecture Hotpath runs on.
 */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         pos;
} HpPerfReader;

static inline void
hp_perf_reader_init (HpPerfReader *r,
                     const guint8 *data,
                     gsize         size)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
}

/* Bytes left after the position; 0 when a position set by hand lies
 * beyond the end. */
static inline gsize
hp_perf_reader_remaining (const HpPerfReader *r)
{
  return r->pos <= r->size ? r->size - r->pos : 0;
}

/* Returns the next @n bytes and moves past them; NULL when fewer are left. */
static inline const guint8 *
hp_perf_reader_take (HpPerfReader *r,
                     gsize         n)
{
  const guint8 *p;

  if (hp_perf_reader_remaining (r) < n)
    return NULL;
  p = r->data + r->pos;
  r->pos += n;
  return p;
}

static inline gboolean
hp_perf_reader_skip (HpPerfReader *r,
                     gsize         n)
{
  return hp_perf_reader_take (r, n) != NULL;
}

/* Copies the next @n bytes to @out (which may be unaligned in the buffer). */
static inline gboolean
hp_perf_reader_copy (HpPerfReader *r,
                     gpointer      out,
                     gsize         n)
{
  const guint8 *p = hp_perf_reader_take (r, n);

  if (p == NULL)
    return FALSE;
  memcpy (out, p, n);
  return TRUE;
}

static inline gboolean
hp_perf_reader_u32 (HpPerfReader *r,
                    guint32      *out)
{
  return hp_perf_reader_copy (r, out, sizeof *out);
}

static inline gboolean
hp_perf_reader_u64 (HpPerfReader *r,
                    guint64      *out)
{
  return hp_perf_reader_copy (r, out, sizeof *out);
}

/* @n u64 values (a callchain, sampled registers), left in place: *out
 * points into the buffer. The count is checked before it is multiplied,
 * so a forged one cannot wrap around. */
static inline gboolean
hp_perf_reader_u64_array (HpPerfReader   *r,
                          guint64         n,
                          const guint64 **out)
{
  if (n > hp_perf_reader_remaining (r) / sizeof (guint64))
    return FALSE;
  *out = (const guint64 *) (gconstpointer) (r->data + r->pos);
  r->pos += n * sizeof (guint64);
  return TRUE;
}

/* perf's do_write_string (util/header.c), in feature sections: a u32
 * length (NUL and padding included), then that many bytes. */
static inline gboolean
hp_perf_reader_string (HpPerfReader  *r,
                       char         **out)
{
  guint32 len;
  const guint8 *p;
  gsize start = r->pos;

  if (!hp_perf_reader_u32 (r, &len) || (p = hp_perf_reader_take (r, len)) == NULL)
    {
      r->pos = start;
      return FALSE;
    }
  *out = g_strndup ((const char *) p, len);
  return TRUE;
}

/* A string inside a record (a COMM's name, an MMAP's file name): NUL
 * terminated, padded to 8 bytes, and ending inside the buffer. *out points
 * into the buffer. */
static inline gboolean
hp_perf_reader_record_string (HpPerfReader  *r,
                              const char   **out)
{
  const guint8 *nul;

  if (r->pos >= r->size)
    return FALSE;
  nul = memchr (r->data + r->pos, 0, r->size - r->pos);
  if (nul == NULL)
    return FALSE;
  *out = (const char *) r->data + r->pos;
  r->pos = GPOINTER_TO_SIZE (nul - r->data) + 1;
  r->pos = MIN (r->size, (r->pos + 7) & ~(gsize) 7);
  return TRUE;
}

G_END_DECLS
