# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared by the live latency-record tests (source it).
#
#   rt_need_tracefs          SKIPPED (77) unless root with a tracefs that
#                            takes instances
#   rt_state FILE            every tracefs setting a recording could touch,
#                            as text: compared before and after
#   rt_locked CMD...         CMD holding the project's tracefs lock
#                            ($LT_LOCK, tests/golden/record-lib.sh's)
#   rt_one_line FILE         FILE (stderr of a failed run) is one line
#   ok / fail / rt_done      counting checks

RT_TRACEFS=${LT_TRACEFS:-/sys/kernel/tracing}
RT_LOCK=${LT_LOCK:-/tmp/lt-tracefs.lock}
RT_FAILS=0
RT_PASSES=0

ok() { echo "ok      $*"; RT_PASSES=$((RT_PASSES + 1)); }
fail() { echo "FAILED  $*"; RT_FAILS=$((RT_FAILS + 1)); }
check() {	# check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what"; fi
}
rt_skip() { echo "SKIPPED: $*"; exit 77; }
rt_done() {
	echo "$RT_PASSES passed, $RT_FAILS failed"
	[ "$RT_FAILS" -eq 0 ]
	exit $?
}

rt_need_tracefs() {
	[ "$(id -u)" = 0 ] || rt_skip "needs root (tracefs)"
	[ -e "$RT_TRACEFS/events/sched/sched_switch/enable" ] ||
		rt_skip "no tracefs with sched_switch at $RT_TRACEFS"
	[ -d "$RT_TRACEFS/instances" ] || rt_skip "tracefs has no instances"
	command -v flock > /dev/null || rt_skip "no flock"
}

rt_locked() {
	flock -w 600 "$RT_LOCK" "$@"
}

# Every setting latency-record may change, top level and global.
rt_state() {
	local t=$RT_TRACEFS f
	{
		echo "instances: $(ls "$t/instances" | grep -c '^latency-record' || true) latency-record"
		echo "instances: $(ls "$t/instances" | grep -c '^latencytop-live' || true) latencytop-live"
		for f in tracing_on buffer_size_kb current_tracer trace_clock \
			 buffer_percent set_event events/sched/sched_switch/trigger \
			 dynamic_events; do
			[ -r "$t/$f" ] && echo "$f: $(tr '\n' ' ' < "$t/$f")"
		done
		for f in "$t"/options/*; do
			echo "options/${f##*/}: $(cat "$f")"
		done
		[ -r /proc/sys/kernel/sched_schedstats ] &&
			echo "sched_schedstats: $(cat /proc/sys/kernel/sched_schedstats)"
		grep -c " $t tracefs" /proc/mounts | sed 's/^/tracefs mounts: /'
	} > "$1" 2>&1
}

rt_same_state() {	# rt_same_state BEFORE AFTER WHAT
	if diff -u "$1" "$2" > "$2.diff"; then
		ok "$3: tracefs settings as before"
	else
		fail "$3: tracefs settings changed:"
		sed 's/^/    /' "$2.diff"
	fi
}

rt_no_instance() {	# no latency-record (or live) instance is left
	local left
	left=$(ls "$RT_TRACEFS/instances" | grep -E '^(latency-record|latencytop-live)' || true)
	if [ -z "$left" ]; then ok "$1: no instance left"; else fail "$1: instances left: $left"; fi
}

rt_one_line() {	# rt_one_line FILE WHAT [PATTERN]
	local n
	n=$(wc -l < "$1")
	if [ "$n" -eq 1 ] && { [ -z "${3:-}" ] || grep -qE -- "$3" "$1"; }; then
		ok "$2: one line: $(cat "$1")"
	else
		fail "$2: $n lines of stderr, want one${3:+ matching /$3/}:"
		sed 's/^/    /' "$1"
	fi
}
