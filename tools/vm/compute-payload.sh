#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: compute-payload.sh - the compute engine's files for the test VM, as one cached cpio
#
# Usage: compute-payload.sh
#
# Prints the path of a gzip'd cpio archive holding what libzex's compute
# engine needs at run time, at the host's paths: the OpenCL ICD loader and
# PoCL's ICD file, PoCL with its device libraries and kernel library
# (/usr/share/pocl), the SPIR-V translator (llvm-spirv-15), every shared
# library they need (ldd), and the linker PoCL runs to make each kernel a
# shared object, with what it links against (the C library's and GCC's
# link-time files). mkinitramfs.sh appends it to a VM's initramfs (the
# kernel unpacks concatenated archives in turn). Built once per set of
# installed package versions, in ZEX_CACHE_DIR (~/.cache/zex); the
# packages are tools/check/deps.sh's.
set -euo pipefail

cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
packages=(libpocl2 pocl-opencl-icd ocl-icd-libopencl1 llvm-spirv-15 libllvm15 binutils libc6-dev
	  libgcc-12-dev)
# The key: the packages' versions and this script (a change to either makes a new archive).
key=$( (dpkg-query -W -f='${Package}=${Version}\n' "${packages[@]}"; cat "$0") | sha256sum |
	cut -c1-16)
out=$cache/compute-payload-$key.cpio.gz
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$cache"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# mktemp makes it 0700, and the archive's "." is the VM's /: unprivileged
# tests must get through it.
chmod 755 "$root"

multiarch=x86_64-linux-gnu
gccdir=$(dirname "$(gcc -print-libgcc-file-name)")
icd=/etc/OpenCL/vendors/pocl.icd
[ -f "$icd" ] || { echo "compute-payload: $icd missing (tools/check/deps.sh)" >&2; exit 1; }
# The ICD file names PoCL's library as dlopen() finds it.
pocl=/usr/lib/$multiarch/$(cat "$icd")
elves=(/usr/lib/$multiarch/libOpenCL.so.1 "$pocl" /usr/lib/$multiarch/pocl/*.so
       "$(command -v llvm-spirv-15)" "$(readlink -f /usr/bin/ld)")
files=("$icd" "$gccdir"/crt*.o "$gccdir"/libgcc.a "$gccdir"/libgcc_eh.a "$gccdir"/libgcc_s.so
       /usr/lib/$multiarch/libc.so /usr/lib/$multiarch/libc_nonshared.a
       /usr/lib/$multiarch/libm.so /usr/lib/$multiarch/libmvec.so)
for f in "${elves[@]}" "${files[@]}"; do
	[ -e "$f" ] || { echo "compute-payload: $f missing (tools/check/deps.sh)" >&2; exit 1; }
done
for elf in "${elves[@]}"; do
	for lib in "$elf" $(ldd "$elf" | grep -oE '/[^ ]+'); do
		[ -e "$root$lib" ] || cp -L --parents "$lib" "$root"
	done
done
for f in "${files[@]}"; do
	cp -L --parents "$f" "$root"
done
# The linker's GROUP scripts name these by their /lib paths.
for f in /lib/$multiarch/libc.so.6 /lib/$multiarch/libm.so.6 /lib/$multiarch/libmvec.so.1 \
	 /lib/$multiarch/libgcc_s.so.1 /lib64/ld-linux-x86-64.so.2 /usr/bin/ld; do
	[ -e "$root$f" ] || cp -L --parents "$f" "$root"
done
mkdir -p "$root/usr/share"
cp -a /usr/share/pocl "$root/usr/share/"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
