#!/usr/bin/env bash
# run-pending.sh [SECONDS] [-- LIBFUZZER-OPTION...] - fuzz add-pending's reader of NAME.pending.sql
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds tests/fuzz/fuzz-pending.c with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (the pending file's parser and its adding
# to a capture: src/store/hp-capture-pending.c, with the capture reader and
# writer it calls; SQLite itself is the system's, not instrumented), seeds
# a corpus with pending files written with the writer's statements, then
# fuzzes for SECONDS (default 600). Any crash, leak, sanitizer report,
# broken promise (a refused file that added rows, an accepted one that
# left the capture unreadable) or input that takes over 10 s fails the
# run; the input is left in $FUZZ_DIR (default build-fuzz-pending/ at the
# top) as crash-*, leak-* or timeout-*.
#
# Needs clang (Debian: clang), libglib2.0-dev and libsqlite3-dev.
set -euo pipefail
. "$(dirname "$0")/fuzz-common.sh"

fuzz_init run-pending.sh build-fuzz-pending "$@"
python3 "$top/build-aux/embed-text.py" "$top/src/store/schema.sql" "$dir/hp-schema.c" hp_capture_schema_sql
fuzz_build fuzz-pending "glib-2.0 gio-2.0 sqlite3" \
  "$top/src/store/hp-capture.c" "$top/src/store/hp-capture-writer.c" "$top/src/store/hp-capture-pending.c" \
  "$top/src/store/hp-capture-schema.c" "$top/src/store/hp-store-db.c" "$dir/hp-schema.c"
fuzz_run fuzz-pending 65536
