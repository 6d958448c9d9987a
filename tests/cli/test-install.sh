#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmake --install into a scratch prefix, as a user would: the programs,
# their man pages (which man reads without a warning), the schema doc the
# man page points to, the translation table (the one --print-trans
# prints), the plugin, and bash completion where bash-completion finds
# it.  Then the completion itself, loaded by bash-completion as on a
# user's first Tab: complete -p names its functions, an option, a
# --format value, a --sort key and files by type complete, the record
# program's options, command and probes' words, and the options offered
# are exactly those --help lists.
#
# usage: test-install.sh BUILD_DIR

set -u
BUILD=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
P=$tmp/prefix

if ! cmake --install "$BUILD" --prefix "$P" > "$tmp/install.log" 2>&1; then
	echo "FAIL: cmake --install"; cat "$tmp/install.log"; exit 1
fi
for f in bin/latency-analyze bin/latency-view share/man/man1/latency-analyze.1 \
	 share/man/man1/latency-view.1 share/doc/latencytop-ftrace/report-schema.md \
	 share/latencytop-ftrace/latencytop.trans \
	 share/latencytop-ftrace/clickhouse/schema/local.sql \
	 share/latencytop-ftrace/clickhouse/queries/regressions.sql \
	 share/bash-completion/completions/latency-analyze \
	 share/bash-completion/completions/latency-view \
	 share/bash-completion/completions/latency-record; do
	[ -f "$P/$f" ] || { echo "FAIL: not installed: $f"; fail=1; }
done
[ -x "$P/share/latencytop-ftrace/clickhouse/lt-clickhouse-load" ] ||
	{ echo "FAIL: the ClickHouse loader is not installed as a program"; fail=1; }
ls "$P"/lib*/*/traceevent/plugins/plugin_latencytop.so "$P"/lib/traceevent/plugins/plugin_latencytop.so \
	2>/dev/null | grep -q . || { echo "FAIL: the plugin is not installed"; fail=1; }
# nothing of Debian's latencytop package's: /usr/share/latencytop is its
[ -e "$P/share/latencytop" ] || [ -e "$P/share/doc/latencytop" ] &&
	{ echo "FAIL: installed into latencytop's own directories"; fail=1; }
cmp -s <("$P/bin/latency-analyze" --print-trans) "$P/share/latencytop-ftrace/latencytop.trans" ||
	{ echo "FAIL: --print-trans is not the installed table"; fail=1; }
grep -q '^[0-9]\+	[a-z_0-9]\+	' <("$P/bin/latency-analyze" --print-trans) ||
	{ echo "FAIL: --print-trans prints no table line"; fail=1; }
if command -v man >/dev/null; then
	for m in latency-analyze latency-view; do
		out=$(MANWIDTH=80 man --warnings -l "$P/share/man/man1/$m.1" 2>&1 >/dev/null)
		[ -z "$out" ] || { echo "FAIL: man $m: $out"; fail=1; }
		MANPATH=$P/share/man man -w $m >/dev/null 2>&1 ||
			{ echo "FAIL: man -w $m does not find it under the prefix"; fail=1; }
	done
fi

BC=/usr/share/bash-completion/bash_completion
if [ ! -f "$BC" ]; then
	echo "SKIPPED: completion (bash-completion is not installed)"
	[ $fail = 0 ] && exit 77
	exit 1
fi
# bash-completion finds completions under $XDG_DATA_DIRS, and they ask
# the programs on $PATH what they take: as for a user whose prefix is
# there.  Each LINE is completed as readline would: words split at blanks
# and at '=' (COMP_WORDBREAKS), the cursor at the end.
mkdir -p "$tmp/files/dir" && cd "$tmp/files" && touch a.dat b.json c.txt d.trans dir/e.dat
PATH=$P/bin:$PATH XDG_DATA_DIRS=$P/share:/usr/share BC=$BC bash --norc -c '
source "$BC"
complete_line() {
	local line=$1 w
	COMP_LINE=$line COMP_POINT=${#line}
	COMP_WORDS=()
	for w in $(sed "s/=/ = /g" <<<"$line"); do COMP_WORDS+=("$w"); done
	[[ $line == *[\ =] ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	__load_completion "${COMP_WORDS[0]}" || { echo "no completion loads"; return; }
	local fn=$(complete -p "${COMP_WORDS[0]}" | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
	"$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"
}
for cmd in latency-analyze latency-view latency-record; do
	__load_completion $cmd && complete -p $cmd
done
echo "option: $(complete_line "latency-analyze --form")"
echo "format: $(complete_line "latency-analyze --format=")"
echo "format c: $(complete_line "latency-analyze -f c")"
echo "sort: $(complete_line "latency-view --sort t")"
echo "files: $(complete_line "latency-analyze ")"
echo "view files: $(complete_line "latency-view -k ")"
echo "trans: $(complete_line "latency-analyze --trans ")"
echo "analyze options: $(complete_line "latency-analyze -")"
echo "view options: $(complete_line "latency-view --")"
echo "subcommand: $(complete_line "latency-analyze me")"
echo "diff option: $(complete_line "latency-analyze diff --fa")"
echo "diff format: $(complete_line "latency-analyze diff -f ")"
echo "diff by: $(complete_line "latency-analyze diff --by=global,")"
echo "stacks: $(complete_line "latency-analyze --kernel-stacks=")"
echo "stacks word: $(complete_line "latency-analyze --kernel-stacks ")"
echo "record option: $(complete_line "latency-record --no-")"
echo "record stacks: $(complete_line "latency-record --stacks=a")"
echo "record command: $(complete_line "latency-record -q latency-an")"
echo "record command args: $(complete_line "latency-record -o x.dat latency-analyze --form")"
echo "probes: $(complete_line "latency-record probes ")"
echo "probes option: $(complete_line "latency-record probes install --d")"
' > "$tmp/got" 2>&1

want() {
	grep -qxF -- "$1" "$tmp/got" || { echo "FAIL: completion: want '$1'"; fail=1; }
}
want "complete -F _latency_analyze latency-analyze"
want "complete -F _latency_view latency-view"
want "complete -F _latency_record latency-record"
want "option: --format"
want "format: csv folded html json pprof text waits waits-jsonl"
want "format c: csv"
want "sort: total"
want "files: a.dat b.json diff dir merge"
want "view files: a.dat b.json dir"
want "trans: d.trans dir"
want "subcommand: merge"
want "diff option: --fail-on"
want "diff format: json text"
want "diff by: global,command global,command,process"
want "stacks: all off switch"
want "stacks word: a.dat b.json dir"
want "record option: --no-report --no-schedstats --no-stacks"
want "record stacks: all"
want "record command: latency-analyze"
want "record command args: --format"
want "probes: install list remove"
want "probes option: --dry-run"
# every long option --help lists, and no other
for cmd in latency-analyze latency-view; do
	# the options' own lines: "  -f, --format=FMT ..." or "      --stacks ..."
	opts=$("$P/bin/$cmd" --help | sed -nE 's/^ +(-[a-zA-Z], )?(--[a-z][a-z-]+).*/\2/p' |
		sort -u | tr '\n' ' ' | sed 's/ $//')
	case $cmd in latency-analyze) key="analyze options" ;; *) key="view options" ;; esac
	got=$(sed -n "s/^$key: //p" "$tmp/got" | tr ' ' '\n' | grep -- '^--' | sort -u | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$opts" ] || {
		echo "FAIL: $cmd: completion offers other options than --help lists"
		diff <(tr ' ' '\n' <<<"$opts") <(tr ' ' '\n' <<<"$got") | head -8
		fail=1
	}
done
[ $fail = 0 ] || { echo "completions were:"; cat "$tmp/got"; }
[ $fail = 0 ] && echo "test-install: all checks passed"
exit $fail
