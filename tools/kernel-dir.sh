#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kernel-dir.sh - the build directory of an installed Debian kernel line
#
# Usage: kernel-dir.sh [LINE]
#
# Prints /lib/modules/<release>/build for the newest installed release of
# LINE (6.1 or 6.12, Debian 12's two lines: 6.1.0-N-amd64 and
# 6.12.N+deb12-amd64), or of the newest line installed when LINE is empty.
# Prints nothing and exits 1 when there is none. Asked at run time, never
# when a Makefile is parsed: on a fresh machine the headers arrive with the
# deps step, after the Makefile was read. ZEX_MODULES_ROOT stands in for
# /lib/modules (tests).
set -euo pipefail

line=${1:-}
root=${ZEX_MODULES_ROOT:-/lib/modules}
dirs=()
for d in "$root"/*-amd64/build; do
	[ -d "$d" ] || continue
	release=$(basename "$(dirname "$d")")
	case $release in
	*-rt-amd64 | *-cloud-amd64) continue ;;
	esac
	# The line is major.minor: 6.1 is not a prefix match of 6.12.
	[ -z "$line" ] || [ "$(cut -d. -f1-2 <<<"$release")" = "$line" ] || continue
	dirs+=("$d")
done
[ ${#dirs[@]} -gt 0 ] || exit 1
printf '%s\n' "${dirs[@]}" | sort -V | tail -n1
