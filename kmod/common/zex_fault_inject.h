/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_fault_inject.h - fault injection of what the engines allocate
 *
 * The kernel's fail-nth fails the allocations of one task: it reaches
 * every ioctl, not what zex allocates in its own workers as jobs run (a
 * hardware fence, the split of a copy between tiles, a mirror's frame
 * list). Before each of those allocations zex asks
 * zex_engine_alloc_fails(), a standard fault attribute: with
 * CONFIG_FAULT_INJECTION_DEBUG_FS, debugfs ``zex/fail_engine_alloc``
 * (probability, interval, times, space, verbose, as for failslab).
 */

#ifndef _ZEX_FAULT_INJECT_H_
#define _ZEX_FAULT_INJECT_H_

#include <linux/types.h>

struct dentry;

#ifdef CONFIG_FAULT_INJECTION
bool zex_engine_alloc_fails(void);
void zex_fault_inject_debugfs(struct dentry *root);
#else
static inline bool zex_engine_alloc_fails(void)
{
	return false;
}

static inline void zex_fault_inject_debugfs(struct dentry *root)
{
}
#endif

#endif /* _ZEX_FAULT_INJECT_H_ */
