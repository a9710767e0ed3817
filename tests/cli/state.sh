#!/usr/bin/env bash
# Writable variables (state): the header API and sm2c run's --repeat and
# --state-out, on tests/data/ops/State_three_signatures (predict reads w and b,
# train updates them and counts calls, count increments the counter).
#   * The three signatures compile into one program with one state; a C
#     caller (-std=c99 -Wall -Wextra -pedantic -Werror) checks that the static
#     entries share the default state, which starts at the checkpoint values
#     without init; that _r entries on two caller states agree bit for bit with
#     the static ones and stay independent; that reset goes back to the start.
#     The same caller links the LLVM object (--emit obj) and must print the
#     same bits.
#   * run --repeat 2 equals the second call of the case's TensorFlow
#     reference; errors: --state-out when the entry writes nothing (exit 2),
#     --repeat 0 and --repeat on compile (exit 2), a resource write sm2c does
#     not compile (exit 3, named in the message).
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
expect_exit() { # description, exit code, message substring, command...
  local what=$1 code=$2 msg=$3; shift 3
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$code" ] && [[ $err == *"$msg"* ]]; then passed=$((passed + 1)); else
    echo "FAIL: $what (exit $rc, want $code): $err"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
finish() { echo "$passed passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }
case_dir=$root/tests/data/ops/State_three_signatures
cc=${CC:-cc}

cat > "$tmp/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "m.h"

static int bad;
#define SAME(a, b, what) do { if (memcmp((a), (b), sizeof(a))) { printf("FAIL %s\n", what); bad = 1; } } while (0)
#define DIFF(a, b, what) do { if (!memcmp((a), (b), sizeof(a))) { printf("FAIL %s\n", what); bad = 1; } } while (0)

static void dump(const char *what, const void *p, size_t n)
{
    const unsigned char *b = p;
    printf("%s", what);
    for (size_t i = 0; i < n; i++)
        printf("%02x", b[i]);
    printf("\n");
}

int main(void)
{
    float x[12], y[8], p0[8], p1[8], q[8], loss, loss_r, wsum, wsum_r;
    int32_t calls, calls_r;
    for (int i = 0; i < 12; i++)
        x[i] = (float)(i % 5) * 0.25f - 0.5f;
    for (int i = 0; i < 8; i++)
        y[i] = (float)(i % 3) - 1.0f;
    /* static entries: the default state starts at the checkpoint, shared by all */
    if (m_predict(x, p0) || m_train(x, y, &loss) || m_predict(x, p1) || m_count(&calls, &wsum))
        return printf("FAIL static call\n"), 1;
    DIFF(p0, p1, "train changes what predict sees");
    /* two caller states: the same calls agree bit for bit, and stay independent */
    m_state *s1 = malloc(M_STATE_SIZE), *s2 = malloc(M_STATE_SIZE);
    void *ws = malloc(M_WORKSPACE_SIZE + 64);
    if (!s1 || !s2 || !ws)
        return 1;
    m_init(s1);
    m_init(s2);
    if (m_predict_r(s1, ws, x, q))
        return 1;
    SAME(q, p0, "predict_r on a fresh state = first static predict");
    if (m_train_r(s1, ws, x, y, &loss_r))
        return 1;
    if (memcmp(&loss, &loss_r, sizeof loss))
        printf("FAIL train_r = train\n"), bad = 1;
    if (m_predict_r(s1, ws, x, q))
        return 1;
    SAME(q, p1, "predict_r after train_r = static predict after train");
    if (m_predict_r(s2, ws, x, q))
        return 1;
    SAME(q, p0, "the second state is untouched");
    if (m_count_r(s1, ws, &calls_r, &wsum_r))
        return 1;
    if (calls != calls_r || memcmp(&wsum, &wsum_r, sizeof wsum))
        printf("FAIL count_r = count\n"), bad = 1;
    /* the metadata alone (as a dlopen caller would): train on a fresh state
    ** through run_r, then the counter variable is where the table says */
    const m_state_info *si = &m_state_table;
    int32_t train = -1, counter = -1;
    for (int32_t k = 0; k < m_n_signatures; k++)
        if (!strcmp(m_signatures[k].key, "train"))
            train = k;
    for (int32_t i = 0; i < si->n_variables; i++)
        if (!strcmp(si->variables[i].key, "calls/.ATTRIBUTES/VARIABLE_VALUE"))
            counter = i;
    void *s3 = malloc((size_t)si->state_size), *ws3 = malloc((size_t)si->workspace_size + 64);
    void *in[2] = { x, y }, *out[1] = { &loss_r };
    if (train < 0 || counter < 0 || !s3 || !ws3 || !si->writes_state[train] || si->state_size != M_STATE_SIZE)
        return printf("FAIL state table\n"), 1;
    si->init(s3);
    if (si->run_r[train](s3, ws3, in, out) || memcmp(&loss, &loss_r, sizeof loss))
        printf("FAIL run_r from the table\n"), bad = 1;
    int32_t counted;
    memcpy(&counted, (char *)s3 + si->variables[counter].offset, sizeof counted);
    if (m_train_r(s2, ws, x, y, &loss_r) || counted != s2->calls[0])
        printf("FAIL counter at its offset %d\n", (int)counted), bad = 1;
    dump("counted ", &counted, sizeof counted);
    free(s3);
    free(ws3);
    /* reset: the default state back to the checkpoint */
    m_reset();
    if (m_predict(x, q))
        return 1;
    SAME(q, p0, "reset");
    dump("p0 ", p0, sizeof p0);
    dump("p1 ", p1, sizeof p1);
    dump("loss ", &loss, sizeof loss);
    dump("count ", &calls, sizeof calls);
    free(s1);
    free(s2);
    free(ws);
    return bad;
}
C

build_and_run() { # emit, dir
  local emit=$1 d=$2
  "$sm2c" compile "$case_dir/model" -o "$d" --name m --emit "$emit" --shape x=4,3 --shape y=4,2 \
    2>"$d.err" || { cat "$d.err"; return 1; }
  local objs=()
  [ "$emit" = obj ] && objs=("$d/m.o")
  $cc -std=c99 -Wall -Wextra -pedantic -Werror -O2 -I"$d" "$tmp/main.c" "$d"/*.c "${objs[@]}" -lm \
    -o "$d/main" || return 1
  "$d/main" > "$d.out" || { cat "$d.out"; return 1; }
}
check "header API through the C backend" build_and_run c "$tmp/c"
check "header API through the LLVM object" build_and_run obj "$tmp/obj"
check "C and LLVM give the same bits" cmp -s "$tmp/c.out" "$tmp/obj.out"
check "the header documents the state" grep -q "typedef struct m_state" "$tmp/c/m.h"
check "the header says which entries write state" grep -q "Writes state" "$tmp/c/m.h"

# run --repeat 2 is the second call of TensorFlow's reference
in=$case_dir/inputs/train
check "run --repeat 2" "$sm2c" run "$case_dir/model" --signature train --input x="$in/x.npy" \
  --input y="$in/y.npy" --outdir "$tmp/r2" --repeat 2 --state-out "$tmp/s2"
check "--repeat 2 output = call 2" cmp -s "$tmp/r2/loss.npy" "$case_dir/expected/train/call_2/loss.npy"
check "--state-out writes every written variable" test -f "$tmp/s2/w__.ATTRIBUTES__VARIABLE_VALUE.npy" -a \
  -f "$tmp/s2/b__.ATTRIBUTES__VARIABLE_VALUE.npy" -a -f "$tmp/s2/calls__.ATTRIBUTES__VARIABLE_VALUE.npy"

expect_exit "--state-out on an entry that writes nothing" 2 "writes no variable" \
  "$sm2c" run "$case_dir/model" --signature predict --input x="$case_dir/inputs/predict/x.npy" \
  --outdir "$tmp/p" --state-out "$tmp/ps"
expect_exit "--repeat 0" 2 "--repeat expects" \
  "$sm2c" run "$case_dir/model" --signature count --outdir "$tmp/c0" --repeat 0
expect_exit "--repeat on compile" 2 "not an option of compile, only of run" \
  "$sm2c" compile "$case_dir/model" -o "$tmp/x" --repeat 2
expect_exit "an unsupported resource write is refused" 3 "'ResourceApplyAdagradV2' writes a variable" \
  "$sm2c" compile "$root/tests/data/state/unsupported_write" -o "$tmp/u"
finish
