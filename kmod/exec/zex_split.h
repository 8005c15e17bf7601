/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_split.h - implicit scaling of copies: which tile moves which bytes
 *
 * A copy or fill on an engine that spans several tiles is split between
 * the tiles: each moves the bytes whose destination lives in its memory.
 * These are pure functions of a destination's layout (its pieces, their
 * tiles, linear or interleaved) that emit the runs of one tile each; the
 * exec room executes them, the KUnit suite checks them on a table.
 */

#ifndef _ZEX_SPLIT_H_
#define _ZEX_SPLIT_H_

#include <linux/types.h>

/**
 * struct zex_split_piece - one piece of a destination's buffer object
 * @offset: its first byte's offset in the object (linear layouts).
 * @size: its bytes.
 * @tile: the tile whose memory holds it.
 */
struct zex_split_piece {
	u64 offset;
	u64 size;
	u32 tile;
};

/**
 * struct zex_split_layout - the layout of a buffer object, for the split
 * @pieces: its pieces in order.
 * @num_pieces: how many, at least 1.
 * @interleaved: chunk i is chunk i / @num_pieces of piece i % @num_pieces.
 * @granularity: the chunk size of an interleaved layout, a power of two.
 */
struct zex_split_layout {
	const struct zex_split_piece *pieces;
	u32 num_pieces;
	bool interleaved;
	u64 granularity;
};

/**
 * typedef zex_split_emit_fn - receives one run of one tile
 * @ctx: the caller's.
 * @offset: the run's first byte, relative to the range split.
 * @len: its bytes.
 * @tile: the tile that moves it.
 *
 * Return: 0, or an error that stops the split.
 */
typedef int (*zex_split_emit_fn)(void *ctx, u64 offset, u64 len, u32 tile);

int zex_split_bo(const struct zex_split_layout *layout, u64 bo_offset, u64 len,
		 u64 range_offset, zex_split_emit_fn emit, void *ctx);
int zex_split_even(u64 range_offset, u64 len, u32 tile_mask, zex_split_emit_fn emit,
		   void *ctx);

#endif /* _ZEX_SPLIT_H_ */
