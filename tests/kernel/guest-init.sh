#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test initramfs (busybox sh).  Loads the modules listed in
# /etc/lt/modules, mounts the work disk (/dev/vda, ext4), optionally loads
# the latencytop kprobe module, records the workload with trace-cmd and
# writes the results as a tar archive onto the raw output disk (/dev/vdb).
# Lines starting with "LT:" on the console tell the host what happened.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
umask 022

msg() { echo "LT: $*"; }

finish() {
	msg "done $1"
	sync
	reboot -f
	sleep 10
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /tmp/out /mnt

# shellcheck source=/dev/null
. /etc/lt/config

if [ -f /etc/lt/modules ]; then
	while read -r ko args; do
		# shellcheck disable=SC2086 # $args are module parameters
		err=$(insmod "$ko" $args 2>&1) ||
			msg "insmod $(basename "$ko") failed (ignored): $err"
	done < /etc/lt/modules
fi

mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null ||
	mount -t debugfs debugfs /sys/kernel/debug
if [ -w /proc/sys/kernel/sched_schedstats ]; then
	echo 1 > /proc/sys/kernel/sched_schedstats
fi
msg "kernel $(uname -r) cpus $(nproc)"

i=0
while [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; do
	i=$((i + 1))
	[ $i -gt 50 ] && { msg "no virtio disks"; finish 1; }
	sleep 0.1
done

mount -t ext4 /dev/vda /mnt || { msg "cannot mount /dev/vda"; finish 1; }
# A file for the page fault workload, then a remount so that it is cold.
dd if=/dev/zero of=/mnt/big.dat bs=64k count=64 2>/dev/null
umount /mnt || finish 1
mount -t ext4 /dev/vda /mnt || finish 1

if [ -n "$LT_MODULE" ]; then
	# shellcheck disable=SC2086 # module parameters
	insmod /lib/lt/"$LT_MODULE" $LT_MODULE_PARAMS ||
		{ msg "insmod $LT_MODULE failed"; finish 1; }
	msg "module loaded: $(cat /sys/module/latencytop_probes/parameters/probes 2>/dev/null)"
fi

if [ ! -d /sys/kernel/tracing/events/latencytop ]; then
	msg "no latencytop events in tracefs"
	finish 1
fi

# trace-cmd saves /proc/kallsyms in the file; keep the text symbols only so
# that the sample stays small (stack traces only need functions).
if [ -n "$LT_SLIM_KALLSYMS" ]; then
	grep ' [tTwW] ' /proc/kallsyms > /tmp/kallsyms
	mount --bind /tmp/kallsyms /proc/kallsyms ||
		msg "cannot bind-mount the slim kallsyms (ignored)"
fi

# The recording takes 10-20 s.  Once it hung until the host's qemu timeout
# with nothing to go on: if it runs this long, show where each task waits.
hang_report() {
	sleep "$1"
	msg "recording still running after $1 s: where each task waits (LT-HANG)"
	for p in /proc/[0-9]*; do
		state=$(sed -n 's/^State:[[:space:]]*//p' "$p/status" 2>/dev/null)
		# gone meanwhile, or an idle kernel worker
		case "$state" in "" | I*) continue ;; esac
		echo "LT-HANG: ${p#/proc/} $(cat "$p/comm" 2>/dev/null)" \
			"state $state wchan $(cat "$p/wchan" 2>/dev/null)"
		sed 's/^/LT-HANG:     /' "$p/stack" 2>/dev/null
	done
	dmesg | tail -n 20 | sed 's/^/LT-HANG: dmesg: /'
}

msg "recording"
cd /tmp/out || finish 1
start=$(cat /proc/uptime)
hang_report "${LT_HANG_AFTER:-150}" &
watchdog=$!
# shellcheck disable=SC2086
trace-cmd record -o /tmp/out/trace.dat $LT_RECORD_ARGS \
	sh /etc/lt/workload.sh > /tmp/out/record.log 2>&1
rc=$?
kill "$watchdog" 2>/dev/null
msg "trace-cmd record exit $rc after $(awk -v s="${start%% *}" '{ printf "%.1f", $1 - s }' /proc/uptime) s"
[ -n "$LT_SLIM_KALLSYMS" ] && umount /proc/kallsyms 2>/dev/null

if [ -n "$LT_MODULE" ]; then
	# Unload while tasks sleep inside probed functions (pipe_read(),
	# hrtimer_nanosleep(), do_wait() of this shell): they must return
	# through the kretprobe trampoline after the module is gone.
	mkfifo /tmp/fifo
	cat /tmp/fifo > /dev/null &
	sleep 1 &
	sleep 0.2
	if rmmod latencytop_probes; then
		msg "module unloaded"
	else
		msg "rmmod latencytop_probes failed"
	fi
	echo bye > /tmp/fifo
	wait
	msg "tasks that slept across the unload returned"
	dmesg | grep latencytop_probes > /tmp/out/module.log
fi
dmesg > /tmp/out/dmesg.log
echo "$rc" > /tmp/out/record.rc
umount /mnt

(cd /tmp/out && tar cf /dev/vdb .) || { msg "cannot write /dev/vdb"; finish 1; }
finish 0
