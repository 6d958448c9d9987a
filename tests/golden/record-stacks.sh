#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Record the stack-translation samples: the scheduler events of
# record-lib.sh plus a kernel stack after every event (options/stacktrace,
# what `trace-cmd record -T` gives), while one of these workloads runs:
#
#   compile    gcc -O2 -c of the analyzer's C files (analyzer/lib/*.c and analyzer/lib/*/*.c), two at a
#              time (xargs -P2), into a scratch directory
#   pipeline   find /usr/include /usr/lib | sort | gzip -9 > /dev/null
#   fsync      in LT_FSYNC_DIR (disk-backed): dd 4 KiB x 300 with oflag=dsync,
#              dd 64 KiB x 64 with conv=fsync, and 100 x (4 KiB append + sync -d)
#   net        lt-netload (netload.c): 4 loopback TCP bulk senders (64 MiB each),
#              2000 TCP 64-byte round trips under that load, 5000 1-byte round
#              trips over a UNIX socketpair
#
# Writes samples/local-stacks-<name>.dat; each must stay under 4 MB and lose no
# events (it is redone up to LT_TRIES times, default 3, otherwise).
#
# usage: sudo tests/golden/record-stacks.sh [OUTDIR [compile|pipeline|fsync|net ...]]
# env:   LT_FSYNC_DIR (default /var/tmp), CC (default cc), TRACE_CMD, LT_BUFFER_KB
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/samples}
[ $# -gt 0 ] && shift
fsync_dir=${LT_FSYNC_DIR:-/var/tmp}
max_bytes=$((4 * 1000 * 1000))
. "$here/record-lib.sh"

case "$(stat -f -c %T "$fsync_dir")" in
tmpfs|ramfs|overlayfs|squashfs) lt_die "$fsync_dir is not disk-backed (set LT_FSYNC_DIR)";;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/lt-stacks.XXXXXX")
scratch=$(mktemp -d "$fsync_dir/lt-stacks.XXXXXX")
trap 'rm -rf "$work" "$scratch"' EXIT
${CC:-cc} -O2 -Wall -o "$work/lt-netload" "$here/netload.c"

wl_compile() {
	rm -f "$scratch"/*.o
	cd "$top" && ls analyzer/lib/*.c analyzer/lib/*/*.c | xargs -P2 -I{} sh -c \
		'gcc -O2 -c -Ianalyzer/include $(printf -- "-I%s " analyzer/lib analyzer/lib/*/) "$1" -o "$2/$(basename "$1" .c).o"' \
		sh {} "$scratch"
}
wl_pipeline() {
	find /usr/include /usr/lib 2>/dev/null | sort | gzip -9 > /dev/null
}
wl_fsync() {
	local i
	dd if=/dev/zero of="$scratch/dsync" bs=4k count=300 oflag=dsync status=none
	dd if=/dev/zero of="$scratch/fsync" bs=64k count=64 conv=fsync status=none
	for i in $(seq 100); do
		head -c 4096 /dev/zero >> "$scratch/append"
		sync -d "$scratch/append"
	done
	rm -f "$scratch"/dsync "$scratch"/fsync "$scratch"/append
}
wl_net() {
	"$work/lt-netload"
}

losses() {	# overruns + dropped events in the buffer stats saved by extract
	"$TRACE_CMD" report --stat -i "$1" 2>/dev/null |
		awk '/^(overrun|commit overrun|dropped events):/ { s += $NF } END { print s + 0 }'
}

# Exported so lt_record can run them as commands.
export -f wl_compile wl_pipeline wl_fsync wl_net
export top scratch work

record_one() {	# NAME
	local f="$out/local-stacks-$1.dat" try size lost
	for try in $(seq 1 "${LT_TRIES:-3}"); do
		lt_record "$work/try.dat" 1 bash -c "wl_$1"
		size=$(stat -c %s "$work/try.dat")
		lost=$(losses "$work/try.dat")
		if [ "$size" -lt "$max_bytes" ] && [ "$lost" -eq 0 ]; then
			mv "$work/try.dat" "$f"
			echo "$f: $size bytes"
			return 0
		fi
		echo "attempt $try for $1: $size bytes, $lost events lost; again" >&2
	done
	lt_die "no usable recording for $1"
}

mkdir -p "$out"
[ $# -gt 0 ] || set -- compile pipeline fsync net
for w in "$@"; do
	case "$w" in
	compile|pipeline|fsync|net) record_one "$w";;
	*) lt_die "unknown workload $w (compile, pipeline, fsync, net)";;
	esac
done
