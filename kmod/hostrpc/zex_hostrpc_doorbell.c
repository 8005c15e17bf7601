// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_hostrpc_doorbell.c - rings, the interrupt they raise, and waits
 *
 * A side that changed its words (the device a request and its summary
 * flag, the host an answer) takes the other side's arming if it is there
 * (1 -> 0 by compare-and-swap, so at most one ring per arming) and rings:
 * DRM_ZEX_HOSTRPC_IOCTL_RING. The kernel
 * delivers the ring as the emulated interrupt: the receiving side's ring
 * count grows (read() returns and clears it, poll() reports it), every
 * eventfd registered by a view of that side is signalled, and its sleepers
 * are woken.
 *
 * The wait ioctl arms for its caller and re-checks before each sleep,
 * inside the wait loop, after the sleeper is on the wait queue. The arming
 * store and the ringer's word update are both fully ordered, so either the
 * ringer sees the arming (and its ring wakes the queued sleeper) or the
 * re-check sees the word: a wakeup cannot be lost. A ring wakes only the
 * waiters whose condition then holds; as the ringer took the arming, the
 * delivery arms again for the waiters it left asleep and re-checks them
 * after that arming, so none of them is left without a ring to come. A poll()/read() user
 * arms and re-checks in userspace first; a ring in between is counted, so
 * its poll() returns at once.
 */

#include <linux/eventfd.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include <drm/drm_print.h>

#include "../common/zex_kunit_export.h"
#include "../common/zex_compat.h"
#include "zex_hostrpc.h"

static u32 *zex_hostrpc_armed(struct zex_hostrpc_channel *ch,
			      enum zex_hostrpc_side side)
{
	return side == ZEX_HOSTRPC_HOST ? &ch->control->host_armed :
					  &ch->control->device_armed;
}

/* Under ch->lock: signal the eventfd of every view of @side. */
static void zex_hostrpc_signal_eventfds(struct zex_hostrpc_channel *ch,
					enum zex_hostrpc_side side)
{
	struct zex_hostrpc_view *view;

	lockdep_assert_held(&ch->lock);
	list_for_each_entry(view, &ch->view_list, link)
		if (view->side == side && view->eventfd)
			eventfd_signal(view->eventfd);
}

/**
 * zex_hostrpc_wake_side - wake every sleeper and eventfd of one side
 * @ch: the channel.
 * @side: the side.
 *
 * Used when the channel dies: a device side blocked anywhere re-checks and
 * finds the channel dead.
 */
void zex_hostrpc_wake_side(struct zex_hostrpc_channel *ch,
			   enum zex_hostrpc_side side)
{
	spin_lock(&ch->lock);
	zex_hostrpc_signal_eventfds(ch, side);
	spin_unlock(&ch->lock);
	wake_up_all(&ch->side[side].wq);
}

/**
 * zex_hostrpc_deliver - the interrupt: deliver one ring to a side
 * @ch: the channel.
 * @to: the side rung.
 *
 * Counts the ring (for read() and poll()), signals the side's eventfds and
 * wakes its sleepers. A ring to the device side also runs the reaper when
 * a dead view's calls are being finished.
 */
void zex_hostrpc_deliver(struct zex_hostrpc_channel *ch,
			 enum zex_hostrpc_side to)
{
	wait_queue_head_t *wq = &ch->side[to].wq;

	spin_lock(&ch->lock);
	ch->side[to].pending++;
	ch->side[to].rings++;
	zex_hostrpc_signal_eventfds(ch, to);
	spin_unlock(&ch->lock);
	/* Wakes the waiters whose condition holds (zex_hostrpc_wake_waiter()). */
	wake_up_all(wq);
	/*
	 * The ringer took the side's arming; waiters still asleep need it
	 * back, or the next answer for them would ring nobody. Arm for them,
	 * fully ordered (the Dekker pair with the next ringer's word update),
	 * and look at their conditions once more: an answer stored between
	 * the ringer's compare-and-swap and this arming is seen here.
	 */
	if (wq_has_sleeper(wq)) {
		/* Fully ordered: the Dekker pair with the ringer's word update. */
		smp_store_mb(*zex_hostrpc_armed(ch, to), 1);
		wake_up_all(wq);
	}

	if (to == ZEX_HOSTRPC_DEVICE && atomic_read(&ch->norphans))
		queue_work(system_wq, &ch->reap_work);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_deliver);

/**
 * zex_hostrpc_ring_if_armed - ring a side the way a peer must
 * @ch: the channel.
 * @to: the side to ring.
 *
 * For the kernel acting as a side: after changing its words, take the
 * other side's arming if it is there and ring. The caller's word update
 * must be fully ordered, as the peers' are.
 *
 * Return: whether it rang.
 */
bool zex_hostrpc_ring_if_armed(struct zex_hostrpc_channel *ch,
			       enum zex_hostrpc_side to)
{
	u32 *armed = zex_hostrpc_armed(ch, to);

	if (!READ_ONCE(*armed) || cmpxchg(armed, 1, 0) != 1)
		return false;
	zex_hostrpc_deliver(ch, to);
	return true;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_ring_if_armed);

/**
 * zex_hostrpc_ring - DRM_ZEX_HOSTRPC_IOCTL_RING: ring the other side
 * @view: the ringing view.
 *
 * Return: 0, or -EPIPE for a device view of a dead channel.
 */
int zex_hostrpc_ring(struct zex_hostrpc_view *view)
{
	struct zex_hostrpc_channel *ch = view->ch;

	if (view->side == ZEX_HOSTRPC_HOST) {
		zex_hostrpc_deliver(ch, ZEX_HOSTRPC_DEVICE);
		return 0;
	}
	if (READ_ONCE(ch->dead)) {
		drm_dbg(ch->drm, "hostrpc check failed: ring on a dead channel\n");
		return -EPIPE;
	}
	zex_hostrpc_deliver(ch, ZEX_HOSTRPC_HOST);
	return 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_ring);

/**
 * zex_hostrpc_host_has_work - does some slot need the host?
 * @ch: the channel.
 *
 * Return: whether a summary flag of the channel's slots is set (a request
 * published and not yet looked at by a server). Flags past the last slot's
 * are not the channel's and are ignored.
 */
bool zex_hostrpc_host_has_work(struct zex_hostrpc_channel *ch)
{
	const struct drm_zex_hostrpc_control *c = ch->control;
	u32 g, groups = DIV_ROUND_UP(ch->nslots, 64);

	for (g = 0; g < groups; g++)
		if (READ_ONCE(c->summary[g]))
			return true;
	return false;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_host_has_work);

static bool zex_hostrpc_check_words(struct zex_hostrpc_view *view,
				    const struct drm_zex_hostrpc_wait *args)
{
	struct zex_hostrpc_channel *ch = view->ch;

	if (view->side == ZEX_HOSTRPC_HOST)
		return zex_hostrpc_host_has_work(ch);
	/* @slot was checked against the kernel's own nslots. */
	return READ_ONCE(ch->control->answer[args->slot]) != args->value;
}

/* What a waiter waits for holds, or the channel ended. */
static bool zex_hostrpc_done(struct zex_hostrpc_view *view,
			     const struct drm_zex_hostrpc_wait *args)
{
	struct zex_hostrpc_channel *ch = view->ch;

	if (READ_ONCE(ch->unplugged))
		return true;
	if (view->side == ZEX_HOSTRPC_DEVICE && READ_ONCE(ch->dead))
		return true;
	return zex_hostrpc_check_words(view, args);
}

/*
 * The condition of the wait loop: done already, or arm for @side and
 * re-check. (Not arming when there is no need to spares the other side a
 * ring.)
 */
static bool zex_hostrpc_ready(struct zex_hostrpc_view *view,
			      const struct drm_zex_hostrpc_wait *args)
{
	if (zex_hostrpc_done(view, args))
		return true;
	/* Fully ordered: the Dekker pair with the ringer's bit update. */
	smp_store_mb(*zex_hostrpc_armed(view->ch, view->side), 1);
	return zex_hostrpc_done(view, args);
}

/**
 * struct zex_hostrpc_waiter - a sleeper in the wait ioctl
 * @entry: its wait-queue entry, woken by zex_hostrpc_wake_waiter().
 * @view: the view it waits through.
 * @args: what it waits for.
 */
struct zex_hostrpc_waiter {
	struct wait_queue_entry entry;
	struct zex_hostrpc_view *view;
	const struct drm_zex_hostrpc_wait *args;
};

/*
 * A ring wakes a waiter only when what it waits for holds: with a
 * thousand callers asleep, each answer wakes its caller, not all of them.
 * Runs under the queue's lock; reads shared memory only.
 */
static int zex_hostrpc_wake_waiter(struct wait_queue_entry *entry, unsigned int mode,
				   int sync, void *key)
{
	struct zex_hostrpc_waiter *w = container_of(entry, struct zex_hostrpc_waiter, entry);

	if (!zex_hostrpc_done(w->view, w->args))
		return 0;
	return autoremove_wake_function(entry, mode, sync, key);
}

/*
 * Sleep until zex_hostrpc_ready(), a signal (-ERESTARTSYS) or @deadline
 * (-ETIME; NULL: none).
 */
static long zex_hostrpc_sleep(struct zex_hostrpc_view *view,
			      const struct drm_zex_hostrpc_wait *args, ktime_t *deadline)
{
	wait_queue_head_t *wq = &view->ch->side[view->side].wq;
	struct zex_hostrpc_waiter w = { .view = view, .args = args };
	long ret = 0;

	init_wait_entry(&w.entry, 0);
	w.entry.func = zex_hostrpc_wake_waiter;
	for (;;) {
		prepare_to_wait(wq, &w.entry, TASK_INTERRUPTIBLE);
		if (zex_hostrpc_ready(view, args))
			break;
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (!deadline) {
			schedule();
		} else if (!schedule_hrtimeout(deadline, HRTIMER_MODE_ABS)) {
			ret = zex_hostrpc_ready(view, args) ? 0 : -ETIME;
			break;
		}
	}
	finish_wait(wq, &w.entry);
	return ret;
}

/**
 * zex_hostrpc_wait - DRM_ZEX_HOSTRPC_IOCTL_WAIT
 * @view: the waiting view.
 * @args: what to wait for and until when.
 *
 * Return: 0 when the condition holds, or a negative errno as the uapi
 * header lists.
 */
long zex_hostrpc_wait(struct zex_hostrpc_view *view,
		      const struct drm_zex_hostrpc_wait *args)
{
	struct zex_hostrpc_channel *ch = view->ch;
	bool device = view->side == ZEX_HOSTRPC_DEVICE;
	long ret = 0;

	if (zex_hostrpc_check(ch, args->flags) ||
	    zex_hostrpc_check(ch, args->pad) ||
	    zex_hostrpc_check(ch, device && args->slot >= ch->nslots) ||
	    zex_hostrpc_check(ch, !device && (args->slot || args->value)) ||
	    zex_hostrpc_check(ch, args->timeout_ns < 0))
		return -EINVAL;

	if (args->timeout_ns == DRM_ZEX_HOSTRPC_WAIT_FOREVER) {
		ret = zex_hostrpc_sleep(view, args, NULL);
	} else {
		ktime_t deadline = ns_to_ktime(args->timeout_ns);

		if (ktime_compare(deadline, ktime_get()) <= 0)
			ret = zex_hostrpc_ready(view, args) ? 0 : -ETIME;
		else
			ret = zex_hostrpc_sleep(view, args, &deadline);
	}
	if (READ_ONCE(ch->unplugged)) {
		drm_dbg(ch->drm, "hostrpc check failed: the device was unplugged\n");
		return -ENODEV;
	}
	if (device && READ_ONCE(ch->dead)) {
		drm_dbg(ch->drm, "hostrpc check failed: wait on a dead channel\n");
		return -EPIPE;
	}
	return ret;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_wait);

/**
 * zex_hostrpc_set_eventfd - DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD
 * @view: the view.
 * @fd: an eventfd to signal with each ring to the view's side, or -1.
 *
 * Return: 0, -EBADF when @fd is not open, -EINVAL when it is not an
 * eventfd.
 */
int zex_hostrpc_set_eventfd(struct zex_hostrpc_view *view, int fd)
{
	struct zex_hostrpc_channel *ch = view->ch;
	struct eventfd_ctx *new = NULL, *old;

	if (fd != -1) {
		new = eventfd_ctx_fdget(fd);
		if (IS_ERR(new)) {
			drm_dbg(ch->drm, "hostrpc check failed: eventfd %d (%ld)\n",
				fd, PTR_ERR(new));
			return PTR_ERR(new);
		}
	}
	spin_lock(&ch->lock);
	old = view->eventfd;
	view->eventfd = new;
	spin_unlock(&ch->lock);
	if (old)
		eventfd_ctx_put(old);
	return 0;
}

static bool zex_hostrpc_readable(struct zex_hostrpc_view *view)
{
	struct zex_hostrpc_channel *ch = view->ch;

	return READ_ONCE(ch->side[view->side].pending) ||
	       (view->side == ZEX_HOSTRPC_DEVICE && READ_ONCE(ch->dead)) ||
	       READ_ONCE(ch->unplugged);
}

/**
 * zex_hostrpc_read - take the rings delivered to a view's side
 * @view: the view.
 * @nonblock: O_NONBLOCK: -EAGAIN instead of sleeping.
 * @count: the rings since the last read.
 *
 * Return: 8 (the size of @count), -EAGAIN, -EPIPE for a device view of a
 * dead channel with no ring left, -ENODEV once the device is unplugged,
 * -ERESTARTSYS.
 */
ssize_t zex_hostrpc_read(struct zex_hostrpc_view *view, bool nonblock,
			 u64 *count)
{
	struct zex_hostrpc_channel *ch = view->ch;
	struct zex_hostrpc_side_state *side = &ch->side[view->side];
	int ret;

	for (;;) {
		if (READ_ONCE(ch->unplugged))
			return -ENODEV;
		spin_lock(&ch->lock);
		if (side->pending) {
			*count = side->pending;
			side->pending = 0;
			spin_unlock(&ch->lock);
			return sizeof(*count);
		}
		spin_unlock(&ch->lock);
		if (view->side == ZEX_HOSTRPC_DEVICE && READ_ONCE(ch->dead))
			return -EPIPE;
		if (nonblock)
			return -EAGAIN;
		ret = wait_event_interruptible(side->wq, zex_hostrpc_readable(view));
		if (ret)
			return ret;
	}
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_read);

/**
 * zex_hostrpc_poll_mask - what poll() reports for a view
 * @view: the view.
 *
 * Return: EPOLLIN while rings are pending, EPOLLHUP for a device view of a
 * dead channel, EPOLLERR | EPOLLHUP once the device is unplugged.
 */
__poll_t zex_hostrpc_poll_mask(struct zex_hostrpc_view *view)
{
	struct zex_hostrpc_channel *ch = view->ch;
	__poll_t mask = 0;

	if (READ_ONCE(ch->side[view->side].pending))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (view->side == ZEX_HOSTRPC_DEVICE && READ_ONCE(ch->dead))
		mask |= EPOLLHUP;
	if (READ_ONCE(ch->unplugged))
		mask |= EPOLLERR | EPOLLHUP;
	return mask;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_poll_mask);
