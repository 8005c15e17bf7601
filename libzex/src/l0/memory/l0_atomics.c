// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_atomics.c - atomic access attributes of shared allocations
 *
 * zeMemSetAtomicAccessAttributeExp() records what a program says about
 * atomics on a shared allocation and zeMemGetAtomicAccessAttributeExp()
 * reads it back. zex's engines copy, fill and store; they run no kernels
 * and have no atomics, so no allocation kind advertises
 * ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC: an attribute that allows atomics (host,
 * device or system) is refused with ZE_RESULT_ERROR_INVALID_ARGUMENT, one
 * that forbids them is kept. The attribute covers the whole allocation.
 */

#include <stdint.h>

#include "l0/base/l0.h"

#define ZEX_ATOMICS_FORBID	(ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS |		\
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS |	\
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS |	\
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS)
#define ZEX_ATOMICS_ALLOW	(ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS |		\
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS |	\
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS)

/* The shared allocation holding [ptr, ptr + size), with a reference; NULL if none. */
static struct zex_alloc *shared_range(struct zex_l0_context *ctx, const void *ptr, size_t size)
{
	struct zex_alloc *a = zex_alloc_table_find(&ctx->drv->allocs, ptr);

	if (a && (a->kind != ZEX_ALLOC_SHARED ||
		  size > a->size - ((uintptr_t)ptr - a->base))) {
		zex_alloc_put(a);
		return NULL;
	}
	return a;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemSetAtomicAccessAttributeExp(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				 const void *ptr, size_t size,
				 ze_memory_atomic_attr_exp_flags_t attr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_alloc *a;

	if (!ctx || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (attr & ~(ze_memory_atomic_attr_exp_flags_t)(ZEX_ATOMICS_FORBID | ZEX_ATOMICS_ALLOW))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (attr & ZEX_ATOMICS_ALLOW)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: no memory has atomic access (the engines run no kernels)");
	a = shared_range(ctx, ptr, size);
	if (!a)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the range is not within one shared allocation");
	atomic_store(&a->atomics, attr);
	zex_alloc_put(a);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetAtomicAccessAttributeExp(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				 const void *ptr, size_t size,
				 ze_memory_atomic_attr_exp_flags_t *pAttr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_alloc *a;

	if (!ctx || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !pAttr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	a = shared_range(ctx, ptr, size);
	if (!a)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the range is not within one shared allocation");
	*pAttr = atomic_load(&a->atomics);
	zex_alloc_put(a);
	return ZE_RESULT_SUCCESS;
}
