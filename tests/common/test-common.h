/* test-common.h - helpers shared by the test suites
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "analysis/hp-profile.h"
#include "store/hp-capture.h"

G_BEGIN_DECLS

/* Removes the folder @path and everything below it, making read-only
 * folders writable first (tests make some to provoke errors). Symbolic
 * links are removed, never followed nor changed through. */
void       hp_test_remove_tree        (const char      *path);

/* The fixture of a test that works in a scratch folder (g_test_add with
 * hp_test_scratch_set_up and hp_test_scratch_tear_down): @dir is made
 * anew for each test and removed with all it holds after it; @path is
 * "test.hotpath" in it, not created. */
typedef struct {
  char *dir;
  char *path;
} HpTestScratch;

void       hp_test_scratch_set_up     (HpTestScratch   *scratch,
                                       gconstpointer    data);
void       hp_test_scratch_tear_down  (HpTestScratch   *scratch,
                                       gconstpointer    data);

/* Opens and loads the capture at @path, asserting that both succeed; the
 * caller owns *@data_out, which the profile points into. */
HpProfile *hp_test_load_profile       (const char      *path,
                                       HpCaptureData  **data_out);

/* The file offset and size of function symbol @name in the ELF file at
 * @path, read from its .symtab with libelf, apart from the code under
 * test. FALSE when there is no such function. */
gboolean   hp_test_elf_function       (const char      *path,
                                       const char      *name,
                                       guint64         *offset,
                                       guint64         *size);

/* The file offset and size of section @name of the ELF file at @path;
 * FALSE when it has none. */
gboolean   hp_test_elf_section        (const char      *path,
                                       const char      *name,
                                       guint64         *offset,
                                       guint64         *size);

/* Whether the ELF file at @path names @soname in its DT_NEEDED entries:
 * the libraries the loader maps before main. */
gboolean   hp_test_elf_needs          (const char      *path,
                                       const char      *soname);

/* The GNU build id of the ELF file at @path, asserting it has one (at
 * most 20 bytes); returns its length. */
gsize      hp_test_elf_build_id       (const char      *path,
                                       guint8           id[20]);

/* The address ranges of the FDEs of @path's .eh_frame, from readelf's
 * "FDE ... pc=START..END" lines (apart from the code under test): pairs
 * of guint64, start then end, in the file's order. */
GArray    *hp_test_elf_fdes           (const char      *path);

/* Runs @statements on the SQLite file @path, straight through SQLite (to
 * build a hostile or an old capture); aborts the test with SQLite's
 * message when one fails. */
void       hp_test_sql                (const char      *path,
                                       const char      *statements);

/* The first column of the first row of @query on @path, opened read-only;
 * -1 when there is no row. */
gint64     hp_test_sql_int            (const char      *path,
                                       const char      *query);

/* A capture at @path cut short with 10 samples of main (thread 42 of
 * ./app), and 5 more of main → waited in @path.pending.sql beside it,
 * as a recorder killed while another connection held the write lock
 * (BEGIN EXCLUSIVE) leaves them. */
void       hp_test_make_pending_capture (const char    *path);

/* SELECT count(*) FROM samples WHERE @where, straight through SQLite:
 * the oracle for what the code under test counts. */
gint64     hp_test_sql_count          (const char      *path,
                                       const char      *where);

/* The events capture of the CLI's and the window's events tests, whose
 * every number is known:
 *
 *   process 100 "app", threads 101 "app" and 102 "helper"
 *   cpu-clock (1 ms a sample): main > compute 600 samples (tid 101)
 *   page-faults (1000 Hz, each sample weighs its faults, tid 101):
 *     main > fault_in 50 samples of 40 faults (2,000 faults),
 *     main > compute 100 samples of 1 fault (100 faults)
 *   off-cpu: main > wait_io 30 intervals of 100 ms (3 s), tid 102
 *
 * With @whole_system (the window's): a system-wide capture of 5 s that
 * adds cpu-clock main > fault_in 200 samples (tid 101) and a process 200
 * "other", thread 201, with other_main 200 cpu-clock samples. With
 * @source, each function sits at a line of that file (main 1, compute 2,
 * fault_in 3, wait_io 4, other_main 5), which is written too. */
typedef struct {
  gboolean    whole_system;
  const char *source;
} HpTestEventsCapture;

void       hp_test_make_events_capture (const char                *path,
                                        const HpTestEventsCapture *how);

/* The benchmarks' 1M-sample captures (see hp_test_make_big_capture). */
typedef struct {
  gboolean stress;          /* 700 000 stack nodes, else 20 000 */
  guint32  sample_seed;     /* samples drawn from their own generator; 0: the shape's */
  guint64  period_ns;       /* time between samples and their weight; 0: 250 us */
  gboolean clone_names;     /* every seventh function a GCC clone, name.part.0 */
  gboolean slower_hottest;  /* the hottest leaf's function weighs 10 % more */
} HpTestBigCapture;

/* The stacks of those captures: @n_functions functions of 4 frames (source
 * lines) each; each leaf a stack of frames, root first, as function * 4 +
 * line. */
#define HP_TEST_BIG_MAX_DEPTH 40
typedef struct {
  guint  n_functions;
  guint  n_leaves;
  guint  n_samples;
  guint *depth;          /* [leaf] */
  guint *frames;         /* [leaf * HP_TEST_BIG_MAX_DEPTH + d] */
  guint *leaf_function;  /* [leaf] */
} HpTestBigShape;

/* The shape, drawn from @rand (seeded 20240501 for the captures'). */
HpTestBigShape *hp_test_big_shape_new     (gboolean              stress,
                                           GRand                *rand);
void            hp_test_big_shape_free    (HpTestBigShape       *shape);
/* The leaf of the next sample, skewed towards a few. */
guint           hp_test_big_shape_draw    (const HpTestBigShape *shape,
                                           GRand                *draw);
/* "big_function_0007_work", with ".part.0" for every seventh when
 * @clone_names. */
char           *hp_test_big_function_name (guint                 f,
                                           gboolean              clone_names);

/* Writes a capture of one million samples over 8 threads of a program of
 * 3000 functions at @path, shaped as @how says. */
void       hp_test_make_big_capture   (const char             *path,
                                       const HpTestBigCapture *how);

/* Starts a debuginfod server (Debian package debuginfod, which the
 * caller checked is installed) on 127.0.0.1, on a free port, serving the
 * ELF files under @served, with its database at @db; waits until it
 * serves the debug info of @build_id_hex; it dies with the test process
 * however that ends. Returns its URL, for DEBUGINFOD_URLS. */
char      *hp_test_debuginfod_start   (const char             *served,
                                       const char             *build_id_hex,
                                       const char             *db,
                                       GPid                   *pid);
void       hp_test_debuginfod_stop    (GPid                    pid);

/* Starts "@workload busy @seconds" (a test workload's busy loop) without
 * reaping it; the caller waits for it (waitpid) and closes its pid. */
GPid       hp_test_start_busy         (const char             *workload,
                                       const char             *seconds);

G_END_DECLS
