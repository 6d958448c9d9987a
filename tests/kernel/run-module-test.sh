#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end test of the kprobe module on Debian's own kernel:
#
#   build kernel/module against linux-headers-<version>, boot
#   /boot/vmlinuz-<version> under qemu (TCG) with a busybox initramfs that
#   carries trace-cmd, load the module, record the workload, copy trace.dat
#   out and check it (tests/kernel/check-trace.py).
#
# usage: run-module-test.sh [-s SERIES] WORKDIR [LATENCY_ANALYZE] [PLUGIN_DIR]
#
# SERIES (6.1, 6.12) picks the newest installed Debian kernel of that
# series, preferring the one linux-image-SERIES-amd64 or linux-image-amd64
# depends on; without it, the one linux-image-amd64 depends on.  Exits 77
# (skipped) when qemu, the kernel packages or other tools are missing.
# LT_KERNEL_VERSION picks another installed kernel; LT_SAMPLE_OUT=FILE
# keeps a copy of the trace.  About 1-2 minutes.

set -u
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

SERIES=
if [ "${1:-}" = -s ]; then
	SERIES=${2:-}
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [-s SERIES] WORKDIR [LATENCY_ANALYZE] [PLUGIN_DIR]"; exit 2; }
LT_WORK=$1
ANALYZER=${2:-}
PLUGIN_DIR=${3:-}
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)

lt_check_host
PATH=$PATH:/usr/sbin:/sbin
lt_need_cmds modprobe
KVER=$(lt_debian_kernel "$SERIES")
if [ -z "$KVER" ] && [ -n "$SERIES" ]; then
	lt_skip "no $SERIES kernel with /boot/vmlinuz-<v>, /lib/modules/<v>/build and modules.dep (install linux-image-$SERIES-amd64 linux-headers-$SERIES-amd64, or linux-image-amd64 linux-headers-amd64 where that is $SERIES)"
fi
[ -n "$KVER" ] ||
	lt_skip "no kernel with both /boot/vmlinuz-<v> and /lib/modules/<v>/build (install linux-image-amd64 linux-headers-amd64)"
KIMG=/boot/vmlinuz-$KVER
[ -r "$KIMG" ] || lt_skip "$KIMG is not readable"
grep -qs '^CONFIG_KPROBES=y' "/boot/config-$KVER" ||
	lt_skip "kernel $KVER has no kprobes"
lt_log "kernel $KVER"

# Build the module out of tree, in a copy so the source tree stays clean.
rm -rf "$LT_WORK/src" && mkdir -p "$LT_WORK/src/kernel"
cp -r "$LT_SRC_ROOT/kernel/module" "$LT_SRC_ROOT/kernel/include" "$LT_WORK/src/kernel/"
make -C "/lib/modules/$KVER/build" M="$LT_WORK/src/kernel/module" modules \
	> "$LT_WORK/module-build.log" 2>&1 || {
	cat "$LT_WORK/module-build.log"
	lt_fail "the module does not build against $KVER"
}
KO=$LT_WORK/src/kernel/module/latencytop_probes.ko
lt_log "built $(basename "$KO")"

# Modules the guest needs, in load order; insmod wants them uncompressed.
mkdir -p "$LT_WORK/ko"
: > "$LT_WORK/modules.list"
for m in virtio_pci virtio_blk ext4; do modprobe --show-depends -S "$KVER" "$m"; done |
	awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' | while read -r m; do
	case $m in
	*.ko.xz) xz -dc "$m" > "$LT_WORK/ko/$(basename "$m" .xz)"; m=$LT_WORK/ko/$(basename "$m" .xz) ;;
	*.ko.zst) zstd -qdc "$m" > "$LT_WORK/ko/$(basename "$m" .zst)"; m=$LT_WORK/ko/$(basename "$m" .zst) ;;
	*.ko.gz) gzip -dc "$m" > "$LT_WORK/ko/$(basename "$m" .gz)"; m=$LT_WORK/ko/$(basename "$m" .gz) ;;
	esac
	echo "$m" >> "$LT_WORK/modules.list"
done
[ -s "$LT_WORK/modules.list" ] || lt_fail "cannot resolve the guest's modules"

cat > "$LT_WORK/config" <<EOF
LT_MODULE=latencytop_probes.ko
LT_MODULE_PARAMS=${LT_MODULE_PARAMS:-}
LT_SLIM_KALLSYMS=1
LT_RECORD_ARGS="$(lt_record_args)"
LT_HANG_AFTER=${LT_HANG_AFTER:-150}
EOF

lt_build_workload "$LT_WORK/lt-workload"
lt_make_initramfs "$LT_WORK/initramfs.cpio.gz" "$LT_WORK/config" \
	"$LT_WORK/modules.list" "$KO"
lt_run_qemu "$KIMG" "$LT_WORK/initramfs.cpio.gz"

lt_log "module messages:"
sed 's/^/    /' "$LT_WORK/out/module.log"
grep -q 'module unloaded' "$LT_WORK/console.log" ||
	lt_fail "the module did not unload cleanly"
grep -q 'slept across the unload returned' "$LT_WORK/console.log" ||
	lt_fail "tasks sleeping in probed functions did not survive the unload"
if grep -qE 'BUG:|WARNING:|Oops|Call Trace' "$LT_WORK/out/dmesg.log"; then
	grep -E -A5 'BUG:|WARNING:|Oops' "$LT_WORK/out/dmesg.log"
	lt_fail "the guest kernel complained"
fi

[ -n "${LT_SAMPLE_OUT:-}" ] && cp "$LT_WORK/out/trace.dat" "$LT_SAMPLE_OUT"
lt_check_trace "$LT_WORK/out/trace.dat" "$ANALYZER" "$PLUGIN_DIR"
