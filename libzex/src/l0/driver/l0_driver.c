// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_driver.c - zeInit and the driver: version, properties, extensions
 *
 * zeInit() opens the zex device once (pthread_once), raises the soft
 * RLIMIT_NOFILE to the hard one (host allocations hold a descriptor each:
 * l0/memory/memfd.c), reads its topology
 * and compute-runtime's debug keys from the environment; an invalid key is
 * reported on stderr by name and ignored, as compute-runtime does. There is
 * one driver with one root device; its sub-devices are the tiles. Every
 * handle made here starts with libzex's DDI header.
 *
 * zeInitDrivers() (API 1.10) is zeInit() for GPU drivers. The driver
 * lists four extensions: the DDI handles 1.0 (with the SUPPORTED flag in
 * the properties chained on zeDriverGetProperties; 1.1 adds the runtime
 * API's tables, of API 1.14), the multiple IPC handles, whose functions
 * zeDriverGetExtensionFunctionAddress returns (src/ddi/ddi_extensions.c,
 * beside the other lists of entry points), the external memory
 * mapping of zeMemAllocHost, and the read-only virtual memory properties
 * chained on zeDeviceGetProperties (read-only is enforced); and those of
 * zex_extensions[] below, each with the code it names (the free policies:
 * l0/free, listed in the properties chained on zeDriverGetProperties).
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0/base/l0.h"
#include "l0/free/l0_free.h"
#include "l0/memory/memfd.h"

/* libzex's driver version: major.minor.patch of the library. */
#define ZEX_DRIVER_VERSION	((0u << 24) | (1u << 16) | 0u)

static struct zex_l0_driver zex_driver;
static pthread_once_t zex_init_once = PTHREAD_ONCE_INIT;
static ze_result_t zex_init_result = ZE_RESULT_ERROR_UNINITIALIZED;

static const char *zex_getenv(const char *name)
{
	return getenv(name);
}

static void zex_report_invalid_key(const char *name, const char *value, void *arg)
{
	(void)arg;
	fprintf(stderr, "libzex: ignoring invalid %s=%s\n", name, value);
}

static void zex_l0_device_init(struct zex_l0_device *d, struct zex_l0_driver *drv, int tile)
{
	zex_ddi_header_init(&d->ddi);
	d->drv = drv;
	d->tile = tile;
}

static void zex_l0_init(void)
{
	struct zex_l0_driver *drv = &zex_driver;
	int i;

	if (zex_device_open(&drv->dev))
		return;
	/* Each host allocation holds a descriptor (l0/memory/memfd.c). */
	zex_fd_limit_raise();
	drv->topo.size = sizeof(drv->topo);
	if (zex_device_query_topology(drv->dev, &drv->topo)) {
		zex_device_close(drv->dev);
		return;
	}
	/* Each invalid key named once and ignored; the valid ones count. */
	zex_debug_keys_read(&drv->keys, zex_getenv, zex_report_invalid_key, NULL);
	zex_visible_devices_read(&drv->visible, drv->topo.num_tiles, zex_getenv,
				 zex_report_invalid_key, NULL);
	zex_ddi_header_init(&drv->ddi);
	zex_l0_device_init(&drv->root, drv, -1);
	for (i = 0; i < (int)drv->topo.num_tiles; i++)
		zex_l0_device_init(&drv->tiles[i], drv, i);
	zex_alloc_table_init(&drv->allocs);
	pthread_mutex_init(&drv->ipc_lock, NULL);
	pthread_mutex_init(&drv->waker_lock, NULL);
	pthread_mutex_init(&drv->engine_lock, NULL);
	pthread_mutex_init(&drv->virt.lock, NULL);
	pthread_mutex_init(&drv->host_imports.lock, NULL);
	pthread_mutex_init(&drv->queues.lock, NULL);
	pthread_cond_init(&drv->queues.unpinned, NULL);
	drv->queues.next_serial = 1;
	pthread_mutex_init(&drv->deferred.lock, NULL);
	pthread_mutex_init(&drv->counters.lock, NULL);
	pthread_mutex_init(&drv->cb_slots.lock, NULL);
	zex_l0_handles_register(drv);
	zex_init_result = ZE_RESULT_SUCCESS;
}

/** The driver, or NULL before a successful zeInit(). */
struct zex_l0_driver *zex_l0_driver_get(void)
{
	return zex_init_result == ZE_RESULT_SUCCESS ? &zex_driver : NULL;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeInit(ze_init_flags_t flags)
{
	if (flags & ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (flags == ZE_INIT_FLAG_VPU_ONLY)
		return ZE_RESULT_ERROR_UNINITIALIZED;
	pthread_once(&zex_init_once, zex_l0_init);
	return zex_init_result;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeInitDrivers(uint32_t *pCount,
						  ze_driver_handle_t *phDrivers,
						  ze_init_driver_type_desc_t *desc)
{
	if (!pCount || !desc)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (desc->stype != ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/*
	 * Flags name the types asked for; bits beyond GPU and NPU are types of
	 * later versions (UINT32_MAX asks for all). zex is a GPU: asked for
	 * other types only, it has no driver to give.
	 */
	if (!(desc->flags & ZE_INIT_DRIVER_TYPE_FLAG_GPU)) {
		*pCount = 0;
		return ZE_RESULT_SUCCESS;
	}
	pthread_once(&zex_init_once, zex_l0_init);
	if (zex_init_result) {
		/* The spec: no driver of the types asked for is a count of 0. */
		*pCount = 0;
		return zex_init_result;
	}
	return zeDriverGet(pCount, phDrivers);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGet(uint32_t *pCount,
						ze_driver_handle_t *phDrivers)
{
	struct zex_l0_driver *drv = zex_l0_driver_get();

	if (!drv)
		return ZE_RESULT_ERROR_UNINITIALIZED;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*pCount && phDrivers)
		phDrivers[0] = (ze_driver_handle_t)drv;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDriverGetApiVersion(ze_driver_handle_t hDriver,
							  ze_api_version_t *version)
{
	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!version)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*version = ZEX_API_VERSION;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetProperties(ze_driver_handle_t hDriver, ze_driver_properties_t *pDriverProperties)
{
	ze_base_properties_t *ext;

	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pDriverProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pDriverProperties->stype, ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	memset(&pDriverProperties->uuid, 0, sizeof(pDriverProperties->uuid));
	memcpy(pDriverProperties->uuid.id, "zex-libzex", 10);
	pDriverProperties->driverVersion = ZEX_DRIVER_VERSION;
	/* Fill the extension structs libzex knows; leave others untouched. */
	for (ext = pDriverProperties->pNext; ext; ext = ext->pNext)
		if (ext->stype == ZE_STRUCTURE_TYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES)
			((ze_driver_ddi_handles_ext_properties_t *)ext)->flags =
				ZE_DRIVER_DDI_HANDLE_EXT_FLAG_DDI_HANDLE_EXT_SUPPORTED;
		else if (ext->stype == ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES)
			((ze_driver_memory_free_ext_properties_t *)ext)->freePolicies =
				ZEX_FREE_POLICIES;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetIpcProperties(ze_driver_handle_t hDriver, ze_driver_ipc_properties_t *pIpcProperties)
{
	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pIpcProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pIpcProperties->stype, ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/* Memory by fd (dma-buf); no event pools. */
	pIpcProperties->flags = ZE_IPC_PROPERTY_FLAG_MEMORY;
	return ZE_RESULT_SUCCESS;
}

static const struct {
	const char *name;
	uint32_t version;
} zex_extensions[] = {
	{ ZE_DRIVER_DDI_HANDLES_EXT_NAME, ZE_DRIVER_DDI_HANDLES_EXT_VERSION_1_0 },
	{ ZEX_MEM_IPC_HANDLES_NAME, ZEX_MEM_IPC_HANDLES_VERSION_1_0 },
	{ ZE_EXTERNAL_MEMORY_MAPPING_EXT_NAME, ZE_MAKE_VERSION(1, 0) },
	{ ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME, ZE_MAKE_VERSION(1, 0) },
	/* zeKernelSetGlobalOffsetExp */
	{ ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_1_0 },
	/* zeEventQueryKernelTimestampsExt */
	{ ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_NAME, ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_VERSION_1_0 },
	/* zeModuleInspectLinkageExt */
	{ ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_1_0 },
	/* zeModuleCreate of several SPIR-V modules */
	{ ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_1_0 },
	/* zeMemFreeExt (l0/free) */
	{ ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MEMORY_FREE_POLICIES_EXT_VERSION_1_0 },
	/* Chained on zeDeviceGetProperties and zeDeviceGetMemoryProperties */
	{ ZE_DEVICE_LUID_EXT_NAME, ZE_DEVICE_LUID_EXT_VERSION_1_0 },
	{ ZE_DEVICE_MEMORY_PROPERTIES_EXT_NAME, ZE_DEVICE_MEMORY_PROPERTIES_EXT_VERSION_1_0 },
	/* zeEventPoolCreate of counter-based events (l0/exec/l0_event.c) */
	{ ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME, ZE_EVENT_POOL_COUNTER_BASED_EXP_VERSION_1_0 },
};

#define ZEX_NUM_EXTENSIONS (sizeof(zex_extensions) / sizeof(zex_extensions[0]))

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
			       ze_driver_extension_properties_t *pExtensionProperties)
{
	uint32_t i;

	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*pCount == 0 || *pCount > ZEX_NUM_EXTENSIONS) {
		/* A count of 0 asks for the count only. */
		pExtensionProperties = *pCount ? pExtensionProperties : NULL;
		*pCount = ZEX_NUM_EXTENSIONS;
	}
	if (pExtensionProperties)
		for (i = 0; i < *pCount; i++) {
			memset(pExtensionProperties[i].name, 0, ZE_MAX_EXTENSION_NAME);
			strcpy(pExtensionProperties[i].name, zex_extensions[i].name);
			pExtensionProperties[i].version = zex_extensions[i].version;
		}
	return ZE_RESULT_SUCCESS;
}
