#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: linux-source.sh - the extracted linux-source-6.1 tree, made once
#
# Prints the path of linux-source-6.1 extracted into the cache (outside the
# checkout), extracting it on first use. kselftest_harness.h, checkpatch.pl,
# kunit.py and the debug kernel all come from it.
set -euo pipefail
cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "linux-source: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=$cache/linux-source-6.1-$srcver
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
