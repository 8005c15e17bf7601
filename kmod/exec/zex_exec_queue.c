// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_exec_queue.c - exec queues: create, destroy, state, ban
 *
 * A file's queues live in an xarray, ids from 1; the file holds one
 * reference to each and every job one more. Destroying a queue (or
 * closing the file) takes it out of the table and kills it: it is banned
 * under its submit lock, so an exec racing the kill either pushed its job
 * before or fails with -EIO, and nothing reaches the entity afterwards;
 * its running job stops and its jobs not yet run end with -ECANCELED as
 * they reach the ring. The entity is then drained and destroyed on
 * zex_exec_teardown_wq, as xe and panthor tear their queues down, never by
 * the task that killed it: there the scheduler's own wait (until each job
 * has reached the ring, once its dependencies have signalled and its turn
 * among the ring's priorities has come) neither blocks that task nor is
 * cut short by a fatal signal or by the 1 s an exiting task gets, so the
 * scheduler never has to end the queue's jobs itself (which on 6.1 leaks a
 * reference to the last fence, and with it the module). A killed queue's
 * jobs do not run; the wait is as long as its dependencies, which are
 * fences, and the ring's busier queues of higher priority take. The work
 * item holds the queue, the device and the module until it is done; what
 * the queue's jobs hold (the file's address space, and the memory bound in
 * it) goes with them.
 *
 * A queue's priority is its scheduler entity's: normal, low, or high with
 * CAP_SYS_NICE (as xe asks), mapped to the scheduler's own numbering. A
 * long-running queue's entity is on its ring's second scheduler, and the
 * queue has a context (zex_lr.c), served by the process creating it; a
 * file has at most &zex_exec_limits.max_lr_queues of them.
 *
 * Unplugging the device bans every queue of every file with -ENODEV.
 * A queue's ban and references are zex_exec_state.c's.
 */

#include <linux/capability.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "../common/zex_compat.h"
#include "../common/zex_gfp.h"
#include "../device/zex_device.h"
#include "../vm/zex_vm.h"
#include "zex_exec.h"

/**
 * zex_exec_queue_lookup - a file's queue, referenced
 * @xfile: the file's exec state.
 * @id: the queue's id.
 *
 * Return: the queue (put it with zex_exec_queue_put()), or NULL.
 */
struct zex_exec_queue *zex_exec_queue_lookup(struct zex_exec_file *xfile, u32 id)
{
	struct zex_exec_queue *q;

	xa_lock(&xfile->queues);
	q = xa_load(&xfile->queues, id);
	if (q)
		kref_get(&q->refcount);
	xa_unlock(&xfile->queues);
	return q;
}

/*
 * A killed queue's entity, on zex_exec_teardown_wq: the scheduler's flush
 * waits (from a worker: not killable, no time limit) until every job has
 * left the entity, so drm_sched_entity_fini() finds none to end; then the
 * table's hold goes, and what the work item held.
 */
static void zex_exec_queue_teardown(struct work_struct *work)
{
	struct zex_exec_queue *q = container_of(work, struct zex_exec_queue, teardown);
	struct drm_device *drm = q->ring->xdev->drm;

	drm_sched_entity_destroy(&q->entity);
	zex_exec_queue_put(q);
	zex_exec_release(drm);
}

/*
 * Out of the table: banned under the submit lock, so no job reaches the
 * entity after this; its jobs end with -ECANCELED (the running one at its
 * next page) as they reach the ring, and the entity goes on a worker. A
 * long-running queue's jobs already handed to its context end here.
 */
static void zex_exec_queue_kill(struct zex_exec_queue *q)
{
	mutex_lock(&q->submit_lock);
	zex_exec_queue_ban(q, -ECANCELED, NULL);
	mutex_unlock(&q->submit_lock);
	/* A long-running queue's launch says stop before the file's memory goes. */
	if (q->lr)
		zex_lr_drain(q->lr);
	zex_exec_hold(q->ring->xdev->drm);
	INIT_WORK(&q->teardown, zex_exec_queue_teardown);
	queue_work(zex_exec_teardown_wq, &q->teardown);
}

/**
 * zex_exec_file_open - a file's empty table of queues
 *
 * Return: the table, charged to the caller's memory cgroup, or
 * ERR_PTR(-ENOMEM).
 */
struct zex_exec_file *zex_exec_file_open(void)
{
	struct zex_exec_file *xfile = kzalloc(sizeof(*xfile), ZEX_GFP_USER);

	if (!xfile)
		return ERR_PTR(-ENOMEM);
	xfile->usage = zex_exec_usage_create();
	if (!xfile->usage) {
		kfree(xfile);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&xfile->lock);
	xa_init_flags(&xfile->queues, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	return xfile;
}

/**
 * zex_exec_file_close - destroy every queue of a file being closed
 * @xfile: the file's table.
 */
void zex_exec_file_close(struct zex_exec_file *xfile)
{
	struct zex_exec_queue *q;
	unsigned long id;

	xa_for_each(&xfile->queues, id, q) {
		xa_erase(&xfile->queues, id);
		zex_exec_queue_kill(q);
	}
	xa_destroy(&xfile->queues);
	mutex_destroy(&xfile->lock);
	zex_exec_usage_put(xfile->usage);
	kfree(xfile);
}

/**
 * zex_exec_file_unplug - ban every queue of a file, the device being gone
 * @xfile: the file's table.
 *
 * Their running jobs stop and those not yet run end with -ENODEV; the
 * queues stay in the table until destroyed or the file closes.
 */
void zex_exec_file_unplug(struct zex_exec_file *xfile)
{
	struct zex_exec_queue *q;
	unsigned long id;

	mutex_lock(&xfile->lock);
	xa_for_each(&xfile->queues, id, q)
		zex_exec_queue_ban(q, -ENODEV, NULL);
	mutex_unlock(&xfile->lock);
}

/* The scheduler's priority of &enum drm_zex_exec_queue_priority @priority. */
static enum drm_sched_priority zex_sched_priority(u16 priority)
{
	switch (priority) {
	case DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW:
		return ZEX_SCHED_PRIORITY_LOW;
	case DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH:
		return DRM_SCHED_PRIORITY_HIGH;
	default:
		return DRM_SCHED_PRIORITY_NORMAL;
	}
}

/*
 * A queue on @ring at @priority in the address space @vm, counting its
 * jobs' time in @usage (it holds both); long-running with @long_running.
 */
static struct zex_exec_queue *zex_exec_queue_new(struct zex_ring *ring, struct zex_vm *vm,
						 struct zex_exec_usage *usage, u16 priority,
						 bool long_running)
{
	struct drm_gpu_scheduler *sched = long_running ? &ring->lr_sched : &ring->sched;
	struct zex_exec_queue *q;
	int ret;

	q = kzalloc(sizeof(*q), ZEX_GFP_USER);
	if (!q)
		return ERR_PTR(-ENOMEM);
	kref_init(&q->refcount);
	q->ring = ring;
	mutex_init(&q->submit_lock);
	spin_lock_init(&q->state_lock);
	init_waitqueue_head(&q->done_wq);
	q->owner_pid = task_tgid_nr(current);
	get_task_comm(q->owner_comm, current);
	ret = long_running ? zex_lr_init(q) : 0;
	if (!ret)
		ret = drm_sched_entity_init(&q->entity, zex_sched_priority(priority), &sched, 1,
					    NULL);
	if (ret) {
		mutex_destroy(&q->submit_lock);
		if (q->lr)
			mutex_destroy(&q->lr->run_lock);
		kfree(q->lr);
		kfree(q);
		return ERR_PTR(ret);
	}
	q->vm = zex_vm_get(vm);
	kref_get(&usage->refcount);
	q->usage = usage;
	return q;
}

int zex_exec_queue_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct zex_exec_file *xfile = to_zex_file(file)->exec;
	struct drm_zex_exec_queue_create *args = data;
	bool lr = args->flags & DRM_ZEX_EXEC_QUEUE_LONG_RUNNING;
	struct zex_exec_queue *q;
	struct zex_ring *ring;
	u32 id;
	int ret;

	if (zex_ioctl_check(drm, args->extensions) ||
	    zex_ioctl_check(drm, args->priority > DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH) ||
	    zex_ioctl_check(drm, args->flags & ~DRM_ZEX_EXEC_QUEUE_LONG_RUNNING) ||
	    zex_ioctl_check(drm, lr && args->engine_class != DRM_ZEX_ENGINE_CLASS_COMPUTE) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;
	/* As xe: a priority above normal can hold back other users' work. */
	if (zex_ioctl_check(drm, args->priority == DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH &&
			    !capable(CAP_SYS_NICE)))
		return -EPERM;
	ring = zex_exec_ring_find(zdev->exec, &zdev->topo, args->engine_class,
				  args->engine_instance, args->device);
	if (zex_ioctl_check(drm, !ring))
		return -EINVAL;

	mutex_lock(&xfile->lock);
	if (zex_ioctl_check(drm, xfile->count >= zdev->exec_limits.max_queues) ||
	    zex_ioctl_check(drm, lr && xfile->lr_count >= zdev->exec_limits.max_lr_queues)) {
		ret = -EMFILE;
		goto out;
	}
	q = zex_exec_queue_new(ring, to_zex_file(file)->vm, xfile->usage, args->priority, lr);
	if (IS_ERR(q)) {
		ret = PTR_ERR(q);
		goto out;
	}
	ret = xa_alloc(&xfile->queues, &id, q, xa_limit_32b, ZEX_GFP_USER);
	if (ret) {
		zex_exec_queue_kill(q);
		goto out;
	}
	q->id = id;
	xfile->count++;
	if (lr)
		WRITE_ONCE(xfile->lr_count, xfile->lr_count + 1);
	args->exec_queue_id = id;
	/* Created as the device went: zex_exec_file_unplug() may have missed it. */
	if (READ_ONCE(zdev->exec->unplugged))
		zex_exec_queue_ban(q, -ENODEV, NULL);
	/*
	 * Its server closed the file meanwhile (its flush, under this lock,
	 * ran before the queue was in the table).
	 */
	if (lr && zex_lr_server_gone(file->filp, q->lr->server))
		zex_exec_queue_ban(q, -EPIPE, NULL);
out:
	mutex_unlock(&xfile->lock);
	return ret;
}

int zex_exec_queue_destroy_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_exec_file *xfile = to_zex_file(file)->exec;
	struct drm_zex_exec_queue_destroy *args = data;
	struct zex_exec_queue *q;

	if (zex_ioctl_check(drm, args->extensions) ||
	    zex_ioctl_check(drm, args->pad) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;
	mutex_lock(&xfile->lock);
	q = xa_erase(&xfile->queues, args->exec_queue_id);
	if (q) {
		xfile->count--;
		if (q->lr)
			WRITE_ONCE(xfile->lr_count, xfile->lr_count - 1);
	}
	mutex_unlock(&xfile->lock);
	if (zex_ioctl_check(drm, !q))
		return -ENOENT;
	zex_exec_queue_kill(q);
	return 0;
}

int zex_exec_queue_get_state_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_exec_file *xfile = to_zex_file(file)->exec;
	struct drm_zex_exec_queue_get_state *args = data;
	struct zex_exec_queue *q;

	if (zex_ioctl_check(drm, args->extensions) ||
	    zex_ioctl_check(drm, args->flags) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;
	q = zex_exec_queue_lookup(xfile, args->exec_queue_id);
	if (zex_ioctl_check(drm, !q))
		return -ENOENT;
	spin_lock(&q->state_lock);
	args->state = q->banned ? DRM_ZEX_EXEC_QUEUE_BANNED : 0;
	args->error = q->error;
	args->fault_reason = q->fault.reason;
	args->fault_addr = q->fault.addr;
	args->fault_flags = q->fault.flags;
	spin_unlock(&q->state_lock);
	args->jobs_completed = atomic64_read(&q->jobs_completed);
	zex_exec_queue_put(q);
	return 0;
}
