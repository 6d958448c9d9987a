#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# test-hints.sh - a hint names only what works (issue 49, item 9).
#
# usage: test-hints.sh LATENCY-ANALYZE LATENCY-RECORD TRACE.dat PERF.data
#
# Without root: a report's note under its record line quotes the recorder
# it names (perf's "unknown tracepoint" under a perf record line,
# trace-cmd's "No events enabled with X" under a trace-cmd one), and the
# hint for a perf.data without tracepoints asks for no event the kernel
# may lack.  With root and tracefs, on a kernel without kprobe events
# (this one): neither doctor nor a recording says to run "latency-record
# probes install" as a fix, nor to load kernel/module where modules do
# not load.  Each part says when it cannot run here.
. "$(dirname "$0")/../lib.sh"

LA=$1
LR=$2
DAT=$3
PERF=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lt-hints.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- the reports' notes -------------------------------------------------
"$LA" -q "$PERF" > "$tmp/perf.txt" 2> "$tmp/err"
check "a report of $(basename "$PERF")" test $? -eq 0
if grep -q '^ *record them with:' "$tmp/perf.txt"; then
	check "its record line is perf's" grep -q '^ *perf record ' "$tmp/perf.txt"
	check "its note quotes perf" \
		grep -q 'where perf says "unknown tracepoint" under -e X' "$tmp/perf.txt"
	check "not trace-cmd" sh -c "! grep -q 'trace-cmd says' '$tmp/perf.txt'"
else
	fail "$(basename "$PERF") misses no source: no note to check"
fi
"$LA" -q "$DAT" > "$tmp/dat.txt" 2> "$tmp/err"
check "a report of $(basename "$DAT")" test $? -eq 0
if grep -q '^ *record them with:' "$tmp/dat.txt"; then
	check "its record line is trace-cmd's" grep -q '^ *trace-cmd record ' "$tmp/dat.txt"
	check "its note quotes trace-cmd" \
		grep -q 'where trace-cmd says "No events enabled with X"' "$tmp/dat.txt"
else
	fail "$(basename "$DAT") misses no source: no note to check"
fi

# a perf.data of no tracepoint: its hint asks for latencytop:* only where
# the kernel has it (perf refuses an unknown tracepoint)
if command -v perf > /dev/null &&
   perf record -q -o "$tmp/clock.data" -e cpu-clock -- true \
	> /dev/null 2>&1; then
	"$LA" -q "$tmp/clock.data" > /dev/null 2> "$tmp/err"
	check "a perf.data of no tracepoint: exit 4 (no events)" test $? -eq 4
	one_line "$tmp/err" "... one line" 'record with: perf record -e sched:sched_switch'
	check "... latencytop:* only where the kernel has it" \
		grep -q "and -e 'latencytop:\*' where the kernel has those events" "$tmp/err"
else
	echo "skipped: a perf.data of cpu-clock (perf cannot record here)"
fi

# --- doctor and a recording, on this kernel ----------------------------
if [ "$(id -u)" -ne 0 ] || [ ! -d "$LT_TRACEFS/events" ]; then
	echo "skipped: doctor and a recording (root and tracefs)"
	finish
fi
if [ -e "$LT_TRACEFS/kprobe_events" ]; then
	echo "skipped: doctor and a recording (this kernel has kprobe events)"
	finish
fi
tracefs_lock
tracefs_state "$tmp/before"
"$LR" doctor > "$tmp/doctor" 2>&1
tracefs_state "$tmp/after"
same_tracefs_state "$tmp/before" "$tmp/after" "doctor leaves tracefs as it was"
check "doctor says the kernel has no kprobe events" \
	grep -q 'no kprobe_events in tracefs' "$tmp/doctor"
check "doctor's fixes do not run probes install" \
	sh -c "! grep 'fix:' '$tmp/doctor' | grep -q 'run \"latency-record probes install\"'"
if grep -q 'latencytop:latency_reason_set *missing' "$tmp/doctor"; then
	check "doctor: the latencytop events' fix says probes install cannot" \
		grep -q 'so "latency-record probes install" cannot make them' "$tmp/doctor"
fi
if [ ! -e /proc/modules ]; then
	check "doctor: no kernel/module to load, modules do not load here" \
		sh -c "! grep 'fix:' '$tmp/doctor' | grep -q 'load kernel/module'"
fi

"$LR" -o "$tmp/t.dat" -- true > "$tmp/rec" 2>&1
check "a recording: exit 0" test $? -eq 0
tracefs_state "$tmp/after2"
same_tracefs_state "$tmp/before" "$tmp/after2" "the recording leaves tracefs as it was"
if grep -q 'not in this kernel: latencytop' "$tmp/rec"; then
	check "its note does not say to run probes install" \
		sh -c "! grep -q 'run \"latency-record probes install\"' '$tmp/rec'"
	if [ ! -e /proc/modules ]; then
		check "... nor to load kernel/module" \
			sh -c "! grep -q 'load kernel/module' '$tmp/rec'"
	fi
else
	fail "the recording did not say the latencytop events are missing"
	cat "$tmp/rec"
fi
finish
