#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: vm-retry-test.sh - a VM that dies of something that is not zex is booted again, others are results
#
# Runs tools/vm/run-vm.sh against a stand-in for QEMU that plays back
# console logs, one per boot: a boot that panics before init prints
# "@@ZEX zex-loading", or oopses on an int3 that the kernel's text
# patching has since replaced (TCG's race), is retried (up to
# ZEX_VM_BOOT_TRIES) and reported with its reason; a boot that dies
# otherwise after it, or reaches "@@ZEX end", is the result. TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
# The stand-in: prints boot N's log (boots counted in $tmp/boots).
cat > "$tmp/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
n=$(( $(cat "$FAKE_DIR/boots" 2>/dev/null || echo 0) + 1 ))
echo $n > "$FAKE_DIR/boots"
cat "$FAKE_DIR/boot-$n" 2>/dev/null || cat "$FAKE_DIR/boot-last"
QEMU
chmod 755 "$tmp/bin/qemu-system-x86_64"
export PATH=$tmp/bin:$PATH FAKE_DIR=$tmp ZEX_VM_ACCEL=tcg ZEX_CACHE_DIR=$tmp/cache

panic_early='[    1.2] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[    1.3] Kernel panic - not syncing: Fatal exception in interrupt'
no_timer='[    0.9] Kernel panic - not syncing: IO-APIC + timer doesn'"'"'t work!'
good='@@ZEX start mode=check
@@ZEX zex-loading
@@ZEX insmod rc=0
@@ZEX end'
zex_oops='@@ZEX start mode=check
@@ZEX zex-loading
[   9.0] general protection fault, probably for non-canonical address
[   9.1] Modules linked in: zex(OE) drm_shmem_helper
[   9.2] Kernel panic - not syncing: Fatal exception'

# The oops of the stock 6.12 VM seen mid-run: the int3 at the first byte
# of a 2-byte jump-label site (66 90) already put back when it was reported.
int3_patched='@@ZEX start mode=check
@@ZEX zex-loading
@@ZEX insmod rc=0
[  18.1] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
[  18.1] RIP: 0010:kmem_cache_free+0x105/0x450
[  18.1] Code: 4c 0f 45 e8 66 <90> 4d 8b 45 38 49 83 f8 07
[  18.2] Kernel panic - not syncing: Fatal exception'
# The same oops where the int3 is still there: a jump into padding.
int3_real=${int3_patched//e8 66 <90>/e8 cc <90>}

n=0 failed=0
# run CASE_NAME WANT_BOOTS WANT_RETRY_LINES WANT_LAST_LOG_PATTERN BOOT-LOGS...
run() {
	local what=$1 want_boots=$2 want_retries=$3 want_log=$4 i=1 boots retries
	shift 4
	rm -f "$tmp"/boot-* "$tmp/boots" "$tmp/log"*
	for b in "$@"; do
		printf '%s\n' "$b" > "$tmp/boot-$i"
		i=$((i + 1))
	done
	cp "$tmp/boot-$((i - 1))" "$tmp/boot-last"
	"$top/tools/vm/run-vm.sh" kernel initrd 256 30 "$tmp/log" 2> "$tmp/stderr"
	boots=$(cat "$tmp/boots")
	retries=$(grep -c '^RETRY \[vm\] boot [0-9] of 3 .*, not a zex result' "$tmp/stderr")
	n=$((n + 1))
	if [ "$boots" = "$want_boots" ] && [ "$retries" = "$want_retries" ] &&
	   grep -q -- "$want_log" "$tmp/log"; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		echo "#   boots $boots (want $want_boots), retries $retries (want $want_retries)"
		sed 's/^/#   /' "$tmp/stderr"
		failed=1
	fi
}

echo "1..9"
run "a good boot is booted once" 1 0 '@@ZEX end' "$good"
run "an int3 panic before zex is loaded is booted again" 2 1 '@@ZEX end' "$panic_early" "$good"
run "IO-APIC timer panics twice: the third boot counts" 3 2 '@@ZEX end' \
	"$no_timer" "$no_timer" "$good"
run "three early deaths: the last log is the result" 3 2 "IO-APIC" \
	"$panic_early" "$panic_early" "$no_timer"
run "an oops after zex is loaded is the result, not retried" 1 0 'Modules linked in: zex' \
	"$zex_oops" "$good"
run "an int3 oops on since-patched text after zex is loaded is booted again" 2 1 '@@ZEX end' \
	"$int3_patched" "$good"
run "an int3 oops on an int3 still in the text is the result" 1 0 'e8 cc <90>' \
	"$int3_real" "$good"
# The reason is in the report, and the dead boot's log is kept.
run "the retry names why and keeps the log" 2 1 '@@ZEX end' "$no_timer" "$good"
n=$((n + 1))
if grep -q "IO-APIC + timer doesn't work" "$tmp/stderr" && grep -q 'IO-APIC' "$tmp/log.died-1"; then
	echo "ok $n the retry line names the panic; log.died-1 kept"
else
	echo "not ok $n the retry line names the panic; log.died-1 kept"
	failed=1
fi
exit $failed
