// SPDX-License-Identifier: MIT
/*
 * DOC: device_hierarchy_test.c - host unit test of zex_visible_devices_read()
 *
 * A fake environment feeds the hierarchies and affinity masks in each
 * hierarchy's numbering, with entries that name nothing and malformed
 * ones: the tiles seen, and each invalid variable reported once.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "core/device_hierarchy.h"

static const char *fake_hierarchy, *fake_mask;
static int num_reported;
static const char *reported;

static const char *fake_getenv(const char *name)
{
	if (!strcmp(name, "ZE_FLAT_DEVICE_HIERARCHY"))
		return fake_hierarchy;
	if (!strcmp(name, "ZE_AFFINITY_MASK"))
		return fake_mask;
	return NULL;
}

static void record_invalid(const char *name, const char *value, void *arg)
{
	(void)value;
	(void)arg;
	reported = name;
	num_reported++;
}

/* The tiles of 2 seen with @hierarchy and @mask; the reports counted. */
static uint32_t seen(const char *hierarchy, const char *mask, enum zex_hierarchy *h)
{
	struct zex_visible_devices v;

	fake_hierarchy = hierarchy;
	fake_mask = mask;
	num_reported = 0;
	reported = NULL;
	zex_visible_devices_read(&v, 2, fake_getenv, record_invalid, NULL);
	if (h)
		*h = v.hierarchy;
	return v.tile_mask;
}

TEST(unset_is_composite_with_every_tile)
{
	enum zex_hierarchy h;

	EXPECT_EQ(3, seen(NULL, NULL, &h));
	EXPECT_EQ(ZEX_HIERARCHY_COMPOSITE, h);
	EXPECT_EQ(3, seen("COMPOSITE", "", &h));
	EXPECT_EQ(ZEX_HIERARCHY_COMPOSITE, h);
	EXPECT_EQ(3, seen("FLAT", NULL, &h));
	EXPECT_EQ(ZEX_HIERARCHY_FLAT, h);
	EXPECT_EQ(3, seen("COMBINED", NULL, &h));
	EXPECT_EQ(ZEX_HIERARCHY_COMBINED, h);
	EXPECT_EQ(0, num_reported);
}

TEST(composite_masks_name_the_root_or_its_tiles)
{
	EXPECT_EQ(3, seen(NULL, "0", NULL));
	EXPECT_EQ(1, seen(NULL, "0.0", NULL));
	EXPECT_EQ(2, seen("COMPOSITE", "0.1", NULL));
	EXPECT_EQ(3, seen(NULL, "0.1,0.0", NULL));
	/* Another root device, or a tile beyond the device: nothing. */
	EXPECT_EQ(0, seen(NULL, "1", NULL));
	EXPECT_EQ(2, seen(NULL, "1.0,0.1,0.2", NULL));
	EXPECT_EQ(0, num_reported);
}

TEST(flat_and_combined_masks_name_tiles)
{
	EXPECT_EQ(1, seen("FLAT", "0", NULL));
	EXPECT_EQ(2, seen("FLAT", "1", NULL));
	EXPECT_EQ(3, seen("COMBINED", "0,1", NULL));
	EXPECT_EQ(2, seen("COMBINED", "1,2", NULL));
	EXPECT_EQ(0, seen("FLAT", "2", NULL));
	EXPECT_EQ(0, num_reported);
}

TEST(invalid_values_are_named_once)
{
	static const char *const bad_masks[] = { "x", "0.", ".0", "0..1", "0,", ",0", "0;1",
						 "-1", "1000", "0.0.0" };
	enum zex_hierarchy h;
	unsigned int i;

	EXPECT_EQ(3, seen("flat", NULL, &h));
	EXPECT_EQ(ZEX_HIERARCHY_COMPOSITE, h);
	EXPECT_EQ(1, num_reported);
	EXPECT_STREQ("ZE_FLAT_DEVICE_HIERARCHY", reported);
	for (i = 0; i < sizeof(bad_masks) / sizeof(bad_masks[0]); i++) {
		seen(NULL, bad_masks[i], NULL);
		EXPECT_EQ(1, num_reported);
		EXPECT_STREQ("ZE_AFFINITY_MASK", reported);
	}
	/* The good entries beside a bad one still count. */
	EXPECT_EQ(1, seen(NULL, "0.0,zz", NULL));
	EXPECT_EQ(1, num_reported);
	/* A tile of a tile is not FLAT's numbering. */
	EXPECT_EQ(2, seen("FLAT", "0.0,1", NULL));
	EXPECT_EQ(1, num_reported);
}

TEST_HARNESS_MAIN
