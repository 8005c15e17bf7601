/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_params.h - the module parameters as one value
 *
 * &struct zex_params holds what the module parameters say: the emulated
 * GPU's shape and its implicit-scaling keys. zex_params_validate() is the
 * one place that decides whether a set of values is acceptable, so that an
 * invalid load is refused with a message naming the parameter and the rule.
 */

#ifndef _ZEX_PARAMS_H_
#define _ZEX_PARAMS_H_

#include <linux/types.h>

#define ZEX_TILES_MIN			1
#define ZEX_TILES_MAX			8
#define ZEX_TILE_MEM_MB_MIN		1
#define ZEX_TILE_MEM_MB_MAX		65536
#define ZEX_GRANULARITY_KB_MIN		64
#define ZEX_GRANULARITY_KB_MAX		(1024 * 1024)
#define ZEX_VM_MAX_MAPPINGS_MAX		(1024 * 1024)
#define ZEX_HOSTRPC_MAX_CHANNELS_MAX	65536
#define ZEX_EXEC_MAX_QUEUES_MAX		4096
#define ZEX_EXEC_MAX_JOBS_MAX		65536
#define ZEX_JOB_TIMEOUT_MS_MIN		10
#define ZEX_JOB_TIMEOUT_MS_MAX		600000

/**
 * struct zex_params - the emulated device's configuration
 * @tiles: number of tiles, %ZEX_TILES_MIN to %ZEX_TILES_MAX.
 * @tile_mem_mb: memory per tile in MiB.
 * @enable_implicit_scaling: 1 to colour root-device allocations across
 *	tiles, 0 to make the root device behave as tile 0.
 * @multi_storage_policy: &enum drm_zex_multi_storage_policy.
 * @multi_storage_granularity_kb: colouring granularity in KiB, a power of
 *	two of at least 64.
 * @hostrpc_max_slots: the most slots a hostrpc channel may have, 1 to
 *	%DRM_ZEX_HOSTRPC_MAX_SLOTS.
 * @hostrpc_max_channels: the most live hostrpc channels of one user, 1 to
 *	%ZEX_HOSTRPC_MAX_CHANNELS_MAX.
 * @vm_max_mappings: the most mappings (userptr imports and buffer-object
 *	binds) in one file's address space, 1 to %ZEX_VM_MAX_MAPPINGS_MAX.
 * @exec_max_queues: the most exec queues of one file, 1 to
 *	%ZEX_EXEC_MAX_QUEUES_MAX.
 * @exec_max_jobs: the most unfinished jobs of one exec queue, 1 to
 *	%ZEX_EXEC_MAX_JOBS_MAX.
 * @exec_max_lr_queues: the most long-running exec queues of one file, 1
 *	to %ZEX_EXEC_MAX_QUEUES_MAX.
 * @job_timeout_ms: how long a job may run before it is stopped,
 *	%ZEX_JOB_TIMEOUT_MS_MIN to %ZEX_JOB_TIMEOUT_MS_MAX.
 */
struct zex_params {
	unsigned int tiles;
	unsigned int tile_mem_mb;
	unsigned int enable_implicit_scaling;
	unsigned int multi_storage_policy;
	unsigned int multi_storage_granularity_kb;
	unsigned int hostrpc_max_slots;
	unsigned int hostrpc_max_channels;
	unsigned int vm_max_mappings;
	unsigned int exec_max_queues;
	unsigned int exec_max_jobs;
	unsigned int exec_max_lr_queues;
	unsigned int job_timeout_ms;
};

/**
 * struct zex_param_error - why a set of parameters was refused
 * @param: the module parameter's name.
 * @rule: what it must satisfy.
 */
struct zex_param_error {
	const char *param;
	const char *rule;
};

int zex_params_validate(const struct zex_params *p, struct zex_param_error *err);

#endif /* _ZEX_PARAMS_H_ */
