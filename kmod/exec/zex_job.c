// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_job.c - running a job: its commands on the engine, then its fences
 *
 * zex_job_run() is the work item a ring's ordered workqueue runs for each
 * job: the commands in order through vm/'s engine operations, then the
 * user fences; it sets the error on the job's hardware fence (and on the
 * scheduler fence, which 6.1 does not copy) and signals it. A fault ends
 * the job with -EFAULT and bans the queue with the fault's address and
 * reason. A queue's ban is the cancel flag of its running job, which the
 * engine operations check after every page and a wait command after every
 * poll: the job ends with the ban's error (-ETIME when the scheduler's
 * timeout banned it, -ECANCELED when the queue was destroyed), and a job
 * of a banned queue does not run at all.
 *
 * On a ring spanning several tiles, a copy or fill is cut into runs by the
 * tile that holds each destination byte (zex_split.c) under the address
 * space's lock; each tile's runs then go to one work item on the tiles'
 * workqueue, and the command ends when all have. Store, timestamp and wait
 * commands run on the ring's worker.
 *
 * A long-running queue's jobs run the same commands on the queue's context
 * (zex_lr.c), which may stop a job in the middle: zex_job_execute() goes
 * on from &zex_job.pc and returns -EINPROGRESS where a launch or a wait
 * must wait, and the context calls it again when woken. A job is counted
 * (&zex_job.refcount): the scheduler holds it until free_job, a
 * long-running context as long as the job is on its list; the last put
 * gives the queue its slot back and frees the job on zex_exec_cleanup_wq.
 */

#include <linux/completion.h>
#include <linux/dma-fence.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "../bo/zex_bo.h"
#include "../common/zex_fault_inject.h"
#include "../common/zex_gfp.h"
#include "../tiles/zex_piece.h"
#include "../tiles/zex_tile.h"
#include "../vm/zex_vm.h"
#include "zex_command.h"
#include "zex_exec.h"
#include "zex_split.h"

/* One engine operation of a job; -ECANCELED when the job was stopped. */
static int zex_job_op(struct zex_job *job, struct zex_vm_op *op)
{
	int ret;

	op->cancel = &job->queue->banned;
	ret = zex_vm_execute(job->queue->vm, op);
	if (ret == -EFAULT) {
		struct zex_fault fault = {
			.addr = op->fault_addr,
			.reason = op->fault_reason,
		};

		/* A copy's ranges do not overlap: a fault in dst is a write's. */
		if (op->kind != ZEX_VM_OP_READ && op->fault_addr - op->dst < op->len)
			fault.flags = DRM_ZEX_FAULT_WRITE;
		zex_exec_queue_ban(job->queue, -EFAULT, &fault);
	}
	return ret;
}

/*
 * Write @len bytes (at most %DRM_ZEX_FILL_MAX_PATTERN) at a device VA as
 * the job's engine does: 0; -EFAULT (the queue banned with the fault),
 * -ECANCELED, or -ENOMEM.
 */
static int zex_job_write(struct zex_job *job, u64 va, const void *data, u32 len)
{
	struct zex_vm_op op = {
		.kind = ZEX_VM_OP_FILL,
		.dst = va,
		.len = len,
		.pattern = data,
		.pattern_size = len,
	};

	return zex_job_op(job, &op);
}

static int zex_job_store(struct zex_job *job, u64 va, u64 value)
{
	return zex_job_write(job, va, &value, sizeof(value));
}

/* A WAIT's comparison, read once as the engine reads: 1 true, 0 false, or the error. */
static int zex_job_wait_holds(struct zex_job *job, const struct drm_zex_command *cmd)
{
	struct zex_vm_op op = {
		.kind = ZEX_VM_OP_READ,
		.src = cmd->src,
		.len = sizeof(u64),
	};
	u64 value;
	int ret;

	op.buf = &value;
	ret = zex_job_op(job, &op);
	if (ret)
		return ret;
	return zex_compare(value, cmd->compare, cmd->value, cmd->mask);
}

/* WAIT: read until the comparison holds, again after each job's end or a poll period. */
static int zex_job_wait(struct zex_job *job, const struct drm_zex_command *cmd)
{
	struct zex_exec_device *xdev = job->queue->ring->xdev;

	for (;;) {
		s64 seen = atomic64_read(&xdev->done_seq);
		int ret = zex_job_wait_holds(job, cmd);

		if (ret)
			return ret > 0 ? 0 : ret;
		wait_event_timeout(xdev->done_wq,
				   atomic64_read(&xdev->done_seq) != seen ||
				   zex_exec_queue_is_banned(job->queue),
				   msecs_to_jiffies(ZEX_WAIT_POLL_MS));
		if (zex_exec_queue_is_banned(job->queue))
			return -ECANCELED;
	}
}

/*
 * WAIT on a long-running queue: read once; when false, stop (-EINPROGRESS)
 * with the context kicked by each job's end and a poll, as above.
 */
static int zex_job_wait_lr(struct zex_job *job, const struct drm_zex_command *cmd)
{
	int ret;

	zex_lr_wait_arm(job->queue->lr);
	ret = zex_job_wait_holds(job, cmd);
	if (ret < 0)
		return ret;
	if (!ret)
		return -EINPROGRESS;
	zex_lr_wait_disarm(job->queue->lr);
	return 0;
}

/*
 * LAUNCH: publish the launch (its record, the number last, then a wake-up)
 * and stop; when kicked again, go on once every tile has reported it.
 */
static int zex_job_launch(struct zex_job *job, const struct drm_zex_command *cmd)
{
	struct zex_lr *lr = job->queue->lr;
	struct drm_zex_launch_record rec;
	int ret = zex_launch_begin(lr, cmd, &rec);

	if (ret != 1)
		return ret;
	ret = zex_job_write(job, cmd->dst + offsetof(typeof(rec), cookie), &rec.cookie,
			    sizeof(rec) - offsetof(typeof(rec), cookie));
	if (!ret) {
		smp_wmb(); /* the record before its number */
		ret = zex_job_write(job, cmd->dst, &rec.seqno, sizeof(rec.seqno));
	}
	if (ret) {
		zex_launch_abort(lr);
		return ret;
	}
	zex_exec_queue_signal_done(job->queue);
	return -EINPROGRESS;
}

/**
 * struct zex_runs - the runs of one command, by tile
 * @runs: offset, length and tile of each run (merged when neighbours).
 * @count: runs in @runs.
 * @max: room in @runs.
 */
struct zex_runs {
	struct zex_split_run {
		u64 offset;
		u64 len;
		u32 tile;
	} *runs;
	u32 count;
	u32 max;
};

static int zex_runs_emit(void *ctx, u64 offset, u64 len, u32 tile)
{
	struct zex_runs *r = ctx;
	struct zex_split_run *last = r->count ? &r->runs[r->count - 1] : NULL;

	if (last && last->tile == tile && last->offset + last->len == offset) {
		last->len += len;
		return 0;
	}
	if (r->count == r->max) {
		u32 max = r->max ? r->max * 2 : 16;
		struct zex_split_run *runs;

		runs = zex_engine_alloc_fails() ? NULL :
		       kvmalloc_array(max, sizeof(*runs), ZEX_GFP_USER);
		if (!runs)
			return -ENOMEM;
		if (r->count)
			memcpy(runs, r->runs, r->count * sizeof(*runs));
		kvfree(r->runs);
		r->runs = runs;
		r->max = max;
	}
	r->runs[r->count++] = (struct zex_split_run){ offset, len, tile };
	return 0;
}

/**
 * struct zex_split_walk - cutting one command's destination by tile
 * @runs: where the runs go.
 * @dst: the destination's first byte.
 * @covered: bytes of the destination cut so far.
 * @tile_mask: the ring's tiles.
 */
struct zex_split_walk {
	struct zex_runs *runs;
	u64 dst;
	u64 covered;
	u16 tile_mask;
};

static u32 zex_piece_tile(struct zex_piece *piece)
{
	return piece->tile ? piece->tile->id : 0;
}

static int zex_split_walk_bo(struct zex_bo *bo, u64 va, u64 offset, u64 len, bool writable,
			     void *ctx)
{
	struct zex_split_walk *w = ctx;
	struct zex_split_piece *pieces;
	struct zex_split_layout layout = {
		.num_pieces = bo->num_pieces,
		.interleaved = bo->interleaved,
		.granularity = bo->granularity,
	};
	u64 start = va - w->dst;
	u32 i;
	int ret = 0;

	/* Host memory (or nothing) before this object's part. */
	if (start > w->covered)
		ret = zex_split_even(w->covered, start - w->covered, w->tile_mask,
				     zex_runs_emit, w->runs);
	if (ret)
		return ret;
	pieces = zex_engine_alloc_fails() ? NULL :
		 kvmalloc_array(bo->num_pieces, sizeof(*pieces), ZEX_GFP_USER);
	if (!pieces)
		return -ENOMEM;
	for (i = 0; i < bo->num_pieces; i++) {
		pieces[i].offset = bo->pieces[i].offset;
		pieces[i].size = bo->pieces[i].piece->base.base.size;
		pieces[i].tile = zex_piece_tile(bo->pieces[i].piece);
	}
	layout.pieces = pieces;
	ret = zex_split_bo(&layout, offset, len, start, zex_runs_emit, w->runs);
	kvfree(pieces);
	w->covered = start + len;
	return ret;
}

/*
 * Cut [dst, dst + len) by tile: pieces of buffer objects by their tile,
 * anything else (host memory, or nothing: it will fault) evenly.
 */
static int zex_split_command(struct zex_job *job, u64 dst, u64 len, struct zex_runs *runs)
{
	struct zex_split_walk w = {
		.runs = runs,
		.dst = dst,
		.tile_mask = job->queue->ring->tile_mask,
	};
	int ret;

	runs->count = 0;
	ret = zex_vm_walk_bos(job->queue->vm, dst, len, zex_split_walk_bo, &w);
	if (!ret && w.covered < len)
		ret = zex_split_even(w.covered, len - w.covered, w.tile_mask, zex_runs_emit, runs);
	return ret;
}

/**
 * struct zex_part - one tile's share of a split command
 * @work: runs on the tiles' workqueue.
 * @job: the job.
 * @cmd: the command.
 * @runs: every run of the command.
 * @tile: the tile whose runs this part moves.
 * @ret: its result.
 * @done: completed when the part has run.
 */
struct zex_part {
	struct work_struct work;
	struct zex_job *job;
	const struct drm_zex_command *cmd;
	const struct zex_runs *runs;
	u32 tile;
	int ret;
	struct completion done;
};

static int zex_job_range_op(struct zex_job *job, const struct drm_zex_command *cmd, u64 offset,
			    u64 len)
{
	struct zex_vm_op op = {
		.kind = cmd->op == DRM_ZEX_CMD_COPY ? ZEX_VM_OP_COPY : ZEX_VM_OP_FILL,
		.dst = cmd->dst + offset,
		.src = cmd->op == DRM_ZEX_CMD_COPY ? cmd->src + offset : 0,
		.len = len,
		.pattern = cmd->pattern,
		.pattern_size = cmd->pattern_size,
		.pattern_phase = offset,
	};

	return zex_job_op(job, &op);
}

static void zex_part_work(struct work_struct *work)
{
	struct zex_part *part = container_of(work, struct zex_part, work);
	struct mem_cgroup *old = set_active_memcg(part->job->memcg);
	u32 i;

	part->ret = 0;
	for (i = 0; i < part->runs->count && !part->ret; i++) {
		const struct zex_split_run *run = &part->runs->runs[i];

		if (run->tile == part->tile)
			part->ret = zex_job_range_op(part->job, part->cmd, run->offset, run->len);
	}
	set_active_memcg(old);
	complete(&part->done);
}

/* A copy or fill on a ring of several tiles: each tile's runs at once. */
static int zex_job_split(struct zex_job *job, const struct drm_zex_command *cmd,
			 struct zex_runs *runs)
{
	struct zex_ring *ring = job->queue->ring;
	unsigned long mask = ring->tile_mask, tile;
	struct zex_part *parts;
	u32 n = 0, i;
	int ret;

	ret = zex_split_command(job, cmd->dst, cmd->len, runs);
	if (ret)
		return ret;
	parts = zex_engine_alloc_fails() ? NULL :
		kcalloc(hweight_long(mask), sizeof(*parts), ZEX_GFP_USER);
	if (!parts)
		return -ENOMEM;
	for_each_set_bit(tile, &mask, BITS_PER_LONG) {
		struct zex_part *part = &parts[n++];

		part->job = job;
		part->cmd = cmd;
		part->runs = runs;
		part->tile = tile;
		init_completion(&part->done);
		INIT_WORK(&part->work, zex_part_work);
		queue_work(ring->xdev->tiles_wq, &part->work);
	}
	ret = 0;
	for (i = 0; i < n; i++) {
		wait_for_completion(&parts[i].done);
		if (!ret)
			ret = parts[i].ret;
	}
	kfree(parts);
	return ret;
}

static int zex_job_command(struct zex_job *job, const struct drm_zex_command *cmd,
			   struct zex_runs *runs)
{
	int ret;

	switch (cmd->op) {
	case DRM_ZEX_CMD_COPY:
	case DRM_ZEX_CMD_FILL:
		if (hweight16(job->queue->ring->tile_mask) > 1)
			return zex_job_split(job, cmd, runs);
		return zex_job_range_op(job, cmd, 0, cmd->len);
	case DRM_ZEX_CMD_STORE:
		ret = zex_job_store(job, cmd->dst, cmd->value);
		/* What a GPU's store with an interrupt does: waiters read again. */
		if (!ret)
			zex_exec_queue_signal_done(job->queue);
		return ret;
	case DRM_ZEX_CMD_TIMESTAMP:
		return zex_job_store(job, cmd->dst, ktime_get_ns());
	case DRM_ZEX_CMD_WAIT:
		if (job->queue->lr)
			return zex_job_wait_lr(job, cmd);
		return zex_job_wait(job, cmd);
	case DRM_ZEX_CMD_LAUNCH:
		/* Only long-running queues take it (the exec ioctl checks). */
		return zex_job_launch(job, cmd);
	}
	return -EINVAL;
}

/**
 * zex_job_execute - run a job's commands from &zex_job.pc, then its user fences
 * @job: the job.
 * @quick: stop (-EAGAIN) before a copy or a fill.
 *
 * Return: 0 when the job has run; -EINPROGRESS when a long-running job
 * waits, -EAGAIN when @quick stopped it (call again: it goes on where it
 * stopped); the error that ended it.
 */
int zex_job_execute(struct zex_job *job, bool quick)
{
	struct zex_runs runs = {};
	int ret = 0;
	u32 i;

	while (job->pc < job->num_commands) {
		u16 op = job->commands[job->pc].op;

		if (quick && (op == DRM_ZEX_CMD_COPY || op == DRM_ZEX_CMD_FILL)) {
			ret = -EAGAIN;
			break;
		}
		ret = zex_job_command(job, &job->commands[job->pc], &runs);
		if (ret)
			break;
		job->pc++;
	}
	/*
	 * Its commands have run: its time is counted before a user fence says
	 * so, as it is before its out-fences signal (zex_job_end()).
	 */
	if (!ret)
		zex_job_account(job);
	for (i = 0; i < job->num_user_fences && !ret; i++)
		ret = zex_job_store(job, job->user_fences[i].addr, job->user_fences[i].value);
	kvfree(runs.runs);
	return ret;
}

/**
 * zex_job_end - what a job's end does to its queue
 * @job: the job, run.
 * @ret: what zex_job_execute() returned (not -EINPROGRESS), or
 *	-ECANCELED for a job that did not run.
 *
 * A failure bans the queue (a fault banned it already); a job stopped by
 * a ban ends with the ban's error. The job is counted as completed and
 * its time added to its ring's and its file's (zex_usage.c), unless
 * zex_job_execute() added it already.
 *
 * Return: the job's error, 0 when it ended well.
 */
int zex_job_end(struct zex_job *job, int ret)
{
	struct zex_exec_queue *q = job->queue;

	if (ret && ret != -ECANCELED)
		zex_exec_queue_ban(q, ret, NULL);
	/* Stopped because the queue was banned: end with what banned it. */
	if (ret == -ECANCELED)
		ret = zex_exec_queue_error(q);
	if (ret)
		drm_dbg(q->ring->xdev->drm, "%s: job %llu of queue %u ended with %d\n",
			q->ring->name, job->seqno, q->id, ret);
	zex_job_account(job);
	atomic64_inc(&q->jobs_completed);
	return ret;
}

/**
 * zex_job_run - the ring's work item: run one job, then signal its hardware fence
 * @work: &zex_job.work.
 */
void zex_job_run(struct work_struct *work)
{
	struct zex_job *job = container_of(work, struct zex_job, work);
	struct zex_exec_queue *q = job->queue;
	struct zex_exec_device *xdev = q->ring->xdev;
	struct mem_cgroup *old;
	int ret = -ECANCELED;

	if (!zex_exec_queue_is_banned(q)) {
		zex_job_started(job);
		old = set_active_memcg(job->memcg);
		ret = zex_job_execute(job, false);
		set_active_memcg(old);
	}
	/* Counted before the fence: whoever sees it signalled sees the count. */
	ret = zex_job_end(job, ret);
	if (ret) {
		dma_fence_set_error(&job->base.s_fence->finished, ret);
		dma_fence_set_error(job->hw_fence, ret);
	}
	/*
	 * Once the fence is signalled the scheduler may free the job, which
	 * drops the queue: neither is touched after it, so the queue's
	 * waiters wake first (what the job wrote is written). The device's
	 * state outlives this work item (its teardown drains the ring's
	 * workqueue).
	 */
	zex_exec_queue_wake(q);
	dma_fence_signal(job->hw_fence);
	zex_exec_signal_done(xdev);
}

/**
 * zex_job_alloc - a job for a queue, holding the device and the module
 * @drm: the device.
 * @q: the queue; the job takes over the caller's reference.
 *
 * Return: the job, charged to the caller's memory cgroup, as is what it
 * allocates as it runs; NULL without memory.
 */
struct zex_job *zex_job_alloc(struct drm_device *drm, struct zex_exec_queue *q)
{
	struct zex_job *job = kzalloc(sizeof(*job), ZEX_GFP_USER);

	if (!job)
		return NULL;
	kref_init(&job->refcount);
	INIT_LIST_HEAD(&job->lr_link);
	job->queue = q;
	job->memcg = get_mem_cgroup_from_mm(current->mm);
	zex_exec_hold(drm);
	return job;
}

/* Free a job and drop what it holds. */
static void zex_job_release(struct zex_job *job)
{
	struct drm_device *drm = job->queue->ring->xdev->drm;

	dma_fence_put(job->hw_fence);
	zex_exec_queue_put(job->queue);
	mem_cgroup_put(job->memcg);
	kvfree(job->commands);
	kfree(job->user_fences);
	kfree(job);
	zex_exec_release(drm);
}

static void zex_job_cleanup(struct work_struct *work)
{
	zex_job_release(container_of(work, struct zex_job, cleanup));
}

static void zex_job_last_put(struct kref *kref)
{
	struct zex_job *job = container_of(kref, struct zex_job, refcount);

	atomic_dec(&job->queue->in_flight);
	INIT_WORK(&job->cleanup, zex_job_cleanup);
	queue_work(zex_exec_cleanup_wq, &job->cleanup);
}

/**
 * zex_job_put - drop a reference to a job
 * @job: the job.
 *
 * After the last, its queue's count of jobs in flight drops at once; the
 * rest goes on zex_exec_cleanup_wq, since dropping the device may end the
 * scheduler that calls this.
 */
void zex_job_put(struct zex_job *job)
{
	kref_put(&job->refcount, zex_job_last_put);
}

static void zex_job_last_put_here(struct kref *kref)
{
	struct zex_job *job = container_of(kref, struct zex_job, refcount);

	atomic_dec(&job->queue->in_flight);
	zex_job_release(job);
}

/**
 * zex_job_put_held - drop a reference where the job's queue and device are held
 * @job: the job.
 *
 * For a caller in process context that holds a reference to the job's
 * queue and to its device (an ioctl, through its file): neither can go with
 * the job, so the last reference frees it here, without the cleanup work
 * item's thread switch.
 */
void zex_job_put_held(struct zex_job *job)
{
	kref_put(&job->refcount, zex_job_last_put_here);
}

/**
 * zex_job_free - the scheduler is done with a job (or it was never armed)
 * @job: the job, after drm_sched_job_init().
 */
void zex_job_free(struct zex_job *job)
{
	drm_sched_job_cleanup(&job->base);
	zex_job_put(job);
}
