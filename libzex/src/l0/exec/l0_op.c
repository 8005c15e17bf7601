// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_op.c - one append: its commands between its events, recorded or run
 *
 * Every append (a copy, a fill, a launch, a barrier) is a struct
 * zex_l0_op: a WAIT until each wait event's state is signalled, the signal
 * event's start timestamps, the operation's own commands, its end
 * timestamps and the STORE that signals the event (for a counter-based
 * event, the WAIT and the STORE are its queue's counter's:
 * l0_event_counter.c). Ended, it is recorded
 * in a regular list that is still open, or run at once on an immediate
 * list's queue (waited for when the queue is synchronous; a launch's first
 * part then runs on the waiting thread itself, l0_compute.c).
 */

#include <stdlib.h>
#include <string.h>

#include "l0/exec/l0_exec.h"

/* Room for @n more commands in a regular list, its lock held. */
static int reserve(struct zex_l0_cmdlist *l, uint32_t n)
{
	struct drm_zex_command *cmds;
	uint32_t cap;

	if (n <= l->cap - l->num_cmds)
		return 0;
	if (n > UINT32_MAX / 2 - l->num_cmds)
		return -1;
	cap = l->cap ? l->cap : 16;
	while (cap - l->num_cmds < n)
		cap *= 2;
	cmds = realloc(l->cmds, (size_t)cap * sizeof(*cmds));
	if (!cmds)
		return -1;
	l->cmds = cmds;
	l->cap = cap;
	return 0;
}

/*
 * Append @n commands: recorded in a regular list that is still open, run
 * at once on an immediate list's queue (waited for in synchronous mode).
 */
static ze_result_t append(struct zex_l0_cmdlist *l, const struct drm_zex_command *cmds,
			  uint32_t n)
{
	ze_result_t res = ZE_RESULT_SUCCESS;
	uint64_t point, first, last;

	if (l->immediate) {
		pthread_mutex_lock(&l->queue->lock);
		first = l->queue->launches + 1;
		res = zex_l0_submit_locked(l->queue, cmds, n);
		point = l->queue->submitted;
		last = l->queue->launches;
		pthread_mutex_unlock(&l->queue->lock);
		if (res || l->queue->mode != ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
			return res;
		/* About to wait for its launches: the thread runs them itself. */
		if (last >= first)
			zex_l0_compute_run_own(l->queue, first, last);
		return zex_l0_queue_wait(l->queue, point, UINT64_MAX);
	}
	pthread_mutex_lock(&l->lock);
	if (l->closed)
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "zex: appending to a closed command list");
	else if (reserve(l, n))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (!res) {
		memcpy(l->cmds + l->num_cmds, cmds, (size_t)n * sizeof(*cmds));
		l->num_cmds += n;
	}
	pthread_mutex_unlock(&l->lock);
	return res;
}

int zex_l0_op_push(struct zex_l0_op *op, struct drm_zex_command c)
{
	if (op->n == op->cap) {
		uint32_t cap = op->cap ? 2 * op->cap : 16;
		struct drm_zex_command *cmds = realloc(op->cmds, (size_t)cap * sizeof(*cmds));

		if (!cmds)
			return -1;
		op->cmds = cmds;
		op->cap = cap;
	}
	op->cmds[op->n++] = c;
	return 0;
}

static int op_timestamps(struct zex_l0_op *op, bool end)
{
	struct zex_l0_event_slot *s = op->signal->slot;
	uint64_t *global = end ? &s->ts.global.kernelEnd : &s->ts.global.kernelStart;
	uint64_t *context = end ? &s->ts.context.kernelEnd : &s->ts.context.kernelStart;

	if (!(op->signal->pool->flags & (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |
					 ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP)))
		return 0;
	return zex_l0_op_push(op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_TIMESTAMP,
						     .dst = (uintptr_t)global }) ||
	       zex_l0_op_push(op, (struct drm_zex_command){ .op = DRM_ZEX_CMD_TIMESTAMP,
						     .dst = (uintptr_t)context });
}

/*
 * Begin an append: check the list and the events, and record the waits
 * (a WAIT until each event's state is signalled) and the start timestamps.
 */
ze_result_t zex_l0_op_begin(struct zex_l0_op *op, ze_command_list_handle_t h, ze_event_handle_t signal,
			    uint32_t num_waits, ze_event_handle_t *waits)
{
	uint32_t i;

	*op = (struct zex_l0_op){ .list = zex_l0_cmdlist(h), .num_waits = num_waits, .waits = waits };
	if (!op->list)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (num_waits && !waits)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (signal) {
		op->signal = zex_l0_event(signal);
		if (!op->signal)
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	}
	for (i = 0; i < num_waits; i++) {
		struct zex_l0_event *ev = zex_l0_event(waits[i]);
		struct drm_zex_command wait = {
			.op = DRM_ZEX_CMD_WAIT, .value = ZEX_EVENT_SIGNALED, .mask = ~0ull,
			.compare = DRM_ZEX_COMPARE_EQ,
		};

		if (!ev) {
			free(op->cmds);
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		}
		wait.src = (uintptr_t)&ev->slot->state;
		/* A counter-based event never signalled: nothing to wait for. */
		if (ev->counter_based && !zex_l0_counter_wait_cmd(ev, &wait))
			continue;
		if (zex_l0_op_push(op, wait))
			goto nomem;
	}
	if (op->signal && op_timestamps(op, false))
		goto nomem;
	return ZE_RESULT_SUCCESS;
nomem:
	free(op->cmds);
	return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

/* End an append: the end timestamps and the signal, then record or run it all. */
ze_result_t zex_l0_op_end(struct zex_l0_op *op, ze_result_t res)
{
	struct drm_zex_command signal = { .op = DRM_ZEX_CMD_STORE, .value = ZEX_EVENT_SIGNALED };

	if (op->signal) {
		signal.dst = (uintptr_t)&op->signal->slot->state;
		/* Its queue's counter, set as the queue submits it. */
		if (op->signal->counter_based)
			signal = zex_l0_counter_signal_cmd(op->signal);
	}
	if (!res && op->signal && (op_timestamps(op, true) || zex_l0_op_push(op, signal)))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (!res && op->n)
		res = append(op->list, op->cmds, op->n);
	free(op->cmds);
	return res;
}
