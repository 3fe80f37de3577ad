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
. "$(dirname "$0")/fuzz-common.sh"

fuzz_init run-import.sh build-fuzz-import "$@"
mkdir -p "$dir/include/record"
python3 "$top/build-aux/embed-text.py" "$top/src/store/schema.sql" "$dir/hp-schema.c" hp_capture_schema_sql
# hp-events.c (the pprof import's units) names its errors in the
# recorder's domain, which hp-recorder.c defines with the whole recorder
printf '#include <glib.h>\nG_DEFINE_QUARK (hp-record-error-quark, hp_record_error)\n' > "$dir/hp-record-error.c"
protoc-c --proto_path="$top/src/record" --c_out="$dir/include/record" "$top/src/record/profile.proto"
fuzz_build fuzz-import "glib-2.0 gio-2.0 sqlite3 libprotobuf-c" \
  "$top/src/record/hp-pprof-import.c" "$top/src/record/hp-folded-import.c" "$top/src/record/hp-events.c" \
  "$dir/include/record/profile.pb-c.c" "$top/src/perf/hp-regular-file.c" \
  "$top/src/symbols/hp-jitdump.c" "$top/src/symbols/hp-perf-map.c" \
  "$top/src/store/hp-capture.c" "$top/src/store/hp-capture-writer.c" "$top/src/store/hp-capture-pending.c" "$top/src/store/hp-capture-schema.c" \
  "$top/src/store/hp-store-db.c" "$dir/hp-schema.c" "$dir/hp-record-error.c"
fuzz_run fuzz-import 16384
