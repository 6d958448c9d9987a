#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Nothing left behind (issue 49, 4-5): after a SIGKILL of latency-record,
# latency-record --top-level and latency-analyze --live, the next run or
# latency-record doctor undoes what the killed one changed (instance,
# top-level settings, trigger, buffers, temporary files, a tracefs mount)
# and says so; tracefs is then as it was before (tests/lib.sh's
# tracefs_state).  And no run leaves a tracefs mount it made, even where
# libtracefs would have mounted one silently (a private mount namespace
# with tracefs unmounted).
#
# usage: test-kill.sh LATENCY-RECORD LATENCY-ANALYZE   (root; 77 elsewhere)

LR=$1
LA=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"

need_tracefs
tmp=$(mktemp -d /var/tmp/lt-kill.XXXXXX)
# a parent that is missing, as /run is in an initramfs: the run makes it
export LT_JOURNAL_DIR=$tmp/run/latencytop
trap 'reap; rm -rf "$tmp"' EXIT
tracefs_lock

# wait until the run has its instance (or top-level settings) in place
started() {	# started PID
	local i
	for i in $(seq 100); do
		[ -n "$(ls "$LT_JOURNAL_DIR" 2> /dev/null)" ] &&
			grep -q 'tracing_on\|rmdir' "$LT_JOURNAL_DIR"/journal.* 2> /dev/null &&
			sleep 0.5 && return 0
		kill -0 "$1" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}
leftovers() { ls -A "$tmp/out" | tr '\n' ' '; }
# the recorded command: gone with the test (a killed recorder leaves it)
printf '#!/bin/sh\necho $$ > "%s"\nexec sleep 60\n' "$tmp/cmd.pid" > "$tmp/cmd"
chmod +x "$tmp/cmd"
reap() { [ -s "$tmp/cmd.pid" ] && kill "$(cat "$tmp/cmd.pid")" 2> /dev/null; rm -f "$tmp/cmd.pid"; }

mkdir "$tmp/out"
# ---- latency-record, in an instance of its own ----------------------------
tracefs_state "$tmp/before"
"$LR" -q -o "$tmp/out/a.dat" -- "$tmp/cmd" 2> /dev/null 9>&- &
pid=$!
started $pid
check "latency-record started and journaled its changes" test $? -eq 0
check "... in a journal directory whose parent it made" test -d "$tmp/run/latencytop"
kill -9 $pid
wait $pid 2> /dev/null
reap
tracefs_state "$tmp/killed"
! diff -q "$tmp/before" "$tmp/killed" > /dev/null
check "SIGKILL left tracefs changed (the test sees what it tests)" test $? -eq 0
check "... and temporary files beside the output ($(leftovers))" test -n "$(leftovers)"
"$LR" doctor > "$tmp/doctor" 2>&1
grep -q '^leftovers .*restored.*latency-record (pid '"$pid"')' "$tmp/doctor"
check "doctor says what it restored" test $? -eq 0
grep '^leftovers' "$tmp/doctor" | sed 's/^/    /'
tracefs_state "$tmp/after"
same_tracefs_state "$tmp/before" "$tmp/after" "latency-record killed, then doctor"
check "no temporary file left beside the output ($(leftovers))" test -z "$(leftovers)"
check "no journal left" test -z "$(ls -A "$LT_JOURNAL_DIR")"
"$LR" doctor > "$tmp/doctor" 2>&1
grep -q '^leftovers  *ok  *nothing left' "$tmp/doctor"
check "doctor again: nothing left" test $? -eq 0

# ---- latency-record --top-level: the next run restores it -------------------
# the project's lock held all along, the recorders given one of their own
export LT_LOCK=$tmp/top.lock
tracefs_state "$tmp/before"
"$LR" -q --top-level -o "$tmp/out/b.dat" -- "$tmp/cmd" 2> /dev/null 9>&- &
pid=$!
started $pid
check "--top-level started" test $? -eq 0
kill -9 $pid
wait $pid 2> /dev/null
reap
tracefs_state "$tmp/killed"
! diff -q "$tmp/before" "$tmp/killed" > /dev/null
check "SIGKILL of --top-level left the top level changed" test $? -eq 0
"$LR" --top-level -o "$tmp/out/c.dat" -- true > /dev/null 2> "$tmp/err" 9>&-
rc=$?
check "the next --top-level records (exit $rc)" test $rc -eq 0
grep -q "warning: restored what latency-record (pid $pid) left: write .*buffer_size_kb" "$tmp/err"
check "... and says what it restored" test $? -eq 0
tracefs_state "$tmp/after"
same_tracefs_state "$tmp/before" "$tmp/after" "--top-level killed, then the next run"
rm -f "$tmp/out/c.dat"
check "nothing of the killed run beside the output ($(leftovers))" test -z "$(leftovers)"

# ---- latency-analyze --live ------------------------------------------------
tracefs_state "$tmp/before"
"$LA" --live -a 60s -q --save "$tmp/out/d.dat" > /dev/null 2>&1 9>&- &
pid=$!
started $pid
check "--live started" test $? -eq 0
kill -9 $pid
wait $pid 2> /dev/null
"$LA" --live -a 1s > /dev/null 2> "$tmp/err" 9>&-
rc=$?
check "the next --live runs (exit $rc)" test $rc -eq 0
grep -q "warning: restored what latency-analyze --live (pid $pid) left: rmdir .*latencytop-live.$pid" "$tmp/err"
check "... and removes the killed one's instance, saying so" test $? -eq 0
tracefs_state "$tmp/after"
same_tracefs_state "$tmp/before" "$tmp/after" "--live killed, then the next run"
check "nothing of --save's left ($(leftovers))" test -z "$(leftovers)"

# ---- no tracefs mount left behind --------------------------------------------
if unshare -m --propagation private true 2> /dev/null; then
	unshare -m --propagation private sh -c '
		t=$1; lr=$2; la=$3; out=$4
		umount "$t" 2> /dev/null
		count() { grep -c " $t tracefs" /proc/self/mounts; }
		echo "unmounted $(count)"
		"$lr" doctor > /dev/null 2>&1; echo "doctor $(count)"
		"$lr" probes list > /dev/null 2>&1; echo "probes $(count)"
		"$lr" -q -o "$out/e.dat" -- true > /dev/null 2>&1; echo "record $(count)"
		"$la" --live -a 1s -q > /dev/null 2>&1; echo "live $(count)"
		"$lr" -q -o "$out/f.dat" -- "$out/../cmd" > /dev/null 2>&1 &
		sleep 3; kill -9 $!; wait $! 2> /dev/null
		kill "$(cat "$out/../cmd.pid")" 2> /dev/null
		echo "killed $(count)"
		"$lr" doctor > /dev/null 2>&1; echo "after-doctor $(count)"
	' sh "$LT_TRACEFS" "$LR" "$LA" "$tmp/out" > "$tmp/mounts" 9>&-
	for what in unmounted doctor probes record live after-doctor; do
		check "tracefs not mounted by $what (mounts: $(grep "^$what " "$tmp/mounts" | cut -d' ' -f2))" \
			grep -qx "$what 0" "$tmp/mounts"
	done
	check "a killed run's own mount is there until undone" grep -qx 'killed 1' "$tmp/mounts"
	rm -f "$tmp"/out/*.dat
else
	echo "SKIPPED the mount checks: no private mount namespace here"
fi
flock -u 9
finish
