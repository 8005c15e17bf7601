// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_queue_registry.c - the driver's live queues, and waits for what was submitted to them
 *
 * Every queue that runs the application's work (a command queue's, an
 * immediate list's) joins the driver's registry when it is made
 * (zex_l0_queue_open()) and leaves it as it is torn down.
 * A caller that is none of a queue's users (zeMemFreeExt) takes a
 * snapshot of the last point submitted to each queue with work, and later
 * waits for those points or asks whether they were reached. A point names
 * its queue by serial, never reused: a queue gone from the registry ran
 * everything submitted to it (its teardown waits for that), so its points
 * count as reached. A wait pins its queue: the queue's teardown waits for
 * the pins to go, so a queue is never freed under a wait.
 *
 * zeDeviceSynchronize() (API 1.14) is such a caller: it waits for the
 * points of the queues whose work can run on its device.
 */

#include <stdlib.h>

#include "l0/exec/l0_exec.h"

/* @q, ready, joins the driver's live queues. */
static void queue_register(struct zex_l0_cmdqueue *q)
{
	struct zex_l0_queue_registry *r = &q->drv->queues;

	pthread_mutex_lock(&r->lock);
	q->serial = r->next_serial++;
	q->live_prev = NULL;
	q->live_next = r->head;
	if (r->head)
		r->head->live_prev = q;
	r->head = q;
	pthread_mutex_unlock(&r->lock);
}

/* @q leaves the live queues, once no wait pins it. */
static void queue_unregister(struct zex_l0_cmdqueue *q)
{
	struct zex_l0_queue_registry *r = &q->drv->queues;

	pthread_mutex_lock(&r->lock);
	if (q->live_prev)
		q->live_prev->live_next = q->live_next;
	else
		r->head = q->live_next;
	if (q->live_next)
		q->live_next->live_prev = q->live_prev;
	while (q->pins)
		pthread_cond_wait(&r->unpinned, &r->lock);
	pthread_mutex_unlock(&r->lock);
	q->serial = 0;
}

/**
 * zex_l0_queue_open - zex_l0_queue_init(), the queue then among the live ones
 *
 * For the queues that run the application's work (a command queue's, an
 * immediate list's); the waker's runs none.
 */
ze_result_t zex_l0_queue_open(struct zex_l0_cmdqueue *q, struct zex_l0_driver *drv,
			      struct zex_l0_device *device, const ze_command_queue_desc_t *desc)
{
	ze_result_t res = zex_l0_queue_init(q, drv, device, desc);

	if (!res)
		queue_register(q);
	return res;
}

/** zex_l0_queue_close - a queue zex_l0_queue_open() made leaves, then goes */
void zex_l0_queue_close(struct zex_l0_cmdqueue *q)
{
	queue_unregister(q);
	zex_l0_queue_fini(q);
}

/* Whether @q's work can run on @device: a root device's runs on every tile. */
static bool queue_on(const struct zex_l0_cmdqueue *q, const struct zex_l0_device *device)
{
	return !device || q->device == device || device->tile < 0 || q->device->tile < 0;
}

/**
 * zex_l0_queue_points_snapshot - the last point submitted to each live queue
 * @drv: the driver.
 * @device: only the queues whose work can run on it; NULL: all.
 * @points: out: an array the caller frees (NULL when no queue has work).
 * @n: out: its entries.
 *
 * Return: ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY.
 */
ze_result_t zex_l0_queue_points_snapshot(struct zex_l0_driver *drv,
					 const struct zex_l0_device *device,
					 struct zex_l0_queue_point **points, uint32_t *n)
{
	struct zex_l0_queue_registry *r = &drv->queues;
	struct zex_l0_queue_point *p = NULL;
	struct zex_l0_cmdqueue *q;
	uint32_t count = 0, i = 0;

	pthread_mutex_lock(&r->lock);
	for (q = r->head; q; q = q->live_next)
		count++;
	if (count) {
		p = calloc(count, sizeof(*p));
		if (!p) {
			pthread_mutex_unlock(&r->lock);
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		}
	}
	for (q = r->head; q; q = q->live_next) {
		/* Written under the queue's lock as it submits. */
		uint64_t point = __atomic_load_n(&q->submitted, __ATOMIC_ACQUIRE);

		if (point && queue_on(q, device))
			p[i++] = (struct zex_l0_queue_point){ .serial = q->serial, .point = point };
	}
	pthread_mutex_unlock(&r->lock);
	if (!i) {
		free(p);
		p = NULL;
	}
	*points = p;
	*n = i;
	return ZE_RESULT_SUCCESS;
}

/* The live queue of @serial, pinned; NULL when it is gone. */
static struct zex_l0_cmdqueue *pin(struct zex_l0_queue_registry *r, uint64_t serial)
{
	struct zex_l0_cmdqueue *q;

	pthread_mutex_lock(&r->lock);
	for (q = r->head; q && q->serial != serial; q = q->live_next)
		;
	if (q)
		q->pins++;
	pthread_mutex_unlock(&r->lock);
	return q;
}

static void unpin(struct zex_l0_queue_registry *r, struct zex_l0_cmdqueue *q)
{
	pthread_mutex_lock(&r->lock);
	if (!--q->pins)
		pthread_cond_broadcast(&r->unpinned);
	pthread_mutex_unlock(&r->lock);
}

/**
 * zex_l0_queue_points_wait - wait for points of a snapshot
 * @drv: the driver.
 * @points: the snapshot; the points reached are taken out of it.
 * @n: in: its entries; out: those not reached.
 * @timeout: Level Zero's timeout in ns for each point (0: a poll).
 *
 * A point of a queue that was banned (its job failed) or is gone counts as
 * reached: nothing more of it runs.
 *
 * Return: ZE_RESULT_SUCCESS when every point was reached, else
 * ZE_RESULT_NOT_READY.
 */
ze_result_t zex_l0_queue_points_wait(struct zex_l0_driver *drv, struct zex_l0_queue_point *points,
				     uint32_t *n, uint64_t timeout)
{
	struct zex_l0_queue_registry *r = &drv->queues;
	uint32_t i, left = 0;

	for (i = 0; i < *n; i++) {
		struct zex_l0_cmdqueue *q = pin(r, points[i].serial);
		ze_result_t res = ZE_RESULT_SUCCESS;

		if (q) {
			res = zex_l0_queue_wait(q, points[i].point, timeout);
			unpin(r, q);
		}
		if (res == ZE_RESULT_NOT_READY)
			points[left++] = points[i];
	}
	*n = left;
	return left ? ZE_RESULT_NOT_READY : ZE_RESULT_SUCCESS;
}

/*
 * 1.14: what was submitted to the queues whose work can run on @hDevice
 * (for a tile, the root device's queues too) before the call has run.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeDeviceSynchronize(ze_device_handle_t hDevice)
{
	struct zex_l0_device *device = zex_l0_device(hDevice);
	struct zex_l0_queue_point *points;
	ze_result_t res;
	uint32_t n;

	if (!device)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	res = zex_l0_queue_points_snapshot(device->drv, device, &points, &n);
	if (res)
		return res;
	res = zex_l0_queue_points_wait(device->drv, points, &n, UINT64_MAX);
	free(points);
	return res;
}
