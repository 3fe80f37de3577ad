#!/usr/bin/env bash
# run-capture.sh [SECONDS] [-- LIBFUZZER-OPTION...] - fuzz the capture reader
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds tests/fuzz/fuzz-capture.c with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (the capture reader and writer:
# src/store/hp-capture.c, hp-capture-writer.c and the embedded schema.sql;
# SQLite itself is the system's, not instrumented), seeds a corpus with
# small valid captures that the writer makes (finished, cut short, with a
# summary), then fuzzes for SECONDS (default 600). Any crash, leak,
# sanitizer report or input that takes over 10 s fails the run; the input
# is left in $FUZZ_DIR (default build-fuzz-capture/ at the top) as crash-*,
# leak-* or timeout-*.
#
# Needs clang (Debian: clang), libglib2.0-dev and libsqlite3-dev.
set -euo pipefail
. "$(dirname "$0")/fuzz-common.sh"

fuzz_init run-capture.sh build-fuzz-capture "$@"
python3 "$top/build-aux/embed-text.py" "$top/src/store/schema.sql" "$dir/hp-schema.c" hp_capture_schema_sql
fuzz_build fuzz-capture "glib-2.0 gio-2.0 sqlite3" \
  "$top/src/store/hp-capture.c" "$top/src/store/hp-capture-writer.c" "$top/src/store/hp-capture-pending.c" "$top/src/store/hp-capture-schema.c" \
  "$top/src/store/hp-store-db.c" "$dir/hp-schema.c"
fuzz_run fuzz-capture 65536
