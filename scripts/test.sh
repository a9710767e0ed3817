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

# The kernel map and stack table made from the runtime when sm2c is built
# (cmake/build_cache.py): made once for both builds and cli_cmake_source_tree.
export SM2C_RUNTIME_MAP_CACHE="$root/build-cache"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Generated code is built warning-free with gcc in the plain run, and with
# clang under ASan and UBSan in the sanitizer run.
warn="-Wall -Wextra -pedantic -Werror"
# CI has 45 minutes for both builds, so a long suite runs in one build only
# when the other adds nothing to it.  The plain run skips cli_report: it checks
# the compiler's report writer, which the sanitizer run checks under ASan.
SM2C_TEST_CC="gcc $warn" run build-test '^(cli_report)$'
# The sanitizer run skips what does not depend on it: cli_cmake_source_tree
# builds a second, unsanitized compiler from this tree (3 minutes);
# cli_determinism_all compiles every model twice to compare the outputs while
# the conformance and e2e tests already run the sanitized compiler on the same
# models; cli_runtime_files and cli_cmake_package build the runtime and a CMake
# project with the system gcc, and rt_neon cross-builds the kernels for
# qemu-aarch64: neither is sanitized, so the plain run covers them;
# cli_float_kernels_m4 cross-builds the kernels for a Cortex-M4F without the
# compiler at all, and cli_firmware_m4 spends its time in the ARM toolchain
# and QEMU (its models' Cortex-M lowering runs sanitized in
# cli_quant_modes_m4 and cli_quantize_modes); cli_stack_budget builds the
# runtime twice with the system gcc for its call graph, whatever the build
# (its two compiles of e2e models run sanitized in the e2e tests); and
# cli_so_dlopen checks that every e2e case's shared object loads and runs
# through its metadata table: LLVM builds the model code uninstrumented, the
# runtime inside is the one the e2e and conformance runs sanitize, and the
# sanitized compiler's --emit so runs in cli_compile_outputs.
SM2C_TEST_CC="clang $warn -g -fsanitize=address,undefined -fno-sanitize-recover=all" \
  run build-asan '^(cli_cmake_source_tree|cli_determinism_all|cli_runtime_files|cli_cmake_package|rt_neon|cli_float_kernels_m4|cli_firmware_m4|cli_stack_budget|cli_so_dlopen)$' \
  -DSM2C_SANITIZE=ON
