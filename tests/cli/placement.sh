#!/usr/bin/env bash
# Memory placement (--section CLASS=NAME, --fast-arena BYTES; lower/placement.h):
#   * bad values are usage errors (exit 2), one line, nothing written: an
#     unknown class, an empty name, a character a section name cannot have, a
#     class twice, fast-arena without --fast-arena, the weights' section for a
#     written class, --fast-arena 0, a non-ELF target for the LLVM forms;
#   * the C output wraps the placed definitions in SM2C_SECTION (gcc and clang,
#     -Wall -Wextra -pedantic -Werror) and the object's symbols land in the
#     named sections; the LLVM object's too; without the options there is no
#     trace of them in the output;
#   * outputs through `sm2c run` are bit for bit those of a build without the
#     options, with and without a fast arena, on the C and LLVM backends, the
#     context entry point on 1 and 3 threads included (run --threads), on an
#     e2e case and on a model that writes variables (its state too);
#   * a generic caller (m_ctx_table, as Python's sm2c.load) runs the context on
#     one workspace block of workspace_size bytes, with the static entry's bits;
#   * --report lists each pool's size and which buffer went where (text and
#     JSON), the fast buffers fitting the fast arena.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
expect_usage() { # description, message substring, then sm2c's arguments (compile into $tmp/bad)
  local what=$1 msg=$2; shift 2
  local err rc
  rm -rf "$tmp/bad"
  err=$("$sm2c" compile "$cnn/model" -o "$tmp/bad" -q "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ $err == *"$msg"* ]] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
     [ ! -e "$tmp/bad" ]; then passed=$((passed + 1)); else
    echo "FAIL: $what (exit $rc, want 2 and '$msg', nothing written): $err"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
cnn=$root/tests/data/e2e/cnn
state=$root/tests/data/ops/State_three_signatures
sections=(--section weights=.qspi_weights --section arena=.sram1 --section fast-arena=.dtcm
          --section state=.retained)

# ---- errors ----
expect_usage "an unknown class" "--section expects CLASS=NAME" --section stack=.s
expect_usage "no '='" "--section expects CLASS=NAME" --section weights
expect_usage "an empty name" "an empty section name" --section weights=
expect_usage "a '-' in the name" "takes only letters, digits" --section arena=.sram-1
expect_usage "a ',' (Mach-O's segment,section)" "takes only letters, digits" --section weights=__TEXT,__w
expect_usage "a class twice" "a second section for the same class" --section arena=.a --section arena=.b
expect_usage "fast-arena without --fast-arena" "needs --fast-arena" --section fast-arena=.dtcm
expect_usage "the weights' section for the state" "read-only" --section weights=.x --section state=.x
expect_usage "--fast-arena 0" "--fast-arena expects a size" --fast-arena 0
expect_usage "--fast-arena x" "--fast-arena expects a size" --fast-arena x
expect_usage "a non-ELF target for the LLVM forms" "names ELF sections" --emit obj \
  --target x86_64-apple-macosx --section arena=.sram1

# ---- the C output ----
"$sm2c" compile "$cnn/model" -o "$tmp/c" --name m -q "${sections[@]}" --fast-arena 4096
check "SM2C_SECTION defined in m.c" grep -q '^#define SM2C_SECTION(name) __attribute__((section(name)))' "$tmp/c/m.c"
check "the weights placed" grep -q '^static SM2C_SECTION(".qspi_weights") SM2C_ALIGN const float m_w0' "$tmp/c/m.c"
check "the arena placed" grep -q '^static SM2C_SECTION(".sram1") SM2C_ALIGN uint8_t m_arena\[' "$tmp/c/m.c"
check "the fast arena placed" grep -q '^static SM2C_SECTION(".dtcm") SM2C_ALIGN uint8_t m_fast_arena\[' "$tmp/c/m.c"
check "the header's fast sizes" grep -q '^#define M_FAST_ARENA_SIZE [1-9]' "$tmp/c/m.h"
check "ctx_init takes both workspaces" \
  grep -q 'void m_ctx_init(m_ctx \*ctx, void \*workspace, void \*fast_workspace);' "$tmp/c/m.h"
for compiler in gcc clang; do
  command -v $compiler >/dev/null || continue
  check "m.c compiles warning-free with $compiler" \
    $compiler -std=c99 -Wall -Wextra -pedantic -Werror -c "$tmp/c/m.c" -I"$tmp/c" -o "$tmp/c/m_$compiler.o"
done
# symbol -> its section, from the object's symbol table
section_of() { objdump -t "$1" | awk -v s="$2" '$NF == s { print $(NF - 2) == "O" ? $(NF - 3) : $(NF - 2); exit }'; }
sym_in() { [ "$(section_of "$1" "$2")" = "$3" ] || { echo "  $2 is in '$(section_of "$1" "$2")', not $3"; false; }; }
o=$tmp/c/m_gcc.o
check "C: m_w0 in .qspi_weights" sym_in "$o" m_w0 .qspi_weights
check "C: m_arena in .sram1" sym_in "$o" m_arena .sram1
check "C: m_fast_arena in .dtcm" sym_in "$o" m_fast_arena .dtcm
"$sm2c" compile "$state/model" -o "$tmp/cs" --name m -q "${sections[@]}" --fast-arena 64
$cc -std=c99 -Wall -Wextra -pedantic -Werror -c "$tmp/cs/m.c" -I"$tmp/cs" -o "$tmp/cs/m.o"
check "C: the default state in .retained" sym_in "$tmp/cs/m.o" m_default_state .retained
check "_r takes both workspaces" grep -q '_r(m_state \*state, void \*workspace, void \*fast_workspace' "$tmp/cs/m.h"

# --weights c: the section in m_weights.c too
"$sm2c" compile "$cnn/model" -o "$tmp/wc" --name m -q --weights c --section weights=.qspi_weights
$cc -std=c99 -Wall -Wextra -pedantic -Werror -c "$tmp/wc/m_weights.c" -o "$tmp/wc/mw.o"
check "--weights c: m_w0 in .qspi_weights" sym_in "$tmp/wc/mw.o" m_w0 .qspi_weights

# the same options twice, from another directory and locale: the same bytes
(cd / && LC_ALL=C.UTF-8 TZ=Pacific/Kiritimati "$sm2c" compile "$cnn/model" -o "$tmp/c2" --name m -q "${sections[@]}" \
  --fast-arena 4096)
check "deterministic with the options" diff -r -q -x "*.o" "$tmp/c" "$tmp/c2"

# no trace of the options without them
"$sm2c" compile "$cnn/model" -o "$tmp/plain" --name m -q
check "no SM2C_SECTION without --section" bash -c "! grep -q SM2C_SECTION '$tmp/plain/m.c' '$tmp/plain/m.h'"
check "no fast workspace without --fast-arena" bash -c "! grep -q 'fast_workspace\|fast_arena\|_FAST_A\|_FAST_W' '$tmp/plain/m.c' '$tmp/plain/m.h'"
"$sm2c" compile "$cnn/model" -o "$tmp/sec_only" --name m -q --section arena=.sram1
check "--section alone changes no size, name or signature in the header" \
  diff <(grep -v '^ \* Command:' "$tmp/plain/m.h") <(grep -v '^ \* Command:' "$tmp/sec_only/m.h")

# ---- the LLVM object ----
"$sm2c" compile "$cnn/model" -o "$tmp/obj" --name m -q --emit obj "${sections[@]}" --fast-arena 4096
o=$tmp/obj/m.o
check "LLVM: the sections exist" bash -c "readelf -SW '$o' | grep -q ' .qspi_weights ' && readelf -SW '$o' | grep -q ' .sram1 ' && readelf -SW '$o' | grep -q ' .dtcm '"
# (a bias: LLVM keeps the .L names of small constants, which sit in a mergeable section)
check "LLVM: m.w1 in .qspi_weights" sym_in "$o" .Lm.w1 .qspi_weights
check "LLVM: m.arena in .sram1" sym_in "$o" m.arena .sram1
check "LLVM: m.fast_arena in .dtcm" sym_in "$o" m.fast_arena .dtcm
"$sm2c" compile "$state/model" -o "$tmp/objs" --name m -q --emit obj "${sections[@]}" --fast-arena 64
check "LLVM: the default state in .retained" sym_in "$tmp/objs/m.o" m.default_state .retained

# ---- outputs unchanged through sm2c run ----
in=$cnn/inputs/serve/image.npy
"$sm2c" run "$cnn/model" --signature serve --input image="$in" --outdir "$tmp/r_plain" -q
for emit in c obj; do
  for fast in "" "--fast-arena 64" "--fast-arena 4096" "--fast-arena 1000000"; do
    out=$tmp/r_${emit}_${fast##* }
    # shellcheck disable=SC2086
    if "$sm2c" run "$cnn/model" --signature serve --input image="$in" --outdir "$out" -q --emit $emit \
        "${sections[@]:0:4}" $fast ${fast:+--section fast-arena=.dtcm} --threads 1,3 --task-work 1 2>"$tmp/log"; then
      check "cnn --emit $emit ${fast:-(no fast arena)}: same bits" cmp -s "$out/output_0.npy" "$tmp/r_plain/output_0.npy"
    else
      echo "FAIL: cnn run --emit $emit $fast"; cat "$tmp/log"; fail=$((fail + 1))
    fi
  done
done
sin=$state/inputs/train
"$sm2c" run "$state/model" --signature train --input x="$sin/x.npy" --input y="$sin/y.npy" \
  --outdir "$tmp/s_plain" --repeat 2 --state-out "$tmp/s_plain/state" -q
for emit in c obj; do
  for fast in "" "--fast-arena 64"; do
    out=$tmp/s_${emit}_${fast##* }
    # shellcheck disable=SC2086
    if "$sm2c" run "$state/model" --signature train --input x="$sin/x.npy" --input y="$sin/y.npy" --outdir "$out" \
        --repeat 2 --state-out "$out/state" -q --emit $emit "${sections[@]:0:4}" --section state=.retained $fast \
        --threads 1,2 2>"$tmp/log"; then
      check "state --emit $emit ${fast:-(no fast arena)}: same outputs and state" \
        diff -r -q "$out" "$tmp/s_plain"
    else
      echo "FAIL: state run --emit $emit $fast"; cat "$tmp/log"; fail=$((fail + 1))
    fi
  done
done

# ---- generic callers: one workspace block through m_ctx_table (Python's sm2c.load) ----
cat > "$tmp/generic.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "m.h"
/* signature 0 through its static runner and through the context table on one
** block of workspace_size bytes: the same bits */
int main(void)
{
    const m_signature_info *sig = &m_signatures[0];
    void *in[8], *want[8], *got[8];
    for (int32_t i = 0; i < sig->n_inputs; i++) {
        float *x = malloc((size_t)sig->inputs[i].size_bytes);
        for (int64_t k = 0; k < sig->inputs[i].size_bytes / 4; k++)
            x[k] = (float)((k * 37 + 11) % 101) / 50.0f - 1.0f;
        in[i] = x;
    }
    for (int32_t i = 0; i < sig->n_outputs; i++) {
        want[i] = calloc(1, (size_t)sig->outputs[i].size_bytes);
        got[i] = calloc(1, (size_t)sig->outputs[i].size_bytes);
    }
    if (sig->run(in, want))
        return 2;
    void *ctx = aligned_alloc(64, ((size_t)m_ctx_table.ctx_size + 63) / 64 * 64);
    void *ws = aligned_alloc(64, ((size_t)m_ctx_table.workspace_size + 63) / 64 * 64 + 64);
    m_ctx_table.init(ctx, ws);
    if (m_ctx_table.run[0](ctx, in, got))
        return 3;
    for (int32_t i = 0; i < sig->n_outputs; i++)
        if (memcmp(want[i], got[i], (size_t)sig->outputs[i].size_bytes))
            return 4;
    printf("workspace %lld\n", (long long)m_ctx_table.workspace_size);
    return 0;
}
C
for emit in c obj; do
  "$sm2c" compile "$cnn/model" -o "$tmp/g_$emit" --name m -q --emit $emit --fast-arena 2048
  objs=("$tmp/g_$emit"/*.c)
  [ "$emit" = obj ] && objs+=("$tmp/g_$emit/m.o")
  if $cc -std=c11 -O1 -Wall -Wextra -I"$tmp/g_$emit" "$tmp/generic.c" "${objs[@]}" -lm -lpthread \
      -o "$tmp/g_$emit/generic" 2>"$tmp/log"; then
    check "--emit $emit: the context table's one block gives the static entry's bits" "$tmp/g_$emit/generic"
  else
    echo "FAIL: --emit $emit: generic caller build"; cat "$tmp/log"; fail=$((fail + 1))
  fi
done

# ---- the report ----
"$sm2c" compile "$cnn/model" -o "$tmp/rep" --name m -q --fast-arena 4096 --report "$tmp/rep.txt"
check "text: the fast arena's size" grep -q '^fast arena [0-9]* bytes (--fast-arena 4096)$' "$tmp/rep.txt"
check "text: a buffer in each pool" bash -c "grep -q '^pool serve t[0-9]* fast offset' '$tmp/rep.txt' &&
  grep -q '^pool serve t[0-9]* arena offset' '$tmp/rep.txt'"
"$sm2c" compile "$cnn/model" -o "$tmp/rep" --name m -q --fast-arena 4096 --report "$tmp/rep.json"
check "JSON: pools, and the fast buffers within the fast arena" python3 - "$tmp/rep.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["fast_arena_limit"] == 4096 and 0 < r["fast_arena_bytes"] <= 4096, r["fast_arena_bytes"]
for e in r["entries"]:
    arena = [b for b in e["buffers"] if b["kind"] == "arena" and b["first_step"] >= 0]
    fast = [b for b in arena if b["pool"] == "fast"]
    assert fast and len(fast) < len(arena), e["key"]
    for b in fast:
        assert b["offset"] % 64 == 0 and b["offset"] + b["bytes"] <= e["fast_arena_bytes"], b
    for b in e["buffers"]:
        assert (b["pool"] is None) == (b["kind"] != "arena"), b
PY
"$sm2c" compile "$cnn/model" -o "$tmp/rep" --name m -q --report "$tmp/plain.json"
check "JSON: no pool fields without --fast-arena" bash -c "! grep -q '\"pool\"\\|fast_arena' '$tmp/plain.json'"

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
