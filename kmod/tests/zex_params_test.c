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

#include "../device/zex_params.h"

static const struct zex_params zex_defaults = {
	.tiles = 2,
	.tile_mem_mb = 256,
	.enable_implicit_scaling = 1,
	.multi_storage_policy = 0,
	.multi_storage_granularity_kb = 64,
	.hostrpc_max_slots = 2048,
	.hostrpc_max_channels = 32,
	.vm_max_mappings = 16384,
	.exec_max_queues = 1024,
	.exec_max_jobs = 128,
	.exec_max_lr_queues = 64,
	.job_timeout_ms = 2000,
};

enum zex_param_field {
	ZEX_TILES,
	ZEX_TILE_MEM_MB,
	ZEX_IMPLICIT,
	ZEX_POLICY,
	ZEX_GRANULARITY,
	ZEX_HOSTRPC_SLOTS,
	ZEX_HOSTRPC_CHANNELS,
	ZEX_VM_MAPPINGS,
	ZEX_EXEC_LR_QUEUES,
};

struct zex_params_case {
	const char *desc;
	enum zex_param_field field;
	unsigned int value;
	const char *bad_param;	/* NULL: must be accepted */
};

static const struct zex_params_case zex_params_cases[] = {
	{ "tiles 1", ZEX_TILES, 1, NULL },
	{ "tiles 8", ZEX_TILES, 8, NULL },
	{ "tiles 0", ZEX_TILES, 0, "tiles" },
	{ "tiles 9", ZEX_TILES, 9, "tiles" },
	{ "tiles huge", ZEX_TILES, 0xffffffff, "tiles" },
	{ "tile_mem_mb 1", ZEX_TILE_MEM_MB, 1, NULL },
	{ "tile_mem_mb 65536", ZEX_TILE_MEM_MB, 65536, NULL },
	{ "tile_mem_mb 0", ZEX_TILE_MEM_MB, 0, "tile_mem_mb" },
	{ "tile_mem_mb 65537", ZEX_TILE_MEM_MB, 65537, "tile_mem_mb" },
	{ "implicit scaling 0", ZEX_IMPLICIT, 0, NULL },
	{ "implicit scaling 2", ZEX_IMPLICIT, 2, "enable_implicit_scaling" },
	{ "policy chunk", ZEX_POLICY, 1, NULL },
	{ "policy interleave", ZEX_POLICY, 2, NULL },
	{ "policy 3", ZEX_POLICY, 3, "multi_storage_policy" },
	{ "granularity 128", ZEX_GRANULARITY, 128, NULL },
	{ "granularity 1 GiB", ZEX_GRANULARITY, 1048576, NULL },
	{ "granularity 32", ZEX_GRANULARITY, 32, "multi_storage_granularity_kb" },
	{ "granularity 0", ZEX_GRANULARITY, 0, "multi_storage_granularity_kb" },
	{ "granularity 96", ZEX_GRANULARITY, 96, "multi_storage_granularity_kb" },
	{ "granularity 2 GiB", ZEX_GRANULARITY, 2097152,
	  "multi_storage_granularity_kb" },
	{ "hostrpc slots 1", ZEX_HOSTRPC_SLOTS, 1, NULL },
	{ "hostrpc slots 2048", ZEX_HOSTRPC_SLOTS, 2048, NULL },
	{ "hostrpc slots 0", ZEX_HOSTRPC_SLOTS, 0, "hostrpc_max_slots" },
	{ "hostrpc slots 2049", ZEX_HOSTRPC_SLOTS, 2049, "hostrpc_max_slots" },
	{ "hostrpc channels 1", ZEX_HOSTRPC_CHANNELS, 1, NULL },
	{ "hostrpc channels 65536", ZEX_HOSTRPC_CHANNELS, 65536, NULL },
	{ "hostrpc channels 0", ZEX_HOSTRPC_CHANNELS, 0, "hostrpc_max_channels" },
	{ "hostrpc channels 65537", ZEX_HOSTRPC_CHANNELS, 65537,
	  "hostrpc_max_channels" },
	{ "vm mappings 1", ZEX_VM_MAPPINGS, 1, NULL },
	{ "vm mappings 1048576", ZEX_VM_MAPPINGS, 1048576, NULL },
	{ "vm mappings 0", ZEX_VM_MAPPINGS, 0, "vm_max_mappings" },
	{ "vm mappings 1048577", ZEX_VM_MAPPINGS, 1048577, "vm_max_mappings" },
	{ "lr queues 1", ZEX_EXEC_LR_QUEUES, 1, NULL },
	{ "lr queues 4096", ZEX_EXEC_LR_QUEUES, 4096, NULL },
	{ "lr queues 0", ZEX_EXEC_LR_QUEUES, 0, "exec_max_lr_queues" },
	{ "lr queues 4097", ZEX_EXEC_LR_QUEUES, 4097, "exec_max_lr_queues" },
};

/* The defaults with the case's one field changed. */
static struct zex_params zex_case_params(const struct zex_params_case *c)
{
	struct zex_params p = zex_defaults;
	unsigned int *fields[] = {
		[ZEX_TILES] = &p.tiles,
		[ZEX_TILE_MEM_MB] = &p.tile_mem_mb,
		[ZEX_IMPLICIT] = &p.enable_implicit_scaling,
		[ZEX_POLICY] = &p.multi_storage_policy,
		[ZEX_GRANULARITY] = &p.multi_storage_granularity_kb,
		[ZEX_HOSTRPC_SLOTS] = &p.hostrpc_max_slots,
		[ZEX_HOSTRPC_CHANNELS] = &p.hostrpc_max_channels,
		[ZEX_VM_MAPPINGS] = &p.vm_max_mappings,
		[ZEX_EXEC_LR_QUEUES] = &p.exec_max_lr_queues,
	};

	*fields[c->field] = c->value;
	return p;
}

static void zex_params_case_desc(const struct zex_params_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_params, zex_params_cases, zex_params_case_desc);

static void zex_test_params_rules(struct kunit *test)
{
	const struct zex_params_case *c = test->param_value;
	struct zex_params p = zex_case_params(c);
	struct zex_param_error err = {};
	int ret;

	ret = zex_params_validate(&p, &err);
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
