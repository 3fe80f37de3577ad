# bench-common.sh - what the shell benchmarks of tests/bench share
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sourced, not run: the build's hotpath-cli and perf, checked once with
# the same messages, a scratch folder removed on exit, and the counts
# `perf report --stats` prints.

bench_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# bench_start NAME BUILD: sets $cli to BUILD's hotpath-cli and $work to a
# new scratch folder; exits 77 (skipped) when perf, the oracle, is not
# installed, 1 when hotpath-cli is not built.
bench_start() {
  cli="$2/src/cli/hotpath-cli"
  [ -x "$cli" ] || { echo "$1: build first: $cli is missing" >&2; exit 1; }
  command -v perf >/dev/null || { echo "$1: perf is not installed; nothing to compare with" >&2; exit 77; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

# perf_stat PERF_DATA EVENT: how many EVENT records ("SAMPLE", "LOST",
# "LOST_SAMPLES") `perf report --stats` counts in PERF_DATA; 0 for none.
perf_stat() {
  perf report -i "$1" --stats 2>/dev/null |
    awk -v e="$2" '$1 == e && $2 == "events:" { n = $3; exit } END { print n + 0 }'
}
