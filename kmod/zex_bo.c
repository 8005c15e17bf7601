// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo.c - creating, mapping and freeing buffer objects
 *
 * DRM_IOCTL_ZEX_BO_CREATE validates every field, charges the size to the
 * tile (so an allocation that does not fit fails with -ENOSPC before any
 * memory is touched), then creates the shmem object and its handle.
 * Backing pages are allocated on first access. DRM_IOCTL_ZEX_BO_MMAP_OFFSET
 * hands out the fake offset for mmap() on the DRM fd. The object is
 * released with DRM_IOCTL_GEM_CLOSE; the charge goes with the last
 * reference.
 */

#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "zex_bo.h"
#include "zex_drv.h"

static void zex_bo_free(struct drm_gem_object *obj)
{
	struct zex_bo *bo = to_zex_bo(obj);

	if (bo->tile)
		zex_tile_mem_uncharge(&bo->tile->mem, obj->size);
	drm_gem_shmem_free(&bo->base);
}

static const struct drm_gem_object_funcs zex_bo_funcs = {
	.free = zex_bo_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * zex_bo_create_object - &drm_driver.gem_create_object for zex
 * @drm: the DRM device.
 * @size: the object's size.
 *
 * Return: the new object's &drm_gem_object, or an ERR_PTR.
 */
struct drm_gem_object *zex_bo_create_object(struct drm_device *drm, size_t size)
{
	struct zex_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &zex_bo_funcs;
	bo->base.map_wc = false;
	return &bo->base.base;
}

static struct zex_bo *zex_bo_create(struct zex_device *zdev,
				    struct zex_tile *tile, u64 size)
{
	struct drm_gem_shmem_object *shmem;
	struct zex_bo *bo;
	int ret;

	ret = zex_tile_mem_charge(&tile->mem, size);
	if (ret) {
		drm_dbg(&zdev->drm, "tile %u cannot hold %llu more bytes\n",
			tile->id, size);
		return ERR_PTR(ret);
	}

	shmem = drm_gem_shmem_create(&zdev->drm, size);
	if (IS_ERR(shmem)) {
		zex_tile_mem_uncharge(&tile->mem, size);
		/*
		 * shmem reports a failed inode allocation as -ENOSPC; to
		 * userspace -ENOSPC means the tile is full, and the host
		 * failing to back the object is -ENOMEM.
		 */
		if (PTR_ERR(shmem) == -ENOSPC)
			return ERR_PTR(-ENOMEM);
		return ERR_CAST(shmem);
	}
	bo = container_of(shmem, struct zex_bo, base);
	bo->tile = tile;
	return bo;
}

int zex_bo_create_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_bo_create *args = data;
	struct zex_bo *bo;
	u64 size;
	int ret;

	if (zex_ioctl_check(zdev, args->extensions) ||
	    zex_ioctl_check(zdev, args->flags) ||
	    zex_ioctl_check(zdev, args->pad) ||
	    zex_ioctl_check(zdev, args->reserved[0] || args->reserved[1]))
		return -EINVAL;
	if (zex_ioctl_check(zdev, !args->size) ||
	    zex_ioctl_check(zdev, args->size > U64_MAX - (PAGE_SIZE - 1)) ||
	    zex_ioctl_check(zdev, args->placement >= zdev->topo.num_tiles))
		return -EINVAL;

	size = PAGE_ALIGN(args->size);
	bo = zex_bo_create(zdev, &zdev->tiles[args->placement], size);
	if (IS_ERR(bo))
		return PTR_ERR(bo);

	ret = drm_gem_handle_create(file, &bo->base.base, &args->handle);
	/* The handle holds the object now, or creating it failed. */
	drm_gem_object_put(&bo->base.base);
	if (ret)
		return ret;

	args->size = size;
	return 0;
}

int zex_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (zex_ioctl_check(zdev, args->flags) ||
	    zex_ioctl_check(zdev, args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (zex_ioctl_check(zdev, !obj))
		return -ENOENT;

	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}
