#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: vm.sh - the test VM's front door
#
# Usage: vm.sh run | shell | bench | stress | fuzz | check-stock | check-conformance |
#        check-sysman | check-runtimes | check-debug
#
# run          boot the stock Debian kernel with zex loaded, run zex-info
# shell        the same VM, interactive (exit the shell to power off)
# bench        the benchmarks of tools/bench in that VM, printed as a table
# stress       the hostrpc kselftests at the seed's scale, the mirror race
#              50 times longer (long)
# fuzz         the fuzzer on the debug kernel with fault injection, 10^6
#              calls (ZEX_FUZZ_CALLS per process, two processes; ZEX_FUZZ_SEED)
# check-stock  kselftests on the stock kernel, in one VM: each row of the
#              parameter matrix in turn, judged by tools/check/results.py
# check-sysman level-zero-tests' Sysman binaries (tools/check/l0-sysman.txt),
#              as check-conformance runs the core ones
# check-conformance
#              level-zero-tests' conformance binaries (tools/check/l0-tests.sh)
#              on the stock kernel through loader 1.32.0, the cases
#              tools/check/l0-conformance.txt excludes (and its long cases)
#              left out, judged by tools/check/conformance.py; with
#              ZEX_CONFORMANCE_LONG=1 the long cases alone (make stress;
#              check-sysman too)
# check-runtimes
#              UCX (tools/check/ucx.sh) and zex_ucp_pingpong built against
#              it, zex_ucx_test in a VM of its own on the stock kernel, and
#              in the same VM Intel's compute-benchmarks
#              (tools/check/compute-benchmarks.sh): the cases
#              tools/check/compute-benchmarks-cases.txt runs, judged by
#              tools/check/compute-benchmarks-cases.py
# check-debug  build (or reuse) the debug kernel, build zex.ko and its KUnit
#              suites (zex_kunit.ko) against it, run the suites and the
#              kselftests, scan for leaks
#
# Expects `make all` to have run (zex.ko for KDIR, static tools and
# selftests under build/). KDIR names the stock kernel (default: the newest
# installed line, or line KVER); ZEX_KO the zex.ko built for it (default
# kmod/zex.ko). ZEX_PARAMS passes module parameters; ZEX_MATRIX picks
# check-stock's rows of tools/vm/param-matrix.txt: all (the default),
# default (the first), or a row's index from 0. Files are named after the
# kernel line, so runs on different lines may go at the same time. The
# debug modes take the line from KVER too (default 6.1).
set -euo pipefail

mode=${1:?usage: vm.sh run|shell|bench|stress|fuzz|check-stock|check-conformance|check-sysman|check-runtimes|check-debug}
top=$(cd "$(dirname "$0")/../.." && pwd)
O=${O:-$top/build}
vmdir=$top/tools/vm
results=$top/tools/check/results.py
params=${ZEX_PARAMS:-}
# The debug kernels (KASAN, lockdep, kmemleak) and level-zero-tests' two-
# process cases run jobs several times slower under TCG than the default
# 2 s job timeout allows when the host is busy: a long command list, and a
# job waiting for an event another process signals, both went past it. The
# VMs of those layers allow 8 s unless ZEX_PARAMS says otherwise.
slow_vm_params=job_timeout_ms=8000
mkdir -p "$O/vm"

# KDIR comes from the Makefile; the stock kernel is the one it belongs to.
kdir=${KDIR:-$("$top/tools/kernel-dir.sh" "${KVER:-}")}
zex_ko=${ZEX_KO:-$top/kmod/zex.ko}
case $kdir in
/lib/modules/*/build) release=$(basename "$(dirname "$kdir")") ;;
*) release=$(cat "$kdir/include/config/kernel.release") ;;
esac
stock_kernel=/boot/vmlinuz-$release
stock_moddir=/lib/modules/$release
# The kernel line (6.1, 6.12): it names the layers and the logs.
line=$(cut -d. -f1-2 <<<"$release")

# The kselftests as tools/kselftest-install.sh installed them.
stdir=$O/kselftest-install/drivers/gpu/zex
selftests=$(sed -n 's|^drivers/gpu/zex:||p' "$O/kselftest-install/kselftest-list.txt")

# The kselftests of the runtimes VM alone (selftest-scope.txt): every
# other VM leaves them out.
runtimes_only=$("$vmdir/selftest-scope.sh" runtimes)
selftests=$(tr ' ' '\n' <<<"$selftests" | grep -vxF "$runtimes_only" | tr '\n' ' ')
export ZEX_VM_LEAVE_OUT="$runtimes_only ${ZEX_VM_LEAVE_OUT:-}"

# Level Zero loader 1.32.0 beside Debian's: the Level Zero tests run under
# both (mkinitramfs.sh adds zex_l0_loader_test_1_32). Without the vendored
# archive l0-loader.sh says so and exits 4, except under CI=true (exit 1).
l0_rc=0
ZEX_L0_LOADER=$("$top/tools/check/l0-loader.sh") || l0_rc=$?
case $l0_rc in
0)
	export ZEX_L0_LOADER
	selftests="$selftests zex_l0_loader_test_1_32"
	;;
4) unset ZEX_L0_LOADER ;;
*) exit 1 ;;
esac

# stock_initrd MODE [NAME]: the initramfs for MODE, as build/vm/stock-NAME.
stock_initrd() {
	local name=${2:-$1}

	"$vmdir/mkinitramfs.sh" "$O/vm/stock-$name.cpio.gz" "$zex_ko" \
		"$stock_moddir" "$O/bin" "$stdir" "$1" "$params"
	echo "$O/vm/stock-$name.cpio.gz"
}

case $mode in
run)
	initrd=$(stock_initrd run)
	# 2 GiB: the compute engine's files unpack into the VM's / (zex-info loads it).
	"$vmdir/run-vm.sh" "$stock_kernel" "$initrd" 2048 300 "$O/vm/run.log"
	# Show what zex-info printed: the console between insmod and its rc.
	sed -n '/^@@ZEX insmod rc=/,/^@@ZEX zex-info rc=/p' "$O/vm/run.log" | grep -v '^@@ZEX'
	python3 "$results" vm "$O/vm/run.log" --layer run --mode run \
		--selftests $selftests >"$O/vm/run.verdict" || {
		cat "$O/vm/run.verdict"
		exit 1
	}
	;;
bench)
	# compute-benchmarks' API overhead cases too, where the archive is
	# vendored (tools/check/compute-benchmarks.sh; else they are left out).
	cb_rc=0
	cb=$("$top/tools/check/compute-benchmarks.sh") || cb_rc=$?
	[ $cb_rc = 0 ] && [ -n "${ZEX_L0_LOADER:-}" ] && export ZEX_COMPUTE_BENCHMARKS=$cb
	# UCX's perftest on a tile too, where UCX is vendored (tools/check/ucx.sh).
	ucx_rc=0
	ucx=$("$top/tools/check/ucx.sh") || ucx_rc=$?
	[ $ucx_rc = 0 ] && [ -n "${ZEX_L0_LOADER:-}" ] && export ZEX_UCX=$ucx
	initrd=$(stock_initrd bench)
	# Room for a pinned 1 GiB import beside everything else.
	"$vmdir/run-vm.sh" "$stock_kernel" "$initrd" 3072 600 "$O/vm/bench.log"
	python3 "$top/tools/bench/table.py" "$O/vm/bench.log"
	;;
shell)
	initrd=$(stock_initrd shell)
	exec "$vmdir/run-vm.sh" "$stock_kernel" "$initrd" 1024 --interactive
	;;
check-stock)
	# One VM per kernel: zex.ko loaded with each row of the matrix (or
	# just ZEX_PARAMS) in turn, every kselftest in each row.
	if [ -n "${ZEX_PARAMS:-}" ]; then
		sets=("$ZEX_PARAMS")
	else
		mapfile -t sets < <(grep -v '^#' "$vmdir/param-matrix.txt" | grep .)
		case ${ZEX_MATRIX:-all} in
		all) ;;
		default) sets=("${sets[0]}") ;;
		*) sets=("${sets[$ZEX_MATRIX]}") ;;
		esac
	fi
	params=$(printf '%s\n' "${sets[@]}")
	initrd=$(stock_initrd check "$line")
	# 2 GiB: the compute engine's files (PoCL, LLVM) unpack into the VM's /.
	"$vmdir/run-vm.sh" "$stock_kernel" "$initrd" 2048 900 "$O/vm/stock-$line.log"
	python3 "$results" vm "$O/vm/stock-$line.log" --layer "stock-kernel[$line]" \
		--row-layer "stock-kernel[$line-{row}]" --rows "${#sets[@]}" \
		--first-row-only $("$vmdir/selftest-scope.sh" first-row) \
		--selftests $selftests --bad-params "$vmdir/bad-params.txt"
	;;
stress)
	# The hostrpc kselftests at the largest scale TCG finishes in bounded
	# time: 1024 callers x 100 calls against 1, 2 and 4 servers, 10^5
	# calls between sleepers (the seed's full scale runs natively); the
	# mirror imports' host-versus-device race, 75000 copies.
	mkdir -p "$O/vm/stress-selftests"
	rm -f "$O/vm/stress-selftests"/*
	cp "$stdir/zex_libzex_hostrpc_test" "$stdir/zex_userptr_mirror_test" \
		"$O/vm/stress-selftests/"
	"$vmdir/mkinitramfs.sh" "$O/vm/stress.cpio.gz" "$zex_ko" \
		"$stock_moddir" "$O/bin" "$O/vm/stress-selftests" stress "$params"
	"$vmdir/run-vm.sh" "$stock_kernel" "$O/vm/stress.cpio.gz" 2048 5400 "$O/vm/stress.log"
	grep -E '^# .*(doorbell rings|reaped)' "$O/vm/stress.log" || true
	python3 "$results" vm "$O/vm/stress.log" --layer stress \
		--selftests zex_libzex_hostrpc_test zex_userptr_mirror_test
	;;
check-conformance | check-sysman)
	# With ZEX_CONFORMANCE_LONG=1: the list's long cases alone (make stress).
	layer=l0-conformance
	long=
	# The binaries took 1158 to 1509 s in make check on 2 busy cores;
	# 45 minutes keeps a margin and the whole check inside CI's 90.
	vm_limit=2700
	log=$O/vm/conformance.log
	list=$top/tools/check/l0-conformance.txt
	if [ "$mode" = check-sysman ]; then
		# The Sysman binaries: a few minutes.
		layer=l0-sysman
		vm_limit=1200
		log=$O/vm/sysman.log
		list=$top/tools/check/l0-sysman.txt
	fi
	if [ "${ZEX_CONFORMANCE_LONG:-0}" = 1 ]; then
		layer=$layer-long
		long=--long
		vm_limit=7200
		log=${log%.log}-long.log
	fi
	l0t_rc=0
	l0_tests=$("$top/tools/check/l0-tests.sh" "$list") || l0t_rc=$?
	if [ $l0t_rc = 4 ] || [ -z "${ZEX_L0_LOADER:-}" ]; then
		echo "SKIP [$layer] level-zero-tests or the loader not vendored here"
		echo "RESULT $layer passed=0 failed=0 skipped=1"
		exit 0
	fi
	[ $l0t_rc = 0 ] || { echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	plan=$(python3 "$top/tools/check/conformance.py" plan $long "$list") ||
		{ echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	mkdir -p "$O/vm/no-selftests"
	[ -n "${ZEX_PARAMS:-}" ] || params=$slow_vm_params
	# The binaries launch kernels: the compute engine's files go in, and
	# 3 GiB holds them beside the tests' allocations.
	ZEX_L0_TESTS=$l0_tests ZEX_CONFORMANCE_PLAN=$plan ZEX_VM_BAD_PARAMS=0 ZEX_VM_ABSENT=0 \
		ZEX_VM_COMPUTE=1 "$vmdir/mkinitramfs.sh" "$O/vm/$layer.cpio.gz" "$zex_ko" \
		"$stock_moddir" "$O/bin" "$O/vm/no-selftests" conformance "$params"
	"$vmdir/run-vm.sh" "$stock_kernel" "$O/vm/$layer.cpio.gz" 3072 $vm_limit "$log"
	rc=0
	python3 "$results" vm "$log" --layer $layer --mode conformance --no-absent || rc=1
	python3 "$top/tools/check/conformance.py" judge "$list" "$log" --layer $layer $long || rc=1
	exit $rc
	;;
check-runtimes)
	# UCX built from the vendored tree (tools/check/ucx.sh) and
	# zex_ucp_pingpong built against it: zex_ucx_test, alone, in one VM.
	layer=runtimes
	ucx_rc=0
	ucx=$("$top/tools/check/ucx.sh") || ucx_rc=$?
	if [ $ucx_rc = 4 ] || [ -z "${ZEX_L0_LOADER:-}" ]; then
		echo "SKIP [$layer] UCX or the loader not vendored here"
		echo "RESULT $layer passed=0 failed=0 skipped=1"
		exit 0
	fi
	[ $ucx_rc = 0 ] || { echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	cb_rc=0
	cb=$("$top/tools/check/compute-benchmarks.sh") || cb_rc=$?
	if [ $cb_rc = 4 ]; then
		echo "SKIP [$layer] compute-benchmarks not vendored here"
		echo "RESULT $layer passed=0 failed=0 skipped=1"
		exit 0
	fi
	[ $cb_rc = 0 ] || { echo "FAIL [$layer] compute-benchmarks do not build"
			    echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	cb_list=$top/tools/check/compute-benchmarks-cases.txt
	# With ZEX_CB_LONG=1: the list's long cases alone (make stress).
	cb_layer=compute-benchmarks
	cb_long=
	if [ "${ZEX_CB_LONG:-0}" = 1 ]; then
		cb_layer=compute-benchmarks-long
		cb_long=--long
	fi
	cb_plan=$(python3 "$top/tools/check/compute-benchmarks-cases.py" plan $cb_long "$cb_list") ||
		{ echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	rt=$O/vm/runtimes
	rm -rf "$rt"
	mkdir -p "$rt/selftests"
	cp "$stdir/zex_ucx_test" "$rt/selftests/"
	# UCX's headers warn under -Wextra: they are system headers here.
	cc -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror \
		-isystem "$ucx/include" -I"$ZEX_L0_LOADER/include" \
		"$top/selftests/runtimes/zex_ucp_pingpong.c" -o "$rt/zex_ucp_pingpong" \
		-L"$ucx/lib" -L"$ZEX_L0_LOADER/lib" -lucp -lucs -lze_loader ||
		{ echo "FAIL [$layer] zex_ucp_pingpong does not build"
		  echo "RESULT $layer passed=0 failed=1 skipped=0"; exit 1; }
	[ -n "${ZEX_PARAMS:-}" ] || params=$slow_vm_params
	# The benchmarks launch kernels: the compute engine's files go in.
	ZEX_UCX=$ucx ZEX_UCX_PROGRAMS=$rt/zex_ucp_pingpong ZEX_VM_LEAVE_OUT= ZEX_VM_BAD_PARAMS=0 \
		ZEX_VM_ABSENT=0 ZEX_COMPUTE_BENCHMARKS=$cb ZEX_CB_PLAN=$cb_plan ZEX_VM_COMPUTE=1 \
		"$vmdir/mkinitramfs.sh" "$O/vm/runtimes.cpio.gz" "$zex_ko" \
		"$stock_moddir" "$O/bin" "$rt/selftests" check "$params"
	# 3 GiB: two processes of UCX with their buffers and staging, or a
	# benchmark's two 256 MiB buffers and their copies.
	"$vmdir/run-vm.sh" "$stock_kernel" "$O/vm/runtimes.cpio.gz" 3072 \
		"$([ -n "$cb_long" ] && echo 7200 || echo 1800)" "$O/vm/runtimes.log"
	rc=0
	python3 "$results" vm "$O/vm/runtimes.log" --layer $layer --no-absent \
		--selftests zex_ucx_test || rc=1
	python3 "$top/tools/check/compute-benchmarks-cases.py" judge "$cb_list" \
		"$O/vm/runtimes.log" --layer $cb_layer $cb_long || rc=1
	exit $rc
	;;
check-debug | fuzz)
	dline=${KVER:-6.1}
	dbg=$("$vmdir/debug-kernel.sh" "$dline")
	src=$("$vmdir/linux-source.sh" "$dline")
	dlayer=debug-kernel-$dline
	# zex.ko and its KUnit suites (zex_kunit.ko), in a copy of the sources.
	if ! ko=$("$vmdir/kmod-build.sh" "$dbg" "$O/kmod-debug-$dline" ZEX_KUNIT=y); then
		echo "RESULT $dlayer passed=0 failed=1 skipped=0"
		exit 1
	fi
	if [ "$mode" = fuzz ]; then
		mkdir -p "$O/vm/fuzz-selftests"
		rm -f "$O/vm/fuzz-selftests"/*
		cp "$stdir/zex_fuzz_test" "$O/vm/fuzz-selftests/"
		# 10^6 calls in all; the debug kernel under TCG makes about 550
		# calls/s per process, steadily: about 15 minutes.
		export ZEX_FUZZ_CALLS=${ZEX_FUZZ_CALLS:-500000}
		export ZEX_TEST_TIMEOUT=${ZEX_TEST_TIMEOUT:-3600}
		ZEX_VM_BAD_PARAMS=0 "$vmdir/mkinitramfs.sh" "$O/vm/fuzz.cpio.gz" \
			"$ko" - "$O/bin" "$O/vm/fuzz-selftests" fuzz "$params"
		"$vmdir/run-vm.sh" "$dbg/arch/x86/boot/bzImage" "$O/vm/fuzz.cpio.gz" 2048 4000 \
			"$O/vm/fuzz.log"
		grep -E '^# (uid|.*seed)' "$O/vm/fuzz.log" || true
		python3 "$results" vm "$O/vm/fuzz.log" --layer fuzz \
			--selftests zex_fuzz_test --kmemleak
		exit
	fi
	# The kselftests whose subject is userspace alone run on the stock
	# kernels only (tools/vm/selftest-scope.txt says which and why).
	stock_only=$("$vmdir/selftest-scope.sh" stock)
	selftests=$(tr ' ' '\n' <<<"$selftests" | grep -vxF "$stock_only" | tr '\n' ' ')
	suites=$("$vmdir/kunit-suites.sh")
	[ -n "${ZEX_PARAMS:-}" ] || params=$slow_vm_params
	# The refused loads of bad-params.txt and the zex-absent runs are
	# checked on the stock kernels and left out here. The fuzzer
	# makes 5000 calls per process here (20000 on the stock kernels;
	# make fuzz runs 10^6 on this kernel).
	ZEX_VM_BAD_PARAMS=0 ZEX_VM_ABSENT=0 ZEX_FUZZ_CALLS=${ZEX_FUZZ_CALLS:-5000} \
		ZEX_VM_LEAVE_OUT="$stock_only $runtimes_only" "$vmdir/mkinitramfs.sh" "$O/vm/$dlayer.cpio.gz" \
		"$ko" - "$O/bin" "$stdir" check "$params"
	# 724 s alone on two cores (6.1), and over 900 s once in make check:
	# 25 minutes bounds a VM that hangs, with a margin for one beside it.
	"$vmdir/run-vm.sh" "$dbg/arch/x86/boot/bzImage" "$O/vm/$dlayer.cpio.gz" 1024 1500 \
		"$O/vm/$dlayer.log"
	python3 "$results" vm "$O/vm/$dlayer.log" --layer "$dlayer" --no-absent \
		--selftests $selftests --kunit-suites $suites \
		--kunit-py "$src/tools/testing/kunit/kunit.py" --kmemleak
	;;
*)
	echo "vm.sh: unknown mode $mode" >&2
	exit 2
	;;
esac
