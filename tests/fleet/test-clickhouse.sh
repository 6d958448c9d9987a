#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-clickhouse.sh - the waits export in a ClickHouse cluster of two
# shards, against latency-analyze merge (issue 50).
#
# usage: test-clickhouse.sh LATENCY_ANALYZE SOURCE_DIR PYTHON
#
# Two clickhouse-server processes on 127.0.0.1, each with its own
# configuration, ports and data directory in a temporary directory,
# started here and stopped on every way out (no system service is
# used or touched); a cluster "latencytop" of the two as shards.
# fleet/clickhouse's schema is applied to both, seven traces of six
# hosts over two days are loaded with fleet/clickhouse/lt-clickhouse-load
# (through the Distributed table, one host into the second shard's own
# table with --local), then check-clickhouse.py compares the tables and
# the shipped queries with latency-analyze merge.
#
# Exit 77 (skipped, saying so) without clickhouse-server or
# clickhouse-client (apt-get install clickhouse-server clickhouse-client).

LA=$1
SRC=$2
PY=${3:-python3}
FLEET=$SRC/fleet/clickhouse

PATH=$PATH:/usr/sbin:/sbin
for c in clickhouse-server clickhouse-client; do
	if ! command -v $c > /dev/null 2>&1; then
		echo "SKIPPED: no $c (apt-get install clickhouse-server clickhouse-client)"
		exit 77
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lt-clickhouse.XXXXXX") || exit 1
servers=

# Stop what was started, however this ends: TERM, then KILL after 20 s.
cleanup() {
	for pid in $servers; do
		kill "$pid" 2> /dev/null
	done
	for pid in $servers; do
		n=0
		while kill -0 "$pid" 2> /dev/null && [ $n -lt 200 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		if kill -0 "$pid" 2> /dev/null; then
			echo "clickhouse-server $pid: still there after 20 s: KILL"
			kill -9 "$pid" 2> /dev/null
		fi
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "FAIL $*"
	exit 1
}

# two free TCP ports on loopback, one per server
ports=$("$PY" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))') || fail "no free ports"
set -- $ports
port1=$1
port2=$2

# server N PORT: its configuration and users, its directories
server() {
	d=$tmp/server$1
	mkdir -p "$d/data" "$d/tmp" "$d/user_files" "$d/format_schemas"
	cat > "$d/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <logger>
        <level>warning</level>
        <log>$d/server.log</log>
        <errorlog>$d/server.err.log</errorlog>
        <console>0</console>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <tcp_port>$2</tcp_port>
    <path>$d/data/</path>
    <tmp_path>$d/tmp/</tmp_path>
    <user_files_path>$d/user_files/</user_files_path>
    <format_schema_path>$d/format_schemas/</format_schema_path>
    <users_config>$d/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <mark_cache_size>67108864</mark_cache_size>
    <shutdown_wait_unfinished>0</shutdown_wait_unfinished>
    <remote_servers>
        <latencytop>
            <shard><replica><host>127.0.0.1</host><port>$port1</port></replica></shard>
            <shard><replica><host>127.0.0.1</host><port>$port2</port></replica></shard>
        </latencytop>
    </remote_servers>
</yandex>
EOF
	cat > "$d/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles><default></default></profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas><default></default></quotas>
</yandex>
EOF
	clickhouse-server --config-file="$d/config.xml" > "$d/stdout" 2>&1 &
	servers="$servers $!"
}

ch() {
	port=$1
	shift
	clickhouse-client --host 127.0.0.1 --port "$port" "$@"
}

server 1 "$port1"
server 2 "$port2"
for n in 1 2; do
	eval port=\$port$n
	t=0
	until ch "$port" --query 'SELECT 1' > /dev/null 2>&1; do
		t=$((t + 1))
		[ $t -lt 600 ] || {
			cat "$tmp/server$n/server.err.log" "$tmp/server$n/stdout"
			fail "server $n (port $port) not up after 60 s"
		}
		sleep 0.1
	done
	echo "server $n: 127.0.0.1:$port, $(ch "$port" --query 'SELECT version()')" \
		"in $tmp/server$n"
done

for port in $port1 $port2; do
	ch "$port" --multiquery < "$FLEET/schema/local.sql" &&
		ch "$port" --multiquery < "$FLEET/schema/distributed.sql" ||
		fail "the schema on port $port"
done

# host, day, how, trace, latency-analyze options: eight traces of seven
# hosts (charlie on both days), six kernel releases, two perf.data (one
# with cgroups)
loaded=$tmp/loaded
: > "$loaded"
load() {
	host=$1 day=$2 how=$3 trace=$SRC/$4 opts=${5-}
	case $how in
	dist) port=$port1 mode= ;;
	local2) port=$port2 mode=--local ;;
	esac
	LATENCY_ANALYZE=$LA "$FLEET/lt-clickhouse-load" --host="$host" \
		--day="$day" $mode ${opts:+--analyze="$opts"} "$trace" \
		-- --host 127.0.0.1 --port "$port" || fail "loading $trace as $host"
	printf '%s\t%s\t%s\t%s\n' "$host" "$day" "$trace" "$opts" >> "$loaded"
}
load alpha 2024-05-01 dist samples/kernel-module-6.1.dat
load bravo 2024-05-01 dist samples/kernel-patched-6.1.dat
load charlie 2024-05-01 dist samples/local-stacks-fsync.dat
load charlie 2024-05-02 dist samples/local-stacks-compile.dat
load delta 2024-05-02 dist samples/local-stacks-pipeline.dat
load echo 2024-05-02 local2 samples/local-overwritten.dat
load foxtrot 2024-05-02 dist tests/data/perf/sched-a-g.data \
	--kallsyms=$SRC/tests/data/perf/kallsyms
load golf 2024-05-02 local2 tests/data/perf/sched-cgroups-a-g.data \
	--kallsyms=$SRC/tests/data/perf/kallsyms-cgroups

# a trace loaded again is refused (exit 1), and leaves the table as it was
n=$(ch "$port1" --query 'SELECT count() FROM latencytop.waits')
LATENCY_ANALYZE=$LA "$FLEET/lt-clickhouse-load" --host=alpha --day=2024-05-01 \
	"$SRC/samples/kernel-module-6.1.dat" -- --host 127.0.0.1 --port "$port1" \
	2> "$tmp/again"
st=$?
[ $st = 1 ] && grep -q 'already' "$tmp/again" ||
	fail "loading a trace twice: exit $st: $(cat "$tmp/again")"
[ "$(ch "$port1" --query 'SELECT count() FROM latencytop.waits')" = "$n" ] ||
	fail "loading a trace twice changed the table"
echo "ok   a trace loaded again is refused: $(cat "$tmp/again")"

mkdir "$tmp/work"
"$PY" "$SRC/tests/fleet/check-clickhouse.py" "$LA" "$FLEET/queries" \
	"$tmp/work" "$loaded" "$port1" "$port2"
