// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_vm_ioctl.c - the address-space ioctls: userptr, bind, unbind, copy
 *
 * Each validates every field of its request (unknown flags, non-zero pads,
 * alignment, wrap-around, limits) and logs the check that failed, finds
 * the caller's address space (one per open file) and, for a bind, the
 * buffer object, then asks vm/ to do the work.
 */

#include <linux/mm.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>

#include "../bo/zex_bo.h"
#include "../device/zex_device.h"
#include "zex_vm.h"

static struct zex_vm *zex_file_vm(struct drm_file *file)
{
	return to_zex_file(file)->vm;
}

int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_userptr_import *args = data;
	bool writable = !(args->flags & DRM_ZEX_USERPTR_READ_ONLY);

	if (zex_ioctl_check(drm, args->flags & ~(DRM_ZEX_USERPTR_READ_ONLY |
						 DRM_ZEX_USERPTR_MIRROR)) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(drm, !args->size) ||
	    zex_ioctl_check(drm, !PAGE_ALIGNED(args->addr) || !PAGE_ALIGNED(args->size)) ||
	    zex_ioctl_check(drm, args->addr + args->size < args->addr))
		return -EINVAL;
	if (zex_ioctl_check(drm, args->size > DRM_ZEX_USERPTR_MAX_SIZE))
		return -E2BIG;
	if (zex_ioctl_check(drm, !access_ok(u64_to_user_ptr(args->addr), args->size)) ||
	    zex_ioctl_check(drm, (args->addr + args->size - 1) >> ZEX_PT_VA_BITS))
		return -EFAULT;
	if (args->flags & DRM_ZEX_USERPTR_MIRROR)
		return zex_vm_import_mirror(zex_file_vm(file), args->addr, args->size, writable,
					    &args->id);
	return zex_vm_import_userptr(zex_file_vm(file), args->addr, args->size, writable,
				     &args->id);
}

int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_vm_unbind *args = data;

	if (zex_ioctl_check(drm, args->pad || args->reserved))
		return -EINVAL;
	if (zex_ioctl_check(drm, zex_vm_unbind(zex_file_vm(file), args->id)))
		return -ENOENT;
	return 0;
}

int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_vm_bind *args = data;
	bool writable = !(args->flags & DRM_ZEX_VM_BIND_READ_ONLY);
	struct zex_bo *bo;
	u64 end, range;
	int ret;

	if (zex_ioctl_check(drm, args->flags & ~DRM_ZEX_VM_BIND_READ_ONLY) ||
	    zex_ioctl_check(drm, args->pad) ||
	    zex_ioctl_check(drm, !PAGE_ALIGNED(args->va)) ||
	    zex_ioctl_check(drm, !PAGE_ALIGNED(args->offset) || !PAGE_ALIGNED(args->range)))
		return -EINVAL;
	bo = zex_bo_lookup(file, args->handle);
	if (zex_ioctl_check(drm, !bo))
		return -ENOENT;
	if (zex_ioctl_check(drm, bo->read_only && writable)) {
		ret = -EACCES;
		goto err_put;
	}
	/* The range inside the object: from @offset, @range bytes or the rest. */
	if (zex_ioctl_check(drm, args->offset >= bo->base.size) ||
	    zex_ioctl_check(drm, args->range > bo->base.size - args->offset)) {
		ret = -EINVAL;
		goto err_put;
	}
	range = args->range ?: bo->base.size - args->offset;
	end = args->va + range;
	if (zex_ioctl_check(drm, end < args->va || (end - 1) >> ZEX_PT_VA_BITS)) {
		ret = -EINVAL;
		goto err_put;
	}
	/* The lookup's reference becomes the binding's. */
	ret = zex_vm_bind_bo(zex_file_vm(file), bo, args->va, args->offset, range, writable,
			     &args->id);
	if (zex_ioctl_check(drm, ret))
		goto err_put;
	return 0;

err_put:
	drm_gem_object_put(&bo->base);
	return ret;
}

int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_zex_copy *args = data;
	struct zex_vm_op op = { .kind = ZEX_VM_OP_COPY };
	bool wraps, overlap;
	int ret;

	args->fault_reason = DRM_ZEX_FAULT_NONE;
	args->fault_addr = 0;
	wraps = args->src + args->len < args->src || args->dst + args->len < args->dst;
	if (zex_ioctl_check(drm, args->flags) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(drm, wraps))
		return -EINVAL;
	if (zex_ioctl_check(drm, args->len > DRM_ZEX_COPY_MAX_LEN))
		return -E2BIG;
	if (!args->len)
		return 0;
	overlap = args->src < args->dst + args->len && args->dst < args->src + args->len;
	if (zex_ioctl_check(drm, overlap))
		return -EINVAL;
	op.src = args->src;
	op.dst = args->dst;
	op.len = args->len;
	ret = zex_vm_execute(zex_file_vm(file), &op);
	args->fault_reason = op.fault_reason;
	args->fault_addr = op.fault_addr;
	return ret;
}
