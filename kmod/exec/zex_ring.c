// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_ring.c - the engines: schedulers, hardware fences, the workers that run jobs
 *
 * run_job() hands a job to its ring's ordered workqueue and returns a new
 * hardware fence; the work item runs the job's commands in order through
 * vm/'s engine operations, then its user fences, sets the fence's error
 * (and the scheduler fence's, which 6.1 does not copy) and signals it. A
 * job of a banned queue is not run: run_job() returns -ECANCELED.
 *
 * A fault ends the job with -EFAULT and bans its queue with the fault's
 * address and reason. The timeout handler bans the queue with -ETIME; a
 * queue's ban is the cancel flag of its running job, which the worker
 * checks after every page and every poll of a wait: it signals the job's
 * fence with the ban's error, and the jobs behind it on the ring run as
 * before (those of the banned queue end at once, with the same error). The scheduler is never
 * stopped (stopping it would end the jobs behind with -ECANCELED).
 *
 * On a ring spanning several tiles, a copy or fill is cut into runs by the
 * tile that holds each destination byte (zex_split.c) under the address
 * space's lock; each tile's runs then go to one work item on the tiles'
 * workqueue, and the command ends when all have. Store, timestamp and
 * wait commands run on the ring's worker.
 */

#include <linux/completion.h>
#include <linux/dma-fence.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "../bo/zex_bo.h"
#include "../common/zex_compat.h"
#include "../device/zex_topology.h"
#include "../tiles/zex_piece.h"
#include "../tiles/zex_tile.h"
#include "../vm/zex_vm.h"
#include "zex_command.h"
#include "zex_exec.h"
#include "zex_split.h"

/* The engines of a tile, rings in this order: compute ones, then copy ones. */
#define ZEX_RINGS_PER_TILE	(ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES)
/* Jobs a ring holds at once (the scheduler's credits). */
#define ZEX_RING_DEPTH		64
/* How often a wait command reads its value when no job ends meanwhile. */
#define ZEX_WAIT_POLL_MS	1

/*
 * Frees jobs and hardware fences (for contexts that cannot: a fence's
 * release, the scheduler's own thread); drained at module unload, which
 * the references they hold delay until then.
 */
struct workqueue_struct *zex_exec_cleanup_wq;

/**
 * struct zex_hw_fence - a ring's fence: the job has run
 * @base: the fence.
 * @ring: the ring, for the timeline name.
 * @cleanup: releases the device and the module after the last reference.
 */
struct zex_hw_fence {
	struct dma_fence base;
	struct zex_ring *ring;
	struct work_struct cleanup;
};

static const char *zex_hw_fence_driver_name(struct dma_fence *f)
{
	return "zex";
}

static const char *zex_hw_fence_timeline_name(struct dma_fence *f)
{
	return container_of(f, struct zex_hw_fence, base)->ring->name;
}

static void zex_hw_fence_cleanup(struct work_struct *work)
{
	struct zex_hw_fence *f = container_of(work, struct zex_hw_fence, cleanup);

	drm_dev_put(f->ring->xdev->drm);
	dma_fence_free(&f->base);
	module_put(THIS_MODULE);
}

static void zex_hw_fence_release(struct dma_fence *f)
{
	struct zex_hw_fence *hw = container_of(f, struct zex_hw_fence, base);

	/* May be any context; dropping the device may sleep. */
	INIT_WORK(&hw->cleanup, zex_hw_fence_cleanup);
	queue_work(zex_exec_cleanup_wq, &hw->cleanup);
}

static const struct dma_fence_ops zex_hw_fence_ops = {
	.get_driver_name = zex_hw_fence_driver_name,
	.get_timeline_name = zex_hw_fence_timeline_name,
	.release = zex_hw_fence_release,
};

static struct dma_fence *zex_hw_fence_create(struct zex_ring *ring)
{
	struct zex_hw_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->ring = ring;
	__module_get(THIS_MODULE);
	drm_dev_get(ring->xdev->drm);
	dma_fence_init(&f->base, &zex_hw_fence_ops, &ring->fence_lock, ring->fence_context,
		       ++ring->seqno);
	return &f->base;
}

/**
 * zex_exec_signal_done - wake whoever waits for a job to end
 * @xdev: the device's execution state.
 */
void zex_exec_signal_done(struct zex_exec_device *xdev)
{
	atomic64_inc(&xdev->done_seq);
	wake_up_all(&xdev->done_wq);
}

/* One engine operation of a job; -ECANCELED when the job was stopped. */
static int zex_job_op(struct zex_job *job, struct zex_vm_op *op)
{
	int ret;

	op->cancel = &job->queue->banned;
	ret = zex_vm_execute(job->queue->vm, op);
	if (ret == -EFAULT)
		zex_exec_queue_ban(job->queue, -EFAULT, op->fault_reason, op->fault_addr);
	return ret;
}

static int zex_job_store(struct zex_job *job, u64 va, u64 value)
{
	struct zex_vm_op op = {
		.kind = ZEX_VM_OP_FILL,
		.dst = va,
		.len = sizeof(value),
		.pattern = (const u8 *)&value,
		.pattern_size = sizeof(value),
	};

	return zex_job_op(job, &op);
}

/* WAIT: read until the comparison holds, again after each job's end or a poll period. */
static int zex_job_wait(struct zex_job *job, const struct drm_zex_command *cmd)
{
	struct zex_exec_device *xdev = job->queue->ring->xdev;

	for (;;) {
		s64 seen = atomic64_read(&xdev->done_seq);
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
		if (zex_compare(value, cmd->compare, cmd->value, cmd->mask))
			return 0;
		wait_event_timeout(xdev->done_wq,
				   atomic64_read(&xdev->done_seq) != seen ||
				   zex_exec_queue_is_banned(job->queue),
				   msecs_to_jiffies(ZEX_WAIT_POLL_MS));
		if (zex_exec_queue_is_banned(job->queue))
			return -ECANCELED;
	}
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

		runs = kvmalloc_array(max, sizeof(*runs), GFP_KERNEL_ACCOUNT);
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
	pieces = kvmalloc_array(bo->num_pieces, sizeof(*pieces), GFP_KERNEL_ACCOUNT);
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
	ret = zex_vm_for_each_bo(job->queue->vm, dst, len, zex_split_walk_bo, &w);
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
		.len = len,
		.pattern = cmd->pattern,
		.pattern_size = cmd->pattern_size,
	};

	if (cmd->op == DRM_ZEX_CMD_COPY) {
		op.src = cmd->src + offset;
	} else {
		/* The pattern's phase follows the destination from its start. */
		u64 phase = offset;
		u8 rotated[DRM_ZEX_FILL_MAX_PATTERN];
		u32 i, k = do_div(phase, cmd->pattern_size);

		for (i = 0; i < cmd->pattern_size; i++)
			rotated[i] = cmd->pattern[(k + i) % cmd->pattern_size];
		op.pattern = rotated;
		return zex_job_op(job, &op);
	}
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
	parts = kcalloc(hweight_long(mask), sizeof(*parts), GFP_KERNEL_ACCOUNT);
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
	switch (cmd->op) {
	case DRM_ZEX_CMD_COPY:
	case DRM_ZEX_CMD_FILL:
		if (hweight16(job->queue->ring->tile_mask) > 1)
			return zex_job_split(job, cmd, runs);
		return zex_job_range_op(job, cmd, 0, cmd->len);
	case DRM_ZEX_CMD_STORE:
		return zex_job_store(job, cmd->dst, cmd->value);
	case DRM_ZEX_CMD_TIMESTAMP:
		return zex_job_store(job, cmd->dst, ktime_get_ns());
	case DRM_ZEX_CMD_WAIT:
		return zex_job_wait(job, cmd);
	}
	return -EINVAL;
}

static int zex_job_execute(struct zex_job *job)
{
	struct zex_runs runs = {};
	u32 i;
	int ret = 0;

	for (i = 0; i < job->num_commands && !ret; i++)
		ret = zex_job_command(job, &job->commands[i], &runs);
	for (i = 0; i < job->num_user_fences && !ret; i++)
		ret = zex_job_store(job, job->user_fences[i].addr, job->user_fences[i].value);
	kvfree(runs.runs);
	return ret;
}

/* The ring's worker: run one job, then signal its hardware fence. */
static void zex_job_run(struct work_struct *work)
{
	struct zex_job *job = container_of(work, struct zex_job, work);
	struct zex_exec_queue *q = job->queue;
	struct mem_cgroup *old;
	int ret = -ECANCELED;

	if (!zex_exec_queue_is_banned(q)) {
		old = set_active_memcg(job->memcg);
		ret = zex_job_execute(job);
		set_active_memcg(old);
	}
	if (ret && ret != -ECANCELED)
		zex_exec_queue_ban(q, ret, DRM_ZEX_FAULT_NONE, 0);
	/* Stopped because the queue was banned: end with what banned it. */
	if (ret == -ECANCELED)
		ret = zex_exec_queue_error(q);
	if (ret) {
		drm_dbg(q->ring->xdev->drm, "%s: job %llu of queue %u ended with %d\n",
			q->ring->name, job->hw_fence->seqno, q->id, ret);
		dma_fence_set_error(&job->base.s_fence->finished, ret);
		dma_fence_set_error(job->hw_fence, ret);
	}
	dma_fence_signal(job->hw_fence);
	zex_exec_signal_done(q->ring->xdev);
}

static struct dma_fence *zex_ring_run_job(struct drm_sched_job *sched_job)
{
	struct zex_job *job = to_zex_job(sched_job);
	struct zex_ring *ring = container_of(sched_job->sched, struct zex_ring, sched);
	struct dma_fence *fence;

	if (zex_exec_queue_is_banned(job->queue))
		return ERR_PTR(-ECANCELED);
	if (sched_job->s_fence->finished.error)
		return ERR_PTR(sched_job->s_fence->finished.error);
	fence = zex_hw_fence_create(ring);
	if (!fence)
		return ERR_PTR(-ENOMEM);
	job->hw_fence = dma_fence_get(fence);
	INIT_WORK(&job->work, zex_job_run);
	queue_work(ring->hw, &job->work);
	/* The scheduler takes over the reference dma_fence_init() made. */
	return fence;
}

/*
 * The scheduler took @sched_job off its pending list to hand it here; it
 * goes back there (as xe does), and the job ends when the worker, told to
 * stop, signals its fence. A job that ended meanwhile is left as it is.
 */
static enum drm_gpu_sched_stat zex_ring_timedout_job(struct drm_sched_job *sched_job)
{
	struct zex_job *job = to_zex_job(sched_job);
	struct drm_gpu_scheduler *sched = sched_job->sched;
	struct zex_ring *ring = container_of(sched, struct zex_ring, sched);

	/* Banning the queue stops its running job (zex_vm_execute()'s cancel flag). */
	if (job->hw_fence && !dma_fence_is_signaled(job->hw_fence) &&
	    zex_exec_queue_ban(job->queue, -ETIME, DRM_ZEX_FAULT_NONE, 0))
		drm_dbg(ring->xdev->drm, "%s: job %llu of queue %u timed out\n",
			ring->name, job->hw_fence->seqno, job->queue->id);
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void zex_job_cleanup(struct work_struct *work)
{
	struct zex_job *job = container_of(work, struct zex_job, cleanup);
	struct drm_device *drm = job->queue->ring->xdev->drm;

	dma_fence_put(job->hw_fence);
	zex_exec_queue_put(job->queue);
	mem_cgroup_put(job->memcg);
	kvfree(job->commands);
	kfree(job->user_fences);
	kfree(job);
	drm_dev_put(drm);
	module_put(THIS_MODULE);
}

static void zex_ring_free_job(struct drm_sched_job *sched_job)
{
	struct zex_job *job = to_zex_job(sched_job);
	struct zex_exec_queue *q = job->queue;

	drm_sched_job_cleanup(sched_job);
	atomic64_inc(&q->jobs_completed);
	atomic_dec(&q->in_flight);
	/* Dropping the device may end the scheduler that calls us. */
	INIT_WORK(&job->cleanup, zex_job_cleanup);
	queue_work(zex_exec_cleanup_wq, &job->cleanup);
}

static const struct drm_sched_backend_ops zex_ring_ops = {
	.run_job = zex_ring_run_job,
	.timedout_job = zex_ring_timedout_job,
	.free_job = zex_ring_free_job,
};

static int zex_ring_init(struct zex_exec_device *xdev, struct zex_ring *ring, const char *device,
			 const char *class, u32 instance, u16 tile_mask)
{
	struct drm_sched_init_args args = {
		.ops = &zex_ring_ops,
		.credit_limit = ZEX_RING_DEPTH,
		.timeout = msecs_to_jiffies(xdev->limits.job_timeout_ms),
		.name = ring->name,
		.dev = xdev->drm->dev,
	};
	int ret;

	ring->xdev = xdev;
	ring->tile_mask = tile_mask;
	spin_lock_init(&ring->fence_lock);
	ring->fence_context = dma_fence_context_alloc(1);
	snprintf(ring->name, sizeof(ring->name), "zex-%s-%s%u", device, class, instance);
	ring->hw = alloc_ordered_workqueue("%s", 0, ring->name);
	if (!ring->hw)
		return -ENOMEM;
	zex_drm_sched_init_args(&args);
	ret = drm_sched_init(&ring->sched, &args);
	if (ret) {
		destroy_workqueue(ring->hw);
		ring->hw = NULL;
	}
	return ret;
}

static void zex_ring_fini(struct zex_ring *ring)
{
	if (!ring->hw)
		return;
	drm_sched_fini(&ring->sched);
	destroy_workqueue(ring->hw);
}

static void zex_exec_device_fini(struct drm_device *drm, void *data)
{
	struct zex_exec_device *xdev = data;
	u32 i;

	for (i = 0; i < xdev->num_rings; i++)
		zex_ring_fini(&xdev->tile_rings[i]);
	if (xdev->root_ring)
		zex_ring_fini(xdev->root_ring);
	if (xdev->tiles_wq)
		destroy_workqueue(xdev->tiles_wq);
	kfree(xdev->root_ring);
	kfree(xdev->tile_rings);
	kfree(xdev);
}

/**
 * zex_exec_device_create - the rings of every engine of a device
 * @drm: the device; the rings go with it (a managed action).
 * @topo: its topology.
 * @limits: the module parameters.
 *
 * Return: the execution state, or an ERR_PTR().
 */
struct zex_exec_device *zex_exec_device_create(struct drm_device *drm,
					       const struct zex_topology *topo,
					       const struct zex_exec_limits *limits)
{
	struct zex_exec_device *xdev = kzalloc(sizeof(*xdev), GFP_KERNEL);
	u32 tile, i;
	int ret;

	if (!xdev)
		return ERR_PTR(-ENOMEM);
	xdev->drm = drm;
	xdev->limits = *limits;
	xdev->num_tiles = topo->num_tiles;
	init_waitqueue_head(&xdev->done_wq);
	ret = drmm_add_action_or_reset(drm, zex_exec_device_fini, xdev);
	if (ret)
		return ERR_PTR(ret);

	xdev->tiles_wq = alloc_workqueue("zex-tiles", WQ_UNBOUND, 0);
	xdev->tile_rings = kcalloc(topo->num_tiles * ZEX_RINGS_PER_TILE,
				   sizeof(*xdev->tile_rings), GFP_KERNEL);
	if (!xdev->tiles_wq || !xdev->tile_rings)
		return ERR_PTR(-ENOMEM);
	for (tile = 0; tile < topo->num_tiles; tile++) {
		char device[12];

		snprintf(device, sizeof(device), "t%u", tile);
		for (i = 0; i < ZEX_RINGS_PER_TILE; i++) {
			bool compute = i < ZEX_TILE_COMPUTE_ENGINES;

			ret = zex_ring_init(xdev, &xdev->tile_rings[xdev->num_rings], device,
					    compute ? "ccs" : "bcs",
					    compute ? i : i - ZEX_TILE_COMPUTE_ENGINES, BIT(tile));
			if (ret)
				return ERR_PTR(ret);
			xdev->num_rings++;
		}
	}
	if (topo->implicit_scaling) {
		xdev->root_ring = kzalloc(sizeof(*xdev->root_ring), GFP_KERNEL);
		if (!xdev->root_ring)
			return ERR_PTR(-ENOMEM);
		ret = zex_ring_init(xdev, xdev->root_ring, "root", "ccs", 0,
				    GENMASK(topo->num_tiles - 1, 0));
		if (ret) {
			kfree(xdev->root_ring);
			xdev->root_ring = NULL;
			return ERR_PTR(ret);
		}
	}
	return xdev;
}

/**
 * zex_exec_ring_find - the ring of one engine of the model
 * @xdev: the device's execution state.
 * @topo: its topology.
 * @engine_class: the engine's class.
 * @engine_instance: its instance among @device's engines of the class.
 * @device: a tile, or %DRM_ZEX_DEVICE_ROOT.
 *
 * Return: the ring, or NULL when the model has no such engine.
 */
struct zex_ring *zex_exec_ring_find(struct zex_exec_device *xdev, const struct zex_topology *topo,
				    u16 engine_class, u16 engine_instance, u16 device)
{
	struct drm_zex_engine_info engines[1 + ZEX_RINGS_PER_TILE];
	u32 n, i, first;

	/* The root device's engines come first in the model. */
	n = min_t(u32, zex_topology_engines(topo, engines, ARRAY_SIZE(engines)),
		  ARRAY_SIZE(engines));
	for (i = 0; i < n && device == DRM_ZEX_DEVICE_ROOT; i++) {
		const struct drm_zex_engine_info *e = &engines[i];

		if (e->device != DRM_ZEX_DEVICE_ROOT)
			break;
		if (e->engine_class != engine_class || e->engine_instance != engine_instance)
			continue;
		if (hweight16(e->tile_mask) > 1)
			return xdev->root_ring;
		device = __ffs(e->tile_mask);
		break;
	}
	if (device >= topo->num_tiles)
		return NULL;
	switch (engine_class) {
	case DRM_ZEX_ENGINE_CLASS_COMPUTE:
		if (engine_instance >= ZEX_TILE_COMPUTE_ENGINES)
			return NULL;
		first = 0;
		break;
	case DRM_ZEX_ENGINE_CLASS_COPY:
		if (engine_instance >= ZEX_TILE_COPY_ENGINES)
			return NULL;
		first = ZEX_TILE_COMPUTE_ENGINES;
		break;
	default:
		return NULL;
	}
	return &xdev->tile_rings[device * ZEX_RINGS_PER_TILE + first + engine_instance];
}

/**
 * zex_exec_module_init - what execution needs before any device exists
 *
 * Return: 0 or -ENOMEM.
 */
int zex_exec_module_init(void)
{
	zex_exec_cleanup_wq = alloc_workqueue("zex-cleanup", WQ_UNBOUND, 0);
	return zex_exec_cleanup_wq ? 0 : -ENOMEM;
}

/** zex_exec_module_exit - drain and free what zex_exec_module_init() made */
void zex_exec_module_exit(void)
{
	destroy_workqueue(zex_exec_cleanup_wq);
}
