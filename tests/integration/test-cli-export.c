/* test-cli-export.c - hotpath-cli export and import of other tools' formats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capture written here is known by construction: process 10 ("app")
 * with threads 10 and 11; main → other (40 samples, first), main → work
 * (60, plus 2 at another line of work: one folded line of 62), main →
 * work → an inlined function (7), main → work → a kernel function (3) and
 * main → a function whose name holds ';', a newline and a byte that is not
 * UTF-8 (5). The folded export must be exactly those lines; importing it
 * and exporting again must give the same bytes, every count the same.
 */
#define G_LOG_DOMAIN "hp-integration"

#include "config.h"

#include "store/hp-capture-keys.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "integration-common.h"
#include "record/profile.pb-c.h"
#include "store/hp-capture-writer.h"
#include "test-common.h"

#define MS 1000000ull
#define FFFD "\xef\xbf\xbd"

static void
write_capture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (path, &error);
  gint64 app, kernel, main_stack, work_stack;
  guint64 time = 1000;

#define FRAME(name, module, line, is_inline) \
  hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, name, module, "app.c", 1), \
                                  "app.c", line, is_inline, 0x100 + line)
#define SAMPLES(n, tid, stack, step) \
  for (guint i_ = 0; i_ < (n); i_++, time += (step)) \
    hp_capture_writer_add_sample (w, time, tid, 0, stack, 1000000)

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, HP_META_EVENT, "cpu-clock");
  hp_capture_writer_set_metadata (w, HP_META_EVENT_UNIT, "ns");
  hp_capture_writer_set_process (w, 10, "/usr/bin/app --flag");
  hp_capture_writer_set_thread (w, 10, 10, "app");
  hp_capture_writer_set_thread (w, 11, 10, "worker");
  app = hp_capture_writer_intern_module (w, "/usr/bin/app", "abcdef", FALSE);
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
  main_stack = hp_capture_writer_intern_stack (w, 0, FRAME ("main", app, 5, FALSE));
  work_stack = hp_capture_writer_intern_stack (w, main_stack, FRAME ("work", app, 10, FALSE));

  /* thread 10: the first 40 ms are main → other */
  SAMPLES (40, 10, hp_capture_writer_intern_stack (w, main_stack, FRAME ("other", app, 30, FALSE)), MS);
  time = 1000 + 100 * MS;
  SAMPLES (60, 10, work_stack, MS);
  SAMPLES (2, 10, hp_capture_writer_intern_stack (w, main_stack, FRAME ("work", app, 20, FALSE)), MS);
  SAMPLES (3, 10, hp_capture_writer_intern_stack (w, work_stack, FRAME ("do_syscall", kernel, 0, FALSE)), MS);
  /* thread 11, from 200 ms */
  time = 1000 + 200 * MS;
  SAMPLES (7, 11, hp_capture_writer_intern_stack (w, work_stack, FRAME ("inl", app, 12, TRUE)), MS);
  SAMPLES (5, 11, hp_capture_writer_intern_stack (w, main_stack, FRAME ("evil;x\nname\xff", app, 40, FALSE)), MS);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);
#undef FRAME
#undef SAMPLES
}

static const char expected_all[] =
  "main;evil" FFFD "x" FFFD "name" FFFD " 5\n"
  "main;other 40\n"
  "main;work 62\n"
  "main;work;do_syscall_[k] 3\n"
  "main;work;inl_[i] 7\n";

static char *
export_folded (const char *capture,
               const char *extra1,
               const char *extra2,
               const char *extra3)
{
  const char *args[] = { "export", capture, "--format", "folded", "-o", "-", extra1, extra2, extra3, NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  if (result->status != 0)
    g_error ("export %s failed: %s", capture, result->err);
  return g_strdup (result->out);
}

/* Folded text -> "stack" -> count, with the suffixes _[i] and _[k] that
 * only the folded format writes removed from each frame. */
static GHashTable *
parse_folded (const char *text)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      char *space = strrchr (lines[i], ' ');
      g_auto(GStrv) frames = NULL;
      g_autofree char *stack = NULL;

      g_assert_nonnull (space);
      *space = '\0';
      frames = g_strsplit (lines[i], ";", -1);
      for (guint k = 0; frames[k]; k++)
        if (g_str_has_suffix (frames[k], "_[i]") || g_str_has_suffix (frames[k], "_[k]"))
          frames[k][strlen (frames[k]) - 4] = '\0';
      stack = g_strjoinv (";", frames);
      g_hash_table_insert (counts, g_steal_pointer (&stack),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, stack)) +
                                             g_ascii_strtoull (space + 1, NULL, 10)));
    }
  return counts;
}

/* A frame name as the folded export writes it */
static void
append_folded_name (GString    *out,
                    const char *name)
{
  for (const char *p = name; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      g_string_append_unichar (out, c == ';' || c < 0x20 ? 0xfffd : c);
    }
}

static void
add_count (GHashTable *counts,
           GString    *stack,
           guint64     n)
{
  gpointer old = g_hash_table_lookup (counts, stack->str);

  g_hash_table_replace (counts, g_strdup (stack->str), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (old) + n));
}

static void
assert_same_counts (GHashTable *expected,
                    GHashTable *actual)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_hash_table_lookup (actual, key) != value)
      g_error ("stack %s: %zu samples expected, %zu found", (char *) key,
               GPOINTER_TO_SIZE (value), GPOINTER_TO_SIZE (g_hash_table_lookup (actual, key)));
  g_assert_cmpuint (g_hash_table_size (actual), ==, g_hash_table_size (expected));
}

/* The member @name of @object, which must be a value of @type */
static JsonNode *
member (JsonObject *object,
        const char *name,
        GType       type)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    g_error ("member %s missing or not a %s", name, g_type_name (type));
  return node;
}

static gboolean
is_number (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node)
    && (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE);
}

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_utf8_validate (text, -1, NULL));
  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The speedscope file format schema, as far as a sampled profile uses it
 * (https://www.speedscope.app/file-format-schema.json): checks every
 * required member and reference, and returns the samples per folded stack
 * (weights in ns divided by the test's period, 1 ms). Sets *@n_profiles. */
static GHashTable *
check_speedscope (const char *text,
                  guint      *n_profiles)
{
  static const char * const units[] = { "none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes", NULL };
  g_autoptr(JsonObject) root = parse_object (text);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonArray *frames, *profiles;

  g_assert_cmpstr (json_node_get_string (member (root, "$schema", G_TYPE_STRING)), ==,
                   "https://www.speedscope.app/file-format-schema.json");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "shared")));
  frames = json_object_get_array_member (json_object_get_object_member (root, "shared"), "frames");
  g_assert_nonnull (frames);
  for (guint i = 0; i < json_array_get_length (frames); i++)
    {
      JsonObject *frame = json_array_get_object_element (frames, i);

      g_assert_nonnull (frame);
      member (frame, "name", G_TYPE_STRING);
      /* speedscope knows a frame by its index: a function with two frames
       * (work at two lines) would be two rows of its sandwich view; the
       * test's functions have names of their own */
      if (g_hash_table_contains (counts, json_object_get_string_member (frame, "name")))
        g_error ("speedscope frames %u and another are both %s", i, json_object_get_string_member (frame, "name"));
      g_hash_table_add (counts, g_strdup (json_object_get_string_member (frame, "name")));
      if (json_object_has_member (frame, "file"))
        member (frame, "file", G_TYPE_STRING);
      if (json_object_has_member (frame, "line"))
        member (frame, "line", G_TYPE_INT64);
    }
  g_hash_table_remove_all (counts);
  profiles = json_object_get_array_member (root, "profiles");
  g_assert_nonnull (profiles);
  *n_profiles = json_array_get_length (profiles);
  for (guint p = 0; p < json_array_get_length (profiles); p++)
    {
      JsonObject *profile = json_array_get_object_element (profiles, p);
      JsonArray *samples, *weights;
      const char *unit;
      gdouble sum = 0;

      g_assert_cmpstr (json_node_get_string (member (profile, "type", G_TYPE_STRING)), ==, "sampled");
      member (profile, "name", G_TYPE_STRING);
      unit = json_node_get_string (member (profile, "unit", G_TYPE_STRING));
      g_assert_true (g_strv_contains (units, unit));
      g_assert_true (is_number (json_object_get_member (profile, "startValue")));
      g_assert_true (is_number (json_object_get_member (profile, "endValue")));
      samples = json_object_get_array_member (profile, "samples");
      weights = json_object_get_array_member (profile, "weights");
      g_assert_nonnull (samples);
      g_assert_nonnull (weights);
      g_assert_cmpuint (json_array_get_length (samples), ==, json_array_get_length (weights));
      for (guint i = 0; i < json_array_get_length (samples); i++)
        {
          JsonArray *stack = json_array_get_array_element (samples, i);
          JsonNode *weight = json_array_get_element (weights, i);
          g_autoptr(GString) folded = g_string_new (NULL);

          g_assert_nonnull (stack);
          g_assert_true (is_number (weight));
          g_assert_cmpfloat (json_node_get_double (weight), >=, 0);
          sum += json_node_get_double (weight);
          for (guint k = 0; k < json_array_get_length (stack); k++)
            {
              JsonNode *index = json_array_get_element (stack, k);

              g_assert_cmpint (json_node_get_value_type (index), ==, G_TYPE_INT64);
              g_assert_cmpint (json_node_get_int (index), >=, 0);
              g_assert_cmpint (json_node_get_int (index), <, json_array_get_length (frames));
              if (k > 0)
                g_string_append_c (folded, ';');
              append_folded_name (folded, json_object_get_string_member (
                                    json_array_get_object_element (frames, json_node_get_int (index)), "name"));
            }
          add_count (counts, folded, strcmp (unit, "nanoseconds") == 0
                                       ? (guint64) (json_node_get_double (weight) / MS)
                                       : (guint64) json_node_get_double (weight));
        }
      g_assert_cmpfloat (json_object_get_double_member (profile, "endValue") -
                         json_object_get_double_member (profile, "startValue"), ==, sum);
    }
  return counts;
}

/* The Gecko profile format as the Firefox Profiler reads it (meta, and per
 * thread its samples, stack, frame and string tables, each table a schema
 * of column indexes and rows): checks every reference and that each
 * thread's times do not go back. Returns the samples per folded stack;
 * @first_times gets "tid" -> first sample time in ms. */
static GHashTable *
check_gecko (const char *text,
             GHashTable *first_times,
             GHashTable *libraries)
{
  static GRegex *library_pattern;
  g_autoptr(JsonObject) root = parse_object (text);
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *meta = json_object_get_object_member (root, "meta");
  JsonArray *threads = json_object_get_array_member (root, "threads");
  guint n_categories;

  g_assert_nonnull (meta);
  g_assert_cmpint (json_node_get_int (member (meta, "version", G_TYPE_INT64)), >=, 20);
  g_assert_true (is_number (json_object_get_member (meta, "interval")));
  g_assert_true (is_number (json_object_get_member (meta, "startTime")));
  g_assert_nonnull (json_object_get_array_member (meta, "categories"));
  n_categories = json_array_get_length (json_object_get_array_member (meta, "categories"));
  g_assert_nonnull (json_object_get_array_member (root, "libs"));
  g_assert_nonnull (threads);
  for (guint t = 0; t < json_array_get_length (threads); t++)
    {
      JsonObject *thread = json_array_get_object_element (threads, t);
      JsonObject *samples = json_object_get_object_member (thread, "samples");
      JsonObject *stacks = json_object_get_object_member (thread, "stackTable");
      JsonObject *frames = json_object_get_object_member (thread, "frameTable");
      JsonArray *strings = json_object_get_array_member (thread, "stringTable");
      JsonArray *sample_rows, *stack_rows, *frame_rows;
      gint64 s_stack, s_time, k_prefix, k_frame, f_location, f_category;
      gdouble last = -1;

      member (thread, "name", G_TYPE_STRING);
      member (thread, "tid", G_TYPE_INT64);
      member (thread, "pid", G_TYPE_INT64);
      g_assert_nonnull (samples);
      g_assert_nonnull (stacks);
      g_assert_nonnull (frames);
      g_assert_nonnull (strings);
      s_stack = json_object_get_int_member (json_object_get_object_member (samples, "schema"), "stack");
      s_time = json_object_get_int_member (json_object_get_object_member (samples, "schema"), "time");
      k_prefix = json_object_get_int_member (json_object_get_object_member (stacks, "schema"), "prefix");
      k_frame = json_object_get_int_member (json_object_get_object_member (stacks, "schema"), "frame");
      f_location = json_object_get_int_member (json_object_get_object_member (frames, "schema"), "location");
      f_category = json_object_get_int_member (json_object_get_object_member (frames, "schema"), "category");
      sample_rows = json_object_get_array_member (samples, "data");
      stack_rows = json_object_get_array_member (stacks, "data");
      frame_rows = json_object_get_array_member (frames, "data");

      for (guint i = 0; i < json_array_get_length (frame_rows); i++)
        {
          JsonArray *row = json_array_get_array_element (frame_rows, i);

          g_assert_cmpint (json_array_get_int_element (row, f_location), <, json_array_get_length (strings));
          g_assert_cmpint (json_array_get_int_element (row, f_category), <, n_categories);
        }
      for (guint i = 0; i < json_array_get_length (stack_rows); i++)
        {
          JsonArray *row = json_array_get_array_element (stack_rows, i);

          if (!json_array_get_null_element (row, k_prefix))
            g_assert_cmpint (json_array_get_int_element (row, k_prefix), <, i);
          g_assert_cmpint (json_array_get_int_element (row, k_frame), <, json_array_get_length (frame_rows));
        }
      for (guint i = 0; i < json_array_get_length (sample_rows); i++)
        {
          JsonArray *row = json_array_get_array_element (sample_rows, i);
          g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
          g_autoptr(GString) folded = g_string_new (NULL);
          gdouble time = json_array_get_double_element (row, s_time);

          g_assert_cmpfloat (time, >=, last);
          if (last < 0)
            g_hash_table_insert (first_times,
                                 g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (thread, "tid")),
                                 g_strdup_printf ("%.3f", time));
          last = time;
          if (!json_array_get_null_element (row, s_stack))
            for (gint64 s = json_array_get_int_element (row, s_stack); s >= 0;)
              {
                JsonArray *stack = json_array_get_array_element (stack_rows, s);
                JsonArray *frame;

                g_assert_nonnull (stack);
                frame = json_array_get_array_element (frame_rows, json_array_get_int_element (stack, k_frame));
                const char *location = json_array_get_string_element (strings, json_array_get_int_element (frame, f_location));
                g_autoptr(GMatchInfo) match = NULL;

                /* "name (in library)", as the profiler reads it */
                if (library_pattern == NULL)
                  library_pattern = g_regex_new ("^(.*) \\(in ([^)]*)\\)$", G_REGEX_DOTALL, 0, NULL);
                if (g_regex_match (library_pattern, location, 0, &match))
                  {
                    g_ptr_array_add (names, g_match_info_fetch (match, 1));
                    if (libraries != NULL)
                      g_hash_table_add (libraries, g_match_info_fetch (match, 2));
                  }
                else
                  g_ptr_array_add (names, g_strdup (location));
                s = json_array_get_null_element (stack, k_prefix) ? -1 : json_array_get_int_element (stack, k_prefix);
              }
          for (guint k = names->len; k > 0; k--)
            {
              if (k < names->len)
                g_string_append_c (folded, ';');
              append_folded_name (folded, names->pdata[k - 1]);
            }
          add_count (counts, folded, 1);
        }
    }
  return counts;
}

static char *
export_to_string (const char *capture,
                  const char *format)
{
  const char *args[] = { "export", capture, "--format", format, "-o", "-", NULL };
  g_autoptr(ItResult) result = it_run_cli (args);

  if (result->status != 0)
    g_error ("export --format %s %s failed: %s", format, capture, result->err);
  return g_strdup (result->out);
}

/* speedscope and Firefox Profiler files hold the same stacks and counts as
 * the folded export, one profile per thread, with times where the capture
 * has them; and so does an import of folded stacks, which has none */
static void
test_json_formats (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *folded = g_build_filename (dir, "app.folded", NULL);
  g_autofree char *imported = g_build_filename (dir, "imported.hotpath", NULL);
  g_autoptr(GHashTable) expected = NULL;
  const char *sources[] = { capture, imported };

  write_capture (capture);
  {
    g_autofree char *all = export_folded (capture, NULL, NULL, NULL);
    const char *args[] = { "import", folded, "-o", imported, NULL };
    g_autoptr(ItResult) import = NULL;

    g_assert_true (g_file_set_contents (folded, all, -1, NULL));
    import = it_run_cli (args);
    g_assert_cmpint (import->status, ==, 0);
    expected = parse_folded (all);
  }

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *speedscope = export_to_string (sources[i], "speedscope");
      g_autofree char *gecko = export_to_string (sources[i], "firefox");
      g_autoptr(GHashTable) first_times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_autoptr(GHashTable) from_speedscope = NULL, from_gecko = NULL;
      g_autoptr(GHashTable) libraries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      guint n_profiles = 0;

      from_speedscope = check_speedscope (speedscope, &n_profiles);
      assert_same_counts (expected, from_speedscope);
      g_assert_cmpuint (n_profiles, ==, i == 0 ? 2 : 1);
      from_gecko = check_gecko (gecko, first_times, libraries);
      assert_same_counts (expected, from_gecko);
      /* each function names its library ("main (in app)"), which tells
       * functions of the same name apart; an import of folded stacks knows
       * only the kernel's (its "_[k]" frames) */
      g_assert_cmpuint (g_hash_table_size (libraries), ==, (i == 0 ? 2 : 1));
      g_assert_true (g_hash_table_contains (libraries, "[kernel.kallsyms]"));
      g_assert_true (i != 0 || g_hash_table_contains (libraries, "app"));
      if (i == 0)
        {
          /* the timeline: thread 11 starts 200 ms after the first sample */
          g_assert_cmpstr (g_hash_table_lookup (first_times, "10"), ==, "0.000");
          g_assert_cmpstr (g_hash_table_lookup (first_times, "11"), ==, "200.000");
        }
    }

  /* the filters apply to the timelines too */
  {
    const char *args[] = { "export", capture, "--format", "firefox", "--tid", "11", "--from", "0.2", "--to", "0.204", "-o", "-", NULL };
    g_autoptr(ItResult) result = it_run_cli (args);
    g_autoptr(GHashTable) first_times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GHashTable) counts = NULL;

    g_assert_cmpint (result->status, ==, 0);
    counts = check_gecko (result->out, first_times, NULL);
    g_assert_cmpuint (g_hash_table_size (first_times), ==, 1);
    g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "main;work;inl")), ==, 5);
    g_assert_cmpuint (g_hash_table_size (counts), ==, 1);
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* `go tool pprof -top` of the pprof export of @capture: function -> flat%
 * (a string such as "52.99%"). */
static GHashTable *
pprof_flat (const char *dir,
            const char *capture)
{
  g_autofree char *pb = g_build_filename (dir, "export.pb.gz", NULL);
  g_autofree char *go = g_find_program_in_path ("go");
  g_autofree char *out = NULL, *err = NULL, *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ItResult) result = NULL;
  GHashTable *flat = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) env = g_get_environ ();
  gsize size = 0;
  int status = 0;

  if (go == NULL)
    g_error ("go is not installed: build-aux/quickstart.sh installs golang-go, which this test needs");

  {
    const char *args[] = { "export", capture, "--format", "pprof", "-o", pb, NULL };
    result = it_run_cli (args);
  }
  g_assert_cmpint (result->status, ==, 0);
  g_assert_true (g_file_get_contents (pb, &contents, &size, NULL));
  g_assert_cmpuint (size, >, 2);
  g_assert_cmpint ((guint8) contents[0], ==, 0x1f);  /* gzip */
  g_assert_cmpint ((guint8) contents[1], ==, 0x8b);

  {
    const char *argv[] = { go, "tool", "pprof", "-top", "-nodecount=1000", "-sample_index=samples", pb, NULL };

    env = g_environ_setenv (env, "HOME", dir, TRUE);
    env = g_environ_setenv (env, "PPROF_TMPDIR", dir, TRUE);
    g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_no_error (error);
  }
  g_test_message ("go tool pprof -top:\n%s\n%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  /* "      flat  flat%   sum%        cum   cum%" then one row per function */
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) fields = NULL;
      g_autoptr(GPtrArray) parts = g_ptr_array_new ();
      g_autofree char *name = NULL;

      /* five numbers, then the name (which may hold spaces) */
      fields = g_strsplit (lines[i], " ", -1);
      for (guint k = 0; fields[k]; k++)
        if (fields[k][0] != '\0')
          g_ptr_array_add (parts, fields[k]);
      if (parts->len < 6 || !g_ascii_isdigit (((char *) parts->pdata[0])[0])
          || !g_str_has_suffix (parts->pdata[1], "%"))
        continue;
      g_ptr_array_add (parts, NULL);
      name = g_strjoinv (" ", (char **) parts->pdata + 5);
      if (g_str_has_suffix (name, " (inline)"))
        name[strlen (name) - strlen (" (inline)")] = '\0';
      g_hash_table_insert (flat, g_steal_pointer (&name), g_strdup ((char *) parts->pdata[1]));
    }
  return flat;
}

static void
assert_pprof_matches (GHashTable         *flat,
                      const char         *capture,
                      const char * const *names)
{
  g_autoptr(ItCapture) cap = it_capture_open (capture);

  for (guint i = 0; names[i]; i++)
    {
      const char *percent = g_hash_table_lookup (flat, names[i]);

      if (percent == NULL)
        g_error ("go tool pprof -top does not list %s", names[i]);
      it_assert_percent (names[i], g_ascii_strtod (percent, NULL), it_self_percent (cap->profile, names[i]), 0.5);
    }
}

/* go tool pprof reads the pprof export, and its flat% of each function is
 * the self share of report (the same profile code), within 0.5 pp: on the
 * capture built here, and on a recording of a program with inlined calls */
/* Two "(anonymous)" JavaScript functions of one perf map stay two in the
 * Firefox Profiler: it makes one function of each location string */
static void
test_gecko_same_names (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "node.hotpath", NULL);
  g_autofree char *gecko = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autoptr(GHashTable) libraries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) first_times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (capture, &error);
    gint64 map, node, root, a, b;
    guint64 time = 1000;

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, HP_META_EVENT, "cpu-clock");
    hp_capture_writer_set_process (w, 42, "node app.js");
    hp_capture_writer_set_thread (w, 42, 42, "node");
    node = hp_capture_writer_intern_module (w, "/usr/bin/node", NULL, FALSE);
    map = hp_capture_writer_intern_module (w, "/tmp/perf-42.map", NULL, FALSE);
    root = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
                                             w, hp_capture_writer_intern_function (w, "main", node, "node.cc", 1),
                                             "node.cc", 1, FALSE, 0x10));
    a = hp_capture_writer_intern_stack (w, root, hp_capture_writer_intern_frame (
                                          w, hp_capture_writer_intern_function (w, "(anonymous)", map, "file:///app.js", 3),
                                          "file:///app.js", 3, FALSE, 0x1000));
    b = hp_capture_writer_intern_stack (w, root, hp_capture_writer_intern_frame (
                                          w, hp_capture_writer_intern_function (w, "(anonymous)", map, "file:///app.js", 9),
                                          "file:///app.js", 9, FALSE, 0x2000));
    for (guint i = 0; i < 5; i++, time += MS)
      hp_capture_writer_add_sample (w, time, 42, 0, a, 1000000);
    for (guint i = 0; i < 3; i++, time += MS)
      hp_capture_writer_add_sample (w, time, 42, 0, b, 1000000);
    g_assert_true (hp_capture_writer_finish (w, &error));
    g_assert_no_error (error);
  }

  gecko = export_to_string (capture, "firefox");
  counts = check_gecko (gecko, first_times, libraries);
  g_assert_cmpuint (g_hash_table_size (counts), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "main;(anonymous) [file:///app.js:3]")), ==, 5);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (counts, "main;(anonymous) [file:///app.js:9]")), ==, 3);
  g_assert_true (g_hash_table_contains (libraries, "perf-42.map"));
  g_assert_true (g_hash_table_contains (libraries, "node"));
}

static void
test_pprof (void)
{
  static const char * const hot[] = { "work", "other", "inl", "do_syscall", "main", NULL };
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autoptr(GHashTable) flat = NULL;

  write_capture (capture);
  flat = pprof_flat (dir, capture);
  assert_pprof_matches (flat, capture, hot);
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_pprof_recorded (void)
{
  static const char * const hot[] = { "mix_heavy", "mix_light", "hot_loop", "main", NULL };
  g_autofree char *dir = NULL;
  g_autofree char *capture = NULL;
  g_autoptr(GHashTable) flat = NULL;

  if (!it_require_perf_events ())
    return;
  dir = it_tmpdir_new ();
  capture = g_build_filename (dir, "inline.hotpath", NULL);
  it_record_workload ("inline-fp", capture);
  flat = pprof_flat (dir, capture);
  assert_pprof_matches (flat, capture, hot);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* pprof in and out: the same stacks, counts, inline frames and threads;
 * and a broken file is an error saying what is broken */
static void
test_pprof_import (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *pb = g_build_filename (dir, "app.pb.gz", NULL);
  g_autofree char *imported = g_build_filename (dir, "imported.hotpath", NULL);
  g_autofree char *original = NULL, *again = NULL, *contents = NULL;
  g_autoptr(ItResult) export = NULL, import = NULL;
  gsize size = 0;

  write_capture (capture);
  {
    const char *args[] = { "export", capture, "--format", "pprof", "-o", pb, NULL };
    export = it_run_cli (args);
  }
  g_assert_cmpint (export->status, ==, 0);
  {
    const char *args[] = { "import", pb, "-o", imported, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  original = export_folded (capture, "--folded-prefix", NULL, NULL);
  again = export_folded (imported, "--folded-prefix", NULL, NULL);
  g_assert_cmpstr (again, ==, original);

  /* broken files */
  g_assert_true (g_file_get_contents (pb, &contents, &size, NULL));
  {
    g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
    guint8 not_proto[64], gzipped[256];
    gsize read = 0, written = 0;
    struct {
      const char *name;
      const void *data;
      gsize       size;
      const char *message;
    } cases[] = {
      { "garbage.pb.gz", "\x1f\x8bnot gzip at all", 17, "bad gzip near byte" },
      { "truncated.pb.gz", contents, size / 2, "bad gzip: the compressed data ends early" },
      { "notproto.pb.gz", gzipped, 0, "bad protobuf at byte 0 of 64 (once inflated)" },
      { "empty.pb", "", 0, "empty" },
    };

    /* gzip that inflates to bytes that are no protobuf (field 0 is invalid) */
    memset (not_proto, 0, sizeof not_proto);
    g_assert_cmpint (g_converter_convert (G_CONVERTER (compressor), not_proto, sizeof not_proto, gzipped, sizeof gzipped,
                                          G_CONVERTER_INPUT_AT_END, &read, &written, NULL), ==, G_CONVERTER_FINISHED);
    cases[2].size = written;

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);
        g_autofree char *out = g_build_filename (dir, "broken.hotpath", NULL);
        g_autoptr(ItResult) result = NULL;
        const char *args[] = { "import", path, "-o", out, NULL };

        g_assert_true (g_file_set_contents (path, cases[i].data, cases[i].size, NULL));
        result = it_run_cli (args);
        g_assert_cmpint (result->status, ==, 1);
        if (strstr (result->err, cases[i].message) == NULL || strstr (result->err, path) == NULL)
          g_error ("%s: expected '%s' naming the file, got: %s", cases[i].name, cases[i].message, result->err);
        g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      }
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* An event counted in a unit pprof does not know (page faults): the
 * export says "count" of "page-faults", so go tool pprof prints numbers,
 * not "12page faults"; the import gives the unit back, and the same
 * counts and names. pprof's "File:" is the program, not the kernel. */
static void
test_pprof_counted_event (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "faults.hotpath", NULL);
  g_autofree char *pb = g_build_filename (dir, "faults.pb.gz", NULL);
  g_autofree char *imported = g_build_filename (dir, "imported.hotpath", NULL);
  g_autofree char *go = g_find_program_in_path ("go");
  g_autofree char *original = NULL, *again = NULL;
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (capture, &error);
    gint64 app, main_stack, leaf;

    g_assert_no_error (error);
    hp_capture_writer_set_metadata (w, HP_META_EVENT, "page-faults");
    hp_capture_writer_set_metadata (w, HP_META_EVENT_UNIT, "page faults");
    hp_capture_writer_set_metadata (w, HP_META_PERIOD, "1");
    hp_capture_writer_set_process (w, 10, "app");
    hp_capture_writer_set_thread (w, 10, 10, "app");
    /* the kernel's module first, and the program's file named apart from
     * its command (python3 runs python3.11) */
    hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
    app = hp_capture_writer_intern_module (w, "/usr/bin/app3.11", NULL, FALSE);
    main_stack = hp_capture_writer_intern_stack (w, 0,
                   hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "main", app, NULL, 0), NULL, 0, FALSE, 0x10));
    leaf = hp_capture_writer_intern_stack (w, main_stack,
             hp_capture_writer_intern_frame (w, hp_capture_writer_intern_function (w, "fill", app, NULL, 0), NULL, 0, FALSE, 0x20));
    for (guint i = 0; i < 1645; i++)
      hp_capture_writer_add_sample (w, 1000 + i, 10, 0, i % 5 ? leaf : main_stack, 1);
    g_assert_true (hp_capture_writer_finish (w, &error));
  }
  {
    const char *args[] = { "export", capture, "--format", "pprof", "-o", pb, NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
  }
  if (go != NULL)
    {
      const char *argv[] = { go, "tool", "pprof", "-top", pb, NULL };
      g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "HOME", dir, TRUE);
      g_autofree char *out = NULL;
      int status = 0;

      env = g_environ_setenv (env, "PPROF_TMPDIR", dir, TRUE);
      g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                                   &out, NULL, &status, NULL));
      g_test_message ("%s", out);
      g_assert_nonnull (strstr (out, "Type: page-faults"));
      /* pprof's program is the first mapping */
      g_assert_nonnull (strstr (out, "File: app3.11\n"));
      g_assert_nonnull (strstr (out, "100% of 1645 total\n"));
      g_assert_null (strstr (out, "1645page"));
    }
  {
    const char *args[] = { "import", pb, "-o", imported, NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
  }
  {
    const char *args[] = { "report", imported, NULL };
    g_autoptr(ItResult) res = it_run_cli (args);

    g_assert_cmpint (res->status, ==, 0);
    g_assert_nonnull (strstr (res->out, "# Event:     page-faults (unit: page faults), sampled every 1 page faults"));
  }
  original = export_folded (capture, NULL, NULL, NULL);
  again = export_folded (imported, NULL, NULL, NULL);
  g_assert_cmpstr (again, ==, original);
  g_assert_nonnull (strstr (original, "main;fill 1316\n"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* An import of @pb over the good file @out, with --force: refused with
 * @pb and @message in the error, and @out kept */
static void
assert_import_refused (const char *pb,
                       const char *out,
                       const char *message)
{
  const char *args[] = { "import", pb, "-o", out, "--force", NULL };
  g_autoptr(ItResult) result = NULL;
  g_autofree char *kept = NULL;

  g_assert_true (g_file_set_contents (out, "a good capture", -1, NULL));
  result = it_run_cli (args);
  g_test_message ("%s", result->err);
  g_assert_cmpint (result->status, ==, 1);
  g_assert_nonnull (strstr (result->err, pb));
  g_assert_nonnull (strstr (result->err, message));
  g_assert_true (g_file_get_contents (out, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "a good capture");
}

/* A pprof bomb: 24 KB of gzip that inflates to 24 MB of empty samples,
 * two bytes each on the wire and a hundred in memory once decoded: 1.2 GB
 * for protobuf-c to allocate, and 100 GB for a gzip of a megabyte. It is
 * refused once decoding has taken 24 times the protobuf's size, naming
 * the file; nothing is written, and a good file at the output stays. */
static void
test_pprof_import_bomb (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "bomb.pb.gz", NULL);
  g_autofree char *out = g_build_filename (dir, "bomb.hotpath", NULL);
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GByteArray) inflated = g_byte_array_new ();
  g_autoptr(GByteArray) gz = g_byte_array_new ();
  /* sample_type { type: 1 unit: 2 }, string_table "", "samples", "count" */
  static const guint8 head[] = "\x0a\x04\x08\x01\x10\x02" "\x32\x00" "\x32\x07samples" "\x32\x05count";
  gsize offset = 0;

  g_byte_array_append (inflated, head, sizeof head - 1);
  for (guint i = 0; i < 12 * 1000 * 1000; i++)
    g_byte_array_append (inflated, (const guint8 *) "\x12\x00", 2);
  for (;;)
    {
      guint8 buffer[1 << 16];
      gsize read = 0, written = 0;
      GConverterResult res = g_converter_convert (G_CONVERTER (compressor), inflated->data + offset,
                                                  inflated->len - offset, buffer, sizeof buffer,
                                                  G_CONVERTER_INPUT_AT_END, &read, &written, NULL);

      g_assert_cmpint (res, !=, G_CONVERTER_ERROR);
      offset += read;
      g_byte_array_append (gz, buffer, written);
      if (res == G_CONVERTER_FINISHED)
        break;
    }
  g_assert_true (g_file_set_contents (pb, (const char *) gz->data, gz->len, NULL));
  assert_import_refused (pb, out, "would take more than 549 MiB of memory");
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A pprof profile (not gzipped) of @n_samples samples, each of @n_ids
 * location ids that name one location of 1,000 inline lines of f */
static void
write_inline_pprof (const char *path,
                    guint       n_samples,
                    guint       n_ids)
{
  const char *strings[] = { "", "samples", "count", "f" };
  Perftools__Profiles__Profile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
  Perftools__Profiles__ValueType type = PERFTOOLS__PROFILES__VALUE_TYPE__INIT, *type_list[1] = { &type };
  Perftools__Profiles__Function function = PERFTOOLS__PROFILES__FUNCTION__INIT, *function_list[1] = { &function };
  Perftools__Profiles__Line line = PERFTOOLS__PROFILES__LINE__INIT;
  Perftools__Profiles__Location location = PERFTOOLS__PROFILES__LOCATION__INIT, *location_list[1] = { &location };
  Perftools__Profiles__Sample sample = PERFTOOLS__PROFILES__SAMPLE__INIT;
  g_autofree Perftools__Profiles__Sample **sample_list = g_new (Perftools__Profiles__Sample *, n_samples);
  g_autofree Perftools__Profiles__Line **lines = g_new (Perftools__Profiles__Line *, 1000);
  g_autofree guint64 *ids = g_new (guint64, n_ids);
  gint64 value = 1;
  g_autofree guint8 *packed = NULL;
  gsize size;

  type.type = 1;
  type.unit = 2;
  function.id = 1;
  function.name = function.system_name = 3;
  line.function_id = 1;
  for (guint i = 0; i < 1000; i++)
    lines[i] = &line;
  location.id = 1;
  location.n_line = 1000;
  location.line = lines;
  for (guint i = 0; i < n_ids; i++)
    ids[i] = 1;
  sample.n_location_id = n_ids;
  sample.location_id = ids;
  sample.n_value = 1;
  sample.value = &value;
  for (guint i = 0; i < n_samples; i++)
    sample_list[i] = &sample;
  profile.n_sample_type = 1;
  profile.sample_type = type_list;
  profile.n_sample = n_samples;
  profile.sample = sample_list;
  profile.n_location = 1;
  profile.location = location_list;
  profile.n_function = 1;
  profile.function = function_list;
  profile.n_string_table = G_N_ELEMENTS (strings);
  profile.string_table = (char **) strings;
  size = perftools__profiles__profile__get_packed_size (&profile);
  packed = g_malloc (size);
  perftools__profiles__profile__pack (&profile, packed);
  g_assert_true (g_file_set_contents (path, (const char *) packed, size, NULL));
}

/* A sample of 2,000 location ids, each naming one location of 1,000
 * inline lines: two million frames, refused with the file named, and the
 * good file at the output path kept */
static void
test_pprof_import_deep (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "deep.pb", NULL);
  g_autofree char *out = g_build_filename (dir, "deep.hotpath", NULL);

  write_inline_pprof (pb, 1, 2000);
  assert_import_refused (pb, out, "more than 1048576 frames");
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* Samples under that bound each, but many: 1,100 samples of one id of
 * that location, 11 kB naming 1.1 million frames. A thousand samples
 * that each named 10^6 frames were 100 times the time and stack rows of
 * a real profile of their size (a minute for 10 samples, 1.8 kB of
 * gzip), and without a bound; now the frames of all samples are at most
 * 16 a byte of the profile (or one sample's bound). */
static void
test_pprof_import_many_inline (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "inline.pb", NULL);
  g_autofree char *out = g_build_filename (dir, "inline.hotpath", NULL);
  const char *args[] = { "import", pb, "-o", out, "--force", NULL };
  g_autoptr(ItResult) result = NULL;

  write_inline_pprof (pb, 1100, 1);
  assert_import_refused (pb, out, "more than 1048576 frames in all, more than 16 for each of the profile's");

  /* a thousand of them are within the bound */
  write_inline_pprof (pb, 1000, 1);
  result = it_run_cli (args);
  g_assert_cmpint (result->status, ==, 0);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* The index of @text in @strings, added when missing */
static gint64
pprof_string_index (GPtrArray  *strings,
                    const char *text)
{
  for (guint i = 0; i < strings->len; i++)
    if (strcmp (strings->pdata[i], text) == 0)
      return i;
  g_ptr_array_add (strings, (gpointer) text);
  return strings->len - 1;
}

/* A pprof profile (not gzipped) of functions a, b and c, one location
 * each, whose sample i has the values @values[i] of the @n_types sample
 * types @types ("type/unit" each); @period_type likewise, and
 * @default_type or NULL. */
static void
write_pprof (const char         *path,
             const char * const *types,
             guint               n_types,
             const gint64        values[3][4],
             const char         *period_type,
             gint64              period,
             const char         *default_type)
{
  static const char *const names[] = { "a", "b", "c" };
  g_autoptr(GPtrArray) strings = g_ptr_array_new ();
  g_auto(GStrv) period_parts = g_strsplit (period_type, "/", 2);
  Perftools__Profiles__Profile profile = PERFTOOLS__PROFILES__PROFILE__INIT;
  Perftools__Profiles__ValueType value_types[4], period_value = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
  Perftools__Profiles__ValueType *type_list[4];
  Perftools__Profiles__Function functions[3], *function_list[3];
  Perftools__Profiles__Location locations[3], *location_list[3];
  Perftools__Profiles__Line lines[3], *line_list[3];
  Perftools__Profiles__Sample samples[3], *sample_list[3];
  guint64 location_ids[3];
  gint64 sample_values[3][4];
  GStrv parts[4] = { NULL };
  g_autofree guint8 *packed = NULL;
  gsize size;

  g_assert_cmpuint (n_types, <=, 4);
  g_ptr_array_add (strings, (gpointer) "");
  for (guint i = 0; i < n_types; i++)
    {
      parts[i] = g_strsplit (types[i], "/", 2);
      perftools__profiles__value_type__init (&value_types[i]);
      value_types[i].type = pprof_string_index (strings, parts[i][0]);
      value_types[i].unit = pprof_string_index (strings, parts[i][1]);
      type_list[i] = &value_types[i];
    }
  for (guint i = 0; i < 3; i++)
    {
      perftools__profiles__function__init (&functions[i]);
      functions[i].id = i + 1;
      functions[i].name = functions[i].system_name = pprof_string_index (strings, names[i]);
      function_list[i] = &functions[i];
      perftools__profiles__line__init (&lines[i]);
      lines[i].function_id = i + 1;
      line_list[i] = &lines[i];
      perftools__profiles__location__init (&locations[i]);
      locations[i].id = i + 1;
      locations[i].n_line = 1;
      locations[i].line = &line_list[i];
      location_list[i] = &locations[i];
      location_ids[i] = i + 1;
      memcpy (sample_values[i], values[i], sizeof values[i]);
      perftools__profiles__sample__init (&samples[i]);
      samples[i].n_location_id = 1;
      samples[i].location_id = &location_ids[i];
      samples[i].n_value = n_types;
      samples[i].value = sample_values[i];
      sample_list[i] = &samples[i];
    }
  period_value.type = pprof_string_index (strings, period_parts[0]);
  period_value.unit = pprof_string_index (strings, period_parts[1]);
  if (default_type != NULL)
    profile.default_sample_type = pprof_string_index (strings, default_type);
  profile.n_sample_type = n_types;
  profile.sample_type = type_list;
  profile.n_sample = 3;
  profile.sample = sample_list;
  profile.n_location = 3;
  profile.location = location_list;
  profile.n_function = 3;
  profile.function = function_list;
  profile.n_string_table = strings->len;
  profile.string_table = (char **) strings->pdata;
  profile.period_type = &period_value;
  profile.period = period;
  size = perftools__profiles__profile__get_packed_size (&profile);
  packed = g_malloc (size);
  perftools__profiles__profile__pack (&profile, packed);
  g_assert_true (g_file_set_contents (path, (const char *) packed, size, NULL));
  for (guint i = 0; i < n_types; i++)
    g_strfreev (parts[i]);
}

/* A profile shaped as Go's heap profile (net/http/pprof's /debug/pprof/heap):
 * four sample types, none of them samples, none in nanoseconds; pprof
 * shows the last, inuse_space, unless default_sample_type names another.
 *   a: alloc 10 objects, 1000 bytes; in use 0, 0
 *   b: alloc 5, 500; in use 5, 500
 *   c: alloc 1, 100; in use 1, 300
 * so in use b has 500 of 800 bytes, c 300, a nothing; allocated, a has
 * 1000 of 1600 bytes. */
static void
write_heap_pprof (const char *path,
                  const char *default_type)
{
  static const char *const types[] = { "alloc_objects/count", "alloc_space/bytes",
                                       "inuse_objects/count", "inuse_space/bytes" };
  static const gint64 values[3][4] = { { 10, 1000, 0, 0 }, { 5, 500, 5, 500 }, { 1, 100, 1, 300 } };

  write_pprof (path, types, 4, values, "space/bytes", 524288, default_type);
}

/* `report --format json` of @capture (@event, or its first): the event's
 * name and unit, and each function's self weight */
static GHashTable *
report_self_weights (const char  *capture,
                     const char  *event,
                     char       **name,
                     char       **unit)
{
  const char *args[] = { "report", capture, "--format", "json", event ? "--event" : NULL, event, NULL };
  g_autoptr(ItResult) r = it_run_cli (args);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  GHashTable *weights = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *root;
  JsonArray *functions;

  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r->out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  *name = g_strdup (json_object_get_string_member (root, "event"));
  *unit = g_strdup (json_object_get_string_member (root, "unit"));
  functions = json_object_get_array_member (root, "functions");
  for (guint i = 0; i < json_array_get_length (functions); i++)
    {
      JsonObject *f = json_array_get_object_element (functions, i);

      g_hash_table_insert (weights, g_strdup (json_object_get_string_member (f, "name")),
                           GINT_TO_POINTER ((gint) json_object_get_int_member (f, "self_weight")));
    }
  return weights;
}

/* Every sample type of a pprof profile is an event of the import, pprof's
 * default first, each counting its own values: a Go heap profile reads
 * as go tool pprof shows it (in-use bytes), not as its first type's
 * object counts taken for samples */
static void
test_pprof_import_sample_types (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "heap.pprof", NULL);
  g_autofree char *capture = g_build_filename (dir, "heap.hotpath", NULL);
  static const struct {
    const char *default_type;
    const char *event;
    const char *expect_event;
    const char *unit;
    gint        a, b, c;
  } cases[] = {
    { NULL, NULL, "inuse_space", "bytes", 0, 500, 300 },
    { NULL, "alloc_space", "alloc_space", "bytes", 1000, 500, 100 },
    { NULL, "inuse_objects", "inuse_objects", "count", 0, 5, 1 },
    { "alloc_objects", NULL, "alloc_objects", "count", 10, 5, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "import", pb, "-o", capture, "--force", NULL };
      g_autoptr(ItResult) import = NULL;
      g_autoptr(GHashTable) weights = NULL;
      g_autofree char *event = NULL, *unit = NULL;

      write_heap_pprof (pb, cases[i].default_type);
      import = it_run_cli (args);
      g_assert_cmpint (import->status, ==, 0);
      weights = report_self_weights (capture, cases[i].event, &event, &unit);
      g_assert_cmpstr (event, ==, cases[i].expect_event);
      g_assert_cmpstr (unit, ==, cases[i].unit);
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (weights, "a")), ==, cases[i].a);
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (weights, "b")), ==, cases[i].b);
      g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (weights, "c")), ==, cases[i].c);
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* --folded-prefix names each process as the kernel names it: in a
 * system-wide capture a kernel thread's name has a '/' that is no path
 * (ksoftirqd/0 was written "0 (14);ksoftirqd/0 (14);…") and a program's
 * may have a space ("Web Content" was "Web"). */
static void
test_folded_prefix_names (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "system.hotpath", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(HpCaptureWriter) w = hp_capture_writer_new (capture, &error);
  g_autofree char *folded = NULL;
  gint64 kernel, stack;

  g_assert_no_error (error);
  hp_capture_writer_set_metadata (w, HP_META_EVENT, "cpu-clock");
  hp_capture_writer_set_metadata (w, HP_META_EVENT_UNIT, "ns");
  hp_capture_writer_set_process (w, 14, "ksoftirqd/0");
  hp_capture_writer_set_thread (w, 14, 14, "ksoftirqd/0");
  hp_capture_writer_set_process (w, 300, "Web Content");
  hp_capture_writer_set_thread (w, 300, 300, "Web Content");
  hp_capture_writer_set_process (w, 400, "/usr/bin/app --flag");
  hp_capture_writer_set_thread (w, 400, 400, "app");
  kernel = hp_capture_writer_intern_module (w, "[kernel.kallsyms]", NULL, TRUE);
  stack = hp_capture_writer_intern_stack (w, 0, hp_capture_writer_intern_frame (
    w, hp_capture_writer_intern_function (w, "run_ksoftirqd", kernel, NULL, 0), NULL, 0, FALSE, 0x10));
  hp_capture_writer_add_sample (w, 1000, 14, 0, stack, 1000000);
  hp_capture_writer_add_sample (w, 2000, 300, 0, stack, 1000000);
  hp_capture_writer_add_sample (w, 3000, 400, 0, stack, 1000000);
  g_assert_true (hp_capture_writer_finish (w, &error));
  g_assert_no_error (error);

  folded = export_folded (capture, "--folded-prefix", NULL, NULL);
  g_assert_cmpstr (folded, ==,
                   "Web Content (300);Web Content (300);run_ksoftirqd_[k] 1\n"
                   "app (400);app (400);run_ksoftirqd_[k] 1\n"
                   "ksoftirqd/0 (14);ksoftirqd/0 (14);run_ksoftirqd_[k] 1\n");
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A heap profile's bytes stay bytes in the formats that know the unit:
 * speedscope's "bytes" (it was "none", so 800 read as a count) and the
 * Firefox Profiler's weight type "bytes" (it was "samples"). */
static void
test_export_bytes (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "heap.pprof", NULL);
  g_autofree char *capture = g_build_filename (dir, "heap.hotpath", NULL);
  g_autoptr(ItResult) import = NULL;
  g_autoptr(ItResult) speedscope = NULL;
  g_autoptr(ItResult) firefox = NULL;
  g_autoptr(JsonObject) ss = NULL;
  g_autoptr(JsonObject) ff = NULL;
  JsonObject *profile, *samples;
  JsonArray *weights;
  gint64 total = 0;

  write_heap_pprof (pb, NULL);
  import = it_run_cli ((const char *[]) { "import", pb, "-o", capture, NULL });
  g_assert_cmpint (import->status, ==, 0);

  speedscope = it_run_cli ((const char *[]) { "export", capture, "--format", "speedscope", "-o", "-", NULL });
  g_assert_cmpint (speedscope->status, ==, 0);
  ss = parse_object (speedscope->out);
  profile = json_array_get_object_element (json_object_get_array_member (ss, "profiles"), 0);
  g_assert_cmpstr (json_object_get_string_member (profile, "unit"), ==, "bytes");
  weights = json_object_get_array_member (profile, "weights");
  for (guint i = 0; i < json_array_get_length (weights); i++)
    total += json_array_get_int_element (weights, i);
  g_assert_cmpint (total, ==, 800);
  g_assert_cmpint (json_object_get_int_member (profile, "endValue"), ==, 800);

  firefox = it_run_cli ((const char *[]) { "export", capture, "--format", "firefox", "-o", "-", NULL });
  g_assert_cmpint (firefox->status, ==, 0);
  ff = parse_object (firefox->out);
  samples = json_object_get_object_member (json_array_get_object_element (json_object_get_array_member (ff, "threads"),
                                                                          0), "samples");
  g_assert_cmpstr (json_object_get_string_member (samples, "weightType"), ==, "bytes");
  weights = json_object_get_array_member (samples, "weight");
  total = 0;
  for (guint i = 0; i < json_array_get_length (weights); i++)
    total += json_array_get_int_element (weights, i);
  g_assert_cmpint (total, ==, 800);
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A Go block profile (contentions/count, delay/nanoseconds, sampled at
 * every contention): a waits once for 600 ms, b 200 times for 250 ms in
 * all, c once for 150 ms. go tool pprof shows the delay: a 60 %, b 25 %,
 * c 15 %; its 202 contentions are no clock's samples (b has 99 % of them) */
static void
test_pprof_import_block (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *pb = g_build_filename (dir, "block.pprof", NULL);
  g_autofree char *capture = g_build_filename (dir, "block.hotpath", NULL);
  static const char *const types[] = { "contentions/count", "delay/nanoseconds" };
  static const gint64 values[3][4] = { { 1, 600000000 }, { 200, 250000000 }, { 1, 150000000 } };
  const char *import_args[] = { "import", pb, "-o", capture, NULL };
  const char *report_args[] = { "report", capture, NULL };
  g_autoptr(ItResult) import = NULL, report = NULL;

  write_pprof (pb, types, 2, values, "contentions/count", 1, NULL);
  import = it_run_cli (import_args);
  g_assert_cmpint (import->status, ==, 0);
  report = it_run_cli (report_args);
  g_assert_cmpint (report->status, ==, 0);
  g_test_message ("%s", report->out);
  g_assert_nonnull (strstr (report->out, "# Event:     delay (unit: ns)"));
  g_assert_true (g_regex_match_simple ("^ +60\\.00% .* a +$", report->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +25\\.00% .* b +$", report->out, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +15\\.00% .* c +$", report->out, G_REGEX_MULTILINE, 0));
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_folded_round_trip (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "app.hotpath", NULL);
  g_autofree char *folded = g_build_filename (dir, "app.folded", NULL);
  g_autofree char *imported = g_build_filename (dir, "app2.hotpath", NULL);
  g_autofree char *all = NULL, *again = NULL, *tid = NULL, *prefixed = NULL, *early = NULL;
  g_autoptr(ItResult) import = NULL, report = NULL;
  g_autoptr(ItCapture) cap = NULL;
  gboolean seen_inline = FALSE, seen_kernel = FALSE;

  write_capture (capture);
  all = export_folded (capture, NULL, NULL, NULL);
  g_assert_cmpstr (all, ==, expected_all);

  /* the filters of report */
  tid = export_folded (capture, "--tid", "11", NULL);
  g_assert_cmpstr (tid, ==, "main;evil" FFFD "x" FFFD "name" FFFD " 5\nmain;work;inl_[i] 7\n");
  prefixed = export_folded (capture, "--folded-prefix", "--tid", "11");
  g_assert_cmpstr (prefixed, ==,
                   "app (10);worker (11);main;evil" FFFD "x" FFFD "name" FFFD " 5\n"
                   "app (10);worker (11);main;work;inl_[i] 7\n");
  early = export_folded (capture, "--to", "0.05", NULL);
  g_assert_cmpstr (early, ==, "main;other 40\n");

  /* import, and export again: the same bytes */
  g_assert_true (g_file_set_contents (folded, all, -1, NULL));
  {
    const char *args[] = { "import", folded, "-o", imported, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  g_assert_nonnull (strstr (import->err, "117 samples"));
  again = export_folded (imported, NULL, NULL, NULL);
  g_assert_cmpstr (again, ==, all);

  cap = it_capture_open (imported);
  g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, 117);
  for (guint i = 1; i < cap->data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (cap->data->frames, HpCaptureFrame, i);
      const HpCaptureFunction *fn = &g_array_index (cap->data->functions, HpCaptureFunction, f->function_id);

      if (strcmp (fn->name, "inl") == 0)
        seen_inline = f->is_inline;
      if (strcmp (fn->name, "do_syscall") == 0)
        seen_kernel = fn->module_id != 0
          && g_array_index (cap->data->modules, HpCaptureModule, fn->module_id).is_kernel;
    }
  g_assert_true (seen_inline);
  g_assert_true (seen_kernel);
  {
    g_autofree char *lacks = hp_capture_get_metadata (cap->capture, HP_META_LACKS);

    g_assert_nonnull (lacks);
    g_assert_nonnull (strstr (lacks, "times"));
  }
  /* the report says what the import could not hold */
  {
    const char *args[] = { "report", imported, NULL };
    report = it_run_cli (args);
  }
  g_assert_cmpint (report->status, ==, 0);
  g_assert_nonnull (strstr (report->out, "imported from folded stacks, which has no addresses"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* py-spy raw and async-profiler collapsed, found by content under any name,
 * and read by report (through the cache) as well as import */
static void
test_folded_dialects (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *text = g_build_filename (dir, "stacks.txt", NULL);
  g_autofree char *capture = g_build_filename (dir, "stacks.hotpath", NULL);
  g_autoptr(ItResult) import = NULL, report = NULL;
  g_autoptr(ItCapture) cap = NULL;
  gboolean seen_py = FALSE, seen_java_inline = FALSE, seen_thread = FALSE;

  /* a byte order mark first, as Windows tools write one */
  g_assert_true (g_file_set_contents (text,
                                      "\xef\xbb\xbfThread 0x7f (active);<module> (x.py:3);foo (x.py:10) 5\r\n"
                                      "\n"
                                      "java/lang/Thread.run_[j];Foo.bar_[i]\t3\n", -1, NULL));
  {
    const char *args[] = { "import", text, "-o", capture, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  cap = it_capture_open (capture);
  g_assert_cmpuint (hp_profile_get_n_samples (cap->profile), ==, 8);
  for (guint i = 1; i < cap->data->frames->len; i++)
    {
      const HpCaptureFrame *f = &g_array_index (cap->data->frames, HpCaptureFrame, i);
      const HpCaptureFunction *fn = &g_array_index (cap->data->functions, HpCaptureFunction, f->function_id);

      if (strcmp (fn->name, "foo") == 0)
        seen_py = g_strcmp0 (f->file, "x.py") == 0 && f->line == 10;
      if (strcmp (fn->name, "Foo.bar") == 0)
        seen_java_inline = f->is_inline;
      if (strcmp (fn->name, "Thread 0x7f (active)") == 0)
        seen_thread = TRUE;
    }
  g_assert_true (seen_thread);
  g_assert_true (seen_py);
  g_assert_true (seen_java_inline);

  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  {
    const char *args[] = { "report", text, NULL };
    report = it_run_cli (args);
  }
  g_assert_cmpint (report->status, ==, 0);
  g_assert_nonnull (strstr (report->out, "Foo.bar"));
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A count is a count, not a row per sample: a 20-byte folded file that
 * says 199999999 samples once wrote 200 million rows (2.8 GB, minutes).
 * Every reader (report, flamegraph, diff, export, and pprof back in) sees
 * the counts; the capture holds none of them as rows. */
static void
test_huge_counts (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *folded = g_build_filename (dir, "huge.folded", NULL);
  g_autofree char *capture = g_build_filename (dir, "huge.hotpath", NULL);
  g_autofree char *pb = g_build_filename (dir, "huge.pb.gz", NULL);
  g_autofree char *again = g_build_filename (dir, "again.hotpath", NULL);
  g_autofree char *svg = g_build_filename (dir, "huge.svg", NULL);
  g_autofree char *exported = NULL, *round_trip = NULL;
  const char *text = "main;x 199999999\nmain;y;z 3000000000000\n";
  g_autoptr(ItResult) import = NULL, report = NULL, flame = NULL, diff = NULL, export = NULL, reimport = NULL;

  g_assert_true (g_file_set_contents (folded, text, -1, NULL));
  {
    const char *args[] = { "import", folded, "-o", capture, NULL };
    import = it_run_cli (args);
  }
  g_assert_cmpint (import->status, ==, 0);
  g_assert_cmpint (it_count_sample_rows (capture), <=, 2);
  g_assert_cmpint (it_json_samples (capture), ==, G_GINT64_CONSTANT (3000199999999));
  exported = export_folded (capture, NULL, NULL, NULL);
  g_assert_cmpstr (exported, ==, text);

  {
    const char *args[] = { "report", capture, "--limit", "3", NULL };
    report = it_run_cli (args);
  }
  g_assert_cmpint (report->status, ==, 0);
  g_test_message ("%s", report->out);
  g_assert_nonnull (strstr (report->out, "z"));
  /* no times to cut: a range is refused, not all or nothing */
  {
    const char *args[] = { "report", capture, "--to", "1", NULL };
    g_autoptr(ItResult) range = it_run_cli (args);

    g_assert_cmpint (range->status, ==, 1);
    g_assert_nonnull (strstr (range->err, "has no sample times (imported from folded stacks)"));
  }
  {
    const char *args[] = { "flamegraph", capture, "-o", svg, NULL };
    flame = it_run_cli (args);
  }
  g_assert_cmpint (flame->status, ==, 0);
  {
    const char *args[] = { "diff", capture, capture, NULL };
    diff = it_run_cli (args);
  }
  g_assert_cmpint (diff->status, ==, 0);

  /* pprof out and in: the same counts, still no rows */
  {
    const char *args[] = { "export", capture, "--format", "pprof", "-o", pb, NULL };
    export = it_run_cli (args);
  }
  g_assert_cmpint (export->status, ==, 0);
  {
    const char *args[] = { "import", pb, "-o", again, NULL };
    reimport = it_run_cli (args);
  }
  g_assert_cmpint (reimport->status, ==, 0);
  g_assert_cmpint (it_count_sample_rows (again), <=, 2);
  round_trip = export_folded (again, NULL, NULL, NULL);
  g_assert_cmpstr (round_trip, ==, text);
  g_clear_pointer (&dir, it_tmpdir_free);
}

static void
test_folded_errors (void)
{
  static const struct {
    const char *content;
    const char *message;
  } cases[] = {
    { "a;b 3\nno_count_here\n", ":2: no sample count" },
    { "a;b -4\n", ":1: the count -4 is negative" },
    { "a;b 3\nc;d x12\n", ":2: no sample count: 'x12'" },
    { "a 1\nb;c 2.5\n", ":2: no sample count: '2.5'" },
    { "a 1\n\nb\xff 2\n", ":3: not valid UTF-8" },
    { "a 99999999999999999999999\n", ":1: the count 99999999999999999999999 takes the file past" },
    { "a 4611686018427387903\nb 2\n", ":2: the count 2 takes the file past" },
    { "  7\n", ":1: a count without a stack" },
    { "", "empty" },
    { "\n  \n", "empty" },
  };
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *out = g_build_filename (dir, "out.hotpath", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad%u.folded", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(ItResult) result = NULL;

      g_assert_true (g_file_set_contents (path, cases[i].content, -1, NULL));
      {
        const char *args[] = { "import", path, "-o", out, NULL };
        result = it_run_cli (args);
      }
      g_assert_cmpint (result->status, ==, 1);
      if (strstr (result->err, cases[i].message) == NULL || strstr (result->err, path) == NULL)
        g_error ("case %u: expected '%s' naming %s, got: %s", i, cases[i].message, path, result->err);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
  g_clear_pointer (&dir, it_tmpdir_free);
}

/* A sample time below 0 (no clock Hotpath records or imports gives one)
 * marks the capture corrupt wherever times are read, with one message
 * that names the file, the table and the row: the exports that write
 * times and report --from. Commands that never read a time (report,
 * folded, pprof) do not look for it: a scan of every sample would cost
 * report half again its CPU on a 1M-sample capture (0.08 s of 0.15 s). */
static void
test_negative_time (void)
{
  g_autofree char *dir = it_tmpdir_new ();
  g_autofree char *capture = g_build_filename (dir, "negative.hotpath", NULL);
  g_autofree char *out = g_build_filename (dir, "out", NULL);
  const char *formats[] = { "speedscope", "firefox" };

  it_write_small_capture (capture, NULL);
  hp_test_sql (capture, "UPDATE samples SET time = -5 WHERE rowid = 3");
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      const char *args[] = { "export", capture, "--format", formats[i], "-o", out, NULL };
      g_autoptr(ItResult) r = it_run_cli (args);

      g_assert_cmpint (r->status, ==, 1);
      g_assert_nonnull (strstr (r->err, capture));
      g_assert_nonnull (strstr (r->err, "corrupt capture: samples row 3 is out of range (time -5"));
    }
  {
    const char *args[] = { "report", capture, "--from", "0", NULL };
    g_autoptr(ItResult) r = it_run_cli (args);

    g_assert_cmpint (r->status, ==, 1);
    g_assert_nonnull (strstr (r->err, "corrupt capture: samples row 3 is out of range (time -5"));
  }
  {
    const char *args[] = { "report", capture, NULL };
    g_autoptr(ItResult) r = it_run_cli (args);

    g_assert_cmpint (r->status, ==, 0);
  }
  g_clear_pointer (&dir, it_tmpdir_free);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/cli/export-folded-round-trip", test_folded_round_trip);
  g_test_add_func ("/integration/cli/export-negative-time", test_negative_time);
  g_test_add_func ("/integration/cli/import-folded-dialects", test_folded_dialects);
  g_test_add_func ("/integration/cli/import-folded-errors", test_folded_errors);
  g_test_add_func ("/integration/cli/import-huge-counts", test_huge_counts);
  g_test_add_func ("/integration/cli/export-speedscope-firefox", test_json_formats);
  g_test_add_func ("/integration/cli/export-firefox-same-names", test_gecko_same_names);
  g_test_add_func ("/integration/cli/export-pprof", test_pprof);
  g_test_add_func ("/integration/cli/export-pprof-recorded", test_pprof_recorded);
  g_test_add_func ("/integration/cli/import-pprof", test_pprof_import);
  g_test_add_func ("/integration/cli/export-bytes", test_export_bytes);
  g_test_add_func ("/integration/cli/export-folded-prefix-names", test_folded_prefix_names);
  g_test_add_func ("/integration/cli/import-pprof-counted", test_pprof_counted_event);
  g_test_add_func ("/integration/cli/import-pprof-bomb", test_pprof_import_bomb);
  g_test_add_func ("/integration/cli/import-pprof-deep", test_pprof_import_deep);
  g_test_add_func ("/integration/cli/import-pprof-many-inline", test_pprof_import_many_inline);
  g_test_add_func ("/integration/cli/import-pprof-sample-types", test_pprof_import_sample_types);
  g_test_add_func ("/integration/cli/import-pprof-block", test_pprof_import_block);
  return g_test_run ();
}
