// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_split.c - the split of a copy between tiles
 *
 * Bytes whose destination is a piece of a buffer object are moved by the
 * tile that holds the piece: a linear object's range is cut at its pieces'
 * boundaries, an interleaved one's at every chunk. Bytes whose destination
 * is host memory (a userptr import) belong to no tile: they are cut into
 * as many equal, page-aligned parts as the engine has tiles. Runs come out
 * in address order; the caller merges neighbours of one tile.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>

#include "../common/zex_kunit_export.h"
#include "zex_split.h"

static int zex_split_interleaved(const struct zex_split_layout *l, u64 off, u64 len,
				 u64 range_offset, zex_split_emit_fn emit, void *ctx)
{
	u64 end = off + len;

	while (off < end) {
		u64 chunk = div64_u64(off, l->granularity);
		u64 next = min((chunk + 1) * l->granularity, end);
		u32 piece = (u32)do_div(chunk, l->num_pieces);
		int ret = emit(ctx, range_offset, next - off, l->pieces[piece].tile);

		if (ret)
			return ret;
		range_offset += next - off;
		off = next;
	}
	return 0;
}

/**
 * zex_split_bo - the runs of a range of a buffer object, by tile
 * @layout: the object's layout.
 * @bo_offset: the range's first byte in the object.
 * @len: its bytes, within the object.
 * @range_offset: what the first run's offset is (the range's place in the
 *	copy being split).
 * @emit: called for each run, in order.
 * @ctx: passed to @emit.
 *
 * Return: 0, -EINVAL when the range is not within the pieces, or what
 * @emit returned.
 */
int zex_split_bo(const struct zex_split_layout *layout, u64 bo_offset, u64 len,
		 u64 range_offset, zex_split_emit_fn emit, void *ctx)
{
	u64 end = bo_offset + len;
	u32 i;

	if (!layout->num_pieces || !len)
		return -EINVAL;
	if (layout->interleaved)
		return zex_split_interleaved(layout, bo_offset, len, range_offset, emit, ctx);

	for (i = 0; i < layout->num_pieces && bo_offset < end; i++) {
		const struct zex_split_piece *p = &layout->pieces[i];
		u64 p_end = p->offset + p->size;
		u64 run_end;
		int ret;

		if (bo_offset >= p_end)
			continue;
		if (bo_offset < p->offset)
			return -EINVAL;
		run_end = min(end, p_end);
		ret = emit(ctx, range_offset, run_end - bo_offset, p->tile);
		if (ret)
			return ret;
		range_offset += run_end - bo_offset;
		bo_offset = run_end;
	}
	return bo_offset < end ? -EINVAL : 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_split_bo);

/**
 * zex_split_even - cut a range of host memory between the tiles of a mask
 * @range_offset: the range's place in the copy being split.
 * @len: its bytes.
 * @tile_mask: the engine's tiles, not 0.
 * @emit: called for each part, in order: tile by tile, the lowest first,
 *	each part a whole number of pages but the last; a tile whose share
 *	is empty gets no call.
 * @ctx: passed to @emit.
 *
 * Return: 0, -EINVAL for an empty mask, or what @emit returned.
 */
int zex_split_even(u64 range_offset, u64 len, u32 tile_mask, zex_split_emit_fn emit,
		   void *ctx)
{
	u32 tiles = hweight32(tile_mask);
	unsigned long mask = tile_mask, tile;
	u64 share, done = 0;

	if (!tiles)
		return -EINVAL;
	share = round_up(div64_u64(len + tiles - 1, tiles), PAGE_SIZE);
	for_each_set_bit(tile, &mask, BITS_PER_LONG) {
		u64 n = min(share, len - done);
		int ret;

		if (!n)
			break;
		ret = emit(ctx, range_offset + done, n, (u32)tile);
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_split_even);
