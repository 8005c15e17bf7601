/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_mirror.h - userptr imports that mirror the host's mapping
 *
 * A mirror import pins nothing: an MMU interval notifier over its range
 * tells zex when the host unmaps, remaps, zaps, migrates or write-protects
 * any of it, and the device's PTEs of that part go stale at once. The next
 * copy-engine access to a stale page fills it again with hmm_range_fault()
 * — the page the host maps there now — or, when the host maps nothing the
 * import may use there, faults with %DRM_ZEX_FAULT_HOST_UNMAPPED.
 */

#ifndef _ZEX_MIRROR_H_
#define _ZEX_MIRROR_H_

#include <linux/types.h>

struct zex_mirror;
struct zex_vm;

#if IS_ENABLED(CONFIG_HMM_MIRROR)
int zex_mirror_create(struct zex_vm *vm, u64 addr, u64 npages, bool writable,
		      struct zex_mirror **out);
int zex_mirror_bind(struct zex_vm *vm, struct zex_mirror *m);
void zex_mirror_unbind(struct zex_vm *vm, struct zex_mirror *m);
void zex_mirror_free(struct zex_mirror *m);
size_t zex_mirror_bytes(struct zex_mirror *m);
int zex_mirror_populate(struct zex_vm *vm, u64 va, u64 len, u64 *fail_va);
#else
static inline int zex_mirror_create(struct zex_vm *vm, u64 addr, u64 npages, bool writable,
				    struct zex_mirror **out)
{
	return -EOPNOTSUPP;
}

static inline int zex_mirror_bind(struct zex_vm *vm, struct zex_mirror *m)
{
	return -EOPNOTSUPP;
}

static inline void zex_mirror_unbind(struct zex_vm *vm, struct zex_mirror *m)
{
}

static inline void zex_mirror_free(struct zex_mirror *m)
{
}

static inline size_t zex_mirror_bytes(struct zex_mirror *m)
{
	return 0;
}

static inline int zex_mirror_populate(struct zex_vm *vm, u64 va, u64 len, u64 *fail_va)
{
	return 0;
}
#endif

#endif /* _ZEX_MIRROR_H_ */
