# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What the shell tests share (tests/README.md): source it.
#
#   . "$(dirname "$0")/../lib.sh"
#
# Checks are counted, and a test goes on after a failure, so that one run
# shows every broken case:
#
#   ok WHAT                  a check passed: "ok      WHAT"
#   fail WHAT                a check failed: "FAILED  WHAT"
#   check WHAT CMD...        ok or fail by CMD's exit status
#   one_line FILE WHAT [RE]  FILE (stderr of a failed run) is one line
#                            [matching the extended regex RE]
#   skip WHY                 "SKIPPED: WHY" and exit 77, which ctest
#                            reports as skipped (SKIP_RETURN_CODE 77)
#   finish                   "N passed, M failed"; exit 0 if none failed
#                            and some passed, else 1
#
# This machine's tracefs, for the tests that record on it (root only):
#
#   need_tracefs             skip unless root with a tracefs that takes
#                            instances, and flock
#   tracefs_lock             hold the lock every test and person using
#                            tracefs takes ($LT_LOCK; fd 9 until the test
#                            exits), waiting 15 minutes at most
#   tracefs_state FILE       every tracefs setting a recording could
#                            touch, as text: compared before and after
#   same_tracefs_state BEFORE AFTER WHAT
#                            ok if the settings are as before, else fail
#                            showing the difference
#   no_instance_left WHAT    ok if no latency-record or live instance is
#                            left, else fail naming them

LT_TRACEFS=${LT_TRACEFS:-/sys/kernel/tracing}
LT_LOCK=${LT_LOCK:-/tmp/lt-tracefs.lock}
LT_PASSES=0
LT_FAILS=0

ok() { echo "ok      $*"; LT_PASSES=$((LT_PASSES + 1)); }
fail() { echo "FAILED  $*"; LT_FAILS=$((LT_FAILS + 1)); }
check() {
	lt_what=$1
	shift
	if "$@"; then ok "$lt_what"; else fail "$lt_what"; fi
}
skip() { echo "SKIPPED: $*"; exit 77; }
finish() {
	echo "$LT_PASSES passed, $LT_FAILS failed"
	[ "$LT_FAILS" -eq 0 ] && [ "$LT_PASSES" -gt 0 ]
	exit $?
}

one_line() {
	lt_n=$(wc -l < "$1")
	if [ "$lt_n" -eq 1 ] && { [ -z "${3:-}" ] || grep -qE -- "$3" "$1"; }; then
		ok "$2: one line: $(cat "$1")"
	else
		fail "$2: $lt_n lines of stderr, want one${3:+ matching /$3/}:"
		sed 's/^/    /' "$1"
	fi
}

need_tracefs() {
	[ "$(id -u)" = 0 ] || skip "needs root (tracefs)"
	[ -e "$LT_TRACEFS/events/sched/sched_switch/enable" ] ||
		skip "no tracefs with sched_switch at $LT_TRACEFS"
	[ -d "$LT_TRACEFS/instances" ] || skip "tracefs has no instances"
	command -v flock > /dev/null || skip "no flock"
}

tracefs_lock() {
	exec 9> "$LT_LOCK"
	flock -w 900 9 || skip "the tracefs lock $LT_LOCK stayed busy for 15 minutes"
}

# Every setting latency-record may change, top level and global.
tracefs_state() {
	{
		echo "instances: $(ls "$LT_TRACEFS/instances" | grep -c '^latency-record' || true) latency-record"
		echo "instances: $(ls "$LT_TRACEFS/instances" | grep -c '^latencytop-live' || true) latencytop-live"
		for lt_f in tracing_on buffer_size_kb current_tracer trace_clock \
			 buffer_percent set_event events/sched/sched_switch/trigger \
			 dynamic_events; do
			[ -r "$LT_TRACEFS/$lt_f" ] && echo "$lt_f: $(tr '\n' ' ' < "$LT_TRACEFS/$lt_f")"
		done
		for lt_f in "$LT_TRACEFS"/options/*; do
			echo "options/${lt_f##*/}: $(cat "$lt_f")"
		done
		[ -r /proc/sys/kernel/sched_schedstats ] &&
			echo "sched_schedstats: $(cat /proc/sys/kernel/sched_schedstats)"
		grep -c " $LT_TRACEFS tracefs" /proc/mounts | sed 's/^/tracefs mounts: /'
	} > "$1" 2>&1
}

same_tracefs_state() {
	if diff -u "$1" "$2" > "$2.diff"; then
		ok "$3: tracefs settings as before"
	else
		fail "$3: tracefs settings changed:"
		sed 's/^/    /' "$2.diff"
	fi
}

no_instance_left() {
	lt_left=$(ls "$LT_TRACEFS/instances" | grep -E '^(latency-record|latencytop-live)' || true)
	if [ -z "$lt_left" ]; then
		ok "$1: no instance left"
	else
		fail "$1: instances left: $lt_left"
	fi
}
