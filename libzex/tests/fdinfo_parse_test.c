// SPDX-License-Identifier: MIT
/*
 * DOC: fdinfo_parse_test.c - host unit test of zex_fdinfo_parse()
 *
 * What Sysman takes from a client's fdinfo: the client id, each engine
 * class's time and each region's sizes with their units multiplied out;
 * another driver's file is not a zex client; a malformed number in a key
 * zex prints is refused, not read as zero; lines of other drivers' keys,
 * of the VFS, and regions past the tiles zex has are left alone.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "core/fdinfo_parse.h"

static const char zex_text[] =
	"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t5\n"
	"drm-driver:\tzex\n"
	"drm-client-id:\t42\n"
	"drm-engine-compute:\t1500 ns\n"
	"drm-engine-capacity-compute:\t9\n"
	"drm-engine-copy:\t123456789 ns\n"
	"drm-engine-capacity-copy:\t4\n"
	"drm-total-tile0:\t2 MiB\n"
	"drm-shared-tile0:\t0\n"
	"drm-active-tile0:\t0\n"
	"drm-resident-tile0:\t2 MiB\n"
	"drm-total-tile1:\t68 KiB\n"
	"drm-shared-tile1:\t68 KiB\n"
	"drm-total-tile9:\t1 MiB\n"
	"drm-total-system:\t4097\n"
	"drm-resident-system:\t4097\n";

TEST(every_key_zex_prints_is_read_with_its_unit)
{
	struct zex_client_usage u;

	ASSERT_EQ(0, zex_fdinfo_parse(zex_text, &u));
	EXPECT_EQ(42u, u.client_id);
	EXPECT_EQ(1500u, u.engine_ns[0]);
	EXPECT_EQ(123456789u, u.engine_ns[1]);
	EXPECT_EQ(2u << 20, u.tile_total[0]);
	EXPECT_EQ(0u, u.tile_shared[0]);
	EXPECT_EQ(68u << 10, u.tile_total[1]);
	EXPECT_EQ(68u << 10, u.tile_shared[1]);
	EXPECT_EQ(4097u, u.system_total);
	EXPECT_EQ(0u, u.system_shared);
	/* tile9 is past ZEX_MAX_TILES: left alone, nothing written out of bounds. */
	EXPECT_EQ(0u, u.tile_total[7]);
}

TEST(another_drivers_file_is_not_a_client)
{
	struct zex_client_usage u;

	EXPECT_EQ(-ENOENT, zex_fdinfo_parse("drm-driver:\ti915\ndrm-client-id:\t3\n"
					    "drm-engine-render:\t5 ns\n", &u));
	EXPECT_EQ(-ENOENT, zex_fdinfo_parse("pos:\t0\nflags:\t0\n", &u));
	EXPECT_EQ(-ENOENT, zex_fdinfo_parse("", &u));
	/* "zex" must be the whole name. */
	EXPECT_EQ(-ENOENT, zex_fdinfo_parse("drm-driver:\tzexx\n", &u));
}

TEST(a_malformed_number_is_refused)
{
	struct zex_client_usage u;

	EXPECT_EQ(-EINVAL, zex_fdinfo_parse("drm-driver:\tzex\ndrm-engine-copy:\tmany ns\n", &u));
	EXPECT_EQ(-EINVAL, zex_fdinfo_parse("drm-driver:\tzex\ndrm-client-id:\t-1\n", &u));
	EXPECT_EQ(-EINVAL, zex_fdinfo_parse("drm-driver:\tzex\ndrm-total-tile0:\t\n", &u));
	EXPECT_EQ(-EINVAL, zex_fdinfo_parse("drm-driver:\tzex\n"
					    "drm-engine-copy:\t99999999999999999999999 ns\n", &u));
}

TEST(a_line_without_a_final_newline_is_read)
{
	struct zex_client_usage u;

	ASSERT_EQ(0, zex_fdinfo_parse("drm-driver:\tzex\ndrm-engine-compute:\t7 ns", &u));
	EXPECT_EQ(7u, u.engine_ns[0]);
}

TEST_HARNESS_MAIN
