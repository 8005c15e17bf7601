/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile.h - tiles as auxiliary devices
 *
 * Each tile of a zex GPU is published by the GPU's parent driver as an
 * auxiliary device named "zex.tile.<n>" and bound by the tile driver in this
 * module. The parent owns &struct zex_tile (its memory accounting outlives
 * the auxiliary device, since buffer objects charge it until they are
 * freed); the auxiliary device is the tile's presence in the device model
 * and in sysfs. A real GPU driver could publish the same devices, carrying
 * a &struct zex_tile of its own.
 */

#ifndef _ZEX_TILE_H_
#define _ZEX_TILE_H_

#include <linux/auxiliary_bus.h>

#include "zex_tile_mem.h"

struct zex_device;

/**
 * struct zex_tile - one tile of a zex GPU
 * @zdev: the GPU the tile belongs to.
 * @id: tile index.
 * @mem: the tile's memory accounting.
 * @online: the tile driver is bound to the tile's auxiliary device.
 */
struct zex_tile {
	struct zex_device *zdev;
	u32 id;
	struct zex_tile_mem mem;
	bool online;
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
