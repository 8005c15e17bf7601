// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_exec_state.c - what every part of execution shares
 *
 * A queue's ban and its references; the device's completion wait queue,
 * which user-fence waits and wait commands sleep on, and a long-running
 * queue's context waits on (zex_lr_wait_arm()); the workqueues that free
 * jobs and hardware fences, tear killed queues down and run long-running
 * queues' contexts, and the kick that queues a context (zex_lr_kick()).
 * Everything else of those contexts is zex_lr.c's.
 *
 * A queue is banned once, by the first job that faults, times out or
 * fails, or by its destruction: the first error and fault are kept, later
 * ones do not overwrite them. zex_exec_queue_ban() is that state machine;
 * it kicks a long-running queue's context, which ends its jobs. A ban the
 * device decided (a timeout, a fault, a failed job or dependency, a
 * server gone with jobs still to run) is logged at notice level, rate
 * limited, naming the process that created the queue, as other drivers
 * log a hung or faulting context: an administrator sees why a program lost
 * its queue. Destruction, a file's close and an unplug are not.
 */

#include <linux/module.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "../common/zex_kunit_export.h"
#include "../vm/zex_vm.h"
#include "zex_exec.h"

/*
 * Frees jobs and hardware fences (for contexts that cannot: a fence's
 * release, the scheduler's own thread); drained at module unload, which
 * the references they hold delay until then.
 */
struct workqueue_struct *zex_exec_cleanup_wq;

/*
 * Tears killed queues down: each work item waits until its queue's jobs
 * have all reached the engine (see zex_exec_queue.c), so they get a
 * workqueue of their own and never hold up the frees above.
 */
struct workqueue_struct *zex_exec_teardown_wq;

/*
 * Runs long-running queues' contexts (zex_lr.c): work items that never
 * sleep for userspace, each holding the device and the module.
 */
struct workqueue_struct *zex_exec_lr_wq;

/**
 * zex_exec_signal_done - wake whoever waits for a job to end
 * @xdev: the device's execution state.
 */
void zex_exec_signal_done(struct zex_exec_device *xdev)
{
	atomic64_inc(&xdev->done_seq);
	wake_up_all(&xdev->done_wq);
}

/**
 * zex_exec_queue_wake - wake the waits tied to a queue
 * @q: the queue; the caller holds it.
 *
 * A wait tied to a queue is for what that queue writes, as a compute side
 * waits for its own queue's launches: it is not woken by every other
 * queue's progress on the device.
 */
void zex_exec_queue_wake(struct zex_exec_queue *q)
{
	atomic64_inc(&q->done_seq);
	wake_up_all(&q->done_wq);
}

/**
 * zex_exec_queue_signal_done - wake whoever waits for what a queue wrote
 * @q: the queue; the caller holds it.
 *
 * The waits tied to @q (zex_exec_queue_wake()), then the device's
 * (zex_exec_signal_done()).
 */
void zex_exec_queue_signal_done(struct zex_exec_queue *q)
{
	zex_exec_queue_wake(q);
	zex_exec_signal_done(q->ring->xdev);
}

/**
 * zex_lr_kick_after - run a long-running queue's context after @delay
 * @lr: the context; the caller holds its queue.
 * @delay: jiffies; 0 runs it now, even if a later run was pending.
 *
 * The work item, once queued, holds the queue, the device and the module
 * until it has run (zex_lr.c). Any context, interrupts off included.
 */
void zex_lr_kick_after(struct zex_lr *lr, unsigned long delay)
{
	struct zex_exec_queue *q = lr->queue;
	unsigned long flags;

	spin_lock_irqsave(&lr->lock, flags);
	if (!lr->queued) {
		lr->queued = true;
		kref_get(&q->refcount);
		zex_exec_hold(q->ring->xdev->drm);
		queue_delayed_work(zex_exec_lr_wq, &lr->work, delay);
	} else if (!delay && cancel_delayed_work(&lr->work)) {
		/* A poll was pending: run now, with the references it holds. */
		queue_delayed_work(zex_exec_lr_wq, &lr->work, 0);
	}
	spin_unlock_irqrestore(&lr->lock, flags);
}

/**
 * zex_lr_kick - run a long-running queue's context again
 * @lr: the context; the caller holds its queue.
 *
 * Any context, interrupts off included.
 */
void zex_lr_kick(struct zex_lr *lr)
{
	zex_lr_kick_after(lr, 0);
}

/* On the device's completion wait queue: a job ended, a store, a ban. */
static int zex_lr_wake(struct wait_queue_entry *wait, unsigned int mode, int sync, void *key)
{
	zex_lr_kick(container_of(wait, struct zex_lr, wake));
	return 0;
}

/**
 * zex_lr_wait_arm - be kicked by every job's end on the device
 * @lr: the context, from its work item.
 *
 * Called before a WAIT reads its value, so that no change after the read
 * goes unseen.
 */
void zex_lr_wait_arm(struct zex_lr *lr)
{
	if (lr->armed)
		return;
	lr->armed = true;
	init_waitqueue_func_entry(&lr->wake, zex_lr_wake);
	add_wait_queue(&lr->queue->ring->xdev->done_wq, &lr->wake);
}

/**
 * zex_lr_wait_disarm - no longer be kicked by jobs' ends
 * @lr: the context, from its work item.
 */
void zex_lr_wait_disarm(struct zex_lr *lr)
{
	if (!lr->armed)
		return;
	lr->armed = false;
	remove_wait_queue(&lr->queue->ring->xdev->done_wq, &lr->wake);
}

/**
 * zex_exec_device_unplug - the device is gone: fail user fence waits
 * @xdev: the device's execution state.
 *
 * The caller then bans every file's queues (zex_exec_file_unplug()); a
 * queue created meanwhile sees the flag and bans itself.
 */
void zex_exec_device_unplug(struct zex_exec_device *xdev)
{
	WRITE_ONCE(xdev->unplugged, true);
	zex_exec_signal_done(xdev);
}

/**
 * zex_exec_hold - hold the device and the module for what outlives a file
 * @drm: the device.
 *
 * A job, a hardware fence and a killed queue's teardown hold both, so the
 * scheduler a fence names outlives it and nothing calls into an unloaded
 * module. The caller already holds both (through an open file, or a job).
 */
void zex_exec_hold(struct drm_device *drm)
{
	__module_get(THIS_MODULE);
	drm_dev_get(drm);
}

/**
 * zex_exec_release - drop what zex_exec_hold() took
 * @drm: the device.
 *
 * The module may go as soon as this returns: from a work item, call it on
 * zex_exec_cleanup_wq or zex_exec_teardown_wq, which unloading drains, and
 * touch nothing afterwards.
 */
void zex_exec_release(struct drm_device *drm)
{
	drm_dev_put(drm);
	module_put(THIS_MODULE);
}

/**
 * zex_exec_module_init - what execution needs before any device exists
 *
 * Return: 0 or -ENOMEM.
 */
int zex_exec_module_init(void)
{
	zex_exec_cleanup_wq = alloc_workqueue("zex-cleanup", WQ_UNBOUND, 0);
	if (!zex_exec_cleanup_wq)
		return -ENOMEM;
	zex_exec_teardown_wq = alloc_workqueue("zex-teardown", WQ_UNBOUND, 0);
	if (!zex_exec_teardown_wq)
		goto err_cleanup;
	zex_exec_lr_wq = alloc_workqueue("zex-lr", WQ_UNBOUND, 0);
	if (!zex_exec_lr_wq)
		goto err_teardown;
	return 0;

err_teardown:
	destroy_workqueue(zex_exec_teardown_wq);
err_cleanup:
	destroy_workqueue(zex_exec_cleanup_wq);
	return -ENOMEM;
}

/** zex_exec_module_exit - drain and free what zex_exec_module_init() made */
void zex_exec_module_exit(void)
{
	/*
	 * In this order: a teardown may kick a context, a context's last job
	 * queues its free on the cleanup workqueue.
	 */
	destroy_workqueue(zex_exec_teardown_wq);
	destroy_workqueue(zex_exec_lr_wq);
	destroy_workqueue(zex_exec_cleanup_wq);
}

/* Why @q was banned, in the kernel log; quiet for the bans userspace asked for. */
static void zex_exec_queue_log_ban(struct zex_exec_queue *q, int error,
				   const struct zex_fault *fault)
{
	static const char * const reasons[] = {
		[DRM_ZEX_FAULT_NONE] = "fault",
		[DRM_ZEX_FAULT_NOT_MAPPED] = "not mapped",
		[DRM_ZEX_FAULT_READ_ONLY] = "read-only",
		[DRM_ZEX_FAULT_HOST_UNMAPPED] = "host memory unmapped",
		[DRM_ZEX_FAULT_KERNEL_ABORTED] = "kernel aborted",
	};
	static DEFINE_RATELIMIT_STATE(ban_log, 5 * HZ, 10);
	struct drm_device *drm = q->ring->xdev->drm;

	if (error == -ECANCELED || error == -ENODEV ||
	    (error == -EPIPE && !atomic_read(&q->in_flight)) || !__ratelimit(&ban_log))
		return;
	if (fault)
		drm_notice(drm, "%s: queue %u of %s[%d] banned: %s%s at 0x%llx\n",
			   q->ring->name, q->id, q->owner_comm, q->owner_pid,
			   fault->reason < ARRAY_SIZE(reasons) ? reasons[fault->reason] : "fault",
			   fault->flags & DRM_ZEX_FAULT_WRITE ? " (write)" : "", fault->addr);
	else
		drm_notice(drm, "%s: queue %u of %s[%d] banned: %pe\n", q->ring->name, q->id,
			   q->owner_comm, q->owner_pid, ERR_PTR(error));
}

/**
 * zex_exec_queue_ban - ban a queue, keeping the first reason
 * @q: the queue, held by the caller.
 * @error: why, a negative errno.
 * @fault: a fault's address, reason and flags, or NULL.
 *
 * Return: true when this call banned it, false when it already was.
 */
bool zex_exec_queue_ban(struct zex_exec_queue *q, int error, const struct zex_fault *fault)
{
	bool first;

	spin_lock(&q->state_lock);
	first = !q->banned;
	if (first) {
		q->banned = true;
		q->error = error;
		if (fault)
			q->fault = *fault;
	}
	spin_unlock(&q->state_lock);
	if (first) {
		zex_exec_queue_log_ban(q, error, fault);
		zex_exec_queue_signal_done(q);
		if (q->lr)
			zex_lr_kick(q->lr);
	}
	return first;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_exec_queue_ban);

/**
 * zex_exec_queue_is_banned - whether a queue takes no more jobs
 * @q: the queue.
 *
 * Return: true once banned.
 */
bool zex_exec_queue_is_banned(struct zex_exec_queue *q)
{
	return READ_ONCE(q->banned);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_exec_queue_is_banned);

/**
 * zex_exec_queue_error - what banned a queue
 * @q: the queue.
 *
 * Return: the ban's error, 0 when not banned.
 */
int zex_exec_queue_error(struct zex_exec_queue *q)
{
	int error;

	spin_lock(&q->state_lock);
	error = q->error;
	spin_unlock(&q->state_lock);
	return error;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_exec_queue_error);

static void zex_exec_queue_release(struct kref *kref)
{
	struct zex_exec_queue *q = container_of(kref, struct zex_exec_queue, refcount);

	zex_vm_put(q->vm);
	zex_exec_usage_put(q->usage);
	mutex_destroy(&q->submit_lock);
	if (q->lr)
		mutex_destroy(&q->lr->run_lock);
	kfree(q->lr);
	kfree(q);
}

/**
 * zex_exec_queue_put - drop a reference to a queue
 * @q: the queue.
 */
void zex_exec_queue_put(struct zex_exec_queue *q)
{
	kref_put(&q->refcount, zex_exec_queue_release);
}

