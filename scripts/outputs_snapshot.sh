#!/usr/bin/env bash
# outputs_snapshot.sh SM2C DEST: compile every test model and sample with a
# few option sets into DEST/<variant>/<model>/, so that two compilers can be
# compared file by file (`diff -r A B`).  A refactoring that must not change
# behaviour shows no difference; the last line counts the outputs.
#
# Variants: C (default), LLVM IR, the Cortex-M4 C form at --opt Os, the
# weights apart (--weights c), the text, JSON and HTML reports, --max-batch 4 for
# tests/data/batch, and --quantize int8 (host and Cortex-M4) for tests/data/q8.
# A model that does not compile leaves its exit status and message instead.
set -u
sm2c=$(realpath "$1") dest=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dest"
dest=$(realpath "$dest")
export LC_ALL=C TZ=UTC
n=0

# one VARIANT MODEL_DIR ARGS...: compile into DEST/VARIANT/<model path>.
one() {
  local variant=$1 m=$2; shift 2
  local rel=${m#"$root"/} out
  out="$dest/$variant/${rel//\//_}"
  rm -rf "$out"
  mkdir -p "$(dirname "$out")"
  # Run from the root with relative paths, so the header's command line is
  # the same for every checkout.
  (cd "$root" && "$sm2c" compile "$rel" -o "$out" --name m "$@" >/dev/null 2>"$out.log")
  local rc=$?
  [ $rc -eq 0 ] || echo "exit $rc" >>"$out.log"
  n=$((n + 1))
}

models=()
for d in "$root"/samples/*/model "$root"/samples/half_plus_two "$root"/tests/data/models/*/ \
         "$root"/tests/data/e2e/*/model "$root"/tests/data/firmware/*/model \
         "$root"/tests/data/ops/*/model; do
  [ -f "$d/saved_model.pb" ] || [ -f "$d/saved_model.pbtxt" ] && models+=("${d%/}")
done
for m in "${models[@]}"; do
  one c "$m"
  one m4 "$m" --opt Os --target thumbv7em-none-eabihf --cpu cortex-m4
  case $m in
    */tests/data/ops/*) ;;
    *) one ll "$m" --emit llvm-ir
       one wc "$m" --weights c
       one rt "$m" --report "$dest/rt/$(basename "$(dirname "$m")")_$(basename "$m").txt"
       one rj "$m" --report "$dest/rj/$(basename "$(dirname "$m")")_$(basename "$m").json"
       one rh "$m" --report "$dest/rh/$(basename "$(dirname "$m")")_$(basename "$m").html" ;;
  esac
done
for d in "$root"/tests/data/batch/*/; do
  [ -d "$d/model" ] && one batch "${d%/}/model" --max-batch 4
done
for d in "$root"/tests/data/q8/*/; do
  one q8 "${d%/}/model" --quantize int8 --calibration "image=${d#"$root"/}calib.npy" \
    --report "$dest/q8/$(basename "$d").txt"
  one q8m4 "${d%/}/model" --quantize int8 --calibration "image=${d#"$root"/}calib.npy" \
    --opt Os --target thumbv7em-none-eabihf --cpu cortex-m4
done
echo "$n compiles into $dest"
