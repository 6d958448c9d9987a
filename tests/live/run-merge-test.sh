#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-merge-test.sh TEST-LIVE-MERGE SRCDIR: the real v6 traces' pages as
# the kernel wrote them, and local-overwritten's (lost events) made v6 by
# trace-cmd convert where trace-cmd is installed.
set -e
bin=$1 src=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
set -- "$src/tests/data/real/desktop-4cpu-sched_switch.dat" \
	"$src/tests/data/real/qemu-1cpu-sched_switch.dat" \
	"$src/tests/data/real/embedded-1cpu-sched-irq-gpio.dat"
if command -v trace-cmd >/dev/null &&
   trace-cmd convert --file-version 6 --compression none \
	-i "$src/samples/local-overwritten.dat" -o "$d/ow.dat" >/dev/null 2>&1; then
	set -- "$@" "$d/ow.dat"
else
	echo "no trace-cmd to convert it: local-overwritten.dat (lost events) not checked"
fi
exec "$bin" "$@"
