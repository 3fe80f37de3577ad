/* hp-perf-ring.h - reads a perf_event mmap ring buffer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _HpPerfRing HpPerfRing;

/* Maps the ring of the perf event @fd: one metadata page and @n_data_pages
 * (a power of two) of data. */
HpPerfRing *hp_perf_ring_new        (int          fd,
                                     guint        n_data_pages,
                                     GError     **error);
void        hp_perf_ring_free       (HpPerfRing  *self);
int         hp_perf_ring_get_fd     (HpPerfRing  *self);

/* Appends every complete record now in the ring to @out (records that wrap
 * around the end of the ring are made contiguous) and frees their space in
 * the ring. Returns the number of bytes appended. */
gsize       hp_perf_ring_read       (HpPerfRing  *self,
                                     GByteArray  *out);

G_END_DECLS
