// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_event.c - zeEventPool*, zeEvent*: events in memory both sides see
 *
 * An event pool is a buffer object on tile 0, mapped into the process and
 * bound in the device's address space at the same address; each event is
 * a 64-byte slot of it: a state word (signalled or not) and its kernel
 * timestamps. The device signals an event with a store and waits for one
 * with the kernel's WAIT command (l0_cmdlist.c); the host reads and
 * writes the state word itself.
 *
 * A host wait sleeps in the kernel's user fence wait on the state word,
 * which the end of any job of the device wakes. So that a signal from the
 * host wakes it too (and a device WAIT at once, not at its next poll),
 * zeEventHostSignal also runs an empty job on the driver's waker queue.
 *
 * A counter-based event (zeEventCounterBasedCreate; its signals and waits:
 * l0_event_counter.c) is a slot of one of the driver's pools, a page of 64
 * slots each, kept per kind of timestamps the events take (none, device,
 * host) and made as they fill, so that creating one is no system call in
 * the common case; its state is its last signal's, which the host neither
 * sets nor resets. So is every event of a pool made with the experimental
 * ze_event_pool_counter_based_exp_desc_t, which runtimes written before
 * API 1.15 use instead.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "l0/exec/l0_exec.h"

/* The pools whose events carry kernel timestamps. */
#define ZEX_POOL_TIMESTAMPS	(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | \
				 ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP)
#define ZEX_POOL_FLAGS	(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC | \
			 ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP | ZEX_POOL_TIMESTAMPS)
#define ZEX_SCOPE_FLAGS	(ZE_EVENT_SCOPE_FLAG_SUBDEVICE | ZE_EVENT_SCOPE_FLAG_DEVICE | \
			 ZE_EVENT_SCOPE_FLAG_HOST)
#define COUNTER_BASED_FLAGS	(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE | \
				 ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE | \
				 ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE | \
				 ZE_EVENT_COUNTER_BASED_FLAG_IPC | \
				 ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP | \
				 ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP | \
				 ZE_EVENT_COUNTER_BASED_FLAG_GRAPH_EXTERNAL)
/* The descriptors of external counter storage (pNext of the event's). */
#define STYPE_EXTERNAL_SYNC_ALLOCATION	((ze_structure_type_t)0x0002003B)
#define STYPE_EXTERNAL_AGGREGATE_STORAGE	((ze_structure_type_t)0x0002003F)
#define COUNTER_BASED_POOL_FLAGS	(ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_IMMEDIATE | \
					 ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_NON_IMMEDIATE)


/**
 * zex_l0_event_pool_new - a pool's handle on a buffer object's memory
 * @drv: the driver.
 * @handle: the buffer object; taken over (closed on failure).
 * @size: its size, at least @count slots.
 * @flags: the pool's creation flags.
 * @count: its events.
 * @how: %ZEX_L0_POOL_OPENED, %ZEX_L0_POOL_COUNTER_BASED, or 0.
 * @out: the new handle.
 *
 * Maps and binds the memory on tile 0 as an events allocation; the pool
 * is whole before its handle is published.
 * Return: 0 or -ENOMEM.
 */
int zex_l0_event_pool_new(struct zex_l0_driver *drv, uint32_t handle, uint64_t size,
			  ze_event_pool_flags_t flags, uint32_t count, unsigned int how,
			  ze_event_pool_handle_t *out)
{
	struct zex_l0_event_pool *pool = zex_object_pool_get(&zex_l0_event_pools);
	void *mem;

	if (!pool)
		goto err_bo;
	pool->used = calloc(count, 1);
	if (!pool->used)
		goto err_put;
	if (zex_l0_map_new(drv, handle, size, 0, ZEX_ALLOC_EVENTS, &drv->tiles[0], &mem)) {
		free(pool->used);
		zex_object_pool_put(&zex_l0_event_pools, pool);
		return -ENOMEM;
	}
	pool->drv = drv;
	pool->flags = flags;
	pool->count = count;
	pool->slots = mem;
	pool->opened = how & ZEX_L0_POOL_OPENED;
	pool->counter_based = how & ZEX_L0_POOL_COUNTER_BASED;
	pool->next_cb = NULL;
	pool->num_used = 0;
	atomic_init(&pool->refs, 1);
	atomic_init(&pool->destroyed, false);
	pthread_mutex_init(&pool->lock, NULL);
	zex_l0_object_publish(&pool->obj);
	*out = (ze_event_pool_handle_t)pool;
	return 0;

err_put:
	zex_object_pool_put(&zex_l0_event_pools, pool);
err_bo:
	zex_bo_close(drv->dev, handle);
	return -ENOMEM;
}

/*
 * Whether @desc's chain asks for counter-based events (*@counter_based),
 * and ZE_RESULT_SUCCESS, or why libzex refuses it.
 */
static ze_result_t pool_chain(const ze_event_pool_desc_t *desc, bool *counter_based)
{
	const ze_base_desc_t *d;

	*counter_based = false;
	for (d = desc->pNext; d; d = d->pNext) {
		const ze_event_pool_counter_based_exp_desc_t *cb = (const void *)d;

		if (d->stype != ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC)
			continue;
		if (cb->flags & ~(ze_event_pool_counter_based_exp_flags_t)COUNTER_BASED_POOL_FLAGS)
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ENUMERATION,
					   "zex: unknown counter-based event pool flags");
		*counter_based = true;
	}
	if (*counter_based && (desc->flags & ZE_EVENT_POOL_FLAG_IPC))
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "zex: counter-based events are not shared between processes");
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolCreate(ze_context_handle_t hContext,
						      const ze_event_pool_desc_t *desc,
						      uint32_t numDevices,
						      ze_device_handle_t *phDevices,
						      ze_event_pool_handle_t *phEventPool)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	uint64_t size, real_size;
	uint32_t i, handle;
	bool counter_based;
	ze_result_t res;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phEventPool || (numDevices && !phDevices))
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < numDevices; i++)
		if (!zex_l0_device(phDevices[i]))
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_event_pool_flags_t)ZEX_POOL_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!desc->count)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	res = pool_chain(desc, &counter_based);
	if (res)
		return res;
	size = ((uint64_t)desc->count * sizeof(struct zex_l0_event_slot) + 4095) & ~4095ull;
	if (zex_bo_create(ctx->drv->dev, size, 0, NULL, &handle, &real_size) ||
	    zex_l0_event_pool_new(ctx->drv, handle, real_size, desc->flags, desc->count,
				  counter_based ? ZEX_L0_POOL_COUNTER_BASED : 0, phEventPool))
		return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	return ZE_RESULT_SUCCESS;
}

/* Drop a hold on @pool; the last frees its memory and its handle's slot. */
static void event_pool_put(struct zex_l0_event_pool *pool)
{
	if (atomic_fetch_sub(&pool->refs, 1) != 1)
		return;
	zex_l0_release_alloc_kind(pool->drv, pool->slots, ZEX_ALLOC_EVENTS);
	free(pool->used);
	pthread_mutex_destroy(&pool->lock);
	zex_object_pool_put(&zex_l0_event_pools, pool);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolDestroy(ze_event_pool_handle_t hEventPool)
{
	struct zex_l0_event_pool *pool = zex_l0_event_pool(hEventPool);

	if (!pool || atomic_exchange(&pool->destroyed, true))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	event_pool_put(pool);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventCreate(ze_event_pool_handle_t hEventPool,
						  const ze_event_desc_t *desc,
						  ze_event_handle_t *phEvent)
{
	struct zex_l0_event_pool *pool = zex_l0_event_pool(hEventPool);
	struct zex_l0_event *ev;
	bool taken;

	if (!pool)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phEvent)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_EVENT_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if ((desc->signal | desc->wait) & ~(ze_event_scope_flags_t)ZEX_SCOPE_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (desc->index >= pool->count)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the event index is beyond the pool's count");
	pthread_mutex_lock(&pool->lock);
	taken = pool->used[desc->index];
	pool->used[desc->index] = 1;
	pool->num_used += !taken;
	pthread_mutex_unlock(&pool->lock);
	if (taken)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the pool already has an event at that index");
	ev = zex_object_pool_get(&zex_l0_events);
	if (!ev) {
		pthread_mutex_lock(&pool->lock);
		pool->used[desc->index] = 0;
		pool->num_used--;
		pthread_mutex_unlock(&pool->lock);
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	atomic_fetch_add(&pool->refs, 1);
	ev->pool = pool;
	ev->index = desc->index;
	ev->slot = &pool->slots[desc->index];
	ev->counter_based = pool->counter_based;
	ev->tracked = NULL;
	ev->tracked_value = 0;
	/*
	 * A new event is not signalled, and has no timestamps; one of a pool
	 * opened from another process keeps that process's state.
	 */
	if (!pool->opened)
		memset(ev->slot, 0, sizeof(*ev->slot));
	zex_l0_object_publish(&ev->obj);
	*phEvent = (ze_event_handle_t)ev;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventDestroy(ze_event_handle_t hEvent)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);
	struct zex_l0_event_pool *pool;
	uint32_t index;

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pool = ev->pool;
	index = ev->index;
	zex_object_pool_put(&zex_l0_events, ev);
	pthread_mutex_lock(&pool->lock);
	pool->used[index] = 0;
	pool->num_used--;
	pthread_mutex_unlock(&pool->lock);
	event_pool_put(pool);
	return ZE_RESULT_SUCCESS;
}

/* Wake every host and device waiter of the device: a job's end does. */
static ze_result_t wake_waiters(struct zex_l0_driver *drv)
{
	static const ze_command_queue_desc_t desc = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, .ordinal = 0,
	};
	ze_result_t res = ZE_RESULT_SUCCESS;

	pthread_mutex_lock(&drv->waker_lock);
	if (!drv->waker) {
		drv->waker = calloc(1, sizeof(*drv->waker));
		res = drv->waker ? zex_l0_queue_init(drv->waker, drv, &drv->root, &desc) :
				   ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		if (res) {
			free(drv->waker);
			drv->waker = NULL;
		}
	}
	if (!res) {
		pthread_mutex_lock(&drv->waker->lock);
		res = zex_l0_submit_locked(drv->waker, NULL, 0);
		pthread_mutex_unlock(&drv->waker->lock);
	}
	pthread_mutex_unlock(&drv->waker_lock);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostSignal(ze_event_handle_t hEvent)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (ev->counter_based)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: a counter-based event is signalled by the device only");
	__atomic_store_n(&ev->slot->state, ZEX_EVENT_SIGNALED, __ATOMIC_RELEASE);
	return wake_waiters(ev->pool->drv);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostSynchronize(ze_event_handle_t hEvent,
							   uint64_t timeout)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);
	int ret;

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (ev->counter_based)
		return zex_l0_counter_host_wait(ev, timeout);
	ret = zex_wait_user_fence(ev->pool->drv->dev, &ev->slot->state, DRM_ZEX_COMPARE_EQ,
				  ZEX_EVENT_SIGNALED, ~0ull, zex_l0_timeout_ns(timeout));
	if (ret == -ETIME)
		return ZE_RESULT_NOT_READY;
	return ret ? zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST, "zex: the event wait failed") :
		     ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryStatus(ze_event_handle_t hEvent)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (ev->counter_based)
		return zex_l0_counter_host_wait(ev, 0);
	return __atomic_load_n(&ev->slot->state, __ATOMIC_ACQUIRE) == ZEX_EVENT_SIGNALED ?
		       ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventHostReset(ze_event_handle_t hEvent)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (ev->counter_based)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: a counter-based event is never reset");
	__atomic_store_n(&ev->slot->state, 0, __ATOMIC_RELEASE);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventQueryKernelTimestamp(ze_event_handle_t hEvent,
								ze_kernel_timestamp_result_t *dstptr)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);

	if (!ev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!dstptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!(ev->pool->flags & ZEX_POOL_TIMESTAMPS))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the event's pool has no kernel timestamps");
	if (zeEventQueryStatus(hEvent) != ZE_RESULT_SUCCESS)
		return ZE_RESULT_NOT_READY;
	*dstptr = ev->slot->ts;
	return ZE_RESULT_SUCCESS;
}

/*
 * An event has one packet per tile of the device asked about (the root
 * device: every tile; a tile: its own), each with the timestamps of the
 * whole operation, which every tile's part of it lies within. The device
 * clock is CLOCK_MONOTONIC in nanoseconds, the host's time domain itself:
 * the synchronized timestamps are the same values.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventQueryKernelTimestampsExt(ze_event_handle_t hEvent, ze_device_handle_t hDevice,
				uint32_t *pCount,
				ze_event_query_kernel_timestamps_results_ext_properties_t *pResults)
{
	struct zex_l0_event *ev = zex_l0_event(hEvent);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	ze_kernel_timestamp_result_t ts;
	uint32_t packets, i;

	if (!ev || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!(ev->pool->flags & ZEX_POOL_TIMESTAMPS))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the event's pool has no kernel timestamps");
	packets = zex_l0_device_tiles(dev);
	if (!*pCount || *pCount > packets) {
		*pCount = packets;
		if (!pResults)
			return ZE_RESULT_SUCCESS;
	}
	if (!pResults)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (pResults->stype != ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the results' stype is not the timestamps results'");
	if (pResults->pSynchronizedTimestampsBuffer &&
	    !(ev->pool->flags & ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: synchronized timestamps need a pool with mapped timestamps");
	if (zeEventQueryStatus(hEvent) != ZE_RESULT_SUCCESS)
		return ZE_RESULT_NOT_READY;
	ts = ev->slot->ts;
	for (i = 0; i < *pCount; i++) {
		if (pResults->pKernelTimestampsBuffer)
			pResults->pKernelTimestampsBuffer[i] = ts;
		if (pResults->pSynchronizedTimestampsBuffer)
			pResults->pSynchronizedTimestampsBuffer[i] =
				(ze_synchronized_timestamp_result_ext_t){
					.global = { ts.global.kernelStart, ts.global.kernelEnd },
					.context = { ts.context.kernelStart, ts.context.kernelEnd },
				};
	}
	return ZE_RESULT_SUCCESS;
}

/* What of @desc's chain libzex cannot honour, or ZE_RESULT_SUCCESS. */
static ze_result_t check_chain(const ze_event_counter_based_desc_t *desc)
{
	const ze_base_desc_t *d;

	for (d = desc->pNext; d; d = d->pNext)
		if (d->stype == STYPE_EXTERNAL_SYNC_ALLOCATION ||
		    d->stype == STYPE_EXTERNAL_AGGREGATE_STORAGE)
			return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					   "zex: a counter-based event counts in libzex's memory, "
					   "not in external storage");
	return ZE_RESULT_SUCCESS;
}

/*
 * A new event in a free slot of the driver's pools of counter-based
 * events of kind @kind (pool flags @flags), in a new pool when they are
 * full. The pools are counter-based: so is every event made in them.
 */
static ze_result_t cb_event_create(struct zex_l0_driver *drv, uint32_t kind,
				   ze_event_pool_flags_t flags, ze_event_desc_t *desc,
				   ze_event_handle_t *out)
{
	struct zex_l0_cb_slots *cb = &drv->cb_slots;
	struct zex_l0_event_pool *pool;
	ze_event_pool_handle_t h;
	ze_result_t res;
	uint64_t size;
	uint32_t handle;

	pthread_mutex_lock(&cb->lock);
	for (pool = cb->pools[kind]; pool; pool = pool->next_cb) {
		desc->index = pool->count;
		pthread_mutex_lock(&pool->lock);
		if (pool->num_used < pool->count)
			for (desc->index = 0; pool->used[desc->index]; desc->index++)
				;
		pthread_mutex_unlock(&pool->lock);
		if (desc->index < pool->count)
			break;
	}
	if (!pool) {
		if (zex_bo_create(drv->dev, 4096, 0, NULL, &handle, &size) ||
		    zex_l0_event_pool_new(drv, handle, size, flags,
					  (uint32_t)(size / sizeof(struct zex_l0_event_slot)),
					  ZEX_L0_POOL_COUNTER_BASED, &h)) {
			pthread_mutex_unlock(&cb->lock);
			return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
		}
		pool = (struct zex_l0_event_pool *)h;
		pool->next_cb = cb->pools[kind];
		cb->pools[kind] = pool;
		desc->index = 0;
	}
	/* Under the lock: no other creation takes the slot first. */
	res = zeEventCreate((ze_event_pool_handle_t)pool, desc, out);
	pthread_mutex_unlock(&cb->lock);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeEventCounterBasedCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
			  const ze_event_counter_based_desc_t *desc, ze_event_handle_t *phEvent)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	ze_event_pool_flags_t pool_flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC };
	uint32_t kind = 0;
	ze_result_t res;

	if (!ctx || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phEvent)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the descriptor's stype is not a counter-based event's");
	if (desc->flags & ~(ze_event_counter_based_flags_t)COUNTER_BASED_FLAGS ||
	    (desc->signal | desc->wait) & ~(ze_event_scope_flags_t)ZEX_SCOPE_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if ((desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP) &&
	    (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: device and host timestamps exclude each other");
	if (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_IPC)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "zex: counter-based events are not shared between processes");
	res = check_chain(desc);
	if (res)
		return res;
	/* Every event's memory is the host's too: host-visible or not, one kind. */
	if (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP) {
		pool_flags |= ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
		kind = 1;
	}
	if (desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP) {
		pool_flags |= ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP;
		kind = 2;
	}
	ed.signal = desc->signal;
	ed.wait = desc->wait;
	return cb_event_create(ctx->drv, kind, pool_flags, &ed, phEvent);
}
