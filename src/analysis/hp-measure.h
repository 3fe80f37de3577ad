/* hp-measure.h - what a view counts: one event of a capture, its unit, and ratios of two
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

/* The function a wall or off-CPU view shows below where a thread blocked
 * (module 0): its samples are the time the thread waited. */
#define HP_WAITING_FUNCTION "[waiting]"

/* What a view of a capture counts. */
typedef struct {
  char     *event;      /* "cpu-clock", "page-faults", "off-cpu", "wall" */
  char     *unit;       /* the event's unit: "ns", "page faults", "cycles" */
  guint64   mask;       /* the events counted (bit id - 1) */
  gboolean  by_weight;  /* counts the events' weights (page faults, ns off
                         * the CPU), not the samples */
  gboolean  is_time;    /* by_weight, and the weights are ns */
  gboolean  off_cpu;    /* off-cpu or wall: time away from the CPU counts */
} HpMeasure;

/* The events of @data a view can show, in the capture's order, then
 * "wall" when it has cpu-clock and off-cpu (char*; free the array). A
 * capture made without the events table gives its one event. */
GPtrArray     *hp_measure_list_events (const HpCaptureData *data);

/* Fills @measure for @event of @data (NULL: its first event). A time
 * sampled by a clock (cpu-clock, task-clock: unit "ns") counts samples,
 * which weigh the same; every other event counts its weights, so a view
 * of page faults counts page faults whatever the sampling rate. FALSE
 * when @data has no such event. */
gboolean       hp_measure_init        (HpMeasure           *measure,
                                       const HpCaptureData *data,
                                       const char          *event);
void           hp_measure_clear       (HpMeasure           *measure);
void           hp_measure_copy        (HpMeasure           *dest,
                                       const HpMeasure     *src);

/* A copy of @data (sharing its tables) whose stack_counts count what
 * @measure counts: its events, and their weights as samples when it is
 * by weight. */
HpCaptureData *hp_measure_select      (const HpMeasure     *measure,
                                       const HpCaptureData *data);

/* A copy of @data in which the stack of every off-cpu sample ends in a
 * frame of HP_WAITING_FUNCTION below the place the thread blocked, so
 * that a wall view shows where a function waited apart from where it
 * computed, and a bottom-up tree starts with all the waiting. Function,
 * frame and stack ids of @data keep their meaning; @data without off-cpu
 * is returned as a copy. The tables are copied: the result outlives @data. */
HpCaptureData *hp_measure_mark_waiting (const HpCaptureData *data);

/* Moves each count of @counts (HpCaptureStackCount of off-cpu samples, as
 * counted from the samples table for a time range) from its stack to
 * that stack's waiting node in @marked (hp_measure_mark_waiting()), as
 * the capture's own off-cpu counts are. A stack without one is kept. */
void           hp_measure_remap_waiting (const HpCaptureData *marked,
                                         GArray              *counts);

/* Whether @function_id of @data is the waiting marker. */
gboolean       hp_measure_is_waiting  (const HpCaptureData *data,
                                       gint64               function_id);

/* A ratio of two events of one capture, per call path. */
typedef enum {
  HP_RATIO_NONE,
  HP_RATIO_PER_CYCLE,   /* instructions per cycle (IPC) */
  HP_RATIO_PER_KILO,    /* numerator per 1,000 instructions (MPKI) */
  HP_RATIO_PER_MS,      /* numerator per ms of the denominator's time on the CPU */
  HP_RATIO_PER_EVENT,   /* numerator per one of the denominator */
} HpRatioKind;

typedef struct {
  HpRatioKind kind;
  guint       numerator;    /* event ids */
  guint       denominator;
  double      scale;        /* the ratio is numerator * scale / denominator */
} HpRatio;

/* The ratio that @data's events allow, most telling first: instructions
 * per cycle; cache or branch misses per 1,000 instructions; a counted
 * event per ms on the CPU (cpu-clock or task-clock); one counted event
 * per another. Off-CPU time takes part in none (the wall view shows it).
 * FALSE, with kind HP_RATIO_NONE, when no two events make one. */
gboolean       hp_ratio_find          (const HpCaptureData *data,
                                       HpRatio             *ratio);
/* numerator * scale / denominator, NAN when @denominator is 0 */
double         hp_ratio_value         (const HpRatio       *ratio,
                                       guint64              numerator,
                                       guint64              denominator);

/* The totals of the numerator and the denominator of a ratio for each
 * node of a shown tree: the same call path (function ids from the root)
 * in the trees of two weight profiles, which count one event each under
 * the same filter. Immutable once made. */
typedef struct _HpRatioMap HpRatioMap;

HpRatioMap    *hp_ratio_map_new       (const HpCallNode    *shown,
                                       const HpCallNode    *numerator,
                                       const HpCallNode    *denominator);
void           hp_ratio_map_free      (HpRatioMap          *self);
/* FALSE when @node is not of the shown tree */
gboolean       hp_ratio_map_lookup    (const HpRatioMap    *self,
                                       const HpCallNode    *node,
                                       guint64             *numerator,
                                       guint64             *denominator);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpRatioMap, hp_ratio_map_free)

G_END_DECLS
