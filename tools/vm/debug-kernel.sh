#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DOC: debug-kernel.sh - build, or reuse from the cache, the debug kernel
#
# Usage: debug-kernel.sh [LINE]   (6.1, the default, or 6.12)
#
# Builds Debian's linux-source-LINE with tools/vm/debug-kernel.config (the
# same fragment for both lines) on top of an
# x86_64 tinyconfig (KUnit, KASAN, lockdep, kmemleak, DEBUG_VM, DEBUG_LIST and
# fault injection). The build lives outside the checkout, in
# $ZEX_CACHE_DIR/debug-<key>, where <key> hashes the fragment, this script and
# the linux-source package version, so a fresh clone reuses it. Prints the
# build directory on stdout; zex.ko is built against it with KDIR=<that dir>.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${ZEX_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/zex}
fragment=$here/debug-kernel.config
jobs=${JOBS:-$(nproc)}

line=${1:-6.1}
src=$("$here/linux-source.sh" "$line")
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$line")
key=$( { cat "$fragment" "$0"; echo "$srcver"; } | sha256sum | cut -c1-16)
# 6.1's cache keeps its old name, so a warm cache stays warm.
out=$cache/debug-$key
[ "$line" = 6.1 ] || out=$cache/debug-$line-$key

log() { echo "debug-kernel: $*" >&2; }

if [ -f "$out/.zex-complete" ]; then
	log "reusing $out"
	echo "$out"
	exit 0
fi

mkdir -p "$out"
kmake() { make -s -C "$src" O="$out" ARCH=x86_64 "$@"; }

if [ ! -f "$out/.config" ] || ! cmp -s "$fragment" "$out/.zex-fragment"; then
	log "configuring $out"
	kmake tinyconfig >/dev/null
	kmake kvm_guest.config >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$fragment" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option the fragment asks for must have stuck: a hidden or
	# unmet dependency silently drops it otherwise.
	missing=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qx "$line" "$out/.config" || { log "option did not stick: $line"; missing=1; } ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=" "$out/.config"; then log "option not disabled: $opt"; missing=1; fi ;;
		esac
	done < "$fragment"
	# Hidden options zex selects, which the fragment reaches through others.
	for opt in CONFIG_AUXILIARY_BUS CONFIG_MMU_NOTIFIER CONFIG_HMM_MIRROR CONFIG_DRM_GEM_SHMEM_HELPER \
		CONFIG_DRM_SCHED; do
		grep -qx "$opt=y" "$out/.config" || { log "required option missing: $opt"; missing=1; }
	done
	[ "$missing" = 0 ] || exit 1
	cp "$fragment" "$out/.zex-fragment"
fi

cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	export CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
	ccache -M 8G >/dev/null
fi
log "building in $out with -j$jobs (about 9 minutes cold, 1 minute with a warm ccache)"
start=$(date +%s)
kmake -j"$jobs" CC="$cc" KCFLAGS=-Wno-error all >"$out/build.log" 2>&1 || {
	tail -40 "$out/build.log" >&2
	log "build failed; full log in $out/build.log"
	exit 1
}
log "built in $(( $(date +%s) - start )) s"
touch "$out/.zex-complete"
echo "$out"
