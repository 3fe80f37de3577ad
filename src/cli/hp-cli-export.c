/* hp-cli-export.c - hotpath-cli export: a capture in other tools' formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Writes a capture (or a perf.data) for the tools people already use:
 *
 *   folded      "a;b;c N", one line per distinct stack, root first, sorted,
 *               N in samples, or in the event's unit for an event counted
 *               by its weights (page faults, ns off the CPU), as `report`:
 *               flamegraph.pl, speedscope, and `hotpath-cli import`. With
 *               --folded-prefix each stack starts with its process and
 *               thread. Inlined frames end in "_[i]" and kernel frames in
 *               "_[k]", as async-profiler writes them, so that an import
 *               gets them back.
 *
 *   speedscope  speedscope's JSON file format
 *               (https://www.speedscope.app/file-format-schema.json): one
 *               "sampled" profile per thread, its samples in time order, so
 *               that its time-order view is the thread's timeline; weights
 *               in nanoseconds for a time-based event, in the event's unit
 *               for one counted by its weights ("bytes" for bytes, as a
 *               pprof heap profile's), else one per sample. One
 *               frame per function, with its file and first line: speedscope
 *               tells frames apart by their index alone.
 *
 *   firefox     the Gecko profile format (version 28) that the Firefox
 *               Profiler opens with "Load a profile from file": per thread,
 *               its string, frame and stack tables and every sample with
 *               its time in milliseconds, so its timeline works; a frame's
 *               location is "name (in module)", as the profiler reads a
 *               native function of a library ("name [file:line] (in
 *               module)" where a library has several of that name). For an
 *               event counted by its weights (page faults sampled every N,
 *               ns off the CPU) the profiler's processed format instead,
 *               the one with a weight per sample ("samples" for counts,
 *               "tracing-ms" for time, "bytes" for bytes), which the Gecko
 *               format lacks.
 *
 *   pprof       a gzipped profile.proto (src/record/profile.proto), encoded by
 *               protobuf-c: go tool pprof, Pyroscope, Parca, Grafana. Two
 *               values per sample, samples/count and the event's weight
 *               (cpu/nanoseconds for a clock, off-cpu/nanoseconds for time
 *               off the CPU, wall for both; page-faults/count for a
 *               counted event: pprof knows nanoseconds, bytes and counts,
 *               and prints any other unit glued to the number, "12page
 *               faults"), the second pprof's default; one mapping per
 *               module with its build id; one function per function with
 *               its file and line; one location per machine frame, whose
 *               Line entries are its inline chain, innermost first. A
 *               sample is a distinct stack of a thread, with the labels
 *               "thread", "tid" and "pid" (which the import reads back).
 *
 * The timelines come from the samples table. A capture without times (an
 * import of folded stacks) or seen with --merge-recursion or --inline fold (whose stacks are
 * not the samples' stacks) is written from the aggregated counts instead:
 * speedscope gets one weighted sample per stack, and the Firefox Profiler,
 * which needs times, one sample per interval in stack order — a shape, not
 * a timeline; the file's metadata says so.
 *
 * The filters of `report` (--from/--to, --tid/--pid, --merge-recursion, --inline)
 * choose what is written. Text from the capture is untrusted: it is made
 * valid UTF-8, and what would break a line of the format is replaced.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "store/hp-capture-keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "record/profile.pb-c.h"

#include "analysis/hp-json.h"
#include "analysis/hp-text.h"
#include "cli/hp-cli.h"

typedef struct {
  HpCapture     *capture;
  HpCaptureData *data;
  GHashTable    *tids;         /* threads to keep; NULL: all */
  HpCliFilter   *filter;
  gboolean       folded_prefix;
  GString       *out;
  GHashTable    *shared_names; /* "name\nmodule id" of two functions or more; for the Gecko format */
} Export;


/* The name and unit of the event the exported data counts (--event). */
static char *
event_name_of (const HpCaptureData *data)
{
  const char *name, *unit;

  hp_capture_data_get_event (data, &name, &unit);
  return g_strdup (name);
}

static char *
event_unit_of (const HpCaptureData *data)
{
  const char *name, *unit;

  hp_capture_data_get_event (data, &name, &unit);
  return g_strdup (unit);
}

static gboolean
keep_tid (Export *ex,
          gint32  tid)
{
  return ex->tids == NULL || g_hash_table_contains (ex->tids, GINT_TO_POINTER (tid));
}

/* Folded stacks -------------------------------------------------------- */

/* @text made valid UTF-8, with what separates frames (';'), lines and the
 * count (line breaks, other controls) replaced by U+FFFD. */
static void
append_folded_text (GString    *out,
                    const char *text)
{
  g_autofree char *valid = hp_text_make_valid (text ? text : "");

  for (const char *p = valid; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == ';' || c < 0x20 || c == 0x7f)
        g_string_append_unichar (out, 0xfffd);
      else
        g_string_append_unichar (out, c);
    }
}

static void
append_folded_frame (Export  *ex,
                     GString *out,
                     gint64   frame_id)
{
  const HpCaptureFrame *frame = &g_array_index (ex->data->frames, HpCaptureFrame, frame_id);
  const HpCaptureFunction *fn = &g_array_index (ex->data->functions, HpCaptureFunction, frame->function_id);
  const HpCaptureModule *module = fn->module_id ? &g_array_index (ex->data->modules, HpCaptureModule, fn->module_id) : NULL;

  append_folded_text (out, frame->function_id ? fn->name : "[unknown]");
  if (frame->is_inline)
    g_string_append (out, "_[i]");
  else if (module != NULL && module->is_kernel)
    g_string_append (out, "_[k]");
}

static const char *
thread_name (Export *ex,
             gint32  tid,
             gint32 *pid)
{
  for (guint i = 0; i < ex->data->threads->len; i++)
    {
      const HpCaptureThread *t = &g_array_index (ex->data->threads, HpCaptureThread, i);

      if (t->tid == tid)
        {
          *pid = t->pid;
          return t->name;
        }
    }
  *pid = 0;
  return NULL;
}

static const char *
process_command (Export *ex,
                 gint32  pid)
{
  for (guint i = 0; i < ex->data->processes->len; i++)
    {
      const HpCaptureProcess *p = &g_array_index (ex->data->processes, HpCaptureProcess, i);

      if (p->pid == pid)
        return p->command;
    }
  return NULL;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gboolean
write_folded (Export  *ex,
              GError **error)
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gpointer *keys = NULL;
  guint n_keys = 0;
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; i < ex->data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *sc = &g_array_index (ex->data->stack_counts, HpCaptureStackCount, i);
      guint64 *count;
      gpointer found;

      if (sc->samples == 0 || !keep_tid (ex, sc->tid))
        continue;
      g_string_truncate (line, 0);
      if (ex->folded_prefix)
        {
          gint32 pid;
          const char *name = thread_name (ex, sc->tid, &pid);
          const char *command = process_command (ex, pid);
          g_autofree char *program = NULL;

          /* the program's name: a process's command is the kernel's name
           * of it (its COMM), in which a '/' is no path ("ksoftirqd/0",
           * "kworker/1:1-events") and a space part of the name ("Web
           * Content"); only a path's first word is cut to its base name */
          if (command != NULL && command[0] == '/')
            {
              g_auto(GStrv) words = g_strsplit (command, " ", 2);

              program = g_path_get_basename (words[0] ? words[0] : command);
            }
          else if (command != NULL)
            program = g_strdup (command);
          append_folded_text (line, program ? program : "?");
          g_string_append_printf (line, " (%d);", pid);
          append_folded_text (line, name ? name : "?");
          g_string_append_printf (line, " (%d)", sc->tid);
        }
      g_array_set_size (chain, 0);
      for (gint64 s = sc->stack_id; s != 0; s = g_array_index (ex->data->stacks, HpCaptureStack, s).parent_id)
        g_array_append_val (chain, g_array_index (ex->data->stacks, HpCaptureStack, s).frame_id);
      if (chain->len == 0 && !ex->folded_prefix)
        g_string_append (line, "[unknown]");
      for (guint k = chain->len; k > 0; k--)
        {
          if (line->len > 0)
            g_string_append_c (line, ';');
          append_folded_frame (ex, line, g_array_index (chain, gint64, k - 1));
        }

      if (g_hash_table_lookup_extended (counts, line->str, NULL, &found))
        count = found;
      else
        {
          count = g_new0 (guint64, 1);
          g_hash_table_insert (counts, g_strdup (line->str), count);
        }
      /* what the report counts: the weights of an event counted by them
       * (page faults sampled every N, ns off the CPU), else samples */
      *count += ex->filter->weighted ? sc->weight : sc->samples;
    }

  /* each value is a g_new0'd count, freed with the table's keys below */
  keys = g_hash_table_get_keys_as_array (counts, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_strings);
  for (guint i = 0; i < n_keys; i++)
    {
      guint64 *count = g_hash_table_lookup (counts, keys[i]);

      g_string_append_printf (ex->out, "%s %" PRIu64 "\n", (const char *) keys[i], *count);
      g_free (count);
    }
  return TRUE;
}

/* Samples by thread, for the timelines ---------------------------------- */

typedef struct {
  guint64 time;     /* ns after the first sample; 0 without times */
  gint64  stack_id;
  guint64 samples;  /* 1, or the count of a stack when aggregated */
  guint64 weight;
} Entry;

typedef struct {
  gint32  tid;
  GArray *entries;  /* Entry, in time order */
} ThreadEntries;

static void
thread_entries_free (gpointer data)
{
  ThreadEntries *te = data;

  g_array_unref (te->entries);
  g_free (te);
}

static ThreadEntries *
thread_entries_for (GPtrArray *threads,
                    gint32     tid)
{
  ThreadEntries *te;

  for (guint i = 0; i < threads->len; i++)
    if (((ThreadEntries *) threads->pdata[i])->tid == tid)
      return threads->pdata[i];
  te = g_new0 (ThreadEntries, 1);
  te->tid = tid;
  te->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  g_ptr_array_add (threads, te);
  return te;
}

static gboolean
has_times (Export *ex)
{
  g_autofree char *lacks = hp_capture_get_metadata (ex->capture, HP_META_LACKS);

  return !ex->filter->merge_recursion && g_strcmp0 (ex->filter->inline_mode, "fold") != 0 &&
         (lacks == NULL || strstr (lacks, "times") == NULL);
}

static int
compare_tids (gconstpointer a,
              gconstpointer b)
{
  const ThreadEntries *x = *(ThreadEntries * const *) a, *y = *(ThreadEntries * const *) b;

  return (x->tid > y->tid) - (x->tid < y->tid);
}

/* ThreadEntries of every thread the filter keeps, by tid; NULL on error. */
static GPtrArray *
collect_entries (Export   *ex,
                 gboolean *timed,
                 GError  **error)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new_with_free_func (thread_entries_free);

  *timed = has_times (ex);
  if (*timed)
    {
      g_autoptr(GArray) samples = hp_capture_load_samples (ex->capture, ex->data, error);
      guint64 start = G_MAXUINT64, from_ns = 0, to_ns = G_MAXUINT64;

      if (samples == NULL)
        return NULL;
      for (guint i = 0; i < samples->len; i++)
        start = MIN (start, g_array_index (samples, HpCaptureSample, i).time);
      /* the same range as hp_cli_filter_apply(), which checked the options */
      if (ex->filter->from != NULL)
        from_ns = (guint64) (g_ascii_strtod (ex->filter->from, NULL) * 1e9 + 0.5);
      if (ex->filter->to != NULL)
        {
          gdouble to = g_ascii_strtod (ex->filter->to, NULL);

          to_ns = to >= (gdouble) G_MAXUINT64 / 2e9 ? G_MAXUINT64 : (guint64) (to * 1e9 + 0.5);
        }
      for (guint i = 0; i < samples->len; i++)
        {
          const HpCaptureSample *s = &g_array_index (samples, HpCaptureSample, i);
          Entry e = { s->time - start, s->stack_id, 1, s->weight };

          if (!keep_tid (ex, s->tid) || e.time < from_ns || e.time > to_ns)
            continue;
          g_array_append_val (thread_entries_for (threads, s->tid)->entries, e);
        }
    }
  else
    for (guint i = 0; i < ex->data->stack_counts->len; i++)
      {
        const HpCaptureStackCount *sc = &g_array_index (ex->data->stack_counts, HpCaptureStackCount, i);
        Entry e = { 0, sc->stack_id, sc->samples, sc->weight };

        if (sc->samples > 0 && keep_tid (ex, sc->tid))
          g_array_append_val (thread_entries_for (threads, sc->tid)->entries, e);
      }
  g_ptr_array_sort (threads, compare_tids);
  return g_steal_pointer (&threads);
}

static char *
thread_label (Export *ex,
              gint32  tid)
{
  gint32 pid;
  const char *name = thread_name (ex, tid, &pid);
  g_autofree char *valid = hp_text_make_valid (name ? name : "?");

  return g_strdup_printf ("%s (%d)", valid, tid);
}

static const HpCaptureFunction *
frame_function (Export *ex,
                gint64  frame_id,
                const HpCaptureFrame **out_frame)
{
  const HpCaptureFrame *frame = &g_array_index (ex->data->frames, HpCaptureFrame, frame_id);

  *out_frame = frame;
  return frame->function_id ? &g_array_index (ex->data->functions, HpCaptureFunction, frame->function_id) : NULL;
}

static gboolean
is_kernel_function (Export                  *ex,
                    const HpCaptureFunction *fn)
{
  return fn != NULL && fn->module_id != 0
    && g_array_index (ex->data->modules, HpCaptureModule, fn->module_id).is_kernel;
}

static void
finish_json (Export    *ex,
             JsonNode  *root)
{
  hp_json_append_node (ex->out, root);
  g_string_append_c (ex->out, '\n');
}

/* speedscope ------------------------------------------------------------ */

static gboolean
write_speedscope (Export  *ex,
                  GError **error)
{
  g_autoptr(GPtrArray) threads = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  /* speedscope knows a frame by its index: one per function (its key
   * below), so that its sandwich view and merged trees have one row per
   * function, as the report does, not one per address, line or tier */
  g_autoptr(GHashTable) frame_index = g_hash_table_new (NULL, NULL);  /* key -> index + 1 */
  g_autoptr(GArray) frame_order = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *unit = event_unit_of (ex->data);
  g_autofree char *base = g_path_get_basename (hp_capture_get_path (ex->capture));
  g_autofree char *name = hp_text_make_valid (base);
  gboolean nanoseconds = g_strcmp0 (unit, "ns") == 0;
  gboolean timed;

  threads = collect_entries (ex, &timed, error);
  if (threads == NULL)
    return FALSE;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "$schema");
  json_builder_add_string_value (b, "https://www.speedscope.app/file-format-schema.json");
  json_builder_set_member_name (b, "exporter");
  json_builder_add_string_value (b, "hotpath " PACKAGE_VERSION);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "activeProfileIndex");
  json_builder_add_int_value (b, 0);

  json_builder_set_member_name (b, "profiles");
  json_builder_begin_array (b);
  for (guint t = 0; t < threads->len; t++)
    {
      ThreadEntries *te = threads->pdata[t];
      g_autofree char *label = thread_label (ex, te->tid);
      guint64 total = 0;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "type");
      json_builder_add_string_value (b, "sampled");
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, label);
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, nanoseconds ? "nanoseconds" :
                                        ex->filter->weighted && g_strcmp0 (unit, "bytes") == 0 ? "bytes" : "none");
      json_builder_set_member_name (b, "samples");
      json_builder_begin_array (b);
      for (guint i = 0; i < te->entries->len; i++)
        {
          const Entry *e = &g_array_index (te->entries, Entry, i);

          g_array_set_size (chain, 0);
          for (gint64 s = e->stack_id; s != 0; s = g_array_index (ex->data->stacks, HpCaptureStack, s).parent_id)
            {
              gint64 frame_id = g_array_index (ex->data->stacks, HpCaptureStack, s).frame_id;
              gint64 function_id = g_array_index (ex->data->frames, HpCaptureFrame, frame_id).function_id;
              /* a frame without a function is one of its own */
              gsize key = function_id != 0 ? (gsize) function_id * 2 : (gsize) frame_id * 2 + 1;
              guint index = GPOINTER_TO_UINT (g_hash_table_lookup (frame_index, GSIZE_TO_POINTER (key)));

              if (index == 0)
                {
                  g_array_append_val (frame_order, frame_id);
                  index = frame_order->len;
                  g_hash_table_insert (frame_index, GSIZE_TO_POINTER (key), GUINT_TO_POINTER (index));
                }
              index--;
              g_array_append_val (chain, index);
            }
          json_builder_begin_array (b);
          for (guint k = chain->len; k > 0; k--)
            json_builder_add_int_value (b, g_array_index (chain, guint, k - 1));
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "weights");
      json_builder_begin_array (b);
      for (guint i = 0; i < te->entries->len; i++)
        {
          const Entry *e = &g_array_index (te->entries, Entry, i);
          guint64 w = nanoseconds || ex->filter->weighted ? e->weight : e->samples;

          json_builder_add_int_value (b, (gint64) w);
          total += w;
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "startValue");
      json_builder_add_int_value (b, 0);
      json_builder_set_member_name (b, "endValue");
      json_builder_add_int_value (b, (gint64) total);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "shared");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint i = 0; i < frame_order->len; i++)
    {
      const HpCaptureFrame *frame;
      const HpCaptureFunction *fn = frame_function (ex, g_array_index (frame_order, gint64, i), &frame);
      g_autofree char *fname = hp_text_make_valid (fn ? fn->name : "[unknown]");
      /* where the function is: its file and first line, the same for
       * every frame of it (a frame without a function: its own) */
      gboolean own = fn != NULL && fn->file != NULL;
      const char *file = own ? fn->file : frame->file;
      guint line = own ? fn->line : frame->line;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, fname);
      if (file != NULL)
        {
          g_autofree char *vfile = hp_text_make_valid (file);

          json_builder_set_member_name (b, "file");
          json_builder_add_string_value (b, vfile);
          if (line > 0)
            {
              json_builder_set_member_name (b, "line");
              json_builder_add_int_value (b, line);
            }
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  finish_json (ex, root);
  return TRUE;
}

/* Firefox Profiler (Gecko profile format) ------------------------------- */

#define GECKO_VERSION   28
#define CATEGORY_USER   0
#define CATEGORY_KERNEL 1

typedef struct {
  GHashTable *strings;      /* string -> index + 1 */
  GPtrArray  *string_list;
  GHashTable *frames;       /* capture frame id -> index + 1 */
  GArray     *frame_ids;    /* capture frame id per gecko frame */
  GHashTable *stacks;       /* capture stack id -> index + 1 */
  GArray     *stack_rows;   /* gint64 pairs: prefix (-1: none), frame */
} Gecko;

static void
gecko_init (Gecko *g)
{
  g->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g->string_list = g_ptr_array_new_with_free_func (g_free);
  g->frames = g_hash_table_new (NULL, NULL);
  g->frame_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g->stacks = g_hash_table_new (NULL, NULL);
  g->stack_rows = g_array_new (FALSE, FALSE, sizeof (gint64));
}

static void
gecko_clear (Gecko *g)
{
  g_hash_table_unref (g->strings);
  g_ptr_array_unref (g->string_list);
  g_hash_table_unref (g->frames);
  g_array_unref (g->frame_ids);
  g_hash_table_unref (g->stacks);
  g_array_unref (g->stack_rows);
}

static guint
gecko_string (Gecko      *g,
              const char *text)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (g->strings, text));

  if (index == 0)
    {
      char *copy = hp_text_make_valid (text);

      g_ptr_array_add (g->string_list, copy);
      index = g->string_list->len;
      g_hash_table_insert (g->strings, g_strdup (text), GUINT_TO_POINTER (index));
    }
  return index - 1;
}

static guint
gecko_frame (Gecko  *g,
             gint64  frame_id)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (g->frames, GSIZE_TO_POINTER ((gsize) frame_id)));

  if (index == 0)
    {
      g_array_append_val (g->frame_ids, frame_id);
      index = g->frame_ids->len;
      g_hash_table_insert (g->frames, GSIZE_TO_POINTER ((gsize) frame_id), GUINT_TO_POINTER (index));
    }
  return index - 1;
}

/* The gecko stack of capture stack @stack_id (parents first), or -1. */
static gint64
gecko_stack (Export *ex,
             Gecko  *g,
             gint64  stack_id)
{
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 parent = -1;
  guint index = 0;

  /* Up to the root or to a node already written; then down again, each
   * node after its parent. A loop, not recursion: a stack is as deep as
   * the file makes it (parent_id < id holds; its depth is not bounded). */
  for (gint64 id = stack_id; id != 0; id = g_array_index (ex->data->stacks, HpCaptureStack, id).parent_id)
    {
      index = GPOINTER_TO_UINT (g_hash_table_lookup (g->stacks, GSIZE_TO_POINTER ((gsize) id)));
      if (index != 0)
        {
          parent = index - 1;
          break;
        }
      g_array_append_val (path, id);
    }
  if (path->len == 0)
    return parent;
  for (guint i = path->len; i-- > 0;)
    {
      gint64 id = g_array_index (path, gint64, i);
      gint64 row[2];

      row[0] = parent;
      row[1] = gecko_frame (g, g_array_index (ex->data->stacks, HpCaptureStack, id).frame_id);
      g_array_append_vals (g->stack_rows, row, 2);
      index = g->stack_rows->len / 2;
      g_hash_table_insert (g->stacks, GSIZE_TO_POINTER ((gsize) id), GUINT_TO_POINTER (index));
      parent = index - 1;
    }
  return parent;
}

static void
add_schema (JsonBuilder        *b,
            const char * const *names)
{
  json_builder_set_member_name (b, "schema");
  json_builder_begin_object (b);
  for (guint i = 0; names[i]; i++)
    {
      json_builder_set_member_name (b, names[i]);
      json_builder_add_int_value (b, i);
    }
  json_builder_end_object (b);
}

static void
add_nullable_int (JsonBuilder *b,
                  gint64       value)
{
  if (value < 0)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, value);
}

/* Opens thread @tid's object and writes what both formats say of a
 * thread before its tables: its name, its process, and times that a
 * capture does not have (0 and null). The processed format writes pid
 * and tid as strings, the Gecko format as numbers. */
static void
begin_thread (Export      *ex,
              JsonBuilder *b,
              gint32       tid,
              gboolean     ids_as_strings)
{
  gint32 pid;
  const char *name = thread_name (ex, tid, &pid);
  const char *command = process_command (ex, pid);
  g_autofree char *vname = hp_text_make_valid (name ? name : "?");
  g_autofree char *vcommand = hp_text_make_valid (command ? command : "?");

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, vname);
  json_builder_set_member_name (b, "isMainThread");
  json_builder_add_boolean_value (b, tid == pid);
  json_builder_set_member_name (b, "processType");
  json_builder_add_string_value (b, "default");
  json_builder_set_member_name (b, "processName");
  json_builder_add_string_value (b, vcommand);
  json_builder_set_member_name (b, "processStartupTime");
  json_builder_add_double_value (b, 0);
  json_builder_set_member_name (b, "processShutdownTime");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "registerTime");
  json_builder_add_double_value (b, 0);
  json_builder_set_member_name (b, "unregisterTime");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "pausedRanges");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  if (ids_as_strings)
    {
      g_autofree char *pid_text = g_strdup_printf ("%d", pid);
      g_autofree char *tid_text = g_strdup_printf ("%d", tid);

      json_builder_set_member_name (b, "pid");
      json_builder_add_string_value (b, pid_text);
      json_builder_set_member_name (b, "tid");
      json_builder_add_string_value (b, tid_text);
    }
  else
    {
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, tid);
    }
}

/* A thread's string table, as @member */
static void
add_strings (JsonBuilder *b,
             const char  *member,
             Gecko       *g)
{
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; i < g->string_list->len; i++)
    json_builder_add_string_value (b, g->string_list->pdata[i]);
  json_builder_end_array (b);
}

/* The Gecko frame's location: "name (in module)", which the profiler
 * reads as a native function of that library. It tells functions apart
 * by name and library: with the bare name, the _start of a program and
 * of ld.so were one, and a name ending in ":12" was read as a script's
 * URL and line. Functions that share a name in one library (every
 * "(anonymous)" JavaScript function of a perf map) are told apart by
 * their source, "name [file:line] (in module)": the profiler makes one
 * function of each location string. */
static char *
gecko_key (const HpCaptureFunction *fn)
{
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT, fn->name, fn->module_id);
}

static gboolean
gecko_name_is_shared (Export                  *ex,
                      const HpCaptureFunction *fn)
{
  g_autofree char *key = NULL;

  if (ex->shared_names == NULL)
    {
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      ex->shared_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 1; i < ex->data->functions->len; i++)
        {
          const HpCaptureFunction *other = &g_array_index (ex->data->functions, HpCaptureFunction, i);
          char *other_key;

          if (other->name == NULL)
            continue;
          other_key = gecko_key (other);
          if (!g_hash_table_add (seen, other_key))
            g_hash_table_add (ex->shared_names, g_strdup (other_key));
        }
    }
  if (fn->name == NULL || fn->file == NULL || *fn->file == '\0')
    return FALSE;
  key = gecko_key (fn);
  return g_hash_table_contains (ex->shared_names, key);
}

static char *
gecko_location (Export                  *ex,
                const HpCaptureFunction *fn)
{
  const HpCaptureModule *module;
  g_autofree char *name = NULL;

  if (fn == NULL)
    return g_strdup ("[unknown]");
  if (gecko_name_is_shared (ex, fn))
    name = fn->line > 0 ? g_strdup_printf ("%s [%s:%u]", fn->name, fn->file, fn->line)
                        : g_strdup_printf ("%s [%s]", fn->name, fn->file);
  else
    name = g_strdup (fn->name);
  module = fn->module_id != 0 ? &g_array_index (ex->data->modules, HpCaptureModule, fn->module_id) : NULL;
  /* the profiler's pattern takes a library name without ')' */
  if (module == NULL || module->name == NULL || *module->name == '\0' || strchr (module->name, ')') != NULL)
    return g_steal_pointer (&name);
  return g_strdup_printf ("%s (in %s)", name, module->name);
}

static void
write_gecko_thread (Export        *ex,
                    JsonBuilder   *b,
                    ThreadEntries *te,
                    gboolean       timed,
                    gdouble        interval_ms)
{
  static const char * const sample_schema[] = { "stack", "time", "eventDelay", NULL };
  static const char * const frame_schema[] = { "location", "relevantForJS", "innerWindowID", "implementation",
                                               "optimizations", "line", "column", "category", "subcategory", NULL };
  static const char * const stack_schema[] = { "prefix", "frame", NULL };
  static const char * const marker_schema[] = { "name", "startTime", "endTime", "phase", "category", "data", NULL };
  Gecko g = { 0 };
  guint64 synthetic = 0;

  gecko_init (&g);

  begin_thread (ex, b, te->tid, FALSE);

  json_builder_set_member_name (b, "samples");
  json_builder_begin_object (b);
  add_schema (b, sample_schema);
  json_builder_set_member_name (b, "data");
  json_builder_begin_array (b);
  for (guint i = 0; i < te->entries->len; i++)
    {
      const Entry *e = &g_array_index (te->entries, Entry, i);
      gint64 stack = gecko_stack (ex, &g, e->stack_id);

      for (guint64 n = 0; n < e->samples; n++)
        {
          json_builder_begin_array (b);
          add_nullable_int (b, stack);
          json_builder_add_double_value (b, timed ? e->time / 1e6 : (synthetic++) * interval_ms);
          json_builder_add_double_value (b, 0);
          json_builder_end_array (b);
        }
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "stackTable");
  json_builder_begin_object (b);
  add_schema (b, stack_schema);
  json_builder_set_member_name (b, "data");
  json_builder_begin_array (b);
  for (guint i = 0; i < g.stack_rows->len; i += 2)
    {
      json_builder_begin_array (b);
      add_nullable_int (b, g_array_index (g.stack_rows, gint64, i));
      json_builder_add_int_value (b, g_array_index (g.stack_rows, gint64, i + 1));
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "frameTable");
  json_builder_begin_object (b);
  add_schema (b, frame_schema);
  json_builder_set_member_name (b, "data");
  json_builder_begin_array (b);
  for (guint i = 0; i < g.frame_ids->len; i++)
    {
      const HpCaptureFrame *frame;
      const HpCaptureFunction *fn = frame_function (ex, g_array_index (g.frame_ids, gint64, i), &frame);

      g_autofree char *location = gecko_location (ex, fn);

      json_builder_begin_array (b);
      json_builder_add_int_value (b, gecko_string (&g, location));
      json_builder_add_boolean_value (b, FALSE);
      json_builder_add_int_value (b, 0);
      json_builder_add_null_value (b);
      json_builder_add_null_value (b);
      add_nullable_int (b, frame->line > 0 ? (gint64) frame->line : -1);
      json_builder_add_null_value (b);
      json_builder_add_int_value (b, is_kernel_function (ex, fn) ? CATEGORY_KERNEL : CATEGORY_USER);
      json_builder_add_int_value (b, 0);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "markers");
  json_builder_begin_object (b);
  add_schema (b, marker_schema);
  json_builder_set_member_name (b, "data");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  /* last: the frames above added their strings */
  add_strings (b, "stringTable", &g);
  json_builder_end_object (b);

  gecko_clear (&g);
}

/* The Firefox Profiler's processed format, for an event counted by its
 * weights. The Gecko format has no weights (the profiler's import gives
 * every Gecko sample the weight 1), so a page fault sampled every 10 or
 * a blocked interval of 100 ms would count as one sample there. The
 * processed format, which the profiler opens from a file as well, has a
 * weight per sample: "samples" weights for a count (page faults, events),
 * "tracing-ms" for time (ns off the CPU, in ms). Tables are per thread,
 * as struct of arrays; its version is upgraded by the profiler on load. */
#define PROCESSED_VERSION 46

static void
add_int_array (JsonBuilder  *b,
               const char   *name,
               const gint64 *values,
               guint         n,
               gboolean      nullable)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    if (nullable)
      add_nullable_int (b, values[i]);
    else
      json_builder_add_int_value (b, values[i]);
  json_builder_end_array (b);
}

/* An array of @n copies of null, false or @value */
static void
add_same_array (JsonBuilder *b,
                const char  *name,
                guint        n,
                int          what)   /* -1 null, -2 false, else the int */
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    if (what == -1)
      json_builder_add_null_value (b);
    else if (what == -2)
      json_builder_add_boolean_value (b, FALSE);
    else
      json_builder_add_int_value (b, what);
  json_builder_end_array (b);
}

/* A table with no rows: "length": 0 and an empty array per column */
static void
add_empty_table (JsonBuilder        *b,
                 const char         *name,
                 const char * const *columns)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "length");
  json_builder_add_int_value (b, 0);
  for (guint i = 0; columns[i] != NULL; i++)
    add_same_array (b, columns[i], 0, 0);
  json_builder_end_object (b);
}

static void
write_processed_thread (Export        *ex,
                        JsonBuilder   *b,
                        ThreadEntries *te,
                        gboolean       timed,
                        gdouble        interval_ms,
                        gboolean       nanoseconds,
                        gboolean       bytes)
{
  Gecko g = { 0 };
  g_autoptr(GArray) sample_stacks = g_array_sized_new (FALSE, FALSE, sizeof (gint64), te->entries->len);
  g_autoptr(GHashTable) funcs = g_hash_table_new (NULL, NULL);   /* function id -> index + 1 */
  g_autoptr(GArray) func_names = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) func_files = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) frame_funcs = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) frame_lines = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) frame_categories = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) column = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint64 synthetic = 0;
  guint n_frames, n_stacks, n_funcs;

  gecko_init (&g);

  for (guint i = 0; i < te->entries->len; i++)
    {
      gint64 stack = gecko_stack (ex, &g, g_array_index (te->entries, Entry, i).stack_id);

      g_array_append_val (sample_stacks, stack);
    }
  n_frames = g.frame_ids->len;
  n_stacks = g.stack_rows->len / 2;
  for (guint i = 0; i < n_frames; i++)
    {
      const HpCaptureFrame *frame;
      const HpCaptureFunction *fn = frame_function (ex, g_array_index (g.frame_ids, gint64, i), &frame);
      gpointer key = GSIZE_TO_POINTER ((gsize) frame->function_id);
      gint64 func = GPOINTER_TO_UINT (g_hash_table_lookup (funcs, key));
      gint64 line = frame->line > 0 ? (gint64) frame->line : -1;
      gint64 category = is_kernel_function (ex, fn) ? CATEGORY_KERNEL : CATEGORY_USER;

      if (func == 0)
        {
          const char *file = fn != NULL ? fn->file : NULL;
          gint64 name_index = gecko_string (&g, fn ? fn->name : "[unknown]");
          gint64 file_index = file != NULL ? (gint64) gecko_string (&g, file) : -1;

          g_array_append_val (func_names, name_index);
          g_array_append_val (func_files, file_index);
          func = func_names->len;
          g_hash_table_insert (funcs, key, GSIZE_TO_POINTER ((gsize) func));
        }
      func--;
      g_array_append_val (frame_funcs, func);
      g_array_append_val (frame_lines, line);
      g_array_append_val (frame_categories, category);
    }
  n_funcs = func_names->len;

  begin_thread (ex, b, te->tid, TRUE);

  /* the samples, each with its weight */
  json_builder_set_member_name (b, "samples");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "length");
  json_builder_add_int_value (b, te->entries->len);
  add_int_array (b, "stack", (const gint64 *) (gpointer) sample_stacks->data, sample_stacks->len, TRUE);
  json_builder_set_member_name (b, "time");
  json_builder_begin_array (b);
  for (guint i = 0; i < te->entries->len; i++)
    json_builder_add_double_value (b, timed ? g_array_index (te->entries, Entry, i).time / 1e6
                                            : (synthetic++) * interval_ms);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "weightType");
  json_builder_add_string_value (b, nanoseconds ? "tracing-ms" : bytes ? "bytes" : "samples");
  json_builder_set_member_name (b, "weight");
  json_builder_begin_array (b);
  for (guint i = 0; i < te->entries->len; i++)
    {
      guint64 w = g_array_index (te->entries, Entry, i).weight;

      if (nanoseconds)
        json_builder_add_double_value (b, w / 1e6);
      else
        json_builder_add_int_value (b, (gint64) MIN (w, (guint64) G_MAXINT64));
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "stackTable");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "length");
  json_builder_add_int_value (b, n_stacks);
  g_array_set_size (column, 0);
  for (guint i = 0; i < n_stacks; i++)
    g_array_append_val (column, g_array_index (g.stack_rows, gint64, 2 * i));
  add_int_array (b, "prefix", (const gint64 *) (gpointer) column->data, n_stacks, TRUE);
  g_array_set_size (column, 0);
  for (guint i = 0; i < n_stacks; i++)
    g_array_append_val (column, g_array_index (g.stack_rows, gint64, 2 * i + 1));
  add_int_array (b, "frame", (const gint64 *) (gpointer) column->data, n_stacks, FALSE);
  g_array_set_size (column, 0);
  for (guint i = 0; i < n_stacks; i++)
    g_array_append_val (column, g_array_index (frame_categories, gint64, g_array_index (g.stack_rows, gint64, 2 * i + 1)));
  add_int_array (b, "category", (const gint64 *) (gpointer) column->data, n_stacks, FALSE);
  add_same_array (b, "subcategory", n_stacks, 0);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "frameTable");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "length");
  json_builder_add_int_value (b, n_frames);
  json_builder_set_member_name (b, "address");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_frames; i++)
    json_builder_add_int_value (b, -1);
  json_builder_end_array (b);
  add_same_array (b, "inlineDepth", n_frames, 0);
  add_int_array (b, "category", (const gint64 *) (gpointer) frame_categories->data, n_frames, FALSE);
  add_same_array (b, "subcategory", n_frames, 0);
  add_int_array (b, "func", (const gint64 *) (gpointer) frame_funcs->data, n_frames, FALSE);
  add_same_array (b, "nativeSymbol", n_frames, -1);
  add_same_array (b, "innerWindowID", n_frames, -1);
  add_same_array (b, "implementation", n_frames, -1);
  add_int_array (b, "line", (const gint64 *) (gpointer) frame_lines->data, n_frames, TRUE);
  add_same_array (b, "column", n_frames, -1);
  add_same_array (b, "optimizations", n_frames, -1);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "funcTable");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "length");
  json_builder_add_int_value (b, n_funcs);
  add_int_array (b, "name", (const gint64 *) (gpointer) func_names->data, n_funcs, FALSE);
  add_same_array (b, "isJS", n_funcs, -2);
  add_same_array (b, "relevantForJS", n_funcs, -2);
  /* no resource: -1 */
  json_builder_set_member_name (b, "resource");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_funcs; i++)
    json_builder_add_int_value (b, -1);
  json_builder_end_array (b);
  add_int_array (b, "fileName", (const gint64 *) (gpointer) func_files->data, n_funcs, TRUE);
  add_same_array (b, "lineNumber", n_funcs, -1);
  add_same_array (b, "columnNumber", n_funcs, -1);
  json_builder_end_object (b);

  add_empty_table (b, "resourceTable", (const char * const[]) { "lib", "name", "host", "type", NULL });

  add_empty_table (b, "nativeSymbols", (const char * const[]) { "address", "functionSize", "libIndex", "name", NULL });

  add_empty_table (b, "markers", (const char * const[]) { "category", "data", "endTime", "name", "phase", "startTime", NULL });

  /* last: the functions above added their strings */
  add_strings (b, "stringArray", &g);
  json_builder_end_object (b);

  gecko_clear (&g);
}

static void
add_category (JsonBuilder *b,
              const char  *name,
              const char  *color)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, name);
  json_builder_set_member_name (b, "color");
  json_builder_add_string_value (b, color);
  json_builder_set_member_name (b, "subcategories");
  json_builder_begin_array (b);
  json_builder_add_string_value (b, "Other");
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static gboolean
write_firefox (Export  *ex,
               GError **error)
{
  g_autoptr(GPtrArray) threads = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *frequency = hp_capture_get_metadata (ex->capture, HP_META_FREQUENCY);
  g_autofree char *event = event_name_of (ex->data);
  g_autofree char *hostname = hp_capture_get_metadata (ex->capture, HP_META_HOSTNAME);
  g_autofree char *misc = NULL;
  gdouble hz = frequency ? g_ascii_strtod (frequency, NULL) : 0;
  gdouble interval_ms = hz >= 1 && hz <= 1e6 ? 1000.0 / hz : 1.0;
  g_autofree char *unit = event_unit_of (ex->data);
  gboolean nanoseconds = g_strcmp0 (unit, "ns") == 0;
  /* weights need the processed format (see write_processed_thread) */
  gboolean processed = ex->filter->weighted;
  gboolean timed;

  threads = collect_entries (ex, &timed, error);
  if (threads == NULL)
    return FALSE;
  {
    g_autofree char *vevent = hp_text_make_valid (event ? event : "?");

    misc = g_strdup_printf ("hotpath %s, %s %s%s", PACKAGE_VERSION, vevent,
                            processed ? (nanoseconds ? "samples weighted by their time (ms)"
                                                     : "samples weighted by their count")
                                      : "samples",
                            timed ? "" : "; no sample times: one sample per interval, in stack order");
  }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "meta");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, processed ? 24 : GECKO_VERSION);
  if (processed)
    {
      json_builder_set_member_name (b, "preprocessedProfileVersion");
      json_builder_add_int_value (b, PROCESSED_VERSION);
      json_builder_set_member_name (b, "symbolicated");
      json_builder_add_boolean_value (b, TRUE);
      json_builder_set_member_name (b, "pausedRanges");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      add_empty_table (b, "extensions", (const char * const[]) { "baseURL", "id", "name", NULL });
    }
  json_builder_set_member_name (b, "startTime");
  json_builder_add_double_value (b, 0);
  json_builder_set_member_name (b, "shutdownTime");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "interval");
  json_builder_add_double_value (b, interval_ms);
  json_builder_set_member_name (b, "stackwalk");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "debug");
  if (processed)
    json_builder_add_boolean_value (b, FALSE);
  else
    json_builder_add_int_value (b, 0);
  json_builder_set_member_name (b, "gcpoison");
  json_builder_add_int_value (b, 0);
  json_builder_set_member_name (b, "processType");
  json_builder_add_int_value (b, 0);
  json_builder_set_member_name (b, "presymbolicated");
  json_builder_add_boolean_value (b, TRUE);
  json_builder_set_member_name (b, "product");
  json_builder_add_string_value (b, "Hotpath");
  json_builder_set_member_name (b, "platform");
  json_builder_add_string_value (b, "Linux");
  json_builder_set_member_name (b, "oscpu");
  {
    g_autofree char *host = hp_text_make_valid (hostname ? hostname : "Linux");

    json_builder_add_string_value (b, host);
  }
  json_builder_set_member_name (b, "misc");
  json_builder_add_string_value (b, misc);
  json_builder_set_member_name (b, "categories");
  json_builder_begin_array (b);
  add_category (b, "User", "yellow");
  add_category (b, "Kernel", "orange");
  json_builder_end_array (b);
  json_builder_set_member_name (b, "markerSchema");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "libs");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "pages");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "pausedRanges");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  json_builder_end_array (b);
  if (processed)
    {
      json_builder_set_member_name (b, "profilerOverhead");
      json_builder_begin_array (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "counters");
      json_builder_begin_array (b);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint t = 0; t < threads->len; t++)
    if (processed)
      write_processed_thread (ex, b, threads->pdata[t], timed, interval_ms, nanoseconds,
                              g_strcmp0 (unit, "bytes") == 0);
    else
      write_gecko_thread (ex, b, threads->pdata[t], timed, interval_ms);
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  finish_json (ex, root);
  return TRUE;
}

/* pprof ---------------------------------------------------------------- */

typedef Perftools__Profiles__Profile  PbProfile;
typedef Perftools__Profiles__ValueType PbValueType;
typedef Perftools__Profiles__Sample   PbSample;
typedef Perftools__Profiles__Label    PbLabel;
typedef Perftools__Profiles__Mapping  PbMapping;
typedef Perftools__Profiles__Location PbLocation;
typedef Perftools__Profiles__Line     PbLine;
typedef Perftools__Profiles__Function PbFunction;

typedef struct {
  Export     *ex;
  GHashTable *strings;     /* string -> index */
  GPtrArray  *string_list; /* char *, valid UTF-8 */
  GHashTable *locations;   /* "frame,frame,…" -> location id */
  GPtrArray  *location_list;
  GPtrArray  *allocations; /* everything the messages point to */
} Pprof;

static gint64
pprof_string (Pprof      *pp,
              const char *text)
{
  gpointer found;
  char *valid;

  if (text == NULL || *text == '\0')
    return 0;
  if (g_hash_table_lookup_extended (pp->strings, text, NULL, &found))
    return GPOINTER_TO_SIZE (found);
  valid = hp_text_make_valid (text);
  g_ptr_array_add (pp->string_list, valid);
  g_hash_table_insert (pp->strings, g_strdup (text), GSIZE_TO_POINTER (pp->string_list->len - 1));
  return pp->string_list->len - 1;
}

static gpointer
pprof_alloc (Pprof *pp,
             gsize  size)
{
  gpointer mem = g_malloc0 (size);

  g_ptr_array_add (pp->allocations, mem);
  return mem;
}

static PbValueType *
pprof_value_type (Pprof      *pp,
                  const char *type,
                  const char *unit)
{
  PbValueType *vt = pprof_alloc (pp, sizeof *vt);

  perftools__profiles__value_type__init (vt);
  vt->type = pprof_string (pp, type);
  vt->unit = pprof_string (pp, unit);
  return vt;
}

/* The location of @frames (capture frame ids, innermost first: the inline
 * chain and then the machine frame it was inlined into). */
static guint64
pprof_location (Pprof  *pp,
                GArray *frames)
{
  g_autoptr(GString) key = g_string_new (NULL);
  const HpCaptureFrame *outer;
  const HpCaptureFunction *fn;
  PbLocation *loc;
  gpointer found;

  for (guint i = 0; i < frames->len; i++)
    g_string_append_printf (key, "%" PRId64 ",", g_array_index (frames, gint64, i));
  if (g_hash_table_lookup_extended (pp->locations, key->str, NULL, &found))
    return GPOINTER_TO_SIZE (found);

  loc = pprof_alloc (pp, sizeof *loc);
  perftools__profiles__location__init (loc);
  loc->id = pp->location_list->len + 1;
  fn = frame_function (pp->ex, g_array_index (frames, gint64, frames->len - 1), &outer);
  loc->mapping_id = fn ? (guint64) fn->module_id : 0;
  loc->address = outer->offset;
  loc->n_line = frames->len;
  loc->line = pprof_alloc (pp, frames->len * sizeof (PbLine *));
  for (guint i = 0; i < frames->len; i++)
    {
      const HpCaptureFrame *frame = &g_array_index (pp->ex->data->frames, HpCaptureFrame, g_array_index (frames, gint64, i));
      PbLine *line = pprof_alloc (pp, sizeof *line);

      perftools__profiles__line__init (line);
      /* function ids are the capture's; 0 (no function) is "[unknown]", the last one */
      line->function_id = frame->function_id ? (guint64) frame->function_id : pp->ex->data->functions->len;
      line->line = frame->line;
      loc->line[i] = line;
    }
  g_ptr_array_add (pp->location_list, loc);
  g_hash_table_insert (pp->locations, g_strdup (key->str), GSIZE_TO_POINTER ((gsize) loc->id));
  return loc->id;
}

static gboolean
write_gzip (GString       *out,
            const guint8  *data,
            gsize          size,
            GError       **error)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) stream = g_converter_output_stream_new (memory, G_CONVERTER (compressor));

  if (!g_output_stream_write_all (stream, data, size, NULL, NULL, error) ||
      !g_output_stream_close (stream, NULL, error))
    return FALSE;
  g_string_append_len (out, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                       g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)));
  return TRUE;
}

static gboolean
write_pprof (Export  *ex,
             GError **error)
{
  Pprof pp = { ex };
  PbProfile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
  g_autofree char *event = event_name_of (ex->data);
  g_autofree char *unit = event_unit_of (ex->data);
  g_autofree char *frequency = hp_capture_get_metadata (ex->capture, HP_META_FREQUENCY);
  g_autofree char *period = hp_capture_get_metadata (ex->capture, HP_META_PERIOD);
  g_autofree char *duration = hp_capture_get_metadata (ex->capture, HP_META_DURATION_NS);
  g_autofree char *start = hp_capture_get_metadata (ex->capture, HP_META_START_TIME);
  g_autofree guint8 *packed = NULL;
  g_autoptr(GArray) group = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) samples = g_ptr_array_new ();
  PbValueType *types[2];
  gboolean nanoseconds = g_strcmp0 (unit, "ns") == 0, clock;
  const char *type_name, *pprof_unit;
  guint n_functions;
  gint64 tid_key, thread_key, pid_key;
  gsize size;
  gboolean ok;

  pp.strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  pp.string_list = g_ptr_array_new_with_free_func (g_free);
  pp.locations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  pp.location_list = g_ptr_array_new ();
  pp.allocations = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (pp.string_list, g_strdup (""));

  /* a clock is "cpu", as Go names it; a time counted by its weights
   * (off the CPU, wall, a block profile's delay) keeps its own name, or an
   * import would read it as samples of a clock */
  clock = nanoseconds && !ex->filter->weighted;
  if (nanoseconds && !clock)
    type_name = event;
  else
    type_name = nanoseconds ? "cpu" : (event ? event : "events");
  pprof_unit = nanoseconds ? "nanoseconds" : g_strcmp0 (unit, "bytes") == 0 ? "bytes" : "count";
  types[0] = pprof_value_type (&pp, "samples", "count");
  types[1] = pprof_value_type (&pp, type_name, pprof_unit);
  profile.n_sample_type = 2;
  profile.sample_type = types;
  profile.period_type = pprof_value_type (&pp, type_name, pprof_unit);
  if (period != NULL)
    profile.period = g_ascii_strtoll (period, NULL, 10);
  else if (frequency != NULL && g_ascii_strtod (frequency, NULL) >= 1 && clock)
    profile.period = (gint64) (1e9 / g_ascii_strtod (frequency, NULL));
  if (duration != NULL)
    profile.duration_nanos = g_ascii_strtoll (duration, NULL, 10);
  if (start != NULL)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_iso8601 (start, NULL);

      if (when != NULL)
        profile.time_nanos = g_date_time_to_unix (when) * G_GINT64_CONSTANT (1000000000)
                             + g_date_time_get_microsecond (when) * 1000;
    }
  tid_key = pprof_string (&pp, "tid");
  thread_key = pprof_string (&pp, "thread");
  pid_key = pprof_string (&pp, "pid");

  /* mappings: the modules, ids as in the capture */
  profile.n_mapping = ex->data->modules->len - 1;
  profile.mapping = pprof_alloc (&pp, (profile.n_mapping + 1) * sizeof (PbMapping *));
  for (guint i = 1; i < ex->data->modules->len; i++)
    {
      const HpCaptureModule *module = &g_array_index (ex->data->modules, HpCaptureModule, i);
      PbMapping *m = pprof_alloc (&pp, sizeof *m);

      perftools__profiles__mapping__init (m);
      m->id = i;
      m->filename = pprof_string (&pp, module->path ? module->path : module->name);
      m->build_id = pprof_string (&pp, module->build_id);
      m->has_functions = m->has_filenames = m->has_line_numbers = m->has_inline_frames = TRUE;
      profile.mapping[i - 1] = m;
    }
  /* pprof takes the first mapping for the program ("File:"): the first
   * process's, else one its name starts (python3 runs python3.11), else
   * the first that is not the kernel's */
  if (profile.n_mapping > 1)
    {
      g_autofree char *program = NULL;
      guint chosen = 0;

      if (ex->data->processes->len > 0 && g_array_index (ex->data->processes, HpCaptureProcess, 0).command != NULL)
        {
          g_auto(GStrv) words = g_strsplit (g_array_index (ex->data->processes, HpCaptureProcess, 0).command, " ", 2);

          program = g_path_get_basename (words[0] ? words[0] : "");
        }
      for (guint pass = 0; pass < 3 && chosen == 0; pass++)
        for (guint i = 0; i < profile.n_mapping && chosen == 0; i++)
          {
            const HpCaptureModule *m = &g_array_index (ex->data->modules, HpCaptureModule, profile.mapping[i]->id);

            if ((pass == 0 && program != NULL && g_strcmp0 (m->name, program) == 0)
                || (pass == 1 && program != NULL && program[0] != '\0' && m->name != NULL
                    && g_str_has_prefix (m->name, program))
                || (pass == 2 && !m->is_kernel))
              chosen = i + 1;
          }
      if (chosen > 1)
        {
          PbMapping *first = profile.mapping[0];

          profile.mapping[0] = profile.mapping[chosen - 1];
          profile.mapping[chosen - 1] = first;
        }
    }

  /* functions: the capture's, ids as in the capture, then "[unknown]" */
  n_functions = ex->data->functions->len;
  profile.n_function = n_functions;
  profile.function = pprof_alloc (&pp, n_functions * sizeof (PbFunction *));
  for (guint i = 1; i <= n_functions; i++)
    {
      const HpCaptureFunction *fn = i < n_functions ? &g_array_index (ex->data->functions, HpCaptureFunction, i) : NULL;
      PbFunction *f = pprof_alloc (&pp, sizeof *f);

      perftools__profiles__function__init (f);
      f->id = i;
      f->name = f->system_name = pprof_string (&pp, fn ? fn->name : "[unknown]");
      f->filename = pprof_string (&pp, fn ? fn->file : NULL);
      f->start_line = fn ? fn->line : 0;
      profile.function[i - 1] = f;
    }

  for (guint i = 0; i < ex->data->stack_counts->len; i++)
    {
      const HpCaptureStackCount *sc = &g_array_index (ex->data->stack_counts, HpCaptureStackCount, i);
      PbSample *sample;
      gint32 pid;
      const char *name;

      if (sc->samples == 0 || !keep_tid (ex, sc->tid))
        continue;
      /* leaf first; inline frames (children of the frame they were
       * inlined into) gather until their machine frame closes a location */
      g_array_set_size (ids, 0);
      g_array_set_size (group, 0);
      for (gint64 s = sc->stack_id; s != 0; s = g_array_index (ex->data->stacks, HpCaptureStack, s).parent_id)
        {
          gint64 frame_id = g_array_index (ex->data->stacks, HpCaptureStack, s).frame_id;
          guint64 id;

          g_array_append_val (group, frame_id);
          if (g_array_index (ex->data->frames, HpCaptureFrame, frame_id).is_inline)
            continue;
          id = pprof_location (&pp, group);
          g_array_append_val (ids, id);
          g_array_set_size (group, 0);
        }
      if (group->len > 0)
        {
          guint64 id = pprof_location (&pp, group);

          g_array_append_val (ids, id);
        }

      sample = pprof_alloc (&pp, sizeof *sample);
      perftools__profiles__sample__init (sample);
      sample->n_location_id = ids->len;
      sample->location_id = pprof_alloc (&pp, MAX (ids->len, 1) * sizeof (guint64));
      /* a sample without a frame has no location: nothing to copy, from
       * an array that may never have held one */
      if (ids->len > 0)
        memcpy (sample->location_id, ids->data, ids->len * sizeof (guint64));
      sample->n_value = 2;
      sample->value = pprof_alloc (&pp, 2 * sizeof (int64_t));
      sample->value[0] = (gint64) sc->samples;
      sample->value[1] = (gint64) sc->weight;
      sample->n_label = 3;
      sample->label = pprof_alloc (&pp, 3 * sizeof (PbLabel *));
      sample->label[0] = pprof_alloc (&pp, sizeof (PbLabel));
      perftools__profiles__label__init (sample->label[0]);
      sample->label[0]->key = tid_key;
      sample->label[0]->num = sc->tid;
      name = thread_name (ex, sc->tid, &pid);
      sample->label[1] = pprof_alloc (&pp, sizeof (PbLabel));
      perftools__profiles__label__init (sample->label[1]);
      sample->label[1]->key = thread_key;
      sample->label[1]->str = pprof_string (&pp, name ? name : "?");
      sample->label[2] = pprof_alloc (&pp, sizeof (PbLabel));
      perftools__profiles__label__init (sample->label[2]);
      sample->label[2]->key = pid_key;
      sample->label[2]->num = pid;
      g_ptr_array_add (samples, sample);
    }
  profile.n_sample = samples->len;
  profile.sample = (PbSample **) samples->pdata;
  profile.n_location = pp.location_list->len;
  profile.location = (PbLocation **) pp.location_list->pdata;
  profile.n_string_table = pp.string_list->len;
  profile.string_table = (char **) pp.string_list->pdata;

  size = perftools__profiles__profile__get_packed_size (&profile);
  packed = g_malloc (MAX (size, 1));
  perftools__profiles__profile__pack (&profile, packed);
  ok = write_gzip (ex->out, packed, size, error);

  g_hash_table_unref (pp.strings);
  g_ptr_array_unref (pp.string_list);
  g_hash_table_unref (pp.locations);
  g_ptr_array_unref (pp.location_list);
  g_ptr_array_unref (pp.allocations);
  return ok;
}

/* The command ---------------------------------------------------------- */

static const struct {
  const char *name;
  gboolean  (*write) (Export *ex, GError **error);
} formats[] = {
  { "folded", write_folded },
  { "speedscope", write_speedscope },
  { "firefox", write_firefox },
  { "pprof", write_pprof },
};

int
hp_cli_export (int    argc,
               char **argv)
{
  g_auto(GStrv) files = NULL;
  g_autofree char *output = NULL;
  g_autofree char *format = NULL;
  gboolean folded_prefix = FALSE;
  GOptionEntry entries[] = {
    { "format", 'F', 0, G_OPTION_ARG_STRING, &format, N_("Format to write: folded, speedscope, firefox or pprof"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to FILE ('-' for standard output)"), N_("FILE") },
    { "folded-prefix", 0, 0, G_OPTION_ARG_NONE, &folded_prefix,
      N_("folded: start each stack with 'PROGRAM (PID);THREAD (TID)'"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = hp_cli_option_context_new (N_("CAPTURE"));
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(GHashTable) tids = NULL;
  g_auto(HpCliFilter) filter = { 0 };
  gboolean (*write) (Export *ex, GError **error) = NULL;
  Export ex = { 0 };
  gboolean ok;

  g_option_context_set_summary (context,
                                N_("Write a capture (or a perf.data) in the format of another tool.\n\n"
                                "Examples:\n"
                                "  hotpath-cli export app.hotpath --format folded -o app.folded\n"
                                "  hotpath-cli export app.hotpath --format folded --folded-prefix --tid 1234 -o -\n"
                                "  hotpath-cli export app.hotpath --format speedscope -o app.speedscope.json\n"
                                "  hotpath-cli export app.hotpath --format firefox --from 2 --to 3 -o app.gecko.json\n"
                                "  hotpath-cli export app.hotpath --format pprof -o app.pb.gz && go tool pprof -top app.pb.gz"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  hp_cli_filter_add_options (&filter, context);
  if (!hp_cli_parse_one_file (context, "export", &argc, &argv, &files,
                              "give one capture file"))
    return 2;
  if (format == NULL)
    {
      hp_cli_error (_("export: give the format with --format (folded, speedscope, firefox or pprof)"));
      return 2;
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (strcmp (format, formats[i].name) == 0)
      write = formats[i].write;
  if (write == NULL)
    {
      hp_cli_error (_("export: unknown format '%s'; the formats are folded, speedscope, firefox and pprof"), format);
      return 2;
    }
  if (output == NULL)
    {
      hp_cli_error (_("export: give the file to write with -o FILE ('-' for standard output)"));
      return 2;
    }
  if (!hp_cli_output_is_file ("export", output))
    return 1;

  if (!hp_cli_load_capture (files[0], &capture, &data) ||
      !hp_cli_filter_apply (&filter, "export", capture, &data, &tids))
    return 1;

  ex.capture = capture;
  ex.data = data;
  ex.tids = tids;
  ex.filter = &filter;
  ex.folded_prefix = folded_prefix;
  ex.out = g_string_sized_new (1 << 16);
  ok = write (&ex, &error);
  if (ok && strcmp (output, "-") == 0)
    {
      fwrite (ex.out->str, 1, ex.out->len, stdout);
      ok = fflush (stdout) == 0;
      if (!ok)
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write to standard output"));
    }
  else if (ok)
    ok = g_file_set_contents (output, ex.out->str, (gssize) ex.out->len, &error);
  g_string_free (ex.out, TRUE);
  g_clear_pointer (&ex.shared_names, g_hash_table_unref);
  if (!ok)
    {
      hp_cli_error (_("export: %s"), error->message);
      return 1;
    }
  return 0;
}
