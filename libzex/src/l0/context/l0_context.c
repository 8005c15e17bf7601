// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_context.c - contexts: create, destroy, status, system barrier
 *
 * A context is a handle on the one driver, in a slot of the contexts' pool
 * (never freed: a stale handle is refused, not followed); allocations live
 * in the driver's table, so any context of the process sees them. A
 * context is never lost: a job's fault or timeout bans its own queue
 * (whose synchronize then says ZE_RESULT_ERROR_DEVICE_LOST), nothing else.
 *
 * zeDriverGetDefaultContext() (API 1.14) makes the driver's own context at
 * its first call, without a lock (two first calls race to publish theirs;
 * the loser gives its back), and returns it ever after; it is the
 * driver's, so zeContextDestroy() refuses it.
 */

#include <stdatomic.h>

#include "l0/base/l0.h"


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
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_CONTEXT_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_context_flags_t)ZE_CONTEXT_FLAG_TBD)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	ctx = zex_object_pool_get(&zex_l0_contexts);
	if (!ctx)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	ctx->drv = drv;
	zex_l0_object_publish(&ctx->obj);
	*phContext = (ze_context_handle_t)ctx;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextDestroy(ze_context_handle_t hContext)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (ctx == __atomic_load_n(&ctx->drv->default_context, __ATOMIC_ACQUIRE))
		return zex_l0_fail(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				   "zex: the default context is the driver's, not the application's");
	/* The DDI header stays: a loader may still dispatch a stale handle here. */
	zex_object_pool_put(&zex_l0_contexts, ctx);
	return ZE_RESULT_SUCCESS;
}

/* 1.14: NULL with the reason in zeDriverGetLastErrorDescription on failure. */
ZE_APIEXPORT ze_context_handle_t ZE_APICALL zeDriverGetDefaultContext(ze_driver_handle_t hDriver)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	struct zex_l0_context *ctx, *none = NULL;

	if (!drv) {
		zex_l0_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, "zex: not a driver handle");
		return NULL;
	}
	ctx = __atomic_load_n(&drv->default_context, __ATOMIC_ACQUIRE);
	if (ctx)
		return (ze_context_handle_t)ctx;
	ctx = zex_object_pool_get(&zex_l0_contexts);
	if (!ctx) {
		zex_l0_fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "zex: out of memory");
		return NULL;
	}
	ctx->drv = drv;
	zex_l0_object_publish(&ctx->obj);
	if (!__atomic_compare_exchange_n(&drv->default_context, &none, ctx, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		zex_object_pool_put(&zex_l0_contexts, ctx);
		ctx = none;
	}
	return (ze_context_handle_t)ctx;
}

/* 1.1: a context on some of the driver's devices; every device sees every context. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeContextCreateEx(ze_driver_handle_t hDriver,
						      const ze_context_desc_t *desc,
						      uint32_t numDevices,
						      ze_device_handle_t *phDevices,
						      ze_context_handle_t *phContext)
{
	uint32_t i;

	if (numDevices && !phDevices)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < numDevices; i++)
		if (!zex_l0_device(phDevices[i]))
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return zeContextCreate(hDriver, desc, phContext);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextGetStatus(ze_context_handle_t hContext)
{
	return zex_l0_context(hContext) ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

/*
 * Writes into device memory by another agent made visible to the device:
 * zex's device memory is the host's, so a full fence of this thread does it.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeContextSystemBarrier(ze_context_handle_t hContext,
							   ze_device_handle_t hDevice)
{
	if (!zex_l0_context(hContext) || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	atomic_thread_fence(memory_order_seq_cst);
	return ZE_RESULT_SUCCESS;
}
