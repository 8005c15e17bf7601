/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_exec.h - raw helpers of the exec tests: queues, jobs, syncs, waits
 *
 * The ioctls themselves, each returning 0 or -errno, and commands built
 * as a runtime would. Device VA == host VA for userptr imports, so a
 * test's buffers are addressed by their pointers.
 */

#ifndef ZEX_EXEC_H
#define ZEX_EXEC_H

#include <linux/sync_file.h>

#include "zex_selftest.h"

#define VA(p)	((uint64_t)(uintptr_t)(p))

/* A queue at &enum drm_zex_exec_queue_priority @prio with @flags. */
static inline int queue_create_flags(int fd, uint16_t cls, uint16_t inst, uint16_t dev,
				     uint16_t prio, uint32_t flags, uint32_t *id)
{
	struct drm_zex_exec_queue_create c = {
		.engine_class = cls, .engine_instance = inst, .device = dev, .priority = prio,
		.flags = flags,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c);

	if (!ret)
		*id = c.exec_queue_id;
	return ret;
}

static inline int queue_create_prio(int fd, uint16_t cls, uint16_t inst, uint16_t dev,
				    uint16_t prio, uint32_t *id)
{
	return queue_create_flags(fd, cls, inst, dev, prio, 0, id);
}

static inline int queue_create(int fd, uint16_t cls, uint16_t inst, uint16_t dev, uint32_t *id)
{
	return queue_create_flags(fd, cls, inst, dev, DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL, 0, id);
}

static inline int queue_destroy(int fd, uint32_t id)
{
	struct drm_zex_exec_queue_destroy d = { .exec_queue_id = id };

	return zex_ioctl(fd, DRM_IOCTL_ZEX_EXEC_QUEUE_DESTROY, &d);
}

static inline int queue_state(int fd, uint32_t id, struct drm_zex_exec_queue_get_state *s)
{
	memset(s, 0, sizeof(*s));
	s->exec_queue_id = id;
	return zex_ioctl(fd, DRM_IOCTL_ZEX_EXEC_QUEUE_GET_STATE, s);
}

static inline int exec(int fd, uint32_t q, const struct drm_zex_command *cmds, uint32_t n,
		       const struct drm_zex_sync *syncs, uint32_t nsyncs)
{
	struct drm_zex_exec e = {
		.exec_queue_id = q,
		.num_commands = n,
		.commands = VA(cmds),
		.num_syncs = nsyncs,
		.syncs = VA(syncs),
	};

	return zex_ioctl(fd, DRM_IOCTL_ZEX_EXEC, &e);
}

static inline struct drm_zex_command cmd_copy(const void *src, void *dst, uint64_t len)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_COPY, .src = VA(src), .dst = VA(dst),
					 .len = len };
}

static inline struct drm_zex_command cmd_fill(void *dst, uint64_t len, const void *pat,
					      uint16_t size)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_FILL, .dst = VA(dst), .len = len,
				     .pattern_size = size };

	memcpy(c.pattern, pat, size);
	return c;
}

static inline struct drm_zex_command cmd_store(void *dst, uint64_t value)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_STORE, .dst = VA(dst), .value = value };
}

static inline struct drm_zex_command cmd_timestamp(void *dst)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_TIMESTAMP, .dst = VA(dst) };
}

static inline struct drm_zex_command cmd_wait(const void *src, uint16_t op, uint64_t value)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_WAIT, .src = VA(src), .compare = op,
					 .value = value, .mask = ~0ull };
}

static inline struct drm_zex_sync sync_in(uint32_t handle, uint64_t point)
{
	return (struct drm_zex_sync){
		.type = point ? DRM_ZEX_SYNC_TIMELINE_SYNCOBJ : DRM_ZEX_SYNC_SYNCOBJ,
		.handle = handle, .timeline_value = point,
	};
}

static inline struct drm_zex_sync sync_out(uint32_t handle, uint64_t point)
{
	struct drm_zex_sync s = sync_in(handle, point);

	s.flags = DRM_ZEX_SYNC_SIGNAL;
	return s;
}

static inline struct drm_zex_sync sync_user_fence(void *addr, uint64_t value)
{
	return (struct drm_zex_sync){ .type = DRM_ZEX_SYNC_USER_FENCE,
				      .flags = DRM_ZEX_SYNC_SIGNAL,
				      .addr = VA(addr), .timeline_value = value };
}

/* Wait until *addr OP value; timeout in ns (negative: for ever). Raw: no retry. */
static inline int wait_ufence(int fd, const void *addr, uint16_t op, uint64_t value,
			      int64_t timeout, int64_t *left)
{
	struct drm_zex_wait_user_fence w = {
		.addr = VA(addr), .op = op, .value = value, .mask = ~0ull, .timeout = timeout,
	};
	int ret = ioctl(fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w) ? -errno : 0;

	if (left)
		*left = w.timeout;
	return ret;
}

static inline int syncobj_create(int fd, uint32_t *handle)
{
	struct drm_syncobj_create c = { 0 };
	int ret = zex_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	*handle = c.handle;
	return ret;
}

/* Wait for a syncobj (point 0: binary); timeout in ns from now. */
static inline int syncobj_wait(int fd, uint32_t handle, uint64_t point, int64_t timeout_ns)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = VA(&handle),
		.points = VA(&point),
		.count_handles = 1,
		.timeout_nsec = timeout_ns < 0 ? INT64_MAX : zex_now_ns() + timeout_ns,
	};

	return zex_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

/* A syncobj's fence as a sync_file fd; -errno on error. */
static inline int syncobj_to_sync_file(int fd, uint32_t handle)
{
	struct drm_syncobj_handle h = {
		.handle = handle, .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h);

	return ret ? ret : h.fd;
}

static inline int sync_file_to_syncobj(int fd, int sync_file, uint32_t handle)
{
	struct drm_syncobj_handle h = {
		.handle = handle, .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
		.fd = sync_file,
	};

	return zex_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &h);
}

/* The status of a sync_file: 1 signalled, 0 pending, -errno its error. */
static inline int sync_file_status(int sync_file)
{
	struct sync_file_info info = { 0 };

	if (ioctl(sync_file, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;
	return info.status;
}

/* A syncobj's fence status, through a sync_file. */
static inline int syncobj_status(int fd, uint32_t handle)
{
	int sf = syncobj_to_sync_file(fd, handle);
	int status;

	if (sf < 0)
		return -2000 + sf;
	status = sync_file_status(sf);
	close(sf);
	return status;
}

/* Page-aligned anonymous memory, imported for the device; NULL on failure. */
static inline void *dev_alloc(int fd, size_t size, uint32_t *id)
{
	struct drm_zex_userptr_import imp = { .size = size };
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, size);
	imp.addr = VA(p);
	if (zex_ioctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp)) {
		munmap(p, size);
		return NULL;
	}
	if (id)
		*id = imp.id;
	return p;
}

#endif /* ZEX_EXEC_H */
