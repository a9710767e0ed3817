#!/usr/bin/env bash
# The stage folders form layers: no include or call from a stage to a later
# one (scripts/check_layers.py, ARCHITECTURE.md).  Uses the objects of the
# build that made the sm2c binary under test.
set -eu
build=$(dirname "$(realpath "$1")")
exec python3 "$2/scripts/check_layers.py" --root "$2" --build "$build"
