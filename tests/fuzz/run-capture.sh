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

seconds=${1:-600}
shift || true
[ "${1:-}" = "--" ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${FUZZ_DIR:-$top/build-fuzz-capture}
cc=${CLANG:-clang}

command -v "$cc" >/dev/null || { echo "run-capture.sh: $cc not found (apt-get install clang)" >&2; exit 77; }
mkdir -p "$dir/include" "$dir/corpus" "$dir/seeds"
# The writer stamps the version into the captures it makes.
echo '#define PACKAGE_VERSION "fuzz"' > "$dir/include/config.h"
python3 "$top/build-aux/embed-text.py" "$top/src/store/schema.sql" "$dir/hp-schema.c" hp_capture_schema_sql

flags=(-g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE
       -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
       -I"$dir/include" -I"$top/src"
       $(pkg-config --cflags glib-2.0 gio-2.0 sqlite3))
libs=($(pkg-config --libs glib-2.0 gio-2.0 sqlite3))
sources=("$top/src/store/hp-capture.c" "$top/src/store/hp-capture-writer.c" "$top/src/store/hp-capture-schema.c"
         "$top/src/store/hp-store-db.c" "$dir/hp-schema.c")

echo "run-capture.sh: building the fuzz target in $dir"
"$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-capture.c" "${libs[@]}" -o "$dir/fuzz-capture"
"$cc" "${flags[@]}" -DHP_FUZZ_STANDALONE -fsanitize=address,undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-capture.c" "${libs[@]}" -o "$dir/make-seeds"
"$dir/make-seeds" --write-seeds "$dir/seeds"
ls -l "$dir/seeds"

echo "run-capture.sh: fuzzing for $seconds s"
cd "$dir"
# SQLite keeps a page cache per connection, freed on close: no leak.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./fuzz-capture -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$@" corpus seeds
