#!/usr/bin/env python3
"""The option table in compiler/cli/main.c against the documentation: every
option of every command must be in the man page (man/sm2c.1, under an
OPTIONS subsection naming that command, with its other spellings in the same
item), in `sm2c help CMD` and in the global `sm2c help`'s block for the
command; and nothing those document may be missing from the table.
Usage: man_options.py SM2C SRCDIR.  Prints one line per mismatch; exit 1 if any."""
import re
import subprocess
import sys

sm2c, root = sys.argv[1], sys.argv[2]
main_c = open(root + "/compiler/cli/main.c").read()
man = open(root + "/man/sm2c.1").read()

bits = {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(CMD_[A-Z]+) = (\d+)", main_c)}
for m in re.finditer(r"#define (CMD_[A-Z]+) \(([^)]*)\)", main_c):
    bits[m.group(1)] = eval(re.sub(r"CMD_[A-Z]+", lambda k: str(bits[k.group(0)]), m.group(2)))
commands = {m.group(1): bits[m.group(2)]
            for m in re.finditer(r'\{ "([a-z]+)", (CMD_[A-Z]+), "', main_c)}
table = main_c[main_c.index("static const opt_def options[] = {"):]
table = table[:table.index("};")]
options = {}   # name -> (spellings, set of commands)
for m in re.finditer(r'\{ "(-[-\w]+)", \{ ([^}]*) \}, (?:NULL|"[^"]*"), ([A-Z_ |]+),', table):
    spellings = [m.group(1)] + re.findall(r'"(-[-\w]+)"', m.group(2))
    mask = eval(re.sub(r"CMD_[A-Z]+", lambda k: str(bits[k.group(0)]), m.group(3)))
    options[m.group(1)] = (spellings, {c for c, b in commands.items() if mask & b})
bad = []
if len(options) < 20 or len(commands) < 5:
    sys.exit("man_options.py: could not read the option table of %s/compiler/cli/main.c" % root)


def spelt(text):
    """The options a piece of roff or help text names."""
    text = text.replace("\\-", "-").replace("\\fB", " ").replace("\\fR", " ").replace("\\fI", " ").replace("\\fP", " ")
    return set(re.findall(r"(?<![\w-])(--[a-z][-\w]*|-[a-z])(?![\w])", text))


# The man page: OPTIONS subsections "Options of CMD[, CMD and CMD]" or "... every command".
section = man[man.index("\n.SH OPTIONS"):]
section = section[:section.index("\n.SH ", 1)]
documented = {}   # (option spelling, command) -> 1
for part in re.split(r"\n\.SS ", section)[1:]:
    title = part.split("\n", 1)[0]
    cmds = set(commands) if "every command" in title else {c for c in commands if re.search(r"\b%s\b" % c, title)}
    if not cmds:
        bad.append("man: OPTIONS subsection %r names no command" % title)
    for item in re.split(r"\n\.TP\n", part)[1:]:
        heading = item.split("\n", 1)[0]
        names = spelt(heading)
        for name, (spellings, _) in options.items():
            if name in names and not set(spellings) <= names:
                bad.append("man: %s: the item does not also name %s" % (name, " ".join(sorted(set(spellings) - names))))
        for n in names:
            for c in cmds:
                documented[(n, c)] = 1
for name, (spellings, cmds) in sorted(options.items()):
    for c in sorted(cmds):
        if (name, c) not in documented:
            bad.append("man: %s is an option of %s but no OPTIONS item for %s names it" % (name, c, c))
known = {s for sp, _ in options.values() for s in sp}
for (n, c) in sorted(documented):
    owner = [name for name, (sp, cmds) in options.items() if n in sp]
    if n not in known:
        bad.append("man: %s is documented but is no option of the table" % n)
    elif c not in options[owner[0]][1]:
        bad.append("man: %s is documented for %s, which does not take it" % (n, c))


def run(*args):
    p = subprocess.run([sm2c] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        bad.append("sm2c %s: exit %d" % (" ".join(args), p.returncode))
    return p.stdout


# sm2c help CMD: exactly the command's options.
for c in sorted(commands):
    got = spelt(run("help", c).split("\nexit status", 1)[0].split("\noptions", 1)[-1])
    want = {s for sp, cmds in options.values() if c in cmds for s in sp}
    for s in sorted(want - got):
        bad.append("sm2c help %s: lacks %s" % (c, s))
    for s in sorted(got - want):
        bad.append("sm2c help %s: lists %s, which %s does not take" % (c, s, c))

# sm2c help: each command's block names its own options (the common ones are listed once).
text = run("help")
blocks = {}
for m in re.finditer(r"^  ([a-z]+)\b(.*?)(?=^  [a-z]+\b|^\S|\Z)", text, re.M | re.S):
    if m.group(1) in commands:
        blocks[m.group(1)] = blocks.get(m.group(1), "") + m.group(0)
common = spelt(text[text.index("\noptions for every command:"):])
for name, (spellings, cmds) in sorted(options.items()):
    if cmds == set(commands):
        if name not in common:
            bad.append("sm2c help: %s is missing from the options for every command" % name)
        continue
    for c in sorted(cmds):
        if not set(spellings) & spelt(blocks.get(c, "")):
            bad.append("sm2c help: %s is an option of %s but the %s block does not name it" % (name, c, c))

for line in bad:
    print(line)
print("%d options of %d commands checked; %d mismatches" % (len(options), len(commands), len(bad)))
sys.exit(1 if bad else 0)
