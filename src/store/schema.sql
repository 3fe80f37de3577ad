-- schema.sql - the .hotpath capture format, version 5
--
-- SPDX-License-Identifier: GPL-3.0-or-later
--
-- A capture is one SQLite 3 database. This file is its documentation and is
-- compiled into Hotpath (hp_capture_schema_sql), which runs it once when a
-- capture is created. Scripts and other tools may read these tables; their
-- names and columns are part of the format.
--
-- Identification (set by the writer, checked by every reader):
--   PRAGMA application_id = 1213224008   -- 0x48505448, "HPTH"
--   PRAGMA user_version   = 5            -- this format version
-- A reader refuses a file whose application_id differs and a file whose
-- user_version is newer than the one it knows. An older capture still
-- opens: a reader gives the columns added since their defaults, and the
-- first summary written into it brings the file up to this version with
-- the migrations at the end of this file, in the same transaction.
--
-- History (a reader of version N opens every older version):
--   1  one sampled event, described by metadata event, event_unit and
--      frequency or period.
--   2  several events in one capture: the events table, and event_id in
--      samples and stack_counts. A version 1 capture reads as one event,
--      id 1, described by its metadata, every sample of it.
--   3  summaries record where they were written: capture, share, found.
--   4  frames.tier, the compilation tier of run-time compiled code.
--   5  stack_counts declares its columns in the order of its key
--      (stack_id, tid, event_id, then samples, weight); the same columns.
--      SQLite 3.40 and 3.41's PRAGMA integrity_check read the columns of a
--      WITHOUT ROWID table whose key columns are not declared first at the
--      wrong place, and reported "NULL value in stack_counts.samples" for
--      every row of every capture.
--
-- A capture is mailed between people, so Hotpath reads it as untrusted
-- (src/store/hp-capture.c). It refuses a capture that holds a trigger, a
-- view, a virtual table, a generated column or an index of an expression
-- or with a WHERE clause, none of which this format has: they could run
-- their author's SQL when the capture is read or a summary is saved. In
-- the tables of the format, which Hotpath writes into (a summary saved,
-- the migrations below, hotpath-cli add-pending), it also refuses a CHECK
-- constraint and a DEFAULT expression other than those declared here,
-- which would run on each row written (a constant DEFAULT runs nothing
-- and is let be). Other
-- tables and plain indexes that a script adds are left alone. It also refuses, naming the table and the row, ids that do not
-- run from 1 without gaps, a reference to a row that does not exist, and a
-- count or weight that is not a non-negative integer, or whose sum over
-- the capture passes 2^62.
--
-- Conventions:
--   * Ids are INTEGER PRIMARY KEYs, dense from 1, assigned by the writer;
--     a reader rejects a gap (it indexes arrays by id).
--   * 0 means "none" in every reference column: a root stack node has
--     parent_id = 0 (never NULL), a sample without any resolved frame has
--     stack_id = 0, a function of unknown module has module_id = 0.
--   * Times are nanoseconds of the perf clock (CLOCK_MONOTONIC unless the
--     metadata says otherwise); they are comparable with each other, not
--     with wall-clock time.
--   * A weight is the period of the sampled event, in the event's unit
--     (events.unit: "ns" for cpu-clock/task-clock, "cycles", ...), or for
--     off-CPU time the ns the thread stayed off the CPU.
--
-- Life cycle: the recorder writes in WAL mode and commits a batch every few
-- thousand samples, so a capture cut short by a crash or a kill still opens
-- (with the rows of its last committed batch). When the recording ends
-- normally it fills stack_counts, sets metadata complete = '1', checkpoints
-- and switches back to journal_mode=DELETE so that the capture is one file.
-- A reader that finds complete = '1' loads stack_counts; otherwise it
-- aggregates samples itself, as it does when stack_counts is empty and
-- samples is not (a complete capture whose aggregate was deleted).

-- metadata: what was measured and how. Values are text or integers.
--
-- Keys written by the recorder (the writer does not enforce them):
--   command            command line of the profiled program, as typed
--   working_directory  the folder it ran in (absent for the whole system):
--                      relative source files (a jitdump's "JitHot.java")
--                      are looked for there
--   start_time         when recording began, ISO 8601 with offset
--   duration_ns        wall-clock length of the recording, in ns
--   event              the first sampled event ("cpu-clock", "cycles", ...):
--                      events row 1, for scripts that know one event
--   event_unit         its unit, the unit of its samples' weight
--   events             every event of the table events, in its order,
--                      comma-separated ("cpu-clock,page-faults,off-cpu")
--   frequency          its sampling frequency in Hz (when sampling by frequency)
--   period             its sampling period in event units (when by period)
--   call_graph         unwinding method: "fp", "dwarf" or "lbr"
--   stack_size         bytes of user stack copied per sample (call_graph dwarf)
--   hostname           machine the recording ran on
--   kernel_release     uname -r of that machine
--   cpu_count          online CPUs
--   lost_samples       samples the kernel dropped (ring buffer full)
--   throttle_events    times the kernel throttled the event
--   truncated_stacks   samples whose user stack reaches no thread start (_start,
--                      __libc_start_main, main, clone, clone3, start_thread):
--                      cut by the stack-copy size, missing CFI, unreadable
--                      memory or a frame-pointer chain broken by code built
--                      without frame pointers. Such a stack is rooted under a
--                      frame of the function "[truncated]" (module_id 0)
--                      instead of under a false caller.
--   complete_stacks    samples whose user stack does reach a thread start
--                      (samples with kernel frames only count in neither)
--   truncated_stack_copy  truncated stacks whose unwinding stopped where the
--                      copied user stack ended (call_graph dwarf): those a
--                      bigger stack_size would have continued
--   truncated_at_jit   truncated stacks whose outermost frame is code
--                      compiled at run time (an anonymous executable
--                      mapping): code without CFI whose frame-pointer chain
--                      ended there (node without
--                      --interpreted-frames-native-stack, java without
--                      -XX:+PreserveFramePointer)
--   unresolved_frames  frames that could not be symbolized
--   symbol_notes       sentences for the user about symbols that could not be
--                      had, one per line: a vDSO image found nowhere, what
--                      was wrong with a file that names run-time compiled
--                      code (perf-PID.map, jit-PID.dump, naming it); absent
--                      when there are none
--   symbol_warnings    older captures only: the sentences about run-time
--                      compiled code's files, which now go to symbol_notes;
--                      readers take both
--   hotpath_version    version of Hotpath that wrote the capture
--   complete           '1' once the recording finished and stack_counts is
--                      filled; absent in a capture that was cut short
--   exit_status        exit status of the spawned program, when it exited
--   exit_signal        name of the signal that killed the spawned program
--                      ("Segmentation fault"), when one did; the profile
--                      ends there
--   stop_signal        number of the signal that stopped the recording
--                      (SIGINT: Ctrl-C), when one did; the spawned program
--                      got that signal (a terminal's Ctrl-C reaches it, a
--                      signal sent to the recorder alone is passed on)
--   ended_by_recorder  '1' when the program did not end within 2 s of the
--                      stop and exit_signal is the recorder's own SIGTERM
--                      (or SIGKILL), not the program's fault
--   attached_pid       pid of the process recorded with -p (nothing spawned)
--   system_wide        '1' when every process on every CPU was recorded (-a)
--
-- Keys written by the perf.data importer, beside the recorder's that apply:
--   source             where the samples came from: "perf.data" or
--                      "perf.data (pipe mode)"
--   source_path        the perf.data file imported
--   perf_version       version of perf that wrote it (its header)
--   arch               machine architecture of the recording (uname -m)
--   cpu_description    the CPU, as perf's header describes it
--   clockid            clock of the sample times, when perf recorded with -k
--   other_event_samples  samples of events other than the imported one
--
-- Keys written by the importers of other profilers' files (pprof, folded
-- stacks), beside command, event, event_unit and those of the recorder
-- that the format holds:
--   source             "pprof" or "folded stacks"
--   source_path        the file imported
--   lacks              what the format does not hold, comma-separated from:
--                      addresses (frames have offset 0), modules (module_id
--                      0 but for kernel frames), times (no rows in samples,
--                      only stack_counts: no timeline, no --from/--to;
--                      older imports have rows at time 0), threads (all
--                      samples in one thread named after the file); absent
--                      when nothing is missing. pprof lacks times, and
--                      threads unless its samples carry a "tid" label.
CREATE TABLE metadata (
  key   TEXT PRIMARY KEY,
  value
);

-- events: one row per event the capture counts, in the order they were
-- asked for; every sample belongs to one (samples.event_id).
--   name       as typed to record --event: "cpu-clock", "page-faults",
--              "sched:sched_switch", or "off-cpu" for time spent blocked
--   unit       the unit of its samples' weights: "ns", "page faults",
--              "cycles", "events" (a tracepoint's hits)
--   frequency  sampling frequency in Hz, 0 when sampling by period
--   period     sampling period in units, 0 when sampling by frequency
--              (and for off-cpu, whose weights are measured intervals)
-- A capture whose events table is empty (an importer that writes one
-- event) reads as one event described by metadata event and event_unit.
CREATE TABLE events (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  unit      TEXT NOT NULL,
  frequency INTEGER NOT NULL DEFAULT 0,
  period    INTEGER NOT NULL DEFAULT 0
);

-- processes: one row per profiled process; command is the latest COMM
-- (or the executable's name).
CREATE TABLE processes (
  pid     INTEGER PRIMARY KEY,
  command TEXT
);

-- threads: one row per thread seen in a sample or a COMM/FORK record;
-- name is the latest COMM of the thread.
CREATE TABLE threads (
  tid  INTEGER PRIMARY KEY,
  pid  INTEGER NOT NULL,
  name TEXT
);

-- modules: one row per mapped ELF file (executable, shared library) or
-- pseudo-module. path is the file name as mapped, or a bracketed name for
-- the kernel and unnamed code ("[kernel.kallsyms]", "[vdso]", "[jit]");
-- build_id is the GNU build id in lower-case hex, NULL when unknown;
-- is_kernel is 1 for kernel code (kernel image and modules).
CREATE TABLE modules (
  id        INTEGER PRIMARY KEY,
  path      TEXT,
  build_id  TEXT,
  is_kernel INTEGER NOT NULL DEFAULT 0
);

-- functions: one row per function identity. name is demangled (or a
-- placeholder like "0x1234" when no symbol covers the address); file and
-- line are where the function is declared (DW_AT_decl_file/line), NULL/0
-- when unknown. An inlined function is its own identity, distinct from the
-- function it was inlined into.
CREATE TABLE functions (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  module_id INTEGER NOT NULL,    -- modules.id, 0 when unknown
  file      TEXT,
  line      INTEGER NOT NULL DEFAULT 0
);

-- frames: one row per code location a stack passes through: a function at
-- a source line. One machine address yields several frames when code was
-- inlined: the inlined callee (is_inline = 1) below its caller. file/line
-- are the source position (NULL/0 when there is no line information);
-- offset is the offset in the module file of the first address seen at
-- this location (for the kernel: the address itself).
-- Since version 4, tier is the compilation tier of code compiled at run
-- time, as V8 marks it in its names ("JS:*fib"): '~' interpreted
-- (Ignition), '^' baseline (Sparkplug), '+' mid-tier optimized (Maglev),
-- '*' optimized (TurboFan); NULL for other code. The same function at the
-- same line in two tiers is two frames of one function: the views show one
-- row per function, and say how its samples split over the tiers.
CREATE TABLE frames (
  id          INTEGER PRIMARY KEY,
  function_id INTEGER NOT NULL,  -- functions.id
  file        TEXT,
  line        INTEGER NOT NULL DEFAULT 0,
  is_inline   INTEGER NOT NULL DEFAULT 0,
  offset      INTEGER NOT NULL DEFAULT 0,
  tier        TEXT
);

-- stacks: the call stacks as a prefix tree, root (outermost caller) first.
-- A node is (parent node, frame); a call stack is its leaf node, and the
-- path from the root to it lists its frames from the outermost caller to
-- the sampled location. parent_id is 0 for a root node and always smaller
-- than id, so reading in id order visits parents before children.
CREATE TABLE stacks (
  id        INTEGER PRIMARY KEY,
  parent_id INTEGER NOT NULL,    -- stacks.id, 0 for a root
  frame_id  INTEGER NOT NULL     -- frames.id
);

-- samples: one row per sample, in the order they were recorded.
--   time      perf clock, ns
--   tid, cpu  thread and CPU the sample hit
--   stack_id  leaf node in stacks (0: no frame could be resolved)
--   weight    event period, in the unit of its event (events.unit)
--   event_id  the event it belongs to (events.id)
-- No index: samples are written fast and read whole; opening a finished
-- capture reads stack_counts instead.
-- An import of a format without times (folded stacks, pprof: metadata
-- lacks names "times") writes no rows here, only its counts into
-- stack_counts: a row per sample would hold nothing but its stack, and a
-- count of a billion samples in a 20-byte file would become a billion rows.
-- Such a capture is complete when written; it has no timeline.
CREATE TABLE samples (
  time     INTEGER NOT NULL,
  tid      INTEGER NOT NULL,
  cpu      INTEGER NOT NULL,
  stack_id INTEGER NOT NULL,
  weight   INTEGER NOT NULL,
  event_id INTEGER NOT NULL DEFAULT 1
);

-- stack_counts: samples aggregated per (leaf stack, thread, event), filled
-- once when the recording finishes (with metadata complete = '1'):
--   SELECT stack_id, tid, event_id, count(*), sum(weight) FROM samples
--   GROUP BY stack_id, tid, event_id
-- It is what makes opening a large capture instant: a million samples over
-- a few thousand stacks become a few thousand rows. Empty in a capture that
-- was cut short.
-- The key columns come first, in the key's order (see version 5 above).
CREATE TABLE stack_counts (
  stack_id INTEGER NOT NULL,
  tid      INTEGER NOT NULL,
  event_id INTEGER NOT NULL DEFAULT 1,  -- events.id
  samples  INTEGER NOT NULL,     -- number of samples
  weight   INTEGER NOT NULL,     -- sum of their weights
  PRIMARY KEY (stack_id, tid, event_id)
) WITHOUT ROWID;

-- summaries: what a person wrote about a call path. The path is keyed by
-- function identity, not by row ids, so it survives a rebuild of the
-- program and can be copied between captures of it:
--   path_key  one "MODULE\tFUNCTION\n" line per step from the root, where
--             MODULE is the module's base name (or its bracketed name)
--   path      readable form, "main → run → parse"
--   text      the summary (Markdown-ish plain text)
--   created, updated   ISO 8601 UTC times ("2024-05-01T12:00:00Z")
-- Since version 3, where and with what weight the summary was written, so
-- that a summary carried into another capture (hotpath-cli summary
-- --import, the per-user library) says how old it is:
--   capture   base name of the capture file the text was written in
--             ("demo.hotpath"); NULL when unknown (written before version 3)
--   share     the path's total samples, in percent of all samples, in that
--             capture when the text was written; NULL when unknown
--   found     1 when path_key is a call path of this capture's profile as
--             far as the writer knew; 0 for a summary imported from another
--             capture whose path this capture does not have: it is kept
--             under its old key ("not found in this capture"), never dropped
CREATE TABLE summaries (
  path_key TEXT PRIMARY KEY,
  path     TEXT NOT NULL,
  text     TEXT NOT NULL,
  created  TEXT NOT NULL,
  updated  TEXT NOT NULL,
  capture  TEXT,
  share    REAL,
  found    INTEGER NOT NULL DEFAULT 1
);

-- Index for reading the prefix tree downwards (children of a node), for
-- scripts that walk it in SQL; loading reads stacks in id order.
CREATE INDEX stacks_by_parent ON stacks (parent_id, frame_id);
-- Index for "every frame of this function" (annotated source).
CREATE INDEX frames_by_function ON frames (function_id);

-- @migrations
-- What brings an older capture up to this version. Not run when a capture
-- is created (the tables above are already the newest); run, in order, by
-- the first write into an older capture (src/store/hp-capture.c), each
-- block "-- @version N" whose N is above the file's user_version, and then
-- PRAGMA user_version = N, all in the write's transaction. A new version
-- adds its block at the end and its columns to the tables above.

-- @version 2
-- events: none listed, which reads as the one event of the metadata, as a
-- version 1 capture does; every sample and count is of event 1 (a version
-- 1 stack_counts keeps its key (stack_id, tid), which one event fills)
CREATE TABLE events (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  unit      TEXT NOT NULL,
  frequency INTEGER NOT NULL DEFAULT 0,
  period    INTEGER NOT NULL DEFAULT 0
);
ALTER TABLE samples ADD COLUMN event_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE stack_counts ADD COLUMN event_id INTEGER NOT NULL DEFAULT 1;

-- @version 3
-- summaries: where and with what share the text was written (see above)
ALTER TABLE summaries ADD COLUMN capture TEXT;
ALTER TABLE summaries ADD COLUMN share REAL;
ALTER TABLE summaries ADD COLUMN found INTEGER NOT NULL DEFAULT 1;

-- @version 4
-- frames: the compilation tier of run-time compiled code (see above)
ALTER TABLE frames ADD COLUMN tier TEXT;

-- @version 5
-- stack_counts: the same rows, in a table whose key columns come first
-- (see above). A version 1 capture's key was (stack_id, tid): event_id,
-- 1 in every row, joins it.
CREATE TABLE stack_counts_v5 (
  stack_id INTEGER NOT NULL,
  tid      INTEGER NOT NULL,
  event_id INTEGER NOT NULL DEFAULT 1,
  samples  INTEGER NOT NULL,
  weight   INTEGER NOT NULL,
  PRIMARY KEY (stack_id, tid, event_id)
) WITHOUT ROWID;
INSERT INTO stack_counts_v5 (stack_id, tid, event_id, samples, weight)
  SELECT stack_id, tid, event_id, samples, weight FROM stack_counts;
DROP TABLE stack_counts;
ALTER TABLE stack_counts_v5 RENAME TO stack_counts;
