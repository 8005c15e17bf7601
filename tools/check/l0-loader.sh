#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: l0-loader.sh - the Level Zero loader 1.32.0, built once from the vendored archive
#
# Usage: l0-loader.sh
#
# Prints the install prefix of loader 1.32.0 (lib/libze_loader.so.1, its
# validation layer, the null driver libze_null.so.1, include/level_zero;
# the sources beside it in ../src, for the tests that read the loader),
# building it the first time into $ZEX_CACHE_DIR (default ~/.cache/zex),
# offline, from level-zero-1.32.0.tar.gz in the vendor folder, its sha256
# checked first. Without the archive: exit 4, or 1 under CI=true
# (tools/check/vendored.sh).
set -euo pipefail

# shellcheck source=tools/check/vendored.sh
. "$(dirname "$0")/vendored.sh"
name=level-zero-1.32.0
sha256=633f0ad351511df57093aa70d448ffda075d230ffa0547979f2e330f1d9b15d9
cache=${ZEX_CACHE_DIR:-$HOME/.cache/zex}/$name-${sha256:0:12}

if [ -f "$cache/prefix/.complete" ]; then
	echo "$cache/prefix"
	exit 0
fi
vendored_archive $name $sha256 l0-loader

echo "l0-loader: building $name into $cache (once)" >&2
rm -rf "$cache"
mkdir -p "$cache/src" "$cache/build"
tar -xzf "$archive" -C "$cache/src" --strip-components=1
cmake -S "$cache/src" -B "$cache/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
	-DBUILD_L0_LOADER_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$cache/prefix" \
	-DCMAKE_INSTALL_LIBDIR=lib >"$cache/build.log" 2>&1 &&
	cmake --build "$cache/build" -j "$(nproc)" >>"$cache/build.log" 2>&1 &&
	cmake --install "$cache/build" >>"$cache/build.log" 2>&1 ||
	{ tail -n 30 "$cache/build.log" >&2; echo "l0-loader: build failed, log: $cache/build.log" >&2; exit 1; }
# The loader opens the null driver from its own folder; it is not installed.
cp -a "$cache/build/lib"/libze_null.so* "$cache/prefix/lib/"
touch "$cache/prefix/.complete"
echo "$cache/prefix"
