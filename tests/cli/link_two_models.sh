#!/usr/bin/env bash
# Two compiled models link into one program (docs/design.md "Generated code
# contract"): digits (samples/digits/model) and mlp (tests/data/e2e/mlp/model)
# are compiled into separate directories; their runtime files must be
# byte-identical, so one program is built from digits' files plus mlp.c, under
# gcc and (if installed) clang with -std=c99 -Wall -Wextra -pedantic -Werror.
# It must link without duplicate symbols, every model symbol must carry its
# model's prefix, and main.c calls all four entry points (directly and through
# the metadata tables) and checks status 0, finite outputs and that one model's
# calls do not disturb the other's results.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { # description, then a command that must succeed
  local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
finish() { echo "$passed passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

d=$tmp/digits m=$tmp/mlp
check "compile digits" "$sm2c" compile "$root/samples/digits/model" -o "$d" --name digits --shape pixels=1,64
check "compile mlp" "$sm2c" compile "$root/tests/data/e2e/mlp/model" -o "$m" --name mlp --shape x=2,8
[ "$fail" -eq 0 ] || finish

# The runtime files (everything but NAME.h and NAME.c) common to both dirs must
# be identical; the program takes them from digits/ plus any only mlp/ needs.
runtime=()
for f in "$d"/* "$m"/*; do
  b=${f##*/}
  case $b in digits.[ch] | mlp.[ch]) continue ;; esac
  if [ "${f%/*}" = "$m" ]; then
    if [ -e "$d/$b" ]; then
      check "runtime file $b identical in both outputs" cmp "$d/$b" "$m/$b"
      continue
    fi
  fi
  [[ $b == *.c ]] && runtime+=("$f")
done
check "runtime has sm2c_rt.h in both" test -f "$d/sm2c_rt.h" -a -f "$m/sm2c_rt.h"

cat >"$tmp/main.c" <<'EOF'
#include "digits.h"
#include "mlp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond) \
    do { if (!(cond)) { printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static void fill(float *x, int n, float scale)
{
    for (int i = 0; i < n; i++)
        x[i] = scale * (float)((i * 37 + 11) % 17) / 16.0f;
}

/* Each row of a softmax output: finite, in [0,1], summing to 1. */
static void check_probs(const float *p, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        double sum = 0;
        for (int c = 0; c < cols; c++) {
            CHECK(isfinite(p[r * cols + c]));
            CHECK(p[r * cols + c] >= 0.0f && p[r * cols + c] <= 1.0f);
            sum += p[r * cols + c];
        }
        CHECK(fabs(sum - 1.0) < 1e-4);
    }
}

int main(void)
{
    static float dx[DIGITS_SERVING_DEFAULT_PIXELS_ELEMENTS], dy[DIGITS_SERVING_DEFAULT_OUTPUT_0_ELEMENTS];
    static float dy2[DIGITS_SERVE_OUTPUT_0_ELEMENTS], dy3[DIGITS_SERVING_DEFAULT_OUTPUT_0_ELEMENTS];
    static float mx[MLP_SERVE_X_ELEMENTS], my[MLP_SERVE_OUTPUT_0_ELEMENTS];
    static float my2[MLP_SERVING_DEFAULT_OUTPUT_0_ELEMENTS], my3[MLP_SERVE_OUTPUT_0_ELEMENTS];
    const int64_t dshape[] = DIGITS_SERVING_DEFAULT_OUTPUT_0_SHAPE, mshape[] = MLP_SERVE_OUTPUT_0_SHAPE;

    CHECK(sizeof dx == DIGITS_SERVING_DEFAULT_PIXELS_SIZE && sizeof my == MLP_SERVE_OUTPUT_0_SIZE);
    CHECK(dshape[0] == 1 && dshape[1] == 10 && mshape[0] == 2 && mshape[1] == 4);
    fill(dx, DIGITS_SERVING_DEFAULT_PIXELS_ELEMENTS, 1.0f);
    fill(mx, MLP_SERVE_X_ELEMENTS, 2.0f);

    CHECK(digits_serving_default(dx, dy) == 0);
    CHECK(mlp_serve(mx, my) == 0);
    CHECK(digits_serve(dx, dy2) == 0);
    CHECK(mlp_serving_default(mx, my2) == 0);
    check_probs(dy, 1, 10);
    check_probs(dy2, 1, 10);
    check_probs(my, 2, 4);
    check_probs(my2, 2, 4);
    /* both signatures of a model are the same function of the input */
    CHECK(memcmp(dy, dy2, sizeof dy) == 0);
    CHECK(memcmp(my, my2, sizeof my) == 0);

    /* through the metadata tables, interleaved: same results */
    CHECK(digits_n_signatures == 2 && mlp_n_signatures == 2);
    for (int32_t i = 0; i < mlp_n_signatures; i++) {
        const mlp_signature_info *s = &mlp_signatures[i];
        void *in[1] = { mx }, *out[1] = { my3 };
        CHECK(s->n_inputs == 1 && s->n_outputs == 1 && s->inputs[0].size_bytes == (int64_t)sizeof mx);
        memset(my3, 0, sizeof my3);
        CHECK(s->run(in, out) == 0);
        CHECK(memcmp(my, my3, sizeof my) == 0);

        const digits_signature_info *t = &digits_signatures[i];
        void *din[1] = { dx }, *dout[1] = { dy3 };
        CHECK(t->n_inputs == 1 && t->n_outputs == 1 && t->outputs[0].size_bytes == (int64_t)sizeof dy3);
        memset(dy3, 0, sizeof dy3);
        CHECK(t->run(din, dout) == 0);
        CHECK(memcmp(dy, dy3, sizeof dy) == 0);
    }
    printf("digits p[0]=%.3f, mlp p[0][0]=%.3f: %s\n", (double)dy[0], (double)my[0],
           failures ? "FAILED" : "ok");
    return failures != 0;
}
EOF

compilers=(gcc)
command -v gcc >/dev/null || compilers=(cc)
command -v clang >/dev/null && compilers+=(clang) || echo "clang not installed: gcc only"
flags=(-std=c99 -O2 -Wall -Wextra -pedantic -Werror)
for cc in "${compilers[@]}"; do
  o=$tmp/obj-$cc
  mkdir -p "$o"
  build_objs() {
    local f
    for f in "$d/digits.c" "$m/mlp.c" "${runtime[@]}" "$tmp/main.c"; do
      local b=${f##*/}
      "$cc" "${flags[@]}" -I "$d" -I "$m" -c "$f" -o "$o/${b%.c}.o" || return 1
    done
  }
  check "$cc: every file compiles warning-free" build_objs
  # Global symbols each model defines carry its prefix; none is defined twice.
  prefixed() { # object, prefix
    local bad
    bad=$(nm -g --defined-only "$1" | awk '{print $3}' | grep -v "^$2" || true)
    [ -z "$bad" ] || { echo "unprefixed symbols in ${1##*/}: $bad"; return 1; }
  }
  check "$cc: digits.o defines only digits_* symbols" prefixed "$o/digits.o" digits_
  check "$cc: mlp.o defines only mlp_* symbols" prefixed "$o/mlp.o" mlp_
  check "$cc: no global symbol defined twice" \
    test -z "$(nm -g --defined-only "$o"/*.o | awk 'NF == 3 {print $3}' | sort | uniq -d)"
  check "$cc: links into one program" \
    "$cc" "${flags[@]}" -I "$d" -I "$m" "$tmp/main.c" "$d/digits.c" "$m/mlp.c" "${runtime[@]}" -lm -o "$tmp/both-$cc"
  check "$cc: runs, status 0 and finite outputs" "$tmp/both-$cc"
done

finish
