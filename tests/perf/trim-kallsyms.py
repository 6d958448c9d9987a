#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""trim-kallsyms.py - the kernel symbols a set of perf.data files needs.

usage: trim-kallsyms.py KALLSYMS PERF.data... > kallsyms

Every kernel address in the files' call chains (perf script -F ip) gets
the symbol at or below it from KALLSYMS (the recording machine's
/proc/kallsyms, read as root), with the few perf places the kernel by: a
table a few KB long that names them all the same way, for tests on
machines running another kernel.
"""
import bisect
import subprocess
import sys


def main():
    syms = []
    with open(sys.argv[1]) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and int(p[0], 16):
                syms.append((int(p[0], 16), line.rstrip("\n")))
    syms.sort()
    addrs = [a for a, _ in syms]
    keep = set()
    for path in sys.argv[2:]:
        out = subprocess.run(["perf", "script", "-i", path, "-F", "ip"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             universal_newlines=True, check=True).stdout
        for word in out.split():
            try:
                a = int(word, 16)
            except ValueError:
                continue
            if a < 0xffff800000000000:
                continue
            i = bisect.bisect_right(addrs, a)
            if i:
                keep.add(i - 1)
    # perf places the kernel by these (its reference symbol, the text's end)
    for i, (a, line) in enumerate(syms):
        if line.split()[2] in ("_text", "_stext", "_etext", "_end"):
            keep.add(i)
    for i in sorted(keep):
        print(syms[i][1])


if __name__ == "__main__":
    main()
