# SPDX-License-Identifier: GPL-2.0
# Shared by record-golden.sh and record-stacks.sh (source it, do not run it).
#
# Why not `trace-cmd record`: on the machine these samples come from it fails
# with "Can't enable ftrace".  What works is driving tracefs by hand and then
# letting `trace-cmd extract` write the trace.dat (with event formats,
# kallsyms, saved cmdlines and the per-CPU buffer stats).
#
# lt_record OUT STACKS CMD...
#   Records the scheduler events below (and, when STACKS=1, a kernel stack after
#   every event via options/stacktrace, i.e. what `trace-cmd record -T` gives)
#   while CMD runs, then writes OUT.  The whole enable..extract..disable session
#   holds /tmp/lt-tracefs.lock so recordings by different people never overlap.
#
# Environment: LT_BUFFER_KB (per-CPU ring buffer, default 32768),
#              TRACE_CMD (default trace-cmd),
#              LT_FILE_VERSION (trace.dat version for the output, default 7
#              = trace-cmd's own default; compressed when v7).

LT_TRACEFS=${LT_TRACEFS:-/sys/kernel/tracing}
LT_LOCK=${LT_LOCK:-/tmp/lt-tracefs.lock}
TRACE_CMD=${TRACE_CMD:-trace-cmd}
LT_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_waking
	sched/sched_wakeup_new sched/sched_process_fork sched/sched_process_exec
	sched/sched_process_exit task/task_newtask task/task_rename"

lt_die() { echo "record: $*" >&2; exit 1; }

lt_tracefs_ready() {
	[ "$(id -u)" = 0 ] || lt_die "must run as root (tracefs)"
	command -v "$TRACE_CMD" >/dev/null || lt_die "$TRACE_CMD not found"
	if [ ! -e "$LT_TRACEFS/events/sched/sched_switch/enable" ]; then
		mount -t tracefs nodev "$LT_TRACEFS" || lt_die "cannot mount tracefs on $LT_TRACEFS"
	fi
}

# Everything we touch, turned back off.  Safe to call twice.
lt_tracing_off() {
	local ev
	echo 0 > "$LT_TRACEFS/options/stacktrace"
	for ev in $LT_EVENTS; do
		echo 0 > "$LT_TRACEFS/events/$ev/enable"
	done
}

# Runs with the lock held (fd 9).
lt_record_locked() {
	local out=$1 stacks=$2 ev old_kb tmp rc=0
	shift 2
	old_kb=$(sed 's/ .*//' "$LT_TRACEFS/buffer_size_kb")
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/lt-record.XXXXXX") || lt_die "mktemp"

	lt_tracing_off
	echo "${LT_BUFFER_KB:-32768}" > "$LT_TRACEFS/buffer_size_kb" || lt_die "buffer_size_kb"
	echo 1 > "$LT_TRACEFS/tracing_on"
	echo > "$LT_TRACEFS/trace"		# clear every CPU's buffer
	# stacks first: the first events would have none otherwise, and
	# their waits no cause
	[ "$stacks" = 1 ] && echo 1 > "$LT_TRACEFS/options/stacktrace"
	for ev in $LT_EVENTS; do
		echo 1 > "$LT_TRACEFS/events/$ev/enable" || lt_die "cannot enable $ev"
	done

	"$@" || rc=$?

	# Stop recording before extracting, so trace-cmd's own work stays out.
	lt_tracing_off
	if [ $rc -ne 0 ]; then
		echo > "$LT_TRACEFS/trace"
		echo "$old_kb" > "$LT_TRACEFS/buffer_size_kb"
		rm -rf "$tmp"
		lt_die "workload failed (exit $rc): $*"
	fi
	"$TRACE_CMD" extract -o "$tmp/raw.dat" >"$tmp/extract.log" 2>&1 ||
		{ cat "$tmp/extract.log" >&2; lt_die "trace-cmd extract failed"; }
	echo > "$LT_TRACEFS/trace"
	echo "$old_kb" > "$LT_TRACEFS/buffer_size_kb"

	if [ "${LT_FILE_VERSION:-7}" = 7 ]; then
		mv "$tmp/raw.dat" "$out"
	else
		"$TRACE_CMD" convert --file-version "$LT_FILE_VERSION" -i "$tmp/raw.dat" -o "$out" ||
			lt_die "trace-cmd convert failed"
	fi
	rm -rf "$tmp"
}

lt_record() {
	local out=$1
	lt_tracefs_ready
	(
		flock 9 || lt_die "cannot take $LT_LOCK"
		trap lt_tracing_off EXIT
		lt_record_locked "$@"
	) 9>"$LT_LOCK" || exit 1
	echo "wrote $out ($(stat -c %s "$out") bytes)"
}
