/* test-address-space.c - mmap semantics of HpAddressSpace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "hp-symbols"

#include "config.h"

#include <glib.h>

#include "symbols/hp-address-space.h"

/* Fake module pointers: the address space only stores them. */
#define MOD_A ((HpModule *) GSIZE_TO_POINTER (0x1000))
#define MOD_B ((HpModule *) GSIZE_TO_POINTER (0x2000))

static void
assert_mapping (HpAddressSpace *space,
                guint64         address,
                guint64         start,
                guint64         end,
                guint64         pgoff,
                const char     *name,
                HpModule       *module)
{
  const HpMapping *m = hp_address_space_lookup (space, address);

  g_assert_nonnull (m);
  g_assert_cmphex (m->start, ==, start);
  g_assert_cmphex (m->end, ==, end);
  g_assert_cmphex (m->pgoff, ==, pgoff);
  g_assert_cmpstr (m->name, ==, name);
  g_assert_true (m->module == module);
}

static void
test_lookup (void)
{
  HpAddressSpace *space = hp_address_space_new ();

  g_assert_null (hp_address_space_lookup (space, 0x1000));

  /* Added out of order; lookups must still find each. */
  hp_address_space_add (space, 0x7000, 0x1000, 0, "[vdso]", NULL);
  hp_address_space_add (space, 0x1000, 0x2000, 0x0, "/usr/bin/a", MOD_A);
  hp_address_space_add (space, 0x4000, 0x1000, 0x3000, "/usr/lib/libb.so", MOD_B);

  assert_mapping (space, 0x1000, 0x1000, 0x3000, 0, "/usr/bin/a", MOD_A);
  assert_mapping (space, 0x2fff, 0x1000, 0x3000, 0, "/usr/bin/a", MOD_A);
  assert_mapping (space, 0x4800, 0x4000, 0x5000, 0x3000, "/usr/lib/libb.so", MOD_B);
  assert_mapping (space, 0x7000, 0x7000, 0x8000, 0, "[vdso]", NULL);
  /* The last hit is remembered; a miss after it must still be a miss. */
  assert_mapping (space, 0x4000, 0x4000, 0x5000, 0x3000, "/usr/lib/libb.so", MOD_B);
  g_assert_null (hp_address_space_lookup (space, 0x5000));

  g_assert_null (hp_address_space_lookup (space, 0x0fff));
  g_assert_null (hp_address_space_lookup (space, 0x3000));
  g_assert_null (hp_address_space_lookup (space, 0x6fff));
  g_assert_null (hp_address_space_lookup (space, 0x8000));
  g_assert_null (hp_address_space_lookup (space, G_MAXUINT64));

  /* Zero-length mappings are ignored. */
  hp_address_space_add (space, 0x9000, 0, 0, "empty", NULL);
  g_assert_null (hp_address_space_lookup (space, 0x9000));

  hp_address_space_free (space);
}

static void
test_overlap (void)
{
  HpAddressSpace *space = hp_address_space_new ();

  hp_address_space_add (space, 0x10000, 0x10000, 0x100, "old", MOD_A);

  /* A hole in the middle splits the old mapping; the tail's file offset
   * moves with its start. */
  hp_address_space_add (space, 0x14000, 0x2000, 0x0, "mid", MOD_B);
  assert_mapping (space, 0x10000, 0x10000, 0x14000, 0x100, "old", MOD_A);
  assert_mapping (space, 0x13fff, 0x10000, 0x14000, 0x100, "old", MOD_A);
  assert_mapping (space, 0x14000, 0x14000, 0x16000, 0x0, "mid", MOD_B);
  assert_mapping (space, 0x16000, 0x16000, 0x20000, 0x6100, "old", MOD_A);
  assert_mapping (space, 0x1ffff, 0x16000, 0x20000, 0x6100, "old", MOD_A);

  /* Over the head of one and the tail of another. */
  hp_address_space_add (space, 0x0f000, 0x2000, 0x0, "head", NULL);
  assert_mapping (space, 0x0f000, 0x0f000, 0x11000, 0x0, "head", NULL);
  assert_mapping (space, 0x11000, 0x11000, 0x14000, 0x1100, "old", MOD_A);

  hp_address_space_add (space, 0x15000, 0x3000, 0x0, "straddle", NULL);
  assert_mapping (space, 0x14000, 0x14000, 0x15000, 0x0, "mid", MOD_B);
  assert_mapping (space, 0x15000, 0x15000, 0x18000, 0x0, "straddle", NULL);
  assert_mapping (space, 0x18000, 0x18000, 0x20000, 0x8100, "old", MOD_A);

  /* One mapping covering several replaces them all. */
  hp_address_space_add (space, 0x0e000, 0x20000, 0x0, "all", MOD_B);
  for (guint64 a = 0x0e000; a < 0x2e000; a += 0x800)
    assert_mapping (space, a, 0x0e000, 0x2e000, 0x0, "all", MOD_B);
  g_assert_null (hp_address_space_lookup (space, 0x0dfff));
  g_assert_null (hp_address_space_lookup (space, 0x2e000));

  /* The same range again: replaced, not duplicated. */
  hp_address_space_add (space, 0x0e000, 0x20000, 0x40, "again", MOD_A);
  assert_mapping (space, 0x0e000, 0x0e000, 0x2e000, 0x40, "again", MOD_A);

  hp_address_space_free (space);
}

static void
test_copy_and_clear (void)
{
  HpAddressSpace *parent = hp_address_space_new ();
  HpAddressSpace *child;

  hp_address_space_add (parent, 0x1000, 0x1000, 0, "/bin/a", MOD_A);
  hp_address_space_add (parent, 0x3000, 0x1000, 0, "/lib/b", MOD_B);

  child = hp_address_space_copy (parent);
  assert_mapping (child, 0x1000, 0x1000, 0x2000, 0, "/bin/a", MOD_A);
  assert_mapping (child, 0x3000, 0x3000, 0x4000, 0, "/lib/b", MOD_B);

  /* The child's later mmaps do not leak into the parent, and vice versa. */
  hp_address_space_add (child, 0x1000, 0x1000, 0, "/bin/c", MOD_B);
  assert_mapping (child, 0x1000, 0x1000, 0x2000, 0, "/bin/c", MOD_B);
  assert_mapping (parent, 0x1000, 0x1000, 0x2000, 0, "/bin/a", MOD_A);

  /* exec forgets everything. */
  hp_address_space_clear (parent);
  g_assert_null (hp_address_space_lookup (parent, 0x1000));
  g_assert_null (hp_address_space_lookup (parent, 0x3000));
  assert_mapping (child, 0x3000, 0x3000, 0x4000, 0, "/lib/b", MOD_B);

  hp_address_space_add (parent, 0x5000, 0x1000, 0, "/bin/new", MOD_A);
  assert_mapping (parent, 0x5000, 0x5000, 0x6000, 0, "/bin/new", MOD_A);

  hp_address_space_free (parent);
  hp_address_space_free (child);
  hp_address_space_free (NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/address-space/lookup", test_lookup);
  g_test_add_func ("/address-space/overlap", test_overlap);
  g_test_add_func ("/address-space/copy-and-clear", test_copy_and_clear);
  return g_test_run ();
}
