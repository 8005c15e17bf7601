/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_topology.h - the shape of the emulated GPU
 *
 * &struct zex_topology is built once from the validated module parameters
 * and never changes for the life of a device: how many tiles, how much
 * memory each has, whether the root device scales implicitly, the default
 * colouring, and the engine model derived from those.
 */

#ifndef _ZEX_TOPOLOGY_H_
#define _ZEX_TOPOLOGY_H_

#include <linux/types.h>

struct drm_zex_engine_info;
struct zex_params;

/* Engines of one tile, as on a Xe HPC tile: compute (CCS) and copy (BCS). */
#define ZEX_TILE_COMPUTE_ENGINES	4
#define ZEX_TILE_COPY_ENGINES		2

/**
 * struct zex_topology - the emulated device's fixed shape
 * @num_tiles: number of tiles.
 * @implicit_scaling: the root device colours allocations across tiles and
 *	exposes one compute engine spanning them; otherwise it is tile 0.
 * @multi_storage_policy: default colouring policy.
 * @multi_storage_granularity: default colouring granularity in bytes.
 * @tile_mem_size: memory of each tile in bytes.
 */
struct zex_topology {
	u32 num_tiles;
	bool implicit_scaling;
	u32 multi_storage_policy;
	u64 multi_storage_granularity;
	u64 tile_mem_size;
};

void zex_topology_init(struct zex_topology *topo, const struct zex_params *p);
u32 zex_topology_engines(const struct zex_topology *topo,
			 struct drm_zex_engine_info *engines, u32 max);

#endif /* _ZEX_TOPOLOGY_H_ */
