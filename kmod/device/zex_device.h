/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_device.h - the zex device and file types every room reaches them by
 *
 * &struct zex_device is the emulated GPU: a DRM device on a platform device,
 * with one &struct zex_tile per tile. Everything an ioctl can reach lives
 * in it and is freed with the DRM device, after the last open file and the
 * last mapping are gone; the platform device and the tiles' auxiliary
 * devices may go away earlier (unplug), after which ioctls fail with
 * -ENODEV. &struct zex_file is what zex keeps per open DRM file: each room
 * owns its part of it (an address space for vm/, exec queues for exec/) and names it here by
 * pointer only, so this header sits below the rooms whose ioctls use it.
 * The module itself (zex_drv.c) is above every room.
 */

#ifndef _ZEX_DEVICE_H_
#define _ZEX_DEVICE_H_

#include <linux/mutex.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/zex_drm.h>

#include "../common/zex_check.h"
#include "../hostrpc/zex_hostrpc.h"
#include "../tiles/zex_tile.h"
#include "zex_topology.h"

struct zex_exec_device;
struct zex_exec_file;
struct zex_vm;

/**
 * struct zex_exec_limits - the execution module parameters, fixed at probe
 * @max_queues: exec queues one file may have.
 * @max_jobs: unfinished jobs one queue may have.
 * @max_lr_queues: long-running exec queues one file may have.
 * @job_timeout_ms: how long a job may run.
 */
struct zex_exec_limits {
	u32 max_queues;
	u32 max_jobs;
	u32 max_lr_queues;
	u32 job_timeout_ms;
};

/**
 * struct zex_device - one emulated multi-tile GPU
 * @drm: the DRM device; its lifetime is the zex_device's.
 * @topo: the fixed shape, from the module parameters at probe.
 * @tiles: the tiles, @topo.num_tiles of them in use.
 * @unplug_lock: serialises unplug between the parent's remove and a tile's.
 * @registered: the DRM device is registered and not yet unplugged.
 * @hostrpc: the hostrpc channels made on it, and their limits.
 * @vm_max_mappings: the most mappings of one file's address space.
 * @exec_limits: the execution limits.
 * @exec: the engines' schedulers and workers (exec/).
 */
struct zex_device {
	struct drm_device drm;
	struct zex_topology topo;
	struct zex_tile tiles[DRM_ZEX_MAX_TILES];
	struct mutex unplug_lock; /* serialises the two unplug paths */
	bool registered;
	struct zex_hostrpc_device hostrpc;
	u32 vm_max_mappings;
	struct zex_exec_limits exec_limits;
	struct zex_exec_device *exec;
};

/**
 * struct zex_file - what zex keeps per open DRM file
 * @vm: the file's device address space (vm/), made at open, let go at close.
 * @exec: the file's exec queues (exec/).
 * @client_id: its drm-client-id in fdinfo (usage/): the DRM core's where
 *	the kernel has one, else zex's own, unique among zex's files.
 */
struct zex_file {
	struct zex_vm *vm;
	struct zex_exec_file *exec;
	u64 client_id;
};

static inline struct zex_device *to_zex_device(struct drm_device *drm)
{
	return container_of(drm, struct zex_device, drm);
}

static inline struct zex_file *to_zex_file(struct drm_file *file)
{
	return file->driver_priv;
}

/* zex_query.c */
int zex_query_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_DEVICE_H_ */
