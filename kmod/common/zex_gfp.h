/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_gfp.h - how zex allocates what a user's request costs
 *
 * Everything zex allocates on behalf of an open file (objects, tables,
 * command arrays, page-table levels, what a job allocates as it runs) is
 * charged to the memory cgroup of the task that asked, and at the cgroup's
 * memory.max the allocation fails, so the request ends with -ENOMEM,
 * rather than invoking the OOM killer: a user's request never kills its
 * own process, or another of its cgroup, to pay for zex's kernel memory.
 * That is __GFP_RETRY_MAYFAIL (reclaim is tried, then the allocation gives
 * up), as drivers use for allocations of a size the user chooses; the
 * failure is the user's, so it is not logged (__GFP_NOWARN).
 */

#ifndef _ZEX_GFP_H_
#define _ZEX_GFP_H_

#include <linux/gfp.h>

/* Charged to the caller's memory cgroup; fails at its limit, never OOM-kills. */
#define ZEX_GFP_USER	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

#endif /* _ZEX_GFP_H_ */
