/* hp-jitdump.c - names and line tables of run-time compiled code from jitdump files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the reading of jitdump files, what `perf inject --jit`
 * reads: a binary log that a JIT runtime appends to while it runs (the
 * JVMTI agent libperf-jvmti.so, V8's --perf-prof, .NET's
 * DOTNET_PerfMapEnabled). Its format is linux
 * tools/perf/Documentation/jitdump-specification.txt:
 *
 *   file header   u32 magic "JiTD" (0x4A695444), u32 version, u32 total_size,
 *                 u32 elf_mach, u32 pad1, u32 pid, u64 timestamp, u64 flags
 *   record header u32 id, u32 total_size (header included), u64 timestamp
 *   LOAD (0)      u32 pid, u32 tid, u64 vma, u64 code_addr, u64 code_size,
 *                 u64 code_index, name (NUL-terminated), the code bytes
 *   MOVE (1)      u32 pid, u32 tid, u64 vma, u64 old_code_addr,
 *                 u64 new_code_addr, u64 code_size, u64 code_index
 *   DEBUG_INFO (2) u64 code_addr, u64 nr_entry, then per entry u64 addr,
 *                 u32 line, u32 discrim, file name (NUL-terminated); it
 *                 comes before the LOAD of the code it describes
 *   CLOSE (3), UNWINDING_INFO (4): nothing we use
 *
 * A file written on a machine of the other byte order is recognized by
 * its magic read backwards, and read swapped.
 *
 * Code is kept in an HpPerfMap (hp-perf-map.c), which answers lookups
 * with the entry written last where code was reused. The file is the
 * profiled program's, so untrusted: every size is checked against the
 * record, a record that claims more than MAX_RECORD or less than its
 * header stops the reading with a warning, and a record cut short at the
 * end of the file is left for the next read while the program runs and
 * reported as truncated when the capture is finished.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/hp-regular-file.h"
#include "symbols/hp-jitdump.h"

#define JITDUMP_MAGIC          0x4A695444u
#define JITDUMP_MAGIC_SWAPPED  0x4454694Au
#define FILE_HEADER_SIZE       40
#define RECORD_HEADER_SIZE     16
/* The code bytes of a LOAD are part of the record: a large method is
 * tens of KiB. A record claiming more is taken as corrupt. */
#define MAX_RECORD             (64 * 1024 * 1024)

enum {
  JIT_CODE_LOAD = 0,
  JIT_CODE_MOVE = 1,
  JIT_CODE_DEBUG_INFO = 2,
  JIT_CODE_CLOSE = 3,
};

typedef struct {
  guint64 start;
  guint64 size;
  char   *name;
  GArray *lines;  /* HpJitLine, relative to start */
} Loaded;

struct _HpJitDump
{
  char       *path;
  HpPerfMap  *map;
  gboolean    header_read;
  gboolean    swapped;
  gboolean    broken;       /* stop reading: not a jitdump, or corrupt */
  char       *problem;      /* why broken */
  guint64     offset;       /* next record */
  guint64     file_size;    /* at the last read */

  /* The DEBUG_INFO of the next LOAD, by code address */
  GHashTable *pending_lines;  /* guint64* -> GArray of HpJitLine (absolute) */
  GHashTable *loaded;         /* code_index (guint64*) -> Loaded */
  GStringChunk *files;
};

static void
loaded_free (gpointer data)
{
  Loaded *l = data;

  g_free (l->name);
  g_clear_pointer (&l->lines, g_array_unref);
  g_free (l);
}

HpJitDump *
hp_jitdump_new (const char *path)
{
  HpJitDump *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_new0 (HpJitDump, 1);
  self->path = g_strdup (path);
  self->map = hp_perf_map_new (path);
  self->pending_lines = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                               (GDestroyNotify) g_array_unref);
  self->loaded = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, loaded_free);
  self->files = g_string_chunk_new (4096);
  return self;
}

void
hp_jitdump_free (HpJitDump *self)
{
  if (self == NULL)
    return;
  hp_perf_map_free (self->map);
  g_hash_table_unref (self->pending_lines);
  g_hash_table_unref (self->loaded);
  g_string_chunk_free (self->files);
  g_free (self->problem);
  g_free (self->path);
  g_free (self);
}

const char *
hp_jitdump_get_path (const HpJitDump *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

gboolean
hp_jitdump_is_path (const char *path)
{
  const char *base;
  const char *p;

  g_return_val_if_fail (path != NULL, FALSE);

  base = strrchr (path, '/');
  base = base != NULL ? base + 1 : path;
  if (!g_str_has_prefix (base, "jit-"))
    return FALSE;
  for (p = base + 4; g_ascii_isdigit (*p); p++)
    ;
  return p > base + 4 && strcmp (p, ".dump") == 0;
}

static guint32
u32_at (const HpJitDump *self,
        const guint8    *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return self->swapped ? GUINT32_SWAP_LE_BE (v) : v;
}

static guint64
u64_at (const HpJitDump *self,
        const guint8    *p)
{
  guint64 v;

  memcpy (&v, p, 8);
  return self->swapped ? GUINT64_SWAP_LE_BE (v) : v;
}

static void
set_broken (HpJitDump  *self,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
set_broken (HpJitDump  *self,
            const char *format,
            ...)
{
  va_list args;

  va_start (args, format);
  g_free (self->problem);
  self->problem = g_strdup_vprintf (format, args);
  va_end (args);
  self->broken = TRUE;
}

/* A NUL-terminated string within [p, end); NULL when it is not. */
static const char *
string_in (const guint8 *p,
           const guint8 *end,
           gsize        *len)
{
  const guint8 *nul = p < end ? memchr (p, '\0', end - p) : NULL;

  if (nul == NULL)
    return NULL;
  *len = nul - p;
  return (const char *) p;
}

static gboolean
is_file_name (const char *name,
              gsize       len)
{
  if (!g_utf8_validate (name, (gssize) len, NULL))
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if ((guchar) name[i] < 0x20 || name[i] == 0x7f)
      return FALSE;
  return TRUE;
}

static void
read_debug_info (HpJitDump    *self,
                 const guint8 *body,
                 const guint8 *end,
                 guint64       at)
{
  g_autoptr(GArray) lines = NULL;
  guint64 code_addr, n;
  const guint8 *p = body;

  if (end - p < 16)
    {
      set_broken (self, "a debug info record at offset %" PRIu64 " is too short", at);
      return;
    }
  code_addr = u64_at (self, p);
  n = u64_at (self, p + 8);
  p += 16;
  /* Each entry takes at least 17 bytes: bounds n before allocating. */
  if (n > (guint64) (end - p) / 17)
    {
      set_broken (self, "a debug info record at offset %" PRIu64 " claims %" PRIu64
                  " entries, more than it holds", at, n);
      return;
    }
  lines = g_array_sized_new (FALSE, FALSE, sizeof (HpJitLine), (guint) n);
  for (guint64 i = 0; i < n; i++)
    {
      HpJitLine row;
      const char *file;
      gsize len;

      if (end - p < 16 || (file = string_in (p + 16, end, &len)) == NULL)
        {
          set_broken (self, "a debug info record at offset %" PRIu64 " ends inside its entry %" PRIu64, at, i);
          return;
        }
      row.address = u64_at (self, p);
      row.line = u32_at (self, p + 8);
      /* A name that is no text is no file: V8 in node 20 writes a few
       * bytes of its heap before the name of optimized code's script. */
      row.file = g_string_chunk_insert_const (self->files, is_file_name (file, len) ? file : "");
      g_array_append_val (lines, row);
      p += 16 + len + 1;
    }
  g_hash_table_replace (self->pending_lines, g_memdup2 (&code_addr, sizeof code_addr),
                        g_steal_pointer (&lines));
}

static void
read_load (HpJitDump    *self,
           const guint8 *body,
           const guint8 *end,
           guint64       at)
{
  guint64 vma, code_addr, size, index;
  const char *name;
  GArray *lines;
  Loaded *loaded;
  gsize len;

  if (end - body < 40 || (name = string_in (body + 40, end, &len)) == NULL)
    {
      set_broken (self, "a code load record at offset %" PRIu64 " is too short for its name", at);
      return;
    }
  vma = u64_at (self, body + 8);
  code_addr = u64_at (self, body + 16);
  size = u64_at (self, body + 24);
  index = u64_at (self, body + 32);

  lines = g_hash_table_lookup (self->pending_lines, &code_addr);
  hp_perf_map_add (self->map, vma, size, name,
                   lines != NULL ? (const HpJitLine *) (gconstpointer) lines->data : NULL,
                   lines != NULL ? lines->len : 0);

  /* Kept for a MOVE, with the line table relative to the code. */
  loaded = g_new0 (Loaded, 1);
  loaded->start = vma;
  loaded->size = size;
  loaded->name = g_strdup (name);
  if (lines != NULL)
    {
      loaded->lines = g_array_ref (lines);
      for (guint i = 0; i < lines->len; i++)
        g_array_index (lines, HpJitLine, i).address -= code_addr;
    }
  g_hash_table_remove (self->pending_lines, &code_addr);
  g_hash_table_replace (self->loaded, g_memdup2 (&index, sizeof index), loaded);
}

static void
read_move (HpJitDump    *self,
           const guint8 *body,
           const guint8 *end,
           guint64       at)
{
  g_autoptr(GArray) moved = NULL;
  guint64 vma, size, index;
  Loaded *loaded;

  if (end - body < 48)
    {
      set_broken (self, "a code move record at offset %" PRIu64 " is too short", at);
      return;
    }
  vma = u64_at (self, body + 8);
  size = u64_at (self, body + 32);
  index = u64_at (self, body + 40);
  loaded = g_hash_table_lookup (self->loaded, &index);
  if (loaded == NULL)
    return; /* moves code we never saw loaded: nothing to name */

  if (loaded->lines != NULL)
    {
      moved = g_array_copy (loaded->lines);
      for (guint i = 0; i < moved->len; i++)
        g_array_index (moved, HpJitLine, i).address += vma;
    }
  hp_perf_map_add (self->map, vma, size != 0 ? size : loaded->size, loaded->name,
                   moved != NULL ? (const HpJitLine *) (gconstpointer) moved->data : NULL,
                   moved != NULL ? moved->len : 0);
  loaded->start = vma;
}

/* Reads @len bytes at @offset; FALSE when the file holds fewer. */
static gboolean
read_at (int      fd,
         guint8  *buf,
         gsize    len,
         guint64  offset)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = pread (fd, buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += (gsize) n;
    }
  return TRUE;
}

gboolean
hp_jitdump_update (HpJitDump *self)
{
  g_autofree guint8 *buf = NULL;
  gsize buf_size = 0;
  gboolean added = FALSE;
  struct stat st;
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->broken)
    return FALSE;
  fd = hp_regular_file_open (self->path, &st);
  if (fd < 0)
    return FALSE;
  self->file_size = (guint64) st.st_size;

  if (!self->header_read)
    {
      guint8 header[FILE_HEADER_SIZE];
      guint32 magic, total;

      if (self->file_size < FILE_HEADER_SIZE || !read_at (fd, header, sizeof header, 0))
        {
          close (fd);
          return FALSE; /* not written yet */
        }
      memcpy (&magic, header, 4);
      if (magic == JITDUMP_MAGIC_SWAPPED)
        self->swapped = TRUE;
      else if (magic != JITDUMP_MAGIC)
        {
          set_broken (self, "not a jitdump (no \"JiTD\" magic)");
          close (fd);
          return FALSE;
        }
      total = u32_at (self, header + 8);
      if (total < FILE_HEADER_SIZE || total > MAX_RECORD)
        {
          set_broken (self, "its header claims %u bytes", total);
          close (fd);
          return FALSE;
        }
      self->offset = total;
      self->header_read = TRUE;
    }

  while (!self->broken && self->file_size - MIN (self->offset, self->file_size) >= RECORD_HEADER_SIZE)
    {
      guint8 header[RECORD_HEADER_SIZE];
      guint32 id, total;

      if (!read_at (fd, header, sizeof header, self->offset))
        break;
      id = u32_at (self, header);
      total = u32_at (self, header + 4);
      if (total < RECORD_HEADER_SIZE || total > MAX_RECORD)
        {
          set_broken (self, "the record at offset %" PRIu64 " claims %u bytes", self->offset, total);
          break;
        }
      if (self->file_size - self->offset < total)
        break; /* still being written, or cut short: see get_warning */

      if (id == JIT_CODE_LOAD || id == JIT_CODE_MOVE || id == JIT_CODE_DEBUG_INFO)
        {
          if (buf_size < total)
            {
              g_free (buf);
              buf = g_malloc (total);
              buf_size = total;
            }
          if (!read_at (fd, buf, total, self->offset))
            break;
          if (id == JIT_CODE_LOAD)
            {
              read_load (self, buf + RECORD_HEADER_SIZE, buf + total, self->offset);
              added = TRUE;
            }
          else if (id == JIT_CODE_MOVE)
            {
              read_move (self, buf + RECORD_HEADER_SIZE, buf + total, self->offset);
              added = TRUE;
            }
          else
            read_debug_info (self, buf + RECORD_HEADER_SIZE, buf + total, self->offset);
        }
      self->offset += total;
    }
  close (fd);
  return added;
}

const HpPerfMapEntry *
hp_jitdump_lookup (HpJitDump *self,
                   guint64    address)
{
  g_return_val_if_fail (self != NULL, NULL);

  return hp_perf_map_lookup (self->map, address);
}

char *
hp_jitdump_get_warning (HpJitDump *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (self->broken)
    return g_strdup_printf (_("%s: %s; code after it is shown by address"), self->path, self->problem);
  if (self->header_read && self->offset < self->file_size)
    return g_strdup_printf (_("%s: truncated: the record at offset %" PRIu64
                              " is cut short; code after it is shown by address"),
                            self->path, self->offset);
  if (!self->header_read && self->file_size > 0)
    return g_strdup_printf (_("%s: truncated: shorter than a jitdump header"), self->path);
  return NULL;
}
