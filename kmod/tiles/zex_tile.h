/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile.h - tiles as auxiliary devices
 *
 * Each tile of a zex GPU is published by the GPU's parent driver as an
 * auxiliary device and bound by the tile driver in this module. The
 * auxiliary bus names a device after the module that adds it, so the
 * devices are "zex.tile.<n>", and the tile driver matches that name: a
 * parent in another module would publish "<its module>.tile.<n>" and needs
 * its own entry in the tile driver's id table. The parent owns &struct
 * zex_tile (its memory accounting outlives the auxiliary device, since
 * buffer objects charge it until they are freed) and says, through @lost,
 * what losing the tile means to it; the auxiliary device is the tile's
 * presence in the device model and in sysfs. This folder is a leaf: it
 * knows nothing of the GPU that owns the tiles.
 */

#ifndef _ZEX_TILE_H_
#define _ZEX_TILE_H_

#include <linux/auxiliary_bus.h>

#include "zex_tile_mem.h"

/**
 * struct zex_tile - one tile of a zex GPU
 * @id: tile index.
 * @mem: the tile's memory accounting.
 * @online: the tile driver is bound to the tile's auxiliary device.
 * @lost: the parent's callback, called when the tile driver is unbound
 *	from the tile (the parent going away, or a write to unbind).
 */
struct zex_tile {
	u32 id;
	struct zex_tile_mem mem;
	bool online;
	void (*lost)(struct zex_tile *tile);
};

/**
 * struct zex_tile_adev - the auxiliary device that publishes a tile
 * @adev: the auxiliary device, named "zex.tile.<id>".
 * @tile: the tile it stands for; valid while @adev is registered.
 */
struct zex_tile_adev {
	struct auxiliary_device adev;
	struct zex_tile *tile;
};

extern struct auxiliary_driver zex_tile_driver;

struct zex_tile_adev *zex_tile_publish(struct device *parent, struct zex_tile *tile);
void zex_tile_unpublish(struct zex_tile_adev *tadev);

#endif /* _ZEX_TILE_H_ */
