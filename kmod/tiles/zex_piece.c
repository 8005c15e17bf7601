// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_piece.c - pieces: create, export as dma-buf, recognise on import
 *
 * zex_piece_create() charges the tile first, so a piece that does not fit
 * fails with -ENOSPC before any memory is touched; the charge goes with
 * the piece's last reference (a buffer object, a dma-buf, a mapping).
 *
 * Pieces are exported with zex's own &dma_buf_ops, built from the DRM
 * PRIME helpers, so that an import can tell a zex piece from any other
 * dma-buf by its ops and take the piece itself: zero-copy, and the same
 * piece however often it is imported. To everyone else the dma-buf is an
 * ordinary one: attach, map, mmap and vmap go through the PRIME helpers.
 */

#include <linux/dma-buf.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <drm/drm_prime.h>
#include <drm/drm_vma_manager.h>

#include "../zex_drv.h"
#include "../zex_bo.h"
#include "zex_piece.h"

static void zex_piece_free(struct drm_gem_object *obj)
{
	struct zex_piece *piece = to_zex_piece(obj);

	if (piece->tile)
		zex_tile_mem_uncharge(&piece->tile->mem, obj->size);
	mutex_destroy(&piece->export_lock);
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
	WARN_ON_ONCE(drm_gem_shmem_get_pages(shmem));
	drm_gem_vm_open(vma);
}

static void zex_piece_vm_close(struct vm_area_struct *vma)
{
	drm_gem_shmem_put_pages(to_drm_gem_shmem_obj(vma->vm_private_data));
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

	piece = kzalloc(sizeof(*piece), GFP_KERNEL_ACCOUNT);
	if (!piece)
		return ERR_PTR(-ENOMEM);
	piece->base.base.funcs = &zex_piece_funcs;
	piece->base.map_wc = false;
	mutex_init(&piece->export_lock);
	return &piece->base.base;
}

/**
 * zex_piece_create - allocate a piece of @size bytes in @tile's memory
 * @zdev: the device.
 * @tile: the tile to charge.
 * @size: page-aligned size.
 *
 * Return: the piece, holding one reference; -ENOSPC when the tile is full,
 * -ENOMEM when the host cannot back it.
 */
struct zex_piece *zex_piece_create(struct zex_device *zdev, struct zex_tile *tile,
				   u64 size)
{
	struct drm_gem_shmem_object *shmem;
	struct zex_piece *piece;
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
	piece = container_of(shmem, struct zex_piece, base);
	piece->tile = tile;
	return piece;
}

static const struct dma_buf_ops zex_piece_dmabuf_ops = {
	.cache_sgt_mapping = true,
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = drm_gem_map_dma_buf,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = drm_gem_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
};

static struct dma_buf *zex_piece_new_dma_buf(struct zex_piece *piece, int flags)
{
	struct drm_gem_object *obj = &piece->base.base;
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);

	exp_info.ops = &zex_piece_dmabuf_ops;
	exp_info.size = obj->size;
	exp_info.flags = flags;
	exp_info.priv = obj;
	exp_info.resv = obj->resv;
	return drm_gem_dmabuf_export(obj->dev, &exp_info);
}

/**
 * zex_piece_export - the dma-buf that exports a piece
 * @piece: the piece, held by at least one buffer object.
 * @flags: O_RDWR or O_RDONLY.
 *
 * While a buffer object holds the piece, every export in one mode returns
 * the same dma-buf; the cache holds a reference of its own, dropped with
 * the last buffer object (zex_piece_bo_put()), which breaks the cycle
 * between the piece and its dma-buf.
 *
 * Return: a reference to the dma-buf, or an ERR_PTR.
 */
struct dma_buf *zex_piece_export(struct zex_piece *piece, int flags)
{
	unsigned int mode = (flags & O_ACCMODE) == O_RDWR;
	struct dma_buf *buf;

	mutex_lock(&piece->export_lock);
	buf = piece->exported[mode];
	if (!buf) {
		buf = zex_piece_new_dma_buf(piece, mode ? O_RDWR : O_RDONLY);
		if (IS_ERR(buf))
			goto out;
		piece->exported[mode] = buf;
	}
	get_dma_buf(buf);
out:
	mutex_unlock(&piece->export_lock);
	return buf;
}

/**
 * zex_piece_bo_get - a buffer object takes hold of @piece
 * @piece: the piece.
 */
void zex_piece_bo_get(struct zex_piece *piece)
{
	mutex_lock(&piece->export_lock);
	piece->bo_count++;
	mutex_unlock(&piece->export_lock);
}

/**
 * zex_piece_bo_put - a buffer object lets go of @piece
 * @piece: the piece.
 *
 * With the last one, the cached dma-bufs are released (fds that still
 * hold them keep them alive).
 */
void zex_piece_bo_put(struct zex_piece *piece)
{
	struct dma_buf *bufs[2] = {};

	mutex_lock(&piece->export_lock);
	if (!--piece->bo_count) {
		swap(bufs[0], piece->exported[0]);
		swap(bufs[1], piece->exported[1]);
	}
	mutex_unlock(&piece->export_lock);
	if (bufs[0])
		dma_buf_put(bufs[0]);
	if (bufs[1])
		dma_buf_put(bufs[1]);
}

/**
 * zex_piece_set_solo - record @bo as the one-piece object of @piece
 * @piece: the piece.
 * @bo: a linear buffer object whose only piece is @piece.
 */
void zex_piece_set_solo(struct zex_piece *piece, struct zex_bo *bo)
{
	mutex_lock(&piece->export_lock);
	piece->solo = bo;
	mutex_unlock(&piece->export_lock);
}

/**
 * zex_piece_forget_solo - @bo is being freed: forget it if it is recorded
 * @piece: the piece.
 * @bo: the buffer object being freed.
 */
void zex_piece_forget_solo(struct zex_piece *piece, struct zex_bo *bo)
{
	mutex_lock(&piece->export_lock);
	if (piece->solo == bo)
		piece->solo = NULL;
	mutex_unlock(&piece->export_lock);
}

/**
 * zex_piece_get_solo - the piece's live one-piece object, with a reference
 * @piece: the piece.
 *
 * Return: the object, or NULL when there is none or it is being freed.
 */
struct zex_bo *zex_piece_get_solo(struct zex_piece *piece)
{
	struct zex_bo *bo;

	mutex_lock(&piece->export_lock);
	bo = piece->solo;
	if (bo && !kref_get_unless_zero(&bo->base.refcount))
		bo = NULL;
	mutex_unlock(&piece->export_lock);
	return bo;
}

/**
 * zex_piece_from_dma_buf - the piece behind a dma-buf, if it is one of ours
 * @zdev: the importing device.
 * @dmabuf: any dma-buf.
 *
 * Return: the piece with a new reference, or ERR_PTR(-EXDEV) when the
 * dma-buf is not a piece of @zdev (another exporter, or another zex device
 * instance).
 */
struct zex_piece *zex_piece_from_dma_buf(struct zex_device *zdev,
					 struct dma_buf *dmabuf)
{
	struct drm_gem_object *obj;

	if (dmabuf->ops != &zex_piece_dmabuf_ops)
		return ERR_PTR(-EXDEV);
	obj = dmabuf->priv;
	if (obj->dev != &zdev->drm)
		return ERR_PTR(-EXDEV);
	drm_gem_object_get(obj);
	return to_zex_piece(obj);
}
