#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: run-vm.sh - boot a kernel and initramfs in QEMU
#
# Usage: run-vm.sh KERNEL INITRD MEM_MB TIMEOUT_S LOG     (batch)
#        run-vm.sh KERNEL INITRD MEM_MB --interactive     (make vm)
#
# Uses KVM only when a probe boot under KVM reaches its marker (on PVM
# hosts /dev/kvm exists but a guest hangs); the verdict is cached per host
# kernel. Otherwise TCG. A batch run writes the console to LOG; QEMU's own
# exit code says nothing about the tests, the log does. A batch VM that
# dies before zex is loaded is booted again (below).
set -euo pipefail

kernel=$1 initrd=$2 mem=$3
here=$(cd "$(dirname "$0")" && pwd)
cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
mkdir -p "$cache"

qemu_base=(qemu-system-x86_64 -smp 2 -m "$mem" -nographic -no-reboot -nodefaults
	   -bios /usr/share/qemu/qboot.rom -kernel "$kernel" -initrd "$initrd")
cmdline="console=ttyS0 panic=-1 quiet log_buf_len=8M printk.time=1"

choose_accel() {
	local verdict=$cache/kvm-verdict-$(uname -r)
	if [ -n "${ZEX_VM_ACCEL:-}" ]; then echo "$ZEX_VM_ACCEL"; return; fi
	if [ ! -w /dev/kvm ]; then echo tcg; return; fi
	if [ ! -f "$verdict" ]; then
		local probe
		probe=$(mktemp -d)
		mkdir -p "$probe/root/bin"
		cp /bin/busybox "$probe/root/bin/"
		printf '#!/bin/busybox sh\necho ZEX-KVM-PROBE-OK\n/bin/busybox reboot -f\n' > "$probe/root/init"
		chmod 755 "$probe/root/init"
		(cd "$probe/root" && find . | cpio -o -H newc --quiet) > "$probe/initrd"
		if timeout 30 qemu-system-x86_64 -accel kvm -cpu host -m 256 -nographic -no-reboot \
			-nodefaults -serial stdio -monitor none -bios /usr/share/qemu/qboot.rom \
			-kernel "$kernel" -initrd "$probe/initrd" -append "console=ttyS0 panic=-1" \
			</dev/null 2>&1 | grep -q ZEX-KVM-PROBE-OK; then
			echo kvm > "$verdict"
		else
			echo tcg > "$verdict"
		fi
		rm -rf "$probe"
	fi
	cat "$verdict"
}

accel=$(choose_accel)
if [ "$accel" = kvm ]; then
	accel_args=(-accel kvm -cpu host)
else
	accel_args=(-accel tcg -cpu max)
	# TCG's TSC reads the host's clock, the same on every vCPU, but the
	# kernel's check that CPUs agree at bring-up can measure a warp when a
	# vCPU's thread is descheduled mid-check; it then drops the TSC, and a
	# kernel without ACPI (the debug kernels: no HPET, no ACPI PM timer)
	# is left with jiffies: every time it measures moves in 4 ms steps
	# (a short job's engine time read 0). The kernel's parameter for a
	# virtual machine whose TSC is known good keeps it.
	cmdline="$cmdline tsc=reliable"
fi

if [ "${4:-}" = --interactive ]; then
	exec "${qemu_base[@]}" "${accel_args[@]}" -serial mon:stdio -append "$cmdline"
fi

timeout_s=$4 log=$5
# A VM that dies before zex's code first runs died of something that is not
# zex: init.sh prints "@@ZEX zex-loading" before it first loads zex.ko, and
# every batch run ends with "@@ZEX end". Seen on busy hosts: an int3 oops in
# sched_clock_cpu (a static key half-patched under multi-threaded TCG) and
# "IO-APIC + timer doesn't work", both while the kernel boots. Such a VM is
# booted again, ZEX_VM_BOOT_TRIES times in all (default 3); each retry is
# reported here, with the line that says why, and its log is kept as
# LOG.died-N. A VM that dies after zex was loaded is the run's result, with
# one exception that is not zex either: the same TCG race at any time. A
# static key flipped while the tests run (the first memory cgroup turns on
# memcg_kmem_online_key, whose sites include kmem_cache_free) is patched
# through an int3 that another vCPU can still execute after the patch is
# done; the kernel then finds no patch in progress and oopses "int3". Its
# signature is exact: the oops's Code: line (the text as it is now) shows
# the byte before the trapping address, where the int3 was, as something
# else. A real stray int3 (a jump into padding) still reads cc, and counts.
tries=${ZEX_VM_BOOT_TRIES:-3}
died_before_zex() {
	! grep -q '^@@ZEX end' "$log" && ! grep -q '^@@ZEX zex-loading' "$log"
}
tcg_text_patch_race() {
	awk '/Oops: int3/ { int3 = 1; next }
	     int3 && /Code: / {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^</) { found = ($(i - 1) != "cc"); exit }
		exit
	     }
	     END { exit !found }' "$log"
}
# The line of a dead VM's log that best says why (or its last).
why_died() {
	grep -m1 -E 'Kernel panic|Oops|BUG:|doesn.t work' "$log" ||
		tail -n1 "$log"
}
for try in $(seq 1 "$tries"); do
	echo "vm: booting $(basename "$kernel") under $accel, timeout ${timeout_s}s" >&2
	start=$(date +%s)
	set +e
	timeout --foreground -k 5 "$timeout_s" "${qemu_base[@]}" "${accel_args[@]}" \
		-serial stdio -monitor none -append "$cmdline" </dev/null >"$log" 2>&1
	rc=$?
	set -e
	echo "vm: finished in $(( $(date +%s) - start ))s (qemu rc=$rc)" >&2
	[ "$rc" != 124 ] || echo "vm: timed out after ${timeout_s}s" >&2
	if died_before_zex; then
		why="died before zex was loaded"
	elif tcg_text_patch_race; then
		why="hit TCG's text-patching race (an int3 since patched away)"
	else
		break
	fi
	cp "$log" "$log.died-$try"
	if [ "$try" -lt "$tries" ]; then
		echo "RETRY [vm] boot $try of $tries $why, not a zex result:" \
			"$(why_died | tr -d '\r' | cut -c1-160) (log: $log.died-$try)" >&2
	else
		echo "vm: boot $try of $tries $why too: giving up" >&2
	fi
done
exit 0
