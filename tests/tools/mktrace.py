#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mktrace.py - write trace-cmd trace.dat files from a small text script.

Usage:
    mktrace.py SCRIPT -o OUT.dat [--map OUT.map] [--set KEY=VALUE ...]

SCRIPT is a file or "-" for stdin.  --set overrides a header directive,
so one script gives several variants (--set version=7 --set endian=big).
--map writes "name offset size" lines (file offsets of the header,
sections, options, CPU data and pages) for tests that damage the file.

The script, one statement per line, "#" starts a comment:

  Header (all optional; defaults shown)
    version 6                 file format, 6 or 7
    endian little             little | big
    long 8                    user-space long in the file header (4 | 8)
    kernel_long 8             kernel long = header_page commit size
                              (default: same as "long")
    page_size 4096
    compression none          v7: none | zlib  (zstd: trace-cmd convert)
    compress_options no       v7 + zlib: compress the options sections too
    chunk_pages 10            v7 + zlib: ring-buffer pages a chunk holds
    array0 no                 yes: every event stores its length in
                              array[0] (type_len 0), as on archs that
                              force 8-byte alignment
    cpus N                    CPU data slots (default: highest CPU + 1)
    clock local               the trace clock
    uname TEXT                UNAME option
    tracecmd_version TEXT     VERSION option
    offset N                  OFFSET option: N ns added to every timestamp
    date N                    DATE option (microseconds, as trace-cmd)
    tsc2nsec MULT SHIFT [OFF] TSC2NSEC option: ns = ts * MULT >> SHIFT
    cpustat CPU [overrun=N] [dropped=N]   CPUSTAT option text for CPU
    instance NAME             an (empty) instance buffer besides the top one
    ksym ADDR TYPE NAME [[module]]        a kallsyms line
    cmdline PID COMM          a saved cmdlines line
    cmdline_copies N          the saved cmdlines text N times over (1)
    printk TEXT               a printk_formats line

  Event formats
    event SYS:NAME [id=N]     a built-in layout (see BUILTIN below), or,
                              followed by indented lines, your own:
        field TYPE NAME           e.g. "field int foo",
        field char comm[16]       fixed arrays,
        field __data_loc char[] s dynamic strings (also __rel_loc),
        field unsigned long caller[8]
        print "fmt", REC->foo     the print fmt text (optional)
      Fields are laid out after the common fields with natural alignment,
      as the kernel does; "long" and pointers take kernel_long bytes.
    format SYS <<TAG           a raw format text up to a line "TAG"
                              (name:, ID:, format:, field lines, print fmt:)

  Records, per CPU in time order (timestamps are raw ring-buffer clock,
  before OFFSET/TSC2NSEC; each CPU's must not go backwards):
    TS CPU EVENT [field=value ...]
      EVENT is SYS:NAME or a NAME that is unique.  Values: integers
      (decimal, 0x.., negative), strings ("quoted with spaces"), arrays
      as a,b,c.  Unset fields are 0 / "".  common_pid defaults to the
      task that the last sched_switch on that CPU switched in;
      prev_state takes letters too (S, D, R, T, ...).  The last field,
      if an array, may get more or fewer values than declared (like
      kernel_stack's caller[]), which sets the record length.
    raw TS CPU HEX            an event with this payload (hex bytes)

  Repetition:
    repeat N every STEP       the lines up to "end" N times: on round i
      ...                     (0..N-1) "{i}" becomes i and each leading
    end                       timestamp gets i * STEP added

  Ring-buffer controls, per CPU:
    page CPU                  start a new page
    lost CPU N                the next page has the missed-events flag;
                              N >= 0 is stored on the page, -1 is not
    pad CPU BYTES [TS]        a discarded event (type_len 29) of BYTES
                              (>= 8, multiple of 4); TS default last + 1
    nullpad CPU               a delta-0 padding: rest of page unused
    abs CPU                   an absolute time stamp before the next event
    extend CPU                a time extend before the next event
                              (deltas >= 2^27 get one anyway)
    commit CPU PAGE N         after writing, set page PAGE's commit to N
                              (for damage tests)

BUILTIN layouts: sched:sched_switch, sched:sched_wakeup, sched:sched_waking,
sched:sched_wakeup_new, sched:sched_stat_sleep, sched:sched_stat_blocked,
sched:sched_stat_iowait, sched:sched_stat_wait, sched:sched_process_fork,
sched:sched_process_exec, sched:sched_process_exit, ftrace:kernel_stack,
ftrace:print, latencytop:latency_reason_set, latencytop:latency_reason_restore.

Example:
    version 7
    event sched:sched_switch
    event latencytop:latency_reason_set
    ksym ffffffff81000000 T schedule
    100 0 sched_switch prev_comm=bash prev_pid=42 prev_state=S next_comm=swapper/0 next_pid=0
    150 0 latency_reason_set reason="Reading from a pipe" cookie=0xffff888001
"""

import argparse
import functools
import shlex
import struct
import sys
import zlib

BUILTIN = {
    "sched:sched_switch": (372, [
        "char prev_comm[16]", "pid_t prev_pid", "int prev_prio",
        "long prev_state", "char next_comm[16]", "pid_t next_pid",
        "int next_prio"],
        '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> '
        'next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, '
        'REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | '
        '0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | '
        '0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags('
        'REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | '
        '0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + '
        '1) << 1) - 1), "|", { 0x00000001, "S" }, { 0x00000002, "D" }, '
        '{ 0x00000004, "T" }, { 0x00000008, "t" }, { 0x00000010, "X" }, '
        '{ 0x00000020, "Z" }, { 0x00000040, "P" }, { 0x00000080, "I" }) : '
        '"R", REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | '
        '0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | 0x00000040) + '
        '1) << 1) ? "+" : "", REC->next_comm, REC->next_pid, REC->next_prio'),
    "sched:sched_wakeup": (370, [
        "char comm[16]", "pid_t pid", "int prio", "int target_cpu"],
        '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
        'REC->prio, REC->target_cpu'),
    "sched:sched_waking": (371, [
        "char comm[16]", "pid_t pid", "int prio", "int target_cpu"],
        '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
        'REC->prio, REC->target_cpu'),
    "sched:sched_wakeup_new": (369, [
        "char comm[16]", "pid_t pid", "int prio", "int target_cpu"],
        '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
        'REC->prio, REC->target_cpu'),
    "sched:sched_stat_sleep": (360, [
        "char comm[16]", "pid_t pid", "u64 delay"],
        '"comm=%s pid=%d delay=%Lu [ns]", REC->comm, REC->pid, '
        '(unsigned long long)REC->delay'),
    "sched:sched_stat_blocked": (359, [
        "char comm[16]", "pid_t pid", "u64 delay"],
        '"comm=%s pid=%d delay=%Lu [ns]", REC->comm, REC->pid, '
        '(unsigned long long)REC->delay'),
    "sched:sched_stat_iowait": (358, [
        "char comm[16]", "pid_t pid", "u64 delay"],
        '"comm=%s pid=%d delay=%Lu [ns]", REC->comm, REC->pid, '
        '(unsigned long long)REC->delay'),
    "sched:sched_stat_wait": (361, [
        "char comm[16]", "pid_t pid", "u64 delay"],
        '"comm=%s pid=%d delay=%Lu [ns]", REC->comm, REC->pid, '
        '(unsigned long long)REC->delay'),
    "sched:sched_process_fork": (366, [
        "__data_loc char[] parent_comm", "pid_t parent_pid",
        "__data_loc char[] child_comm", "pid_t child_pid"],
        '"comm=%s pid=%d child_comm=%s child_pid=%d", '
        '__get_str(parent_comm), REC->parent_pid, __get_str(child_comm), '
        'REC->child_pid'),
    "sched:sched_process_exec": (365, [
        "__data_loc char[] filename", "pid_t pid", "pid_t old_pid"],
        '"filename=%s pid=%d old_pid=%d", __get_str(filename), REC->pid, '
        'REC->old_pid'),
    "sched:sched_process_exit": (367, [
        "char comm[16]", "pid_t pid", "int prio", "bool group_dead"],
        '"comm=%s pid=%d prio=%d group_dead=%s", REC->comm, REC->pid, '
        'REC->prio, REC->group_dead ? "true" : "false"'),
    "ftrace:kernel_stack": (4, [
        "int size", "unsigned long caller[8]"],
        '"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n" "\\t=> %ps\\n\\t=> %ps\\n'
        '\\t=> %ps\\n" "\\t=> %ps\\n\\t=> %ps\\n", (void *)REC->caller[0], '
        '(void *)REC->caller[1], (void *)REC->caller[2], '
        '(void *)REC->caller[3], (void *)REC->caller[4], '
        '(void *)REC->caller[5], (void *)REC->caller[6], '
        '(void *)REC->caller[7]'),
    "ftrace:print": (5, ["unsigned long ip", "char buf[]"],
        '"%ps: %s", (void *)REC->ip, REC->buf'),
    "latencytop:latency_reason_set": (None, [
        "__data_loc char[] reason", "__data_loc char[] argument",
        "u32 maxtime_us", "unsigned long cookie"],
        '"reason=%s argument=%s maxtime_us=%u cookie=%lx", '
        '__get_str(reason), __get_str(argument), REC->maxtime_us, '
        'REC->cookie'),
    "latencytop:latency_reason_restore": (None, [
        "__data_loc char[] reason", "unsigned long cookie"],
        '"reason=%s cookie=%lx", __get_str(reason), REC->cookie'),
}

PREV_STATE = {"R": 0, "S": 1, "D": 2, "T": 4, "t": 8, "X": 16, "Z": 32,
              "P": 64, "I": 128}

COMMON = ["unsigned short common_type", "unsigned char common_flags",
          "unsigned char common_preempt_count", "int common_pid"]

SCALAR = {
    "char": 1, "signed char": 1, "unsigned char": 1, "u8": 1, "s8": 1,
    "bool": 1, "short": 2, "unsigned short": 2, "u16": 2, "s16": 2,
    "int": 4, "unsigned int": 4, "unsigned": 4, "u32": 4, "s32": 4,
    "pid_t": 4, "long long": 8, "unsigned long long": 8, "u64": 8,
    "s64": 8,
}
UNSIGNED = {"unsigned char", "u8", "bool", "unsigned short", "u16",
            "unsigned int", "unsigned", "u32", "unsigned long long", "u64",
            "unsigned long"}

# v7 option / section ids
OPT = dict(DONE=0, DATE=1, CPUSTAT=2, BUFFER=3, TRACECLOCK=4, UNAME=5,
           OFFSET=7, CPUCOUNT=8, VERSION=9, TSC2NSEC=14, STRINGS=15,
           HEADER_INFO=16, FTRACE_EVENTS=17, EVENT_FORMATS=18, KALLSYMS=19,
           PRINTK=20, CMDLINES=21)


class ScriptError(Exception):
    pass


class Field:
    def __init__(self, decl, klong):
        decl = decl.strip().rstrip(";")
        self.decl = decl
        self.dyn = decl.startswith("__data_loc") or decl.startswith("__rel_loc")
        self.rel = decl.startswith("__rel_loc")
        self.count = None
        d = decl
        if d.endswith("]"):
            i = d.rindex("[")
            inner = d[i + 1:-1]
            self.count = int(inner) if inner else 0
            d = d[:i]
        parts = d.split()
        self.name = parts[-1]
        self.type = " ".join(parts[:-1])
        base = self.type
        for q in ("__data_loc ", "__rel_loc ", "const "):
            if base.startswith(q):
                base = base[len(q):]
        base = base.replace("[]", "").strip()
        self.base = base
        if "*" in base or base in ("long", "unsigned long"):
            self.elem = klong
        elif base in SCALAR:
            self.elem = SCALAR[base]
        else:
            raise ScriptError("unknown field type %r" % self.type)
        self.signed = not (base in UNSIGNED or "*" in base or
                           base.startswith("unsigned"))
        if base == "char" and (self.count is not None or self.dyn):
            self.signed = False
        if self.dyn:
            self.size = 4
            self.align = 4
        elif self.count is not None:
            self.size = self.elem * self.count
            self.align = self.elem
        else:
            self.size = self.elem
            self.align = self.elem
        self.string = base == "char" and (self.dyn or self.count is not None)
        self.offset = 0


class Event:
    def __init__(self, system, name, evid, fields, fmt, klong, raw=None):
        self.system = system
        self.name = name
        self.id = evid
        self.raw = raw
        self.fields = []
        self.fmt = fmt
        if raw is not None:
            return
        off = 0
        maxalign = 1
        for decl in COMMON + fields:
            f = Field(decl, klong)
            off = (off + f.align - 1) // f.align * f.align
            f.offset = off
            off += f.size
            maxalign = max(maxalign, f.align)
            self.fields.append(f)
        self.fixed = (off + maxalign - 1) // maxalign * maxalign
        self.last_end = off

    def text(self):
        if self.raw is not None:
            return self.raw
        lines = ["name: %s" % self.name, "ID: %d" % self.id, "format:"]
        for i, f in enumerate(self.fields):
            if i == 4:
                lines.append("")
            lines.append("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;" % (
                f.decl, f.offset, f.size, 1 if f.signed else 0))
        fmt = self.fmt
        if fmt is None:
            names = [f.name for f in self.fields[4:]]
            fmt = '"%s"%s' % (" ".join("%s=%%d" % n for n in names),
                              "".join(", REC->%s" % n for n in names))
        lines.append("")
        lines.append("print fmt: %s" % fmt)
        return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=4096)
def _split_rest(rest):
    return tuple(shlex.split(rest))


def split_words(s):
    """shlex.split(s): a repeat's lines differ in their timestamp only,
    so the rest is split once (shlex took 3/4 of a long script's time)."""
    first, _, rest = s.partition(" ")
    if not rest or any(c in first for c in "\"'\\\t"):
        return shlex.split(s)
    return [first] + list(_split_rest(rest))


def parse_int(s):
    return int(s, 0)


class Writer:
    def __init__(self):
        self.h = dict(version="6", endian="little", long="8",
                      kernel_long=None, page_size="4096",
                      compression="none", compress_options="no",
                      chunk_pages="10", array0="no", cpus=None, clock="local",
                      cmdline_copies="1")
        self.options = []        # (id, bytes)
        self.uname = None
        self.tcver = None
        self.cpustat = {}
        self.instances = []
        self.ksyms = []
        self.cmdlines = []
        self.payloads = {}
        self.printk = []
        self.events = {}         # "sys:name" -> Event
        self.event_order = []
        self.pending_events = []  # (decl line args, fields, fmt)
        self.items = {}          # cpu -> list of actions
        self.commits = []
        self.offset_opt = None
        self.date_opt = None
        self.tsc = None
        self.map = []

    # ---- script parsing ----
    @staticmethod
    def expand(lines):
        out = []
        i = 0
        while i < len(lines):
            w = lines[i].split()
            if w[:1] != ["repeat"]:
                out.append(lines[i])
                i += 1
                continue
            if len(w) != 4 or w[2] != "every":
                raise ScriptError("repeat N every STEP")
            n, step = parse_int(w[1]), parse_int(w[3])
            depth, j = 1, i + 1
            while j < len(lines):
                t = lines[j].split()[:1]
                depth += t == ["repeat"]
                depth -= t == ["end"]
                if depth == 0:
                    break
                j += 1
            if depth:
                raise ScriptError("repeat without end")
            body = Writer.expand(lines[i + 1:j])
            for k in range(n):
                for b in body:
                    b = b.replace("{i}", str(k))
                    t = b.split(None, 1)
                    if t and t[0][:1].isdigit():
                        b = "%d %s" % (parse_int(t[0]) + k * step,
                                       t[1] if len(t) > 1 else "")
                    out.append(b)
            i = j + 1
        return out

    def parse(self, text, overrides):
        lines = [l for l in text.split("\n")]
        lines = self.expand([l for l in lines])
        i = 0
        body = []
        while i < len(lines):
            line = lines[i]
            i += 1
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            words = s.split()
            kw = words[0]
            if kw == "event":
                fields, fmt = [], None
                while i < len(lines) and lines[i][:1] in (" ", "\t") \
                        and lines[i].strip() and \
                        lines[i].split()[0] in ("field", "print"):
                    sub = lines[i].strip()
                    i += 1
                    if sub.startswith("field "):
                        fields.append(sub[6:])
                    else:
                        fmt = sub[6:].strip()
                self.pending_events.append((words[1:], fields, fmt))
            elif kw == "format":
                if len(words) != 3 or not words[2].startswith("<<"):
                    raise ScriptError("line %d: format SYS <<TAG" % i)
                tag = words[2][2:]
                raw = []
                while i < len(lines) and lines[i].strip() != tag:
                    raw.append(lines[i])
                    i += 1
                i += 1
                self.pending_events.append((["%s:" % words[1]], None,
                                            "\n".join(raw) + "\n"))
            else:
                body.append((i, s))
        for kv in overrides:
            k, v = kv.split("=", 1)
            self.h[k] = v
        # header directives first: the layout depends on them
        rest = []
        for ln, s in body:
            words = s.split()
            kw = words[0]
            if kw in self.h:
                if not any(o.split("=", 1)[0] == kw for o in overrides):
                    self.h[kw] = " ".join(words[1:])
            elif kw == "uname":
                self.uname = s[len("uname"):].strip()
            elif kw == "tracecmd_version":
                self.tcver = s[len("tracecmd_version"):].strip()
            elif kw == "offset":
                self.offset_opt = words[1]
            elif kw == "date":
                self.date_opt = words[1]
            elif kw == "tsc2nsec":
                self.tsc = (parse_int(words[1]), parse_int(words[2]),
                            parse_int(words[3]) if len(words) > 3 else 0)
            elif kw == "cpustat":
                kv = dict(w.split("=", 1) for w in words[2:])
                self.cpustat[int(words[1])] = kv
            elif kw == "instance":
                self.instances.append(words[1])
            elif kw == "ksym":
                self.ksyms.append(" ".join(words[1:]))
            elif kw == "cmdline":
                self.cmdlines.append("%s %s" % (words[1],
                                                " ".join(words[2:])))
            elif kw == "printk":
                self.printk.append(s[len("printk"):].strip())
            else:
                rest.append((ln, s))
        self.setup()
        for args, fields, fmt in self.pending_events:
            self.add_event(args, fields, fmt)
        for ln, s in rest:
            try:
                self.statement(s)
            except (ValueError, IndexError, KeyError) as e:
                raise ScriptError("line %d: %s: %s" % (ln, s, e))

    def setup(self):
        h = self.h
        self.version = int(h["version"])
        self.big = h["endian"] == "big"
        self.e = ">" if self.big else "<"
        self.ulong = int(h["long"])
        self.klong = int(h["kernel_long"] or h["long"])
        self.page = int(h["page_size"])
        self.comp = h["compression"]
        if self.comp not in ("none", "zlib"):
            raise ScriptError("compression must be none or zlib")
        if self.version == 6 and self.comp != "none":
            raise ScriptError("v6 files are never compressed")
        self.data_off = 8 + self.klong
        self.next_id = 1000

    def add_event(self, args, fields, fmt):
        spec = args[0]
        sysname, _, name = spec.partition(":")
        evid = None
        for a in args[1:]:
            if a.startswith("id="):
                evid = parse_int(a[3:])
        if fields is None:
            # a raw format text
            raw = fmt
            ev = Event(sysname, None, None, None, None, self.klong, raw=raw)
            for line in raw.split("\n"):
                if line.startswith("name:"):
                    ev.name = line[5:].strip()
                if line.startswith("ID:"):
                    ev.id = int(line[3:].strip())
            if ev.name is None:
                ev.name = "raw%d" % len(self.event_order)
            key = "%s:%s" % (sysname, ev.name)
        else:
            key = spec
            if not fields and key in BUILTIN:
                bid, fields, bfmt = BUILTIN[key]
                fmt = fmt or bfmt
                if evid is None:
                    evid = bid
            if evid is None:
                evid = self.next_id
                self.next_id += 1
            ev = Event(sysname, name, evid, fields, fmt, self.klong)
        self.events[key] = ev
        self.event_order.append(key)

    def find_event(self, name):
        if name in self.events:
            return self.events[name]
        hits = [e for k, e in self.events.items() if k.split(":")[1] == name]
        if len(hits) != 1:
            raise ScriptError("event %r is %s" % (
                name, "ambiguous" if hits else "not declared"))
        return hits[0]

    def cpu(self, c):
        c = int(c)
        if c not in self.items:
            self.items[c] = []
        return self.items[c]

    def statement(self, s):
        words = split_words(s)
        kw = words[0]
        if kw == "page":
            self.cpu(words[1]).append(("page",))
        elif kw == "lost":
            self.cpu(words[1]).append(("lost", int(words[2])))
        elif kw == "pad":
            ts = parse_int(words[3]) if len(words) > 3 else None
            n = int(words[2])
            if n < 8 or n % 4:
                raise ScriptError("pad size must be >= 8 and a multiple of 4")
            self.cpu(words[1]).append(("pad", n, ts))
        elif kw == "nullpad":
            self.cpu(words[1]).append(("nullpad",))
        elif kw == "abs":
            self.cpu(words[1]).append(("abs",))
        elif kw == "extend":
            self.cpu(words[1]).append(("extend",))
        elif kw == "commit":
            self.commits.append((int(words[1]), int(words[2]),
                                 parse_int(words[3])))
        elif kw == "raw":
            self.cpu(words[2]).append(("event", parse_int(words[1]),
                                       bytes.fromhex("".join(words[3:]))))
        else:
            ts = parse_int(words[0])
            cpu = int(words[1])
            ev = self.find_event(words[2])
            vals = {}
            for w in words[3:]:
                k, _, v = w.partition("=")
                vals[k] = v
            self.cpu(cpu).append(("record", ts, ev, vals))

    # ---- encoding ----
    def n(self, fmt, *v):
        return struct.pack(self.e + fmt, *v)

    def int_bytes(self, v, size, signed=False):
        if size == 1:
            return bytes([v & 0xff])
        code = {2: "H", 4: "I", 8: "Q"}[size]
        return self.n(code, v & ((1 << (8 * size)) - 1))

    def field_value(self, f, v):
        if v == "":
            return 0
        if f.name == "prev_state" and v[0].isalpha():
            x = 256 if "+" in v else 0
            for ch in v.replace("+", ""):
                x |= PREV_STATE[ch]
            return x
        return parse_int(v)

    def record_payload(self, ev, vals, cpu, current):
        if ev.raw is not None:
            raise ScriptError("events of a raw format need 'raw' records")
        for k in vals:
            if not any(f.name == k for f in ev.fields):
                raise ScriptError("%s has no field %r" % (ev.name, k))
        fixed = bytearray(ev.fixed)
        dyn = bytearray()
        last = ev.fields[-1]
        # a last array (not a string of fixed size) may vary in length
        variable = not last.dyn and last.count is not None and \
            (last.count == 0 or not last.string) and last.name in vals
        for f in ev.fields:
            if f.name == "common_type":
                v = str(ev.id)
            elif f.name == "common_pid" and "common_pid" not in vals:
                v = str(current)
            else:
                v = vals.get(f.name, "")
            if f.string:
                data = v.encode()
                if f.dyn or (f is last and variable):
                    data += b"\0"
            elif f.count is not None or f.dyn:
                data = b"".join(self.int_bytes(parse_int(x), f.elem)
                                for x in v.split(",") if x)
            else:
                data = self.int_bytes(self.field_value(f, v), f.size)
            if f.dyn:
                loc = ev.fixed + len(dyn)
                if f.rel:
                    loc -= f.offset + 4
                fixed[f.offset:f.offset + 4] = self.n(
                    "I", (len(data) << 16) | loc)
                dyn += data
            elif f is last and variable:
                if dyn:
                    raise ScriptError("a variable-length last array and "
                                      "dynamic fields in one event")
                fixed = fixed[:f.offset] + data
            else:
                if f.string:
                    data = data[:max(f.size - 1, 0)]
                fixed[f.offset:f.offset + len(data)] = data[:f.size]
        return bytes(fixed) + bytes(dyn)

    def hdr(self, type_len, delta):
        if self.big:
            return self.n("I", (type_len << 27) | delta)
        return self.n("I", type_len | (delta << 5))

    def encode_event(self, payload):
        L = len(payload)
        padded = payload + b"\0" * ((4 - L % 4) % 4)
        if L == 0 or L > 112 or self.h["array0"] == "yes":
            return 0, self.n("I", L + 4) + padded
        return len(padded) // 4, padded

    def build_cpu(self, cpu, items):
        """Turn one CPU's statements into pages: [(page_ts, bytes, lost)]."""
        cap = self.page - self.data_off
        pages = []
        pg = None            # the open page: dict(ts, buf, lost, last)
        pending_lost = None
        want_new = False
        force_abs = force_ext = False
        last = None
        current = 0

        def limit(p):
            # a stored missed-events count needs room after the data
            return cap - (self.klong if p["lost"] not in (None, -1) else 0)

        def close():
            nonlocal pg
            if pg is not None:
                pages.append((pg["ts"], bytes(pg["buf"]), pg["lost"]))
            pg = None

        def place(ts, type_len, body, padding=False):
            nonlocal pg, want_new, pending_lost, force_abs, force_ext, last
            if last is not None and ts < last and not force_abs:
                raise ScriptError("CPU %d goes back in time at %d"
                                  % (cpu, ts))
            need = 4 + len(body) + 8
            if need > cap - self.klong:
                raise ScriptError("an event of %d bytes does not fit a page"
                                  % len(body))
            if pg is None or want_new or len(pg["buf"]) + need > limit(pg):
                close()
                # a discarded event needs a non-zero delta (0 = rest of page)
                start = ts - 1 if padding else ts
                pg = dict(ts=start, buf=bytearray(), lost=pending_lost,
                          last=start)
                pending_lost = None
                want_new = False
            delta = ts - pg["last"]
            if force_abs:
                v = ts & ((1 << 59) - 1)
                pg["buf"] += self.hdr(31, v & ((1 << 27) - 1)) + \
                    self.n("I", v >> 27)
                delta = 0
            elif force_ext or delta >= (1 << 27):
                pg["buf"] += self.hdr(30, delta & ((1 << 27) - 1)) + \
                    self.n("I", delta >> 27)
                delta = 0
            if padding and delta == 0:
                raise ScriptError("pad on CPU %d needs a later time than "
                                  "the event before it" % cpu)
            pg["buf"] += self.hdr(type_len, delta) + body
            pg["last"] = ts
            last = ts
            force_abs = force_ext = False

        for it in items:
            kind = it[0]
            if kind == "page":
                want_new = True
            elif kind == "lost":
                pending_lost = it[1]
                want_new = True
            elif kind == "abs":
                force_abs = True
            elif kind == "extend":
                force_ext = True
            elif kind == "nullpad":
                if pg is None:
                    raise ScriptError("nullpad on CPU %d outside a page"
                                      % cpu)
                pg["buf"] += self.hdr(29, 0)
                close()
            elif kind == "pad":
                n, ts = it[1], it[2]
                if ts is None:
                    if last is None:
                        raise ScriptError("pad on CPU %d needs a time" % cpu)
                    ts = last + 1
                place(ts, 29, self.n("I", n - 4) + b"\0" * (n - 8),
                      padding=True)
            else:
                if kind == "record":
                    ts, ev, vals = it[1], it[2], it[3]
                    # a repeat's records differ in their times only
                    key = (id(ev), tuple(vals.items()),
                           None if "common_pid" in vals else current)
                    payload = self.payloads.get(key)
                    if payload is None:
                        payload = self.record_payload(ev, vals, cpu, current)
                        self.payloads[key] = payload
                    if ev.name == "sched_switch" and "next_pid" in vals:
                        current = parse_int(vals["next_pid"])
                else:
                    ts, payload = it[1], it[2]
                tl, body = self.encode_event(payload)
                place(ts, tl, body)
        close()
        if pending_lost is not None:
            # events lost after the last one: an empty flagged page
            pages.append((last or 0, b"", pending_lost))
        return pages

    def page_bytes(self, ts, buf, lost, commit_override=None):
        commit = len(buf) if commit_override is None else commit_override
        flags = commit
        tail = b""
        if lost is not None:
            flags |= 1 << 31
            if lost >= 0:
                flags |= 1 << 30
                tail = self.int_bytes(lost, self.klong, False)
        p = self.n("Q", ts) + self.int_bytes(flags, self.klong, False) + \
            buf + tail
        return p + b"\0" * (self.page - len(p))

    def cpu_data(self):
        ncpu = max(self.items) + 1 if self.items else 1
        if self.h["cpus"]:
            ncpu = int(self.h["cpus"])
        data = []
        overrides = {}
        for c, p, v in self.commits:
            overrides[(c, p)] = v
        for c in range(ncpu):
            pages = self.build_cpu(c, self.items.get(c, []))
            data.append(b"".join(self.page_bytes(ts, buf, lost,
                                                 overrides.get((c, i)))
                                 for i, (ts, buf, lost) in enumerate(pages)))
        return data

    # ---- metadata text ----
    def header_page(self):
        k = self.klong
        return ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
                "\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
                "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
                "\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n"
                % (k, 8 + k, self.page - 8 - k)).encode()

    def header_event(self):
        return ("# compressed entry header\n"
                "\ttype_len    :    5 bits\n"
                "\ttime_delta  :   27 bits\n"
                "\tarray       :   32 bits\n\n"
                "\tpadding     : type == 29\n"
                "\ttime_extend : type == 30\n"
                "\ttime_stamp : type == 31\n"
                "\tdata max type_len  == 28\n").encode()

    def formats(self):
        ftrace = [self.events[k].text().encode() for k in self.event_order
                  if k.startswith("ftrace:")]
        systems = {}
        for k in self.event_order:
            s = k.split(":")[0]
            if s == "ftrace":
                continue
            systems.setdefault(s, []).append(self.events[k].text().encode())
        return ftrace, systems

    def kallsyms(self):
        return "".join(s + "\n" for s in self.ksyms).encode()

    def cmdlines_text(self):
        text = "".join(s + "\n" for s in self.cmdlines).encode()
        return text * parse_int(self.h["cmdline_copies"])

    def printk_text(self):
        return "".join(s + "\n" for s in self.printk).encode()

    def cpustat_texts(self):
        out = []
        for c in sorted(self.cpustat):
            kv = self.cpustat[c]
            out.append(("CPU: %d\nentries: 0\noverrun: %s\ncommit overrun: 0\n"
                        "bytes: 0\noldest event ts: 0.000000\n"
                        "now ts: 0.000000\ndropped events: %s\n"
                        "read events: 0\n" % (c, kv.get("overrun", "0"),
                                              kv.get("dropped", "0"))
                        ).encode() + b"\0")
        return out

    def clock_list(self):
        clocks = ["local", "global", "counter", "uptime", "perf", "mono",
                  "mono_raw", "boot", "x86-tsc"]
        if self.h["clock"] not in clocks:
            clocks.append(self.h["clock"])
        return " ".join("[%s]" % c if c == self.h["clock"] else c
                        for c in clocks)

    def common_options(self):
        o = []
        if self.date_opt is not None:
            o.append((OPT["DATE"], self.date_opt.encode() + b"\0"))
        if self.offset_opt is not None:
            o.append((OPT["OFFSET"], self.offset_opt.encode() + b"\0"))
        for t in self.cpustat_texts():
            o.append((OPT["CPUSTAT"], t))
        if self.version == 6:
            o.append((OPT["TRACECLOCK"], b""))
        else:
            o.append((OPT["TRACECLOCK"], self.clock_list().encode() + b"\0"))
        if self.uname is not None:
            o.append((OPT["UNAME"], self.uname.encode() + b"\0"))
        if self.tcver is not None:
            o.append((OPT["VERSION"], self.tcver.encode() + b"\0"))
        if self.tsc is not None:
            o.append((OPT["TSC2NSEC"], self.n("IIQ", *self.tsc)))
        return o

    # ---- files ----
    def mark(self, name, off, size):
        self.map.append((name, off, size))

    def write_v6(self):
        out = bytearray()
        out += b"\x17\x08\x44tracing6\0"
        out += bytes([1 if self.big else 0, self.ulong])
        out += self.n("I", self.page)
        self.mark("header", 0, len(out))
        start = len(out)
        hp = self.header_page()
        out += b"header_page\0" + self.n("Q", len(hp)) + hp
        he = self.header_event()
        out += b"header_event\0" + self.n("Q", len(he)) + he
        self.mark("header_info", start, len(out) - start)
        ftrace, systems = self.formats()
        start = len(out)
        out += self.n("I", len(ftrace))
        for t in ftrace:
            out += self.n("Q", len(t)) + t
        self.mark("ftrace_events", start, len(out) - start)
        start = len(out)
        out += self.n("I", len(systems))
        for s, texts in systems.items():
            out += s.encode() + b"\0" + self.n("I", len(texts))
            for t in texts:
                self.mark("format.%s" % s, len(out), 8 + len(t))
                out += self.n("Q", len(t)) + t
        self.mark("event_formats", start, len(out) - start)
        ks = self.kallsyms()
        self.mark("kallsyms", len(out), 4 + len(ks))
        out += self.n("I", len(ks)) + ks
        pk = self.printk_text()
        self.mark("printk", len(out), 4 + len(pk))
        out += self.n("I", len(pk)) + pk
        cl = self.cmdlines_text()
        self.mark("cmdlines", len(out), 8 + len(cl))
        out += self.n("Q", len(cl)) + cl
        data = self.cpu_data()
        self.mark("cpu_count", len(out), 4)
        out += self.n("I", len(data))
        start = len(out)
        out += b"options  \0"
        opts = self.common_options()
        for name in self.instances:
            opts.append((OPT["BUFFER"], self.n("Q", 0) + name.encode() + b"\0"))
        for oid, b in opts:
            self.mark("option.%d" % oid, len(out), 6 + len(b))
            out += self.n("HI", oid, len(b)) + b
        out += self.n("H", 0)
        self.mark("options", start, len(out) - start)
        out += b"flyrecord\0"
        table = len(out)
        self.mark("flyrecord", table, 16 * len(data))
        out += b"\0" * (16 * len(data))
        clock = ("[%s]" % self.h["clock"]).encode()
        out += self.n("Q", len(clock)) + clock
        offs = []
        for c, d in enumerate(data):
            pos = (len(out) + self.page - 1) // self.page * self.page
            out += b"\0" * (pos - len(out))
            offs.append((pos, len(d)))
            self.mark("cpu%d.data" % c, pos, len(d))
            for i in range(len(d) // self.page):
                self.mark("cpu%d.page%d" % (c, i), pos + i * self.page,
                          self.page)
            out += d
        for c, (o, s) in enumerate(offs):
            out[table + 16 * c:table + 16 * c + 16] = self.n("QQ", o, s)
        return bytes(out)

    def compress(self, b):
        return zlib.compress(b, 6)

    def write_v7(self):
        out = bytearray()
        strings = bytearray()

        def string(s):
            off = len(strings)
            strings.extend(s.encode() + b"\0")
            return off

        comp = self.comp != "none"
        out += b"\x17\x08\x44tracing7\0"
        out += bytes([1 if self.big else 0, self.ulong])
        out += self.n("I", self.page)
        if comp:
            out += b"zlib\0" + zlib.ZLIB_VERSION.encode() + b"\0"
        else:
            out += b"none\0\0"
        opt_ptr = len(out)
        out += self.n("Q", 0)
        self.mark("header", 0, len(out))

        def section(sid, desc, body, compress):
            off = len(out)
            flags = 1 if compress else 0
            if compress:
                z = self.compress(body)
                body = self.n("II", len(z), len(body)) + z
            out.extend(self.n("HHIQ", sid, flags, string(desc), len(body)))
            out.extend(body)
            return off

        sec_opts = []
        hp, he = self.header_page(), self.header_event()
        off = section(OPT["HEADER_INFO"], "headers",
                      b"header_page\0" + self.n("Q", len(hp)) + hp +
                      b"header_event\0" + self.n("Q", len(he)) + he, comp)
        sec_opts.append((OPT["HEADER_INFO"], off))
        self.mark("section.HEADER_INFO", off, len(out) - off)
        ftrace, systems = self.formats()
        body = self.n("I", len(ftrace))
        for t in ftrace:
            body += self.n("Q", len(t)) + t
        off = section(OPT["FTRACE_EVENTS"], "ftrace events", body, comp)
        sec_opts.append((OPT["FTRACE_EVENTS"], off))
        self.mark("section.FTRACE_EVENTS", off, len(out) - off)
        body = self.n("I", len(systems))
        for s, texts in systems.items():
            body += s.encode() + b"\0" + self.n("I", len(texts))
            for t in texts:
                body += self.n("Q", len(t)) + t
        off = section(OPT["EVENT_FORMATS"], "events format", body, comp)
        sec_opts.append((OPT["EVENT_FORMATS"], off))
        self.mark("section.EVENT_FORMATS", off, len(out) - off)
        ks = self.kallsyms()
        off = section(OPT["KALLSYMS"], "kallsyms",
                      self.n("I", len(ks)) + ks, comp)
        sec_opts.append((OPT["KALLSYMS"], off))
        self.mark("section.KALLSYMS", off, len(out) - off)
        pk = self.printk_text()
        off = section(OPT["PRINTK"], "printk", self.n("I", len(pk)) + pk, comp)
        sec_opts.append((OPT["PRINTK"], off))
        self.mark("section.PRINTK", off, len(out) - off)
        cl = self.cmdlines_text()
        off = section(OPT["CMDLINES"], "command lines",
                      self.n("Q", len(cl)) + cl, comp)
        sec_opts.append((OPT["CMDLINES"], off))
        self.mark("section.CMDLINES", off, len(out) - off)

        zopt = comp and self.h["compress_options"] == "yes"

        def options_section(opts, next_patch):
            body = bytearray()
            for oid, b in opts:
                body += self.n("HI", oid, len(b)) + b
            done_at = len(body) + 6
            body += self.n("HIQ", 0, 8, 0)
            off = section(0, "options", bytes(body), zopt)
            return off, done_at

        data = self.cpu_data()
        opts = [(sid, self.n("Q", o)) for sid, o in sec_opts]
        opts += self.common_options()
        opts.append((OPT["CPUCOUNT"], self.n("I", len(data))))
        opt1, done1 = options_section(opts, True)
        self.mark("options1", opt1, len(out) - opt1)
        out[opt_ptr:opt_ptr + 8] = self.n("Q", opt1)

        # the flyrecord section: header, page alignment, CPU data
        boff = len(out)
        out.extend(self.n("HHIQ", OPT["BUFFER"], 1 if comp else 0,
                          string("buffer flyrecord "), 0))
        cpus = []
        for c, d in enumerate(data):
            pos = (len(out) + self.page - 1) // self.page * self.page
            out += b"\0" * (pos - len(out))
            if comp and d:
                chunk = int(self.h["chunk_pages"]) * self.page
                pieces = [d[i:i + chunk] for i in range(0, len(d), chunk)]
                blob = bytearray(self.n("I", len(pieces)))
                for p in pieces:
                    z = self.compress(p)
                    blob += self.n("II", len(z), len(p)) + z
                d = bytes(blob)
            else:
                for i in range(len(d) // self.page):
                    self.mark("cpu%d.page%d" % (c, i), pos + i * self.page,
                              self.page)
            self.mark("cpu%d.data" % c, pos, len(d))
            cpus.append((c, pos, len(d)))
            out += d
        out[boff + 8:boff + 16] = self.n("Q", len(out) - boff - 16)
        self.mark("section.BUFFER", boff, len(out) - boff)

        buf = self.n("Q", boff) + b"\0" + self.h["clock"].encode() + b"\0"
        buf += self.n("II", self.page, len(cpus))
        for c, pos, size in cpus:
            buf += self.n("IQQ", c, pos, size)
        opts2 = [(OPT["BUFFER"], buf)]
        for name in self.instances:
            ib = self.n("Q", boff) + name.encode() + b"\0" + \
                self.h["clock"].encode() + b"\0" + self.n("II", self.page, 0)
            opts2.append((OPT["BUFFER"], ib))
        opt2, _ = options_section(opts2, False)
        self.mark("options2", opt2, len(out) - opt2)
        # chain: first options section's DONE points at the second
        if not zopt:
            p = opt1 + 16 + done1
            out[p:p + 8] = self.n("Q", opt2)
        else:
            # rebuild the first (compressed) section in place is awkward:
            # write a fresh first section at the end and point the header
            body = bytearray()
            for oid, b in opts:
                body += self.n("HI", oid, len(b)) + b
            body += self.n("HIQ", 0, 8, opt2)
            opt1 = section(0, "options", bytes(body), True)
            out[opt_ptr:opt_ptr + 8] = self.n("Q", opt1)
            self.mark("options1", opt1, len(out) - opt1)
        soff = len(out)
        sbody = bytes(strings) + b"strings\0"
        out.extend(self.n("HHIQ", OPT["STRINGS"], 0, len(strings),
                          len(sbody)))
        out.extend(sbody)
        self.mark("section.STRINGS", soff, len(out) - soff)
        return bytes(out)

    def write(self):
        if self.version == 6:
            return self.write_v6()
        if self.version == 7:
            return self.write_v7()
        raise ScriptError("version must be 6 or 7")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--map")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    text = sys.stdin.read() if a.script == "-" else open(a.script).read()
    w = Writer()
    try:
        w.parse(text, a.set)
        data = w.write()
    except ScriptError as e:
        sys.stderr.write("mktrace: %s: %s\n" % (a.script, e))
        return 1
    with open(a.output, "wb") as f:
        f.write(data)
    if a.map:
        with open(a.map, "w") as f:
            for name, off, size in w.map:
                f.write("%s %d %d\n" % (name, off, size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
