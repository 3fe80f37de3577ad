/* hp-compare.h - compare two sets of captures: what got slower, and is it real
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "store/hp-capture.h"

G_BEGIN_DECLS

#define HP_COMPARE_ERROR (hp_compare_error_quark ())
GQuark hp_compare_error_quark (void);

typedef enum {
  HP_COMPARE_ERROR_NO_CAPTURES,   /* a side (or a folder) holds no capture */
  HP_COMPARE_ERROR_MISMATCH,      /* captures of different events or units */
  HP_COMPARE_ERROR_TOO_MANY_SAMPLES, /* a side's samples add up to more than 2^62 */
} HpCompareError;

typedef enum {
  HP_COMPARE_BASE,
  HP_COMPARE_NEW,
} HpCompareSide;

typedef enum {
  HP_VERDICT_UNRESOLVED,  /* the interval is too wide to say */
  HP_VERDICT_UNCHANGED,   /* the interval rules out changes above the comparison's
                           * MDE (hp_comparison_get_mde()) */
  HP_VERDICT_FASTER,      /* significant (q < alpha) and above the floor */
  HP_VERDICT_SLOWER,
  HP_VERDICT_NEGLIGIBLE,  /* neither: the interval of the difference lies within
                           * the floor, whatever the change in percent (a figure
                           * of a few samples, or smaller than the floor) */
} HpVerdict;
#define HP_N_VERDICTS 5

const char *hp_verdict_to_string (HpVerdict verdict);

typedef enum {
  HP_COMPARE_METHOD_WELCH,     /* several runs per side: Welch's t on per-run costs */
  HP_COMPARE_METHOD_ONE_RUN,   /* one run on one side: the other side's run-to-run variance for both */
  HP_COMPARE_METHOD_COUNTS,    /* one run per side: sampling error of the counts only */
} HpCompareMethod;

/* One quantity (a function's self or total cost, a path's total cost)
 * compared. Costs are mean event units per run (weights: samples × period),
 * each run's scaled by its speed factor (see hp-compare.c). */
typedef struct {
  double    base;
  double    new_cost;
  double    change;       /* percent of base; NAN when base is 0 */
  double    low;          /* 1 - alpha interval of change, percent; NAN when unbounded */
  double    high;
  double    p;
  double    q;            /* Benjamini–Hochberg; NAN when left out of the family
                           * (it could never reach the materiality floor) */
  double    mde;          /* minimum detectable effect, percent of base (INFINITY when base is 0) */
  double    mde_cost;     /* the same in event units */
  double    diff_low;     /* the interval of new - base, event units */
  double    diff_high;
  guint64   base_samples; /* over all runs of the side */
  guint64   new_samples;
  HpVerdict verdict;
} HpCompareStat;

typedef struct {
  const char   *name;     /* with GCC clone suffixes folded away */
  const char   *module;   /* module base name, as path keys have it */
  HpCompareStat self;
  HpCompareStat total;
  guint         ident;    /* internal */
} HpCompareFunction;

/* A function only in the base paired with one only in the new runs, as
 * the same function renamed (hp_comparison_get_renames()): the base one's
 * cost against the new one's, judged among the pairs. */
typedef struct {
  guint         removed;  /* index of hp_comparison_get_function(): base only */
  guint         added;    /* new only */
  HpCompareStat self;
  HpCompareStat total;
} HpCompareRename;

typedef struct {
  const char *name;       /* its last step */
  const char *module;
  guint       depth;      /* 1 for a root function */
  gint        parent;     /* index in the paths, -1 for a root function */
} HpComparePath;

/* A caller or callee of a function: the cost of the calls between the
 * two, i.e. the total of the callee on those paths (the outermost call
 * of the function, when it recurses). */
typedef struct {
  const char   *name;
  const char   *module;
  HpCompareStat stat;
  gint          path;     /* the one call path these calls are (its row in the
                           * tree, whose statistics and verdict @stat is), or -1
                           * when they add up several: then judged among the
                           * function's neighbours, a question of their own */
} HpCompareNeighbour;

/* A source line of a function: the samples whose leaf is at it (self) and
 * those with a frame of the function at it (total). */
typedef struct {
  const char   *file;     /* as the captures' DWARF names it (the new side's) */
  guint         line;     /* its number in the new side's file; 0 for a line
                           * only in the base (hp_comparison_get_lines_aligned()) */
  guint         base_line; /* its number in the base's file; 0 when the base has
                            * no samples at it */
  HpCompareStat self;
  HpCompareStat total;
} HpCompareLine;

/* How the lines of the base were matched to those of the new. */
typedef enum {
  HP_COMPARE_LINES_BY_NUMBER,       /* the same number (nothing better known) */
  HP_COMPARE_LINES_BY_DECLARATION,  /* as far from the function's declaration, which moved */
  HP_COMPARE_LINES_BY_TEXT,         /* the same text in the two versions of the file */
} HpCompareLineMatch;

typedef struct {
  guint       n_captures;
  guint64     n_samples;  /* over all its captures */
  double      cost;       /* mean total cost per run, event units */
  double      matched;    /* share of its self cost in functions the other side has too */
  const char *event;
  const char *unit;
  const char *command;    /* of its first capture, NULL when unknown */
  const char *first_file;
} HpCompareSideInfo;

typedef struct {
  double alpha;           /* level of the intervals and of q (default 0.05) */
  double power;           /* of the minimum detectable effect (default 0.8) */
  double floor_percent;   /* materiality floor, percent of the total cost (default 1) */
} HpCompareOptions;

#define HP_COMPARE_OPTIONS_DEFAULT { 0.05, 0.8, 1.0 }

typedef struct _HpComparison HpComparison;

HpComparison   *hp_comparison_new          (void);
/* A comparison that also builds the bottom-up (callers) tree of the same
 * runs: hp_comparison_get_bottom_up() after hp_comparison_run(). */
HpComparison   *hp_comparison_new_with_bottom_up (void);
/* The bottom-up comparison (owned by @self), or NULL. Its paths are read
 * from the leaf up ("leaf ← caller ← …"): a path's cost is that of the
 * samples whose stack ends with it. Its functions are the same. */
HpComparison   *hp_comparison_get_bottom_up (HpComparison       *self);
void            hp_comparison_keep_lines   (HpComparison        *self);
gboolean        hp_comparison_is_bottom_up (HpComparison        *self);
void            hp_comparison_free         (HpComparison        *self);

/* Adds one run to a side. @name names it in messages (its file). */
gboolean        hp_comparison_add_data     (HpComparison        *self,
                                            HpCompareSide        side,
                                            const char          *name,
                                            const HpCaptureData *data,
                                            GError             **error);
/* Adds @path to a side: one capture, or every *.hotpath in a folder
 * (repeated runs). Errors name the file or folder. The captures are
 * opened (and a file that is not one refused) now, and loaded by
 * hp_comparison_run(). */
gboolean        hp_comparison_add_path     (HpComparison        *self,
                                            HpCompareSide        side,
                                            const char          *path,
                                            GCancellable        *cancellable,
                                            GError             **error);

/* Compares event @name (or "wall") of the captures added by path, not
 * their first; call before hp_comparison_run(). A capture without it is
 * an error that names it. */
void            hp_comparison_set_event    (HpComparison        *self,
                                            const char          *name);

/* Loads what hp_comparison_add_path() opened and compares the two sides.
 * Fails when a capture cannot be read, a side is empty, or the captures
 * measured different events or units. */
gboolean        hp_comparison_run          (HpComparison           *self,
                                            const HpCompareOptions *options,
                                            GError                **error);

HpCompareMethod hp_comparison_get_method   (HpComparison        *self);
const HpCompareSideInfo *hp_comparison_get_side (HpComparison   *self,
                                            HpCompareSide        side);
/* The whole program's cost per run, as measured: not scaled by the runs'
 * speed, so a change of the whole program's speed (the machine's or the
 * code's) shows here. */
const HpCompareStat *hp_comparison_get_program (HpComparison     *self);
/* The whole program's cost as the rows are measured: each run scaled by
 * its speed factor, which takes the machine's run-to-run noise out (the
 * figure of a root that holds the whole program). NULL when the runs are
 * not scaled: then it is hp_comparison_get_program(). */
const HpCompareStat *hp_comparison_get_program_scaled (HpComparison *self);
/* How many functions the runs' speed factors come from; 0 when the costs
 * are not scaled (fewer than three functions over the floor in every run). */
guint           hp_comparison_get_n_reference (HpComparison      *self);
/* The floor in event units per run. */
double          hp_comparison_get_floor    (HpComparison        *self);
/* The minimum detectable effect of the hot functions, in percent: the
 * median over the functions with at least 5 % of the self cost (or the
 * hottest one), from the statistics alone (the floor aside). NAN when none. */
double          hp_comparison_get_mde      (HpComparison        *self);
/* What @stat's verdict means, with its figures, one translated sentence
 * ("unresolved: the runs cannot tell; the 95 % interval, …"). */
char           *hp_comparison_explain      (HpComparison        *self,
                                            const HpCompareStat *stat);
/* Messages about the inputs that still gave a result (nothing in common). */
const char * const *hp_comparison_get_warnings (HpComparison    *self);

/* Functions, ordered by significance and size: the slower and faster
 * (by q, then by the size of the change), then the others by cost. */
guint           hp_comparison_get_n_functions (HpComparison     *self);
const HpCompareFunction *hp_comparison_get_function (HpComparison *self,
                                            guint                i);
GArray         *hp_comparison_get_renames  (HpComparison        *self);
/* The same for functions by total cost: index into the functions. */
const guint    *hp_comparison_get_functions_by_total (HpComparison *self);

/* Call paths merged over both sides, the merged top-down tree: a path's
 * parent comes before it. The statistics of a path are of its total cost,
 * computed when first asked. */
guint           hp_comparison_get_n_paths  (HpComparison        *self);
const HpComparePath *hp_comparison_get_path (HpComparison       *self,
                                            guint                i);
const HpCompareStat *hp_comparison_get_path_stat (HpComparison  *self,
                                            guint                i);
/* The children of path @i (-1: the roots): those judged slower or faster
 * first, then by total cost, descending (so that a tree shows a change
 * where it opens, not below the children that cost more). */
GArray         *hp_comparison_get_path_children (HpComparison   *self,
                                            gint                 i);
/* The paths that can be flagged (their cost reaches the floor on one
 * side), ordered as the functions are. */
GArray         *hp_comparison_get_material_paths (HpComparison  *self);
/* "MODULE\tFUNCTION\n" per step (the summaries' key) and "a → b → c". */
char           *hp_comparison_get_path_key (HpComparison        *self,
                                            guint                i);
char           *hp_comparison_get_path_readable (HpComparison   *self,
                                            guint                i);
/* A path key of a compared capture (a summary's) with the module of a
 * program renamed (app-new) named as the comparison names it (app-old). */
char           *hp_comparison_match_path_key (HpComparison      *self,
                                            const char          *key);

/* @name without GCC's clone suffixes (.part.N, .constprop.N, .isra.N,
 * .cold, and " [clone .isra.0]" as demanglers print them). */
gint            hp_comparison_find_function (HpComparison       *self,
                                            const char          *module,
                                            const char          *name);
GArray         *hp_comparison_get_callers  (HpComparison        *self,
                                            guint                function);
GArray         *hp_comparison_get_callees  (HpComparison        *self,
                                            guint                function);
GArray         *hp_comparison_get_lines    (HpComparison        *self,
                                            guint                function);
void            hp_comparison_get_line_files (HpComparison      *self,
                                            guint                function,
                                            const char         **base_file,
                                            const char         **new_file);
GArray         *hp_comparison_get_lines_aligned (HpComparison   *self,
                                            guint                function,
                                            const char * const  *base_text,
                                            guint                n_base_text,
                                            const char * const  *new_text,
                                            guint                n_new_text,
                                            HpCompareLineMatch  *match);

char           *hp_compare_fold_clone_name (const char          *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpComparison, hp_comparison_free)

G_END_DECLS
