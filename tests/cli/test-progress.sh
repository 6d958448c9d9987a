#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The progress line on a terminal (script(1) gives one): shown once a run
# has lasted LT_PROGRESS_DELAY_MS (0 here, 1 s by default), each figure
# drawn once, and cleared before anything else reaches the terminal: the
# report, a warning, an error, the end of a run cut short by --to.  Never
# drawn when stderr is not a terminal, nor with -q or --no-progress.
#
# usage: test-progress.sh LATENCY_ANALYZE MKTRACE PROGRESS.TRS TRACE
# (TRACE: a real v7 zstd trace of some 100k events with stacks, so that
# -j1 draws several figures; PROGRESS.TRS: see there)

set -u
LA=$1
MKTRACE=$2
TRS=$3
T=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# util-linux's script: busybox's has no -e
if ! script -qec true /dev/null >/dev/null 2>&1 || ! command -v python3 >/dev/null; then
	echo "test-progress: SKIPPED: needs script(1) from util-linux and python3"
	exit 77
fi

# on_tty NAME STATUS MIN_DRAWS AFTER -- ARGS...: run on a terminal with its
# stdout there too; check the exit status, that at least MIN_DRAWS figures
# were drawn, each once and rising, that nothing was written after a figure
# but the next figure or the clearing of the line, and that once the lines
# are cleaned up, the text matches AFTER (a regular expression); RAW, if
# set, must match the text as the terminal got it.
on_tty() {
	local name=$1 want=$2 min=$3 after=$4 status
	shift 5
	LT_PROGRESS_DELAY_MS=${DELAY-0} script -qec "$(printf '%q ' "$LA" "$@")" \
		"$tmp/$name.tty" </dev/null >/dev/null 2>&1
	status=$?
	if [ "$status" != "$want" ]; then
		echo "FAIL: $name: $* -> exit $status, want $want"
		fail=1
	fi
	python3 - "$tmp/$name.tty" "$name" "$min" "$after" "${RAW-}" <<'EOF' || fail=1
import re, sys
path, name, least, after, raw = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
text = open(path, "rb").read().decode("utf-8", "replace")
# script's own first and last lines
text = text.split("\n", 1)[1]
if "Script done" in text:
    text = text[:text.rfind("Script done")]
draw = re.compile(r"\rlatency-analyze: reading [^\r\n]*: +(\d+)%")
clear = "\r\x1b[K"
def bad(msg):
    print("FAIL: %s: %s" % (name, msg))
    print(repr(text[:300]))
    sys.exit(1)
figures = []
for m in draw.finditer(text):
    figures.append(int(m.group(1)))
    rest = text[m.end():]
    if not (draw.match(rest) or rest.startswith(clear)):
        bad("written after the figure %s%%: %r" % (m.group(1), rest[:60]))
if len(figures) < least:
    bad("%d figures drawn, want at least %d" % (len(figures), least))
if any(b <= a for a, b in zip(figures, figures[1:])):
    bad("figures not drawn once each, rising: %s" % figures)
if any(f >= 100 for f in figures):
    bad("100% drawn: the end clears the line instead")
clean = draw.sub("", text).replace(clear, "").replace("\r\n", "\n")
if not re.search(after, clean, re.M):
    bad("no /%s/ in what remains: %r" % (after, clean[:200]))
if raw and not re.search(raw, text):
    bad("no /%s/ in what the terminal got" % raw)
EOF
}

REPORT='^latency-analyze [0-9.]+: .*\nTrace: '
on_tty j1 0 3 "$REPORT" -- -j1 "$T"
on_tty j2 0 1 "$REPORT" -- -j2 "$T"
# cut by --to: the read stops short of 100%, the line is cleared all the same
on_tty to 0 1 "$REPORT" -- -j1 --to 0.15 "$T"
DELAY=60000 on_tty delayed 0 0 "$REPORT" -- -j1 "$T"
on_tty quiet 0 0 "$REPORT" -- -q "$T"
on_tty noprogress 0 0 "$REPORT" -- --no-progress "$T"
if grep -q 'latency-analyze: reading' "$tmp/delayed.tty" "$tmp/quiet.tty" \
	"$tmp/noprogress.tty"; then
	echo "FAIL: progress drawn with a delay not reached, -q or --no-progress"
	fail=1
fi

# one figure over several batches, drawn once; a warning after it (the
# symbols, damaged, load at the last event) clears the line first
python3 "$MKTRACE" "$TRS" -o "$tmp/p.dat" --map "$tmp/p.map" ||
	{ echo "FAIL: mktrace.py $TRS"; exit 1; }
on_tty same 0 1 "$REPORT" -- -j1 "$tmp/p.dat"
read -r _ off _ < <(grep '^section.KALLSYMS ' "$tmp/p.map")
printf '\377\377\377\377\377\377\377\377' |
	dd of="$tmp/p.dat" bs=1 seek=$((off + 40)) conv=notrunc 2>/dev/null
# (the warning must come while the line is up, or this checks nothing)
RAW='[0-9]%\r\x1b\[Klatency-analyze: warning: ' \
	on_tty warning 0 1 '^latency-analyze: warning: .*KALLSYMS section.*\nlatency-analyze [0-9.]+: ' -- \
	-j1 "$tmp/p.dat"

# an error that stops the read (CPU data damaged) starts a line
size=$(stat -c %s "$T")
cp "$T" "$tmp/data.dat"
head -c 64 /dev/zero | tr '\0' '\377' |
	dd of="$tmp/data.dat" bs=1 seek=$((size - 100000)) conv=notrunc 2>/dev/null
for j in 1 2; do
	on_tty error$j 3 $((2 - j)) '^latency-analyze: .*/data.dat: CPU [0-9] data: chunk at offset' -- \
		-j$j "$tmp/data.dat"
done

# stderr not a terminal: no progress whatever the delay
LT_PROGRESS_DELAY_MS=0 "$LA" "$T" 2>"$tmp/err" >/dev/null
if [ -s "$tmp/err" ]; then
	echo "FAIL: progress (or something) on a stderr that is not a terminal:"
	head -c 200 "$tmp/err"
	fail=1
fi

[ $fail = 0 ] && echo "test-progress: all checks passed"
exit $fail
