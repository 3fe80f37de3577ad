#!/usr/bin/env bash
# make-screenshots.sh [BUILD] [OUT] - the window's screenshots at two screen
# sizes, light and dark, under Xvfb (what issue reviewers and the README look at).
#
# Records tests/workloads/threads-fp (two processes, several threads: the
# timeline has lanes to show) once, then runs tests/display/make-screenshots
# at 1024x700 and 1920x1080, light and dark, into OUT/SIZE-STYLE/, and
# a deep recursion with Merge Recursion on into OUT/recursion-merged/, and
# the offer of summaries from earlier captures (tests/display/
# test-summary-offer) into OUT/SIZE-STYLE/summary-offer.png, the
# dialog of an import into OUT/SIZE-STYLE/summary-import-dialog.png, and
# the compare window (tests/display/test-compare-window) into
# OUT/SIZE-STYLE/compare*.png, and the Record dialog's states
# (tests/display/make-record-screenshots) into OUT/SIZE-STYLE/record-*.png,
# and the banner of samples waiting beside a capture (tests/display/
# test-window) into OUT/SIZE-STYLE/pending.png.
# Open the PNGs and look at them before
# calling a window change done (HACKING.md).
# With UPDATE_DATA=1 it also copies the main view, the flame graph, the
# timeline and the offer of each size and style into data/screenshots/
# sizes/, and the demo of the README's quick start at 1280x800 into
# data/screenshots/ (main.png, flame.png, timeline.png), and the merged
# recursion's flame graph as data/screenshots/recursion-merged.png.
#
# The programs are built and recorded in a folder of their own,
# SCREENSHOT_SRC (default /tmp/hotpath-demo), and run from there: the
# window shows the command and the source file's path, and a screenshot
# should not show the folder of whoever made it.
#
# SCREENSHOT_LANGUAGE=de takes the window's views (make-screenshots) in
# that language, from the build's catalogues (build/po): what a
# translation's longer words do to the layout. The offer and the compare
# window come from display tests that check English text, so stay English.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
out=${2:-$build/screenshots}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cli="$build/src/cli/hotpath-cli"
src=${SCREENSHOT_SRC:-/tmp/hotpath-demo}
capture="$src/screenshots-threads.hotpath"
lang_env=()
if [ -n "${SCREENSHOT_LANGUAGE:-}" ]; then
  lang_env=(LC_ALL=C.UTF-8 LANGUAGE="$SCREENSHOT_LANGUAGE" HOTPATH_LOCALEDIR="$build/po")
fi

# the workloads as tests/workloads/meson.build builds them, from copies
mkdir -p "$src"
cp "$top"/tests/workloads/{workload.h,threads.c,threads-child.c,recurse.c,demo.c} "$src/"
cd "$src"
cc=${CC:-cc}
$cc -D_GNU_SOURCE -O2 -g -fno-omit-frame-pointer -pthread threads.c -o threads-fp
$cc -O2 -g -fno-omit-frame-pointer threads-child.c -o threads-child-fp
$cc -O2 -g -fomit-frame-pointer recurse.c -o recurse-nofp
$cc -O2 -g -fno-omit-frame-pointer demo.c -o demo

if [ ! -f "$capture" ]; then
  "$cli" record -o "$capture" -- ./threads-fp >/dev/null
fi
for size in 1024x700 1920x1080; do
  for style in light dark; do
    dir="$out/$size-$style"
    mkdir -p "$dir"
    dark=0
    [ "$style" = dark ] && dark=1
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 "${lang_env[@]}" GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          SCREENSHOT_SIZE="$size" SCREENSHOT_DARK=$dark SCREENSHOT_SEARCH=work \
          SCREENSHOT_SUMMARY="The first worker's loop: all of its time is the arithmetic of WORK_UNITS at line 50. It runs beside worker_two, which does half as much; giving them equal shares would shorten the run." \
      dbus-run-session -- "$build/tests/display/make-screenshots" "$capture" "$dir" worker_one_work \
      2>/dev/null | sed "s|^|$size $style: |"
    # the banner that offers summaries from earlier captures of the
    # program (issue 16), as the display test shows it
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          GTK_A11Y=none LC_ALL=C.UTF-8 SCREENSHOT_SIZE="$size" SCREENSHOT_DARK=$dark \
          SUMMARY_OFFER_SCREENSHOT="$dir/summary-offer.png" \
      dbus-run-session -- "$build/tests/display/test-summary-offer" -p /summary-offer/offer \
      >/dev/null 2>&1 && echo "$size $style: $dir/summary-offer.png"
    # Import Summaries From… of 82 summaries: the window, and the dialog
    # that lists each with its rule (summary-import-dialog.png)
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          GTK_A11Y=none LC_ALL=C.UTF-8 SCREENSHOT_SIZE="$size" SCREENSHOT_DARK=$dark \
          SUMMARY_IMPORT_SCREENSHOT="$dir/summary-import.png" \
      dbus-run-session -- "$build/tests/display/test-summary-offer" -p /summary-offer/import-many \
      >/dev/null 2>&1 && echo "$size $style: $dir/summary-import-dialog.png"
    # the compare window (issue 11) on the display test's two folders of
    # five runs: compare.png, compare-bottom-up.png, compare-source.png
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          GTK_A11Y=none LC_ALL=C.UTF-8 SCREENSHOT_SIZE="$size" SCREENSHOT_DARK=$dark \
      dbus-run-session -- "$build/tests/display/test-compare-window" --screenshots "$dir" \
          -p /compare-window/compare 2>/dev/null | grep '^# wrote' | sed "s|^# wrote |$size $style: |"
    # the banner of samples that waited beside a capture for another
    # program's write lock, with Add Them (pending.png)
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          GTK_A11Y=none LC_ALL=C.UTF-8 SCREENSHOT_SIZE="$size" SCREENSHOT_DARK=$dark \
          PENDING_SCREENSHOT="$dir/pending.png" \
      dbus-run-session -- "$build/tests/display/test-window" -p /window/pending \
      >/dev/null 2>&1 && echo "$size $style: $dir/pending.png"
    # the Record dialog in its states (record-*.png): among them waiting
    # for a sqlite3 shell's write lock to finish the capture
    # (record-finish-wait.png) and a capture whose folder was removed
    # while it was recorded, kept elsewhere (record-rescued.png)
    xvfb-run -a -s "-screen 0 ${size}x24" \
      env GDK_BACKEND=x11 GSK_RENDERER=cairo GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
          GTK_A11Y=none LC_ALL=C.UTF-8 SCREENSHOT_DARK=$dark \
      dbus-run-session -- "$build/tests/display/make-record-screenshots" "$dir" \
      2>/dev/null | sed "s|^wrote |$size $style: |"
    if [ "${UPDATE_DATA:-0}" = 1 ]; then
      for view in main flame timeline summary-offer; do
        cp "$dir/$view.png" "$top/data/screenshots/sizes/$size-$style-$view.png"
      done
    fi
  done
done

# The demo of the README's quick start, at 1280x800: the README's main
# view, flame graph and timeline
demo="$src/demo.hotpath"
if [ ! -f "$demo" ]; then
  "$cli" record -o "$demo" -- ./demo >/dev/null
fi
mkdir -p "$out/1280x800-demo"
xvfb-run -a -s "-screen 0 1280x800x24" \
  env GDK_BACKEND=x11 "${lang_env[@]}" GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 \
      SCREENSHOT_SIZE=1280x800 \
      SCREENSHOT_SUMMARY="Looks each word up in its hash bucket. A quarter of all samples is the strncmp that confirms a match, once for every word of the text. Storing the hash in each entry and comparing it first would skip most of them." \
  dbus-run-session -- "$build/tests/display/make-screenshots" "$demo" "$out/1280x800-demo" count_word \
  2>/dev/null | sed "s|^|demo 1280x800: |"
if [ "${UPDATE_DATA:-0}" = 1 ]; then
  for view in main flame timeline; do
    cp "$out/1280x800-demo/$view.png" "$top/data/screenshots/$view.png"
  done
fi

# Deep recursion, merged: recurse's 150 nested calls of descend as one.
# DWARF unwinding, since the kernel's frame-pointer chain stops at 127.
recursion="$src/screenshots-recurse.hotpath"
if [ ! -f "$recursion" ]; then
  "$cli" record -o "$recursion" -- ./recurse-nofp 400 >/dev/null
fi
mkdir -p "$out/recursion-merged"
xvfb-run -a -s "-screen 0 1280x800x24" \
  env GDK_BACKEND=x11 "${lang_env[@]}" GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" NO_AT_BRIDGE=1 SCREENSHOT_MERGE=1 \
      SCREENSHOT_SUMMARY="The leaf of a 150-deep recursion: with Merge Recursion on, descend shows once, with all of its levels' samples." \
  dbus-run-session -- "$build/tests/display/make-screenshots" "$recursion" "$out/recursion-merged" recurse_leaf \
  2>/dev/null | sed "s|^|recursion merged: |"
if [ "${UPDATE_DATA:-0}" = 1 ]; then
  cp "$out/recursion-merged/flame.png" "$top/data/screenshots/recursion-merged.png"
fi
