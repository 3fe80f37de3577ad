/* hp-writer-sql.h - the statements the capture writer runs with values bound
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* One text for each, shared by the writer (hp-capture-writer.c) and the
 * reader of what waited for another program's lock (hp-capture-pending.c):
 * NAME.pending.sql holds these statements with their values expanded
 * (sqlite3_expanded_sql), and the reader accepts nothing else. */
#define HP_WRITER_SQL_METADATA "INSERT OR REPLACE INTO metadata (key, value) VALUES (?, ?)"
#define HP_WRITER_SQL_PROCESS  "INSERT INTO processes (pid, command) VALUES (?, ?) " \
                               "ON CONFLICT (pid) DO UPDATE SET command = excluded.command"
#define HP_WRITER_SQL_THREAD   "INSERT INTO threads (tid, pid, name) VALUES (?, ?, ?) " \
                               "ON CONFLICT (tid) DO UPDATE SET pid = excluded.pid, name = excluded.name"
#define HP_WRITER_SQL_MODULE   "INSERT INTO modules (id, path, build_id, is_kernel) VALUES (?, ?, ?, ?)"
#define HP_WRITER_SQL_FUNCTION "INSERT INTO functions (id, name, module_id, file, line) VALUES (?, ?, ?, ?, ?)"
#define HP_WRITER_SQL_FRAME    "INSERT INTO frames (id, function_id, file, line, is_inline, offset, tier) " \
                               "VALUES (?, ?, ?, ?, ?, ?, ?)"
#define HP_WRITER_SQL_FRAME_UPDATE "UPDATE frames SET function_id = ?, file = ?, line = ?, tier = ? WHERE id = ?"
#define HP_WRITER_SQL_STACK    "INSERT INTO stacks (id, parent_id, frame_id) VALUES (?, ?, ?)"
#define HP_WRITER_SQL_EVENT    "INSERT INTO events (id, name, unit, frequency, period) VALUES (?, ?, ?, ?, ?)"
#define HP_WRITER_SQL_COUNT    "INSERT INTO stack_counts (stack_id, tid, event_id, samples, weight) VALUES (?, ?, ?, ?, ?)"
/* One sample; several are HP_WRITER_SQL_SAMPLES_HEAD followed by
 * HP_WRITER_SQL_SAMPLES_ROW, comma-separated. */
#define HP_WRITER_SQL_SAMPLE   "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) " \
                               "VALUES (?, ?, ?, ?, ?, ?)"
#define HP_WRITER_SQL_SAMPLES_HEAD "INSERT INTO samples (time, tid, cpu, stack_id, weight, event_id) VALUES "
#define HP_WRITER_SQL_SAMPLES_ROW  "(?,?,?,?,?,?)"
