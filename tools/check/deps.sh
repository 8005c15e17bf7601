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
	linux-headers-amd64 linux-image-amd64 linux-source-6.1 linux-source-6.12
	qemu-system-x86 busybox-static
	libdrm-dev libze-dev libze1
	dkms sparse ccache spin cmake ninja-build clang libclang-rt-14-dev
	# level-zero-tests (tools/check/l0-tests.sh): Boost 1.81, not the
	# default 1.74, which is older than the suite asks for
	libboost-log1.81-dev libboost-program-options1.81-dev libboost-timer1.81-dev
	libboost-chrono1.81-dev libboost-system1.81-dev libboost-serialization1.81-dev
	googletest libpng-dev
	# the compute engine (libzex/src/compute): PoCL through the OpenCL ICD
	# loader, the SPIR-V translator, clang-15 for libzex's device library
	# (libzex/hostrpc/opencl) and the tests' kernels, the
	# loader's link library for the benchmark's floor (PoCL called directly)
	libpocl2 pocl-opencl-icd ocl-icd-libopencl1 opencl-c-headers llvm-spirv-15 clang-15
	ocl-icd-opencl-dev
	# UCX from its git tree (tools/check/ucx.sh): autogen.sh
	autoconf automake libtool
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
# Debian 12's second kernel line, 6.12: its image and headers carry the
# version in their names (linux-image-6.12.N+deb12-amd64); any installed
# release will do, else the newest the repositories offer.
have_612=0
ls /boot/vmlinuz-6.12.*+deb12-amd64 /lib/modules/6.12.*+deb12-amd64/build/Makefile \
	>/dev/null 2>&1 && have_612=1
[ ${#missing[@]} -gt 0 ] || [ $have_612 = 0 ] || exit 0

if [ "$(id -u)" != 0 ]; then
	[ $have_612 = 1 ] || missing+=("linux-image-6.12.*+deb12-amd64 and its headers")
	echo "deps: missing packages (run as root to install): ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if [ $have_612 = 0 ]; then
	image=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' |
		awk '{ print $1 }' | sort -V | tail -n1)
	[ -n "$image" ] || { echo "deps: no linux-image-6.12.*+deb12-amd64 in the repositories" >&2; exit 1; }
	missing+=("$image" "${image/image/headers}")
fi
echo "deps: installing ${missing[*]}" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
