/* hp-format.h - how numbers read in the window and the lists it fills
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "store/hp-capture.h"
#include "analysis/hp-measure.h"

G_BEGIN_DECLS

/* How numbers are written */
typedef enum {
  HP_FORMAT_DEFAULT = 0,
  /* for a terminal and for scripts (hotpath-cli): counts without the
   * locale's grouping ("5040 page faults"), times in one unit to three
   * decimals ("1.234 s", "15.200 ms", "3.500 us", "12 ns"), and a
   * measure named by the unit its plain numbers count ("ns off CPU") */
  HP_FORMAT_PLAIN = 1 << 0,
} HpFormatFlags;

/* "26.6 %", "<0.1 %" for a small non-zero share, "" for nothing */
char *hp_format_percent  (guint64 part,
                          guint64 whole);
/* "12,345" with the locale's grouping */
char *hp_format_count    (guint64 count);
/* "26.6 % (416 samples)" */
char *hp_format_share    (guint64 part,
                          guint64 whole);
/* "2.47 s", "1 min 3 s" */
char *hp_format_duration (guint64 ns);
/* Where a summary written in another capture comes from, and how its
 * path's share moved since: "Written in old.hotpath on 2026-12-01, 12.3 %
 * then, 8.1 % now." (the shares when known: @share_now is NAN when the
 * path is not in the shown profile; "; not found in this capture" for a
 * summary an import could not place). NULL for one written in @here,
 * the base name of the capture shown, or when nothing is known. Made
 * safe to show: the row comes from a capture file. */
char *hp_format_summary_origin (const HpCaptureSummary *row,
                                const char             *here,
                                double                  share_now);

/* A time: "1.23 s", "15 ms", "350 µs", "12 ns"; with HP_FORMAT_PLAIN
 * in one unit to three decimals: "1.234 s", "15.200 ms", "3.500 us" */
char *hp_format_time     (guint64       ns,
                          HpFormatFlags flags);

/* What the shares of @measure are of, for captions: "cpu-clock samples",
 * "page faults", "time off the CPU"; NULL: "samples" */
char *hp_format_measure_name  (const HpMeasure *measure);
/* ... and with HP_FORMAT_PLAIN, what the plain numbers of @measure count:
 * "samples", "page faults" (its unit, "events" without one), "ns off
 * CPU", "ns of wall-clock time" */
char *hp_format_measure_name_full (const HpMeasure *measure,
                                   HpFormatFlags    flags);
/* @measure as the event selector lists it: "page-faults: page faults" */
char *hp_format_measure_label (const HpMeasure *measure);
/* A column's title for @measure: "Samples", "Page faults", "Time" */
char *hp_format_measure_column (const HpMeasure *measure);
/* "416 samples", "1,234 page faults", "1.23 s off CPU"; with
 * HP_FORMAT_PLAIN, wall-clock time says so: "1.230 s of wall-clock time" */
char *hp_format_amount        (const HpMeasure *measure,
                               guint64          amount);
char *hp_format_amount_full   (const HpMeasure *measure,
                               guint64          amount,
                               HpFormatFlags    flags);
/* The number a column shows: "1,234", or "1.23 s" for time */
char *hp_format_count_of      (const HpMeasure *measure,
                               guint64          amount);
/* "26.6 % (1,234 page faults)"; NULL @measure or samples: hp_format_share() */
char *hp_format_share_of      (const HpMeasure *measure,
                               guint64          part,
                               guint64          whole);
/* The ratio column's title ("IPC", "page-faults / ms") and, when
 * @tooltip is not NULL, what it means */
char *hp_format_ratio_title   (const HpRatio       *ratio,
                               const HpCaptureData *data,
                               char               **tooltip);
/* "1.25", "–" without a denominator */
char *hp_format_ratio_value   (const HpRatio *ratio,
                               guint64        numerator,
                               guint64        denominator);

G_END_DECLS
