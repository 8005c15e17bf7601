// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo_ioctl.c - the buffer-object ioctls: create, mmap offset, info
 *
 * DRM_IOCTL_ZEX_BO_CREATE validates every field, colours the allocation
 * (zex_colour()) over the device's tiles, then creates one piece per
 * colour (tiles/) and builds the object from them (bo/); a piece that does
 * not fit its tile fails the whole create and every piece made so far is
 * released with the half-built object. DRM_IOCTL_ZEX_BO_MMAP_OFFSET gives
 * the fake offset to mmap() the object by; DRM_IOCTL_ZEX_BO_INFO reports
 * its pieces.
 */

#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>

#include "../common/zex_gfp.h"
#include "../device/zex_device.h"
#include "../tiles/zex_colour.h"
#include "../tiles/zex_piece.h"
#include "zex_bo.h"

static int zex_bo_check_colouring(struct zex_device *zdev,
				  const struct drm_zex_bo_create *args,
				  u32 *policy, u64 *granularity)
{
	struct drm_device *drm = &zdev->drm;
	u32 kb = args->multi_storage_granularity_kb;

	*policy = zdev->topo.multi_storage_policy;
	*granularity = zdev->topo.multi_storage_granularity;
	if (!(args->flags & DRM_ZEX_BO_CREATE_COLOURING)) {
		if (zex_ioctl_check(drm, args->multi_storage_policy || kb))
			return -EINVAL;
		return 0;
	}
	if (zex_ioctl_check(drm, args->placement != DRM_ZEX_DEVICE_ROOT) ||
	    zex_ioctl_check(drm, args->multi_storage_policy >
				  DRM_ZEX_MULTI_STORAGE_INTERLEAVE) ||
	    zex_ioctl_check(drm, kb < 64 || kb > SZ_1M || !is_power_of_2(kb)))
		return -EINVAL;
	*policy = args->multi_storage_policy;
	*granularity = (u64)kb * SZ_1K;
	return 0;
}

int zex_bo_create_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_bo_create *args = data;
	bool no_such_tile = args->placement != DRM_ZEX_DEVICE_ROOT &&
			    args->placement >= zdev->topo.num_tiles;
	struct zex_colour_piece *colours;
	struct zex_colouring shape;
	u32 policy, tiles, first_tile, i;
	struct zex_bo *bo;
	u64 granularity;
	int ret;

	if (zex_ioctl_check(drm, args->extensions) ||
	    zex_ioctl_check(drm, args->flags & ~DRM_ZEX_BO_CREATE_COLOURING) ||
	    zex_ioctl_check(drm, args->pad) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(drm, !args->size) ||
	    zex_ioctl_check(drm, no_such_tile))
		return -EINVAL;
	ret = zex_bo_check_colouring(zdev, args, &policy, &granularity);
	if (ret)
		return ret;

	/* Without implicit scaling the root device is tile 0. */
	if (args->placement == DRM_ZEX_DEVICE_ROOT && zdev->topo.implicit_scaling) {
		tiles = zdev->topo.num_tiles;
		first_tile = 0;
	} else {
		tiles = 1;
		first_tile = args->placement == DRM_ZEX_DEVICE_ROOT ? 0 : args->placement;
	}

	ret = zex_colour(args->size, tiles, policy, granularity, &shape, NULL,
			 DRM_ZEX_MAX_PIECES);
	if (zex_ioctl_check(drm, ret))
		return ret;
	colours = kvcalloc(shape.num_pieces, sizeof(*colours), ZEX_GFP_USER);
	if (!colours)
		return -ENOMEM;
	zex_colour(args->size, tiles, policy, granularity, &shape, colours,
		   shape.num_pieces);

	bo = zex_bo_alloc(drm, shape.num_pieces, shape.size, shape.interleaved,
			  shape.granularity, false);
	if (IS_ERR(bo)) {
		ret = PTR_ERR(bo);
		goto out_colours;
	}
	for (i = 0; i < shape.num_pieces; i++) {
		struct zex_piece *piece;

		piece = zex_piece_create(drm, &zdev->tiles[first_tile + colours[i].tile],
					 colours[i].size);
		if (IS_ERR(piece)) {
			ret = PTR_ERR(piece);
			goto out_bo;
		}
		zex_bo_add_piece(bo, piece);
	}

	if (bo->num_pieces == 1)
		zex_bo_set_solo(bo);
	ret = drm_gem_handle_create(file, &bo->base, &args->handle);
	if (!ret)
		args->size = shape.size;
out_bo:
	/* The handle holds the object now, or it goes with its pieces. */
	drm_gem_object_put(&bo->base);
out_colours:
	kvfree(colours);
	return ret;
}

int zex_bo_mmap_offset_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *file)
{
	struct drm_zex_bo_mmap_offset *args = data;
	struct zex_bo *bo;
	int ret;

	if (zex_ioctl_check(drm, args->flags) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	bo = zex_bo_lookup(file, args->handle);
	if (zex_ioctl_check(drm, !bo))
		return -ENOENT;

	ret = drm_gem_create_mmap_offset(&bo->base);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&bo->base.vma_node);
	drm_gem_object_put(&bo->base);
	return ret;
}

int zex_bo_info_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_bo_info *args = data;
	struct drm_zex_piece_info *info;
	struct zex_bo *bo;
	int ret = 0;
	u32 i;

	if (zex_ioctl_check(drm, args->flags) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	bo = zex_bo_lookup(file, args->handle);
	if (zex_ioctl_check(drm, !bo))
		return -ENOENT;

	args->layout = bo->interleaved ? DRM_ZEX_BO_INTERLEAVED : 0;
	args->granularity = bo->granularity;
	args->size = bo->base.size;
	if (!args->num_pieces)
		goto out;
	if (zex_ioctl_check(drm, args->num_pieces < bo->num_pieces)) {
		ret = -ENOSPC;
		goto out;
	}

	info = kvcalloc(bo->num_pieces, sizeof(*info), ZEX_GFP_USER);
	if (!info) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < bo->num_pieces; i++) {
		info[i].tile = bo->pieces[i].piece->tile->id;
		info[i].offset = bo->pieces[i].offset;
		info[i].size = bo->pieces[i].piece->base.base.size;
	}
	if (copy_to_user(u64_to_user_ptr(args->pieces), info,
			 array_size(bo->num_pieces, sizeof(*info))))
		ret = -EFAULT;
	kvfree(info);
out:
	if (!ret)
		args->num_pieces = bo->num_pieces;
	drm_gem_object_put(&bo->base);
	return ret;
}
