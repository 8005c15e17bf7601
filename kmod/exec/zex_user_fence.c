// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_user_fence.c - DRM_IOCTL_ZEX_WAIT_USER_FENCE
 *
 * A user fence is a 64-bit value that a job writes at a device address.
 * The wait reads the value through the file's address space (as the
 * engines do), compares, and sleeps on the device's completion wait queue
 * until the next job ends, a STORE command executes or a queue is banned,
 * never polling; it reads again after each, and ends with -ENODEV once the
 * device is unplugged (a value that already compares true still returns
 * 0). A wait tied to a queue is for what that queue writes: it sleeps on
 * the queue's own wait queue, woken by the queue's job ends, STOREs,
 * launch records and ban, so that the compute sides idle on their queues
 * do not all wake at every job's end on the device. A relative timeout
 * is written back with what is left of it, so a wait interrupted by a
 * signal restarts for the rest.
 */

#include <linux/ktime.h>
#include <linux/sched/signal.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include "../device/zex_device.h"
#include "../vm/zex_vm.h"
#include "zex_command.h"
#include "zex_exec.h"

static int zex_user_fence_read(struct zex_vm *vm, u64 addr, u64 *value)
{
	struct zex_vm_op op = {
		.kind = ZEX_VM_OP_READ,
		.src = addr,
		.len = sizeof(*value),
		.buf = value,
	};

	return zex_vm_execute(vm, &op);
}

static int zex_wait_args_check(struct drm_device *drm, const struct drm_zex_wait_user_fence *a)
{
	if (zex_ioctl_check(drm, a->extensions) ||
	    zex_ioctl_check(drm, a->pad || a->pad2) ||
	    zex_ioctl_check(drm, a->reserved[0] || a->reserved[1]) ||
	    zex_ioctl_check(drm, a->flags & ~(DRM_ZEX_WAIT_ABSTIME | DRM_ZEX_WAIT_EXEC_QUEUE)) ||
	    zex_ioctl_check(drm, !(a->flags & DRM_ZEX_WAIT_EXEC_QUEUE) && a->exec_queue_id) ||
	    zex_ioctl_check(drm, !zex_compare_op_valid(a->op)) ||
	    zex_ioctl_check(drm, !IS_ALIGNED(a->addr, sizeof(u64))))
		return -EINVAL;
	return 0;
}

int zex_wait_user_fence_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_file *zfile = to_zex_file(file);
	struct zex_exec_device *xdev = to_zex_device(drm)->exec;
	struct drm_zex_wait_user_fence *args = data;
	struct zex_exec_queue *q = NULL;
	bool forever = args->timeout < 0;
	wait_queue_head_t *wq;
	atomic64_t *seq;
	ktime_t deadline;
	int ret;

	ret = zex_wait_args_check(drm, args);
	if (ret)
		return ret;
	if (args->flags & DRM_ZEX_WAIT_EXEC_QUEUE) {
		q = zex_exec_queue_lookup(zfile->exec, args->exec_queue_id);
		if (zex_ioctl_check(drm, !q))
			return -ENOENT;
	}
	if (args->flags & DRM_ZEX_WAIT_ABSTIME)
		deadline = ns_to_ktime(args->timeout);
	else
		deadline = ktime_add_safe(ktime_get(), ns_to_ktime(forever ? 0 : args->timeout));

	wq = q ? &q->done_wq : &xdev->done_wq;
	seq = q ? &q->done_seq : &xdev->done_seq;
	for (;;) {
		s64 seen = atomic64_read(seq);
		long left = MAX_SCHEDULE_TIMEOUT;
		u64 value;

		ret = zex_user_fence_read(zfile->vm, args->addr, &value);
		if (ret)
			break;
		if (zex_compare(value, args->op, args->value, args->mask))
			break;
		if (q && zex_exec_queue_is_banned(q)) {
			ret = -EIO;
			break;
		}
		if (zex_ioctl_check(drm, READ_ONCE(xdev->unplugged))) {
			ret = -ENODEV;
			break;
		}
		if (!forever) {
			s64 ns = ktime_to_ns(ktime_sub(deadline, ktime_get()));

			if (ns <= 0) {
				ret = -ETIME;
				break;
			}
			left = nsecs_to_jiffies(ns) + 1;
		}
		left = wait_event_interruptible_timeout(*wq, atomic64_read(seq) != seen, left);
		if (left < 0) {
			ret = left;
			break;
		}
	}
	if (!forever && !(args->flags & DRM_ZEX_WAIT_ABSTIME))
		args->timeout = max_t(s64, 0, ktime_to_ns(ktime_sub(deadline, ktime_get())));
	if (q)
		zex_exec_queue_put(q);
	return ret;
}
