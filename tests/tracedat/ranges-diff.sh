#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ranges-diff.sh LATENCY_ANALYZE DIR_OR_FILE...
#
# Reading one CPU in ranges on several threads must give exactly the
# one-thread report.  Every trace under the arguments is analysed with
# -j1, then with -j2 and -j3 cutting a range per page (LT_RANGE_BYTES=1),
# so that every record that crosses a page boundary also crosses a range
# boundary; reports, messages and exit codes must be identical.  -j3 also
# reads the formats through a window of 1000 bytes (LT_WINDOW_BYTES), not
# 64 KiB, so that many cross its end and the longest do not fit.
la=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
for p in "$@"; do
	for f in "$p" "$p"/*.dat; do
		[ -f "$f" ] || continue
		case $f in *.dat) ;; *) continue ;; esac
		"$la" -q --partial --stacks --per-thread --format=json "$f" \
			>"$tmp/one" 2>&1
		echo "exit $?" >>"$tmp/one"
		for j in 2 3; do
			win=65536
			[ $j = 3 ] && win=1000
			LT_RANGE_BYTES=1 LT_WINDOW_BYTES=$win "$la" -q \
				--partial --stacks --per-thread \
				--format=json -j$j "$f" >"$tmp/many" 2>&1
			echo "exit $?" >>"$tmp/many"
			if ! cmp -s "$tmp/one" "$tmp/many"; then
				echo "FAIL: $f: -j$j in page ranges differs from -j1:"
				diff "$tmp/one" "$tmp/many" | head -10
				fail=$((fail + 1))
			fi
		done
		n=$((n + 1))
	done
done
echo "ranges-diff: $n traces, $fail differences"
[ "$n" -gt 0 ] && [ "$fail" -eq 0 ]
