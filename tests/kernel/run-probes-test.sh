#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end test of "latency-record probes" on Debian's own kernel, with
# no module and no patch: the latencytop events from kprobe events.
#
#   boot /boot/vmlinuz-<version> (CONFIG_KPROBE_EVENTS=y) under qemu (TCG)
#   with the usual initramfs (run-module-test.sh's) and, laid over it,
#   latency-record and guest-probes.sh as /init; the guest installs the
#   probes, records the workload with latency-record and with trace-cmd
#   record, removes the probes.  Here:
#     - doctor, before the probes, names probes install as the fix (a
#       kernel with kprobe events; safety/hints checks one without);
#     - dynamic_events after remove = before install (a user's own kprobe
#       event stays), and a second install added nothing;
#     - both traces through check-probes.py: check-trace.py's checks of the
#       module test (events, stacks, restores paired, each workload task
#       charged mostly to its reason, latency-analyze agreeing with an
#       independent replay of trace-cmd report's text to 3 % in counts and
#       5 % in totals), with the probe keys read as their reasons;
#     - latency-record lost no event and its probes missed no call;
#     - -S switched schedstats on for the recording only (the sched_stat
#       events check-trace.py asks for came from it);
#     - latency-analyze --live over the same workload, its events saved:
#       annotated causes shown live, the saved file through check-probes.py
#       too, and the live report = the offline report of the saved file.
#
# usage: run-probes-test.sh WORKDIR LATENCY_RECORD LATENCY_ANALYZE
# Exits 77 (skipped) when qemu, the kernel packages or other tools are
# missing.  About a minute.

set -u
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 3 ] || { echo "usage: $0 WORKDIR LATENCY_RECORD LATENCY_ANALYZE"; exit 2; }
LT_WORK=$1
RECORDER=$2
ANALYZER=$3
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)

lt_check_host
PATH=$PATH:/usr/sbin:/sbin
lt_need_cmds modprobe
[ -x "$RECORDER" ] || lt_skip "no latency-record at $RECORDER"
KVER=$(lt_debian_kernel)
[ -n "$KVER" ] ||
	lt_skip "no kernel with both /boot/vmlinuz-<v> and /lib/modules/<v>/build (install linux-image-amd64 linux-headers-amd64)"
KIMG=/boot/vmlinuz-$KVER
[ -r "$KIMG" ] || lt_skip "$KIMG is not readable"
grep -qs '^CONFIG_KPROBE_EVENTS=y' "/boot/config-$KVER" ||
	lt_skip "kernel $KVER has no kprobe events"
lt_log "kernel $KVER"

# The guest's disk and filesystem modules, in load order, uncompressed
# (as run-module-test.sh).
mkdir -p "$LT_WORK/ko"
: > "$LT_WORK/modules.list"
for m in virtio_pci virtio_blk ext4; do modprobe --show-depends -S "$KVER" "$m"; done |
	awk '$1 == "insmod" { print $2 }' | awk '!seen[$0]++' | while read -r m; do
	case $m in
	*.ko.xz) xz -dc "$m" > "$LT_WORK/ko/$(basename "$m" .xz)"; m=$LT_WORK/ko/$(basename "$m" .xz) ;;
	*.ko.zst) zstd -qdc "$m" > "$LT_WORK/ko/$(basename "$m" .zst)"; m=$LT_WORK/ko/$(basename "$m" .zst) ;;
	*.ko.gz) gzip -dc "$m" > "$LT_WORK/ko/$(basename "$m" .gz)"; m=$LT_WORK/ko/$(basename "$m" .gz) ;;
	esac
	echo "$m" >> "$LT_WORK/modules.list"
done
[ -s "$LT_WORK/modules.list" ] || lt_fail "cannot resolve the guest's modules"

cat > "$LT_WORK/config" <<EOF
LT_MODULE=
LT_RECORD_ARGS="$(lt_record_args)"
LT_HANG_AFTER=${LT_HANG_AFTER:-120}
EOF

lt_build_workload "$LT_WORK/lt-workload"
lt_make_initramfs "$LT_WORK/base.cpio.gz" "$LT_WORK/config" "$LT_WORK/modules.list"
# Laid over it (the kernel unpacks concatenated archives in order, a later
# file replacing an earlier one): our /init and latency-record.
spec=$LT_WORK/probes.spec
echo "file init $LT_KERNEL_DIR/guest-probes.sh 0755" > "$spec"
lt_spec_binary "$spec" "$RECORDER" usr/bin/latency-record
lt_spec_binary "$spec" "$ANALYZER" usr/bin/latency-analyze
awk '!seen[$0]++' "$spec" > "$spec.tmp" && mv "$spec.tmp" "$spec"
python3 "$LT_KERNEL_DIR/mkinitramfs.py" "$spec" "$LT_WORK/probes.cpio.gz" ||
	lt_fail "cannot write $LT_WORK/probes.cpio.gz"
cat "$LT_WORK/base.cpio.gz" "$LT_WORK/probes.cpio.gz" > "$LT_WORK/initramfs.cpio.gz"
lt_run_qemu "$KIMG" "$LT_WORK/initramfs.cpio.gz"

O=$LT_WORK/out
. "$LT_KERNEL_DIR/../lib.sh"

if grep -qE 'BUG:|WARNING:|Oops|Call Trace' "$O/dmesg.log"; then
	grep -E -A5 'BUG:|WARNING:|Oops' "$O/dmesg.log"
	fail "the guest kernel complained"
fi
# issue 49, item 9: where the kernel has kprobe events, the hints name
# probes install (safety/hints checks a kernel without them)
lt_log "doctor before the probes:"
grep -E -A3 '^(kprobe|  latencytop:latency_reason_set)' "$O/doctor.out" | sed 's/^/    /'
grep -q '^kprobe events .*fix: latency-record probes install' "$O/doctor.out" &&
	ok "doctor, kprobe events and no probes: its fix is probes install" ||
	fail "doctor does not say to run probes install where kprobe events exist"
grep -A3 '^  latencytop:latency_reason_set ' "$O/doctor.out" |
	grep -q '^ *fix: run "latency-record probes install"' &&
	ok "doctor's latencytop events: their fix is probes install" ||
	fail "doctor's latencytop events: their fix is not probes install"
lt_log "probes install:"
sed 's/^/    /' "$O/install.out" "$O/install.err"
[ "$(cat "$O/install.rc")" = 0 ] && ok "probes install exits 0" ||
	fail "probes install exits $(cat "$O/install.rc")"
n=$(grep -c '^p:latencytop/latency_reason_set ' "$O/dyn-installed.txt")
r=$(grep -c '^r[0-9]*:latencytop/latency_reason_restore ' "$O/dyn-installed.txt")
[ "$n" -ge 30 ] && [ "$n" -eq "$r" ] && ok "probes install: $n sets, $r restores" ||
	fail "probes install: $n sets, $r restores (want >= 30, as many)"
grep -q '^r[0-9][0-9]*:latencytop/latency_reason_restore do_sys_poll ' "$O/dyn-installed.txt" &&
	ok "kretprobes have their maxactive ($(grep -o '^r[0-9]*:latencytop/latency_reason_restore do_sys_poll' "$O/dyn-installed.txt" | cut -d: -f1))" ||
	fail "no maxactive on the kretprobes"
grep -q '^skipped __bread_slow' "$O/install.out" &&
	ok "an inlined function is skipped and listed: $(grep '^skipped __bread_slow' "$O/install.out")" ||
	fail "__bread_slow (inlined on Debian's 6.1) is not listed as skipped"
[ "$(cat "$O/install2.rc")" = 0 ] && cmp -s "$O/dyn-installed.txt" "$O/dyn-installed2.txt" &&
	ok "a second install adds nothing: $(cat "$O/install2.err")" ||
	fail "a second install changed dynamic_events (rc $(cat "$O/install2.rc"))"
[ "$(cat "$O/remove.rc")" = 0 ] && cmp -s "$O/dyn-before.txt" "$O/dyn-after.txt" &&
	ok "probes remove leaves dynamic_events as before ($(wc -l < "$O/dyn-before.txt") line: $(head -c 60 "$O/dyn-before.txt"))" ||
	{ fail "probes remove (rc $(cat "$O/remove.rc")): dynamic_events differ:"; diff "$O/dyn-before.txt" "$O/dyn-after.txt"; }
[ "$(cat "$O/remove2.rc")" = 0 ] && grep -q "no latencytop probe events to remove" "$O/remove2.err" &&
	ok "a second remove: $(cat "$O/remove2.err")" || fail "a second remove (rc $(cat "$O/remove2.rc"))"

lt_log "latency-record:"
sed 's/^/    /' "$O/lr-record.err"
[ "$(cat "$O/lr-record.rc")" = 0 ] && ok "latency-record exits 0" ||
	fail "latency-record exits $(cat "$O/lr-record.rc")"
grep -q "latencytop events from kprobe events" "$O/lr-record.err" &&
	ok "latency-record names the probes as the events' origin" ||
	fail "latency-record does not say the latencytop events are kprobes"
grep -q "no events lost" "$O/lr-record.err" && ok "latency-record lost no event" ||
	fail "latency-record lost events"
grep -q "no latencytop probe missed a call" "$O/lr-record.err" &&
	ok "no probe missed a call while latency-record recorded" ||
	fail "probes missed calls: $(grep -i missed "$O/lr-record.err")"
grep -q "kernel.sched_schedstats switched on for the recording" "$O/lr-record.err" &&
	[ "$(cat "$O/schedstats-after.txt")" = 0 ] &&
	ok "-S switched kernel.sched_schedstats on for the recording, and off after" ||
	fail "kernel.sched_schedstats: $(cat "$O/schedstats-after.txt") after latency-record -S"
lt_log "probes list after both recordings:"
sed 's/^/    /' "$O/list2.out"

lt_log "latency-analyze --live:"
sed 's/^/    /' "$O/live.err"
[ "$(cat "$O/live.rc")" = 0 ] && ok "latency-analyze --live exits 0 on SIGINT" ||
	fail "latency-analyze --live exits $(cat "$O/live.rc")"
for t in record.dat trace.dat live.dat; do
	case $t in
	record.dat) by=latency-record ;;
	trace.dat) by="trace-cmd record" ;;
	*) by="latency-analyze --live --save" ;;
	esac
	lt_log "$t ($by):"
	python3 "$LT_KERNEL_DIR/check-probes.py" --analyzer "$ANALYZER" --golden "$O/$t" ||
		fail "$t: check-probes.py"
done
# what --live showed as it went = the offline report of what it saved
if "$ANALYZER" -q --format=json "$O/live.dat" > "$O/live-saved.json" &&
   python3 "$LT_KERNEL_DIR/../live/check-saved.py" "$O/live.json" "$O/live-saved.json"; then
	ok "latency-analyze --live's report = the offline report of its --save file"
else
	fail "latency-analyze --live's report differs from the offline one"
fi
n=$(python3 -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))["global"] if r["kind"] == "annotated"))' "$O/live.json")
[ "${n:-0}" -ge 3 ] && ok "--live shows $n annotated causes (latencytop events from the probes)" ||
	fail "--live shows ${n:-no} annotated causes"
[ -n "${LT_SAMPLE_OUT:-}" ] && cp "$O/record.dat" "$LT_SAMPLE_OUT"
finish
