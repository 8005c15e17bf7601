// SPDX-License-Identifier: MIT
/*
 * DOC: topology_test.c - host unit test of zex_topology_parse()
 *
 * Well-formed answers parse into the values they carry; short answers,
 * counts that disagree with sizes and out-of-range values are -EPROTO and
 * never read past the buffers (the test runs under ASan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm/zex_drm.h>

#include "kselftest_harness.h"
#include "core/topology.h"

struct answers {
	struct drm_zex_query_device dev;
	struct drm_zex_query_tiles *tiles;
	size_t tiles_size;
	struct drm_zex_query_engines *eng;
	size_t eng_size;
};

static void make_answers(struct answers *a, unsigned int tiles, unsigned int engines)
{
	unsigned int i;

	memset(&a->dev, 0, sizeof(a->dev));
	a->dev.num_tiles = tiles;
	a->dev.flags = DRM_ZEX_DEVICE_IMPLICIT_SCALING;
	a->dev.multi_storage_policy = DRM_ZEX_MULTI_STORAGE_CHUNK;
	a->dev.multi_storage_granularity = 65536;
	a->dev.total_mem_size = (uint64_t)tiles << 28;
	a->tiles_size = sizeof(*a->tiles) + tiles * sizeof(a->tiles->tiles[0]);
	a->tiles = calloc(1, a->tiles_size);
	a->tiles->num_tiles = tiles;
	for (i = 0; i < tiles; i++) {
		a->tiles->tiles[i].id = i;
		a->tiles->tiles[i].mem_size = 1 << 28;
		a->tiles->tiles[i].mem_used = 4096 * i;
		a->tiles->tiles[i].num_bos = i;
		a->tiles->tiles[i].num_compute_engines = 4;
		a->tiles->tiles[i].num_copy_engines = 2;
	}
	a->eng_size = sizeof(*a->eng) + engines * sizeof(a->eng->engines[0]);
	a->eng = calloc(1, a->eng_size);
	a->eng->num_engines = engines;
	for (i = 0; i < engines; i++) {
		a->eng->engines[i].engine_class = i & 1;
		a->eng->engines[i].engine_instance = i;
		a->eng->engines[i].device = i ? (i - 1) % tiles : DRM_ZEX_DEVICE_ROOT;
		a->eng->engines[i].tile_mask = i ? 1 << ((i - 1) % tiles) : (1 << tiles) - 1;
	}
}

static int parse(struct answers *a, struct zex_topology *t)
{
	return zex_topology_parse(t, &a->dev, sizeof(a->dev), a->tiles,
				  a->tiles_size, a->eng, a->eng_size);
}

static void free_answers(struct answers *a)
{
	free(a->tiles);
	free(a->eng);
}

TEST(well_formed_answers_parse)
{
	struct answers a;
	struct zex_topology t;
	unsigned int i;

	make_answers(&a, 4, 7);
	ASSERT_EQ(0, parse(&a, &t));
	EXPECT_EQ(4, t.num_tiles);
	EXPECT_TRUE(t.implicit_scaling);
	EXPECT_EQ(1, t.multi_storage_policy);
	EXPECT_EQ(65536, t.multi_storage_granularity);
	EXPECT_EQ(4ull << 28, t.total_mem_size);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(i, t.tiles[i].id);
		EXPECT_EQ(4096 * i, t.tiles[i].mem_used);
		EXPECT_EQ(4, t.tiles[i].num_compute_engines);
	}
	EXPECT_EQ(7, t.num_engines);
	EXPECT_EQ(ZEX_DEVICE_ROOT, t.engines[0].device);
	EXPECT_EQ(0xf, t.engines[0].tile_mask);
	EXPECT_EQ(1, t.engines[6].device);
	free_answers(&a);
}

TEST(max_tiles_and_engines)
{
	struct answers a;
	struct zex_topology t;

	make_answers(&a, ZEX_MAX_TILES, ZEX_MAX_ENGINES);
	EXPECT_EQ(0, parse(&a, &t));
	free_answers(&a);
	make_answers(&a, ZEX_MAX_TILES, ZEX_MAX_ENGINES + 1);
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	free_answers(&a);
}

TEST(short_answers_are_eproto)
{
	struct answers a;
	struct zex_topology t;

	make_answers(&a, 2, 3);
	EXPECT_EQ(-EPROTO, zex_topology_parse(&t, &a.dev, sizeof(a.dev) - 1, a.tiles,
					      a.tiles_size, a.eng, a.eng_size));
	EXPECT_EQ(-EPROTO, zex_topology_parse(&t, &a.dev, sizeof(a.dev), a.tiles,
					      a.tiles_size - 1, a.eng, a.eng_size));
	EXPECT_EQ(-EPROTO, zex_topology_parse(&t, &a.dev, sizeof(a.dev), a.tiles,
					      a.tiles_size, a.eng, a.eng_size - 1));
	EXPECT_EQ(-EPROTO, zex_topology_parse(&t, &a.dev, sizeof(a.dev), a.tiles, 4,
					      a.eng, a.eng_size));
	EXPECT_EQ(-EPROTO, zex_topology_parse(&t, NULL, 0, a.tiles, a.tiles_size,
					      a.eng, a.eng_size));
	free_answers(&a);
}

TEST(inconsistent_answers_are_eproto)
{
	struct answers a;
	struct zex_topology t;

	make_answers(&a, 2, 3);
	a.tiles->num_tiles = 3;		/* disagrees with the device answer */
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.tiles->num_tiles = 2;
	a.tiles->tiles[1].id = 0;	/* tiles out of order */
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.tiles->tiles[1].id = 1;
	a.tiles->tiles[1].mem_used = a.tiles->tiles[1].mem_size + 1;
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.tiles->tiles[1].mem_used = 0;
	a.eng->engines[1].device = 2;	/* no such tile */
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.eng->engines[1].device = 0;
	a.eng->engines[1].tile_mask = 4;	/* beyond the tiles */
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.eng->engines[1].tile_mask = 0;
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.eng->engines[1].tile_mask = 1;
	a.dev.multi_storage_policy = 3;
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.dev.multi_storage_policy = 0;
	a.dev.num_tiles = 0;
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.dev.num_tiles = 2;
	a.eng->num_engines = 0x7fffffff;	/* count far beyond the size */
	EXPECT_EQ(-EPROTO, parse(&a, &t));
	a.eng->num_engines = 3;
	EXPECT_EQ(0, parse(&a, &t));
	free_answers(&a);
}

TEST_HARNESS_MAIN
