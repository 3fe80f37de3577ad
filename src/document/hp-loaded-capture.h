/* hp-loaded-capture.h - a capture loaded for the window, and its profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "analysis/hp-jit-tiers.h"
#include "analysis/hp-measure.h"
#include "analysis/hp-profile.h"
#include "analysis/hp-sample-index.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

/* What the window shows of one capture file, loaded off the main thread.
 * Immutable once loaded, so workers may read it while the window does;
 * shared by reference counting. */
typedef struct {
  char          *path;
  char          *display_name;       /* file name, for the title */
  HpCaptureData *data;
  GHashTable    *summaries;          /* path key -> text, as loaded */
  GPtrArray     *summary_rows;       /* HpCaptureSummary*: where each was written */
  gboolean       summaries_cut;      /* the capture holds more than were read */
  guint64        n_samples;          /* of its first event (data->stack_counts), filters aside */
  guint64        n_all_samples;      /* of every event, filters aside: what lost and truncated
                                      * stacks are a share of (hp_capture_data_count_all_samples) */
  char          *program;            /* whose summaries the library files them under; NULL: unknown */
  char          *read_only_reason;   /* NULL when summaries can be saved */
  gboolean       imported;           /* a cached import of a perf.data (or pprof, folded) file:
                                      * Save as Capture makes it one where summaries are kept */
  /* What the window shows of each name (hp-symbol-name.h): made safe
   * and shortened once, in the worker, indexed by function id: */
  const char   **row_names;          /* rows: templates folded */
  const char   **short_names;        /* narrow places: no parameters either */
  const char   **module_names;       /* indexed by module id */
  GStringChunk  *shown_strings;      /* holds the three above */
  /* per entry of data->threads: the function it starts in, NULL when
   * unknown (hp_thread_start_functions()); points into data */
  const char   **thread_starts;
  /* Run-time compiled code: how each function's samples split over the
   * tiers, and its module as shown with the main tier ("[jit] ·
   * optimized"), by function id; both NULL when no code has a tier. */
  HpJitTiers    *jit_tiers;
  GHashTable    *tier_modules;
  /* its profiles alive (atomic; hp_loaded_capture_get_n_profiles()) */
  gint           n_profiles;
} HpLoadedCapture;

/* A profile of a loaded capture for a set of threads (or all). Also
 * immutable once built: hp_profile_get_functions() caches lazily, so the
 * builder fills both caches before the profile is shared. */
/* What a profile of a capture keeps: threads, a time range, recursion
 * merged, frames folded into their callers, and which event it counts.
 * The default (all zero) keeps everything and counts the first event. */
typedef struct {
  GHashTable       *tids;            /* NULL: all threads */
  gboolean          has_range;
  guint64           from;            /* ns of the perf clock, both included */
  guint64           to;
  gboolean          merge_recursion;
  gboolean          fold_inline;     /* inlined functions counted in their caller */
  gboolean          hide_kernel;     /* kernel frames in the user function that entered it */
  GHashTable       *fold_functions;  /* GSIZE_TO_POINTER (function id) folded into callers; NULL: none */
  GHashTable       *fold_modules;    /* GSIZE_TO_POINTER (module id) folded into callers; NULL: none */
  const char       *event;           /* hp_measure_list_events(); NULL: the first */
  /* Not a filter: build the bottom-up tree in the worker too, because it
   * is shown. Otherwise it is built when first asked for
   * (hp_profile_get_bottom_up), which a window does off the main thread. */
  gboolean          bottom_up;
} HpProfileFilter;

/* The steps of building a profile, as HpLoadedProfile times them */
typedef enum {
  HP_BUILD_COUNTS,    /* the filters' per-stack counts: range, folds */
  HP_BUILD_PROFILE,   /* the trees, callers/callees, function lists */
  HP_BUILD_HOTTEST,   /* each function's hottest node */
  HP_BUILD_RATIO,     /* the ratio's two events, when the view shows one */
  HP_BUILD_N_STEPS
} HpBuildStep;

typedef struct {
  HpLoadedCapture  *capture;         /* a reference */
  HpProfile        *profile;
  GHashTable       *tids;            /* NULL: all threads */
  /* what the profile counts: a filtered copy of capture->data that shares its tables */
  HpCaptureData    *data;
  gboolean          has_range;
  guint64           from;
  guint64           to;
  gboolean          merge_recursion;
  gboolean          fold_inline;
  gboolean          hide_kernel;
  GHashTable       *fold_functions;  /* as in the filter; NULL: none */
  GHashTable       *fold_modules;
  guint64           hidden_samples;  /* left out by hide_kernel (kernel frames only), in what
                                      * measure counts: samples, or weights */
  /* what the profile counts, in which unit (samples, or weights) */
  HpMeasure         measure;
  /* a ratio of two events of the capture per call path, when they allow
   * one (kind HP_RATIO_NONE otherwise), for the nodes of both trees */
  HpRatio           ratio;
  HpRatioMap       *ratio_top_down;
  HpRatioMap       *ratio_bottom_up;  /* NULL until that tree is shown: use
                                       * hp_loaded_profile_get_ratio_map() */
  /* the profiles of the ratio's two events (numerator, denominator),
   * kept for the bottom-up map: either is @profile when it counts that
   * event's weights; and the counts of the others */
  HpProfile        *ratio_profiles[2];
  HpCaptureData    *ratio_data[2];
  GMutex            ratio_lock;
  /* indexed by function id: the top-down node of that function with the
   * most total samples, NULL when the function has none */
  const HpCallNode **hottest_node;
  /* per entry of capture->data->threads: what the measure counts of that
   * thread in the whole capture, whatever the filter keeps (the thread
   * and process filters list every thread by it) */
  guint64          *thread_amounts;
  /* what the measure counts in the whole capture, whatever the filter
   * keeps (the overview's "of N"): summed in the worker with the above,
   * so that the window makes no pass over the capture's counts */
  guint64           capture_amount;
  /* the same within the time range (has_range; NULL without one): the
   * filters list threads by thread_amounts, so that their entries stay
   * put while the range moves, and say these */
  guint64          *range_amounts;
  /* CPU ms the building thread spent on each step (the bottom-up tree
   * is built meanwhile in a thread of its own, not counted here), for
   * the display benchmark */
  double            build_cpu_ms[HP_BUILD_N_STEPS];
  /* and the page faults it took (fresh memory touched) */
  guint64           build_faults[HP_BUILD_N_STEPS];
} HpLoadedProfile;

typedef enum {
  HP_LOAD_STAGE_OPENING,
  HP_LOAD_STAGE_IMPORTING,
  HP_LOAD_STAGE_FETCHING,   /* importing, and fetching debug info: @detail says what */
  HP_LOAD_STAGE_READING,
  HP_LOAD_STAGE_ANALYZING,
  HP_LOAD_STAGE_DONE,
} HpLoadStage;

/* Called on the caller's main context while the worker runs. @detail is
 * a sentence for the user about the stage (translated), or NULL. */
typedef void (*HpLoadProgress) (HpLoadStage  stage,
                                double       fraction,
                                const char  *detail,
                                GObject     *progress_data);

/* The longest name shown in a row, and in a narrow place, in characters */
#define HP_SHOWN_ROW_CHARS    300
#define HP_SHOWN_SHORT_CHARS  120

/* Sets of ids (GINT_TO_POINTER: threads, functions) as filters keep
 * them: a copy, NULL when @set is NULL or empty; and whether two hold the
 * same ids, NULL and empty both meaning no set. */
GHashTable      *hp_id_set_copy           (GHashTable      *set);
gboolean         hp_id_set_equal          (GHashTable      *a,
                                           GHashTable      *b);

HpLoadedCapture *hp_loaded_capture_ref    (HpLoadedCapture *self);
void             hp_loaded_capture_unref  (HpLoadedCapture *self);
const char      *hp_loaded_capture_get_metadata (HpLoadedCapture *self,
                                                 const char      *key);
/* The name of @function_id as rows show it, or (@narrow) as breadcrumbs,
 * captions and the callers show it; "" for no function. */
const char      *hp_loaded_capture_get_shown_name (HpLoadedCapture *self,
                                                   gint64           function_id,
                                                   gboolean         narrow);
const char      *hp_loaded_capture_get_shown_module (HpLoadedCapture *self,
                                                     gint64           function_id);
/* For run-time compiled code, a sentence that says how the function's
 * samples split over its compilation tiers; NULL for other code. */
char            *hp_loaded_capture_dup_tier_text (HpLoadedCapture *self,
                                                  gint64           function_id);
/* The whole name, safe to show, capped for a tooltip; free it */
char            *hp_loaded_capture_dup_tooltip_name (HpLoadedCapture *self,
                                                     gint64           function_id);
/* The whole name as the capture holds it (valid UTF-8), for the clipboard */
char            *hp_loaded_capture_dup_full_name (HpLoadedCapture *self,
                                                  gint64           function_id);

HpLoadedProfile *hp_loaded_profile_ref    (HpLoadedProfile *self);
/* Whether @self was built with @filter's folds (inline, kernel, functions,
 * modules and merged recursion); threads and range are not compared */
gboolean         hp_loaded_profile_has_folds (HpLoadedProfile       *self,
                                              const HpProfileFilter *filter);
void             hp_loaded_profile_unref  (HpLoadedProfile *self);

/* Opens, loads and analyzes @path in a worker thread. The result holds
 * the capture and its profile over all threads. Errors are HP_STORE_ERROR
 * (naming the file and the reason) or G_IO_ERROR_CANCELLED. */
void             hp_loaded_capture_load_async  (const char          *path,
                                                GCancellable        *cancellable,
                                                HpLoadProgress       progress,
                                                GObject             *progress_data,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
HpLoadedProfile *hp_loaded_capture_load_finish (GAsyncResult        *result,
                                                GError             **error);
/* How many profiles of @self are alive, for the tests: one once the
 * window settled, whatever built and replaced them (a profile's trees
 * are the most memory a window holds, and whatever keeps one after it
 * was replaced keeps its blocks from the next filter's build) */
guint            hp_loaded_capture_get_n_profiles (HpLoadedCapture *self);
/* How many loads run in workers now (for the tests) */
guint            hp_loaded_capture_get_n_loading (void);

/* Builds the profile of @capture for @tids (a set of GINT_TO_POINTER (tid),
 * copied; NULL for all threads) in a worker thread. */
void             hp_loaded_profile_build_async  (HpLoadedCapture     *capture,
                                                 GHashTable          *tids,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
HpLoadedProfile *hp_loaded_profile_build_finish (GAsyncResult        *result,
                                                 GError             **error);
/* The events (bit id - 1) that a profile of @data counts, for
 * hp_sample_index_count() and hp_timeline_set_event_mask(): the event a
 * view shows. */
guint64          hp_loaded_profile_event_mask (const HpCaptureData *data);

/* The same with a whole filter; a time range needs @samples (of this
 * capture, from hp_loaded_capture_load_samples_async). */
void             hp_loaded_profile_build_filtered_async (HpLoadedCapture       *capture,
                                                         const HpProfileFilter *filter,
                                                         HpSampleIndex         *samples,
                                                         GCancellable          *cancellable,
                                                         GAsyncReadyCallback    callback,
                                                         gpointer               user_data);

/* Makes the block pool ready, in a worker, for the next profile of
 * @profile's capture to be built beside it: the first filter after
 * opening (a time range, a thread) otherwise faults in its memory fresh,
 * which cost the display benchmark's stress capture more than half of
 * that build (hp_block_pool_reserve). */
void             hp_loaded_profile_prepare_filters (HpLoadedProfile *profile);
/* The ratio's totals for the nodes of the top-down or the bottom-up
 * tree, NULL when the profile has no ratio. The bottom-up map is made on
 * the first call (thread-safe), with the bottom-up trees of both events:
 * call it off the main thread, as hp_profile_get_bottom_up() is. */
HpRatioMap      *hp_loaded_profile_get_ratio_map (HpLoadedProfile *self,
                                                  gboolean         bottom_up);

/* The same in the calling thread (a worker's). */
HpLoadedProfile *hp_loaded_profile_build (HpLoadedCapture       *capture,
                                          const HpProfileFilter *filter,
                                          HpSampleIndex         *samples);

/* Reads every sample of @capture, of every event, in a worker: for the
 * timeline and time ranges. */
void             hp_loaded_capture_load_samples_async  (HpLoadedCapture     *capture,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
HpSampleIndex   *hp_loaded_capture_load_samples_finish (GAsyncResult        *result,
                                                        GError             **error);

/* Why summaries of the capture at @path cannot be written, or NULL; the
 * same checks the store makes before a write, made without writing. */
char            *hp_loaded_capture_why_read_only (const char *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpLoadedCapture, hp_loaded_capture_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpLoadedProfile, hp_loaded_profile_unref)

G_END_DECLS
