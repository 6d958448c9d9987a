#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The library's rooms hold their layers (analyzer/lib/CMakeLists.txt).

usage: check-layers.py LIB-DIR SOURCE-DIR ROOM...

ROOMs are given lowest first, as the build registers them; LIB-DIR holds
their archives (liblt_ROOM.a).  Fails, naming each offence, when

  - a room's objects use a symbol that a room above it defines (a call
    through the public header, which every room sees, compiles: this is
    where it is caught);
  - a room's archive exports a symbol without the library's prefix (lt_,
    or ltr_ for the record room): internals are prefixed or static;
  - a source includes a private header (*-local.h) of another folder.

Prints each room with what it uses of the rooms below it.
"""
import os
import re
import subprocess
import sys

PREFIXES = ("lt_", "ltr_")


def symbols(archive):
    """(defined, undefined) global symbol names of an archive."""
    out = subprocess.run(["nm", "-g", archive], capture_output=True,
                         text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVWC":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    libdir, srcdir, rooms = sys.argv[1], sys.argv[2], sys.argv[3:]
    fails = []
    owner, defs, undefs = {}, {}, {}
    for room in rooms:
        defs[room], undefs[room] = symbols(os.path.join(libdir, "liblt_%s.a" % room))
        for s in defs[room]:
            owner.setdefault(s, room)
    for level, room in enumerate(rooms):
        used = {}
        for s in sorted(undefs[room] - defs[room]):
            r = owner.get(s)
            if r is None:
                continue        # the C library, libtracefs, zstd...
            if rooms.index(r) > level:
                fails.append("%s uses %s of %s, a room above it" % (room, s, r))
            used.setdefault(r, []).append(s)
        for s in sorted(defs[room]):
            if not s.startswith(PREFIXES):
                fails.append("%s exports %s, without the lt_ prefix" % (room, s))
        print("%-9s uses %s" % (room, ", ".join(
            "%s (%d)" % (r, len(used[r])) for r in rooms if r in used) or "nothing of ours"))

    inc = re.compile(r'^\s*#\s*include\s+"([^"]+-local\.h)"', re.M)
    libsrc = os.path.join(srcdir, "analyzer")
    for root, _, files in os.walk(libsrc):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(root, f)
            with open(path, encoding="utf-8") as fh:
                for h in inc.findall(fh.read()):
                    if not os.path.exists(os.path.join(root, h)):
                        fails.append("%s includes %s, another folder's private header"
                                     % (os.path.relpath(path, srcdir), h))
    for f in fails:
        print("FAILED  " + f)
    print("%d rooms, %d offences" % (len(rooms), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
