#!/usr/bin/env bash
# test-quickstart.sh BUILD_DIR SOURCE_DIR - `build-aux/quickstart.sh run`
# records the demo only when it is missing, so the summaries written into it
# survive the next run (issue 10, item 3).
#
# The script runs with QUICKSTART_SKIP_SETUP (no apt-get, no build: this
# build did that) on a folder that stands in for the build folder, so the
# build's own demo.hotpath is not touched. Exit 77: skipped.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

build=$1
top=$2
cli="$build/src/cli/hotpath-cli"
path="main;tokenize;count_word"

if [ "$(id -u)" -ne 0 ]; then
  echo "skipped: quickstart.sh samples with sudo when not root"
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build/src/cli" "$tmp/build/tests/workloads"
ln -s "$cli" "$tmp/build/src/cli/hotpath-cli"
ln -s "$build/tests/workloads/demo" "$tmp/build/tests/workloads/demo"
demo="$tmp/build/demo.hotpath"

run_quickstart() {
  env -u DISPLAY -u WAYLAND_DISPLAY QUICKSTART_SKIP_SETUP=1 QUICKSTART_BUILD_DIR="$tmp/build" \
    bash "$top/build-aux/quickstart.sh" run >"$tmp/out" 2>&1 && return 0
  cat "$tmp/out"
  if grep -q "perf_event_open was refused" "$tmp/out"; then
    echo "skipped: cannot sample here"
    exit 77
  fi
  echo "FAIL: quickstart.sh run failed"
  exit 1
}

started() {
  "$cli" report "$demo" --limit 1 | sed -n 's/^# Started: *//p'
}

# First run: records the demo and writes the example summary.
run_quickstart
[ -f "$demo" ] || { echo "FAIL: no $demo"; exit 1; }
"$cli" summary "$demo" "$path" | grep -q "Looks each word up" ||
  { echo "FAIL: no example summary"; "$cli" summary "$demo"; exit 1; }
first=$(started)

# The user writes their own summaries.
"$cli" summary "$demo" "$path" --set "Mine: the hash compare is the fix." 2>/dev/null
"$cli" summary "$demo" "main;tokenize" --set "Mine too." 2>/dev/null

# Second run: the demo and its summaries are kept.
run_quickstart
"$cli" summary "$demo" "$path" | grep -q "Mine: the hash compare is the fix." ||
  { echo "FAIL: the user's summary of $path is gone"; "$cli" summary "$demo"; exit 1; }
"$cli" summary "$demo" "main;tokenize" | grep -q "Mine too." ||
  { echo "FAIL: the user's summary of main;tokenize is gone"; "$cli" summary "$demo"; exit 1; }
[ "$(started)" = "$first" ] || { echo "FAIL: the demo was recorded again"; exit 1; }
grep -q "not recorded again" "$tmp/out" || { echo "FAIL: the second run does not say it kept the demo"; exit 1; }
# the report under the kept summary
grep -q "Mine: the hash compare is the fix." "$tmp/out" ||
  { echo "FAIL: the report does not show the kept summary"; cat "$tmp/out"; exit 1; }

# A demo recording that was interrupted is not taken for the demo.
rm -f "$demo"
: > "$demo.new"
run_quickstart
[ -f "$demo" ] && [ ! -e "$demo.new" ] || { echo "FAIL: the demo was not recorded anew"; exit 1; }
"$cli" summary "$demo" "$path" | grep -q "Looks each word up" || { echo "FAIL: no example summary"; exit 1; }

echo "ok: the demo is recorded once and its summaries are kept"
