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
# two cgroups of the unified (v2) hierarchy, a task in each (the SHORT
# workload split), with --all-cgroups: every sample carries its task's
# cgroup id, CGROUP records name them; --buildid-all: the build-ids of
# every binary mapped, not only the kernel's
CG=/sys/fs/cgroup/unified
mkdir "$CG/lt-perf-a" "$CG/lt-perf-b"
trap 'rmdir "$CG/lt-perf-a" "$CG/lt-perf-b"' EXIT
perf record --all-cgroups --buildid-all -o sched-cgroups-a-g.data $EV -g -a -- sh -c "
	sh -c 'echo \$\$ > $CG/lt-perf-a/cgroup.procs; exec sh -c \"dd if=/dev/zero of=$D/lt-cg-a bs=64k count=16 conv=fsync status=none; sleep 0.05; rm -f $D/lt-cg-a\"' &
	sh -c 'echo \$\$ > $CG/lt-perf-b/cgroup.procs; exec sh -c \"ls -R /usr/share/doc > /dev/null; sleep 0.05\"' &
	wait"
python3 ../../perf/trim-kallsyms.py /proc/kallsyms sched-cgroups-a-g.data \
	> kallsyms-cgroups
chmod 644 ./*.data
