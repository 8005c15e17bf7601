# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: verdict-test.sh - the TAP checks the verdict scripts' tests share (sourced)
#
# For a test of a plan-and-judge script ($judge, a Python script taking
# "plan [--long] LIST" and "judge LIST LOG --layer t [--long]") on the list
# $tmp/list and the log $tmp/log: expect() judges the log, expect_plan()
# compares the plan. Each prints one TAP line, counting in $n and setting
# $failed on a failure.

n=0 failed=0

# expect WHAT WANT_RC WANT_PATTERN [--long]: judge $tmp/log.
expect() {
	local what=$1 want=$2 pattern=$3 rc
	shift 3
	python3 "$judge" judge "$tmp/list" "$tmp/log" --layer t "$@" > "$tmp/out" 2>&1
	rc=$?
	n=$((n + 1))
	if [ $rc = "$want" ] && grep -q -- "$pattern" "$tmp/out"; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		echo "#   exit $rc (want $want), want a line matching: $pattern"
		sed 's/^/#   /' "$tmp/out"
		failed=1
	fi
}

# expect_plan WHAT WANT [--long]: the plan's lines.
expect_plan() {
	local what=$1 want=$2 plan
	shift 2
	plan=$(python3 "$judge" plan "$@" "$tmp/list")
	n=$((n + 1))
	if [ "$plan" = "$want" ]; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		echo "#   got: $plan"
		echo "#   want: $want"
		failed=1
	fi
}
