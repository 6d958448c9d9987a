#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The recorded workload, run inside the guest by trace-cmd record with the
# ext4 work disk mounted on /mnt.  Each part runs under its own comm (see
# lt-workload.c) so that the checks can find it.  Sized for TCG: about
# 10-20 s in the guest.

W=/bin/lt-workload

# fsync and pipes and short sleeps, concurrently
$W fsync /mnt/fsync.dat 16 &
$W pipe 8 &
$W sleep 150 1000 &
wait

# fdatasync, a poll loop and a contended userspace lock
$W fdatasync /mnt/fdatasync.dat 16 &
$W poll 150 &
$W futex 200 &
wait

# page faults on a cold file, file churn, then sync(1) the lot
$W fault /mnt/big.dat
mkdir -p /mnt/d
$W files /mnt/d 64
dd if=/dev/zero of=/mnt/dirty.dat bs=64k count=32 2>/dev/null
sync
sleep 0.2
