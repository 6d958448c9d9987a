#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test tree's own rules (tests/README.md), on the tests ctest knows.

usage: check-tests.py CTEST BUILD-DIR TESTS-DIR CROSS-LABEL...

Fails, naming each offence, when a test

  - is not named FOLDER/NAME (lower case, digits, '-' and '.'), FOLDER a
    folder of TESTS-DIR with a CMakeLists.txt;
  - is not labelled FOLDER;
  - has a label that is neither its folder nor one of the CROSS-LABELs
    (what a user or CI selects by);

and when the CROSS-LABELs are not exactly those of the table of labels
in TESTS-DIR/README.md ("| label | selects |"), which explains them.

Prints how many tests each folder and each cross label has.
"""
import collections
import json
import os
import re
import subprocess
import sys

NAME = re.compile(r"^([a-z0-9-]+)/([a-z0-9][a-z0-9.-]*)$")


def readme_labels(path):
    """The labels of the README's table that starts "| label | selects |"."""
    labels, inside = set(), False
    with open(path) as f:
        for line in f:
            if line.startswith("| label | selects |"):
                inside = True
            elif inside:
                m = re.match(r"^\| `([a-z0-9-]+)` \|", line)
                if m:
                    labels.add(m.group(1))
                elif not line.startswith("|---"):
                    break
    return labels


def main():
    ctest, build, tests_dir = sys.argv[1:4]
    cross = set(sys.argv[4:])
    out = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                         capture_output=True, text=True, check=True).stdout
    tests = json.loads(out)["tests"]
    fails = []
    folders = collections.Counter()
    labels_used = collections.Counter()
    for t in tests:
        name = t["name"]
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        labels = props.get("LABELS", [])
        m = NAME.match(name)
        if not m:
            fails.append("%s: not named FOLDER/NAME" % name)
            continue
        folder = m.group(1)
        if not os.path.isfile(os.path.join(tests_dir, folder, "CMakeLists.txt")):
            fails.append("%s: tests/%s/ is not a folder of tests" % (name, folder))
        folders[folder] += 1
        if folder not in labels:
            fails.append("%s: not labelled %s (labels: %s)"
                         % (name, folder, ", ".join(labels) or "none"))
        for label in labels:
            if label == folder:
                continue
            if label not in cross:
                fails.append("%s: label %s is neither its folder nor a cross "
                             "label (%s)" % (name, label, " ".join(sorted(cross))))
            labels_used[label] += 1
    print("%d tests" % len(tests))
    print("folders: " + ", ".join("%s %d" % kv for kv in sorted(folders.items())))
    print("cross labels: " + ", ".join("%s %d" % (c, labels_used[c])
                                       for c in sorted(cross)))
    documented = readme_labels(os.path.join(tests_dir, "README.md"))
    for label in sorted(cross - documented):
        fails.append("cross label %s is not in the table of tests/README.md" % label)
    for label in sorted(documented - cross):
        fails.append("tests/README.md explains a label %s that no test may have"
                     % label)
    for f in fails:
        print("FAILED  " + f)
    if not tests:
        print("FAILED  ctest lists no test")
        return 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
