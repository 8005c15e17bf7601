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

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rbtree_types.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>

#include "../pt/zex_pt.h"

struct dentry;
struct drm_device;
struct drm_file;
struct zex_bo;

/**
 * struct zex_vm - one file's device address space
 * @refcount: the file holds one reference, each job that runs in it one.
 * @drm: the device, for its debug messages.
 * @lock: protects @pt's shape, @mappings, @bos and @mirrors: held for
 *	write to bind and unbind, for read across a whole engine operation
 *	(several run at once).
 * @mirror_lock: the mirror imports' notifier lock (see zex_mirror.c): the
 *	stale bits of their PTEs; held for read while an engine operation
 *	touches pages, for write to fill or invalidate.
 * @populate_lock: one filler of mirror pages at a time.
 * @pt: the page table; the only list of the pages a mapping pinned.
 * @mirrors: the mirror imports, by range (an interval tree).
 * @bos: the buffer-object binds, by range (an interval tree).
 * @mappings: the mappings (userptr imports and buffer-object binds) by id.
 * @count: the mappings in @mappings.
 * @max_mappings: the most it may hold (the vm_max_mappings parameter).
 * @debugfs: its file under the debugfs folder given at init.
 */
struct zex_vm {
	struct kref refcount;
	struct drm_device *drm;
	struct rw_semaphore lock; /* the mappings and the table's shape, see above */
	struct rw_semaphore mirror_lock; /* the mirror PTEs' stale bits, see above */
	struct mutex populate_lock; /* one filler of mirror pages */
	struct zex_pt pt;
	struct rb_root_cached mirrors;
	struct rb_root_cached bos;
	struct xarray mappings;
	u32 count;
	u32 max_mappings;
	struct dentry *debugfs;
};

/**
 * enum zex_vm_op_kind - what an engine operation does
 * @ZEX_VM_OP_COPY: copy @len bytes from device VA @src to @dst.
 * @ZEX_VM_OP_FILL: write @len bytes at @dst, @pattern repeated from @dst
 *	on; 8 aligned bytes are written with one store.
 * @ZEX_VM_OP_READ: read @len bytes at device VA @src into @buf; 8 aligned
 *	bytes are read with one load.
 */
enum zex_vm_op_kind {
	ZEX_VM_OP_COPY,
	ZEX_VM_OP_FILL,
	ZEX_VM_OP_READ,
};

/**
 * struct zex_vm_op - one operation of the software engines on an address space
 * @kind: &enum zex_vm_op_kind.
 * @dst: device VA written (COPY, FILL).
 * @src: device VA read (COPY, READ).
 * @len: bytes, non-zero, neither range wrapping (checked by the caller).
 * @pattern: FILL: the pattern.
 * @pattern_size: FILL: its bytes, 1 to 16.
 * @pattern_phase: FILL: how far @dst is from where the pattern starts
 *	(a part of a longer fill starts mid-pattern).
 * @buf: READ: where the bytes go.
 * @cancel: when not NULL and set, the operation stops (-ECANCELED).
 * @fault_reason: out: &enum drm_zex_fault_reason of a fault.
 * @fault_addr: out: the first faulting device VA.
 */
struct zex_vm_op {
	enum zex_vm_op_kind kind;
	u64 dst;
	u64 src;
	u64 len;
	const u8 *pattern;
	u32 pattern_size;
	u64 pattern_phase;
	void *buf;
	const bool *cancel;
	u32 fault_reason;
	u64 fault_addr;
};

/**
 * typedef zex_vm_bo_fn - called for each buffer object bound in a range
 * @bo: the object.
 * @va: the device VA of the range's first byte in it.
 * @offset: the range's first byte in it.
 * @len: the range's bytes in it.
 * @writable: the binding lets the device write.
 * @ctx: the caller's.
 *
 * Return: 0 to go on, or an error that stops the walk.
 */
typedef int (*zex_vm_bo_fn)(struct zex_bo *bo, u64 va, u64 offset, u64 len, bool writable,
			    void *ctx);

struct zex_vm *zex_vm_create(struct drm_device *drm, u32 max_mappings,
			     struct dentry *debugfs_dir, pid_t owner);
void zex_vm_destroy(struct zex_vm *vm);
struct zex_vm *zex_vm_get(struct zex_vm *vm);
void zex_vm_put(struct zex_vm *vm);
int zex_vm_import_userptr(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id);
int zex_vm_import_mirror(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id);
int zex_vm_bind_bo(struct zex_vm *vm, struct zex_bo *bo, u64 va, u64 offset, u64 range,
		   bool writable, u32 *id);
int zex_vm_unbind(struct zex_vm *vm, u32 id);
void zex_vm_host_usage(struct zex_vm *vm, u64 *total, u64 *pinned);
int zex_vm_walk_bos(struct zex_vm *vm, u64 va, u64 len, zex_vm_bo_fn fn, void *ctx);

/* zex_copy.c */
int zex_vm_execute(struct zex_vm *vm, struct zex_vm_op *op);

/* zex_vm_ioctl.c */
int zex_userptr_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_bind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_vm_unbind_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_copy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_VM_H_ */
