// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_context.c - zeContextCreate, zeContextDestroy
 *
 * A context is a handle (DDI header, magic) on the one driver; allocations
 * live in the driver's table, so any context of the process sees them.
 */

#include <stdlib.h>

#include "l0.h"

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
	zex_ddi_header_init(&ctx->ddi);
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
	ctx->ddi.pCore = NULL;
	free(ctx);
	return ZE_RESULT_SUCCESS;
}
