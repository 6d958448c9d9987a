#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Record the chain samples: each scenario of cw-workload (chain-workload.c)
# recorded twice in ONE run, by tracefs into a trace.dat (the scheduler
# events of tests/golden/record-lib.sh, with a kernel stack after every
# event) and by perf record into a perf.data:
#
#   perf record -a -g -e sched:sched_switch -e sched:sched_waking \
#               -e sched:sched_wakeup -e sched:sched_wakeup_new
#
# perf starts with its events disabled and is switched on and off through
# its control FIFO around the workload, inside the tracefs session (which
# holds /tmp/lt-tracefs.lock from enabling the events until extract), so
# the perf.data covers a part of the trace.dat's time.  Writes
#   OUTDIR/<scenario>.dat  OUTDIR/<scenario>.perf.data  (pipe mutex relay hogs)
# and OUTDIR/kallsyms (the kernel symbols the perf.data files name, for
# perf script --kallsyms on any machine; tests/perf/trim-kallsyms.py).
# Each pair must pass check-chains.py (the scenario's story in both files,
# the two files' trees alike) and stay under 2 MB a file; a scenario is
# redone up to LT_TRIES times (default 3) when not.
#
# usage: sudo tests/chains/record-chains.sh [OUTDIR [SCENARIO...]]
#        (OUTDIR: tests/data/chains)
# env:   LT_FSYNC_DIR (disk-backed directory for the mutex scenario's
#        fdatasync, default /var/tmp), CC (default cc), PERF (default perf),
#        TRACE_CMD, LT_BUFFER_KB (see tests/golden/record-lib.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/tests/data/chains}
[ $# -gt 0 ] && shift
scenarios=${*:-pipe mutex relay hogs}
fsync_dir=${LT_FSYNC_DIR:-/var/tmp}
PERF=${PERF:-perf}
max_bytes=$((2 * 1000 * 1000))
. "$top/tests/golden/record-lib.sh"

case "$(stat -f -c %T "$fsync_dir")" in
tmpfs|ramfs|overlayfs|squashfs) lt_die "$fsync_dir is not disk-backed (set LT_FSYNC_DIR)";;
esac
command -v "$PERF" >/dev/null || lt_die "$PERF not found"

work=$(mktemp -d "${TMPDIR:-/tmp}/lt-chains.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -Wall -pthread -o "$work/cw-workload" "$here/chain-workload.c"

# perf_around PERF_OUT SCENARIO: run by lt_record with the events enabled
perf_around() {
	mkfifo "$work/ctl" "$work/ack"
	"$PERF" record -q -a -g -D -1 --control "fifo:$work/ctl,$work/ack" \
		-e sched:sched_switch -e sched:sched_waking \
		-e sched:sched_wakeup -e sched:sched_wakeup_new \
		-o "$1" 2>"$work/perf.log" &
	perf_pid=$!
	exec 7>"$work/ctl" 8<"$work/ack"
	echo enable >&7 && read -r ack <&8
	local wl_rc=0
	"$work/cw-workload" -d "$fsync_dir" "$2" || wl_rc=$?
	echo disable >&7 && read -r ack <&8
	exec 7>&- 8<&-
	kill -INT "$perf_pid"
	# perf record ends by raising the SIGINT it caught: 130 is its success
	wait "$perf_pid" || [ $? = 130 ] || { cat "$work/perf.log" >&2; return 1; }
	rm -f "$work/ctl" "$work/ack"
	return "$wl_rc"
}

record_checked() {	# SCENARIO
	local try size
	for try in $(seq 1 "${LT_TRIES:-3}"); do
		rm -rf "$work/try" && mkdir "$work/try"
		lt_record "$work/try/$1.dat" 1 perf_around "$work/try/$1.perf.data" "$1"
		size=$(stat -c %s "$work/try/$1.perf.data")
		echo "wrote $work/try/$1.perf.data ($size bytes)"
		echo "over $max_bytes bytes: $(ls -l "$work/try")" > "$work/story.log"
		if [ "$size" -le "$max_bytes" ] &&
		   [ "$(stat -c %s "$work/try/$1.dat")" -le "$max_bytes" ] &&
		   python3 "$here/check-chains.py" --trace-cmd "$TRACE_CMD" --perf "$PERF" \
			--data "$work/try" --scenario "$1" > "$work/story.log" 2>&1; then
			mv "$work/try/$1.dat" "$out/$1.dat"
			mv "$work/try/$1.perf.data" "$out/$1.perf.data"
			chmod 644 "$out/$1.dat" "$out/$1.perf.data"
			cat "$work/story.log"
			return 0
		fi
		echo "attempt $try: too big, or the story does not hold:" >&2
		cat "$work/story.log" >&2
	done
	lt_die "no usable recording of $1 after ${LT_TRIES:-3} attempts"
}

mkdir -p "$out"
for s in $scenarios; do
	record_checked "$s"
done
python3 "$top/tests/perf/trim-kallsyms.py" /proc/kallsyms "$out"/*.perf.data > "$work/kallsyms"
mv "$work/kallsyms" "$out/kallsyms"
ls -l "$out"
