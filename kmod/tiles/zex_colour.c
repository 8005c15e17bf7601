// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_colour.c - the colouring rules, as one pure function
 *
 * zex_colour() only computes; it allocates nothing and touches no tile, so
 * KUnit checks it over a table of sizes, tile counts, policies and
 * granularities. Sizes near the u64 limit that would overflow when aligned
 * are refused.
 */

#include <linux/align.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>

#include <drm/zex_drm.h>

#include "../common/zex_kunit_export.h"
#include "zex_colour.h"

static void zex_colour_set(struct zex_colour_piece *pieces, u32 i, u32 tile,
			   u64 offset, u64 size)
{
	if (pieces) {
		pieces[i].tile = tile;
		pieces[i].offset = offset;
		pieces[i].size = size;
	}
}

/**
 * zex_colour - split an allocation into pieces
 * @size: requested bytes, non-zero.
 * @tiles: tiles to colour over, 1 to %DRM_ZEX_MAX_TILES.
 * @policy: &enum drm_zex_multi_storage_policy.
 * @granularity: bytes, a power of two of at least 64 KiB.
 * @out: the allocation's shape.
 * @pieces: receives @out->num_pieces entries; NULL to compute the shape only.
 * @max_pieces: the most pieces acceptable.
 *
 * Return: 0; -EINVAL for a size of 0 or one that overflows when aligned, or
 * invalid @tiles, @policy or @granularity; -E2BIG for more than @max_pieces
 * pieces.
 */
int zex_colour(u64 size, u32 tiles, u32 policy, u64 granularity,
	       struct zex_colouring *out, struct zex_colour_piece *pieces,
	       u32 max_pieces)
{
	u64 aligned, remaining, offset, chunks;
	u32 i, n;

	if (!size || !tiles || tiles > DRM_ZEX_MAX_TILES ||
	    policy > DRM_ZEX_MULTI_STORAGE_INTERLEAVE ||
	    granularity < SZ_64K || !is_power_of_2(granularity))
		return -EINVAL;

	out->interleaved = false;
	out->granularity = 0;

	/* One piece: a single tile, or too small to spread. */
	if (tiles == 1 || div_u64(size, tiles) < granularity) {
		if (size > U64_MAX - (PAGE_SIZE - 1))
			return -EINVAL;
		if (!max_pieces)
			return -E2BIG;
		out->size = PAGE_ALIGN(size);
		out->num_pieces = 1;
		zex_colour_set(pieces, 0, 0, 0, out->size);
		return 0;
	}

	if (size > U64_MAX - (granularity - 1))
		return -EINVAL;
	aligned = ALIGN(size, granularity);
	chunks = div64_u64(aligned, granularity);

	switch (policy) {
	case DRM_ZEX_MULTI_STORAGE_CHUNK:
		if (chunks > max_pieces)
			return -E2BIG;
		n = (u32)chunks;
		for (i = 0; i < n; i++)
			zex_colour_set(pieces, i, i % tiles, (u64)i * granularity,
				       granularity);
		break;
	case DRM_ZEX_MULTI_STORAGE_INTERLEAVE:
		if (tiles > max_pieces)
			return -E2BIG;
		n = tiles;
		for (i = 0; i < n; i++)
			zex_colour_set(pieces, i, i, (u64)i * granularity,
				       div_u64(chunks - i + tiles - 1, tiles) * granularity);
		out->interleaved = true;
		out->granularity = granularity;
		break;
	default:
		if (tiles > max_pieces)
			return -E2BIG;
		n = tiles;
		remaining = aligned;
		offset = 0;
		for (i = 0; i < n; i++) {
			u64 piece = ALIGN(div_u64(remaining, n - i), granularity);

			zex_colour_set(pieces, i, i, offset, piece);
			offset += piece;
			remaining -= piece;
		}
		break;
	}

	out->size = aligned;
	out->num_pieces = n;
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_colour);
