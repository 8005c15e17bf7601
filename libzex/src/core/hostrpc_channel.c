// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_channel.c - hostrpc views of a zex kernel channel
 *
 * Creates channels and views, maps a view, binds the protocol core to it
 * (hostrpc_view.c) and supplies what only the kernel gives: the doorbell
 * (DRM_ZEX_HOSTRPC_IOCTL_RING), the blocking waits
 * (DRM_ZEX_HOSTRPC_IOCTL_WAIT), the eventfd and the counters.
 */

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "core/hostrpc_view.h"

static_assert(HOSTRPC_MAX_SLOTS == DRM_ZEX_HOSTRPC_MAX_SLOTS, "slots");
static_assert(HOSTRPC_OWNER_ID_MASK == DRM_ZEX_HOSTRPC_OWNER_ID_MASK, "owner id");
static_assert(HOSTRPC_OWNER_ASYNC == DRM_ZEX_HOSTRPC_OWNER_ASYNC, "owner async");
static_assert(sizeof(hostrpc_page_t) == DRM_ZEX_HOSTRPC_PAGE_SIZE, "page");
static_assert(sizeof(struct zex_hostrpc_page) == sizeof(hostrpc_page_t), "page type");
static_assert(sizeof(hr_u32_t) == sizeof(__u32) && sizeof(hr_own_t) == sizeof(__u32),
	      "atomics are plain words");
static_assert(HOSTRPC_GROUPS == sizeof(((struct drm_zex_hostrpc_control *)0)->summary) /
				sizeof(__u32), "summary words");
/* hostrpc_memory.c lays out the caller's memory as the kernel does. */
static_assert(ZEX_HOSTRPC_REGION_SIZE(3) == DRM_ZEX_HOSTRPC_MAP_SIZE(3), "map size");
static_assert(ZEX_HOSTRPC_PRIVATE_AT == DRM_ZEX_HOSTRPC_PRIVATE_OFFSET, "private");
static_assert(ZEX_HOSTRPC_SLOTS_AT == DRM_ZEX_HOSTRPC_SLOTS_OFFSET, "slots offset");
static_assert(ZEX_HOSTRPC_MAGIC == DRM_ZEX_HOSTRPC_MAGIC &&
	      ZEX_HOSTRPC_VERSION == DRM_ZEX_HOSTRPC_VERSION, "magic");
#define CONTROL_AT(field, at) \
	static_assert(offsetof(struct drm_zex_hostrpc_control, field) == (at), #field)
CONTROL_AT(magic, ZEX_HOSTRPC_CONTROL_MAGIC);
CONTROL_AT(version, ZEX_HOSTRPC_CONTROL_VERSION);
CONTROL_AT(nslots, ZEX_HOSTRPC_CONTROL_NSLOTS);
CONTROL_AT(map_size, ZEX_HOSTRPC_CONTROL_MAP_SIZE);
CONTROL_AT(host_armed, ZEX_HOSTRPC_CONTROL_HOST_ARMED);
CONTROL_AT(device_armed, ZEX_HOSTRPC_CONTROL_DEVICE_ARMED);
CONTROL_AT(dead, ZEX_HOSTRPC_CONTROL_DEAD);
CONTROL_AT(summary, ZEX_HOSTRPC_CONTROL_SUMMARY);
CONTROL_AT(request, ZEX_HOSTRPC_CONTROL_REQUEST);
CONTROL_AT(answer, ZEX_HOSTRPC_CONTROL_ANSWER);
static_assert(sizeof(struct drm_zex_hostrpc_control) == DRM_ZEX_HOSTRPC_CONTROL_SIZE, "control");
static_assert(offsetof(struct drm_zex_hostrpc_private, owner) == ZEX_HOSTRPC_PRIVATE_OWNER &&
	      offsetof(struct drm_zex_hostrpc_private, mirror) == ZEX_HOSTRPC_PRIVATE_MIRROR,
	      "private words");

/* By default a caller polls H this often before sleeping in the kernel. */
#define ZEX_HOSTRPC_DEFAULT_SPIN	4096

static void zex_hostrpc_ring(void *ctx)
{
	struct zex_hostrpc *ch = ctx;

	ch->rings_sent++;
	/* -EPIPE on a dead channel: the caller sees the dead flag next. */
	(void)ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_RING);
}

static int zex_hostrpc_wait_answer(void *ctx, uint32_t slot, uint32_t seen)
{
	struct zex_hostrpc *ch = ctx;
	struct drm_zex_hostrpc_wait args = {
		.slot = slot,
		.value = seen,
		.timeout_ns = DRM_ZEX_HOSTRPC_WAIT_FOREVER,
	};

	/* -EPIPE: the host side is gone; any other failure ends the call too. */
	while (ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &args))
		if (errno != EINTR)
			return HOSTRPC_DEAD;
	return 0;
}

/**
 * zex_hostrpc_adopt - take over a view's file descriptor
 * @fd: a view (from DRM_IOCTL_ZEX_HOSTRPC_CREATE, an open-view ioctl,
 *	fork or SCM_RIGHTS); closed by zex_hostrpc_close(), or on failure.
 * @out: the view.
 *
 * Return: 0, or -errno (-ENOTTY: not a hostrpc view).
 */
int zex_hostrpc_adopt(int fd, struct zex_hostrpc **out)
{
	struct zex_hostrpc *ch = calloc(1, sizeof(*ch));
	struct drm_zex_hostrpc_info info;
	int ret;

	if (!ch) {
		close(fd);
		return -ENOMEM;
	}
	ch->fd = fd;
	if (ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info)) {
		ret = -errno;
		goto err;
	}
	ch->map_size = info.map_size;
	ch->map = mmap(NULL, ch->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ch->map == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	ch->nslots = info.nslots;
	ch->role = info.role == DRM_ZEX_HOSTRPC_ROLE_DEVICE ? ZEX_HOSTRPC_DEVICE : ZEX_HOSTRPC_HOST;
	ch->view_id = info.view_id;
	zex_hostrpc_view_bind(ch, zex_hostrpc_ring, zex_hostrpc_wait_answer);
	ch->client.spin = ZEX_HOSTRPC_DEFAULT_SPIN;
	*out = ch;
	return 0;
err:
	close(fd);
	free(ch);
	return ret;
}

/**
 * zex_hostrpc_create - a new channel, as its first host view
 * @dev: the zex device.
 * @nslots: 1 to the hostrpc_max_slots module parameter (2048 at most).
 * @out: the host view.
 *
 * Return: 0, -EINVAL (0 slots), -E2BIG (too many), or another -errno.
 */
int zex_hostrpc_create(struct zex_device *dev, uint32_t nslots, struct zex_hostrpc **out)
{
	struct drm_zex_hostrpc_create args = {
		.nslots = nslots,
		.flags = DRM_ZEX_HOSTRPC_CLOEXEC,
	};

	if (drmIoctl(zex_device_fd(dev), DRM_IOCTL_ZEX_HOSTRPC_CREATE, &args))
		return -errno;
	return zex_hostrpc_adopt(args.fd, out);
}

/**
 * zex_hostrpc_open_view - another view of the same channel
 * @ch: a view; a device view may open device views only.
 * @role: the new view's side.
 * @out: the new view (close-on-exec; pass zex_hostrpc_fd() on explicitly).
 *
 * Return: 0, -EPERM, -EPIPE (dead channel), -EOPNOTSUPP (a view of the
 * caller's memory), or another -errno.
 */
int zex_hostrpc_open_view(struct zex_hostrpc *ch, enum zex_hostrpc_role role,
			  struct zex_hostrpc **out)
{
	struct drm_zex_hostrpc_open_view args = {
		.role = (uint32_t)role,
		.flags = DRM_ZEX_HOSTRPC_CLOEXEC,
	};

	if (ch->fd < 0)
		return -EOPNOTSUPP;
	if (ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &args))
		return -errno;
	return zex_hostrpc_adopt(args.fd, out);
}

/**
 * zex_hostrpc_stats - the kernel's counters for the channel, and this view's
 * @ch: a view.
 * @stats: filled.
 *
 * Return: 0, -EOPNOTSUPP (a view of the caller's memory), or -errno.
 */
int zex_hostrpc_stats(struct zex_hostrpc *ch, struct zex_hostrpc_stats *stats)
{
	struct drm_zex_hostrpc_info info;

	if (ch->fd < 0)
		return -EOPNOTSUPP;
	if (ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info))
		return -errno;
	*stats = (struct zex_hostrpc_stats){
		.host_rings = info.host_rings,
		.device_rings = info.device_rings,
		.reaped = info.reaped,
		.orphans = info.orphans,
		.dead = !!(info.flags & DRM_ZEX_HOSTRPC_INFO_DEAD),
		.rings_sent = ch->rings_sent,
	};
	return 0;
}

/**
 * zex_hostrpc_wait - sleep in the kernel until some slot needs the host
 * @ch: a host view.
 * @timeout_ns: absolute CLOCK_MONOTONIC, or INT64_MAX.
 *
 * The kernel arms and re-checks itself.
 *
 * Return: 0, -ETIME, -EINTR, -EINVAL for a device view, -EOPNOTSUPP for a
 * view of the caller's memory (no doorbell: it polls).
 */
int zex_hostrpc_wait(struct zex_hostrpc *ch, int64_t timeout_ns)
{
	struct drm_zex_hostrpc_wait args = { .timeout_ns = timeout_ns };

	if (ch->role != ZEX_HOSTRPC_HOST)
		return -EINVAL;
	if (ch->fd < 0)
		return -EOPNOTSUPP;
	return ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &args) ? -errno : 0;
}

/**
 * zex_hostrpc_set_eventfd - signal an eventfd with each ring to this side
 * @ch: a view.
 * @efd: an eventfd, or -1 to stop.
 *
 * Return: 0, -EBADF, -EINVAL (not an eventfd), -EOPNOTSUPP (a view of the
 * caller's memory).
 */
int zex_hostrpc_set_eventfd(struct zex_hostrpc *ch, int efd)
{
	struct drm_zex_hostrpc_eventfd args = { .fd = efd };

	if (ch->fd < 0)
		return -EOPNOTSUPP;
	return ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &args) ? -errno : 0;
}
