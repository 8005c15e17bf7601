/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_vm.h - a device address space
 *
 * Each open DRM file of zex has one device virtual address space: a
 * software page table (&struct zex_pt) and the mappings bound into it:
 * userptr imports (device VA == host VA) and buffer objects. The copy
 * engine reads and writes through it, which is how tests see what the
 * device can see.
 */

#ifndef _ZEX_VM_H_
#define _ZEX_VM_H_

#include <linux/mutex.h>
#include <linux/xarray.h>

#include "zex_pt.h"

struct dentry;
struct drm_file;
struct zex_device;

/**
 * struct zex_vm - one file's device address space
 * @lock: protects @pt and @mappings; held across a whole copy.
 * @pt: the page table.
 * @mappings: the mappings (userptr imports and buffer-object binds) by id.
 * @count: the mappings in @mappings.
 * @max_mappings: the most it may hold (the vm_max_mappings parameter).
 * @debugfs: its file in /sys/kernel/debug/zex.
 */
struct zex_vm {
	struct mutex lock; /* protects pt and mappings, see above */
	struct zex_pt pt;
	struct xarray mappings;
	u32 count;
	u32 max_mappings;
	struct dentry *debugfs;
};

int zex_vm_init(struct zex_vm *vm, struct zex_device *zdev, struct drm_file *file);
void zex_vm_fini(struct zex_vm *vm);

int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_VM_H_ */
