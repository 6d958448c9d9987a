#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record-machine.sh OUT.dat - a short recording of this machine with kernel
# stacks, for the translation-coverage test (test-coverage.py): the
# scheduler events of tests/golden/record-lib.sh and a stack after every
# event (options/stacktrace, what trace-cmd record -T gives), while one
# short task of each kind of tests/trans/scenarios.c blocks, a few
# fsyncs run in LT_FSYNC_DIR and taskset moves itself between the CPUs
# (sched_setaffinity waits in affine_move_task for the stopper thread).
# The whole machine is traced: whatever else runs is in the file too.
#
# As root, from the top of the repository.  The file must stay under
# 2 MB and lose no events (tried up to LT_TRIES times, default 3).
# env: LT_FSYNC_DIR (default /var/tmp, disk-backed), CC (default cc),
#      LT_BUFFER_KB (default 32768), TRACE_CMD
set -eu
[ $# = 1 ] || { echo "usage: $0 OUT.dat" >&2; exit 2; }
out=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/golden/record-lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/lt-machine.XXXXXX")
scratch=$(mktemp -d "${LT_FSYNC_DIR:-/var/tmp}/lt-machine.XXXXXX")
trap 'rm -rf "$work" "$scratch"' EXIT
# scenarios.c's uring mode needs liburing (Debian: liburing-dev)
${CC:-cc} -O1 -o "$work/scen" "$here/scenarios.c" -luring -lpthread -lutil

cat > "$work/workload.sh" <<EOF
#!/bin/sh
for m in pipe unix tcp udp poll select epoll condwait mutex futexpi \
	 nanosleep wait4 vfork membarrier tty uring flock; do
	timeout 2 "$work/scen" \$m > /dev/null 2>&1
done
for m in fsync fdatasync sync; do
	timeout 3 "$work/scen" \$m "$scratch" > /dev/null 2>&1
done
last=\$((\$(nproc) - 1))
for i in 1 2 3 4 5 6 7 8; do
	taskset -c 0 true
	taskset -c \$last true
done
exit 0
EOF
chmod +x "$work/workload.sh"

try=1
while :; do
	lt_record "$work/try.dat" 1 "$work/workload.sh"
	size=$(stat -c %s "$work/try.dat")
	lost=$("$TRACE_CMD" report --stat -i "$work/try.dat" 2>/dev/null |
		awk '/^(overrun|commit overrun|dropped events):/ { s += $NF } END { print s + 0 }')
	if [ "$size" -lt 2000000 ] && [ "$lost" -eq 0 ]; then
		mv "$work/try.dat" "$out"
		echo "$out: $size bytes"
		exit 0
	fi
	echo "attempt $try: $size bytes, $lost events lost" >&2
	[ "$try" -lt "${LT_TRIES:-3}" ] || lt_die "no usable recording"
	try=$((try + 1))
done
