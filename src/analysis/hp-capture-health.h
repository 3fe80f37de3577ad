/* hp-capture-health.h - how far a capture's numbers can be trusted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* The shares over which a front end warns (docs/ARCHITECTURE.md,
 * Measuring honestly). One judgement for `hotpath-cli report` and the
 * window's overview, so that both tell a user the same about a capture. */
#define HP_HEALTH_LOST_PERCENT          1.0   /* of the samples taken (kept + lost) */
#define HP_HEALTH_TRUNCATED_PERCENT    10.0   /* of the samples in the capture */
#define HP_HEALTH_STACK_COPY_PERCENT    3.0   /* DWARF: stacks cut by the end of their copy */
#define HP_HEALTH_UNSYMBOLIZED_NOTE     1.0   /* of the samples shown: worth a line */
#define HP_HEALTH_UNSYMBOLIZED_WARNING 10.0   /* of the samples shown: changes what they mean */

typedef enum {
  HP_HEALTH_FINE,
  HP_HEALTH_NOTE,
  HP_HEALTH_WARNING,
} HpHealthLevel;

typedef struct {
  guint64        samples;              /* in the whole capture */
  guint64        lost;
  gboolean       lost_many;            /* over HP_HEALTH_LOST_PERCENT */
  guint64        truncated;
  gboolean       truncated_many;       /* over HP_HEALTH_TRUNCATED_PERCENT */
  /* DWARF stacks cut by the end of their stack copy (all truncated ones
   * when the capture does not say), and whether a bigger copy would help */
  guint64        stack_copy_ended;
  gboolean       stack_copy_small;
  guint64        shown_samples;        /* in the profile (a filter keeps fewer) */
  guint64        unsymbolized;         /* of shown_samples, leaf in code without symbols */
  HpHealthLevel  unsymbolized_level;
  guint64        unnamed_jit;          /* of unsymbolized, in code compiled at run time that no map named */
  guint64        unresolved;           /* code locations without a symbol */
  gboolean       cut_short;            /* the recording never finished */
  /* finished, but without its totals (stack_counts empty): its samples
   * were summed instead (HpCaptureData.counts_summed) */
  gboolean       counts_summed;
  /* truncated stacks cut at code compiled at run time (JIT code whose
   * frame-pointer chain ended) */
  guint64        truncated_at_jit;
  /* the command line recorded (metadata command), which says which
   * runtime ran with which flags; NULL: not known */
  const char    *command;
  /* sentences about symbols that could not be had (metadata symbol_notes,
   * and symbol_warnings of older captures), one per line; NULL: none */
  const char    *symbol_notes;
  const char    *symbol_notes_old;
} HpCaptureHealth;

/* Judges the capture whose metadata @profile's data holds, with
 * @all_samples the samples of the whole capture (before any filter). */
void     hp_capture_health_judge        (HpCaptureHealth       *health,
                                         HpProfile             *profile,
                                         guint64                all_samples);

/* TRUE when something in @health changes what the numbers mean (as
 * opposed to a note). */
gboolean hp_capture_health_is_worrying  (const HpCaptureHealth *health);

/* The sentences of @health's symbol notes, both keys', empty lines
 * dropped; never NULL. */
GStrv    hp_capture_health_symbol_notes (const HpCaptureHealth *health);

/* What to do about the stacks cut at code compiled at run time, one
 * sentence for both front ends, or NULL when none was cut. It asks for a
 * runtime's frame-pointer flag only when the recorded command does not
 * already have it (node --interpreted-frames-native-stack, java
 * -XX:+PreserveFramePointer). */
char    *hp_capture_health_jit_advice   (const HpCaptureHealth *health);

/* What to do about samples in code compiled at run time that no perf map
 * or jitdump named ("[anon] 0x…-0x…"), one sentence for both front ends,
 * or NULL when they are under HP_HEALTH_UNSYMBOLIZED_NOTE of the samples
 * shown. It names the flags that make
 * the runtime write its map (node --perf-basic-prof, java
 * -XX:+DumpPerfMapAtExit), those of the runtime the command ran, and says
 * that the map named too little when the command had them already. */
char    *hp_capture_health_jit_name_advice (const HpCaptureHealth *health);

/* The signal that the metadata exit_signal @value names: the recorder
 * writes strsignal() text ("Segmentation fault", in the locale of the
 * recording); a number, a SIG name ("SIGSEGV") or glibc's English
 * description is understood too. 0 when @value names no signal (or is
 * NULL or empty): then a front end shows @value itself, made safe. */
int      hp_capture_health_exit_signal  (const char            *value);

/* glibc's abbreviation of signal @signo ("SEGV" for 11), or NULL when it
 * has none (or is older than 2.32). */
const char *hp_capture_health_signal_abbrev (int signo);

/* How a recording that a signal stopped (metadata stop_signal, @stop)
 * ended the program, one sentence for both front ends: that the user's
 * signal (Ctrl-C) stopped it, and whether the program ended on that
 * signal, exited on it with a status, or was ended by the recorder's
 * SIGTERM because it did not (@ended_by_recorder). @exit_signal and
 * @exit_status are the metadata's. NULL when no signal stopped it:
 * then exit_signal alone says what ended the program. */
char    *hp_capture_health_describe_stop (const char           *stop,
                                          const char           *exit_signal,
                                          const char           *exit_status,
                                          const char           *ended_by_recorder);

/* The share @part of @whole in percent, 0 for an empty whole. */
double   hp_capture_health_percent      (guint64                part,
                                         guint64                whole);

G_END_DECLS
