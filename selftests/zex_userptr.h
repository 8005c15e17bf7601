/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_userptr.h - what the userptr kselftests share
 *
 * An import, a release and a copy-engine copy with errno captured (the
 * copy also says where and why it faulted), this process's locked memory,
 * and a number from the debugfs dump of this process's newest address
 * space.
 */

#ifndef ZEX_USERPTR_H
#define ZEX_USERPTR_H

#include <glob.h>

#include "zex_selftest.h"

#define PG	4096ul
#define HUGE_PG	(2ul << 20)

static inline int import(int fd, const void *addr, size_t size, uint32_t flags, uint32_t *id)
{
	struct drm_zex_userptr_import im = {
		.addr = (uintptr_t)addr, .size = size, .flags = flags,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im);

	if (!ret && id)
		*id = im.id;
	return ret;
}

static inline int release(int fd, uint32_t id)
{
	struct drm_zex_vm_unbind r = { .id = id };

	return zex_ioctl(fd, DRM_IOCTL_ZEX_VM_UNBIND, &r);
}

/* Device copy; on a fault *reason and *addr say what the engine saw. */
static inline int dev_copy(int fd, const void *src, void *dst, size_t len, uint32_t *reason,
			   uint64_t *addr)
{
	struct drm_zex_copy c = {
		.src = (uintptr_t)src, .dst = (uintptr_t)dst, .len = len,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_COPY, &c);

	if (reason)
		*reason = c.fault_reason;
	if (addr)
		*addr = c.fault_addr;
	return ret;
}

static inline long long vm_locked_kb(void)
{
	char line[128];
	long long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * The number after @key (e.g. "2 MiB leaves: ") in the debugfs dump of
 * this process's newest address space; -1 when there is none.
 */
static inline long long vm_debugfs(const char *key)
{
	char pattern[64], line[256];
	long long v = -1;
	glob_t g;
	FILE *f;

	snprintf(pattern, sizeof(pattern), "/sys/kernel/debug/zex/vm-%d-*", getpid());
	if (glob(pattern, 0, NULL, &g) || !g.gl_pathc)
		return -1;
	f = fopen(g.gl_pathv[g.gl_pathc - 1], "r");
	globfree(&g);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			v = atoll(line + strlen(key));
			break;
		}
	if (f)
		fclose(f);
	return v;
}

#endif /* ZEX_USERPTR_H */
