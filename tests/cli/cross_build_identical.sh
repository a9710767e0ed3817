#!/usr/bin/env bash
# Generated code gives bit-identical outputs whichever compiler and
# optimisation level builds it (docs/reliability.md rule 13): every end-to-end case
# through `sm2c run` with gcc and clang at -O0 and -O3 (-ffp-contract=off,
# as rule 8 asks), every output file compared byte for byte with the gcc -O0 one.
# -O2, between the two, is what the conformance runs build at.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
# The sanitizer build runs the same cases under ASan and UBSan elsewhere; this
# comparison needs plain builds and runs once, in the plain test build.
case "${SM2C_TEST_CC:-}" in *sanitize*) echo "sanitizer build: skipped"; exit 77 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
builds=("gcc -O0" "gcc -O3")
command -v clang >/dev/null && builds+=("clang -O0" "clang -O3")
fail=0
for b in "${builds[@]}"; do
    dir="$tmp/${b// /_}"
    CC="$b -ffp-contract=off" python3 "$root/tests/e2e/check_e2e.py" -j "$(nproc)" --keep-outputs "$dir" \
        "$sm2c" "$root/tests/data/e2e" >"$dir.log" 2>&1 || { echo "FAIL $b:"; tail -5 "$dir.log"; fail=1; }
done
ref="$tmp/gcc_-O0"
for b in "${builds[@]:1}"; do
    dir="$tmp/${b// /_}"
    if diff -r -q "$ref" "$dir" >/dev/null; then
        echo "ok   $b: $(find "$dir" -name '*.npy' | wc -l) outputs identical to gcc -O0"
    else
        echo "FAIL $b differs from gcc -O0:"; diff -r -q "$ref" "$dir" | head -5; fail=1
    fi
done
exit $fail
