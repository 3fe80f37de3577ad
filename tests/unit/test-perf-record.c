/* test-perf-record.c - the PERF_RECORD_* decoder on records built byte by byte
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "perf/hp-perf-record.h"

typedef struct {
  GByteArray *b;
} Builder;

static void
put (Builder *b, const void *data, gsize n)
{
  g_byte_array_append (b->b, data, n);
}

static void
put_u64 (Builder *b, guint64 v)
{
  put (b, &v, 8);
}

static void
put_u32 (Builder *b, guint32 v)
{
  put (b, &v, 4);
}

static void
put_string (Builder *b, const char *s)
{
  gsize n = strlen (s) + 1;
  static const guint8 zeros[8];

  put (b, s, n);
  put (b, zeros, (8 - n % 8) % 8);
}

static Builder
begin (guint32 type, guint16 misc)
{
  Builder b = { g_byte_array_new () };
  struct perf_event_header h = { type, misc, 0 };

  put (&b, &h, sizeof h);
  return b;
}

static GByteArray *
end (Builder *b)
{
  ((struct perf_event_header *) b->b->data)->size = b->b->len;
  return b->b;
}

static const HpPerfEventInfo live_info = {
  .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
                 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                 PERF_SAMPLE_CALLCHAIN,
  .sample_id_all = TRUE,
};

static void
put_trailer (Builder *b, guint32 pid, guint32 tid, guint64 time, guint32 cpu, guint64 id)
{
  /* TID, TIME, CPU, IDENTIFIER (in the order of the bits, IDENTIFIER last) */
  put_u32 (b, pid);
  put_u32 (b, tid);
  put_u64 (b, time);
  put_u32 (b, cpu);
  put_u32 (b, 0);
  put_u64 (b, id);
}

static void
test_sample_callchain (void)
{
  Builder b = begin (PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  HpPerfRecord rec;

  put_u64 (&b, 77);          /* identifier */
  put_u64 (&b, 0x401000);    /* ip */
  put_u32 (&b, 100);         /* pid */
  put_u32 (&b, 101);         /* tid */
  put_u64 (&b, 123456789);   /* time */
  put_u32 (&b, 1);           /* cpu */
  put_u32 (&b, 0);
  put_u64 (&b, 1001001);     /* period */
  put_u64 (&b, 3);           /* callchain nr */
  put_u64 (&b, (guint64) PERF_CONTEXT_USER);
  put_u64 (&b, 0x401000);
  put_u64 (&b, 0x402000);
  bytes = end (&b);

  g_assert_true (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rec.type, ==, PERF_RECORD_SAMPLE);
  g_assert_cmpuint (rec.id, ==, 77);
  g_assert_cmpuint (rec.sample.ip, ==, 0x401000);
  g_assert_cmpuint (rec.pid, ==, 100);
  g_assert_cmpuint (rec.tid, ==, 101);
  g_assert_cmpuint (rec.time, ==, 123456789);
  g_assert_true (rec.has_time);
  g_assert_cmpuint (rec.cpu, ==, 1);
  g_assert_cmpuint (rec.sample.period, ==, 1001001);
  g_assert_cmpuint (rec.sample.n_ips, ==, 3);
  g_assert_cmpuint (rec.sample.ips[0], ==, (guint64) PERF_CONTEXT_USER);
  g_assert_cmpuint (rec.sample.ips[2], ==, 0x402000);

  /* A callchain that claims more entries than the record holds is an error. */
  memset (bytes->data + bytes->len - 32, 0xff, 8);
  g_assert_false (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, &error));
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
}

/* A sample of live_info's layout with a call chain of one entry. */
static void
put_live_sample (Builder *b)
{
  put_u64 (b, 77);          /* identifier */
  put_u64 (b, 0x401000);    /* ip */
  put_u32 (b, 100);         /* pid */
  put_u32 (b, 101);         /* tid */
  put_u64 (b, 123456789);   /* time */
  put_u32 (b, 1);           /* cpu */
  put_u32 (b, 0);
  put_u64 (b, 1001001);     /* period */
  put_u64 (b, 1);           /* callchain nr */
  put_u64 (b, 0x401000);
}

/* A sample must hold exactly what its event's sample_type lays out: an
 * attribute that disagrees with its records (a forged or spliced
 * perf.data) made the decoder read a time as a period, or ignore a call
 * chain, and the import went on without a word. Fields after the user
 * stack that nothing reads are counted too. */
static void
test_sample_type_mismatch (void)
{
  static const struct {
    guint64     sample_type;
    guint       extra;       /* u64 words after the call chain */
    gboolean    ok;
  } cases[] = {
    { 0, 0, TRUE },                                         /* live_info itself */
    { PERF_SAMPLE_WEIGHT, 1, TRUE },
    { PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_CODE_PAGE_SIZE, 3, TRUE },
    { PERF_SAMPLE_AUX, 3, TRUE },                           /* size 16, then 16 bytes */
    { PERF_SAMPLE_REGS_INTR, 1, TRUE },                     /* abi 0: no registers */
    { 0, 1, FALSE },                                        /* a word too many */
    { PERF_SAMPLE_WEIGHT, 0, FALSE },                       /* a word too few */
    { PERF_SAMPLE_AUX, 2, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Builder b = begin (PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
      HpPerfEventInfo info = live_info;
      g_autoptr(GByteArray) bytes = NULL;
      g_autoptr(GError) error = NULL;
      HpPerfRecord rec;

      info.sample_type |= cases[i].sample_type;
      put_live_sample (&b);
      for (guint w = 0; w < cases[i].extra; w++)
        put_u64 (&b, (cases[i].sample_type & PERF_SAMPLE_AUX) && w == 0 ? 16 : 0);
      bytes = end (&b);
      g_test_message ("case %u", i);
      g_assert_cmpint (hp_perf_record_decode (&info, bytes->data, bytes->len, &rec, &error), ==, cases[i].ok);
      if (!cases[i].ok)
        g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
    }

  /* The same sample read with fewer bits than it was written with. */
  {
    Builder b = begin (PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
    HpPerfEventInfo info = live_info;
    g_autoptr(GByteArray) bytes = NULL;
    g_autoptr(GError) error = NULL;
    HpPerfRecord rec;

    put_live_sample (&b);
    bytes = end (&b);
    info.sample_type &= ~(guint64) PERF_SAMPLE_CALLCHAIN;
    g_assert_false (hp_perf_record_decode (&info, bytes->data, bytes->len, &rec, &error));
    g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
    g_assert_nonnull (strstr (error->message, "sample_type 0x"));
    g_clear_error (&error);
    info.sample_type = 0;
    g_assert_false (hp_perf_record_decode (&info, bytes->data, bytes->len, &rec, &error));
    g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
  }
}

static void
test_sample_regs_stack (void)
{
  HpPerfEventInfo info = {
    .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
    .sample_regs_user = 0x7, /* three registers */
  };
  Builder b = begin (PERF_RECORD_SAMPLE, 0);
  g_autoptr(GByteArray) bytes = NULL;
  guint8 stack[16];
  HpPerfRecord rec;

  memset (stack, 0xab, sizeof stack);
  put_u32 (&b, 5);
  put_u32 (&b, 6);
  put_u64 (&b, PERF_SAMPLE_REGS_ABI_64);
  put_u64 (&b, 10);
  put_u64 (&b, 20);
  put_u64 (&b, 30);
  put_u64 (&b, sizeof stack);
  put (&b, stack, sizeof stack);
  put_u64 (&b, 8); /* dyn_size: only 8 bytes were copied */
  bytes = end (&b);

  g_assert_true (hp_perf_record_decode (&info, bytes->data, bytes->len, &rec, NULL));
  g_assert_cmpuint (rec.sample.n_regs, ==, 3);
  g_assert_cmpuint (rec.sample.regs[2], ==, 30);
  g_assert_cmpuint (rec.sample.stack_size, ==, 8);
  g_assert_cmpuint (rec.sample.stack[0], ==, 0xab);
}

static void
test_mmap2 (void)
{
  Builder b = begin (PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
  g_autoptr(GByteArray) bytes = NULL;
  HpPerfRecord rec;

  put_u32 (&b, 42);
  put_u32 (&b, 42);
  put_u64 (&b, 0x7f0000000000);
  put_u64 (&b, 0x21000);
  put_u64 (&b, 0x1000);
  put_u32 (&b, 8); put_u32 (&b, 1); put_u64 (&b, 1234); put_u64 (&b, 0); /* maj min ino gen */
  put_u32 (&b, 5); /* prot */
  put_u32 (&b, 2); /* flags */
  put_string (&b, "/usr/lib/libfoo.so");
  put_trailer (&b, 42, 43, 999, 0, 7);
  bytes = end (&b);

  g_assert_true (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, NULL));
  g_assert_cmpuint (rec.pid, ==, 42);
  g_assert_cmpuint (rec.tid, ==, 42);  /* the body's, not the trailer's */
  g_assert_cmpuint (rec.mmap.addr, ==, 0x7f0000000000);
  g_assert_cmpuint (rec.mmap.len, ==, 0x21000);
  g_assert_cmpuint (rec.mmap.pgoff, ==, 0x1000);
  g_assert_cmpuint (rec.mmap.prot, ==, 5);
  g_assert_cmpstr (rec.mmap.filename, ==, "/usr/lib/libfoo.so");
  g_assert_cmpuint (rec.mmap.build_id_size, ==, 0);
  g_assert_true (rec.has_time);
  g_assert_cmpuint (rec.time, ==, 999);
  g_assert_cmpuint (rec.id, ==, 7);
}

static void
test_mmap2_build_id (void)
{
  Builder b = begin (PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
  g_autoptr(GByteArray) bytes = NULL;
  guint8 id[24] = { 20, 0, 0, 0 };
  HpPerfRecord rec;

  for (guint i = 0; i < 20; i++)
    id[4 + i] = (guint8) (i + 1);
  put_u32 (&b, 1); put_u32 (&b, 1);
  put_u64 (&b, 0x1000); put_u64 (&b, 0x1000); put_u64 (&b, 0);
  put (&b, id, sizeof id);
  put_u32 (&b, 5); put_u32 (&b, 2);
  put_string (&b, "/bin/true");
  put_trailer (&b, 1, 1, 5, 0, 7);
  bytes = end (&b);

  g_assert_true (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, NULL));
  g_assert_cmpuint (rec.mmap.build_id_size, ==, 20);
  g_assert_cmpuint (rec.mmap.build_id[0], ==, 1);
  g_assert_cmpuint (rec.mmap.build_id[19], ==, 20);
  g_assert_cmpstr (rec.mmap.filename, ==, "/bin/true");
}

static void
test_comm_fork_lost (void)
{
  g_autoptr(GByteArray) comm = NULL, fork = NULL, lost = NULL;
  HpPerfRecord rec;
  Builder b;

  b = begin (PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
  put_u32 (&b, 10); put_u32 (&b, 11);
  put_string (&b, "worker");
  put_trailer (&b, 10, 11, 50, 1, 7);
  comm = end (&b);
  g_assert_true (hp_perf_record_decode (&live_info, comm->data, comm->len, &rec, NULL));
  g_assert_cmpstr (rec.comm.comm, ==, "worker");
  g_assert_true (rec.comm.exec);
  g_assert_cmpuint (rec.tid, ==, 11);
  g_assert_cmpuint (rec.time, ==, 50);

  b = begin (PERF_RECORD_FORK, 0);
  put_u32 (&b, 20); put_u32 (&b, 10); put_u32 (&b, 21); put_u32 (&b, 11); put_u64 (&b, 60);
  put_trailer (&b, 20, 21, 60, 0, 7);
  fork = end (&b);
  g_assert_true (hp_perf_record_decode (&live_info, fork->data, fork->len, &rec, NULL));
  g_assert_cmpuint (rec.pid, ==, 20);
  g_assert_cmpuint (rec.tid, ==, 21);
  g_assert_cmpuint (rec.fork.ppid, ==, 10);
  g_assert_cmpuint (rec.fork.ptid, ==, 11);

  b = begin (PERF_RECORD_LOST, 0);
  put_u64 (&b, 7); put_u64 (&b, 33);
  put_trailer (&b, 0, 0, 70, 0, 7);
  lost = end (&b);
  g_assert_true (hp_perf_record_decode (&live_info, lost->data, lost->len, &rec, NULL));
  g_assert_cmpuint (rec.lost.lost, ==, 33);
}

static void
test_truncated (void)
{
  Builder b = begin (PERF_RECORD_COMM, 0);
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) error = NULL;
  HpPerfRecord rec;

  put_u32 (&b, 10); put_u32 (&b, 11);
  put (&b, "abcdefgh", 8); /* no NUL inside the record */
  bytes = end (&b);

  /* A string without its terminator. */
  g_assert_false (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, &error));
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_INVALID);
  g_clear_error (&error);

  /* Fewer bytes than the header says. */
  g_assert_false (hp_perf_record_decode (&live_info, bytes->data, bytes->len - 1, &rec, &error));
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_TRUNCATED);
  g_clear_error (&error);

  /* Less than a header. */
  g_assert_false (hp_perf_record_decode (&live_info, bytes->data, 4, &rec, &error));
  g_assert_error (error, HP_PERF_ERROR, HP_PERF_ERROR_TRUNCATED);
}

static void
test_unknown_type (void)
{
  Builder b = begin (200, 0);
  g_autoptr(GByteArray) bytes = NULL;
  HpPerfRecord rec;

  put_u64 (&b, 1);
  bytes = end (&b);
  g_assert_true (hp_perf_record_decode (&live_info, bytes->data, bytes->len, &rec, NULL));
  g_assert_cmpuint (rec.type, ==, 200);
  g_assert_cmpuint (rec.size, ==, 16);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf/sample-callchain", test_sample_callchain);
  g_test_add_func ("/perf/sample-type-mismatch", test_sample_type_mismatch);
  g_test_add_func ("/perf/sample-regs-stack", test_sample_regs_stack);
  g_test_add_func ("/perf/mmap2", test_mmap2);
  g_test_add_func ("/perf/mmap2-build-id", test_mmap2_build_id);
  g_test_add_func ("/perf/comm-fork-lost", test_comm_fork_lost);
  g_test_add_func ("/perf/truncated", test_truncated);
  g_test_add_func ("/perf/unknown-type", test_unknown_type);
  return g_test_run ();
}
