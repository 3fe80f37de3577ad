/* test-capture-data.h - hand-built HpCaptureData for the analysis tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tests fill the arrays with static strings, so freeing frees the
 * containers only.
 */
#pragma once

#include "store/hp-capture.h"

typedef HpCaptureData TestData;

/* Empty tables, each zero-filled when it grows (so [0] reads as unused). */
static inline TestData *
test_data_new (void)
{
  TestData *data = g_new0 (TestData, 1);

  data->modules = g_array_new (FALSE, TRUE, sizeof (HpCaptureModule));
  data->functions = g_array_new (FALSE, TRUE, sizeof (HpCaptureFunction));
  data->frames = g_array_new (FALSE, TRUE, sizeof (HpCaptureFrame));
  data->stacks = g_array_new (FALSE, TRUE, sizeof (HpCaptureStack));
  data->stack_counts = g_array_new (FALSE, TRUE, sizeof (HpCaptureStackCount));
  data->threads = g_array_new (FALSE, TRUE, sizeof (HpCaptureThread));
  data->processes = g_array_new (FALSE, TRUE, sizeof (HpCaptureProcess));
  data->metadata = g_hash_table_new (g_str_hash, g_str_equal);
  return data;
}

static inline void
test_data_free (TestData *data)
{
  g_array_unref (data->modules);
  g_array_unref (data->functions);
  g_array_unref (data->frames);
  g_array_unref (data->stacks);
  g_array_unref (data->stack_counts);
  g_array_unref (data->threads);
  g_array_unref (data->processes);
  g_hash_table_unref (data->metadata);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestData, test_data_free)
