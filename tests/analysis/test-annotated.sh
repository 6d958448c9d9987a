#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole pipeline on a synthetic annotated trace (annotated.trs, built
# with tests/tools/mktrace.py in every file flavour: v6 and v7, both
# endians, 4- and 8-byte longs, zlib, and zstd via trace-cmd convert when
# it is installed).  Every flavour must give the figures worked out by
# hand in annotated.trs's comments, in one thread or two; with its
# kallsyms damaged, a trace still gives a report and one warning.
#
# usage: test-annotated.sh LATENCY_ANALYZE MKTRACE SCRIPT

set -u
LA=$1
MK=$2
SCRIPT=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
files=()

for v in "6 little 8 none" "6 big 4 none" "7 little 8 none" "7 big 8 zlib" \
	 "7 little 4 zlib"; do
	set -- $v
	f=$tmp/ann-v$1-$2-$3-$4.dat
	python3 "$MK" "$SCRIPT" -o "$f" --set version=$1 --set endian=$2 \
		--set long=$3 --set compression=$4 || { echo "FAIL: mktrace $v"; exit 1; }
	files+=("$f")
done
if command -v trace-cmd >/dev/null; then
	trace-cmd convert -i "${files[0]}" -o "$tmp/ann-v7-zstd.dat" \
		--file-version 7 --compression zstd >/dev/null 2>&1 &&
		files+=("$tmp/ann-v7-zstd.dat")
fi

for f in "${files[@]}"; do
	"$LA" -q --format=json "$f" > "$tmp/r.json" ||
		{ echo "FAIL: $(basename "$f"): exit $?"; fail=1; continue; }
	python3 - "$tmp/r.json" "$(basename "$f")" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
name = sys.argv[2]
errors = []
def expect(what, got, want):
    if got != want:
        errors.append("%s = %r, want %r" % (what, got, want))
def row(rows, reason, argument=""):
    for x in rows:
        if x["reason"] == reason and x["argument"] == argument:
            return x
    errors.append("no row %r (%r)" % (reason, argument))
    return {"count": None, "total_ns": None, "max_ns": None, "kind": None}
g = r["global"]
x = row(g, "fsync")
expect("fsync count", x["count"], 2)
expect("fsync total", x["total_ns"], 4000000)
expect("fsync max", x["max_ns"], 3000000)
expect("fsync kind", x["kind"], "annotated")
x = row(g, "Opening file", "/etc/passwd")
expect("open total", x["total_ns"], 500000)
x = row(g, "Reading from a pipe")
expect("pipe total", x["total_ns"], 2000000)
expect("pipe kind", x["kind"], "translated")
x = row(g, "Writing a page to disk")
expect("recharged total", x["total_ns"], 1000000)
x = row(g, "Scheduler: waiting for cpu")
expect("cpu count", x["count"], 7)
expect("cpu total", x["total_ns"], 600000)
expect("select charged", [y for y in g if y["reason"].startswith("Waiting for event")], [])
expect("inner reason charged", [y for y in g if y["reason"] == "Waiting for buffer IO"], [])
d = r["dropped"]
expect("over maxtime", d["over_maxtime"], 1)
expect("over cutoff", d["interruptible_over_cutoff"], 1)
# init's and olddaemon's last sleeps; 999, woken at the end, its wait
# for a CPU
expect("unfinished", d["unfinished"], 3)
expect("unmatched restores", d["unmatched_restores"], 1)
t = r["trace"]
expect("lost", t["lost_events"], 5)
expect("lost per cpu", t["lost_events_per_cpu"], [0, 5])
expect("cpus", t["cpus"], 2)
expect("uname", t["uname"], "Linux synth 6.1.0-annotated x86_64")
expect("total", r["total_ns"], 8100000)
procs = {p["pid"]: p for p in r["processes"]}
expect("processes", sorted(procs), [100, 101, 300])
expect("dbwriter", procs.get(100, {}).get("comm"), "dbwriter")
expect("named by cmdlines", procs.get(300, {}).get("comm"), "olddaemon")
fs = row(procs.get(100, {"reasons": []})["reasons"], "fsync")
paths = sorted(tuple(s["path"]) for s in fs.get("stacks", []))
expect("fsync paths", paths, [("fsync",), ("fsync", "Waiting for buffer IO")])
pipe = row(procs.get(101, {"reasons": []})["reasons"], "Reading from a pipe")
frames = [s["frames"] for s in pipe.get("stacks", [])]
expect("pipe frames", frames, [["__schedule", "schedule", "anon_pipe_read", "vfs_read"]])
expect("max_at", row(g, "fsync")["max_at_ns"], 4400000)
if errors:
    print("FAIL: %s: %s" % (name, "; ".join(errors)))
    sys.exit(1)
print("%s: ok" % name)
PY
done
# Two threads: symbols load on a third one from the first kernel stack,
# and the report is the one-thread report.
for f in "${files[@]}"; do
	"$LA" -q -j1 --format=json "$f" > "$tmp/j1.json"
	"$LA" -q -j2 --format=json "$f" > "$tmp/j2.json"
	cmp -s "$tmp/j1.json" "$tmp/j2.json" ||
		{ echo "FAIL: $(basename "$f"): -j1 and -j2 differ"; fail=1; }
done
if strace -o /dev/null true 2>/dev/null; then
	strace -f -e trace=clone,clone3 -o "$tmp/strace" "$LA" -q -j2 "${files[0]}" >/dev/null 2>&1
	n=$(grep -cE '^[0-9]+ +clone3?\(.*CLONE_THREAD' "$tmp/strace")
	[ "$n" = 2 ] || { echo "FAIL: -j2 on a trace with stacks started $n threads, want 2"; fail=1; }
else
	echo "skipped: threads started (strace missing or not allowed)"
fi

# Damaged kallsyms: one warning, in any number of threads, and the stacks
# are named by address.
python3 "$MK" "$SCRIPT" -o "$tmp/ks.dat" --map "$tmp/ks.map" --set version=7 \
	--set compression=zlib --set compress_options=yes || { echo "FAIL: mktrace ks"; exit 1; }
python3 - "$tmp" <<'PY'
import sys
d = sys.argv[1]
off = [int(l.split()[1]) for l in open(d + "/ks.map") if l.split()[0] == "section.KALLSYMS"][0]
b = bytearray(open(d + "/ks.dat", "rb").read())
b[off + 26:off + 34] = b"garbage!"	# into the zlib stream
open(d + "/ks.dat", "wb").write(b)
PY
for j in 1 2; do
	"$LA" -j$j --format=json "$tmp/ks.dat" > "$tmp/ks.json" 2> "$tmp/ks.err"
	st=$?
	n=$(grep -c "warning: .*KALLSYMS section .* do not decompress" "$tmp/ks.err")
	if [ $st != 0 ] || [ "$n" != 1 ] || [ "$(wc -l < "$tmp/ks.err")" != 1 ]; then
		echo "FAIL: damaged kallsyms -j$j: exit $st, $n warnings:"; cat "$tmp/ks.err"; fail=1
	fi
	python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["global"]
x = [r for r in g if r["reason"] == "[0xc1001010]"]
sys.exit(not (len(x) == 1 and x[0]["total_ns"] == 2000000))' "$tmp/ks.json" ||
		{ echo "FAIL: damaged kallsyms -j$j: no [0xc1001010] row of 2 ms"; fail=1; }
done

[ $fail = 0 ] && echo "test-annotated: all checks passed"
exit $fail
