#!/bin/sh
# build-perf-jvmti.sh - build perf's JVMTI agent, libperf-jvmti.so
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: build-aux/build-perf-jvmti.sh OUTDIR
#
# Java writes a jitdump (jit-PID.dump, with line tables) when it runs with
# -agentpath:OUTDIR/libperf-jvmti.so. Debian 12's linux-perf does not ship
# that agent; its sources are in Debian's kernel source package
# (linux-source-6.1: /usr/src/linux-source-6.1.tar.xz, tools/perf/jvmti/),
# and jvmti.h comes with the JDK (openjdk-17-jdk-headless). This takes
# only the few files the agent needs out of the tarball (it still has to
# decompress all of it: about 11 s of CPU) and compiles them as perf's own
# build does (tools/perf/jvmti/Build). An agent already built in OUTDIR,
# newer than the tarball, is kept.
#
# Prints the agent's path. Exit status 0 when built, 77 when the kernel
# sources or the JDK headers are not installed (it says which), 1 when
# the build fails.

set -eu

out=${1:?usage: build-perf-jvmti.sh OUTDIR}
agent=$out/libperf-jvmti.so

tarball=
for t in /usr/src/linux-source-*.tar.xz; do
  [ -f "$t" ] && tarball=$t
done
if [ -z "$tarball" ]; then
  echo "build-perf-jvmti: no kernel sources in /usr/src (apt-get install linux-source-6.1)" >&2
  exit 77
fi

jdk=
if command -v javac >/dev/null 2>&1; then
  jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
fi
if [ -z "$jdk" ] || [ ! -f "$jdk/include/jvmti.h" ]; then
  for h in /usr/lib/jvm/*/include/jvmti.h; do
    [ -f "$h" ] && jdk=$(dirname "$(dirname "$h")")
  done
fi
if [ -z "$jdk" ] || [ ! -f "$jdk/include/jvmti.h" ]; then
  echo "build-perf-jvmti: no jvmti.h (apt-get install openjdk-17-jdk-headless)" >&2
  exit 77
fi

if [ -f "$agent" ] && [ "$agent" -nt "$tarball" ]; then
  echo "$agent"
  exit 0
fi

mkdir -p "$out"
src=$(mktemp -d "$out/src.XXXXXX")
trap 'rm -rf "$src"' EXIT

top=$(basename "$tarball" .tar.xz)
# What the agent includes (gcc -M), and the strlcpy it links: nothing else.
tar -xJf "$tarball" -C "$src" --wildcards \
  "$top/tools/perf/jvmti/*" \
  "$top/tools/perf/util/jitdump.h" \
  "$top/tools/include/linux/*" \
  "$top/tools/include/asm-generic/*" \
  "$top/tools/include/uapi/asm-generic/*" \
  "$top/tools/lib/string.c" \
  "$top/tools/lib/ctype.c"

tools=$src/$top/tools
# The defines perf's feature checks would set: HAVE_JVMTI_CMLR, the JDK
# has jvmticmlr.h (without it the agent writes no line tables);
# HAVE_GETTID, glibc 2.30 and newer declare gettid() (without it the
# agent defines its own, a conflict).
${CC:-cc} -O2 -shared -fPIC -DPIC -D_GNU_SOURCE -DHAVE_JVMTI_CMLR -DHAVE_GETTID -w \
  -I "$tools/include" \
  -I "$jdk/include" -I "$jdk/include/linux" \
  -o "$src/libperf-jvmti.so" \
  "$tools/perf/jvmti/libjvmti.c" "$tools/perf/jvmti/jvmti_agent.c" \
  "$tools/lib/string.c" "$tools/lib/ctype.c"
mv "$src/libperf-jvmti.so" "$agent"
echo "$agent"
