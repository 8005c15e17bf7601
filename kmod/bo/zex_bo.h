/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo.h - buffer objects: what a GEM handle of zex names
 *
 * A &struct zex_bo is a GEM object made of one or more pieces
 * (&struct zex_piece, each in one tile's memory) and a layout that maps
 * the object's bytes onto them: the pieces one after the other, or
 * interleaved chunk by chunk. Mapping the object maps the pieces' pages.
 * Buffer objects hold references on their pieces; pieces may be shared
 * with other buffer objects (imports) and dma-bufs.
 */

#ifndef _ZEX_BO_H_
#define _ZEX_BO_H_

#include <drm/drm_gem.h>

struct drm_memory_stats;
struct zex_piece;

/**
 * struct zex_bo_piece - a piece and where it starts in the buffer object
 * @piece: the piece; the buffer object holds a reference.
 * @offset: the offset of its first byte in the buffer object.
 */
struct zex_bo_piece {
	struct zex_piece *piece;
	u64 offset;
};

/**
 * struct zex_bo - a zex buffer object
 * @base: the GEM object (private: its pages are the pieces').
 * @interleaved: chunk i is chunk i / @num_pieces of piece i % @num_pieces.
 * @granularity: the interleave chunk size, a power of two; 0 when linear.
 * @read_only: made of read-only dma-bufs: no mapping, bind or copy may
 *	write it, and it is exported read-only only.
 * @num_pieces: the pieces in @pieces (while being built: those present).
 * @pieces: the pieces in order.
 */
struct zex_bo {
	struct drm_gem_object base;
	bool interleaved;
	u64 granularity;
	bool read_only;
	u32 num_pieces;
	struct zex_bo_piece pieces[];
};

static inline struct zex_bo *to_zex_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct zex_bo, base);
}

struct zex_bo *zex_bo_alloc(struct drm_device *drm, u32 max_pieces, u64 size,
			    bool interleaved, u64 granularity, bool read_only);
void zex_bo_add_piece(struct zex_bo *bo, struct zex_piece *piece);
struct zex_bo *zex_bo_lookup(struct drm_file *file, u32 handle);
int zex_bo_pin_pages(struct zex_bo *bo, struct page **pages);
void zex_bo_unpin_pages(struct zex_bo *bo);
void zex_bo_set_solo(struct zex_bo *bo);
struct zex_bo *zex_bo_get_solo(struct zex_piece *piece);

bool zex_bo_is(const struct drm_gem_object *obj);

/* zex_bo_usage.c */
void zex_bo_usage_add(struct zex_bo *bo, struct drm_memory_stats *tiles, u32 num_tiles);

/* zex_bo_ioctl.c */
int zex_bo_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_mmap_offset_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_info_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_BO_H_ */
