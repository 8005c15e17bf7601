// SPDX-License-Identifier: MIT
/*
 * DOC: partition_test.c - host unit test of zex_partition_choose()
 *
 * A table of launch geometries and tile counts, each with the dimension
 * and part size the rule gives (the deepest even dimension, else x when
 * exact, else the largest; no split for an offset launch or one tile);
 * for every row, the parts cover the dimension's groups exactly once, in
 * order, none larger than the size.
 */
#include <stdint.h>

#include "kselftest_harness.h"
#include "compute/partition.h"

struct partition_case {
	uint32_t groups[3];
	uint32_t start[3];
	uint32_t tiles;
	uint32_t dim, count, size;
};

static const struct partition_case cases[] = {
	/* z splits evenly: z. */
	{ { 8, 8, 4 }, { 0 }, 2, 2, 2, 2 },
	/* z of 1 cannot be split; y even: y. */
	{ { 7, 6, 1 }, { 0 }, 2, 1, 2, 3 },
	/* z leaves 1 of 21 (4.8 % <= 5 %): still z. */
	{ { 1, 1, 21 }, { 0 }, 2, 2, 2, 11 },
	/* z leaves 1 of 19 (5.3 %): not z; y leaves 1 of 21 (4.8 %): y. */
	{ { 4, 21, 19 }, { 0 }, 2, 1, 2, 11 },
	/* At exactly 5 % left over, z is still taken, y no longer (x divides). */
	{ { 1, 1, 20 }, { 0 }, 19, 2, 19, 2 },
	{ { 19, 20, 1 }, { 0 }, 19, 0, 19, 1 },
	/* Only x: even or not, x. */
	{ { 1000, 1, 1 }, { 0 }, 2, 0, 2, 500 },
	{ { 1001, 1, 1 }, { 0 }, 2, 0, 2, 501 },
	/* Nothing even: the largest dimension, y here. */
	{ { 3, 9, 1 }, { 0 }, 2, 1, 2, 5 },
	/* ... z here. */
	{ { 3, 5, 7 }, { 0 }, 2, 2, 2, 4 },
	/* Ties: x before y. */
	{ { 5, 5, 1 }, { 0 }, 2, 0, 2, 3 },
	/* Fewer groups than tiles: some parts are empty. */
	{ { 3, 1, 1 }, { 0 }, 4, 0, 4, 1 },
	{ { 1, 1, 1 }, { 0 }, 8, 0, 8, 1 },
	/* 4 tiles, y even. */
	{ { 3, 64, 1 }, { 0 }, 4, 1, 4, 16 },
	/* One tile, or a launch that starts at an offset: not split. */
	{ { 64, 64, 64 }, { 0 }, 1, 0, 1, 64 },
	{ { 64, 64, 64 }, { 1, 0, 0 }, 2, 0, 1, 64 },
	{ { 64, 64, 64 }, { 0, 0, 3 }, 2, 0, 1, 64 },
	/* The largest counts do not overflow. */
	{ { UINT32_MAX, 1, 1 }, { 0 }, 2, 0, 2, 2147483648u },
};

TEST(the_rule_picks_the_dimension_and_size)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct partition_case *c = &cases[i];
		struct zex_partition p;

		zex_partition_choose(c->groups, c->start, c->tiles, &p);
		EXPECT_EQ(c->dim, p.dim) TH_LOG("case %u", i);
		EXPECT_EQ(c->count, p.count) TH_LOG("case %u", i);
		EXPECT_EQ(c->size, p.size) TH_LOG("case %u", i);
	}
}

TEST(the_parts_cover_every_group_once_in_order)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct partition_case *c = &cases[i];
		struct zex_partition p;
		uint64_t next = 0;
		uint32_t part;

		zex_partition_choose(c->groups, c->start, c->tiles, &p);
		for (part = 0; part < p.count; part++) {
			uint32_t first, n;

			zex_partition_part(&p, c->groups, part, &first, &n);
			EXPECT_LE(n, p.size) TH_LOG("case %u part %u", i, part);
			if (n)
				EXPECT_EQ(next, first) TH_LOG("case %u part %u", i, part);
			next += n;
		}
		EXPECT_EQ(c->groups[p.dim], next) TH_LOG("case %u", i);
	}
}

TEST_HARNESS_MAIN
