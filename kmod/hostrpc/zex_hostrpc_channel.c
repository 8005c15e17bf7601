// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_hostrpc_channel.c - hostrpc channels, their views and files
 *
 * DRM_IOCTL_ZEX_HOSTRPC_CREATE allocates a channel's memory (vmalloc'ed,
 * zeroed, mappable, charged to the caller's memory cgroup) and returns its
 * first host view as an anonymous file. A channel counts against its
 * creator's user until it is freed (hostrpc_max_channels live channels per
 * user): a channel outlives the DRM file that made it, so a per-file count
 * would bound nothing. The ioctl copies its own arguments, so that the new
 * descriptor is installed only after the copy-out succeeded.
 * Each view is a file; mmap() of a view maps the shared words, the view's
 * side's private words and the slot pages, through a fault handler that
 * picks the private words by the view's side. The channel is freed with
 * its last view, after the reaper has stopped.
 *
 * A view's release is the death of a peer: the last host view marks the
 * channel dead and wakes every device-side waiter; a device view hands its
 * slots to the reaper; a host view drops its T words.
 *
 * When the device is unplugged every view request (ioctl, read, a new
 * mmap) fails with -ENODEV, sleepers of both sides are woken to return
 * -ENODEV, and poll() reports EPOLLERR | EPOLLHUP; existing mappings stay
 * valid, as the memory is the channel's.
 */

#include <linux/anon_inodes.h>
#include <linux/bitmap.h>
#include <linux/cred.h>
#include <linux/eventfd.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "../common/zex_gfp.h"
#include "../common/zex_kunit_export.h"
#include "../common/zex_compat.h"
#include "zex_hostrpc.h"

/*
 * Live channels, in /sys/kernel/debug/zex/hostrpc_channels: the tests
 * check that every way of closing a channel's views frees it.
 */
atomic_t zex_hostrpc_channels_live = ATOMIC_INIT(0);
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_channels_live);

/**
 * zex_hostrpc_device_init - a device's channel list and limits
 * @hdev: to initialise.
 * @max_slots: the most slots of one channel.
 * @max_channels: the most live channels of one user.
 */
void zex_hostrpc_device_init(struct zex_hostrpc_device *hdev, u32 max_slots,
			     u32 max_channels)
{
	mutex_init(&hdev->lock);
	INIT_LIST_HEAD(&hdev->channels);
	xa_init(&hdev->users);
	hdev->max_slots = max_slots;
	hdev->max_channels = max_channels;
}

/**
 * zex_hostrpc_device_fini - undo zex_hostrpc_device_init()
 * @hdev: a device with no channel left (each holds the device).
 */
void zex_hostrpc_device_fini(struct zex_hostrpc_device *hdev)
{
	WARN_ON(!list_empty(&hdev->channels));
	xa_destroy(&hdev->users);
	mutex_destroy(&hdev->lock);
}

/**
 * zex_hostrpc_device_unplug - the device is gone: fail every view request
 * @hdev: the device's channels.
 *
 * Wakes the sleepers of both sides of every channel; they and every later
 * request see the channel unplugged.
 */
void zex_hostrpc_device_unplug(struct zex_hostrpc_device *hdev)
{
	struct zex_hostrpc_channel *ch;

	mutex_lock(&hdev->lock);
	hdev->unplugged = true;
	list_for_each_entry(ch, &hdev->channels, link) {
		WRITE_ONCE(ch->unplugged, true);
		zex_hostrpc_wake_side(ch, ZEX_HOSTRPC_HOST);
		zex_hostrpc_wake_side(ch, ZEX_HOSTRPC_DEVICE);
	}
	mutex_unlock(&hdev->lock);
}

/* Charge @ch to the calling user and list it; -ENOSPC past the limit. */
static int zex_hostrpc_device_add(struct zex_hostrpc_device *hdev,
				  struct zex_hostrpc_channel *ch)
{
	unsigned long uid = from_kuid(&init_user_ns, current_uid());
	unsigned long count;
	int ret;

	mutex_lock(&hdev->lock);
	if (zex_hostrpc_check(ch, hdev->unplugged)) {
		ret = -ENODEV;
		goto out;
	}
	count = xa_to_value(xa_load(&hdev->users, uid));
	if (zex_hostrpc_check(ch, count >= hdev->max_channels)) {
		ret = -ENOSPC;
		goto out;
	}
	ret = xa_err(xa_store(&hdev->users, uid, xa_mk_value(count + 1),
			      ZEX_GFP_USER));
	if (ret)
		goto out;
	ch->hdev = hdev;
	ch->user = current_uid();
	list_add_tail(&ch->link, &hdev->channels);
out:
	mutex_unlock(&hdev->lock);
	return ret;
}

static void zex_hostrpc_device_remove(struct zex_hostrpc_channel *ch)
{
	struct zex_hostrpc_device *hdev = ch->hdev;
	unsigned long uid = from_kuid(&init_user_ns, ch->user);
	unsigned long count;

	mutex_lock(&hdev->lock);
	list_del(&ch->link);
	count = xa_to_value(xa_load(&hdev->users, uid));
	if (count > 1)
		xa_store(&hdev->users, uid, xa_mk_value(count - 1), GFP_NOWAIT);
	else
		xa_erase(&hdev->users, uid);
	mutex_unlock(&hdev->lock);
}

/*
 * Zeroed kernel memory that views map, charged to the caller's memcg. Its
 * size is the caller's choice: a failure at the cgroup's limit is the
 * caller's -ENOMEM, not a warning in the kernel log.
 */
static void *zex_hostrpc_alloc_shared(size_t size)
{
	return __vmalloc(size, ZEX_GFP_USER | __GFP_ZERO);
}

/**
 * zex_hostrpc_channel_create - allocate a channel and its shared memory
 * @drm: the device, for log messages (a reference is taken), or NULL.
 * @nslots: 1 to %DRM_ZEX_HOSTRPC_MAX_SLOTS.
 *
 * Return: the channel with one reference (the caller's), or an ERR_PTR.
 */
struct zex_hostrpc_channel *
zex_hostrpc_channel_create(struct drm_device *drm, u32 nslots)
{
	struct zex_hostrpc_channel *ch;
	int i;

	if (!nslots || nslots > DRM_ZEX_HOSTRPC_MAX_SLOTS)
		return ERR_PTR(-EINVAL);

	ch = kzalloc(sizeof(*ch), ZEX_GFP_USER);
	if (!ch)
		return ERR_PTR(-ENOMEM);
	ch->nslots = nslots;
	kref_init(&ch->ref);
	spin_lock_init(&ch->lock);
	INIT_LIST_HEAD(&ch->view_list);
	ida_init(&ch->ids);
	mutex_init(&ch->reap_lock);
	INIT_WORK(&ch->reap_work, zex_hostrpc_reap_work);
	for (i = 0; i < ZEX_HOSTRPC_SIDES; i++)
		init_waitqueue_head(&ch->side[i].wq);

	atomic_inc(&zex_hostrpc_channels_live);
	ch->control = zex_hostrpc_alloc_shared(DRM_ZEX_HOSTRPC_CONTROL_SIZE);
	ch->priv[ZEX_HOSTRPC_HOST] = zex_hostrpc_alloc_shared(DRM_ZEX_HOSTRPC_PRIVATE_SIZE);
	ch->priv[ZEX_HOSTRPC_DEVICE] = zex_hostrpc_alloc_shared(DRM_ZEX_HOSTRPC_PRIVATE_SIZE);
	ch->slots = zex_hostrpc_alloc_shared((size_t)nslots * PAGE_SIZE);
	ch->orphans = bitmap_zalloc(nslots, ZEX_GFP_USER);
	if (!ch->control || !ch->priv[ZEX_HOSTRPC_HOST] ||
	    !ch->priv[ZEX_HOSTRPC_DEVICE] || !ch->slots || !ch->orphans) {
		zex_hostrpc_channel_put(ch);
		return ERR_PTR(-ENOMEM);
	}

	ch->control->magic = DRM_ZEX_HOSTRPC_MAGIC;
	ch->control->version = DRM_ZEX_HOSTRPC_VERSION;
	ch->control->nslots = nslots;
	ch->control->map_size = DRM_ZEX_HOSTRPC_MAP_SIZE(nslots);
	if (drm) {
		drm_dev_get(drm);
		ch->drm = drm;
	}
	return ch;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_channel_create);

static void zex_hostrpc_channel_release(struct kref *ref)
{
	struct zex_hostrpc_channel *ch =
		container_of(ref, struct zex_hostrpc_channel, ref);

	/* No view is left, so nothing can queue the reaper again. */
	cancel_work_sync(&ch->reap_work);
	if (ch->hdev)
		zex_hostrpc_device_remove(ch);
	bitmap_free(ch->orphans);
	vfree(ch->slots);
	vfree(ch->priv[ZEX_HOSTRPC_DEVICE]);
	vfree(ch->priv[ZEX_HOSTRPC_HOST]);
	vfree(ch->control);
	mutex_destroy(&ch->reap_lock);
	ida_destroy(&ch->ids);
	if (ch->drm)
		drm_dev_put(ch->drm);
	kfree(ch);
	atomic_dec(&zex_hostrpc_channels_live);
}

/**
 * zex_hostrpc_channel_put - drop a reference to a channel
 * @ch: the channel.
 */
void zex_hostrpc_channel_put(struct zex_hostrpc_channel *ch)
{
	kref_put(&ch->ref, zex_hostrpc_channel_release);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_channel_put);

/**
 * zex_hostrpc_view_create - a new view of one side
 * @ch: the channel; the view takes a reference.
 * @side: the side it acts for.
 *
 * Return: the view, or an ERR_PTR: -EPIPE when the channel is dead,
 * -ENOSPC when no owner id is left, -ENOMEM.
 */
struct zex_hostrpc_view *zex_hostrpc_view_create(struct zex_hostrpc_channel *ch,
						 enum zex_hostrpc_side side)
{
	struct zex_hostrpc_view *view;
	int id;

	view = kzalloc(sizeof(*view), ZEX_GFP_USER);
	if (!view)
		return ERR_PTR(-ENOMEM);
	id = ida_alloc_range(&ch->ids, DRM_ZEX_HOSTRPC_OWNER_ORPHAN + 1,
			     DRM_ZEX_HOSTRPC_OWNER_ID_MASK, ZEX_GFP_USER);
	if (id < 0) {
		kfree(view);
		return ERR_PTR(id);
	}
	view->ch = ch;
	view->side = side;
	view->id = id;

	spin_lock(&ch->lock);
	if (ch->dead) {
		spin_unlock(&ch->lock);
		ida_free(&ch->ids, id);
		kfree(view);
		return ERR_PTR(-EPIPE);
	}
	list_add_tail(&view->link, &ch->view_list);
	ch->side[side].views++;
	spin_unlock(&ch->lock);
	kref_get(&ch->ref);
	return view;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_view_create);

/**
 * zex_hostrpc_view_destroy - a view's last file reference and mapping went
 * @view: the view.
 *
 * The last host view makes the channel dead; a device view's slots go to
 * the reaper, a host view's T words are released.
 */
void zex_hostrpc_view_destroy(struct zex_hostrpc_view *view)
{
	struct zex_hostrpc_channel *ch = view->ch;
	struct eventfd_ctx *eventfd;
	bool now_dead = false;

	spin_lock(&ch->lock);
	list_del(&view->link);
	if (!--ch->side[view->side].views && view->side == ZEX_HOSTRPC_HOST) {
		WRITE_ONCE(ch->dead, true);
		now_dead = true;
	}
	eventfd = view->eventfd;
	view->eventfd = NULL;
	spin_unlock(&ch->lock);

	if (now_dead) {
		/* Spinning devices see this; sleeping ones are woken. */
		smp_store_mb(ch->control->dead, DRM_ZEX_HOSTRPC_DEAD_HOST);
		zex_hostrpc_wake_side(ch, ZEX_HOSTRPC_DEVICE);
	}
	zex_hostrpc_release_owner(view);

	if (eventfd)
		eventfd_ctx_put(eventfd);
	ida_free(&ch->ids, view->id);
	kfree(view);
	zex_hostrpc_channel_put(ch);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_hostrpc_view_destroy);

static vm_fault_t zex_hostrpc_fault(struct vm_fault *vmf)
{
	struct zex_hostrpc_view *view = vmf->vma->vm_private_data;
	struct zex_hostrpc_channel *ch = view->ch;
	const unsigned long control_pages = DRM_ZEX_HOSTRPC_CONTROL_SIZE / PAGE_SIZE;
	const unsigned long priv_pages = DRM_ZEX_HOSTRPC_PRIVATE_SIZE / PAGE_SIZE;
	unsigned long pgoff = vmf->pgoff;
	struct page *page;
	void *kaddr;

	if (pgoff < control_pages)
		kaddr = (void *)ch->control + pgoff * PAGE_SIZE;
	else if (pgoff - control_pages < priv_pages)
		kaddr = (void *)ch->priv[view->side] + (pgoff - control_pages) * PAGE_SIZE;
	else if (pgoff - control_pages - priv_pages < ch->nslots)
		kaddr = ch->slots + (pgoff - control_pages - priv_pages) * PAGE_SIZE;
	else
		return VM_FAULT_SIGBUS;

	page = vmalloc_to_page(kaddr);
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct zex_hostrpc_vm_ops = {
	.fault = zex_hostrpc_fault,
};

static int zex_hostrpc_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct zex_hostrpc_view *view = file->private_data;
	struct zex_hostrpc_channel *ch = view->ch;

	if (zex_hostrpc_check(ch, READ_ONCE(ch->unplugged)))
		return -ENODEV;
	if (zex_hostrpc_check(ch, vma->vm_pgoff != 0))
		return -EINVAL;
	if (zex_hostrpc_check(ch, vma->vm_end - vma->vm_start !=
			      DRM_ZEX_HOSTRPC_MAP_SIZE(ch->nslots)))
		return -EINVAL;
	if (zex_hostrpc_check(ch, !(vma->vm_flags & VM_SHARED)))
		return -EINVAL;

	/* The file, which the mapping holds, keeps the view alive. */
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &zex_hostrpc_vm_ops;
	vma->vm_private_data = view;
	return 0;
}

static int zex_hostrpc_release(struct inode *inode, struct file *file)
{
	zex_hostrpc_view_destroy(file->private_data);
	return 0;
}

static const struct file_operations zex_hostrpc_fops;

/*
 * A new view with its file and a reserved descriptor; the caller installs
 * the descriptor once nothing can fail any more.
 */
static int zex_hostrpc_view_file(struct zex_hostrpc_channel *ch,
				 enum zex_hostrpc_side side, bool cloexec,
				 struct file **filep, u32 *id)
{
	struct zex_hostrpc_view *view;
	struct file *file;
	int fd;

	fd = get_unused_fd_flags(cloexec ? O_CLOEXEC : 0);
	if (fd < 0)
		return fd;
	view = zex_hostrpc_view_create(ch, side);
	if (IS_ERR(view)) {
		put_unused_fd(fd);
		return PTR_ERR(view);
	}
	file = anon_inode_getfile("[zex-hostrpc]", &zex_hostrpc_fops, view,
				  O_RDWR);
	if (IS_ERR(file)) {
		zex_hostrpc_view_destroy(view);
		put_unused_fd(fd);
		return PTR_ERR(file);
	}
	*filep = file;
	*id = view->id;
	return fd;
}

static long zex_hostrpc_open_view_ioctl(struct zex_hostrpc_view *view,
					void __user *uarg)
{
	struct zex_hostrpc_channel *ch = view->ch;
	struct drm_zex_hostrpc_open_view args;
	struct file *file;
	int fd;

	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;
	if (zex_hostrpc_check(ch, args.flags & ~DRM_ZEX_HOSTRPC_CLOEXEC) ||
	    zex_hostrpc_check(ch, args.reserved) ||
	    zex_hostrpc_check(ch, args.role != DRM_ZEX_HOSTRPC_ROLE_HOST &&
			      args.role != DRM_ZEX_HOSTRPC_ROLE_DEVICE))
		return -EINVAL;
	if (zex_hostrpc_check(ch, view->side == ZEX_HOSTRPC_DEVICE &&
			      args.role == DRM_ZEX_HOSTRPC_ROLE_HOST))
		return -EPERM;

	fd = zex_hostrpc_view_file(ch, args.role, args.flags & DRM_ZEX_HOSTRPC_CLOEXEC,
				   &file, &args.view_id);
	if (fd < 0)
		return fd;
	args.fd = fd;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		fput(file);
		put_unused_fd(fd);
		return -EFAULT;
	}
	fd_install(fd, file);
	return 0;
}

static long zex_hostrpc_info_ioctl(struct zex_hostrpc_view *view,
				   void __user *uarg)
{
	struct zex_hostrpc_channel *ch = view->ch;
	struct drm_zex_hostrpc_info info = {
		.nslots = ch->nslots,
		.role = view->side,
		.view_id = view->id,
		.map_size = DRM_ZEX_HOSTRPC_MAP_SIZE(ch->nslots),
		.orphans = atomic_read(&ch->norphans),
	};

	spin_lock(&ch->lock);
	info.flags = ch->dead ? DRM_ZEX_HOSTRPC_INFO_DEAD : 0;
	info.host_rings = ch->side[ZEX_HOSTRPC_HOST].rings;
	info.device_rings = ch->side[ZEX_HOSTRPC_DEVICE].rings;
	spin_unlock(&ch->lock);
	mutex_lock(&ch->reap_lock);
	info.reaped = ch->reaped;
	mutex_unlock(&ch->reap_lock);

	return copy_to_user(uarg, &info, sizeof(info)) ? -EFAULT : 0;
}

static long zex_hostrpc_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct zex_hostrpc_view *view = file->private_data;
	struct zex_hostrpc_channel *ch = view->ch;
	void __user *uarg = (void __user *)arg;

	if (zex_hostrpc_check(ch, READ_ONCE(ch->unplugged)))
		return -ENODEV;
	switch (cmd) {
	case DRM_ZEX_HOSTRPC_IOCTL_INFO:
		return zex_hostrpc_info_ioctl(view, uarg);
	case DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW:
		return zex_hostrpc_open_view_ioctl(view, uarg);
	case DRM_ZEX_HOSTRPC_IOCTL_RING:
		return zex_hostrpc_ring(view);
	case DRM_ZEX_HOSTRPC_IOCTL_WAIT: {
		struct drm_zex_hostrpc_wait args;

		if (copy_from_user(&args, uarg, sizeof(args)))
			return -EFAULT;
		return zex_hostrpc_wait(view, &args);
	}
	case DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD: {
		struct drm_zex_hostrpc_eventfd args;

		if (copy_from_user(&args, uarg, sizeof(args)))
			return -EFAULT;
		if (zex_hostrpc_check(ch, args.flags) ||
		    zex_hostrpc_check(ch, args.reserved))
			return -EINVAL;
		return zex_hostrpc_set_eventfd(view, args.fd);
	}
	default:
		drm_dbg(ch->drm, "hostrpc: unknown ioctl %#x\n", cmd);
		return -ENOTTY;
	}
}

static ssize_t zex_hostrpc_read_file(struct file *file, char __user *buf,
				     size_t count, loff_t *ppos)
{
	struct zex_hostrpc_view *view = file->private_data;
	ssize_t ret;
	u64 rings;

	if (zex_hostrpc_check(view->ch, count < sizeof(rings)))
		return -EINVAL;
	ret = zex_hostrpc_read(view, file->f_flags & O_NONBLOCK, &rings);
	if (ret < 0)
		return ret;
	return copy_to_user(buf, &rings, sizeof(rings)) ? -EFAULT : sizeof(rings);
}

static __poll_t zex_hostrpc_poll(struct file *file, poll_table *wait)
{
	struct zex_hostrpc_view *view = file->private_data;

	poll_wait(file, &view->ch->side[view->side].wq, wait);
	return zex_hostrpc_poll_mask(view);
}

static const struct file_operations zex_hostrpc_fops = {
	.owner = THIS_MODULE,
	.release = zex_hostrpc_release,
	.mmap = zex_hostrpc_mmap,
	.read = zex_hostrpc_read_file,
	.poll = zex_hostrpc_poll,
	.unlocked_ioctl = zex_hostrpc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/**
 * zex_hostrpc_create_ioctl - DRM_IOCTL_ZEX_HOSTRPC_CREATE
 * @hdev: the channels of the device the file belongs to.
 * @file: the caller's DRM file.
 * @uarg: &struct drm_zex_hostrpc_create in the caller's memory.
 *
 * Called by zex's ioctl entry instead of through the DRM ioctl table: it
 * copies its arguments in and out itself, so that the descriptor is
 * installed only once nothing can fail (a descriptor installed before a
 * failing copy-out could not be named by the caller, nor taken back).
 *
 * Return: 0, or a negative errno as the uapi header lists.
 */
long zex_hostrpc_create_ioctl(struct zex_hostrpc_device *hdev, struct drm_file *file,
			      struct drm_zex_hostrpc_create __user *uarg)
{
	struct drm_device *drm = file->minor->dev;
	struct drm_zex_hostrpc_create args;
	struct zex_hostrpc_channel *ch;
	struct file *chfile;
	int idx, fd;
	long ret;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	if (copy_from_user(&args, uarg, sizeof(args))) {
		ret = -EFAULT;
		goto out;
	}
	if (zex_check(drm, "ioctl", args.flags & ~DRM_ZEX_HOSTRPC_CLOEXEC) ||
	    zex_check(drm, "ioctl", args.reserved[0] || args.reserved[1]) ||
	    zex_check(drm, "ioctl", !args.nslots)) {
		ret = -EINVAL;
		goto out;
	}
	if (zex_check(drm, "ioctl", args.nslots > hdev->max_slots)) {
		ret = -E2BIG;
		goto out;
	}
	/* The layout is in 4 KiB pages; each must be a page of its own. */
	if (zex_check(drm, "ioctl", PAGE_SIZE != DRM_ZEX_HOSTRPC_PAGE_SIZE)) {
		ret = -EOPNOTSUPP;
		goto out;
	}

	ch = zex_hostrpc_channel_create(drm, args.nslots);
	if (IS_ERR(ch)) {
		ret = PTR_ERR(ch);
		goto out;
	}
	ret = zex_hostrpc_device_add(hdev, ch);
	if (ret) {
		zex_hostrpc_channel_put(ch);
		goto out;
	}
	fd = zex_hostrpc_view_file(ch, ZEX_HOSTRPC_HOST,
				   args.flags & DRM_ZEX_HOSTRPC_CLOEXEC,
				   &chfile, &args.view_id);
	zex_hostrpc_channel_put(ch);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	args.fd = fd;
	args.map_size = DRM_ZEX_HOSTRPC_MAP_SIZE(args.nslots);
	if (copy_to_user(uarg, &args, sizeof(args))) {
		fput(chfile);
		put_unused_fd(fd);
		ret = -EFAULT;
		goto out;
	}
	fd_install(fd, chfile);
	ret = 0;
out:
	drm_dev_exit(idx);
	return ret;
}
