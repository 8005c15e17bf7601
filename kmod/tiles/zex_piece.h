/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_piece.h - one internal allocation in one tile's memory
 *
 * A &struct zex_piece is a shmem-backed GEM object charged to one tile. A
 * buffer object is made of one or more pieces; pieces are what crosses
 * process boundaries: each is exported as its own dma-buf, and importing
 * that dma-buf into this device yields the very same piece.
 */

#ifndef _ZEX_PIECE_H_
#define _ZEX_PIECE_H_

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf;
struct zex_bo;
struct zex_device;
struct zex_tile;

/**
 * struct zex_piece - an internal allocation
 * @base: the shmem GEM object; must stay first (the shmem helpers free it
 *	with kfree() when creation fails half-way).
 * @tile: the tile charged for it, or NULL before the charge is made.
 * @export_lock: protects @exported and @bo_count.
 * @exported: the dma-buf that exports it read-only ([0]) and read-write
 *	([1]), kept while a buffer object holds the piece, so that exporting
 *	again hands out the same dma-buf, as DRM does for GEM handles.
 * @bo_count: buffer objects holding the piece.
 * @solo: a live buffer object made of this piece alone, linearly, or NULL;
 *	not a reference (cleared when that object is freed). A one-piece
 *	import returns it, as DRM returns the same GEM object on self-import.
 */
struct zex_piece {
	struct drm_gem_shmem_object base;
	struct zex_tile *tile;
	struct mutex export_lock; /* protects exported and bo_count */
	struct dma_buf *exported[2];
	unsigned int bo_count;
	struct zex_bo *solo;
};

static inline struct zex_piece *to_zex_piece(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct zex_piece, base);
}

struct drm_gem_object *zex_piece_create_object(struct drm_device *drm, size_t size);
struct zex_piece *zex_piece_create(struct zex_device *zdev, struct zex_tile *tile,
				   u64 size);
struct dma_buf *zex_piece_export(struct zex_piece *piece, int flags);
void zex_piece_bo_get(struct zex_piece *piece);
void zex_piece_bo_put(struct zex_piece *piece);
void zex_piece_set_solo(struct zex_piece *piece, struct zex_bo *bo);
void zex_piece_forget_solo(struct zex_piece *piece, struct zex_bo *bo);
struct zex_bo *zex_piece_get_solo(struct zex_piece *piece);
struct zex_piece *zex_piece_from_dma_buf(struct zex_device *zdev,
					 struct dma_buf *dmabuf);

#endif /* _ZEX_PIECE_H_ */
