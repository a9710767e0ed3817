#!/usr/bin/env bash
# Set up, build sm2c, and classify the digits sample's ten images (a Keras MLP
# on scikit-learn's 8x8 digits) three ways, as users meet sm2c:
#  1. CMake: install sm2c into build/prefix, then samples/cmake uses
#     find_package(sm2c) and sm2c_add_model() and links samples/digits/predict.c;
#  2. Python: sm2c.compile(...) (a shared object by default) and sm2c.load() (python/, numpy);
#  3. the command line: sm2c compile, then cc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
quiet() { "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }; }
quiet scripts/build.sh

echo "== CMake: find_package(sm2c) + sm2c_add_model(digits MODEL ../digits/model SHAPES pixels=1,64)"
quiet cmake --install build --prefix build/prefix
quiet cmake -S samples/cmake -B build/sample-cmake -DCMAKE_PREFIX_PATH="$root/build/prefix"
quiet cmake --build build/sample-cmake --target predict
build/sample-cmake/predict samples/digits/images.npy samples/digits/labels.npy

echo "== Python: sm2c.load(sm2c.compile(...))"
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  rm -rf build/digits-py
  SM2C="$root/build/sm2c" PYTHONPATH="$root/python" /usr/bin/python3 - <<'PY'
import numpy as np, sm2c
m = sm2c.load(sm2c.compile("samples/digits/model", "build/digits-py", name="digits",
                           shape={"pixels": (1, 64)}, emit="so"))
images, labels = np.load("samples/digits/images.npy"), np.load("samples/digits/labels.npy")
guesses = [int(np.argmax(m.serving_default(pixels=images[i:i + 1])["output_0"])) for i in range(len(images))]
print("predicted", guesses, "labels", labels.tolist())
print("%d/%d correct" % (sum(g == l for g, l in zip(guesses, labels)), len(labels)))
PY
else
  echo "(skipped: no python3-numpy)"
fi

echo "== command line: sm2c compile, then cc"
rm -rf build/digits
build/sm2c compile samples/digits/model -o build/digits --name digits --shape pixels=1,64
${CC:-cc} -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I build/digits build/digits/*.c \
  samples/digits/predict.c -lm -o build/digits/predict
build/digits/predict samples/digits/images.npy samples/digits/labels.npy | tail -1
