// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_query.c - DRM_IOCTL_ZEX_QUERY
 *
 * Each query builds its whole answer in a kernel buffer, then copies it out
 * in one go, so a too-small or faulting user buffer leaves no partial
 * answer behind. The size protocol is described at &struct drm_zex_query.
 */

#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/uaccess.h>

#include "../common/zex_gfp.h"
#include "zex_device.h"

static size_t zex_query_device_size(struct zex_device *zdev)
{
	return sizeof(struct drm_zex_query_device);
}

static void zex_query_device_fill(struct zex_device *zdev, void *buf)
{
	struct drm_zex_query_device *dev = buf;
	const struct zex_topology *topo = &zdev->topo;

	dev->num_tiles = topo->num_tiles;
	dev->flags = topo->implicit_scaling ? DRM_ZEX_DEVICE_IMPLICIT_SCALING : 0;
	dev->multi_storage_policy = topo->multi_storage_policy;
	dev->multi_storage_granularity = topo->multi_storage_granularity;
	dev->total_mem_size = topo->tile_mem_size * topo->num_tiles;
	dev->timestamp_frequency = NSEC_PER_SEC;
	dev->job_timeout_ms = zdev->exec_limits.job_timeout_ms;
	dev->max_exec_queues = zdev->exec_limits.max_queues;
	dev->max_jobs_in_flight = zdev->exec_limits.max_jobs;
	dev->max_lr_exec_queues = zdev->exec_limits.max_lr_queues;
}

static size_t zex_query_tiles_size(struct zex_device *zdev)
{
	return struct_size((struct drm_zex_query_tiles *)NULL, tiles,
			   zdev->topo.num_tiles);
}

static void zex_query_tiles_fill(struct zex_device *zdev, void *buf)
{
	struct drm_zex_query_tiles *q = buf;
	u32 i;

	q->num_tiles = zdev->topo.num_tiles;
	for (i = 0; i < q->num_tiles; i++) {
		struct drm_zex_tile_info *info = &q->tiles[i];
		struct zex_tile_mem_usage usage;

		zex_tile_mem_usage(&zdev->tiles[i].mem, &usage);
		info->id = i;
		info->num_compute_engines = ZEX_TILE_COMPUTE_ENGINES;
		info->num_copy_engines = ZEX_TILE_COPY_ENGINES;
		info->mem_size = usage.size;
		info->mem_used = usage.used;
		info->num_bos = usage.num_bos;
	}
}

static size_t zex_query_engines_size(struct zex_device *zdev)
{
	return struct_size((struct drm_zex_query_engines *)NULL, engines,
			   zex_topology_engines(&zdev->topo, NULL, 0));
}

static void zex_query_engines_fill(struct zex_device *zdev, void *buf)
{
	struct drm_zex_query_engines *q = buf;
	u32 n = zex_topology_engines(&zdev->topo, NULL, 0);

	q->num_engines = zex_topology_engines(&zdev->topo, q->engines, n);
}

struct zex_query_ops {
	size_t (*size)(struct zex_device *zdev);
	void (*fill)(struct zex_device *zdev, void *buf);
};

static const struct zex_query_ops zex_queries[] = {
	[DRM_ZEX_QUERY_DEVICE] = { zex_query_device_size, zex_query_device_fill },
	[DRM_ZEX_QUERY_TILES] = { zex_query_tiles_size, zex_query_tiles_fill },
	[DRM_ZEX_QUERY_ENGINES] = { zex_query_engines_size, zex_query_engines_fill },
};

int zex_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_query *q = data;
	const struct zex_query_ops *ops;
	size_t size;
	void *buf;
	int ret = 0;

	if (zex_ioctl_check(drm, q->extensions) ||
	    zex_ioctl_check(drm, q->flags) ||
	    zex_ioctl_check(drm, q->pad) ||
	    zex_ioctl_check(drm, q->reserved[0] || q->reserved[1]) ||
	    zex_ioctl_check(drm, q->query >= ARRAY_SIZE(zex_queries)))
		return -EINVAL;

	ops = &zex_queries[array_index_nospec(q->query, ARRAY_SIZE(zex_queries))];
	size = ops->size(zdev);
	if (!q->size) {
		q->size = size;
		return 0;
	}
	if (zex_ioctl_check(drm, q->size < size))
		return -ENOSPC;

	buf = kzalloc(size, ZEX_GFP_USER);
	if (!buf)
		return -ENOMEM;
	ops->fill(zdev, buf);
	if (copy_to_user(u64_to_user_ptr(q->data), buf, size))
		ret = -EFAULT;
	else
		q->size = size;
	kfree(buf);
	return ret;
}
