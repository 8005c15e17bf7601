#!/bin/bash
# SPDX-License-Identifier: MIT
# DOC: exported_symbols.sh - libzex.so exports exactly libzex.symbols
#
# Usage: exported_symbols.sh LIBZEX_SO
#
# The list is the public ABI: a name that appears or disappears fails here
# until the list (and the soname, when a name is removed) says so on
# purpose. Every name is also in the version node LIBZEX_0.
set -euo pipefail

so=$1
list=$(dirname "$0")/../libzex.symbols
got=$(nm -D --defined-only "$so" | awk '$2 != "A" { print $3 }')
unversioned=$(grep -v '@@LIBZEX_0$' <<<"$got" || true)
if [ -n "$unversioned" ]; then
	echo "exported outside LIBZEX_0:"
	echo "$unversioned"
	exit 1
fi
if ! diff -u "$list" <(sed 's/@.*//' <<<"$got" | LC_ALL=C sort); then
	echo "libzex.so's exports differ from libzex.symbols (- listed, + exported)"
	exit 1
fi
echo "$(wc -l < "$list") names exported, as listed"
