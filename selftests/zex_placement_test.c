// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_placement_test.c - kselftest of placement and colouring
 *
 * Every placement (each tile, the root) and every policy (even, chunk,
 * interleave) at several granularities is created and checked three ways:
 * DRM_IOCTL_ZEX_BO_INFO against compute-runtime's rules written out again
 * here as the oracle, each tile's sysfs accounting against the pieces, and
 * the bytes: a pattern written through the object's mapping must appear in
 * each exported piece's own mapping exactly where the layout says.
 */

#include <stdint.h>
#include <sys/mman.h>

#include "zex_selftest.h"

#define K64	65536ull

struct oracle_piece {
	uint32_t tile;
	uint64_t offset, size;
};

/* compute-runtime's colouring rules; returns the piece count. */
static unsigned int oracle(uint64_t size, unsigned int tiles, unsigned int policy,
			   uint64_t gran, struct oracle_piece *p, bool *interleaved)
{
	uint64_t aligned, remaining, chunks;
	unsigned int i, n;

	*interleaved = false;
	if (tiles < 2 || size < tiles * gran) {
		p[0] = (struct oracle_piece){ 0, 0, (size + 4095) & ~4095ull };
		return 1;
	}
	aligned = (size + gran - 1) / gran * gran;
	chunks = aligned / gran;
	if (policy == 1) {
		for (i = 0; i < chunks; i++)
			p[i] = (struct oracle_piece){ i % tiles, i * gran, gran };
		return (unsigned int)chunks;
	}
	n = tiles;
	if (policy == 2) {
		*interleaved = true;
		for (i = 0; i < n; i++)
			p[i] = (struct oracle_piece){ i, i * gran,
						      (chunks - i + n - 1) / n * gran };
		return n;
	}
	remaining = aligned;
	for (i = 0; i < n; i++) {
		uint64_t piece = (remaining / (n - i) + gran - 1) / gran * gran;

		p[i] = (struct oracle_piece){ i, aligned - remaining, piece };
		remaining -= piece;
	}
	return n;
}

/* Where byte @off of the object lives: piece index and offset in it. */
static unsigned int locate(const struct drm_zex_piece_info *pc, unsigned int n,
			   bool interleaved, uint64_t gran, uint64_t off, uint64_t *poff)
{
	unsigned int i;

	if (interleaved) {
		uint64_t chunk = off / gran;

		*poff = chunk / n * gran + off % gran;
		return (unsigned int)(chunk % n);
	}
	for (i = n - 1; pc[i].offset > off; i--)
		;
	*poff = off - pc[i].offset;
	return i;
}

FIXTURE(placement) {
	int fd;
	unsigned int tiles;
	bool implicit;
	uint64_t tile_mem;
};

FIXTURE_SETUP(placement)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->tiles = (unsigned int)zex_param("tiles");
	self->implicit = zex_implicit_scaling();
	self->tile_mem = (uint64_t)zex_param("tile_mem_mb") << 20;
	ASSERT_EQ(0, zex_tiles_usage());
}

FIXTURE_TEARDOWN(placement)
{
	close(self->fd);
	EXPECT_EQ(0, zex_tiles_usage());
}

/*
 * Create, compare with the oracle, check sysfs, and check that each piece's
 * dma-buf shows exactly its bytes of the object.
 */
static void check_bo(struct __test_metadata *_metadata, int fd, unsigned int tiles,
		     uint64_t size, bool root, uint32_t tile, int policy,
		     uint64_t gran)
{
	struct oracle_piece *want;
	struct drm_zex_piece_info *got = NULL;
	struct drm_zex_bo_info info = { 0 };
	long long used_before[DRM_ZEX_MAX_TILES], used[DRM_ZEX_MAX_TILES] = { 0 };
	unsigned int n, i, t;
	bool interleaved;
	uint64_t bo_size, off;
	uint32_t handle;
	int *fds, ret;
	uint8_t *map, **pmaps;

	want = calloc(DRM_ZEX_MAX_PIECES, sizeof(*want));
	fds = calloc(DRM_ZEX_MAX_PIECES, sizeof(*fds));
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, fds);
	for (t = 0; t < tiles; t++)
		used_before[t] = zex_tile_attr(t, "mem_used");

	if (!root) {
		ASSERT_EQ(0, raw_bo_create(fd, size, tile, &handle, &bo_size));
		n = oracle(size, 1, 0, gran, want, &interleaved);
		want[0].tile = tile;
	} else if (policy < 0) {
		/* Module defaults. */
		ASSERT_EQ(0, raw_bo_create(fd, size, DRM_ZEX_DEVICE_ROOT, &handle, &bo_size));
		n = oracle(size, tiles, (unsigned int)zex_param("multi_storage_policy"),
			   (uint64_t)zex_param("multi_storage_granularity_kb") << 10,
			   want, &interleaved);
	} else {
		ASSERT_EQ(0, raw_bo_create_coloured(fd, size, (uint32_t)policy,
						    (uint32_t)(gran >> 10), &handle,
						    &bo_size));
		n = oracle(size, tiles, (unsigned int)policy, gran, want, &interleaved);
	}

	ret = raw_bo_pieces(fd, handle, &got, &info);
	ASSERT_EQ((int)n, ret);
	EXPECT_EQ(interleaved ? DRM_ZEX_BO_INTERLEAVED : 0, info.layout);
	off = 0;
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i].tile, got[i].tile) TH_LOG("piece %u", i);
		EXPECT_EQ(want[i].size, got[i].size) TH_LOG("piece %u", i);
		EXPECT_EQ(want[i].offset, got[i].offset) TH_LOG("piece %u", i);
		used[got[i].tile] += (long long)got[i].size;
		off += got[i].size;
	}
	EXPECT_EQ(off, bo_size);
	EXPECT_EQ(off, info.size);
	for (t = 0; t < tiles; t++)
		EXPECT_EQ(used_before[t] + used[t], zex_tile_attr(t, "mem_used"))
			TH_LOG("tile %u", t);

	/* The bytes: a pattern through the object, read back per piece. */
	map = raw_bo_map(fd, handle, bo_size);
	ASSERT_NE(MAP_FAILED, map);
	for (off = 0; off < bo_size; off += 4096)
		*(uint64_t *)(map + off) = off ^ 0x5a5a5a5a00000000ull;
	ASSERT_EQ((int)n, raw_bo_export(fd, handle, fds, DRM_ZEX_MAX_PIECES));
	pmaps = calloc(n, sizeof(*pmaps));
	ASSERT_NE(NULL, pmaps);
	for (i = 0; i < n; i++) {
		uint8_t *last;

		pmaps[i] = mmap(NULL, got[i].size, PROT_READ, MAP_SHARED, fds[i], 0);
		ASSERT_NE(MAP_FAILED, pmaps[i]) TH_LOG("piece %u", i);
		/* A mapping at an offset shows the bytes at that offset. */
		last = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fds[i],
			    (off_t)(got[i].size - 4096));
		ASSERT_NE(MAP_FAILED, last);
		EXPECT_EQ(0, memcmp(last, pmaps[i] + got[i].size - 4096, 4096))
			TH_LOG("piece %u", i);
		munmap(last, 4096);
	}
	for (off = 0; off < bo_size; off += 4096) {
		uint64_t poff;
		unsigned int idx = locate(got, n, interleaved, info.granularity, off, &poff);

		if (*(uint64_t *)(pmaps[idx] + poff) != (off ^ 0x5a5a5a5a00000000ull)) {
			EXPECT_EQ(off ^ 0x5a5a5a5a00000000ull, *(uint64_t *)(pmaps[idx] + poff))
				TH_LOG("object offset %llu is piece %u offset %llu",
				       (unsigned long long)off, idx, (unsigned long long)poff);
			break;
		}
	}
	for (i = 0; i < n; i++)
		munmap(pmaps[i], got[i].size);
	free(pmaps);
	for (i = 0; i < n; i++)
		close(fds[i]);
	munmap(map, bo_size);
	EXPECT_EQ(0, raw_bo_close(fd, handle));
	for (t = 0; t < tiles; t++)
		EXPECT_EQ(used_before[t], zex_tile_attr(t, "mem_used"));
	free(got);
	free(want);
	free(fds);
}

TEST_F(placement, each_tile)
{
	unsigned int t;

	for (t = 0; t < self->tiles; t++) {
		check_bo(_metadata, self->fd, self->tiles, 5 * K64 + 1, false, t, 0, K64);
		EXPECT_EQ(0, zex_tile_attr(t, "num_bos"));
	}
}

TEST_F(placement, root_with_module_defaults)
{
	unsigned int tiles = self->implicit ? self->tiles : 1;

	check_bo(_metadata, self->fd, tiles, 18 * K64, true, 0, -1, K64);
	check_bo(_metadata, self->fd, tiles, 64 * K64 + 8192, true, 0, -1, K64);
	check_bo(_metadata, self->fd, tiles, 4096, true, 0, -1, K64);
}

/* 54 objects: allow for KASAN under TCG. */
TEST_F_TIMEOUT(placement, root_every_policy_and_granularity, 300)
{
	static const uint64_t grans[] = { K64, 2 * K64, 1 << 21 };
	static const uint64_t sizes[] = { 1, K64 - 1, 2 * K64, 18 * K64, 18 * K64 + 4096,
					  7 * (1 << 21) + 12345 };
	unsigned int tiles = self->implicit ? self->tiles : 1;
	unsigned int p, g, s;

	for (p = 0; p <= 2; p++)
		for (g = 0; g < 3; g++)
			for (s = 0; s < 6; s++)
				check_bo(_metadata, self->fd, tiles, sizes[s], true, 0,
					 (int)p, grans[g]);
}

TEST_F(placement, even_split_example_from_compute_runtime)
{
	struct drm_zex_piece_info *got;
	uint32_t handle;
	int n;

	if (!self->implicit || (self->tiles != 4 && self->tiles != 2))
		SKIP(return, "needs 2 or 4 tiles with implicit scaling");
	ASSERT_EQ(0, raw_bo_create_coloured(self->fd, 18 * K64, 0, 64, &handle, NULL));
	n = raw_bo_pieces(self->fd, handle, &got, NULL);
	ASSERT_EQ((int)self->tiles, n);
	if (self->tiles == 4) {
		EXPECT_EQ(5 * K64, got[0].size);
		EXPECT_EQ(5 * K64, got[1].size);
		EXPECT_EQ(4 * K64, got[2].size);
		EXPECT_EQ(4 * K64, got[3].size);
	} else {
		EXPECT_EQ(9 * K64, got[0].size);
		EXPECT_EQ(9 * K64, got[1].size);
	}
	free(got);
	EXPECT_EQ(0, raw_bo_close(self->fd, handle));
}

TEST_F(placement, too_many_chunks_is_e2big)
{
	uint32_t handle;

	if (!self->implicit)
		SKIP(return, "needs implicit scaling");
	EXPECT_EQ(-E2BIG, raw_bo_create_coloured(self->fd, (DRM_ZEX_MAX_PIECES + 1) * K64,
						 1, 64, &handle, NULL));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(placement, a_full_tile_fails_the_whole_object)
{
	uint64_t per_tile, size;
	uint32_t filler, handle;

	if (!self->implicit)
		SKIP(return, "needs implicit scaling");
	/* Fill the last tile but one granule; an even split needs more there. */
	ASSERT_EQ(0, raw_bo_create(self->fd, self->tile_mem - K64, self->tiles - 1,
				   &filler, NULL));
	per_tile = 2 * K64;
	size = per_tile * self->tiles;
	EXPECT_EQ(-ENOSPC, raw_bo_create_coloured(self->fd, size, 0, 64, &handle, NULL));
	/* Nothing of the failed object stayed on any tile. */
	EXPECT_EQ((long long)(self->tile_mem - K64),
		  zex_tile_attr(self->tiles - 1, "mem_used"));
	EXPECT_EQ(1, zex_tile_attr(self->tiles - 1, "num_bos"));
	EXPECT_EQ(0, zex_tile_attr(0, "mem_used"));
	EXPECT_EQ(0, zex_tile_attr(0, "num_bos"));
	/* One granule per tile still fits. */
	EXPECT_EQ(0, raw_bo_create_coloured(self->fd, K64 * self->tiles, 0, 64,
					    &handle, NULL));
	EXPECT_EQ(0, raw_bo_close(self->fd, handle));
	EXPECT_EQ(0, raw_bo_close(self->fd, filler));
}

TEST_F(placement, bo_info_bad_input)
{
	struct drm_zex_bo_info i = { 0 };
	struct drm_zex_piece_info one;
	uint32_t handle;

	i.handle = 0x7fffffff;
	EXPECT_EQ(-ENOENT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_INFO, &i));
	if (!self->implicit) {
		ASSERT_EQ(0, raw_bo_create(self->fd, 4096, 0, &handle, NULL));
	} else {
		ASSERT_EQ(0, raw_bo_create_coloured(self->fd, 4 * K64 * self->tiles, 0, 64,
						    &handle, NULL));
	}
	i.handle = handle;
	i.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_INFO, &i));
	i.flags = 0;
	i.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_INFO, &i));
	i.reserved[0] = 0;
	if (self->implicit) {
		memset(&one, 0x77, sizeof(one));
		i.num_pieces = 1;
		i.pieces = (uintptr_t)&one;
		EXPECT_EQ(-ENOSPC, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_INFO, &i));
		EXPECT_EQ(0x77777777u, one.tile);
	}
	i.num_pieces = DRM_ZEX_MAX_PIECES;
	i.pieces = 8;
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_INFO, &i));
	EXPECT_EQ(0, raw_bo_close(self->fd, handle));
}

ZEX_SELFTEST_MAIN
