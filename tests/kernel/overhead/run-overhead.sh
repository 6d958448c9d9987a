#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the annotations cost: the same kernel with and without a series,
# one qemu session each, micro-workloads on the annotated paths.
#
#   1. the patched kernel of run-patched-test.sh (reused if it is built)
#      and the unpatched one, same tarball and config (tinyconfig +
#      kernel/configs/qemu-tiny.config; their .config differ only in
#      CONFIG_LATENCYTOP_EVENTS, which is checked);
#   2. each booted once under qemu (TCG, one vCPU, the ext4 disk with
#      cache=unsafe so that a flush costs the guest, not the host's disk),
#      running lt-overhead.c: fsync, pipe ping-pong, page faults, futex
#      ping-pong and perf bench sched pipe (when the host has perf), REPS
#      times in each tracing mode (off, sched_switch alone, the latencytop
#      events alone; the order rotates);
#   3. report.py: medians, run-to-run noise, ratios patched/unpatched and
#      the cost of one annotation (set + restore events) with the events
#      on, as a Markdown table on stdout and in WORKDIR/overhead.md.
#
# usage: run-overhead.sh [-s SERIES] [-r REPS] [-I] [-P PATCHED_WORKDIR] WORKDIR
#
# SERIES is 6.12 (the default) or 6.1, REPS 7.  -I runs qemu with
# -icount shift=0: guest time then counts emulated instructions (1 ns
# each), the same whatever the host's load, so the table compares
# instruction counts instead of TCG's host-dependent times (fsync by the
# process's CPU time: its idle waits for the disk are not instructions).  PATCHED_WORKDIR is a
# run-patched-test.sh work directory to build in or reuse (default
# WORKDIR/patched), e.g. build/tests/kernel/patched-run-6.12 after ctest.
# Two kernel builds the first time (5-10 min each on two cores), then
# about 2 x 3 minutes of qemu.  Run it on a quiet host: TCG times are
# host CPU time.  LTB_OPS passes -n WORKLOAD=OPS arguments to lt-overhead.

set -u
LT_KERNEL_DIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/kernel/lib.sh
. "$LT_KERNEL_DIR/lib.sh"
HERE=$LT_KERNEL_DIR/overhead

SERIES=6.12
REPS=7
PWORK=
ICOUNT=
USAGE="usage: $0 [-s SERIES] [-r REPS] [-I] [-P PATCHED_WORKDIR] WORKDIR"
while getopts s:r:IP: opt; do
	case $opt in
	s) SERIES=$OPTARG ;;
	r) REPS=$OPTARG ;;
	I) ICOUNT=1 ;;
	P) PWORK=$OPTARG ;;
	*) echo "$USAGE"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "$USAGE"; exit 2; }
lt_series_version "$SERIES"
LT_WORK=$1
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)
PWORK=${PWORK:-$LT_WORK/patched}
export LT_SOURCES=${LT_SOURCES:-$LT_WORK/sources}

lt_check_host
lt_need_cmds gcc bison flex bc xz patch perl sha256sum flock
lt_source_tarball "$SERIES"

# The patched kernel: the end-to-end test's build, reused when current.
LT_BUILD_ONLY=1 "$LT_KERNEL_DIR/run-patched-test.sh" -s "$SERIES" "$PWORK" ||
	lt_fail "no patched kernel"
PBUILD=$PWORK/build

# The unpatched kernel: the same tarball and fragment, without the
# series (CONFIG_LATENCYTOP_EVENTS does not exist there).
UBUILD=$LT_WORK/unpatched/build
UTREE=$LT_WORK/unpatched/linux
FRAG=$LT_WORK/unpatched/qemu-tiny.config
mkdir -p "$LT_WORK/unpatched"
grep -v '^CONFIG_LATENCYTOP_EVENTS=' "$LT_SRC_ROOT/kernel/configs/qemu-tiny.config" > "$FRAG.new"
STAMP=$( (sha256sum "$LT_TARBALL" | cut -d' ' -f1; cat "$FRAG.new") | sha256sum | cut -c1-16)
if [ "$(cat "$LT_WORK/unpatched/stamp" 2> /dev/null)" != "$STAMP" ] ||
   [ ! -s "$UBUILD/arch/x86/boot/bzImage" ]; then
	rm -rf "$UBUILD" "$LT_WORK/unpatched/stamp"
	mv "$FRAG.new" "$FRAG"
	lt_pristine_tree "$LT_TARBALL"
	lt_tree_copy "$LT_PRISTINE" "$UTREE"
	lt_tiny_config "$UTREE" "$UBUILD" "$FRAG"
	t0=$(date +%s)
	lt_log "building the unpatched bzImage with $(nproc) jobs (5-10 minutes)"
	make -C "$UTREE" O="$UBUILD" ARCH=x86_64 -j"$(nproc)" bzImage \
		> "$LT_WORK/unpatched/build.log" 2>&1 ||
		lt_fail "the unpatched kernel does not build (see $LT_WORK/unpatched/build.log)"
	lt_log "built in $(($(date +%s) - t0)) s"
	echo "$STAMP" > "$LT_WORK/unpatched/stamp"
else
	rm -f "$FRAG.new"
	lt_log "reusing the unpatched kernel built in $UBUILD"
fi

# Same config but for the option the series adds.
if ! diff <(grep -v LATENCYTOP_EVENTS "$UBUILD/.config") \
	  <(grep -v LATENCYTOP_EVENTS "$PBUILD/.config") > "$LT_WORK/config.diff"; then
	cat "$LT_WORK/config.diff"
	lt_fail "the two kernels' configs differ beyond CONFIG_LATENCYTOP_EVENTS"
fi
grep -qx CONFIG_LATENCYTOP_EVENTS=y "$PBUILD/.config" ||
	lt_fail "the patched kernel lacks CONFIG_LATENCYTOP_EVENTS=y"

# The guest: busybox, lt-overhead, and perf when the host has it (Debian's
# /usr/bin/perf is a script choosing perf_<version>: take the newest).
cc -static -O2 -Wall -pthread -o "$LT_WORK/lt-overhead" "$HERE/lt-overhead.c" ||
	lt_skip "cannot link a static binary (libc6-dev missing?)"
: > "$LT_WORK/extra.spec"
echo "file bin/lt-overhead $LT_WORK/lt-overhead 0755" >> "$LT_WORK/extra.spec"
PERF=$(find /usr/bin -maxdepth 1 -name 'perf_[0-9]*' | sort -V | tail -n 1)
[ -z "$PERF" ] && command -v perf > /dev/null && ! head -c2 "$(command -v perf)" | grep -q '#!' &&
	PERF=$(command -v perf)
PERF_ARG=
if [ -n "$PERF" ]; then
	lt_spec_binary "$LT_WORK/extra.spec" "$PERF" usr/bin/perf
	PERF_ARG="-p /usr/bin/perf"
	lt_log "perf bench sched pipe: $PERF"
else
	lt_log "no perf on the host: perf bench sched pipe left out (apt-get install linux-perf)"
fi
cat > "$LT_WORK/config" <<EOF
LTB_ARGS="-r $REPS $PERF_ARG ${LTB_OPS:-}"
EOF
rm -f "$LT_WORK/lt-workload"
LT_GUEST_INIT=$HERE/guest-overhead.sh LT_EXTRA_SPEC=$LT_WORK/extra.spec \
	lt_make_initramfs "$LT_WORK/initramfs.cpio.gz" "$LT_WORK/config"

# boot NAME KERNEL - one session; its console in $LT_WORK/NAME.log
ACCEL=(-accel tcg)
[ -n "$ICOUNT" ] && ACCEL=(-accel tcg -icount "shift=0,sleep=off")
boot() {
	local name=$1 kernel=$2 t0 rc
	rm -f "$LT_WORK/work.img"
	truncate -s 256M "$LT_WORK/work.img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
		"$LT_WORK/work.img" || lt_fail "mkfs.ext4 failed"
	t0=$(date +%s)
	lt_log "booting the $name kernel (TCG, one vCPU)"
	timeout --kill-after=10 "${LT_QEMU_TIMEOUT:-1800}" qemu-system-x86_64 \
		"${ACCEL[@]}" -smp 1 -m 1024 \
		-kernel "$kernel" -initrd "$LT_WORK/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=4" \
		-drive "file=$LT_WORK/work.img,format=raw,if=virtio,cache=unsafe" \
		-display none -monitor none -serial "file:$LT_WORK/$name.log" \
		-nic none -no-reboot < /dev/null
	rc=$?
	lt_log "qemu exited with $rc after $(($(date +%s) - t0)) s"
	grep -q '^LTB exit 0' "$LT_WORK/$name.log" || {
		grep -E '^LTB (error|exit)' "$LT_WORK/$name.log"
		tail -n 30 "$LT_WORK/$name.log"
		lt_fail "the $name run did not finish"
	}
}

SUFFIX=${ICOUNT:+-icount}
boot "unpatched$SUFFIX" "$UBUILD/arch/x86/boot/bzImage"
boot "patched$SUFFIX" "$PBUILD/arch/x86/boot/bzImage"

# Under -icount an idle guest's clock jumps to its next timer: the fsync
# loop's waits for the disk are then noise, its CPU time is not.
python3 "$HERE/report.py" --series "$SERIES" ${ICOUNT:+--icount --cpu fsync} \
	--command "$(basename "$0") -s $SERIES -r $REPS${ICOUNT:+ -I}${LTB_OPS:+ (LTB_OPS=$LTB_OPS)}" \
	"$LT_WORK/unpatched$SUFFIX.log" "$LT_WORK/patched$SUFFIX.log" |
	tee "$LT_WORK/overhead$SUFFIX.md"
