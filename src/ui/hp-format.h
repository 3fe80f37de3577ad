/* hp-format.h - how numbers read in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

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

G_END_DECLS
