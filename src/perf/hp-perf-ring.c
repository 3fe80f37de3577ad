/* hp-perf-ring.c - reads a perf_event mmap ring buffer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kernel writes records at data_head; we read from data_tail and give the
 * space back by storing data_tail. data_head must be read with acquire
 * semantics before the data it covers, and data_tail stored with release
 * semantics after we are done with the data (perf_event.h, "ring buffer").
 */

#define G_LOG_DOMAIN "hp-perf"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include <gio/gio.h>

#include "perf/hp-perf-record.h"
#include "perf/hp-perf-ring.h"

struct _HpPerfRing {
  int                          fd;
  struct perf_event_mmap_page *meta;
  guint8                      *data;
  gsize                        data_size;
  gsize                        map_size;
};

HpPerfRing *
hp_perf_ring_new (int      fd,
                  guint    n_data_pages,
                  GError **error)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  HpPerfRing *self;
  void *map;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (n_data_pages > 0 && (n_data_pages & (n_data_pages - 1)) == 0, NULL);

  map = mmap (NULL, page * (n_data_pages + 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("cannot map the perf ring buffer (%u KiB): %s"),
                   (guint) (n_data_pages * page / 1024), g_strerror (errsv));
      return NULL;
    }

  self = g_new0 (HpPerfRing, 1);
  self->fd = fd;
  self->meta = map;
  self->data = (guint8 *) map + page;
  self->data_size = n_data_pages * page;
  self->map_size = page * (n_data_pages + 1);
  return self;
}

void
hp_perf_ring_free (HpPerfRing *self)
{
  if (self == NULL)
    return;
  munmap (self->meta, self->map_size);
  g_free (self);
}

int
hp_perf_ring_get_fd (HpPerfRing *self)
{
  return self->fd;
}

/* Appends the record of @size bytes at @record (contiguous in the ring)
 * to @out, its user stack copy cut to what the kernel filled. FALSE when
 * it has none to cut; nothing is appended then. */
static gboolean
append_trimmed (GByteArray        *out,
                const guint8      *record,
                gsize              size,
                HpPerfStackFinder  find_stack,
                gpointer           user_data)
{
  struct perf_event_header header;
  gsize at = find_stack (record, size, user_data);
  guint64 stack_size, dyn_size, kept;

  /* size field, the copy, dyn_size */
  if (at < sizeof header || at > size || size - at < 2 * sizeof (guint64))
    return FALSE;
  memcpy (&stack_size, record + at, sizeof stack_size);
  if (stack_size > size - at - 2 * sizeof (guint64))
    return FALSE;
  memcpy (&dyn_size, record + at + sizeof stack_size + stack_size, sizeof dyn_size);
  /* a size of 0 would mean no copy and no dyn_size: 8 bytes at least */
  kept = MAX ((MIN (dyn_size, stack_size) + 7) & ~(guint64) 7, 8);
  if (kept >= stack_size)
    return FALSE;

  memcpy (&header, record, sizeof header);
  header.size -= (guint16) (stack_size - kept);
  g_byte_array_append (out, (const guint8 *) &header, sizeof header);
  g_byte_array_append (out, record + sizeof header, at - sizeof header);
  g_byte_array_append (out, (const guint8 *) &kept, sizeof kept);
  g_byte_array_append (out, record + at + sizeof stack_size, kept);
  /* dyn_size and whatever follows the copy */
  g_byte_array_append (out, record + at + sizeof stack_size + stack_size,
                       size - at - sizeof stack_size - stack_size);
  return TRUE;
}

gsize
hp_perf_ring_read (HpPerfRing *self,
                   GByteArray *out)
{
  return hp_perf_ring_read_trimmed (self, out, NULL, NULL);
}

gsize
hp_perf_ring_read_trimmed (HpPerfRing        *self,
                           GByteArray        *out,
                           HpPerfStackFinder  find_stack,
                           gpointer           user_data)
{
  guint64 head = __atomic_load_n (&self->meta->data_head, __ATOMIC_ACQUIRE);
  guint64 tail = self->meta->data_tail;
  gsize mask = self->data_size - 1;
  guint had = out->len;

  /* Room for all of it at once: appending record by record grew @out
   * through a dozen reallocations, each copying what it held. */
  if (head > tail && head - tail <= self->data_size)
    {
      g_byte_array_set_size (out, had + (guint) (head - tail));
      g_byte_array_set_size (out, had);
    }

  while (tail < head)
    {
      struct perf_event_header header;
      gsize off = tail & mask;
      gsize first;

      if (head - tail < sizeof header)
        break;

      /* The header itself may wrap. */
      first = MIN (sizeof header, self->data_size - off);
      memcpy (&header, self->data + off, first);
      if (first < sizeof header)
        memcpy ((guint8 *) &header + first, self->data, sizeof header - first);

      if (header.size < sizeof header || header.size > head - tail)
        {
          /* Cannot happen with a sane kernel; drop what is left rather than spin. */
          g_warning ("perf ring: bad record size %u, dropping %" PRIu64 " bytes",
                     header.size, head - tail);
          tail = head;
          break;
        }

      first = MIN ((gsize) header.size, self->data_size - off);
      if (first < header.size)
        {
          g_byte_array_append (out, self->data + off, first);
          g_byte_array_append (out, self->data, header.size - first);
        }
      else if (find_stack == NULL
               || !append_trimmed (out, self->data + off, header.size, find_stack, user_data))
        g_byte_array_append (out, self->data + off, header.size);

      tail += header.size;
    }

  __atomic_store_n (&self->meta->data_tail, tail, __ATOMIC_RELEASE);
  return out->len - had;
}
