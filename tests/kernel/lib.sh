# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared helpers of the qemu end-to-end tests (sourced by run-*.sh).
#
# Results of a run land in $LT_WORK (default: a directory under the build
# tree, given by the caller): console.log, initramfs, disks and the files
# the guest wrote (trace.dat, record.log, dmesg.log, ...) in $LT_WORK/out.

LT_SKIP=77
LT_KERNEL_DIR=${LT_KERNEL_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}
LT_SRC_ROOT=${LT_SRC_ROOT:-$(cd "$LT_KERNEL_DIR/../.." && pwd)}
LT_QEMU_TIMEOUT=${LT_QEMU_TIMEOUT:-420}

lt_log() { echo "[$(date +%H:%M:%S)] $*"; }
lt_fail() { echo "FAILED: $*" >&2; exit 1; }
lt_skip() { echo "SKIPPED: $*"; exit $LT_SKIP; }

# lt_need_cmds CMD... - skip the test unless every command is available.
lt_need_cmds() {
	local c missing=
	for c in "$@"; do
		command -v "$c" > /dev/null 2>&1 || missing="$missing $c"
	done
	[ -z "$missing" ] ||
		lt_skip "missing:$missing (scripts/kernel-test-deps.sh installs them)"
}

lt_check_host() {
	lt_need_cmds qemu-system-x86_64 busybox trace-cmd python3 cc make \
		mkfs.ext4 tar timeout truncate ldd
	[ "$(uname -m)" = x86_64 ] || lt_skip "the guest is x86_64 only"
}

# lt_debian_kernel [SERIES] - print the version of the kernel to test: the
# one linux-image-SERIES-amd64 or linux-image-amd64 depends on, else the
# newest that has its image, headers and modules installed, or nothing.
# With SERIES ("6.12"), only versions of that series.
lt_debian_kernel() {
	local series=${1:-} img v meta best=
	if [ -n "${LT_KERNEL_VERSION:-}" ]; then
		echo "$LT_KERNEL_VERSION"
		return
	fi
	for meta in ${series:+linux-image-$series-amd64} linux-image-amd64; do
		v=$(dpkg-query -W -f '${Depends}' "$meta" 2> /dev/null |
			sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
		[ -z "$series" ] || case $v in "$series".*) ;; *) continue ;; esac
		if [ -n "$v" ] && [ -f "/boot/vmlinuz-$v" ] &&
		   [ -f "/lib/modules/$v/build/Makefile" ]; then
			echo "$v"
			return
		fi
	done
	for img in /boot/vmlinuz-"$series"*; do
		[ -e "$img" ] || continue
		v=${img#/boot/vmlinuz-}
		[ -z "$series" ] || case $v in "$series".*) ;; *) continue ;; esac
		[ -f "/lib/modules/$v/build/Makefile" ] || continue
		[ -f "/lib/modules/$v/modules.dep" ] || continue
		best=$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -n 1)
	done
	echo "$best"
}

# lt_series_version SERIES - check a kernel series name ("6.1", "6.12").
lt_series_version() {
	case $1 in
	[0-9]*.[0-9]*) [ -f "$LT_SRC_ROOT/kernel/patches/$1/series" ] && return 0 ;;
	esac
	echo "unknown kernel series '$1' (kernel/patches/<series>/series)" >&2
	exit 2
}

# lt_source_tarball SERIES - set LT_TARBALL to Debian's linux-source
# tarball of a series ($LT_LINUX_SOURCE overrides it), or skip the test.
lt_source_tarball() {
	local f
	if [ -n "${LT_LINUX_SOURCE:-}" ]; then
		[ -r "$LT_LINUX_SOURCE" ] || lt_skip "cannot read $LT_LINUX_SOURCE"
		# shellcheck disable=SC2034 # for the caller
		LT_TARBALL=$LT_LINUX_SOURCE
		return
	fi
	for f in /usr/src/linux-source-"$1".tar.*; do
		# shellcheck disable=SC2034 # for the caller
		[ -r "$f" ] && { LT_TARBALL=$f; return; }
	done
	lt_skip "no /usr/src/linux-source-$1.tar.xz (install linux-source-$1)"
}

# lt_series_patches SERIES - the series' patch files, in order, one a line.
lt_series_patches() {
	local dir=$LT_SRC_ROOT/kernel/patches/$1 p
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		echo "$dir/$p"
	done < "$dir/series"
}

# lt_pristine_tree TARBALL - unpack the tarball once into $LT_SOURCES
# (shared by the tests of one build directory: checkpatch, the per-patch
# build and the patched kernel) and set LT_PRISTINE to the directory.
# Trees are never patched in place: lt_tree_copy gives each test its own.
LT_SOURCES=${LT_SOURCES:-}
lt_pristine_tree() {
	local tar=$1 sum dir
	[ -n "$LT_SOURCES" ] || LT_SOURCES=$LT_WORK/sources
	mkdir -p "$LT_SOURCES" || lt_fail "cannot create $LT_SOURCES"
	sum=$(sha256sum "$tar" | cut -c1-16)
	dir=$LT_SOURCES/$(basename "$tar" | sed 's/\.tar\..*//')
	(
		# ctest -j: one unpack, the others wait for it
		flock 9
		if [ "$(cat "$dir.stamp" 2> /dev/null)" != "$sum" ] ||
		   [ ! -f "$dir/Makefile" ]; then
			rm -rf "$dir" "$dir.stamp"
			mkdir -p "$dir"
			lt_log "unpacking $(basename "$tar") into $LT_SOURCES"
			tar -xf "$tar" -C "$dir" --strip-components=1 ||
				{ rm -rf "$dir"; exit 1; }
			echo "$sum" > "$dir.stamp"
		fi
	) 9> "$dir.lock" || lt_fail "cannot unpack $tar"
	# shellcheck disable=SC2034 # for the caller
	LT_PRISTINE=$dir
}

# lt_tree_copy SRC DST - a private copy of a pristine tree, hard-linked:
# patch(1) writes a new file and renames it, so the links break on the
# files a series changes and the shared tree stays pristine.
lt_tree_copy() {
	rm -rf "$2"
	cp -al "$1" "$2" 2> /dev/null || cp -a "$1" "$2" ||
		lt_fail "cannot copy $1 to $2"
}

# lt_tiny_config TREE BUILD FRAGMENT... - tinyconfig + the fragments in
# BUILD; fails if a "=y" of the fragments did not stick.  Log in
# $LT_WORK/config.log.
lt_tiny_config() {
	local tree=$1 build=$2 opt frag
	shift 2
	mkdir -p "$build"
	# shellcheck disable=SC2015 # any step failing fails the test
	make -s -C "$tree" O="$build" ARCH=x86_64 tinyconfig > "$LT_WORK/config.log" 2>&1 &&
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$build" \
		"$build/.config" "$@" >> "$LT_WORK/config.log" 2>&1 &&
	make -s -C "$tree" O="$build" ARCH=x86_64 olddefconfig >> "$LT_WORK/config.log" 2>&1 ||
		lt_fail "cannot configure the kernel (see $LT_WORK/config.log)"
	for frag in "$@"; do
		grep -o '^CONFIG_[A-Z0-9_]*=y' "$frag" | while read -r opt; do
			grep -qx "$opt" "$build/.config" || lt_fail "$opt did not stick"
		done || exit 1
	done
}

# lt_build_workload OUT - the static workload helper for the guest.
lt_build_workload() {
	cc -static -O2 -Wall -pthread -o "$1" "$LT_KERNEL_DIR/lt-workload.c" ||
		lt_skip "cannot link a static binary (libc6-dev missing?)"
}

# lt_spec_binary SPEC FILE DEST - add a binary and its shared libraries.
lt_spec_binary() {
	local spec=$1 bin=$2 dest=$3 lib
	echo "file $dest $bin 0755" >> "$spec"
	# ldd prints "name => /path (addr)" and "/lib64/ld-linux... (addr)".
	ldd "$bin" 2> /dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }' | while read -r lib; do
		echo "file $lib $(readlink -f "$lib") 0755"
	done >> "$spec"
}

# lt_make_initramfs OUT CONFIG [MODULES_LIST] [MODULE_KO]
#   CONFIG is copied to /etc/lt/config, MODULES_LIST (lines "host-path
#   [args]") is loaded in order at boot, MODULE_KO goes to /lib/lt.
#   LT_GUEST_INIT replaces guest-init.sh as /init; LT_EXTRA_SPEC names a
#   file of more mkinitramfs.py lines; $LT_WORK/lt-workload goes in when
#   it was built.
lt_make_initramfs() {
	local out=$1 config=$2 modules=${3:-} ko=${4:-}
	local spec=$out.spec applet bb ko_host args

	bb=$(command -v busybox)
	{
		echo "dir dev 0755"
		echo "nod dev/console 0600 c 5 1"
		echo "nod dev/null 0666 c 1 3"
		for d in bin sbin usr/bin usr/sbin proc sys tmp mnt root etc/lt lib/lt; do
			echo "dir $d 0755"
		done
		echo "file init ${LT_GUEST_INIT:-$LT_KERNEL_DIR/guest-init.sh} 0755"
		echo "file etc/lt/workload.sh $LT_KERNEL_DIR/workload.sh 0644"
		echo "file etc/lt/config $config 0644"
		[ -e "$LT_WORK/lt-workload" ] &&
			echo "file bin/lt-workload $LT_WORK/lt-workload 0755"
		[ -n "${LT_EXTRA_SPEC:-}" ] && cat "$LT_EXTRA_SPEC"
	} > "$spec"
	lt_spec_binary "$spec" "$bb" bin/busybox
	for applet in $(busybox --list); do
		[ "$applet" = busybox ] && continue
		echo "slink bin/$applet busybox" >> "$spec"
	done
	lt_spec_binary "$spec" "$(command -v trace-cmd)" usr/bin/trace-cmd
	if [ -n "$modules" ]; then
		: > "$LT_WORK/modules.guest"
		while read -r ko_host args; do
			[ -n "$ko_host" ] || continue
			echo "file lib/lt/modules/${ko_host##*/} $ko_host 0644" >> "$spec"
			echo "/lib/lt/modules/${ko_host##*/} $args" >> "$LT_WORK/modules.guest"
		done < "$modules"
		echo "file etc/lt/modules $LT_WORK/modules.guest 0644" >> "$spec"
	fi
	[ -n "$ko" ] && echo "file lib/lt/$(basename "$ko") $ko 0644" >> "$spec"
	# The same library can be listed twice (busybox, trace-cmd).
	awk '!seen[$0]++' "$spec" > "$spec.tmp" && mv "$spec.tmp" "$spec"
	python3 "$LT_KERNEL_DIR/mkinitramfs.py" "$spec" "$out" ||
		lt_fail "cannot write $out"
}

# A soft lockup this long on the guest's console: it is not coming back.
LT_LOCKUP_SECS=${LT_LOCKUP_SECS:-40}
LT_QEMU_RETRIES=${LT_QEMU_RETRIES:-1}
LT_LOCKED_UP=200	# lt_boot_qemu's own: timeout returns 124-127, 137

# lt_guest_locked_up - whether the console reports a soft lockup of at
# least $LT_LOCKUP_SECS s.
lt_guest_locked_up() {
	grep -oE 'soft lockup - CPU#[0-9]+ stuck for [0-9]+s' \
		"$LT_WORK/console.log" 2>/dev/null |
		awk -v min="$LT_LOCKUP_SECS" \
			'{ s = $NF; sub("s$", "", s); if (s + 0 >= min) f = 1 }
			 END { exit !f }'
}

# lt_boot_qemu KERNEL INITRD - one boot, until the guest powers off, times
# out (124, 137) or locks up ($LT_LOCKED_UP: stopped once its console says
# so, some 60-80 s into a run, so that a second boot still fits the tests'
# ctest TIMEOUT).
lt_boot_qemu() {
	local kernel=$1 initrd=$2 pid rc

	rm -f "$LT_WORK/work.img" "$LT_WORK/out.img" "$LT_WORK/console.log"
	truncate -s 128M "$LT_WORK/work.img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
		"$LT_WORK/work.img" || lt_fail "mkfs.ext4 failed"
	truncate -s 64M "$LT_WORK/out.img"
	# loglevel 5: a lockup's backtraces (all CPUs') reach the console
	timeout --kill-after=10 "$LT_QEMU_TIMEOUT" qemu-system-x86_64 \
		-accel tcg -smp 2 -m 1024 \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic schedstats=enable loglevel=5 softlockup_all_cpu_backtrace=1 ${LT_APPEND:-}" \
		-drive "file=$LT_WORK/work.img,format=raw,if=virtio" \
		-drive "file=$LT_WORK/out.img,format=raw,if=virtio" \
		-display none -monitor none -serial "file:$LT_WORK/console.log" \
		-nic none -no-reboot < /dev/null &
	pid=$!
	# a test stopped meanwhile (ctest's TIMEOUT, ^C) takes qemu with it
	# shellcheck disable=SC2064 # the pid now: $pid is local
	trap "kill $pid 2> /dev/null" EXIT
	trap 'exit 143' TERM INT
	while kill -0 "$pid" 2> /dev/null; do
		sleep 1
		if lt_guest_locked_up; then
			sleep 5		# the backtraces
			kill "$pid" 2> /dev/null
			wait "$pid"
			trap - EXIT TERM INT
			return $LT_LOCKED_UP
		fi
	done
	wait "$pid"
	rc=$?
	trap - EXIT TERM INT
	return $rc
}

# lt_run_qemu KERNEL INITRD - boot, wait for the guest to power off, and
# unpack what it wrote into $LT_WORK/out.  Returns non-zero on failure.
#
# Under TCG the guest once hung until the timeout with nothing to show
# (loglevel 4 hid the backtraces), and once (2026-12-05, Debian's 6.1 and
# the module) locked up as the recording began: CPU 0 stuck in trace-cmd,
# CPU 1 taking no timer interrupt; the next run, of the same commit,
# passed.  So a lockup is booted once more ($LT_QEMU_RETRIES), loudly,
# with its console kept and its backtraces printed; twice is a failure.
lt_run_qemu() {
	local kernel=$1 initrd=$2 t0 rc try=0

	rm -rf "$LT_WORK/out" && mkdir -p "$LT_WORK/out"
	while :; do
		t0=$(date +%s)
		lt_log "booting $(basename "$kernel") under qemu (TCG), timeout ${LT_QEMU_TIMEOUT}s"
		lt_boot_qemu "$kernel" "$initrd"
		rc=$?
		if [ $rc -eq $LT_LOCKED_UP ]; then
			lt_log "qemu stopped after $(($(date +%s) - t0)) s: the guest locked up"
		else
			lt_log "qemu exited with $rc after $(($(date +%s) - t0)) s"
		fi
		grep '^LT:' "$LT_WORK/console.log" | sed 's/^/    guest /'
		# where the guest's tasks waited, if the recording hung (guest-init.sh)
		grep '^LT-HANG:' "$LT_WORK/console.log" | head -n 400
		[ $rc -eq $LT_LOCKED_UP ] || break
		try=$((try + 1))
		cp "$LT_WORK/console.log" "$LT_WORK/console-lockup-$try.log"
		grep -E -A40 'soft lockup|self-detected stall' "$LT_WORK/console.log" |
			head -n 120 | sed 's/^/    lockup: /'
		[ $try -le "$LT_QEMU_RETRIES" ] ||
			lt_fail "the guest locked up in $try of $try boots (consoles: $LT_WORK/console-lockup-*.log)"
		echo "WARNING: the guest locked up (above; console kept in" \
			"$LT_WORK/console-lockup-$try.log): booting it again"
	done
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		tail -n 30 "$LT_WORK/console.log"
		lt_fail "qemu timed out"
	fi
	grep -q '^LT: done 0' "$LT_WORK/console.log" || {
		tail -n 40 "$LT_WORK/console.log"
		lt_fail "the guest did not finish its run"
	}
	tar -xf "$LT_WORK/out.img" -C "$LT_WORK/out" ||
		lt_fail "cannot unpack the output disk"
	[ "$(cat "$LT_WORK/out/record.rc")" = 0 ] || {
		cat "$LT_WORK/out/record.log"
		lt_fail "trace-cmd record failed in the guest"
	}
	[ -s "$LT_WORK/out/trace.dat" ] || lt_fail "no trace.dat"
	lt_log "trace.dat: $(stat -c %s "$LT_WORK/out/trace.dat") bytes"
}

# lt_check_trace TRACE [ANALYZER] [PLUGIN_DIR] - the checks of both tests.
lt_check_trace() {
	local args=()
	[ -n "${2:-}" ] && args+=(--analyzer "$2")
	[ -n "${3:-}" ] && args+=(--plugin-dir "$3")
	python3 "$LT_KERNEL_DIR/check-trace.py" "${args[@]}" "$1"
}

# lt_record_args - the trace-cmd record line used in the guest.
lt_record_args() {
	echo "-e latencytop -e sched_stat_sleep -e sched_stat_blocked" \
		"-e sched_stat_iowait -e sched_switch -e sched_wakeup" \
		"-e sched_wakeup_new -e sched_process_fork -e sched_process_exec" \
		"-e sched_process_exit -e task_newtask -T -b 4096"
}
