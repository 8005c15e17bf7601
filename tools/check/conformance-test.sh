#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: conformance-test.sh - the level-zero-tests verdict and plan, against lists and logs written to fool them
#
# Runs tools/check/conformance.py on a small list and console logs made
# up for it: a log where every case passed (or was skipped by the suite)
# passes, and each of these fails it: a failed case, a binary that never
# ran, a binary that stopped inside a case, a binary that exited non-zero
# with no failed case, gtest's count of cases disagreeing with the cases
# seen, a FLAT run missing. The plan leaves the exclusions and the long
# cases out of both hierarchies' runs, runs a built binary under FLAT only
# (its long cases too, in the long plan). TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
judge=$top/tools/check/conformance.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tools/check/verdict-test.sh
. "$top/tools/check/verdict-test.sh"

cat > "$tmp/list" <<'LIST'
binary test_a
build test_b
exclude test_a Bad.* broken
long test_a Slow.* too slow
flat test_a Two.* wants two root devices
flat test_b P.*/1 wants two root devices
flat test_b P.*/2 wants two root devices
long test_b P.*/2 too slow
LIST

# run NAME CASE... : one binary's run, each CASE "STATUS:NAME" (OK,
# SKIPPED, FAILED), gtest's summary and the end mark (RC in $rc).
run() {
	local name=$1 c
	shift
	echo "@@ZEX conformance-begin $name"
	echo "@@ZEX conformance-excluded $name 1"
	for c in "$@"; do
		echo "[ RUN      ] ${c#*:}"
		[ "${c%%:*}" != FAILED ] || echo "test.cpp:12: Failure"
		printf '[ %8s ] %s (5 ms)\n' "${c%%:*}" "${c#*:}"
	done
	echo "[==========] ${ran:-$#} tests from 1 test suite ran. (9 ms total)"
	echo "@@ZEX conformance-end $name rc=${rc:-0} secs=1"
}

good() {
	run test_a OK:One.x SKIPPED:One.y
	run test_a@FLAT OK:Two.x
	run test_b@FLAT OK:P.z/1
}

echo "1..12"
good > "$tmp/log"
expect "passed and suite-skipped cases pass, both hierarchies judged" 0 \
	'^RESULT t passed=3 failed=0 skipped=1$'
expect "make check names the long cases it leaves to make stress, a built binary's under FLAT" 0 \
	'^test_b@FLAT: long cases, left to make stress: P\.\*/2$'
{ run test_a OK:One.x FAILED:One.y; run test_a@FLAT OK:Two.x; run test_b@FLAT OK:P.z/1; } > "$tmp/log"
expect "a failed case fails, with what gtest printed" 1 'test\.cpp:12: Failure'
good | grep -v 'test_a@FLAT\|Two.x' > "$tmp/log"
expect "a FLAT run that is missing fails" 1 'FAIL \[t\] test_a@FLAT: did not run'
{ run test_a OK:One.x | grep -v 'OK \]\|ran\.'; run test_a@FLAT OK:Two.x; run test_b@FLAT OK:P.z/1; } > "$tmp/log"
expect "a binary that stopped inside a case fails" 1 'ended (rc=0) inside One.x'
{ rc=1 run test_a OK:One.x; run test_a@FLAT OK:Two.x; run test_b@FLAT OK:P.z/1; } > "$tmp/log"
expect "a non-zero exit with no failed case fails" 1 'test_a: exited 1 with no failed case'
{ ran=3 run test_a OK:One.x; run test_a@FLAT OK:Two.x; run test_b@FLAT OK:P.z/1; } > "$tmp/log"
expect "gtest's count disagreeing with the cases seen fails" 1 'gtest ran 3 cases, 1 were seen'
good | grep -v 'conformance-end test_b' > "$tmp/log"
expect "a run that never ends fails" 1 'test_b@FLAT: did not reach its end'
{ run test_a OK:Slow.x; run test_b@FLAT OK:P.z/2; } > "$tmp/log"
expect "the long run judges the long cases, a built binary's under FLAT" 0 \
	'^RESULT t passed=2 failed=0 skipped=0$' --long

expect_plan "the plan leaves the excluded and long cases out of both hierarchies" \
	"test_a Bad.*:Slow.*
test_a +Two.*-Bad.*:Slow.* FLAT
test_b +P.*/1:P.*/2-P.*/2 FLAT"
expect_plan "the long plan runs the long cases, a built binary's under FLAT" \
	"test_a +Slow.*-Bad.*
test_b +P.*/2 FLAT" --long
printf 'binary test_a\nflat test_c X.* why\n' > "$tmp/list"
n=$((n + 1))
if python3 "$judge" plan "$tmp/list" > "$tmp/out" 2>&1; then
	echo "not ok $n a line naming a binary the list does not have is refused"
	failed=1
else
	echo "ok $n a line naming a binary the list does not have is refused"
fi
exit $failed
