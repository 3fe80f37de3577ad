/* test-perf-ring.c - the ring reader on a ring written by hand in a memfd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "perf/hp-perf-record.h"
#include "perf/hp-perf-ring.h"

#define DATA_PAGES 2

static const HpPerfEventInfo info = {
  .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID
                 | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT,
};

typedef struct {
  int                          fd;
  struct perf_event_mmap_page *meta;
  guint8                      *data;
  gsize                        data_size;
  HpPerfRing                  *ring;
} Ring;

static void
ring_set_up (Ring *r)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  r->fd = memfd_create ("test-perf-ring", MFD_CLOEXEC);
  g_assert_cmpint (r->fd, >=, 0);
  g_assert_cmpint (ftruncate (r->fd, (off_t) (page * (DATA_PAGES + 1))), ==, 0);
  r->meta = mmap (NULL, page * (DATA_PAGES + 1), PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
  g_assert_true (r->meta != MAP_FAILED);
  r->data = (guint8 *) r->meta + page;
  r->data_size = page * DATA_PAGES;
  r->ring = hp_perf_ring_new (r->fd, DATA_PAGES, NULL);
  g_assert_nonnull (r->ring);
}

static void
ring_tear_down (Ring *r)
{
  hp_perf_ring_free (r->ring);
  munmap (r->meta, r->data_size + (gsize) sysconf (_SC_PAGESIZE));
  close (r->fd);
}

/* Writes @record at data_head, wrapping at the end as the kernel does. */
static void
ring_put (Ring       *r,
          GByteArray *record)
{
  guint64 head = r->meta->data_head;

  for (guint i = 0; i < record->len; i++)
    r->data[(head + i) % r->data_size] = record->data[i];
  r->meta->data_head = head + record->len;
}

static void
put_u64 (GByteArray *b,
         guint64     v)
{
  g_byte_array_append (b, (const guint8 *) &v, sizeof v);
}

/* A sample of @info's layout with a stack copy of @size bytes, of which the
 * kernel filled @dyn_size; the weight after the copy is @weight. */
static GByteArray *
sample_new (guint64 size,
            guint64 dyn_size,
            guint64 weight)
{
  GByteArray *b = g_byte_array_new ();
  struct perf_event_header header = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };

  g_byte_array_append (b, (const guint8 *) &header, sizeof header);
  put_u64 (b, 7);                           /* id */
  put_u64 (b, 0x401000);                    /* ip */
  put_u64 (b, (guint64) 42 << 32 | 42);     /* pid, tid */
  put_u64 (b, size);
  for (guint64 i = 0; i < size; i++)
    {
      guint8 byte = i < dyn_size ? (guint8) (i * 7 + 1) : 0xee;

      g_byte_array_append (b, &byte, 1);
    }
  put_u64 (b, dyn_size);
  put_u64 (b, weight);
  ((struct perf_event_header *) b->data)->size = (guint16) b->len;
  return b;
}

/* As the recorder finds it: decoded with the event's layout. */
static gsize
find_stack (const guint8 *record,
            gsize         size,
            gpointer      user_data)
{
  HpPerfRecord rec;

  if (!hp_perf_record_decode (&info, record, size, &rec, NULL) || rec.sample.stack == NULL)
    return 0;
  return (gsize) (rec.sample.stack - record) - sizeof (guint64);
}

static gsize
wrong_place (const guint8 *record,
             gsize         size,
             gpointer      user_data)
{
  return size - 4;
}

/* Decodes the record at @at in @out: its stack bytes and the weight read
 * from its last 8 bytes. */
static const HpPerfRecord *
decode_at (GByteArray   *out,
           gsize         at,
           HpPerfRecord *rec,
           guint64      *weight)
{
  g_assert_true (hp_perf_record_decode (&info, out->data + at, out->len - at, rec, NULL));
  memcpy (weight, out->data + at + rec->size - 8, 8);
  return rec;
}

/* What the kernel did not fill is not copied; what it did, and the fields
 * after the copy, are as they were. */
static void
test_trimmed (void)
{
  g_autoptr(GByteArray) shallow = sample_new (256, 100, 11);
  g_autoptr(GByteArray) full = sample_new (256, 256, 12);
  g_autoptr(GByteArray) empty = sample_new (256, 0, 13);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  HpPerfRecord rec, original;
  guint64 weight;
  gsize at = 0;
  Ring r;

  ring_set_up (&r);
  ring_put (&r, shallow);
  ring_put (&r, full);
  ring_put (&r, empty);
  g_assert_cmpuint (hp_perf_ring_read_trimmed (r.ring, out, find_stack, NULL), ==, out->len);
  g_assert_cmpuint (r.meta->data_tail, ==, r.meta->data_head);

  /* 100 bytes filled: 104 kept (records stay 8-byte aligned) */
  decode_at (out, at, &rec, &weight);
  g_assert_cmpuint (rec.size, ==, shallow->len - (256 - 104));
  g_assert_cmpuint (rec.sample.stack_size, ==, 100);
  g_assert_true (hp_perf_record_decode (&info, shallow->data, shallow->len, &original, NULL));
  g_assert_cmpmem (rec.sample.stack, 100, original.sample.stack, 100);
  g_assert_cmpuint (rec.sample.ip, ==, 0x401000);
  g_assert_cmpuint (rec.tid, ==, 42);
  g_assert_cmpuint (weight, ==, 11);
  at += rec.size;

  /* all of it filled: copied as it is */
  g_assert_cmpmem (out->data + at, full->len, full->data, full->len);
  at += full->len;

  /* nothing filled: still a copy of 8 bytes, so that dyn_size follows */
  decode_at (out, at, &rec, &weight);
  g_assert_cmpuint (rec.size, ==, empty->len - (256 - 8));
  g_assert_nonnull (rec.sample.stack);
  g_assert_cmpuint (rec.sample.stack_size, ==, 0);
  g_assert_cmpuint (weight, ==, 13);
  at += rec.size;
  g_assert_cmpuint (at, ==, out->len);

  ring_tear_down (&r);
}

/* A record that wraps around the end of the ring, and one whose stack the
 * finder places wrongly, are copied whole; without a finder nothing is cut. */
static void
test_copied_whole (void)
{
  g_autoptr(GByteArray) filler = NULL;
  g_autoptr(GByteArray) shallow = sample_new (256, 100, 21);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  Ring r;

  ring_set_up (&r);
  /* a first record that ends 160 bytes before the end of the ring (56
   * bytes besides its copy), so that the next one goes across it */
  filler = sample_new (r.data_size - 56 - 160, 0, 20);
  ring_put (&r, filler);
  g_assert_cmpuint (hp_perf_ring_read_trimmed (r.ring, out, find_stack, NULL), <, filler->len);
  g_byte_array_set_size (out, 0);
  ring_put (&r, shallow);
  g_assert_cmpuint (r.meta->data_head % r.data_size, <, shallow->len);
  g_assert_cmpuint (hp_perf_ring_read_trimmed (r.ring, out, find_stack, NULL), ==, shallow->len);
  g_assert_cmpmem (out->data, out->len, shallow->data, shallow->len);

  g_byte_array_set_size (out, 0);
  ring_put (&r, shallow);
  g_assert_cmpuint (hp_perf_ring_read_trimmed (r.ring, out, wrong_place, NULL), ==, shallow->len);
  g_assert_cmpmem (out->data, out->len, shallow->data, shallow->len);

  g_byte_array_set_size (out, 0);
  ring_put (&r, shallow);
  g_assert_cmpuint (hp_perf_ring_read (r.ring, out), ==, shallow->len);
  g_assert_cmpmem (out->data, out->len, shallow->data, shallow->len);
  g_assert_cmpuint (r.meta->data_tail, ==, r.meta->data_head);

  ring_tear_down (&r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf-ring/trimmed", test_trimmed);
  g_test_add_func ("/perf-ring/copied-whole", test_copied_whole);
  return g_test_run ();
}
