/* hp-events.h - the events a recording can count, by the names people type
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  HP_EVENT_KIND_SOFTWARE,    /* counted by the kernel: cpu-clock, page-faults, ... */
  HP_EVENT_KIND_HARDWARE,    /* the CPU's performance counters: cycles, ... */
  HP_EVENT_KIND_TRACEPOINT,  /* a static tracepoint, "subsystem:name" */
  HP_EVENT_KIND_OFF_CPU,     /* time blocked, from sched:sched_switch */
} HpEventKind;

/* HP_EVENT_OFF_CPU and HP_EVENT_WALL: the capture's vocabulary */
#include "store/hp-capture-keys.h"

typedef struct {
  char        *name;         /* canonical: "cpu-clock", "sched:sched_switch" */
  HpEventKind  kind;
  guint32      type;         /* perf_event_attr.type */
  guint64      config;       /* perf_event_attr.config */
  const char  *unit;         /* of its weights: "ns", "page faults", ... */
  const char  *description;  /* one short sentence */
  gboolean     by_period;    /* counts occurrences: sampled every N, not N per second */
} HpEvent;

void      hp_event_clear          (HpEvent     *event);

/* Finds the event named @name: a software or hardware event of the list
 * below (perf's names, and their aliases such as "faults"), "off-cpu",
 * or a tracepoint "subsystem:name", whose id is read from tracefs. A
 * hardware event on a machine without hardware counters, a tracepoint
 * that does not exist, or tracefs out of reach is an error that says so. */
gboolean  hp_event_lookup         (const char  *name,
                                   HpEvent     *event,
                                   GError     **error);

/* The software and hardware events Hotpath knows and "off-cpu", in the
 * order they are listed; hardware ones whether or not the machine has
 * counters. (HpEvent; clear them with hp_event_clear.) */
GArray   *hp_event_list_known     (void);

/* Whether the CPU's counters can be opened here; when not, @why (may be
 * NULL) receives a sentence that says why. */
gboolean  hp_event_hardware_available (char       **why);

/* The tracefs folder ("/sys/kernel/tracing"), or NULL with @error naming
 * what is needed to reach it. */
char     *hp_event_find_tracefs   (GError     **error);

/* Tracepoints of this machine, "subsystem:name", sorted; NULL with
 * @error when tracefs cannot be read. */
GPtrArray *hp_event_list_tracepoints (GError  **error);

G_END_DECLS
