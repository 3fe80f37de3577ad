/* hp-summary-match.h - finding a summary's call path in another capture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"

G_BEGIN_DECLS

/* Which rule placed a summary, in the order they are tried; each allows
 * what the ones before it do. */
typedef enum {
  HP_SUMMARY_MATCH_NONE,
  HP_SUMMARY_MATCH_EXACT,           /* the same path key */
  HP_SUMMARY_MATCH_CLONES,          /* GCC's clones folded: foo.part.0 is foo */
  HP_SUMMARY_MATCH_MODULE_VERSION,  /* a module's version changed: libfoo.so.1.2 is libfoo.so.1.3 */
  HP_SUMMARY_MATCH_INLINE,          /* one frame appeared or disappeared (inlining) */
} HpSummaryMatch;

/* "exact", "clones folded", "module version", "inlined frame" */
const char       *hp_summary_match_to_string  (HpSummaryMatch how);

/* The node of @profile's top-down tree that the path key @key (of
 * another capture) names, by the first rule that finds one; where a rule
 * finds several, the hottest. NULL, and HP_SUMMARY_MATCH_NONE, when none. */
const HpCallNode *hp_summary_match_find       (HpProfile      *profile,
                                               const char     *key,
                                               HpSummaryMatch *how);

/* The same for many keys: each function's identity under each rule is
 * made once, on the first key that needs it, rather than once per key.
 * Holds @profile, which must outlive it. */
typedef struct _HpSummaryMatcher HpSummaryMatcher;

HpSummaryMatcher *hp_summary_matcher_new      (HpProfile        *profile);
void              hp_summary_matcher_free     (HpSummaryMatcher *matcher);
const HpCallNode *hp_summary_matcher_find     (HpSummaryMatcher *matcher,
                                               const char       *key,
                                               HpSummaryMatch   *how);

/* A module's base name without its version: "libfoo.so.1.2" and
 * "libfoo-1.2.so" give "libfoo.so". */
char             *hp_summary_fold_module      (const char     *module);

/* The program a capture profiled, as the per-user library files its
 * summaries: the base name of the executable of its command ("demo" for
 * "./build/demo --fast"), else of its first process. NULL when unknown. */
char             *hp_summary_program_name     (const HpCaptureData *data);

/* @node's total samples in percent of @profile's; NAN for an empty one. */
double            hp_summary_share            (HpProfile        *profile,
                                               const HpCallNode *node);

/* Where each summary of another capture goes in this one. */
typedef struct {
  /* as it is to be written into this capture: the key of the path found,
   * or its old key with found = FALSE; where and when it was written,
   * and its share then, as they were */
  HpCaptureSummary *summary;
  char             *old_path;   /* readable, in the other capture */
  HpSummaryMatch    how;
  double            share_now;  /* NAN when not found */
  /* this capture has a summary there already, with another text (kept) */
  gboolean          conflict;
  /* this capture has the very same summary there already */
  gboolean          present;
} HpSummaryPlacement;

void              hp_summary_placement_free   (HpSummaryPlacement *placement);

/* Places @summaries (HpCaptureSummary*, from a capture whose file is named
 * @from_capture, or from the library) on the paths of @profile, whose own
 * summaries are @existing (HpCaptureSummary*, may be NULL). One
 * HpSummaryPlacement per summary, in their order. A summary without its
 * capture gets @from_capture. */
GPtrArray        *hp_summary_place            (HpProfile  *profile,
                                               GPtrArray  *summaries,
                                               const char *from_capture,
                                               GPtrArray  *existing);

/* The text of this capture's summary at @path_key into @text (NULL when
 * it has none); FALSE, with @error set, when that cannot be read. */
typedef gboolean (*HpSummaryLookupFunc) (const char  *path_key,
                                         char       **text,
                                         gpointer     user_data,
                                         GError     **error);

/* An HpSummaryLookupFunc whose @user_data is the HpCapture (store/hp-capture.h) to ask */
gboolean          hp_summary_lookup_in_capture (const char  *path_key,
                                                char       **text,
                                                gpointer     user_data,
                                                GError     **error);

/* As hp_summary_place(), with @matcher (NULL: one of its own), and
 * @lookup asked for this capture's summary at a path that neither
 * @existing nor the placements before it hold: a capture of more
 * summaries than are read at once is judged whole. NULL, with @error
 * set, when @lookup fails. */
GPtrArray        *hp_summary_place_full       (HpProfile            *profile,
                                               HpSummaryMatcher     *matcher,
                                               GPtrArray            *summaries,
                                               const char           *from_capture,
                                               GPtrArray            *existing,
                                               HpSummaryLookupFunc   lookup,
                                               gpointer              lookup_data,
                                               GError              **error);
/* Where a summary shown in the capture named @this_capture comes from,
 * when it was written in another one: "written in old.hotpath on
 * 2026-12-01, 12.3 % then, 8.1 % now" (the shares when known; @share_now
 * NAN when the path is not in this capture). NULL when it was written in
 * this capture, or nobody knows where. */
char             *hp_summary_describe_origin  (const HpCaptureSummary *summary,
                                               const char             *this_capture,
                                               double                  share_now);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSummaryPlacement, hp_summary_placement_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpSummaryMatcher, hp_summary_matcher_free)

G_END_DECLS
