// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: device.c - find, open and query the zex device
 *
 * Discovery goes through libdrm's drmGetDevices2(), as a runtime's does:
 * the first render node whose kernel driver is "zex" is the device. The
 * topology comes from three DRM_IOCTL_ZEX_QUERY calls, each sized first.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "core/topology.h"

struct zex_device {
	int fd;
	char node[PATH_MAX];
};

#define ZEX_MAX_DRM_DEVICES	64

static int zex_open_if_zex(const char *node)
{
	drmVersionPtr ver;
	int fd = open(node, O_RDWR | O_CLOEXEC);
	int is_zex;

	if (fd < 0)
		return -errno;
	ver = drmGetVersion(fd);
	is_zex = ver && !strcmp(ver->name, "zex");
	drmFreeVersion(ver);
	if (!is_zex) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

/**
 * zex_device_open - open the first zex render node
 * @out: the device, to be closed with zex_device_close().
 *
 * Return: 0, -ENODEV when no zex device exists, or another -errno.
 */
int zex_device_open(struct zex_device **out)
{
	drmDevicePtr devs[ZEX_MAX_DRM_DEVICES];
	struct zex_device *dev;
	int n, i, fd = -ENODEV;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;

	n = drmGetDevices2(0, devs, ZEX_MAX_DRM_DEVICES);
	for (i = 0; i < n && fd < 0; i++) {
		if (!(devs[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		fd = zex_open_if_zex(devs[i]->nodes[DRM_NODE_RENDER]);
		if (fd >= 0)
			strncpy(dev->node, devs[i]->nodes[DRM_NODE_RENDER],
				sizeof(dev->node) - 1);
	}
	if (n > 0)
		drmFreeDevices(devs, n);
	if (fd < 0) {
		free(dev);
		return fd == -ENODEV || n <= 0 ? -ENODEV : fd;
	}
	dev->fd = fd;
	*out = dev;
	return 0;
}

void zex_device_close(struct zex_device *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

int zex_device_fd(const struct zex_device *dev)
{
	return dev->fd;
}

const char *zex_device_node(const struct zex_device *dev)
{
	return dev->node;
}

/* One query, sized by the kernel first; *buf is malloc'd. */
static int zex_query(int fd, uint32_t id, void **buf, size_t *size)
{
	struct drm_zex_query q = { .query = id };
	void *p;

	if (drmIoctl(fd, DRM_IOCTL_ZEX_QUERY, &q))
		return -errno;
	p = calloc(1, q.size);
	if (!p)
		return -ENOMEM;
	q.data = (uintptr_t)p;
	if (drmIoctl(fd, DRM_IOCTL_ZEX_QUERY, &q)) {
		int err = -errno;

		free(p);
		return err;
	}
	*buf = p;
	*size = q.size;
	return 0;
}

/**
 * zex_device_query_topology - read the device's shape and memory use now
 * @dev: the device.
 * @topo: filled in; its size set by the caller, on return the bytes filled.
 *
 * Return: 0 or -errno (-EINVAL for a size smaller than this libzex's
 * struct, -EPROTO for an answer that does not parse).
 */
int zex_device_query_topology(struct zex_device *dev, struct zex_topology *topo)
{
	void *d = NULL, *t = NULL, *e = NULL;
	size_t ds = 0, ts = 0, es = 0;
	struct zex_topology all;
	int ret;

	if (!topo || topo->size < sizeof(all))
		return -EINVAL;
	ret = zex_query(dev->fd, DRM_ZEX_QUERY_DEVICE, &d, &ds);
	if (!ret)
		ret = zex_query(dev->fd, DRM_ZEX_QUERY_TILES, &t, &ts);
	if (!ret)
		ret = zex_query(dev->fd, DRM_ZEX_QUERY_ENGINES, &e, &es);
	if (!ret)
		ret = zex_topology_parse(&all, d, ds, t, ts, e, es);
	if (!ret) {
		/* A caller built against a later libzex has room for more. */
		memcpy(topo, &all, sizeof(all));
		topo->size = (uint32_t)sizeof(all);
	}
	free(d);
	free(t);
	free(e);
	return ret;
}
