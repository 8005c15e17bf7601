/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo.h - buffer objects
 *
 * A &struct zex_bo is a shmem-backed GEM object placed in one tile's
 * memory: its size is charged to the tile when it is created and
 * uncharged when the last reference (handle, mapping or dma-buf) goes.
 */

#ifndef _ZEX_BO_H_
#define _ZEX_BO_H_

#include <drm/drm_gem_shmem_helper.h>

struct zex_tile;

/**
 * struct zex_bo - a zex buffer object
 * @base: the shmem GEM object; must stay first (the shmem helpers free it
 *	with kfree() when creation fails half-way).
 * @tile: the tile charged for it, or NULL before the charge is made.
 */
struct zex_bo {
	struct drm_gem_shmem_object base;
	struct zex_tile *tile;
};

static inline struct zex_bo *to_zex_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct zex_bo, base);
}

struct drm_gem_object *zex_bo_create_object(struct drm_device *drm, size_t size);

#endif /* _ZEX_BO_H_ */
