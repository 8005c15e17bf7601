/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_kunit_export.h - what zex exports to its KUnit suites
 *
 * The KUnit suites (tests/, the zex_kunit module) call functions that no
 * other module has any business calling. EXPORT_SYMBOL_FOR_ZEX_KUNIT()
 * exports such a function in the namespace EXPORTED_FOR_KUNIT_TESTING,
 * which the suites import, and only when the suites are built
 * (CONFIG_DRM_ZEX_KUNIT_TEST): the product zex.ko exports nothing.
 */

#ifndef _ZEX_KUNIT_EXPORT_H_
#define _ZEX_KUNIT_EXPORT_H_

#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/kconfig.h>

#include "zex_compat.h"

#if IS_ENABLED(CONFIG_DRM_ZEX_KUNIT_TEST)
#define EXPORT_SYMBOL_FOR_ZEX_KUNIT(sym) EXPORT_SYMBOL_NS_GPL(sym, ZEX_KUNIT_NAMESPACE)
#else
/* Nothing exported; the symbol must still exist in every build. */
#define EXPORT_SYMBOL_FOR_ZEX_KUNIT(sym) static_assert(__alignof__(&(sym)) != 0)
#endif

#endif /* _ZEX_KUNIT_EXPORT_H_ */
