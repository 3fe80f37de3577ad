/* hp-cli-suggest.h - hotpath-cli summary --suggest and --format: drafts and review documents
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"
#include "cli/hp-cli.h"

G_BEGIN_DECLS

/* Prints a suggested summary of @node: the summarizer's (HOTPATH_SUMMARIZER)
 * or the draft from the code. Returns the exit status. */
int  hp_cli_summary_suggest (HpProfile          *profile,
                             const HpCallNode   *node,
                             const char * const *source_dirs,
                             guint               timeout_seconds);
/* Prints every summary of @capture with its share now, as @format
 * ("markdown" or "json"). Returns the exit status. */
int  hp_cli_summary_review  (HpCapture          *capture,
                             const char         *format);

G_END_DECLS
