/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_hostrpc.h - the hostrpc channel inside the kernel
 *
 * A &struct zex_hostrpc_channel owns the shared memory of one channel: the
 * shared words (doorbell flags, summary flags, request and answer words),
 * the two sides' private words (W and the mirrors for the device side, T
 * for the host side) and the slot pages. Each
 * open file on it is a &struct zex_hostrpc_view of one side; the channel
 * lives as long as its views (an mmap holds its view's file).
 *
 * The files split the design: zex_hostrpc_channel.c (memory, views, the
 * create ioctl, mmap), zex_hostrpc_doorbell.c (rings, waits, poll/read,
 * eventfds) and zex_hostrpc_reap.c (a dead view's slots).
 */

#ifndef _ZEX_HOSTRPC_H_
#define _ZEX_HOSTRPC_H_

#include <linux/atomic.h>
#include <linux/idr.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/zex_drm.h>

#include "../common/zex_check.h"

struct drm_file;
struct eventfd_ctx;
struct file;

/**
 * enum zex_hostrpc_side - the two sides of a channel
 * @ZEX_HOSTRPC_HOST: serves calls (&DRM_ZEX_HOSTRPC_ROLE_HOST).
 * @ZEX_HOSTRPC_DEVICE: makes calls (&DRM_ZEX_HOSTRPC_ROLE_DEVICE).
 */
enum zex_hostrpc_side {
	ZEX_HOSTRPC_HOST = DRM_ZEX_HOSTRPC_ROLE_HOST,
	ZEX_HOSTRPC_DEVICE = DRM_ZEX_HOSTRPC_ROLE_DEVICE,
};

#define ZEX_HOSTRPC_SIDES	2

/**
 * struct zex_hostrpc_device - what a device keeps for its hostrpc channels
 * @lock: protects @channels, @users and @unplugged.
 * @channels: every live channel made on the device.
 * @users: live channels per creating user (index: the uid in the initial
 *	user namespace; value: an xa_mk_value() count).
 * @unplugged: the device is gone: no channel can be made, and every view
 *	request fails with -ENODEV.
 * @max_slots: the most slots of one channel (hostrpc_max_slots).
 * @max_channels: the most live channels of one user (hostrpc_max_channels).
 */
struct zex_hostrpc_device {
	struct mutex lock; /* see above */
	struct list_head channels;
	struct xarray users;
	bool unplugged;
	u32 max_slots;
	u32 max_channels;
};

/**
 * struct zex_hostrpc_side_state - what the kernel keeps per side
 * @wq: threads of this side sleeping in the wait ioctl, poll() or read().
 * @pending: rings delivered and not yet read().
 * @rings: rings delivered, ever.
 * @views: live views of this side.
 */
struct zex_hostrpc_side_state {
	wait_queue_head_t wq;
	u64 pending;
	u64 rings;
	unsigned int views;
};

/**
 * struct zex_hostrpc_channel - one channel
 * @ref: one per view, plus the creator's while it sets up.
 * @drm: the device that made it, for log messages (a reference), or NULL.
 * @hdev: the device's channel list and limits, when @drm is set.
 * @link: in &zex_hostrpc_device.channels.
 * @user: the creator's uid, charged one channel in @hdev.
 * @unplugged: the device is gone (set under @hdev's lock, read without).
 * @nslots: the number of slots; the kernel's copy, never re-read from
 *	shared memory.
 * @control: the shared control page.
 * @priv: the private words of each side, indexed by &enum zex_hostrpc_side.
 * @slots: the slot pages.
 * @lock: protects @side, @view_list, @dead and each view's eventfd.
 * @side: per-side wait queues, ring counts and view counts.
 * @view_list: every live view.
 * @dead: no host view is left (also published in @control).
 * @ids: owner ids of views, from 2 (1 is %DRM_ZEX_HOSTRPC_OWNER_ORPHAN).
 * @reap_lock: serialises the reaper.
 * @orphans: slots of dead device views that the kernel is finishing.
 * @norphans: how many bits @orphans has set.
 * @reaped: slots returned to the pool that way.
 * @reap_work: runs the reaper when the host rings the device side.
 */
struct zex_hostrpc_channel {
	struct kref ref;
	struct drm_device *drm;
	struct zex_hostrpc_device *hdev;
	struct list_head link;
	kuid_t user;
	bool unplugged;
	u32 nslots;
	struct drm_zex_hostrpc_control *control;
	struct drm_zex_hostrpc_private *priv[ZEX_HOSTRPC_SIDES];
	void *slots;

	spinlock_t lock; /* see above */
	struct zex_hostrpc_side_state side[ZEX_HOSTRPC_SIDES];
	struct list_head view_list;
	bool dead;
	struct ida ids;

	struct mutex reap_lock; /* serialises reaper passes */
	unsigned long *orphans;
	atomic_t norphans;
	u64 reaped;
	struct work_struct reap_work;
};

/**
 * struct zex_hostrpc_view - one open file on a channel
 * @ch: the channel (a reference).
 * @side: which side the view acts for.
 * @id: its owner id in W or T words.
 * @eventfd: signalled with every ring to @side, or NULL.
 * @link: in &zex_hostrpc_channel.view_list.
 */
struct zex_hostrpc_view {
	struct zex_hostrpc_channel *ch;
	enum zex_hostrpc_side side;
	u32 id;
	struct eventfd_ctx *eventfd;
	struct list_head link;
};

/* zex_hostrpc_check - zex_check() for a request on channel @ch. */
#define zex_hostrpc_check(ch, cond) zex_check((ch)->drm, "hostrpc", cond)

/* zex_hostrpc_channel.c */
void zex_hostrpc_device_init(struct zex_hostrpc_device *hdev, u32 max_slots,
			     u32 max_channels);
void zex_hostrpc_device_fini(struct zex_hostrpc_device *hdev);
void zex_hostrpc_device_unplug(struct zex_hostrpc_device *hdev);
struct zex_hostrpc_channel *
zex_hostrpc_channel_create(struct drm_device *drm, u32 nslots);
void zex_hostrpc_channel_put(struct zex_hostrpc_channel *ch);
struct zex_hostrpc_view *zex_hostrpc_view_create(struct zex_hostrpc_channel *ch,
						 enum zex_hostrpc_side side);
void zex_hostrpc_view_destroy(struct zex_hostrpc_view *view);
extern atomic_t zex_hostrpc_channels_live;
long zex_hostrpc_create_ioctl(struct zex_hostrpc_device *hdev, struct drm_file *file,
			      struct drm_zex_hostrpc_create __user *uarg);

/* zex_hostrpc_doorbell.c */
void zex_hostrpc_wake_side(struct zex_hostrpc_channel *ch,
			   enum zex_hostrpc_side side);
void zex_hostrpc_deliver(struct zex_hostrpc_channel *ch,
			 enum zex_hostrpc_side to);
bool zex_hostrpc_ring_if_armed(struct zex_hostrpc_channel *ch,
			       enum zex_hostrpc_side to);
bool zex_hostrpc_host_has_work(struct zex_hostrpc_channel *ch);
int zex_hostrpc_ring(struct zex_hostrpc_view *view);
long zex_hostrpc_wait(struct zex_hostrpc_view *view,
		      const struct drm_zex_hostrpc_wait *args);
int zex_hostrpc_set_eventfd(struct zex_hostrpc_view *view, int fd);
ssize_t zex_hostrpc_read(struct zex_hostrpc_view *view, bool nonblock,
			 u64 *count);
__poll_t zex_hostrpc_poll_mask(struct zex_hostrpc_view *view);

/* zex_hostrpc_reap.c */
void zex_hostrpc_release_owner(struct zex_hostrpc_view *view);
void zex_hostrpc_reap(struct zex_hostrpc_channel *ch);
void zex_hostrpc_reap_work(struct work_struct *work);

#endif /* _ZEX_HOSTRPC_H_ */
