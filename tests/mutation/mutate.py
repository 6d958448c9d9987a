#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mutate.py - the mutation test of issue 5: damage real traces, run
latency-analyze on every damaged copy, and check that it never crashes,
hangs, trips a sanitizer, runs away with memory, or lies.

Usage:
    mutate.py --analyzer PATH [--cases N] [--seed S] [--jobs J]
              [--workdir DIR] [--save-dir DIR] [--regress DIR]
    mutate.py --analyzer PATH --seed S --case K [--keep FILE]   one case again
    mutate.py --list-inputs                                      the inputs

Every case is made by a generator seeded with (seed, case number) alone,
so "--seed S --case K" rebuilds the very same damaged file.

Inputs (the "bases"):
  real/*     tests/data/real/*.dat: five v6 32-bit traces by other people
  sample/*   samples/*.dat: v7 zstd traces (local and qemu kernels, stacks,
             latencytop events)
  conv/*     samples converted by trace-cmd to v6 and v7 without
             compression, so page- and format-level damage reaches the CPU
             data and the event formats directly (skipped without trace-cmd)
  synth/*    tests/analysis/annotated.trs and tests/tracedat/data/*.trs built
             by tests/tools/mktrace.py: v6/v7, both endians, 4/8-byte
             longs, zlib (whose sections and CPU chunks are decompressed,
             damaged and compressed again: "deep" mutations)
Each base is parsed here (a small trace.dat reader in Python) into a map
of its numeric fields (sizes, counts, offsets), texts (formats, kallsyms,
printk, cmdlines, options) and CPU pages/chunks, so damage is aimed.

Mutations (the first word of every case description):
  truncate   cut the file inside a chosen section: header, header_page,
             header_event, ftrace/event formats, kallsyms, printk,
             cmdlines, options, CPU table, CPU data page or chunk, trailer
  flip       flip 1..16 bits inside a chosen section
  bytes      overwrite 1..8 bytes inside a chosen section (0, 0xff, random)
  zero       zero (or 0xff-fill) a CPU page, a chunk, or a block of a section
  evil       a size/count/offset/header field set to 0, 1, max, file size,
             file size + 1, 2^31, huge, off by one, ... (also inside
             compressed sections and chunks)
  format     malformed event formats, edited in the file (sizes and
             offsets of everything after are fixed up): offset:99999,
             size:0, fields dropped or doubled, huge/duplicate IDs,
             __data_loc <-> fixed arrays, broken types, header_page and
             header_event damage, broken print fmt, garbage, huge lines
  metatext   kallsyms / printk / cmdlines / option texts: garbage, no
             newlines, NUL bytes, huge lines, thousands of lines, emptied
  record     one record in a CPU page: __data_loc pointing outside the
             record, another event's id (type confusion), evil pids,
             delays, stack sizes, event header type_len/delta, array[0]
  page       one CPU page: evil commit, missed-events flags with a bad
             count, time going backwards, pages swapped or copied
  splice     insert random bytes into, or cut a range out of, the middle
             of the file (nothing fixed up)
  multi      2..4 of flip/bytes/evil/record/page/zero at once

Checks on every run (violations):
  crash      death by a signal
  hang       no exit within --timeout seconds (default 10)
  sanitizer  an ASan/UBSan/LSan report (leaks included)
  memory     the memory limit was hit (--mem-mb, default 2048: ulimit -v,
             or for an ASan build max_allocation_size_mb/hard_rss_limit_mb)
             and the analyzer died instead of exiting 6
  exit       an exit status outside 0,2,3,4,5,6 (1 = usage is wrong here,
             but for --window too short for a trace a damaged stamp
             stretched), or 5 without --partial
  silent     exit 0 without a real report (text: the "Global latencies"
             header; json: the latencytop-report/1 schema, partial false)
  partial    exit 5 without a report marked partial
  message    a failure whose stderr is not exactly one line
             "latency-analyze: <path>: ..." (with --partial and exit 5 it
             ends "(the report is partial)"), or that
             printed a report on stdout
  report     a JSON report with a negative count or duration

Failing inputs are saved in --save-dir with a .txt saying how to rerun
them.  Exit status: 0 when there were no violations, 1 otherwise, 2 on
a setup error.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MKTRACE = os.path.join(ROOT, "tests", "tools", "mktrace.py")
PROG = "latency-analyze"

MAGIC = b"\x17\x08\x44tracing"
(OPT_DONE, OPT_BUFFER, OPT_TRACECLOCK, OPT_HEADER_INFO, OPT_FTRACE_EVENTS,
 OPT_EVENT_FORMATS, OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES,
 OPT_BUFFER_TEXT) = (0, 3, 4, 16, 17, 18, 19, 20, 21, 22)
SECTION_CAT = {OPT_HEADER_INFO: "header_info",
               OPT_FTRACE_EVENTS: "ftrace_formats",
               OPT_EVENT_FORMATS: "event_formats", OPT_KALLSYMS: "kallsyms",
               OPT_PRINTK: "printk", OPT_CMDLINES: "cmdlines"}


class NA(Exception):
    """This mutation does not apply to this base: the case draws again."""


class Bad(Exception):
    """A base input this parser cannot map."""


# ---------------------------------------------------------------------------
# The map of a trace.dat file


class Field:
    """A number in the file: where, how wide, and what it means.

    role: "size" (cover = the byte range it measures), "count", "ptr"
    (a file offset), "val".  cont: None for the file itself, or the
    index of a decompressed container (offsets are then inside it)."""
    __slots__ = ("cat", "name", "off", "width", "role", "cover", "cont",
                 "value")

    def __init__(self, cat, name, off, width, role, value, cont):
        self.cat, self.name, self.off, self.width = cat, name, off, width
        self.role, self.value, self.cont, self.cover = role, value, cont, None


class Text:
    __slots__ = ("cat", "name", "off", "length", "cont", "size_field")

    def __init__(self, cat, name, off, length, cont, size_field):
        self.cat, self.name, self.off, self.length = cat, name, off, length
        self.cont, self.size_field = cont, size_field


class Container:
    """A zlib block (a v7 section body or a CPU chunk), decompressed.

    In the file: [u32 csize][u32 usize][csize bytes][tail] at body_off,
    body_len bytes in all."""

    def __init__(self, kind, name, body_off, body_len, data, tail):
        self.kind, self.name = kind, name
        self.body_off, self.body_len = body_off, body_len
        self.data, self.tail = data, tail


class Layout:
    def __init__(self, data):
        self.data = data
        self.size = len(data)
        self.fields = []
        self.texts = []
        self.regions = []       # (cat, name, off, len), file offsets
        self.spans = []         # (start, end) of everything parsed (file)
        self.conts = []
        self.pages = []         # (cont or None, off, len, cpu)
        self.chunks = []        # (off, len, cpu): compressed CPU chunks
        self.cpu_starts = []    # file offsets where CPU data begins
        self.formats = {}       # id -> (name, {field: (type, off, size)})
        self.version = 0
        self.end = "little"
        self.long_size = 8
        self.page_size = 4096
        self.commit_size = 8
        self.data_off = 16
        self.comp = "none"
        self.has_clock_opt = False
        try:
            self._parse()
        except Bad:
            raise
        except Exception as e:  # an odd base: say which and why
            raise Bad("%s: %s" % (type(e).__name__, e))
        self.cats = sorted(set(r[0] for r in self.regions))

    # -- low level --------------------------------------------------------
    def region(self, cat, name, off, length):
        if length > 0:
            self.regions.append((cat, name, off, length))


class Cur:
    """A cursor over the file or over a decompressed container."""

    def __init__(self, L, buf, pos, cont=None):
        self.L, self.buf, self.pos, self.cont = L, buf, pos, cont

    def need(self, n):
        if n < 0 or self.pos + n > len(self.buf):
            raise Bad("runs off the end at %d (+%d)" % (self.pos, n))

    def span(self, start, end):
        if self.cont is None:
            self.L.spans.append((start, end))

    def num(self, width, cat, name, role="val"):
        self.need(width)
        off = self.pos
        v = int.from_bytes(self.buf[off:off + width],
                           "little" if width == 1 else self.L.end)
        f = Field(cat, name, off, width, role, v, self.cont)
        self.L.fields.append(f)
        self.span(off, off + width)
        self.pos += width
        return f

    def val(self, width, cat, name, role="val"):
        return self.num(width, cat, name, role).value

    def cstr(self):
        end = self.buf.index(b"\0", self.pos)
        s = bytes(self.buf[self.pos:end])
        self.span(self.pos, end + 1)
        self.pos = end + 1
        return s

    def tag(self, n):
        self.need(n)
        s = bytes(self.buf[self.pos:self.pos + n])
        self.span(self.pos, self.pos + n)
        self.pos += n
        return s

    def text(self, width, cat, name):
        """A size (width bytes) then that many bytes of text."""
        f = self.num(width, cat, name + ".size", "size")
        self.need(f.value)
        f.cover = (self.pos, self.pos + f.value)
        t = Text(cat, name, self.pos, f.value, self.cont, f)
        self.L.texts.append(t)
        self.span(self.pos, self.pos + f.value)
        self.pos += f.value
        return bytes(self.buf[t.off:t.off + t.length])


def parse_format(L, text):
    """Event format text -> L.formats[id] (for record mutations)."""
    s = text.decode("latin-1")
    m = re.search(r"^ID:\s*(\d+)", s, re.M)
    n = re.search(r"^name:\s*(\S+)", s, re.M)
    if not m:
        return
    fields = {}
    for fm in re.finditer(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);", s):
        decl = fm.group(1).strip()
        name = re.sub(r"\[.*", "", decl.split()[-1]) if decl.split() else ""
        fields[name] = (decl, int(fm.group(2)), int(fm.group(3)))
    L.formats[int(m.group(1))] = (n.group(1) if n else "?", fields)


def parse_header_page(L, text):
    s = text.decode("latin-1")
    m = re.search(r"field:\s*local_t commit;\s*offset:(\d+);\s*size:(\d+);", s)
    if m:
        L.commit_size = int(m.group(2))
    m = re.search(r"field:\s*char data;\s*offset:(\d+);", s)
    if m:
        L.data_off = int(m.group(1))


def header_info(c):
    L = c.L
    start = c.pos
    if c.tag(12) != b"header_page\0":
        raise Bad("no header_page")
    parse_header_page(L, c.text(8, "header_page", "header_page"))
    mid = c.pos
    if c.tag(13) != b"header_event\0":
        raise Bad("no header_event")
    c.text(8, "header_event", "header_event")
    if c.cont is None:
        L.region("header_page", "header_page", start, mid - start)
        L.region("header_event", "header_event", mid, c.pos - mid)


def ftrace_formats(c):
    start = c.pos
    n = c.val(4, "ftrace_formats", "ftrace format count", "count")
    for i in range(n):
        parse_format(c.L, c.text(8, "ftrace_format", "ftrace format %d" % i))
    if c.cont is None:
        c.L.region("ftrace_formats", "ftrace formats", start, c.pos - start)


def event_formats(c):
    start = c.pos
    n = c.val(4, "event_formats", "event system count", "count")
    for i in range(n):
        sysname = c.cstr().decode("latin-1")
        k = c.val(4, "event_formats", "%s event count" % sysname, "count")
        for j in range(k):
            parse_format(c.L, c.text(8, "event_format",
                                     "format %s[%d]" % (sysname, j)))
    if c.cont is None:
        c.L.region("event_formats", "event formats", start, c.pos - start)


def add_pages(L, cont, off, size, cpu, limit):
    p = 0
    while p < size and off + p < limit:
        n = min(L.page_size, size - p, limit - off - p)
        L.pages.append((cont, off + p, n, cpu))
        if cont is None:
            L.region("cpu_page", "CPU %d page %d" % (cpu, p // L.page_size),
                     off + p, n)
        p += L.page_size


def parse_v6(L, c):
    header_info(c)
    ftrace_formats(c)
    event_formats(c)
    for cat, w in (("kallsyms", 4), ("printk", 4), ("cmdlines", 8)):
        s = c.pos
        c.text(w, cat, cat)
        L.region(cat, cat, s, c.pos - s)
    s = c.pos
    cpus = c.val(4, "cpu_table", "CPU count", "count")
    tag = c.tag(10)
    if tag == b"options  \0":
        o = c.pos
        i = 0
        while True:
            oid = c.val(2, "options", "option %d id" % i)
            if oid == 0:
                break
            if oid == OPT_TRACECLOCK:
                L.has_clock_opt = True
            f = c.num(4, "options", "option %d (id %d) size" % (i, oid),
                      "size")
            c.need(f.value)
            f.cover = (c.pos, c.pos + f.value)
            L.texts.append(Text("option", "option %d (id %d)" % (i, oid),
                                c.pos, f.value, None, f))
            start = c.pos
            binary_option(c, oid, f.value)
            c.pos = start
            c.span(c.pos, c.pos + f.value)
            c.pos += f.value
            i += 1
        L.region("options", "options", o, c.pos - o)
        s = c.pos
        tag = c.tag(10)
    if tag != b"flyrecord\0":
        raise Bad("not flyrecord: %r" % tag)
    table = []
    for i in range(cpus):
        off = c.num(8, "cpu_table", "CPU %d data offset" % i, "ptr")
        size = c.num(8, "cpu_table", "CPU %d data size" % i, "size")
        size.cover = (off.value, off.value + size.value)
        table.append((off.value, size.value))
    if L.has_clock_opt:
        try:
            save = c.pos
            c.text(8, "clock", "trace clock")
        except Bad:
            c.pos = save
    L.region("cpu_table", "CPU count and flyrecord table", s, c.pos - s)
    for i, (off, size) in enumerate(table):
        if size:
            L.cpu_starts.append(off)
            add_pages(L, None, off, size, i, L.size)


def binary_option(c, oid, size):
    """The numbers of binary options, for evil values: TSC2NSEC (mult,
    shift, offset), CPUCOUNT."""
    if oid == 14 and size >= 16:
        c.val(4, "options", "TSC2NSEC mult")
        c.val(4, "options", "TSC2NSEC shift")
        c.val(8, "options", "TSC2NSEC offset")
    elif oid == 8 and size >= 4:
        c.val(4, "options", "CPUCOUNT", "count")


def open_section(L, off, want, what):
    """A v7 section header at off; returns (cursor on the body, flags)."""
    c = Cur(L, L.data, off)
    sid = c.val(2, "section", "%s id" % what)
    if sid != want:
        raise Bad("%s: section id %d, wanted %d" % (what, sid, want))
    flags = c.val(2, "section", "%s flags" % what)
    c.val(4, "section", "%s description" % what)
    size = c.num(8, "section", "%s size" % what, "size")
    c.need(size.value)
    size.cover = (c.pos, c.pos + size.value)
    body = c.pos
    if not flags & 1:
        return c, flags, body, size.value
    if L.comp != "zlib":
        L.region(SECTION_CAT.get(want, "options"), what + " (compressed)",
                 off, body - off + size.value)
        return None, flags, body, size.value
    csize = c.num(4, "section", "%s compressed size" % what, "size")
    csize.cover = (c.pos + 4, c.pos + 4 + csize.value)
    c.val(4, "section", "%s uncompressed size" % what)
    raw = L.data[c.pos:c.pos + csize.value]
    data = zlib.decompress(raw)
    tail = L.data[c.pos + csize.value:body + size.value]
    L.conts.append(Container("section", what, body, size.value, data, tail))
    return Cur(L, data, 0, len(L.conts) - 1), flags, body, size.value


def parse_v7(L, c):
    L.comp = c.cstr().decode("latin-1")
    c.cstr()
    first = c.num(8, "header", "options offset", "ptr").value
    L.region("header", "file header", 0, c.pos)
    secs = {}
    buffer = None
    off = first
    seen = set()
    k = 0
    while off and off not in seen:
        seen.add(off)
        oc, flags, body, size = open_section(L, off, OPT_DONE,
                                             "options section %d" % k)
        L.region("options", "options section %d" % k, off,
                 body - off + size)
        if oc is None:
            raise Bad("compressed options in a %s file" % L.comp)
        end = oc.pos + (size if oc.cont is None else len(oc.buf))
        nxt = 0
        i = 0
        while oc.pos < end:
            oid = oc.val(2, "options", "option %d.%d id" % (k, i))
            osz = oc.num(4, "options", "option %d.%d (id %d) size"
                         % (k, i, oid), "size")
            oc.need(osz.value)
            osz.cover = (oc.pos, oc.pos + osz.value)
            ostart = oc.pos
            if oid == OPT_DONE:
                nxt = oc.val(8, "options", "next options offset", "ptr")
                break
            if oid in SECTION_CAT:
                secs[oid] = oc.val(8, "options", "%s offset"
                                   % SECTION_CAT[oid], "ptr")
            elif oid == OPT_BUFFER:
                boff = oc.num(8, "cpu_table", "buffer offset", "ptr")
                name = oc.cstr()
                if name == b"":
                    oc.cstr()
                    oc.val(4, "cpu_table", "buffer page size")
                    n = oc.val(4, "cpu_table", "buffer CPU count", "count")
                    table = []
                    for j in range(n):
                        cpu = oc.val(4, "cpu_table", "CPU %d id" % j)
                        co = oc.num(8, "cpu_table", "CPU %d data offset" % cpu,
                                    "ptr")
                        cs = oc.num(8, "cpu_table", "CPU %d data size" % cpu,
                                    "size")
                        cs.cover = (co.value, co.value + cs.value)
                        table.append((cpu, co.value, cs.value))
                    buffer = (boff.value, table)
            else:
                L.texts.append(Text("option", "option %d.%d (id %d)"
                                    % (k, i, oid), ostart, osz.value,
                                    oc.cont, osz))
                binary_option(oc, oid, osz.value)
            oc.pos = ostart + osz.value
            oc.span(ostart, oc.pos)
            i += 1
        off = nxt
        k += 1
    for sid in sorted(secs):
        what = SECTION_CAT[sid]
        soff = secs[sid]
        sc, flags, body, size = open_section(L, soff, sid, what + " section")
        if sc is None:
            continue
        if sc.cont is not None:
            L.region(what, what + " section (zlib)", soff,
                     body - soff + size)
        else:
            L.region(what if sid != OPT_HEADER_INFO else "header_page",
                     what + " section header", soff, body - soff)
        if sid == OPT_HEADER_INFO:
            header_info(sc)
        elif sid == OPT_FTRACE_EVENTS:
            ftrace_formats(sc)
        elif sid == OPT_EVENT_FORMATS:
            event_formats(sc)
        else:
            s = sc.pos
            sc.text(8 if sid == OPT_CMDLINES else 4, what, what)
            if sc.cont is None:
                L.region(what, what, s, sc.pos - s)
    if buffer is None:
        return
    boff, table = buffer
    bc = Cur(L, L.data, boff)
    sid = bc.val(2, "cpu_table", "BUFFER section id")
    flags = bc.val(2, "cpu_table", "BUFFER section flags")
    bc.val(4, "cpu_table", "BUFFER section description")
    bsize = bc.num(8, "cpu_table", "BUFFER section size", "size")
    bsize.cover = (bc.pos, bc.pos + bsize.value)
    L.region("cpu_table", "BUFFER section header", boff, 16)
    for cpu, co, cs in table:
        if not cs:
            continue
        L.cpu_starts.append(co)
        if not flags & 1:
            add_pages(L, None, co, cs, cpu, L.size)
            continue
        cc = Cur(L, L.data, co)
        n = cc.val(4, "cpu_chunk", "CPU %d chunk count" % cpu, "count")
        for j in range(n):
            hdr = cc.pos
            csz = cc.num(4, "cpu_chunk", "CPU %d chunk %d compressed size"
                         % (cpu, j), "size")
            csz.cover = (cc.pos + 4, cc.pos + 4 + csz.value)
            cc.val(4, "cpu_chunk", "CPU %d chunk %d uncompressed size"
                   % (cpu, j))
            cc.need(csz.value)
            cc.span(cc.pos, cc.pos + csz.value)
            L.chunks.append((hdr, 8 + csz.value, cpu))
            L.region("cpu_chunk", "CPU %d chunk %d" % (cpu, j), hdr,
                     8 + csz.value)
            if L.comp == "zlib":
                data = zlib.decompress(L.data[cc.pos:cc.pos + csz.value])
                L.conts.append(Container("chunk", "CPU %d chunk %d"
                                         % (cpu, j), hdr, 8 + csz.value,
                                         data, b""))
                ci = len(L.conts) - 1
                add_pages(L, ci, 0, len(data), cpu, len(data))
            cc.pos += csz.value


def _parse(self):
    d = self.data
    if d[:10] != MAGIC:
        raise Bad("no magic")
    c = Cur(self, d, 10)
    ver = c.cstr()
    self.version = int(ver)
    self.end = "big" if d[c.pos] else "little"
    c.val(1, "header", "endianness")
    self.long_size = c.val(1, "header", "long size")
    self.commit_size = self.long_size
    self.data_off = 8 + self.long_size
    self.page_size = c.val(4, "header", "page size")
    if self.version == 6:
        self.region("header", "file header", 0, c.pos)
        parse_v6(self, c)
    else:
        parse_v7(self, c)
    last = max(e for s, e in self.spans)
    top = max([last] + [o + n for _, _, o, n in self.regions])
    if top < self.size:
        self.region("trailer", "after the last parsed byte", top,
                    self.size - top)


Layout._parse = _parse


# ---------------------------------------------------------------------------
# Editing: same-length writes, and splices that keep the file consistent


def put(L, buf, f, value, off=None):
    if value < 0 or value >= 1 << (8 * f.width):
        raise NA
    o = f.off if off is None else off
    buf[o:o + f.width] = value.to_bytes(f.width, "little" if f.width == 1
                                        else L.end)


def splice_file(L, data, a, b, new):
    """data[a:b] = new; sizes covering the edit and offsets past it are
    fixed.  The length change is absorbed by the zero padding before the
    next CPU data when there is room (so CPU data stays where it is), else
    everything after moves and the CPU offsets with it."""
    delta = len(new) - (b - a)
    out = bytearray(data[:a]) + new + data[b:]
    if delta == 0:
        return out
    D = min([s for s in L.cpu_starts if s >= b], default=None)
    comp = False
    if D is not None:
        meta_end = max([e for s, e in L.spans if s < D] + [b])
        comp = delta < 0 or D - meta_end >= delta
    if comp:
        # positions are in "out" now: D moved by delta too
        Dn = D + delta
        if delta > 0:
            del out[Dn - delta:Dn]
        else:
            out[Dn:Dn] = b"\0" * (-delta)

    def m(x, start=False):
        # an insertion at a (a == b) goes after a range ending at a and
        # before one starting at a
        if x < a or (start and x == a):
            return x
        if x < b:
            return a + min(x - a, len(new))
        if comp and x >= D:
            return x
        return x + delta

    for f in L.fields:
        if f.cont is not None:
            if f.role == "ptr" and f.value > a and m(f.value) != f.value:
                raise NA        # an offset inside a compressed block
            continue
        if a <= f.off < b or (f.off < a < f.off + f.width):
            continue
        pos = m(f.off)
        if f.role == "size" and f.cover:
            s, e = f.cover
            if e < s:
                continue
            nv = m(e) - m(s, True)
            if nv != f.value:
                put(L, out, f, nv, pos)
        elif f.role == "ptr" and f.value:
            nv = m(f.value)
            if nv != f.value:
                put(L, out, f, nv, pos)
    return out


def splice_cont(L, data, ci, a, b, new):
    """Edit bytes [a, b) of container ci and write it back compressed."""
    C = L.conts[ci]
    body = bytearray(C.data[:a]) + new + C.data[b:]
    delta = len(new) - (b - a)
    if delta:
        for f in L.fields:
            if f.cont != ci or f.role != "size" or not f.cover:
                continue
            s, e = f.cover
            if s <= a and b <= e and f.off + f.width <= a:
                put(L, body, f, f.value + delta)
    return replace_cont(L, data, ci, body)


def replace_cont(L, data, ci, body):
    C = L.conts[ci]
    z = zlib.compress(bytes(body))
    new = (len(z).to_bytes(4, L.end) + len(body).to_bytes(4, L.end) + z +
           C.tail)
    return splice_file(L, data, C.body_off, C.body_off + C.body_len,
                       bytearray(new))


def edit_text(L, data, t, new):
    if t.cont is None:
        return splice_file(L, data, t.off, t.off + t.length, new)
    return splice_cont(L, data, t.cont, t.off, t.off + t.length, new)


def text_bytes(L, t):
    buf = L.data if t.cont is None else L.conts[t.cont].data
    return bytes(buf[t.off:t.off + t.length])


# ---------------------------------------------------------------------------
# Mutators: fn(rng, base) -> (description, bytes); raise NA to redraw


def evil_values(rng, f, L):
    w = f.width
    top = (1 << (8 * w)) - 1
    v = f.value
    cands = [0, 1, top, top - 1, L.size, L.size + 1, v + 1, v - 1, v * 2,
             v + L.page_size, 1 << (8 * w - 1), (1 << (8 * w - 1)) - 1,
             rng.randrange(top + 1)]
    if w >= 4:
        cands += [0x7fffffff, 0x80000000, 0xfffffff0, L.size - 1,
                  L.size + 4096]
    if w >= 8:
        cands += [1 << 40, 1 << 62, (1 << 64) - 4096]
    if w == 1:
        cands += [2, 3, 4, 8, 16, 0x7f, 0x80]
    if "page size" in f.name:
        cands += [4095, 4097, 2048, 8192, 1 << 20, 1 << 21, 1 << 31]
    return [c for c in cands if 0 <= c <= top and c != v]


def pick_region(rng, L, cats=None):
    cats = [c for c in (cats or L.cats) if c in L.cats]
    if not cats:
        raise NA
    cat = rng.choice(cats)
    return rng.choice([r for r in L.regions if r[0] == cat])


def m_truncate(rng, base):
    L = base.L
    cat, name, off, n = pick_region(rng, L)
    pos = rng.choice([off, off + 1, off + n // 2, off + n - 1,
                      off + rng.randrange(n), off + n - 4, off + 8])
    pos = max(0, min(pos, L.size - 1))
    return ("truncate to %d bytes (%s: %s at 0x%x+%d)"
            % (pos, cat, name, off, pos - off)), L.data[:pos]


def m_flip(rng, base):
    L = base.L
    cat, name, off, n = pick_region(rng, L)
    out = bytearray(L.data)
    k = rng.choice([1, 1, 1, 2, 3, 4, 8, 16])
    where = []
    for _ in range(k):
        p = off + rng.randrange(n)
        bit = rng.randrange(8)
        out[p] ^= 1 << bit
        where.append("0x%x.%d" % (p, bit))
    return ("flip %d bit(s) in %s: %s at 0x%x: %s"
            % (k, cat, name, off, " ".join(where))), out


def m_bytes(rng, base):
    L = base.L
    cat, name, off, n = pick_region(rng, L)
    out = bytearray(L.data)
    k = rng.choice([1, 2, 4, 8])
    where = []
    for _ in range(k):
        p = off + rng.randrange(n)
        v = rng.choice([0, 0xff, rng.randrange(256), 0x7f, 0x80])
        out[p] = v
        where.append("0x%x=%02x" % (p, v))
    return ("bytes %d in %s: %s at 0x%x: %s"
            % (k, cat, name, off, " ".join(where))), out


def m_zero(rng, base):
    L = base.L
    fill = rng.choice([0, 0, 0xff])
    out = bytearray(L.data)
    if L.pages and rng.random() < 0.5:
        cont, off, n, cpu = rng.choice(L.pages)
        if cont is not None:
            body = bytearray(L.conts[cont].data)
            body[off:off + n] = bytes([fill]) * n
            return ("zero CPU %d page at 0x%x of zlib chunk %s with 0x%02x"
                    % (cpu, off, L.conts[cont].name, fill)), \
                replace_cont(L, L.data, cont, body)
        out[off:off + n] = bytes([fill]) * n
        return ("zero CPU %d page at 0x%x (%d bytes) with 0x%02x"
                % (cpu, off, n, fill)), out
    cat, name, off, n = pick_region(rng, L)
    if rng.random() < 0.5:
        a, ln = off, n
    else:
        a = off + rng.randrange(n)
        ln = min(rng.choice([4, 16, 256, 4096]), off + n - a)
    out[a:a + ln] = bytes([fill]) * ln
    return ("zero %d bytes at 0x%x with 0x%02x (%s: %s at 0x%x)"
            % (ln, a, fill, cat, name, off)), out


def m_evil(rng, base):
    L = base.L
    pool = [f for f in L.fields if f.role != "val"]
    if rng.random() < 0.25 or not pool:
        pool = L.fields
    f = rng.choice(pool)
    v = rng.choice(evil_values(rng, f, L))
    desc = ("evil %s (%s, %d bytes at %s0x%x) %d -> %d (0x%x)"
            % (f.name, f.cat, f.width,
               "" if f.cont is None else "zlib %s +" % L.conts[f.cont].name,
               f.off, f.value, v, v))
    if f.cont is None:
        out = bytearray(L.data)
        put(L, out, f, v)
        return desc, out
    body = bytearray(L.conts[f.cont].data)
    put(L, body, f, v)
    return desc, replace_cont(L, L.data, f.cont, body)


FIELD_RE = re.compile(rb"^[ \t]*field:[^\n]*\n", re.M)


def fmt_edits(rng, t, L, text):
    """Candidate malformations of a format text: [(description, new)]."""
    out = []

    def sub_one(pattern, repl, what):
        ms = list(re.finditer(pattern, text))
        if ms:
            m = rng.choice(ms)
            r = repl(m) if callable(repl) else repl
            out.append(("%s at +%d" % (what, m.start()),
                        text[:m.start()] + r + text[m.end():]))

    big = rng.choice([b"99999", b"4294967295", b"4294967296", b"-8",
                      b"18446744073709551615", b"99999999999999999999999",
                      b"65535", b"0x10", b""])
    sub_one(rb"offset:\d+;", b"offset:" + big + b";", "offset:" +
            big.decode())
    small = rng.choice([b"0", b"99999", b"-1", b"3", b"4294967296",
                        b"65536", b"1", b""])
    sub_one(rb"size:\d+;", b"size:" + small + b";", "size:" + small.decode())
    sub_one(rb"signed:\d;", rng.choice([b"signed:banana;", b"signed:;",
                                        b"signed:-1;"]), "signed garbage")
    fl = list(FIELD_RE.finditer(text))
    if fl:
        m = rng.choice(fl)
        out.append(("drop line %r" % m.group(0)[:40],
                    text[:m.start()] + text[m.end():]))
        m = rng.choice(fl)
        out.append(("double line %r" % m.group(0)[:40],
                    text[:m.end()] + m.group(0) + text[m.end():]))
        n = rng.choice([1000, 5000])
        out.append(("repeat line %r x%d" % (m.group(0)[:40], n),
                    text[:m.end()] + m.group(0) * n + text[m.end():]))
        out.append(("drop all %d field lines" % len(fl),
                    FIELD_RE.sub(b"", text)))
    ids = [i for i in L.formats]
    nid = rng.choice([b"4294967295", b"65535", b"65536", b"99999999999",
                      b"-1", b"0", b"", b"abc"] +
                     [str(i).encode() for i in rng.sample(ids, min(2,
                                                              len(ids)))])
    sub_one(rb"ID: *-?\w*", b"ID: " + nid, "ID: " + nid.decode())
    sub_one(rb"^name:[^\n]*\n", rng.choice([b"", b"name: \n",
                                           b"name: " + b"n" * 300 + b"\n"]),
            "name line")
    sub_one(rb"^format:[^\n]*\n", b"", "drop format: line")
    arr = rng.choice([b"[0]", b"[999999]", b"[-1]", b"[", b"[4294967296]",
                      b"[]"])
    sub_one(rb"\[\d+\]", arr, "array " + arr.decode())
    sub_one(rb"__data_loc [^;]*?\[\] (\w+)", lambda m: b"char " +
            m.group(1) + b"[4]", "__data_loc to char[4]")
    sub_one(rb"__rel_loc [^;]*?\[\] (\w+)", lambda m: b"char " +
            m.group(1) + b"[4]", "__rel_loc to char[4]")
    sub_one(rb"(?:char|u8|unsigned char) (\w+)\[\d+\]",
            lambda m: rng.choice([b"__data_loc char[] ", b"__rel_loc char[] "])
            + m.group(1), "char array to __data_loc/__rel_loc")
    sub_one(rb"(field:)(?:int|pid_t|long|u64|u32|unsigned \w+)",
            lambda m: m.group(1) + rng.choice([b"struct foo", b"long long long",
                                               b"unsigned char *", b"",
                                               b"pid_t[", b"__data_loc"]),
            "broken type")
    sub_one(rb"print fmt:[^\n]*", rng.choice([b"", b"print fmt: \"%s",
                                              b"print fmt: " + b"(" * 5000,
                                              b"print fmt: \"x\", " +
                                              b"{ 0xffffffffffffffffffff, \"S\" }, { 0x2, \"D\" } {"]),
            "print fmt")
    sub_one(rb"\{ 0x0*1, \"S\" \}", b"{ 0x0, \"S\" }", "S state bit 0")
    if text:
        p = rng.randrange(len(text) + 1)
        out.append(("cut at +%d" % p, text[:p]))
        junk = bytes(rng.randrange(256) for _ in range(rng.choice([1, 8, 64])))
        out.append(("insert %d junk bytes at +%d" % (len(junk), p),
                    text[:p] + junk + text[p:]))
        out.append(("no newlines", text.replace(b"\n", b" ")))
        out.append(("NULs for tabs", text.replace(b"\t", b"\0")))
        out.append(("a 200000-byte line at +%d" % p,
                    text[:p] + b"\tfield:" + b"x" * 200000 + b";\n" + text[p:]))
    out.append(("emptied", b""))
    if t.cat == "header_page":
        for pat, rep in ((rb"(commit;\s*offset:\d+;\s*size:)\d+", b"0"),
                         (rb"(commit;\s*offset:\d+;\s*size:)\d+", b"3"),
                         (rb"(commit;\s*offset:\d+;\s*size:)\d+", b"16"),
                         (rb"(commit;\s*offset:)\d+", b"4096"),
                         (rb"(data;\s*offset:)\d+", b"99999"),
                         (rb"(data;\s*offset:)\d+", b"0")):
            sub_one(pat, lambda m, rep=rep: m.group(1) + rep,
                    "header_page " + pat.decode()[:12] + "=" + rep.decode())
        sub_one(rb"[^\n]*commit;[^\n]*\n", b"", "header_page drop commit")
    if t.cat == "header_event":
        sub_one(rb"type_len\s*:\s*5", b"type_len : 7", "type_len 7 bits")
        sub_one(rb"padding\s*: type == 29", b"padding : type == 3",
                "padding type 3")
    return out


def m_format(rng, base):
    L = base.L
    cats = ["event_format", "ftrace_format", "header_page", "header_event"]
    ts = [t for t in L.texts if t.cat in cats]
    if not ts:
        raise NA
    # formats of the events the analyzer reads are hit more often
    hot = [t for t in ts if re.search(rb"sched_switch|sched_wakeup|stat_|"
                                      rb"latency_reason|kernel_stack|"
                                      rb"process_", text_bytes(L, t)[:200])]
    t = rng.choice(hot if hot and rng.random() < 0.7 else ts)
    text = text_bytes(L, t)
    what, new = rng.choice(fmt_edits(rng, t, L, text))
    return ("format %s (%s, %d bytes at %s0x%x): %s"
            % (t.name, t.cat, t.length,
               "" if t.cont is None else "zlib %s +" % L.conts[t.cont].name,
               t.off, what)), edit_text(L, L.data, t, bytearray(new))


def m_metatext(rng, base):
    L = base.L
    ts = [t for t in L.texts if t.cat in ("kallsyms", "printk", "cmdlines",
                                          "option", "clock")]
    if not ts:
        raise NA
    t = rng.choice(ts)
    text = text_bytes(L, t)
    lines = text.split(b"\n")
    p = rng.randrange(len(text) + 1)
    line = rng.choice(lines) if lines else b""
    cands = [
        ("emptied", b""),
        ("cut at +%d" % p, text[:p]),
        ("no newlines", text.replace(b"\n", b" ")),
        ("NULs for newlines", text.replace(b"\n", b"\0")),
        ("a 300000-byte line at +%d" % p,
         text[:p] + b"\n" + b"A" * 300000 + b"\n" + text[p:]),
        ("line %r x20000" % line[:30], text + (line + b"\n") * 20000),
        ("junk at +%d" % p, text[:p] + bytes(rng.randrange(256)
                                             for _ in range(32)) + text[p:]),
        ("numbers huge", re.sub(rb"\d+", b"99999999999999999999999", text)),
        ("numbers negative", re.sub(rb"\b(\d+)", rb"-\1", text)),
        ("fields blank", re.sub(rb"[ \t]+", b"", text)),
        ("high bytes", bytes((c | 0x80) if c > 32 else c for c in text)),
    ]
    what, new = rng.choice(cands)
    return ("metatext %s (%s, %d bytes at %s0x%x): %s"
            % (t.name, t.cat, t.length,
               "" if t.cont is None else "zlib %s +" % L.conts[t.cont].name,
               t.off, what)), edit_text(L, L.data, t, bytearray(new))


def page_buf(L, cont):
    return bytearray(L.data if cont is None else L.conts[cont].data)


def page_done(L, cont, buf):
    if cont is None:
        return buf
    return replace_cont(L, L.data, cont, buf)


def walk_page(L, buf, off, n):
    """Records of one page: [(hdr_off, type_len, data_off, data_len)]."""
    cs, do = L.commit_size, L.data_off
    if n < do:
        return []
    commit = int.from_bytes(buf[off + 8:off + 8 + cs], L.end) & ((1 << 27) - 1)
    commit = min(commit, n - do)
    base = off + do
    cur = 0
    recs = []
    while cur + 4 <= commit:
        hdr = int.from_bytes(buf[base + cur:base + cur + 4], L.end)
        tl = hdr >> 27 if L.end == "big" else hdr & 31
        if tl == 29:
            if not (hdr >> 5 if L.end == "little" else hdr & 0x7ffffff):
                break
            ln = int.from_bytes(buf[base + cur + 4:base + cur + 8], L.end)
            recs.append((base + cur, tl, None, 0))
            cur += 4 + ln
        elif tl in (30, 31):
            recs.append((base + cur, tl, None, 0))
            cur += 8
        elif tl == 0:
            ln = int.from_bytes(buf[base + cur + 4:base + cur + 8], L.end)
            if ln < 4:
                break
            dl = (ln - 4 + 3) & ~3
            recs.append((base + cur, 0, base + cur + 8, dl))
            cur += 8 + dl
        else:
            recs.append((base + cur, tl, base + cur + 4, tl * 4))
            cur += 4 + tl * 4
    return recs


def pick_record(rng, L):
    if not L.pages:
        raise NA
    for _ in range(20):
        cont, off, n, cpu = rng.choice(L.pages)
        buf = L.data if cont is None else L.conts[cont].data
        recs = walk_page(L, buf, off, n)
        data = [r for r in recs if r[2] is not None]
        if not data:
            continue
        known = [r for r in data if int.from_bytes(
            buf[r[2]:r[2] + 2], L.end) in L.formats]
        r = rng.choice(known if known and rng.random() < 0.9 else data)
        return cont, off, n, cpu, recs, r
    raise NA


def m_record(rng, base):
    L = base.L
    cont, poff, pn, cpu, recs, r = pick_record(rng, L)
    buf = page_buf(L, cont)
    hoff, tl, doff, dlen = r
    eid = int.from_bytes(buf[doff:doff + 2], L.end)
    name, fields = L.formats.get(eid, ("?", {}))
    where = "CPU %d record at %s0x%x (%s, %d bytes)" % (
        cpu, "" if cont is None else "zlib %s +" % L.conts[cont].name,
        hoff, name, dlen)

    def w(off, width, v):
        buf[off:off + width] = (v & ((1 << (8 * width)) - 1)).to_bytes(
            width, L.end)

    kinds = ["type", "hdr", "int"]
    locs = [(k, v) for k, v in fields.items()
            if "__data_loc" in v[0] or "__rel_loc" in v[0]]
    if locs:
        kinds += ["loc", "loc", "loc"]
    if tl == 0:
        kinds.append("array0")
    kind = rng.choice(kinds)
    if kind == "loc":
        fname, (decl, fo, fs) = rng.choice(locs)
        if fo + 4 > dlen:
            raise NA
        lo, ln = rng.choice([(0xffff, 0xffff), (dlen, 1), (dlen - 1, 2),
                             (0, dlen + 1), (fo, 0), (dlen, 0), (0, 0xffff),
                             (rng.randrange(0x10000), rng.randrange(0x10000))])
        w(doff + fo, 4, (ln << 16) | lo)
        desc = "__data_loc %s -> offset %d length %d" % (fname, lo, ln)
    elif kind == "type":
        nid = rng.choice([0, 0xffff, rng.randrange(0x10000)] +
                         list(L.formats))
        w(doff, 2, nid)
        desc = "common_type %d -> %d (%s)" % (
            eid, nid, L.formats.get(nid, ("unknown",))[0])
    elif kind == "int":
        ints = [(k, v) for k, v in fields.items()
                if v[2] in (1, 2, 4, 8) and v[1] + v[2] <= dlen and
                "[" not in v[0] and k != "common_type"]
        if not ints:
            raise NA
        fname, (decl, fo, fs) = rng.choice(ints)
        v = rng.choice([0, -1, 1, (1 << (8 * fs - 1)) - 1, 1 << (8 * fs - 1),
                        rng.randrange(1 << (8 * fs))])
        w(doff + fo, fs, v)
        desc = "field %s (%d bytes at +%d) -> %d" % (fname, fs, fo, v)
    elif kind == "array0":
        v = rng.choice([0, 1, 3, 5, 0xffffffff, 0x7fffffff, L.page_size,
                        dlen + 8, dlen + 5])
        w(hoff + 4, 4, v)
        desc = "array[0] length %d -> %d" % (dlen + 4, v)
    else:
        ntl = rng.choice([0, 1, 28, 29, 30, 31, rng.randrange(32)])
        delta = rng.choice([0, 1, (1 << 27) - 1, rng.randrange(1 << 27)])
        w(hoff, 4, (ntl << 27 | delta) if L.end == "big" else
          (ntl | delta << 5))
        desc = "event header type_len %d -> %d, delta %d" % (tl, ntl, delta)
    return "record %s: %s" % (where, desc), page_done(L, cont, buf)


def m_page(rng, base):
    L = base.L
    if not L.pages:
        raise NA
    cont, off, n, cpu = rng.choice(L.pages)
    buf = page_buf(L, cont)
    cs = L.commit_size
    where = "CPU %d page at %s0x%x" % (
        cpu, "" if cont is None else "zlib %s +" % L.conts[cont].name, off)
    if n < L.data_off:
        raise NA
    old = int.from_bytes(buf[off + 8:off + 8 + cs], L.end)
    room = n - L.data_off
    kind = rng.choice(["commit", "commit", "lost", "ts", "swap", "copy",
                       "header0"])
    top = (1 << (8 * cs)) - 1
    if kind == "commit":
        v = rng.choice([0, 1, 3, room, room + 1, room - 1, L.page_size,
                        top, (1 << 27) - 1, old + 4, old - 1 if old else 0])
        v &= top
        desc = "commit %d -> %d" % (old, v)
    elif kind == "lost":
        v = (old & ((1 << 27) - 1)) | (1 << 31) | rng.choice([0, 1 << 30])
        desc = "missed-events flags 0x%x" % v
        if v & (1 << 30):
            c = old & ((1 << 27) - 1)
            cnt = rng.choice([0, 1, top, 1 << 31, rng.randrange(top)])
            p = off + L.data_off + c
            if p + cs <= off + n:
                buf[p:p + cs] = cnt.to_bytes(cs, L.end)
                desc += " count %d" % cnt
        v &= top
    if kind in ("commit", "lost"):
        buf[off + 8:off + 8 + cs] = v.to_bytes(cs, L.end)
    elif kind == "ts":
        v = rng.choice([0, 1, (1 << 64) - 1, 1 << 63, (1 << 59) - 1])
        buf[off:off + 8] = v.to_bytes(8, L.end)
        desc = "page timestamp -> %d" % v
    elif kind == "header0":
        buf[off:off + L.data_off] = b"\0" * L.data_off
        desc = "page header zeroed"
    else:
        same = [p for p in L.pages if p[0] == cont and p[2] == n and
                p[1] != off]
        if not same:
            raise NA
        o = rng.choice(same)
        src = bytes(buf[o[1]:o[1] + n])
        if kind == "swap":
            buf[o[1]:o[1] + n] = buf[off:off + n]
            desc = "swapped with CPU %d page at 0x%x" % (o[3], o[1])
        else:
            desc = "overwritten by CPU %d page at 0x%x" % (o[3], o[1])
        buf[off:off + n] = src
    return "page %s: %s" % (where, desc), page_done(L, cont, buf)


def m_splice(rng, base):
    L = base.L
    p = rng.randrange(L.size)
    if rng.random() < 0.5:
        junk = bytes(rng.randrange(256) for _ in range(
            rng.choice([1, 4, 8, 100, 4096])))
        return ("splice %d random bytes in at 0x%x" % (len(junk), p)), \
            L.data[:p] + junk + L.data[p:]
    n = min(rng.choice([1, 4, 8, 100, 4096, 65536]), L.size - p)
    return ("splice out %d bytes at 0x%x" % (n, p)), L.data[:p] + L.data[p + n:]


SIMPLE = None  # set below: mutators that keep the length


def m_multi(rng, base):
    L0 = base.L
    descs = []
    k = rng.randrange(2, 5)
    data = L0.data
    for _ in range(k):
        for _try in range(10):
            fn = rng.choice(SIMPLE)
            try:
                d, new = fn(rng, base)
            except NA:
                continue
            if len(new) != len(data):
                continue
            # merge: take the bytes this mutation changed
            data = bytearray(data)
            diff = [i for i in range(len(new)) if new[i] != L0.data[i]] \
                if len(new) < 65536 else None
            if diff is None:
                data = merge_big(L0.data, data, new)
            else:
                for i in diff:
                    data[i] = new[i]
            descs.append(d)
            break
    if not descs:
        raise NA
    return "multi " + " + ".join(descs), data


def merge_big(orig, acc, new):
    """acc with the bytes where new differs from orig (in 4 KiB strides)."""
    out = bytearray(acc)
    for s in range(0, len(orig), 4096):
        a, b = orig[s:s + 4096], new[s:s + 4096]
        if a != b:
            for i in range(len(a)):
                if a[i] != b[i]:
                    out[s + i] = b[i]
    return out


MUTATORS = [
    ("truncate", m_truncate, 14),
    ("flip", m_flip, 12),
    ("bytes", m_bytes, 6),
    ("zero", m_zero, 6),
    ("evil", m_evil, 16),
    ("format", m_format, 16),
    ("metatext", m_metatext, 5),
    ("record", m_record, 12),
    ("page", m_page, 7),
    ("splice", m_splice, 3),
    ("multi", m_multi, 5),
]
SIMPLE = [m_flip, m_bytes, m_evil, m_record, m_page, m_zero]


# ---------------------------------------------------------------------------
# Inputs

SYNTH = [
    # (name, script, --set options)
    ("annotated-v6-le8", "tests/analysis/annotated.trs", []),
    ("annotated-v6-be4", "tests/analysis/annotated.trs",
     ["endian=big", "long=4"]),
    ("annotated-v7-le8", "tests/analysis/annotated.trs", ["version=7"]),
    ("annotated-v7-zlib-be8", "tests/analysis/annotated.trs",
     ["version=7", "compression=zlib", "endian=big"]),
    ("annotated-v7-zlib-le4", "tests/analysis/annotated.trs",
     ["version=7", "compression=zlib", "long=4"]),
    ("basic-v6-le8", "tests/tracedat/data/basic.trs", []),
    ("basic-v7-zlib-be4", "tests/tracedat/data/basic.trs",
     ["version=7", "compression=zlib", "endian=big", "long=4"]),
    ("bigev-v7-le8", "tests/tracedat/data/bigev.trs", ["version=7"]),
    ("multi-v6-be8", "tests/tracedat/data/multi.trs", ["endian=big"]),
    ("options-v6-le8", "tests/tracedat/data/options.trs", []),
    ("options-v7-zlib-le8", "tests/tracedat/data/options.trs",
     ["version=7", "compression=zlib"]),
]
CONV = [
    # (name, sample, file version)
    ("kernel-patched-6.1-v6", "kernel-patched-6.1.dat", 6),
    ("kernel-patched-6.1-v7none", "kernel-patched-6.1.dat", 7),
    ("local-golden-stacks-v6", "local-golden-stacks.dat", 6),
    # trace-cmd here has no zlib: this one is the v7 plain conversion
    # compressed by zlibify() below
    ("kernel-module-6.12-v7zlib", "kernel-module-6.12.dat", "7zlib"),
]


def zlibify(data, pages_per_chunk=8):
    """A plain v7 file -> the same trace with zlib sections and CPU chunks,
    as trace-cmd would write it with zlib."""
    L = Layout(data)
    if L.version != 7 or L.comp != "none":
        raise Bad("zlibify wants a plain v7 file")
    i = data.index(b"none\0", 10)
    data = bytearray(data)
    data[i:i + 4] = b"zlib"
    for sid in sorted(SECTION_CAT):
        L = Layout(bytes(data))
        what = SECTION_CAT[sid] + " section"
        fl = [f for f in L.fields if f.name == what + " flags"]
        sz = [f for f in L.fields if f.name == what + " size"]
        if not fl or not sz:
            continue
        fl, sz = fl[0], sz[0]
        a, b = sz.cover
        body = bytes(data[a:b])
        z = zlib.compress(body)
        put(L, data, fl, fl.value | 1)
        data = splice_file(L, data, a, b, bytearray(
            len(z).to_bytes(4, L.end) + len(body).to_bytes(4, L.end) + z))
    L = Layout(bytes(data))
    cpus = [f for f in L.fields if f.role == "size" and
            f.cat == "cpu_table" and f.name.startswith("CPU ")]
    for k in range(len(cpus)):
        L = Layout(bytes(data))
        f = [f for f in L.fields if f.role == "size" and
             f.cat == "cpu_table" and f.name.startswith("CPU ")][k]
        a, b = f.cover
        if a == b:
            continue
        raw = bytes(data[a:b])
        step = L.page_size * pages_per_chunk
        parts = [raw[j:j + step] for j in range(0, len(raw), step)]
        new = bytearray(len(parts).to_bytes(4, L.end))
        for part in parts:
            z = zlib.compress(part)
            new += len(z).to_bytes(4, L.end) + len(part).to_bytes(4, L.end) + z
        data = splice_file(L, data, a, b, new)
    L = Layout(bytes(data))
    fl = [f for f in L.fields if f.name == "BUFFER section flags"][0]
    put(L, data, fl, fl.value | 1)
    return bytes(data)


class Base:
    def __init__(self, name, path, data, L):
        self.name, self.path, self.data, self.L = name, path, data, L


def build_inputs(workdir, log):
    """The bases, in a fixed order; what could not be had is said."""
    inp = os.path.join(workdir, "inputs")
    os.makedirs(inp, exist_ok=True)
    paths = []
    for d, tag in (("tests/data/real", "real"), ("samples", "sample")):
        full = os.path.join(ROOT, d)
        for f in sorted(os.listdir(full)):
            if f.endswith(".dat"):
                paths.append(("%s/%s" % (tag, f[:-4]), os.path.join(full, f)))
    tc = shutil.which("trace-cmd")
    for name, sample, ver in CONV:
        out = os.path.join(inp, name + ".dat")
        src = os.path.join(ROOT, "samples", sample)
        if not (os.path.exists(out) and
                os.path.getmtime(out) >= os.path.getmtime(src)):
            if not tc:
                log("note: no trace-cmd: conv/%s skipped" % name)
                continue
            tmp = out + ".tmp"
            r = subprocess.run([tc, "convert", "-i", src, "-o", tmp,
                                "--file-version", str(ver)[0],
                                "--compression", "none"],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
            if r.returncode or not os.path.exists(tmp):
                log("note: trace-cmd convert failed for %s: %s" %
                    (name, r.stderr.decode(errors="replace").strip()[-200:]))
                continue
            if ver == "7zlib":
                with open(tmp, "rb") as f:
                    z = zlibify(f.read())
                with open(tmp, "wb") as f:
                    f.write(z)
            os.replace(tmp, out)
        paths.append(("conv/" + name, out))
    for name, script, sets in SYNTH:
        out = os.path.join(inp, name + ".dat")
        argv = [sys.executable, MKTRACE, os.path.join(ROOT, script), "-o",
                out]
        for s in sets:
            argv += ["--set", s]
        r = subprocess.run(argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if r.returncode:
            log("note: mktrace failed for %s: %s" %
                (name, r.stderr.decode(errors="replace").strip()[-200:]))
            continue
        paths.append(("synth/" + name, out))
    bases = []
    for name, path in paths:
        with open(path, "rb") as f:
            data = f.read()
        try:
            L = Layout(data)
        except Bad as e:
            log("note: %s: cannot map (%s): only raw mutations" % (name, e))
            L = None
        bases.append(Base(name, path, data, L))
    return bases


class RawLayout:
    """For a base the parser cannot map: the file is one region."""

    def __init__(self, data):
        self.data, self.size = data, len(data)
        self.regions = [("file", "whole file", 0, len(data))]
        self.cats = ["file"]
        self.fields, self.texts, self.pages, self.conts = [], [], [], []
        self.formats, self.page_size = {}, 4096


# ---------------------------------------------------------------------------
# One case


def make_case(seed, case, bases):
    rng = random.Random("latencytop-mutation/%d/%d" % (seed, case))
    names = [m[0] for m in MUTATORS]
    weights = [m[2] for m in MUTATORS]
    for _ in range(200):
        mi = rng.choices(range(len(MUTATORS)), weights)[0]
        base = rng.choice(bases)
        try:
            desc, data = MUTATORS[mi][1](rng, base)
        except NA:
            continue
        if bytes(data) == base.data:
            continue
        opts = ["-q"] if rng.random() < 0.8 else []
        fmt = rng.choice(["text"] * 10 + ["json"] * 8 + ["csv"])
        if fmt != "text":
            opts.append("--format=" + fmt)
        partial = rng.random() < 0.5
        if partial:
            opts.append("--partial")
        for extra, p in ((["--stacks"], 0.1), (["--per-thread"], 0.1),
                         (["--sort=total"], 0.05),
                         (["--kernel-threads"], 0.05),
                         (["--window=10ms"], 0.05),
                         (["--from=1ms", "--to=200ms"], 0.03)):
            if rng.random() < p:
                opts += extra
        return dict(case=case, mutator=names[mi], base=base.name, desc=desc,
                    data=bytes(data), opts=opts, fmt=fmt, partial=partial)
    raise RuntimeError("case %d: no mutation applies" % case)


# ---------------------------------------------------------------------------
# Running and judging

SAN_RE = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|"
                    r"runtime error:|SUMMARY: \w+Sanitizer|"
                    r"==\d+==ERROR|AddressSanitizer:DEADLYSIGNAL")
DOCUMENTED = {0, 2, 3, 4, 5, 6}


class Runner:
    def __init__(self, analyzer, timeout, mem_mb):
        self.analyzer = analyzer
        self.timeout = timeout
        self.mem_mb = mem_mb
        with open(analyzer, "rb") as f:
            self.asan = b"__asan_init" in f.read()
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join([
            "detect_leaks=1", "exitcode=86", "abort_on_error=0",
            "allocator_may_return_null=1",
            "max_allocation_size_mb=%d" % mem_mb,
            "hard_rss_limit_mb=%d" % mem_mb, "symbolize=1",
            env.get("ASAN_OPTIONS", "")]).rstrip(":")
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=87"
        env["LSAN_OPTIONS"] = "exitcode=88"
        env.pop("XDG_CONFIG_HOME", None)
        env["HOME"] = "/nonexistent"     # no user translation tables
        env["LC_ALL"] = "C"
        self.env = env
        self.gnu_time = None
        t = shutil.which("time", path="/usr/bin:/bin")
        if t and subprocess.run([t, "-f", "%M", "-o", os.devnull, "true"],
                                stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode == 0:
            self.gnu_time = t

    def argv(self, path, opts):
        cmd = [self.analyzer] + opts + [path]
        if self.asan:
            return cmd          # ASan reserves terabytes of address space
        return ["/bin/sh", "-c", 'ulimit -v %d && exec "$0" "$@"'
                % (self.mem_mb * 1024)] + cmd

    def run(self, path, opts):
        """(exit status, negative for a signal, None on timeout; stdout;
        stderr; seconds; peak RSS in KiB, 0 if unknown)."""
        t0 = time.monotonic()
        argv = self.argv(path, opts)
        rssfile = None
        if self.gnu_time:
            # GNU time forks the analyzer from its own small process, so
            # the peak RSS is the analyzer's, not this Python's
            # beside no input: the regression corpus is in the source tree
            fd, rssfile = tempfile.mkstemp(prefix="lt-mutation-", suffix=".rss")
            os.close(fd)
            argv = [self.gnu_time, "-f", "%x %M", "-o", rssfile] + argv
        p = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        got = {}

        def drain(name, f):
            got[name] = f.read()
            f.close()

        readers = [threading.Thread(target=drain, args=(n, f))
                   for n, f in (("out", p.stdout), ("err", p.stderr))]
        for r in readers:
            r.start()
        timed_out = []

        def kill():
            timed_out.append(True)
            try:
                os.killpg(p.pid, 9)
            except OSError:
                pass

        timer = threading.Timer(self.timeout, kill)
        timer.start()
        rc = p.wait()
        timer.cancel()
        for r in readers:
            r.join()
        rss = 0
        if rssfile:
            try:
                with open(rssfile) as f:
                    lines = f.read().split("\n")
            except OSError:
                lines = []
            try:
                os.unlink(rssfile)
            except OSError:
                pass
            for line in lines:
                m = re.match(r"Command terminated by signal (\d+)", line)
                if m:
                    rc = -int(m.group(1))
                m = re.match(r"(-?\d+) (\d+)$", line)
                if m:
                    rss = int(m.group(2))
        if timed_out:
            rc = None
        return (rc, got.get("out", b""), got.get("err", b""),
                time.monotonic() - t0, rss)


def judge(rc, out, err, path, opts, fmt, partial):
    """(outcome, [violations])."""
    v = []
    errs = err.decode("utf-8", "replace")
    if rc is None:
        return "hang", ["hang: no exit within the timeout"]
    if "rss limit exhausted" in errs or "allocation-size-too-big" in errs \
            or "out-of-memory" in errs:
        return "memory", ["memory: the memory limit killed it: " +
                          errs.strip().split("\n")[0][:200]]
    if SAN_RE.search(errs):
        m = SAN_RE.search(errs)
        line = errs[m.start():].split("\n")[0]
        return "sanitizer", ["sanitizer: " + line[:200]]
    if rc < 0:
        return "crash", ["crash: killed by signal %d" % -rc]
    if rc in (86, 87, 88):
        return "sanitizer", ["sanitizer: exit %d" % rc]
    outcome = {0: "report", 5: "partial"}.get(rc, "error %d" % rc)
    # a damaged stamp can stretch the trace past what --window can cut:
    # then the option is what to change (latency-analyze(1), --window)
    window_too_short = (rc == 1 and "windows allowed; use --window" in errs
                        and any(o.startswith("--window") for o in opts))
    if rc not in DOCUMENTED and not window_too_short:
        v.append("exit: status %d is not a documented one" % rc if rc != 1
                 else "exit: 1 (usage) for a valid command line")
    if rc == 5 and not partial:
        v.append("exit: 5 without --partial")
    quiet = "-q" in opts
    lines = [x for x in errs.split("\n") if x != ""]
    pre = "%s: %s: " % (PROG, path)
    if rc in (0, 5):
        rep = check_report(out, fmt, rc == 5,
                           any(o.startswith("--window") for o in opts))
        if rep:
            v.append(("silent: " if rc == 0 else "partial: ") + rep)
        if rc == 0 and quiet and lines:
            v.append("message: exit 0 with stderr %r" % errs[:200])
        if rc == 5:
            ppre = "%s: %s: " % (PROG, path)
            want = [x for x in lines if not x.startswith(PROG + ": warning: ")]
            if len(want) != 1 or not want[0].startswith(ppre) or \
                    not want[0].endswith("(the report is partial)"):
                v.append("message: partial report stderr %r" % errs[:300])
    elif rc in DOCUMENTED:
        if out.strip():
            v.append("message: exit %d but %d bytes on stdout" % (rc, len(out)))
        errl = [x for x in lines if not x.startswith(PROG + ": warning: ")]
        if quiet and len(lines) != 1:
            v.append("message: %d stderr lines: %r" % (len(lines), errs[:300]))
        elif len(errl) != 1:
            v.append("message: %d error lines: %r" % (len(errl), errs[:300]))
        elif not errl[0].startswith(pre) or len(errl[0]) <= len(pre):
            v.append("message: does not start with %r: %r" % (pre, errl[0][:200]))
    if not quiet:
        bad = [x for x in lines if not x.startswith(PROG + ": ")]
        if bad:
            v.append("message: stderr line not from %s: %r" % (PROG, bad[0][:200]))
    return outcome, v


def check_report(out, fmt, want_partial, windows=False):
    """None if out is a real report (partial as wanted), else why not."""
    if fmt == "csv":
        if not out.startswith(b"view,start_ns,end_ns,"):
            return "no CSV header in %d bytes of output" % len(out)
        return None
    if fmt == "json":
        try:
            d = json.loads(out.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            return "no JSON report (%s; %d bytes)" % (str(e)[:80], len(out))
        if not isinstance(d, dict) or not re.fullmatch(r"latencytop-report/1(\.[0-9]+)?",
                                                 str(d.get("schema"))):
            return "JSON without schema latencytop-report/1"
        if d.get("partial") is not want_partial:
            return "JSON partial is %r" % d.get("partial")
        if want_partial and not d.get("partial_reason"):
            return "JSON partial without partial_reason"
        if not isinstance(d.get("global"), list) or \
                not isinstance(d.get("processes"), list):
            return "JSON without global[]/processes[]"
        bad = negatives(d)
        if bad:
            return "report: negative %s" % bad
        return None
    s = out.decode("utf-8", "replace")
    first = s.split("\n", 1)[0]
    if not first.startswith(PROG + " ") or "\nTrace: " not in s:
        return "no report header in %d bytes of output" % len(out)
    # --window: no window at all when nothing was charged
    if "Global latencies" not in s and not (
            windows and "\n(no latencies in this range)\n" in s):
        return "no \"Global latencies\" in %d bytes of output" % len(out)
    marked = "** PARTIAL REPORT **" in first and "\nPartial:" in s
    if marked != want_partial:
        return "text report %s marked partial" % ("not" if want_partial
                                                    else "wrongly")
    return None


def negatives(d, path="$"):
    if isinstance(d, dict):
        for k, x in d.items():
            if isinstance(x, (int, float)) and not isinstance(x, bool) and \
                    x < 0 and (k.endswith("_ns") or k in ("count", "events")):
                return "%s.%s = %r" % (path, k, x)
            r = negatives(x, path + "." + k)
            if r:
                return r
    elif isinstance(d, list):
        for i, x in enumerate(d):
            r = negatives(x, "%s[%d]" % (path, i))
            if r:
                return r
    return None


# ---------------------------------------------------------------------------
# Main


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--analyzer", help="the latency-analyze binary")
    ap.add_argument("--cases", type=int, default=600)
    ap.add_argument("--first", type=int, default=0,
                    help="first case number (cases FIRST..FIRST+CASES-1)")
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("LT_MUTATION_SEED", "1")))
    ap.add_argument("--case", type=int, action="append",
                    help="run only this case (repeatable)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--mem-mb", type=int, default=2048)
    ap.add_argument("--workdir")
    ap.add_argument("--save-dir", help="where failing inputs go "
                    "(default WORKDIR/failures)")
    ap.add_argument("--keep", help="with --case: also write the damaged "
                    "file here")
    ap.add_argument("--regress", help="also replay every *.dat in this "
                    "directory")
    ap.add_argument("--list-inputs", action="store_true")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="one line per case")
    a = ap.parse_args()

    tmp = None
    workdir = a.workdir
    if not workdir:
        tmp = workdir = tempfile.mkdtemp(prefix="lt-mutation-")
    os.makedirs(workdir, exist_ok=True)
    save = a.save_dir or os.path.join(workdir, "failures")
    log = lambda s: print(s, flush=True)
    bases = build_inputs(workdir, log)
    for b in bases:
        if b.L is None:
            b.L = RawLayout(b.data)
    if a.list_inputs:
        for b in bases:
            L = b.L
            print("%-36s %9d bytes  v%s %-5s %-6s %4d fields %3d texts "
                  "%5d pages %4d chunks  %s" % (
                      b.name, len(b.data), getattr(L, "version", "?"),
                      getattr(L, "comp", "?"), getattr(L, "end", "?"),
                      len(L.fields), len(L.texts), len(L.pages),
                      len(getattr(L, "chunks", [])), " ".join(L.cats)))
        return 0
    if not a.analyzer or not os.access(a.analyzer, os.X_OK):
        print("mutate.py: --analyzer must name the latency-analyze binary",
              file=sys.stderr)
        return 2
    runner = Runner(os.path.abspath(a.analyzer), a.timeout, a.mem_mb)
    rundir = os.path.join(workdir, "run")
    os.makedirs(rundir, exist_ok=True)

    cases = a.case if a.case else range(a.first, a.first + a.cases)
    print("mutation: %d cases, seed %d, %d inputs, %s%s, %d jobs, "
          "timeout %gs, memory %d MB" % (
              len(cases), a.seed, len(bases), runner.analyzer,
              " (ASan)" if runner.asan else "", a.jobs, a.timeout, a.mem_mb),
          flush=True)

    lock = threading.Lock()
    counts = {}
    per_mut = {}
    violations = []
    slowest = []
    peak = [0, None]
    done = [0]

    def record(label, mut, outcome, viol, desc, item, rc, out, err, dt,
               rss, data=None, src=None):
        with lock:
            slowest.append((dt, label))
            slowest.sort(reverse=True)
            del slowest[5:]
            if rss > peak[0]:
                peak[0], peak[1] = rss, label
            counts[outcome] = counts.get(outcome, 0) + 1
            pm = per_mut.setdefault(mut, {})
            pm[outcome] = pm.get(outcome, 0) + 1
            done[0] += 1
            if a.verbose:
                print("%s %-9s %s\n    %s%s" % (
                    label, outcome, desc[:200],
                    err.decode("utf-8", "replace").strip()[:300],
                    "\n    " + "; ".join(viol) if viol else ""), flush=True)
            if not viol:
                return
            os.makedirs(save, exist_ok=True)
            stem = os.path.join(save, label)
            if data is not None:
                with open(stem + ".dat", "wb") as f:
                    f.write(data)
            elif src:
                shutil.copyfile(src, stem + ".dat")
            with open(stem + ".txt", "w") as f:
                f.write("%s\n%s\n" % (label, desc))
                f.write("command: %s %s %s.dat\n" % (
                    runner.analyzer, " ".join(item), stem))
                f.write("exit: %s  time: %.2fs  peak RSS: %d KiB\n"
                        % (rc, dt, rss))
                f.write("violations:\n  %s\n" % "\n  ".join(viol))
                f.write("stderr:\n%s\n" % err.decode("utf-8", "replace")[-8000:])
                f.write("stdout (first 2000 bytes):\n%s\n"
                        % out[:2000].decode("utf-8", "replace"))
            violations.append((label, desc, viol, stem))
            print("VIOLATION %s: %s\n    %s\n    saved: %s.dat" % (
                label, desc, "\n    ".join(viol), stem), flush=True)

    def one(case):
        c = make_case(a.seed, case, bases)
        path = os.path.join(rundir, "case-%d.dat" % case)
        with open(path, "wb") as f:
            f.write(c["data"])
        if a.keep and len(cases) == 1:
            shutil.copyfile(path, a.keep)
        rc, out, err, dt, rss = runner.run(path, c["opts"])
        outcome, viol = judge(rc, out, err, path, c["opts"], c["fmt"],
                              c["partial"])
        desc = "%s: %s [%s]" % (c["base"], c["desc"], " ".join(c["opts"]))
        record("seed%d-case%d" % (a.seed, case), c["mutator"], outcome, viol,
               desc, c["opts"], rc, out, err, dt, rss, data=c["data"])
        os.unlink(path)

    def regress(path):
        for opts, fmt, partial in ((["-q"], "text", False),
                                   (["-q", "--partial", "--format=json"],
                                    "json", True),
                                   (["--partial", "--stacks", "--per-thread"],
                                    "text", True)):
            rc, out, err, dt, rss = runner.run(path, opts)
            outcome, viol = judge(rc, out, err, path, opts, fmt, partial)
            name = os.path.basename(path)
            record("regress-%s" % name[:-4], "regress", outcome, viol,
                   "regression input %s [%s]" % (path, " ".join(opts)),
                   opts, rc, out, err, dt, rss, src=path)

    t0 = time.monotonic()
    jobs = []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        if a.regress and os.path.isdir(a.regress) and not a.case:
            for f in sorted(os.listdir(a.regress)):
                if f.endswith(".dat"):
                    jobs.append(ex.submit(regress,
                                          os.path.join(a.regress, f)))
        jobs += [ex.submit(one, c) for c in cases]
        failed = 0
        for j in concurrent.futures.as_completed(jobs):
            e = j.exception()
            if e:
                failed += 1
                import traceback
                traceback.print_exception(type(e), e, e.__traceback__)
    elapsed = time.monotonic() - t0

    order = ["report", "partial", "error 2", "error 3", "error 4", "error 6"]
    keys = order + sorted(k for k in counts if k not in order)
    print("\nper mutation:")
    for mut in [m[0] for m in MUTATORS] + ["regress"]:
        if mut in per_mut:
            pm = per_mut[mut]
            print("  %-9s %5d: %s" % (mut, sum(pm.values()), ", ".join(
                "%s %d" % (k, pm[k]) for k in keys if k in pm)))
    print("slowest runs: %s" % ", ".join("%s %.2fs" % (l, t)
                                         for t, l in slowest))
    if runner.gnu_time:
        print("largest peak RSS: %.1f MB (%s)" % (peak[0] / 1024.0, peak[1]))
    print("mutation: %d runs in %.1fs: %s; "
          "%d violation(s)%s" % (
              done[0], elapsed,
              ", ".join("%s %d" % (k, counts[k]) for k in keys if k in counts),
              len(violations),
              "; %d generator error(s)" % failed if failed else ""))
    for label, desc, viol, stem in sorted(violations):
        print("  %s: %s\n      %s" % (label, "; ".join(viol), desc[:300]))
    if violations:
        print("reproduce one: %s --analyzer %s --seed %d --case N "
              "--keep /tmp/case.dat" % (sys.argv[0], runner.analyzer, a.seed))
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if violations or failed else 0


if __name__ == "__main__":
    sys.exit(main())
