// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_hierarchy_test.c - the devices a process sees: hierarchies and masks
 *
 * ZE_FLAT_DEVICE_HIERARCHY (COMPOSITE, FLAT, COMBINED) and
 * ZE_AFFINITY_MASK, read at zeInit: each case sets them in its own
 * process (the harness forks one per case) and checks what libzex lists
 * against the tiles the kernel reports (one or more): the devices, their
 * sub-devices and root devices, their flags and memory, and where an
 * allocation on the one device a mask leaves lands.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zex_selftest.h"
#include "zex/zex.h"
#include "zex/zex_api.h"

FIXTURE(hier) {
	struct zex_device *zdev;
	struct zex_topology topo;
};

FIXTURE_SETUP(hier)
{
	if (zex_device_open(&self->zdev))
		SKIP(return, "no zex device");
	self->topo.size = sizeof(self->topo);
	ASSERT_EQ(0, zex_device_query_topology(self->zdev, &self->topo));
}

/* The harness runs a case's body after its setup skipped: each body checks. */
#define NEED_DEVICE() do { if (!self->zdev) SKIP(return, "no zex device"); } while (0)

FIXTURE_TEARDOWN(hier)
{
	if (self->zdev)
		zex_device_close(self->zdev);
}

/* zeInit with @hierarchy and @mask (NULL: unset); the devices zeDeviceGet lists. */
static uint32_t devices(const char *hierarchy, const char *mask, ze_device_handle_t *out,
			uint32_t max)
{
	ze_driver_handle_t drv;
	uint32_t n = 1;

	if (hierarchy)
		setenv("ZE_FLAT_DEVICE_HIERARCHY", hierarchy, 1);
	if (mask)
		setenv("ZE_AFFINITY_MASK", mask, 1);
	if (zeInit(0) || zeDriverGet(&n, &drv) || n != 1)
		return UINT32_MAX;
	n = 0;
	if (zeDeviceGet(drv, &n, NULL))
		return UINT32_MAX;
	if (n > max)
		return n;
	return zeDeviceGet(drv, &n, out) ? UINT32_MAX : n;
}

static uint32_t sub_devices(ze_device_handle_t d, ze_device_handle_t *out)
{
	uint32_t n = 0;

	if (zeDeviceGetSubDevices(d, &n, NULL) || n > ZEX_MAX_TILES)
		return UINT32_MAX;
	return zeDeviceGetSubDevices(d, &n, out) ? UINT32_MAX : n;
}

static ze_device_handle_t root_of(ze_device_handle_t d)
{
	ze_device_handle_t r = (ze_device_handle_t)1;

	return zeDeviceGetRootDevice(d, &r) ? (ze_device_handle_t)1 : r;
}

static ze_device_properties_t props(ze_device_handle_t d)
{
	ze_device_properties_t p = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };

	zeDeviceGetProperties(d, &p);
	return p;
}

/* The tile a device is, by its uuid (byte 4: the tile; 0xff the whole device). */
static int tile_of(ze_device_handle_t d)
{
	ze_device_properties_t p = props(d);

	return p.uuid.id[4] == 0xff ? -1 : p.uuid.id[4];
}

TEST_F(hier, composite_is_one_root_with_every_tile)
{
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES];
	uint32_t i;

	NEED_DEVICE();

	ASSERT_EQ(1, devices(NULL, NULL, d, ZEX_MAX_TILES));
	EXPECT_EQ(0, props(d[0]).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
	EXPECT_EQ(NULL, root_of(d[0]));
	ASSERT_EQ(self->topo.num_tiles, sub_devices(d[0], sub));
	for (i = 0; i < self->topo.num_tiles; i++) {
		EXPECT_EQ((int)i, tile_of(sub[i]));
		EXPECT_EQ(d[0], root_of(sub[i]));
		EXPECT_TRUE(props(sub[i]).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
	}
}

TEST_F(hier, flat_makes_each_tile_a_device_of_its_own)
{
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES];
	uint32_t i;

	NEED_DEVICE();

	ASSERT_EQ(self->topo.num_tiles, devices("FLAT", NULL, d, ZEX_MAX_TILES));
	for (i = 0; i < self->topo.num_tiles; i++) {
		EXPECT_EQ((int)i, tile_of(d[i]));
		EXPECT_EQ(0, sub_devices(d[i], sub));
		EXPECT_EQ(NULL, root_of(d[i]));
		EXPECT_EQ(0, props(d[i]).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
	}
}

TEST_F(hier, combined_leads_from_the_tiles_to_their_root)
{
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES], root;
	uint32_t i;

	NEED_DEVICE();

	ASSERT_EQ(self->topo.num_tiles, devices("COMBINED", NULL, d, ZEX_MAX_TILES));
	root = root_of(d[0]);
	ASSERT_NE(NULL, root);
	EXPECT_EQ(-1, tile_of(root));
	ASSERT_EQ(self->topo.num_tiles, sub_devices(root, sub));
	for (i = 0; i < self->topo.num_tiles; i++) {
		EXPECT_EQ(d[i], sub[i]);
		EXPECT_EQ(root, root_of(d[i]));
		EXPECT_EQ(0, sub_devices(d[i], sub + i));
	}
}

/*
 * The last tile alone: the root device is that tile, its memory is there,
 * and an allocation on it lands there; with one tile, a mask of it changes
 * nothing.
 */
TEST_F(hier, a_composite_mask_of_one_tile_makes_the_root_that_tile)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_device_memory_properties_t mp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES };
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES];
	uint64_t used[ZEX_MAX_TILES];
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	uint32_t n = 1, last, i;
	char mask[16];
	void *p;

	NEED_DEVICE();
	last = self->topo.num_tiles - 1;
	snprintf(mask, sizeof(mask), "0.%u", last);
	ASSERT_EQ(1, devices(NULL, mask, d, ZEX_MAX_TILES));
	if (!last) {
		EXPECT_EQ(1, sub_devices(d[0], sub));
		return;
	}
	EXPECT_EQ(0, sub_devices(d[0], sub));
	EXPECT_EQ(NULL, root_of(d[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetMemoryProperties(d[0], &n, &mp));
	EXPECT_EQ(self->topo.tiles[last].mem_size, mp.totalSize);
	for (i = 0; i <= last; i++)
		used[i] = self->topo.tiles[i].mem_used;
	n = 1;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, 1 << 20, 0, d[0], &p));
	ASSERT_EQ(0, zex_device_query_topology(self->zdev, &self->topo));
	for (i = 0; i < last; i++)
		EXPECT_EQ(used[i], self->topo.tiles[i].mem_used);
	EXPECT_LE(used[last] + (1 << 20), self->topo.tiles[last].mem_used);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(ctx));
}

/* Every tile named, last first: the sub-devices in tile order. */
TEST_F(hier, composite_masks_list_the_tiles_they_name)
{
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES];
	char mask[64] = "";
	uint32_t i;

	NEED_DEVICE();
	for (i = self->topo.num_tiles; i-- > 0;)
		snprintf(mask + strlen(mask), sizeof(mask) - strlen(mask), "%s0.%u",
			 *mask ? "," : "", i);
	ASSERT_EQ(1, devices("COMPOSITE", mask, d, ZEX_MAX_TILES));
	ASSERT_EQ(self->topo.num_tiles, sub_devices(d[0], sub));
	for (i = 0; i < self->topo.num_tiles; i++)
		EXPECT_EQ((int)i, tile_of(sub[i]));
}

TEST_F(hier, a_flat_mask_names_devices_by_tile)
{
	ze_device_handle_t d[ZEX_MAX_TILES];
	char mask[16];

	NEED_DEVICE();
	snprintf(mask, sizeof(mask), "%u", self->topo.num_tiles - 1);
	ASSERT_EQ(1, devices("FLAT", mask, d, ZEX_MAX_TILES));
	EXPECT_EQ((int)self->topo.num_tiles - 1, tile_of(d[0]));
	EXPECT_EQ(NULL, root_of(d[0]));
}

TEST_F(hier, a_mask_that_names_nothing_shows_no_device)
{
	ze_device_handle_t d[ZEX_MAX_TILES];

	NEED_DEVICE();

	EXPECT_EQ(0, devices(NULL, "1.0,0.9", d, ZEX_MAX_TILES));
}

TEST_F(hier, an_unknown_hierarchy_is_composite)
{
	ze_device_handle_t d[ZEX_MAX_TILES], sub[ZEX_MAX_TILES];

	NEED_DEVICE();

	ASSERT_EQ(1, devices("flat", NULL, d, ZEX_MAX_TILES));
	EXPECT_EQ(self->topo.num_tiles, sub_devices(d[0], sub));
}

ZEX_SELFTEST_MAIN
