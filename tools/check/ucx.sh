#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: ucx.sh - UCX with its Level Zero transports, built once from the vendored archive
#
# Usage: ucx.sh
#
# Prints the install prefix of UCX (bin/ucx_info, bin/ucx_perftest,
# lib/libuc{p,t,s,m}.so.*, the transports' modules in lib/ucx, among them
# libuct_ze.so with ze_copy and ze_ipc, and the perftest's ze memory
# module), building it the first time into $ZEX_CACHE_DIR (default
# ~/.cache/zex) from ucx-927f9662.tar.gz in the vendor folder (its sha256
# checked first) against the Level Zero loader of l0-loader.sh: autogen.sh,
# configure --with-ze and nothing but what runs on one host (shared
# memory, TCP, Level Zero), make. Without the archive: exit 4, or 1 under
# CI=true (tools/check/vendored.sh).
set -euo pipefail

here=$(dirname "$0")
# shellcheck source=tools/check/vendored.sh
. "$here/vendored.sh"
name=ucx-927f9662
sha256=ba4390eef95e4ced8750b99d511d57f0f15f32e9eee59d815aa70210ae2c802a
# What configure is given: a change of it is another build.
options=(--disable-doxygen-doc --disable-logging --disable-debug --disable-assertions
	--disable-params-check --without-java --without-go --without-cuda --without-rocm
	--without-verbs --without-rdmacm --without-knem --without-xpmem --without-cma
	--without-ugni --without-mlx5 --without-gdrcopy --without-fuse3)
stamp=$(printf '%s\n' "${options[@]}" | sha256sum | cut -c1-8)
cache=${ZEX_CACHE_DIR:-$HOME/.cache/zex}/$name-${sha256:0:12}-$stamp

if [ -f "$cache/prefix/.complete" ]; then
	echo "$cache/prefix"
	exit 0
fi
vendored_archive $name $sha256 ucx
loader=$("$here/l0-loader.sh")

echo "ucx: building $name into $cache (once, some minutes)" >&2
rm -rf "$cache"
mkdir -p "$cache/src"
tar -xzf "$archive" -C "$cache/src" --strip-components=1
(
	cd "$cache/src"
	./autogen.sh
	./configure --prefix="$cache/prefix" --with-ze="$loader" "${options[@]}"
	make -j "$(nproc)"
	make install
) >"$cache/build.log" 2>&1 ||
	{ tail -n 30 "$cache/build.log" >&2; echo "ucx: build failed, log: $cache/build.log" >&2; exit 1; }
[ -f "$cache/prefix/lib/ucx/libuct_ze.so" ] ||
	{ echo "ucx: built without the ze transports, log: $cache/build.log" >&2; exit 1; }
touch "$cache/prefix/.complete"
echo "$cache/prefix"
