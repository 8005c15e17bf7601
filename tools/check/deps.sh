#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: deps.sh - install what building and testing zex needs (Debian 12)
#
# Idempotent and quiet when nothing is missing: asks dpkg first and runs
# apt-get only for the packages that are not installed. Needs root for the
# install itself.
set -euo pipefail

packages=(
	build-essential pkg-config python3 cpio gzip kmod xz-utils bc flex bison
	libelf-dev libssl-dev dwarves rsync
	linux-headers-amd64 linux-image-amd64 linux-source-6.1
	qemu-system-x86 busybox-static
	libdrm-dev libze-dev libze1
	dkms sparse ccache spin cmake ninja-build clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
