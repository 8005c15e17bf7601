// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_vm.c - mappings of an address space: userptr imports, buffer objects
 *
 * A pinned import (the default) pins the host pages with FOLL_LONGTERM
 * (and FOLL_WRITE unless it is read-only), charges them to the importer's
 * RLIMIT_MEMLOCK through account_locked_vm(), and binds them at their host
 * address: after a host munmap() under a live import, the device keeps
 * seeing the pages it pinned until the import is released — never freed
 * memory. A mirror import (zex_mirror.c) pins nothing and follows the host
 * instead.
 *
 * A buffer object is bound whole at a chosen device VA: its pieces' pages
 * are pinned for the binding's life, listed in the object's layout order,
 * into the same page tables.
 *
 * The page table is the one record of what a mapping pinned: an import pins
 * and binds a 2 MiB block at a time through a page list of one block, and
 * releasing it unpins the pages its PTEs name, a run of contiguous frames
 * at a time (a 2 MiB leaf is one run).
 *
 * Each address space holds at most vm_max_mappings mappings (-ENOSPC
 * past that), and everything it allocates (mapping records, page lists,
 * page-table pages) is charged to the caller's memory cgroup.
 */

#include <linux/debugfs.h>
#include <linux/interval_tree.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_gem.h>
#include <drm/drm_device.h>
#include <drm/drm_print.h>

#include "../bo/zex_bo.h"
#include "../common/zex_gfp.h"
#include "zex_mirror.h"
#include "zex_vm.h"

/**
 * struct zex_mapping - one mapping of an address space
 * @addr: its first byte (for an import, host VA == device VA).
 * @npages: its pages.
 * @bo_offset: a bound buffer object's byte at @addr (0: bound whole).
 * @writable: the device may write.
 * @mm: a pinned import's mm, charged for the pinned pages; NULL otherwise.
 * @bo: a bound buffer object, held for the binding's life; NULL otherwise.
 * @mirror: a mirror import; NULL otherwise.
 * @node: a bound buffer object's place in &zex_vm.bos.
 */
struct zex_mapping {
	u64 addr;
	u64 npages;
	u64 bo_offset;
	bool writable;
	struct mm_struct *mm;
	struct zex_bo *bo;
	struct zex_mirror *mirror;
	struct interval_tree_node node;
};

static atomic_t zex_vm_serial = ATOMIC_INIT(0);

/* A mapping record of @size bytes at @addr, of no kind yet; NULL without memory. */
static struct zex_mapping *zex_mapping_new(u64 addr, u64 size, bool writable)
{
	struct zex_mapping *map = kzalloc(sizeof(*map), ZEX_GFP_USER);

	if (map) {
		map->addr = addr;
		map->npages = size >> PAGE_SHIFT;
		map->writable = writable;
	}
	return map;
}

/* Unpins a run of a pinned import's pages, as the page table names them. */
static void zex_unpin_run(struct page *page, unsigned long npages, void *ctx)
{
	struct zex_mapping *map = ctx;

	unpin_user_page_range_dirty_lock(page, npages, map->writable);
}

/* The same for an import undone before the device could use it: nothing dirtied. */
static void zex_unpin_run_unused(struct page *page, unsigned long npages, void *ctx)
{
	unpin_user_page_range_dirty_lock(page, npages, false);
}

static unsigned int pt_flags(struct zex_mapping *map)
{
	return map->writable ? ZEX_PT_WRITABLE : 0;
}

/*
 * Take @map out of the page table (caller holds the lock); pinned imports
 * unpin, dirtying what the device may have written unless @unused.
 */
static void zex_mapping_unbind(struct zex_vm *vm, struct zex_mapping *map, bool unused)
{
	if (map->mirror) {
		zex_mirror_unbind(vm, map->mirror);
	} else if (map->bo) {
		interval_tree_remove(&map->node, &vm->bos);
		zex_pt_unbind(&vm->pt, map->addr, map->npages, pt_flags(map), NULL, NULL);
	} else {
		zex_pt_unbind(&vm->pt, map->addr, map->npages, pt_flags(map),
			      unused ? zex_unpin_run_unused : zex_unpin_run, map);
	}
}

/*
 * Pin a pinned import's pages and bind them, a 2 MiB block at a time, so
 * that the page list is one block's (@pages: %ZEX_PT_ENTRIES entries) and
 * a block of a huge page is bound whole. On failure nothing stays pinned
 * or bound: -EFAULT a page that cannot be pinned, -ENOMEM, or the page
 * table's -EBUSY or -ENOMEM.
 */
static int zex_vm_pin_and_bind(struct zex_vm *vm, struct zex_mapping *up, struct page **pages)
{
	unsigned int gup = FOLL_LONGTERM | (up->writable ? FOLL_WRITE : 0);
	u64 done = 0;
	int ret = 0;

	while (done < up->npages) {
		u64 va = up->addr + (done << PAGE_SHIFT);
		long n = (zex_pt_block_end(va, up->addr + (up->npages << PAGE_SHIFT)) - va) >>
			 PAGE_SHIFT;
		long pinned = pin_user_pages_fast(va, n, gup, pages);

		if (pinned != n) {
			drm_dbg(vm->drm, "pinned %ld of %ld pages at %llx\n", pinned, n, va);
			if (pinned > 0)
				unpin_user_pages(pages, pinned);
			/* A hole, an I/O mapping, read-only memory: not importable. */
			ret = pinned == -ENOMEM ? -ENOMEM : -EFAULT;
			break;
		}
		ret = zex_pt_bind(&vm->pt, va, n, pages, pt_flags(up));
		if (ret) {
			unpin_user_pages(pages, n);
			break;
		}
		done += n;
	}
	if (ret && done)
		zex_pt_unbind(&vm->pt, up->addr, done, pt_flags(up), zex_unpin_run_unused, up);
	return ret;
}

/* Release what an unbound mapping still holds. */
static void zex_mapping_free(struct zex_mapping *map)
{
	if (map->mirror) {
		zex_mirror_free(map->mirror);
	} else if (map->bo) {
		zex_bo_unpin_pages(map->bo);
		drm_gem_object_put(&map->bo->base);
	} else {
		account_locked_vm(map->mm, map->npages, false);
		mmdrop(map->mm);
	}
	kfree(map);
}

/*
 * Bind a mapping and enter it: a buffer object's pinned @pages; a pinned
 * import's pages, pinned here a block at a time into @pages (one block's
 * worth); a mirror import, which fills its own. 0, -ENOSPC when the
 * address space holds vm_max_mappings already, or the binding's -errno.
 */
static int zex_vm_insert(struct zex_vm *vm, struct zex_mapping *map, struct page **pages,
			 u32 *id)
{
	int ret;

	down_write(&vm->lock);
	if (vm->count >= vm->max_mappings) {
		ret = -ENOSPC;
		goto out;
	}
	if (map->mirror)
		ret = zex_mirror_bind(vm, map->mirror);
	else if (map->bo)
		ret = zex_pt_bind(&vm->pt, map->addr, map->npages, pages, pt_flags(map));
	else
		ret = zex_vm_pin_and_bind(vm, map, pages);
	if (!ret && map->bo) {
		map->node.start = map->addr;
		map->node.last = map->addr + (map->npages << PAGE_SHIFT) - 1;
		interval_tree_insert(&map->node, &vm->bos);
	}
	if (!ret) {
		ret = xa_alloc(&vm->mappings, id, map, xa_limit_32b, ZEX_GFP_USER);
		if (ret)
			zex_mapping_unbind(vm, map, true);
		else
			vm->count++;
	}
out:
	up_write(&vm->lock);
	return ret;
}

/**
 * zex_vm_host_usage - the host memory an address space imports
 * @vm: the address space.
 * @total: out: bytes of its userptr imports, pinned and mirrored.
 * @pinned: out: bytes of those that are pinned (their pages held in
 *	memory for the import's life); a mirror import's pages stay the
 *	host's to move or reclaim, and count only in @total.
 */
void zex_vm_host_usage(struct zex_vm *vm, u64 *total, u64 *pinned)
{
	struct zex_mapping *map;
	unsigned long id;

	*total = 0;
	*pinned = 0;
	down_read(&vm->lock);
	xa_for_each(&vm->mappings, id, map) {
		if (map->bo)
			continue;
		*total += map->npages << PAGE_SHIFT;
		if (!map->mirror)
			*pinned += map->npages << PAGE_SHIFT;
	}
	up_read(&vm->lock);
}

static int zex_vm_show(struct seq_file *m, void *unused)
{
	struct zex_vm *vm = m->private;
	struct zex_mapping *map;
	size_t mirror_bytes = 0;
	unsigned long id;
	int level;

	down_read(&vm->lock);
	xa_for_each(&vm->mappings, id, map)
		if (map->mirror)
			mirror_bytes += zex_mirror_bytes(map->mirror);
	seq_printf(m, "mappings: %u of %zu bytes\n", vm->count, sizeof(struct zex_mapping));
	seq_printf(m, "mirror records: %zu bytes\n", mirror_bytes);
	seq_printf(m, "2 MiB leaves: %lu\n", vm->pt.huge);
	for (level = ZEX_PT_LEVELS - 1; level >= 0; level--)
		seq_printf(m, "level %d: %lu tables\n", level, vm->pt.nodes[level]);
	zex_pt_dump(&vm->pt, m);
	up_read(&vm->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zex_vm);

/**
 * zex_vm_create - an empty address space for a file being opened
 * @drm: the device.
 * @max_mappings: the most mappings it may hold.
 * @debugfs_dir: where its debugfs file, vm-<owner>-<n>, goes; it must
 *	outlive the address space.
 * @owner: the opener's pid, for the file's name.
 *
 * Return: the address space, charged to the caller's memory cgroup, or
 * ERR_PTR(-ENOMEM).
 */
struct zex_vm *zex_vm_create(struct drm_device *drm, u32 max_mappings,
			     struct dentry *debugfs_dir, pid_t owner)
{
	struct zex_vm *vm = kzalloc(sizeof(*vm), ZEX_GFP_USER);
	char name[32];

	if (!vm)
		return ERR_PTR(-ENOMEM);
	kref_init(&vm->refcount);
	vm->drm = drm;
	init_rwsem(&vm->lock);
	init_rwsem(&vm->mirror_lock);
	mutex_init(&vm->populate_lock);
	vm->mirrors = RB_ROOT_CACHED;
	vm->bos = RB_ROOT_CACHED;
	xa_init_flags(&vm->mappings, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	vm->max_mappings = max_mappings;
	if (zex_pt_init(&vm->pt)) {
		kfree(vm);
		return ERR_PTR(-ENOMEM);
	}
	snprintf(name, sizeof(name), "vm-%d-%u", owner, atomic_inc_return(&zex_vm_serial));
	vm->debugfs = debugfs_create_file(name, 0444, debugfs_dir, vm, &zex_vm_fops);
	return vm;
}

static void zex_vm_release(struct kref *kref)
{
	struct zex_vm *vm = container_of(kref, struct zex_vm, refcount);
	struct zex_mapping *map;
	unsigned long id;

	xa_for_each(&vm->mappings, id, map) {
		zex_mapping_unbind(vm, map, false);
		zex_mapping_free(map);
	}
	xa_destroy(&vm->mappings);
	zex_pt_fini(&vm->pt);
	mutex_destroy(&vm->populate_lock);
	kfree(vm);
}

/**
 * zex_vm_get - one more reference to an address space
 * @vm: the address space.
 *
 * Return: @vm.
 */
struct zex_vm *zex_vm_get(struct zex_vm *vm)
{
	kref_get(&vm->refcount);
	return vm;
}

/**
 * zex_vm_put - drop a reference; the last releases every mapping and table
 * @vm: the address space.
 */
void zex_vm_put(struct zex_vm *vm)
{
	kref_put(&vm->refcount, zex_vm_release);
}

/**
 * zex_vm_destroy - the file lets go of its address space
 * @vm: the address space of a file being closed.
 *
 * Its debugfs file goes at once; the mappings and tables go with the last
 * reference (a job still running in it holds one).
 */
void zex_vm_destroy(struct zex_vm *vm)
{
	debugfs_remove(vm->debugfs);
	vm->debugfs = NULL;
	zex_vm_put(vm);
}

/**
 * zex_vm_import_userptr - pin host memory and map it at its own address
 * @vm: the address space.
 * @addr: page-aligned host address, checked by the caller for access_ok.
 * @size: page-aligned size.
 * @writable: the device may write (the pages are pinned for write).
 * @id: receives the mapping's id.
 *
 * Return: 0; -EFAULT when a page cannot be pinned (a hole, an I/O mapping,
 * read-only memory for a writable import); -ENOMEM; -ENOSPC; -EBUSY when
 * the range overlaps another mapping of other pages; the RLIMIT_MEMLOCK
 * charge's -ENOMEM.
 */
int zex_vm_import_userptr(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id)
{
	struct zex_mapping *up;
	struct page **pages;
	int ret;

	up = zex_mapping_new(addr, size, writable);
	if (!up)
		return -ENOMEM;
	pages = kmalloc_array(ZEX_PT_ENTRIES, sizeof(*pages), ZEX_GFP_USER);
	if (!pages) {
		ret = -ENOMEM;
		goto err_free;
	}

	ret = account_locked_vm(current->mm, up->npages, true);
	if (ret) {
		drm_dbg(vm->drm, "RLIMIT_MEMLOCK refuses %llu more pages\n", up->npages);
		goto err_free;
	}
	up->mm = current->mm;
	mmgrab(up->mm);

	ret = zex_vm_insert(vm, up, pages, id);
	if (ret) {
		account_locked_vm(up->mm, up->npages, false);
		mmdrop(up->mm);
		goto err_free;
	}
	kfree(pages);
	return 0;

err_free:
	kfree(pages);
	kfree(up);
	return ret;
}

/**
 * zex_vm_import_mirror - map host memory at its own address, following the host
 * @vm: the address space.
 * @addr: page-aligned host address, checked by the caller for access_ok.
 * @size: page-aligned size.
 * @writable: the device may write (the pages are faulted for write).
 * @id: receives the mapping's id.
 *
 * Nothing is pinned or charged to RLIMIT_MEMLOCK: see zex_mirror.c.
 *
 * Return: 0; -EFAULT when a page cannot be faulted in (a hole, an I/O or
 * PFN mapping, read-only memory for a writable import); -EBUSY when another
 * mapping covers a page of the range; -ENOMEM; -ENOSPC; -EINTR.
 */
int zex_vm_import_mirror(struct zex_vm *vm, u64 addr, u64 size, bool writable, u32 *id)
{
	struct zex_mapping *map;
	int ret;

	map = zex_mapping_new(addr, size, writable);
	if (!map)
		return -ENOMEM;
	ret = zex_mirror_create(vm, addr, map->npages, writable, &map->mirror);
	if (ret)
		goto err_free;
	ret = zex_vm_insert(vm, map, NULL, id);
	if (ret)
		goto err_mirror;
	return 0;

err_mirror:
	zex_mirror_free(map->mirror);
err_free:
	kfree(map);
	return ret;
}

/**
 * zex_vm_bind_bo - map a buffer object, or a range of it, at @va
 * @vm: the address space.
 * @bo: the object; on success the mapping takes over the caller's reference.
 * @va: page-aligned; the range below 2^48 (checked by the caller).
 * @offset: page-aligned, the first byte of @bo mapped.
 * @range: page-aligned bytes mapped, inside @bo (checked by the caller).
 * @writable: the device may write.
 * @id: receives the mapping's id.
 *
 * The whole object is pinned, whatever part of it is mapped.
 *
 * Return: 0, -ENOMEM, -ENOSPC, or -EBUSY when the range overlaps another
 * mapping of other pages.
 */
int zex_vm_bind_bo(struct zex_vm *vm, struct zex_bo *bo, u64 va, u64 offset, u64 range,
		   bool writable, u32 *id)
{
	struct zex_mapping *map;
	struct page **pages;
	int ret;

	map = zex_mapping_new(va, range, writable);
	if (!map)
		return -ENOMEM;
	map->bo = bo;
	map->bo_offset = offset;
	pages = kvmalloc_array(bo->base.size >> PAGE_SHIFT, sizeof(*pages), ZEX_GFP_USER);
	if (!pages) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = zex_bo_pin_pages(bo, pages);
	if (ret)
		goto err_free;
	ret = zex_vm_insert(vm, map, pages + (offset >> PAGE_SHIFT), id);
	if (ret) {
		zex_bo_unpin_pages(bo);
		goto err_free;
	}
	kvfree(pages);
	return 0;

err_free:
	kvfree(pages);
	kfree(map);
	return ret;
}

/**
 * zex_vm_unbind - release one mapping
 * @vm: the address space.
 * @id: the mapping's id.
 *
 * Return: 0, or -ENOENT when @vm has no mapping @id.
 */
int zex_vm_unbind(struct zex_vm *vm, u32 id)
{
	struct zex_mapping *map;

	down_write(&vm->lock);
	map = xa_erase(&vm->mappings, id);
	if (map) {
		zex_mapping_unbind(vm, map, false);
		vm->count--;
	}
	up_write(&vm->lock);
	if (!map)
		return -ENOENT;
	zex_mapping_free(map);
	return 0;
}

/**
 * zex_vm_walk_bos - call @fn for each buffer object bound in a range
 * @vm: the address space.
 * @va: the range's start.
 * @len: its length, non-zero, not wrapping.
 * @fn: called with the part of the range in each object, in address order,
 *	under the address space's lock (read): it may not bind or unbind.
 * @ctx: passed to @fn.
 *
 * Return: 0, or the first error @fn returned.
 */
int zex_vm_walk_bos(struct zex_vm *vm, u64 va, u64 len, zex_vm_bo_fn fn, void *ctx)
{
	u64 last = va + len - 1;
	struct interval_tree_node *it;
	int ret = 0;

	down_read(&vm->lock);
	for (it = interval_tree_iter_first(&vm->bos, va, last); it && !ret;
	     it = interval_tree_iter_next(it, va, last)) {
		struct zex_mapping *map = container_of(it, struct zex_mapping, node);
		u64 start = max(va, it->start), end = min(last, it->last);

		ret = fn(map->bo, start, start - map->addr + map->bo_offset, end - start + 1,
			 map->writable, ctx);
	}
	up_read(&vm->lock);
	return ret;
}
