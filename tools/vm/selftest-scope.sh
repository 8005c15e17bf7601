#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: selftest-scope.sh - the kselftests of one scope of selftest-scope.txt
#
# Usage: selftest-scope.sh stock|first-row|runtimes
# Prints the names tools/vm/selftest-scope.txt gives that scope, one per
# line (for vm.sh, mkinitramfs.sh and, through vm.sh, results.py).
set -euo pipefail
awk -v scope="${1:?usage: selftest-scope.sh stock|first-row|runtimes}" \
	'!/^#/ { for (i = 2; i <= NF; i++) if ($i == scope) print $1 }' \
	"$(dirname "$0")/selftest-scope.txt"
