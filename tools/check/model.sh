#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: model.sh - model-check the hostrpc protocol with spin
#
# libzex/hostrpc/model/hostrpc.pml, exhaustively, for 2 slots × 2 device
# clients × 2 host servers: safety (assertions: a page is never held by
# both sides; no invalid end state: no deadlock, so no lost wakeup) and
# liveness (every call completes, under weak fairness). Then each planted
# bug (-DMUTANT_*) must make the safety run fail: a check that cannot fail
# proves nothing. Prints TAP; exits 1 on any failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
model=$top/libzex/hostrpc/model/hostrpc.pml
out=${O:-$top/build}/model
mutants="MUTANT_CLEAR_W_BEFORE_G MUTANT_NO_RECHECK MUTANT_NO_RING_ON_RELEASE MUTANT_PUBLISH_BEFORE_FILL"
mkdir -p "$out"
failed=0 n=0

# pan for one variant: $1 = directory, $2 = extra cpp flags, $3 = cc flags.
build_pan() {
	mkdir -p "$1"
	(cd "$1" && cp "$model" . && spin -a $2 hostrpc.pml >/dev/null &&
	 gcc -O2 -DCOLLAPSE $3 -o pan pan.c) >"$1/build.log" 2>&1
}

result() {	# $1 = ok?, $2 = name, $3 = log
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		tail -15 "$3" | sed 's/^/# /'
		failed=1
	fi
}

echo "1..$((2 + $(echo $mutants | wc -w)))"

build_pan "$out/safety" "" "-DSAFETY -DNOCLAIM" &&
	(cd "$out/safety" && ./pan -m50000000 >run.log 2>&1)
grep -q "errors: 0" "$out/safety/run.log" 2>/dev/null &&
	! grep -q "max search depth too small" "$out/safety/run.log"
result $(( $? == 0 )) "model safety: page exclusion, no deadlock or lost wakeup ($(grep -o '[0-9]* states, stored' "$out/safety/run.log" 2>/dev/null))" "$out/safety/run.log"

build_pan "$out/liveness" "" "-DNFAIR=3" &&
	(cd "$out/liveness" && ./pan -a -f -m50000000 -N calls_complete >run.log 2>&1)
grep -q "errors: 0" "$out/liveness/run.log" 2>/dev/null &&
	! grep -q "max search depth too small" "$out/liveness/run.log"
result $(( $? == 0 )) "model liveness: every call completes under weak fairness ($(grep -o '[0-9]* states, stored' "$out/liveness/run.log" 2>/dev/null))" "$out/liveness/run.log"

for m in $mutants; do
	build_pan "$out/$m" "-D$m" "-DSAFETY -DNOCLAIM" &&
		(cd "$out/$m" && ./pan -m50000000 >run.log 2>&1)
	grep -q -E "errors: [1-9]" "$out/$m/run.log" 2>/dev/null
	result $(( $? == 0 )) "model mutant $m is caught ($(grep -o -m1 -E 'assertion violated|invalid end state' "$out/$m/run.log" 2>/dev/null))" "$out/$m/run.log"
done
exit $failed
