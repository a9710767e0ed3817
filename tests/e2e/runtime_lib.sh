# Sourced by tests/cli scripts: build the runtime once per compiler instead of
# once per generated program (compiling it dominates those tests' time).
#
#   lib=$(runtime_lib SM2C "CC AND FLAGS" OUTDIR)   OUTDIR/libsm2c_rt.a
runtime_lib() {
  local sm2c=$1 cc=$2 out=$3 f
  local objs=()
  mkdir -p "$out" && "$sm2c" runtime -o "$out/rt" >/dev/null || return 1
  for f in "$out"/rt/*.c; do
    # shellcheck disable=SC2086
    $cc -std=c99 -O2 -I "$out/rt" -c "$f" -o "${f%.c}.o" || return 1
    objs+=("${f%.c}.o")
  done
  ar rcs "$out/libsm2c_rt.a" "${objs[@]}" && echo "$out/libsm2c_rt.a"
}
