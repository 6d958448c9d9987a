#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package as a user gets it.  From a copy of the sources (the
# .debs land beside it, never beside the checkout): dpkg-buildpackage -b,
# then lintian with no error, and the files the package holds: the
# programs, man pages, completion, schema doc, translation table and the
# plugin in libtraceevent's directory, nothing in Debian's latencytop
# package's paths.  Then, as root in CI (CI=true) or with
# LT_TEST_INSTALL=1: install it, run the installed latency-analyze on a
# sample (the same report as the build tree's), latency-view --dump,
# trace-cmd report through the installed plugin, man and completion as
# found by their tools; purge it and find nothing of it left.
#
# usage: test-deb.sh SOURCE_DIR LATENCY_ANALYZE

set -u
SRC=$1
LA=$2
PKG=latencytop-ftrace
tmp=$(mktemp -d)
installed=
cleanup() {
	[ -n "$installed" ] && dpkg --purge $PKG >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

for tool in dpkg-buildpackage dh lintian; do
	command -v $tool >/dev/null || { echo "SKIPPED: $tool is not installed (scripts/install-deps)"; exit 77; }
done

# the sources, without build trees (.debs go to the parent directory)
mkdir "$tmp/src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$SRC" ls-files -z --cached --others --exclude-standard |
		(cd "$SRC" && tar --null -T - -cf -) | tar -xf - -C "$tmp/src"
else
	tar -C "$SRC" --exclude='./build*' --exclude=./debian/.debhelper -cf - . |
		tar -xf - -C "$tmp/src"
fi
jobs=$(nproc 2>/dev/null || echo 2)
start=$(date +%s)
# the suite has tested this code already: no second run of it here
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
	dpkg-buildpackage -b -us -uc > "$tmp/build.log" 2>&1); then
	tail -30 "$tmp/build.log"
	echo "FAIL: dpkg-buildpackage -b -us -uc"
	exit 1
fi
deb=$(ls "$tmp"/${PKG}_*.deb)
echo "built $(basename "$deb") in $(($(date +%s) - start)) s"

# lintian: no error (warnings are listed, not fatal)
lintian --fail-on error --no-tag-display-limit "$tmp"/${PKG}_*.changes > "$tmp/lintian" 2>&1 ||
	{ echo "FAIL: lintian reports errors:"; grep '^E:' "$tmp/lintian"; fail=1; }
grep -E '^[EW]:' "$tmp/lintian"

dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$tmp/files"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir=$(pkg-config --variable=plugindir libtraceevent 2>/dev/null)
[ -n "$plugindir" ] || plugindir=/usr/lib/$multiarch/traceevent/plugins
for f in /usr/bin/latency-analyze /usr/bin/latency-view \
	 /usr/share/man/man1/latency-analyze.1.gz /usr/share/man/man1/latency-view.1.gz \
	 /usr/share/bash-completion/completions/latency-analyze \
	 /usr/share/bash-completion/completions/latency-view \
	 /usr/share/doc/$PKG/report-schema.md /usr/share/doc/$PKG/copyright \
	 /usr/share/$PKG/latencytop.trans "$plugindir/plugin_latencytop.so"; do
	grep -qxF "$f" "$tmp/files" || { echo "FAIL: the package lacks $f"; fail=1; }
done
# Debian's latencytop owns /usr/share/latencytop/latencytop.trans and its doc
grep -E '^/usr/(share|share/doc)/latencytop(/|$)|/latencytop$' "$tmp/files" &&
	{ echo "FAIL: the package would clash with Debian's latencytop"; fail=1; }

if [ "$(id -u)" != 0 ] || { [ "${CI-}" != true ] && [ "${LT_TEST_INSTALL-}" != 1 ]; }; then
	echo "install, run and purge: SKIPPED (as root with CI=true or LT_TEST_INSTALL=1)"
	[ $fail = 0 ] && echo "test-deb: all checks passed"
	exit $fail
fi
if dpkg -s $PKG >/dev/null 2>&1; then
	echo "FAIL: $PKG is installed already: not replacing it"
	exit 1
fi

# apt resolves the libraries it depends on; dpkg alone where apt cannot
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" \
	> "$tmp/install.log" 2>&1 || dpkg -i "$deb" >> "$tmp/install.log" 2>&1 ||
	{ tail -20 "$tmp/install.log"; echo "FAIL: the package does not install"; exit 1; }
dpkg -s $PKG | grep -q '^Status: install ok installed' ||
	{ echo "FAIL: dpkg does not have it installed"; fail=1; }

# the installed program: the build tree's report, byte for byte
sample=$SRC/samples/local-golden-stacks.dat
if cmp -s <(/usr/bin/latency-analyze -q "$sample") <("$LA" -q "$sample"); then
	echo "installed latency-analyze: $(/usr/bin/latency-analyze -q "$sample" |
		grep -m1 '^Global latencies')"
else
	echo "FAIL: the installed latency-analyze writes another report"
	fail=1
fi
cmp -s <(/usr/bin/latency-analyze --print-trans) /usr/share/$PKG/latencytop.trans ||
	{ echo "FAIL: installed --print-trans is not the installed table"; fail=1; }
COLUMNS=80 LINES=24 TERM=vt100 /usr/bin/latency-view --dump -q "$sample" > "$tmp/screen" &&
	grep -q '^ LatencyTOP' "$tmp/screen" ||
	{ echo "FAIL: the installed latency-view draws no screen"; fail=1; }
# trace-cmd finds the plugin where libtraceevent looks, unaided
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i "$SRC/samples/kernel-module-6.1.dat" 2>/dev/null |
		grep -qE 'latency_reason_set: +[^ ].* #[0-9a-f]+$' ||
		{ echo "FAIL: trace-cmd report does not use the installed plugin"; fail=1; }
fi
[ "$(man -w latency-analyze 2>/dev/null)" = /usr/share/man/man1/latency-analyze.1.gz ] ||
	{ echo "FAIL: man does not find latency-analyze(1)"; fail=1; }
if [ -f /usr/share/bash-completion/bash_completion ]; then
	got=$(bash --norc -c 'source /usr/share/bash-completion/bash_completion
		__load_completion latency-view && complete -p latency-view')
	[ "$got" = "complete -F _latency_view latency-view" ] ||
		{ echo "FAIL: bash-completion does not load latency-view's: $got"; fail=1; }
fi

# purge: nothing of it left (directories other packages share may stay)
DEBIAN_FRONTEND=noninteractive apt-get purge -y $PKG > "$tmp/purge.log" 2>&1 ||
	dpkg --purge $PKG >> "$tmp/purge.log" 2>&1 ||
	{ tail -20 "$tmp/purge.log"; echo "FAIL: the package does not purge"; fail=1; }
installed=
dpkg -s $PKG >/dev/null 2>&1 && { echo "FAIL: still known to dpkg after purge"; fail=1; }
left=0
while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && { echo "FAIL: left after purge: $f"; left=1; }
done < "$tmp/files"
[ -d /usr/share/$PKG ] || [ -d /usr/share/doc/$PKG ] &&
	{ echo "FAIL: its directories are left after purge"; left=1; }
[ $left = 0 ] && echo "purged: none of its $(grep -vc '/$' "$tmp/files") files left"
[ $left = 0 ] || fail=1

[ $fail = 0 ] && echo "test-deb: all checks passed"
exit $fail
