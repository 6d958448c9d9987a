#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The man pages' option lists are the programs' options tables.

usage: test-man-options.py DOC_DIR BIN_DIR...

Each command's table is what it prints for --completion-helper (the
options its --help shows: analyzer/cli/cli-opts.h); each man page's are
the tags of its .TP/.TQ lists in the sections that document them:

    latency-analyze          latency-analyze.1  OPTIONS (not its merge, diff)
    latency-analyze merge    latency-analyze.1  OPTIONS, merge
    latency-analyze diff     latency-analyze.1  OPTIONS, diff
    latency-view             latency-view.1     OPTIONS
    latency-record           latency-record.1   OPTIONS
    latency-record doctor    latency-record.1   DOCTOR
    latency-record probes    latency-record.1   PROBES

Fails, naming each, when

  - an option of a command is in none of its sections, nor (the same
    option of its parent command: merge's --from is latency-analyze's) in
    its parent's;
  - a section documents an option its command does not take;
  - a tag pairs a short name with a long one the table does not
    (-o, --save), or the table has a short name the tag lacks;
  - a tag shows a value (--window=DUR, [=HOW]) the option does not take,
    or none for one that does, or an optional value for a required one.
"""
import os
import re
import subprocess
import sys

# program and subcommand, its page, its sections ("SH" or "SH/SS"), its parent's index
COMMANDS = [
    (["latency-analyze"], "latency-analyze.1", ["OPTIONS"], None),
    (["latency-analyze", "merge"], "latency-analyze.1", ["OPTIONS/merge"], 0),
    (["latency-analyze", "diff"], "latency-analyze.1", ["OPTIONS/diff"], 0),
    (["latency-view"], "latency-view.1", ["OPTIONS"], None),
    (["latency-record"], "latency-record.1", ["OPTIONS"], None),
    (["latency-record", "doctor"], "latency-record.1", ["DOCTOR"], 4),
    (["latency-record", "probes"], "latency-record.1", ["PROBES"], 4),
]


def table(bindirs, argv):
    """{long: (short or None, 'flag'|'value'|'optional')} of a command."""
    for d in bindirs:
        path = os.path.join(d, argv[0])
        if os.access(path, os.X_OK):
            break
    else:
        sys.exit("no %s in %s" % (argv[0], " ".join(bindirs)))
    r = subprocess.run([path] + argv[1:] + ["--completion-helper"],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("%s --completion-helper: exit %d: %s" % (" ".join(argv),
                                                          r.returncode, r.stderr))
    opts = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) < 3 or f[2] == "sub":
            continue
        kind = "flag" if f[2] == "flag" else "optional" if f[2].endswith("?") else "value"
        opts[f[0]] = (f[1] if f[1] != "-" else None, kind)
    if not opts:
        sys.exit("%s --completion-helper: no options" % " ".join(argv))
    return opts


def roff_text(line):
    """A tag line as it reads: no macro, fonts or quotes; \\- as -."""
    line = re.sub(r"^\.[A-Z]+\s*", "", line)
    line = re.sub(r"\\f[BIRP]", "", line)
    return line.replace("\\-", "-").replace('"', " ")


def sections(page):
    """{"SH" or "SH/SS": [tag lines]} of a man page."""
    out, sh, ss, tag_next = {}, None, None, False
    with open(page, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith(".SH "):
                sh, ss = line[4:].strip('" '), None
                continue
            if line.startswith(".SS "):
                ss = line[4:].strip('" ')
                continue
            if line.startswith((".TP", ".TQ")):
                tag_next = True
                continue
            if tag_next:
                tag_next = False
                key = sh if ss is None else sh + "/" + ss
                out.setdefault(key, []).append(roff_text(line))
    return out


def tags(lines):
    """{long: (short or None, 'flag'|'value'|'optional')} the tags document."""
    doc = {}
    for text in lines:
        # "-p , --pid =PID[,PID...] , --tid =TID[,...]": names, each with
        # what follows it up to the next name
        names = list(re.finditer(r"(?<![\w-])(--?)([a-zA-Z][\w-]*)", text))
        short = None
        for i, m in enumerate(names):
            end = names[i + 1].start() if i + 1 < len(names) else len(text)
            rest = text[m.end():end].strip(" ,")
            if m.group(1) == "-":
                if len(m.group(2)) == 1:
                    short = "-" + m.group(2)
                continue
            kind = "flag" if not rest else "optional" if rest.startswith("[") else "value"
            doc["--" + m.group(2)] = (short, kind)
            short = None
    return doc


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    docdir, bindirs = sys.argv[1], sys.argv[2:]
    pages = {}
    tables = [table(bindirs, argv) for argv, _, _, _ in COMMANDS]
    claimed = {(page, s) for _, page, secs, _ in COMMANDS for s in secs if "/" in s}
    docs = []
    for argv, page, secs, _ in COMMANDS:
        if page not in pages:
            pages[page] = sections(os.path.join(docdir, page))
        lines = []
        for s in secs:
            for key, ls in pages[page].items():
                # a section holds its subsections but those of other commands
                if key == s or (key.startswith(s + "/") and (page, key) not in claimed):
                    lines += ls
        docs.append(tags(lines))
    fails = []
    for i, (argv, page, secs, parent) in enumerate(COMMANDS):
        cmd, where = " ".join(argv), "%s's %s" % (page, ", ".join(secs))
        for name, (short, kind) in sorted(tables[i].items()):
            if name in docs[i]:
                doc = docs[i][name]
            elif parent is not None and name in tables[parent] and name in docs[parent]:
                doc = docs[parent][name]
                if tables[parent][name] != (short, kind):
                    fails.append("%s: %s is not as %s's, which %s documents"
                                 % (cmd, name, " ".join(COMMANDS[parent][0]), page))
                    continue
            else:
                fails.append("%s: %s is not in %s" % (cmd, name, where))
                continue
            if doc[0] != short:
                fails.append("%s: %s's short name is %s, %s shows %s"
                             % (cmd, name, short or "none", page, doc[0] or "none"))
            if doc[1] != kind:
                fails.append("%s: %s takes %s, %s shows %s" % (
                    cmd, name, {"flag": "no value", "value": "a value",
                                "optional": "an optional value"}[kind],
                    page, {"flag": "none", "value": "a value",
                           "optional": "an optional one"}[doc[1]]))
        for name in sorted(set(docs[i]) - set(tables[i])):
            fails.append("%s: %s documents %s, which it does not take"
                         % (cmd, where, name))
    for i, (argv, page, secs, _) in enumerate(COMMANDS):
        print("%-24s %2d options, %2d documented in %s's %s" % (
            " ".join(argv), len(tables[i]), len(docs[i]), page, ", ".join(secs)))
    for f in fails:
        print("FAIL: " + f)
    print("%d commands, %d disagreements" % (len(COMMANDS), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
