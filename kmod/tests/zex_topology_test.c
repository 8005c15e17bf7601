// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_topology_test.c - KUnit suite for topology and the engine model
 *
 * Builds topologies for 1, 2, 4 and 8 tiles with implicit scaling on and
 * off and checks the derived values and every engine entry against the
 * Level Zero engine model of seed 002.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/sizes.h>

#include <drm/zex_drm.h>

#include "../device/zex_params.h"
#include "../device/zex_topology.h"

#define ZEX_MAX_ENGINES	(1 + 8 * (ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES) + \
			 ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES)

static void zex_topo(struct zex_topology *topo, unsigned int tiles,
		     unsigned int implicit)
{
	struct zex_params p = {
		.tiles = tiles,
		.tile_mem_mb = 256,
		.enable_implicit_scaling = implicit,
		.multi_storage_policy = 1,
		.multi_storage_granularity_kb = 128,
	};

	zex_topology_init(topo, &p);
}

static void zex_test_topology_values(struct kunit *test)
{
	struct zex_topology topo;

	zex_topo(&topo, 4, 1);
	KUNIT_EXPECT_EQ(test, topo.num_tiles, 4);
	KUNIT_EXPECT_TRUE(test, topo.implicit_scaling);
	KUNIT_EXPECT_EQ(test, topo.multi_storage_policy, 1);
	KUNIT_EXPECT_EQ(test, topo.multi_storage_granularity, (u64)SZ_128K);
	KUNIT_EXPECT_EQ(test, topo.tile_mem_size, (u64)SZ_256M);

	zex_topo(&topo, 4, 0);
	KUNIT_EXPECT_FALSE(test, topo.implicit_scaling);

	/* One tile has nothing to scale over. */
	zex_topo(&topo, 1, 1);
	KUNIT_EXPECT_FALSE(test, topo.implicit_scaling);
}

static void zex_test_topology_tile_mem_no_overflow(struct kunit *test)
{
	struct zex_params p = {
		.tiles = 8, .tile_mem_mb = 65536, .enable_implicit_scaling = 1,
		.multi_storage_granularity_kb = 1048576,
	};
	struct zex_topology topo;

	zex_topology_init(&topo, &p);
	KUNIT_EXPECT_EQ(test, topo.tile_mem_size, 65536ULL << 20);
	KUNIT_EXPECT_EQ(test, topo.multi_storage_granularity, 1ULL << 30);
}

static void zex_check_tile_engines(struct kunit *test,
				   const struct drm_zex_engine_info *e,
				   u16 device, u32 tile)
{
	int i;

	for (i = 0; i < ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES; i++) {
		bool compute = i < ZEX_TILE_COMPUTE_ENGINES;

		KUNIT_EXPECT_EQ(test, e[i].engine_class,
				compute ? DRM_ZEX_ENGINE_CLASS_COMPUTE :
					  DRM_ZEX_ENGINE_CLASS_COPY);
		KUNIT_EXPECT_EQ(test, e[i].engine_instance,
				compute ? i : i - ZEX_TILE_COMPUTE_ENGINES);
		KUNIT_EXPECT_EQ(test, e[i].device, device);
		KUNIT_EXPECT_EQ(test, e[i].tile_mask, BIT(tile));
	}
}

static void zex_test_topology_engines(struct kunit *test)
{
	static const unsigned int tile_counts[] = { 1, 2, 4, 8 };
	const u32 per_tile = ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES;
	struct drm_zex_engine_info *e;
	unsigned int t, implicit;

	e = kunit_kcalloc(test, ZEX_MAX_ENGINES, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);

	for (t = 0; t < ARRAY_SIZE(tile_counts); t++) {
		for (implicit = 0; implicit <= 1; implicit++) {
			unsigned int tiles = tile_counts[t];
			struct zex_topology topo;
			u32 n, root, i;

			zex_topo(&topo, tiles, implicit);
			n = zex_topology_engines(&topo, NULL, 0);
			KUNIT_ASSERT_LE(test, n, (u32)ZEX_MAX_ENGINES);
			KUNIT_EXPECT_EQ(test, zex_topology_engines(&topo, e, n), n);

			if (topo.implicit_scaling) {
				root = 1 + ZEX_TILE_COPY_ENGINES;
				KUNIT_EXPECT_EQ(test, e[0].engine_class,
						DRM_ZEX_ENGINE_CLASS_COMPUTE);
				KUNIT_EXPECT_EQ(test, e[0].device, DRM_ZEX_DEVICE_ROOT);
				KUNIT_EXPECT_EQ(test, e[0].tile_mask,
						GENMASK(tiles - 1, 0));
				for (i = 1; i < root; i++) {
					KUNIT_EXPECT_EQ(test, e[i].engine_class,
							DRM_ZEX_ENGINE_CLASS_COPY);
					KUNIT_EXPECT_EQ(test, e[i].engine_instance, i - 1);
					KUNIT_EXPECT_EQ(test, e[i].device,
							DRM_ZEX_DEVICE_ROOT);
					KUNIT_EXPECT_EQ(test, e[i].tile_mask, BIT(0));
				}
			} else {
				root = per_tile;
				zex_check_tile_engines(test, e, DRM_ZEX_DEVICE_ROOT, 0);
			}
			KUNIT_EXPECT_EQ(test, n, root + tiles * per_tile);
			for (i = 0; i < tiles; i++)
				zex_check_tile_engines(test, &e[root + i * per_tile],
						       i, i);
		}
	}
}

static void zex_test_topology_engines_truncated(struct kunit *test)
{
	struct drm_zex_engine_info e[3];
	struct zex_topology topo;

	memset(e, 0xa5, sizeof(e));
	zex_topo(&topo, 2, 1);
	/* Writes at most max entries but still reports the full count. */
	KUNIT_EXPECT_EQ(test, zex_topology_engines(&topo, e, 2),
			1 + ZEX_TILE_COPY_ENGINES +
			2 * (ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES));
	KUNIT_EXPECT_EQ(test, e[2].engine_class, 0xa5a5);
}

static struct kunit_case zex_topology_test_cases[] = {
	KUNIT_CASE(zex_test_topology_values),
	KUNIT_CASE(zex_test_topology_tile_mem_no_overflow),
	KUNIT_CASE(zex_test_topology_engines),
	KUNIT_CASE(zex_test_topology_engines_truncated),
	{}
};

static struct kunit_suite zex_topology_test_suite = {
	.name = "zex_topology",
	.test_cases = zex_topology_test_cases,
};

kunit_test_suite(zex_topology_test_suite);
