/* hp-address-space.h - the mappings of one process, from MMAP/MMAP2 records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "symbols/hp-symbolizer.h"

G_BEGIN_DECLS

typedef struct {
  guint64   start;
  guint64   end;     /* exclusive */
  guint64   pgoff;   /* file offset of start */
  HpModule *module;  /* NULL for anonymous or special mappings without a file */
  char     *name;    /* path or "[vdso]", "//anon", ... */
} HpMapping;

typedef struct _HpAddressSpace HpAddressSpace;

HpAddressSpace  *hp_address_space_new      (void);
HpAddressSpace  *hp_address_space_copy     (const HpAddressSpace *self); /* fork */
void             hp_address_space_free     (HpAddressSpace       *self);
/* exec: forget every mapping */
void             hp_address_space_clear    (HpAddressSpace       *self);
/* A new mapping replaces whatever it overlaps, as mmap does. */
void             hp_address_space_add      (HpAddressSpace       *self,
                                            guint64               start,
                                            guint64               len,
                                            guint64               pgoff,
                                            const char           *name,
                                            HpModule             *module);
/* NULL when nothing is mapped at @address. */
const HpMapping *hp_address_space_lookup   (HpAddressSpace       *self,
                                            guint64               address);
/* Every mapping, sorted by start and non-overlapping (the unwinder reports
 * them all to libdwfl). Valid until the next change of @self. */
const HpMapping *hp_address_space_get_mappings (const HpAddressSpace *self,
                                                guint                *n_mappings);

G_END_DECLS
