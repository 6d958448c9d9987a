#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# No output destroys what the run did not create (issue 49, 1-3):
#
#   - latency-record -o /dev/null, /dev/full, /dev/stdout: the nodes and
#     the link stay, nothing new appears in /dev (a throw-away /dev on
#     tmpfs in a private mount namespace: never the machine's own);
#   - a failed run (a damaged input, a full disk) leaves an older output
#     exactly as it was, and no temporary beside it;
#   - a symbolic link to a file is kept, the file replaced; a link to
#     nothing is refused; per-CPU scratch names planted as links beside
#     the output are not followed;
#   - -o - is standard output.
#
# usage: test-outputs.sh LATENCY-ANALYZE LATENCY-RECORD SAMPLE.dat
#   (root for the namespaces and the recordings; 77 where it cannot)

LA=$1
LR=$2
SAMPLE=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (mount namespaces, tracefs)"
command -v unshare > /dev/null || skip "no unshare"
unshare -m --propagation private true 2> /dev/null ||
	skip "cannot make a private mount namespace here"

tmp=$(mktemp -d)
trap 'umount -l "$tmp/small" 2> /dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

sum() { sha256sum "$1" | cut -d' ' -f1; }
# what is in a directory, hidden files too: nothing left behind
listing() { ls -A "$1" | sort; }

# ---- latency-analyze: a failure leaves the old file ------------------------
echo "an older report" > old.txt
before=$(sum old.txt)
"$LA" -q -o old.txt /nonexistent.dat 2> err
check "a failed analysis exits 2" test $? -eq 2
check "... and leaves the older output as it was" test "$(sum old.txt)" = "$before"
check "... with no temporary beside it" test "$(listing .)" = "$(printf 'err\nold.txt')"

for f in text json csv html waits; do
	"$LA" -q -f $f -o old.txt "$SAMPLE" > /dev/null 2>&1
	"$LA" -q -f $f "$SAMPLE" > want.$f 2> /dev/null
	check "-f $f -o FILE: the report replaces the older one" cmp -s old.txt want.$f
	rm -f want.$f
done
"$LA" -q -o - "$SAMPLE" > stdout.txt 2> /dev/null
check "-o - is standard output" test -s stdout.txt -a ! -e ./-
"$LA" -q "$SAMPLE" | cmp -s - stdout.txt
check "... the same report" test $? -eq 0

echo "the target" > target.txt
ln -s target.txt link
"$LA" -q -o link "$SAMPLE" 2> /dev/null
check "-o LINK: the link is kept" test -L link
check "... and the file it names replaced" cmp -s target.txt stdout.txt
ln -s nowhere dangling
"$LA" -q -o dangling "$SAMPLE" 2> err
rc=$?
check "-o to a link to nothing is refused (exit 2, got $rc)" test $rc -eq 2
check "... and nothing is created through it" test ! -e nowhere

# a full disk: the older output stays, no temporary is left
mkdir small
mount -t tmpfs -o size=64k none small 2> /dev/null ||
	skip "cannot mount a tmpfs"
echo "a good older report" > small/r.html
before=$(sum small/r.html)
"$LA" -q -f html -o small/r.html "$SAMPLE" 2> err
rc=$?
check "a full disk: exit 2 (got $rc)" test $rc -eq 2
check "... one line naming the file" grep -q 'small/r.html' err
check "... the older output as it was" test "$(sum small/r.html)" = "$before"
check "... and no temporary left" test "$(listing small)" = "r.html"
merge_in=$("$LA" -q -f json "$SAMPLE" > in.json && echo in.json)
"$LA" merge -q -o small/r.html "$merge_in" "$merge_in" 2> /dev/null
check "merge on a full disk: the older output as it was" \
	test "$(sum small/r.html)" = "$before" -a "$(listing small)" = "r.html"

# ---- latency-record: devices, a full disk, planted links --------------------
need_tracefs
record_checks() {
	# a throw-away /dev: the nodes tmpfs holds are the only ones at risk
	unshare -m --propagation private sh -c '
		mount -t tmpfs none /dev &&
		mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 &&
		ln -s /proc/self/fd/1 /dev/stdout || exit 99
		ls -lA /dev > "$1/dev.before"
		"$2" -q -o /dev/null -- true; echo "null $?" >> "$1/rc"
		"$2" -q -o /dev/full -- true 2> "$1/full.err"; echo "full $?" >> "$1/rc"
		"$2" -q -o /dev/stdout -- true | wc -c > "$1/stdout.bytes"
		ls -lA /dev > "$1/dev.after"
		ls -A /dev | sort > "$1/dev.names"
	' sh "$tmp" "$LR"
}
tracefs_lock
record_checks
check "-o /dev/null: exit 0" grep -qx 'null 0' rc
check "-o /dev/full: exit 2, the disk being full" grep -qx 'full 2' rc
one_line full.err "-o /dev/full" "No space left"
check "-o /dev/stdout: the trace comes out of the pipe" \
	test "$(cat stdout.bytes 2> /dev/null || echo 0)" -gt 4096
check "/dev's nodes and link as they were" cmp -s dev.before dev.after
check "... and nothing new in /dev" \
	test "$(tr '\n' ' ' < dev.names)" = "full null stdout "

# a full disk: an older trace stays; planted links are not followed
cp "$SAMPLE" small/t.dat 2> /dev/null || { rm -f small/*; echo "small" > small/t.dat; }
before=$(sum small/t.dat)
echo "the victim" > victim
for i in 0 1 2 3; do ln -s "$tmp/victim" "small/t.dat.cpu$i" 2> /dev/null; done
"$LR" -q -b 4096 -o small/t.dat -- sh -c 'i=0; while [ $i -lt 2000 ]; do i=$((i+1)); true; done' 2> err
rc=$?
check "a full disk: latency-record exits 2 (got $rc)" test $rc -eq 2
check "... the older trace as it was" test "$(sum small/t.dat)" = "$before"
check "... the planted links not followed" test "$(cat victim)" = "the victim"
check "... and nothing of the run left" \
	test "$(listing small | grep -vc '^t\.dat')" -eq 0

"$LR" -q -o - -- echo hello > piped.dat 2> err
check "latency-record -o -: a trace on standard output" \
	test "$(head -c 10 piped.dat | od -An -c | tr -d ' \n')" = '027\bDtracing'
check "... the command's own output on standard error" grep -q '^hello$' err
"$LA" -q piped.dat > /dev/null 2>&1
check "... that latency-analyze reads" test $? -eq 0
flock -u 9

finish
