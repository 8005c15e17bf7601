#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kernel-tree-test.sh - tools/kernel-tree.sh on a tree of hard links
#
# Builds the few files of a kernel tree that kernel-tree.sh edits, takes a
# hard-linked copy of it (as kselftest-install.sh and kunit.sh do) and
# checks: zex placed (links into this checkout, each hook line once, also
# when run twice), the original tree untouched, a real folder where a link
# belongs refused, and --remove giving back the copy byte for byte. The
# kunit and VM layers then use a real tree. Exits non-zero on the first
# failed check.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "kernel-tree-test: $*" >&2; exit 1; }

orig=$tmp/orig
mkdir -p "$orig/drivers/gpu/drm" "$orig/tools/testing/selftests/drivers/gpu"
printf 'config DRM\n\ttristate "DRM"\n' >"$orig/drivers/gpu/drm/Kconfig"
printf 'obj-$(CONFIG_DRM) += drm.o\n' >"$orig/drivers/gpu/drm/Makefile"
: >"$orig/tools/testing/selftests/lib.mk"
cp -al "$orig" "$tmp/tree"
tree=$tmp/tree

"$top/tools/kernel-tree.sh" "$tree"
"$top/tools/kernel-tree.sh" "$tree"
[ "$(readlink "$tree/drivers/gpu/drm/zex")" = "$top/kmod" ] || fail "drivers/gpu/drm/zex is not a link to kmod/"
for f in Makefile config settings; do
	[ "$(readlink "$tree/tools/testing/selftests/drivers/gpu/zex/$f")" = "$top/selftests/$f" ] ||
		fail "selftests' $f is not a link to selftests/$f"
done
[ "$(grep -cxF 'source "drivers/gpu/drm/zex/Kconfig"' "$tree/drivers/gpu/drm/Kconfig")" = 1 ] ||
	fail "the Kconfig hook is not there exactly once"
[ "$(grep -cxF 'obj-$(CONFIG_DRM_ZEX) += zex/' "$tree/drivers/gpu/drm/Makefile")" = 1 ] ||
	fail "the Makefile hook is not there exactly once"
! grep -q zex "$orig/drivers/gpu/drm/Kconfig" "$orig/drivers/gpu/drm/Makefile" ||
	fail "the hard-linked original was edited"

mkdir "$tmp/real"
cp -al "$orig" "$tmp/real/tree"
mkdir "$tmp/real/tree/drivers/gpu/drm/zex"
if "$top/tools/kernel-tree.sh" "$tmp/real/tree" 2>/dev/null; then
	fail "a real drivers/gpu/drm/zex folder was replaced"
fi

"$top/tools/kernel-tree.sh" --remove "$tree"
diff -r "$orig" "$tree" >/dev/null || fail "--remove did not give back the original tree"
echo "kernel-tree-test: ok"
