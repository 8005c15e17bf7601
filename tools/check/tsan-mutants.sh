#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: tsan-mutants.sh - the hostrpc ThreadSanitizer test must catch planted bugs
#
# Builds the protocol core's TSan test once per HOSTRPC_MUTANT_* switch of
# libzex/hostrpc/hostrpc.c and runs the test that must catch that bug; each
# run must fail, with the failure named below (a data race report, or the
# test's own assertion). The unchanged build passing is the host layer's
# hostrpc_test. Prints TAP; exits 1 when a planted bug goes unnoticed.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${O:-$top/build}/tsan-mutants
ksft=${KSFT_DIR:?KSFT_DIR must point to tools/testing/selftests}
mkdir -p "$out"
cd "$top/libzex"

# mutant | the test that must catch it | what its output must show | environment
# (the own-slot wait strands a caller in some runs: up to 300 runs, the
# rig's stall watch allowing 10 s without a served call; it has hung within
# 6 to 48 runs)
mutants=(
	"ANSWER_BEFORE_OPERATE|one_device_one_server|WARNING: ThreadSanitizer: data race|"
	"NO_RECHECK|arming_sees_work_and_rings_once|not ok 1 global.arming_sees_work_and_rings_once|"
	"OWN_SLOT_WAITS_FOR_VALUE|recycled_slots_strand_no_caller|# STALL: no call served|HOSTRPC_PRESSURE_RUNS=300 HOSTRPC_STALL_S=10"
	"SUMMARY_CLEARED_LATE|a_request_published_during_a_scan_is_not_lost|not ok 1 global.a_request_published_during_a_scan_is_not_lost|"
	"NO_FULL_PASS|a_request_whose_flag_came_first_is_found_by_a_full_pass|not ok 1 global.a_request_whose_flag_came_first_is_found_by_a_full_pass|"
	"SMALL_NO_TAG_CHECK|a_small_call_is_served_only_once_its_words_land|not ok 1 global.a_small_call_is_served_only_once_its_words_land|"
	"SMALL_ANSWER_WORD_FIRST|a_small_calls_answer_word_comes_after_its_words|not ok 1 global.a_small_calls_answer_word_comes_after_its_words|"
)

echo "1..${#mutants[@]}"
n=0 failed=0
for m in "${mutants[@]}"; do
	IFS='|' read -r name test sign env <<<"$m"
	n=$((n + 1))
	bin=$out/hostrpc_test_$name
	if ! gcc -std=gnu11 -D_GNU_SOURCE -O1 -g -fsanitize=thread -pthread -w \
		-DHOSTRPC_MUTANT_"$name" -I"$ksft" hostrpc/tests/hostrpc_test.c hostrpc/hostrpc.c \
		-o "$bin" >"$out/$name.build" 2>&1; then
		echo "not ok $n planted bug $name: does not build"
		sed 's/^/# /' "$out/$name.build" | tail -10
		failed=1
		continue
	fi
	# shellcheck disable=SC2086
	env HOSTRPC_TEST_ONLY="$test" $env timeout 600 "$bin" >"$out/$name.log" 2>&1
	rc=$?
	if [ $rc != 0 ] && grep -qF "$sign" "$out/$name.log"; then
		echo "ok $n planted bug $name is caught by $test (exit $rc)"
	else
		echo "not ok $n planted bug $name is not caught by $test (exit $rc)"
		tail -15 "$out/$name.log" | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
