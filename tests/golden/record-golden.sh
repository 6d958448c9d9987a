#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Record the golden traces: lt-workload (workload.c) under the scheduler events,
# once without and once with kernel stacks.  Writes
#   samples/local-golden.dat          sched events only
#   samples/local-golden-stacks.dat   the same plus a kernel stack after every event
# Each recording is checked against the workload's design (check.py
# --design-only: 300 x 2 ms, 200 x 3 ms pipe waits, >= 50 D waits, 20 waits
# over 5 ms, no lost events) and redone, up to LT_TRIES times (default 3),
# when it does not match (the machine was too busy, events were lost).
#
# usage: sudo tests/golden/record-golden.sh [OUTDIR]      (OUTDIR: samples/)
# env:   LT_FSYNC_DIR (disk-backed directory for lt-fsync, default /var/tmp),
#        CC (default cc), TRACE_CMD, LT_BUFFER_KB (see record-lib.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/samples}
fsync_dir=${LT_FSYNC_DIR:-/var/tmp}
. "$here/record-lib.sh"

fstype=$(stat -f -c %T "$fsync_dir")
case "$fstype" in
tmpfs|ramfs|overlayfs|squashfs) lt_die "$fsync_dir is $fstype: fsync needs a disk-backed directory (set LT_FSYNC_DIR)";;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/lt-golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -Wall -o "$work/lt-workload" "$here/workload.c"

record_checked() {	# FILE STACKS
	local try
	for try in $(seq 1 "${LT_TRIES:-3}"); do
		lt_record "$work/try.dat" "$2" "$work/lt-workload" -d "$fsync_dir"
		if python3 "$here/check.py" --design-only --trace-cmd "$TRACE_CMD" "$work/try.dat" \
			> "$work/design.log"; then
			mv "$work/try.dat" "$1"
			tail -n 1 "$work/design.log"
			return 0
		fi
		echo "attempt $try: the trace does not match the workload design:" >&2
		sed -n '/^FAILED/,$p' "$work/design.log" >&2
	done
	lt_die "no usable recording for $1 after ${LT_TRIES:-3} attempts"
}

mkdir -p "$out"
record_checked "$out/local-golden.dat" 0
record_checked "$out/local-golden-stacks.dat" 1
ls -l "$out/local-golden.dat" "$out/local-golden-stacks.dat"
