// SPDX-License-Identifier: MIT
/*
 * DOC: link_resolve_test.c - host unit test of zex_link_resolve()
 *
 * Modules as tables of names: a module's imports found in a later
 * candidate, transitively, the first exporter preferred, each needed
 * module once, a cycle ended, and a name nobody exports reported.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "compute/link_resolve.h"

#define I(n)	{ n, true }
#define E(n)	{ n, false }

static const struct zex_spirv_link mod[] = { I("f"), I("g"), E("k") };
static const struct zex_spirv_link lib_f[] = { E("f"), I("h") };
static const struct zex_spirv_link lib_g[] = { E("g"), E("f") };
static const struct zex_spirv_link lib_h[] = { E("h"), I("f") };
static const struct zex_spirv_link none[] = { E("x") };

#define U(t)	{ t, sizeof(t) / sizeof(t[0]) }

TEST(imports_are_found_transitively_first_exporter_first)
{
	const struct zex_link_unit units[] = { U(mod), U(none), U(lib_f), U(lib_g), U(lib_h) };
	uint32_t needed[4], n = 99;
	const char *missing = NULL;

	ASSERT_EQ(0, zex_link_resolve(units, 5, needed, &n, &missing));
	/* f from lib_f (before lib_g), g from lib_g, lib_f's h from lib_h; lib_h's f taken. */
	ASSERT_EQ(3, n);
	EXPECT_EQ(2, needed[0]);
	EXPECT_EQ(3, needed[1]);
	EXPECT_EQ(4, needed[2]);
	EXPECT_EQ(NULL, missing);
}

TEST(a_module_that_imports_nothing_needs_nothing)
{
	const struct zex_link_unit units[] = { U(none), U(lib_f) };
	uint32_t needed[1], n = 99;
	const char *missing = NULL;

	ASSERT_EQ(0, zex_link_resolve(units, 2, needed, &n, &missing));
	EXPECT_EQ(0, n);
}

TEST(a_name_nobody_exports_is_enolink_and_named)
{
	const struct zex_link_unit units[] = { U(mod), U(lib_f), U(lib_g) };
	uint32_t needed[2], n;
	const char *missing = NULL;

	/* lib_f imports h: nobody has it. */
	EXPECT_EQ(-ENOLINK, zex_link_resolve(units, 3, needed, &n, &missing));
	ASSERT_NE(NULL, missing);
	EXPECT_STREQ("h", missing);
	/* Alone, the module's first import is missing. */
	EXPECT_EQ(-ENOLINK, zex_link_resolve(units, 1, needed, &n, &missing));
	EXPECT_STREQ("f", missing);
}

TEST_HARNESS_MAIN
