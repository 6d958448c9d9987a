#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-ksyms-test.sh TEST MKTRACE SAMPLE TMPDIR
#
# test-tracedat-ksyms on the zstd sample and on a zlib trace written here
# with 40,000 symbols (1.7 MB of kallsyms: the helper starts from 1 MB).
set -e
test=$1
mk=$2
sample=$3
tmp=$4
mkdir -p "$tmp"
python3 - "$tmp/ksyms-zlib.trs" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("version 7\ncompression zlib\n")
    for i in range(40000):
        f.write("ksym %016x %s sym_%d_%s\n" % (0xffffffff81000000 + i * 48,
                "tT"[i % 2], i, "x" * (i % 23)))
    f.write("event sched:sched_switch\n")
    f.write("100 0 sched_switch prev_comm=a prev_pid=1 prev_state=S "
            "next_comm=b next_pid=0\n")
PY
python3 "$mk" "$tmp/ksyms-zlib.trs" -o "$tmp/ksyms-zlib.dat"
exec "$test" "$sample" "$tmp/ksyms-zlib.dat" "$tmp"
