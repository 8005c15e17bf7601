// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile_mem_test.c - KUnit suite for per-tile memory accounting
 *
 * Charges and uncharges against a reference count of its own, including
 * exact fills, one byte over, and charges near the u64 limit that must not
 * wrap.
 */

#include <kunit/test.h>
#include <linux/sizes.h>

#include "../tiles/zex_tile_mem.h"

static void zex_expect_usage(struct kunit *test, struct zex_tile_mem *mem,
			     u64 used, u64 num_bos)
{
	struct zex_tile_mem_usage u;

	zex_tile_mem_usage(mem, &u);
	KUNIT_EXPECT_EQ(test, u.size, mem->size);
	KUNIT_EXPECT_EQ(test, u.used, used);
	KUNIT_EXPECT_EQ(test, u.num_bos, num_bos);
}

static void zex_test_tile_mem_fill_exactly(struct kunit *test)
{
	struct zex_tile_mem mem;

	zex_tile_mem_init(&mem, SZ_1M);
	zex_expect_usage(test, &mem, 0, 0);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, SZ_512K), 0);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, SZ_512K), 0);
	zex_expect_usage(test, &mem, SZ_1M, 2);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, 1), -ENOSPC);
	zex_expect_usage(test, &mem, SZ_1M, 2);
	zex_tile_mem_uncharge(&mem, SZ_512K);
	zex_expect_usage(test, &mem, SZ_512K, 1);
	zex_tile_mem_uncharge(&mem, SZ_512K);
	zex_expect_usage(test, &mem, 0, 0);
}

static void zex_test_tile_mem_too_big(struct kunit *test)
{
	struct zex_tile_mem mem;

	zex_tile_mem_init(&mem, SZ_1M);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, SZ_1M + 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, U64_MAX), -ENOSPC);
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, SZ_4K), 0);
	/* used + bytes would wrap past zero: must still be refused. */
	KUNIT_EXPECT_EQ(test, zex_tile_mem_charge(&mem, U64_MAX - SZ_4K + 1),
			-ENOSPC);
	zex_expect_usage(test, &mem, SZ_4K, 1);
	zex_tile_mem_uncharge(&mem, SZ_4K);
}

static void zex_test_tile_mem_sequence(struct kunit *test)
{
	static const u64 sizes[] = { SZ_4K, SZ_64K, SZ_2M, SZ_8K, SZ_1M, SZ_4M };
	struct zex_tile_mem mem;
	u64 used = 0, bos = 0;
	bool held[ARRAY_SIZE(sizes)] = {};
	unsigned int round, i;

	zex_tile_mem_init(&mem, SZ_4M + SZ_1M);
	/* Alloc/free in a fixed shuffled order; the model is a plain sum. */
	for (round = 0; round < 64; round++) {
		i = (round * 7 + 3) % ARRAY_SIZE(sizes);
		if (held[i]) {
			zex_tile_mem_uncharge(&mem, sizes[i]);
			held[i] = false;
			used -= sizes[i];
			bos--;
		} else if (used + sizes[i] <= mem.size) {
			KUNIT_ASSERT_EQ(test, zex_tile_mem_charge(&mem, sizes[i]), 0);
			held[i] = true;
			used += sizes[i];
			bos++;
		} else {
			KUNIT_ASSERT_EQ(test, zex_tile_mem_charge(&mem, sizes[i]),
					-ENOSPC);
		}
		zex_expect_usage(test, &mem, used, bos);
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		if (held[i])
			zex_tile_mem_uncharge(&mem, sizes[i]);
	zex_expect_usage(test, &mem, 0, 0);
}

static struct kunit_case zex_tile_mem_test_cases[] = {
	KUNIT_CASE(zex_test_tile_mem_fill_exactly),
	KUNIT_CASE(zex_test_tile_mem_too_big),
	KUNIT_CASE(zex_test_tile_mem_sequence),
	{}
};

static struct kunit_suite zex_tile_mem_test_suite = {
	.name = "zex_tile_mem",
	.test_cases = zex_tile_mem_test_cases,
};

kunit_test_suite(zex_tile_mem_test_suite);
