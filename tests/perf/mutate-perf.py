#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mutate-perf.py - the mutation test (issue 5) for the perf.data reader.

Damaged copies of real and synthetic perf.data files go through
lt-perf-dump (tests/tools/lt-perf-dump.c), which reads them with the
library's reader as the analyzer will; every run must end cleanly.

Usage:
    mutate-perf.py --dump PATH --inputs DIR... [--seeds DIR] [--cases N]
                   [--seed S] [--jobs J] [--workdir DIR] [--save-dir DIR]
    mutate-perf.py --dump PATH --inputs DIR --seed S --case K --keep FILE

Each input is mapped by a small perf.data reader here (file and pipe
mode, either byte order): the header's fields, each attr's fields and
ids, the feature table and sections, the tracing data's sizes and texts,
and every record (its header, a sample's fields, RAW, the callchain, the
sample_id trailer), so damage is aimed:

  truncate  cut the file inside a chosen part
  flip      flip 1..16 bits in a part
  bytes     overwrite 1..8 bytes in a part (0, 0xff, random)
  evil      a size, count, offset or field set to 0, 1, -1, huge, the
            file's size, off by one, 2^31, 2^48, ...
  text      a number in the tracing data's texts (offset:, size:, ID:)
            made huge, negative or zero, same length
  splice    bytes inserted or cut out, nothing fixed up
  multi     2..4 of the above at once

Half the cases damage the real recordings (tests/data/perf), half the
synthetic files test-perf-reader (perf/reader) writes.  Each run is lt-perf-dump with a random
set of --all, --chain, --info, --stats, --continue, --queue 1 (the
smallest queue); a pipe-mode file comes through a pipe half the time (a
file-mode one rarely: it is refused).  Violations:

  crash      death by a signal
  hang       no exit within --timeout seconds (10)
  sanitizer  an ASan/UBSan/LSan report
  memory     the memory limit (--mem-mb, 2048) killed it
  exit       a status other than 0, 2, 3, 6 (1 is usage: wrong here)
  message    an error line not "lt-perf-dump: <name>: <what>", or more than
             one without --continue

Exit status: 0 without violations, 1 with, 2 on a setup error.  Failing
inputs are saved in --save-dir with a .txt saying how to rerun them.
"""
import argparse
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

PROG = "lt-perf-dump"
DOCUMENTED = {0, 2, 3, 6}
SAN_RE = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|"
                    r"SUMMARY: UndefinedBehaviorSanitizer")


# ---- a map of the file -------------------------------------------------------

class Map:
    """Numbers (name, off, width), parts (name, off, size), texts."""

    def __init__(self, data):
        self.data = data
        self.fields = []
        self.parts = []
        self.texts = []
        self.be = data[:8] == b"2ELIFREP"
        self.e = ">" if self.be else "<"

    def u(self, off, n):
        if off + n > len(self.data):
            raise ValueError("short")
        return struct.unpack_from(self.e + {2: "H", 4: "I", 8: "Q"}[n],
                                  self.data, off)[0]

    def field(self, name, off, n):
        if 0 <= off and off + n <= len(self.data):
            self.fields.append((name, off, n))

    def part(self, name, off, size):
        if size > 0 and off < len(self.data):
            self.parts.append((name, off, min(size, len(self.data) - off)))


def map_tracing_data(m, off, size):
    end = off + size
    m.part("tracing_data", off, size)
    p = off + 10
    p = m.data.index(b"\0", p, end) + 1
    m.field("td.endian", p, 1)
    m.field("td.long", p + 1, 1)
    m.field("td.page_size", p + 2, 4)
    p += 6
    for tag in (b"header_page\0", b"header_event\0"):
        p += len(tag)
        n = m.u(p, 8)
        m.field("td.%s.size" % tag[:-1].decode(), p, 8)
        m.texts.append(("td." + tag[:-1].decode(), p + 8, n))
        p += 8 + n
    n = m.u(p, 4)
    m.field("td.ftrace_count", p, 4)
    p += 4
    for _ in range(n):
        k = m.u(p, 8)
        m.field("td.format.size", p, 8)
        m.texts.append(("td.format", p + 8, k))
        p += 8 + k
    systems = m.u(p, 4)
    m.field("td.systems", p, 4)
    p += 4
    for _ in range(systems):
        p = m.data.index(b"\0", p, end) + 1
        n = m.u(p, 4)
        m.field("td.event_count", p, 4)
        p += 4
        for _ in range(n):
            k = m.u(p, 8)
            m.field("td.format.size", p, 8)
            m.texts.append(("td.format", p + 8, k))
            p += 8 + k
    for name, w in (("kallsyms", 4), ("printk", 4), ("cmdlines", 8)):
        if p + w > end:
            break
        n = m.u(p, w)
        m.field("td.%s.size" % name, p, w)
        m.texts.append(("td." + name, p + w, n))
        p += w + n


def attr_fields(m, a, name):
    m.field(name + ".type", a, 4)
    m.field(name + ".size", a + 4, 4)
    m.field(name + ".config", a + 8, 8)
    m.field(name + ".sample_type", a + 24, 8)
    m.field(name + ".read_format", a + 32, 8)
    m.field(name + ".flags", a + 40, 8)
    return m.u(a + 24, 8), m.u(a + 32, 8)


def map_records(m, off, end, attrs):
    """attrs: sample_types, for the sample layouts."""
    st = attrs[0] if attrs else 0
    n = 0
    while off + 8 <= end and n < 100000:
        t, misc, size = m.u(off, 4), m.u(off + 4, 2), m.u(off + 6, 2)
        if size < 8:
            break
        m.field("rec.type", off, 4)
        m.field("rec.size", off + 6, 2)
        m.part("rec.%d" % t, off, size)
        extra = 0
        if t == 9:
            p = off + 8
            for bit in (16, 0, 1, 2, 3, 6, 9):
                if st & (1 << bit):
                    m.field("sample.%d" % bit, p, 8)
                    p += 8
            if st & (1 << 7):
                m.field("sample.cpu", p, 4)
                p += 8
            if st & (1 << 8):
                p += 8
            if st & (1 << 5) and p + 8 <= off + size:
                m.field("sample.callchain_nr", p, 8)
                nr = m.u(p, 8)
                if nr < 4096:
                    for i in range(min(nr, 3)):
                        m.field("sample.frame", p + 8 + 8 * i, 8)
                    p += 8 + 8 * nr
            if st & (1 << 10) and p + 4 <= off + size:
                m.field("sample.raw_size", p, 4)
                m.part("sample.raw", p + 4, off + size - p - 4)
        elif t == 66 and off + 12 <= end:
            extra = m.u(off + 8, 4)
            m.field("rec.tracing_data_size", off + 8, 4)
            try:
                map_tracing_data(m, off + size, extra)
            except (ValueError, IndexError, struct.error):
                pass
        elif t == 64:
            attr_fields(m, off + 8, "pipe_attr")
            try:
                attrs.append(m.u(off + 8 + 24, 8))
                st = attrs[0]
            except ValueError:
                pass
        elif t == 80:
            m.field("feature.id", off + 8, 8)
            m.field("feature.len", off + 16, 4)
        elif t == 71 and off + 16 <= end:
            extra = m.u(off + 8, 8)
        elif t in (3, 7, 4, 1, 10, 2, 13):
            m.field("rec.body", off + 8, 8)
            m.field("rec.trailer", off + size - 8, 8)
        off += size + extra
        n += 1


def map_file(data):
    m = Map(data)
    m.part("header", 0, min(len(data), 104))
    hsize = m.u(8, 8)
    m.field("header.size", 8, 8)
    if hsize == 16:
        map_records(m, 16, len(data), [])
        return m
    for i, name in enumerate(("attr_size", "attrs.off", "attrs.size",
                              "data.off", "data.size", "event_types.off",
                              "event_types.size", "features")):
        m.field("header." + name, 16 + 8 * i, 8)
    attr_size, a_off, a_size = m.u(16, 8), m.u(24, 8), m.u(32, 8)
    d_off, d_size = m.u(40, 8), m.u(48, 8)
    sts = []
    if attr_size:
        for i in range(a_size // attr_size):
            a = a_off + i * attr_size
            sts.append(attr_fields(m, a, "attr")[0])
            m.field("attr.ids.off", a + attr_size - 16, 8)
            m.field("attr.ids.size", a + attr_size - 8, 8)
            ids, n = m.u(a + attr_size - 16, 8), m.u(a + attr_size - 8, 8)
            m.part("ids", ids, n)
    m.part("attrs", a_off, a_size)
    m.part("data", d_off, d_size)
    map_records(m, d_off, d_off + d_size, sts)
    bits = sum(m.u(72 + 8 * k, 8) << (64 * k) for k in range(4))
    tab = d_off + d_size
    i = 0
    for feat in range(256):
        if not bits >> feat & 1:
            continue
        e = tab + 16 * i
        m.field("feature.off", e, 8)
        m.field("feature.size", e + 8, 8)
        off, size = m.u(e, 8), m.u(e + 8, 8)
        m.part("feature.%d" % feat, off, size)
        if feat == 1:
            try:
                map_tracing_data(m, off, size)
            except (ValueError, IndexError, struct.error):
                pass
        elif feat in (3, 4, 5, 6, 8, 9, 11, 12):
            m.field("feature.string", off + (4 if feat in (11, 12) else 0), 4)
        i += 1
    m.part("feature_table", tab, 16 * i)
    return m


# ---- mutations ------------------------------------------------------------------

def evil(rng, m, width, cur):
    size = len(m.data)
    vals = [0, 1, 2, 7, 8, 15, 16, 0xff, cur + 1, cur - 1, cur * 2,
            size, size + 1, size - 8, 1 << 31, (1 << 32) - 1, 1 << 48,
            (1 << 63), (1 << 64) - 1, (1 << 64) - 4095, rng.getrandbits(64)]
    return rng.choice(vals) & ((1 << (8 * width)) - 1)


def put(m, data, off, width, v):
    fmt = m.e + {1: "B", 2: "H", 4: "I", 8: "Q"}[width]
    struct.pack_into(fmt, data, off, v)


def mutate_once(rng, m, data):
    kind = rng.choice(["truncate", "flip", "bytes", "evil", "evil", "evil",
                       "text", "splice"])
    if kind == "evil" and m.fields:
        name, off, w = rng.choice(m.fields)
        cur = struct.unpack_from(m.e + {1: "B", 2: "H", 4: "I", 8: "Q"}[w],
                                 data, off)[0]
        v = evil(rng, m, w, cur)
        put(m, data, off, w, v)
        return data, "evil %s@0x%x=%d" % (name, off, v)
    if kind == "text" and m.texts:
        name, off, size = rng.choice(m.texts)
        text = bytes(data[off:off + size])
        nums = [x for x in re.finditer(rb"\d+", text)]
        if nums:
            x = rng.choice(nums)
            n = x.end() - x.start()
            new = rng.choice([b"9" * n, b"0" * n, (b"-" + b"9" * n)[:n],
                              b"x" * n])
            data[off + x.start():off + x.end()] = new
            return data, "text %s@0x%x" % (name, off + x.start())
    name, off, size = rng.choice(m.parts) if m.parts else ("all", 0, len(data))
    if kind == "truncate":
        at = off + rng.randrange(max(size, 1))
        return data[:at], "truncate %s at 0x%x" % (name, at)
    if kind == "splice":
        at = off + rng.randrange(max(size, 1))
        if rng.random() < 0.5:
            ins = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 64)))
            return data[:at] + ins + data[at:], "insert %d at 0x%x" % (
                len(ins), at)
        n = rng.randint(1, 256)
        return data[:at] + data[at + n:], "cut %d at 0x%x" % (n, at)
    if kind == "flip":
        for _ in range(rng.randint(1, 16)):
            at = off + rng.randrange(max(size, 1))
            if at < len(data):
                data[at] ^= 1 << rng.randrange(8)
        return data, "flip in %s" % name
    at = off + rng.randrange(max(size, 1))
    n = rng.randint(1, 8)
    fill = rng.choice([0, 0xff, None])
    for i in range(n):
        if at + i < len(data):
            data[at + i] = fill if fill is not None else rng.getrandbits(8)
    return data, "bytes %s@0x%x" % (name, at)


def make_case(seed, case, bases):
    rng = random.Random("%d/%d" % (seed, case))
    # half the cases on the real recordings, the rest on synthetic files
    real = [b for b in bases if b[0].endswith(".data")]
    name, base = rng.choice(real if real and rng.random() < 0.5 else bases)
    pipe = base[1][8:16] in (b"\x10" + b"\0" * 7, b"\0" * 7 + b"\x10")
    data = bytearray(base[1])
    descs = []
    for _ in range(rng.choice([1, 1, 1, 2, 3, 4])):
        try:
            m = map_file(bytes(data))
        except (ValueError, IndexError, struct.error):
            m = Map(bytes(data))
            m.parts = [("all", 0, len(data))]
        data, d = mutate_once(rng, m, data)
        data = bytearray(data)
        descs.append(d)
    opts = [o for o in ("--all", "--chain", "--info", "--stats", "--continue")
            if rng.random() < 0.5]
    if rng.random() < 0.3:
        opts += ["--queue", "1"]
    # a pipe-mode file through a pipe, half the time; a file-mode one
    # rarely (it is refused: its header points to its end)
    stream = rng.random() < (0.5 if pipe else 0.05)
    return name, bytes(data), opts, stream, "; ".join(descs)


# ---- running ----------------------------------------------------------------------

class Runner:
    def __init__(self, dump, timeout, mem_mb):
        self.dump = dump
        self.timeout = timeout
        self.mem_mb = mem_mb
        with open(dump, "rb") as f:
            self.asan = b"__asan_init" in f.read()
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join([
            "detect_leaks=1", "exitcode=86", "allocator_may_return_null=1",
            "max_allocation_size_mb=%d" % mem_mb,
            "hard_rss_limit_mb=%d" % mem_mb])
        env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=87"
        env["LSAN_OPTIONS"] = "exitcode=88"
        self.env = env

    def run(self, path, opts, stream):
        cmd = [self.dump] + opts + ["-" if stream else path]
        if not self.asan:
            cmd = ["/bin/sh", "-c", 'ulimit -v %d && exec "$0" "$@"'
                   % (self.mem_mb * 1024)] + cmd
        t0 = time.monotonic()
        with open(path, "rb") as f:
            # through a pipe: cat feeds it, so the reader sees a stream
            src = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE) \
                if stream else None
            p = subprocess.Popen(cmd, env=self.env,
                                 stdin=src.stdout if src else subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE,
                                 start_new_session=True)
            if src:
                src.stdout.close()
            try:
                _, err = p.communicate(timeout=self.timeout)
                rc = p.returncode
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, 9)
                p.communicate()
                rc, err = None, b""
            if src:
                src.kill()
                src.wait()
        return rc, err, time.monotonic() - t0


def judge(rc, err, name, opts):
    errs = err.decode("utf-8", "replace")
    if rc is None:
        return "hang", ["hang: no exit within the timeout"]
    if "rss limit exhausted" in errs or "out-of-memory" in errs or \
            "allocation-size-too-big" in errs:
        return "memory", ["memory: " + errs.strip().split("\n")[0][:200]]
    if SAN_RE.search(errs):
        m = SAN_RE.search(errs)
        return "sanitizer", ["sanitizer: " + errs[m.start():].split("\n")[0][:200]]
    if rc < 0:
        return "crash", ["crash: killed by signal %d" % -rc]
    if rc in (86, 87, 88):
        return "sanitizer", ["sanitizer: exit %d" % rc]
    v = []
    if rc not in DOCUMENTED:
        v.append("exit: status %d" % rc)
    lines = [x for x in errs.split("\n") if x]
    pre = "%s: %s: " % (PROG, name)
    if rc and not lines:
        v.append("message: exit %d without a message" % rc)
    if len(lines) > 1 and "--continue" not in opts:
        v.append("message: %d lines: %r" % (len(lines), errs[:300]))
    for x in lines:
        if not x.startswith(pre) or len(x) <= len(pre):
            v.append("message: %r" % x[:200])
            break
    return ("ok" if rc == 0 else "error %d" % rc), v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", required=True)
    ap.add_argument("--inputs", nargs="+", required=True)
    ap.add_argument("--seeds", help="run test-perf-reader --write-seeds into it")
    ap.add_argument("--test-perf", help="the test-perf-reader binary, for --seeds")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--case", type=int)
    ap.add_argument("--keep")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--mem-mb", type=int, default=2048)
    ap.add_argument("--workdir")
    ap.add_argument("--save-dir")
    a = ap.parse_args()

    work = a.workdir or tempfile.mkdtemp(prefix="lt-perf-mut-")
    os.makedirs(work, exist_ok=True)
    inputs = list(a.inputs)
    if a.seeds and a.test_perf:
        os.makedirs(a.seeds, exist_ok=True)
        subprocess.run([a.test_perf, "--write-seeds", a.seeds],
                       stdout=subprocess.DEVNULL, check=False)
        inputs.append(a.seeds)
    bases = []
    for d in inputs:
        names = sorted(os.listdir(d)) if os.path.isdir(d) else [d]
        for n in names:
            path = os.path.join(d, n) if os.path.isdir(d) else n
            if n.endswith(".data") or (a.seeds and d == a.seeds):
                with open(path, "rb") as f:
                    data = f.read()
                if data[:8] in (b"PERFILE2", b"2ELIFREP"):
                    bases.append((os.path.basename(path), (path, data)))
    if not bases:
        print("mutate-perf: no perf.data inputs")
        return 2
    runner = Runner(a.dump, a.timeout, a.mem_mb)
    cases = [a.case] if a.case is not None else range(a.cases)

    def one(k):
        name, data, opts, stream, desc = make_case(a.seed, k, bases)
        path = os.path.join(work, "case-%d.data" % k)
        with open(path, "wb") as f:
            f.write(data)
        if a.keep:
            shutil.copy(path, a.keep)
        rc, err, secs = runner.run(path, opts, stream)
        shown = "standard input" if stream else path
        outcome, v = judge(rc, err, shown, opts)
        if v and a.save_dir:
            os.makedirs(a.save_dir, exist_ok=True)
            shutil.copy(path, os.path.join(a.save_dir, "case-%d.data" % k))
            with open(os.path.join(a.save_dir, "case-%d.txt" % k), "w") as f:
                f.write("%s %s%s\n# from %s: %s\n# exit %s\n%s\n" % (
                    a.dump, " ".join(opts), " - <" if stream else "", name,
                    desc, rc, err.decode("utf-8", "replace")[:4000]))
        if not a.keep:
            os.unlink(path)
        return k, outcome, v, secs, desc, name

    counts = {}
    bad = []
    slow = []
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for k, outcome, v, secs, desc, name in ex.map(one, cases):
            counts[outcome] = counts.get(outcome, 0) + 1
            slow.append((secs, k))
            for x in v:
                bad.append("case %d (%s: %s): %s" % (k, name, desc, x))
    slow.sort(reverse=True)
    print("mutate-perf: %d cases on %d inputs (seed %d): %s" % (
        len(cases), len(bases), a.seed,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print("slowest: " + ", ".join("case %d %.2f s" % (k, s)
                                  for s, k in slow[:3]))
    for b in bad:
        print("VIOLATION " + b)
    print("%d violations" % len(bad))
    if not a.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


sys.exit(main())
