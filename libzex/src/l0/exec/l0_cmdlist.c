// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_cmdlist.c - zeCommandList*: recording the kernel's commands
 *
 * A regular command list records the kernel's commands (struct
 * drm_zex_command) as they are appended; closed, it runs on any queue of
 * its group, as often as asked. An immediate list has its own queue
 * (l0_submit.c): each append runs at once, and a synchronous one returns
 * when it has run. Copies and fills become the kernel's COPY and FILL (a
 * copy over 1 GiB several of them; a pattern longer than a FILL's, FILLs
 * of its pieces, then copies that double it), a global timestamp its TIMESTAMP;
 * a region copy one COPY per row of each slice. Each append's events go
 * around it: a WAIT until each wait event's state is signalled, the signal
 * event's start timestamps (a timestamp pool's), the operation, its end
 * timestamps, and a STORE that signals it. Commands of one queue run in
 * order, one after the other, so a barrier is its events alone, and
 * prefetches and memory advice have nothing to do. Kernel launches are
 * appended the same way (l0_launch.c); images are not zex's: those
 * entries return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE (the dispatch
 * tables' stubs).
 */

#include <stdlib.h>
#include <string.h>

#include "l0/exec/l0_exec.h"

/* RELAXED_ORDERING, MAXIMIZE_THROUGHPUT, EXPLICIT_ONLY, IN_ORDER (1.7): hints. */
#define ZEX_LIST_FLAGS	0xfu

static ze_result_t list_new(struct zex_l0_context *ctx, struct zex_l0_device *dev,
			    uint32_t ordinal, struct zex_l0_cmdlist **out)
{
	struct zex_l0_queue_group groups[ZEX_L0_MAX_QUEUE_GROUPS];
	struct zex_l0_cmdlist *l;

	if (ordinal >= zex_l0_queue_groups(dev, groups))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, "zex: no such queue group");
	l = zex_object_pool_get(&zex_l0_cmdlists);
	if (!l)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	l->drv = ctx->drv;
	l->device = dev;
	l->ordinal = ordinal;
	pthread_mutex_init(&l->lock, NULL);
	*out = l;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListCreate(ze_context_handle_t hContext,
							ze_device_handle_t hDevice,
							const ze_command_list_desc_t *desc,
							ze_command_list_handle_t *phCommandList)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_cmdlist *l;
	ze_result_t res;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phCommandList)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_command_list_flags_t)ZEX_LIST_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	res = list_new(ctx, dev, desc->commandQueueGroupOrdinal, &l);
	if (res)
		return res;
	zex_l0_object_publish(&l->obj);
	*phCommandList = (ze_command_list_handle_t)l;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
			     const ze_command_queue_desc_t *altdesc,
			     ze_command_list_handle_t *phCommandList)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_cmdlist *l;
	ze_result_t res;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!altdesc || !phCommandList)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zex_l0_check_queue_desc(altdesc);
	if (res)
		return res;
	res = list_new(ctx, dev, altdesc->ordinal, &l);
	if (res)
		return res;
	l->immediate = true;
	l->queue = calloc(1, sizeof(*l->queue));
	res = l->queue ? zex_l0_queue_open(l->queue, ctx->drv, dev, altdesc) :
			 ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (!res)
		l->queue->self_served = altdesc->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
	if (res) {
		free(l->queue);
		pthread_mutex_destroy(&l->lock);
		zex_object_pool_put(&zex_l0_cmdlists, l);
		return res;
	}
	zex_l0_object_publish(&l->obj);
	*phCommandList = (ze_command_list_handle_t)l;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListDestroy(ze_command_list_handle_t hCommandList)
{
	struct zex_l0_cmdlist *l = zex_l0_cmdlist(hCommandList);

	if (!l)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	zex_object_pool_put(&zex_l0_cmdlists, l);
	if (l->queue) {
		zex_l0_queue_close(l->queue);
		free(l->queue);
	}
	zex_l0_launches_release(l);
	free(l->cmds);
	pthread_mutex_destroy(&l->lock);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListClose(ze_command_list_handle_t hCommandList)
{
	struct zex_l0_cmdlist *l = zex_l0_cmdlist(hCommandList);

	if (!l)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pthread_mutex_lock(&l->lock);
	l->closed = !l->immediate;
	pthread_mutex_unlock(&l->lock);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListReset(ze_command_list_handle_t hCommandList)
{
	struct zex_l0_cmdlist *l = zex_l0_cmdlist(hCommandList);
	ze_result_t res = ZE_RESULT_SUCCESS;

	if (!l)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	/* An immediate list's reset waits for what it ran. */
	if (l->immediate)
		res = zex_l0_queue_wait(l->queue, l->queue->submitted, UINT64_MAX);
	pthread_mutex_lock(&l->lock);
	l->num_cmds = 0;
	l->closed = false;
	pthread_mutex_unlock(&l->lock);
	zex_l0_launches_release(l);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList,
								 uint64_t timeout)
{
	struct zex_l0_cmdlist *l = zex_l0_cmdlist(hCommandList);
	uint64_t point;

	if (!l)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!l->immediate)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: only an immediate command list is synchronized");
	pthread_mutex_lock(&l->queue->lock);
	point = l->queue->submitted;
	pthread_mutex_unlock(&l->queue->lock);
	return zex_l0_queue_wait(l->queue, point, timeout);
}

/* A copy, in commands of at most DRM_ZEX_COPY_MAX_LEN bytes. */
static ze_result_t op_copy(struct zex_l0_op *op, uintptr_t dst, uintptr_t src, uint64_t size)
{
	if (dst < src + size && src < dst + size)
		return zex_l0_fail(ZE_RESULT_ERROR_OVERLAPPING_REGIONS,
				   "zex: the copy's source and destination overlap");
	while (size) {
		uint64_t len = size < DRM_ZEX_COPY_MAX_LEN ? size : DRM_ZEX_COPY_MAX_LEN;

		if (zex_l0_op_push(op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_COPY, .dst = dst,
							  .src = src, .len = len }))
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		dst += len;
		src += len;
		size -= len;
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList, void *dstptr,
			      const void *srcptr, size_t size, ze_event_handle_t hSignalEvent,
			      uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);

	if (res)
		return res;
	if (!dstptr || !srcptr)
		res = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	else
		res = op_copy(&op, (uintptr_t)dstptr, (uintptr_t)srcptr, size);
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryCopyFromContext(ze_command_list_handle_t hCommandList, void *dstptr,
					 ze_context_handle_t hContextSrc, const void *srcptr,
					 size_t size, ze_event_handle_t hSignalEvent,
					 uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	/* Every context of the process is the one device's: the same copy. */
	if (!zex_l0_context(hContextSrc))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent,
					     numWaitEvents, phWaitEvents);
}

/*
 * A fill whose pattern is longer than a FILL command's: the pattern's
 * first bytes (up to @size) by FILLs of DRM_ZEX_FILL_MAX_PATTERN bytes
 * each, then copies within @dst that double what is written, each from
 * @dst's start (a whole number of patterns) to where the last one ended.
 */
static ze_result_t op_fill_wide(struct zex_l0_op *op, uintptr_t dst, const uint8_t *pattern,
				uint64_t pattern_size, uint64_t size)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_FILL,
				     .pattern_size = DRM_ZEX_FILL_MAX_PATTERN };
	uint64_t done;
	ze_result_t res = ZE_RESULT_SUCCESS;

	for (done = 0; done < pattern_size && done < size; done += DRM_ZEX_FILL_MAX_PATTERN) {
		memcpy(c.pattern, pattern + done, DRM_ZEX_FILL_MAX_PATTERN);
		c.dst = dst + done;
		c.len = size - done < DRM_ZEX_FILL_MAX_PATTERN ? size - done :
								 DRM_ZEX_FILL_MAX_PATTERN;
		if (zex_l0_op_push(op, c))
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	for (done = pattern_size; done < size && !res; done *= 2)
		res = op_copy(op, dst + done, dst, size - done < done ? size - done : done);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void *ptr,
			      const void *pattern, size_t pattern_size, size_t size,
			      ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
			      ze_event_handle_t *phWaitEvents)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_FILL };
	uintptr_t dst = (uintptr_t)ptr;
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);

	if (res)
		return res;
	if (!ptr || !pattern)
		return zex_l0_op_end(&op, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!pattern_size || pattern_size > ZEX_L0_FILL_MAX_PATTERN ||
	    (pattern_size & (pattern_size - 1)))
		return zex_l0_op_end(&op, zex_l0_fail(ZE_RESULT_ERROR_INVALID_SIZE,
					       "zex: fill patterns are a power of two, 1 to 256 bytes"));
	if (pattern_size > DRM_ZEX_FILL_MAX_PATTERN)
		return zex_l0_op_end(&op, op_fill_wide(&op, dst, pattern, pattern_size, size));
	c.pattern_size = (uint16_t)pattern_size;
	memcpy(c.pattern, pattern, pattern_size);
	/* Pieces of 1 GiB, a multiple of every pattern size: each starts the pattern anew. */
	while (size && !res) {
		uint64_t len = size < DRM_ZEX_COPY_MAX_LEN ? size : DRM_ZEX_COPY_MAX_LEN;

		c.dst = dst;
		c.len = len;
		if (zex_l0_op_push(&op, c))
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		dst += len;
		size -= len;
	}
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryCopyRegion(ze_command_list_handle_t hCommandList, void *dstptr,
				    const ze_copy_region_t *dstRegion, uint32_t dstPitch,
				    uint32_t dstSlicePitch, const void *srcptr,
				    const ze_copy_region_t *srcRegion, uint32_t srcPitch,
				    uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
				    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
	uint32_t y, z, depth;

	if (res)
		return res;
	if (!dstptr || !srcptr || !dstRegion || !srcRegion)
		return zex_l0_op_end(&op, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (dstRegion->width != srcRegion->width || dstRegion->height != srcRegion->height ||
	    dstRegion->depth != srcRegion->depth)
		return zex_l0_op_end(&op, zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					       "zex: the regions' sizes differ"));
	if (!dstSlicePitch)
		dstSlicePitch = dstPitch * (dstRegion->originY + dstRegion->height);
	if (!srcSlicePitch)
		srcSlicePitch = srcPitch * (srcRegion->originY + srcRegion->height);
	/* A depth of 0 is a 2D region, one slice (as programs pass it). */
	depth = dstRegion->depth ? dstRegion->depth : 1;
	for (z = 0; z < depth && !res; z++)
		for (y = 0; y < dstRegion->height && !res; y++) {
			uint64_t d = (uint64_t)(dstRegion->originZ + z) * dstSlicePitch +
				     (uint64_t)(dstRegion->originY + y) * dstPitch + dstRegion->originX;
			uint64_t s = (uint64_t)(srcRegion->originZ + z) * srcSlicePitch +
				     (uint64_t)(srcRegion->originY + y) * srcPitch + srcRegion->originX;

			res = op_copy(&op, (uintptr_t)dstptr + d, (uintptr_t)srcptr + s,
				      dstRegion->width);
		}
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendWriteGlobalTimestamp(ze_command_list_handle_t hCommandList,
					uint64_t *dstptr, ze_event_handle_t hSignalEvent,
					uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);

	if (res)
		return res;
	if (!dstptr)
		res = ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	else if ((uintptr_t)dstptr % sizeof(uint64_t))
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "zex: a timestamp's address is 8-byte aligned");
	else if (zex_l0_op_push(&op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_TIMESTAMP,
						       .dst = (uintptr_t)dstptr }))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
			   uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);

	/* Commands already run one after the other: only the events remain. */
	return res ? res : zex_l0_op_end(&op, ZE_RESULT_SUCCESS);
}

/*
 * Regular lists run through an immediate one: their commands between this
 * append's waits and its signal, as one submission on the immediate list's
 * queue. The lists stay closed and may run again.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListImmediateAppendCommandListsExp(ze_command_list_handle_t hCommandListImmediate,
					    uint32_t numCommandLists,
					    ze_command_list_handle_t *phCommandLists,
					    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					    ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res;
	uint32_t i, j;

	if (!phCommandLists)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zex_l0_op_begin(&op, hCommandListImmediate, hSignalEvent, numWaitEvents, phWaitEvents);
	if (res)
		return res;
	if (!op.list->immediate)
		return zex_l0_op_end(&op, zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					       "zex: regular lists are appended to an immediate list"));
	for (i = 0; i < numCommandLists && !res; i++) {
		struct zex_l0_cmdlist *l = zex_l0_cmdlist(phCommandLists[i]);

		if (!l) {
			res = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
			break;
		}
		if (l->immediate || l->ordinal != op.list->ordinal) {
			res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
					  "zex: an immediate list, or one of another queue group");
			break;
		}
		pthread_mutex_lock(&l->lock);
		if (!l->closed)
			res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					  "zex: a command list that is not closed");
		for (j = 0; j < l->num_cmds && !res; j++)
			if (zex_l0_op_push(&op, l->cmds[j]))
				res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		pthread_mutex_unlock(&l->lock);
	}
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryRangesBarrier(ze_command_list_handle_t hCommandList,
				       uint32_t numRanges, const size_t *pRangeSizes,
				       const void **pRanges, ze_event_handle_t hSignalEvent,
				       uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	if (numRanges && (!pRangeSizes || !pRanges))
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zeCommandListAppendBarrier(hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent)
{
	if (!hEvent)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return zeCommandListAppendBarrier(hCommandList, hEvent, 0, NULL);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList, uint32_t numEvents,
				ze_event_handle_t *phEvents)
{
	if (!numEvents)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	return zeCommandListAppendBarrier(hCommandList, NULL, numEvents, phEvents);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, NULL, 0, NULL);

	if (res)
		return res;
	if (!ev)
		return zex_l0_op_end(&op, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	if (ev->counter_based)
		return zex_l0_op_end(&op, zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
						      "zex: a counter-based event is never reset"));
	if (zex_l0_op_push(&op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_STORE,
						   .dst = (uintptr_t)&ev->slot->state }))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendQueryKernelTimestamps(ze_command_list_handle_t hCommandList,
					 uint32_t numEvents, ze_event_handle_t *phEvents,
					 void *dstptr, const size_t *pOffsets,
					 ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					 ze_event_handle_t *phWaitEvents)
{
	struct zex_l0_op op;
	ze_result_t res = zex_l0_op_begin(&op, hCommandList, hSignalEvent, numWaitEvents, phWaitEvents);
	uint32_t i;

	if (res)
		return res;
	if (!phEvents || !dstptr)
		return zex_l0_op_end(&op, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* Each event's timestamps, copied where the offsets (or the order) say. */
	for (i = 0; i < numEvents && !res; i++) {
		struct zex_l0_event *ev = zex_l0_event(phEvents[i]);
		uintptr_t dst = (uintptr_t)dstptr +
				(pOffsets ? pOffsets[i] : i * sizeof(ze_kernel_timestamp_result_t));

		if (!ev)
			res = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		else
			res = op_copy(&op, dst, (uintptr_t)&ev->slot->ts, sizeof(ev->slot->ts));
	}
	return zex_l0_op_end(&op, res);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList, const void *ptr,
				  size_t size)
{
	if (!zex_l0_cmdlist(hCommandList))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	(void)size;
	/* Memory never moves between the host and the device: nothing to fetch. */
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice,
			     const void *ptr, size_t size, ze_memory_advice_t advice)
{
	if (!zex_l0_cmdlist(hCommandList) || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* 9: ..._CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION, API 1.10's last advice. */
	if ((uint32_t)advice > 9)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	(void)size;
	return ZE_RESULT_SUCCESS;
}
