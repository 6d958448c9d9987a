#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-threads.sh LATENCY-ANALYZE KALLSYMS FILE...
#
# A perf.data read on two threads (one reads and orders the records, the
# other decodes and replays them: lt_pipe_stream()) gives the report one
# thread gives.  Batches of 5 events (LT_STREAM_EVENTS) make the samples,
# a few hundred to a few thousand events each, go round the pipe's ring
# many times and their stacks outgrow a batch's share of memory; --to
# stops the reader part way (or finds nothing: the same message then),
# and a pipe-mode file is read from a pipe.
set -eu
la=$1
kallsyms=$2
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-threads.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
for f in "$@"; do
	for opts in "" "--to 100ms" "--kallsyms $kallsyms"; do
		# shellcheck disable=SC2086 # opts are words
		"$la" -q -f json -j1 $opts "$f" >"$tmp/one" 2>&1 ||
			echo "exit $?" >>"$tmp/one"
		# shellcheck disable=SC2086
		LT_STREAM_EVENTS=5 "$la" -q -f json -j2 $opts "$f" \
			>"$tmp/two" 2>&1 || echo "exit $?" >>"$tmp/two"
		if ! cmp -s "$tmp/one" "$tmp/two"; then
			echo "check-threads: $f $opts: -j2 differs from -j1" >&2
			diff "$tmp/one" "$tmp/two" | head -5 >&2
			exit 1
		fi
		n=$((n + 1))
	done
	case $f in
	*pipe*)
		"$la" -q -f json -j1 "$f" | sed 's/"path":"[^"]*"//' >"$tmp/one"
		cat "$f" | LT_STREAM_EVENTS=5 "$la" -q -f json -j2 - |
			sed 's/"path":"[^"]*"//' >"$tmp/two"
		cmp "$tmp/one" "$tmp/two"
		n=$((n + 1))
		;;
	esac
done
echo "check-threads: $n reports the same on one thread and two"
