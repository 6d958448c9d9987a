#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record.sh LT_WORKLOAD DIR - record the perf.data samples of this
# directory again (as root; see README.md).  LT_WORKLOAD is the build's
# tests/golden/lt-workload, DIR a disk-backed directory for the fsyncs.
# Run it in this directory: perf stores its command line in each file.
set -e
W=$1
D=${2:-/var/tmp}
EV="-e sched:sched_switch -e sched:sched_wakeup"
# system-wide recordings see every task of the machine: a short workload
# (0.3 s: fsyncs, sleeps, a directory walk) keeps them small
SHORT="dd if=/dev/zero of=$D/lt-perf-w bs=64k count=16 conv=fsync status=none;
	sleep 0.05; ls -R /usr/share/doc > /dev/null; sleep 0.05;
	rm -f $D/lt-perf-w"
perf record -o sched-a-g.data $EV -g -a -- sh -c "$SHORT"
perf record -o - $EV -g -a -- sh -c "$SHORT" \
	> sched-pipe-a-g.data
perf sched record -o perf-sched.data -- sh -c "$SHORT"
# perf record -z: the ring buffers' data in zstd-compressed records
perf record -z -o sched-z-a-g.data $EV -g -a -- sh -c "$SHORT"
# one command and its children, with and without call chains
perf record -o sched-cmd-g.data $EV -g -- "$W" -d "$D"
perf record -o sched-cmd.data $EV -- "$W" -d "$D"
# a 1-page buffer per CPU and a burst of messages: the kernel drops some
perf record -m 1 -o sched-lost-a-g.data $EV -g -a -- \
	perf bench sched messaging -g 1 -l 30
chmod 644 ./*.data
