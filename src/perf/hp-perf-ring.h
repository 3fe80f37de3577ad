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

/* Where the user stack copy of @record (@size bytes, whole) starts: the
 * offset of its u64 size field, or 0 when it has none. */
typedef gsize (*HpPerfStackFinder) (const guint8 *record,
                                    gsize         size,
                                    gpointer      user_data);

/* hp_perf_ring_read(), but the user stack copy of a sample (found by
 * @find_stack) keeps only the bytes the kernel filled: its dyn_size,
 * rounded up to 8 bytes, with the size field saying so. The kernel reserves
 * the whole size asked for (8 KiB by default) in every sample, and a
 * shallow stack fills half of it: the rest is never read, so it is not
 * copied either. A record that wraps around the end of the ring is copied
 * whole. */
gsize       hp_perf_ring_read_trimmed (HpPerfRing        *self,
                                       GByteArray        *out,
                                       HpPerfStackFinder  find_stack,
                                       gpointer           user_data);

G_END_DECLS
