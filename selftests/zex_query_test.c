// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_query_test.c - kselftest of discovery and DRM_IOCTL_ZEX_QUERY
 *
 * The render node is listed by libdrm as a platform device; the tiles are
 * auxiliary devices bound by the tile driver and shown in sysfs; every
 * query answers what the module parameters say; every malformed query is
 * refused with its specific errno and leaves the user buffer untouched.
 */

#include <stdint.h>
#include <sys/mman.h>

#include "zex_selftest.h"

FIXTURE(query) {
	int fd;
	unsigned int tiles;
};

FIXTURE_SETUP(query)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->tiles = (unsigned int)zex_param("tiles");
	ASSERT_LE(1, self->tiles);
	ASSERT_GE(DRM_ZEX_MAX_TILES, self->tiles);
}

FIXTURE_TEARDOWN(query)
{
	close(self->fd);
}

static int zex_query(int fd, uint32_t id, void *buf, uint32_t *size)
{
	struct drm_zex_query q = {
		.query = id,
		.size = *size,
		.data = (uintptr_t)buf,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_QUERY, &q);

	*size = q.size;
	return ret;
}

TEST(libdrm_lists_zex_as_platform_device)
{
	drmDevicePtr devs[64];
	int n, i, found = 0;

	n = drmGetDevices2(0, devs, 64);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		drmVersionPtr ver;
		int fd;

		if (!(devs[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		fd = open(devs[i]->nodes[DRM_NODE_RENDER], O_RDWR);
		if (fd < 0)
			continue;
		ver = drmGetVersion(fd);
		if (ver && !strcmp(ver->name, "zex")) {
			found++;
			EXPECT_EQ(DRM_BUS_PLATFORM, devs[i]->bustype);
			EXPECT_EQ(0, ver->version_major);
		}
		drmFreeVersion(ver);
		close(fd);
	}
	drmFreeDevices(devs, n);
	EXPECT_EQ(1, found);
}

TEST_F(query, tiles_are_bound_auxiliary_devices)
{
	long long mem = zex_param("tile_mem_mb") << 20;
	char path[256], link[256];
	unsigned int t;
	ssize_t len;

	for (t = 0; t < self->tiles; t++) {
		EXPECT_EQ(t, zex_tile_attr(t, "id"));
		EXPECT_EQ(mem, zex_tile_attr(t, "mem_size"));
		EXPECT_EQ(0, zex_tile_attr(t, "mem_used"));
		EXPECT_EQ(0, zex_tile_attr(t, "num_bos"));
		snprintf(path, sizeof(path), ZEX_SYSFS_TILES "/zex.tile.%u/driver", t);
		len = readlink(path, link, sizeof(link) - 1);
		ASSERT_LT(0, len);
		link[len] = 0;
		EXPECT_NE(NULL, strstr(link, "zex.tile"));
		/* Each tile is a child of the GPU's platform device. */
		snprintf(path, sizeof(path), ZEX_SYSFS_PLATFORM "/zex.tile.%u", t);
		EXPECT_EQ(0, access(path, F_OK));
	}
	EXPECT_EQ(-1, zex_tile_attr(self->tiles, "id"));
}

TEST_F(query, device)
{
	struct drm_zex_query_device dev;
	uint32_t size = 0;

	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_DEVICE, NULL, &size));
	ASSERT_EQ(sizeof(dev), size);
	memset(&dev, 0xff, sizeof(dev));
	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_DEVICE, &dev, &size));
	EXPECT_EQ(sizeof(dev), size);
	EXPECT_EQ(self->tiles, dev.num_tiles);
	EXPECT_EQ(zex_implicit_scaling() ?
		  DRM_ZEX_DEVICE_IMPLICIT_SCALING : 0, dev.flags);
	EXPECT_EQ(zex_param("multi_storage_policy"), dev.multi_storage_policy);
	EXPECT_EQ(zex_param("multi_storage_granularity_kb") * 1024,
		  (long long)dev.multi_storage_granularity);
	EXPECT_EQ((zex_param("tile_mem_mb") << 20) * self->tiles,
		  (long long)dev.total_mem_size);
	EXPECT_EQ(0, dev.pad);
	EXPECT_EQ(1000000000ull, dev.timestamp_frequency);
	EXPECT_EQ(zex_param("job_timeout_ms"), dev.job_timeout_ms);
	EXPECT_EQ(zex_param("exec_max_queues"), dev.max_exec_queues);
	EXPECT_EQ(zex_param("exec_max_jobs"), dev.max_jobs_in_flight);
	EXPECT_EQ(zex_param("exec_max_lr_queues"), dev.max_lr_exec_queues);
	EXPECT_EQ(0, dev.reserved);
}

TEST_F(query, tiles)
{
	struct drm_zex_query_tiles *q;
	uint32_t size = 0, t;

	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_TILES, NULL, &size));
	ASSERT_EQ(sizeof(*q) + self->tiles * sizeof(q->tiles[0]), size);
	/* A larger buffer is fine; size says how much was written. */
	q = malloc(size + 64);
	ASSERT_NE(NULL, q);
	size += 64;
	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_TILES, q, &size));
	EXPECT_EQ(sizeof(*q) + self->tiles * sizeof(q->tiles[0]), size);
	EXPECT_EQ(self->tiles, q->num_tiles);
	for (t = 0; t < q->num_tiles; t++) {
		EXPECT_EQ(t, q->tiles[t].id);
		EXPECT_EQ(zex_param("tile_mem_mb") << 20,
			  (long long)q->tiles[t].mem_size);
		EXPECT_EQ(4, q->tiles[t].num_compute_engines);
		EXPECT_EQ(2, q->tiles[t].num_copy_engines);
		EXPECT_EQ(0, q->tiles[t].mem_used);
		EXPECT_EQ(0, q->tiles[t].num_bos);
	}
	free(q);
}

TEST_F(query, engine_model)
{
	bool implicit = zex_implicit_scaling();
	struct drm_zex_query_engines *q;
	uint32_t size = 0, i, root = 0, per_tile[DRM_ZEX_MAX_TILES] = {};
	uint32_t root_compute = 0, root_copy = 0;

	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_ENGINES, NULL, &size));
	q = malloc(size);
	ASSERT_NE(NULL, q);
	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_ENGINES, q, &size));
	ASSERT_EQ(sizeof(*q) + q->num_engines * sizeof(q->engines[0]), size);

	for (i = 0; i < q->num_engines; i++) {
		struct drm_zex_engine_info *e = &q->engines[i];

		if (e->device == DRM_ZEX_DEVICE_ROOT) {
			/* Root engines come first. */
			EXPECT_EQ(root, i);
			root++;
			if (e->engine_class == DRM_ZEX_ENGINE_CLASS_COMPUTE) {
				root_compute++;
				EXPECT_EQ(implicit ? (1u << self->tiles) - 1 : 1u,
					  e->tile_mask);
			} else {
				root_copy++;
				/* Tile 0's copy engines, exposed on the root. */
				EXPECT_EQ(1, e->tile_mask);
			}
		} else {
			ASSERT_GT(self->tiles, e->device);
			EXPECT_EQ(1u << e->device, e->tile_mask);
			per_tile[e->device]++;
		}
	}
	EXPECT_EQ(implicit ? 1 : 4, root_compute);
	EXPECT_EQ(2, root_copy);
	for (i = 0; i < self->tiles; i++)
		EXPECT_EQ(6, per_tile[i]);
	free(q);
}

TEST_F(query, bad_input_is_refused)
{
	struct drm_zex_query_device dev;
	struct drm_zex_query q;

	memset(&q, 0, sizeof(q));
	q.query = DRM_ZEX_QUERY_DEVICE;
	q.size = sizeof(dev);
	q.data = (uintptr_t)&dev;

	q.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.flags = 0;
	q.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.pad = 0;
	q.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.reserved[1] = 0;
	q.extensions = (uintptr_t)&dev;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.extensions = 0;
	q.query = DRM_ZEX_QUERY_ENGINES + 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.query = 0xffffffffu;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	q.query = DRM_ZEX_QUERY_DEVICE;
	/* And the well-formed query still works. */
	EXPECT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
}

TEST_F(query, short_buffer_is_enospc_and_untouched)
{
	unsigned char buf[4096];
	uint32_t size = 0, need, i;
	bool untouched = true;

	ASSERT_EQ(0, zex_query(self->fd, DRM_ZEX_QUERY_TILES, NULL, &size));
	need = size;
	memset(buf, 0x5a, sizeof(buf));
	size = need - 1;
	EXPECT_EQ(-ENOSPC, zex_query(self->fd, DRM_ZEX_QUERY_TILES, buf, &size));
	EXPECT_EQ(need - 1, size);
	size = 1;
	EXPECT_EQ(-ENOSPC, zex_query(self->fd, DRM_ZEX_QUERY_TILES, buf, &size));
	for (i = 0; i < sizeof(buf); i++)
		untouched &= buf[i] == 0x5a;
	EXPECT_TRUE(untouched);
}

TEST_F(query, bad_pointer_is_efault)
{
	uint32_t size = sizeof(struct drm_zex_query_device);
	void *ro;

	EXPECT_EQ(-EFAULT, zex_query(self->fd, DRM_ZEX_QUERY_DEVICE,
				     (void *)(uintptr_t)8, &size));
	/* A read-only page cannot take the answer either. */
	ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(-EFAULT, zex_query(self->fd, DRM_ZEX_QUERY_DEVICE, ro, &size));
	munmap(ro, 4096);
}

TEST_F(query, unknown_ioctl_is_refused)
{
	struct drm_zex_query q = { 0 };
	unsigned long bad = DRM_IOWR(DRM_COMMAND_BASE + 0x3f, struct drm_zex_query);

	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, bad, &q));
}

ZEX_SELFTEST_MAIN
