/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman.h - Level Zero Sysman on zex: its handles
 *
 * Sysman's device and driver handles are the core ones (zesInit's and
 * ZES_ENABLE_SYSMAN's alike). Its own objects, each starting with the DDI
 * header so that the loader dispatches them, are made once per driver
 * and live as long as it: one memory module per tile, one engine handle
 * per engine (each tile's, and the root device's own compute engine with
 * implicit scaling) and per group of engines (each tile's of one class,
 * the device's of one class), one scheduler per engine class of each tile. A
 * handle is libzex's when its address is one of these.
 */

#ifndef ZEX_SYSMAN_H
#define ZEX_SYSMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "zex/zex_api.h"
#include "zex/zex_zes_api.h"
#include "l0/base/l0.h"

/* Every tile's engines (8 at most), the root's own, and the groups. */
#define ZEX_SYSMAN_MAX_ENGINES	(ZEX_MAX_TILES * 8 + 1 + (ZEX_MAX_TILES + 1) * 2)

/** A tile's memory. */
struct zex_sysman_mem {
	ze_handle_t ddi;
	struct zex_l0_driver *drv;
	uint32_t tile;
};

/**
 * One engine, or one group of engines of a class (@group): @tile -1 for
 * the root device's own engine, or the whole device's group.
 */
struct zex_sysman_engine {
	ze_handle_t ddi;
	struct zex_l0_driver *drv;
	int tile;
	bool group;
	uint16_t engine_class;		/* DRM_ZEX_ENGINE_CLASS_* */
	uint32_t instance;
	char name[24];			/* its sysfs folder */
};

/** The scheduler of one engine class of one tile. */
struct zex_sysman_sched {
	ze_handle_t ddi;
	struct zex_l0_driver *drv;
	uint32_t tile;
	uint16_t engine_class;
	char engine[24];		/* an engine of the class, for its timeout */
};

/** Everything Sysman made for the driver. */
struct zex_sysman {
	uint32_t num_mems;
	struct zex_sysman_mem mems[ZEX_MAX_TILES];
	uint32_t num_engines;
	struct zex_sysman_engine engines[ZEX_SYSMAN_MAX_ENGINES];
	uint32_t num_scheds;
	struct zex_sysman_sched scheds[ZEX_MAX_TILES * 2];
};

struct zex_sysman *zex_sysman_get(struct zex_l0_driver *drv);
struct zex_l0_device *zex_sysman_device(zes_device_handle_t h);
bool zex_sysman_on_device(const struct zex_l0_device *dev, int tile);
bool zex_sysman_on_subdevice(const struct zex_l0_driver *drv, int tile);
void *zex_sysman_find(const void *h, void *objects, uint32_t count, size_t size);
ze_result_t zex_sysman_list(uint32_t n, uint32_t *pCount, void **out, void *const *all);

#endif /* ZEX_SYSMAN_H */
