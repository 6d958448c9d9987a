#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Readable causes on a stock kernel (no latencytop annotations): on traces
# recorded here with kernel stacks, at least 90% of the blocked time of
# user-space tasks must get a readable cause from the translation table,
# not "Unknown reason" or "[function]".  Then the folded output must make
# the right flame graph in a real flame-graph tool (flamegraph.pl, installed
# by scripts/install-deps); without it that part is SKIPPED, never passed.
#
# usage: test-causes.sh LATENCY_ANALYZE SAMPLES_DIR

set -u
LA=$1
SAMPLES=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

for f in local-golden-stacks local-stacks-compile local-stacks-pipeline \
	 local-stacks-fsync local-stacks-net; do
	"$LA" -q --format=json "$SAMPLES/$f.dat" > "$tmp/$f.json" ||
		{ echo "FAIL: $f: latency-analyze failed"; fail=1; continue; }
	python3 - "$tmp/$f.json" "$f" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
readable = total = 0
worst = {}
for p in r["processes"]:
    if p["kernel_thread"]:
        continue
    for row in p["reasons"]:
        if row["kind"] == "scheduler":
            continue
        total += row["total_ns"]
        if row["kind"] in ("annotated", "translated"):
            readable += row["total_ns"]
        else:
            worst[row["reason"]] = worst.get(row["reason"], 0) + row["total_ns"]
if total == 0:
    print("FAIL: %s: no blocked time in user-space tasks" % sys.argv[2]); sys.exit(1)
share = 100.0 * readable / total
left = ", ".join("%s %.1f ms" % (k, v / 1e6) for k, v in
                 sorted(worst.items(), key=lambda x: -x[1])[:3])
print("%s: %.1f%% of %.1f ms readable%s" % (sys.argv[2], share, total / 1e6,
      " (rest: " + left + ")" if left else ""))
if share < 90.0:
    print("FAIL: %s: only %.1f%% readable" % (sys.argv[2], share)); sys.exit(1)
# the JSON coverage figures agree with the rows
cov = r["coverage"]
if sum(cov.values()) != r["total_ns"]:
    print("FAIL: %s: coverage does not add up to the total" % sys.argv[2]); sys.exit(1)
PY
done

# Tables merge: built-in, then $XDG_CONFIG_HOME/latencytop/*.trans, then --trans.
P=$SAMPLES/local-stacks-pipeline.dat
mkdir -p "$tmp/xdg/latencytop"
printf '9\tanon_pipe_read\tPipe read (site table)\n' > "$tmp/xdg/latencytop/site.trans"
printf '9\tanon_pipe_write\tPipe write (--trans)\n' > "$tmp/mine.trans"
XDG_CONFIG_HOME=$tmp/xdg "$LA" -q --trans "$tmp/mine.trans" "$P" > "$tmp/merged.txt"
for want in 'Pipe read \(site table\)' 'Pipe write \(--trans\)' 'Reading directory content'; do
	grep -qE "^$want " "$tmp/merged.txt" || { echo "FAIL: merged tables: no row /$want/"; fail=1; }
done
grep -q '^Reading from a pipe ' "$tmp/merged.txt" &&
	{ echo "FAIL: merged tables: the built-in pipe text was not overridden"; fail=1; }
# without the built-in table: the blocking function, bracketed
"$LA" -q --no-default-trans "$P" > "$tmp/bare.txt"
grep -qE '^\[anon_pipe_read\] ' "$tmp/bare.txt" ||
	{ echo "FAIL: --no-default-trans: no [anon_pipe_read] row"; fail=1; }
printf '5\tfunc\n' > "$tmp/bad.trans"
out=$("$LA" -q --trans "$tmp/bad.trans" "$P" 2>&1 >/dev/null); st=$?
[ $st = 1 ] && [ "$out" = "latency-analyze: $tmp/bad.trans:1: missing text after the function name 'func'" ] ||
	{ echo "FAIL: bad table: exit $st: $out"; fail=1; }

# A flame graph from the folded output, drawn by Brendan Gregg's
# flamegraph.pl (Debian ships it with Devel::NYTProf), which reads frames
# separated by ';': its boxes must nest as the report's stacks do, process
# under the root, cause under process, each frame under its caller, with
# the report's time in each.  flame-check.py rebuilds the tree from the
# SVG's boxes and compares it with one summed from the JSON report, so a
# graph whose stacks stayed one box each (two levels) fails.
flamegraph=${LT_FLAMEGRAPH:-$(command -v flamegraph.pl || true)}
[ -z "$flamegraph" ] && [ -f /usr/share/perl5/Devel/NYTProf/flamegraph.pl ] &&
	flamegraph=/usr/share/perl5/Devel/NYTProf/flamegraph.pl
if [ -z "$flamegraph" ]; then
	echo "SKIPPED: flamegraph.pl (Debian: libdevel-nytprof-perl) is not installed"
	[ $fail = 0 ] && exit 77
	exit 1
fi
for f in local-stacks-pipeline local-golden-stacks; do
	"$LA" -q --format=folded "$SAMPLES/$f.dat" > "$tmp/$f.folded" || fail=1
	"$LA" -q --format=json "$SAMPLES/$f.dat" > "$tmp/$f.json" || fail=1
	# wide enough that no box is narrower than the SVG's 0.1 px precision
	perl "$flamegraph" --minwidth=0 --width=2000000 --countname=us \
		"$tmp/$f.folded" > "$tmp/$f.svg" ||
		{ echo "FAIL: flamegraph.pl rejected the folded output"; fail=1; continue; }
	python3 "$(dirname "$0")/flame-check.py" "$tmp/$f.svg" "$tmp/$f.json" || fail=1
done

[ $fail = 0 ] && echo "test-causes: all checks passed"
exit $fail
