/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_colour.h - colouring one allocation across tiles
 *
 * Under implicit scaling an allocation on the root device is split into
 * pieces, each in one tile's memory, following compute-runtime's rules:
 *
 * - multi-storage only when there is more than one tile and the size is at
 *   least tiles * granularity; otherwise one piece on tile 0;
 * - the size is then aligned up to the granularity;
 * - even split (policy 0): one piece per tile, piece i of
 *   ALIGN(remaining / (tiles - i), granularity) bytes, so 18 * 64 KiB over
 *   4 tiles is 5, 5, 4, 4 chunks;
 * - chunk (policy 1): one piece per granularity-sized chunk, chunk i on
 *   tile i % tiles;
 * - interleave (policy 2): one piece per tile; chunk i of the allocation is
 *   chunk i / tiles of piece i % tiles.
 */

#ifndef _ZEX_COLOUR_H_
#define _ZEX_COLOUR_H_

#include <linux/types.h>

/**
 * struct zex_colour_piece - one piece of a coloured allocation
 * @tile: the tile that holds it.
 * @offset: its first byte's offset in the allocation.
 * @size: its size in bytes.
 */
struct zex_colour_piece {
	u32 tile;
	u64 offset;
	u64 size;
};

/**
 * struct zex_colouring - the shape of a coloured allocation
 * @size: the allocation's size, the sum of the pieces.
 * @num_pieces: how many pieces.
 * @interleaved: the pieces interleave at @granularity.
 * @granularity: the interleave granularity, 0 when not interleaved.
 */
struct zex_colouring {
	u64 size;
	u32 num_pieces;
	bool interleaved;
	u64 granularity;
};

int zex_colour(u64 size, u32 tiles, u32 policy, u64 granularity,
	       struct zex_colouring *out, struct zex_colour_piece *pieces,
	       u32 max_pieces);

#endif /* _ZEX_COLOUR_H_ */
