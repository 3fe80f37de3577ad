#!/usr/bin/env bash
# run.sh [SECONDS] [-- LIBFUZZER-OPTION...] - fuzz the perf.data reader
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds tests/fuzz/fuzz-perf-file.c with clang, libFuzzer, AddressSanitizer
# and UndefinedBehaviorSanitizer (the reader and the record decoder only:
# src/perf/hp-perf-file.c, hp-perf-record.c, hp-regular-file.c), seeds a corpus with the
# target's built-in files and, where perf can sample, small real perf.data
# files (plain -g, -z compressed, pipe mode, DWARF), then fuzzes for
# SECONDS (default 600). Any crash, leak or sanitizer report fails the run;
# the input is left in $FUZZ_DIR (default build-fuzz/ at the top) as crash-*.
#
# Needs clang (Debian: clang), libglib2.0-dev and libzstd-dev.
set -euo pipefail
. "$(dirname "$0")/fuzz-common.sh"

fuzz_init run.sh build-fuzz "$@"
fuzz_build fuzz-perf-file "glib-2.0 libzstd" "$top/src/perf/hp-perf-file.c" "$top/src/perf/hp-perf-record.c" \
  "$top/src/perf/hp-regular-file.c"

# Real recordings, kept small: libFuzzer mutates whole files.
if command -v perf >/dev/null && perf record -q -o /dev/null -- true 2>/dev/null; then
  burn=(sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done')
  perf record -q -F 200 -g -o "$dir/seeds/perf-g.data" -- "${burn[@]}" 2>/dev/null || true
  perf record -q -F 200 -g -z -o "$dir/seeds/perf-z.data" -- "${burn[@]}" 2>/dev/null || true
  perf record -q -F 200 -g -o - -- "${burn[@]}" 2>/dev/null > "$dir/seeds/perf-pipe.data" || true
  perf record -q -F 50 --call-graph dwarf,1024 -o "$dir/seeds/perf-dwarf.data" -- "${burn[@]}" 2>/dev/null || true
fi
fuzz_run fuzz-perf-file 262144
