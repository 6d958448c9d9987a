#!/bin/bash
# check-names.sh -- check that every function named in the translation table
# and the skip list exists in real kernels.
#
# usage: check-names.sh [options] [KERNEL...]
#   KERNEL        LABEL=SRC[,SRC...]  or just SRC (label = SRC's file name)
#                 SRC is one of
#                   - a kallsyms file (/proc/kallsyms, read as root)
#                   - a System.map
#                   - a directory: every *.ko / *.ko.{xz,zst,gz} below it is
#                     read with nm (module symbols, e.g. /lib/modules/VER)
#                   - a trace.dat: the kallsyms stored in it (trace-cmd dump)
#                 default: "$(uname -r)=/proc/kallsyms"
#   -t FILE       translation table (default: plugins/latencytop.trans)
#   -s FILE       skip list (default: plugins/latencytop.skip)
#   -m FILE       also write a Markdown report (per-kernel counts, missing
#                 names, and a name x kernel matrix)
#   -q            print only the summary and the problems
#   -r            report only: names missing from every given kernel are
#                 listed but do not fail (format errors still do); for a
#                 check against one kernel, where the other version's names
#                 are expected to be missing
#
# A name counts as present when the kernel has that symbol, or a compiler
# clone of it (name.constprop.N, name.isra.N, name.part.N, ...), because that
# is what the stack shows and the analyzer strips the suffix.
#
# Exit status: 0 when every name exists in at least one of the kernels (or
# -r), the files parse, and no name is in both files; 1 otherwise; 2 on usage
# errors (unreadable symbol source).

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
trans=$top/plugins/latencytop.trans
skip=$top/plugins/latencytop.skip
md=
quiet=0
report_only=0

while getopts "t:s:m:qrh" opt; do
	case $opt in
	t) trans=$OPTARG ;;
	s) skip=$OPTARG ;;
	m) md=$OPTARG ;;
	q) quiet=1 ;;
	r) report_only=1 ;;
	h) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && set -- "$(uname -r)=/proc/kallsyms"

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# --- symbol sources -> one sorted name list per kernel ----------------------
syms_of() {	# SRC -> symbol names on stdout
	local src=$1
	if [ -d "$src" ]; then
		{
			find "$src" -name '*.ko' -type f -print0 | xargs -0 -r nm 2>/dev/null
			find "$src" \( -name '*.ko.xz' -o -name '*.ko.zst' -o -name '*.ko.gz' \) \
				-type f | while read -r ko; do
				case $ko in
				*.xz)  xz -dc "$ko" ;;
				*.zst) zstd -qdc "$ko" ;;
				*.gz)  gzip -dc "$ko" ;;
				esac >"$tmp/ko" 2>/dev/null && nm "$tmp/ko" 2>/dev/null
			done
		} | awk 'NF >= 3 { print $3 }'
	elif [ -f "$src" ] && [ "$(dd if="$src" bs=1 skip=3 count=7 2>/dev/null)" = tracing ]; then
		trace-cmd dump --kallsyms "$src" 2>/dev/null | awk 'NF >= 3 && $1 ~ /^[0-9a-f]+$/ { print $3 }'
	elif [ -r "$src" ]; then
		# kallsyms read without privileges has all-zero addresses but real
		# names, which is enough here; still warn, it usually means a mistake
		if awk 'NR <= 1000 && $1 !~ /^0+$/ { found = 1; exit } END { exit !found }' "$src"; then :; else
			echo "warning: $src: all addresses are zero (not read as root?)" >&2
		fi
		awk 'NF >= 3 { print $3 }' "$src"
	else
		echo "error: cannot read $src" >&2
		return 1
	fi
}

labels=()
i=0
for arg in "$@"; do
	case $arg in
	*=*) label=${arg%%=*}; srcs=${arg#*=} ;;
	*)   label=$(basename "$arg"); srcs=$arg ;;
	esac
	: >"$tmp/k$i.raw"
	IFS=, read -r -a list <<<"$srcs"
	for src in "${list[@]}"; do
		syms_of "$src" >>"$tmp/k$i.raw" || exit 2
	done
	# keep the base name (before the first '.') as well as the full name
	awk '{ print; n = index($0, "."); if (n > 1) print substr($0, 1, n - 1) }' \
		"$tmp/k$i.raw" | sort -u >"$tmp/k$i.names"
	if [ ! -s "$tmp/k$i.names" ]; then
		echo "error: $label: no symbols found in $srcs" >&2
		exit 2
	fi
	labels+=("$label")
	i=$((i + 1))
done
nk=$i

# --- parse the two files -----------------------------------------------------
# names.tsv: name <TAB> file:line <TAB> kind(trans|skip) <TAB> priority <TAB> text
bad=0
awk -v F="$trans" -F '\t' '
	/^#/ || /^[ \t]*$/ { next }
	{
		# LatencyTOP tolerates several tabs between function and text
		n = split($0, f, /\t+/)
		gsub(/^ +| +$/, "", f[2])	# LatencyTOP 0.5 has "ext3_unlink <TAB>"
		if (n < 3 || f[1] !~ /^[0-9]+$/ || f[2] == "" || f[2] ~ /[ .]/ || f[3] == "") {
			printf "%s:%d: malformed line: %s\n", F, NR, $0 > "/dev/stderr"; bad = 1; next
		}
		text = f[3]; for (k = 4; k <= n; k++) text = text " " f[k]
		printf "%s\t%s:%d\ttrans\t%s\t%s\n", f[2], F, NR, f[1], text
	}
	END { exit bad }' "$trans" >"$tmp/names.tsv" || bad=1
awk -v F="$skip" '
	/^#/ || /^[ \t]*$/ { next }
	NF != 1 || $1 ~ /\./ { printf "%s:%d: malformed line: %s\n", F, NR, $0 > "/dev/stderr"; bad = 1; next }
	{ printf "%s\t%s:%d\tskip\t-\t-\n", $1, F, NR }
	END { exit bad }' "$skip" >>"$tmp/names.tsv" || bad=1

# duplicates inside a file (warning) and names in both files (error)
awk -F '\t' '
	{ key = $3 SUBSEP $1; if (key in seen) printf "warning: %s listed twice in %s (%s, %s)\n", $1, $3, seen[key], $2 > "/dev/stderr"; seen[key] = $2
	  if ($3 == "trans") t[$1] = $2; else s[$1] = $2 }
	END { for (n in t) if (n in s) { printf "error: %s is in the table (%s) and in the skip list (%s)\n", n, t[n], s[n] > "/dev/stderr"; bad = 1 }
	      exit bad }' "$tmp/names.tsv" || bad=1

cut -f1 "$tmp/names.tsv" | sort -u >"$tmp/all"
total=$(wc -l <"$tmp/all")

# --- presence matrix -----------------------------------------------------------
# matrix.tsv: name <TAB> Y|- per kernel
cp "$tmp/all" "$tmp/matrix"
for ((i = 0; i < nk; i++)); do
	awk 'NR == FNR { have[$1] = 1; next } { print $0 "\t" (($1 in have) ? "Y" : "-") }' \
		"$tmp/k$i.names" "$tmp/matrix" >"$tmp/matrix.new"
	mv "$tmp/matrix.new" "$tmp/matrix"
done

status=0
for ((i = 0; i < nk; i++)); do
	col=$((i + 2))
	have=$(awk -F '\t' -v c=$col '$c == "Y"' "$tmp/matrix" | wc -l)
	printf '%s: %d of %d names present\n' "${labels[$i]}" "$have" "$total"
	if [ "$quiet" = 0 ]; then
		awk -F '\t' -v c=$col '$c == "-" { print $1 }' "$tmp/matrix" |
			awk 'NR == FNR { where[$1] = where[$1] ? where[$1] "," $3 : $3; next } { print "  missing: " $1 " (" where[$1] ")" }' \
			"$tmp/names.tsv" - | sed 's/(trans)/(table)/'
	fi
done
nowhere=$(awk -F '\t' '{ for (c = 2; c <= NF; c++) if ($c == "Y") next; print $1 }' "$tmp/matrix")
if [ -n "$nowhere" ]; then
	[ "$report_only" = 1 ] && echo "names found in none of the kernels:" ||
		echo "error: names found in none of the kernels:"
	for n in $nowhere; do
		grep -P "^\Q$n\E\t" "$tmp/names.tsv" | cut -f2 | sed "s/^/  $n  /"
	done
	[ "$report_only" = 1 ] || status=1
fi
[ "$bad" = 0 ] || status=1

# --- Markdown report ---------------------------------------------------------
if [ -n "$md" ]; then
	{
		echo "# Function names in plugins/latencytop.trans and plugins/latencytop.skip, per kernel"
		echo
		echo "Generated by \`tests/trans/check-names.sh -m\`. A name counts as present when the"
		echo "kernel has the symbol or a compiler clone of it (\`name.constprop.0\` etc.)."
		echo
		echo "| kernel | sources | names present |"
		echo "|---|---|---|"
		i=0
		for arg in "$@"; do
			srcs=${arg#*=}
			have=$(awk -F '\t' -v c=$((i + 2)) '$c == "Y"' "$tmp/matrix" | wc -l)
			echo "| ${labels[$i]} | \`$srcs\` | $have of $total |"
			i=$((i + 1))
		done
		echo
		echo "Names missing from a kernel (inlined, renamed, or module-only code):"
		echo
		for ((i = 0; i < nk; i++)); do
			miss=$(awk -F '\t' -v c=$((i + 2)) '$c == "-" { printf "%s`%s`", sep, $1; sep = ", " }' "$tmp/matrix")
			echo "- **${labels[$i]}**: ${miss:-none}"
		done
		echo
		printf '| name | file | prio |'
		for l in "${labels[@]}"; do printf ' %s |' "$l"; done
		echo
		printf '|---|---|---|'
		for l in "${labels[@]}"; do printf -- '---|'; done
		echo
		awk -F '\t' 'NR == FNR { if (!($1 in k)) { k[$1] = $3; p[$1] = $4 } next }
			{ printf "| `%s` | %s | %s |", $1, (k[$1] == "trans" ? "trans" : "skip"), p[$1]
			  for (c = 2; c <= NF; c++) printf " %s |", ($c == "Y" ? "yes" : "**no**"); print "" }' \
			"$tmp/names.tsv" "$tmp/matrix"
	} >"$md"
fi
exit $status
