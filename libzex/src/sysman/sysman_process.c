// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: sysman_process.c - the processes using the device, from their fdinfo
 *
 * Every process this one may look into (all of them as root; its own
 * user's otherwise, as /proc allows) that holds the render node open,
 * once, with the sum over its files (each file once: core/usage.c) of
 * the device memory its handles hold (memSize: for a root device every
 * tile's, for a tile's handle that tile's; sharedSize: the part shared
 * with another file) and the engine types its jobs have run on (engines:
 * compute, DMA for copy), as the kernel's fdinfo counts them.
 */

#include <stdlib.h>
#include <string.h>

#include <drm/zex_drm.h>

#include "core/usage.h"
#include "zex/zex_zes_api.h"
#include "sysman/sysman.h"

/** What is gathered: one entry per process. */
struct zex_sysman_procs {
	const struct zex_l0_device *dev;
	zes_process_state_t *procs;
	uint32_t count, cap;
	int error;
};

static int zex_sysman_add_client(pid_t pid, const struct zex_client_usage *u, void *ctx)
{
	struct zex_sysman_procs *p = ctx;
	const struct zex_l0_device *dev = p->dev;
	zes_process_state_t *st = NULL;
	uint32_t i;

	for (i = 0; i < p->count; i++)
		if (p->procs[i].processId == (uint32_t)pid)
			st = &p->procs[i];
	if (!st) {
		if (p->count == p->cap) {
			uint32_t cap = p->cap ? 2 * p->cap : 16;
			zes_process_state_t *n = realloc(p->procs, cap * sizeof(*n));

			if (!n) {
				p->error = 1;
				return 1;
			}
			p->procs = n;
			p->cap = cap;
		}
		st = &p->procs[p->count++];
		memset(st, 0, sizeof(*st));
		st->stype = ZES_STRUCTURE_TYPE_PROCESS_STATE;
		st->processId = (uint32_t)pid;
	}
	for (i = 0; i < dev->drv->topo.num_tiles && i < ZEX_MAX_TILES; i++) {
		if (!zex_sysman_on_device(dev, (int)i))
			continue;
		st->memSize += u->tile_total[i];
		st->sharedSize += u->tile_shared[i];
	}
	if (u->engine_ns[DRM_ZEX_ENGINE_CLASS_COMPUTE])
		st->engines |= ZES_ENGINE_TYPE_FLAG_COMPUTE;
	if (u->engine_ns[DRM_ZEX_ENGINE_CLASS_COPY])
		st->engines |= ZES_ENGINE_TYPE_FLAG_DMA;
	return 0;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceProcessesGetState(zes_device_handle_t hDevice,
							       uint32_t *pCount,
							       zes_process_state_t *pProcesses)
{
	struct zex_l0_device *dev = zex_sysman_device(hDevice);
	struct zex_sysman_procs p = { .dev = dev };
	ze_result_t res = ZE_RESULT_SUCCESS;
	uint32_t i;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (zex_usage_clients(dev->drv->dev, zex_sysman_add_client, &p) < 0)
		res = zex_l0_fail(ZE_RESULT_ERROR_UNKNOWN, "/proc cannot be read");
	else if (p.error)
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (res) {
		free(p.procs);
		return res;
	}
	/* Too little room: the count needed, and the specification's error. */
	if (*pCount && pProcesses && *pCount < p.count) {
		*pCount = p.count;
		free(p.procs);
		return ZE_RESULT_ERROR_INVALID_SIZE;
	}
	if (*pCount && pProcesses)
		for (i = 0; i < p.count; i++) {
			const void *next = pProcesses[i].pNext;

			pProcesses[i] = p.procs[i];
			pProcesses[i].pNext = next;
		}
	*pCount = p.count;
	free(p.procs);
	return ZE_RESULT_SUCCESS;
}
