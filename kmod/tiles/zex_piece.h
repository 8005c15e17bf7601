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
struct zex_device;
struct zex_tile;

/**
 * struct zex_piece - an internal allocation
 * @base: the shmem GEM object; must stay first (the shmem helpers free it
 *	with kfree() when creation fails half-way).
 * @tile: the tile charged for it, or NULL before the charge is made.
 */
struct zex_piece {
	struct drm_gem_shmem_object base;
	struct zex_tile *tile;
};

static inline struct zex_piece *to_zex_piece(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct zex_piece, base);
}

struct drm_gem_object *zex_piece_create_object(struct drm_device *drm, size_t size);
struct zex_piece *zex_piece_create(struct zex_device *zdev, struct zex_tile *tile,
				   u64 size);
struct dma_buf *zex_piece_export(struct zex_piece *piece, int flags);
struct zex_piece *zex_piece_from_dma_buf(struct zex_device *zdev,
					 struct dma_buf *dmabuf);

#endif /* _ZEX_PIECE_H_ */
