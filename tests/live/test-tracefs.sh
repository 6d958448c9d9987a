#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --live on this machine's tracefs, end to end:
#   - latency-analyze --live over lt-workload, its events saved with
#     --save: the report equals latency-analyze's of the saved file, table
#     by table (check-saved.py), and trace-cmd reads the file;
#   - latency-view --live --dump, a window sliding by steps: its last
#     whole step's global table is the offline viewer's for the same span,
#     line for line;
#   - Ctrl-C and SIGTERM stop a run with its report and its file;
#   - errors: a file given too, options without --live, --dump without
#     --duration, not root;
#   - after each: tracefs as before, no instance left.
#
# usage: test-tracefs.sh LATENCY_ANALYZE LATENCY_VIEW LT_WORKLOAD
# Skips (77) without root, tracefs or python3.

set -u
LA=$1
LV=$2
WL=$3
here=$(dirname "$0")
. "$here/../lib.sh"
need_tracefs
command -v python3 > /dev/null || skip "no python3"
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/lt-live.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp/wl"

tracefs_lock

# ---- latency-analyze --live against its own saved events ----------------
tracefs_state "$tmp/before"
( sleep 1; "$WL" -d "$tmp/wl" ) &
"$LA" --live -a 5s -k -w 1s --format=json --save "$tmp/a.dat" \
	> "$tmp/live.json" 2> "$tmp/err"
rc=$?
wait
tracefs_state "$tmp/after"
sed 's/^/    /' "$tmp/err"
check "analyze --live exits 0" test "$rc" -eq 0
same_tracefs_state "$tmp/before" "$tmp/after" "analyze --live"
no_instance_left "analyze --live"
"$LA" -q -k -w 1s --format=json "$tmp/a.dat" > "$tmp/saved.json"
check "the saved trace.dat is read back" test $? -eq 0
if python3 "$here/check-saved.py" --lt-workload "$tmp/live.json" "$tmp/saved.json" \
	> "$tmp/cmp"; then
	ok "live report = offline report of the saved events"
else
	fail "live report differs from the offline one:"
fi
sed 's/^/    /' "$tmp/cmp"
if command -v trace-cmd > /dev/null; then
	n=$(trace-cmd report "$tmp/a.dat" 2> /dev/null | grep -c 'sched_switch:')
	check "trace-cmd report reads the saved file ($n sched_switch)" test "$n" -gt 0
fi

# ---- latency-view --live: a step, as the offline viewer's ---------------
# a window of 2 s moving by 500 ms: the steps before it are dropped as it
# goes, the steps kept are its windows ([ and ]); the last whole one's
# global table (lt-workload runs in it) must be the offline viewer's, for
# the same span of the trace
tracefs_state "$tmp/before"
# lt-workload over and over, into the last step
( end=$(($(date +%s) + 6)); while [ "$(date +%s)" -lt $end ]; do
	"$WL" -d "$tmp/wl"; done ) &
COLUMNS=120 LINES=60 "$LV" --live --dump -a 4.5s -w 2s --step 500ms -k \
	--keys ']]]]]]]]]]]][' -o "$tmp/v.dat" > "$tmp/live.screen" 2> "$tmp/err"
rc=$?
wait
tracefs_state "$tmp/after"
check "view --live --dump exits 0" test "$rc" -eq 0
same_tracefs_state "$tmp/before" "$tmp/after" "view --live"
no_instance_left "view --live"
grep -q 'live (stopped)' "$tmp/live.screen"
check "the screen says it is live and stopped" test $? -eq 0
COLUMNS=120 LINES=60 "$LV" --dump -k -w 500ms --keys ']]]]]]]]]]]]]]]]]]]][' \
	"$tmp/v.dat" > "$tmp/saved.screen" 2> "$tmp/err2"
check "the offline viewer reads -o's file" test $? -eq 0
# the span ("+3.50 s .. +4.00 s"), then the global table: its heading, the
# column heads and each row (a row ends in its percentage).  Taken by what
# the lines are, not by what follows them: the process bar below starts with
# "[" only when its first process is the selected one, and where the cursor
# is depends on the keys and the timing that led there.
table() {
	sed -n '1s/.*\(+[^ ]* [^ ]* \.\. +[^ ]* [^ ]*\).*/\1/p' "$1"
	awk '/^Global latencies/ { on = 1; print; next }
	     on && (/^ Cause / || /%$/) { sub(/^>/, " "); print; next }
	     on { exit }' "$1"
}
table "$tmp/live.screen" > "$tmp/t1"
table "$tmp/saved.screen" > "$tmp/t2"
rows=$(($(wc -l < "$tmp/t1") - 3))
if [ "$rows" -gt 0 ] && diff -u "$tmp/t2" "$tmp/t1" > "$tmp/tdiff"; then
	ok "step $(head -1 "$tmp/t1"): global table ($rows rows) = the offline viewer's"
else
	fail "the step's global table differs from the offline viewer's:"
	sed 's/^/    /' "$tmp/tdiff" "$tmp/live.screen" "$tmp/saved.screen"
fi

# ---- stopped by a signal: the report, the file, tracefs back ------------
for sig in INT TERM; do
	tracefs_state "$tmp/before"
	"$LA" --live --format=json --save "$tmp/s.dat" > "$tmp/s.json" 2> "$tmp/err" &
	pid=$!
	sleep 3
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	tracefs_state "$tmp/after"
	check "SIG$sig: exits 0 with its report" test "$rc" -eq 0
	check "SIG$sig: a JSON report" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/s.json"
	check "SIG$sig: the saved file reads" "$LA" -q "$tmp/s.dat" -o /dev/null
	same_tracefs_state "$tmp/before" "$tmp/after" "SIG$sig"
	no_instance_left "SIG$sig"
done
tracefs_state "$tmp/before"
COLUMNS=80 LINES=24 "$LV" --live --dump -a 60s > /dev/null 2> "$tmp/err" &
pid=$!
sleep 3
kill -s TERM "$pid"
wait "$pid"
rc=$?
tracefs_state "$tmp/after"
check "view --live --dump, SIGTERM: dies of it (143), not another way" test "$rc" -eq 143
same_tracefs_state "$tmp/before" "$tmp/after" "view SIGTERM"
no_instance_left "view SIGTERM"
flock -u 9

# ---- errors: one line, the status, nothing left behind ------------------
expect() {	# expect STATUS PATTERN WHAT CMD...
	local want=$1 pat=$2 what=$3 rc
	shift 3
	"$@" > /dev/null 2> "$tmp/e"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$tmp/e"; then
		ok "$what: exit $rc, $(head -1 "$tmp/e")"
	else
		fail "$what: exit $rc (want $want), stderr: $(cat "$tmp/e")"
	fi
}
expect 1 "not a file" "--live with a trace" "$LA" --live "$tmp/a.dat"
expect 1 "is for --live" "--duration without --live" "$LA" --duration 5s "$tmp/a.dat"
expect 1 "needs --duration" "view --dump --live without --duration" "$LV" --live --dump
expect 1 "--from and --to" "--live --from" "$LA" --live --from 1s
expect 1 "invalid value" "--refresh 1ms" "$LV" --live --refresh 1ms
expect 1 "invalid value" "--kernel-stacks=some" "$LA" --live --kernel-stacks=some
if command -v setpriv > /dev/null; then
	expect 9 "" "not root" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LA" --live -a 1s
fi
finish
