#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# latency-record's command line as a user meets it, without tracefs: help,
# version, and bad input (unknown options, bad values, a command that does
# not exist, an output that cannot be written), each one line on stderr
# and the documented exit status.  Runs as any user: every case fails
# before tracefs is touched.
#
# usage: test-cli.sh LATENCY_RECORD MANPAGE

set -u
LR=$1
MAN=$2
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run EXPECTED_STATUS STDERR_PATTERN ARGS...: status, and stderr one line
run() {
	local want=$1 pat=$2 rc
	shift 2
	"$LR" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		one_line "$tmp/err" "latency-record $* (exit $rc)" "$pat"
	else
		fail "latency-record $*: exit $rc, want $want: $(head -c 300 "$tmp/err")"
	fi
}

"$LR" --help > "$tmp/help" 2>&1
check "--help exits 0 and names every option" \
	grep -q -- "--top-level" "$tmp/help"
for opt in --output --duration --buffer-size --stacks --no-stacks --schedstats \
	   --no-schedstats --top-level --no-report --quiet --version; do
	grep -q -- "$opt" "$tmp/help" || fail "--help lacks $opt"
	grep -q -- "${opt//-/\\\\-}" "$MAN" || fail "the man page lacks $opt"
done
check "--version" sh -c "'$LR' --version | grep -q '^latency-record [0-9]'"
check "doctor --help" sh -c "'$LR' doctor --help | grep -q 'Exit status'"
check "probes --help" sh -c "'$LR' probes --help | grep -q -- '--maxactive'"
if command -v man > /dev/null; then
	check "the man page formats without warnings" \
		sh -c "MANWIDTH=80 man --warnings -l '$MAN' 2>&1 >/dev/null | grep -q . && exit 1 || exit 0"
fi

run 1 "unknown option '--frobnicate'" --frobnicate
run 1 "unknown option '-Z'" -Z
run 1 "option '-o' needs a value" -o
run 1 "--duration: invalid value 'soon'" -a soon
run 1 "--duration: invalid value '0'" -a 0
run 1 "--buffer-size: invalid value '12x'" -b 12x
run 1 "--buffer-size: invalid value '1'" -b 1
run 1 "--stacks: invalid value 'some'" --stacks=some
run 1 "--output: an empty file name" -o ""
run 5 "cannot run 'no-such-command-lt': not found in PATH" -- no-such-command-lt arg
run 5 "cannot run '/nonexistent/cmd'" -- /nonexistent/cmd
run 2 "cannot write /nonexistent-dir/t.dat" -o /nonexistent-dir/t.dat -- true
check "no output file left by a refused run" test ! -e /nonexistent-dir/t.dat
run 1 "probes: install, list or remove" probes
run 1 "probes: unknown command 'frob'" probes frob
run 1 "--groups: no group \"nosuch\"" probes install --dry-run --groups=nosuch
run 1 "--maxactive: invalid value '0'" probes install --maxactive=0
run 1 "--all is for list" probes install --all
run 1 "doctor: unexpected argument 'x'" doctor x

# the lines install would write, without a kernel
"$LR" probes install --dry-run --groups=sync,poll --maxactive=64 > "$tmp/dry" 2> "$tmp/err"
check "probes install --dry-run exits 0" test $? -eq 0
check "dry run: a restore (kretprobe, maxactive) before each set" \
	grep -qxF 'r64:latencytop/latency_reason_restore __x64_sys_fsync reason=\"fsync_system_call":string' "$tmp/dry"
check "dry run: user waits carry maxtime 5000" \
	grep -qxF 'p:latencytop/latency_reason_set do_sys_poll reason=\"Waiting_for_event_(poll)":string maxtime_us=\5000:u32' "$tmp/dry"
check "dry run: 8 sites, 16 lines (5 sync, 3 poll)" test "$(wc -l < "$tmp/dry")" -eq 16
# sized from the tasks alive: 64..1024 for fsync, 128..4096 for poll
"$LR" probes install --dry-run --groups=sync,poll > "$tmp/dry2" 2> "$tmp/err"
n=$(sed -n 's/^r\([0-9]*\):latencytop\/latency_reason_restore __x64_sys_fsync .*/\1/p' "$tmp/dry2")
check "default maxactive of fsync in 64..1024 ($n)" test "${n:-0}" -ge 64 -a "${n:-0}" -le 1024
n=$(sed -n 's/^r\([0-9]*\):latencytop\/latency_reason_restore do_sys_poll .*/\1/p' "$tmp/dry2")
check "default maxactive of do_sys_poll in 128..4096 ($n)" test "${n:-0}" -ge 128 -a "${n:-0}" -le 4096
finish
