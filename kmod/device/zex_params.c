// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_params.c - validation of the module parameters
 *
 * Every parameter is checked against its rule before the device is created;
 * the first broken rule is reported. The rules mirror compute-runtime's:
 * MultiStorageGranularity must be a power of two of at least 64 KiB.
 */

#include <linux/errno.h>
#include <linux/log2.h>

#include <drm/zex_drm.h>

#include "../common/zex_kunit_export.h"
#include "zex_params.h"

static int zex_param_fail(struct zex_param_error *err, const char *param,
			  const char *rule)
{
	err->param = param;
	err->rule = rule;
	return -EINVAL;
}

/**
 * zex_params_validate - check a set of module parameter values
 * @p: the values.
 * @err: filled with the parameter and the rule it breaks on failure.
 *
 * Return: 0 when every value is acceptable, -EINVAL otherwise.
 */
int zex_params_validate(const struct zex_params *p, struct zex_param_error *err)
{
	if (p->tiles < ZEX_TILES_MIN || p->tiles > ZEX_TILES_MAX)
		return zex_param_fail(err, "tiles", "must be between 1 and 8");
	if (p->tile_mem_mb < ZEX_TILE_MEM_MB_MIN ||
	    p->tile_mem_mb > ZEX_TILE_MEM_MB_MAX)
		return zex_param_fail(err, "tile_mem_mb",
				      "must be between 1 and 65536 (MiB)");
	if (p->enable_implicit_scaling > 1)
		return zex_param_fail(err, "enable_implicit_scaling",
				      "must be 0 or 1");
	if (p->multi_storage_policy > DRM_ZEX_MULTI_STORAGE_INTERLEAVE)
		return zex_param_fail(err, "multi_storage_policy",
				      "must be 0 (even), 1 (chunk) or 2 (interleave)");
	if (p->multi_storage_granularity_kb < ZEX_GRANULARITY_KB_MIN ||
	    p->multi_storage_granularity_kb > ZEX_GRANULARITY_KB_MAX)
		return zex_param_fail(err, "multi_storage_granularity_kb",
				      "must be between 64 and 1048576 (KiB)");
	if (!is_power_of_2(p->multi_storage_granularity_kb))
		return zex_param_fail(err, "multi_storage_granularity_kb",
				      "must be a power of two");
	if (p->hostrpc_max_slots < 1 ||
	    p->hostrpc_max_slots > DRM_ZEX_HOSTRPC_MAX_SLOTS)
		return zex_param_fail(err, "hostrpc_max_slots",
				      "must be between 1 and 2048");
	if (p->hostrpc_max_channels < 1 ||
	    p->hostrpc_max_channels > ZEX_HOSTRPC_MAX_CHANNELS_MAX)
		return zex_param_fail(err, "hostrpc_max_channels",
				      "must be between 1 and 65536");
	if (p->vm_max_mappings < 1 || p->vm_max_mappings > ZEX_VM_MAX_MAPPINGS_MAX)
		return zex_param_fail(err, "vm_max_mappings",
				      "must be between 1 and 1048576");
	if (p->exec_max_queues < 1 || p->exec_max_queues > ZEX_EXEC_MAX_QUEUES_MAX)
		return zex_param_fail(err, "exec_max_queues", "must be between 1 and 4096");
	if (p->exec_max_jobs < 1 || p->exec_max_jobs > ZEX_EXEC_MAX_JOBS_MAX)
		return zex_param_fail(err, "exec_max_jobs", "must be between 1 and 65536");
	if (p->exec_max_lr_queues < 1 || p->exec_max_lr_queues > ZEX_EXEC_MAX_QUEUES_MAX)
		return zex_param_fail(err, "exec_max_lr_queues", "must be between 1 and 4096");
	if (p->job_timeout_ms < ZEX_JOB_TIMEOUT_MS_MIN ||
	    p->job_timeout_ms > ZEX_JOB_TIMEOUT_MS_MAX)
		return zex_param_fail(err, "job_timeout_ms", "must be between 10 and 600000");
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_params_validate);
