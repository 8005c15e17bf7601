// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_memory.c - each tile's memory as a Sysman memory module
 *
 * One module per tile, in device memory, of the tile's size; its state
 * is the kernel's count of the bytes every process's buffer objects hold
 * there now (the query ioctl's, as the tile's mem_used in sysfs). The
 * memory is host memory the kernel hands out: its bus width and channels
 * are unknown (-1) and its health is always ok. zex counts no bytes read
 * or written per tile, so the bandwidth counters are unsupported.
 */

#include <time.h>

#include <drm/zex_drm.h>

#include "core/usage.h"
#include "zex/zex_zes_api.h"
#include "sysman/sysman.h"

static struct zex_sysman_mem *zex_sysman_mem(zes_mem_handle_t h)
{
	struct zex_l0_driver *drv = zex_l0_driver_get();
	struct zex_sysman *s = drv ? zex_sysman_get(drv) : NULL;

	return s ? zex_sysman_find(h, s->mems, s->num_mems, sizeof(s->mems[0])) : NULL;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumMemoryModules(zes_device_handle_t hDevice,
							       uint32_t *pCount,
							       zes_mem_handle_t *phMemory)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	void *mine[ZEX_MAX_TILES];
	struct zex_sysman *s;
	uint32_t i, n = 0;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	s = zex_sysman_get(dev->drv);
	for (i = 0; i < s->num_mems; i++)
		if (zex_sysman_on_device(dev, (int)s->mems[i].tile))
			mine[n++] = &s->mems[i];
	return zex_sysman_list(n, pCount, (void **)phMemory, mine);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetProperties(zes_mem_handle_t hMemory,
							   zes_mem_properties_t *pProperties)
{
	struct zex_sysman_mem *m = zex_sysman_mem(hMemory);

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	pProperties->type = ZES_MEM_TYPE_DDR;
	pProperties->onSubdevice = zex_sysman_on_subdevice(m->drv, (int)m->tile);
	pProperties->subdeviceId = m->tile;
	pProperties->location = ZES_MEM_LOC_DEVICE;
	pProperties->physicalSize = m->drv->topo.tiles[m->tile].mem_size;
	pProperties->busWidth = -1;
	pProperties->numChannels = -1;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetState(zes_mem_handle_t hMemory,
						      zes_mem_state_t *pState)
{
	struct zex_sysman_mem *m = zex_sysman_mem(hMemory);
	uint64_t size, used;

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pState)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (zex_usage_tile_memory(m->drv->dev, m->tile, &size, &used))
		return ZE_RESULT_ERROR_DEVICE_LOST;
	pState->health = ZES_MEM_HEALTH_OK;
	pState->size = size;
	pState->free = used < size ? size - used : 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetBandwidth(zes_mem_handle_t hMemory,
							  zes_mem_bandwidth_t *pBandwidth)
{
	if (!zex_sysman_mem(hMemory))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pBandwidth)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			   "zex counts no bytes read or written per tile");
}
