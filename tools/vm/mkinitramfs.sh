#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: mkinitramfs.sh - build the test VM's initramfs
#
# Usage: mkinitramfs.sh OUT ZEX_KO MODDIR BINDIR SELFTESTDIR MODE [PARAMS]
#
# OUT          the gzip'd cpio to write (an uncompressed one unpacks faster,
#              but 6.12 then once hit an int3 oops in early boot under
#              multi-threaded TCG: the timing of a known TCG text-patching
#              race)
# ZEX_KO       the zex.ko built for the kernel that will boot
# MODDIR       /lib/modules/<release> of that kernel, or "-" when zex's
#              dependencies are built in (the debug kernel)
# BINDIR       tools (zex-info) put on the VM's PATH
# SELFTESTDIR  kselftest programs, run in the order of their names;
#              zex_unplug_test (which unbinds the device) runs last. When
#              it is drivers/gpu/zex of a kselftest install
#              (tools/kselftest-install.sh), the whole install goes to
#              /opt/zex/kselftest and init.sh runs the first row of
#              parameters through its run_kselftest.sh
#
# Dynamic binaries (the Level Zero applications) get their shared
# libraries, found with ldd, at the host's paths; so do libzex.so (from
# ZEX_LIBDIR, default BINDIR/../lib, put in /opt/zex/lib) and the loader's
# validation layer, which the loader dlopens by name.
# With ZEX_L0_LOADER (an installed loader 1.32.0, tools/check/l0-loader.sh)
# its libraries (the null driver beside the loader, where it looks) go to
# /opt/level-zero-1.32.0/lib, and selftest zex_l0_loader_test_1_32 runs
# zex_l0_loader_test under it.
# With ZEX_L0_TESTS (level-zero-tests' binaries, tools/check/l0-tests.sh)
# they go to /opt/zex/l0-tests, and ZEX_CONFORMANCE_PLAN (the lines of
# tools/check/conformance.py plan) to /etc/zex/conformance.
# When the selftests include zex_libzex_kernel_test (or ZEX_VM_COMPUTE=1),
# the compute engine's files (compute-payload.sh, cached) are appended as
# a second archive, and PoCL's kernel cache is the VM's /tmp/pocl-cache.
# ZEX_VM_ENV ("VAR=VALUE ...") is exported to everything the VM runs: to
# debug a crash of a Level Zero application with a sanitizer's libzex
# (ZEX_LIBDIR), its runtime preloaded (LD_PRELOAD=.../libasan.so.8).
# MODE         check, run, bench, conformance or shell (see init.sh)
# PARAMS       zex module parameters, e.g. "tiles=4 tile_mem_mb=64"; in
#              check mode one set per line (a row of the parameter
#              matrix, "-" the defaults), each loaded in turn
set -euo pipefail

out=$1 zex_ko=$2 moddir=$3 bindir=$4 stdir=$5 mode=$6 params=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# mktemp makes it 0700; as the VM's / it must let unprivileged tests through.
chmod 755 "$root"

mkdir -p "$root"/{bin,dev,proc,sys,tmp,etc/zex,lib/modules/deps,opt/zex/bin,opt/zex/selftests}
cp /bin/busybox "$root/bin/busybox"
cp "$here/init.sh" "$root/init"
chmod 755 "$root/init"
cp "$zex_ko" "$root/lib/modules/zex.ko"
# zex's KUnit suites, where they were built beside it (the debug kernels).
kunit_ko=$(dirname "$zex_ko")/zex_kunit.ko
[ ! -f "$kunit_ko" ] || cp "$kunit_ko" "$root/lib/modules/zex_kunit.ko"

# Resolve zex's module dependencies through modules.dep, deepest first.
: > "$root/etc/zex/modules"
if [ "$moddir" != "-" ]; then
	declare -A seen=()
	add_dep() {
		local rel=$1 d
		[ -z "${seen[$rel]:-}" ] || return 0
		seen[$rel]=1
		for d in $(grep -E "^$rel:" "$moddir/modules.dep" | cut -d: -f2); do
			add_dep "$d"
		done
		cp "$moddir/$rel" "$root/lib/modules/deps/"
		basename "$rel" >> "$root/etc/zex/modules"
	}
	# zex's dependencies, then vgem (a second DRM driver for the dma-buf
	# tests and benchmarks), each after what it needs.
	for name in $(modinfo -F depends "$zex_ko" | tr ',' ' ') vgem; do
		rel=$(grep -E "/$name\.ko(\.[a-z]+)?:" "$moddir/modules.dep" | cut -d: -f1 || true)
		[ -n "$rel" ] || { echo "mkinitramfs: dependency $name not in $moddir" >&2; exit 1; }
		add_dep "$rel"
	done
fi

cp "$bindir"/* "$root/opt/zex/bin/" 2>/dev/null || true
ksft=$(cd "$stdir/../../.." && pwd)
if [ -f "$ksft/run_kselftest.sh" ] && [ "$stdir" -ef "$ksft/drivers/gpu/zex" ]; then
	rmdir "$root/opt/zex/selftests"
	cp -r "$ksft" "$root/opt/zex/kselftest"
	ln -s kselftest/drivers/gpu/zex "$root/opt/zex/selftests"
else
	find "$stdir" -maxdepth 1 -type f -exec cp -t "$root/opt/zex/selftests/" {} +
fi

# Shared libraries: libzex, the loader's layers, and every dynamic
# binary's ldd closure (with the dynamic linker) at the host's paths.
libdir=${ZEX_LIBDIR:-$bindir/../lib}
mkdir -p "$root/opt/zex/lib"
if [ -f "$libdir/libzex.so.0" ]; then
	cp -L "$libdir/libzex.so.0" "$root/opt/zex/lib/libzex.so.0"
fi
# The loader (zex-info --loader dlopens it) and its validation layer.
layers=$(ls /usr/lib/x86_64-linux-gnu/libze_{loader,validation_layer}.so.1 2>/dev/null || true)
if [ -n "${ZEX_L0_LOADER:-}" ]; then
	l0=/opt/level-zero-1.32.0/lib
	mkdir -p "$root$l0"
	cp -L "$ZEX_L0_LOADER"/lib/libze_{loader,validation_layer,tracing_layer,null}.so.1 "$root$l0/"
	layers="$layers $(ls "$root$l0"/*.so.1)"
	if [ -f "$root/opt/zex/selftests/zex_l0_loader_test" ]; then
		cat > "$root/opt/zex/selftests/zex_l0_loader_test_1_32" <<-EOF
		#!/bin/sh
		# zex_l0_loader_test under Level Zero loader 1.32.0
		LD_LIBRARY_PATH=$l0:\$LD_LIBRARY_PATH exec /opt/zex/selftests/zex_l0_loader_test "\$@"
		EOF
		chmod 755 "$root/opt/zex/selftests/zex_l0_loader_test_1_32"
	fi
fi
# With ZEX_UCX (an installed UCX with its Level Zero transports,
# tools/check/ucx.sh) it goes to /opt/ucx for zex_ucx_test, with the
# programs ZEX_UCX_PROGRAMS names (built against it) in its bin.
if [ -n "${ZEX_UCX:-}" ]; then
	mkdir -p "$root/opt/ucx"
	cp -r "$ZEX_UCX"/bin "$ZEX_UCX"/lib "$root/opt/ucx/"
	[ -z "${ZEX_UCX_PROGRAMS:-}" ] || cp $ZEX_UCX_PROGRAMS "$root/opt/ucx/bin/"
	rm -rf "$root"/opt/ucx/lib/{pkgconfig,cmake} "$root"/opt/ucx/lib/*.a "$root"/opt/ucx/lib/*.la \
		"$root"/opt/ucx/lib/ucx/*.a "$root"/opt/ucx/lib/ucx/*.la
fi
# With ZEX_COMPUTE_BENCHMARKS (tools/check/compute-benchmarks.sh's folder)
# its benchmarks and kernels go to /opt/zex/cb, and the cases of
# tools/bench/compute-benchmarks.txt to /etc/zex/cb-tests (make bench);
# with ZEX_CB_PLAN too, that plan (make check's cases,
# tools/check/compute-benchmarks-cases.py) to /etc/zex/cb-plan.
if [ -n "${ZEX_COMPUTE_BENCHMARKS:-}" ]; then
	mkdir -p "$root/opt/zex/cb"
	cp "$ZEX_COMPUTE_BENCHMARKS"/api_overhead_benchmark_l0 \
		"$ZEX_COMPUTE_BENCHMARKS"/memory_benchmark_l0 "$ZEX_COMPUTE_BENCHMARKS"/*.spv \
		"$root/opt/zex/cb/"
	cp "$here/../bench/compute-benchmarks.txt" "$root/etc/zex/cb-tests"
	[ -z "${ZEX_CB_PLAN:-}" ] || printf '%s\n' "$ZEX_CB_PLAN" > "$root/etc/zex/cb-plan"
fi
if [ -n "${ZEX_L0_TESTS:-}" ]; then
	mkdir -p "$root/opt/zex/l0-tests"
	cp -r "$ZEX_L0_TESTS"/* "$root/opt/zex/l0-tests/"
	printf '%s\n' "${ZEX_CONFORMANCE_PLAN:-}" > "$root/etc/zex/conformance"
fi
# ZEX_VM_LEAVE_OUT: kselftests this VM does not run.
for t in ${ZEX_VM_LEAVE_OUT:-}; do
	rm -f "$root/opt/zex/selftests/$t"
	[ ! -f "$root/opt/zex/kselftest/kselftest-list.txt" ] ||
		sed -i "\|^drivers/gpu/zex:$t\$|d" "$root/opt/zex/kselftest/kselftest-list.txt"
done
for elf in "$root"/opt/zex/{bin,selftests,lib,cb,l0-tests,l0-tests/*}/* "$root"/opt/ucx/{bin,lib,lib/ucx}/* \
	$layers; do
	ldd "$elf" >/dev/null 2>&1 || continue	# static, or not an ELF
	for lib in $elf $(ldd "$elf" | grep -oE '/[^ ]+'); do
		case $lib in "$root"/*) continue ;; esac
		[ -e "$root$lib" ] || cp -L --parents "$lib" "$root"
	done
done
# zex_unplug_test unbinds and rebinds the device: keep it last.
(cd "$root/opt/zex/selftests" && ls | grep -v -e '^zex_unplug_test$' -e '^config$' -e '^settings$' \
	-e '\.spv$' || true) \
	> "$root/etc/zex/selftests"
[ -f "$root/opt/zex/selftests/zex_unplug_test" ] && echo zex_unplug_test >> "$root/etc/zex/selftests"

# The kselftests that run in the first row of parameters only
# (selftest-scope.txt), and how many calls the fuzzer makes in the rows
# after it (ZEX_FUZZ_CALLS_LATER_ROWS, default 5000; the first row makes
# ZEX_FUZZ_CALLS, default 20000).
"$here/selftest-scope.sh" first-row > "$root/etc/zex/first-row-only"
# The runs with zex absent; ZEX_VM_ABSENT=0 leaves them out (the debug
# kernels: the stock kernels of both lines check them).
[ "${ZEX_VM_ABSENT:-1}" = 1 ] || : > "$root/etc/zex/no-absent"
# The refused loads of bad-params.txt; ZEX_VM_BAD_PARAMS=0 leaves them out
# (the debug kernels: the stock kernels of both lines check them).
if [ "${ZEX_VM_BAD_PARAMS:-1}" = 1 ]; then
	cp "$here/bad-params.txt" "$root/etc/zex/bad-params"
else
	: > "$root/etc/zex/bad-params"
fi
printf '%s\n' "${params:--}" > "$root/etc/zex/rows"
printf 'MODE=%s\nZEX_PARAMS="%s"\n' "$mode" "$(head -n1 "$root/etc/zex/rows" | sed 's/^-$//')" \
	> "$root/etc/zex/vm.conf"
# The long runs' sizes, seed and time limit, when the host sets them
# (make fuzz, make stress).
echo "export ZEX_FUZZ_CALLS_LATER_ROWS=${ZEX_FUZZ_CALLS_LATER_ROWS:-5000}" >> "$root/etc/zex/vm.conf"
for var in ZEX_FUZZ_CALLS ZEX_FUZZ_SEED ZEX_TEST_TIMEOUT ZEX_HOSTRPC_CALLERS ZEX_HOSTRPC_CALLS \
	ZEX_CONFORMANCE_TIMEOUT ZEX_CB_TIMEOUT; do
	[ -n "${!var:-}" ] && printf 'export %s=%s\n' "$var" "${!var}" >> "$root/etc/zex/vm.conf"
done

[ -z "${ZEX_VM_ENV:-}" ] || echo "export $ZEX_VM_ENV" >> "$root/etc/zex/vm.conf"
compute=${ZEX_VM_COMPUTE:-0}
[ ! -e "$root/opt/zex/selftests/zex_libzex_kernel_test" ] || compute=1
[ "$compute" = 0 ] || echo "export POCL_CACHE_DIR=/tmp/pocl-cache" >> "$root/etc/zex/vm.conf"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
[ "$compute" = 0 ] || cat "$("$here/compute-payload.sh")" >> "$out"
