#!/usr/bin/env bash
# compile --profile (codegen/c_profile.c):
#  1. the default output has no hook: the C of a --profile compile, less its
#     hook lines and switch, is the default compile's byte for byte, and every
#     other file is the same;
#  2. built without CNN_PROFILE, the --profile model.c compiles to the same
#     machine code as the default one (no cost when off);
#  3. built with -DCNN_PROFILE=hook, the hook is called around every step with
#     the step index in order, the kernel and node names and the output
#     (profile_hooks_main.c);
#  4. the LLVM forms refuse --profile in one line, exit 2.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi; }
model=$root/tests/data/e2e/cnn/model

"$sm2c" compile "$model" -o "$tmp/plain" --name cnn -q || { echo "FAIL: compile"; exit 1; }
"$sm2c" compile "$model" -o "$tmp/prof" --name cnn -q --profile || { echo "FAIL: compile --profile"; exit 1; }
check "the default output names no profiling hook" bash -c "! grep -q PROFILE '$tmp'/plain/*"
# model.c without the hook calls and the switch block (6 lines and a blank after it)
# (the banner's command line says --profile)
sed '/CNN_PROFILE_STEP(/d; /^\/\* --profile: each step calls/,/^$/d; s/ --profile$//' "$tmp/prof/cnn.c" >"$tmp/stripped.c"
check "--profile adds only the hooks to cnn.c" cmp -s "$tmp/stripped.c" "$tmp/plain/cnn.c"
sed '/^\/\* Profiling (compiled with --profile)/,/^$/d; s/ --profile$//' "$tmp/prof/cnn.h" >"$tmp/stripped.h"
check "--profile adds only the hook's description to cnn.h" cmp -s "$tmp/stripped.h" "$tmp/plain/cnn.h"
check "every other file is the same" bash -c "cd '$tmp/prof' && for f in *; do case \$f in cnn.c|cnn.h) ;; *) cmp -s \"\$f\" '$tmp/plain/'\"\$f\" || exit 1;; esac; done"

for d in plain prof; do
  "$cc" -std=c99 -O2 -c -I"$tmp/$d" "$tmp/$d/cnn.c" -o "$tmp/$d.o"
  objdump -d --no-show-raw-insn "$tmp/$d.o" | tail -n +4 >"$tmp/$d.dis"
done
check "without CNN_PROFILE the --profile cnn.c is the same machine code" cmp -s "$tmp/plain.dis" "$tmp/prof.dis"

out=$("$cc" -std=c99 -O2 -Wall -Wextra -pedantic -Werror -DCNN_PROFILE=hook -I"$tmp/prof" \
  "$root/tests/cli/profile_hooks_main.c" "$tmp"/prof/*.c -o "$tmp/hooked" -lm 2>&1) || { echo "$out"; }
check "the hooked build compiles warning-free" test -x "$tmp/hooked"
check "the hook sees every step, in order, with its names and output" "$tmp/hooked"

for emit in so llvm-ir; do
  msg=$("$sm2c" compile "$model" -o "$tmp/l_$emit" --name cnn -q --profile --emit $emit 2>&1); rc=$?
  echo "  --emit $emit: exit $rc: $msg"
  check "--emit $emit --profile is refused (exit 2, one line)" \
    bash -c "[ $rc = 2 ] && [ \$(printf '%s\n' \"\$1\" | wc -l) = 1 ] && printf '%s' \"\$1\" | grep -q 'use --emit c'" _ "$msg"
done
exit $fail
