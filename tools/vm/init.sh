#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: init.sh - /init of the zex test VM
#
# Mounts the pseudo filesystems, loads zex's dependencies, checks that every
# kselftest skips cleanly while zex is absent and that invalid parameters
# are refused, then does what /etc/zex/vm.conf asks (MODE=check: for each
# row of module parameters in /etc/zex/rows, load zex.ko, run every
# kselftest, unload; run: zex-info (the device, the loader's view, two samples of --top); bench: the benchmarks; conformance:
# level-zero-tests; shell: an interactive shell), scans
# for leaks and dumps the kernel log. Every fact the host needs is one line starting with
# "@@ZEX " on the console; the host parses them (tools/check/results.py).
# The test binaries write to files that are printed afterwards, so kernel
# messages never interleave with their output.

/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/opt/zex/bin
# The Level Zero applications' libraries (mkinitramfs.sh put them at the
# host's paths; there is no ld.so.cache) and where libzex is.
export LD_LIBRARY_PATH=/opt/zex/lib:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu
export ZEX_LIBZEX=/opt/zex/lib/libzex.so.0
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
# What udev would add: the kselftest runner writes the programs' output
# to /dev/stdout.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /tmp
# POSIX shared memory and named semaphores (shm_open, sem_open) live here.
mkdir -p /dev/shm
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# Loopback: the tests that run a server and a client (UCX's perftest) meet
# on 127.0.0.1.
ip link set lo up 2>/dev/null

# The first memory cgroup turns memcg_kmem_online_key on (kmem_cache_free is
# one of its sites), patching kernel text: under multi-threaded TCG that can
# oops a vCPU running the site (tools/vm/run-vm.sh). It is done here, while
# nothing else runs and before zex, not by the first test that makes one.
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null &&
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
	mkdir /sys/fs/cgroup/zex-vm-boot && rmdir /sys/fs/cgroup/zex-vm-boot

MODE=check
ZEX_PARAMS=
. /etc/zex/vm.conf

mark() { echo "@@ZEX $*"; }
mark "start mode=$MODE kernel=$(uname -r)"

leak=/sys/kernel/debug/kmemleak
if [ -w $leak ]; then
	# Forget what boot itself left behind; report only what follows.
	echo scan > $leak
	echo clear > $leak
fi

while read -r dep; do
	[ -n "$dep" ] || continue
	insmod "/lib/modules/deps/$dep" || mark "fail insmod-dependency $dep"
done < /etc/zex/modules

selftests=$(cat /etc/zex/selftests)

# With zex absent every kselftest must skip (exit 4), not fail or pass
# (left out where /etc/zex/no-absent says so).
[ -f /etc/zex/no-absent ] || for t in $selftests; do
	/opt/zex/selftests/$t > /tmp/absent.out 2>&1
	mark "absent $t rc=$?"
done

# From here on zex's code runs: a VM that dies before this line died of
# something else (tools/vm/run-vm.sh boots it again).
mark "zex-loading"

# Invalid parameters must refuse the load and name themselves in the log.
grep -v '^#' /etc/zex/bad-params | while read -r bad; do
	[ -n "$bad" ] || continue
	name=${bad%%=*}
	before=$(dmesg | grep -c "zex: invalid module parameter $name:")
	insmod /lib/modules/zex.ko "$bad" 2>/dev/null
	rc=$?
	after=$(dmesg | grep -c "zex: invalid module parameter $name:")
	mark "badparam $bad rc=$rc logged=$((after - before))"
done

# load PARAMS: load zex.ko for the tests.
load() {
	# shellcheck disable=SC2086
	insmod /lib/modules/zex.ko $1
	mark "insmod rc=$?"
}

# kunit: zex's KUnit suites (zex_kunit.ko, where the VM carries it) run
# once, as the module loads; their KTAP is in the dmesg dump below, after
# the line that marks this load.
kunit() {
	[ -f /lib/modules/zex_kunit.ko ] || return 0
	echo "zex-vm: loading zex_kunit.ko" > /dev/kmsg
	insmod /lib/modules/zex_kunit.ko
	mark "kunit-insmod rc=$?"
	rmmod zex_kunit
	mark "kunit-rmmod rc=$?"
}

unload() {
	rmmod zex
	mark "rmmod rc=$?"
}

# run_selftests [LATER]: every kselftest; with LATER (a row after the
# first) not those that run in the first row only, and the fuzzer makes
# fewer calls. Where the VM carries the kselftest install, the first row
# runs what it lists through the kernel's runner (its TAP between
# ksft-runner marks), and the rest as any other row does.
runner=/opt/zex/kselftest/run_kselftest.sh
# runner_progress: a mark for each program the runner starts, with the
# time, as it starts: the runner's output is printed whole when it ends,
# so a VM stopped inside it says where, and how long each program took.
runner_progress() {
	seen=0
	while :; do
		grep '^# selftests: ' /tmp/kselftest.out | sed -n "$((seen + 1)),\$p" > /tmp/ksft-new
		while IFS= read -r l; do
			mark "ksft-runner-start $(date +%s) ${l#\# selftests: }"
			seen=$((seen + 1))
		done < /tmp/ksft-new
		sleep 2
	done
}
run_selftests() {
	listed=
	if [ -z "${1:-}" ] && [ -x $runner ]; then
		mark "ksft-runner-begin"
		# Appending: the runner reopens /dev/stdout for the programs'
		# output, and a second description that does not append would
		# write over it.
		: > /tmp/kselftest.out
		runner_progress &
		progress=$!
		$runner -c drivers/gpu/zex >> /tmp/kselftest.out 2>&1
		kill $progress
		cat /tmp/kselftest.out
		mark "ksft-runner-end"
		listed=$(sed -n 's|^drivers/gpu/zex:||p' /opt/zex/kselftest/kselftest-list.txt)
	fi
	for t in $selftests; do
		if [ -n "${1:-}" ] && grep -qx "$t" /etc/zex/first-row-only; then
			continue
		fi
		if echo "$listed" | grep -qx "$t"; then
			continue
		fi
		mark "kselftest-begin $t"
		t0=$(date +%s)
		if [ "$MODE" = check ]; then
			/opt/zex/selftests/$t > /tmp/kselftest.out 2>&1
			rc=$?
			cat /tmp/kselftest.out
		else
			# Long runs show their progress as it comes.
			/opt/zex/selftests/$t 2>&1
			rc=$?
		fi
		mark "kselftest-end $t rc=$rc secs=$(($(date +%s) - t0))"
	done
}

# compute_benchmarks PARAMS: Intel's compute-benchmarks, where the VM
# carries them with a plan (/etc/zex/cb-plan, lines "BENCHMARK TEST
# [^ARGUMENT...]": tools/check/compute-benchmarks-cases.py): each
# benchmark's list of its cases (--noop), then per test each case run
# once (each test bounded by ZEX_CB_TIMEOUT seconds, default 300), the
# excluded arguments filtered out, zex reloaded with 1 GiB tiles (the
# largest cases run allocate 1 GiB of one device) and then as before.
compute_benchmarks() {
	[ -f /etc/zex/cb-plan ] || return 0
	rmmod zex
	load "$1 tile_mem_mb=1024"
	# A subshell: the loader's settings end with it.
	(
	cd /opt/zex/cb || exit
	# Through loader 1.32.0, libzex its only driver.
	export LD_LIBRARY_PATH=/opt/level-zero-1.32.0/lib:$LD_LIBRARY_PATH
	export ZE_ENABLE_ALT_DRIVERS=$ZEX_LIBZEX
	for bench in $(cut -d' ' -f1 /etc/zex/cb-plan | sort -u); do
		mark "cb-cases $bench"
		./${bench}_l0 --api=l0 --noop --noHeaders --csv 2>&1
		mark "cb-cases-end $bench"
	done
	while read -r bench test filters <&3; do
		[ -n "$test" ] || continue
		# One --argFilter, its filters separated by spaces (the
		# benchmark takes the option once).
		set --
		[ -z "$filters" ] || set -- --argFilter="$filters"
		mark "cb-begin $bench $test"
		t0=$(date +%s)
		{
			timeout "${ZEX_CB_TIMEOUT:-300}" ./${bench}_l0 --api=l0 --testFilter="$test" "$@" \
				--iterations=1 --warmupIterations=0 --noProgressBar --csv \
				--noHeaders --printAllResults --dumpErrorsImmediately=1 2>&1
			echo $? > /tmp/cb.rc
		} | grep -v '^DEVELOPER_WARNING'
		mark "cb-end $bench $test rc=$(cat /tmp/cb.rc) secs=$(($(date +%s) - t0))"
	done 3< /etc/zex/cb-plan
	)
	rmmod zex
	load "$1"
}

case $MODE in
check | stress | fuzz)
	# Every row of /etc/zex/rows (module parameters, "-" the defaults):
	# zex.ko loaded with them, every kselftest, zex.ko unloaded; the KUnit
	# suites in the first row.
	# stress: the kselftests at the seed's scale (ZEX_STRESS=1); fuzz:
	# the fuzzer alone, long (ZEX_FUZZ_CALLS from the host).
	[ "$MODE" = check ] || export ZEX_STRESS=1
	later=
	while read -r params <&3; do
		[ -n "$params" ] || continue
		[ "$params" = - ] && params=
		tag=$(echo "${params:-default}" | tr ' =' '_-')
		mark "row-begin $tag"
		load "$params"
		[ -n "$later" ] || kunit
		run_selftests $later
		[ -n "$later" ] || compute_benchmarks "$params"
		unload
		mark "row-end $tag"
		later=later
		export ZEX_FUZZ_CALLS=$ZEX_FUZZ_CALLS_LATER_ROWS
	done 3< /etc/zex/rows
	;;
run)
	load "$ZEX_PARAMS"
	zex-info && zex-info --loader && zex-info --top 0.5 2
	mark "zex-info rc=$?"
	unload
	;;
bench)
	# Each N with zex reloaded to have N tiles, vgem (the floor) alongside.
	load "$ZEX_PARAMS"
	for n in 1 2 4 8; do
		rmmod zex
		insmod /lib/modules/zex.ko tiles=$n tile_mem_mb=64
		zex-bench-ipc $n 200
		mark "bench ipc n=$n rc=$?"
	done
	zex-bench-userptr 1024
	mark "bench userptr rc=$?"
	# Exec queues with the default shape (2 tiles of 256 MiB).
	rmmod zex
	insmod /lib/modules/zex.ko $ZEX_PARAMS
	zex-bench-exec
	mark "bench exec rc=$?"
	zex-bench-hostrpc 20000
	mark "bench hostrpc rc=$?"
	zex-bench-l0 200000
	mark "bench l0 rc=$?"
	zex-bench-l0-exec 2000
	mark "bench l0-exec rc=$?"
	zex-bench-kernel 200
	mark "bench kernel rc=$?"
	# compute-benchmarks' api_overhead cases (/etc/zex/cb-tests), where the
	# VM carries them: libzex alone, beside the null driver (DDI handles),
	# and beside it with the loader's interception.
	if [ -x /opt/zex/cb/api_overhead_benchmark_l0 ]; then
		cd /opt/zex/cb
		grep -v '^#' /etc/zex/cb-tests | while read -r args; do
			[ -n "$args" ] || continue
			for cfg in alone null intercept; do
				case $cfg in
				alone) env=; driver=0 ;;
				null) env=ZE_ENABLE_NULL_DRIVER=1; driver=1 ;;
				intercept) env="ZE_ENABLE_NULL_DRIVER=1 ZE_ENABLE_LOADER_INTERCEPT=1"; driver=1 ;;
				esac
				# shellcheck disable=SC2086
				median=$(env LD_LIBRARY_PATH=/opt/level-zero-1.32.0/lib:$LD_LIBRARY_PATH \
					ZE_ENABLE_ALT_DRIVERS=$ZEX_LIBZEX $env ./api_overhead_benchmark_l0 $args \
					--l0DriverIndex=$driver --iterations=30 --warmupIterations=3 \
					--noProgressBar --csv --noHeaders </dev/null 2>/dev/null |
					awk -F, '$1 ~ /\(api=l0/ { print $3 }')
				echo "BENCH cb cfg=$cfg median_us=${median:-none} case=${args#--test=}"
			done
		done
		cd /
	fi
	# UCX's perftest between two processes on a tile (FLAT: the tiles are
	# the devices), where the VM carries UCX (tools/check/ucx.sh): 4 MiB
	# messages of device memory (ze_ipc: the client's copy engine reads or
	# writes the server's buffer through its IPC handle), and as the floor
	# the same test over host memory (UCX's shared-memory transports). Not
	# like for like: both move the bytes with one copy, but through
	# different paths. "via" says whether ze_ipc carried the device test.
	if [ -x /opt/ucx/bin/ucx_perftest ]; then
		port=14000
		for test in tag_bw ucp_put_bw; do
			for mem in ze-device host; do
				port=$((port + 1))
				listen=$(printf ':%04X ' $port)
				# shellcheck disable=SC2086
				set -- env LD_LIBRARY_PATH=/opt/ucx/lib:/opt/level-zero-1.32.0/lib:$LD_LIBRARY_PATH \
					ZE_ENABLE_ALT_DRIVERS=$ZEX_LIBZEX ZE_FLAT_DEVICE_HIERARCHY=FLAT \
					UCX_TLS=sm,ze_copy,ze_ipc,tcp UCX_PROTO_INFO=y \
					UCX_WARN_UNUSED_ENV_VARS=n /opt/ucx/bin/ucx_perftest
				"$@" -p $port >/tmp/ucx-server.out 2>&1 &
				spid=$!
				while ! grep -q "$listen.* 0A " /proc/net/tcp && kill -0 $spid 2>/dev/null; do
					sleep 1
				done
				"$@" 127.0.0.1 -p $port -t $test -m $mem -s 4194304 -n 50 -w 5 \
					>/tmp/ucx-client.out 2>&1
				wait $spid
				mbps=$(awk '$1 == "Final:" { print $7 }' /tmp/ucx-client.out)
				via=other
				grep -q '| ze_ipc/' /tmp/ucx-client.out && via=ze_ipc
				echo "BENCH ucx test=$test memory=$mem size_mib=4 mbps=${mbps:-none} via=$via"
			done
		done
	fi
	unload
	;;
conformance)
	# level-zero-tests' binaries, each line of /etc/zex/conformance
	# ("NAME FILTER [HIERARCHY]", FILTER the excluded cases or "-", or
	# "+CASES" to run only those: the long ones of make stress, or those
	# run again under ZE_FLAT_DEVICE_HIERARCHY=HIERARCHY, marked
	# "NAME@HIERARCHY"), through loader
	# 1.32.0 with libzex its only driver; how many cases the exclusions
	# match, then the run (gtest's output without the suite's info log,
	# streamed),
	# each binary bounded by ZEX_CONFORMANCE_TIMEOUT seconds.
	load "$ZEX_PARAMS"
	export LD_LIBRARY_PATH=/opt/level-zero-1.32.0/lib:$LD_LIBRARY_PATH
	export ZE_ENABLE_ALT_DRIVERS=/opt/zex/lib/libzex.so.0
	while read -r name filter hierarchy <&3; do
		[ -n "$name" ] || continue
		label=$name${hierarchy:+@$hierarchy}
		mark "conformance-begin $label"
		cd /opt/zex/l0-tests
		only=
		n=0
		if [ "${filter#+}" != "$filter" ]; then
			# The long cases alone (make stress): a positive filter.
			only=--gtest_filter=${filter#+}
		elif [ "$filter" != - ]; then
			n=$(./$name --gtest_list_tests --gtest_filter="$filter" 2>/dev/null | grep -c '^  ')
			only=--gtest_filter=-$filter
		fi
		mark "conformance-excluded $label $n"
		t0=$(date +%s)
		# Streamed, so that a case which hangs shows where.
		{
			env ${hierarchy:+ZE_FLAT_DEVICE_HIERARCHY=$hierarchy} \
				timeout "${ZEX_CONFORMANCE_TIMEOUT:-600}" ./$name $only 2>&1
			echo $? > /tmp/conformance.rc
		} | grep -v '^\[[-0-9 :]*\] \[info\]'
		rc=$(cat /tmp/conformance.rc)
		mark "conformance-end $label rc=$rc secs=$(($(date +%s) - t0))"
		cd /
	done 3< /etc/zex/conformance
	unload
	;;
shell)
	load "$ZEX_PARAMS"
	echo "zex VM: zex.ko loaded, tools in /opt/zex/bin, selftests in /opt/zex/selftests."
	echo "Exit the shell to unload zex and power off."
	setsid cttyhack sh -l
	unload
	;;
esac

if [ -w $leak ]; then
	# kmemleak ignores objects younger than 5 s, and the first scan that
	# sees an object only records its checksum: age them, scan twice.
	sleep 6
	echo scan > $leak
	echo scan > $leak
	mark "kmemleak-begin"
	cat $leak
	mark "kmemleak-end"
fi

mark "taint $(cat /proc/sys/kernel/tainted)"
mark "dmesg-begin"
dmesg
mark "dmesg-end"
mark "end"
sync
reboot -f
