#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# latency-analyze as a user meets it: --help, wrong arguments, files that
# are missing, not traces, or lack scheduler events, and every output
# format on real traces recorded by other people.  Checks exit statuses,
# that errors are one line naming the file, and that the outputs parse.
#
# usage: test-options.sh LATENCY_ANALYZE DATA_DIR

set -u
LA=$1
DATA=$2
REAL=$DATA/real
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect STATUS PATTERN -- command...: exit status and a stderr/stdout pattern
expect() {
	local want=$1 pattern=$2 out status
	shift 3
	out=$("$@" 2>&1)
	status=$?
	if [ "$status" != "$want" ]; then
		echo "FAIL: $* -> exit $status, want $want"
		echo "$out" | head -5
		fail=1
	elif ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: $* -> output lacks /$pattern/"
		echo "$out" | head -5
		fail=1
	fi
}

# an error must be exactly one line
one_line() {
	local out
	out=$("$@" 2>&1 >/dev/null)
	if [ "$(printf '%s\n' "$out" | wc -l)" != 1 ]; then
		echo "FAIL: $* -> error is not one line:"
		printf '%s\n' "$out"
		fail=1
	fi
}

expect 0 '^Usage: latency-analyze' -- "$LA" --help
expect 0 '^latency-analyze [0-9]' -- "$LA" --version
# each command's help calls its own default format the default, none other
expect 0 'text +LatencyTOP.s tables \(the default\)' -- "$LA" --help
expect 0 'json, the default' -- "$LA" merge --help
if "$LA" merge --help | grep -q '(the default)'; then
	echo "FAIL: merge --help calls text the default: merge writes json"
	fail=1
fi
expect 1 'missing TRACE.dat' -- "$LA"
expect 1 'only one trace' -- "$LA" a.dat b.dat
expect 1 "^latency-analyze: (unrecognized|invalid) option" -- "$LA" --bogus x.dat
expect 1 "--format: invalid value 'xml'" -- "$LA" --format=xml x.dat
expect 1 "--sort: invalid value" -- "$LA" --sort=name x.dat
expect 1 "--sort: invalid value 'maxi'" -- "$LA" --sort=maxi x.dat
expect 1 "--window: invalid value '30 parsecs'" -- "$LA" --window '30 parsecs' x.dat
expect 1 "--window: invalid value '0'" -- "$LA" --window 0 x.dat
expect 1 "--window: invalid value '9999999h': too large a duration" -- "$LA" -w 9999999h x.dat
expect 1 "--from: invalid value '9223372037s': too large a duration" -- "$LA" --from 9223372037s x.dat
expect 1 "--from: invalid value '-3'" -- "$LA" --from=-3 x.dat
expect 1 "--from: invalid value '0x10'" -- "$LA" --from=0x10 x.dat
expect 1 "--to: invalid value '1e3'" -- "$LA" --to=1e3 x.dat
expect 1 "--sleep-cutoff: invalid value ' 5ms'" -- "$LA" --sleep-cutoff=' 5ms' x.dat
expect 1 "--to must be later than --from" -- "$LA" --from 5 --to 2 x.dat
expect 1 "and --no-chains \\(do not build them\\) contradict each other" -- "$LA" --chains --no-chains x.dat
expect 1 "--limit: invalid value" -- "$LA" --limit=many x.dat
expect 1 "--limit: invalid value '-3': expected a whole number" -- "$LA" -n -3 x.dat
# once taken as 4294967293 and as 0 (no limit)
expect 1 "--limit: invalid value ' -3': expected a whole number" -- "$LA" -n ' -3' x.dat
expect 1 "--limit: invalid value '4294967296': expected a whole number" -- "$LA" -n 4294967296 x.dat

expect 2 "$tmp/none.dat: .*(No such file|cannot)" -- "$LA" "$tmp/none.dat"
one_line "$LA" "$tmp/none.dat"
printf 'root:x:0:0:root:/root:/bin/bash\n' > "$tmp/passwd"
expect 3 "$tmp/passwd: " -- "$LA" "$tmp/passwd"
one_line "$LA" "$tmp/passwd"
: > "$tmp/empty.dat"
expect 3 "$tmp/empty.dat: " -- "$LA" "$tmp/empty.dat"
expect 2 "/nonexistent.trans: cannot open" -- "$LA" --trans /nonexistent.trans "$REAL/qemu-1cpu-sched_switch.dat"
# a directory, as a table or as the trace, cannot be read: 2 both
expect 2 "$tmp: translation table: not a regular file" -- "$LA" --trans "$tmp" "$REAL/qemu-1cpu-sched_switch.dat"
expect 2 "$tmp: " -- "$LA" "$tmp"
expect 2 "^latency-analyze: /dev/fd/[0-9]+: not a regular file \(a trace is mapped, not streamed: save it first\)\$" -- \
	"$LA" <(cat "$REAL/qemu-1cpu-sched_switch.dat")
# "-" is standard input: a trace.dat redirected there is read as the file
expect 0 "^Trace: +9\.91 s from 585\.229564" -- \
	sh -c 'cd "$1" && exec "$2" - < "$3"' sh "$tmp" "$LA" "$REAL/qemu-1cpu-sched_switch.dat"
# ... a stream only as perf's pipe mode
expect 2 "^latency-analyze: standard input: not a regular file, nor a perf.data in pipe mode" -- \
	sh -c 'echo not a trace, nor a perf.data | "$1" -' sh "$LA"

# traces without scheduler events: say what they hold and how to record
for f in qemu-1cpu-function-sched_rr.dat qemu-1cpu-function_graph.dat; do
	expect 4 "$f: no scheduler events .*it holds .*func.*record with: trace-cmd record .* <workload>\$" -- "$LA" "$REAL/$f"
	one_line "$LA" "$REAL/$f"
done
# ... or, cut short by --to, no hint that would depend on how far threads read
for j in 1 2 3; do
	expect 4 "no scheduler events .*among the 12 events up to --to; a later --to may find some\$" -- \
		"$LA" -q -j$j --to 1s "$REAL/qemu-1cpu-function_graph.dat"
done
expect 4 "among its 21 events .it holds ftrace:funcgraph_exit 7" -- "$LA" -q --to 1000s "$REAL/qemu-1cpu-function_graph.dat"
# options only text output uses draw a warning with other formats, not -q
expect 0 "warning: --stacks has no effect with --format=csv: CSV has no stacks" -- \
	"$LA" --format=csv --stacks "$REAL/qemu-1cpu-sched_switch.dat"
expect 0 "warning: --limit has no effect with --format=json" -- \
	"$LA" --format=json -n 3 "$REAL/qemu-1cpu-sched_switch.dat"
expect 0 "warning: --window has no effect with --format=folded" -- \
	"$LA" --format=folded -w 100ms "$REAL/qemu-1cpu-sched_switch.dat"
expect 0 "warning: --chains has no effect with --format=html: HTML always has the whole trees" -- \
	"$LA" --format=html --chains -o /dev/null "$REAL/qemu-1cpu-sched_switch.dat"
if "$LA" -q --format=folded --per-thread "$REAL/qemu-1cpu-sched_switch.dat" 2>&1 >/dev/null |
	grep -q .; then
	echo "FAIL: -q did not silence the --per-thread warning"
	fail=1
fi
if "$LA" --stacks -t -n 3 "$REAL/qemu-1cpu-sched_switch.dat" 2>&1 >/dev/null | grep -q warning; then
	echo "FAIL: text output warned about its own options"
	fail=1
fi
# the text tables: every row as wide as its head, in every table of a
# view; with causes no longer than ~33 columns, within 80 (the lines of
# whom a row waited for, under it, are no row)
for f in "$REAL/desktop-4cpu-sched_switch.dat" "$DATA/../../samples/local-golden.dat"; do
	"$LA" -q -t "$f" | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
heads = [i for i, l in enumerate(lines) if l.lstrip().startswith("Cause ")]
ends = set()
for i in heads:
    for l in lines[i:]:
        if not l.strip() or l.lstrip().startswith("..."):
            break
        if l.lstrip().startswith(("<- ", "ran instead: ")):
            continue
        ends.add(len(l.rstrip()))
if not heads or len(ends) != 1 or max(ends) > 80:
    sys.exit("FAIL: %s: %d tables whose rows end at columns %s" % (
        sys.argv[1], len(heads), sorted(ends)))
' "$f" || fail=1
done
# a format one byte too long takes the next system's first letter: its
# sched_switch is then "ched"'s, which is damage, not a missing event
python3 -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read())
assert d[13104:13106] == b"\xf1\x01"	# gpio_direction, the last gpio format
d[13104] += 1
open(sys.argv[2], "wb").write(d)' "$REAL/embedded-1cpu-sched-irq-gpio.dat" "$tmp/ched.dat"
expect 3 "ched.dat: its 251 sched_switch records are of a system named \"ched\", not sched" -- \
	"$LA" "$tmp/ched.dat"
# a file of no events at all is not told to record scheduler events
printf 'cpus 2\nevent sched:sched_switch\n' |
	python3 "$DATA/../tools/mktrace.py" - -o "$tmp/empty.dat"
expect 4 "empty.dat: the file holds no events at all \(nothing was recorded, or its CPU data is missing\)\$" -- \
	"$LA" "$tmp/empty.dat"
# --to says when the file goes on past what was read, saved or not
expect 0 "^Range: +6.645889 to 7.045876 \(--to: the file goes on\)\$" -- \
	"$LA" -q --to 0.4 "$DATA/../../samples/kernel-module-6.1.dat"
"$LA" -q --to 0.4 -f json -o "$tmp/to.json" "$DATA/../../samples/kernel-module-6.1.dat"
expect 0 "^Range: +6.645889 to 7.045876 \(--to: the file goes on\)\$" -- \
	"$LA" -q "$tmp/to.json"
if "$LA" -q --to 5 "$DATA/../../samples/kernel-module-6.1.dat" | grep -q "^Range:"; then
	echo "FAIL: --to past the end of the trace said the file goes on"
	fail=1
fi
# one CPU is one CPU, in any number of threads
for j in 1 3; do
	expect 0 "^Trace: .*, 1 CPU, 997 events\$" -- "$LA" -q -j$j "$REAL/embedded-1cpu-sched-irq-gpio.dat"
done
# Linux 4.14 put an index in prev_state (8 for I, 5 for X), not the bits
# its print fmt names ("t" for 8): rcu_preempt switched out 11 times with
# 8, idle, and woken 10 times before the end, as trace-cmd report -R shows
out=$("$LA" -q -k --sleep-cutoff=0 "$REAL/embedded-1cpu-sched-irq-gpio.dat" |
	grep -A3 '^Process rcu_preempt (8) ')
grep -qE '^Unknown reason +2\.74 s +495\.5 ms +10 +4\.96 s ' <<<"$out" ||
	{ echo "FAIL: 4.14's idle rcu_preempt: $out"; fail=1; }
# ... and those idle waits over 5 ms are counted as dropped (1130 without)
expect 0 '^Dropped: +1662 interruptible waits > 5\.0 ms' -- \
	"$LA" -q "$REAL/desktop-4cpu-sched_switch.dat"

# a damaged sched_switch format is damage (exit 3), not "no scheduler
# events": its common_pid line unreadable, or its ID "2X1" (not ID 2)
python3 - "$REAL/embedded-1cpu-sched-irq-gpio.dat" "$tmp" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
s = d.index(b"name: sched_switch")
pid, idl = bytearray(d), bytearray(d)
j = pid.index(b"common_pid;\toffset", s)
pid[j + 14] = ord("X")
j = idl.index(b"ID: ", s)
idl[j + 5] = ord("X")
open(sys.argv[2] + "/nopid.dat", "wb").write(pid)
open(sys.argv[2] + "/badid.dat", "wb").write(idl)
EOF
expect 3 "^latency-analyze: $tmp/nopid.dat: 251 sched_switch records, but the event's format in the file lacks common_pid, prev_pid, prev_state or next_pid\$" -- \
	"$LA" "$tmp/nopid.dat"
expect 3 "^latency-analyze: warning: $tmp/badid.dat: the format of sched:sched_switch has an ID that is not a number, skipped\$" -- \
	"$LA" "$tmp/badid.dat"
expect 3 "^latency-analyze: $tmp/badid.dat: the format of sched_switch in the file has an ID that is not a number: its records cannot be read\$" -- \
	"$LA" "$tmp/badid.dat"

# a truncated trace: a clear error, or with --partial a marked report
head -c 600000 "$REAL/desktop-4cpu-sched_switch.dat" > "$tmp/cut.dat"
expect 3 "$tmp/cut.dat: " -- "$LA" "$tmp/cut.dat"
one_line "$LA" "$tmp/cut.dat"

for f in desktop-4cpu-sched_switch.dat embedded-1cpu-sched-irq-gpio.dat qemu-1cpu-sched_switch.dat; do
	t=$REAL/$f
	expect 0 'Global latencies' -- "$LA" "$t"
	expect 0 '^ +trace-cmd record -e latencytop .* <workload>$' -- "$LA" "$t"
	expect 0 'Thread ' -- "$LA" --per-thread --sort=total "$t"
	# the viewer's words for the sorts are taken too
	cmp -s <("$LA" -q -s average "$t") <("$LA" -q -s avg "$t") ||
		{ echo "FAIL: -s average is not -s avg on $f"; fail=1; }
	expect 0 '=== Window 0' -- "$LA" --window 2s --from 1 --to 8 "$t"
	"$LA" -q --format=json "$t" > "$tmp/r.json" || { echo "FAIL: json $f"; fail=1; }
	"$LA" -q --format=csv -o "$tmp/r.csv" "$t" || { echo "FAIL: csv $f"; fail=1; }
	"$LA" -q --format=folded "$t" > "$tmp/r.folded" || { echo "FAIL: folded $f"; fail=1; }
	"$LA" -q --format=json --window 3s --from 0.5 "$t" > "$tmp/w.json" ||
		{ echo "FAIL: json windows $f"; fail=1; }
	python3 - "$tmp" "$f" <<'EOF' || fail=1
import csv, json, re, sys
tmp, name = sys.argv[1], sys.argv[2]
r = json.load(open(tmp + "/r.json"))
def bad(msg):
    print("FAIL: %s: %s" % (name, msg)); sys.exit(1)
if not re.fullmatch(r"latencytop-report/1(\.[0-9]+)?", r["schema"]): bad("schema")
t = r["trace"]
for k in ("path", "cpus", "start_ns", "end_ns", "events", "lost_events", "sources"):
    if k not in t: bad("trace." + k + " missing")
if not t["path"].endswith(name): bad("trace.path")
if t["events"] <= 0 or t["end_ns"] < t["start_ns"]: bad("trace numbers")
if not any(s["event"] == "sched:sched_switch" and s["count"] > 0 for s in t["sources"]): bad("sources")
if not r["processes"]: bad("no processes")
keys = ("reason", "argument", "count", "total_ns", "max_ns", "avg_ns", "p50_ns", "p99_ns", "max_at_ns")
tot = 0
for row in r["global"]:
    for k in keys:
        if k not in row: bad("row lacks " + k)
    if not (row["max_ns"] >= row["p99_ns"] >= row["p50_ns"] >= 0): bad("percentiles out of order")
    if row["avg_ns"] * row["count"] > row["total_ns"] + row["count"]: bad("avg")
    tot += row["total_ns"]
if tot != r["total_ns"]: bad("global total %d != %d" % (tot, r["total_ns"]))
for p in r["processes"]:
    for k in ("pid", "comm", "kernel_thread", "reasons", "threads"):
        if k not in p: bad("process lacks " + k)
    if p["total_ns"] != sum(x["total_ns"] for x in p["reasons"]): bad("process total")
    if p["total_ns"] != sum(th["total_ns"] for th in p["threads"]): bad("threads do not add up")
    if not p["kernel_thread"]:
        pass
# every user process row is in the global table
glob = {(x["reason"], x["argument"]): x["count"] for x in r["global"]}
for p in r["processes"]:
    if p["kernel_thread"]: continue
    for x in p["reasons"]:
        if glob.get((x["reason"], x["argument"]), 0) < x["count"]: bad("global misses " + x["reason"])
w = json.load(open(tmp + "/w.json"))
if w["options"]["window_ns"] != 3000000000 or w["options"]["from_ns"] != 500000000: bad("window options")
for v in w["windows"]:
    if v["end_ns"] - v["start_ns"] > 3000000000: bad("window too long")
    if v["start_ns"] < w["trace"]["start_ns"] + 500000000: bad("window before --from")
rows = list(csv.reader(open(tmp + "/r.csv")))
if rows[0][:4] != ["view", "start_ns", "end_ns", "scope"]: bad("csv header")
if any(len(x) != len(rows[0]) for x in rows): bad("csv column count")
if len(r["global"]) != sum(1 for x in rows[1:] if x[0] == "all" and x[3] == "global"): bad("csv global rows")
if "kernel_thread" not in rows[0]: bad("csv has no kernel_thread column")
kt = rows[0].index("kernel_thread")
# the global table is the user processes' rows (kernel threads out): they add up
user = sum(int(x[11]) for x in rows[1:] if x[0] == "all" and x[3] == "process" and x[kt] == "0")
kth = [x for x in rows[1:] if x[0] == "all" and x[3] == "process" and x[kt] == "1"]
if user != r["total_ns"]: bad("csv user processes %d != global %d" % (user, r["total_ns"]))
if sorted({int(x[4]) for x in kth}) != sorted(p["pid"] for p in r["processes"] if p["kernel_thread"] and p["reasons"]): bad("csv kernel_thread flags")
for line in open(tmp + "/r.folded"):
    if not re.match(r"^[^;]+ \(\d+\);[^;]+(;[^;]+)* \d+$", line.rstrip("\n")): bad("folded line: " + line)
EOF
done

# CPUs decoded in parallel merge back into exactly the one-thread report
for t in "$REAL"/desktop-4cpu-sched_switch.dat "$REAL"/embedded-1cpu-sched-irq-gpio.dat; do
	for opts in "" "--window 2s --to 9" "--per-thread --stacks"; do
		"$LA" -q -j1 --format=json $opts "$t" > "$tmp/j1.json"
		# 3 workers on 4 CPUs: one of them reads two
		for j in 2 3 4; do
			"$LA" -q -j$j --format=json $opts "$t" > "$tmp/jn.json"
			cmp -s "$tmp/j1.json" "$tmp/jn.json" ||
				{ echo "FAIL: -j1 and -j$j differ on $t $opts"; fail=1; }
		done
	done
done
# Left open, threads are for traces large enough to repay them (the rule
# itself: test-pipe.c): none is started on a small trace; -j2 still is.
threads_started() {
	strace -f -e trace=clone,clone3 -o "$tmp/strace" "$@" >/dev/null 2>&1
	grep -cE '^[0-9]+ +clone3?\(.*CLONE_THREAD' "$tmp/strace"
}
if grep -qa __tsan_init "$LA"; then
	echo "skipped: threads started (ThreadSanitizer starts its own)"
elif strace -o /dev/null true 2>/dev/null; then
	T=$REAL/desktop-4cpu-sched_switch.dat
	n=$(threads_started "$LA" -q "$T")
	[ "$n" = 0 ] || { echo "FAIL: $n threads started on a small trace by default"; fail=1; }
	n=$(threads_started "$LA" -q -j2 "$T")
	[ "$n" = 1 ] || { echo "FAIL: -j2 started $n threads, want 1"; fail=1; }
	# ... and a trace counted as large gets one per usable core
	if [ "$(nproc)" -ge 2 ]; then
		n=$(LT_AUTO_MIN_EVENTS=1 threads_started "$LA" -q "$T")
		[ "$n" -ge 1 ] ||
			{ echo "FAIL: no thread started on a large trace by default"; fail=1; }
	fi
else
	echo "skipped: threads started (strace missing or not allowed)"
fi
expect 1 "--threads: invalid value '0'" -- "$LA" -j 0 x.dat
expect 1 "--threads: invalid value '1025': expected 1 to 1024" -- "$LA" -j 1025 x.dat
expect 1 "--to must be later than the first event" -- "$LA" --to 0 x.dat
T=$REAL/qemu-1cpu-sched_switch.dat
# absolute times round to the microsecond as trace-cmd report prints
# them (its last event: 852673.659140), so they can be searched for there
expect 0 "^Trace: +18\.59 s from 852655\.067718 to 852673\.659140, 4 CPUs" -- \
	"$LA" -q "$REAL/desktop-4cpu-sched_switch.dat"
# waits for a CPU after a preemption or a fork are not charged (rule 6),
# but said: 436 + 19 of them in this trace, 539.7 + 91.2 ms, counted from
# trace-cmd report's switches (prev_state R to the next switch-in) and
# sched_wakeup_new
expect 0 "^Runnable: 455 waits for cpu after a preemption or a fork \(630\.9 ms\), not\$" -- \
	"$LA" -q "$DATA/../../samples/kernel-patched-6.1.dat"
# the shortest window the whole trace needs, however short the one asked
for w in 1ns 10us; do
	expect 1 "$T: --window: the last wait ends 5\.05 s into the trace, past the 65536 windows allowed; use --window 78us or longer\$" -- \
		"$LA" --window $w "$T"
done
# from the trace's start, though the windows start at --from
expect 1 "$T: --window: the last wait ends 5\.05 s into the trace, past the 65536 windows allowed; use --window 62us or longer\$" -- \
	"$LA" --from 1 --window 10us "$T"
expect 0 "=== Window 64795: \+5\.05 s" -- "$LA" --window 78us "$T"
# past the end: no event in the range is an error, with the trace's span
expect 4 "$T: --from 100\.00 s is past the trace's end: no event in the range; the trace spans 9\.91 s, from 585\.229564 to 595\.143090 \(--from and --to count from its first event\)\$" -- \
	"$LA" --from 100 "$T"
expect 1 "--to must be later than --from" -- "$LA" --from 2 --to 1 "$T"
# -o naming the trace (or a link to it) must not truncate it
cp "$T" "$tmp/self.dat"
ln -s "$tmp/self.dat" "$tmp/link.dat"
expect 1 "--output .*: that is the file being read" -- \
	"$LA" -o "$tmp/link.dat" "$tmp/self.dat"
cmp -s "$T" "$tmp/self.dat" || { echo "FAIL: -o destroyed the trace"; fail=1; }

# a trace whose waits are all in kernel threads: say so, and how to see them
expect 0 '^  \(none outside kernel threads: -k counts them here\)$' -- "$LA" "$T"
expect 0 '^Unknown reason +4\.0 ms ' -- "$LA" -k "$T"
expect 0 '^=== Window 0: \+0 s \.\. \+1\.00 s ===$' -- "$LA" --window 1s "$T"

# waits with no recorded end (this kernel drops some switch-ins): a wait
# for cpu after a wakeup is counted apart from a whole wait, and charged
# up to its lower bound where the trace proves one (3 of the 17)
expect 0 '"no_switch_in":15,"cpu_waits_no_switch_in":14,' -- \
	"$LA" -q -f json "$DATA/../../samples/local-golden.dat"
expect 0 '"charged_lower_bound":3,"charged_lower_bound_ns":3764783,' -- \
	"$LA" -q -f json "$DATA/../../samples/local-golden.dat"
expect 0 '^Bounded:  3 waits for cpu whose switch-in the trace lacks' -- \
	"$LA" "$DATA/../../samples/local-golden.dat"

# a report that cannot be written, however short: exit 2, never 0
for fmt in text folded json; do
	expect 2 "stdout: cannot write the report: No space left" -- \
		sh -c '"$0" -n 1 --format=$1 "$2" > /dev/full' "$LA" $fmt "$T"
	expect 2 "stdout: cannot write the report: Bad file descriptor" -- \
		sh -c '"$0" -n 1 --format=$1 "$2" >&-' "$LA" $fmt "$T"
done
expect 2 "/dev/full: cannot write the report" -- "$LA" -o /dev/full "$T"

# cut in the metadata, nothing to report even with --partial: no hint
expect 3 "$tmp/cut.dat: .*[^)]\$" -- "$LA" --partial "$tmp/cut.dat"
expect 3 "$tmp/cut.dat: .*[^)]\$" -- "$LA" "$tmp/cut.dat"
# cut inside the last CPU's data: exit status 5, and the report says so;
# without --partial the error points at it
head -c 3000000 "$REAL/desktop-4cpu-sched_switch.dat" > "$tmp/cut2.dat"
expect 3 "$tmp/cut2.dat: CPU 3 data: .* \(try --partial for what can be read\)\$" -- "$LA" "$tmp/cut2.dat"
expect 5 'PARTIAL REPORT' -- "$LA" --partial "$tmp/cut2.dat"
# cut in CPU 0's first page: nothing before it, and --partial says so
head -c 2752700 "$REAL/desktop-4cpu-sched_switch.dat" > "$tmp/cut4.dat"
expect 3 "$tmp/cut4.dat: CPU 0 data: .* \(--partial: no event could be read before it\)\$" -- \
	"$LA" --partial "$tmp/cut4.dat"
# cut before CPU 2's data: the first damage is named, the others counted
head -c 2850000 "$REAL/desktop-4cpu-sched_switch.dat" > "$tmp/cut3.dat"
for j in 1 2 3; do
	expect 5 "^latency-analyze: $tmp/cut3.dat: CPU 2 data: the file ends at offset 0x2b7cd0, before its CPU data \(0x2ba000\.\.0x2d1000\); the data of 2 more CPUs is damaged too \(the report is partial\)\$" -- \
		"$LA" -j$j --partial "$tmp/cut3.dat"
done

# a saved JSON report given instead of the trace writes every format as
# the trace did (thread rows carry no stacks in JSON: not --stacks -t)
for t in "$REAL/desktop-4cpu-sched_switch.dat" "$REAL/embedded-1cpu-sched-irq-gpio.dat" \
	 "$DATA/../../samples/local-golden-stacks.dat"; do
	for w in "" "-w 5s" "-k -s total" "-s avg"; do
		# shellcheck disable=SC2086
		"$LA" -q -f json $w "$t" > "$tmp/saved.json"
		for f in "json" "text" "csv" "folded" "text --stacks" "text -t" "text -n 3"; do
			# shellcheck disable=SC2086
			if ! cmp -s <("$LA" -q --format=$f $w "$t") \
				    <("$LA" -q --format=$f "$tmp/saved.json"); then
				echo "FAIL: $t $w --format=$f: differs from its saved report"
				fail=1
			fi
		done
	done
done
# however much white space a writer put before the report (5000 bytes:
# past the first read), and after a byte order mark, it is still one
{ printf '\357\273\277'; head -c 5000 /dev/zero | tr '\0' ' '; cat "$tmp/saved.json"; } \
	> "$tmp/spaced.json"
cmp -s <("$LA" -q "$tmp/saved.json") <("$LA" -q "$tmp/spaced.json") ||
	{ echo "FAIL: a saved report after 5000 spaces is not read as one"; fail=1; }
# ... but a pipe of white space is not read for ever
expect 2 "not a regular file" -- timeout 10 "$LA" -q <(yes ' ')
# control characters in names (a task may call itself "\e[31m...\n"; so
# may a saved report) show as '?' in text and folded output: no escape
# reaches the terminal, no name breaks a line
"$LA" -q -f json "$DATA/../../samples/local-golden-stacks.dat" | python3 -c '
import json, sys
r = json.load(sys.stdin)
p = r["processes"][0]
p["comm"] = "a\x1b[31mred\nx"
p["threads"][0]["comm"] = "t\u009b1m\u00e9"
p["reasons"][0]["reason"] = "r\x07\x7f\r"
r["global"][0]["stacks"][0]["frames"][0] = "f\x1bn"
r["trace"]["uname"] = "Linux \x1b]0;title\x07"
r["trace"]["sources"][0]["event"] = "ev\x01\x1bnt"
json.dump(r, sys.stdout)' > "$tmp/ctl.json"
for f in text "text --stacks -t" folded; do
	# shellcheck disable=SC2086
	"$LA" -q --format=$f "$tmp/ctl.json" > "$tmp/ctl.out"
	if LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d '\n' < "$tmp/ctl.out"); then
		echo "FAIL: --format=$f: a control character in the output"; fail=1
	fi
done
"$LA" -q "$tmp/ctl.json" > "$tmp/ctl.out"
grep -qx 'Process a?\[31mred?x ([0-9]*): .*' "$tmp/ctl.out" &&
	grep -q '^Sources:  ev??nt [0-9]*,' "$tmp/ctl.out" &&
	grep -q '^r???  ' "$tmp/ctl.out" && grep -q ', Linux ?\]0;title?$' "$tmp/ctl.out" ||
	{ echo "FAIL: control characters not shown as '?'"; head -30 "$tmp/ctl.out"; fail=1; }
"$LA" -q --stacks "$tmp/ctl.json" | grep -q '^ *f?n$' ||
	{ echo "FAIL: a frame's control character not shown as '?'"; fail=1; }
# U+009B, a C1 control (CSI to some terminals), too; U+00E9 stays
"$LA" -q -t "$tmp/ctl.json" | grep -q "^  Thread t?1m$(printf '\303\251') (" ||
	{ echo "FAIL: a thread's C1 control character not shown as '?'"; fail=1; }
"$LA" -q -f folded "$tmp/ctl.json" | grep -q '^a?\[31mred?x ([0-9]*);r???;' ||
	{ echo "FAIL: folded: control characters not shown as '?'"; fail=1; }
# UTF-8 causes (an argument may be a file name) are padded by columns,
# two a CJK character, and in a file cut only past 72 columns, on a
# character, with '~': the numbers stay in line
"$LA" -q -f json "$DATA/../../samples/local-golden-stacks.dat" | python3 -c '
import json, sys
r = json.load(sys.stdin)
r["global"][0]["reason"] = "Ждём 数据"
r["global"][1]["reason"] = "数据库" * 20
json.dump(r, sys.stdout)' > "$tmp/utf8.json"
"$LA" -q "$tmp/utf8.json" | python3 -c '
import sys, unicodedata
def cols(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lines = sys.stdin.read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("Cause "))
rows = lines[head:head + 5]
want = ["Ждём 数据 ", "数据库" * 11 + "数据~ "]
ok = (len({cols(l) for l in rows}) == 1 and
      all(any(l.startswith(w) for l in rows) for w in want) and
      all(cols(l.split(" ")[0]) <= 72 for l in rows[1:]) and
      all(cols(l.split(" ms ")[0]) == cols(rows[1].split(" ms ")[0]) for l in rows[1:3]))
sys.exit(0 if ok else "\n".join(rows))' ||
	{ echo "FAIL: UTF-8 causes not cut and padded by columns"; fail=1; }

# short windows: 2.5 M values in 40 MB, read back (once refused: "more
# than 2000000 values"); past what is read, a limit, not damage
t=$DATA/../../samples/local-stacks-pipeline.dat
"$LA" -q -f json -w 50us "$t" > "$tmp/big.json"
cmp -s <("$LA" -q -w 50us "$t") <("$LA" -q "$tmp/big.json") ||
	{ echo "FAIL: -w 50us: the saved report does not read back as its trace"; fail=1; }
python3 -c 'import sys; sys.stdout.write("[" + "0," * 1000001 + "0]")' > "$tmp/many.json"
expect 6 "^latency-analyze: $tmp/many.json: line 1, column [0-9]+: more than 1000000 values in 2000005 bytes: more than is read\$" -- \
	"$LA" "$tmp/many.json"
rm -f "$tmp/big.json" "$tmp/many.json"
expect 0 "saved.json is a saved report: --window cannot change it \(its analysis was fixed when it was saved\)\$" -- \
	"$LA" -w 5s "$tmp/saved.json"
expect 0 "saved.json is a saved report: --sleep-cutoff, --from, --trans cannot change it" -- \
	"$LA" --from 1 --sleep-cutoff 1ms --trans /dev/null "$tmp/saved.json"
# --sort orders a saved report as it would have ordered the trace's, silently
t=$DATA/../../samples/local-golden-stacks.dat
"$LA" -q -f json -w 0.2 "$t" > "$tmp/saved.json"
for s in total count avg; do
	for f in json text csv folded; do
		if ! cmp -s <("$LA" -q -f $f -w 0.2 -s $s "$t") \
			    <("$LA" -f $f -s $s "$tmp/saved.json" 2>"$tmp/err"); then
			echo "FAIL: -s $s -f $f on a saved report: not as on its trace"
			fail=1
		fi
		[ -s "$tmp/err" ] && { echo "FAIL: -s $s on a saved report: warned"; fail=1; }
	done
done
printf '{"schema": "latencytop-report/1", "trace": {}, "processes": [], "global": [{"count": -1}]}' > "$tmp/bad.json"
expect 3 "^latency-analyze: $tmp/bad.json: not a latencytop report: global\[0\]\.count: expected a whole number of 0 or more\$" -- \
	"$LA" "$tmp/bad.json"
one_line "$LA" "$tmp/bad.json"
# nor is an array: said as JSON, not as a trace without its magic
printf '[1, 2]' > "$tmp/bad.json"
expect 3 "^latency-analyze: $tmp/bad.json: not a latencytop report: the top level: expected an object\$" -- \
	"$LA" "$tmp/bad.json"
# the schema's name alone is no report
printf '{"schema": "latencytop-report/1"}' > "$tmp/bad.json"
expect 3 "^latency-analyze: $tmp/bad.json: not a latencytop report: trace: missing\$" -- \
	"$LA" "$tmp/bad.json"

[ $fail = 0 ] && echo "cli/options: all checks passed"
exit $fail
