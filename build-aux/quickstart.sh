#!/usr/bin/env bash
# quickstart.sh run|test - what the README's two commands do on a fresh Debian 12:
# install the build and test dependencies, build, then either record the bundled
# demo program and show its profile, or run the whole test suite.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

mode=${1:-run}
top=$(cd "$(dirname "$0")/.." && pwd)
# For the test of this script (tests/integration/test-quickstart.sh): another
# build folder, and no installing or building (the test's build did that).
build=${QUICKSTART_BUILD_DIR:-"$top/build"}
skip_setup=${QUICKSTART_SKIP_SETUP:-}
cd "$top"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The benchmarks and the fuzzer need more (hotspot for import-bench.sh, clang
# for tests/fuzz/run.sh); they say so when it is missing, and the tests don't.
packages=(
  build-essential meson ninja-build pkg-config python3 binutils
  libglib2.0-dev libdw-dev libelf-dev libdebuginfod-dev libsqlite3-dev libiberty-dev libzstd-dev libjson-glib-dev
  libprotobuf-c-dev protobuf-c-compiler golang-go
  libgtk-4-dev sqlite3 linux-perf
  python3.11-dbg libc6-dbg nodejs openjdk-17-jdk-headless linux-source-6.1 debuginfod xz-utils
  xvfb xauth xdotool dbus dbus-x11 fonts-dejavu-core gettext desktop-file-utils appstream shared-mime-info
  libegl-mesa0 libglx-mesa0 libgl1-mesa-dri
)
missing=()
if [ -z "$skip_setup" ]; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "quickstart: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -z "$skip_setup" ]; then
  if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" --buildtype=debugoptimized >/dev/null
  fi
  ninja -C "$build" >/dev/null
fi

case "$mode" in
  run)
    demo="$build/demo.hotpath"
    cli="$build/src/cli/hotpath-cli"
    # Recorded once: the summaries a user writes into the demo stay from one
    # run to the next. It is recorded beside its name and moved there with
    # its example summary, so an interrupted run records it again.
    if [ ! -e "$demo" ]; then
      fresh="$demo.new"
      rm -f "$fresh" "$fresh-wal" "$fresh-shm"
      # Sampling needs root or kernel.perf_event_paranoid <= 1.
      as_root "$cli" record -o "$fresh" -- "$build/tests/workloads/demo" >/dev/null
      as_root chown "$(id -u):$(id -g)" "$fresh" 2>/dev/null || true
      "$cli" summary "$fresh" "main;tokenize;count_word" --set \
        "Looks each word up in its hash bucket. A quarter of all samples is the strncmp that confirms a match, once for every word of the 4 MiB text. Storing the hash in each entry and comparing it first would skip most of them." 2>/dev/null || true
      mv "$fresh" "$demo"
    else
      echo "quickstart: $demo is there already, with its summaries: not recorded again (remove it to record the demo anew)"
    fi
    if [ -x "$build/src/ui/hotpath" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      # Run from the build tree: its compiled GSettings schema and icons.
      export GSETTINGS_SCHEMA_DIR="$build/data"
      exec "$build/src/ui/hotpath" "$demo"
    fi
    echo "quickstart: no display; the window would open $demo. Here is its report:"
    echo
    "$cli" report "$demo" --limit 15
    echo
    "$cli" report "$demo" --tree --threshold 2
    ;;
  test)
    log="$build/meson-test.log"
    status=0
    # Off-CPU recording reads sched:sched_switch through tracefs, which some
    # systems do not mount; its test skips without it.
    if [ -d /sys/kernel/tracing ] && ! mountpoint -q /sys/kernel/tracing; then
      as_root mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
    fi
    as_root meson test -C "$build" --print-errorlogs --num-processes 1 2>&1 | tee "$log" || status=$?
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    skipped=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log" | tail -1)
    fail=$(( ${fail:-0} + ${timeout:-0} ))
    echo "${ok:-0} passed, ${fail} failed, ${skipped:-0} skipped"
    exit "$status"
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
