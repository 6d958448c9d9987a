#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# latency-record on this machine's kernel, under load: a 20-second
# workload with a kernel stack after every event (--stacks=all, trace-cmd's
# -T) and `find / -xdev` over and over beside it, plus one run of
# lt-workload (tests/golden/workload.c).  Checked with what is not our
# code:
#   - no event lost: no LOST marker in trace-cmd report, and the ring
#     buffers' own counts saved in the file (trace-cmd report --stat:
#     overrun, commit overrun, dropped events) all 0;
#   - every event counted once: trace-cmd report's events = the ring
#     buffers' "read events" = what latency-record and latency-analyze say;
#   - the report against an independent count of the trace-cmd report text
#     (check-independent.py, with tests/golden/independent.py) for lt-workload's
#     tasks;
#   - tracefs as before (top level, options, instances, dynamic events).
# The whole test holds the project's tracefs lock: another recording
# changing the top level meanwhile would look like ours.
#
# usage: test-live.sh LATENCY_RECORD LATENCY_ANALYZE LT_WORKLOAD
# Skips (77) without root, tracefs, trace-cmd or python3.

set -u
LR=$1
LA=$2
WL=$3
. "$(dirname "$0")/../lib.sh"
need_tracefs
command -v trace-cmd > /dev/null || skip "no trace-cmd (the independent reader)"
command -v python3 > /dev/null || skip "no python3"
[ -x "$WL" ] || skip "no lt-workload at $WL"
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/lt-record-live.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
SECS=${LT_LIVE_SECONDS:-20}

cat > "$tmp/load.sh" <<SH
#!/bin/sh
# $SECS s of find / -xdev, over and over, beside one run of lt-workload
end=\$(( \$(date +%s) + $SECS ))
( while [ "\$(date +%s)" -lt \$end ]; do find / -xdev > /dev/null 2>&1; done ) &
sleep 2
"$WL" -d "$tmp/wl"
wait
SH
chmod +x "$tmp/load.sh"
mkdir -p "$tmp/wl"

tracefs_lock
tracefs_state "$tmp/before"
t0=$(date +%s)
"$LR" --stacks=all -o "$tmp/live.dat" --no-report -- "$tmp/load.sh" \
	> "$tmp/out" 2> "$tmp/err"
rc=$?
t1=$(date +%s)
tracefs_state "$tmp/after"
flock -u 9
sed 's/^/    /' "$tmp/err"
check "latency-record exits 0" test "$rc" -eq 0
check "the recording lasted the workload ($((t1 - t0)) s >= $SECS)" test $((t1 - t0)) -ge "$SECS"
same_tracefs_state "$tmp/before" "$tmp/after" "after the recording"
no_instance_left "after the recording"
check "no per-CPU file left" sh -c "! ls '$tmp'/live.dat.cpu* 2>/dev/null"

trace-cmd report -i "$tmp/live.dat" > "$tmp/report" 2> "$tmp/report.err" ||
	fail "trace-cmd report: $(head -3 "$tmp/report.err")"
trace-cmd report --stat -i "$tmp/live.dat" > "$tmp/stat" 2>&1
# events: every line but the header and the frames of stacks
events=$(grep -v -e '^cpus=' -e '^ *=>' -e '^$' "$tmp/report" | wc -l)
stacks=$(grep -c ': *kernel_stack: ' "$tmp/report")
finds=$(grep -c 'sched_switch: *find:' "$tmp/report")
lost=$(grep -c 'LOST' "$tmp/report")
read_ev=$(awk '/^read events:/ { s += $3 } END { print s + 0 }' "$tmp/stat")
bad_stat=$(awk '/^(overrun|commit overrun|dropped events):/ && $NF != 0' "$tmp/stat")
said=$(sed -n 's/.*wrote .*, \([0-9]*\) events, .*/\1/p' "$tmp/err")
echo "trace-cmd report: $events events ($stacks kernel stacks, $finds switches of find), $lost LOST markers; ring buffers: $read_ev read events"
check "trace-cmd report shows no LOST events" test "$lost" -eq 0
check "the ring buffers' saved stats: no overrun, commit overrun or dropped event" test -z "$bad_stat"
check "stats saved for every CPU" test "$(grep -c '^CPU: ' "$tmp/stat")" -eq "$(ls -d "$LT_TRACEFS"/per_cpu/cpu* | wc -l)"
check "kernel stacks recorded ($stacks)" test "$stacks" -gt 1000
check "find ran beside the workload ($finds switches)" test "$finds" -gt 100
check "trace-cmd report's events ($events) = the ring buffers' read events ($read_ev)" test "$events" -eq "$read_ev"
check "latency-record said $said events: trace-cmd report has $events" test "${said:-0}" -eq "$events"
"$LA" -q --format=json "$tmp/live.dat" > "$tmp/r.json" 2> "$tmp/la.err" || fail "latency-analyze: $(cat "$tmp/la.err")"
a_events=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["trace"]["events"], r["trace"]["lost_events"])' "$tmp/r.json")
check "latency-analyze read $a_events (events, lost): trace-cmd report $events, 0" test "$a_events" = "$events 0"

# the analyzer against independent.py's count of trace-cmd report's text
python3 "$(dirname "$0")/check-independent.py" --analyzer "$LA" "$tmp/live.dat" > "$tmp/check" 2>&1
rc=$?
sed 's/^/    /' "$tmp/check"
check "check-independent.py: the report = the independent count, lt-workload's tasks" test "$rc" -eq 0
finish
