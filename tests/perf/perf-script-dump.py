# SPDX-License-Identifier: GPL-2.0
# perf-script-dump.py - the samples of a perf.data as perf itself reads
# them, for the differential test of our reader (tests/tools/lt-perf-dump):
#
#   perf script -i FILE -s tests/perf/perf-script-dump.py [chain]
#
# prints, in the order perf hands the samples to scripts (its ordered
# events), one line per sample in lt-perf-dump's format:
#   <time ns> <cpu> <pid>/<tid> <event> <field>=<value> ... [| <ips>]
# A tracepoint's fields are perf's (libtraceevent's) values, common_*
# ones left out; "chain" appends the callchain's addresses as perf
# resolved them, when there are any.
import sys

chain = "chain" in sys.argv[1:]


def shown(s):
    # as lt-perf-dump prints strings: a control byte or "\\" as \xNN
    return "".join("\\x%02x" % ord(c) if ord(c) < 0x20 or c in "\x7f\\"
                   else c for c in s)


def value(v):
    if isinstance(v, (bytes, bytearray)):
        return shown(v.split(b"\0", 1)[0].decode("latin-1"))
    if isinstance(v, list):
        return "[" + ",".join(str(x) for x in v) + "]"
    if isinstance(v, str):
        return shown(v)
    return str(v)


def s32(v):
    # perf hands pid and tid over as u32: -1 (no task) is 4294967295
    return v - (1 << 32) if v >= 1 << 31 else v


def line(name, sample, fields, callchain):
    out = "%d %d %d/%d %s" % (sample["time"], sample["cpu"],
                              s32(sample["pid"]), s32(sample["tid"]), name)
    for k, v in fields:
        out += " %s=%s" % (k, value(v))
    if chain and callchain:
        out += " | " + ",".join("0x%x" % c["ip"] for c in callchain)
    print(out)


def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):
    fields = [(k, v) for k, v in event_fields_dict.items()
              if not k.startswith("common_")]
    line(perf_sample_dict["ev_name"], perf_sample_dict["sample"], fields,
         perf_sample_dict.get("callchain"))


def process_event(param_dict):
    line(param_dict["ev_name"], param_dict["sample"], [],
         param_dict.get("callchain"))
