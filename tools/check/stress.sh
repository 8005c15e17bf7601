#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: stress.sh - `make stress`: the hostrpc protocol at the seed's scale, one verdict
#
# 1. model     hostrpc.pml's runs of make check, each with more memory
#              (ZEX_STRESS=1 model.sh)
# 2. pressure  the recycled-slot pattern 500 times under CPU pressure (more
#              busy threads than cores), each run with its own deadline
# 3. native    the protocol core over plain shared memory: 1024 callers x
#              1000 calls against 1, 2 and 4 servers, 10^6 calls between
#              sleepers, every reply checked against its request
# 4. vm        the hostrpc kselftests through the kernel channel under TCG
#              at the largest scale that finishes in bounded time (1024
#              callers x 100 calls; 10^5 calls between sleepers), and the
#              mirror imports' host-versus-device race, 75000 copies
# 5. long      the cases make check leaves out as too long:
#              level-zero-tests' (core and Sysman), compute-benchmarks'
# 6. debug     the 6.1 line's debug kernel, as make check runs 6.12's
#
# Each layer prints its figures (calls, calls/s, hangs, rings per call) and
# "RESULT <layer> passed=N failed=N skipped=N"; the last line totals them.
# Expects `make all host-tests` to have run. Exits 1 on any failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
export O=${O:-$top/build}
logs=$O/stress
mkdir -p "$logs"
# shellcheck source=tools/check/verdict.sh
. tools/check/verdict.sh
t0=$(date +%s)

layer_start model
ZEX_STRESS=1 tools/check/model.sh >"$logs/model.tap" 2>&1
python3 tools/check/results.py tap stress model $? "$logs/model.tap" | tally
layer_end model

layer_start pressure
HOSTRPC_TEST_ONLY=recycled_slots_strand_no_caller HOSTRPC_PRESSURE_RUNS=500 \
	"$O/host-tests/hostrpc_test" >"$logs/pressure.tap" 2>&1
rc=$?
grep -E '^# .*(runs|hang)' "$logs/pressure.tap"
python3 tools/check/results.py tap stress pressure $rc "$logs/pressure.tap" | tally
layer_end pressure

layer_start native
"$O/host-tests/hostrpc_scale" check >"$logs/native.tap" 2>&1
rc=$?
grep -E '^(not )?ok ' "$logs/native.tap"
python3 tools/check/results.py tap stress native $rc "$logs/native.tap" | tally
layer_end native

layer_start vm
tools/vm/vm.sh stress 2>&1 | tally
layer_end vm

# long_layer LAYER MODE VAR=VALUE...: vm.sh MODE on the 6.12 stock
# kernel with those settings (a layer's long cases), as layer LAYER.
long_layer() {
	local layer=$1 mode=$2 kdir ko
	shift 2
	layer_start "$layer"
	if kdir=$(tools/kernel-dir.sh 6.12) &&
	   ko=$(tools/vm/kmod-build.sh "$kdir" "$O/kmod-6.12" 2>"$logs/build-$layer.err"); then
		env KDIR="$kdir" ZEX_KO="$ko" "$@" tools/vm/vm.sh "$mode" 2>&1
	else
		echo "FAIL [$layer] no 6.12 headers, or zex.ko does not build"
		echo "RESULT $layer passed=0 failed=1 skipped=0"
	fi | tally
	layer_end "$layer"
}

# The long cases make check leaves out: level-zero-tests'
# (l0-conformance.txt, l0-sysman.txt) and compute-benchmarks'
# (compute-benchmarks-cases.txt).
long_layer l0-conformance-long check-conformance ZEX_CONFORMANCE_LONG=1 \
	ZEX_CONFORMANCE_TIMEOUT=5400
long_layer l0-sysman-long check-sysman ZEX_CONFORMANCE_LONG=1
long_layer compute-benchmarks-long check-runtimes ZEX_CB_LONG=1 ZEX_CB_TIMEOUT=3600

# The 6.1 line's debug kernel: make check runs 6.12's.
layer_start debug-kernel-6.1
KVER=6.1 tools/vm/vm.sh check-debug 2>&1 | tally
layer_end debug-kernel-6.1

echo "stress took $(( $(date +%s) - t0 ))s"
verdict
