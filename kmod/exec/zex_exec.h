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
 * A compute ring has a second scheduler for long-running queues, each a
 * context of its own (&struct zex_lr, zex_lr.c) that runs its jobs beside
 * the ring's, without a hardware fence; their launches (zex_launch.c)
 * wait for the compute side in userspace.
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
struct file;
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
 * @lr_sched: a compute ring's scheduler of long-running queues: it hands
 *	each job, once its dependencies have signalled, to its queue's
 *	context; no timeout.
 * @has_lr: @lr_sched was made.
 * @lr_name: "<@name>-lr", @lr_sched's name.
 * @engine_class: its &enum drm_zex_engine_class.
 * @busy_ns: nanoseconds its jobs have run, ended ones (zex_usage.c).
 */
struct zex_ring {
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler lr_sched;
	bool has_lr;
	struct zex_exec_device *xdev;
	struct workqueue_struct *hw;
	u64 fence_context;
	u64 seqno;
	spinlock_t fence_lock; /* the hardware fences' */
	u16 tile_mask;
	char name[32];
	char lr_name[36];
	u16 engine_class;
	atomic64_t busy_ns;
};

/**
 * struct zex_engine_group - when any engine of a group runs a job
 * @state: the jobs running on the group's engines (the low
 *	ZEX_GROUP_COUNT_BITS), and above them when the first of those
 *	started (ktime_get_ns() in units of 2^ZEX_GROUP_UNIT_SHIFT ns): one
 *	word, changed with one compare-and-exchange at a job's start and
 *	end.
 * @busy_ns: the time at least one of them ran a job, busy periods that
 *	have ended (zex_usage.c).
 */
struct zex_engine_group {
	atomic64_t state;
	atomic64_t busy_ns;
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
 * @groups: the engine groups: each tile's engines of one class (tile *
 *	ZEX_ENGINE_CLASSES + class; the root device's own engine counts in
 *	each tile it spans), then the whole device's of one class
 *	(num_tiles * ZEX_ENGINE_CLASSES + class).
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
	struct zex_engine_group *groups;
};

/**
 * struct zex_fault - what a fault reports
 * @addr: the faulting device VA.
 * @reason: &enum drm_zex_fault_reason.
 * @flags: %DRM_ZEX_FAULT_WRITE or 0.
 */
struct zex_fault {
	u64 addr;
	u32 reason;
	u32 flags;
};

/**
 * struct zex_launch - a long-running queue's published launch
 * @seqno: its number, 0 when none is published.
 * @record: the device VA of its &struct drm_zex_launch_record.
 * @tile_mask: the tiles that run a part.
 * @pending: the tiles whose report has not come.
 */
struct zex_launch {
	u64 seqno;
	u64 record;
	u16 tile_mask;
	u16 pending;
};

/**
 * struct zex_lr - a long-running queue's context: its jobs, run in order
 * @queue: the queue it belongs to (not held: it lives as long).
 * @lock: protects @jobs, @launch, @last_seqno, @queued and @in_sched.
 * @run_lock: held by whoever runs the context's jobs: one at a time.
 * @jobs: jobs handed over by the scheduler and not ended, oldest first.
 * @launch: the launch the oldest job waits for.
 * @last_seqno: the number of the last launch published.
 * @in_sched: jobs pushed to the scheduler and not yet handed over.
 * @queued: @work is pending and holds its references.
 * @work: runs the oldest job from where it stopped, until it ends or
 *	waits (for a launch's reports, or a WAIT's value); a kick with no
 *	delay, or after a millisecond to read a WAIT's value again.
 * @wake: on the device's completion wait queue while the oldest job waits
 *	for a WAIT's value: each job's end kicks @work.
 * @armed: @wake is on that wait queue (only a runner touches it).
 * @server: the files table of the process that serves its launches (only
 *	compared, never followed).
 */
struct zex_lr {
	struct zex_exec_queue *queue;
	spinlock_t lock; /* jobs, launch, kick state */
	struct mutex run_lock; /* one runner */
	struct list_head jobs;
	struct zex_launch launch;
	u64 last_seqno;
	u32 in_sched;
	bool queued;
	struct delayed_work work;
	struct wait_queue_entry wake;
	bool armed;
	void *server;
};

/* Engine classes counted apart: &enum drm_zex_engine_class's values. */
#define ZEX_ENGINE_CLASSES	2

/**
 * struct zex_exec_usage - what one file's jobs ran, by engine class
 * @refcount: the file holds one reference, each of its queues one, so
 *	that jobs ending after their queue or file went still count.
 * @busy_ns: nanoseconds its jobs ran, per &enum drm_zex_engine_class:
 *	each job's time from its start to its end, added when it ends.
 */
struct zex_exec_usage {
	struct kref refcount;
	atomic64_t busy_ns[ZEX_ENGINE_CLASSES];
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
 * @state_lock: protects @banned, @error, @fault.
 * @banned: a job faulted or timed out, or the queue was destroyed: no
 *	more jobs, and the running one stops (the engine operations'
 *	cancel flag).
 * @error: what banned it.
 * @fault: a fault's address, reason and flags.
 * @jobs_completed: jobs of the queue that have ended, counted before
 *	their fences signal.
 * @done_wq: woken (zex_exec_queue_signal_done()) whenever the queue itself
 *	writes what a wait may read (one of its jobs ends, it runs a STORE,
 *	publishes or stops a launch) or is banned; waits tied to the queue
 *	sleep here, not on the device's wait queue.
 * @done_seq: counts those wake-ups.
 * @owner_pid: the process that created it (its thread group), for the log.
 * @owner_comm: that process's name, for the log.
 * @teardown: a killed queue's entity is drained and destroyed by it.
 * @lr: a long-running queue's context, else NULL.
 * @usage: its file's engine time, held.
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
	struct zex_fault fault;
	atomic64_t jobs_completed;
	wait_queue_head_t done_wq;
	atomic64_t done_seq;
	pid_t owner_pid;
	char owner_comm[TASK_COMM_LEN];
	struct work_struct teardown;
	struct zex_lr *lr;
	struct zex_exec_usage *usage;
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
 * @refcount: the scheduler holds one reference, a long-running queue's
 *	context another while the job is on its list.
 * @queue: its queue, held.
 * @seqno: its scheduler fence's number, for the log.
 * @start_ns: when it started to run (ktime_get_ns()), 0 before.
 * @counted: its time is added to its ring's, file's and groups'.
 * @pc: the next command to run (a long-running job stops and resumes).
 * @lr_link: on &zex_lr.jobs.
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
	struct kref refcount;
	struct zex_exec_queue *queue;
	u64 seqno;
	u64 start_ns;
	bool counted;
	u32 pc;
	struct list_head lr_link;
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
 * @lr_count: long-running ones among them.
 * @usage: what its jobs ran (its queues hold it too).
 */
struct zex_exec_file {
	struct mutex lock; /* create and destroy */
	struct xarray queues;
	u32 count;
	u32 lr_count;
	struct zex_exec_usage *usage;
};

/*
 * How often a WAIT command reads its value again when no job ends
 * meanwhile, on every queue.
 */
#define ZEX_WAIT_POLL_MS	1

extern struct workqueue_struct *zex_exec_cleanup_wq;
extern struct workqueue_struct *zex_exec_teardown_wq;
extern struct workqueue_struct *zex_exec_lr_wq;

/* zex_exec_state.c */
void zex_exec_hold(struct drm_device *drm);
void zex_exec_release(struct drm_device *drm);
int zex_exec_module_init(void);
void zex_exec_module_exit(void);
void zex_exec_signal_done(struct zex_exec_device *xdev);
void zex_exec_queue_wake(struct zex_exec_queue *q);
void zex_exec_queue_signal_done(struct zex_exec_queue *q);
void zex_exec_device_unplug(struct zex_exec_device *xdev);
void zex_exec_queue_put(struct zex_exec_queue *q);
bool zex_exec_queue_ban(struct zex_exec_queue *q, int error, const struct zex_fault *fault);
bool zex_exec_queue_is_banned(struct zex_exec_queue *q);
int zex_exec_queue_error(struct zex_exec_queue *q);
void zex_lr_kick(struct zex_lr *lr);
void zex_lr_kick_after(struct zex_lr *lr, unsigned long delay);
void zex_lr_wait_arm(struct zex_lr *lr);
void zex_lr_wait_disarm(struct zex_lr *lr);

/* zex_job.c */
struct zex_job *zex_job_alloc(struct drm_device *drm, struct zex_exec_queue *q);
void zex_job_run(struct work_struct *work);
int zex_job_execute(struct zex_job *job, bool quick);
int zex_job_end(struct zex_job *job, int ret);
void zex_job_free(struct zex_job *job);
void zex_job_put(struct zex_job *job);
void zex_job_put_held(struct zex_job *job);

/* zex_usage.c */
struct zex_engine_group *zex_exec_group(struct zex_exec_device *xdev, u32 tile, u16 engine_class);
struct zex_exec_usage *zex_exec_usage_create(void);
void zex_exec_usage_put(struct zex_exec_usage *usage);
void zex_job_started(struct zex_job *job);
void zex_job_account(struct zex_job *job);
u64 zex_exec_file_busy_ns(const struct zex_exec_file *xfile, u16 engine_class);
u32 zex_exec_engines(const struct zex_exec_device *xdev, u16 engine_class);

/* zex_lr.c */
int zex_lr_init(struct zex_exec_queue *q);
struct dma_fence *zex_lr_run_job(struct zex_job *job);
void zex_lr_run_now(struct zex_lr *lr, bool held);
bool zex_lr_submit(struct zex_job *job);
void zex_lr_drain(struct zex_lr *lr);
void zex_exec_file_flush(struct zex_exec_file *xfile, struct file *filp, void *owner);
bool zex_lr_server_gone(struct file *filp, void *owner);

/* zex_launch.c */
int zex_launch_begin(struct zex_lr *lr, const struct drm_zex_command *cmd,
		     struct drm_zex_launch_record *rec);
void zex_launch_abort(struct zex_lr *lr);
void zex_launch_stop(struct zex_job *job);
int zex_launch_report(struct zex_exec_queue *q, const struct drm_zex_launch_report *r);

/* zex_launch_ioctl.c */
int zex_launch_report_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

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
