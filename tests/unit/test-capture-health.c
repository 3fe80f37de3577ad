/* test-capture-health.c - one judgement of a capture's limits for both front ends
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * On the 511 samples of test_data_new_example() (test-capture-data.h),
 * each threshold is crossed by one sample, from both sides.
 */

#include "config.h"

#include <signal.h>
#include <string.h>

#include "analysis/hp-capture-health.h"
#include "store/hp-capture-keys.h"
#include "test-capture-data.h"

#define EXAMPLE_SAMPLES 511

typedef struct {
  const char *key;
  const char *value;
} Meta;

/* The judgement of the example with @meta (NULL-terminated) and, when
 * @unnamed is a function id, that function named @name (an address when
 * NULL). */
static void
judge_named (const Meta      *meta,
             gint64           unnamed,
             const char      *name,
             HpCaptureHealth *health)
{
  g_autoptr(TestData) data = test_data_new_example ();
  g_autoptr(HpProfile) profile = NULL;

  g_hash_table_insert (data->metadata, (char *) HP_META_COMPLETE, (char *) "1");
  for (guint i = 0; meta != NULL && meta[i].key != NULL; i++)
    g_hash_table_insert (data->metadata, (char *) meta[i].key, (char *) meta[i].value);
  if (unnamed > 0)
    g_array_index (data->functions, HpCaptureFunction, unnamed).name = (char *) (name ? name : "app+0x1a2c");
  profile = hp_profile_new (data, NULL);
  hp_capture_health_judge (health, profile, EXAMPLE_SAMPLES);
}

static void
judge (const Meta      *meta,
       gint64           unnamed,
       HpCaptureHealth *health)
{
  judge_named (meta, unnamed, NULL, health);
}

static void
test_fine (void)
{
  HpCaptureHealth health;

  judge (NULL, 0, &health);
  g_assert_cmpuint (health.samples, ==, EXAMPLE_SAMPLES);
  g_assert_cmpuint (health.shown_samples, ==, EXAMPLE_SAMPLES);
  g_assert_false (health.lost_many);
  g_assert_false (health.truncated_many);
  g_assert_false (health.stack_copy_small);
  g_assert_false (health.cut_short);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_FINE);
  g_assert_false (hp_capture_health_is_worrying (&health));
}

/* Lost: a share of the samples taken, kept + lost: 5 of 516 is under
 * 1 %, 6 of 517 over */
static void
test_lost (void)
{
  const Meta under[] = { { HP_META_LOST_SAMPLES, "5" }, { NULL } };
  const Meta over[] = { { HP_META_LOST_SAMPLES, "6" }, { NULL } };
  HpCaptureHealth health;

  judge (under, 0, &health);
  g_assert_cmpuint (health.lost, ==, 5);
  g_assert_false (health.lost_many);
  judge (over, 0, &health);
  g_assert_true (health.lost_many);
  g_assert_true (hp_capture_health_is_worrying (&health));
}

/* Truncated: 51 of 511 is under 10 %, 52 over */
static void
test_truncated (void)
{
  const Meta under[] = { { HP_META_TRUNCATED_STACKS, "51" }, { NULL } };
  const Meta over[] = { { HP_META_TRUNCATED_STACKS, "52" }, { NULL } };
  HpCaptureHealth health;

  judge (under, 0, &health);
  g_assert_false (health.truncated_many);
  g_assert_false (hp_capture_health_is_worrying (&health));
  judge (over, 0, &health);
  g_assert_true (health.truncated_many);
  g_assert_true (hp_capture_health_is_worrying (&health));
}

/* A bigger stack copy is suggested only for DWARF stacks that ended with
 * their copy: 16 of 511 is 3.1 %, 15 is 2.9 % */
static void
test_stack_copy (void)
{
  const Meta by_copy[] = { { HP_META_CALL_GRAPH, "dwarf" }, { HP_META_TRUNCATED_STACKS, "40" },
                           { HP_META_TRUNCATED_STACK_COPY, "16" }, { NULL } };
  const Meta other_cause[] = { { HP_META_CALL_GRAPH, "dwarf" }, { HP_META_TRUNCATED_STACKS, "40" },
                               { HP_META_TRUNCATED_STACK_COPY, "15" }, { NULL } };
  const Meta unknown_cause[] = { { HP_META_CALL_GRAPH, "dwarf" }, { HP_META_TRUNCATED_STACKS, "16" }, { NULL } };
  const Meta frame_pointers[] = { { HP_META_CALL_GRAPH, "fp" }, { HP_META_TRUNCATED_STACKS, "40" },
                                  { HP_META_TRUNCATED_STACK_COPY, "40" }, { NULL } };
  HpCaptureHealth health;

  judge (by_copy, 0, &health);
  g_assert_true (health.stack_copy_small);
  g_assert_cmpuint (health.stack_copy_ended, ==, 16);
  judge (other_cause, 0, &health);
  g_assert_false (health.stack_copy_small);
  judge (unknown_cause, 0, &health);
  g_assert_true (health.stack_copy_small);
  g_assert_cmpuint (health.stack_copy_ended, ==, 16);
  judge (frame_pointers, 0, &health);
  g_assert_false (health.stack_copy_small);
}

/* Code without symbols, in samples: main's 1 (0.2 %) is fine, bar's 8
 * (1.6 %) worth a note, syscall's 96 (18.8 %) a warning */
static void
test_unsymbolized (void)
{
  HpCaptureHealth health;

  judge (NULL, EX_MAIN, &health);
  g_assert_cmpuint (health.unsymbolized, ==, 1);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_FINE);
  judge (NULL, EX_BAR, &health);
  g_assert_cmpuint (health.unsymbolized, ==, 8);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_NOTE);
  g_assert_false (hp_capture_health_is_worrying (&health));
  judge (NULL, EX_SYSCALL, &health);
  g_assert_cmpuint (health.unsymbolized, ==, 96);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_WARNING);
  g_assert_true (hp_capture_health_is_worrying (&health));
  /* a pprof location without lines is imported as its address alone:
   * 100 % of such a profile said "Without symbols: none" */
  judge_named (NULL, EX_SYSCALL, "0x401000", &health);
  g_assert_cmpuint (health.unsymbolized, ==, 96);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_WARNING);
}

static void
test_cut_short (void)
{
  const Meta incomplete[] = { { HP_META_COMPLETE, "0" }, { NULL } };
  HpCaptureHealth health;

  judge (incomplete, 0, &health);
  g_assert_true (health.cut_short);
  g_assert_true (hp_capture_health_is_worrying (&health));
}

/* One vocabulary for what symbols could not be had: symbol_notes, and
 * symbol_warnings of captures written before the two were one key. */
static void
test_symbol_notes (void)
{
  const Meta current[] = { { HP_META_SYMBOL_NOTES, "The vDSO is nowhere.\n\n/tmp/perf-1.map: 2 bad lines." }, { NULL } };
  const Meta old[] = { { HP_META_SYMBOL_WARNINGS_OLD, "/tmp/perf-2.map: 1 bad line." }, { NULL } };
  const Meta both[] = { { HP_META_SYMBOL_NOTES, "The vDSO is nowhere." },
                        { HP_META_SYMBOL_WARNINGS_OLD, "/tmp/perf-2.map: 1 bad line." }, { NULL } };
  HpCaptureHealth health;
  g_auto(GStrv) none = NULL;
  g_auto(GStrv) from_current = NULL;
  g_auto(GStrv) from_old = NULL;
  g_auto(GStrv) from_both = NULL;

  judge (NULL, 0, &health);
  none = hp_capture_health_symbol_notes (&health);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  judge (current, 0, &health);
  from_current = hp_capture_health_symbol_notes (&health);
  g_assert_cmpuint (g_strv_length (from_current), ==, 2);
  g_assert_cmpstr (from_current[0], ==, "The vDSO is nowhere.");
  g_assert_cmpstr (from_current[1], ==, "/tmp/perf-1.map: 2 bad lines.");

  judge (old, 0, &health);
  from_old = hp_capture_health_symbol_notes (&health);
  g_assert_cmpuint (g_strv_length (from_old), ==, 1);
  g_assert_cmpstr (from_old[0], ==, "/tmp/perf-2.map: 1 bad line.");

  judge (both, 0, &health);
  from_both = hp_capture_health_symbol_notes (&health);
  g_assert_cmpuint (g_strv_length (from_both), ==, 2);
  g_assert_cmpstr (from_both[0], ==, "The vDSO is nowhere.");
  g_assert_cmpstr (from_both[1], ==, "/tmp/perf-2.map: 1 bad line.");
}

/* The advice for stacks cut at run-time compiled code asks for the flag
 * that keeps frame pointers only of a runtime the command ran without
 * it; a command that names no runtime gets both. */
static char *
jit_advice (const char *command)
{
  const Meta meta[] = { { HP_META_TRUNCATED_AT_JIT, "6" }, { HP_META_COMMAND, command }, { NULL } };
  HpCaptureHealth health;

  judge (command != NULL ? meta : meta + 1, 0, &health);
  if (command == NULL)
    health.truncated_at_jit = 6;
  return hp_capture_health_jit_advice (&health);
}

static void
assert_advice (const char *command,
               const char *wants,
               const char *not_wants)
{
  g_autofree char *advice = jit_advice (command);

  g_test_message ("%s: %s", command, advice);
  g_assert_nonnull (advice);
  g_assert_nonnull (strstr (advice, wants));
  if (not_wants != NULL)
    g_assert_null (strstr (advice, not_wants));
}

static void
test_jit_advice (void)
{
  const Meta none[] = { { HP_META_COMMAND, "node x.js" }, { NULL } };
  HpCaptureHealth health;

  judge (none, 0, &health);
  g_assert_null (hp_capture_health_jit_advice (&health));

  assert_advice ("node --perf-basic-prof x.js",
                 "Run node with --interpreted-frames-native-stack,", "java");
  assert_advice ("/usr/bin/java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp . Main",
                 "Run java with -XX:+PreserveFramePointer,", "node");
  /* the flag given: no advice to give it again, but why stacks still end */
  assert_advice ("node --perf-basic-prof --interpreted-frames-native-stack x.js",
                 "already (node with --interpreted-frames-native-stack)", "Run ");
  assert_advice ("/usr/lib/jvm/java-17-openjdk-amd64/bin/java -XX:+PreserveFramePointer -cp . Main",
                 "already (java with -XX:+PreserveFramePointer)", "Run ");
  /* V8's spelling with '_', through the environment, under perf record */
  assert_advice ("perf record -g nodejs --interpreted_frames_native_stack x.js", "already", "Run ");
  assert_advice ("env 'NODE_OPTIONS=--perf-basic-prof --interpreted-frames-native-stack' node x.js",
                 "already", "Run ");
  /* one runtime with its flag, the other without */
  assert_advice ("sh run.sh node --interpreted-frames-native-stack a.js java -cp . B",
                 "Run java with -XX:+PreserveFramePointer,", "Run node");
  /* no runtime named: attached by pid, a command not known, one that
   * does not parse as a shell would */
  assert_advice ("pid 1234", "Run node with --interpreted-frames-native-stack and java with "
                             "-XX:+PreserveFramePointer,", NULL);
  assert_advice (NULL, "Run node with --interpreted-frames-native-stack and java", NULL);
  assert_advice ("node 'x.js", "Run node with --interpreted-frames-native-stack,", "java");
}

/* Code compiled at run time that no perf map named ("[anon] START-END",
 * one function per mapping) is code without symbols, and the advice names
 * the flag that makes the runtime write its map: bar's 8 samples (1.6 %)
 * are worth it, main's 1 (0.2 %) is not. */
static char *
jit_name_advice (const char *command,
                 gint64      unnamed,
                 HpCaptureHealth *health)
{
  const Meta meta[] = { { HP_META_COMMAND, command }, { NULL } };

  judge_named (command != NULL ? meta : meta + 1, unnamed, "[anon] 0x7f2159fc5000-0x7f2159fd5000", health);
  return hp_capture_health_jit_name_advice (health);
}

static void
test_jit_name_advice (void)
{
  HpCaptureHealth health;
  g_autofree char *node = jit_name_advice ("node app.js", EX_BAR, &health);
  g_autofree char *java = NULL;
  g_autofree char *unknown = NULL;
  g_autofree char *named_already = NULL;
  g_autofree char *little = NULL;
  g_autofree char *addresses = NULL;

  g_assert_cmpuint (health.unsymbolized, ==, 8);
  g_assert_cmpuint (health.unnamed_jit, ==, 8);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_NOTE);
  g_test_message ("%s", node);
  g_assert_nonnull (strstr (node, "[anon]"));
  g_assert_nonnull (strstr (node, "run node with --perf-basic-prof,"));
  g_assert_null (strstr (node, "java"));

  java = jit_name_advice ("java -XX:+PreserveFramePointer -cp . Main", EX_SYSCALL, &health);
  g_assert_cmpuint (health.unnamed_jit, ==, 96);
  g_assert_cmpint (health.unsymbolized_level, ==, HP_HEALTH_WARNING);
  g_assert_nonnull (strstr (java, "run java with -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit,"));
  g_assert_null (strstr (java, "node"));

  unknown = jit_name_advice (NULL, EX_BAR, &health);
  g_assert_nonnull (strstr (unknown, "node with --perf-basic-prof and java with"));

  /* the map was asked for: no flag to give again */
  named_already = jit_name_advice ("env NODE_OPTIONS=--perf-prof node app.js", EX_BAR, &health);
  g_test_message ("%s", named_already);
  g_assert_null (strstr (named_already, "run node"));
  g_assert_nonnull (strstr (named_already, "left it out"));

  little = jit_name_advice ("node app.js", EX_MAIN, &health);
  g_assert_cmpuint (health.unnamed_jit, ==, 1);
  g_assert_null (little);

  /* an address in a file is not code compiled at run time */
  judge (NULL, EX_BAR, &health);
  g_assert_cmpuint (health.unsymbolized, ==, 8);
  g_assert_cmpuint (health.unnamed_jit, ==, 0);
  addresses = hp_capture_health_jit_name_advice (&health);
  g_assert_null (addresses);
}

/* exit_signal as the recorder writes it (strsignal text), and as a
 * number or a SIG name; anything else names no signal */
static void
test_exit_signal (void)
{
  g_assert_cmpint (hp_capture_health_exit_signal (g_strsignal (SIGSEGV)), ==, SIGSEGV);
  g_assert_cmpint (hp_capture_health_exit_signal ("11"), ==, 11);
  g_assert_cmpint (hp_capture_health_exit_signal ("SIGKILL"), ==, SIGKILL);
  g_assert_cmpint (hp_capture_health_exit_signal ("0"), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal ("11abc"), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal ("999"), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal ("SIG"), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal ("Gremlins"), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal (""), ==, 0);
  g_assert_cmpint (hp_capture_health_exit_signal (NULL), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capture-health/fine", test_fine);
  g_test_add_func ("/capture-health/lost", test_lost);
  g_test_add_func ("/capture-health/truncated", test_truncated);
  g_test_add_func ("/capture-health/stack-copy", test_stack_copy);
  g_test_add_func ("/capture-health/unsymbolized", test_unsymbolized);
  g_test_add_func ("/capture-health/cut-short", test_cut_short);
  g_test_add_func ("/capture-health/symbol-notes", test_symbol_notes);
  g_test_add_func ("/capture-health/exit-signal", test_exit_signal);
  g_test_add_func ("/capture-health/jit-advice", test_jit_advice);
  g_test_add_func ("/capture-health/jit-name-advice", test_jit_name_advice);
  return g_test_run ();
}
