#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Consistency of kernel/ without building anything.

For each series in kernel/patches/<version>/:
- its series file lists the patches in order; the cover letter and every
  patch are numbered 00..N of N; each patch has a subject, a changelog and
  a Signed-off-by;
- patch 0001 adds include/trace/events/latencytop.h defining the same
  events as the shared copy in kernel/include/trace/events/latencytop.h:
  the same text, or (on kernels from 6.10 on) the same text but for the
  one-argument __assign_str() where the shared copy has its open-coded
  __latencytop_assign_str() (it also builds the module on older kernels).

Across the series and the module:
- the series have the same patches by number: the same subject, the same
  files, the same reason strings, and the same API in <linux/latencytop.h>
  and kernel/latencytop_events.c;
- every reason string of kernel/module (its sites are in
  kernel/include/latencytop-sites.h) is one each series uses.

usage: check-sources.py KERNEL_DIR
"""

import collections
import os
import re
import sys

failures = []

HEADER = "include/trace/events/latencytop.h"


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)
    return cond


def added_file(patch_text, path):
    """The lines a patch adds to one file, as text (None if none)."""
    lines, inside = [], False
    for line in patch_text.splitlines():
        if line.startswith("diff --git"):
            inside = line.endswith(" b/" + path)
            continue
        if inside and line.startswith("+") and not line.startswith("+++"):
            lines.append(line[1:])
    return "\n".join(lines) + "\n" if lines else None


def touched_files(patch_text):
    return sorted(m.group(1) for m in
                  re.finditer(r"^diff --git a/\S+ b/(\S+)$", patch_text, re.M))


def reasons_of(patch_text):
    """Quoted strings the patch adds outside #include lines (the reasons)."""
    out = collections.Counter()
    for line in patch_text.splitlines():
        if line.startswith("+") and not line.startswith("+++") \
                and "#include" not in line:
            out.update(s for s in re.findall(r'"([^"]*)"', line) if s)
    return out


def events(header):
    """TRACE_EVENT(...) blocks of a header, whitespace-normalised, with the
    shared copy's open-coded string fill spelled as __assign_str(x)."""
    text = re.sub(r"__latencytop_assign_str\((\w+),\s*\1\)",
                  r"__assign_str(\1)", header)
    blocks = {}
    for m in re.finditer(r"^TRACE_EVENT\((\w+),(.*?)^\);", text, re.M | re.S):
        blocks[m.group(1)] = " ".join(m.group(2).split())
    return blocks


def read_series(pdir):
    """Check one series; return {number: patch text} of patches 1..N."""
    name = os.path.basename(pdir)
    with open(os.path.join(pdir, "series")) as f:
        series = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    files = sorted(p for p in os.listdir(pdir)
                   if p.endswith(".patch") and not p.startswith("0000-"))
    check(series == files and files,
          "%s: series lists the %d patches in order" % (name, len(files)))
    n = len(files)

    cover = os.path.join(pdir, "0000-cover-letter.patch")
    if check(os.path.exists(cover), "%s: has a cover letter" % name):
        with open(cover) as f:
            t = f.read()
        check(re.search(r"^Subject: \[PATCH 0+/%d\] \S" % n, t, re.M)
              and "*** " not in t,
              "%s: cover letter [PATCH 00/%d] with subject and text" % (name, n))

    texts = {}
    for i, p in enumerate(files, 1):
        with open(os.path.join(pdir, p)) as f:
            t = texts[i] = f.read()
        head, _, _ = t.partition("\n---\n")
        subject = re.search(r"^Subject: \[PATCH 0*%d/%d\] (.+)$" % (i, n),
                            head, re.M)
        body = head.split("\n\n", 1)[1] if "\n\n" in head else ""
        check(subject is not None and "Signed-off-by:" in head and
              len(body.split()) > 30,
              "%s/%s: numbered %d/%d, subject, changelog and Signed-off-by"
              % (name, p, i, n))
    return texts


def subject_of(text):
    head = text.partition("\n---\n")[0]
    m = re.search(r"^Subject: \[PATCH [0-9]+/[0-9]+\] (.+(?:\n .+)*)$",
                  head, re.M)
    return " ".join(m.group(1).split()) if m else None


def main():
    kdir = sys.argv[1]
    pdirs = sorted((os.path.join(kdir, "patches", d)
                    for d in os.listdir(os.path.join(kdir, "patches"))
                    if os.path.isfile(os.path.join(kdir, "patches", d, "series"))),
                   key=lambda p: [int(x) for x in os.path.basename(p).split(".")])
    check(len(pdirs) >= 2, "series found: %s"
          % ", ".join(os.path.basename(p) for p in pdirs))

    with open(os.path.join(kdir, HEADER)) as f:
        shared = f.read()
    shared_events = events(shared)
    check(sorted(shared_events) == ["latency_reason_restore",
                                    "latency_reason_set"],
          "the shared header defines latency_reason_set and _restore")

    all_texts = {}
    for pdir in pdirs:
        name = os.path.basename(pdir)
        texts = all_texts[name] = read_series(pdir)
        if not texts:
            continue
        carried = added_file(texts[1], HEADER)
        if carried == shared:
            check(True, "%s: patch 0001 carries %s unchanged" % (name, HEADER))
        else:
            check(carried is not None and events(carried) == shared_events
                  and "__latencytop_assign_str" not in carried,
                  "%s: patch 0001's %s defines the shared header's events "
                  "(with the one-argument __assign_str())" % (name, HEADER))

    # the module's sites live in the table it shares with latency-record
    module = ""
    for name in ("module/latencytop_probes.c", "include/latencytop-sites.h"):
        with open(os.path.join(kdir, name)) as f:
            module += f.read()
    probes = re.findall(
        r'(?:LT_PROBE\w*|\bX)\(\s*"[^"]*",\s*(?:LT_SYSCALL\("[^"]*"\)|"[^"]*"),\s*"([^"]*)"',
        module)
    check(len(probes) > 30, "the module has %d probes" % len(probes))

    names = list(all_texts)
    ref = names[0]
    for name in names:
        texts = all_texts[name]
        reasons = set()
        for i in texts:
            if i > 1:
                reasons.update(reasons_of(texts[i]))
        unknown = sorted(set(probes) - reasons)
        check(probes and not unknown,
              "%s: the module's probes use the series' reasons%s"
              % (name, " (not: %s)" % ", ".join(unknown) if unknown else ""))
        print("%s: %d reasons in the patches" % (name, len(reasons)))
        if name == ref:
            continue
        base = all_texts[ref]
        check(sorted(texts) == sorted(base),
              "%s and %s have the same number of patches" % (ref, name))
        for i in sorted(set(texts) & set(base)):
            # patch 1 has no sites; its strings are Kconfig text and the
            # header's, compared above
            check(subject_of(texts[i]) == subject_of(base[i]) and
                  touched_files(texts[i]) == touched_files(base[i]) and
                  (i == 1 or reasons_of(texts[i]) == reasons_of(base[i])),
                  "%s and %s patch %d: same subject, files and reason strings "
                  "(%s)" % (ref, name, i, subject_of(texts[i])))
        for path in ("include/linux/latencytop.h", "kernel/latencytop_events.c"):
            check(added_file(texts[1], path) == added_file(base[1], path)
                  and added_file(texts[1], path),
                  "%s and %s add the same %s" % (ref, name, path))

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
