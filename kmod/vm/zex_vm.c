// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_vm.c - mappings (userptr imports, buffer objects) and the copy engine
 *
 * An import pins the host pages with FOLL_LONGTERM (and FOLL_WRITE unless
 * it is read-only), charges them to the importer's RLIMIT_MEMLOCK through
 * account_locked_vm(), and binds them at their host address. zex pins
 * rather than following the host with an mmu_interval_notifier: the device
 * of this emulation has no way to fault and retry, so the defined outcome
 * of a host munmap() under a live import is that the device keeps seeing
 * the pages it pinned until the import is released — never freed memory.
 *
 * A buffer object is bound whole at a chosen device VA: its pieces' pages
 * are pinned for the binding's life, listed in the object's layout order,
 * into the same page tables.
 *
 * Each address space holds at most vm_max_mappings mappings (-ENOSPC
 * past that), and everything it allocates (mapping records, page lists,
 * page-table pages) is charged to the caller's memory cgroup.
 *
 * The copy engine checks every source and destination page against the
 * page table before it moves a byte, under the address space's lock, so a
 * faulting copy writes nothing and a copy never races a bind or release.
 * It yields the CPU after every page and stops with -EINTR when the caller
 * is being killed; the bytes before that point are then copied and the
 * rest not (a killed caller never sees the result).
 */

#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>

#include "../zex_bo.h"
#include "../zex_drv.h"
#include "zex_vm.h"

/**
 * struct zex_mapping - one mapping of an address space
 * @addr: its first byte (for an import, host VA == device VA).
 * @npages: its pages.
 * @writable: the device may write.
 * @pages: the pinned pages, in device-VA order.
 * @mm: a userptr import's mm, charged for the pinned pages; NULL for a bind.
 * @bo: a bound buffer object, held for the binding's life; NULL for an import.
 */
struct zex_mapping {
	u64 addr;
	u64 npages;
	bool writable;
	struct page **pages;
	struct mm_struct *mm;
	struct zex_bo *bo;
};

static atomic_t zex_vm_serial = ATOMIC_INIT(0);

static void zex_mapping_free(struct zex_mapping *map)
{
	if (map->bo) {
		zex_bo_unpin_pages(map->bo);
		drm_gem_object_put(&map->bo->base);
	} else {
		unpin_user_pages_dirty_lock(map->pages, map->npages, map->writable);
		account_locked_vm(map->mm, map->npages, false);
		mmdrop(map->mm);
	}
	kvfree(map->pages);
	kfree(map);
}

/*
 * Bind a mapping whose pages are pinned and enter it: 0, -ENOSPC when the
 * address space holds vm_max_mappings already, or the page table's -errno.
 */
static int zex_vm_insert(struct zex_vm *vm, struct zex_mapping *map, u32 *id)
{
	int ret;

	mutex_lock(&vm->lock);
	if (vm->count >= vm->max_mappings) {
		ret = -ENOSPC;
		goto out;
	}
	ret = zex_pt_bind(&vm->pt, map->addr, map->npages, map->pages, map->writable);
	if (!ret) {
		ret = xa_alloc(&vm->mappings, id, map, xa_limit_32b, GFP_KERNEL_ACCOUNT);
		if (ret)
			zex_pt_unbind(&vm->pt, map->addr, map->npages, map->writable);
		else
			vm->count++;
	}
out:
	mutex_unlock(&vm->lock);
	return ret;
}

static int zex_vm_show(struct seq_file *m, void *unused)
{
	struct zex_vm *vm = m->private;
	int level;

	mutex_lock(&vm->lock);
	for (level = ZEX_PT_LEVELS - 1; level >= 0; level--)
		seq_printf(m, "level %d: %lu tables\n", level, vm->pt.nodes[level]);
	zex_pt_dump(&vm->pt, m);
	mutex_unlock(&vm->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zex_vm);

/**
 * zex_vm_init - the address space of a newly opened file
 * @vm: to initialise.
 * @zdev: the device.
 * @file: the DRM file; its debugfs entry, zex/vm-<pid>-<n>, is named after
 *	the opener and a serial number.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_vm_init(struct zex_vm *vm, struct zex_device *zdev, struct drm_file *file)
{
	char name[32];
	int ret;

	mutex_init(&vm->lock);
	xa_init_flags(&vm->mappings, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	vm->max_mappings = zdev->vm_max_mappings;
	vm->count = 0;
	ret = zex_pt_init(&vm->pt);
	if (ret)
		return ret;
	/*
	 * Not under the DRM minor's directory: an unplug removes that while
	 * files are still open. zex's own directory lives as long as the
	 * module, which every open file pins.
	 */
	snprintf(name, sizeof(name), "vm-%d-%u", pid_nr(file->pid),
		 atomic_inc_return(&zex_vm_serial));
	vm->debugfs = debugfs_create_file(name, 0444, zex_debugfs_root, vm, &zex_vm_fops);
	return 0;
}

/**
 * zex_vm_fini - release every import and the tables
 * @vm: the address space of a file being closed.
 */
void zex_vm_fini(struct zex_vm *vm)
{
	struct zex_mapping *map;
	unsigned long id;

	debugfs_remove(vm->debugfs);
	xa_for_each(&vm->mappings, id, map) {
		zex_pt_unbind(&vm->pt, map->addr, map->npages, map->writable);
		zex_mapping_free(map);
	}
	xa_destroy(&vm->mappings);
	zex_pt_fini(&vm->pt);
	mutex_destroy(&vm->lock);
}

static struct zex_vm *zex_file_vm(struct drm_file *file)
{
	return &((struct zex_file *)file->driver_priv)->vm;
}

int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_userptr_import *args = data;
	struct zex_vm *vm = zex_file_vm(file);
	bool writable = !(args->flags & DRM_ZEX_USERPTR_READ_ONLY);
	struct zex_mapping *up;
	long pinned;
	u32 id;
	int ret;

	if (zex_ioctl_check(zdev, args->flags & ~DRM_ZEX_USERPTR_READ_ONLY) ||
	    zex_ioctl_check(zdev, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(zdev, !args->size) ||
	    zex_ioctl_check(zdev, !PAGE_ALIGNED(args->addr) || !PAGE_ALIGNED(args->size)) ||
	    zex_ioctl_check(zdev, args->addr + args->size < args->addr))
		return -EINVAL;
	if (zex_ioctl_check(zdev, args->size > DRM_ZEX_USERPTR_MAX_SIZE))
		return -E2BIG;
	if (zex_ioctl_check(zdev, !access_ok(u64_to_user_ptr(args->addr), args->size)) ||
	    zex_ioctl_check(zdev, (args->addr + args->size - 1) >> ZEX_PT_VA_BITS))
		return -EFAULT;

	up = kzalloc(sizeof(*up), GFP_KERNEL_ACCOUNT);
	if (!up)
		return -ENOMEM;
	up->addr = args->addr;
	up->npages = args->size >> PAGE_SHIFT;
	up->writable = writable;
	up->pages = kvmalloc_array(up->npages, sizeof(*up->pages), GFP_KERNEL_ACCOUNT);
	if (!up->pages) {
		ret = -ENOMEM;
		goto err_free;
	}

	ret = account_locked_vm(current->mm, up->npages, true);
	if (zex_ioctl_check(zdev, ret))
		goto err_free;
	up->mm = current->mm;
	mmgrab(up->mm);

	pinned = pin_user_pages_fast(up->addr, up->npages,
				     FOLL_LONGTERM | (writable ? FOLL_WRITE : 0), up->pages);
	if (pinned != up->npages) {
		drm_dbg(&zdev->drm, "pinned %ld of %llu pages at %llx\n", pinned,
			up->npages, up->addr);
		if (pinned > 0)
			unpin_user_pages(up->pages, pinned);
		/* A hole, an I/O mapping, read-only memory: not importable. */
		ret = pinned == -ENOMEM ? -ENOMEM : -EFAULT;
		goto err_unaccount;
	}

	ret = zex_vm_insert(vm, up, &id);
	if (zex_ioctl_check(zdev, ret)) {
		unpin_user_pages(up->pages, up->npages);
		goto err_unaccount;
	}
	args->id = id;
	return 0;

err_unaccount:
	account_locked_vm(up->mm, up->npages, false);
	mmdrop(up->mm);
err_free:
	kvfree(up->pages);
	kfree(up);
	return ret;
}

int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_vm_unbind *args = data;
	struct zex_vm *vm = zex_file_vm(file);
	struct zex_mapping *up;

	if (zex_ioctl_check(zdev, args->pad || args->reserved))
		return -EINVAL;
	mutex_lock(&vm->lock);
	up = xa_erase(&vm->mappings, args->id);
	if (up) {
		zex_pt_unbind(&vm->pt, up->addr, up->npages, up->writable);
		vm->count--;
	}
	mutex_unlock(&vm->lock);
	if (zex_ioctl_check(zdev, !up))
		return -ENOENT;
	zex_mapping_free(up);
	return 0;
}

int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_vm_bind *args = data;
	struct zex_vm *vm = zex_file_vm(file);
	struct zex_mapping *map;
	bool writes_read_only;
	struct zex_bo *bo;
	u64 end;
	int ret;

	if (zex_ioctl_check(zdev, args->flags & ~DRM_ZEX_VM_BIND_READ_ONLY) ||
	    zex_ioctl_check(zdev, args->pad || args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(zdev, !PAGE_ALIGNED(args->va)))
		return -EINVAL;
	bo = zex_bo_lookup(file, args->handle);
	if (zex_ioctl_check(zdev, !bo))
		return -ENOENT;
	writes_read_only = bo->read_only && !(args->flags & DRM_ZEX_VM_BIND_READ_ONLY);
	if (zex_ioctl_check(zdev, writes_read_only)) {
		ret = -EACCES;
		goto err_put;
	}
	end = args->va + bo->base.size;
	if (zex_ioctl_check(zdev, end < args->va || (end - 1) >> ZEX_PT_VA_BITS)) {
		ret = -EINVAL;
		goto err_put;
	}

	map = kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
	if (!map) {
		ret = -ENOMEM;
		goto err_put;
	}
	map->addr = args->va;
	map->npages = bo->base.size >> PAGE_SHIFT;
	map->writable = !(args->flags & DRM_ZEX_VM_BIND_READ_ONLY);
	map->bo = bo;	/* the lookup's reference is the binding's */
	map->pages = kvmalloc_array(map->npages, sizeof(*map->pages), GFP_KERNEL_ACCOUNT);
	if (!map->pages) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = zex_bo_pin_pages(bo, map->pages);
	if (ret)
		goto err_free;
	ret = zex_vm_insert(vm, map, &args->id);
	if (zex_ioctl_check(zdev, ret)) {
		zex_bo_unpin_pages(bo);
		goto err_free;
	}
	return 0;

err_free:
	kvfree(map->pages);
	kfree(map);
err_put:
	drm_gem_object_put(&bo->base);
	return ret;
}

/*
 * Check a range page by page; on a fault fill the record and fail with
 * -EFAULT; -EINTR when the caller is killed meanwhile.
 */
static int zex_copy_check(struct zex_vm *vm, u64 va, u64 len, bool write,
			  struct drm_zex_copy *args)
{
	u64 page;

	for (page = va & PAGE_MASK; page < va + len; page += PAGE_SIZE) {
		unsigned long pfn;
		bool writable;

		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();

		if (zex_pt_lookup(&vm->pt, page, &pfn, &writable))
			args->fault_reason = DRM_ZEX_FAULT_NOT_MAPPED;
		else if (write && !writable)
			args->fault_reason = DRM_ZEX_FAULT_READ_ONLY;
		else
			continue;
		args->fault_addr = max(page, va);
		return -EFAULT;
	}
	return 0;
}

int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct zex_device *zdev = to_zex_device(drm);
	struct drm_zex_copy *args = data;
	struct zex_vm *vm = zex_file_vm(file);
	bool wraps, overlap;
	u64 done = 0;
	int ret;

	args->fault_reason = DRM_ZEX_FAULT_NONE;
	args->fault_addr = 0;
	wraps = args->src + args->len < args->src || args->dst + args->len < args->dst;
	if (zex_ioctl_check(zdev, args->flags) ||
	    zex_ioctl_check(zdev, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(zdev, wraps))
		return -EINVAL;
	if (zex_ioctl_check(zdev, args->len > DRM_ZEX_COPY_MAX_LEN))
		return -E2BIG;
	if (!args->len)
		return 0;
	overlap = args->src < args->dst + args->len && args->dst < args->src + args->len;
	if (zex_ioctl_check(zdev, overlap))
		return -EINVAL;

	mutex_lock(&vm->lock);
	ret = zex_copy_check(vm, args->src, args->len, false, args);
	if (!ret)
		ret = zex_copy_check(vm, args->dst, args->len, true, args);
	while (!ret && done < args->len) {
		u64 src = args->src + done, dst = args->dst + done;
		size_t n = min3(PAGE_SIZE - offset_in_page(src), PAGE_SIZE - offset_in_page(dst),
				(unsigned long)(args->len - done));
		unsigned long spfn, dpfn;
		bool w;
		void *s, *d;

		zex_pt_lookup(&vm->pt, src, &spfn, &w);
		zex_pt_lookup(&vm->pt, dst, &dpfn, &w);
		s = kmap_local_page(pfn_to_page(spfn));
		d = kmap_local_page(pfn_to_page(dpfn));
		memcpy(d + offset_in_page(dst), s + offset_in_page(src), n);
		kunmap_local(d);
		kunmap_local(s);
		done += n;
		if (fatal_signal_pending(current)) {
			drm_dbg(&zdev->drm, "copy killed after %llu of %llu bytes\n",
				done, args->len);
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	mutex_unlock(&vm->lock);
	return ret;
}
