/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_drm_node.h - open a DRM node by its driver's name (tests, benches)
 *
 * The one way the kselftests and the benchmarks find a device: libdrm's
 * drmGetDevices2(), as libzex and runtimes do, then each candidate's
 * driver name; when enumeration finds none (it reads sysfs and device
 * nodes a render-group user may not), the /dev/dri nodes by path, as
 * such a user would.
 */

#ifndef ZEX_DRM_NODE_H
#define ZEX_DRM_NODE_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

/* @fd when its driver is @driver; else closes it and gives -1. */
static inline int zex_drm_keep_if(int fd, const char *driver)
{
	drmVersionPtr v;
	int match;

	if (fd < 0)
		return -1;
	v = drmGetVersion(fd);
	match = v && !strcmp(v->name, driver);
	drmFreeVersion(v);
	if (match)
		return fd;
	close(fd);
	return -1;
}

/*
 * zex_drm_open - the first node of @type (DRM_NODE_RENDER or
 * DRM_NODE_PRIMARY) whose driver is @driver, opened read-write; -1 when
 * there is none. Each call opens a new file.
 */
static inline int zex_drm_open(const char *driver, int type)
{
	drmDevicePtr devs[64];
	char path[32];
	int n, i, fd = -1;

	n = drmGetDevices2(0, devs, 64);
	for (i = 0; i < n && fd < 0; i++)
		if (devs[i]->available_nodes & (1 << type))
			fd = zex_drm_keep_if(open(devs[i]->nodes[type], O_RDWR | O_CLOEXEC), driver);
	if (n > 0)
		drmFreeDevices(devs, n);
	for (i = 0; i < 64 && fd < 0; i++) {
		snprintf(path, sizeof(path), type == DRM_NODE_RENDER ? "/dev/dri/renderD%d" :
			 "/dev/dri/card%d", type == DRM_NODE_RENDER ? 128 + i : i);
		fd = zex_drm_keep_if(open(path, O_RDWR | O_CLOEXEC), driver);
	}
	return fd;
}

#endif /* ZEX_DRM_NODE_H */
