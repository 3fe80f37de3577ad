/* hp-capture-keys.h - the capture format's metadata keys, named once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every key of the metadata table that Hotpath writes or reads. What each
 * one means is written in schema.sql, the format's documentation; code
 * names a key only through these, so that a key is spelt in one place.
 */
#pragma once

/* what was recorded, and how */
#define HP_META_COMMAND              "command"
#define HP_META_START_TIME           "start_time"
#define HP_META_DURATION_NS          "duration_ns"
#define HP_META_EVENT                "event"
#define HP_META_EVENT_UNIT           "event_unit"
#define HP_META_EVENTS               "events"
#define HP_META_FREQUENCY            "frequency"
#define HP_META_PERIOD               "period"
#define HP_META_CALL_GRAPH           "call_graph"
#define HP_META_STACK_SIZE           "stack_size"
#define HP_META_HOSTNAME             "hostname"
#define HP_META_KERNEL_RELEASE       "kernel_release"
#define HP_META_CPU_COUNT            "cpu_count"
#define HP_META_HOTPATH_VERSION      "hotpath_version"
#define HP_META_ATTACHED_PID         "attached_pid"
#define HP_META_SYSTEM_WIDE          "system_wide"
#define HP_META_WORKING_DIRECTORY    "working_directory"

/* its limits */
#define HP_META_LOST_SAMPLES         "lost_samples"
#define HP_META_THROTTLE_EVENTS      "throttle_events"
#define HP_META_TRUNCATED_STACKS     "truncated_stacks"
#define HP_META_COMPLETE_STACKS      "complete_stacks"
#define HP_META_TRUNCATED_STACK_COPY "truncated_stack_copy"
#define HP_META_TRUNCATED_AT_JIT     "truncated_at_jit"
#define HP_META_UNRESOLVED_FRAMES    "unresolved_frames"
/* Every sentence about missing symbols goes into symbol_notes; captures
 * written by 0.1.0 before this also have symbol_warnings (run-time compiled code's
 * files), which readers still take. */
#define HP_META_SYMBOL_NOTES         "symbol_notes"
#define HP_META_SYMBOL_WARNINGS_OLD  "symbol_warnings"

/* how it ended */
#define HP_META_COMPLETE             "complete"
#define HP_META_EXIT_STATUS          "exit_status"
#define HP_META_EXIT_SIGNAL          "exit_signal"
#define HP_META_STOP_SIGNAL          "stop_signal"
#define HP_META_ENDED_BY_RECORDER    "ended_by_recorder"

/* the perf.data importer's */
#define HP_META_SOURCE               "source"
#define HP_META_SOURCE_PATH          "source_path"
#define HP_META_PERF_VERSION         "perf_version"
#define HP_META_ARCH                 "arch"
#define HP_META_CPU_DESCRIPTION      "cpu_description"
#define HP_META_CLOCKID              "clockid"
#define HP_META_OTHER_EVENT_SAMPLES  "other_event_samples"

/* event names with a meaning of their own (events.name) */
#define HP_EVENT_OFF_CPU             "off-cpu"   /* weights: ns off the CPU */
#define HP_EVENT_CPU_CLOCK           "cpu-clock"
/* not an event of a capture but a view of two: cpu-clock + off-cpu, in ns */
#define HP_EVENT_WALL                "wall"

/* the importers of pprof and folded stacks */
#define HP_META_LACKS                "lacks"

/* the function (module_id 0) a truncated stack is rooted under (schema.sql,
 * truncated_stacks) */
#define HP_FUNCTION_TRUNCATED        "[truncated]"
