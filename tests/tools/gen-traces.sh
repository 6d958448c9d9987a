#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# gen-traces.sh MKTRACE SCRIPT_DIR OUT_DIR
#
# Build the synthetic traces the reader tests use: every script in
# SCRIPT_DIR (*.trs) as v6 and v7, little and big endian, 4- and 8-byte
# longs, v7 also zlib-compressed; plus zstd v7 copies made by
# "trace-cmd convert" from the little-endian v6 ones when trace-cmd is
# installed (it writes broken big-endian v7 files, so not from those).
# Each NAME.dat gets a NAME.map (see mktrace.py --map).
set -e
mk=$1
src=$2
out=$3
mkdir -p "$out"
rm -f "$out"/*.dat "$out"/*.map
for s in "$src"/*.trs; do
	base=$(basename "$s" .trs)
	for v in 6 7; do
		for e in little big; do
			for l in 4 8; do
				for c in none zlib; do
					[ $v = 6 ] && [ $c = zlib ] && continue
					n=$base-v$v-$e-$l-$c
					python3 "$mk" "$s" -o "$out/$n.dat" \
						--map "$out/$n.map" \
						--set version=$v --set endian=$e \
						--set long=$l --set compression=$c
				done
			done
		done
	done
	if command -v trace-cmd >/dev/null 2>&1; then
		for l in 4 8; do
			n=$base-v6-little-$l-none
			trace-cmd convert -i "$out/$n.dat" \
				-o "$out/$base-v7-little-$l-zstd.dat" \
				--file-version 7 --compression zstd \
				>/dev/null 2>&1 || \
				echo "gen-traces: trace-cmd convert failed on $n" >&2
		done
	fi
done
