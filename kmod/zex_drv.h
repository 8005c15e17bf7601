/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_drv.h - the zex device and what its parts share
 *
 * &struct zex_device is the emulated GPU: a DRM device on a platform device,
 * with one &struct zex_tile per tile. Everything an ioctl can reach lives
 * in it and is freed with the DRM device, after the last open file and the
 * last mapping are gone; the platform device and the tiles' auxiliary
 * devices may go away earlier (unplug), after which ioctls fail with
 * -ENODEV.
 */

#ifndef _ZEX_DRV_H_
#define _ZEX_DRV_H_

#include <linux/mutex.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/zex_drm.h>

#include "hostrpc/zex_hostrpc.h"
#include "tiles/zex_tile.h"
#include "common/zex_check.h"
#include "vm/zex_vm.h"
#include "zex_params.h"
#include "zex_topology.h"

#define ZEX_DRIVER_NAME		"zex"
#define ZEX_DRIVER_DESC		"Emulated multi-tile GPU"
#define ZEX_DRIVER_DATE		"20261121"
#define ZEX_DRIVER_MAJOR	0
#define ZEX_DRIVER_MINOR	1

/**
 * struct zex_device - one emulated multi-tile GPU
 * @drm: the DRM device; its lifetime is the zex_device's.
 * @topo: the fixed shape, from the module parameters at probe.
 * @tiles: the tiles, @topo.num_tiles of them in use.
 * @unplug_lock: serialises unplug between the parent's remove and a tile's.
 * @registered: the DRM device is registered and not yet unplugged.
 * @hostrpc: the hostrpc channels made on it, and their limits.
 * @vm_max_mappings: the most mappings of one file's address space.
 */
struct zex_device {
	struct drm_device drm;
	struct zex_topology topo;
	struct zex_tile tiles[DRM_ZEX_MAX_TILES];
	struct mutex unplug_lock; /* serialises the two unplug paths */
	bool registered;
	struct zex_hostrpc_device hostrpc;
	u32 vm_max_mappings;
};

/**
 * struct zex_file - what zex keeps per open DRM file
 * @vm: the file's device address space.
 */
struct zex_file {
	struct zex_vm vm;
};

static inline struct zex_device *to_zex_device(struct drm_device *drm)
{
	return container_of(drm, struct zex_device, drm);
}

/* /sys/kernel/debug/zex: created at load, removed at unload. */
extern struct dentry *zex_debugfs_root;

int zex_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file);
int zex_bo_info_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_DRV_H_ */
