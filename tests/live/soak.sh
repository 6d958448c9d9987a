#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: latency-view --live for a long while under a heavy scheduler load
# with kernel stacks, and what it costs to keep going.
#
#   - `perf bench sched pipe` on every CPU, as fast as it goes, for the
#     whole run (few tasks, reused: the replay has nothing new to learn);
#   - latency-view --live --dump -a DURATION --kernel-stacks=switch, its
#     VmRSS sampled every $SOAK_EVERY seconds (default 5);
#   - RSS bounded: after the warm-up (the first window, two steps and 10 s:
#     the window full, the step tables and the allocator's arenas at their
#     working size) no sample may exceed the warm-up sample by more than
#     $SOAK_SLACK_KB (default 4096 kB), plus the most the readers held
#     waiting for the merge (the `i` screen's "at most N kB" of pages
#     waiting: bounded at 64 MB, and tens of MB when the load starves the
#     replay of CPU; freed, but malloc keeps it), plus 4 kB per task the
#     machine created meanwhile (pids handed out, from /proc/loadavg).
#     4 MB is what may come and go without a leak: malloc's arenas and the
#     step tables of a busier or quieter window.  The per task
#     allowance is because the replay keeps what it knows of every task it
#     has seen (name, process, reason stack), exited or not: on a shared
#     machine other people's builds make new tasks, and that growth is
#     known, not a leak of the live mode.  A leak of even 1 kB per second
#     goes past the bound in a 10-minute run.
#   - the closing summary says how many events were lost (a number);
#   - afterwards tracefs is as it was: no latencytop-live instance, the
#     same events enabled, the same settings (tests/lib.sh);
#   - the load is gone.
#
# Measured (2026-12-06, 2 vCPUs shared with other sessions), 10 minutes:
#   - machine quiet (821 tasks made meanwhile): 572 M events, 0 lost, 17%
#     of a core (readers 7%); VmRSS 4.3 MB at the start, 29.1 MB after the
#     warm-up (45 s), 30.5 MB at the end, 37.4 MB at most (462 s), 17.6 MB
#     of pages waiting at most: flat.
#   - other sessions busy (~50,000 tasks made meanwhile, the pre-queue-figure
#     script): 414 M events, 0 lost; 3.9 MB, 37.5 MB after the warm-up,
#     89.8 MB at the end, in steps (flat 61-64 MB from 150 to 300 s while
#     12,500 tasks came, +22 MB at 330 s).  The replay keeps every task and
#     every distinct kernel stack it met; which of them made the steps is
#     not established.
#
# usage: soak.sh DURATION [LATENCY_VIEW]    e.g. soak.sh 10m
#   SOAK_WINDOW (default 30s) the window, SOAK_EVERY (5) seconds between
#   samples, SOAK_SLACK_KB (4096), SOAK_CSV=FILE keeps the samples
#   (seconds,VmRSS kB,pids created).  Skips (77) without root, tracefs
#   or perf.

set -u
DURATION=${1:?usage: soak.sh DURATION [LATENCY_VIEW]}
here=$(dirname "$0")
LV=${2:-$here/../../build/analyzer/view/latency-view}
EVERY=${SOAK_EVERY:-5}
WINDOW=${SOAK_WINDOW:-30s}
SLACK_KB=${SOAK_SLACK_KB:-4096}
PER_TASK_KB=4
. "$here/../lib.sh"
need_tracefs
command -v perf > /dev/null || skip "no perf (the load is perf bench sched pipe)"
[ -x "$LV" ] || { echo "soak: no latency-view at $LV"; exit 1; }

secs_of() {	# 90, 90s, 1500ms, 10m, 1h -> whole seconds
	case $1 in
	*ms) echo $(( ${1%ms} / 1000 ));;
	*s) echo "${1%s}";;
	*m) echo $(( ${1%m} * 60 ));;
	*h) echo $(( ${1%h} * 3600 ));;
	*) echo "$1";;
	esac
}
dur_s=$(secs_of "$DURATION")
win_s=$(secs_of "$WINDOW")
# warm-up: the window filled, two steps of it (window / 30) and 10 s
warm_s=$((win_s + 2 * (win_s + 29) / 30 + 10))
[ "$dur_s" -ge $((warm_s + 3 * EVERY)) ] ||
	{ echo "soak: $DURATION is too short: warm-up alone is ${warm_s}s"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/lt-soak.XXXXXX")
load_pids=()
stop_load() {
	local p
	for p in "${load_pids[@]}"; do
		kill -TERM -- "-$p" 2> /dev/null
	done
	for p in "${load_pids[@]}"; do
		wait "$p" 2> /dev/null
	done
	load_pids=()
}
trap 'stop_load; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

tracefs_lock

tracefs_state "$tmp/before"
ncpu=$(nproc)
for ((c = 0; c < ncpu; c++)); do
	# a session each, so that the whole group (perf's forked worker) goes
	setsid taskset -c "$c" perf bench sched pipe -T -l 1000000000 \
		> /dev/null 2>&1 &
	load_pids+=($!)
done
sleep 1

# tasks created since the start: the last pid handed out, counted across
# pid_max's wrap (one sample apart is far less than pid_max)
pid_max=$(cat /proc/sys/kernel/pid_max)
pids_now() { cut -d' ' -f5 /proc/loadavg; }
pid_last=$(pids_now)
created=0
COLUMNS=200 LINES=40 "$LV" --live --dump -a "$DURATION" -w "$WINDOW" \
	--kernel-stacks=switch --keys i > "$tmp/screen" 2> "$tmp/err" &
lv=$!
t0=$(date +%s)
: > "$tmp/rss.csv"
while kill -0 "$lv" 2> /dev/null; do
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$lv/status" 2> /dev/null)
	# once the run is over, the screen and the report are built: not
	# the running state any more
	pid=$(pids_now)
	created=$((created + (pid - pid_last + pid_max) % pid_max))
	pid_last=$pid
	[ -n "$rss" ] && [ $(($(date +%s) - t0)) -le "$dur_s" ] &&
		echo "$(($(date +%s) - t0)),$rss,$created" >> "$tmp/rss.csv"
	sleep "$EVERY"
done
wait "$lv"
rc=$?
stop_load
tracefs_state "$tmp/after"

sed 's/^/    /' "$tmp/err"
check "latency-view --live --dump -a $DURATION exits 0" test "$rc" -eq 0
grep -q '^Live: ' "$tmp/screen"
check "the i screen shows the live run" test $? -eq 0
lost=$(sed -n 's/.*live: [0-9.]* s, \([0-9]*\) events, \([0-9]*\) lost.*/\2/p' "$tmp/err")
events=$(sed -n 's/.*live: [0-9.]* s, \([0-9]*\) events, .*/\1/p' "$tmp/err")
check "the summary counts the events ($events) and the lost ones (${lost:-none})" \
	test -n "$lost" -a -n "$events"
check "events were seen" test "${events:-0}" -gt 0
same_tracefs_state "$tmp/before" "$tmp/after" "soak"
no_instance_left "soak"
left=""
for p in "${load_pids[@]}"; do
	kill -0 "$p" 2> /dev/null && left="$left $p"
done
check "the load is gone" test -z "$left"

# ---- RSS -----------------------------------------------------------------
queue_kb=$(sed -n 's/.*pages waiting [0-9]* kB (at most \([0-9]*\) kB).*/\1/p' "$tmp/screen")
check "the i screen says how many pages waited at most (${queue_kb:-?} kB)" \
	test -n "$queue_kb"
[ -n "${SOAK_CSV:-}" ] && cp "$tmp/rss.csv" "$SOAK_CSV"
if awk -F, -v warm="$warm_s" -v slack="$((SLACK_KB + ${queue_kb:-0}))" -v per="$PER_TASK_KB" '
	{ t[NR] = $1; r[NR] = $2; p[NR] = $3 }
	END {
		n = NR
		if (n < 3) { print "    only " n " samples"; exit 1 }
		w = 0
		for (i = 1; i <= n; i++) if (t[i] >= warm) { w = i; break }
		if (!w) { print "    no sample after the warm-up (" warm " s)"; exit 1 }
		max = 0; at = 0; bad = 0
		for (i = w; i <= n; i++) {
			bound = r[w] + slack + per * (p[i] - p[w])
			if (r[i] > bound) { bad = 1; if (!badat) badat = i }
			if (r[i] > max) { max = r[i]; at = i }
		}
		printf "    VmRSS: start %d kB (%d s), after warm-up %d kB (%d s), end %d kB (%d s), peak after warm-up %d kB (%d s)\n",
			r[1], t[1], r[w], t[w], r[n], t[n], max, t[at]
		printf "    tasks created meanwhile: %d (%d after the warm-up); bound at the end %d kB\n",
			p[n], p[n] - p[w], r[w] + slack + per * (p[n] - p[w])
		if (bad)
			printf "    over the bound first at %d s: %d kB\n", t[badat], r[badat]
		exit bad
	}' "$tmp/rss.csv" > "$tmp/rss.txt"; then
	ok "RSS after the warm-up within warm-up + ${SLACK_KB} kB + ${queue_kb:-0} kB of pages + ${PER_TASK_KB} kB per new task"
else
	fail "RSS grew past warm-up + ${SLACK_KB} kB + ${queue_kb:-0} kB of pages + ${PER_TASK_KB} kB per new task:"
fi
cat "$tmp/rss.txt"
finish
