#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kernel-tree.sh - put zex into a kernel source tree, or take it out
#
# Usage: kernel-tree.sh KERNEL_SRC            place zex
#        kernel-tree.sh --remove KERNEL_SRC   undo it
#
# Places this checkout into KERNEL_SRC the way an in-tree driver sits there:
#
#   drivers/gpu/drm/zex             -> kmod/ (Kconfig, Kbuild, .kunitconfig)
#   drivers/gpu/drm/Kconfig         + source "drivers/gpu/drm/zex/Kconfig"
#   drivers/gpu/drm/Makefile        + obj-$(CONFIG_DRM_ZEX) += zex/
#   tools/testing/selftests/drivers/gpu/zex/
#                                   Makefile, config, settings -> selftests/
#
# The links point into this checkout, so the tree builds what is here now.
# The selftests' folder is a real one holding links: lib.mk is found three
# folders up from it, the sources through the Makefile's own link. Running
# it again is a no-op. Files are edited by replacing them, never in place,
# so a tree of hard links to another one (cp -al) leaves that one as it was.
#
# Then, in KERNEL_SRC:
#   tools/testing/kunit/kunit.py run --kunitconfig=drivers/gpu/drm/zex --arch=x86_64
#   make -C tools/testing/selftests TARGETS=drivers/gpu/zex install INSTALL_PATH=DIR
set -euo pipefail

remove=0
if [ "${1:-}" = --remove ]; then
	remove=1
	shift
fi
src=${1:?usage: kernel-tree.sh [--remove] KERNEL_SRC}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
[ -f "$src/drivers/gpu/drm/Kconfig" ] && [ -f "$src/tools/testing/selftests/lib.mk" ] ||
	{ echo "kernel-tree: $src is not a kernel source tree" >&2; exit 1; }

kconfig_hook='source "drivers/gpu/drm/zex/Kconfig"'
make_hook='obj-$(CONFIG_DRM_ZEX) += zex/'
drm=$src/drivers/gpu/drm
ksft=$src/tools/testing/selftests/drivers/gpu/zex

# add_line FILE LINE: LINE appended to FILE unless there, by replacing FILE.
add_line() {
	grep -qxF "$2" "$1" && return 0
	{ cat "$1"; printf '%s\n' "$2"; } >"$1.zex-new"
	mv "$1.zex-new" "$1"
}

# drop_line FILE LINE: every LINE removed from FILE, by replacing FILE.
drop_line() {
	grep -qxF "$2" "$1" || return 0
	grep -vxF "$2" "$1" >"$1.zex-new" || true
	mv "$1.zex-new" "$1"
}

# link TARGET NAME: NAME a link to TARGET; refuses to replace anything but a link.
link() {
	if [ -e "$2" ] && [ ! -L "$2" ]; then
		echo "kernel-tree: $2 exists and is not a link; not touching it" >&2
		exit 1
	fi
	ln -sfn "$1" "$2"
}

if [ $remove = 1 ]; then
	drop_line "$drm/Kconfig" "$kconfig_hook"
	drop_line "$drm/Makefile" "$make_hook"
	[ ! -L "$drm/zex" ] || rm "$drm/zex"
	for f in Makefile config settings; do
		[ ! -L "$ksft/$f" ] || rm "$ksft/$f"
	done
	[ ! -d "$ksft" ] || rmdir "$ksft"
	exit 0
fi

link "$top/kmod" "$drm/zex"
add_line "$drm/Kconfig" "$kconfig_hook"
add_line "$drm/Makefile" "$make_hook"
mkdir -p "$ksft"
for f in Makefile config settings; do
	link "$top/selftests/$f" "$ksft/$f"
done
