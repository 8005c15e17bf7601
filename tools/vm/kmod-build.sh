#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kmod-build.sh - zex.ko for one kernel, built in a copy of the sources
#
# Usage: kmod-build.sh KDIR OUT [MAKE ARGS...]
#
# Copies kmod/ and uapi/ to OUT (kbuild writes next to the sources, so the
# tree's own build stays as it is), builds zex.ko against KDIR with W=1
# through ccache when there is one (an unchanged module rebuilds in
# seconds), and prints OUT/kmod/zex.ko. Any warning fails like an error;
# the build's output is in OUT/build.log and is printed on failure.
set -euo pipefail

kdir=$1 out=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-${ZEX_CACHE_DIR:-$HOME/.cache/zex}/ccache}
fi
rm -rf "$out"
mkdir -p "$out"
cp -r "$top/kmod" "$top/uapi" "$out/"
if ! make -s -C "$kdir" M="$out/kmod" CC="$cc" W=1 "$@" modules >"$out/build.log" 2>&1 ||
   grep -q -E 'warning:|error:' "$out/build.log"; then
	cat "$out/build.log" >&2
	exit 1
fi
echo "$out/kmod/zex.ko"
