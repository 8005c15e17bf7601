// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_submit.c - a queue's commands become kernel jobs
 *
 * A queue (a command queue, or an immediate command list's own) is one
 * kernel exec queue on the engine its group and index name, and a
 * timeline sync object: each job signals the next point, so a point says
 * when everything submitted up to it has run. A submission is cut into
 * jobs of at most %DRM_ZEX_EXEC_MAX_COMMANDS commands; one of no command
 * is a store to the queue's own scratch page, so that it still signals.
 * A job refused because the queue has the most jobs in flight (-EBUSY) is
 * submitted again once the queue's jobs but the last have run.
 *
 * Memory libzex allocated is in the device's address space already;
 * other host memory a command names (the application's heap, stack or
 * globals, which Level Zero lets a copy use) is imported for the
 * submission, page-aligned and pinned, read-only where the job only reads
 * it, and released once the submission's last point has signalled: found
 * at the next submission or wait, or at the queue's end.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "l0/exec/l0_exec.h"

#define PAGE	4096ull

/* One host range a submission imported. */
struct import {
	uintptr_t start, end;
	bool writable;
};

/* The host ranges one submission imported: @ids[i] imports @ranges[i]. */
struct imports {
	uint32_t n, cap;
	uint32_t *ids;
	struct import *ranges;
};

static void imports_release(struct zex_l0_driver *drv, struct imports *im)
{
	uint32_t i;

	for (i = 0; i < im->n; i++)
		zex_userptr_release(drv->dev, im->ids[i]);
	free(im->ids);
	free(im->ranges);
	*im = (struct imports){ 0 };
}

/*
 * Whether [addr, addr + len) lies in the driver's allocations (one, or
 * mappings side by side in a reserved range) or in host memory the
 * application registered.
 */
static bool mapped_by_libzex(struct zex_l0_driver *drv, uintptr_t addr, uint64_t len)
{
	return zex_alloc_table_covers(&drv->allocs, (const void *)addr, len) ||
	       zex_l0_host_import_covers(drv, addr, len);
}

/* Make [addr, addr + len) reachable by the device for this submission. */
static int import_range(struct zex_l0_driver *drv, struct imports *im, uintptr_t addr,
			uint64_t len, bool writable)
{
	uintptr_t start = addr & ~(PAGE - 1), end;
	uint32_t i, id;
	int ret;

	if (!len || mapped_by_libzex(drv, addr, len))
		return 0;
	if (len > UINTPTR_MAX - addr - PAGE)
		return -EINVAL;
	end = (addr + len + PAGE - 1) & ~(PAGE - 1);
	for (i = 0; i < im->n; i++) {
		const struct import *r = &im->ranges[i];

		if (r->start <= start && end <= r->end && (r->writable || !writable))
			return 0;
	}
	if (im->n == im->cap) {
		uint32_t cap = im->cap ? 2 * im->cap : 8;
		uint32_t *ids = realloc(im->ids, cap * sizeof(*ids));
		struct import *ranges = ids ? realloc(im->ranges, cap * sizeof(*ranges)) : NULL;

		if (ids)
			im->ids = ids;
		if (!ranges)
			return -ENOMEM;
		im->ranges = ranges;
		im->cap = cap;
	}
	ret = zex_userptr_import(drv->dev, (const void *)start, end - start, !writable, &id);
	if (ret)
		return ret;
	im->ids[im->n] = id;
	im->ranges[im->n++] = (struct import){ start, end, writable };
	return 0;
}

/* Every range the commands reach, imported where libzex did not map it. */
static int import_commands(struct zex_l0_driver *drv, struct imports *im,
			   const struct drm_zex_command *cmds, uint32_t n)
{
	uint32_t i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		const struct drm_zex_command *c = &cmds[i];

		switch (c->op) {
		case DRM_ZEX_CMD_COPY:
			ret = import_range(drv, im, c->src, c->len, false);
			if (!ret)
				ret = import_range(drv, im, c->dst, c->len, true);
			break;
		case DRM_ZEX_CMD_FILL:
			ret = import_range(drv, im, c->dst, c->len, true);
			break;
		case DRM_ZEX_CMD_STORE:
		case DRM_ZEX_CMD_TIMESTAMP:
			ret = import_range(drv, im, c->dst, sizeof(uint64_t), true);
			break;
		case DRM_ZEX_CMD_WAIT:
			ret = import_range(drv, im, c->src, sizeof(uint64_t), false);
			break;
		}
	}
	return ret;
}

/*
 * Wait for point @point of @q: a point of the ordinary exec queue is its
 * timeline's; one of the long-running queue, the value its jobs' user
 * fences store in the scratch page (a wait tied to that queue: -EIO once
 * it is banned).
 */
static int wait_point(struct zex_l0_cmdqueue *q, uint64_t point, int64_t timeout_ns)
{
	uint64_t lr_from = __atomic_load_n(&q->lr_from, __ATOMIC_ACQUIRE);

	if (!lr_from || point < lr_from)
		return zex_syncobj_wait(q->drv->dev, q->timeline, point, timeout_ns);
	/* Stored already: no call into the kernel. */
	if (__atomic_load_n((uint64_t *)q->scratch, __ATOMIC_ACQUIRE) >= point)
		return 0;
	return zex_wait_user_fence_queue(q->drv->dev, zex_l0_compute_exec_queue(q), q->scratch,
					 point, timeout_ns);
}

/* Drop the references to @n launches in @launches, and the array. */
static void launches_put(struct zex_l0_launch **launches, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		zex_l0_launch_put(launches[i]);
	free(launches);
}

/* Let go what submission @s held, and @s. */
static void submission_free(struct zex_l0_cmdqueue *q, struct zex_l0_submission *s)
{
	uint32_t i;

	for (i = 0; i < s->num_imports; i++)
		zex_userptr_release(q->drv->dev, s->imports[i]);
	free(s->imports);
	launches_put(s->launches, s->num_launches);
	free(s);
}

/* Under the queue's lock: release what submissions that have run held. */
static void reap(struct zex_l0_cmdqueue *q)
{
	while (q->oldest && !wait_point(q, q->oldest->point, 0)) {
		struct zex_l0_submission *s = q->oldest;

		q->oldest = s->next;
		if (!q->oldest)
			q->youngest = NULL;
		submission_free(q, s);
	}
}

/*
 * Under the queue's lock: keep @im and the *@num_launches references in
 * *@launches (both taken over) until @point has signalled.
 */
static int keep(struct zex_l0_cmdqueue *q, struct imports *im, struct zex_l0_launch ***launches,
		uint32_t *num_launches, uint64_t point)
{
	struct zex_l0_submission *s;

	if (!im->n && !*num_launches)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->point = point;
	s->num_imports = im->n;
	s->imports = im->ids;
	im->ids = NULL;
	im->n = 0;
	s->num_launches = *num_launches;
	s->launches = *launches;
	*launches = NULL;
	*num_launches = 0;
	if (q->youngest)
		q->youngest->next = s;
	else
		q->oldest = s;
	q->youngest = s;
	return 0;
}

/*
 * One job of @n commands signalling the queue's next point: on the
 * ordinary queue its timeline's; on the long-running one by a user fence
 * (the first such job waits for the ordinary queue's last point).
 */
static int submit_job(struct zex_l0_cmdqueue *q, const struct drm_zex_command *cmds, uint32_t n)
{
	struct drm_zex_sync s[2] = { {
		.type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .flags = DRM_ZEX_SYNC_SIGNAL,
		.handle = q->timeline, .timeline_value = q->submitted + 1,
	} };
	uint32_t queue = q->exec_queue, num_syncs = 1;
	int ret;

	if (q->compute) {
		queue = zex_l0_compute_exec_queue(q);
		s[0] = (struct drm_zex_sync){
			.type = DRM_ZEX_SYNC_USER_FENCE, .flags = DRM_ZEX_SYNC_SIGNAL,
			.addr = (uintptr_t)q->scratch, .timeline_value = q->submitted + 1,
		};
		if (q->submitted + 1 == q->lr_from && q->lr_from > 1)
			s[num_syncs++] = (struct drm_zex_sync){
				.type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .handle = q->timeline,
				.timeline_value = q->lr_from - 1,
			};
	}
	for (;;) {
		ret = zex_exec(q->drv->dev, queue, cmds, n, s, num_syncs);
		if (ret != -EBUSY || q->submitted < 2)
			break;
		/* Room comes as the queue's jobs end: wait for all but the last. */
		ret = wait_point(q, q->submitted - 1, -1);
		if (ret)
			break;
	}
	/* Stored atomically: the registry reads it without the queue's lock. */
	if (!ret)
		__atomic_store_n(&q->submitted, q->submitted + 1, __ATOMIC_RELEASE);
	return ret;
}

/*
 * DEVICE_LOST for a banned queue, its description saying why (the error the
 * kernel keeps for the first ban of either half of the queue).
 */
static ze_result_t lost(struct zex_l0_cmdqueue *q)
{
	struct drm_zex_exec_queue_get_state st = { 0 };
	const char *why = "zex: the queue was banned after a fault or a timeout";

	if ((!q->compute ||
	     zex_exec_queue_state(q->drv->dev, zex_l0_compute_exec_queue(q), &st) || !st.state) &&
	    zex_exec_queue_state(q->drv->dev, q->exec_queue, &st))
		st.error = 0;
	switch (st.error) {
	case -ETIME:
		why = "zex: the queue was banned: a job ran past the kernel's job timeout";
		break;
	case -EFAULT:
		why = "zex: the queue was banned: a command or a kernel touched memory the "
		      "device does not map, or wrote read-only memory";
		break;
	case -EPIPE:
		why = "zex: the queue was banned: the process serving its kernels closed the device";
		break;
	case -ENOMEM:
		why = "zex: the queue was banned: the kernel ran out of memory running a job";
		break;
	}
	return zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST, why);
}

static ze_result_t exec_result(struct zex_l0_cmdqueue *q, int ret)
{
	switch (ret) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -ENOMEM:
		return zex_l0_fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, "zex: out of memory");
	case -EIO:
		return lost(q);
	case -ENODEV:
		return zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST, "zex: the device was unplugged");
	case -EMFILE:
		return zex_l0_fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
				   "zex: too many queues running kernels in this process");
	default:
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: a command names memory the device cannot reach");
	}
}

/*
 * Commands with launches go to the queue's long-running half (started at
 * the first), each LAUNCH publishing in its record: *@cmds becomes a copy
 * (*@patched, to free) with their destinations set.
 */
static int launches_to_compute(struct zex_l0_cmdqueue *q, const struct drm_zex_command **cmds,
			       uint32_t n, struct drm_zex_command **patched,
			       struct zex_l0_launch ***held, uint32_t *num_held)
{
	uint32_t i, count = 0;
	int ret;

	for (i = 0; i < n; i++)
		count += (*cmds)[i].op == DRM_ZEX_CMD_LAUNCH;
	if (!count)
		return 0;
	if (!q->compute) {
		ret = zex_l0_compute_start(q);
		if (ret)
			return ret;
		__atomic_store_n(&q->lr_from, q->submitted + 1, __ATOMIC_RELEASE);
	}
	*patched = malloc((size_t)n * sizeof(**patched));
	*held = malloc((size_t)count * sizeof(**held));
	if (!*patched || !*held)
		return -ENOMEM;
	memcpy(*patched, *cmds, (size_t)n * sizeof(**patched));
	for (i = 0; i < n; i++)
		if ((*patched)[i].op == DRM_ZEX_CMD_LAUNCH) {
			struct zex_l0_launch *launch =
				(struct zex_l0_launch *)(uintptr_t)(*patched)[i].value;

			(*patched)[i].dst = zex_l0_compute_record(q);
			q->launches++;
			zex_l0_launch_get(launch);
			(*held)[(*num_held)++] = launch;
		}
	*cmds = *patched;
	return 0;
}

/**
 * zex_l0_submit_locked - run commands on a queue, in order after what it ran
 * @q: the queue, its lock held.
 * @cmds: the commands.
 * @num_cmds: how many (0: a job that only signals).
 *
 * Return: the result; on success q->submitted is the submission's point.
 */
ze_result_t zex_l0_submit_locked(struct zex_l0_cmdqueue *q, const struct drm_zex_command *cmds,
				 uint32_t num_cmds)
{
	struct drm_zex_command nop = {
		.op = DRM_ZEX_CMD_STORE, .dst = (uintptr_t)q->scratch, .value = q->submitted + 1,
	};
	struct drm_zex_command *patched = NULL, *counted = NULL;
	struct zex_l0_counter_signal *signals = NULL;
	struct zex_l0_launch **held = NULL;
	struct imports im = { 0 };
	uint64_t first = q->submitted;
	uint32_t done = 0, n, num_held = 0, num_signals = 0;
	int ret;

	reap(q);
	ret = zex_l0_counter_signals(q, &cmds, num_cmds, &counted, &signals, &num_signals);
	if (!ret)
		ret = import_commands(q->drv, &im, cmds, num_cmds);
	if (!ret)
		ret = launches_to_compute(q, &cmds, num_cmds, &patched, &held, &num_held);
	if (!num_cmds) {
		cmds = &nop;
		num_cmds = 1;
	}
	while (!ret && done < num_cmds) {
		/* A job on the long-running queue ends with its user fence. */
		n = num_cmds - done < DRM_ZEX_EXEC_MAX_COMMANDS ? num_cmds - done :
								 DRM_ZEX_EXEC_MAX_COMMANDS;
		ret = submit_job(q, cmds + done, n);
		done += n;
	}
	/*
	 * What jobs were submitted keep the imports and the launches; none:
	 * they go now. With no memory to keep them, they go once the jobs
	 * have run.
	 */
	if (q->submitted > first && keep(q, &im, &held, &num_held, q->submitted))
		wait_point(q, q->submitted, -1);
	if (!ret)
		zex_l0_counter_signals_publish(q, signals, num_signals);
	imports_release(q->drv, &im);
	launches_put(held, num_held);
	free(patched);
	free(counted);
	free(signals);
	return exec_result(q, ret);
}

/**
 * zex_l0_queue_wait - wait for a point of a queue's timeline
 * @q: the queue.
 * @point: the point (0: nothing to wait for).
 * @timeout: Level Zero's timeout in ns (UINT64_MAX for ever, 0 a poll).
 *
 * Return: ZE_RESULT_SUCCESS, ZE_RESULT_NOT_READY when the time passed, or
 * ZE_RESULT_ERROR_DEVICE_LOST when the queue was banned (a job faulted or
 * ran past the kernel's job timeout) or the device is gone.
 */
ze_result_t zex_l0_queue_wait(struct zex_l0_cmdqueue *q, uint64_t point, uint64_t timeout)
{
	struct drm_zex_exec_queue_get_state st;
	uint64_t lr_from;
	int ret = point ? wait_point(q, point, zex_l0_timeout_ns(timeout)) : 0;

	if (ret == -ETIME)
		return ZE_RESULT_NOT_READY;
	if (ret)
		return exec_result(q, ret);
	lr_from = __atomic_load_n(&q->lr_from, __ATOMIC_ACQUIRE);
	/*
	 * A timeline point signals also for a job that failed: ask whether
	 * the queue was banned. A long-running point is stored by its job's
	 * last command, which a banned queue never runs: reaching it says the
	 * jobs up to it ran, and the ordinary queue (whose last job the first
	 * long-running one waited for) need be asked once.
	 */
	if (lr_from && point >= lr_from) {
		if (!__atomic_load_n(&q->ordinary_clean, __ATOMIC_ACQUIRE)) {
			if (zex_exec_queue_state(q->drv->dev, q->exec_queue, &st) || st.state)
				return lost(q);
			__atomic_store_n(&q->ordinary_clean, true, __ATOMIC_RELEASE);
		}
	} else if (zex_exec_queue_state(q->drv->dev, q->exec_queue, &st) || st.state) {
		return lost(q);
	}
	pthread_mutex_lock(&q->lock);
	reap(q);
	pthread_mutex_unlock(&q->lock);
	return ZE_RESULT_SUCCESS;
}

/*
 * The kernel's queue for @group's engine @index at @priority. A root-device
 * queue under implicit scaling (its engine spans the tiles) runs at normal
 * priority, as compute-runtime's do; high priority needs CAP_SYS_NICE, and
 * without it the queue runs at normal priority (a priority is a hint).
 */
static int exec_queue_create(struct zex_l0_driver *drv, const struct zex_l0_queue_group *group,
			     uint16_t index, ze_command_queue_priority_t priority, uint32_t *id)
{
	uint16_t prio = DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL;
	int ret;

	if (group->device != ZEX_DEVICE_ROOT) {
		if (priority == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW)
			prio = DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW;
		else if (priority == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
			prio = DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH;
	}
	ret = zex_exec_queue_create_priority(drv->dev, group->engine_class, index, group->device,
					     prio, id);
	if (ret == -EPERM)
		ret = zex_exec_queue_create_priority(drv->dev, group->engine_class, index,
						     group->device,
						     DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL, id);
	return ret;
}

/**
 * zex_l0_queue_init - a queue on the engine @desc names
 * @q: zeroed.
 * @drv: the driver.
 * @device: the device.
 * @desc: group ordinal, index, mode and priority.
 *
 * Return: the result.
 */
ze_result_t zex_l0_queue_init(struct zex_l0_cmdqueue *q, struct zex_l0_driver *drv,
			      struct zex_l0_device *device, const ze_command_queue_desc_t *desc)
{
	struct zex_l0_queue_group groups[ZEX_L0_MAX_QUEUE_GROUPS];
	uint32_t n = zex_l0_queue_groups(device, groups);
	int ret;

	if (desc->ordinal >= n || desc->index >= groups[desc->ordinal].num_queues)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: no such queue group ordinal or index");
	q->drv = drv;
	q->device = device;
	q->ordinal = desc->ordinal;
	q->index = desc->index;
	q->mode = desc->mode;
	q->scratch = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q->scratch == MAP_FAILED) {
		q->scratch = NULL;
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	ret = zex_userptr_import(drv->dev, q->scratch, PAGE, false, &q->scratch_id);
	if (!ret)
		ret = zex_syncobj_create(drv->dev, &q->timeline);
	if (!ret)
		ret = exec_queue_create(drv, &groups[desc->ordinal], (uint16_t)desc->index,
					desc->priority, &q->exec_queue);
	if (ret) {
		zex_l0_queue_fini(q);
		return ret == -EMFILE ? zex_l0_fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
						    "zex: too many exec queues for this process") :
					ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	pthread_mutex_init(&q->lock, NULL);
	return ZE_RESULT_SUCCESS;
}

/** zex_l0_queue_fini - wait for a queue's jobs, then let everything go */
void zex_l0_queue_fini(struct zex_l0_cmdqueue *q)
{
	if (q->submitted)
		wait_point(q, q->submitted, -1);
	reap(q);
	/*
	 * A banned long-running queue never ran the rest: what it held goes
	 * once its serving threads have ended (one may still read a launch).
	 */
	zex_l0_compute_stop(q);
	while (q->oldest) {
		struct zex_l0_submission *s = q->oldest;

		q->oldest = s->next;
		submission_free(q, s);
	}
	q->youngest = NULL;
	q->lr_from = 0;
	/* Every signal it was given has happened (or never will: banned). */
	zex_l0_counter_give_back(q);
	if (q->exec_queue)
		zex_exec_queue_destroy(q->drv->dev, q->exec_queue);
	if (q->timeline)
		zex_syncobj_destroy(q->drv->dev, q->timeline);
	if (q->scratch_id)
		zex_userptr_release(q->drv->dev, q->scratch_id);
	if (q->scratch)
		munmap(q->scratch, PAGE);
	if (q->exec_queue)
		pthread_mutex_destroy(&q->lock);
	q->exec_queue = 0;
	q->timeline = 0;
	q->scratch_id = 0;
	q->scratch = NULL;
}
