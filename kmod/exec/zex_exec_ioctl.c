// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_exec_ioctl.c - DRM_IOCTL_ZEX_EXEC: one job, submitted
 *
 * In the order xe's exec ioctl follows: check every field, command and
 * sync; find the queue (-EIO when banned, -EBUSY when full); build
 * the job with its dependencies: the fences of the sync objects it waits
 * for, and implicit sync: every piece of a buffer object that a copy or
 * a fill touches (not the words of stores, timestamps, waits and user
 * fences: those order themselves), found through the address space's binds,
 * with the reservation locks of all of them held, gives the job the
 * fences it must wait for (writes wait for readers and writers, reads for
 * writers). Then, under the queue's submit lock, the ban is looked at
 * again (a kill bans under that lock: -EIO), the job is armed, its
 * scheduler fence added to each piece's reservation (as a write or a
 * read), and it is pushed; the sync objects to signal get the same fence.
 * Nothing can fail after the job is armed.
 *
 * A long-running queue's job (zex_lr.c) has no fence that signals in
 * bounded time, so it publishes none (one with nothing to wait for is not
 * even armed: it goes to its context from here): a sync object to signal is refused
 * (-EOPNOTSUPP, as xe refuses it in long-running mode) and its scheduler
 * fence goes into no reservation; it still waits for the fences it finds
 * there and for the sync objects it names. A launch on any other queue is
 * refused the same way.
 *
 * A job holds no reference to the buffer objects it touches: their pages
 * are the address space's bindings', which the job's hold on the address
 * space keeps.
 */

#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "../bo/zex_bo.h"
#include "../common/zex_compat.h"
#include "../common/zex_gfp.h"
#include "../device/zex_device.h"
#include "../tiles/zex_piece.h"
#include "../vm/zex_vm.h"
#include "zex_command.h"
#include "zex_exec.h"

/* The most buffer-object pieces one job may touch. */
#define ZEX_EXEC_MAX_OBJECTS	4096

/**
 * struct zex_exec_objects - the pieces a job touches, each once
 * @drm: for the log.
 * @index: piece -> its slot in @objs, plus one.
 * @objs: the pieces' GEM objects, referenced.
 * @writes: whether the job writes each.
 * @count: pieces in @objs.
 * @max: room in @objs and @writes (grown by doubling).
 */
struct zex_exec_objects {
	struct drm_device *drm;
	struct xarray index;
	struct drm_gem_object **objs;
	bool *writes;
	u32 count;
	u32 max;
};

/* Room for one more piece. */
static int zex_objects_grow(struct zex_exec_objects *o)
{
	u32 max = o->max ? o->max * 2 : 16;
	struct drm_gem_object **objs;
	bool *writes;

	objs = krealloc_array(o->objs, max, sizeof(*objs), ZEX_GFP_USER);
	if (!objs)
		return -ENOMEM;
	o->objs = objs;
	writes = krealloc_array(o->writes, max, sizeof(*writes), ZEX_GFP_USER);
	if (!writes)
		return -ENOMEM;
	o->writes = writes;
	o->max = max;
	return 0;
}

/**
 * struct zex_exec_signal - a sync object the job signals
 * @syncobj: the sync object, referenced.
 * @point: the timeline point, or 0 for a binary one.
 * @chain: the point's chain node, allocated before the job is armed.
 */
struct zex_exec_signal {
	struct drm_syncobj *syncobj;
	u64 point;
	struct dma_fence_chain *chain;
};

static int zex_objects_add(struct zex_exec_objects *o, struct drm_gem_object *obj, bool write)
{
	void *slot = xa_load(&o->index, (unsigned long)obj);
	int ret;

	if (slot) {
		o->writes[xa_to_value(slot) - 1] |= write;
		return 0;
	}
	if (zex_ioctl_check(o->drm, o->count >= ZEX_EXEC_MAX_OBJECTS))
		return -E2BIG;
	if (o->count == o->max) {
		ret = zex_objects_grow(o);
		if (ret)
			return ret;
	}
	ret = xa_err(xa_store(&o->index, (unsigned long)obj, xa_mk_value(o->count + 1),
			      ZEX_GFP_USER));
	if (ret)
		return ret;
	drm_gem_object_get(obj);
	o->objs[o->count] = obj;
	o->writes[o->count] = write;
	o->count++;
	return 0;
}

/**
 * struct zex_exec_walk - one range of a command, looking for pieces
 * @objects: where they go.
 * @write: the command writes the range.
 */
struct zex_exec_walk {
	struct zex_exec_objects *objects;
	bool write;
};

static int zex_exec_walk_bo(struct zex_bo *bo, u64 va, u64 offset, u64 len, bool writable,
			    void *ctx)
{
	struct zex_exec_walk *w = ctx;
	u32 i;

	for (i = 0; i < bo->num_pieces; i++) {
		struct zex_piece *piece = bo->pieces[i].piece;
		u64 start = bo->pieces[i].offset, size = piece->base.base.size;
		int ret;

		/* An interleaved object's every piece may hold any range's bytes. */
		if (!bo->interleaved && (offset >= start + size || offset + len <= start))
			continue;
		ret = zex_objects_add(w->objects, &piece->base.base, w->write);
		if (ret)
			return ret;
	}
	return 0;
}

static int zex_exec_range(struct zex_vm *vm, struct zex_exec_objects *o, u64 va, u64 len,
			  bool write)
{
	struct zex_exec_walk w = { .objects = o, .write = write };

	return zex_vm_walk_bos(vm, va, len, zex_exec_walk_bo, &w);
}

/*
 * Every piece the job's copies and fills touch. The words a job stores,
 * stamps, waits on or writes as a user fence are synchronisation, ordered
 * by those very words, as a GPU's semaphores are: in the reservation, a
 * job waiting on a word would hold a read fence that the job storing it
 * must wait for, and neither would run.
 */
static int zex_exec_collect(struct zex_job *job, struct zex_exec_objects *o)
{
	struct zex_vm *vm = job->queue->vm;
	u32 i;
	int ret = 0;

	for (i = 0; i < job->num_commands && !ret; i++) {
		const struct drm_zex_command *cmd = &job->commands[i];

		switch (cmd->op) {
		case DRM_ZEX_CMD_COPY:
			ret = zex_exec_range(vm, o, cmd->src, cmd->len, false);
			if (!ret)
				ret = zex_exec_range(vm, o, cmd->dst, cmd->len, true);
			break;
		case DRM_ZEX_CMD_FILL:
			ret = zex_exec_range(vm, o, cmd->dst, cmd->len, true);
			break;
		}
	}
	return ret;
}

static void zex_exec_objects_put(struct zex_exec_objects *o)
{
	u32 i;

	for (i = 0; i < o->count; i++)
		drm_gem_object_put(o->objs[i]);
	xa_destroy(&o->index);
	kfree(o->objs);
	kfree(o->writes);
}

/* Copy and check the commands; -EINVAL, -E2BIG, -EFAULT, -ENOMEM. */
static int zex_exec_commands(struct drm_device *drm, const struct drm_zex_exec *args,
			     struct zex_job *job)
{
	u32 i;

	job->commands = kvmalloc_array(args->num_commands, sizeof(*job->commands),
				       ZEX_GFP_USER);
	if (!job->commands)
		return -ENOMEM;
	job->num_commands = args->num_commands;
	if (copy_from_user(job->commands, u64_to_user_ptr(args->commands),
			   array_size(args->num_commands, sizeof(*job->commands))))
		return -EFAULT;
	for (i = 0; i < args->num_commands; i++) {
		const char *why;
		int ret = zex_command_check(&job->commands[i], &why);

		if (ret) {
			drm_dbg(drm, "exec check failed: command %u: %s\n", i, why);
			return ret;
		}
	}
	return 0;
}

/* Copy and check the syncs; -EINVAL, -EFAULT, -ENOMEM. */
static struct drm_zex_sync *zex_exec_syncs(struct drm_device *drm, const struct drm_zex_exec *args)
{
	struct drm_zex_sync *syncs;
	u32 i;

	if (!args->num_syncs)
		return NULL;
	syncs = kvmalloc_array(args->num_syncs, sizeof(*syncs), ZEX_GFP_USER);
	if (!syncs)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(syncs, u64_to_user_ptr(args->syncs),
			   array_size(args->num_syncs, sizeof(*syncs)))) {
		kvfree(syncs);
		return ERR_PTR(-EFAULT);
	}
	for (i = 0; i < args->num_syncs; i++) {
		const char *why;
		int ret = zex_sync_check(&syncs[i], &why);

		if (ret) {
			drm_dbg(drm, "exec check failed: sync %u: %s\n", i, why);
			kvfree(syncs);
			return ERR_PTR(ret);
		}
	}
	return syncs;
}

/*
 * The syncs, taken apart: in-fences become the job's dependencies, user
 * fences its list, out sync objects @signals (their chain nodes made now).
 */
static int zex_exec_prepare_syncs(struct drm_file *file, struct zex_job *job,
				  const struct drm_zex_sync *syncs, u32 num_syncs,
				  struct zex_exec_signal *signals, u32 *num_signals)
{
	struct drm_device *drm = file->minor->dev;
	u32 i, n = 0;
	int ret;

	for (i = 0; i < num_syncs; i++)
		if (syncs[i].type == DRM_ZEX_SYNC_USER_FENCE)
			n++;
	if (n) {
		job->user_fences = kcalloc(n, sizeof(*job->user_fences), ZEX_GFP_USER);
		if (!job->user_fences)
			return -ENOMEM;
	}
	*num_signals = 0;
	for (i = 0; i < num_syncs; i++) {
		const struct drm_zex_sync *s = &syncs[i];
		bool timeline = s->type == DRM_ZEX_SYNC_TIMELINE_SYNCOBJ;
		struct zex_exec_signal *sig;
		struct dma_fence *fence;

		if (s->type == DRM_ZEX_SYNC_USER_FENCE) {
			job->user_fences[job->num_user_fences++] =
				(struct zex_user_fence){ s->addr, s->timeline_value };
			continue;
		}
		if (!(s->flags & DRM_ZEX_SYNC_SIGNAL)) {
			ret = drm_syncobj_find_fence(file, s->handle, s->timeline_value, 0, &fence);
			if (ret) {
				drm_dbg(drm, "exec check failed: sync %u: no fence to wait for (%d)\n",
					i, ret);
				return ret == -EINVAL ? -ENOENT : ret;
			}
			ret = drm_sched_job_add_dependency(&job->base, fence);
			if (ret)
				return ret;
			continue;
		}
		sig = &signals[(*num_signals)++];
		sig->syncobj = drm_syncobj_find(file, s->handle);
		if (zex_ioctl_check(drm, !sig->syncobj))
			return -ENOENT;
		sig->point = timeline ? s->timeline_value : 0;
		if (timeline) {
			sig->chain = dma_fence_chain_alloc();
			if (!sig->chain)
				return -ENOMEM;
		}
	}
	return 0;
}

static void zex_exec_signals_put(struct zex_exec_signal *signals, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		dma_fence_chain_free(signals[i].chain);
		if (signals[i].syncobj)
			drm_syncobj_put(signals[i].syncobj);
	}
}

/* Lock every piece, make room for a fence, take the fences already there. */
static int zex_exec_lock_objects(struct zex_job *job, struct zex_exec_objects *o,
				 struct ww_acquire_ctx *ctx)
{
	u32 i;
	int ret;

	if (!o->count)
		return 0;
	ret = drm_gem_lock_reservations(o->objs, o->count, ctx);
	if (ret)
		return ret;
	for (i = 0; i < o->count; i++) {
		ret = dma_resv_reserve_fences(o->objs[i]->resv, 1);
		if (!ret)
			ret = drm_sched_job_add_implicit_dependencies(&job->base, o->objs[i],
								      o->writes[i]);
		if (ret) {
			drm_gem_unlock_reservations(o->objs, o->count, ctx);
			return ret;
		}
	}
	return 0;
}

/* A job that was never armed: undo what was added, give its slot back. */
static void zex_job_abort(struct zex_job *job, bool inited)
{
	if (inited)
		zex_job_free(job);
	else
		zex_job_put(job);
}

/* What the queue's mode does not take: -EOPNOTSUPP. */
static int zex_exec_mode_check(struct drm_device *drm, const struct zex_job *job,
			       const struct drm_zex_sync *syncs, u32 num_syncs)
{
	bool lr = job->queue->lr;
	u32 i;

	for (i = 0; i < job->num_commands; i++)
		if (zex_ioctl_check(drm, !lr && job->commands[i].op == DRM_ZEX_CMD_LAUNCH))
			return -EOPNOTSUPP;
	for (i = 0; i < num_syncs; i++)
		if (zex_ioctl_check(drm, lr && (syncs[i].flags & DRM_ZEX_SYNC_SIGNAL) &&
				    syncs[i].type != DRM_ZEX_SYNC_USER_FENCE))
			return -EOPNOTSUPP;
	return 0;
}

/*
 * Arm, publish the fence in every piece and sync object, push; -EIO, with
 * nothing done, when the queue was banned since the ioctl looked (a kill
 * bans it under the submit lock before its entity goes); 1 when a
 * long-running queue's context took the job without the scheduler, the
 * queue held once more for the caller.
 */
static int zex_exec_push(struct zex_job *job, struct zex_exec_objects *o,
			 struct zex_exec_signal *signals, u32 num_signals)
{
	struct zex_exec_queue *q = job->queue;
	struct dma_fence *done;
	u32 i;

	mutex_lock(&q->submit_lock);
	if (zex_ioctl_check(q->ring->xdev->drm, zex_exec_queue_is_banned(q))) {
		mutex_unlock(&q->submit_lock);
		return -EIO;
	}
	/*
	 * A long-running job with nothing to wait for goes to its context now;
	 * the caller runs it once it holds no lock (1), with this reference.
	 */
	if (q->lr && zex_lr_submit(job)) {
		kref_get(&q->refcount);
		mutex_unlock(&q->submit_lock);
		zex_job_free(job);
		return 1;
	}
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	job->seqno = done->seqno;
	/* A long-running job's end is no fence's: it publishes none. */
	for (i = 0; i < o->count && !q->lr; i++)
		dma_resv_add_fence(o->objs[i]->resv, done,
				   o->writes[i] ? DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&q->submit_lock);

	for (i = 0; i < num_signals; i++) {
		if (signals[i].chain) {
			drm_syncobj_add_point(signals[i].syncobj, signals[i].chain, done,
					      signals[i].point);
			signals[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(signals[i].syncobj, done);
		}
	}
	dma_fence_put(done);
	return 0;
}

static int zex_exec_args_check(struct drm_device *drm, const struct drm_zex_exec *args)
{
	if (zex_ioctl_check(drm, args->extensions) ||
	    zex_ioctl_check(drm, args->flags) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(drm, !args->num_commands) ||
	    zex_ioctl_check(drm, args->num_commands > DRM_ZEX_EXEC_MAX_COMMANDS) ||
	    zex_ioctl_check(drm, args->num_syncs > DRM_ZEX_EXEC_MAX_SYNCS))
		return -EINVAL;
	return 0;
}

int zex_exec_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_exec_file *xfile = to_zex_file(file)->exec;
	struct zex_exec_signal *signals = NULL;
	struct drm_zex_exec *args = data;
	struct zex_exec_objects objects = { .drm = drm };
	struct drm_zex_sync *syncs;
	struct ww_acquire_ctx ctx;
	struct zex_exec_queue *q;
	struct zex_job *job;
	u32 num_signals = 0;
	int ret;

	ret = zex_exec_args_check(drm, args);
	if (ret)
		return ret;
	syncs = zex_exec_syncs(drm, args);
	if (IS_ERR(syncs))
		return PTR_ERR(syncs);
	if (args->num_syncs) {
		signals = kcalloc(args->num_syncs, sizeof(*signals), ZEX_GFP_USER);
		if (!signals) {
			kvfree(syncs);
			return -ENOMEM;
		}
	}
	xa_init(&objects.index);

	q = zex_exec_queue_lookup(xfile, args->exec_queue_id);
	if (zex_ioctl_check(drm, !q)) {
		ret = -ENOENT;
		goto out_objects;
	}
	if (zex_ioctl_check(drm, zex_exec_queue_is_banned(q))) {
		zex_exec_queue_put(q);
		ret = -EIO;
		goto out_objects;
	}
	/* Room for one more job; the job, once made, gives it back. */
	if (zex_ioctl_check(drm, !atomic_add_unless(&q->in_flight, 1,
						    to_zex_device(drm)->exec_limits.max_jobs))) {
		zex_exec_queue_put(q);
		ret = -EBUSY;
		goto out_objects;
	}
	job = zex_job_alloc(drm, q);
	if (!job) {
		atomic_dec(&q->in_flight);
		zex_exec_queue_put(q);
		ret = -ENOMEM;
		goto out_objects;
	}
	ret = zex_exec_commands(drm, args, job);
	if (!ret)
		ret = zex_exec_mode_check(drm, job, syncs, args->num_syncs);
	if (ret) {
		zex_job_abort(job, false);
		goto out_objects;
	}
	ret = zex_drm_sched_job_init(&job->base, &q->entity, xfile);
	if (ret) {
		zex_job_abort(job, false);
		goto out_objects;
	}
	ret = zex_exec_prepare_syncs(file, job, syncs, args->num_syncs, signals, &num_signals);
	if (!ret)
		ret = zex_exec_collect(job, &objects);
	if (!ret)
		ret = zex_exec_lock_objects(job, &objects, &ctx);
	if (ret) {
		zex_job_abort(job, true);
		goto out_signals;
	}
	ret = zex_exec_push(job, &objects, signals, num_signals);
	if (objects.count)
		drm_gem_unlock_reservations(objects.objs, objects.count, &ctx);
	if (ret == 1) {
		/* Handed to its context: its quick steps run here. */
		zex_lr_run_now(q->lr, true);
		zex_exec_queue_put(q);
		ret = 0;
	} else if (ret) {
		zex_job_abort(job, true);
	}

out_signals:
	zex_exec_signals_put(signals, num_signals);
out_objects:
	zex_exec_objects_put(&objects);
	kfree(signals);
	kvfree(syncs);
	return ret;
}
