// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_scheduler.c - each tile's schedulers, read-only
 *
 * One scheduler per engine class of each tile (the kernel's drm_sched
 * instances of that class), in timeout mode: a job that runs longer than
 * the module's job_timeout_ms is stopped and its queue banned (the
 * engine's sysfs job_timeout_ms says how long). Long-running compute
 * queues have no timeout, and a queue's priority is chosen per queue;
 * the mode is the module parameter's, fixed at load, so nothing can be
 * changed through Sysman (canControl false: every set call is
 * unsupported, as the specification has it for a scheduler that cannot
 * be controlled), and there is no timeslice or exclusive mode.
 */

#include <drm/zex_drm.h>

#include "core/usage.h"
#include "zex/zex_zes_api.h"
#include "sysman/sysman.h"

static struct zex_sysman_sched *zex_sysman_sched(zes_sched_handle_t h)
{
	struct zex_l0_driver *drv = zex_l0_driver_get();
	struct zex_sysman *s = drv ? zex_sysman_get(drv) : NULL;

	return s ? zex_sysman_find(h, s->scheds, s->num_scheds, sizeof(s->scheds[0])) : NULL;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumSchedulers(zes_device_handle_t hDevice,
							    uint32_t *pCount,
							    zes_sched_handle_t *phScheduler)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	void *mine[ZEX_MAX_TILES * 2];
	struct zex_sysman *s;
	uint32_t i, n = 0;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	s = zex_sysman_get(dev->drv);
	for (i = 0; i < s->num_scheds; i++)
		if (zex_sysman_on_device(dev, (int)s->scheds[i].tile))
			mine[n++] = &s->scheds[i];
	return zex_sysman_list(n, pCount, (void **)phScheduler, mine);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesSchedulerGetProperties(zes_sched_handle_t hScheduler,
							      zes_sched_properties_t *pProperties)
{
	struct zex_sysman_sched *sc = zex_sysman_sched(hScheduler);

	if (!sc)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	pProperties->onSubdevice = zex_sysman_on_subdevice(sc->drv, (int)sc->tile);
	pProperties->subdeviceId = sc->tile;
	pProperties->canControl = 0;
	pProperties->engines = sc->engine_class == DRM_ZEX_ENGINE_CLASS_COPY ?
			       ZES_ENGINE_TYPE_FLAG_DMA : ZES_ENGINE_TYPE_FLAG_COMPUTE;
	pProperties->supportedModes = 1u << ZES_SCHED_MODE_TIMEOUT;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesSchedulerGetCurrentMode(zes_sched_handle_t hScheduler,
							       zes_sched_mode_t *pMode)
{
	if (!zex_sysman_sched(hScheduler))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pMode)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pMode = ZES_SCHED_MODE_TIMEOUT;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesSchedulerGetTimeoutModeProperties(zes_sched_handle_t hScheduler, ze_bool_t getDefaults,
				     zes_sched_timeout_properties_t *pConfig)
{
	struct zex_sysman_sched *sc = zex_sysman_sched(hScheduler);
	uint64_t ms;

	(void)getDefaults;	/* fixed at load: the default is the current value */
	if (!sc)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pConfig)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (zex_usage_engine_read(sc->drv->dev, sc->engine, "job_timeout_ms", &ms))
		return zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST,
				   "the engine's job timeout is not in sysfs (device gone?)");
	pConfig->watchdogTimeout = ms * 1000;
	return ZE_RESULT_SUCCESS;
}

/* Nothing is set: the mode is the module parameter's, fixed at load. */
static ze_result_t zex_sysman_sched_fixed(zes_sched_handle_t hScheduler, const void *p)
{
	if (!zex_sysman_sched(hScheduler))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!p)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			   "zex's schedulers are in timeout mode, fixed at module load "
			   "(job_timeout_ms)");
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesSchedulerGetTimesliceModeProperties(zes_sched_handle_t hScheduler, ze_bool_t getDefaults,
				       zes_sched_timeslice_properties_t *pConfig)
{
	(void)getDefaults;
	return zex_sysman_sched_fixed(hScheduler, pConfig);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesSchedulerSetTimeoutMode(zes_sched_handle_t hScheduler,
			   zes_sched_timeout_properties_t *pProperties, ze_bool_t *pNeedReload)
{
	ze_result_t res = zex_sysman_sched_fixed(hScheduler, pProperties);

	return res == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE && !pNeedReload ?
	       ZE_RESULT_ERROR_INVALID_NULL_POINTER : res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesSchedulerSetTimesliceMode(zes_sched_handle_t hScheduler,
			     zes_sched_timeslice_properties_t *pProperties, ze_bool_t *pNeedReload)
{
	ze_result_t res = zex_sysman_sched_fixed(hScheduler, pProperties);

	return res == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE && !pNeedReload ?
	       ZE_RESULT_ERROR_INVALID_NULL_POINTER : res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesSchedulerSetExclusiveMode(zes_sched_handle_t hScheduler,
								 ze_bool_t *pNeedReload)
{
	return zex_sysman_sched_fixed(hScheduler, pNeedReload);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesSchedulerSetComputeUnitDebugMode(zes_sched_handle_t hScheduler, ze_bool_t *pNeedReload)
{
	return zex_sysman_sched_fixed(hScheduler, pNeedReload);
}
