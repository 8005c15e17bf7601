// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_engine.c - each engine as a Sysman engine group of one
 *
 * Every engine of every tile is a group of its own (COMPUTE_SINGLE or
 * COPY_SINGLE on its sub-device), and the root device's own compute
 * engine, which runs a root queue's jobs across the tiles, is one more
 * COMPUTE_SINGLE on no sub-device. Each tile's engines of a class are a
 * COMPUTE_ALL or COPY_ALL group on its sub-device, and the whole
 * device's are one on none: a group is busy while any of its engines
 * runs a job (the kernel counts the union of their jobs' times, never
 * more than the time that passed). An activity is the kernel's busy time
 * (sysfs busy_ns: from a job's start to its end, every process's,
 * counted when the job ends), in microseconds, with a CLOCK_MONOTONIC
 * timestamp in microseconds: the utilisation between two samples is the
 * difference of activeTime over that of timestamp, as the specification
 * defines.
 */

#include <time.h>

#include <drm/zex_drm.h>

#include "core/usage.h"
#include "zex/zex_zes_api.h"
#include "sysman/sysman.h"

static struct zex_sysman_engine *zex_sysman_engine(zes_engine_handle_t h)
{
	struct zex_l0_driver *drv = zex_l0_driver_get();
	struct zex_sysman *s = drv ? zex_sysman_get(drv) : NULL;

	return s ? zex_sysman_find(h, s->engines, s->num_engines, sizeof(s->engines[0])) : NULL;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumEngineGroups(zes_device_handle_t hDevice,
							      uint32_t *pCount,
							      zes_engine_handle_t *phEngine)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	void *mine[ZEX_SYSMAN_MAX_ENGINES];
	struct zex_sysman *s;
	uint32_t i, n = 0;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	s = zex_sysman_get(dev->drv);
	for (i = 0; i < s->num_engines; i++)
		if (zex_sysman_on_device(dev, s->engines[i].tile))
			mine[n++] = &s->engines[i];
	return zex_sysman_list(n, pCount, (void **)phEngine, mine);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesEngineGetProperties(zes_engine_handle_t hEngine,
							   zes_engine_properties_t *pProperties)
{
	struct zex_sysman_engine *e = zex_sysman_engine(hEngine);

	if (!e)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (e->group)
		pProperties->type = e->engine_class == DRM_ZEX_ENGINE_CLASS_COPY ?
				    ZES_ENGINE_GROUP_COPY_ALL : ZES_ENGINE_GROUP_COMPUTE_ALL;
	else
		pProperties->type = e->engine_class == DRM_ZEX_ENGINE_CLASS_COPY ?
				    ZES_ENGINE_GROUP_COPY_SINGLE : ZES_ENGINE_GROUP_COMPUTE_SINGLE;
	pProperties->onSubdevice = zex_sysman_on_subdevice(e->drv, e->tile);
	pProperties->subdeviceId = e->tile >= 0 ? (uint32_t)e->tile : 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesEngineGetActivity(zes_engine_handle_t hEngine,
							 zes_engine_stats_t *pStats)
{
	struct zex_sysman_engine *e = zex_sysman_engine(hEngine);
	struct timespec now;
	uint64_t busy;

	if (!e)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pStats)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (zex_usage_engine_read(e->drv->dev, e->name, "busy_ns", &busy))
		return zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST,
				   "the engine's busy time is not in sysfs (device gone?)");
	pStats->activeTime = busy / 1000;
	pStats->timestamp = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
	return ZE_RESULT_SUCCESS;
}
