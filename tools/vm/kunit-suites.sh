#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# DOC: kunit-suites.sh - the names of zex's KUnit suites (kmod/tests), one per line
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
sed -n 's/^[[:space:]]*\.name = "\(zex_[a-z_]*\)",$/\1/p' "$top"/kmod/tests/*.c
