# fuzz-common.sh - what the run*.sh scripts of tests/fuzz share; sourced
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   fuzz_init SCRIPT DIR-NAME "$@"   parses [SECONDS] [-- LIBFUZZER-OPTION...],
#                                    sets top, dir ($FUZZ_DIR or DIR-NAME at
#                                    the top), cc ($CLANG or clang), seconds
#                                    and fuzz_options
#   fuzz_build TARGET PKG-MODULES SOURCE...
#                                    builds $dir/TARGET from tests/fuzz/TARGET.c
#                                    with libFuzzer, ASan and UBSan, and
#                                    $dir/make-seeds (-DHP_FUZZ_STANDALONE),
#                                    which writes the seeds to $dir/seeds
#   fuzz_run TARGET MAX-LEN          fuzzes for $seconds over corpus and seeds

fuzz_init () {
  script=$1
  local name=$2
  shift 2
  seconds=${1:-600}
  shift || true
  [ "${1:-}" = "--" ] && shift
  fuzz_options=("$@")
  top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  dir=${FUZZ_DIR:-$top/$name}
  cc=${CLANG:-clang}
  command -v "$cc" >/dev/null || { echo "$script: $cc not found (apt-get install clang)" >&2; exit 77; }
  mkdir -p "$dir/include" "$dir/corpus" "$dir/seeds"
  # the writer stamps the version into the captures it makes, and
  # translates its plurals in the text domain
  printf '#define PACKAGE_VERSION "fuzz"\n#define GETTEXT_PACKAGE "hotpath"\n' > "$dir/include/config.h"
}

fuzz_build () {
  local target=$1 modules=$2
  shift 2
  local flags=(-g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE
               -DGLIB_VERSION_MIN_REQUIRED=GLIB_VERSION_2_74 -DGLIB_VERSION_MAX_ALLOWED=GLIB_VERSION_2_74
               -I"$dir/include" -I"$top/src" -I"$top/tests/common"
               $(pkg-config --cflags $modules))
  local libs=($(pkg-config --libs $modules))

  echo "$script: building the fuzz target in $dir"
  "$cc" "${flags[@]}" -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    "$@" "$top/tests/fuzz/$target.c" "${libs[@]}" -o "$dir/$target"
  "$cc" "${flags[@]}" -DHP_FUZZ_STANDALONE -fsanitize=address,undefined \
    "$@" "$top/tests/fuzz/$target.c" "${libs[@]}" -o "$dir/make-seeds"
  "$dir/make-seeds" --write-seeds "$dir/seeds"
}

fuzz_run () {
  local target=$1 max_len=$2

  ls -l "$dir/seeds"
  echo "$script: fuzzing for $seconds s"
  cd "$dir"
  # SQLite keeps a page cache per connection, freed on close: no leak.
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "./$target" -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb=2048 \
      -timeout=10 -print_final_stats=1 "${fuzz_options[@]}" corpus seeds
}
