/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_exec.h - execution: engines, exec queues, jobs
 *
 * Each engine of the model (DRM_ZEX_QUERY_ENGINES) is a &struct zex_ring:
 * a DRM GPU scheduler (drm_sched) and the "hardware" it feeds, an ordered
 * workqueue that runs one job at a time, in order, walking the file's
 * page tables through vm/'s engine operations. A root-device engine that
 * spans tiles has a ring of its own whose copies and fills are split
 * between the tiles (zex_split.c) and run at once on the tile workers; a
 * root-device engine of one tile is that tile's engine. Each exec queue
 * (&struct zex_exec_queue) is a drm_sched_entity on one ring; each job
 * (&struct zex_job) a drm_sched_job whose hardware fence the ring signals.
 *
 * Lifetimes: a job holds its queue, its address space, the DRM device and
 * the module; a hardware fence holds the device and the module, so the
 * scheduler a fence names outlives it and no fence calls into an unloaded
 * module. What is freed from a fence's release or the scheduler's own
 * threads is freed on zex_exec_cleanup_wq, and a killed queue is torn down
 * on zex_exec_teardown_wq; the module drains both when it goes.
 */

#ifndef _ZEX_EXEC_H_
#define _ZEX_EXEC_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/gpu_scheduler.h>
#include <drm/zex_drm.h>

#include "../device/zex_device.h"

struct drm_device;
struct drm_file;
struct mem_cgroup;
struct zex_topology;
struct zex_vm;

/**
 * struct zex_ring - one engine: its scheduler and the worker that runs its jobs
 * @sched: the DRM GPU scheduler; its timeout handler stops a job.
 * @xdev: the device's execution state.
 * @hw: the engine itself: an ordered workqueue, one job at a time.
 * @fence_context: the hardware fences' context.
 * @seqno: the last hardware fence's number (the scheduler calls run_job
 *	from one thread at a time).
 * @fence_lock: the hardware fences' lock.
 * @tile_mask: the tiles it executes on.
 * @name: "zex-<device>-<class>-<instance>", the scheduler's and the
 *	fences' timeline name.
 */
struct zex_ring {
	struct drm_gpu_scheduler sched;
	struct zex_exec_device *xdev;
	struct workqueue_struct *hw;
	u64 fence_context;
	u64 seqno;
	spinlock_t fence_lock; /* the hardware fences' */
	u16 tile_mask;
	char name[32];
};

/**
 * struct zex_exec_device - a device's execution state
 * @drm: the device.
 * @num_tiles: tiles of the device.
 * @tile_rings: each tile's engines: tile * ZEX_RINGS_PER_TILE + class's
 *	first ring + instance.
 * @root_ring: the root device's engine spanning every tile, or NULL
 *	without implicit scaling.
 * @num_rings: rings in @tile_rings.
 * @tiles_wq: where a split copy's parts run, one work item per tile.
 * @done_wq: woken whenever a job ends or a queue is banned.
 * @done_seq: counts those events, so a waiter sees one it slept through.
 * @unplugged: the device is gone: every queue is banned with -ENODEV and
 *	user fence waits end with it.
 */
struct zex_exec_device {
	struct drm_device *drm;
	u32 num_tiles;
	struct zex_ring *tile_rings;
	struct zex_ring *root_ring;
	u32 num_rings;
	struct workqueue_struct *tiles_wq;
	wait_queue_head_t done_wq;
	atomic64_t done_seq;
	bool unplugged;
};

/**
 * struct zex_exec_queue - an exec queue: a scheduler entity on one ring
 * @refcount: the file's table holds one reference, each job one.
 * @entity: the scheduler entity.
 * @ring: the ring.
 * @vm: the file's address space, held.
 * @id: its id in the file.
 * @submit_lock: arming and pushing a job happen under it, so the
 *	scheduler sees jobs in the order their fences were numbered, and
 *	only while the queue is not banned: a queue is killed (destroyed, or
 *	its file closed) by banning it under this lock, after which no job
 *	reaches its entity.
 * @in_flight: jobs submitted and not yet freed.
 * @state_lock: protects @banned, @error, @fault_reason, @fault_addr.
 * @banned: a job faulted or timed out, or the queue was destroyed: no
 *	more jobs, and the running one stops (the engine operations'
 *	cancel flag).
 * @error: what banned it.
 * @fault_reason: a fault's &enum drm_zex_fault_reason.
 * @fault_addr: a fault's address.
 * @jobs_completed: jobs of the queue that have ended, counted before
 *	their fences signal.
 * @teardown: a killed queue's entity is drained and destroyed by it.
 */
struct zex_exec_queue {
	struct kref refcount;
	struct drm_sched_entity entity;
	struct zex_ring *ring;
	struct zex_vm *vm;
	u32 id;
	struct mutex submit_lock; /* arm and push in order */
	atomic_t in_flight;
	spinlock_t state_lock; /* the ban state */
	bool banned;
	int error;
	u32 fault_reason;
	u64 fault_addr;
	atomic64_t jobs_completed;
	struct work_struct teardown;
};

/**
 * struct zex_user_fence - a user fence a job writes when it ends well
 * @addr: the device VA.
 * @value: the value.
 */
struct zex_user_fence {
	u64 addr;
	u64 value;
};

/**
 * struct zex_job - one submission: a scheduler job and its commands
 * @base: the scheduler job.
 * @queue: its queue, held.
 * @hw_fence: the fence the ring signals when the job has run; NULL
 *	before run_job.
 * @work: the ring's work item that runs it.
 * @cleanup: frees it, on zex_exec_cleanup_wq.
 * @memcg: the submitter's memory cgroup: what the job allocates as it
 *	runs is charged there.
 * @num_commands: commands in @commands.
 * @commands: the commands, checked.
 * @num_user_fences: user fences in @user_fences.
 * @user_fences: written when the job ends without error.
 */
struct zex_job {
	struct drm_sched_job base;
	struct zex_exec_queue *queue;
	struct dma_fence *hw_fence;
	struct work_struct work;
	struct work_struct cleanup;
	struct mem_cgroup *memcg;
	u32 num_commands;
	struct drm_zex_command *commands;
	u32 num_user_fences;
	struct zex_user_fence *user_fences;
};

static inline struct zex_job *to_zex_job(struct drm_sched_job *job)
{
	return container_of(job, struct zex_job, base);
}

/**
 * struct zex_exec_file - a file's exec queues
 * @lock: serialises creating and destroying queues.
 * @queues: the queues by id (ids start at 1).
 * @count: queues in @queues.
 */
struct zex_exec_file {
	struct mutex lock; /* create and destroy */
	struct xarray queues;
	u32 count;
};

extern struct workqueue_struct *zex_exec_cleanup_wq;
extern struct workqueue_struct *zex_exec_teardown_wq;

/* zex_exec_state.c */
void zex_exec_hold(struct drm_device *drm);
void zex_exec_release(struct drm_device *drm);
int zex_exec_module_init(void);
void zex_exec_module_exit(void);
void zex_exec_signal_done(struct zex_exec_device *xdev);
void zex_exec_device_unplug(struct zex_exec_device *xdev);
void zex_exec_queue_put(struct zex_exec_queue *q);
bool zex_exec_queue_ban(struct zex_exec_queue *q, int error, u32 fault_reason, u64 fault_addr);
bool zex_exec_queue_is_banned(struct zex_exec_queue *q);
int zex_exec_queue_error(struct zex_exec_queue *q);

/* zex_job.c */
struct zex_job *zex_job_alloc(struct drm_device *drm, struct zex_exec_queue *q);
void zex_job_run(struct work_struct *work);
void zex_job_free(struct zex_job *job);
void zex_job_release(struct zex_job *job);

/* zex_ring.c */
struct zex_exec_device *zex_exec_device_create(struct drm_device *drm,
					       const struct zex_topology *topo, u32 job_timeout_ms);
struct zex_ring *zex_exec_ring_find(struct zex_exec_device *xdev, const struct zex_topology *topo,
				    u16 engine_class, u16 engine_instance, u16 device);

/* zex_exec_queue.c */
struct zex_exec_file *zex_exec_file_open(void);
void zex_exec_file_close(struct zex_exec_file *xfile);
void zex_exec_file_unplug(struct zex_exec_file *xfile);
struct zex_exec_queue *zex_exec_queue_lookup(struct zex_exec_file *xfile, u32 id);
int zex_exec_queue_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_exec_queue_destroy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_exec_queue_get_state_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* zex_exec_ioctl.c */
int zex_exec_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* zex_user_fence.c */
int zex_wait_user_fence_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_EXEC_H_ */
