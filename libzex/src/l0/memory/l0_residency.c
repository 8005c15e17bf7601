// SPDX-License-Identifier: MIT
/*
 * DOC: l0_residency.c - zeContextMakeMemoryResident, zeContextEvictMemory: zex's memory never leaves
 *
 * Every allocation libzex makes is resident from its creation to its
 * free: libzex maps a device allocation at its device address for its
 * whole life, and the kernel driver pins a buffer object's pages while it
 * is mapped; host and shared memory are imported pinned. Making
 * a range resident is therefore a check that it lies inside one
 * allocation (ZE_RESULT_ERROR_INVALID_ARGUMENT otherwise, as for memory
 * the driver never allocated), and an eviction, which the specification
 * makes a permission, not a demand, is the same check: the memory stays.
 */

#include <stdint.h>

#include "l0/base/l0.h"

static ze_result_t check_range(ze_context_handle_t hContext, ze_device_handle_t hDevice,
			       const void *ptr, size_t size)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_alloc *a;
	bool inside;

	if (!ctx || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	if (!a)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the range is not inside an allocation of the driver's");
	inside = size <= a->size - ((uintptr_t)ptr - a->base);
	zex_alloc_put(a);
	if (!inside)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the range runs past the end of its allocation");
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextMakeMemoryResident(ze_context_handle_t hContext,
								ze_device_handle_t hDevice,
								void *ptr, size_t size)
{
	return check_range(hContext, hDevice, ptr, size);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeContextEvictMemory(ze_context_handle_t hContext,
							 ze_device_handle_t hDevice, void *ptr,
							 size_t size)
{
	return check_range(hContext, hDevice, ptr, size);
}
