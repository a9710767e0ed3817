#!/usr/bin/env bash
# Set up, build and run every test twice: a normal build and one under
# AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

# run DIR EXCLUDE [cmake args]: build into DIR, then every test but those
# matching the regex EXCLUDE (empty: none).
run() {
  local dir=$1 exclude=$2; shift 2
  BUILD_DIR="$root/$dir" BUILD_TYPE=Debug "$root/scripts/build.sh" "$@"
  (cd "$root/$dir" && ctest --output-on-failure -j"$(nproc)" ${exclude:+-E "$exclude"})
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Generated code is built warning-free with gcc in the plain run, and with
# clang under ASan and UBSan in the sanitizer run.
warn="-Wall -Wextra -pedantic -Werror"
SM2C_TEST_CC="gcc $warn" run build-test ""
# cli_cmake_source_tree builds a second, unsanitized compiler from this tree
# (3 minutes), and cli_determinism_all compiles every model twice to compare
# the outputs (90 s under ASan) while the conformance and e2e tests already
# run the sanitized compiler on the same models: the plain run covers both,
# so the sanitizer run skips them.
SM2C_TEST_CC="clang $warn -g -fsanitize=address,undefined -fno-sanitize-recover=all" \
  run build-asan '^(cli_cmake_source_tree|cli_determinism_all)$' -DSM2C_SANITIZE=ON
