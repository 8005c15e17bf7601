// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_fence.c - zeFence*: a point of one command queue's timeline
 *
 * An execution given a fence names the point its last job signals; the
 * fence waits for that point in the kernel (a sync object wait, never a
 * poll). A fence no execution named since its creation or reset is not
 * signalled and nothing will signal it: a wait returns ZE_RESULT_NOT_READY
 * at once. One created with ZE_FENCE_FLAG_SIGNALED is signalled until reset.
 */

#include "l0/exec/l0_exec.h"

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
						  const ze_fence_desc_t *desc,
						  ze_fence_handle_t *phFence)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);
	struct zex_l0_fence *f;

	if (!q)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phFence)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_FENCE_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_fence_flags_t)ZE_FENCE_FLAG_SIGNALED)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	f = zex_object_pool_get(&zex_l0_fences);
	if (!f)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	f->queue = q;
	/* UINT64_MAX: signalled without waiting for the queue. */
	atomic_store(&f->point, desc->flags & ZE_FENCE_FLAG_SIGNALED ? UINT64_MAX : 0);
	zex_l0_object_publish(&f->obj);
	*phFence = (ze_fence_handle_t)f;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceDestroy(ze_fence_handle_t hFence)
{
	struct zex_l0_fence *f = zex_l0_fence(hFence);

	if (!f)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	zex_object_pool_put(&zex_l0_fences, f);
	return ZE_RESULT_SUCCESS;
}

/* A fence no execution named yet is not signalled, and nothing will signal it. */
static ze_result_t fence_wait(struct zex_l0_fence *f, uint64_t timeout)
{
	uint64_t point = atomic_load(&f->point);

	if (point == UINT64_MAX)
		return ZE_RESULT_SUCCESS;
	if (!point)
		return ZE_RESULT_NOT_READY;
	return zex_l0_queue_wait(f->queue, point, timeout);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceHostSynchronize(ze_fence_handle_t hFence,
							   uint64_t timeout)
{
	struct zex_l0_fence *f = zex_l0_fence(hFence);

	if (!f)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return fence_wait(f, timeout);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceQueryStatus(ze_fence_handle_t hFence)
{
	struct zex_l0_fence *f = zex_l0_fence(hFence);

	if (!f)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return fence_wait(f, 0);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeFenceReset(ze_fence_handle_t hFence)
{
	struct zex_l0_fence *f = zex_l0_fence(hFence);

	if (!f)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	atomic_store(&f->point, 0);
	return ZE_RESULT_SUCCESS;
}
