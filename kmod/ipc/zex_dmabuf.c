// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_dmabuf.c - pieces as dma-bufs: export, recognise
 *
 * Pieces are exported with zex's own &dma_buf_ops, built from the DRM
 * PRIME helpers, so that an import can tell a zex piece from any other
 * dma-buf by its ops and take the piece itself: zero-copy, and the same
 * piece however often it is imported. To everyone else the dma-buf is an
 * ordinary one: attach, map and vmap go through the PRIME helpers, mmap
 * through the piece's own GEM mmap.
 *
 * The dma-buf of each mode is cached on the piece while buffer objects hold
 * it. A one-piece import returns the piece's one-piece buffer object
 * ("solo", zex_bo_get_solo()) instead of a new object.
 */

#include <linux/dma-buf.h>
#include <linux/fcntl.h>

#include <drm/drm_prime.h>

#include "../tiles/zex_piece.h"
#include "zex_dmabuf.h"

/* mmap() of a piece's dma-buf maps the piece, through its GEM mmap. */
static int zex_dmabuf_mmap(struct dma_buf *buf, struct vm_area_struct *vma)
{
	return drm_gem_prime_mmap(buf->priv, vma);
}

static const struct dma_buf_ops zex_dmabuf_ops = {
	.cache_sgt_mapping = true,
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = drm_gem_map_dma_buf,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = zex_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
};

static struct dma_buf *zex_piece_new_dma_buf(struct zex_piece *piece, int flags)
{
	struct drm_gem_object *obj = &piece->base.base;
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);

	exp_info.ops = &zex_dmabuf_ops;
	exp_info.size = obj->size;
	exp_info.flags = flags;
	exp_info.priv = obj;
	exp_info.resv = obj->resv;
	return drm_gem_dmabuf_export(obj->dev, &exp_info);
}

/**
 * zex_dmabuf_export - the dma-buf that exports a piece
 * @piece: the piece, held by at least one buffer object.
 * @flags: O_RDWR or O_RDONLY.
 *
 * While a buffer object holds the piece, every export in one mode returns
 * the same dma-buf; the cache holds a reference of its own, dropped with
 * the last buffer object (zex_piece_unhold()), which breaks the cycle
 * between the piece and its dma-buf.
 *
 * Return: a reference to the dma-buf, or an ERR_PTR.
 */
struct dma_buf *zex_dmabuf_export(struct zex_piece *piece, int flags)
{
	unsigned int mode = (flags & O_ACCMODE) == O_RDWR;
	struct dma_buf *buf;

	mutex_lock(&piece->share_lock);
	buf = piece->exported[mode];
	if (!buf) {
		buf = zex_piece_new_dma_buf(piece, mode ? O_RDWR : O_RDONLY);
		if (IS_ERR(buf))
			goto out;
		piece->exported[mode] = buf;
	}
	get_dma_buf(buf);
out:
	mutex_unlock(&piece->share_lock);
	return buf;
}

/**
 * zex_dmabuf_piece - the piece behind a dma-buf, if it is one of ours
 * @drm: the importing device.
 * @dmabuf: any dma-buf.
 *
 * Return: the piece with a new reference, or ERR_PTR(-EXDEV) when the
 * dma-buf is not a piece of @drm (another exporter, or another zex device
 * instance).
 */
struct zex_piece *zex_dmabuf_piece(struct drm_device *drm, struct dma_buf *dmabuf)
{
	struct drm_gem_object *obj;

	if (dmabuf->ops != &zex_dmabuf_ops)
		return ERR_PTR(-EXDEV);
	obj = dmabuf->priv;
	if (obj->dev != drm)
		return ERR_PTR(-EXDEV);
	drm_gem_object_get(obj);
	return to_zex_piece(obj);
}
