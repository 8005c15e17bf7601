#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: linux-source.sh - an extracted linux-source-<line> tree, made once
#
# Usage: linux-source.sh [LINE]   (6.1, the default, or 6.12)
#
# Prints the path of Debian's linux-source-LINE extracted into the cache
# (outside the checkout), extracting it on first use. kselftest_harness.h,
# checkpatch.pl, kunit.py and the debug kernels come from these trees.
set -euo pipefail
line=${1:-6.1}
cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
tarball=/usr/src/linux-source-$line.tar.xz
[ -f "$tarball" ] || { echo "linux-source: $tarball missing (apt-get install linux-source-$line)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$line")
src=$cache/linux-source-$line-$srcver
if [ ! -f "$src/.zex-extracted" ]; then
	echo "linux-source: extracting $tarball" >&2
	mkdir -p "$cache"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.zex-extracted"
	mv "$src.tmp" "$src"
fi
echo "$src"
