#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install what the kernel end-to-end tests (ctest -L kernel) need on
# Debian 12: qemu, Debian's kernel image, headers and source, busybox and
# trace-cmd for the guest, and the kernel build dependencies.
#
# usage: scripts/kernel-test-deps.sh        (as root, or through sudo)

set -e
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
	qemu-system-x86 \
	linux-image-amd64 linux-headers-amd64 linux-source \
	busybox-static trace-cmd kmod e2fsprogs \
	gcc make libc6-dev bison flex bc perl patch xz-utils zstd \
	libelf-dev libssl-dev python3
