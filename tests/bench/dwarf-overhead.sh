#!/usr/bin/env bash
# dwarf-overhead.sh - what recording with DWARF call graphs costs, against perf
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a single-threaded CPU-bound program (default: the paths-nofp workload)
# alone, under `hotpath-cli record --call-graph dwarf,SIZE` and under
# `perf record --call-graph dwarf,SIZE`, at the same frequency and stack size,
# each RUNS times, and prints the median wall time of each (the whole
# command: perf's includes its build-id pass at the end, as a user waits for
# it), the slowdown of each against the program alone, the ratio of the two
# slowdowns, the samples and lost samples of each, and the size of the
# capture against the size of perf.data.
#
# Usage: tests/bench/dwarf-overhead.sh [-b BUILDDIR] [-F HZ] [-s SIZE] [-n RUNS]
#                                      [-- PROGRAM [ARGS...]]
# Needs root or kernel.perf_event_paranoid <= 1, and perf.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh"

build="$bench_top/build"
freq=999
size=8192
runs=3
while getopts "b:F:s:n:" opt; do
  case "$opt" in
    b) build=$(cd "$OPTARG" && pwd) ;;
    F) freq=$OPTARG ;;
    s) size=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
if [ $# -eq 0 ]; then
  set -- "$build/tests/workloads/paths-nofp" 600
fi

bench_start dwarf-overhead "$build"

now() { date +%s.%N; }

# Prints the wall time of "$@" in seconds, its output discarded.
timed() {
  local t0 t1
  t0=$(now)
  "$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; return 1; }
  t1=$(now)
  calc "$t1 - $t0"
}

calc() { awk "BEGIN { print $1 }"; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$work/base"; : >"$work/hotpath"; : >"$work/perf"
for ((i = 0; i < runs; i++)); do
  # Interleaved, so that a machine that speeds up or slows down over the
  # runs biases no tool.
  timed "$@" >>"$work/base"
  timed "$cli" record --force -F "$freq" --call-graph "dwarf,$size" -o "$work/capture.hotpath" -- "$@" >>"$work/hotpath"
  hp_log=$(cat "$work/out")
  timed perf record -q -e cpu-clock -F "$freq" --call-graph "dwarf,$size" -o "$work/perf.data" -- "$@" >>"$work/perf"
done

base=$(median <"$work/base")
hp=$(median <"$work/hotpath")
pf=$(median <"$work/perf")
hp_samples=$(sqlite3 "$work/capture.hotpath" "SELECT count(*) FROM samples")
hp_lost=$(sqlite3 "$work/capture.hotpath" "SELECT value FROM metadata WHERE key = 'lost_samples'")
hp_truncated=$(sqlite3 "$work/capture.hotpath" "SELECT value FROM metadata WHERE key = 'truncated_stacks'")
pf_samples=$(perf_stat "$work/perf.data" SAMPLE)
pf_lost=$(perf_stat "$work/perf.data" LOST)
hp_size=$(stat -c %s "$work/capture.hotpath")
pf_size=$(stat -c %s "$work/perf.data")

printf 'program:            %s\n' "$*"
printf 'settings:           -F %s, --call-graph dwarf,%s, median of %s runs\n' "$freq" "$size" "$runs"
printf 'program alone:      %.2f s\n' "$base"
printf 'hotpath-cli record: %.2f s  slowdown %.3fx  (%s samples, %s lost, %s truncated)\n' \
  "$hp" "$(calc "$hp / $base")" "$hp_samples" "${hp_lost:-0}" "${hp_truncated:-0}"
printf 'perf record:        %.2f s  slowdown %.3fx  (%s samples, %s lost)\n' \
  "$pf" "$(calc "$pf / $base")" "${pf_samples:-?}" "${pf_lost:-0}"
printf 'slowdown ratio:     hotpath / perf = %.3f (<= 1: Hotpath costs no more)\n' \
  "$(calc "$hp / $pf")"
printf 'size:               capture %s bytes, perf.data %s bytes: %.0fx smaller\n' \
  "$hp_size" "$pf_size" "$(calc "$pf_size / $hp_size")"
printf '%s\n' "$hp_log" | grep -E '^hotpath-cli:' || true
