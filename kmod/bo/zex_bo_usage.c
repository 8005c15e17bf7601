// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_bo_usage.c - what a buffer object holds of each tile's memory
 *
 * For a file's fdinfo (usage/): each piece of an object counts in the
 * memory of the tile it lies in, by its size. A piece is shared when
 * another file can reach it: the object has a handle in another file, or
 * a dma-buf of the object or of the piece exists (exported, or the object
 * is an import), or another buffer object holds the piece. It is resident
 * when its pages exist (its backing store is allocated: pinned by a
 * mapping, a bind or a copy), and active while a job that uses it has not
 * ended (a fence in its reservation object, implicit sync). The fields
 * are read without the locks that change them: a snapshot, as the DRM
 * core's own memory stats are.
 */

#include <linux/dma-resv.h>

#include "../common/zex_compat.h"
#include "../tiles/zex_piece.h"
#include "../tiles/zex_tile.h"
#include "zex_bo.h"

/* A piece another file can reach. */
static bool zex_piece_is_shared(struct zex_piece *piece)
{
	return READ_ONCE(piece->holders) > 1 || READ_ONCE(piece->exported[0]) ||
	       READ_ONCE(piece->exported[1]);
}

/**
 * zex_bo_usage_add - add a buffer object's pieces to each tile's sizes
 * @bo: the object.
 * @tiles: one &struct drm_memory_stats per tile, by tile index.
 * @num_tiles: entries in @tiles.
 */
void zex_bo_usage_add(struct zex_bo *bo, struct drm_memory_stats *tiles, u32 num_tiles)
{
	bool bo_shared = READ_ONCE(bo->base.handle_count) > 1 || READ_ONCE(bo->base.dma_buf) ||
			 bo->base.import_attach;
	u32 i;

	for (i = 0; i < bo->num_pieces; i++) {
		struct zex_piece *piece = bo->pieces[i].piece;
		struct drm_memory_stats *stats;
		u64 size = piece->base.base.size;

		if (!piece->tile || piece->tile->id >= num_tiles)
			continue;
		stats = &tiles[piece->tile->id];
		if (bo_shared || zex_piece_is_shared(piece))
			stats->shared += size;
		else
			stats->private += size;
		if (READ_ONCE(piece->base.pages))
			stats->resident += size;
		if (!dma_resv_test_signaled(piece->base.base.resv, DMA_RESV_USAGE_BOOKKEEP))
			stats->active += size;
	}
}
