/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_exec.h - what the execution family's files share
 *
 * Submission (l0_submit.c): a queue's commands become kernel jobs on its
 * exec queue, each signalling the next point of the queue's timeline;
 * host memory the device does not map yet is imported for the jobs that
 * reach it and released once they have run. Recording (l0_cmdlist.c)
 * appends the kernel's commands to a list.
 */

#ifndef ZEX_L0_EXEC_H
#define ZEX_L0_EXEC_H

#include <stdatomic.h>
#include <stdlib.h>

#include "l0/base/l0.h"
#include "l0/module/l0_module.h"

/**
 * struct zex_l0_launch - one launch a command list recorded: its kernel
 *	as the append captured it, and its groups; a LAUNCH command's cookie
 * @next: a regular list's next older launch.
 * @kernel: the kernel, its arguments, group size and global offset.
 * @groups: the launch's work-groups in each dimension.
 * @indirect: an indirect launch's: where its groups are read as it runs.
 * @count: one of several kernels launched indirectly: where the number
 *	of them that run is read as they run (this one runs when @index is
 *	below it); else NULL.
 * @index: its index among them.
 * @cooperative: its groups run at once (zeCommandListAppendLaunchCooperativeKernel).
 * @refs: a regular list's reference (an immediate list's append's, until
 *	it has submitted), and one for each submission naming it until that
 *	submission has run (zex_l0_launch_put()).
 */
struct zex_l0_launch {
	struct zex_l0_launch *next;
	struct zex_l0_kernel_capture kernel;
	uint32_t groups[3];
	const ze_group_count_t *indirect;
	const uint32_t *count;
	uint32_t index;
	bool cooperative;
	_Atomic uint32_t refs;
};

/* A Level Zero timeout in ns as the core takes it: negative for ever. */
static inline int64_t zex_l0_timeout_ns(uint64_t timeout)
{
	return timeout > INT64_MAX ? -1 : (int64_t)timeout;
}

ze_result_t zex_l0_check_queue_desc(const ze_command_queue_desc_t *desc);
ze_result_t zex_l0_queue_init(struct zex_l0_cmdqueue *q, struct zex_l0_driver *drv,
			      struct zex_l0_device *device, const ze_command_queue_desc_t *desc);
void zex_l0_queue_fini(struct zex_l0_cmdqueue *q);
ze_result_t zex_l0_submit_locked(struct zex_l0_cmdqueue *q, const struct drm_zex_command *cmds,
				 uint32_t num_cmds);
ze_result_t zex_l0_queue_wait(struct zex_l0_cmdqueue *q, uint64_t point, uint64_t timeout);

/**
 * struct zex_l0_queue_point - a point submitted to a queue, as the
 *	registry names it (l0_queue_registry.c)
 * @serial: the queue's serial.
 * @point: the point.
 */
struct zex_l0_queue_point {
	uint64_t serial;
	uint64_t point;
};

ze_result_t zex_l0_queue_open(struct zex_l0_cmdqueue *q, struct zex_l0_driver *drv,
			      struct zex_l0_device *device, const ze_command_queue_desc_t *desc);
void zex_l0_queue_close(struct zex_l0_cmdqueue *q);
ze_result_t zex_l0_queue_points_snapshot(struct zex_l0_driver *drv,
					 const struct zex_l0_device *device,
					 struct zex_l0_queue_point **points, uint32_t *n);
ze_result_t zex_l0_queue_points_wait(struct zex_l0_driver *drv, struct zex_l0_queue_point *points,
				     uint32_t *n, uint64_t timeout);

/**
 * struct zex_l0_op - one append: what it does, between its events
 * @list: the list.
 * @signal: the event it signals, or NULL.
 * @num_waits: events it waits for first.
 * @waits: those events.
 * @cmds: the whole: the waits, the signal event's start timestamps, the
 *	operation's commands, the end timestamps and the signal.
 * @n: commands in @cmds.
 * @cap: room in @cmds.
 */
struct zex_l0_op {
	struct zex_l0_cmdlist *list;
	struct zex_l0_event *signal;
	uint32_t num_waits;
	ze_event_handle_t *waits;
	struct drm_zex_command *cmds;
	uint32_t n, cap;
};

int zex_l0_op_push(struct zex_l0_op *op, struct drm_zex_command c);
ze_result_t zex_l0_op_begin(struct zex_l0_op *op, ze_command_list_handle_t h,
			    ze_event_handle_t signal, uint32_t num_waits, ze_event_handle_t *waits);
ze_result_t zex_l0_op_end(struct zex_l0_op *op, ze_result_t res);

int zex_l0_compute_start(struct zex_l0_cmdqueue *q);
void zex_l0_compute_stop(struct zex_l0_cmdqueue *q);
void zex_l0_compute_run_own(struct zex_l0_cmdqueue *q, uint64_t first, uint64_t last);
uint32_t zex_l0_compute_exec_queue(const struct zex_l0_cmdqueue *q);
uint64_t zex_l0_compute_record(const struct zex_l0_cmdqueue *q);

void zex_l0_launches_release(struct zex_l0_cmdlist *l);

/* One more reference to a launch (a submission naming it). */
static inline void zex_l0_launch_get(struct zex_l0_launch *launch)
{
	atomic_fetch_add_explicit(&launch->refs, 1, memory_order_relaxed);
}

/* Drop a reference to a launch; the last frees it. */
static inline void zex_l0_launch_put(struct zex_l0_launch *launch)
{
	if (atomic_fetch_sub_explicit(&launch->refs, 1, memory_order_acq_rel) != 1)
		return;
	zex_l0_kernel_capture_release(&launch->kernel);
	free(launch);
}

/*
 * A STORE an append records for a signal of a counter-based event carries
 * this in its pad (which the kernel takes as 0 only) and the event in its
 * value, until the queue that submits it sets both (l0_event_counter.c).
 */
#define ZEX_COUNTER_SIGNAL_MARK	0xc0b7

/**
 * struct zex_l0_counter_signal - one signal of a counter-based event in a submission
 * @ev: the event.
 * @value: the value its queue's counter reaches as the signal happens.
 */
struct zex_l0_counter_signal {
	struct zex_l0_event *ev;
	uint64_t value;
};

struct drm_zex_command zex_l0_counter_signal_cmd(struct zex_l0_event *ev);
int zex_l0_counter_signals(struct zex_l0_cmdqueue *q, const struct drm_zex_command **cmds,
			   uint32_t n, struct drm_zex_command **patched,
			   struct zex_l0_counter_signal **signals, uint32_t *num_signals);
void zex_l0_counter_signals_publish(struct zex_l0_cmdqueue *q,
				    const struct zex_l0_counter_signal *signals, uint32_t n);
bool zex_l0_counter_wait_cmd(struct zex_l0_event *ev, struct drm_zex_command *wait);
ze_result_t zex_l0_counter_host_wait(struct zex_l0_event *ev, uint64_t timeout);
void zex_l0_counter_give_back(struct zex_l0_cmdqueue *q);

/* What zex_l0_event_pool_new() makes, besides the pool's flags. */
#define ZEX_L0_POOL_OPENED		0x1u	/* another process's (zeEventPoolOpenIpcHandle) */
#define ZEX_L0_POOL_COUNTER_BASED	0x2u	/* every event of it counter-based */

int zex_l0_event_pool_new(struct zex_l0_driver *drv, uint32_t handle, uint64_t size,
			  ze_event_pool_flags_t flags, uint32_t count, unsigned int how,
			  ze_event_pool_handle_t *out);

#endif /* ZEX_L0_EXEC_H */
