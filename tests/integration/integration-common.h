/* integration-common.h - helpers to record a workload and read it back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

typedef struct {
  int   status;     /* exit status as from g_spawn_check_wait_status: 0 ok */
  char *out;
  char *err;
} ItResult;

/* Returns TRUE when this process may open a cpu-clock perf event on itself;
 * otherwise calls g_test_skip with the reason and returns FALSE. */
gboolean      it_require_perf_events  (void);

/* Runs hotpath-cli with @args (NULL-terminated); never fails the test. */
ItResult     *it_run_cli              (const char * const *args);
void          it_result_free          (ItResult *result);
/* Number of lines in @text; a last line without '\n' counts. */
guint         it_count_lines          (const char *text);

/* A fresh temporary directory, removed with its files by it_tmpdir_free. */
char         *it_tmpdir_new           (void);
void          it_tmpdir_free          (char *dir);

char         *it_workload_path        (const char *name);

/* Records @workload (a program of tests/workloads) into @capture_path and
 * asserts that hotpath-cli succeeded. */
void          it_record_workload      (const char *workload,
                                       const char *capture_path);

/* A recorded capture, loaded and profiled. */
typedef struct {
  char          *path;
  HpCapture     *capture;
  HpCaptureData *data;
  HpProfile     *profile;
} ItCapture;

ItCapture    *it_capture_open         (const char *path);
void          it_capture_free         (ItCapture *cap);

/* The function id named @name with the most self+total samples, or 0. */
gint64        it_find_function        (HpProfile *profile,
                                       const char *name);
/* Self and total shares in percent of all samples; 0 when absent. */
double        it_self_percent         (HpProfile *profile,
                                       const char *name);
double        it_total_percent        (HpProfile *profile,
                                       const char *name);

/* A capture of main → work (10 samples), written directly: no sampling
 * needed. @command: its metadata command, or NULL for none. */
void          it_write_small_capture  (const char *path,
                                       const char *command);

/* SELECT count(*) FROM samples, with the sqlite3 API directly. */
gint64        it_count_sample_rows    (const char *path);
/* The "samples" value of `hotpath-cli report --format json`. */
gint64        it_json_samples         (const char *capture_path);

#define it_assert_percent(name, actual, expected, tolerance)              \
  G_STMT_START {                                                          \
    double it_a_ = (actual), it_e_ = (expected), it_t_ = (tolerance);     \
    if (it_a_ < it_e_ - it_t_ || it_a_ > it_e_ + it_t_)                   \
      g_error ("%s: %.2f %% of samples, expected %.1f ± %.1f %%",         \
               (name), it_a_, it_e_, it_t_);                              \
  } G_STMT_END

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ItResult, it_result_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (ItCapture, it_capture_free)

G_END_DECLS
