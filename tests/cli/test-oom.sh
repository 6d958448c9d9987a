#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Out of memory is exit status 6 with one line that says so: never a
# damaged file (3), nor exit 0 with a report that differs from the one
# made with memory to spare (a symbol table that did not fit once turned
# every cause into "[0xffffffff...]").  Each trace is analysed under
# ulimit -v from a limit it cannot start with up to one it runs whole
# with, on one thread and on two.
#
# Not run under AddressSanitizer, which reserves terabytes of address
# space up front.
#
# usage: test-oom.sh LATENCY_ANALYZE TRACE...

set -u
LA=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# sweep TRACE THREADS: limits 2 MB apart until four in a row run whole
sweep() {
	local trace=$1 j=$2 kb status ok=0 nomem=0 runs=0
	local name="$(basename "$trace") -j$j"

	if ! "$LA" -q -j "$j" -o "$tmp/want" "$trace"; then
		echo "FAIL: $name: no report without a limit"
		fail=1
		return
	fi
	for ((kb = 4096; kb <= 1048576 && ok < 4; kb += 2048)); do
		rm -f "$tmp/got"
		(ulimit -v "$kb" && exec "$LA" -j "$j" -o "$tmp/got" "$trace") \
			2>"$tmp/err"
		status=$?
		runs=$((runs + 1))
		case $status in
		0)
			if ! cmp -s "$tmp/want" "$tmp/got"; then
				echo "FAIL: $name at ${kb} KB: exit 0, but the report differs:"
				diff "$tmp/want" "$tmp/got" | head -6
				fail=1
				return
			fi
			ok=$((ok + 1))
			;;
		6)
			ok=0
			nomem=$((nomem + 1))
			if [ "$(wc -l <"$tmp/err")" != 1 ] ||
			   ! grep -qE 'out of memory|over the limit' "$tmp/err"; then
				echo "FAIL: $name at ${kb} KB: exit 6 without one line saying why:"
				head -3 "$tmp/err"
				fail=1
				return
			fi
			;;
		*)
			echo "FAIL: $name at ${kb} KB: exit $status, want 0 or 6:"
			head -3 "$tmp/err"
			fail=1
			return
			;;
		esac
	done
	# both ends reached, or the sweep proved nothing
	if [ "$nomem" = 0 ] || [ "$ok" != 4 ]; then
		echo "FAIL: $name: $nomem limits ran out of memory, the last $ok ran whole (of $runs)"
		fail=1
		return
	fi
	echo "ok: $name: out of memory at $nomem limits, then whole ($runs runs)"
}

for trace in "$@"; do
	for j in 1 2; do
		sweep "$trace" "$j"
	done
done

# A 120 KB file whose saved cmdlines inflate to 124 MB of "1 x" lines:
# the text must be held, but the lines past a name for every pid Linux
# can have must not cost more (they took 512 MB of address space, where
# 176 MB does now, 40 MB more than with one line).
mktrace="$(dirname "$0")/../tools/mktrace.py"
printf '%s\n' "version 7" "compression zlib" "compress_options yes" \
	"cmdline 1 x" "event sched:sched_switch" \
	"100 0 sched_switch prev_pid=1 prev_state=1 next_pid=2" \
	"200 0 sched_switch prev_pid=2 prev_state=0 next_pid=1" > "$tmp/c.trs"
if python3 "$mktrace" "$tmp/c.trs" --set cmdline_copies=31000000 \
	-o "$tmp/cmdlines.dat"; then
	(ulimit -v 262144 && exec "$LA" -q -o /dev/null "$tmp/cmdlines.dat") \
		2>"$tmp/err" ||
		{ echo "FAIL: 124 MB of saved cmdlines need more than 256 MB:"; \
		  head -3 "$tmp/err"; fail=1; }
else
	echo "FAIL: mktrace.py could not write the cmdlines trace"
	fail=1
fi
exit $fail
