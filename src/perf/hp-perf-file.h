/* hp-perf-file.h - reads perf.data files (and perf record -o - streams)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "perf/hp-perf-record.h"

G_BEGIN_DECLS

/* One event (perf_event_attr) of the recording. */
typedef struct {
  HpPerfEventInfo  info;         /* what the decoder needs; stable address */
  guint32          type;         /* PERF_TYPE_* */
  guint64          config;
  gboolean         freq;         /* sampled by frequency */
  guint64          sample_freq;  /* Hz when freq, else the period */
  gboolean         exclude_callchain_user;
  guint32          sample_stack_user;
  gint32           clockid;      /* -1 unless use_clockid */
  char            *name;         /* "cpu-clock", from EVENT_DESC/EVENT_UPDATE or derived */
  GArray          *ids;          /* guint64 */
} HpPerfFileEvent;

/* One build id of the HEADER_BUILD_ID table: the files that had samples. */
typedef struct {
  guint32  pid;
  guint16  cpumode;            /* PERF_RECORD_MISC_KERNEL, _USER, ... */
  guint8   size;
  guint8   build_id[20];
  char    *filename;
} HpPerfFileBuildId;

/* What the feature sections say. Strings are NULL when the file lacks them. */
typedef struct {
  char    *hostname;
  char    *os_release;
  char    *perf_version;
  char    *arch;
  char    *cpu_desc;
  char    *cmdline;           /* arguments joined by spaces */
  guint32  nr_cpus_online;    /* 0 when unknown */
  guint32  nr_cpus_available;
  guint64  first_sample_time; /* HEADER_SAMPLE_TIME; 0 when unknown */
  guint64  last_sample_time;
  guint32  compression;       /* HEADER_COMPRESSED type: 1 = zstd; 0 = none */
  GPtrArray *build_ids;       /* HpPerfFileBuildId* */
} HpPerfFileFeatures;

/* A record handed out by hp_perf_file_next(): a kernel record
 * (type < HP_PERF_RECORD_USER_TYPE_START) or PERF_RECORD_FINISHED_ROUND. The
 * bytes stay valid until the next call, or, when @lasting, as long as the
 * reader (the file is mapped or in memory, and the record not decompressed). */
typedef struct {
  const guint8          *data;
  gsize                  size;
  guint32                type;
  const HpPerfFileEvent *event;  /* the event that produced it; NULL when unknown */
  guint64                offset; /* file offset (of the COMPRESSED record holding it) */
  gboolean               compressed;
  gboolean               lasting;
} HpPerfFileRecord;

/* perf's own record types start here; the kernel's are below. */
#define HP_PERF_RECORD_USER_TYPE_START 64
#define HP_PERF_RECORD_FINISHED_ROUND  68

typedef struct _HpPerfFile HpPerfFile;

/* Opens @path ("-" reads a pipe-mode stream from stdin) and reads its
 * header, attributes and feature sections. Errors name the file and the
 * offset or section at fault. */
HpPerfFile               *hp_perf_file_open          (const char         *path,
                                                      GError            **error);
/* Reads from @fd (not closed), a regular file or a pipe. */
HpPerfFile               *hp_perf_file_open_fd       (int                 fd,
                                                      const char         *name,
                                                      GError            **error);
/* Reads @data (not copied: it must outlive the reader). */
HpPerfFile               *hp_perf_file_new_from_data (const guint8       *data,
                                                      gsize               size,
                                                      const char         *name,
                                                      GError            **error);
void                      hp_perf_file_free          (HpPerfFile         *self);

const char               *hp_perf_file_get_name      (HpPerfFile         *self);
gboolean                  hp_perf_file_is_pipe       (HpPerfFile         *self);

/* In pipe mode events and features arrive with the records, so these grow
 * while hp_perf_file_next() runs. */
guint                     hp_perf_file_get_n_events  (HpPerfFile         *self);
const HpPerfFileEvent    *hp_perf_file_get_event     (HpPerfFile         *self,
                                                      guint               index);
const HpPerfFileFeatures *hp_perf_file_get_features  (HpPerfFile         *self);

/* The next record; FALSE at the end (error unset) or on an error. */
gboolean                  hp_perf_file_next          (HpPerfFile         *self,
                                                      HpPerfFileRecord   *record,
                                                      GError            **error);

/* Bytes of the data section read so far, and in all (0 when unknown: pipe). */
guint64                   hp_perf_file_get_position  (HpPerfFile         *self);
guint64                   hp_perf_file_get_data_size (HpPerfFile         *self);

/* Whether the first bytes of @path look like a perf.data file (any
 * endianness or version), so that callers can tell it from a capture. */
gboolean                  hp_perf_file_sniff         (const char         *path);

/* A short name for the event: "cycles", "cpu-clock", ... */
char                     *hp_perf_event_name_for     (guint32             type,
                                                      guint64             config);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HpPerfFile, hp_perf_file_free)

G_END_DECLS
