#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kselftest-install.sh - zex's kselftests, built and installed the kernel's way
#
# Usage: kselftest-install.sh OUT
#
# Puts zex (tools/kernel-tree.sh) into OUT/kernel-tree, a copy of Debian's
# linux-source-6.1 made of hard links to the cached extraction (two seconds,
# no space; symbolic links where the cache is on another file system), and
# runs there what a kernel CI runs:
#
#   make -C tools/testing/selftests O=OUT/kselftest TARGETS=drivers/gpu/zex \
#        install INSTALL_PATH=OUT/kselftest-install
#
# with libzex.a from OUT/lib. OUT/kselftest-install then holds
# run_kselftest.sh, kselftest-list.txt and drivers/gpu/zex/ (the programs,
# config, settings): the input of every VM that runs zex's kselftests.
set -euo pipefail

out=$(mkdir -p "$1" && cd "$1" && pwd)
top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/tools/vm/linux-source.sh" 6.1)
tree=$out/kernel-tree

"$top/tools/vm/tree-copy.sh" "$src" "$tree"
"$top/tools/kernel-tree.sh" "$tree"
rm -rf "$out/kselftest-install"
make -s -C "$tree/tools/testing/selftests" O="$out/kselftest" TARGETS=drivers/gpu/zex \
	LIBZEX_O="$out" install INSTALL_PATH="$out/kselftest-install" >/dev/null
