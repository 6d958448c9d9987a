#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# latency-record saves each task's cgroup in the trace.dat, and
# latency-analyze groups by it.  Two cgroups of the v2 hierarchy are made
# for the test; a shell moves itself into each (it writes its pid to
# cgroup.procs, and to a file of the test: the truth, none of our code)
# and execs a workload that blocks: `dd ... conv=fsync` in one, `ls -R`
# then `sleep` in the other.  Checked:
#   - trace-cmd reads the file (it warns of latency-record's own option,
#     id 19540, and goes on) and counts the same events as latency-analyze;
#   - every wait of the two pids the shells wrote is in their cgroup, in
#     the waits export and in the JSON report's processes;
#   - per cgroup, the charged waits of the export add up to the JSON
#     report's processes of that cgroup and to the table --by cgroup prints;
#   - tracefs as before.
#
# usage: test-cgroups.sh LATENCY_RECORD LATENCY_ANALYZE
# Skips (77) without root, tracefs, a writable cgroup v2 hierarchy,
# trace-cmd or python3.

set -u
LR=$1
LA=$2
. "$(dirname "$0")/../lib.sh"
need_tracefs
command -v trace-cmd > /dev/null || skip "no trace-cmd (the independent reader)"
command -v python3 > /dev/null || skip "no python3"
CG=
for d in /sys/fs/cgroup/unified /sys/fs/cgroup; do
	if [ "$(stat -f -c %T "$d" 2> /dev/null)" = cgroup2fs ]; then
		CG=$d
		break
	fi
done
[ -n "$CG" ] || skip "no cgroup v2 hierarchy"
A=$CG/lt-rec-cg-a.$$
B=$CG/lt-rec-cg-b.$$
mkdir "$A" "$B" 2> /dev/null || skip "cannot make cgroups in $CG"
tmp=$(mktemp -d "${TMPDIR:-/var/tmp}/lt-record-cg.XXXXXX")
trap 'rmdir "$A" "$B" 2> /dev/null; rm -rf "$tmp"' EXIT

cat > "$tmp/load.sh" <<SH
#!/bin/sh
sh -c 'echo \$\$ > $A/cgroup.procs && echo \$\$ > $tmp/pid-a &&
	exec dd if=/dev/zero of=$tmp/dd.out bs=64k count=32 conv=fsync status=none' &
sh -c 'echo \$\$ > $B/cgroup.procs && echo \$\$ > $tmp/pid-b &&
	exec sh -c "ls -R /usr/share/doc > /dev/null; sleep 0.05"' &
wait
SH
chmod +x "$tmp/load.sh"

tracefs_lock
tracefs_state "$tmp/before"
"$LR" -o "$tmp/cg.dat" --no-report -- "$tmp/load.sh" > "$tmp/out" 2> "$tmp/err"
rc=$?
tracefs_state "$tmp/after"
flock -u 9
sed 's/^/    /' "$tmp/err"
check "latency-record exits 0" test "$rc" -eq 0
same_tracefs_state "$tmp/before" "$tmp/after" "tracefs as before"
[ -s "$tmp/pid-a" ] && [ -s "$tmp/pid-b" ] || { fail "the workload ran"; finish; }

trace-cmd report -i "$tmp/cg.dat" > "$tmp/report" 2> "$tmp/report.err"
check "trace-cmd reads the file ($(grep -c . "$tmp/report.err") lines on stderr)" test $? -eq 0
sed 's/^/    trace-cmd: /' "$tmp/report.err" | head -3
# events: every line but the header and the frames of stacks
tc=$(grep -v -e '^cpus=' -e '^ *=>' -e '^$' "$tmp/report" | wc -l)
"$LA" -q --format=json -o "$tmp/cg.json" "$tmp/cg.dat"
check "latency-analyze reads the file" test $? -eq 0
"$LA" -q --format=waits -o "$tmp/cg.csv" "$tmp/cg.dat"
"$LA" -q --by cgroup -o "$tmp/cg.txt" "$tmp/cg.dat"

python3 - "$tmp" "${A#"$CG"}" "${B#"$CG"}" "$tc" <<'PY'
import collections, csv, json, re, sys
tmp, cga, cgb, tc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
fails = []
def check(ok, what):
    print(("ok      " if ok else "FAILED  ") + what)
    if not ok:
        fails.append(what)
rep = json.load(open(tmp + "/cg.json"))
waits = list(csv.DictReader(open(tmp + "/cg.csv")))
truth = {int(open(tmp + "/pid-a").read()): cga, int(open(tmp + "/pid-b").read()): cgb}
check(rep["trace"]["events"] == tc, "events: latency-analyze %d, trace-cmd report %d"
      % (rep["trace"]["events"], tc))
check(rep["trace"]["cgroup_events"] > 0, "the trace names cgroups (%d told)"
      % rep["trace"]["cgroup_events"])
for pid, cg in sorted(truth.items()):
    mine = [w for w in waits if int(w["tid"]) == pid]
    check(mine and all(w["cgroup"] == cg for w in mine),
          "pid %d: %d waits, all in %s (%s)" % (pid, len(mine), cg,
          sorted(set(w["cgroup"] for w in mine))))
    procs = [p for p in rep["processes"] if p["pid"] == pid]
    check(all(p["cgroup"] == cg for p in procs),
          "pid %d's process section in %s" % (pid, cg))
sums = collections.Counter()
for w in waits:
    if not w["dropped"]:
        sums[w["cgroup"]] += 1
want = collections.Counter()
for p in rep["processes"]:
    want[p["cgroup"] or ""] += sum(r["count"] for r in p["reasons"])
check(sums == want, "per cgroup, charged waits: export %s, JSON %s"
      % (dict(sums), dict(want)))
text = open(tmp + "/cg.txt").read()
for cg in (cga, cgb):
    m = re.search(r"^=== Cgroup %s: (\d+) process" % re.escape(cg), text, re.M)
    n = sum(1 for p in rep["processes"] if p["cgroup"] == cg)
    check((m and int(m.group(1))) == n if n else True,
          "--by cgroup: %s with %d processes" % (cg, n))
    print("        %s: %d charged waits" % (cg, want[cg]))
sys.exit(1 if fails else 0)
PY
check "the cgroups in the report" test $? -eq 0
finish
