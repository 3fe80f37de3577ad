/* jitdump-builder.h - writes jitdump files record by record, for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After linux tools/perf/Documentation/jitdump-specification.txt, written
 * down independently of the reader under test (src/symbols/hp-jitdump.c):
 * a 40-byte file header, then records of a 16-byte header (id, total
 * size, timestamp) and a body. Every record is of process 4244.
 */
#pragma once

#include <string.h>

#include <glib.h>

static inline void
jd_u32 (GByteArray *b, guint32 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 4);
}

static inline void
jd_u64 (GByteArray *b, guint64 v)
{
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

static inline void
jd_str (GByteArray *b, const char *s)
{
  g_byte_array_append (b, (const guint8 *) s, strlen (s) + 1);
}

static inline GByteArray *
jd_header (guint32 pid)
{
  GByteArray *b = g_byte_array_new ();

  jd_u32 (b, 0x4A695444);  /* "JiTD" */
  jd_u32 (b, 1);           /* version */
  jd_u32 (b, 40);          /* header size */
  jd_u32 (b, 62);          /* EM_X86_64 */
  jd_u32 (b, 0);
  jd_u32 (b, pid);
  jd_u64 (b, 1);           /* timestamp */
  jd_u64 (b, 0);           /* flags */
  return b;
}

/* Starts a record; jd_end() fills in its size. */
static inline guint
jd_begin (GByteArray *b, guint32 id)
{
  guint at = b->len;

  jd_u32 (b, id);
  jd_u32 (b, 0);
  jd_u64 (b, 2);
  return at;
}

static inline void
jd_end (GByteArray *b, guint at)
{
  guint32 size = b->len - at;

  memcpy (b->data + at + 4, &size, 4);
}

static inline void
jd_load (GByteArray *b, guint64 addr, guint64 size, guint64 index, const char *name)
{
  guint at = jd_begin (b, 0);

  jd_u32 (b, 4244);
  jd_u32 (b, 4244);
  jd_u64 (b, addr);   /* vma */
  jd_u64 (b, addr);   /* code_addr */
  jd_u64 (b, size);
  jd_u64 (b, index);
  jd_str (b, name);
  for (guint64 i = 0; i < size; i++)
    g_byte_array_append (b, (const guint8 *) "\x90", 1); /* the code: nops */
  jd_end (b, at);
}

static inline void
jd_debug (GByteArray *b, guint64 addr, guint n, const guint64 *addrs, const guint *lines, const char *file)
{
  guint at = jd_begin (b, 2);

  jd_u64 (b, addr);
  jd_u64 (b, n);
  for (guint i = 0; i < n; i++)
    {
      jd_u64 (b, addrs[i]);
      jd_u32 (b, lines[i]);
      jd_u32 (b, 0);
      jd_str (b, file);
    }
  jd_end (b, at);
}

static inline void
jd_move (GByteArray *b, guint64 from, guint64 to, guint64 size, guint64 index)
{
  guint at = jd_begin (b, 1);

  jd_u32 (b, 4244);
  jd_u32 (b, 4244);
  jd_u64 (b, to);
  jd_u64 (b, from);
  jd_u64 (b, to);
  jd_u64 (b, size);
  jd_u64 (b, index);
  jd_end (b, at);
}

/* spin at 0x7f0000005000 with two lines, other loaded at 0x7f0000006000
 * and moved to 0x7f0000007000. */
static inline GByteArray *
jd_example (void)
{
  static const guint64 addrs[] = { 0x7f0000005000, 0x7f0000005040 };
  static const guint lines[] = { 10, 12 };
  GByteArray *b = jd_header (4244);

  jd_debug (b, 0x7f0000005000, 2, addrs, lines, "/src/Hot.java");
  jd_load (b, 0x7f0000005000, 0x100, 1, "Hot::spin");
  jd_load (b, 0x7f0000006000, 0x80, 2, "Hot::other");
  jd_move (b, 0x7f0000006000, 0x7f0000007000, 0x80, 2);
  return b;
}
