#!/usr/bin/env bash
# The recurrent-layer rewrites on Keras's LSTM (numerics against TensorFlow
# are the Control_rnn_* cases of ops_conformance, through both backends):
# pass_lstm.c makes each time step's cell two steps, and pass_hoist.c moves
# the input projection of every step into one product before the loop,
# except at --opt Os, which keeps the arena small.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
# Steps of the static entry points: model.c repeats them in its context
# entry points, after NAME_ctx_init.
count() { sed '/^void [A-Za-z_0-9]*_ctx_init(/,$d' "$2" | grep -c "$1" || true; }
model=$root/tests/data/ops/Control_rnn_LSTM_stacked_keras3/model
"$sm2c" compile "$model" -o "$tmp/fast" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
"$sm2c" compile "$model" -o "$tmp/small" --opt Os 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
c=$tmp/fast/model.c s=$tmp/small/model.c
# two LSTM layers, two signatures: four cells, each a state and an output step
check "four LSTM cells become state steps" [ "$(count 'sm2c_rt_lstm_state_f32(' "$c")" -eq 4 ]
check "and output steps" [ "$(count 'sm2c_rt_lstm_output_f32(' "$c")" -eq 4 ]
check "no Split copies or gate activations are left" [ "$(count 'sm2c_rt_sigmoid_f32(' "$c")" -eq 0 ]
check "each layer's input projection runs before its loop" [ "$(count '(all steps) (BatchMatMulV2)' "$c")" -eq 4 ]
check "--opt Os keeps the projections in the loops" [ "$(count '(all steps)' "$s")" -eq 0 ]
arena() { sed -n 's/.*arena \([0-9]*\) bytes.*/\1/p' "$1" | head -1; }
"$sm2c" compile "$model" -o "$tmp/f2" 2>&1 | grep -o "arena [0-9]* bytes" > "$tmp/fa"
"$sm2c" compile "$model" -o "$tmp/s2" --opt Os 2>&1 | grep -o "arena [0-9]* bytes" > "$tmp/sa"
check "--opt Os gives the smaller arena" [ "$(arena "$tmp/sa")" -lt "$(arena "$tmp/fa")" ]
echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
