# SPDX-License-Identifier: GPL-2.0
# perf-flags.py - run by `perf script -s`, for chain-oracle.py: one line
# per sample, in perf script's own order,
#
#     TIME_NS CPU TID COMMON_FLAGS KERNEL_FRAMES
#
# COMMON_FLAGS is the tracepoint's common_flags byte as perf decodes it
# (irqs-off 0x01, hardirq 0x08, softirq 0x10, nmi 0x40); KERNEL_FRAMES
# the kernel part of the call chain, innermost first, comma-separated
# symbol names (0xADDR where perf has none), or "-" without one.
# perf script -F prints neither the flags nor, with its fields, a chain
# that can be told from the fields when the file has no -g.
import os
import sys

sys.path.append(os.environ["PERF_EXEC_PATH"] +
                "/scripts/python/Perf-Trace-Util/lib/Perf/Trace")
from perf_trace_context import common_flags  # noqa: E402

KERNEL_MIN = 0xffff800000000000


def trace_unhandled(event_name, context, fields, sample):
    s = sample["sample"]
    frames = []
    for f in sample.get("callchain") or []:
        if f["ip"] < KERNEL_MIN:
            continue
        sym = f.get("sym")
        frames.append(sym["name"] if sym and sym.get("name") else "0x%x" % f["ip"])
    print(s["time"], s["cpu"], s["tid"], common_flags(context),
          ",".join(frames) or "-")
