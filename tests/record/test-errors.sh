#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# latency-record on bad input and hard ends, on this machine's tracefs:
# each failure is one line on stderr with its documented exit status, and
# afterwards nothing is left enabled: tracefs as before, no instance, no
# per-CPU or half-written file.
#
#   a full disk (a 1 MB tmpfs)            exit 2
#   tracefs busy: the lock held, or the top level in use (--top-level)
#                                          exit 4
#   not root (setpriv nobody)              exit 3
#   no tracefs (LT_TRACEFS: an empty dir)  exit 3
#   a command that cannot be exec'd        exit 5
#   SIGTERM, SIGINT while recording        exit 0, the trace written
#   --top-level, a clean run               exit 0, the top level restored
#
# usage: test-errors.sh LATENCY_RECORD
# Skips (77) without root or a tracefs with instances.

set -u
LR=$1
. "$(dirname "$0")/../lib.sh"
need_tracefs
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/lt-record-err.XXXXXX")
cleanup() {
	umount "$tmp/small" 2> /dev/null
	[ -n "${loadpid:-}" ] && kill "$loadpid" 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# expect STATUS PATTERN WHAT: the last run's status and its one line
expect() {
	if [ "$rc" -eq "$1" ]; then
		one_line "$tmp/err" "$3 (exit $rc)" "$2"
	else
		fail "$3: exit $rc, want $1:"
		sed 's/^/    /' "$tmp/err"
	fi
}

exec 9> "$LT_LOCK"
lock() { flock -w 900 9 || skip "the tracefs lock stayed busy"; }
unlock() { flock -u 9; }

# --- a full disk -------------------------------------------------------------
mkdir -p "$tmp/small"
if mount -t tmpfs -o size=1m tmpfs "$tmp/small" 2> /dev/null; then
	lock
	tracefs_state "$tmp/before"
	# events enough to fill 1 MB of per-CPU pages before the end: a
	# quiet machine's find loop (cached) made too few, and the disk
	# filled only when t.dat was written (another message)
	if command -v perf > /dev/null; then
		timeout 25 perf bench sched pipe -T -l 1000000000 > /dev/null 2>&1 &
	else
		( while :; do find / -xdev > /dev/null 2>&1; done ) &
	fi
	loadpid=$!
	"$LR" -q --stacks=all -a 20s -o "$tmp/small/t.dat" 2> "$tmp/err"
	rc=$?
	kill "$loadpid"; wait "$loadpid" 2> /dev/null; loadpid=
	tracefs_state "$tmp/after"
	unlock
	expect 2 "cannot write $tmp/small/t.dat: No space left on device \\(CPU [0-9]+'s pages, kept in $tmp/small/\\.t\\.dat\\.d\\.[^/]+\\)" "a full disk"
	same_tracefs_state "$tmp/before" "$tmp/after" "a full disk"
	no_instance_left "a full disk"
	check "a full disk: nothing left in it ($(ls "$tmp/small" | tr '\n' ' '))" \
		test -z "$(ls -A "$tmp/small")"
	umount "$tmp/small"
else
	echo "SKIPPED a full disk: cannot mount a tmpfs"
fi

# --- tracefs busy --------------------------------------------------------------
lock
tracefs_state "$tmp/before"
"$LR" -q --top-level -a 1s -o "$tmp/busy.dat" 2> "$tmp/err"
rc=$?
tracefs_state "$tmp/after"
expect 4 "tracefs busy: .* is held by another recording" "the lock held, --top-level"
same_tracefs_state "$tmp/before" "$tmp/after" "the lock held"
check "the lock held: no trace.dat" test ! -e "$tmp/busy.dat"

# the top level in use by another tracer (an event enabled there); the
# recorder is given a lock of its own, ours being held
ev=$LT_TRACEFS/events/sched/sched_process_free/enable
was=$(cat "$ev")
echo 1 > "$ev"
tracefs_state "$tmp/before"
LT_LOCK=$tmp/other.lock "$LR" -q --top-level -a 1s -o "$tmp/busy.dat" 2> "$tmp/err"
rc=$?
tracefs_state "$tmp/after"
echo "$was" > "$ev"
unlock
expect 4 "tracefs busy: the top-level instance .* is in use \(current_tracer nop, 1 events enabled\); stop that tracer" \
	"the top level in use, --top-level"
same_tracefs_state "$tmp/before" "$tmp/after" "the top level in use"

# --- not root; no tracefs --------------------------------------------------------
chmod 755 "$tmp"
mkdir -m 777 "$tmp/nobody"
if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LR" -a 1s -o "$tmp/nobody/t.dat" 2> "$tmp/err"
	rc=$?
	expect 3 "needs root" "not root"
	check "not root: no trace.dat" test ! -e "$tmp/nobody/t.dat"
fi
if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$LR" probes list 2> "$tmp/err"
	rc=$?
	expect 3 "needs root" "probes list, not root"
fi
# this machine's kernel may have no kprobe events: then one line says so
if [ ! -e "$LT_TRACEFS/kprobe_events" ]; then
	lock
	tracefs_state "$tmp/before"
	"$LR" probes install 2> "$tmp/err"
	rc=$?
	tracefs_state "$tmp/after"
	unlock
	expect 3 "this kernel has no kprobe events" "probes install without kprobe events"
	same_tracefs_state "$tmp/before" "$tmp/after" "probes install without kprobe events"
	"$LR" probes remove 2> "$tmp/err"
	rc=$?
	expect 3 "this kernel has no kprobe events" "probes remove without kprobe events"
fi
mkdir -p "$tmp/notracefs"
LT_TRACEFS=$tmp/notracefs "$LR" -a 1s -o "$tmp/nt.dat" 2> "$tmp/err"
rc=$?
expect 3 "no tracefs at $tmp/notracefs" "no tracefs"
LT_TRACEFS=$tmp/notracefs "$LR" probes list 2> "$tmp/err"
rc=$?
expect 3 "no tracefs at $tmp/notracefs" "probes list without tracefs"

# --- a command that is found but cannot be run -------------------------------------
printf '#!/nonexistent/interpreter\n' > "$tmp/badcmd"
chmod +x "$tmp/badcmd"
lock
tracefs_state "$tmp/before"
"$LR" -q -o "$tmp/bad.dat" -- "$tmp/badcmd" 2> "$tmp/err"
rc=$?
tracefs_state "$tmp/after"
unlock
expect 5 "cannot run '$tmp/badcmd': No such file or directory" "an interpreter that does not exist"
same_tracefs_state "$tmp/before" "$tmp/after" "a command that cannot run"
no_instance_left "a command that cannot run"
check "a command that cannot run: no trace.dat, no per-CPU file" \
	sh -c "! ls '$tmp'/bad.dat* 2> /dev/null"

# --- signals ---------------------------------------------------------------------
# wait_instance PID: until latency-record PID's instance exists
wait_instance() {
	local i
	for i in $(seq 100); do
		[ -d "$LT_TRACEFS/instances/latency-record.$1" ] && return 0
		sleep 0.1
	done
	return 1
}

for sig in TERM INT HUP; do
	lock
	tracefs_state "$tmp/before"
	rm -f "$tmp/child.pid"
	"$LR" -o "$tmp/sig.dat" --no-report -- \
		sh -c "echo \$\$ > '$tmp/child.pid'; exec sleep 60" > /dev/null 2> "$tmp/err" &
	pid=$!
	wait_instance "$pid" || fail "SIG$sig: no instance appeared"
	sleep 1
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	tracefs_state "$tmp/after"
	unlock
	check "SIG$sig: exit 0 ($rc)" test "$rc" -eq 0
	check "SIG$sig: said it stopped" grep -q "stopping" "$tmp/err"
	check "SIG$sig: the trace was written" \
		sh -c "trace-cmd report -i '$tmp/sig.dat' 2>/dev/null | grep -q sched_switch"
	same_tracefs_state "$tmp/before" "$tmp/after" "SIG$sig"
	no_instance_left "SIG$sig"
	child=$(cat "$tmp/child.pid" 2> /dev/null)
	if [ "$sig" = INT ]; then
		# a terminal's ^C reaches the command by itself: not sent again
		check "SIGINT: the command was left to the terminal's signal" \
			grep -q "sh (pid [0-9]*) is still running" "$tmp/err"
		[ -n "$child" ] && kill "$child" 2> /dev/null
	else
		check "SIG$sig: passed on to the command" grep -q "sh was killed by signal" "$tmp/err"
		check "SIG$sig: the command is gone" sh -c "! kill -0 '${child:-0}' 2> /dev/null"
	fi
	rm -f "$tmp/sig.dat"
done

# --- the top level, clean runs: options/stacktrace, and the stack trigger ---------------
# The project's lock held all along, and a lock of its own for the
# recorder: between an unlock and the recorder's taking it, another user
# of the project's lock (a test run in parallel) would get in first.
for stacks in all switch; do
	lock
	tracefs_state "$tmp/before"
	LT_LOCK=$tmp/top.lock "$LR" -q --top-level --stacks=$stacks -a 2s --no-report \
		-o "$tmp/top.dat" > /dev/null 2> "$tmp/err" 9>&-
	rc=$?
	tracefs_state "$tmp/after"
	unlock
	check "--top-level --stacks=$stacks: exit 0 ($rc$(head -n 1 "$tmp/err" | sed "s/^/: /"))" test "$rc" -eq 0
	n=$(trace-cmd report -i "$tmp/top.dat" 2> /dev/null | grep -c ': *kernel_stack: ')
	check "--top-level --stacks=$stacks: the trace has stacks ($n)" test "$n" -gt 0
	if [ "$n" -eq 0 ]; then	# what the trace holds instead, to tell why
		echo "    $(trace-cmd report -i "$tmp/top.dat" 2>&1 | grep -c '^ ') records; by event:"
		trace-cmd report -i "$tmp/top.dat" 2>&1 | awk '$4 ~ /:$/ { n[$4]++ } END { for (e in n) print "     ", n[e], e }' | sort -rn | head
		sed 's/^/    stderr: /' "$tmp/err" | head -5
	fi
	same_tracefs_state "$tmp/before" "$tmp/after" "--top-level --stacks=$stacks"
done
finish
