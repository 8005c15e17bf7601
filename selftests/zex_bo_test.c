// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_bo_test.c - kselftest of the minimal buffer object
 *
 * Create on each tile, map, write and read back, close; the tile's memory
 * accounting (query and sysfs) follows every step. Malformed creates,
 * oversized creates and foreign handles are refused with specific errnos
 * and leave nothing allocated.
 */

#include <stdint.h>
#include <sys/mman.h>

#include "zex_selftest.h"

FIXTURE(bo) {
	int fd;
	unsigned int tiles;
	uint64_t tile_mem;
};

FIXTURE_SETUP(bo)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->tiles = (unsigned int)zex_param("tiles");
	self->tile_mem = (uint64_t)zex_param("tile_mem_mb") << 20;
}

FIXTURE_TEARDOWN(bo)
{
	unsigned int t;

	close(self->fd);
	/* Whatever a test did, closing its fd returned every byte. */
	for (t = 0; t < self->tiles; t++)
		EXPECT_EQ(0, zex_tile_attr(t, "mem_used"));
}

static uint64_t tile_used(int fd, unsigned int tile, uint64_t *num_bos)
{
	struct {
		struct drm_zex_query_tiles hdr;
		struct drm_zex_tile_info tiles[DRM_ZEX_MAX_TILES];
	} a;
	struct drm_zex_query q = {
		.query = DRM_ZEX_QUERY_TILES,
		.size = sizeof(a),
		.data = (uintptr_t)&a,
	};

	if (zex_ioctl(fd, DRM_IOCTL_ZEX_QUERY, &q))
		return UINT64_MAX;
	if (num_bos)
		*num_bos = a.tiles[tile].num_bos;
	return a.tiles[tile].mem_used;
}

TEST_F(bo, create_map_close_on_every_tile)
{
	const size_t size = 3 * 4096 + 100;
	unsigned int t;

	for (t = 0; t < self->tiles; t++) {
		uint64_t rounded, bos;
		uint32_t h;
		uint32_t *p;
		size_t i;
		bool same = true;

		ASSERT_EQ(0, raw_bo_create(self->fd, size, t, &h, &rounded));
		EXPECT_NE(0, h);
		EXPECT_EQ(4 * 4096, rounded);
		EXPECT_EQ(rounded, tile_used(self->fd, t, &bos));
		EXPECT_EQ(1, bos);
		EXPECT_EQ((long long)rounded, zex_tile_attr(t, "mem_used"));
		EXPECT_EQ(1, zex_tile_attr(t, "num_bos"));
		if (t + 1 < self->tiles)
			EXPECT_EQ(0, tile_used(self->fd, t + 1, NULL));

		p = raw_bo_map(self->fd, h, rounded);
		ASSERT_NE(MAP_FAILED, p);
		/* Fresh memory reads as zero. */
		for (i = 0; i < rounded / 4; i++)
			same &= p[i] == 0;
		EXPECT_TRUE(same);
		for (i = 0; i < rounded / 4; i++)
			p[i] = (uint32_t)(i * 2654435761u) ^ t;
		ASSERT_EQ(0, munmap(p, rounded));

		/* A second mapping sees what the first one wrote. */
		p = raw_bo_map(self->fd, h, rounded);
		ASSERT_NE(MAP_FAILED, p);
		same = true;
		for (i = 0; i < rounded / 4; i++)
			same &= p[i] == ((uint32_t)(i * 2654435761u) ^ t);
		EXPECT_TRUE(same);

		/* The mapping keeps the object (and its charge) alive. */
		EXPECT_EQ(0, raw_bo_close(self->fd, h));
		EXPECT_EQ(rounded, tile_used(self->fd, t, NULL));
		EXPECT_EQ(2654435761u ^ t, p[1]);
		ASSERT_EQ(0, munmap(p, rounded));
		EXPECT_EQ(0, tile_used(self->fd, t, &bos));
		EXPECT_EQ(0, bos);
	}
}

TEST_F(bo, malformed_create_is_einval)
{
	struct drm_zex_bo_create c;

	memset(&c, 0, sizeof(c));
	c.size = 4096;
	c.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.flags = 0;
	c.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.pad = 0;
	c.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.reserved[0] = 0;
	c.extensions = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.extensions = 0;
	c.size = 0;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.size = UINT64_MAX;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.size = UINT64_MAX - 4094;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.size = 4096;
	c.placement = self->tiles;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.placement = DRM_ZEX_DEVICE_ROOT - 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	/* Colouring overrides: only for the root, only valid values. */
	c.placement = 0;
	c.flags = DRM_ZEX_BO_CREATE_COLOURING;
	c.multi_storage_granularity_kb = 64;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.placement = DRM_ZEX_DEVICE_ROOT;
	c.multi_storage_policy = 3;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.multi_storage_policy = 1;
	c.multi_storage_granularity_kb = 32;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.multi_storage_granularity_kb = 96;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.multi_storage_granularity_kb = 2 * 1024 * 1024;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	/* Override values without the flag are not silently ignored. */
	c.flags = 0;
	c.multi_storage_granularity_kb = 64;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	c.multi_storage_granularity_kb = 0;
	c.multi_storage_policy = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	EXPECT_EQ(0, tile_used(self->fd, 0, NULL));
}

TEST_F(bo, tile_capacity_is_enforced)
{
	uint32_t h, h2;
	uint64_t bos;

	EXPECT_EQ(-ENOSPC, raw_bo_create(self->fd, self->tile_mem + 1, 0, &h, NULL));
	EXPECT_EQ(-ENOSPC, raw_bo_create(self->fd, UINT64_MAX - 8192, 0, &h, NULL));
	EXPECT_EQ(0, tile_used(self->fd, 0, &bos));
	EXPECT_EQ(0, bos);

	/* Exactly the tile's capacity fits (pages are only charged, not
	 * touched), then not one page more. */
	ASSERT_EQ(0, raw_bo_create(self->fd, self->tile_mem, 0, &h, NULL));
	EXPECT_EQ(self->tile_mem, tile_used(self->fd, 0, NULL));
	EXPECT_EQ(-ENOSPC, raw_bo_create(self->fd, 4096, 0, &h2, NULL));
	EXPECT_EQ(self->tile_mem, tile_used(self->fd, 0, &bos));
	EXPECT_EQ(1, bos);
	/* Other tiles are separate accounting domains. */
	if (self->tiles > 1) {
		EXPECT_EQ(0, raw_bo_create(self->fd, 4096, 1, &h2, NULL));
		EXPECT_EQ(0, raw_bo_close(self->fd, h2));
	}
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, raw_bo_create(self->fd, 4096, 0, &h2, NULL));
	EXPECT_EQ(0, raw_bo_close(self->fd, h2));
}

TEST_F(bo, bad_handles)
{
	struct drm_zex_bo_mmap_offset m = { .handle = 0x7fffffff };
	uint32_t h;
	int other;

	EXPECT_EQ(-ENOENT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));
	ASSERT_EQ(0, raw_bo_create(self->fd, 4096, 0, &h, NULL));
	m.handle = h;
	m.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));
	m.flags = 0;
	m.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));
	m.reserved[1] = 0;
	EXPECT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));

	/* Handles are per file: another fd cannot use this one. */
	other = zex_open_render();
	ASSERT_LE(0, other);
	EXPECT_EQ(-ENOENT, zex_ioctl(other, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));
	EXPECT_EQ(-EINVAL, raw_bo_close(other, h));
	close(other);

	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(-EINVAL, raw_bo_close(self->fd, h));
}

TEST_F(bo, closing_the_fd_frees_everything)
{
	int other = zex_open_render();
	uint32_t h;
	int i;

	ASSERT_LE(0, other);
	for (i = 0; i < 16; i++)
		ASSERT_EQ(0, raw_bo_create(other, 65536, i % self->tiles, &h, NULL));
	EXPECT_LT(0, tile_used(self->fd, 0, NULL));
	close(other);
	EXPECT_EQ(0, tile_used(self->fd, 0, NULL));
}

TEST_F(bo, mapping_past_the_end_fails)
{
	struct drm_zex_bo_mmap_offset m = { 0 };
	uint32_t h;
	void *p;

	ASSERT_EQ(0, raw_bo_create(self->fd, 8192, 0, &h, NULL));
	m.handle = h;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m));
	p = mmap(NULL, 3 * 4096, PROT_READ, MAP_SHARED, self->fd, (off_t)m.offset);
	EXPECT_EQ(MAP_FAILED, p);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, self->fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

ZEX_SELFTEST_MAIN
