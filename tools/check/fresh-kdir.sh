#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: fresh-kdir.sh - the Makefile finds kernel headers that its deps step installs
#
# On a fresh Debian 12 the first `make run` installs the headers in its deps
# step, after make has read the Makefile; a KDIR resolved at parse time is
# empty then. This runs `make kdir` against an empty stand-in for
# /lib/modules with a deps step that "installs" headers into it, and checks
# that the targets see them: the newest line by default, the asked-for line
# with KVER, KDIR when given. TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ZEX_MODULES_ROOT=$tmp
unset KDIR KVER
install="mkdir -p $tmp/6.1.0-9-amd64/build $tmp/6.12.3+deb12-amd64/build $tmp/6.12.10+deb12-amd64/build"
n=0 failed=0

check() {
	local want=$1 what=$2 got
	shift 2
	got=$(make -s -C "$top" --no-print-directory DEPS="$install" "$@" kdir 2>&1)
	n=$((n + 1))
	if [ "$got" = "$want" ]; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		echo "#   want $want, got $got"
		failed=1
	fi
	rm -rf "${tmp:?}"/*
}

echo "1..4"
check "$tmp/6.12.10+deb12-amd64/build" "headers installed by deps are found (newest line)"
check "$tmp/6.1.0-9-amd64/build" "KVER=6.1 picks that line" KVER=6.1
check "$tmp/6.12.10+deb12-amd64/build" "KVER=6.12 picks the newest of that line" KVER=6.12
check "/somewhere/build" "KDIR wins" KDIR=/somewhere/build
exit $failed
