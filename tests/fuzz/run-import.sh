#!/usr/bin/env bash
# run-import.sh [SECONDS] [-- LIBFUZZER-OPTION...] - fuzz the readers of other tools' files
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds tests/fuzz/fuzz-import.c with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer: the pprof and folded-stacks imports
# (src/record/hp-pprof-import.c, hp-folded-import.c, with the capture
# writer and reader they write and are checked with) and the jitdump and
# perf-PID.map readers (src/symbols/hp-jitdump.c, hp-perf-map.c). The first
# byte of an input chooses the reader. Seeds a corpus with one or two small
# valid files per reader, then fuzzes for SECONDS (default 600). Any crash,
# leak, sanitizer report or input that takes over 10 s fails the run; the
# input is left in $FUZZ_DIR (default build-fuzz-import/ at the top) as
# crash-*, leak-* or timeout-*.
#
# Needs clang (Debian: clang), protobuf-c-compiler, libprotobuf-c-dev,
# libglib2.0-dev and libsqlite3-dev.
set -euo pipefail

seconds=${1:-600}
shift || true
[ "${1:-}" = "--" ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${FUZZ_DIR:-$top/build-fuzz-import}
cc=${CLANG:-clang}

command -v "$cc" >/dev/null || { echo "run-import.sh: $cc not found (apt-get install clang)" >&2; exit 77; }
mkdir -p "$dir/include/record" "$dir/corpus" "$dir/seeds"
echo '#define PACKAGE_VERSION "fuzz"' > "$dir/include/config.h"
python3 "$top/build-aux/embed-text.py" "$top/src/store/schema.sql" "$dir/hp-schema.c" hp_capture_schema_sql
protoc-c --proto_path="$top/src/record" --c_out="$dir/include/record" "$top/src/record/profile.proto"

flags=(-g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE
       -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
       -I"$dir/include" -I"$top/src"
       $(pkg-config --cflags glib-2.0 gio-2.0 sqlite3 libprotobuf-c))
libs=($(pkg-config --libs glib-2.0 gio-2.0 sqlite3 libprotobuf-c))
sources=("$top/src/record/hp-pprof-import.c" "$top/src/record/hp-folded-import.c"
         "$dir/include/record/profile.pb-c.c" "$top/src/perf/hp-regular-file.c"
         "$top/src/symbols/hp-jitdump.c" "$top/src/symbols/hp-perf-map.c"
         "$top/src/store/hp-capture.c" "$top/src/store/hp-capture-writer.c" "$top/src/store/hp-capture-schema.c"
         "$top/src/store/hp-store-db.c" "$dir/hp-schema.c")

echo "run-import.sh: building the fuzz target in $dir"
"$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-import.c" "${libs[@]}" -o "$dir/fuzz-import"
"$cc" "${flags[@]}" -DHP_FUZZ_STANDALONE -fsanitize=address,undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-import.c" "${libs[@]}" -o "$dir/make-seeds"
"$dir/make-seeds" --write-seeds "$dir/seeds"
ls -l "$dir/seeds"

echo "run-import.sh: fuzzing for $seconds s"
cd "$dir"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./fuzz-import -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$@" corpus seeds
