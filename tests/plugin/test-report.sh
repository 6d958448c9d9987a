#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# usage: test-report.sh TRACE_CMD PLUGIN_DIR TRACE.dat
#
# trace-cmd report must print the latencytop events through
# plugin_latencytop ("reason [argument] max=Nus #cookie"), not through
# their print format ("reason='...' cookie=0x...").

trace_cmd=$1 dir=$2 trace=$3
if [ -z "$trace_cmd" ] || [ ! -x "$trace_cmd" ]; then
	echo "SKIPPED: trace-cmd is not installed"
	exit 77
fi
out=$(TRACEEVENT_PLUGIN_DIR=$dir "$trace_cmd" report -i "$trace" 2>&1) || {
	echo "$out" | tail -n 5
	echo "FAILED: trace-cmd report"
	exit 1
}
sets=$(echo "$out" | grep -c 'latency_reason_set:')
good=$(echo "$out" | grep -cE 'latency_reason_set: +[^ ].* #[0-9a-f]+$')
echo "$out" | grep -m 3 -E 'latency_reason_(set|restore):'
echo "$sets latency_reason_set events, $good formatted by the plugin"
if [ "$sets" -eq 0 ] || [ "$sets" != "$good" ]; then
	echo "FAILED"
	exit 1
fi
echo "$out" | grep -q "reason='" && { echo "FAILED: print format used"; exit 1; }
exit 0
