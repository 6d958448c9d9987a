#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a gzip-compressed newc cpio archive for a test initramfs.

Runs as any user: device nodes and ownership are written into the archive,
not created on the host.  The spec file has one entry a line, in the spirit
of the kernel's usr/gen_init_cpio:

  dir   <path> <mode>
  file  <path> <host-file> <mode>
  slink <path> <target>
  nod   <path> <mode> c|b <major> <minor>

'#' starts a comment.  Parent directories of files are added as needed.
"""

import gzip
import os
import sys


class Writer:
    def __init__(self, out):
        self.out = out
        self.ino = 1
        self.dirs = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0,
            rdev[0], rdev[1], len(name_b), 0))
        self.ino += 1
        self.out.write(hdr.encode() + name_b)
        self.out.write(b"\0" * ((4 - (110 + len(name_b)) % 4) % 4))
        self.out.write(data)
        self.out.write(b"\0" * ((4 - len(data) % 4) % 4))

    def _parents(self, path):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            self.dir("/".join(parts[:i]), 0o755)

    def dir(self, path, mode):
        path = path.strip("/")
        if not path or path in self.dirs:
            return
        self._parents(path)
        self.dirs.add(path)
        self._entry(path, 0o040000 | mode)

    def file(self, path, src, mode):
        path = path.strip("/")
        self._parents(path)
        with open(src, "rb") as f:
            self._entry(path, 0o100000 | mode, f.read())

    def slink(self, path, target):
        path = path.strip("/")
        self._parents(path)
        self._entry(path, 0o120000 | 0o777, target.encode())

    def nod(self, path, mode, kind, major, minor):
        path = path.strip("/")
        self._parents(path)
        fmt = 0o020000 if kind == "c" else 0o060000
        self._entry(path, fmt | mode, rdev=(major, minor))

    def trailer(self):
        self._entry("TRAILER!!!", 0)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mkinitramfs.py SPEC OUTPUT.cpio.gz")
    with gzip.open(sys.argv[2], "wb", compresslevel=6) as out:
        w = Writer(out)
        with open(sys.argv[1]) as spec:
            for lineno, line in enumerate(spec, 1):
                f = line.split("#", 1)[0].split()
                if not f:
                    continue
                try:
                    if f[0] == "dir":
                        w.dir(f[1], int(f[2], 8))
                    elif f[0] == "file":
                        w.file(f[1], f[2], int(f[3], 8))
                    elif f[0] == "slink":
                        w.slink(f[1], f[2])
                    elif f[0] == "nod":
                        w.nod(f[1], int(f[2], 8), f[3], int(f[4]), int(f[5]))
                    else:
                        raise ValueError("unknown entry type " + f[0])
                except (IndexError, ValueError, OSError) as e:
                    sys.exit("%s:%d: %s" % (sys.argv[1], lineno, e))
        w.trailer()


if __name__ == "__main__":
    main()
