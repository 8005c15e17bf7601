/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: device_hierarchy.h - the devices a process sees (libzex-internal)
 *
 * ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK, read at zeInit: how the
 * tiles are presented (under one root device, as devices of their own, or
 * both) and which tiles the process sees at all.
 */

#ifndef ZEX_CORE_DEVICE_HIERARCHY_H
#define ZEX_CORE_DEVICE_HIERARCHY_H

#include <stdint.h>

#include "core/debug_keys.h"

/** How zeDeviceGet presents the tiles (ZE_FLAT_DEVICE_HIERARCHY). */
enum zex_hierarchy {
	ZEX_HIERARCHY_COMPOSITE,	/* one root device, the tiles its sub-devices */
	ZEX_HIERARCHY_FLAT,		/* each tile a device, no root, no sub-devices */
	ZEX_HIERARCHY_COMBINED,		/* each tile a device; the root reached from them */
};

/**
 * struct zex_visible_devices - what a process sees of the device
 * @hierarchy: how the tiles are presented.
 * @tile_mask: the tiles it sees (bit N: tile N); 0 sees none.
 */
struct zex_visible_devices {
	enum zex_hierarchy hierarchy;
	uint32_t tile_mask;
};

int zex_visible_devices_read(struct zex_visible_devices *v, uint32_t num_tiles,
			     zex_getenv_fn get, zex_invalid_key_fn invalid, void *arg);

#endif /* ZEX_CORE_DEVICE_HIERARCHY_H */
