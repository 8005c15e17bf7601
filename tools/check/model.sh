#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: model.sh - model-check the hostrpc protocol with spin
#
# libzex/hostrpc/model/hostrpc.pml, exhaustively: for 2 slots × 2 device
# clients × 2 host servers, safety (assertions: a page is never held by
# both sides, a held slot is answered; no invalid end state: no deadlock,
# so no lost wakeup and no lost request) and slot recycling (CALLS=2 per
# client: a stranded caller fails the end-state monitor); two callers
# sharing one slot (more callers than slots); device-side sleeping and
# liveness (every call completes under weak fairness) with one server;
# a device side without a doorbell (its summary flag unordered after its
# request, polling servers with full passes): safety with two servers,
# liveness with one; small calls (tagged words, the answer word last, so
# that a slot may be published again before its answer word is stored:
# sequence words modulo 3): safety with two clients and one server,
# liveness with one client and one server (with two clients it passed
# 44 M states and 6 GB unfinished).
# With two servers those two do not fit a machine: liveness passed 96 M
# states and 16 GB, sleeping 135 M states and 10 GB, both unfinished.
# `make stress` (ZEX_STRESS=1) gives each run more memory. A run passes only when its search was
# complete (not cut short by the memory bound or the depth). Then each
# planted bug (-DMUTANT_*) must make its run fail: a check that cannot
# fail proves nothing. Prints TAP; exits 1 on any failure.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
model=$top/libzex/hostrpc/model/hostrpc.pml
out=${O:-$top/build}/model
stress=${ZEX_STRESS:-0}
mkdir -p "$out"
failed=0 n=0

# MiB per run (runs go in parallel, one per CPU); ZEX_MODEL_MEMLIM lowers
# it to prove that an incomplete search fails.
memlim=6144
[ "$stress" = 1 ] && memlim=10240
memlim=${ZEX_MODEL_MEMLIM:-$memlim}

# name | spin -D flags | kind (safety or liveness) | expect (pass or fail)
runs=(
	"safety|-DNSERVERS=2|safety|pass"
	"liveness|-DNSERVERS=1|liveness|pass"
	"device-sleeps-safety|-DDEVICE_SLEEPS -DNSERVERS=1|safety|pass"
	"device-sleeps-liveness|-DDEVICE_SLEEPS -DNSERVERS=1|liveness|pass"
	"recycling|-DCALLS=2 -DNSERVERS=2|safety|pass"
	"recycling-device-sleeps|-DDEVICE_SLEEPS -DCALLS=2 -DNSERVERS=1|safety|pass"
	"two-callers-per-slot|-DNSLOTS=1 -DNSERVERS=2|safety|pass"
	"two-callers-per-slot-recycling|-DNSLOTS=1 -DCALLS=2 -DNSERVERS=2|safety|pass"
	"no-doorbell-safety|-DNO_DOORBELL -DNSERVERS=2|safety|pass"
	"no-doorbell-liveness|-DNO_DOORBELL -DNSERVERS=1|liveness|pass"
	"small-calls-safety|-DNO_DOORBELL -DSMALL_CALLS -DNSERVERS=1|safety|pass"
	"small-calls-liveness|-DNO_DOORBELL -DSMALL_CALLS -DNCLIENTS=1 -DNSERVERS=1|liveness|pass"
	"MUTANT_PUBLISH_BEFORE_FILL|-DMUTANT_PUBLISH_BEFORE_FILL -DNSERVERS=1|safety|fail"
	"MUTANT_SUMMARY_BEFORE_REQUEST|-DMUTANT_SUMMARY_BEFORE_REQUEST -DNSERVERS=1|safety|fail"
	"MUTANT_SUMMARY_CLEARED_LATE|-DMUTANT_SUMMARY_CLEARED_LATE -DNSERVERS=1|safety|fail"
	"MUTANT_NO_REMARK|-DMUTANT_NO_REMARK -DNSLOTS=1 -DNSERVERS=2|safety|fail"
	"MUTANT_MIRROR_AFTER_FLAG|-DMUTANT_MIRROR_AFTER_FLAG -DNSLOTS=1 -DNSERVERS=1|safety|fail"
	"MUTANT_COLLECT_CHECK_BEFORE_TAKE|-DMUTANT_COLLECT_CHECK_BEFORE_TAKE -DNSERVERS=1|safety|fail"
	"MUTANT_NO_RECHECK|-DMUTANT_NO_RECHECK -DNSERVERS=1|safety|fail"
	"MUTANT_DEVICE_NO_RECHECK|-DMUTANT_DEVICE_NO_RECHECK -DDEVICE_SLEEPS -DNSERVERS=1|safety|fail"
	"MUTANT_OWN_SLOT_WAITS_FOR_VALUE|-DMUTANT_OWN_SLOT_WAITS_FOR_VALUE -DCALLS=2 -DNSLOTS=1 -DNSERVERS=1|safety|fail"
	"MUTANT_DELIVERY_NO_REARM|-DMUTANT_DELIVERY_NO_REARM -DDEVICE_SLEEPS -DCALLS=2 -DNSERVERS=1|safety|fail"
	"MUTANT_NO_FULL_PASS|-DMUTANT_NO_FULL_PASS -DNO_DOORBELL -DNSERVERS=1|liveness|fail"
	"MUTANT_SMALL_NO_TAG_CHECK|-DMUTANT_SMALL_NO_TAG_CHECK -DNO_DOORBELL -DSMALL_CALLS -DNSERVERS=1|safety|fail"
	"MUTANT_SMALL_ANSWER_OF_REREAD|-DMUTANT_SMALL_ANSWER_OF_REREAD -DNO_DOORBELL -DSMALL_CALLS -DNCLIENTS=1 -DNSERVERS=1|liveness|fail"
	"MUTANT_SMALL_UNFENCED_AFTER_PAGE|-DMUTANT_SMALL_UNFENCED_AFTER_PAGE -DNO_DOORBELL -DSMALL_CALLS -DNSERVERS=1|safety|fail"
)

# One run; writes "ok|what" or "not ok|what" to $dir/verdict.
check_one() {
	local name=$1 defs=$2 kind=$3 expect=$4 dir=$out/$1 cc run states ok what
	mkdir -p "$dir"
	# State compression (COLLAPSE) would halve the liveness search's
	# speed to save 15 % of its memory (4.7 GB without): only the safety
	# runs use it.
	if [ "$kind" = safety ]; then
		cc="-DSAFETY -DNOCLAIM -DCOLLAPSE" run="-m50000000"
	else
		cc="-DNFAIR=3" run="-a -f -m50000000 -w27 -N calls_complete"
	fi
	# A bound on memory, so that a search too big for the machine stops
	# (and fails as incomplete) instead of swapping.
	(cd "$dir" && cp "$model" . && spin -a $defs hostrpc.pml >/dev/null &&
	 gcc -O2 -w -DMEMLIM="$memlim" $cc -o pan pan.c &&
	 ./pan $run >run.log 2>&1) >"$dir/build.log" 2>&1
	states=$(grep -o '[0-9.e+]* states, stored' "$dir/run.log" 2>/dev/null)
	if [ "$expect" = pass ]; then
		# No error, and the search was exhaustive: a run that ran out of
		# memory or depth proves nothing about the states it never saw.
		grep -q "errors: 0" "$dir/run.log" 2>/dev/null &&
			! grep -q -E "max search depth too small|out of memory|reached -DMEMLIM|Search not completed" \
				"$dir/run.log"
		ok=$?
		what="model $name ($defs): no error in $states"
	else
		grep -q -E "errors: [1-9]" "$dir/run.log" 2>/dev/null
		ok=$?
		what="model mutant $name is caught ($(grep -o -m1 -E 'assertion violated[^(]*\([^)]*\)|invalid end state|acceptance cycle' "$dir/run.log" 2>/dev/null))"
	fi
	if [ $ok = 0 ]; then
		echo "ok|$what" >"$dir/verdict"
	else
		echo "not ok|$what" >"$dir/verdict"
	fi
}

# As many runs at once as there are CPUs, then the verdicts in order.
jobs=$(nproc)
for r in "${runs[@]}"; do
	IFS='|' read -r name defs kind expect <<<"$r"
	rm -f "$out/$name/verdict"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	check_one "$name" "$defs" "$kind" "$expect" &
done
wait

echo "1..${#runs[@]}"
for r in "${runs[@]}"; do
	IFS='|' read -r name defs kind expect <<<"$r"
	n=$((n + 1))
	IFS='|' read -r verdict what <"$out/$name/verdict" 2>/dev/null ||
		verdict="not ok" what="model $name: no verdict"
	echo "$verdict $n $what"
	if [ "$verdict" != ok ]; then
		tail -15 "$out/$name/run.log" "$out/$name/build.log" 2>/dev/null | sed 's/^/# /'
		failed=1
	fi
done
exit $failed
