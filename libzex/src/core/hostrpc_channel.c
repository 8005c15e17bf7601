// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_channel.c - the protocol core over a zex kernel channel
 *
 * Binds the protocol core (hostrpc.c) to a view of a kernel channel: maps
 * it, points the core at the control page, the view's private words and
 * the slot pages, and supplies the doorbell (DRM_ZEX_HOSTRPC_IOCTL_RING)
 * and the blocking wait for H (DRM_ZEX_HOSTRPC_IOCTL_WAIT).
 */

#include <assert.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex/zex_hostrpc.h"
#include "hostrpc/hostrpc.h"

static_assert(HOSTRPC_MAX_SLOTS == DRM_ZEX_HOSTRPC_MAX_SLOTS, "slots");
static_assert(HOSTRPC_OWNER_ID_MASK == DRM_ZEX_HOSTRPC_OWNER_ID_MASK, "owner id");
static_assert(HOSTRPC_OWNER_ASYNC == DRM_ZEX_HOSTRPC_OWNER_ASYNC, "owner async");
static_assert(sizeof(hostrpc_page_t) == DRM_ZEX_HOSTRPC_PAGE_SIZE, "page");
static_assert(sizeof(struct zex_hostrpc_page) == sizeof(hostrpc_page_t), "page type");
static_assert(sizeof(hr_word_t) == sizeof(__u64) && sizeof(hr_u32_t) == sizeof(__u32),
	      "atomics are plain words");

/* By default a caller polls H this often before sleeping in the kernel. */
#define ZEX_HOSTRPC_DEFAULT_SPIN	4096

struct zex_hostrpc {
	int fd;
	void *map;
	size_t map_size;
	struct drm_zex_hostrpc_info info;
	struct hostrpc_client client;	/* device views */
	struct hostrpc_server server;	/* host views */
	_Atomic uint64_t rings_sent;
};

static void zex_hostrpc_ring(void *ctx)
{
	struct zex_hostrpc *ch = ctx;

	ch->rings_sent++;
	/* -EPIPE on a dead channel: the caller sees the dead flag next. */
	(void)ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_RING);
}

static int zex_hostrpc_wait_h(void *ctx, uint32_t slot, enum hostrpc_wait_for what)
{
	struct zex_hostrpc *ch = ctx;
	struct drm_zex_hostrpc_wait args = {
		.slot = slot,
		.value = what == HOSTRPC_WAIT_ANSWER,
		.flags = what == HOSTRPC_WAIT_HOST_TURN ? DRM_ZEX_HOSTRPC_WAIT_HOST_TURN : 0,
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
	struct hostrpc_shared sh;
	struct drm_zex_hostrpc_control *control;
	struct drm_zex_hostrpc_private *priv;
	int ret;

	if (!ch) {
		close(fd);
		return -ENOMEM;
	}
	ch->fd = fd;
	if (ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &ch->info)) {
		ret = -errno;
		goto err;
	}
	ch->map_size = ch->info.map_size;
	ch->map = mmap(NULL, ch->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ch->map == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	control = ch->map;
	priv = (void *)((char *)ch->map + DRM_ZEX_HOSTRPC_PRIVATE_OFFSET);
	sh = (struct hostrpc_shared){
		.G = (hr_word_t *)control->g,
		.H = (hr_word_t *)control->h,
		.host_armed = (hr_u32_t *)&control->host_armed,
		.device_armed = (hr_u32_t *)&control->device_armed,
		.dead = (hr_u32_t *)&control->dead,
		.pages = (hostrpc_page_t *)((char *)ch->map + DRM_ZEX_HOSTRPC_SLOTS_OFFSET),
		.nslots = ch->info.nslots,
	};
	if (ch->info.role == DRM_ZEX_HOSTRPC_ROLE_DEVICE)
		ch->client = (struct hostrpc_client){
			.sh = sh, .W = (hr_u32_t *)priv->owner, .A = (hr_word_t *)priv->async,
			.id = ch->info.view_id, .spin = ZEX_HOSTRPC_DEFAULT_SPIN,
			.ring = zex_hostrpc_ring, .ring_ctx = ch,
			.wait = zex_hostrpc_wait_h, .wait_ctx = ch,
		};
	else
		ch->server = (struct hostrpc_server){
			.sh = sh, .T = (hr_u32_t *)priv->owner, .id = ch->info.view_id,
			.ring = zex_hostrpc_ring, .ring_ctx = ch,
		};
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
 * Return: 0, -EPERM, -EPIPE (dead channel), or another -errno.
 */
int zex_hostrpc_open_view(struct zex_hostrpc *ch, enum zex_hostrpc_role role,
			  struct zex_hostrpc **out)
{
	struct drm_zex_hostrpc_open_view args = {
		.role = (uint32_t)role,
		.flags = DRM_ZEX_HOSTRPC_CLOEXEC,
	};

	if (ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &args))
		return -errno;
	return zex_hostrpc_adopt(args.fd, out);
}

/**
 * zex_hostrpc_close - unmap and close a view
 * @ch: the view, or NULL.
 */
void zex_hostrpc_close(struct zex_hostrpc *ch)
{
	if (!ch)
		return;
	munmap(ch->map, ch->map_size);
	close(ch->fd);
	free(ch);
}

int zex_hostrpc_fd(const struct zex_hostrpc *ch)
{
	return ch->fd;
}

uint32_t zex_hostrpc_slots(const struct zex_hostrpc *ch)
{
	return ch->info.nslots;
}

/**
 * zex_hostrpc_stats - the kernel's counters for the channel, and this view's
 * @ch: a view.
 * @stats: filled.
 *
 * Return: 0 or -errno.
 */
int zex_hostrpc_stats(struct zex_hostrpc *ch, struct zex_hostrpc_stats *stats)
{
	struct drm_zex_hostrpc_info info;

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

/* The caller's page functions, called through the core's signature. */
struct zex_hostrpc_fns {
	zex_hostrpc_page_fn first, second;
	void *ctx;
};

static void call_first(hostrpc_page_t *page, void *fns)
{
	struct zex_hostrpc_fns *f = fns;

	f->first((struct zex_hostrpc_page *)page, f->ctx);
}

static void call_second(hostrpc_page_t *page, void *fns)
{
	struct zex_hostrpc_fns *f = fns;

	f->second((struct zex_hostrpc_page *)page, f->ctx);
}

static bool is_device(const struct zex_hostrpc *ch)
{
	return ch->info.role == DRM_ZEX_HOSTRPC_ROLE_DEVICE;
}

/**
 * zex_hostrpc_set_spin - how long a device-side caller polls before sleeping
 * @ch: a device view.
 * @polls: polls of H before the wait ioctl; UINT32_MAX never sleeps.
 *
 * Return: 0, -EINVAL for a host view.
 */
int zex_hostrpc_set_spin(struct zex_hostrpc *ch, uint32_t polls)
{
	if (!is_device(ch))
		return -EINVAL;
	ch->client.spin = polls;
	ch->client.wait = polls == UINT32_MAX ? NULL : zex_hostrpc_wait_h;
	return 0;
}

/**
 * zex_hostrpc_call - a synchronous call
 * @ch: a device view.
 * @hint: the caller's own slot index (e.g. its thread number).
 * @fill: writes the request into the slot's page.
 * @use: reads the answer.
 * @ctx: for both.
 *
 * Return: 0, -EPIPE when the host side is gone, -EINVAL for a host view.
 */
int zex_hostrpc_call(struct zex_hostrpc *ch, uint32_t hint, zex_hostrpc_page_fn fill,
		     zex_hostrpc_page_fn use, void *ctx)
{
	struct zex_hostrpc_fns fns = { fill, use, ctx };

	if (!is_device(ch))
		return -EINVAL;
	if (hostrpc_client_invoke(&ch->client, hint, call_first, call_second, &fns))
		return -EPIPE;
	return 0;
}

/**
 * zex_hostrpc_call_async - an asynchronous call
 * @ch: a device view.
 * @hint: as for zex_hostrpc_call().
 * @fill: writes the request.
 * @ctx: for @fill.
 *
 * Return: 0 once published, -EPIPE, -EINVAL for a host view.
 */
int zex_hostrpc_call_async(struct zex_hostrpc *ch, uint32_t hint, zex_hostrpc_page_fn fill,
			   void *ctx)
{
	struct zex_hostrpc_fns fns = { fill, NULL, ctx };

	if (!is_device(ch))
		return -EINVAL;
	if (hostrpc_client_invoke_async(&ch->client, hint, call_first, &fns))
		return -EPIPE;
	return 0;
}

/**
 * zex_hostrpc_collect - run the garbage collection of async calls now
 * @ch: a device view.
 *
 * Return: the slots freed, or -EINVAL for a host view.
 */
int zex_hostrpc_collect(struct zex_hostrpc *ch)
{
	if (!is_device(ch))
		return -EINVAL;
	return (int)hostrpc_client_collect(&ch->client);
}

/**
 * zex_hostrpc_serve - serve every slot that needs the host, once
 * @ch: a host view.
 * @operate: answers a request in its page.
 * @clear: tidies a page the caller is done with.
 * @ctx: for both.
 *
 * Return: 1 if any slot was served, 0 if none, -EINVAL for a device view.
 */
int zex_hostrpc_serve(struct zex_hostrpc *ch, zex_hostrpc_page_fn operate,
		      zex_hostrpc_page_fn clear, void *ctx)
{
	struct zex_hostrpc_fns fns = { operate, clear, ctx };

	if (is_device(ch))
		return -EINVAL;
	return hostrpc_server_handle(&ch->server, call_first, call_second, &fns);
}

/**
 * zex_hostrpc_arm - arm the doorbell before sleeping in poll(), read() or epoll
 * @ch: a host view.
 *
 * Return: 1 when nothing needs the host (sleep until the fd or the eventfd
 * is readable), 0 when work arrived (serve first), -EINVAL for a device view.
 */
int zex_hostrpc_arm(struct zex_hostrpc *ch)
{
	if (is_device(ch))
		return -EINVAL;
	return hostrpc_server_arm(&ch->server);
}

/**
 * zex_hostrpc_wait - sleep in the kernel until some slot needs the host
 * @ch: a host view.
 * @timeout_ns: absolute CLOCK_MONOTONIC, or INT64_MAX.
 *
 * The kernel arms and re-checks itself.
 *
 * Return: 0, -ETIME, -EINTR, -EINVAL for a device view.
 */
int zex_hostrpc_wait(struct zex_hostrpc *ch, int64_t timeout_ns)
{
	struct drm_zex_hostrpc_wait args = { .timeout_ns = timeout_ns };

	if (is_device(ch))
		return -EINVAL;
	return ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &args) ? -errno : 0;
}

/**
 * zex_hostrpc_set_eventfd - signal an eventfd with each ring to this side
 * @ch: a view.
 * @efd: an eventfd, or -1 to stop.
 *
 * Return: 0, -EBADF, -EINVAL (not an eventfd).
 */
int zex_hostrpc_set_eventfd(struct zex_hostrpc *ch, int efd)
{
	struct drm_zex_hostrpc_eventfd args = { .fd = efd };

	return ioctl(ch->fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &args) ? -errno : 0;
}
