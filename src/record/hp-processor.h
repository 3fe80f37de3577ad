/* hp-processor.h - turns perf records into a capture: resolve, intern, write
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "perf/hp-perf-record.h"
#include "store/hp-capture-writer.h"
#include "symbols/hp-symbolizer.h"

G_BEGIN_DECLS

typedef struct {
  guint64 samples;           /* samples written */
  guint64 lost;              /* PERF_RECORD_LOST / LOST_SAMPLES */
  guint64 throttled;         /* PERF_RECORD_THROTTLE */
  guint64 truncated;         /* user stacks that reach no thread start (_start, clone, main, ...) */
  guint64 complete;          /* user stacks that do */
  guint64 truncated_copy;    /* truncated ones that a bigger stack copy would have helped */
  guint64 truncated_at_jit;  /* truncated ones whose outermost frame is run-time compiled code */
  guint64 unresolved_frames; /* frames kept as module+0xOFFSET */
  guint64 bad_records;       /* records that failed to decode, skipped */
} HpProcessorStats;

typedef struct _HpProcessor HpProcessor;

/* The processor writes into @writer (not owned; must outlive it). */
HpProcessor *hp_processor_new            (HpCaptureWriter       *writer);
void         hp_processor_free           (HpProcessor           *self);

/* Records that arrive unordered (one ring per CPU, or perf.data rounds) are
 * queued with push(); finish_round() processes what is certainly in order:
 * everything not newer than the newest record of the previous round, as perf
 * does at FINISHED_ROUND. flush() processes all that is queued. */
void         hp_processor_push           (HpProcessor           *self,
                                          const HpPerfEventInfo *info,
                                          const guint8          *data,
                                          gsize                  size);
/* push() without the copy, for records that stay valid until they are
 * processed (perf.data mapped from a file): at 30 kHz the copies were a
 * tenth of an import. */
void         hp_processor_push_lasting   (HpProcessor           *self,
                                          const HpPerfEventInfo *info,
                                          const guint8          *data,
                                          gsize                  size);
/* push() without the copy, for a record inside @holder (the records a
 * drain pass read from a ring): the queue keeps a reference to @holder
 * until the record is processed, so @holder must not change meanwhile.
 * A DWARF sample is 8 KiB or more; copying each a second time, and the
 * fresh pages the copies needed, cost the recorder more than its ring
 * copies. */
void         hp_processor_push_held      (HpProcessor           *self,
                                          const HpPerfEventInfo *info,
                                          const guint8          *data,
                                          gsize                  size,
                                          GByteArray            *holder);
void         hp_processor_finish_round   (HpProcessor           *self);
void         hp_processor_flush          (HpProcessor           *self);

/* Processes a decoded record at once (records synthesized from /proc).
 * Samples whose user stacks are to be unwound (PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER) must come through push(), which knows the
 * event's register layout. */
void         hp_processor_process        (HpProcessor           *self,
                                          const HpPerfRecord    *record);

/* Samples of the perf event @perf_id (PERF_SAMPLE_IDENTIFIER) are
 * samples of capture event @event_id; those of other ids are of event 1.
 * With @off_cpu, each sample of @perf_id (taken at sched:sched_switch)
 * marks where a thread left the CPU, and the PERF_RECORD_SWITCH that
 * brings the thread back writes one sample there weighted by the ns it
 * was away. A sample that does not carry its period (PERF_SAMPLE_PERIOD)
 * weighs @period: the event was sampled every @period occurrences (0: 1). */
void         hp_processor_map_event      (HpProcessor           *self,
                                          guint64                perf_id,
                                          gint64                 event_id,
                                          gboolean               off_cpu,
                                          guint64                period);

/* Whether the records describe processes running on this machine now (a
 * live recording rather than an import): only then may the symbolizer read
 * a process's vDSO from its memory (hp_symbolizer_set_live). Default FALSE. */
void         hp_processor_set_live       (HpProcessor           *self,
                                          gboolean               live);

/* Samples taken before @time (perf clock, ns) are not kept. A recording
 * that attaches reads /proc while its events already run, so that what
 * starts meanwhile is not missed; its samples count from the end of that
 * reading, where its duration counts from. Default 0: every sample. */
void         hp_processor_set_start_time (HpProcessor           *self,
                                          guint64                time);

/* The symbolizer the processor resolves with (owned by it): to tell it
 * where files recorded elsewhere are, before the first record. */
HpSymbolizer *hp_processor_get_symbolizer (HpProcessor          *self);

void         hp_processor_get_stats      (HpProcessor           *self,
                                          HpProcessorStats      *stats);

/* Where perf map files (perf-PID.map, the names JIT compilers give their
 * code) are looked for before /tmp: the folder of an imported perf.data. */
void         hp_processor_add_perf_map_dir (HpProcessor         *self,
                                            const char          *dir);

/* The end of the records: names the run-time compiled code that the
 * programs' maps name only now (written at exit), then stores the
 * statistics and any warning about those maps as capture metadata. */
void         hp_processor_write_stats    (HpProcessor           *self);

G_END_DECLS
