// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_ring.c - the engines: schedulers, hardware fences, the workers' queues
 *
 * Each engine is a DRM GPU scheduler and an ordered workqueue, the
 * engine's "hardware": run_job() hands the job to the workqueue
 * (zex_job_run()) and returns a new hardware fence, which the job signals
 * when it has run; a job of a banned queue is not run (it ends with the ban's
 * error, a job whose dependency failed with that error). Where the scheduler
 * is a workqueue (6.12) it is given the engine's: the job then runs right
 * after run_job() on the same worker, one thread switch less per job, and
 * the next run_job() waits for the engine as it would for a busy ring.
 *
 * The timeout handler bans the job's queue with -ETIME, which stops the
 * job at its next page or poll, and puts the job back on the scheduler's
 * pending list, as xe does: the scheduler is never stopped (stopping it
 * would end the jobs behind, which run as before, with -ECANCELED).
 *
 * A compute engine's ring has a second scheduler, for long-running
 * queues: no timeout, and its run_job hands the job to the queue's
 * context (zex_lr.c) and returns no fence, so its jobs never occupy the
 * engine's worker.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "../common/zex_compat.h"
#include "../common/zex_fault_inject.h"
#include "../device/zex_topology.h"
#include "../tiles/zex_tile.h"
#include "zex_exec.h"

/* The engines of a tile, rings in this order: compute ones, then copy ones. */
#define ZEX_RINGS_PER_TILE	(ZEX_TILE_COMPUTE_ENGINES + ZEX_TILE_COPY_ENGINES)
/*
 * Jobs a ring holds at once (the scheduler's credits): one, the job the
 * engine runs. The others wait in the scheduler, which gives the engine,
 * once free, a ready job of the highest priority that has one.
 */
#define ZEX_RING_DEPTH		1
/*
 * Long-running jobs the second scheduler hands over at once: each leaves
 * it as soon as it is handed over.
 */
#define ZEX_RING_LR_DEPTH	16

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
	struct drm_device *drm = f->ring->xdev->drm;

	dma_fence_free(&f->base);
	zex_exec_release(drm);
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
	struct zex_hw_fence *f = zex_engine_alloc_fails() ? NULL : kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	f->ring = ring;
	zex_exec_hold(ring->xdev->drm);
	dma_fence_init(&f->base, &zex_hw_fence_ops, &ring->fence_lock, ring->fence_context,
		       ++ring->seqno);
	return &f->base;
}

static struct dma_fence *zex_ring_run_job(struct drm_sched_job *sched_job)
{
	struct zex_job *job = to_zex_job(sched_job);
	struct zex_ring *ring = container_of(sched_job->sched, struct zex_ring, sched);
	struct dma_fence *fence;
	int error = zex_exec_queue_error(job->queue) ?: sched_job->s_fence->finished.error;

	fence = error ? NULL : zex_hw_fence_create(ring);
	if (!fence) {
		/* The job ends here, with the ban's error (or its own). */
		atomic64_inc(&job->queue->jobs_completed);
		return ERR_PTR(error ?: -ENOMEM);
	}
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
	    zex_exec_queue_ban(job->queue, -ETIME, NULL))
		drm_dbg(ring->xdev->drm, "%s: job %llu of queue %u timed out\n",
			ring->name, job->hw_fence->seqno, job->queue->id);
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void zex_ring_free_job(struct drm_sched_job *sched_job)
{
	zex_job_free(to_zex_job(sched_job));
}

static const struct drm_sched_backend_ops zex_ring_ops = {
	.run_job = zex_ring_run_job,
	.timedout_job = zex_ring_timedout_job,
	.free_job = zex_ring_free_job,
};

static struct dma_fence *zex_ring_lr_run_job(struct drm_sched_job *sched_job)
{
	return zex_lr_run_job(to_zex_job(sched_job));
}

/* Never called: the scheduler of long-running queues has no timeout. */
static enum drm_gpu_sched_stat zex_ring_lr_timedout_job(struct drm_sched_job *sched_job)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static const struct drm_sched_backend_ops zex_ring_lr_ops = {
	.run_job = zex_ring_lr_run_job,
	.timedout_job = zex_ring_lr_timedout_job,
	.free_job = zex_ring_free_job,
};

/* A compute ring's scheduler of long-running queues, "<ring>-lr". */
static int zex_ring_init_lr(struct zex_exec_device *xdev, struct zex_ring *ring)
{
	struct drm_sched_init_args args = {
		.ops = &zex_ring_lr_ops,
		.credit_limit = ZEX_RING_LR_DEPTH,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = ring->lr_name,
		.dev = xdev->drm->dev,
	};
	int ret;

	snprintf(ring->lr_name, sizeof(ring->lr_name), "%s-lr", ring->name);
	/* Its own submission work (6.12): never behind the engine's running job. */
	zex_drm_sched_init_args(&args, NULL);
	ret = drm_sched_init(&ring->lr_sched, &args);
	ring->has_lr = !ret;
	return ret;
}

static int zex_ring_init(struct zex_exec_device *xdev, struct zex_ring *ring, long timeout,
			 const char *device, const char *class, u32 instance, u16 tile_mask)
{
	struct drm_sched_init_args args = {
		.ops = &zex_ring_ops,
		.credit_limit = ZEX_RING_DEPTH,
		.timeout = timeout,
		.name = ring->name,
		.dev = xdev->drm->dev,
	};
	int ret;

	ring->xdev = xdev;
	ring->tile_mask = tile_mask;
	ring->engine_class = strcmp(class, "ccs") ? DRM_ZEX_ENGINE_CLASS_COPY :
						    DRM_ZEX_ENGINE_CLASS_COMPUTE;
	spin_lock_init(&ring->fence_lock);
	ring->fence_context = dma_fence_context_alloc(1);
	snprintf(ring->name, sizeof(ring->name), "zex-%s-%s%u", device, class, instance);
	/* In the fence signalling path: it must make progress under reclaim. */
	ring->hw = alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, ring->name);
	if (!ring->hw)
		return -ENOMEM;
	zex_drm_sched_init_args(&args, ring->hw);
	ret = drm_sched_init(&ring->sched, &args);
	if (ret) {
		destroy_workqueue(ring->hw);
		ring->hw = NULL;
		return ret;
	}
	/* Compute engines run long-running queues too. */
	if (!strcmp(class, "ccs"))
		ret = zex_ring_init_lr(xdev, ring);
	return ret;
}

static void zex_ring_fini(struct zex_ring *ring)
{
	if (!ring->hw)
		return;
	if (ring->has_lr)
		drm_sched_fini(&ring->lr_sched);
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
	kfree(xdev->groups);
	kfree(xdev);
}

/**
 * zex_exec_device_create - the rings of every engine of a device
 * @drm: the device; the rings go with it (a managed action).
 * @topo: its topology.
 * @job_timeout_ms: the scheduler's timeout.
 *
 * Return: the execution state, or an ERR_PTR().
 */
struct zex_exec_device *zex_exec_device_create(struct drm_device *drm,
					       const struct zex_topology *topo, u32 job_timeout_ms)
{
	struct zex_exec_device *xdev = kzalloc(sizeof(*xdev), GFP_KERNEL);
	long timeout = msecs_to_jiffies(job_timeout_ms);
	u32 tile, i;
	int ret;

	if (!xdev)
		return ERR_PTR(-ENOMEM);
	xdev->drm = drm;
	xdev->num_tiles = topo->num_tiles;
	init_waitqueue_head(&xdev->done_wq);
	ret = drmm_add_action_or_reset(drm, zex_exec_device_fini, xdev);
	if (ret)
		return ERR_PTR(ret);

	xdev->tiles_wq = alloc_workqueue("zex-tiles", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	xdev->tile_rings = kcalloc(topo->num_tiles * ZEX_RINGS_PER_TILE,
				   sizeof(*xdev->tile_rings), GFP_KERNEL);
	xdev->groups = kcalloc((topo->num_tiles + 1) * ZEX_ENGINE_CLASSES, sizeof(*xdev->groups),
			       GFP_KERNEL);
	if (!xdev->tiles_wq || !xdev->tile_rings || !xdev->groups)
		return ERR_PTR(-ENOMEM);
	for (tile = 0; tile < topo->num_tiles; tile++) {
		char device[12];

		snprintf(device, sizeof(device), "t%u", tile);
		for (i = 0; i < ZEX_RINGS_PER_TILE; i++) {
			bool compute = i < ZEX_TILE_COMPUTE_ENGINES;

			ret = zex_ring_init(xdev, &xdev->tile_rings[xdev->num_rings], timeout,
					    device, compute ? "ccs" : "bcs",
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
		ret = zex_ring_init(xdev, xdev->root_ring, timeout, "root", "ccs", 0,
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

