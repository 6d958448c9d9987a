#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the overhead benchmark's initramfs (busybox sh): mount the
# ext4 work disk and tracefs, run lt-overhead with the arguments of
# /etc/lt/config, power off.  Everything the host reads is a console
# line starting with "LTB".

export PATH=/bin:/sbin:/usr/bin:/usr/sbin

finish() {
	echo "LTB exit $1"
	reboot -f
	sleep 10
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t tracefs tracefs /sys/kernel/tracing || finish 1
mkdir -p /mnt

# shellcheck source=/dev/null
. /etc/lt/config

i=0
while [ ! -b /dev/vda ]; do
	i=$((i + 1))
	[ $i -gt 50 ] && { echo "LTB error: no virtio disk"; finish 1; }
	sleep 0.1
done
mount -t ext4 /dev/vda /mnt || { echo "LTB error: cannot mount /dev/vda"; finish 1; }

echo "LTB kernel $(uname -r) cpus $(nproc) $(cat /proc/cmdline)"
# shellcheck disable=SC2086 # the arguments, word by word
/bin/lt-overhead $LTB_ARGS
rc=$?
umount /mnt
finish $rc
