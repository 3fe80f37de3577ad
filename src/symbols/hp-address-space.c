/* hp-address-space.c - the mappings of one process, from MMAP/MMAP2 records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An address space is a sorted array of non-overlapping mappings. Adding a
 * mapping behaves like mmap(MAP_FIXED): whatever it overlaps is unmapped
 * first, trimming or splitting the old mappings, so the array stays
 * non-overlapping and a lookup is one binary search. Processes map tens to a
 * few hundred regions and samples outnumber mmaps by orders of magnitude, so
 * inserting with a memmove is cheaper overall than a tree would be.
 *
 * Modules are borrowed from the HpSymbolizer, which outlives every address
 * space; names are owned here.
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <string.h>

#include "symbols/hp-address-space.h"

struct _HpAddressSpace
{
  GArray *mappings; /* HpMapping, sorted by start, non-overlapping */
  /* Consecutive samples of a thread mostly hit the same mapping (the main
   * executable or one library), so remember the last hit. Index into
   * mappings, or G_MAXUINT. */
  guint   last_hit;
};

static void
mapping_clear (gpointer data)
{
  HpMapping *mapping = data;

  g_clear_pointer (&mapping->name, g_free);
}

static GArray *
mappings_new (guint reserved)
{
  GArray *mappings = g_array_sized_new (FALSE, FALSE, sizeof (HpMapping), reserved);

  g_array_set_clear_func (mappings, mapping_clear);
  return mappings;
}

HpAddressSpace *
hp_address_space_new (void)
{
  HpAddressSpace *self = g_new0 (HpAddressSpace, 1);

  self->mappings = mappings_new (32);
  self->last_hit = G_MAXUINT;
  return self;
}

HpAddressSpace *
hp_address_space_copy (const HpAddressSpace *self)
{
  HpAddressSpace *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (HpAddressSpace, 1);
  copy->mappings = mappings_new (self->mappings->len);
  copy->last_hit = G_MAXUINT;
  for (guint i = 0; i < self->mappings->len; i++)
    {
      HpMapping mapping = g_array_index (self->mappings, HpMapping, i);

      mapping.name = g_strdup (mapping.name);
      g_array_append_val (copy->mappings, mapping);
    }
  return copy;
}

void
hp_address_space_free (HpAddressSpace *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->mappings);
  g_free (self);
}

void
hp_address_space_clear (HpAddressSpace *self)
{
  g_return_if_fail (self != NULL);

  g_array_set_size (self->mappings, 0);
  self->last_hit = G_MAXUINT;
}

/* Index of the first mapping whose end is above @address, i.e. the first one
 * that contains @address or lies wholly after it. */
static guint
first_ending_after (const HpAddressSpace *self,
                    guint64               address)
{
  guint lo = 0;
  guint hi = self->mappings->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->mappings, HpMapping, mid).end <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
hp_address_space_add (HpAddressSpace *self,
                      guint64         start,
                      guint64         len,
                      guint64         pgoff,
                      const char     *name,
                      HpModule       *module)
{
  HpMapping mapping;
  guint64 end;
  guint i;

  g_return_if_fail (self != NULL);

  if (len == 0)
    return;
  /* A record with a length that wraps around is corrupt; clamp rather than
   * create a mapping whose end is below its start. */
  end = start + len < start ? G_MAXUINT64 : start + len;

  self->last_hit = G_MAXUINT;

  i = first_ending_after (self, start);
  while (i < self->mappings->len)
    {
      HpMapping *old = &g_array_index (self->mappings, HpMapping, i);

      if (old->start >= end)
        break;

      if (old->start < start && old->end > end)
        {
          /* The new mapping punches a hole: split the old one in two. */
          HpMapping tail = *old;

          tail.pgoff = old->pgoff + (end - old->start);
          tail.start = end;
          tail.name = g_strdup (old->name);
          old->end = start;
          g_array_insert_val (self->mappings, i + 1, tail);
          i++;
          break;
        }
      else if (old->start < start)
        {
          /* Overlaps the old mapping's tail: keep its head. */
          old->end = start;
          i++;
        }
      else if (old->end > end)
        {
          /* Overlaps the old mapping's head: keep its tail. */
          old->pgoff += end - old->start;
          old->start = end;
          break;
        }
      else
        {
          /* Wholly covered. */
          g_array_remove_index (self->mappings, i);
        }
    }

  mapping.start = start;
  mapping.end = end;
  mapping.pgoff = pgoff;
  mapping.module = module;
  mapping.name = g_strdup (name);
  g_array_insert_val (self->mappings, first_ending_after (self, start), mapping);
}

const HpMapping *
hp_address_space_lookup (HpAddressSpace *self,
                         guint64         address)
{
  const HpMapping *mapping;
  guint i;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->last_hit < self->mappings->len)
    {
      mapping = &g_array_index (self->mappings, HpMapping, self->last_hit);
      if (address >= mapping->start && address < mapping->end)
        return mapping;
    }

  i = first_ending_after (self, address);
  if (i >= self->mappings->len)
    return NULL;
  mapping = &g_array_index (self->mappings, HpMapping, i);
  if (address < mapping->start)
    return NULL;
  self->last_hit = i;
  return mapping;
}

const HpMapping *
hp_address_space_get_mappings (const HpAddressSpace *self,
                               guint                *n_mappings)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (n_mappings != NULL, NULL);

  *n_mappings = self->mappings->len;
  return (const HpMapping *) (gconstpointer) self->mappings->data;
}
