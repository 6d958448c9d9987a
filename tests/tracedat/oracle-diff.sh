#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# oracle-diff.sh LT_DUMP TC_DUMP WORK_DIR PATH...
#
# The differential test: every trace.dat under the PATHs (files or
# directories, globbed now, so samples added later are included) is read
# by our reader (lt-dump) and by libtracecmd (tc-dump); both must give
# the same records in the same order.  When libtracecmd itself cannot
# read a file (it crashes, hangs or refuses), that is reported, with what
# our reader made of the file, and is not a failure.
lt=$1
tc=$2
work=$3
shift 3
mkdir -p "$work"
pass=0 fail=0 skip=0
for p in "$@"; do
	if [ -d "$p" ]; then
		set -- "$p"/*.dat
	else
		set -- "$p"
	fi
	for f in "$@"; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .dat)
		# libtracecmd leaks on compressed files: not what we test here
		ASAN_OPTIONS=detect_leaks=0 timeout 300 "$tc" "$f" \
			>"$work/$n.tc" 2>"$work/$n.tc.err"
		trc=$?
		timeout 300 "$lt" "$f" >"$work/$n.lt" 2>"$work/$n.lt.err"
		lrc=$?
		if [ $trc -ne 0 ]; then
			case $trc in
			124) why="hung (killed after 300 s)" ;;
			1[2-9][0-9]) why="crashed (signal $((trc - 128)))" ;;
			*) why="refused it (exit $trc)" ;;
			esac
			# mktrace's zlib files have a plain twin libtracecmd reads
			twin=$(dirname "$f")/${n%-zlib}-none.dat
			if [ "$n" != "${n%-zlib}" ] && [ -f "$twin" ]; then
				timeout 300 "$lt" "$twin" >"$work/$n.twin" 2>&1
				if [ $lrc -eq 0 ] && cmp -s "$work/$n.lt" "$work/$n.twin"; then
					echo "PASS $f: libtracecmd $why; same records as $(basename "$twin")"
					pass=$((pass + 1))
				else
					echo "FAIL $f: records differ from $(basename "$twin")"
					fail=$((fail + 1))
				fi
				continue
			fi
			echo "ORACLE-SKIP $f: libtracecmd $why; our reader: exit $lrc, $(wc -l <"$work/$n.lt") records $(head -c 200 "$work/$n.lt.err")"
			skip=$((skip + 1))
			continue
		fi
		if [ $lrc -ne 0 ]; then
			echo "FAIL $f: our reader failed (exit $lrc): $(cat "$work/$n.lt.err")"
			fail=$((fail + 1))
		elif ! cmp -s "$work/$n.lt" "$work/$n.tc"; then
			echo "FAIL $f: records differ from libtracecmd's:"
			diff "$work/$n.tc" "$work/$n.lt" | head -10
			fail=$((fail + 1))
		else
			echo "PASS $f: $(wc -l <"$work/$n.lt") records identical"
			pass=$((pass + 1))
		fi
	done
done
echo "oracle: $pass identical, $fail different, $skip not readable by libtracecmd"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
