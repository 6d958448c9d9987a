#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl of the kernel the series is for, on each patch of
# kernel/patches/<series>/ (the cover letter is not a patch):
#
#   - the default checks: no error and no warning, as for any submission;
#   - --strict: no check either, except three that every TRACE_EVENT()
#     definition trips (the macro's layout, which checkpatch reads as C)
#     and only in include/trace/events/: OPEN_ENDED_LINE ("TP_PROTO("),
#     PARENTHESIS_ALIGNMENT (its continuation lines) and MACRO_ARG_REUSE
#     (the 6.1 header's open-coded __assign_str()).
#
# usage: run-checkpatch.sh [-s SERIES] WORKDIR
#
# Needs Debian's linux-source-<series> (else exits 77, skipped) and perl.
# The unpacked tree is shared through LT_SOURCES with the other tests.

set -u
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

SERIES=6.1
if [ "${1:-}" = -s ]; then
	SERIES=${2:-}
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: $0 [-s SERIES] WORKDIR"; exit 2; }
lt_series_version "$SERIES"
LT_WORK=$1
mkdir -p "$LT_WORK" && LT_WORK=$(cd "$LT_WORK" && pwd)

lt_need_cmds perl xz tar sha256sum flock
lt_source_tarball "$SERIES"
lt_pristine_tree "$LT_TARBALL"
CHECKPATCH=$LT_PRISTINE/scripts/checkpatch.pl
[ -f "$CHECKPATCH" ] || lt_fail "no scripts/checkpatch.pl in $LT_TARBALL"
lt_log "kernel/patches/$SERIES with $(basename "$LT_TARBALL")'s checkpatch.pl"

ALLOWED='^include/trace/events/[^:]*:[0-9]+: CHECK:(OPEN_ENDED_LINE|PARENTHESIS_ALIGNMENT|MACRO_ARG_REUSE):'
bad=0
n=0
while read -r p; do
	name=$(basename "$p")
	n=$((n + 1))
	# The default checks: a clean exit and its own summary saying so.
	out=$(cd "$LT_WORK" && perl "$CHECKPATCH" --root="$LT_PRISTINE" "$p" 2>&1)
	rc=$?
	out=$(printf '%s\n' "$out" | grep -v '^No codespell typos will be found')
	if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^total: 0 errors, 0 warnings,'; then
		printf '%s\n' "$out" | sed 's/^/    /'
		echo "FAILED  $name: checkpatch.pl (exit $rc)"
		bad=$((bad + 1))
		continue
	fi
	# --strict, one line per finding: FILE:LINE: TYPE:NAME: text
	strict=$(cd "$LT_WORK" && perl "$CHECKPATCH" --root="$LT_PRISTINE" --strict \
		--terse --showfile --show-types --no-summary "$p" 2>&1 |
		grep -E '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):')
	other=$(printf '%s\n' "$strict" | grep -v -E "$ALLOWED" | grep -v '^$')
	idioms=$(printf '%s\n' "$strict" | grep -c -E "$ALLOWED")
	if [ -n "$other" ]; then
		printf '%s\n' "$other" | sed 's/^/    /'
		echo "FAILED  $name: checkpatch.pl --strict"
		bad=$((bad + 1))
		continue
	fi
	echo "ok      $name: 0 errors, 0 warnings; --strict: $idioms TRACE_EVENT() layout checks"
done < <(lt_series_patches "$SERIES")

[ $n -gt 0 ] || lt_fail "kernel/patches/$SERIES/series lists no patches"
[ $bad -eq 0 ] || lt_fail "$bad of $n patches are not checkpatch-clean"
lt_log "all $n patches of kernel/patches/$SERIES are checkpatch-clean"
