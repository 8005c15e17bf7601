// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: exec.c - execution through the zex ioctls and the DRM sync objects
 *
 * Thin, checked wrappers of the exec queue, exec, user fence wait and
 * VM_BIND ioctls, and of the DRM core's timeline sync object ioctls.
 * Waits take a relative timeout in nanoseconds (negative: for ever, 0:
 * poll) and sleep in the kernel; one a signal interrupts goes on for
 * what is left of it. zex_exec() returns the kernel's -EBUSY when the
 * queue has the most jobs in flight: the caller, which knows its jobs,
 * waits for an earlier one and submits again. A long-running queue's
 * compute side waits for a launch with zex_launch_wait() (tied to the
 * queue: -EIO once it is banned) and reports each tile's part.
 */

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include <xf86drm.h>

#include "zex/zex_exec.h"

static int zex_drm_ioctl(struct zex_device *dev, unsigned long req, void *arg)
{
	return drmIoctl(zex_device_fd(dev), req, arg) ? -errno : 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The absolute CLOCK_MONOTONIC deadline of a relative timeout; INT64_MAX for ever. */
static int64_t deadline_of(int64_t timeout_ns)
{
	int64_t now = now_ns();

	if (timeout_ns < 0 || timeout_ns > INT64_MAX - now)
		return INT64_MAX;
	return now + timeout_ns;
}

int zex_bo_bind(struct zex_device *dev, uint32_t handle, uint64_t va, bool read_only,
		uint32_t *id)
{
	return zex_bo_bind_range(dev, handle, va, 0, 0, read_only, id);
}

/*
 * @range bytes of the object from byte @offset (both page-aligned) at @va;
 * a @range of 0 binds the rest of the object. The kernel pins the whole
 * object however little of it is bound.
 */
int zex_bo_bind_range(struct zex_device *dev, uint32_t handle, uint64_t va, uint64_t offset,
		      uint64_t range, bool read_only, uint32_t *id)
{
	struct drm_zex_vm_bind b = {
		.handle = handle, .va = va, .offset = offset, .range = range,
		.flags = read_only ? DRM_ZEX_VM_BIND_READ_ONLY : 0,
	};
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_VM_BIND, &b);

	if (!ret)
		*id = b.id;
	return ret;
}

int zex_bo_unbind(struct zex_device *dev, uint32_t id)
{
	struct drm_zex_vm_unbind u = { .id = id };

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_VM_UNBIND, &u);
}

int zex_exec_queue_create(struct zex_device *dev, uint16_t engine_class,
			  uint16_t engine_instance, uint16_t device, uint32_t *id)
{
	return zex_exec_queue_create_priority(dev, engine_class, engine_instance, device,
					      DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL, id);
}

/* Every exec queue: the create ioctl with its engine, priority and flags. */
static int queue_create(struct zex_device *dev, uint16_t engine_class, uint16_t engine_instance,
			uint16_t device, uint16_t priority, uint32_t flags, uint32_t *id)
{
	struct drm_zex_exec_queue_create c = {
		.engine_class = engine_class, .engine_instance = engine_instance, .device = device,
		.priority = priority, .flags = flags,
	};
	int ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c);

	if (!ret)
		*id = c.exec_queue_id;
	return ret;
}

/* A queue at &enum drm_zex_exec_queue_priority @priority (high: CAP_SYS_NICE). */
int zex_exec_queue_create_priority(struct zex_device *dev, uint16_t engine_class,
				   uint16_t engine_instance, uint16_t device, uint16_t priority,
				   uint32_t *id)
{
	return queue_create(dev, engine_class, engine_instance, device, priority, 0, id);
}

/* A long-running queue of a compute engine; the calling process serves its launches. */
int zex_exec_queue_create_lr(struct zex_device *dev, uint16_t engine_instance, uint16_t device,
			     uint32_t *id)
{
	return queue_create(dev, DRM_ZEX_ENGINE_CLASS_COMPUTE, engine_instance, device,
			    DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL, DRM_ZEX_EXEC_QUEUE_LONG_RUNNING, id);
}

int zex_exec_queue_destroy(struct zex_device *dev, uint32_t id)
{
	struct drm_zex_exec_queue_destroy d = { .exec_queue_id = id };

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY, &d);
}

int zex_exec_queue_state(struct zex_device *dev, uint32_t id,
			 struct drm_zex_exec_queue_get_state *state)
{
	*state = (struct drm_zex_exec_queue_get_state){ .exec_queue_id = id };
	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE, state);
}

int zex_exec(struct zex_device *dev, uint32_t queue, const struct drm_zex_command *commands,
	     uint32_t num_commands, const struct drm_zex_sync *syncs, uint32_t num_syncs)
{
	struct drm_zex_exec e = {
		.exec_queue_id = queue,
		.num_commands = num_commands, .commands = (uintptr_t)commands,
		.num_syncs = num_syncs, .syncs = (uintptr_t)syncs,
	};

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_EXEC, &e);
}

int zex_wait_user_fence(struct zex_device *dev, const uint64_t *addr, uint16_t op,
			uint64_t value, uint64_t mask, int64_t timeout_ns)
{
	struct drm_zex_wait_user_fence w = {
		.addr = (uintptr_t)addr, .op = op, .value = value, .mask = mask,
		.flags = DRM_ZEX_WAIT_ABSTIME,
	};
	int ret;

	/* An absolute deadline: a wait a signal interrupts goes on for the rest. */
	w.timeout = timeout_ns < 0 ? -1 : deadline_of(timeout_ns);
	if (timeout_ns < 0)
		w.flags = 0;
	do
		ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w);
	while (ret == -EINTR);
	return ret;
}

/*
 * Until the 64-bit value at @addr is at least @value, tied to @queue: 0;
 * -EIO once the queue is banned; -ETIME.
 */
int zex_wait_user_fence_queue(struct zex_device *dev, uint32_t queue, const uint64_t *addr,
			      uint64_t value, int64_t timeout_ns)
{
	struct drm_zex_wait_user_fence w = {
		.addr = (uintptr_t)addr, .op = DRM_ZEX_COMPARE_GTE, .value = value,
		.mask = ~0ull, .flags = DRM_ZEX_WAIT_EXEC_QUEUE, .exec_queue_id = queue,
		.timeout = -1,
	};
	int ret;

	if (timeout_ns >= 0) {
		w.flags |= DRM_ZEX_WAIT_ABSTIME;
		w.timeout = deadline_of(timeout_ns);
	}
	do
		ret = zex_drm_ioctl(dev, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w);
	while (ret == -EINTR);
	return ret;
}

/*
 * Until launch @seqno or a later one of @queue is published at @record:
 * 0; -EIO the queue is banned (its launch, if any, told to stop); -ETIME.
 */
int zex_launch_wait(struct zex_device *dev, uint32_t queue,
		    const struct drm_zex_launch_record *record, uint64_t seqno, int64_t timeout_ns)
{
	return zex_wait_user_fence_queue(dev, queue, (const uint64_t *)&record->seqno, seqno,
					 timeout_ns);
}

/* Tile @tile's part of launch @seqno ended well. */
int zex_launch_report(struct zex_device *dev, uint32_t queue, uint32_t tile, uint64_t seqno)
{
	struct drm_zex_launch_report r = {
		.exec_queue_id = queue, .tile = tile, .seqno = seqno,
		.status = DRM_ZEX_LAUNCH_DONE,
	};

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r);
}

/* Tile @tile's part faulted at @addr (&enum drm_zex_fault_reason @reason): the queue is banned. */
int zex_launch_report_fault(struct zex_device *dev, uint32_t queue, uint32_t tile,
			    uint64_t seqno, uint64_t addr, uint32_t reason, bool write)
{
	struct drm_zex_launch_report r = {
		.exec_queue_id = queue, .tile = tile, .seqno = seqno,
		.status = DRM_ZEX_LAUNCH_FAULT, .fault_addr = addr, .fault_reason = reason,
		.fault_flags = write ? DRM_ZEX_FAULT_WRITE : 0,
	};

	return zex_drm_ioctl(dev, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r);
}

int zex_syncobj_create(struct zex_device *dev, uint32_t *handle)
{
	return drmSyncobjCreate(zex_device_fd(dev), 0, handle) ? -errno : 0;
}

int zex_syncobj_destroy(struct zex_device *dev, uint32_t handle)
{
	return drmSyncobjDestroy(zex_device_fd(dev), handle) ? -errno : 0;
}

int zex_syncobj_wait(struct zex_device *dev, uint32_t handle, uint64_t point,
		     int64_t timeout_ns)
{
	int64_t deadline = deadline_of(timeout_ns);
	int ret;

	do
		ret = drmSyncobjTimelineWait(zex_device_fd(dev), &handle, &point, 1, deadline,
					     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL) ?
			      -errno : 0;
	while (ret == -EINTR);
	return ret;
}

int zex_syncobj_signal(struct zex_device *dev, uint32_t handle, uint64_t point)
{
	return drmSyncobjTimelineSignal(zex_device_fd(dev), &handle, &point, 1) ? -errno : 0;
}
