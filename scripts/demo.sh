#!/usr/bin/env bash
# Set up, build sm2c, compile the digits sample (a Keras MLP on scikit-learn's
# 8x8 digits) to C, build it with samples/digits/predict.c, and classify the ten
# sample images, printing each prediction beside the true label.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
log=$(mktemp)
if ! scripts/build.sh >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
rm -rf build/digits
build/sm2c compile samples/digits/model -o build/digits --name digits --shape pixels=1,64
${CC:-cc} -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I build/digits build/digits/*.c \
  samples/digits/predict.c -lm -o build/digits/predict
build/digits/predict samples/digits/images.npy samples/digits/labels.npy
