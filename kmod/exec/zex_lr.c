// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_lr.c - long-running queues: a context of their own on the engine
 *
 * A long-running queue's jobs may wait for as long as userspace takes (a
 * launch's reports, a WAIT's value), so they have no hardware fence and
 * never hold the ring's worker, whose jobs' fences others wait on and
 * which must end in bounded time. As xe hands a long-running job to its
 * context's ring and lets the scheduler's fence signal at once, the
 * ring's second scheduler (&zex_ring.lr_sched, no timeout) waits for a
 * job's dependencies, then zex_lr_run_job() puts the job on its queue's
 * context (&struct zex_lr) and returns no fence: the scheduler's fence
 * signals then, and nothing outside the queue can wait for the job's end
 * but through user fences. A job with nothing to wait for, behind none in
 * the scheduler, goes to the context straight from the exec ioctl
 * (zex_lr_submit()), as xe writes a long-running job to its ring there.
 *
 * The context runs its jobs in order on zex_exec_lr_wq, one work item per
 * queue, which never sleeps for userspace: where a job must wait it stops
 * (zex_job_execute() returns -EINPROGRESS) and the work item ends; a
 * launch's last report, the queue's ban, and for a WAIT each job's end on
 * the device (the context is then on the device's completion wait queue)
 * or a millisecond's poll kick it again (zex_lr_kick()). So a waiting
 * context holds no thread, and contexts never wait for one another, as a
 * GPU time-slices its contexts. Whoever gives a context work it can start
 * at once (the scheduler handing a job over, a launch's last report) runs
 * its quick steps itself (zex_lr_run_now()), the context's run lock
 * keeping one runner at a time; copies and fills are left to the work
 * item. A kick takes a reference to the queue and
 * holds the device and the module until the work item has run; unloading
 * the module drains the workqueue.
 *
 * The process that created the queue serves its launches. The file's
 * flush (each close of one of its descriptors, and every descriptor at a
 * process's exit) asks whether the closing files table still holds one;
 * when the one that created a long-running queue does not, the queue is
 * banned with -EPIPE, which ends its launch and wakes its waiters.
 */

#include <linux/fdtable.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>

#include "../common/zex_gfp.h"
#include "zex_exec.h"

static struct zex_job *zex_lr_oldest(struct zex_lr *lr)
{
	struct zex_job *job;

	spin_lock_irq(&lr->lock);
	job = list_first_entry_or_null(&lr->jobs, struct zex_job, lr_link);
	spin_unlock_irq(&lr->lock);
	return job;
}

/*
 * The job has ended: its launch stops, it leaves the context, waiters
 * wake; with @held (zex_lr_run_now()) its last reference may go here.
 */
static void zex_lr_job_ended(struct zex_lr *lr, struct zex_job *job, int ret, bool held)
{
	zex_lr_wait_disarm(lr);
	zex_launch_stop(job);
	zex_job_end(job, ret);
	spin_lock_irq(&lr->lock);
	list_del_init(&job->lr_link);
	spin_unlock_irq(&lr->lock);
	zex_exec_queue_signal_done(lr->queue);
	if (held)
		zex_job_put_held(job);
	else
		zex_job_put(job);
}

/*
 * Run the context's jobs, oldest first, under &zex_lr.run_lock, until one
 * waits; with @quick, also until one would run a copy or a fill. Returns
 * true when the work item must go on from there.
 */
static bool zex_lr_run(struct zex_lr *lr, bool quick, bool held)
{
	struct zex_exec_queue *q = lr->queue;
	struct zex_job *job;

	while ((job = zex_lr_oldest(lr))) {
		int ret = -ECANCELED;

		if (!zex_exec_queue_is_banned(q)) {
			struct mem_cgroup *old;

			zex_job_started(job);
			old = set_active_memcg(job->memcg);
			ret = zex_job_execute(job, quick);
			set_active_memcg(old);
		}
		if (ret == -EAGAIN)
			return true;
		if (ret == -EINPROGRESS) {
			if (lr->armed)
				zex_lr_kick_after(lr, msecs_to_jiffies(ZEX_WAIT_POLL_MS));
			return false;
		}
		zex_lr_job_ended(lr, job, ret, held);
	}
	return false;
}

static void zex_lr_work(struct work_struct *work)
{
	struct zex_lr *lr = container_of(to_delayed_work(work), struct zex_lr, work);
	struct zex_exec_queue *q = lr->queue;
	struct drm_device *drm = q->ring->xdev->drm;

	/* From here on, a kick runs the work item again, with its own references. */
	spin_lock_irq(&lr->lock);
	lr->queued = false;
	spin_unlock_irq(&lr->lock);

	mutex_lock(&lr->run_lock);
	zex_lr_run(lr, false, false);
	mutex_unlock(&lr->run_lock);
	zex_exec_queue_put(q);
	zex_exec_release(drm);
}

/**
 * zex_lr_drain - end a banned queue's handed-over jobs now
 * @lr: the context of a banned queue; the caller holds the queue.
 *
 * Waits only for a runner to reach its next page (the ban stops it), so a
 * launch's record says stop before the address space can go.
 */
void zex_lr_drain(struct zex_lr *lr)
{
	mutex_lock(&lr->run_lock);
	zex_lr_run(lr, false, false);
	mutex_unlock(&lr->run_lock);
}

/**
 * zex_lr_run_now - run a context's quick steps here, the rest on its work item
 * @lr: the context; the caller holds its queue.
 * @held: the caller is an ioctl (it holds the device too, through its
 *	file): a job that ends here is freed here (zex_job_put_held()).
 *
 * Where the context was just given work (a job handed over, a launch's
 * last report), the caller runs what takes no time (stores, timestamps,
 * reads of a WAIT's value, a launch's record, a job's end and its user
 * fences) itself, one thread switch less on the way to the compute side
 * and back; a copy or a fill, or a context already running elsewhere,
 * goes to the work item.
 */
void zex_lr_run_now(struct zex_lr *lr, bool held)
{
	bool more;

	if (!mutex_trylock(&lr->run_lock)) {
		zex_lr_kick(lr);
		return;
	}
	more = zex_lr_run(lr, true, held);
	mutex_unlock(&lr->run_lock);
	if (more)
		zex_lr_kick(lr);
}

/**
 * zex_lr_run_job - the scheduler hands a long-running job over
 * @job: the job, its dependencies signalled.
 *
 * A job whose dependency failed does not run, and bans its queue with
 * that error: it has no fence to carry it, and its user fences will never
 * be written.
 *
 * Return: NULL, the job on its context (its scheduler fence signals now);
 * the ban's error (or its dependency's) for a job that will not run.
 */
struct dma_fence *zex_lr_run_job(struct zex_job *job)
{
	struct zex_lr *lr = job->queue->lr;
	int error = zex_exec_queue_error(job->queue);

	if (!error && job->base.s_fence->finished.error) {
		error = job->base.s_fence->finished.error;
		zex_exec_queue_ban(job->queue, error, NULL);
	}
	spin_lock_irq(&lr->lock);
	lr->in_sched--;
	if (!error) {
		kref_get(&job->refcount);
		list_add_tail(&job->lr_link, &lr->jobs);
	}
	spin_unlock_irq(&lr->lock);
	if (error) {
		atomic64_inc(&job->queue->jobs_completed);
		return ERR_PTR(error);
	}
	zex_lr_run_now(lr, false);
	return NULL;
}

/* Whether every dependency the job collected has signalled already. */
static bool zex_lr_ready(struct zex_job *job)
{
	struct dma_fence *fence;
	unsigned long i;

	xa_for_each(&job->base.dependencies, i, fence)
		if (!dma_fence_is_signaled(fence))
			return false;
	return true;
}

/**
 * zex_lr_submit - hand a long-running job to its context, or count it for the scheduler
 * @job: the job, initialised for the scheduler, under its queue's submit lock.
 *
 * A job with nothing to wait for (its dependencies signalled, no earlier
 * job of the queue still in the scheduler) goes to the context at once, as
 * xe writes a long-running job to its ring in the exec ioctl: the caller
 * then frees its scheduler part without arming it and, once it holds no
 * lock, runs the context's quick steps (zex_lr_run_now()). Any other job
 * is counted, for the scheduler to hand over in order.
 *
 * Return: true when the context took the job.
 */
bool zex_lr_submit(struct zex_job *job)
{
	struct zex_lr *lr = job->queue->lr;
	bool direct = zex_lr_ready(job);

	spin_lock_irq(&lr->lock);
	direct = direct && !lr->in_sched;
	if (direct) {
		kref_get(&job->refcount);
		list_add_tail(&job->lr_link, &lr->jobs);
	} else {
		lr->in_sched++;
	}
	spin_unlock_irq(&lr->lock);
	return direct;
}

/**
 * zex_lr_init - make a queue long-running, served by the calling process
 * @q: the queue, new.
 *
 * Return: 0 or -ENOMEM (charged to the caller's memory cgroup).
 */
int zex_lr_init(struct zex_exec_queue *q)
{
	struct zex_lr *lr = kzalloc(sizeof(*lr), ZEX_GFP_USER);

	if (!lr)
		return -ENOMEM;
	lr->queue = q;
	spin_lock_init(&lr->lock);
	mutex_init(&lr->run_lock);
	INIT_LIST_HEAD(&lr->jobs);
	INIT_DELAYED_WORK(&lr->work, zex_lr_work);
	lr->server = current->files;
	q->lr = lr;
	return 0;
}

static int zex_fd_is(const void *filp, struct file *file, unsigned int fd)
{
	return file == filp;
}

/**
 * zex_lr_server_gone - whether a files table holds no descriptor of a file
 * @filp: the file.
 * @owner: the files table.
 *
 * Return: true when none of @owner's descriptors is @filp.
 */
bool zex_lr_server_gone(struct file *filp, void *owner)
{
	return !owner || !iterate_fd(owner, 0, zex_fd_is, filp);
}

/**
 * zex_exec_file_flush - a descriptor of the file was closed by @owner
 * @xfile: the file's exec state.
 * @filp: the file.
 * @owner: the files table it was closed in.
 *
 * When @owner holds no other descriptor of the file, every long-running
 * queue it serves is banned with -EPIPE.
 */
void zex_exec_file_flush(struct zex_exec_file *xfile, struct file *filp, void *owner)
{
	struct zex_exec_queue *q;
	unsigned long id;

	if (!READ_ONCE(xfile->lr_count) || !zex_lr_server_gone(filp, owner))
		return;
	mutex_lock(&xfile->lock);
	xa_for_each(&xfile->queues, id, q)
		if (q->lr && q->lr->server == owner)
			zex_exec_queue_ban(q, -EPIPE, NULL);
	mutex_unlock(&xfile->lock);
}
