#!/bin/bash
# SPDX-License-Identifier: MIT
# DOC: gpu_check.sh - make gpu-check: the GPU check, then its planted bugs
#
# Usage: gpu_check.sh BUILD_DIR MUTANT... Runs hostrpc_gpu_check (its
# TAP), then each mutant build, which must fail: a check that cannot fail
# proves nothing. Exits 4 (skip) without a GPU, 1 on any failure.
set -uo pipefail
out=$1
shift

"$out/hostrpc_gpu_check"
rc=$?
[ $rc = 4 ] && exit 4
failed=$((rc != 0))
for m in "$@"; do
	name=$(basename "$m")
	if [ ! -x "$m" ]; then
		echo "# not ok: $name is not built"
		failed=1
	elif timeout 300 "$m" >"$out/$name.log" 2>&1; then
		echo "# not ok: $name passed the check"
		failed=1
	elif sign=$(grep -m1 '^# calls served wrongly\|did not finish' "$out/$name.log"); then
		echo "# ok: $name is caught: $sign"
	else
		# A crash is not the check catching the bug.
		echo "# not ok: $name failed without the check's verdict:"
		tail -5 "$out/$name.log" | sed 's/^/#   /'
		failed=1
	fi
done
exit $failed
