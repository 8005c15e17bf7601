// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: topology.c - turn the kernel's query answers into a zex_topology
 *
 * Pure code, no I/O: it distrusts what it is given (sizes, counts) so that
 * a short or inconsistent answer is an error, never an overread. Tested
 * on the host under ASan and UBSan.
 */

#include <errno.h>
#include <string.h>

#include <drm/zex_drm.h>

#include "core/topology.h"

/**
 * zex_topology_parse - fill @topo from three DRM_IOCTL_ZEX_QUERY answers
 *
 * Return: 0, or -EPROTO when an answer is short, its counts disagree with
 * its size, or a value is out of range.
 */
int zex_topology_parse(struct zex_topology *topo,
		       const void *device, size_t device_size,
		       const void *tiles, size_t tiles_size,
		       const void *engines, size_t engines_size)
{
	struct drm_zex_query_device dev;
	struct drm_zex_query_tiles th;
	struct drm_zex_query_engines eh;
	uint32_t i;

	if (!device || !tiles || !engines ||
	    device_size < sizeof(dev) || tiles_size < sizeof(th) ||
	    engines_size < sizeof(eh))
		return -EPROTO;

	memcpy(&dev, device, sizeof(dev));
	memcpy(&th, tiles, sizeof(th));
	memcpy(&eh, engines, sizeof(eh));

	if (dev.num_tiles < 1 || dev.num_tiles > ZEX_MAX_TILES ||
	    th.num_tiles != dev.num_tiles ||
	    (tiles_size - sizeof(th)) / sizeof(struct drm_zex_tile_info) < th.num_tiles ||
	    eh.num_engines > ZEX_MAX_ENGINES ||
	    (engines_size - sizeof(eh)) / sizeof(struct drm_zex_engine_info) < eh.num_engines ||
	    dev.multi_storage_policy > DRM_ZEX_MULTI_STORAGE_INTERLEAVE)
		return -EPROTO;

	memset(topo, 0, sizeof(*topo));
	topo->num_tiles = dev.num_tiles;
	topo->implicit_scaling = dev.flags & DRM_ZEX_DEVICE_IMPLICIT_SCALING;
	topo->multi_storage_policy = dev.multi_storage_policy;
	topo->multi_storage_granularity = dev.multi_storage_granularity;
	topo->total_mem_size = dev.total_mem_size;

	for (i = 0; i < th.num_tiles; i++) {
		struct drm_zex_tile_info t;

		memcpy(&t, (const char *)tiles + sizeof(th) + i * sizeof(t), sizeof(t));
		if (t.id != i || t.mem_used > t.mem_size)
			return -EPROTO;
		topo->tiles[i].id = t.id;
		topo->tiles[i].num_compute_engines = t.num_compute_engines;
		topo->tiles[i].num_copy_engines = t.num_copy_engines;
		topo->tiles[i].mem_size = t.mem_size;
		topo->tiles[i].mem_used = t.mem_used;
		topo->tiles[i].num_bos = t.num_bos;
	}

	for (i = 0; i < eh.num_engines; i++) {
		struct drm_zex_engine_info e;

		memcpy(&e, (const char *)engines + sizeof(eh) + i * sizeof(e), sizeof(e));
		if (e.device != DRM_ZEX_DEVICE_ROOT && e.device >= dev.num_tiles)
			return -EPROTO;
		if (!e.tile_mask || e.tile_mask >> dev.num_tiles)
			return -EPROTO;
		topo->engines[i].engine_class = e.engine_class;
		topo->engines[i].engine_instance = e.engine_instance;
		topo->engines[i].device = e.device;
		topo->engines[i].tile_mask = e.tile_mask;
	}
	topo->num_engines = eh.num_engines;
	return 0;
}
