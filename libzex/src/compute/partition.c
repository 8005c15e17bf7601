// SPDX-License-Identifier: MIT
/*
 * DOC: partition.c - which tile runs which work-groups of a root launch
 *
 * The rule of static partitioning (compute-runtime's, for its multi-tile
 * GPUs): a launch whose groups do not start at 0 is not split; otherwise
 * there are as many parts as tiles, along the deepest dimension whose
 * group count splits evenly enough: z when it has more than one group and
 * at most 5 % of them would be left over, else y on the same terms (less
 * than 5 %), else x when it divides exactly, else the largest dimension
 * (x, then y, then z on a tie). Each part is a contiguous range of
 * ceil(groups / tiles) groups of that dimension; the last ones may be
 * shorter, or empty. Every group is in exactly one part, and each part
 * sees the whole launch's geometry (its group ids are the launch's).
 */
#include "compute/partition.h"

/* The share of @n groups that @parts even parts would leave over, as a test. */
static int leftover_at_most(uint32_t n, uint32_t parts, uint32_t percent, int strict)
{
	uint64_t left = (uint64_t)(n % parts) * 100;
	uint64_t limit = (uint64_t)n * percent;

	return strict ? left < limit : left <= limit;
}

/**
 * zex_partition_choose - split a launch between tiles
 * @groups: the group counts, x, y, z (each at least 1).
 * @group_start: the first group of each dimension (0 for a whole launch).
 * @tiles: the tiles that run it, at least 1.
 * @p: receives the split.
 */
void zex_partition_choose(const uint32_t groups[3], const uint32_t group_start[3],
			  uint32_t tiles, struct zex_partition *p)
{
	uint32_t dim;

	if (tiles <= 1 || group_start[0] || group_start[1] || group_start[2]) {
		*p = (struct zex_partition){ .dim = 0, .count = 1, .size = groups[0] };
		return;
	}
	if (groups[2] > 1 && leftover_at_most(groups[2], tiles, 5, 0))
		dim = 2;
	else if (groups[1] > 1 && leftover_at_most(groups[1], tiles, 5, 1))
		dim = 1;
	else if (groups[0] % tiles == 0)
		dim = 0;
	else if (groups[0] >= groups[1] && groups[0] >= groups[2])
		dim = 0;
	else if (groups[1] >= groups[2])
		dim = 1;
	else
		dim = 2;
	p->dim = dim;
	p->count = tiles;
	p->size = (uint32_t)(((uint64_t)groups[dim] + tiles - 1) / tiles);
}

/**
 * zex_partition_part - the groups of one part
 * @p: the split.
 * @groups: the launch's group counts.
 * @part: the part, below @p->count.
 * @first: receives its first group of @p->dim.
 * @n: receives how many groups of @p->dim it runs (0: none).
 */
void zex_partition_part(const struct zex_partition *p, const uint32_t groups[3], uint32_t part,
			uint32_t *first, uint32_t *n)
{
	uint64_t start = (uint64_t)part * p->size;
	uint32_t total = groups[p->dim];

	if (start >= total) {
		*first = total;
		*n = 0;
		return;
	}
	*first = (uint32_t)start;
	*n = total - *first < p->size ? total - *first : p->size;
}
