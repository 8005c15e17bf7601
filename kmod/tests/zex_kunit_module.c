// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_kunit_module.c - the zex_kunit module around zex's KUnit suites
 *
 * Each suite file registers itself with kunit_test_suite(); this file makes
 * them one module, which imports what zex exports for its tests
 * (common/zex_kunit_export.h). Loaded, it runs every suite once; built in,
 * the suites run at boot, which is how kunit.py runs them.
 */

#include <linux/module.h>

#include "../common/zex_compat.h"

MODULE_IMPORT_NS(ZEX_KUNIT_NAMESPACE);
MODULE_DESCRIPTION("KUnit suites of zex, the emulated multi-tile GPU");
MODULE_LICENSE("Dual MIT/GPL");
