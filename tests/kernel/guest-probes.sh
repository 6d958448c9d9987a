#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the probes test's initramfs (run-probes-test.sh; busybox sh).
# Laid over the usual one (guest-init.sh's modules, disks and workload):
# no module, no patch, the latencytop events from kprobe events instead.
#
#   a user's own kprobe event first (remove must leave it)
#   dynamic_events -> dyn-before.txt
#   latency-record doctor                  -> doctor.out (kprobes, no probes)
#   latency-record probes install (twice: the second adds nothing)
#   latency-record -S --stacks=all -- sh workload.sh -> record.dat (schedstats off
#                                              before, on during, off after)
#   trace-cmd record -e latencytop ... sh workload.sh   -> trace.dat
#   latency-analyze --live --save live.dat (SIGINT after sh workload.sh)
#                                           -> live.json, live.dat
#   latency-record probes list, remove      -> dyn-after.txt
#
# Lines starting with "LT:" tell the host what happened; the results go
# as a tar onto the raw output disk.

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
O=/tmp/out

# shellcheck source=/dev/null
. /etc/lt/config

if [ -f /etc/lt/modules ]; then
	while read -r ko args; do
		# shellcheck disable=SC2086 # $args are module parameters
		err=$(insmod "$ko" $args 2>&1) ||
			msg "insmod $(basename "$ko") failed (ignored): $err"
	done < /etc/lt/modules
fi

mount -t tracefs tracefs /sys/kernel/tracing ||
	{ msg "cannot mount tracefs"; finish 1; }
T=/sys/kernel/tracing
[ -w /proc/sys/kernel/sched_schedstats ] && echo 1 > /proc/sys/kernel/sched_schedstats
msg "kernel $(uname -r) cpus $(nproc)"

i=0
while [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; do
	i=$((i + 1))
	[ $i -gt 50 ] && { msg "no virtio disks"; finish 1; }
	sleep 0.1
done
mount -t ext4 /dev/vda /mnt || { msg "cannot mount /dev/vda"; finish 1; }
dd if=/dev/zero of=/mnt/big.dat bs=64k count=64 2>/dev/null
umount /mnt || finish 1
mount -t ext4 /dev/vda /mnt || finish 1

# the user's own dynamic event, which the probes must leave alone
echo 'p:myprobes/user_openat do_sys_openat2' >> $T/kprobe_events ||
	msg "cannot add the user's own kprobe (ignored)"
cat $T/dynamic_events > $O/dyn-before.txt

# kprobe events here, no probes yet: the hints must name probes install
latency-record doctor > $O/doctor.out 2>&1
echo $? > $O/doctor.rc
latency-record probes install > $O/install.out 2> $O/install.err
echo $? > $O/install.rc
cat $T/dynamic_events > $O/dyn-installed.txt
latency-record probes install > $O/install2.out 2> $O/install2.err
echo $? > $O/install2.rc
cat $T/dynamic_events > $O/dyn-installed2.txt
msg "probes installed: $(grep -c latencytop/ $O/dyn-installed.txt) probe points (rc $(cat $O/install.rc), again rc $(cat $O/install2.rc))"
[ -d $T/events/latencytop ] || { msg "no latencytop events after install"; finish 1; }

# trace-cmd saves /proc/kallsyms: its text symbols only keep the file small
grep ' [tTwW] ' /proc/kallsyms > /tmp/kallsyms
mount --bind /tmp/kallsyms /proc/kallsyms || msg "cannot bind-mount the slim kallsyms (ignored)"

# A recording still running this long: where each task waits (LT-HANG),
# as guest-init.sh does, so that a hang leaves evidence.
hang_report() {
	sleep "$1"
	msg "$2 still running after $1 s: where each task waits (LT-HANG)"
	for p in /proc/[0-9]*; do
		state=$(sed -n 's/^State:[[:space:]]*//p' "$p/status" 2>/dev/null)
		case "$state" in "" | I*) continue ;; esac
		echo "LT-HANG: ${p#/proc/} $(cat "$p/comm" 2>/dev/null)" \
			"state $state wchan $(cat "$p/wchan" 2>/dev/null)"
		sed 's/^/LT-HANG:     /' "$p/stack" 2>/dev/null
		for t in "$p"/task/*; do
			[ "${t##*/}" = "${p#/proc/}" ] && continue
			echo "LT-HANG:   thread ${t##*/} $(cat "$t/comm" 2>/dev/null)" \
				"state $(sed -n 's/^State:[[:space:]]*//p' "$t/status" 2>/dev/null)"
			sed 's/^/LT-HANG:       /' "$t/stack" 2>/dev/null
		done
	done
	dmesg | tail -n 20 | sed 's/^/LT-HANG: dmesg: /'
}

cd $O || finish 1
hang_report "${LT_HANG_AFTER:-150}" latency-record &
watchdog=$!
# schedstats off: -S switches it on for the recording, and back off after
echo 0 > /proc/sys/kernel/sched_schedstats
msg "recording with latency-record"
start=$(cat /proc/uptime)
# --stacks=all: a stack after every event, as trace-cmd record -T takes
# them below and in the module test, so that the workload runs under the
# same tracing cost
latency-record -S --stacks=all -o $O/record.dat --no-report -- sh /etc/lt/workload.sh \
	> $O/lr-record.out 2> $O/lr-record.err
echo $? > $O/lr-record.rc
kill $watchdog 2>/dev/null
cat /proc/sys/kernel/sched_schedstats > $O/schedstats-after.txt
echo 1 > /proc/sys/kernel/sched_schedstats
msg "latency-record exit $(cat $O/lr-record.rc) after $(awk -v s="${start%% *}" '{ printf "%.1f", $1 - s }' /proc/uptime) s"
latency-record probes list > $O/list1.out 2>&1

# the page-fault workload wants its file cold again: remount
umount /mnt && mount -t ext4 /dev/vda /mnt || { msg "cannot remount /dev/vda"; finish 1; }
mount --bind /tmp/kallsyms /proc/kallsyms 2>/dev/null
msg "recording with trace-cmd record"
start=$(cat /proc/uptime)
hang_report "${LT_HANG_AFTER:-150}" "trace-cmd record" &
watchdog=$!
# shellcheck disable=SC2086
trace-cmd record -o $O/trace.dat $LT_RECORD_ARGS sh /etc/lt/workload.sh \
	> $O/record.log 2>&1
echo $? > $O/record.rc
kill $watchdog 2>/dev/null
msg "trace-cmd record exit $(cat $O/record.rc) after $(awk -v s="${start%% *}" '{ printf "%.1f", $1 - s }' /proc/uptime) s"
umount /proc/kallsyms 2>/dev/null

# live: latency-analyze --live over the workload, its events saved, until
# SIGINT once the workload is done
umount /mnt && mount -t ext4 /dev/vda /mnt || { msg "cannot remount /dev/vda"; finish 1; }
mount --bind /tmp/kallsyms /proc/kallsyms 2>/dev/null
msg "tracing live with latency-analyze --live"
start=$(cat /proc/uptime)
latency-analyze --live --kernel-stacks=all -S --format=json --save $O/live.dat \
	> $O/live.json 2> $O/live.err &
lpid=$!
i=0
until [ "$(cat $T/instances/latencytop-live.$lpid/tracing_on 2>/dev/null)" = 1 ]; do
	i=$((i + 1))
	[ $i -gt 300 ] && { msg "latency-analyze --live did not start tracing"; break; }
	sleep 0.1
done
sleep 1
sh /etc/lt/workload.sh > /dev/null 2>&1
kill -INT $lpid
wait $lpid
echo $? > $O/live.rc
umount /proc/kallsyms 2>/dev/null
msg "latency-analyze --live exit $(cat $O/live.rc) after $(awk -v s="${start%% *}" '{ printf "%.1f", $1 - s }' /proc/uptime) s"

latency-record probes list > $O/list2.out 2>&1
cat $T/kprobe_profile > $O/kprobe_profile.txt
latency-record probes remove > $O/remove.out 2> $O/remove.err
echo $? > $O/remove.rc
cat $T/dynamic_events > $O/dyn-after.txt
latency-record probes remove > $O/remove2.out 2> $O/remove2.err
echo $? > $O/remove2.rc
msg "probes removed (rc $(cat $O/remove.rc)); dynamic_events $(cmp -s $O/dyn-before.txt $O/dyn-after.txt && echo 'as before' || echo CHANGED)"
echo '-:myprobes/user_openat' >> $T/kprobe_events

dmesg > $O/dmesg.log
umount /mnt
(cd $O && tar cf /dev/vdb .) || { msg "cannot write /dev/vdb"; finish 1; }
finish 0
