/* hp-capture-health.c - how far a capture's numbers can be trusted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/*
 * A profile is a measurement with limits: samples lost when the kernel's
 * buffers filled, stacks truncated, code without symbols. The capture's
 * metadata counts them (schema.sql); this file decides, once for both
 * front ends, when a count is large enough to say so.
 *
 * Lost samples are a share of the samples taken (kept + lost); truncated
 * stacks, which the metadata counts over the whole capture, a share of the
 * whole capture's samples; code without symbols, measured in samples (one
 * hot unnamed loop is one code location), a share of the samples shown.
 */

#define G_LOG_DOMAIN "hp-analysis"

#include "config.h"

#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "analysis/hp-capture-health.h"
#include "analysis/hp-name-match.h"
#include "store/hp-capture-keys.h"

int
hp_capture_health_exit_signal (const char *value)
{
  guint64 number = 0;

  if (value == NULL || value[0] == '\0')
    return 0;
  if (g_ascii_isdigit (value[0]))
    return g_ascii_string_to_unsigned (value, 10, 1, NSIG - 1, &number, NULL) ? (int) number : 0;
  for (int i = 1; i < NSIG; i++)
    {
      const char *abbrev = NULL;
      const char *descr = NULL;

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
      abbrev = sigabbrev_np (i);
      descr = sigdescr_np (i);
#endif
      if ((abbrev != NULL && g_str_has_prefix (value, "SIG") && strcmp (value + 3, abbrev) == 0) ||
          (descr != NULL && strcmp (value, descr) == 0) ||
          strcmp (value, g_strsignal (i)) == 0)
        return i;
    }
  return 0;
}

const char *
hp_capture_health_signal_abbrev (int signo)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  return sigabbrev_np (signo);
#else
  return NULL;
#endif
}

/* "SIGINT" for 2, or the number when glibc has no abbreviation. */
static char *
signal_name (int signo)
{
  const char *abbrev = hp_capture_health_signal_abbrev (signo);

  if (abbrev != NULL)
    return g_strdup_printf ("SIG%s", abbrev);
  return g_strdup_printf (_("signal %d"), signo);
}

char *
hp_capture_health_describe_stop (const char *stop,
                                 const char *exit_signal,
                                 const char *exit_status,
                                 const char *ended_by_recorder)
{
  int stop_signo = hp_capture_health_exit_signal (stop);
  int exit_signo = hp_capture_health_exit_signal (exit_signal);
  g_autofree char *stopped = NULL;
  g_autofree char *killed = NULL;

  if (stop_signo == 0)
    return NULL;
  stopped = signal_name (stop_signo);
  if (stop_signo == SIGINT)
    {
      g_autofree char *name = g_steal_pointer (&stopped);

      /* Translators: "SIGINT (Ctrl-C)" */
      stopped = g_strdup_printf (_("%s (Ctrl-C)"), name);
    }
  if (exit_signo == stop_signo)
    /* Translators: "SIGINT (Ctrl-C)" */
    return g_strdup_printf (_("The recording was stopped by %s, and the program ended on that signal; "
                              "the profile ends there."), stopped);
  if (exit_signo != 0)
    {
      killed = signal_name (exit_signo);
      if (g_strcmp0 (ended_by_recorder, "1") == 0)
        /* Translators: "SIGINT (Ctrl-C)", then "SIGTERM" */
        return g_strdup_printf (_("The recording was stopped by %s; the program did not end on it within "
                                  "2 s, so Hotpath ended it with %s; the profile ends there."), stopped, killed);
      /* Translators: "SIGINT (Ctrl-C)", then "SIGSEGV" */
      return g_strdup_printf (_("The recording was stopped by %s; the program was then killed by %s; "
                                "the profile ends there."), stopped, killed);
    }
  if (exit_status != NULL)
    /* Translators: "SIGINT (Ctrl-C)", then an exit status */
    return g_strdup_printf (_("The recording was stopped by %s; the program ended on it with exit status %" PRId64 "."),
                            stopped, g_ascii_strtoll (exit_status, NULL, 10));
  /* an attached process, the whole system: nothing was spawned */
  /* Translators: "SIGINT (Ctrl-C)" */
  return g_strdup_printf (_("The recording was stopped by %s."), stopped);
}

double
hp_capture_health_percent (guint64 part,
                           guint64 whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0.0;
}

static guint64
metadata_u64 (GHashTable *metadata,
              const char *key)
{
  const char *value = g_hash_table_lookup (metadata, key);

  return value ? g_ascii_strtoull (value, NULL, 10) : 0;
}

void
hp_capture_health_judge (HpCaptureHealth *health,
                         HpProfile       *profile,
                         guint64          all_samples)
{
  const HpCaptureData *data;
  g_autoptr(GArray) modules = NULL;
  const char *by_copy;

  g_return_if_fail (health != NULL);
  g_return_if_fail (profile != NULL);

  data = hp_profile_get_data (profile);
  *health = (HpCaptureHealth) { 0 };
  health->samples = all_samples;

  health->lost = metadata_u64 (data->metadata, HP_META_LOST_SAMPLES);
  health->lost_many = health->lost > 0 &&
                      hp_capture_health_percent (health->lost, all_samples + health->lost) > HP_HEALTH_LOST_PERCENT;

  /* counts of the capture's own samples: a file that claims more says
   * nothing true, and a share above 100 % is not shown */
  health->truncated = MIN (metadata_u64 (data->metadata, HP_META_TRUNCATED_STACKS), all_samples);
  health->truncated_many = hp_capture_health_percent (health->truncated, all_samples) > HP_HEALTH_TRUNCATED_PERCENT;

  /* Only when the copies were too small: more of them does not help a
   * stack cut by a missing file or code without CFI. */
  by_copy = g_hash_table_lookup (data->metadata, HP_META_TRUNCATED_STACK_COPY);
  health->stack_copy_ended = by_copy != NULL ? MIN (g_ascii_strtoull (by_copy, NULL, 10), all_samples) : health->truncated;
  if (g_strcmp0 (g_hash_table_lookup (data->metadata, HP_META_CALL_GRAPH), "dwarf") == 0 &&
      hp_capture_health_percent (health->truncated, all_samples) > HP_HEALTH_STACK_COPY_PERCENT &&
      hp_capture_health_percent (health->stack_copy_ended, all_samples) > HP_HEALTH_STACK_COPY_PERCENT)
    health->stack_copy_small = TRUE;

  health->truncated_at_jit = metadata_u64 (data->metadata, HP_META_TRUNCATED_AT_JIT);
  health->command = g_hash_table_lookup (data->metadata, HP_META_COMMAND);
  health->symbol_notes = g_hash_table_lookup (data->metadata, HP_META_SYMBOL_NOTES);
  health->symbol_notes_old = g_hash_table_lookup (data->metadata, HP_META_SYMBOL_WARNINGS_OLD);

  health->shown_samples = hp_profile_get_n_samples (profile);
  modules = hp_profile_get_unsymbolized (profile, &health->unsymbolized);
  if (health->unsymbolized > 0 && modules->len > 0)
    {
      double share = hp_capture_health_percent (health->unsymbolized, health->shown_samples);

      health->unsymbolized_level = share >= HP_HEALTH_UNSYMBOLIZED_WARNING ? HP_HEALTH_WARNING :
                                   share >= HP_HEALTH_UNSYMBOLIZED_NOTE ? HP_HEALTH_NOTE : HP_HEALTH_FINE;
    }
  for (guint i = 0; i < modules->len; i++)
    if (g_array_index (modules, HpUnsymbolized, i).jit)
      health->unnamed_jit += g_array_index (modules, HpUnsymbolized, i).samples;
  health->unresolved = metadata_u64 (data->metadata, HP_META_UNRESOLVED_FRAMES);
  health->cut_short = g_strcmp0 (g_hash_table_lookup (data->metadata, HP_META_COMPLETE), "1") != 0;
  health->counts_summed = data->counts_summed;
}

gboolean
hp_capture_health_is_worrying (const HpCaptureHealth *health)
{
  g_return_val_if_fail (health != NULL, FALSE);

  return health->cut_short || health->lost_many || health->truncated_many ||
         health->unsymbolized_level == HP_HEALTH_WARNING;
}

GStrv
hp_capture_health_symbol_notes (const HpCaptureHealth *health)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *keys[] = { health->symbol_notes, health->symbol_notes_old };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      g_auto(GStrv) lines = keys[k] != NULL ? g_strsplit (keys[k], "\n", -1) : NULL;

      for (guint i = 0; lines != NULL && lines[i] != NULL; i++)
        if (lines[i][0] != '\0')
          g_strv_builder_add (builder, lines[i]);
    }
  return g_strv_builder_end (builder);
}

/* The runtimes whose JIT code keeps frame pointers with a flag, and
 * whose code gets names with another (a perf map or jitdump). A flag
 * given through the environment (NODE_OPTIONS=…, JAVA_TOOL_OPTIONS=…) on
 * the command line counts too: it is found inside the word. */
static const struct {
  const char *program;   /* base names of the runtime's executable */
  const char *program2;
  const char *flag;
  const char *flag2;     /* V8 takes '_' for '-' in flags */
  const char *without;   /* code it generates without frame pointers even so */
  const char *names[4];  /* flags that write a map or jitdump, NULL-ended */
  const char *names_advice; /* the flags to give for names */
} jit_runtimes[] = {
  { "node", "nodejs", "--interpreted-frames-native-stack", "--interpreted_frames_native_stack",
    N_("node's own start-up functions"),
    { "--perf-basic-prof", "--perf_basic_prof", "--perf-prof", "--perf_prof" }, "--perf-basic-prof" },
  { "java", NULL, "-XX:+PreserveFramePointer", NULL, N_("the JVM's call stub"),
    { "-XX:+DumpPerfMapAtExit", "libperf-jvmti", NULL }, "-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit" },
};

typedef struct {
  gboolean any_seen;                          /* some runtime is named */
  gboolean seen[G_N_ELEMENTS (jit_runtimes)];
  gboolean has_flag[G_N_ELEMENTS (jit_runtimes)];  /* its frame-pointer flag */
  gboolean has_names[G_N_ELEMENTS (jit_runtimes)]; /* a flag for names */
} RuntimeFlags;

/* Which runtimes @command ran, with which of their flags. */
static void
read_runtime_flags (const char   *command,
                    RuntimeFlags *flags)
{
  g_auto(GStrv) words = NULL;

  *flags = (RuntimeFlags) { 0 };
  /* as typed, quoted where it had to be; else split where it has spaces */
  if (command == NULL || !g_shell_parse_argv (command, NULL, &words, NULL))
    words = command ? g_strsplit (command, " ", -1) : g_new0 (char *, 1);

  for (guint w = 0; words[w] != NULL; w++)
    {
      g_autofree char *base = g_path_get_basename (words[w]);

      for (guint r = 0; r < G_N_ELEMENTS (jit_runtimes); r++)
        {
          if (g_strcmp0 (base, jit_runtimes[r].program) == 0 || g_strcmp0 (base, jit_runtimes[r].program2) == 0)
            flags->seen[r] = flags->any_seen = TRUE;
          if (strstr (words[w], jit_runtimes[r].flag) != NULL ||
              (jit_runtimes[r].flag2 != NULL && strstr (words[w], jit_runtimes[r].flag2) != NULL))
            flags->has_flag[r] = TRUE;
          for (guint n = 0; n < G_N_ELEMENTS (jit_runtimes[r].names) && jit_runtimes[r].names[n] != NULL; n++)
            if (strstr (words[w], jit_runtimes[r].names[n]) != NULL)
              flags->has_names[r] = TRUE;
        }
    }
}

char *
hp_capture_health_jit_advice (const HpCaptureHealth *health)
{
  RuntimeFlags flags;
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autoptr(GString) present = g_string_new (NULL);
  g_autoptr(GString) without = g_string_new (NULL);

  g_return_val_if_fail (health != NULL, NULL);

  if (health->truncated_at_jit == 0)
    return NULL;
  read_runtime_flags (health->command, &flags);

  for (guint r = 0; r < G_N_ELEMENTS (jit_runtimes); r++)
    {
      /* a command in which no runtime is named (attached by pid, a
       * perf.data of unknown origin) gets every runtime's flag */
      GString *list = !flags.any_seen || (flags.seen[r] && !flags.has_flag[r]) ? missing :
                      flags.seen[r] ? present : NULL;

      if (list == NULL)
        continue;
      if (list->len > 0)
        /* Translators: joins "node with --flag" and "java with -XX:+Flag" */
        g_string_append (list, _(" and "));
      /* Translators: a program, then the flag it ran with or should run with */
      g_string_append_printf (list, _("%s with %s"), jit_runtimes[r].program, jit_runtimes[r].flag);
      if (list == present)
        g_string_append_printf (without, "%s%s", without->len > 0 ? ", " : "", _(jit_runtimes[r].without));
    }

  if (missing->len > 0)
    /* Translators: "node with --interpreted-frames-native-stack" (and "java with …") */
    return g_strdup_printf (_("Run %s, so that stacks go on through that code."), missing->str);
  /* Translators: "node with --interpreted-frames-native-stack", then code
   * such as "node's own start-up functions" */
  return g_strdup_printf (_("The program ran with its flag for frame pointers already (%s): the runtime "
                            "generates some code without them (%s, for one), and a stack ends there."),
                          present->str, without->str);
}

char *
hp_capture_health_jit_name_advice (const HpCaptureHealth *health)
{
  RuntimeFlags flags;
  g_autoptr(GString) missing = g_string_new (NULL);
  double share;

  g_return_val_if_fail (health != NULL, NULL);

  share = hp_capture_health_percent (health->unnamed_jit, health->shown_samples);
  if (health->unnamed_jit == 0 || share < HP_HEALTH_UNSYMBOLIZED_NOTE)
    return NULL;
  read_runtime_flags (health->command, &flags);

  for (guint r = 0; r < G_N_ELEMENTS (jit_runtimes); r++)
    if (!flags.any_seen || (flags.seen[r] && !flags.has_names[r]))
      {
        if (missing->len > 0)
          /* Translators: joins "node with --flag" and "java with -XX:+Flag" */
          g_string_append (missing, _(" and "));
        /* Translators: a program, then the flag it ran with or should run with */
        g_string_append_printf (missing, _("%s with %s"), jit_runtimes[r].program, jit_runtimes[r].names_advice);
      }

  if (missing->len > 0)
    /* Translators: "node with --perf-basic-prof" (and "java with …") */
    return g_strdup_printf (_("Code compiled at run time that no perf map names shows as [anon]: run %s, "
                              "so that the runtime writes the names of its code."),
                            missing->str);
  return g_strdup (_("Code compiled at run time that the program's perf map or jitdump did not name shows as "
                     "[anon]: the runtime left it out, or its map could not be read whole."));
}
