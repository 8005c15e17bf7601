// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_topology.c - topology and engine model
 *
 * The engine model follows Level Zero on a multi-tile device (seed 002):
 * every tile has %ZEX_TILE_COMPUTE_ENGINES compute engines and
 * %ZEX_TILE_COPY_ENGINES copy engines. With implicit scaling the root device
 * has exactly one compute engine, which executes on every tile, and it also
 * lists tile 0's copy engines (there is no implicit scaling of copies).
 * Without implicit scaling the root device has tile 0's engines, no more.
 */

#include <linux/bits.h>
#include <linux/sizes.h>

#include <drm/zex_drm.h>

#include "../common/zex_kunit_export.h"
#include "zex_params.h"
#include "zex_topology.h"

/**
 * zex_topology_init - derive the topology from validated parameters
 * @topo: filled in.
 * @p: parameters that passed zex_params_validate().
 */
void zex_topology_init(struct zex_topology *topo, const struct zex_params *p)
{
	topo->num_tiles = p->tiles;
	topo->implicit_scaling = p->enable_implicit_scaling && p->tiles > 1;
	topo->multi_storage_policy = p->multi_storage_policy;
	topo->multi_storage_granularity = (u64)p->multi_storage_granularity_kb * SZ_1K;
	topo->tile_mem_size = (u64)p->tile_mem_mb * SZ_1M;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_topology_init);

struct zex_engine_list {
	struct drm_zex_engine_info *engines;
	u32 max;
	u32 count;
};

static void zex_engine_add(struct zex_engine_list *list, u16 class,
			   u16 instance, u16 device, u16 tile_mask)
{
	if (list->count < list->max) {
		struct drm_zex_engine_info *e = &list->engines[list->count];

		e->engine_class = class;
		e->engine_instance = instance;
		e->device = device;
		e->tile_mask = tile_mask;
		e->reserved = 0;
	}
	list->count++;
}

static void zex_engines_of_tile(struct zex_engine_list *list, u16 device,
				u32 tile)
{
	u16 i;

	for (i = 0; i < ZEX_TILE_COMPUTE_ENGINES; i++)
		zex_engine_add(list, DRM_ZEX_ENGINE_CLASS_COMPUTE, i, device, BIT(tile));
	for (i = 0; i < ZEX_TILE_COPY_ENGINES; i++)
		zex_engine_add(list, DRM_ZEX_ENGINE_CLASS_COPY, i, device, BIT(tile));
}

/**
 * zex_topology_engines - list the engine model
 * @topo: the topology.
 * @engines: where to write, or NULL to count only.
 * @max: entries available at @engines.
 *
 * Lists the root device's engines first, then each tile's in tile order.
 * At most @max entries are written.
 *
 * Return: the number of engines in the model (which may exceed @max).
 */
u32 zex_topology_engines(const struct zex_topology *topo,
			 struct drm_zex_engine_info *engines, u32 max)
{
	struct zex_engine_list list = {
		.engines = engines,
		.max = engines ? max : 0,
	};
	u32 tile;
	u16 i;

	if (topo->implicit_scaling) {
		zex_engine_add(&list, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0,
			       DRM_ZEX_DEVICE_ROOT, GENMASK(topo->num_tiles - 1, 0));
		for (i = 0; i < ZEX_TILE_COPY_ENGINES; i++)
			zex_engine_add(&list, DRM_ZEX_ENGINE_CLASS_COPY, i,
				       DRM_ZEX_DEVICE_ROOT, BIT(0));
	} else {
		zex_engines_of_tile(&list, DRM_ZEX_DEVICE_ROOT, 0);
	}

	for (tile = 0; tile < topo->num_tiles; tile++)
		zex_engines_of_tile(&list, tile, tile);

	return list.count;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_topology_engines);
