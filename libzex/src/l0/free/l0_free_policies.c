// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_free_policies.c - zeMemFreeExt: frees that wait for the work submitted before them
 *
 * ZE_extension_memory_free_policies. zeMemFree() frees at once: work still
 * using the memory is the application's to have waited for. zeMemFreeExt()
 * with a policy frees only once the work submitted before the call has run,
 * on every queue of the process (libzex does not track which work reaches
 * which allocation; a queue's later work is not waited for):
 *
 *  - BLOCKING_FREE: the call waits for it, then frees.
 *  - DEFER_FREE: the call returns at once; the allocation leaves the
 *    allocation table at once (the pointer is no longer valid to any call,
 *    a second free of it is refused) and its memory, held by a reference,
 *    goes once that work has run: checked by every later zeMemFreeExt()
 *    call, whatever its policy, and once more as the call that deferred it
 *    returns.
 *
 * Both policies together wait, as BLOCKING_FREE does. A job that failed
 * (its queue banned) has run as far as it will: its points count as
 * reached. The descriptor's stype is checked as every descriptor's is
 * (zex_l0_stype_ok()).
 */

#include <stdlib.h>

#include "l0/base/l0.h"
#include "l0/exec/l0_exec.h"
#include "l0/free/l0_free.h"

/* What zeMemFree() frees: IPC memory is closed, not freed. */
#define ZEX_FREEABLE	(ZEX_ALLOC_DEVICE | ZEX_ALLOC_HOST | ZEX_ALLOC_HOST_IMPORTED | \
			 ZEX_ALLOC_SHARED)

/**
 * struct zex_l0_deferred_free - an allocation freed with DEFER_FREE
 * @next: the next younger one.
 * @alloc: its last reference.
 * @points: the points submitted before the free, not yet reached.
 * @n: entries in @points.
 */
struct zex_l0_deferred_free {
	struct zex_l0_deferred_free *next;
	struct zex_alloc *alloc;
	struct zex_l0_queue_point *points;
	uint32_t n;
};

static void deferred_free(struct zex_l0_deferred_free *d)
{
	zex_alloc_put(d->alloc);
	free(d->points);
	free(d);
}

/*
 * Free the deferred allocations whose points were all reached; the others
 * go back on the list, in their order, before any deferred meanwhile.
 */
static void reclaim(struct zex_l0_driver *drv)
{
	struct zex_l0_deferred_frees *l = &drv->deferred;
	struct zex_l0_deferred_free *todo, *keep = NULL, **tail = &keep, *d;

	pthread_mutex_lock(&l->lock);
	todo = l->head;
	l->head = NULL;
	pthread_mutex_unlock(&l->lock);
	while (todo) {
		d = todo;
		todo = d->next;
		if (zex_l0_queue_points_wait(drv, d->points, &d->n, 0) == ZE_RESULT_SUCCESS) {
			deferred_free(d);
			continue;
		}
		d->next = NULL;
		*tail = d;
		tail = &d->next;
	}
	if (!keep)
		return;
	pthread_mutex_lock(&l->lock);
	*tail = l->head;
	l->head = keep;
	pthread_mutex_unlock(&l->lock);
}

/* Hold @a until @points are reached; frees @a at once if they are. */
static ze_result_t defer(struct zex_l0_driver *drv, struct zex_alloc *a,
			 struct zex_l0_queue_point *points, uint32_t n)
{
	struct zex_l0_deferred_frees *l = &drv->deferred;
	struct zex_l0_deferred_free *d, **tail;

	if (!n || zex_l0_queue_points_wait(drv, points, &n, 0) == ZE_RESULT_SUCCESS) {
		zex_alloc_put(a);
		free(points);
		return ZE_RESULT_SUCCESS;
	}
	d = malloc(sizeof(*d));
	if (!d) {
		/* No room to remember it: free as BLOCKING_FREE does. */
		zex_l0_queue_points_wait(drv, points, &n, UINT64_MAX);
		zex_alloc_put(a);
		free(points);
		return ZE_RESULT_SUCCESS;
	}
	*d = (struct zex_l0_deferred_free){ .alloc = a, .points = points, .n = n };
	pthread_mutex_lock(&l->lock);
	for (tail = &l->head; *tail; tail = &(*tail)->next)
		;
	*tail = d;
	pthread_mutex_unlock(&l->lock);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemFreeExt(ze_context_handle_t hContext,
						 const ze_memory_free_ext_desc_t *pMemFreeDesc,
						 void *ptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_queue_point *points;
	struct zex_l0_driver *drv;
	struct zex_alloc *a;
	ze_result_t res;
	uint32_t n;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pMemFreeDesc || !ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pMemFreeDesc->stype, ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: zeMemFreeExt's descriptor is not a ze_memory_free_ext_desc_t (stype)");
	if (pMemFreeDesc->freePolicy & ~(ze_driver_memory_free_policy_ext_flags_t)ZEX_FREE_POLICIES)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				   "zex: zeMemFreeExt: unknown free policy bits");
	drv = ctx->drv;
	reclaim(drv);
	if (!pMemFreeDesc->freePolicy)
		return zex_l0_release_alloc(hContext, ptr, ZEX_FREEABLE);
	/* The work to wait for: what was submitted before this call. */
	res = zex_l0_queue_points_snapshot(drv, NULL, &points, &n);
	if (res)
		return res;
	a = zex_alloc_table_remove(&drv->allocs, ptr, ZEX_FREEABLE);
	if (!a) {
		free(points);
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: zeMemFreeExt: not the base of an allocation of this driver");
	}
	if (pMemFreeDesc->freePolicy == ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)
		return defer(drv, a, points, n);
	zex_l0_queue_points_wait(drv, points, &n, UINT64_MAX);
	free(points);
	zex_alloc_put(a);
	return ZE_RESULT_SUCCESS;
}
