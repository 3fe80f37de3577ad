/* hp-cli-export.c - hotpath-cli export: a capture in other tools' formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * Writes a capture (or a perf.data) for the tools people already use:
 *
 *   folded      "a;b;c N", one line per distinct stack, root first, sorted:
 *               flamegraph.pl, speedscope, and `hotpath-cli import`. With
 *               --folded-prefix each stack starts with its process and
 *               thread. Inlined frames end in "_[i]" and kernel frames in
 *               "_[k]", as async-profiler writes them, so that an import
 *               gets them back.
 *
 * The filters of `report` (--from/--to, --tid/--pid, --merge-recursion)
 * choose what is written. Text from the capture is untrusted: it is made
 * valid UTF-8, and what would break a line of the format is replaced.
 */

#define G_LOG_DOMAIN "hp-cli"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hp-text.h"
#include "cli/hp-cli.h"

typedef struct {
  HpCapture     *capture;
  HpCaptureData *data;
  GHashTable    *tids;         /* threads to keep; NULL: all */
  HpCliFilter   *filter;
  gboolean       folded_prefix;
  GString       *out;
} Export;

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

          /* the program's name, not its whole command line */
          if (command != NULL)
            {
              g_auto(GStrv) words = g_strsplit (command, " ", 2);

              program = g_path_get_basename (words[0] ? words[0] : command);
            }
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
      *count += sc->samples;
    }

  /* each value is a g_new0'd count, freed with the table's keys below */
  keys = g_hash_table_get_keys_as_array (counts, &n_keys);
  qsort (keys, n_keys, sizeof (gpointer), compare_strings);
  for (guint i = 0; i < n_keys; i++)
    {
      guint64 *count = g_hash_table_lookup (counts, keys[i]);

      g_string_append_printf (ex->out, "%s %" G_GUINT64_FORMAT "\n", (const char *) keys[i], *count);
      g_free (count);
    }
  return TRUE;
}

/* The command ---------------------------------------------------------- */

static const struct {
  const char *name;
  gboolean  (*write) (Export *ex, GError **error);
} formats[] = {
  { "folded", write_folded },
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
    { "format", 'F', 0, G_OPTION_ARG_STRING, &format, "Format to write: folded", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE ('-' for standard output)", "FILE" },
    { "folded-prefix", 0, 0, G_OPTION_ARG_NONE, &folded_prefix,
      "folded: start each stack with 'PROGRAM (PID);THREAD (TID)'", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "CAPTURE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("CAPTURE");
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCapture) capture = NULL;
  g_autoptr(HpCaptureData) data = NULL;
  g_autoptr(GHashTable) tids = NULL;
  g_auto(HpCliFilter) filter = { 0 };
  gboolean (*write) (Export *ex, GError **error) = NULL;
  Export ex = { 0 };
  gboolean ok;

  g_option_context_set_summary (context,
                                "Write a capture (or a perf.data) in the format of another tool.\n\n"
                                "Examples:\n"
                                "  hotpath-cli export app.hotpath --format folded -o app.folded\n"
                                "  hotpath-cli export app.hotpath --format folded --folded-prefix --tid 1234 -o -");
  g_option_context_add_main_entries (context, entries, NULL);
  hp_cli_filter_add_options (&filter, context);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      hp_cli_error ("export: %s", error->message);
      return 2;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      hp_cli_error ("export: give one capture file");
      return 2;
    }
  if (format == NULL)
    {
      hp_cli_error ("export: give the format with --format (folded)");
      return 2;
    }
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (strcmp (format, formats[i].name) == 0)
      write = formats[i].write;
  if (write == NULL)
    {
      hp_cli_error ("export: unknown format '%s'; the formats are folded", format);
      return 2;
    }
  if (output == NULL)
    {
      hp_cli_error ("export: give the file to write with -o FILE ('-' for standard output)");
      return 2;
    }

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
        g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write to standard output");
    }
  else if (ok)
    ok = g_file_set_contents (output, ex.out->str, (gssize) ex.out->len, &error);
  g_string_free (ex.out, TRUE);
  if (!ok)
    {
      hp_cli_error ("export: %s", error->message);
      return 1;
    }
  return 0;
}
