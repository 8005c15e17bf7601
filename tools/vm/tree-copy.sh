#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: tree-copy.sh - a kernel source tree copied as hard links, made once
#
# Usage: tree-copy.sh SRC DEST
#
# DEST becomes a copy of SRC made of hard links (two seconds, no space;
# symbolic links where the two are on different file systems), unless it
# already is one of this SRC. tools/kernel-tree.sh edits such a copy by
# replacing files, so SRC stays as it was.
set -euo pipefail
src=$1 dest=$2
cmp -s "$dest/.zex-copy-of" <(echo "$src") && exit 0
rm -rf "$dest" "$dest.tmp"
cp -al "$src" "$dest.tmp" 2>/dev/null || {
	rm -rf "$dest.tmp"
	cp -as "$src" "$dest.tmp"
}
echo "$src" >"$dest.tmp/.zex-copy-of"
mv "$dest.tmp" "$dest"
