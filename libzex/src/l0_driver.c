// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_driver.c - zeInit, drivers, devices, sub-devices, contexts
 *
 * zeInit() opens the zex device once (pthread_once), reads its topology
 * and compute-runtime's debug keys from the environment; an invalid key is
 * reported on stderr by name and ignored, as compute-runtime does. There is
 * one driver with one root device; its sub-devices are the tiles.
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "l0.h"

static struct zex_l0_driver zex_driver;
static pthread_once_t zex_init_once = PTHREAD_ONCE_INIT;
static ze_result_t zex_init_result = ZE_RESULT_ERROR_UNINITIALIZED;

static const char *zex_getenv(const char *name)
{
	return getenv(name);
}

static void zex_l0_init(void)
{
	struct zex_l0_driver *drv = &zex_driver;
	const char *bad = NULL;
	int i;

	if (zex_device_open(&drv->dev))
		return;
	if (zex_device_query_topology(drv->dev, &drv->topo)) {
		zex_device_close(drv->dev);
		return;
	}
	if (zex_debug_keys_read(&drv->keys, zex_getenv, &bad)) {
		fprintf(stderr, "libzex: ignoring invalid debug key %s=%s\n", bad,
			getenv(bad));
		/* Keep the valid ones read before the bad one. */
	}
	drv->magic = ZEX_L0_DRIVER_MAGIC;
	drv->root = (struct zex_l0_device){ ZEX_L0_DEVICE_MAGIC, drv, -1 };
	for (i = 0; i < (int)drv->topo.num_tiles; i++)
		drv->tiles[i] = (struct zex_l0_device){ ZEX_L0_DEVICE_MAGIC, drv, i };
	zex_alloc_table_init(&drv->allocs);
	zex_init_result = ZE_RESULT_SUCCESS;
}

/** The driver, or NULL before a successful zeInit(). */
struct zex_l0_driver *zex_l0_driver_get(void)
{
	return zex_init_result == ZE_RESULT_SUCCESS ? &zex_driver : NULL;
}

struct zex_l0_context *zex_l0_context(ze_context_handle_t h)
{
	struct zex_l0_context *c = (struct zex_l0_context *)h;

	return c && c->magic == ZEX_L0_CONTEXT_MAGIC ? c : NULL;
}

struct zex_l0_device *zex_l0_device(ze_device_handle_t h)
{
	struct zex_l0_device *d = (struct zex_l0_device *)h;

	return d && d->magic == ZEX_L0_DEVICE_MAGIC ? d : NULL;
}

static struct zex_l0_driver *zex_l0_driver(ze_driver_handle_t h)
{
	struct zex_l0_driver *d = (struct zex_l0_driver *)h;

	return d && d == zex_l0_driver_get() ? d : NULL;
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

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver,
						uint32_t *pCount,
						ze_device_handle_t *phDevices)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (*pCount && phDevices)
		phDevices[0] = (ze_device_handle_t)&drv->root;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceGetSubDevices(ze_device_handle_t hDevice,
							  uint32_t *pCount,
							  ze_device_handle_t *phSubdevices)
{
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	uint32_t n, i;

	if (!dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Tiles have no sub-devices; the root has every tile, always. */
	n = dev->tile < 0 ? dev->drv->topo.num_tiles : 0;
	if (*pCount == 0 || *pCount > n)
		*pCount = n;
	if (phSubdevices)
		for (i = 0; i < *pCount; i++)
			phSubdevices[i] = (ze_device_handle_t)&dev->drv->tiles[i];
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextCreate(ze_driver_handle_t hDriver,
						    const ze_context_desc_t *desc,
						    ze_context_handle_t *phContext)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	struct zex_l0_context *ctx;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phContext)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (desc->stype != ZE_STRUCTURE_TYPE_CONTEXT_DESC)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_context_flags_t)ZE_CONTEXT_FLAG_TBD)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	ctx->magic = ZEX_L0_CONTEXT_MAGIC;
	ctx->drv = drv;
	*phContext = (ze_context_handle_t)ctx;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextDestroy(ze_context_handle_t hContext)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	ctx->magic = 0;
	free(ctx);
	return ZE_RESULT_SUCCESS;
}
