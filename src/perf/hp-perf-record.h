/* hp-perf-record.h - decoded PERF_RECORD_* records
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <linux/perf_event.h>

G_BEGIN_DECLS

#define HP_PERF_ERROR (hp_perf_error_quark ())
GQuark hp_perf_error_quark (void);

typedef enum {
  HP_PERF_ERROR_TRUNCATED,
  HP_PERF_ERROR_INVALID,
  HP_PERF_ERROR_UNSUPPORTED,
} HpPerfError;

/* What the decoder needs to know of the event that produced a record:
 * the sample layout is driven by sample_type, and non-sample records carry
 * a sample_id trailer only when sample_id_all is set. */
typedef struct {
  guint64  sample_type;
  guint64  read_format;
  guint64  sample_regs_user;
  gboolean sample_id_all;
} HpPerfEventInfo;

/* Fields of a record. Pointers point into the buffer given to
 * hp_perf_record_decode() and live as long as it. */
typedef struct {
  guint32 type;       /* PERF_RECORD_* */
  guint16 misc;
  guint16 size;

  /* sample_id (for samples, from the sample body; for other records,
   * from the trailer when sample_id_all is set). Missing fields are 0. */
  guint32 pid, tid;
  guint64 time;
  guint64 id;
  guint32 cpu;
  gboolean has_time;

  union {
    struct {
      guint64        ip;
      guint64        period;
      guint64        n_ips;    /* PERF_SAMPLE_CALLCHAIN: entries, incl. PERF_CONTEXT_* markers */
      const guint64 *ips;
      guint64        abi;      /* PERF_SAMPLE_REGS_USER */
      guint          n_regs;
      const guint64 *regs;
      guint64        stack_size; /* PERF_SAMPLE_STACK_USER: bytes valid in stack */
      const guint8  *stack;
    } sample;
    struct {
      guint64     addr, len, pgoff;
      guint32     prot, flags;
      const char *filename;
      guint8      build_id[20];
      guint8      build_id_size; /* 0 when the record carries no build id */
    } mmap;                      /* PERF_RECORD_MMAP and PERF_RECORD_MMAP2 */
    struct {
      const char *comm;
      gboolean    exec;          /* PERF_RECORD_MISC_COMM_EXEC */
    } comm;
    struct {
      guint32 ppid, ptid;        /* pid/tid hold the new task */
    } fork;                      /* PERF_RECORD_FORK and PERF_RECORD_EXIT */
    struct {
      guint64 lost;
    } lost;                      /* PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES */
  };
} HpPerfRecord;

gboolean hp_perf_record_decode (const HpPerfEventInfo *info,
                                const guint8          *data,
                                gsize                  size,
                                HpPerfRecord          *record,
                                GError               **error);

G_END_DECLS
