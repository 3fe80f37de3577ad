#!/usr/bin/env bash
# record-lost.sh - samples lost at every page fault (-c 1), against perf record
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Records the events workload touching PAGES fresh pages with
# `hotpath-cli record -e page-faults -c 1` and with `perf record -e
# page-faults -c 1`, with the same call graph (dwarf: an 8 KiB stack copy per
# fault, the hard case; or fp), RUNS times each, alternately, and prints the
# samples each kept and lost, and the share lost over all runs. Each fault is
# one sample, so a run kept PAGES (plus the program's own start-up faults)
# when it lost none. The load of the machine decides most of the losses:
# compare the two on the same runs, never with a threshold.
#
# Usage: tests/bench/record-lost.sh [-b BUILDDIR] [-g dwarf|fp] [-p PAGES] [-n RUNS]
# Needs root or kernel.perf_event_paranoid <= 1, and perf.
set -euo pipefail
. "$(dirname "$0")/bench-common.sh"

build="$bench_top/build"
graph=dwarf
pages=20000
runs=5
while getopts "b:g:p:n:" opt; do
  case "$opt" in
    b) build=$(cd "$OPTARG" && pwd) ;;
    g) graph=$OPTARG ;;
    p) pages=$OPTARG ;;
    n) runs=$OPTARG ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done

bench_start record-lost "$build"
workload="$build/tests/workloads/events-fp"
perf_graph=$graph
[ "$graph" = fp ] && perf_graph=fp

hp_kept=0 hp_lost=0 perf_kept=0 perf_lost=0
for i in $(seq "$runs"); do
  # "wrote X: N samples of page-faults, ..., M lost"
  line=$("$cli" record -e page-faults -c 1 --call-graph "$graph" -f -o "$work/f.hotpath" \
           -- "$workload" faults "$pages" 2>&1 | tail -n 1)
  kept=$(sed -E 's/.*: ([0-9]+) samples? .*/\1/' <<<"$line")
  lost=$(sed -E 's/.* ([0-9]+) lost.*/\1/' <<<"$line")
  [[ "$lost" =~ ^[0-9]+$ ]] || lost=0
  perf record -q -e page-faults -c 1 --call-graph "$perf_graph" -o "$work/perf.data" \
    -- "$workload" faults "$pages" >/dev/null 2>&1
  pk=$(perf_stat "$work/perf.data" SAMPLE)
  pl=$(perf_stat "$work/perf.data" LOST_SAMPLES)
  printf 'run %d: hotpath %d kept, %d lost; perf %d kept, %d lost\n' "$i" "$kept" "$lost" "$pk" "$pl"
  hp_kept=$((hp_kept + kept)) hp_lost=$((hp_lost + lost))
  perf_kept=$((perf_kept + pk)) perf_lost=$((perf_lost + pl))
done
awk -v hk="$hp_kept" -v hl="$hp_lost" -v pk="$perf_kept" -v pl="$perf_lost" -v g="$graph" -v n="$runs" \
  -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
    printf "page-faults -c 1, call graph %s, %d runs, load %s: hotpath lost %.1f %%, perf lost %.1f %%\n",
           g, n, load, 100 * hl / (hk + hl), 100 * pl / (pk + pl) }'
