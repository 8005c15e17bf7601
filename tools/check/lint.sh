#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: lint.sh - the kernel code's style and static checks
#
# checkpatch.pl --strict over every tracked kernel file (what `git ls-files`
# lists under kmod/ and uapi/drm/, so a new file is linted the day it is
# added), scripts/kernel-doc -none -Wall over the same C files and headers
# (nothing may be printed), and a sparse build (C=2) of zex.ko against
# KDIR. Prints one "ok"/"not ok" TAP line per check and exits non-zero
# when one fails.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=${KDIR:-$("$(dirname "$0")/../kernel-dir.sh" "${KVER:-}")}
# checkpatch and kernel-doc of the newer line (6.1's kernel-doc has no
# -Wall); sparse against KDIR (the newest line installed).
src=$("$top/tools/vm/linux-source.sh" 6.12)
out=${O:-$top/build}/lint
mkdir -p "$out"
cd "$top"

files=$(git ls-files 'kmod/*.[ch]' kmod/Kconfig 'uapi/drm/*.h')
echo "1..3"
failed=0
if [ -z "$files" ]; then
	echo "# no tracked kernel files: not a git checkout?"
	echo "not ok 1 checkpatch --strict"
	exit 1
fi

# kmod/common/zex_compat.h is, by design, the one file that tests kernel
# versions (an out-of-tree module supports several): there, and only
# there, LINUX_VERSION_CODE is expected.
compat=kmod/common/zex_compat.h
perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
	--ignore FILE_PATH_CHANGES -f $(grep -vx "$compat" <<<"$files") >"$out/checkpatch.txt" 2>&1
if grep -qx "$compat" <<<"$files"; then
	perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE -f "$compat" >>"$out/checkpatch.txt" 2>&1
fi
if grep -q -E ': (ERROR|WARNING|CHECK):' "$out/checkpatch.txt"; then
	grep -E ': (ERROR|WARNING|CHECK):' "$out/checkpatch.txt" | sed 's/^/# /'
	echo "not ok 1 checkpatch --strict"
	failed=1
else
	echo "ok 1 checkpatch --strict"
fi

# kernel-doc: every comment that opens with /** is a well-formed one, with
# each parameter, member and return value described.
perl "$src/scripts/kernel-doc" -none -Wall $(grep -E '\.[ch]$' <<<"$files") \
	>"$out/kernel-doc.txt" 2>&1
if [ -s "$out/kernel-doc.txt" ]; then
	sed 's/^/# /' "$out/kernel-doc.txt"
	echo "not ok 2 kernel-doc -none -Wall prints nothing"
	failed=1
else
	echo "ok 2 kernel-doc -none -Wall prints nothing"
fi

# A sparse pass rebuilds every object; build in a copy so the real
# build's objects stay untouched.
rm -rf "$out/sparse-src"
mkdir -p "$out/sparse-src"
cp -r kmod uapi "$out/sparse-src/"
make -s -C "$kdir" M="$out/sparse-src/kmod" C=2 CHECK="sparse" W=1 ZEX_KUNIT=y modules \
	>"$out/sparse.txt" 2>&1
rc=$?
if [ $rc != 0 ] || grep -q -E 'warning:|error:' "$out/sparse.txt"; then
	grep -E 'warning:|error:' "$out/sparse.txt" | sed 's/^/# /'
	echo "not ok 3 sparse (C=2) and W=1 clean"
	failed=1
else
	echo "ok 3 sparse (C=2) and W=1 clean"
fi
exit $failed
