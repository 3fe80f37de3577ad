/* hp-perf-map.c - names of run-time compiled code from perf map files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This file owns the reading of perf map files, the simplest way a JIT
 * tells profilers what it compiled where: /tmp/perf-PID.map, one line
 * "START SIZE NAME" per piece of code, START and SIZE in hex (with or
 * without "0x": JDK 17 writes it, V8 does not). Node writes it with
 * --perf-basic-prof, the JVM with -XX:+DumpPerfMapAtExit (only when it
 * exits), Python 3.12+ with -X perf, .NET with DOTNET_PerfMapEnabled=1.
 *
 * The file grows while the program runs, so it is read incrementally:
 * update() reads whole lines from where the last read ended, and leaves a
 * line still being written for the next one. The file is written by the
 * profiled program, which is untrusted: a line that does not parse is
 * skipped and counted, a line longer than MAX_LINE (a 100 MB name) is
 * skipped without being held in memory, and names are made valid UTF-8.
 *
 * Entries may overlap: a JIT reuses the addresses of code it freed, and
 * the newer line names what is there now. Lookups take the entry written
 * last among those that contain the address: entries are sorted by start
 * (the index is rebuilt after an update), and a running maximum of the
 * ends bounds how far back an overlapping entry can start.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf/hp-regular-file.h"
#include "symbols/hp-perf-map.h"

/* Longer lines are not names a person reads; V8's longest are a few
 * hundred bytes (a long path and a function name). */
#define MAX_LINE 4096
#define READ_CHUNK (64 * 1024)
/* How many earlier entries a lookup looks through for an overlapping one
 * written later; only a hostile file overlaps more deeply. */
#define MAX_OVERLAP_SCAN 256

typedef struct {
  guint64     start;
  guint64     end;
  guint       seq;     /* line order: a later entry wins */
  const char *name;
  guint       lines_at; /* index in self->lines */
  guint       n_lines;
} Entry;

struct _HpPerfMap
{
  char         *path;
  GArray       *entries;   /* Entry, in file order */
  GStringChunk *names;
  GArray       *lines;     /* HpJitLine, per entry in one run */

  /* The lookup index: entries sorted by start, and the largest end of
   * sorted[0..i]; rebuilt when entries were added. */
  GArray       *sorted;    /* Entry */
  GArray       *max_end;   /* guint64 */
  gboolean      dirty;

  guint64       read_offset;  /* where the next read starts: after a '\n' */
  GString      *partial;      /* a line not yet ended */
  gboolean      skipping;     /* in a line longer than MAX_LINE */

  guint         bad_lines;
  guint         long_lines;
  guint         overlaps;
};

HpPerfMap *
hp_perf_map_new (const char *path)
{
  HpPerfMap *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_new0 (HpPerfMap, 1);
  self->path = g_strdup (path);
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->sorted = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->max_end = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->names = g_string_chunk_new (16 * 1024);
  self->lines = g_array_new (FALSE, FALSE, sizeof (HpJitLine));
  self->partial = g_string_new (NULL);
  return self;
}

void
hp_perf_map_free (HpPerfMap *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->entries);
  g_array_unref (self->sorted);
  g_array_unref (self->max_end);
  g_string_chunk_free (self->names);
  g_array_unref (self->lines);
  g_string_free (self->partial, TRUE);
  g_free (self->path);
  g_free (self);
}

static void
reset (HpPerfMap *self)
{
  g_array_set_size (self->entries, 0);
  g_array_set_size (self->sorted, 0);
  g_array_set_size (self->max_end, 0);
  g_string_chunk_clear (self->names);
  g_array_set_size (self->lines, 0);
  g_string_truncate (self->partial, 0);
  self->skipping = FALSE;
  self->read_offset = 0;
  self->bad_lines = self->long_lines = self->overlaps = 0;
  self->dirty = FALSE;
}

/* A hex number ending at a space; "0x" allowed. */
static gboolean
parse_hex (const char  *p,
           const char **end,
           guint64     *value)
{
  const char *digits = p;
  guint64 v = 0;

  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    digits = p += 2;
  for (; g_ascii_isxdigit (*p); p++)
    {
      if (p - digits >= 16)
        return FALSE; /* more than 64 bits */
      v = v << 4 | (guint64) g_ascii_xdigit_value (*p);
    }
  if (p == digits || *p != ' ')
    return FALSE;
  *value = v;
  *end = p + 1;
  return TRUE;
}

static void
parse_line (HpPerfMap  *self,
            const char *line,
            gsize       len)
{
  g_autofree char *valid = NULL;
  const char *p = line;
  guint64 start, size;

  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
    len--;
  if (len == 0)
    return;
  if (memchr (line, '\0', len) != NULL
      || !parse_hex (p, &p, &start)
      || !parse_hex (p, &p, &size)
      || p >= line + len
      || size == 0
      || start + size < start)
    {
      self->bad_lines++;
      return;
    }

  valid = g_strndup (p, line + len - p);
  hp_perf_map_add (self, start, size, valid, NULL, 0);
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  const HpJitLine *la = a, *lb = b;

  return la->address < lb->address ? -1 : (la->address > lb->address);
}

void
hp_perf_map_add (HpPerfMap       *self,
                 guint64          start,
                 guint64          size,
                 const char      *name,
                 const HpJitLine *lines,
                 guint            n_lines)
{
  g_autofree char *valid = NULL;
  Entry entry;

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);

  if (size == 0 || start + size < start)
    return;
  valid = g_utf8_make_valid (name, -1);
  entry.start = start;
  entry.end = start + size;
  entry.seq = self->entries->len;
  entry.name = g_string_chunk_insert_const (self->names, valid);
  entry.lines_at = self->lines->len;
  entry.n_lines = n_lines;
  for (guint i = 0; i < n_lines; i++)
    {
      HpJitLine row = lines[i];
      g_autofree char *file = g_utf8_make_valid (row.file != NULL ? row.file : "", -1);

      row.file = g_string_chunk_insert_const (self->names, file);
      g_array_append_val (self->lines, row);
    }
  if (n_lines > 1)
    qsort (&g_array_index (self->lines, HpJitLine, entry.lines_at), n_lines, sizeof (HpJitLine), compare_lines);
  g_array_append_val (self->entries, entry);
  self->dirty = TRUE;
}

gboolean
hp_perf_map_entry_get_line (const HpPerfMapEntry *entry,
                            guint64               address,
                            const char          **file,
                            guint                *line)
{
  guint lo = 0, hi;

  g_return_val_if_fail (entry != NULL, FALSE);

  /* The last row at or below @address. */
  hi = entry->n_lines;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (entry->lines[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  *file = entry->lines[lo - 1].file[0] != '\0' ? entry->lines[lo - 1].file : NULL;
  *line = entry->lines[lo - 1].line;
  return TRUE;
}

/* Splits @data into lines, keeping an unfinished one in self->partial. */
static void
parse_chunk (HpPerfMap  *self,
             const char *data,
             gsize       len)
{
  while (len > 0)
    {
      const char *nl = memchr (data, '\n', len);
      gsize part = nl != NULL ? (gsize) (nl - data) : len;

      if (!self->skipping)
        {
          if (self->partial->len + part > MAX_LINE)
            {
              self->skipping = TRUE;
              self->long_lines++;
              g_string_truncate (self->partial, 0);
            }
          else
            g_string_append_len (self->partial, data, part);
        }
      if (nl == NULL)
        return;

      if (!self->skipping)
        parse_line (self, self->partial->str, self->partial->len);
      g_string_truncate (self->partial, 0);
      self->skipping = FALSE;
      data = nl + 1;
      len -= part + 1;
    }
}

gboolean
hp_perf_map_update (HpPerfMap *self)
{
  g_autofree char *buf = NULL;
  guint before;
  struct stat st;
  guint64 pos;
  int fd;

  g_return_val_if_fail (self != NULL, FALSE);

  /* a FIFO put in the map's place must not block us */
  fd = hp_regular_file_open (self->path, &st);
  if (fd < 0)
    return FALSE;

  pos = self->read_offset + self->partial->len;
  if ((guint64) st.st_size < pos)
    {
      /* Shorter than what was read: another program's map now. */
      reset (self);
      pos = 0;
    }
  if ((guint64) st.st_size == pos)
    {
      close (fd);
      return FALSE;
    }

  before = self->entries->len;
  buf = g_malloc (READ_CHUNK);
  while (pos < (guint64) st.st_size)
    {
      ssize_t n = pread (fd, buf, MIN ((guint64) READ_CHUNK, (guint64) st.st_size - pos), (off_t) pos);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      parse_chunk (self, buf, (gsize) n);
      pos += (guint64) n;
    }
  close (fd);
  /* What is in self->partial is read again with the rest of its line. */
  self->read_offset = pos - self->partial->len;
  if (self->skipping)
    {
      /* A long line's start is not kept: go on skipping from here. */
      self->read_offset = pos;
      g_string_truncate (self->partial, 0);
    }
  return self->entries->len > before;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = a, *eb = b;

  if (ea->start != eb->start)
    return ea->start < eb->start ? -1 : 1;
  return ea->seq < eb->seq ? -1 : (ea->seq > eb->seq);
}

static void
build_index (HpPerfMap *self)
{
  guint64 running = 0;

  g_array_set_size (self->sorted, 0);
  g_array_append_vals (self->sorted, self->entries->data, self->entries->len);
  g_array_sort (self->sorted, compare_entries);
  g_array_set_size (self->max_end, self->sorted->len);
  self->overlaps = 0;
  for (guint i = 0; i < self->sorted->len; i++)
    {
      const Entry *e = &g_array_index (self->sorted, Entry, i);

      if (e->start < running)
        self->overlaps++;
      running = MAX (running, e->end);
      g_array_index (self->max_end, guint64, i) = running;
    }
  self->dirty = FALSE;
}

const HpPerfMapEntry *
hp_perf_map_lookup (HpPerfMap *self,
                    guint64    address)
{
  static HpPerfMapEntry result;
  const Entry *best = NULL;
  guint lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->dirty)
    build_index (self);

  /* The first entry that starts above @address. */
  hi = self->sorted->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->sorted, Entry, mid).start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo, n = 0; i > 0 && n < MAX_OVERLAP_SCAN; i--, n++)
    {
      const Entry *e = &g_array_index (self->sorted, Entry, i - 1);

      if (g_array_index (self->max_end, guint64, i - 1) <= address)
        break; /* nothing at or before i - 1 reaches @address */
      if (address < e->end && (best == NULL || e->seq > best->seq))
        best = e;
    }
  if (best == NULL)
    return NULL;
  /* Not thread-safe, like every lookup of the symbols layer. */
  result.start = best->start;
  result.end = best->end;
  result.name = best->name;
  result.lines = best->n_lines > 0 ? &g_array_index (self->lines, HpJitLine, best->lines_at) : NULL;
  result.n_lines = best->n_lines;
  return &result;
}

const char *
hp_perf_map_get_path (const HpPerfMap *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->path;
}

guint
hp_perf_map_get_n_entries (const HpPerfMap *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->entries->len;
}

char *
hp_perf_map_get_warning (HpPerfMap *self)
{
  g_autoptr(GString) what = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->dirty)
    build_index (self);
  if (self->bad_lines == 0 && self->long_lines == 0 && self->overlaps == 0)
    return NULL;
  what = g_string_new (NULL);
  g_string_append_printf (what, "%s: ", self->path);
  if (self->bad_lines > 0)
    g_string_append_printf (what, "%u line%s not of the form \"START SIZE NAME\" (hex)",
                            self->bad_lines, self->bad_lines == 1 ? "" : "s");
  if (self->long_lines > 0)
    g_string_append_printf (what, "%s%u line%s longer than %u bytes",
                            self->bad_lines > 0 ? ", " : "",
                            self->long_lines, self->long_lines == 1 ? "" : "s", MAX_LINE);
  if (self->bad_lines > 0 || self->long_lines > 0)
    g_string_append (what, " skipped; the code they describe is shown by address");
  if (self->overlaps > 0)
    g_string_append_printf (what, "%s%u entr%s overlap earlier ones; the one written last names the address",
                            self->bad_lines > 0 || self->long_lines > 0 ? "; " : "",
                            self->overlaps, self->overlaps == 1 ? "y" : "ies");
  return g_string_free (g_steal_pointer (&what), FALSE);
}

/* Java: the JVMTI agent's names --------------------------------------------- */

/* Appends the Java type of the field descriptor at *p ("J", "[I",
 * "Ljava/lang/String;") as the JVM's own perf map writes it ("long",
 * "int[]", "java.lang.String") and moves *p past it; FALSE when it is
 * not one. */
static gboolean
append_java_type (GString     *out,
                  const char **p)
{
  static const struct { char code; const char *name; } primitives[] = {
    { 'B', "byte" }, { 'C', "char" }, { 'D', "double" }, { 'F', "float" }, { 'I', "int" },
    { 'J', "long" }, { 'S', "short" }, { 'Z', "boolean" }, { 'V', "void" },
  };
  guint dims = 0;

  while (**p == '[' && dims < 255)
    {
      dims++;
      (*p)++;
    }
  if (**p == 'L')
    {
      const char *end = strchr (*p + 1, ';');

      if (end == NULL || end == *p + 1)
        return FALSE;
      for (const char *c = *p + 1; c < end; c++)
        {
          if (*c == '(' || *c == ')' || *c == '[' || *c == ' ')
            return FALSE;
          g_string_append_c (out, *c == '/' ? '.' : *c);
        }
      *p = end + 1;
    }
  else
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (primitives) && primitives[i].code != **p; i++)
        ;
      if (i == G_N_ELEMENTS (primitives) || (**p == 'V' && dims > 0))
        return FALSE;
      g_string_append (out, primitives[i].name);
      (*p)++;
    }
  for (guint i = 0; i < dims; i++)
    g_string_append (out, "[]");
  return TRUE;
}

/* perf's JVMTI agent (libperf-jvmti.so) names a method by its class's
 * signature, its name and its descriptor: "LJitHot;hotTwice(J)J". The
 * JVM's own map (-XX:+DumpPerfMapAtExit) writes the same method as "long
 * JitHot.hotTwice(long)": so does this, so that a method has one name
 * however its program was run. NULL when @name is not of that form. */
static char *
java_method_name (const char *name)
{
  g_autoptr(GString) args = g_string_new (NULL);
  g_autoptr(GString) ret = g_string_new (NULL);
  g_autoptr(GString) owner = g_string_new (NULL);
  const char *p = name, *method, *open;

  if (name[0] != 'L' || !append_java_type (owner, &p))
    return NULL;
  method = p;
  open = strchr (method, '(');
  if (open == NULL || open == method)
    return NULL;
  for (const char *c = method; c < open; c++)
    if (*c == ';' || *c == '/' || *c == ' ' || *c == '[')
      return NULL;
  for (p = open + 1; *p != ')'; )
    {
      if (args->len > 0)
        g_string_append (args, ", ");
      if (*p == 'V' || !append_java_type (args, &p))
        return NULL;
    }
  p++;
  if (!append_java_type (ret, &p) || *p != '\0')
    return NULL;
  return g_strdup_printf ("%s %s.%.*s(%s)", ret->str, owner->str, (int) (open - method), method, args->str);
}

/* .NET: the tier after the name ----------------------------------------------- */

/* The optimization tiers .NET (DOTNET_PerfMapEnabled) appends to a
 * method's name by default (PerfMapShowOptimizationTiers=1), as V8 puts
 * its marker before it: "void [App] App.Program::Spin()[OptimizedTier1]".
 * Its unoptimized code (tier 0, and the instrumented tier 0 that counts
 * calls for tier 1) counts as baseline, everything optimized as optimized. */
static const struct {
  const char *suffix;
  char        tier;
} dotnet_tiers[] = {
  { "[QuickJitted]", '^' }, { "[MinOptJitted]", '^' }, { "[InstrumentedTier]", '^' },
  { "[OptimizedTier1]", '*' }, { "[OptimizedTier1OSR]", '*' }, { "[Optimized]", '*' },
  { "[InstrumentedTierOptimized]", '*' }, { "[PreJIT]", '*' }, { "[PreJit-cold]", '*' },
  { "[ReadyToRun]", '*' }, { "[Unknown]", 0 },
};

/* The length of @name without a .NET tier after its parameter list, and
 * the tier; the whole length when it has none. */
static gsize
strip_dotnet_tier (const char *name,
                   char       *tier)
{
  gsize len = strlen (name);

  for (guint i = 0; i < G_N_ELEMENTS (dotnet_tiers); i++)
    {
      gsize n = strlen (dotnet_tiers[i].suffix);

      if (len > n && name[len - n - 1] == ')' && strcmp (name + len - n, dotnet_tiers[i].suffix) == 0)
        {
          *tier = dotnet_tiers[i].tier;
          return len - n;
        }
    }
  return len;
}

/* V8 names ------------------------------------------------------------------ */

static const char * const v8_js_kinds[] = {
  "JS:", "LazyCompile:", "Function:", "Script:", "Eval:",
};

/* "PATH:LINE" or "PATH:LINE:COLUMN" at the end of @loc: the line. */
static gboolean
split_location (const char *loc,
                char      **file,
                guint      *line)
{
  const char *end = loc + strlen (loc);
  const char *colon[2] = { NULL, NULL };
  guint n = 0;

  for (const char *p = end; p > loc && n < 2; p--)
    {
      if (p[-1] == ':')
        colon[n++] = p - 1;
      else if (!g_ascii_isdigit (p[-1]))
        break;
    }
  if (n == 0)
    return FALSE;
  /* With a column, the line is between the two colons. */
  {
    const char *line_at = (n == 2 && colon[0] > colon[1] + 1) ? colon[1] : colon[0];
    guint64 value;

    if (line_at == loc || !g_ascii_isdigit (line_at[1]))
      return FALSE;
    value = g_ascii_strtoull (line_at + 1, NULL, 10);
    *line = value > G_MAXINT ? 0 : (guint) value;
    *file = g_strndup (loc, line_at - loc);
  }
  return TRUE;
}

void
hp_jit_name_parse (const char *name,
                   HpJitName  *out)
{
  const char *rest = NULL;

  g_return_if_fail (name != NULL);
  g_return_if_fail (out != NULL);

  memset (out, 0, sizeof *out);

  for (guint i = 0; i < G_N_ELEMENTS (v8_js_kinds) && rest == NULL; i++)
    if (g_str_has_prefix (name, v8_js_kinds[i]))
      rest = name + strlen (v8_js_kinds[i]);

  if (rest != NULL)
    {
      const char *space = NULL;
      g_autofree char *function = NULL;

      if (*rest == '~' || *rest == '^' || *rest == '+' || *rest == '*')
        out->tier = *rest++;
      /* Both the function ("get foo") and the path may hold spaces: the
       * location starts at the first space before an absolute path, else
       * at the last space. */
      for (const char *p = strchr (rest, ' '); p != NULL && space == NULL; p = strchr (p + 1, ' '))
        if (p[1] == '/')
          space = p;
      if (space == NULL)
        space = strrchr (rest, ' ');
      if (space != NULL && space >= rest && split_location (space + 1, &out->file, &out->line))
        function = g_strndup (rest, space - rest);
      else
        function = g_strdup (rest);
      g_strstrip (function);
      out->function = function[0] != '\0' ? g_steal_pointer (&function) : g_strdup ("(anonymous)");
      return;
    }

  /* CPython 3.12+ (-X perf): "py::QUALNAME:/path/file.py" */
  if (g_str_has_prefix (name, "py::"))
    {
      const char *colon = strchr (name + 4, ':');

      if (colon != NULL && colon > name + 4 && colon[1] != '\0')
        {
          out->function = g_strndup (name + 4, colon - (name + 4));
          out->file = g_strdup (colon + 1);
          return;
        }
    }

  if ((out->function = java_method_name (name)) != NULL)
    return;

  out->function = g_strndup (name, strip_dotnet_tier (name, &out->tier));
}

void
hp_jit_name_clear (HpJitName *name)
{
  g_return_if_fail (name != NULL);

  g_clear_pointer (&name->function, g_free);
  g_clear_pointer (&name->file, g_free);
  name->line = 0;
  name->tier = 0;
}
