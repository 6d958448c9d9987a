#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bisectability of kernel/patches/<series>/: apply the patches one at a
# time to Debian's linux-source-<series> and, at every step, compile with
# -Werror the objects the patch touches:
#
#   step 0    the unpatched tree: every object the series touches (so a
#             failure later is the series', not the environment's)
#   patch 1   kernel/latencytop_events.o, CONFIG_LATENCYTOP_EVENTS=y, and
#             again every object the series touches: <linux/latencytop.h>
#             is included by <linux/sched.h>, so by all of them
#   patch k   the objects of the .c files patch k changes
#   off       all of them but kernel/latencytop_events.o again, with
#             CONFIG_LATENCYTOP_EVENTS=n where annotations compile to nothing
#
# The configuration is the end-to-end test's (tinyconfig +
# kernel/configs/qemu-tiny.config) plus what reaches the annotations' #if
# branches: IA32_EMULATION (sys_futex_time32) and DEBUG_LOCK_ALLOC (the
# mutex lock's name as argument).  Each object is checked to have been
# compiled at that step.  Linking the whole kernel with the full series
# is the end-to-end test's (run-patched-test.sh).
#
# usage: run-series-build.sh [-s SERIES] WORKDIR
#
# Exits 77 (skipped) without the source package or the build tools.
# About 2-4 minutes on two cores.  LT_SOURCES shares the unpacked tree.

set -u
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

SERIES=6.1
if [ "${1:-}" = -s ]; then
	SERIES=${2:-}
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: $0 [-s SERIES] WORKDIR"; exit 2; }
lt_series_version "$SERIES"
LT_WORK=$1
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)

lt_need_cmds gcc make bison flex bc xz patch perl sha256sum flock
[ -e /usr/include/libelf.h ] || [ -e /usr/include/gelf.h ] ||
	lt_skip "libelf-dev is needed for objtool"
[ -e /usr/include/openssl/opensslv.h ] ||
	lt_skip "libssl-dev is needed by the kernel build"
lt_source_tarball "$SERIES"
mapfile -t PATCHES < <(lt_series_patches "$SERIES")
[ ${#PATCHES[@]} -gt 1 ] || lt_fail "kernel/patches/$SERIES lists no patches"

TREE=$LT_WORK/linux
BUILD=$LT_WORK/build
JOBS=$(nproc)
lt_pristine_tree "$LT_TARBALL"
# Always from scratch: objects of an earlier run would look newer than
# the pristine sources and be taken as up to date.
rm -rf "$BUILD"
lt_tree_copy "$LT_PRISTINE" "$TREE"

# The end-to-end fragment without CONFIG_LATENCYTOP_EVENTS, which does
# not exist before patch 1, plus the #if branches of the annotations.
grep -v '^CONFIG_LATENCYTOP_EVENTS=' "$LT_SRC_ROOT/kernel/configs/qemu-tiny.config" \
	> "$LT_WORK/base.config"
cat > "$LT_WORK/branches.config" <<'EOF'
CONFIG_IA32_EMULATION=y
CONFIG_COMPAT_32BIT_TIME=y
CONFIG_DEBUG_LOCK_ALLOC=y
EOF
lt_tiny_config "$TREE" "$BUILD" "$LT_WORK/base.config" "$LT_WORK/branches.config"

# objects_of PATCH - the objects of the .c files a patch changes or adds
objects_of() {
	sed -n 's|^diff --git a/.* b/\(.*\)\.c$|\1.o|p' "$1"
}
mapfile -t ALL < <(for p in "${PATCHES[@]}"; do objects_of "$p"; done | sort -u)

# set_events y|n - CONFIG_LATENCYTOP_EVENTS, checked in the result
set_events() {
	local op=-d
	[ "$1" = y ] && op=-e
	if ! "$TREE/scripts/config" --file "$BUILD/.config" $op LATENCYTOP_EVENTS ||
	   ! make -s -C "$TREE" O="$BUILD" ARCH=x86_64 olddefconfig >> "$LT_WORK/config.log" 2>&1; then
		lt_fail "cannot set CONFIG_LATENCYTOP_EVENTS=$1"
	fi
	if [ "$1" = y ]; then
		grep -qx 'CONFIG_LATENCYTOP_EVENTS=y' "$BUILD/.config"
	else
		! grep -q '^CONFIG_LATENCYTOP_EVENTS=y' "$BUILD/.config"
	fi || lt_fail "CONFIG_LATENCYTOP_EVENTS=$1 did not stick"
}

# compile STEP OBJECT... - compile with -Werror; each object must have been
# (re)built now.  A failure names the step: the patch that broke the build.
compile() {
	local step=$1 o t0 log=$LT_WORK/step-$1.log stale=
	shift
	t0=$(date +%s)
	touch "$LT_WORK/step.stamp"
	sleep 1		# mtimes have a one-second granularity on some filesystems
	make -C "$TREE" O="$BUILD" ARCH=x86_64 -j"$JOBS" KCFLAGS=-Werror "$@" \
		> "$log" 2>&1 || {
		grep -E -B2 -A8 'error:|Error [0-9]' "$log" | head -n 60
		lt_fail "step $step: $* do not compile (see $log)"
	}
	for o in "$@"; do
		[ "$BUILD/$o" -nt "$LT_WORK/step.stamp" ] || stale="$stale $o"
	done
	[ -z "$stale" ] || lt_fail "step $step: not compiled by this step:$stale"
	printf '%-8s %3d objects %4d s  %s\n' "$step" $# $(($(date +%s) - t0)) "$*" |
		cut -c1-160
}

t0=$(date +%s)
lt_log "kernel/patches/$SERIES: ${#PATCHES[@]} patches, ${#ALL[@]} objects, $JOBS jobs"
make -s -C "$TREE" O="$BUILD" ARCH=x86_64 -j"$JOBS" prepare > "$LT_WORK/prepare.log" 2>&1 ||
	lt_fail "make prepare failed (see $LT_WORK/prepare.log)"
lt_log "prepared in $(($(date +%s) - t0)) s"
# the objects whose source the unpatched tree has (not the series' new files)
mapfile -t OLD < <(for o in "${ALL[@]}"; do [ -f "$TREE/${o%.o}.c" ] && echo "$o"; done)
compile base "${OLD[@]}"

k=0
for p in "${PATCHES[@]}"; do
	k=$((k + 1))
	patch -d "$TREE" -p1 --batch --forward --quiet < "$p" ||
		lt_fail "patch $k ($(basename "$p")) does not apply"
	mapfile -t objs < <(objects_of "$p")
	[ ${#objs[@]} -gt 0 ] || lt_fail "patch $k touches no .c file"
	if [ $k -eq 1 ]; then
		set_events y
		mapfile -t objs < <(printf '%s\n' "${objs[@]}" "${OLD[@]}" | sort -u)
	fi
	compile "patch-$k" "${objs[@]}"
done

# kernel/latencytop_events.o is not built without the option
set_events n
compile off "${OLD[@]}"
lt_log "every step of kernel/patches/$SERIES compiles ($(($(date +%s) - t0)) s)"
