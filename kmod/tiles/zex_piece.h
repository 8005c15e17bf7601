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
 * that dma-buf into this device yields the very same piece (ipc/). A piece
 * knows the buffer objects that hold it only by count, and what the IPC
 * layer cached on it only to release it.
 */

#ifndef _ZEX_PIECE_H_
#define _ZEX_PIECE_H_

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf;
struct zex_tile;

/**
 * struct zex_piece - an internal allocation
 * @base: the shmem GEM object; must stay first (the shmem helpers free it
 *	with kfree() when creation fails half-way).
 * @tile: the tile charged for it, or NULL before the charge is made.
 * @share_lock: protects @exported, @holders and @solo.
 * @exported: the dma-buf that exports it read-only ([0]) and read-write
 *	([1]), kept while a buffer object holds the piece, so that exporting
 *	again hands out the same dma-buf, as DRM does for GEM handles.
 *	Filled by the IPC layer; released here with the last holder.
 * @holders: buffer objects holding the piece (zex_piece_hold()).
 * @solo: a live buffer object made of this piece alone, linearly, or NULL;
 *	not a reference (cleared when that object lets go of the piece). The
 *	IPC layer records it and returns it on a one-piece import, as DRM
 *	returns the same GEM object on self-import.
 */
struct zex_piece {
	struct drm_gem_shmem_object base;
	struct zex_tile *tile;
	struct mutex share_lock; /* protects exported, holders and solo */
	struct dma_buf *exported[2];
	unsigned int holders;
	struct drm_gem_object *solo;
};

static inline struct zex_piece *to_zex_piece(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct zex_piece, base);
}

struct drm_gem_object *zex_piece_create_object(struct drm_device *drm, size_t size);
struct zex_piece *zex_piece_create(struct drm_device *drm, struct zex_tile *tile,
				   u64 size);
void zex_piece_hold(struct zex_piece *piece);
void zex_piece_unhold(struct zex_piece *piece, struct drm_gem_object *holder);

#endif /* _ZEX_PIECE_H_ */
