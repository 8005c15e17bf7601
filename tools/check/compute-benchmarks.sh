#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: compute-benchmarks.sh - Intel's compute-benchmarks (Level Zero only), built once from the vendored archive
#
# Usage: compute-benchmarks.sh
#
# Prints the folder of the built benchmarks (api_overhead_benchmark_l0,
# memory_benchmark_l0 and the kernels they load), building them the first
# time into $ZEX_CACHE_DIR (default ~/.cache/zex) from
# compute-benchmarks-7de6578b.tar.gz in the vendor folder (its sha256
# checked first) against the Level Zero loader of l0-loader.sh, with
# Debian's googletest in place of the archive's empty submodule. Without the
# archive: exit 4, or 1 under CI=true (tools/check/vendored.sh).
set -euo pipefail

here=$(dirname "$0")
# shellcheck source=tools/check/vendored.sh
. "$here/vendored.sh"
name=compute-benchmarks-7de6578b
sha256=4b169826d83af76ab80f6e25946708f47fdea52609ce3a24314163b5d5a43628
targets=(api_overhead_benchmark_l0 memory_benchmark_l0)
cache=${ZEX_CACHE_DIR:-$HOME/.cache/zex}/$name-${sha256:0:12}

if [ -f "$cache/bin/.complete" ]; then
	echo "$cache/bin"
	exit 0
fi
vendored_archive $name $sha256 compute-benchmarks
loader=$("$here/l0-loader.sh")

echo "compute-benchmarks: building $name into $cache (once)" >&2
rm -rf "$cache"
mkdir -p "$cache/src" "$cache/build"
tar -xzf "$archive" -C "$cache/src" --strip-components=1
rmdir "$cache/src/third_party/googletest"
cp -r /usr/src/googletest "$cache/src/third_party/googletest"
{
	cmake -S "$cache/src" -B "$cache/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
		-DBUILD_L0=ON -DBUILD_OCL=OFF -DCCACHE_ALLOWED=OFF \
		-DCMAKE_PREFIX_PATH="$loader" -DOUTPUT_DIR="$cache/bin" &&
		cmake --build "$cache/build" -j "$(nproc)" --target "${targets[@]}"
} >"$cache/build.log" 2>&1 ||
	{ tail -n 30 "$cache/build.log" >&2; echo "compute-benchmarks: build failed, log: $cache/build.log" >&2; exit 1; }
for t in "${targets[@]}"; do
	[ -x "$cache/bin/$t" ] ||
		{ echo "compute-benchmarks: no $t in $cache/bin, log: $cache/build.log" >&2; exit 1; }
done
touch "$cache/bin/.complete"
echo "$cache/bin"
