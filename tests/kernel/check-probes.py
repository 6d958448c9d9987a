#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a trace.dat whose latencytop events came from kprobe events.

"latency-record probes install" makes latency_reason_set a kprobe event and
latency_reason_restore a kretprobe event.  Their "reason" is a key (the
reason with '_' for each blank: an immediate string cannot hold a blank)
and they have no cookie.  This runs check-trace.py's checks, those of the
module test, on such a trace, reading trace-cmd report's text as the
module's would read:

  reason="fsync_system_call"  ->  reason='fsync system call'

by the documented rule alone, not through the analyzer's table; with no
cookie, check-trace.py's replay pairs a restore with its task's innermost
open set, which is the order the kernel nests them in.

usage: check-probes.py [--analyzer PATH] [--golden] TRACE
"""

import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "check_trace", os.path.join(HERE, "check-trace.py"))
ct = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ct)

KEY = re.compile(r'reason="([^"]*)"')
seen_keys = set()


def as_module_reads(line):
    if "latency_reason_" not in line:
        return line

    def unkey(m):
        seen_keys.add(m.group(1))
        return "reason='%s'" % m.group(1).replace("_", " ")
    return KEY.sub(unkey, line)


report_lines = ct.report_lines


def probe_report_lines(trace, env=None, plugins=False):
    return [as_module_reads(ln) for ln in report_lines(trace, env, plugins)]


ct.report_lines = probe_report_lines

if __name__ == "__main__":
    rc = ct.main()
    if not seen_keys:
        print("FAILED  no probe-made latencytop event (reason=\"KEY\") in the trace")
        rc = 1
    else:
        print("probe keys seen: %d (e.g. %s)" % (len(seen_keys), sorted(seen_keys)[0]))
    sys.exit(rc)
