// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_event_counter.c - counter-based events: each follows its last signal
 *
 * A counter-based event (zeEventCounterBasedCreate(), API 1.15) is never
 * reset or signalled from the host: it stands for the last operation
 * appended with it as the signal event, and one not signalled yet counts
 * as signalled. Each queue that signals such events counts those signals
 * in a counter, a word in memory both sides see: the n-th signal submitted
 * to the queue is a STORE of n there. A queue's jobs run in order, so the
 * word only grows, and the event is the pair (counter, n) of its last
 * signal: a host wait is a user fence wait for the word to reach n, a
 * device wait a WAIT for the same. A signal of an event on another queue
 * moves the event to that queue's counter; a late signal on the first
 * queue cannot take it back, as one shared word could.
 *
 * An append records the signal as a marked STORE naming the event; the
 * queue that submits it (at once for an immediate list, at each execution
 * of a regular one) gives it the next value of its counter and the
 * counter's address, and once the submission is in, moves the event to
 * it. A wait is resolved as it is appended: it waits for the signal the
 * event stood for then. Counters are never unmapped: a queue that ends
 * gives its counter back to the driver, and the next queue to need one
 * goes on counting from where it stopped, so that a wait recorded for it
 * stays valid and true.
 *
 * The event itself, a slot of one of the driver's pools holding its kernel
 * timestamps, is made in l0_event.c.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "l0/exec/l0_exec.h"

/* Memory of one counter: a page, the smallest buffer object. */
#define COUNTER_BYTES	4096u

/* A counter given back by an ended queue, or a new one. */
static struct zex_l0_counter *counter_take(struct zex_l0_driver *drv)
{
	struct zex_l0_counter *c;
	uint64_t size;
	uint32_t handle;
	void *mem;

	pthread_mutex_lock(&drv->counters.lock);
	c = drv->counters.free;
	if (c)
		drv->counters.free = c->next;
	pthread_mutex_unlock(&drv->counters.lock);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (zex_bo_create(drv->dev, COUNTER_BYTES, 0, NULL, &handle, &size) ||
	    zex_l0_map_new(drv, handle, size, 0, ZEX_ALLOC_EVENTS, &drv->tiles[0], &mem)) {
		free(c);
		return NULL;
	}
	c->word = mem;
	return c;
}

/**
 * zex_l0_counter_give_back - a queue that ran all it was given lets its counter go
 * @q: the queue.
 */
void zex_l0_counter_give_back(struct zex_l0_cmdqueue *q)
{
	struct zex_l0_counters *counters = &q->drv->counters;

	if (!q->counter)
		return;
	pthread_mutex_lock(&counters->lock);
	q->counter->next = counters->free;
	counters->free = q->counter;
	pthread_mutex_unlock(&counters->lock);
	q->counter = NULL;
}

/**
 * zex_l0_counter_signal_cmd - the marked STORE an append records for a
 *	signal of counter-based event @ev
 * @ev: the event.
 *
 * Return: the command; the submitting queue sets its destination and value.
 */
struct drm_zex_command zex_l0_counter_signal_cmd(struct zex_l0_event *ev)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_STORE, .pad = ZEX_COUNTER_SIGNAL_MARK,
					 .value = (uintptr_t)ev };
}

static bool is_counter_signal(const struct drm_zex_command *c)
{
	return c->op == DRM_ZEX_CMD_STORE && c->pad == ZEX_COUNTER_SIGNAL_MARK;
}

/**
 * zex_l0_counter_signals - give the counter-based signals of a submission
 *	their values on the queue that runs it
 * @q: the queue, its lock held.
 * @cmds: in: the commands; out: *@patched when it has signals.
 * @n: commands in *@cmds.
 * @patched: out: a copy of them with the signals set (to free), or NULL.
 * @signals: out: the events and their values, for
 *	zex_l0_counter_signals_publish() once the submission is in (to free).
 * @num_signals: out: their count.
 *
 * Return: 0, -ENOMEM, or -EINVAL for a signal of an event since destroyed.
 */
int zex_l0_counter_signals(struct zex_l0_cmdqueue *q, const struct drm_zex_command **cmds,
			   uint32_t n, struct drm_zex_command **patched,
			   struct zex_l0_counter_signal **signals, uint32_t *num_signals)
{
	uint32_t i, count = 0;

	*patched = NULL;
	*signals = NULL;
	*num_signals = 0;
	for (i = 0; i < n; i++)
		count += is_counter_signal(&(*cmds)[i]);
	if (!count)
		return 0;
	if (!q->counter) {
		q->counter = counter_take(q->drv);
		if (!q->counter)
			return -ENOMEM;
	}
	*patched = malloc((size_t)n * sizeof(**patched));
	*signals = malloc((size_t)count * sizeof(**signals));
	if (!*patched || !*signals)
		return -ENOMEM;
	memcpy(*patched, *cmds, (size_t)n * sizeof(**patched));
	for (i = 0; i < n; i++) {
		struct drm_zex_command *c = &(*patched)[i];
		struct zex_l0_event *ev;

		if (!is_counter_signal(c))
			continue;
		ev = zex_l0_event((ze_event_handle_t)(uintptr_t)c->value);
		if (!ev || !ev->counter_based)
			return -EINVAL;
		c->pad = 0;
		c->dst = (uintptr_t)q->counter->word;
		c->value = ++q->counter->last;
		(*signals)[(*num_signals)++] = (struct zex_l0_counter_signal){ ev, c->value };
	}
	*cmds = *patched;
	return 0;
}

/**
 * zex_l0_counter_signals_publish - the events of a submission that is in
 *	stand for their signals in it
 * @q: the queue, its lock held.
 * @signals: what zex_l0_counter_signals() gave, in order.
 * @n: their count.
 */
void zex_l0_counter_signals_publish(struct zex_l0_cmdqueue *q,
				    const struct zex_l0_counter_signal *signals, uint32_t n)
{
	struct zex_l0_counters *counters = &q->drv->counters;
	uint32_t i;

	pthread_mutex_lock(&counters->lock);
	for (i = 0; i < n; i++) {
		signals[i].ev->tracked = q->counter->word;
		signals[i].ev->tracked_value = signals[i].value;
	}
	pthread_mutex_unlock(&counters->lock);
}

/* The counter and value @ev stands for now; false when it was never signalled. */
static bool tracked(struct zex_l0_event *ev, uint64_t **word, uint64_t *value)
{
	struct zex_l0_counters *counters = &ev->pool->drv->counters;

	pthread_mutex_lock(&counters->lock);
	*word = ev->tracked;
	*value = ev->tracked_value;
	pthread_mutex_unlock(&counters->lock);
	return *word;
}

/**
 * zex_l0_counter_wait_cmd - the WAIT for the signal a counter-based event stands for
 * @ev: the event.
 * @wait: out: the command.
 *
 * Return: false when the event was never signalled: there is nothing to wait for.
 */
bool zex_l0_counter_wait_cmd(struct zex_l0_event *ev, struct drm_zex_command *wait)
{
	uint64_t *word, value;

	if (!tracked(ev, &word, &value))
		return false;
	*wait = (struct drm_zex_command){ .op = DRM_ZEX_CMD_WAIT, .src = (uintptr_t)word,
					  .value = value, .mask = ~0ull,
					  .compare = DRM_ZEX_COMPARE_GTE };
	return true;
}

/**
 * zex_l0_counter_host_wait - wait on the host for the signal a counter-based event stands for
 * @ev: the event.
 * @timeout: Level Zero's timeout in ns (0: a query).
 *
 * Return: ZE_RESULT_SUCCESS, ZE_RESULT_NOT_READY, or a lost device.
 */
ze_result_t zex_l0_counter_host_wait(struct zex_l0_event *ev, uint64_t timeout)
{
	uint64_t *word, value;
	int ret;

	if (!tracked(ev, &word, &value) || __atomic_load_n(word, __ATOMIC_ACQUIRE) >= value)
		return ZE_RESULT_SUCCESS;
	if (!timeout)
		return ZE_RESULT_NOT_READY;
	ret = zex_wait_user_fence(ev->pool->drv->dev, word, DRM_ZEX_COMPARE_GTE, value, ~0ull,
				  zex_l0_timeout_ns(timeout));
	if (ret == -ETIME)
		return ZE_RESULT_NOT_READY;
	return ret ? zex_l0_fail(ZE_RESULT_ERROR_DEVICE_LOST, "zex: the event wait failed") :
		     ZE_RESULT_SUCCESS;
}
