#!/usr/bin/env bash
# Issue 31, command line conventions: --opt=value and --opt value, unknown
# options named (with a suggestion), help per command, -q and -v, --version,
# coloured diagnostics only on a terminal without NO_COLOR, completion scripts.
set -u
sm2c=$(realpath "$1") root=$(realpath "$2")
fail=0 passed=0
check() { local what=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }
expect() { # exit code, exact stderr, command...
  local code=$1 want=$2; shift 2
  local err rc
  err=$("$sm2c" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$code" ] && [ "$err" = "$want" ]; then passed=$((passed + 1))
  else echo "FAIL: sm2c $*: exit $rc (want $code), stderr: $err (want: $want)"; fail=$((fail + 1)); fi; }
model=$root/samples/half_plus_two
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# 1. --opt=value and --opt value make the same files.
check "--opt=value" "$sm2c" compile "$model" --output="$tmp/a" --name=hp --shape=x=2,1 -q
check "--opt value" "$sm2c" compile "$model" --output "$tmp/b" --name hp --shape x=2,1 -q
check "both spellings, same header" cmp -s "$tmp/a/hp.h" "$tmp/b/hp.h"
check "both spellings, same source" cmp -s "$tmp/a/hp.c" "$tmp/b/hp.c"

# 2. Unknown options, with a suggestion; another command's option; a missing value.
expect 2 "sm2c: error: compile: unknown option '--bogus' (sm2c help compile lists the options)" \
  compile "$model" -o "$tmp/c" --bogus
expect 2 "sm2c: error: compile: unknown option '--shpe'; did you mean --shape? (sm2c help compile lists the options)" \
  compile "$model" -o "$tmp/c" --shpe=x=1,1
expect 2 "sm2c: error: compile: unknown option '--verbos'; did you mean --verbose? (sm2c help compile lists the options)" \
  compile "$model" -o "$tmp/c" --verbos
expect 2 "sm2c: error: inspect: --emit is not an option of inspect, only of compile and run (sm2c help inspect lists the options)" \
  inspect "$model" --emit c
expect 2 "sm2c: error: compile: --name needs a value (sm2c help compile shows the usage)" compile "$model" -o "$tmp/c" --name
expect 2 "sm2c: error: inspect: --json takes no value (sm2c help inspect shows the usage)" inspect "$model" --json=yes
expect 2 "sm2c: error: unknown option '--bogus' (sm2c help lists the commands)" --bogus
check "nothing written on a usage error" test ! -e "$tmp/c"

# 3. Help: global and per command, on stdout, exit 0.
check "sm2c help" bash -c "'$sm2c' help 2>/dev/null | grep -q '^usage: sm2c <command>'"
for cmd in inspect compile run runtime ops; do
  check "sm2c help $cmd" bash -c "'$sm2c' help $cmd | head -1 | grep -q '^usage: sm2c $cmd'"
  check "sm2c $cmd --help = sm2c help $cmd" bash -c "diff <('$sm2c' $cmd --help) <('$sm2c' help $cmd)"
  check "sm2c $cmd -h = sm2c help $cmd" bash -c "diff <('$sm2c' $cmd -h) <('$sm2c' help $cmd)"
done
check "help compile lists only compile's options" bash -c \
  "h=\$('$sm2c' help compile); grep -q -- '--skip-failing' <<<\"\$h\" && ! grep -q -- '--input ' <<<\"\$h\""
check "help run lists --input" bash -c "'$sm2c' help run | grep -q -- '--input KEY=FILE.npy'"
expect 2 "sm2c: error: unknown command 'nosuch' (sm2c help shows the usage)" help nosuch

# 4. -q: no notes or summary; errors still shown. -v: progress lines and notes.
check "-q prints nothing on success" test -z "$("$sm2c" compile "$model" -o "$tmp/q" -q 2>&1)"
check "default prints the note and the summary" bash -c \
  "'$sm2c' compile '$model' -o '$tmp/d' 2>&1 | grep -q 'note: unknown leading dim' && [ -s '$tmp/d/half_plus_two.h' ]"
expect 1 "$model/saved_model.pb: error: no signature 'nope'" \
  compile "$model" -o "$tmp/e" -q --signature nope
err=$("$sm2c" compile "$model" -o "$tmp/v" -v 2>&1)
check "-v: a progress line per stage" bash -c "grep -q '^sm2c: loading ' <<<\"\$1\" && grep -q '^sm2c: compiled in [0-9]* ms; writing' <<<\"\$1\"" _ "$err"
check "-v: the notes too" grep -q "note: unknown leading dim" <<<"$err"

# 5. --version: version, commit, build type.
check "--version" bash -c "'$sm2c' --version | grep -Eq '^sm2c [0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]+|unknown), [^)]+ build\)$'"

# 6. Colour only on a terminal, never with NO_COLOR; never when piped.
check "no colour when piped" bash -c "! '$sm2c' --bogus 2>&1 | grep -q $'\033'"
if command -v script >/dev/null; then
  check "colour on a terminal" bash -c "script -qc \"'$sm2c' --bogus\" /dev/null | grep -q $'\033\\[1;31merror:'"
  check "no colour with NO_COLOR" bash -c "! NO_COLOR=1 script -qc \"'$sm2c' --bogus\" /dev/null | grep -q $'\033'"
fi

# 7. Completion scripts from the option table.
check "bash completion parses" bash -c "bash -n <('$sm2c' completion bash)"
check "bash completion completes compile's options" bash -c "
  source <('$sm2c' completion bash); COMP_WORDS=(sm2c compile --sk); COMP_CWORD=2; _sm2c
  [ \"\${COMPREPLY[*]}\" = --skip-failing ]"
if command -v zsh >/dev/null; then
  check "zsh completion parses" zsh -n <("$sm2c" completion zsh)
fi
expect 2 "sm2c: error: completion: completion takes bash or zsh (sm2c help completion shows the usage)" completion fish

echo "$passed passed, $fail failed"
[ "$fail" -eq 0 ]
