// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_colour_test.c - KUnit suite for colouring across tiles
 *
 * Worked examples (compute-runtime's 18 x 64 KiB over 4 tiles = 5,5,4,4),
 * then every size of a table against every tile count, policy and
 * granularity, checking the invariants each policy promises: pieces cover
 * the aligned size exactly, in order, on the right tiles, with the right
 * sizes. Sizes near the u64 limit must be refused, not wrapped.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include <drm/zex_drm.h>

#include "../tiles/zex_colour.h"

#define K64	SZ_64K

struct zex_colour_example {
	const char *desc;
	u64 size;
	u32 tiles, policy;
	u64 gran;
	u32 num;
	u64 chunks[8];	/* piece sizes in granules (or pages for one piece) */
	u32 tile[8];
};

static const struct zex_colour_example zex_examples[] = {
	{ "18 granules over 4 tiles, even", 18 * K64, 4, 0, K64, 4,
	  { 5, 5, 4, 4 }, { 0, 1, 2, 3 } },
	{ "size not a granule multiple, even", 18 * K64 + 4096, 4, 0, K64, 4,
	  { 5, 5, 5, 4 }, { 0, 1, 2, 3 } },
	{ "exactly tiles * granularity", 2 * K64, 2, 0, K64, 2,
	  { 1, 1 }, { 0, 1 } },
	{ "one byte short of tiles * granularity", 2 * K64 - 1, 2, 0, K64, 1,
	  { 32 }, { 0 } },
	{ "one tile", 100 * K64, 1, 0, K64, 1, { 1600 }, { 0 } },
	{ "chunk policy, 5 granules over 2 tiles", 5 * K64, 2, 1, K64, 5,
	  { 1, 1, 1, 1, 1 }, { 0, 1, 0, 1, 0 } },
	{ "interleave, 7 granules over 3 tiles", 7 * K64, 3, 2, K64, 3,
	  { 3, 2, 2 }, { 0, 1, 2 } },
	{ "even over 8 tiles, 128 KiB granules", 17 * SZ_128K, 8, 0, SZ_128K, 8,
	  { 3, 2, 2, 2, 2, 2, 2, 2 }, { 0, 1, 2, 3, 4, 5, 6, 7 } },
};

static void zex_example_desc(const struct zex_colour_example *e, char *desc)
{
	strscpy(desc, e->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_colour_example, zex_examples, zex_example_desc);

static void zex_test_colour_examples(struct kunit *test)
{
	const struct zex_colour_example *e = test->param_value;
	struct zex_colour_piece p[8];
	struct zex_colouring shape;
	u64 unit, offset = 0;
	u32 i;

	KUNIT_ASSERT_EQ(test, zex_colour(e->size, e->tiles, e->policy, e->gran,
					 &shape, p, ARRAY_SIZE(p)), 0);
	KUNIT_ASSERT_EQ(test, shape.num_pieces, e->num);
	unit = e->num == 1 ? PAGE_SIZE : e->gran;
	for (i = 0; i < e->num; i++) {
		KUNIT_EXPECT_EQ_MSG(test, p[i].size, e->chunks[i] * unit, "piece %u", i);
		KUNIT_EXPECT_EQ_MSG(test, p[i].tile, e->tile[i], "piece %u", i);
		if (!shape.interleaved)
			KUNIT_EXPECT_EQ_MSG(test, p[i].offset, offset, "piece %u", i);
		offset += p[i].size;
	}
	KUNIT_EXPECT_EQ(test, shape.size, offset);
	KUNIT_EXPECT_EQ(test, shape.interleaved, e->policy == 2 && e->num > 1);
}

/* Every invariant a policy promises, for one input. */
static void zex_check_invariants(struct kunit *test, u64 size, u32 tiles,
				 u32 policy, u64 gran)
{
	static struct zex_colour_piece p[DRM_ZEX_MAX_PIECES];
	struct zex_colouring shape, counted;
	bool multi = tiles > 1 && size >= (u64)tiles * gran;
	u64 aligned = multi ? ALIGN(size, gran) : PAGE_ALIGN(size);
	u64 sum = 0;
	u32 i;
	int ret;

	ret = zex_colour(size, tiles, policy, gran, &counted, NULL, DRM_ZEX_MAX_PIECES);
	if (multi && policy == 1 && aligned / gran > DRM_ZEX_MAX_PIECES) {
		KUNIT_EXPECT_EQ(test, ret, -E2BIG);
		return;
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, zex_colour(size, tiles, policy, gran, &shape, p,
					 DRM_ZEX_MAX_PIECES), 0);
	KUNIT_ASSERT_EQ(test, shape.num_pieces, counted.num_pieces);
	KUNIT_EXPECT_EQ(test, shape.size, aligned);

	if (!multi) {
		KUNIT_EXPECT_EQ(test, shape.num_pieces, 1);
		KUNIT_EXPECT_EQ(test, p[0].tile, 0);
		KUNIT_EXPECT_EQ(test, p[0].size, aligned);
		return;
	}
	for (i = 0; i < shape.num_pieces; i++) {
		KUNIT_EXPECT_EQ(test, p[i].size % gran, 0);
		KUNIT_EXPECT_NE(test, p[i].size, 0);
		KUNIT_EXPECT_EQ(test, p[i].tile, i % tiles);
		sum += p[i].size;
	}
	KUNIT_EXPECT_EQ(test, sum, aligned);
	switch (policy) {
	case 0:
		KUNIT_EXPECT_EQ(test, shape.num_pieces, tiles);
		/* Even: sizes never grow and differ by at most one granule. */
		for (i = 1; i < tiles; i++) {
			KUNIT_EXPECT_LE(test, p[i].size, p[i - 1].size);
			KUNIT_EXPECT_LE(test, p[0].size - p[i].size, gran);
			KUNIT_EXPECT_EQ(test, p[i].offset, p[i - 1].offset + p[i - 1].size);
		}
		break;
	case 1:
		KUNIT_EXPECT_EQ(test, shape.num_pieces, aligned / gran);
		for (i = 0; i < shape.num_pieces; i++)
			KUNIT_EXPECT_EQ(test, p[i].offset, (u64)i * gran);
		break;
	case 2:
		KUNIT_EXPECT_TRUE(test, shape.interleaved);
		KUNIT_EXPECT_EQ(test, shape.granularity, gran);
		for (i = 0; i < tiles; i++) {
			u64 chunks = aligned / gran;

			KUNIT_EXPECT_EQ(test, p[i].size,
					(chunks - i + tiles - 1) / tiles * gran);
			KUNIT_EXPECT_EQ(test, p[i].offset, (u64)i * gran);
		}
		break;
	}
}

static void zex_test_colour_table(struct kunit *test)
{
	static const u64 sizes[] = {
		1, 4095, 4096, 65535, K64, K64 + 1, 2 * K64 - 1, 2 * K64,
		3 * K64 + 4096, 8 * K64, 8 * K64 + 1, 18 * K64, 100 * K64 + 12345,
		SZ_2M, SZ_16M + 4096, SZ_64M, SZ_256M, SZ_1G + 1,
	};
	static const u32 tiles[] = { 1, 2, 3, 4, 8 };
	static const u64 grans[] = { SZ_64K, SZ_128K, SZ_2M };
	u32 s, t, p, g;

	for (s = 0; s < ARRAY_SIZE(sizes); s++)
		for (t = 0; t < ARRAY_SIZE(tiles); t++)
			for (p = 0; p <= 2; p++)
				for (g = 0; g < ARRAY_SIZE(grans); g++)
					zex_check_invariants(test, sizes[s], tiles[t], p,
							     grans[g]);
}

static void zex_test_colour_near_u64_limit(struct kunit *test)
{
	struct zex_colouring shape;
	u32 p;

	for (p = 0; p <= 2; p++) {
		/* Aligning up would wrap: refused. */
		KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX, 2, p, K64, &shape, NULL, 1024),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX - K64 + 2, 4, p, K64, &shape,
						 NULL, 1024), -EINVAL);
		/* Single-piece path: page alignment would wrap. */
		KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX, 1, p, K64, &shape, NULL, 1024),
				-EINVAL);
	}
	/* The largest granule-aligned size is fine for even and interleave. */
	KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX - K64 + 1, 2, 0, K64, &shape, NULL,
					 1024), 0);
	KUNIT_EXPECT_EQ(test, shape.size, U64_MAX - K64 + 1);
	KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX - K64 + 1, 8, 2, K64, &shape, NULL,
					 1024), 0);
	/* ... but chunking it would need far too many pieces. */
	KUNIT_EXPECT_EQ(test, zex_colour(U64_MAX - K64 + 1, 2, 1, K64, &shape, NULL,
					 1024), -E2BIG);
}

static void zex_test_colour_bad_arguments(struct kunit *test)
{
	struct zex_colouring shape;

	KUNIT_EXPECT_EQ(test, zex_colour(0, 2, 0, K64, &shape, NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_colour(K64, 0, 0, K64, &shape, NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_colour(K64, 9, 0, K64, &shape, NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_colour(K64, 2, 3, K64, &shape, NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_colour(K64, 2, 0, SZ_32K, &shape, NULL, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_colour(K64, 2, 0, 3 * K64, &shape, NULL, 8), -EINVAL);
	/* Room for fewer pieces than needed. */
	KUNIT_EXPECT_EQ(test, zex_colour(4 * K64, 4, 0, K64, &shape, NULL, 3), -E2BIG);
	KUNIT_EXPECT_EQ(test, zex_colour(4 * K64, 2, 1, K64, &shape, NULL, 3), -E2BIG);
	KUNIT_EXPECT_EQ(test, zex_colour(4 * K64, 4, 2, K64, &shape, NULL, 3), -E2BIG);
	KUNIT_EXPECT_EQ(test, zex_colour(4096, 1, 0, K64, &shape, NULL, 0), -E2BIG);
}

static struct kunit_case zex_colour_test_cases[] = {
	KUNIT_CASE_PARAM(zex_test_colour_examples, zex_colour_example_gen_params),
	KUNIT_CASE(zex_test_colour_table),
	KUNIT_CASE(zex_test_colour_near_u64_limit),
	KUNIT_CASE(zex_test_colour_bad_arguments),
	{}
};

static struct kunit_suite zex_colour_test_suite = {
	.name = "zex_colour",
	.test_cases = zex_colour_test_cases,
};

kunit_test_suite(zex_colour_test_suite);
