#!/usr/bin/env bash
# The Python package (python/): its pytest suite with this build's sm2c, on
# Debian's python3 with python3-numpy and python3-pytest (scripts/setup.sh).
# No TensorFlow needed: verify's TensorFlow half is checked only when present.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c "import numpy, pytest" 2>/dev/null || { echo "skip: needs python3-numpy and python3-pytest"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" && SM2C="$sm2c" "$py" -m pytest -q -p no:cacheprovider "$root/python/tests"
