#!/usr/bin/env bash
# The exact kernel map (issue 13; codegen/rt_embed.h, cmake/runtime_map.py):
# 1. every runtime kernel's file set, written alone by `sm2c runtime --kernel`,
#    compiles warning-free and links into a shared object with no undefined
#    symbol (its headers and the kernels it calls are all there);
# 2. an output directory holds only what its program uses: for samples/digits,
#    the Dense 1-16-16-1 sine model and half_plus_two (a Mul and an Add),
#    building every .c in it gives the same .text size, within 2%, as building
#    with -ffunction-sections -fdata-sections -Wl,--gc-sections.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
cc=${CC:-gcc}
fail=0 passed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Each kernel alone, two at a time, at -O0: every call stays, so a missing
# kernel is an undefined symbol, and the runtime's warnings at -O2 are
# checked where it is built whole (tests/e2e/rtlib.py, with -Werror).
"$sm2c" runtime --list > "$tmp/list" || { echo "FAIL: sm2c runtime --list"; exit 1; }
one_kernel() { # kernel: write its files alone and link them
    local k=$1 d=$tmp/k/$1
    "$sm2c" runtime -o "$d" --kernel "$k" >/dev/null 2>&1 &&
        $cc -std=c99 -Wall -Wextra -pedantic -Werror -O0 -fPIC -shared -Wl,--no-undefined \
            -o "$d/k.so" "$d"/*.c -lm 2>"$d.err" && echo ok || { echo "FAIL: kernel $k alone"; cat "$d.err"; }
}
export -f one_kernel; export sm2c cc tmp
mkdir -p "$tmp/k"
cut -d: -f1 "$tmp/list" | xargs -P "$(nproc)" -I{} bash -c 'one_kernel {}' > "$tmp/kernels.out"
n_ok=$(grep -c '^ok$' "$tmp/kernels.out")
n_all=$(wc -l < "$tmp/list")
grep -v '^ok$' "$tmp/kernels.out" | head -20
if [ "$n_ok" -eq "$n_all" ] && [ "$n_all" -gt 100 ]; then passed=$((passed + 1)); else fail=$((fail + 1)); fi
echo "kernels alone: $n_ok of $n_all link"

# 2. .text of every .c in the output, without and with section GC.
text_of() { size -A "$1" | awk '$1 == ".text" { print $2 }'; }
check_text() { # name, model dir, compile options...
    local name=$1 model=$2; shift 2
    local d=$tmp/$name
    if ! "$sm2c" compile "$model" -o "$d" --name "$name" "$@" >/dev/null 2>"$tmp/err"; then
        echo "FAIL: compile $name"; cat "$tmp/err"; fail=$((fail + 1)); return
    fi
    printf '#include "%s.h"\nint main(void) { return %s_signatures[0].key[0] == 0; }\n' "$name" "$name" > "$d/main_.c"
    # A caller uses every entry point: keep each public function of NAME.c.
    $cc -std=c99 -c -o "$d/model.o" "$d/$name.c" -I "$d"
    local keep
    keep=$(nm -g --defined-only "$d/model.o" | awk '$2 == "T" { printf " -Wl,--undefined=%s", $3 }')
    rm -f "$d/model.o"
    for opt in -Os -O2; do
        $cc -std=c99 $opt -o "$d/all" "$d"/*.c -lm &&
            $cc -std=c99 $opt -ffunction-sections -fdata-sections -Wl,--gc-sections $keep -o "$d/gc" "$d"/*.c -lm || {
            echo "FAIL: build $name $opt"; fail=$((fail + 1)); continue; }
        local all gc
        all=$(text_of "$d/all") gc=$(text_of "$d/gc")
        echo "$name $opt: .text $all bytes building every .c, $gc with --gc-sections ($(ls "$d" | grep -v '^main_.c$\|^all$\|^gc$' | tr '\n' ' '))"
        if [ $((all * 100)) -le $((gc * 102)) ]; then passed=$((passed + 1)); else
            echo "FAIL: $name $opt: more than 2% of the code is unused"; fail=$((fail + 1)); fi
    done
}
check_text digits "$root/samples/digits/model" --shape pixels=1,64
check_text sine "$root/tests/data/models/sine_dense"
check_text half_plus_two "$root/samples/half_plus_two"
hp2=$root/../shared/models/serving_half_plus_two_cpu
if [ -d "$hp2" ]; then
    check_text regress "$hp2" --signature regress_x2_to_y3
else
    echo "skip: ../shared/models is absent (serving_half_plus_two_cpu regress_x2_to_y3)"
fi
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
