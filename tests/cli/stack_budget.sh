#!/usr/bin/env bash
# Generated code and the whole runtime stay within the runtime-wide stack
# budget (SM2C_RT_STACK_BYTES, docs/reliability.md rule 10): gcc's -fcallgraph-info
# at -O0 and -O2 gives every frame and call edge; no recursion, no unbounded
# frame, deepest chain within the budget.  And the bound a generated header
# states for x86-64 (its _STACK_SIZE, from the call tree of the program)
# covers the entry point's chain at -O2, library calls at 128 bytes each.
set -eu
sm2c=$(realpath "$1") root=$(realpath "$2")
command -v gcc >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sm2c" compile "$root/tests/data/e2e/cnn/model" -o "$tmp/cnn" --name cnn --shape image=2,16,16,3 2>/dev/null
# and a --max-batch entry: its batch loop calls the one-row function.
"$sm2c" compile "$root/tests/data/batch/keras_cnn/model" -o "$tmp/cnnb" --name cnnb --max-batch 4 2>/dev/null
budget=$(sed -n 's/^#define SM2C_RT_STACK_BYTES \([0-9]*\).*/\1/p' "$root/runtime/include/sm2c_rt.h")
# The header's bound for everything but ARM: the line after #else.
bound=$(sed -n '/^#else/{n;s/^#define CNN_STACK_SIZE \([0-9]*\)$/\1/p}' "$tmp/cnn/cnn.h")
bound_b=$(sed -n '/^#else/{n;s/^#define CNNB_STACK_SIZE \([0-9]*\)$/\1/p}' "$tmp/cnnb/cnnb.h")
[ -n "$bound" ] && [ -n "$bound_b" ] && [ "$bound" -lt "$budget" ] || {
    echo "no per-program stack bound in the headers (got '$bound' '$bound_b')"; exit 1; }
for opt in -O0 -O2; do
    mkdir -p "$tmp/ci$opt"
    for f in "$root"/runtime/*.c "$tmp/cnn/cnn.c" "$tmp/cnnb/cnnb.c"; do
        (cd "$tmp/ci$opt" && gcc -std=c99 $opt -ffp-contract=off -fcallgraph-info=su \
            -I"$root/runtime/include" -I"$tmp/cnn" -I"$tmp/cnnb" -c "$f" -o "$(basename "$f" .c).o")
    done
    echo "gcc $opt:"
    python3 "$root/tests/stack/check_stack.py" "$budget" "$tmp/ci$opt"/*.ci
done
entry=$(sed -n 's/^int32_t \(cnn_[a-z_]*\)(.*/\1/p' "$tmp/cnn/cnn.h" | head -1)
entry_b=$(sed -n 's/^int32_t \(cnnb_[a-z_]*\)(int32_t batch.*/\1/p' "$tmp/cnnb/cnnb.h" | head -1)
echo "header bounds, gcc -O2: $entry"
python3 "$root/tests/stack/check_stack.py" --from "$entry" --extern 128 "$bound" "$tmp/ci-O2"/*.ci
echo "header bounds, gcc -O2: $entry_b"
python3 "$root/tests/stack/check_stack.py" --from "$entry_b" --extern 128 "$bound_b" "$tmp/ci-O2"/*.ci
