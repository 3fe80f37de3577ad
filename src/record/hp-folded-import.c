/* hp-folded-import.c - turns folded stacks into a capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Folded stacks are the text other profilers write for flame graphs: one
 * line per distinct stack, its frames from the root down separated by ';',
 * then whitespace and how many samples had that stack:
 *
 *   main;parse;strlen 12
 *
 * flamegraph.pl's stackcollapse scripts, async-profiler (collapsed) and
 * py-spy (--format raw) write it. Two dialects are understood:
 *   - async-profiler's frame suffixes: _[j] (JIT), _[0] and _[1]
 *     (interpreted, C1), _[i] (inlined) and _[k] (kernel) are removed, an
 *     inlined frame becomes an inline frame and a kernel frame a frame of
 *     [kernel.kallsyms];
 *   - py-spy's "function (file.py:12)": the function, its file and line.
 *
 * The format has no addresses, no modules, no times and no threads, so the
 * capture has none either: every sample is in one thread named after the
 * file, at time 0, and the metadata key "lacks" (schema.sql) says so, for
 * the overview and the report to tell the user.
 *
 * A line that is not folded stacks is an error naming the line, never a
 * line skipped in silence: a count that went missing would change every
 * share without a word.
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
#include "record/hp-folded-import.h"
#include "store/hp-capture-writer.h"

#define SNIFF_BYTES 4096
#define READ_CHUNK  ((gsize) 1 << 20)
/* four times the line of a stack a million frames deep, of 60-byte names */
#define MAX_LINE    ((gsize) 256 << 20)
#define IMPORT_TID  1

/* "stack COUNT": TRUE when @line (without its newline) ends in whitespace
 * then digits after a non-empty stack. */
static gboolean
line_looks_folded (const char *line,
                   gsize       len)
{
  gsize end = len, digits;

  while (end > 0 && line[end - 1] == '\r')
    end--;
  digits = end;
  while (digits > 0 && g_ascii_isdigit (line[digits - 1]))
    digits--;
  return digits < end && digits >= 2 && (line[digits - 1] == ' ' || line[digits - 1] == '\t');
}

gboolean
hp_folded_sniff (const char *path)
{
  char head[SNIFF_BYTES];
  gssize n;
  int fd;
  gboolean named, ret = FALSE;

  g_return_val_if_fail (path != NULL, FALSE);

  named = g_str_has_suffix (path, ".folded") || g_str_has_suffix (path, ".collapsed");
  fd = hp_regular_file_open (path, NULL);
  if (fd < 0)
    return FALSE;
  n = read (fd, head, sizeof head);
  close (fd);
  if (n < 0)
    return named;

  /* The first non-blank line decides; a binary file (a capture, a
   * perf.data) has a NUL in its first bytes. */
  if (memchr (head, '\0', n) == NULL)
    {
      gsize start = 0;

      while (start < (gsize) n)
        {
          const char *nl = memchr (head + start, '\n', n - start);
          gsize len = nl ? (gsize) (nl - head) - start : n - start;

          if (nl == NULL && (gsize) n == sizeof head)
            break;  /* a line longer than what was read: cannot say */
          if (len > 0 && !(len == 1 && head[start] == '\r'))
            {
              ret = line_looks_folded (head + start, len);
              break;
            }
          start += len + 1;
        }
    }
  return ret || named;
}

typedef struct {
  const char      *path;
  HpCaptureWriter *writer;
  GHashTable      *functions;  /* "name\x1file\x1kernel" -> id */
  gint64           kernel_module;
} Import;

/* One frame of a stack: its function, file, line and kind, from the
 * dialects the header names. */
static gint64
intern_frame (Import     *im,
              const char *text,
              gsize       len)
{
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  g_autofree char *key = NULL;
  guint line = 0;
  gboolean is_inline = FALSE, is_kernel = FALSE;
  gint64 function_id;
  gpointer found;

  if (len >= 4 && text[len - 4] == '_' && text[len - 3] == '[' && text[len - 1] == ']'
      && strchr ("jik01", text[len - 2]) != NULL)
    {
      is_inline = text[len - 2] == 'i';
      is_kernel = text[len - 2] == 'k';
      len -= 4;
    }

  /* py-spy: "function (file.py:12)" */
  if (len > 0 && text[len - 1] == ')')
    {
      const char *open = g_strrstr_len (text, len, " (");
      const char *colon = open ? g_strrstr_len (open, text + len - open, ":") : NULL;

      if (colon != NULL && colon > open + 2 && colon + 1 < text + len - 1)
        {
          const char *p;

          for (p = colon + 1; p < text + len - 1 && g_ascii_isdigit (*p); p++)
            ;
          if (p == text + len - 1 && p - colon - 1 <= 9)
            {
              line = (guint) g_ascii_strtoull (colon + 1, NULL, 10);
              file = g_strndup (open + 2, colon - open - 2);
              len = open - text;
            }
        }
    }

  name = len > 0 ? g_strndup (text, len) : g_strdup ("[unknown]");
  key = g_strdup_printf ("%s\x01%s\x01%d", name, file ? file : "", is_kernel);
  if (g_hash_table_lookup_extended (im->functions, key, NULL, &found))
    function_id = GPOINTER_TO_SIZE (found);
  else
    {
      gint64 module = 0;

      if (is_kernel)
        {
          if (im->kernel_module == 0)
            im->kernel_module = hp_capture_writer_intern_module (im->writer, "[kernel.kallsyms]", NULL, TRUE);
          module = im->kernel_module;
        }
      function_id = hp_capture_writer_intern_function (im->writer, name, module, file, 0);
      g_hash_table_insert (im->functions, g_steal_pointer (&key), GSIZE_TO_POINTER ((gsize) function_id));
    }
  return hp_capture_writer_intern_frame (im->writer, function_id, file, line, is_inline, 0);
}

/* Parses one line (without its newline) and counts its samples. */
static gboolean
import_line (Import                *im,
             const char            *line,
             gsize                  len,
             guint                  number,
             HpFoldedImportResult  *result,
             GError               **error)
{
  gsize end = len, count_start, stack_end, start;
  const char *bad = NULL;
  g_autofree char *count_text = NULL;
  guint64 count;
  gint64 stack = 0;

  if (memchr (line, '\0', len) != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: a NUL byte: this is not a text file of folded stacks"), im->path, number);
      return FALSE;
    }
  if (!g_utf8_validate_len (line, len, &bad))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: not valid UTF-8 (at byte %zu of the line)"),
                   im->path, number, (gsize) (bad - line) + 1);
      return FALSE;
    }
  while (end > 0 && (line[end - 1] == '\r' || line[end - 1] == ' ' || line[end - 1] == '\t'))
    end--;
  count_start = end;
  while (count_start > 0 && line[count_start - 1] != ' ' && line[count_start - 1] != '\t')
    count_start--;
  if (count_start == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: no sample count: a line is 'frame;frame;… COUNT'"), im->path, number);
      return FALSE;
    }
  count_text = g_strndup (line + count_start, end - count_start);
  if (count_text[0] == '-')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: the count %s is negative"), im->path, number, count_text);
      return FALSE;
    }
  for (const char *p = count_text; *p; p++)
    if (!g_ascii_isdigit (*p))
      {
        g_autofree char *shown = g_strescape (count_text, NULL);

        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s:%u: no sample count: '%s' at the end of the line is not a whole number"),
                     im->path, number, shown);
        return FALSE;
      }
  errno = 0;
  count = g_ascii_strtoull (count_text, NULL, 10);
  if (errno != 0 || count > HP_CAPTURE_MAX_TOTAL || result->samples + count > HP_CAPTURE_MAX_TOTAL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: the count %s takes the file past the %" PRIu64 " samples a capture holds"),
                   im->path, number, count_text, HP_CAPTURE_MAX_TOTAL);
      return FALSE;
    }

  stack_end = count_start;
  while (stack_end > 0 && (line[stack_end - 1] == ' ' || line[stack_end - 1] == '\t'))
    stack_end--;
  if (stack_end == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s:%u: a count without a stack before it"), im->path, number);
      return FALSE;
    }

  start = 0;
  while (start <= stack_end)
    {
      const char *semi = memchr (line + start, ';', stack_end - start);
      gsize frame_end = semi ? (gsize) (semi - line) : stack_end;

      stack = hp_capture_writer_intern_stack (im->writer, stack, intern_frame (im, line + start, frame_end - start));
      start = frame_end + 1;
    }

  /* a count, not a row per sample: the format has no times to keep */
  hp_capture_writer_add_count (im->writer, 1, IMPORT_TID, stack, count, count);
  result->samples += count;
  result->stacks++;
  return TRUE;
}

/* One line (without its newline) of @im's file: blank ones are skipped. */
static gboolean
handle_line (Import                *im,
             const char            *line,
             gsize                  len,
             guint                  number,
             HpFoldedImportResult  *result,
             GCancellable          *cancellable,
             GError               **error)
{
  gboolean blank = TRUE;

  for (gsize i = 0; i < len && blank; i++)
    blank = line[i] == ' ' || line[i] == '\t' || line[i] == '\r';
  if (!blank && !import_line (im, line, len, number, result, error))
    return FALSE;
  if (number % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return TRUE;
}

/* Reads the file a chunk at a time, a line at a time: a file mailed
 * around may be of any size (a sparse file of 8 GB was read whole, into
 * 8 GB of memory, before its second line said it was no text), and
 * only a line is held, up to MAX_LINE. */
static gboolean
import_file (Import                *im,
             int                    fd,
             HpFoldedImportResult  *result,
             GCancellable          *cancellable,
             GError               **error)
{
  g_autofree char *buf = g_malloc (READ_CHUNK);
  g_autoptr(GString) line = g_string_new (NULL);
  guint number = 0;
  gboolean first = TRUE;

  for (;;)
    {
      gssize n = read (fd, buf, READ_CHUNK);
      const char *p = buf;
      gsize left;

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", im->path, g_strerror (errsv));
          return FALSE;
        }
      if (n == 0)
        break;
      left = (gsize) n;
      while (left > 0)
        {
          const char *nl = memchr (p, '\n', left);
          gsize part = nl != NULL ? (gsize) (nl - p) : left;

          /* a NUL says binary at once, without reading on to a newline */
          if (memchr (p, '\0', part) != NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s:%u: a NUL byte: this is not a text file of folded stacks", im->path, number + 1);
              return FALSE;
            }
          if (line->len + part > MAX_LINE)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "%s:%u: a line longer than %" G_GSIZE_FORMAT " MiB: this is not a file of folded stacks",
                           im->path, number + 1, MAX_LINE >> 20);
              return FALSE;
            }
          g_string_append_len (line, p, part);
          if (nl == NULL)
            break;
          number++;
          /* a UTF-8 byte order mark (what Windows tools, PowerShell's
           * Out-File, put first) is no part of the first frame's name */
          if (first && line->len >= 3 && memcmp (line->str, "\xef\xbb\xbf", 3) == 0)
            g_string_erase (line, 0, 3);
          first = FALSE;
          if (!handle_line (im, line->str, line->len, number, result, cancellable, error))
            return FALSE;
          g_string_truncate (line, 0);
          p = nl + 1;
          left -= part + 1;
        }
    }
  if (line->len > 0)
    {
      if (first && line->len >= 3 && memcmp (line->str, "\xef\xbb\xbf", 3) == 0)
        g_string_erase (line, 0, 3);
      if (!handle_line (im, line->str, line->len, number + 1, result, cancellable, error))
        return FALSE;
    }
  if (result->stacks == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: empty: no line of folded stacks ('frame;frame;… COUNT')"), im->path);
      return FALSE;
    }
  return TRUE;
}

gboolean
hp_folded_import (const char            *folded,
                  const char            *capture,
                  HpFoldedImportResult  *result,
                  GCancellable          *cancellable,
                  GError               **error)
{
  g_autofree char *base = NULL;
  g_autoptr(GHashTable) functions = NULL;
  HpFoldedImportResult local_result = { 0 };
  HpCaptureWriter *writer;
  Import im = { 0 };
  gboolean ok;
  int fd;

  g_return_val_if_fail (folded != NULL, FALSE);
  g_return_val_if_fail (capture != NULL, FALSE);

  fd = hp_regular_file_open_as (folded, "a file of folded stacks", NULL, error);
  if (fd < 0)
    return FALSE;

  writer = hp_capture_writer_new_part (capture, error);
  if (writer == NULL)
    {
      close (fd);
      return FALSE;
    }

  base = g_path_get_basename (folded);
  hp_capture_writer_set_metadata (writer, HP_META_COMMAND, base);
  hp_capture_writer_set_metadata (writer, HP_META_EVENT, "samples");
  hp_capture_writer_set_metadata (writer, HP_META_EVENT_UNIT, "samples");
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE, "folded stacks");
  hp_capture_writer_set_metadata (writer, HP_META_SOURCE_PATH, folded);
  hp_capture_writer_set_metadata (writer, HP_META_LACKS, "addresses,modules,times,threads");
  hp_capture_writer_set_metadata (writer, HP_META_HOTPATH_VERSION, PACKAGE_VERSION);
  hp_capture_writer_set_process (writer, IMPORT_TID, base);
  hp_capture_writer_set_thread (writer, IMPORT_TID, IMPORT_TID, base);

  functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  im.path = folded;
  im.writer = writer;
  im.functions = functions;
  ok = import_file (&im, fd, &local_result, cancellable, error);
  close (fd);
  if (!hp_capture_writer_end_part (writer, capture, ok, error))
    return FALSE;
  if (result != NULL)
    *result = local_result;
  return TRUE;
}
