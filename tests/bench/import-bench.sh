#!/usr/bin/env bash
# import-bench.sh - how fast perf.data is imported and reported, against perf and Hotspot
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 4 asks that importing a ~750k-sample frame-pointer perf.data (30 s
# at 20 kHz of a CPU-bound program) is no slower than `perf report --stdio`
# on the same file, that `hotpath-cli report` of the imported capture is at
# least 10 times faster than perf report, and that importing a DWARF
# perf.data is no slower than Hotspot's parser (hotspot-perfparser).
#
# This script records those files (it takes a few minutes), then times each
# tool RUNS times on warm page caches and prints medians and ratios. It
# never fails on a number; it fails only when a tool fails.
#
# Usage: import-bench.sh [--hotpath-cli PATH] [--workload PATH] [--dwarf-workload PATH]
#                        [--seconds S] [--freq HZ] [--runs N] [--keep DIR]
# Defaults: the build's hotpath-cli and oracle workload (two copies at
# once, to fill two CPUs), 30 s at 20000 Hz, 3 runs; the DWARF file is
# 10 s of paths-nofp at 1000 Hz (8 kB of stack per sample).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
cli=$build/src/cli/hotpath-cli
workload=$build/tests/workloads/oracle
dwarf_workload=$build/tests/workloads/paths-nofp
seconds=30
freq=20000
runs=3
keep=
perfparser=
for p in /usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser /usr/libexec/hotspot-perfparser \
         /usr/lib/*/libexec/hotspot-perfparser; do
  [ -x "$p" ] && { perfparser=$p; break; }
done

while [ $# -gt 0 ]; do
  case "$1" in
    --hotpath-cli) cli=$2; shift 2 ;;
    --workload) workload=$2; shift 2 ;;
    --dwarf-workload) dwarf_workload=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --freq) freq=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: $0 [--hotpath-cli PATH] [--workload PATH] [--dwarf-workload PATH] [--seconds S] [--freq HZ] [--runs N] [--keep DIR]" >&2; exit 2 ;;
  esac
done

for tool in perf "$cli" "$workload" "$dwarf_workload"; do
  command -v "$tool" >/dev/null || { echo "import-bench: $tool not found" >&2; exit 2; }
done

if [ -n "$keep" ]; then
  dir=$keep
  mkdir -p "$dir"
else
  dir=$(mktemp -d /tmp/hotpath-import-bench.XXXXXX)
  trap 'rm -rf "$dir"' EXIT
fi

# Median wall time of a command, in seconds, over $runs runs.
median_time() {
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "import-bench: failed: $*" >&2; exit 2; }
    t1=$(date +%s.%N)
    times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

samples_of() {
  perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

fp=$dir/fp.data
if [ ! -s "$fp" ]; then
  echo "import-bench: recording $seconds s at $freq Hz with -g (two copies of $(basename "$workload"))..."
  perf record -q -F "$freq" -g -o "$fp" -- sh -c \
    "timeout -s INT $seconds '$workload' 1000000 >/dev/null & timeout -s INT $seconds '$workload' 1000000 >/dev/null; wait" \
    2>/dev/null || true
fi
dwarf=$dir/dwarf.data
if [ ! -s "$dwarf" ]; then
  echo "import-bench: recording 10 s at 1000 Hz with --call-graph dwarf ($(basename "$dwarf_workload"))..."
  perf record -q -F 1000 --call-graph dwarf -o "$dwarf" -- \
    timeout -s INT 10 "$dwarf_workload" 100000 >/dev/null 2>&1 || true
fi

cap=$dir/fp.hotpath
dcap=$dir/dwarf.hotpath
cat "$fp" "$dwarf" >/dev/null  # warm the page cache for every tool alike

echo
echo "frame-pointer perf.data: $(du -h "$fp" | cut -f1), $(samples_of "$fp") samples"
t_import=$(median_time "$cli" import --force "$fp" -o "$cap")
t_perf=$(median_time perf report -i "$fp" --stdio)
t_report=$(median_time "$cli" report "$cap")
t_report_json=$(median_time "$cli" report --format json "$cap")
printf '  %-44s %8s s\n' "hotpath-cli import" "$t_import"
printf '  %-44s %8s s\n' "perf report --stdio" "$t_perf"
printf '  %-44s %8s s\n' "hotpath-cli report (imported capture)" "$t_report"
printf '  %-44s %8s s\n' "hotpath-cli report --format json" "$t_report_json"
printf '  import vs perf report:  perf report / import = %sx  (goal >= 1)\n' "$(ratio "$t_perf" "$t_import")"
printf '  report vs perf report:  perf report / report = %sx  (goal >= 10)\n' "$(ratio "$t_perf" "$t_report")"

echo
echo "DWARF perf.data: $(du -h "$dwarf" | cut -f1), $(samples_of "$dwarf") samples"
t_dimport=$(median_time "$cli" import --force "$dwarf" -o "$dcap")
printf '  %-44s %8s s\n' "hotpath-cli import" "$t_dimport"
if [ -n "$perfparser" ]; then
  t_parser=$(median_time "$perfparser" --input "$dwarf" --output /dev/null)
  printf '  %-44s %8s s\n' "hotspot-perfparser" "$t_parser"
  printf '  import vs Hotspot:      perfparser / import = %sx  (goal >= 1)\n' "$(ratio "$t_parser" "$t_dimport")"
else
  echo "  hotspot-perfparser not found (Debian package hotspot): no comparison"
fi
t_dperf=$(median_time perf report -i "$dwarf" --stdio)
printf '  %-44s %8s s\n' "perf report --stdio" "$t_dperf"
