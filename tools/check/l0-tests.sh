#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: l0-tests.sh - level-zero-tests' conformance binaries, built once from the vendored archive
#
# Usage: l0-tests.sh [LIST]
#
# Prints the folder holding the conformance binaries zex runs (those
# LIST lists, default tools/check/l0-conformance.txt; a list's "group"
# line names the suite's test group its binaries are in, default
# /conformance_tests/core), with the helper programs they
# start in the folders below it where they look), building them the first time into $ZEX_CACHE_DIR (default
# ~/.cache/zex), offline, from level-zero-tests-4e778064.tar.gz in the
# vendor folder against the vendored loader (tools/check/l0-loader.sh).
# The build is keyed by the archive's sha256 and the test group: a list
# that names one more binary builds only that one; the folder printed is
# keyed by the list's binaries, helpers and kernels as well. An
# interrupted build goes on where it stopped. Without the archive: exit 4,
# or 1 under CI=true (tools/check/vendored.sh).
#
# The sha256 pinned here is the archive's own; the vendor folder's README
# gives another figure for it, which no copy of the archive matches.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tools/check/vendored.sh
. "$top/tools/check/vendored.sh"
name=level-zero-tests-4e778064
sha256=4f5db0c01985df44dd2947f2eff259c061b00a32f3e5bed384291096f72133a1
list=${1:-$top/tools/check/l0-conformance.txt}
targets=$(awk '$1 == "binary" || $1 == "build" || $1 == "helper" { print $2 }' "$list" | tr '\n' ' ')
group=$(awk '$1 == "group" { print $2 }' "$list")
# The core group's key is what it was before lists named their group.
key=$( (echo "$sha256"; [ -z "$group" ] || echo "$group") | sha256sum | cut -c1-12)
group=${group:-/conformance_tests/core}
cache=${ZEX_CACHE_DIR:-$HOME/.cache/zex}/$name-$key
# Where each program goes: binaries in bin/, a helper in the folder below
# it that its binary looks in.
layout=$(awk '$1 == "binary" || $1 == "build" || $1 == "helper" { print $1, $2, $3 }' "$list")
# The binaries' kernels (SPIR-V, read from the working folder) go beside them.
extra=$(awk '$1 == "kernel" { print $2 }' "$list" | tr '\n' ' ')
layout="$layout
kernels${extra:+ $extra}"
bin=$cache/bin-$(sha256sum <<<"$layout" | cut -c1-12)

if [ -f "$bin/.complete" ] && [ "$(cat "$bin/.complete")" = "$layout" ]; then
	echo "$bin"
	exit 0
fi
vendored_archive $name $sha256 l0-tests
loader=$("$top/tools/check/l0-loader.sh")

echo "l0-tests: building $targets into $cache (once)" >&2
mkdir -p "$cache"
if [ ! -f "$cache/src/.extracted" ]; then
	rm -rf "$cache/src"
	mkdir -p "$cache/src"
	tar -xzf "$archive" -C "$cache/src" --strip-components=1
	touch "$cache/src/.extracted"
fi
# The suite builds googletest in its tree: a copy of Debian's source.
[ -d "$cache/googletest" ] || cp -a /usr/src/googletest "$cache/googletest"
# Debian's default Boost (1.74) is older than the 1.79 the suite asks for;
# bookworm's 1.81 packages are found through their versioned cmake files.
{
	[ -f "$cache/build/build.ninja" ] ||
		cmake -S "$cache/src" -B "$cache/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_PREFIX_PATH="$loader" -DGTEST_ROOT="$cache/googletest" \
			-DGROUP="$group"
	# shellcheck disable=SC2086
	ninja -C "$cache/build" -j "$(nproc)" $targets
} >>"$cache/build.log" 2>&1 ||
	{ tail -n 30 "$cache/build.log" >&2; echo "l0-tests: build failed, log: $cache/build.log" >&2; exit 1; }
rm -rf "$bin"
while read -r _ t folder; do
	mkdir -p "$bin/$folder"
	find "$cache/build" -type f -name "$t" -perm -u+x -exec cp {} "$bin/$folder/" \;
	[ -x "$bin/$folder/$t" ] || { echo "l0-tests: $t was not built" >&2; exit 1; }
done < <(grep -v '^kernels' <<<"$layout")
for t in $(awk '$1 == "binary" || $1 == "build" { print $2 }' "$list"); do
	for k in "$cache/src/conformance_tests/"*/"$t/kernels/"*.spv; do
		[ ! -f "$k" ] || cp "$k" "$bin/"
	done
done
# Kernels a binary loads from another's folder (the suite installs them
# all in one place): "kernel PATH", PATH in the suite's sources.
for k in $(awk '$1 == "kernel" { print $2 }' "$list"); do
	cp "$cache/src/$k" "$bin/"
done
echo "$layout" > "$bin/.complete"
echo "$bin"
