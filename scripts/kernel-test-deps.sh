#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install what the kernel end-to-end tests (ctest -L kernel) need on
# Debian 12: qemu, Debian's 6.1 and 6.12 kernel images, headers and
# sources (the two patch series and the module are tested on both),
# busybox and trace-cmd for the guest, and the kernel build dependencies.
#
# usage: scripts/kernel-test-deps.sh        (as root, or through sudo)

set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
	qemu-system-x86 \
	linux-image-amd64 linux-headers-amd64 linux-source \
	busybox-static trace-cmd kmod e2fsprogs util-linux \
	gcc make libc6-dev bison flex bc perl patch xz-utils zstd \
	libelf-dev libssl-dev python3

# 6.12 next to the 6.1 of linux-image-amd64 and linux-source: on Debian 12
# from bookworm-security (linux-image-6.12-amd64 is its meta-package).  A
# release without them skips the 6.12 tests, saying so.
more=
for p in linux-source-6.12 linux-image-6.12-amd64 linux-headers-6.12-amd64; do
	if apt-cache show "$p" > /dev/null 2>&1; then
		more="$more $p"
	else
		echo "kernel-test-deps: no package $p here; its tests will be skipped" >&2
	fi
done
if [ -n "$more" ]; then
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $more
fi
