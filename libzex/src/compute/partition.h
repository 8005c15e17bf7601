/* SPDX-License-Identifier: MIT */
/*
 * DOC: partition.h - a launch's work-groups split between tiles
 *
 * Under implicit scaling a launch on the root device runs on every tile
 * at once, each tile a contiguous part of the groups along one dimension,
 * as compute-runtime's static partitioning does: as many partitions as
 * tiles, the dimension chosen so that the parts come out even where one
 * does. A pure function of the launch's geometry, with a table test.
 */
#ifndef ZEX_COMPUTE_PARTITION_H
#define ZEX_COMPUTE_PARTITION_H

#include <stdint.h>

/**
 * struct zex_partition - how a launch's groups are split
 * @dim: the dimension cut: 0 x, 1 y, 2 z.
 * @count: the number of parts, 1 (not split) or the tile count.
 * @size: groups of @dim per part (the last parts may have fewer, or none).
 */
struct zex_partition {
	uint32_t dim;
	uint32_t count;
	uint32_t size;
};

void zex_partition_choose(const uint32_t groups[3], const uint32_t group_start[3],
			  uint32_t tiles, struct zex_partition *p);
void zex_partition_part(const struct zex_partition *p, const uint32_t groups[3], uint32_t part,
			uint32_t *first, uint32_t *n);

#endif /* ZEX_COMPUTE_PARTITION_H */
