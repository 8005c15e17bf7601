// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_objects.c - Sysman's handles, made once per driver, and which device lists each
 *
 * The engines are the kernel's (each tile's compute and copy engines in
 * the topology, and root-ccs0 when the kernel has the root device's own
 * engine: its sysfs folder exists), and so are the groups (each tile's
 * engines of a class, the device's of a class: <tile<N>->ccs-all...). A root device lists every tile's
 * modules, engines and schedulers, each on its sub-device (its tile),
 * and its own engine; a tile's device handle lists its own.
 */

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <drm/zex_drm.h>

#include "core/usage.h"
#include "sysman/sysman.h"

static struct zex_sysman zex_sysman;
static pthread_once_t zex_sysman_once = PTHREAD_ONCE_INIT;
static struct zex_l0_driver *zex_sysman_drv;

static void zex_sysman_engine_add(struct zex_sysman *s, struct zex_l0_driver *drv, int tile,
				  uint16_t cls, uint32_t instance)
{
	struct zex_sysman_engine *e = &s->engines[s->num_engines++];
	const char *name = cls == DRM_ZEX_ENGINE_CLASS_COPY ? "bcs" : "ccs";

	zex_ddi_header_init(&e->ddi);
	e->drv = drv;
	e->tile = tile;
	e->engine_class = cls;
	e->instance = instance;
	if (tile < 0)
		snprintf(e->name, sizeof(e->name), "root-%s%u", name, instance);
	else
		snprintf(e->name, sizeof(e->name), "tile%d-%s%u", tile, name, instance);
}

static void zex_sysman_make(void)
{
	struct zex_l0_driver *drv = zex_sysman_drv;
	struct zex_sysman *s = &zex_sysman;
	uint64_t busy;
	uint32_t t, i, c;

	for (t = 0; t < drv->topo.num_tiles && t < ZEX_MAX_TILES; t++) {
		const struct zex_tile_props *tp = &drv->topo.tiles[t];
		uint32_t counts[2] = { tp->num_compute_engines, tp->num_copy_engines };

		zex_ddi_header_init(&s->mems[t].ddi);
		s->mems[t].drv = drv;
		s->mems[t].tile = t;
		s->num_mems++;
		for (c = 0; c < 2; c++) {
			struct zex_sysman_sched *sc;

			if (!counts[c])
				continue;
			for (i = 0; i < counts[c] && s->num_engines < ZEX_SYSMAN_MAX_ENGINES - 1; i++)
				zex_sysman_engine_add(s, drv, (int)t, (uint16_t)c, i);
			sc = &s->scheds[s->num_scheds++];
			zex_ddi_header_init(&sc->ddi);
			sc->drv = drv;
			sc->tile = t;
			sc->engine_class = (uint16_t)c;
			memcpy(sc->engine, s->engines[s->num_engines - 1].name, sizeof(sc->engine));
		}
	}
	if (!zex_usage_engine_read(drv->dev, "root-ccs0", "busy_ns", &busy))
		zex_sysman_engine_add(s, drv, -1, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0);
	/* The groups: each tile's of a class, then the device's. */
	for (t = 0; t <= drv->topo.num_tiles && t <= ZEX_MAX_TILES; t++)
		for (c = 0; c < 2; c++) {
			struct zex_sysman_engine *e;
			int tile = t < drv->topo.num_tiles ? (int)t : -1;
			const char *name = c == DRM_ZEX_ENGINE_CLASS_COPY ? "bcs" : "ccs";

			if (s->num_engines == ZEX_SYSMAN_MAX_ENGINES)
				return;
			zex_sysman_engine_add(s, drv, tile, (uint16_t)c, 0);
			e = &s->engines[s->num_engines - 1];
			e->group = true;
			if (tile < 0)
				snprintf(e->name, sizeof(e->name), "%s-all", name);
			else
				snprintf(e->name, sizeof(e->name), "tile%d-%s-all", tile, name);
		}
}

/**
 * zex_sysman_get - Sysman's objects of the driver, made at the first call
 * @drv: the driver (libzex has one).
 */
struct zex_sysman *zex_sysman_get(struct zex_l0_driver *drv)
{
	zex_sysman_drv = drv;
	pthread_once(&zex_sysman_once, zex_sysman_make);
	return &zex_sysman;
}

/**
 * zex_sysman_device - the device a Sysman call names
 * @h: a device handle: the root device or a tile, whether or not the
 *	core API shows it to this process (Sysman manages the physical
 *	device whatever ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK say).
 *
 * Return: the device, or NULL for a handle that is not libzex's.
 */
struct zex_l0_device *zex_sysman_device(zes_device_handle_t h)
{
	struct zex_l0_driver *drv = zex_l0_driver_get();
	uint32_t i;

	if (!drv)
		return NULL;
	if ((void *)h == &drv->root)
		return &drv->root;
	for (i = 0; i < drv->topo.num_tiles; i++)
		if ((void *)h == &drv->tiles[i])
			return &drv->tiles[i];
	/* One the loader wrapped. */
	return zex_l0_device((ze_device_handle_t)h);
}

/**
 * zex_sysman_on_device - whether a device handle lists what is on @tile
 * @dev: the device handle.
 * @tile: a tile, or -1 for the root device's own engine.
 */
bool zex_sysman_on_device(const struct zex_l0_device *dev, int tile)
{
	return dev->tile < 0 || dev->tile == tile;
}

/**
 * zex_sysman_on_subdevice - whether what is on @tile is on a sub-device
 * @drv: the driver.
 * @tile: a tile, or -1 for the root device's own engine.
 *
 * Every tile is a sub-device, as the core API's root device has its
 * tiles as sub-devices (one tile too); the root device's own engine is
 * on none.
 */
bool zex_sysman_on_subdevice(const struct zex_l0_driver *drv, int tile)
{
	(void)drv;
	return tile >= 0;
}

/**
 * zex_sysman_find - the object a Sysman handle names, by its address alone
 * @h: the handle.
 * @objects: the objects of its type (an array).
 * @count: how many are in use.
 * @size: the size of one.
 *
 * Return: @h when it is the address of one of them, else NULL.
 */
void *zex_sysman_find(const void *h, void *objects, uint32_t count, size_t size)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		if (h == (char *)objects + i * size)
			return (void *)h;
	return NULL;
}

/**
 * zex_sysman_list - the usual count-then-fill of an enumeration
 * @n: how many there are.
 * @pCount: in: room in @out (0: the count only); out: how many are given,
 *	or how many there are.
 * @out: the handles, or NULL.
 * @all: the @n handles.
 */
ze_result_t zex_sysman_list(uint32_t n, uint32_t *pCount, void **out, void *const *all)
{
	uint32_t i;

	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*pCount == 0 || *pCount > n) {
		out = *pCount ? out : NULL;
		*pCount = n;
	}
	for (i = 0; out && i < *pCount; i++)
		out[i] = all[i];
	return ZE_RESULT_SUCCESS;
}
