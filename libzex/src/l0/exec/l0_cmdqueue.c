// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_cmdqueue.c - zeCommandQueue*: queues that run closed command lists
 *
 * A command queue is one kernel exec queue on the engine its group ordinal
 * and index name (l0_submit.c). Executing lists submits their commands in
 * order, the last job signalling the point a fence given with them waits
 * for; a synchronous queue waits for it before returning. A queue's
 * priority is its kernel queue's (l0_submit.c): a free engine runs the
 * ready job of the highest priority first; root-device queues under
 * implicit scaling run at normal priority, and so does a high-priority
 * queue of a process without CAP_SYS_NICE.
 */

#include <stdlib.h>

#include "l0/exec/l0_exec.h"

/* EXPLICIT_ONLY, IN_ORDER (1.7) and COPY_OFFLOAD_HINT (1.10): hints, all kept. */
#define ZEX_QUEUE_FLAGS	0x7u

/** zex_l0_check_queue_desc - the checks every queue description passes */
ze_result_t zex_l0_check_queue_desc(const ze_command_queue_desc_t *desc)
{
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_command_queue_flags_t)ZEX_QUEUE_FLAGS ||
	    desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
	    desc->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueCreate(ze_context_handle_t hContext,
							 ze_device_handle_t hDevice,
							 const ze_command_queue_desc_t *desc,
							 ze_command_queue_handle_t *phCommandQueue)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_cmdqueue *q;
	ze_result_t res;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phCommandQueue)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zex_l0_check_queue_desc(desc);
	if (res)
		return res;
	q = zex_object_pool_get(&zex_l0_cmdqueues);
	if (!q)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	res = zex_l0_queue_open(q, ctx->drv, dev, desc);
	if (res) {
		zex_object_pool_put(&zex_l0_cmdqueues, q);
		return res;
	}
	zex_l0_object_publish(&q->obj);
	*phCommandQueue = (ze_command_queue_handle_t)q;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);

	if (!q)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	/* Not found from here on; then its jobs run out and it goes. */
	zex_object_pool_put(&zex_l0_cmdqueues, q);
	zex_l0_queue_close(q);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue,
				  uint32_t numCommandLists,
				  ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);
	struct zex_l0_fence *fence = hFence ? zex_l0_fence(hFence) : NULL;
	ze_result_t res = ZE_RESULT_SUCCESS;
	uint64_t point;
	uint32_t i;

	if (!q || (hFence && !fence))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!phCommandLists)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!numCommandLists)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	if (fence && fence->queue != q)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the fence belongs to another command queue");
	for (i = 0; i < numCommandLists; i++) {
		struct zex_l0_cmdlist *l = zex_l0_cmdlist(phCommandLists[i]);

		if (!l)
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		if (l->immediate || l->ordinal != q->ordinal)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
					   "zex: an immediate list, or one of another queue group");
		if (!l->closed)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					   "zex: a command list that is not closed");
	}

	pthread_mutex_lock(&q->lock);
	for (i = 0; i < numCommandLists && !res; i++) {
		struct zex_l0_cmdlist *l = zex_l0_cmdlist(phCommandLists[i]);

		pthread_mutex_lock(&l->lock);
		/* The last list signals even when it is empty; others need not. */
		if (l->num_cmds || i == numCommandLists - 1)
			res = zex_l0_submit_locked(q, l->cmds, l->num_cmds);
		pthread_mutex_unlock(&l->lock);
	}
	point = q->submitted;
	if (!res && fence)
		atomic_store(&fence->point, point);
	pthread_mutex_unlock(&q->lock);
	if (!res && q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
		res = zex_l0_queue_wait(q, point, UINT64_MAX);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
							      uint64_t timeout)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);
	uint64_t point;

	if (!q)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pthread_mutex_lock(&q->lock);
	point = q->submitted;
	pthread_mutex_unlock(&q->lock);
	return zex_l0_queue_wait(q, point, timeout);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetOrdinal(ze_command_queue_handle_t hCommandQueue,
							     uint32_t *pOrdinal)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);

	if (!q)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pOrdinal)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pOrdinal = q->ordinal;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandQueueGetIndex(ze_command_queue_handle_t hCommandQueue,
							   uint32_t *pIndex)
{
	struct zex_l0_cmdqueue *q = zex_l0_cmdqueue(hCommandQueue);

	if (!q)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pIndex)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*pIndex = q->index;
	return ZE_RESULT_SUCCESS;
}
