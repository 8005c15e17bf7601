#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: compute-benchmarks-cases-test.sh - the compute-benchmarks verdict, against logs written to fool it
#
# Runs tools/check/compute-benchmarks-cases.py on a small list and console
# logs made up for it: a log where every case gave figures (or the
# benchmark's own NO_SUPPORT) passes, and each of these fails it: a case
# that says ERROR, a case with no row, a test that exits non-zero, a test
# that never ends, a test of the benchmark the list does not name, a test
# the list names that the benchmark does not have; an excluded or long
# case is neither wanted nor counted, and the long run wants only those;
# a test all long ("*") is not started by make check, and the long run
# wants it.
# The plan's lines carry the exclusions. TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
judge=$top/tools/check/compute-benchmarks-cases.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tools/check/verdict-test.sh
. "$top/tools/check/verdict-test.sh"

cat > "$tmp/list" <<'LIST'
run api_overhead_benchmark Fast
exclude api_overhead_benchmark Fast size=4GB too big
long api_overhead_benchmark Fast size=256MB too slow
run api_overhead_benchmark Slow
long api_overhead_benchmark Slow * every case too slow
skip api_overhead_benchmark Broken no kernel
LIST

# listing [TEST...]: the benchmark's --noop listing of Fast (and Broken).
listing() {
	echo "@@ZEX cb-cases api_overhead_benchmark"
	echo "TestCase                                    Type  Label"
	echo "Fast(api=l0 size=1MB mode=0)                [CPU] [us]"
	echo "Fast(api=l0 size=1MB mode=1)                [CPU] [us]"
	echo "Fast(api=l0 size=4GB mode=0)                [CPU] [us]"
	echo "Fast(api=l0 size=256MB mode=0)              [CPU] [us]"
	echo "Broken(api=l0 size=1MB)                     [CPU] [us]"
	echo "Slow(api=l0 size=1MB)                       [CPU] [us]"
	for t in "$@"; do
		echo "$t(api=l0 size=1MB)                         [CPU] [us]"
	done
	echo "@@ZEX cb-cases-end api_overhead_benchmark"
}

# run_of ROW0 ROW1 [RC]: the make-check run of Fast, its two cases' rows.
run_of() {
	echo "@@ZEX cb-begin api_overhead_benchmark Fast"
	echo "TestCase,Mean,Median,StdDev,Min,Max,Type,Label [unit]"
	[ -z "$1" ] || echo "Fast(api=l0 size=1MB mode=0),$1,$1,0.00%,$1,$1,[CPU],[us]"
	[ -z "$2" ] || echo "Fast(api=l0 size=1MB mode=1),$2,$2,0.00%,$2,$2,[CPU],[us]"
	echo "@@ZEX cb-end api_overhead_benchmark Fast rc=${3:-0} secs=1"
}

echo "1..12"
{ listing; run_of 1.5 NO_SUPPORT; } > "$tmp/log"
expect "figures and the benchmark's NO_SUPPORT pass; excluded and long cases are not wanted" 0 \
	'^RESULT t passed=1 failed=0 skipped=1$'
{ listing; run_of 1.5 ERROR; } > "$tmp/log"
expect "a case that says ERROR fails" 1 'FAIL \[t\] api_overhead_benchmark Fast: (api=l0 size=1MB mode=1): ERROR'
{ listing; run_of 1.5 ""; } > "$tmp/log"
expect "a case with no row fails" 1 'mode=1): no row'
{ listing; run_of 1.5 2.5 1; } > "$tmp/log"
expect "a test that exits non-zero fails" 1 'Fast: exited 1 with no failed case'
{ listing; run_of 1.5 2.5 | grep -v cb-end; } > "$tmp/log"
expect "a test that never ends fails" 1 'Fast: did not reach its end'
{ listing Extra; run_of 1.5 2.5; } > "$tmp/log"
expect "a test the list does not name fails" 1 'Extra: neither run nor skipped by the list'
sed -i 's/^skip api_overhead_benchmark Broken/skip api_overhead_benchmark Gone/' "$tmp/list"
{ listing; run_of 1.5 2.5; } > "$tmp/log"
expect "a test the benchmark does not have fails" 1 'Gone: the benchmark has no such test'
sed -i 's/^skip api_overhead_benchmark Gone/skip api_overhead_benchmark Broken/' "$tmp/list"
{ listing; echo "@@ZEX cb-begin api_overhead_benchmark Fast"
  echo "Fast(api=l0 size=256MB mode=0),9.5,9.5,0.00%,9.5,9.5,[CPU],[us]"
  echo "@@ZEX cb-end api_overhead_benchmark Fast rc=0 secs=1"
  echo "@@ZEX cb-begin api_overhead_benchmark Slow"
  echo "Slow(api=l0 size=1MB),3.5,3.5,0.00%,3.5,3.5,[CPU],[us]"
  echo "@@ZEX cb-end api_overhead_benchmark Slow rc=0 secs=1"; } > "$tmp/log"
expect "the long run wants the long cases only" 0 '^RESULT t passed=2 failed=0 skipped=0$' --long
{ listing; echo "@@ZEX cb-begin api_overhead_benchmark Fast"
  echo "Fast(api=l0 size=256MB mode=0),9.5,9.5,0.00%,9.5,9.5,[CPU],[us]"
  echo "@@ZEX cb-end api_overhead_benchmark Fast rc=0 secs=1"; } > "$tmp/log"
expect "the long run of a test all long fails when it did not run" 1 'Slow: did not run' --long
{ listing; run_of 1.5 2.5; } > "$tmp/log"
expect "make check does not want a test all long, and says so" 0 \
	'^api_overhead_benchmark Slow: long cases, left to make stress: every case$'

expect_plan "the plan filters the excluded and long arguments out" \
	"api_overhead_benchmark Fast ^size=4GB ^size=256MB"
expect_plan "the long plan runs the long argument's cases, the excluded still out; a test all long whole" \
	"api_overhead_benchmark Fast size=256MB ^size=4GB
api_overhead_benchmark Slow api=l0" --long
exit $failed
