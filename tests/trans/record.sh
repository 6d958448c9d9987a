#!/bin/bash
# record.sh OUT.dat COMMAND... -- record sched_switch/sched_wakeup with kernel
# stacks (options/stacktrace, what trace-cmd -T sets) around one command,
# directly through tracefs, then `trace-cmd extract` it.  Needs root.
#
# The whole session holds /tmp/lt-tracefs.lock so that several people
# recording on the same machine never overlap (tracefs is global).  The
# command is limited to $LT_TIMEOUT seconds (default 30).  Used to make the
# stacks the translation table was checked against; see README.md.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUT.dat COMMAND..." >&2; exit 2; }
out=$1; shift
exec flock /tmp/lt-tracefs.lock bash -c '
out=$1; shift
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T || exit 1
old_on=$(cat $T/tracing_on)
old_kb=$(sed -E "s/.*expanded: ([0-9]+).*/\1/; s/ .*//" $T/buffer_size_kb)
echo 0 > $T/tracing_on
echo > $T/trace
echo 8192 > $T/buffer_size_kb
echo 1 > $T/events/sched/sched_switch/enable
echo 1 > $T/events/sched/sched_wakeup/enable
echo 1 > $T/options/stacktrace
echo 1 > $T/tracing_on
timeout "${LT_TIMEOUT:-30}" "$@"; rc=$?
echo 0 > $T/tracing_on
trace-cmd extract -o "$out" >/dev/null 2>&1 || echo "trace-cmd extract failed" >&2
echo 0 > $T/options/stacktrace
echo 0 > $T/events/sched/sched_switch/enable
echo 0 > $T/events/sched/sched_wakeup/enable
echo > $T/trace
echo "$old_kb" > $T/buffer_size_kb
echo "$old_on" > $T/tracing_on
exit $rc
' record "$out" "$@"
