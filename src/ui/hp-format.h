/* hp-format.h - how numbers read in the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

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

G_END_DECLS
