#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end test of an annotation patch series:
#
#   unpack Debian's linux-source-<series>, apply kernel/patches/<series>/,
#   build a minimal kernel (tinyconfig + kernel/configs/qemu-tiny.config),
#   boot it under qemu (TCG) with the busybox/trace-cmd initramfs, record
#   the workload and check the trace (tests/kernel/check-trace.py).
#
# usage: run-patched-test.sh [-s SERIES] WORKDIR [LATENCY_ANALYZE] [PLUGIN_DIR]
#
# SERIES is 6.1 (the default) or 6.12.  The kernel build (5-10 minutes on
# two cores) is kept in WORKDIR and reused while the tarball, the patches
# and the config fragment are unchanged.  Exits 77 (skipped) when the
# source package, compiler or qemu are missing.  LT_LINUX_SOURCE names
# another tarball; LT_SOURCES a directory of unpacked trees shared with
# the other tests; LT_SAMPLE_OUT=FILE keeps a copy of the trace;
# LT_BUILD_ONLY=1 stops after the build (tests/kernel/overhead uses it).

set -u
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

SERIES=6.1
if [ "${1:-}" = -s ]; then
	SERIES=${2:-}
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [-s SERIES] WORKDIR [LATENCY_ANALYZE] [PLUGIN_DIR]"; exit 2; }
lt_series_version "$SERIES"
LT_WORK=$1
ANALYZER=${2:-}
PLUGIN_DIR=${3:-}
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)

lt_check_host
lt_need_cmds gcc bison flex bc xz patch perl sha256sum flock
lt_source_tarball "$SERIES"
[ -e /usr/include/libelf.h ] || [ -e /usr/include/gelf.h ] ||
	lt_skip "libelf-dev is needed for objtool"
[ -e /usr/include/openssl/opensslv.h ] ||
	lt_skip "libssl-dev is needed by the kernel build"

mapfile -t PATCHES < <(lt_series_patches "$SERIES")
FRAGMENT=$LT_SRC_ROOT/kernel/configs/qemu-tiny.config
STAMP=$( (sha256sum "$LT_TARBALL" | cut -d' ' -f1; cat "${PATCHES[@]}" "$FRAGMENT") |
	sha256sum | cut -c1-16)
TREE=$LT_WORK/linux
BUILD=$LT_WORK/build
KIMG=$BUILD/arch/x86/boot/bzImage

if [ "$(cat "$LT_WORK/stamp" 2> /dev/null)" != "$STAMP" ] || [ ! -s "$KIMG" ]; then
	rm -rf "$TREE" "$BUILD" "$LT_WORK/stamp"
	lt_pristine_tree "$LT_TARBALL"
	lt_tree_copy "$LT_PRISTINE" "$TREE"
	for p in "${PATCHES[@]}"; do
		patch -d "$TREE" -p1 --batch --forward --quiet < "$p" ||
			lt_fail "$(basename "$p") does not apply"
	done
	lt_log "applied the ${#PATCHES[@]} patches of kernel/patches/$SERIES"

	lt_tiny_config "$TREE" "$BUILD" "$FRAGMENT"

	t0=$(date +%s)
	lt_log "building bzImage with $(nproc) jobs (5-10 minutes)"
	make -C "$TREE" O="$BUILD" ARCH=x86_64 -j"$(nproc)" bzImage \
		> "$LT_WORK/build.log" 2>&1 || {
		grep -E -B2 -A8 'error:|Error [0-9]' "$LT_WORK/build.log" | head -n 60
		lt_fail "the patched kernel does not build"
	}
	lt_log "built in $(($(date +%s) - t0)) s"
	if grep -E 'warning:' "$LT_WORK/build.log" | grep -qE 'latencytop|latency_'; then
		grep -E 'warning:' "$LT_WORK/build.log" | grep -E 'latencytop|latency_'
		lt_fail "the patches add build warnings"
	fi
	echo "$STAMP" > "$LT_WORK/stamp"
else
	lt_log "reusing the kernel built in $BUILD"
fi
[ -n "${LT_BUILD_ONLY:-}" ] && exit 0

cat > "$LT_WORK/config" <<EOF
LT_MODULE=
LT_SLIM_KALLSYMS=
LT_RECORD_ARGS="$(lt_record_args)"
LT_HANG_AFTER=${LT_HANG_AFTER:-150}
EOF

lt_build_workload "$LT_WORK/lt-workload"
lt_make_initramfs "$LT_WORK/initramfs.cpio.gz" "$LT_WORK/config"
lt_run_qemu "$KIMG" "$LT_WORK/initramfs.cpio.gz"
if grep -qE 'BUG:|WARNING:|Oops|Call Trace' "$LT_WORK/out/dmesg.log"; then
	grep -E -A5 'BUG:|WARNING:|Oops' "$LT_WORK/out/dmesg.log"
	lt_fail "the guest kernel complained"
fi

[ -n "${LT_SAMPLE_OUT:-}" ] && cp "$LT_WORK/out/trace.dat" "$LT_SAMPLE_OUT"
lt_check_trace "$LT_WORK/out/trace.dat" "$ANALYZER" "$PLUGIN_DIR"
