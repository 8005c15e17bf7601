// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_piece.c - pieces: shmem objects charged to a tile
 *
 * zex_piece_create() charges the tile first, so a piece that does not fit
 * fails with -ENOSPC before any memory is touched; the charge goes with
 * the piece's last reference (a buffer object, a dma-buf, a mapping).
 * Mapping a piece (through a dma-buf) faults its pages in by the mapping's
 * offset. Sharing pieces as dma-bufs is the IPC layer's (ipc/).
 */

#include <linux/dma-buf.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "../common/zex_compat.h"
#include "../common/zex_gfp.h"
#include "zex_piece.h"
#include "zex_tile.h"

static void zex_piece_free(struct drm_gem_object *obj)
{
	struct zex_piece *piece = to_zex_piece(obj);

	if (piece->tile)
		zex_tile_mem_uncharge(&piece->tile->mem, obj->size);
	mutex_destroy(&piece->share_lock);
	drm_gem_shmem_free(&piece->base);
}

/*
 * The shmem helper's fault handler in 6.1 ignores the mapping's page offset,
 * so a dma-buf mmap() at a non-zero offset would show the piece's first
 * pages. zex's pieces fault with the offset; mmap itself (page pinning,
 * flags) is still the helper's. Through the DRM fd, mappings start at the
 * object's fake offset; through a dma-buf, at that plus the page offset.
 */
static vm_fault_t zex_piece_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(vma->vm_private_data);
	/* vm_pgoff is the mapping's page offset plus the object's fake offset. */
	pgoff_t page = vma->vm_pgoff - drm_vma_node_start(&shmem->base.vma_node) +
		       ((vmf->address - vma->vm_start) >> PAGE_SHIFT);

	if (page >= shmem->base.size >> PAGE_SHIFT ||
	    WARN_ON_ONCE(!shmem->pages))
		return VM_FAULT_SIGBUS;
	return vmf_insert_pfn(vma, vmf->address, page_to_pfn(shmem->pages[page]));
}

static void zex_piece_vm_open(struct vm_area_struct *vma)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(vma->vm_private_data);

	/* A copy of a mapping whose pages are pinned: pin them again. */
	zex_shmem_pin_again(shmem);
	drm_gem_vm_open(vma);
}

static void zex_piece_vm_close(struct vm_area_struct *vma)
{
	drm_gem_shmem_unpin(to_drm_gem_shmem_obj(vma->vm_private_data));
	drm_gem_vm_close(vma);
}

static const struct vm_operations_struct zex_piece_vm_ops = {
	.fault = zex_piece_fault,
	.open = zex_piece_vm_open,
	.close = zex_piece_vm_close,
};

static const struct drm_gem_object_funcs zex_piece_funcs = {
	.free = zex_piece_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &zex_piece_vm_ops,
};

/**
 * zex_piece_create_object - &drm_driver.gem_create_object for zex
 * @drm: the DRM device.
 * @size: the object's size.
 *
 * Return: the new piece's &drm_gem_object, or an ERR_PTR.
 */
struct drm_gem_object *zex_piece_create_object(struct drm_device *drm, size_t size)
{
	struct zex_piece *piece;

	piece = kzalloc(sizeof(*piece), ZEX_GFP_USER);
	if (!piece)
		return ERR_PTR(-ENOMEM);
	piece->base.base.funcs = &zex_piece_funcs;
	piece->base.map_wc = false;
	mutex_init(&piece->share_lock);
	return &piece->base.base;
}

/**
 * zex_piece_create - allocate a piece of @size bytes in @tile's memory
 * @drm: the device.
 * @tile: the tile to charge.
 * @size: page-aligned size.
 *
 * Return: the piece, holding one reference; -ENOSPC when the tile is full,
 * -ENOMEM when the host cannot back it.
 */
struct zex_piece *zex_piece_create(struct drm_device *drm, struct zex_tile *tile,
				   u64 size)
{
	struct drm_gem_shmem_object *shmem;
	struct zex_piece *piece;
	int ret;

	ret = zex_tile_mem_charge(&tile->mem, size);
	if (ret) {
		drm_dbg(drm, "tile %u cannot hold %llu more bytes\n",
			tile->id, size);
		return ERR_PTR(ret);
	}

	shmem = drm_gem_shmem_create(drm, size);
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
	piece = container_of(shmem, struct zex_piece, base);
	piece->tile = tile;
	return piece;
}

/**
 * zex_piece_hold - a buffer object takes hold of @piece
 * @piece: the piece.
 */
void zex_piece_hold(struct zex_piece *piece)
{
	mutex_lock(&piece->share_lock);
	piece->holders++;
	mutex_unlock(&piece->share_lock);
}

/**
 * zex_piece_unhold - a buffer object lets go of @piece
 * @piece: the piece.
 * @holder: the buffer object's GEM object, forgotten if it is @piece's solo.
 *
 * With the last holder, the cached dma-bufs are released (fds that still
 * hold them keep them alive), which breaks the reference cycle between a
 * piece and the dma-bufs that export it.
 */
void zex_piece_unhold(struct zex_piece *piece, struct drm_gem_object *holder)
{
	struct dma_buf *bufs[2] = {};

	mutex_lock(&piece->share_lock);
	if (piece->solo == holder)
		piece->solo = NULL;
	if (!--piece->holders) {
		swap(bufs[0], piece->exported[0]);
		swap(bufs[1], piece->exported[1]);
	}
	mutex_unlock(&piece->share_lock);
	if (bufs[0])
		dma_buf_put(bufs[0]);
	if (bufs[1])
		dma_buf_put(bufs[1]);
}
