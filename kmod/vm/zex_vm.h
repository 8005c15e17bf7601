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
 * device can see. This folder knows page tables, mappings and the copy
 * engine, and mirror imports (zex_mirror.c), which follow the host's
 * mapping instead of pinning it, and the ioctls that reach them
 * (zex_vm_ioctl.c: argument checks, the file's address space). The page
 * table itself is the room below (pt/).
 */

#ifndef _ZEX_VM_H_
#define _ZEX_VM_H_

#include <linux/mutex.h>
#include <linux/rbtree_types.h>
#include <linux/xarray.h>

#include "../pt/zex_pt.h"

struct dentry;
struct drm_device;
struct drm_file;
struct drm_zex_copy;
struct zex_bo;

/**
 * struct zex_vm - one file's device address space
 * @drm: the device, for its debug messages.
 * @lock: protects @pt, @mappings and @mirrors; held across a whole copy.
 * @mirror_lock: the mirror imports' notifier lock (see zex_mirror.c): the
 *	stale bits of their PTEs; held while the copy engine touches pages.
 * @pt: the page table; the only list of the pages a mapping pinned.
 * @mirrors: the mirror imports, by range (an interval tree).
 * @mappings: the mappings (userptr imports and buffer-object binds) by id.
 * @count: the mappings in @mappings.
 * @max_mappings: the most it may hold (the vm_max_mappings parameter).
 * @debugfs: its file under the debugfs folder given at init.
 */
struct zex_vm {
	struct drm_device *drm;
	struct mutex lock; /* protects pt, mappings and mirrors, see above */
	struct mutex mirror_lock; /* the mirror PTEs' stale bits, see above */
	struct zex_pt pt;
	struct rb_root_cached mirrors;
	struct xarray mappings;
	u32 count;
	u32 max_mappings;
	struct dentry *debugfs;
};

struct zex_vm *zex_vm_create(struct drm_device *drm, u32 max_mappings,
			     struct dentry *debugfs_dir, pid_t owner);
void zex_vm_destroy(struct zex_vm *vm);
int zex_vm_import_userptr(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id);
int zex_vm_import_mirror(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id);
int zex_vm_bind_bo(struct zex_vm *vm, struct zex_bo *bo, u64 va, bool writable, u32 *id);
int zex_vm_unbind(struct zex_vm *vm, u32 id);

/* zex_copy.c */
int zex_vm_copy(struct zex_vm *vm, struct drm_zex_copy *args);

/* zex_vm_ioctl.c */
int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_VM_H_ */
