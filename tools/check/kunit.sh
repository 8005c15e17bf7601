#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kunit.sh - zex's KUnit suites run by the kernel's kunit.py, in tree
#
# Usage: kunit.sh LOGDIR
#
# What a kernel CI does with a tree that has zex in it, on Debian's
# linux-source-6.1: tools/kernel-tree.sh puts zex into the tree, then
#
#   tools/testing/kunit/kunit.py run --kunitconfig=drivers/gpu/drm/zex --arch=x86_64
#
# configures a kernel from kmod/.kunitconfig (zex and its suites built in),
# builds it, boots it in QEMU and parses the suites' KTAP. The tree (hard
# links to the cached extraction) and the build sit in the cache at fixed
# paths, so a fresh clone finds the kernel built and only zex recompiles;
# a lock keeps two checkouts from sharing them at once. The kernel's own
# objects are reused; zex's are dropped whenever another checkout built
# them last (the tree's links then show files that may be older than
# those objects). Judged by results.py kunit-json: every suite of
# kmod/tests ran, every case passed.
set -uo pipefail

logs=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
layer=kunit
src=$("$top/tools/vm/linux-source.sh" 6.1) || {
	echo "RESULT $layer passed=0 failed=1 skipped=0"
	exit 1
}
srcver=$(basename "$src")
tree=$cache/kunit-tree-${srcver#linux-source-}
build=$cache/kunit-build-${srcver#linux-source-}

exec 9>"$cache/kunit.lock"
flock 9
"$top/tools/vm/tree-copy.sh" "$src" "$tree"
"$top/tools/kernel-tree.sh" "$tree"
mkdir -p "$build"
if ! cmp -s "$build/.zex-checkout" <(echo "$top"); then
	rm -rf "$build/drivers/gpu/drm/zex"
	echo "$top" >"$build/.zex-checkout"
fi

suites=$("$top/tools/vm/kunit-suites.sh")
rm -f "$logs/kunit.json"
start=$(date +%s)
(cd "$tree" && python3 tools/testing/kunit/kunit.py run --kunitconfig=drivers/gpu/drm/zex \
	--arch=x86_64 --build_dir="$build" --jobs="$(nproc)" --timeout=900 \
	--json="$logs/kunit.json") >"$logs/kunit.log" 2>&1
rc=$?
echo "kunit.py run: rc=$rc in $(( $(date +%s) - start )) s (log: $logs/kunit.log)"
# shellcheck disable=SC2086
python3 "$top/tools/check/results.py" kunit-json "$layer" "$rc" "$logs/kunit.json" $suites ||
	tail -40 "$logs/kunit.log"
