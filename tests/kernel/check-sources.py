#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Consistency of kernel/ without building anything.

- kernel/patches/series lists the patches, each has a subject, a changelog
  and a Signed-off-by;
- patch 0001 adds include/trace/events/latencytop.h identical to the shared
  copy in kernel/include/trace/events/latencytop.h;
- every reason string of kernel/module (its sites are in
  kernel/include/latencytop-sites.h) is one the patches use.

usage: check-sources.py KERNEL_DIR
"""

import os
import re
import sys

failures = []


def check(cond, what):
    print(("ok      " if cond else "FAILED  ") + what)
    if not cond:
        failures.append(what)


def added_file(patch_text, path):
    """The content of a file the patch creates."""
    lines, inside = [], False
    for line in patch_text.splitlines():
        if line.startswith("diff --git"):
            inside = line.endswith(" b/" + path)
            continue
        if inside and line.startswith("+") and not line.startswith("+++"):
            lines.append(line[1:])
    return "\n".join(lines) + "\n" if lines else None


def main():
    kdir = sys.argv[1]
    pdir = os.path.join(kdir, "patches")
    with open(os.path.join(pdir, "series")) as f:
        series = [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]
    files = sorted(p for p in os.listdir(pdir)
                   if p.endswith(".patch") and not p.startswith("0000-"))
    check(series == files, "series lists the %d patches in order" % len(files))

    texts = {}
    for p in files:
        with open(os.path.join(pdir, p)) as f:
            t = texts[p] = f.read()
        head, _, _ = t.partition("\n---\n")
        subject = re.search(r"^Subject: \[PATCH [0-9]+/[0-9]+\] (.+)$", head, re.M)
        body = head.split("\n\n", 1)[1] if "\n\n" in head else ""
        check(subject is not None and "Signed-off-by:" in head and
              len(body.split()) > 30,
              "%s: subject, changelog and Signed-off-by" % p)

    with open(os.path.join(kdir, "include/trace/events/latencytop.h")) as f:
        shared = f.read()
    check(added_file(texts[files[0]], "include/trace/events/latencytop.h")
          == shared,
          "patch 0001 carries kernel/include/trace/events/latencytop.h")

    reasons = set()
    for p in files[1:]:
        for line in texts[p].splitlines():
            if line.startswith("+") and "#include" not in line:
                reasons.update(s for s in re.findall(r'"([^"]*)"', line) if s)
    # the module's sites live in the table it shares with latency-record
    module = ""
    for name in ("module/latencytop_probes.c", "include/latencytop-sites.h"):
        with open(os.path.join(kdir, name)) as f:
            module += f.read()
    probes = re.findall(
        r'(?:LT_PROBE\w*|\bX)\(\s*"[^"]*",\s*(?:LT_SYSCALL\("[^"]*"\)|"[^"]*"),\s*"([^"]*)"',
        module)
    unknown = sorted(set(probes) - reasons)
    check(probes and not unknown,
          "the module's %d probes use the patches' reasons%s"
          % (len(probes), " (not: %s)" % ", ".join(unknown) if unknown else ""))
    print("%d reasons in the patches" % len(reasons))

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
