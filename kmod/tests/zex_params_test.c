// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_params_test.c - KUnit suite for module parameter validation
 *
 * Walks every rule of zex_params_validate() at, just inside and just
 * outside its bounds, and checks that a refusal names the right parameter.
 */

#include <kunit/test.h>

#include "../zex_params.h"

static const struct zex_params zex_defaults = {
	.tiles = 2,
	.tile_mem_mb = 256,
	.enable_implicit_scaling = 1,
	.multi_storage_policy = 0,
	.multi_storage_granularity_kb = 64,
};

struct zex_params_case {
	const char *desc;
	struct zex_params p;
	const char *bad_param;	/* NULL: must be accepted */
};

#define ZEX_CASE(d, field, value, bad) {				\
	.desc = d,							\
	.p = { .tiles = 2, .tile_mem_mb = 256,				\
	       .enable_implicit_scaling = 1,				\
	       .multi_storage_policy = 0,				\
	       .multi_storage_granularity_kb = 64, .field = (value) },	\
	.bad_param = bad,						\
}

static const struct zex_params_case zex_params_cases[] = {
	ZEX_CASE("tiles 1", tiles, 1, NULL),
	ZEX_CASE("tiles 8", tiles, 8, NULL),
	ZEX_CASE("tiles 0", tiles, 0, "tiles"),
	ZEX_CASE("tiles 9", tiles, 9, "tiles"),
	ZEX_CASE("tiles huge", tiles, 0xffffffff, "tiles"),
	ZEX_CASE("tile_mem_mb 1", tile_mem_mb, 1, NULL),
	ZEX_CASE("tile_mem_mb 65536", tile_mem_mb, 65536, NULL),
	ZEX_CASE("tile_mem_mb 0", tile_mem_mb, 0, "tile_mem_mb"),
	ZEX_CASE("tile_mem_mb 65537", tile_mem_mb, 65537, "tile_mem_mb"),
	ZEX_CASE("implicit scaling 0", enable_implicit_scaling, 0, NULL),
	ZEX_CASE("implicit scaling 2", enable_implicit_scaling, 2,
		 "enable_implicit_scaling"),
	ZEX_CASE("policy chunk", multi_storage_policy, 1, NULL),
	ZEX_CASE("policy interleave", multi_storage_policy, 2, NULL),
	ZEX_CASE("policy 3", multi_storage_policy, 3, "multi_storage_policy"),
	ZEX_CASE("granularity 128", multi_storage_granularity_kb, 128, NULL),
	ZEX_CASE("granularity 1 GiB", multi_storage_granularity_kb, 1048576, NULL),
	ZEX_CASE("granularity 32", multi_storage_granularity_kb, 32,
		 "multi_storage_granularity_kb"),
	ZEX_CASE("granularity 0", multi_storage_granularity_kb, 0,
		 "multi_storage_granularity_kb"),
	ZEX_CASE("granularity 96", multi_storage_granularity_kb, 96,
		 "multi_storage_granularity_kb"),
	ZEX_CASE("granularity 2 GiB", multi_storage_granularity_kb, 2097152,
		 "multi_storage_granularity_kb"),
};

static void zex_params_case_desc(const struct zex_params_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_params, zex_params_cases, zex_params_case_desc);

static void zex_test_params_rules(struct kunit *test)
{
	const struct zex_params_case *c = test->param_value;
	struct zex_param_error err = {};
	int ret;

	ret = zex_params_validate(&c->p, &err);
	if (!c->bad_param) {
		KUNIT_EXPECT_EQ_MSG(test, ret, 0, "refused: %s %s", err.param,
				    err.rule);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_ASSERT_NOT_NULL(test, err.param);
	KUNIT_EXPECT_STREQ(test, err.param, c->bad_param);
	KUNIT_EXPECT_NOT_NULL(test, err.rule);
}

static void zex_test_params_defaults(struct kunit *test)
{
	struct zex_param_error err = {};

	KUNIT_EXPECT_EQ(test, zex_params_validate(&zex_defaults, &err), 0);
}

static void zex_test_params_first_rule_reported(struct kunit *test)
{
	struct zex_params p = zex_defaults;
	struct zex_param_error err = {};

	p.tiles = 0;
	p.multi_storage_policy = 7;
	KUNIT_EXPECT_EQ(test, zex_params_validate(&p, &err), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err.param, "tiles");
}

static struct kunit_case zex_params_test_cases[] = {
	KUNIT_CASE(zex_test_params_defaults),
	KUNIT_CASE_PARAM(zex_test_params_rules, zex_params_gen_params),
	KUNIT_CASE(zex_test_params_first_rule_reported),
	{}
};

static struct kunit_suite zex_params_test_suite = {
	.name = "zex_params",
	.test_cases = zex_params_test_cases,
};

kunit_test_suite(zex_params_test_suite);
