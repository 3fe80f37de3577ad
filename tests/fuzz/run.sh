#!/usr/bin/env bash
# run.sh [SECONDS] [-- LIBFUZZER-OPTION...] - fuzz the perf.data reader
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds tests/fuzz/fuzz-perf-file.c with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (the reader and the record decoder only:
# src/perf/hp-perf-file.c, hp-perf-record.c), seeds a corpus with the
# target's built-in files and, where perf can sample, small real perf.data
# files (plain -g, -z compressed, pipe mode, DWARF), then fuzzes for
# SECONDS (default 600). Any crash, leak or sanitizer report fails the run;
# the input is left in $FUZZ_DIR (default build-fuzz/ at the top) as crash-*.
#
# Needs clang (Debian: clang), libglib2.0-dev and libzstd-dev.
set -euo pipefail

seconds=${1:-600}
shift || true
[ "${1:-}" = "--" ] && shift
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${FUZZ_DIR:-$top/build-fuzz}
cc=${CLANG:-clang}

command -v "$cc" >/dev/null || { echo "run.sh: $cc not found (apt-get install clang)" >&2; exit 77; }
mkdir -p "$dir/include" "$dir/corpus" "$dir/seeds"
# The reader needs no configuration; config.h only has to exist.
: > "$dir/include/config.h"

flags=(-g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE
       -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
       -I"$dir/include" -I"$top/src" -I"$top/tests/common"
       $(pkg-config --cflags glib-2.0 libzstd))
libs=($(pkg-config --libs glib-2.0 libzstd))
sources=("$top/src/perf/hp-perf-file.c" "$top/src/perf/hp-perf-record.c")

echo "run.sh: building the fuzz target in $dir"
"$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-perf-file.c" "${libs[@]}" -o "$dir/fuzz-perf-file"
"$cc" "${flags[@]}" -DHP_FUZZ_STANDALONE -fsanitize=address,undefined \
  "${sources[@]}" "$top/tests/fuzz/fuzz-perf-file.c" "${libs[@]}" -o "$dir/make-seeds"
"$dir/make-seeds" --write-seeds "$dir/seeds"

# Real recordings, kept small: libFuzzer mutates whole files.
if command -v perf >/dev/null && perf record -q -o /dev/null -- true 2>/dev/null; then
  burn=(sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done')
  perf record -q -F 200 -g -o "$dir/seeds/perf-g.data" -- "${burn[@]}" 2>/dev/null || true
  perf record -q -F 200 -g -z -o "$dir/seeds/perf-z.data" -- "${burn[@]}" 2>/dev/null || true
  perf record -q -F 200 -g -o - -- "${burn[@]}" 2>/dev/null > "$dir/seeds/perf-pipe.data" || true
  perf record -q -F 50 --call-graph dwarf,1024 -o "$dir/seeds/perf-dwarf.data" -- "${burn[@]}" 2>/dev/null || true
fi
ls -l "$dir/seeds"

echo "run.sh: fuzzing for $seconds s"
cd "$dir"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./fuzz-perf-file -max_total_time="$seconds" -max_len=262144 -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "$@" corpus seeds
