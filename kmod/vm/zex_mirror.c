// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_mirror.c - mirror imports: an MMU interval notifier and hmm_range_fault()
 *
 * Locks. The address space's lock (&zex_vm.lock, a read-write semaphore)
 * is held for write to bind and unbind, for read by every engine
 * operation, and may be held while allocating or faulting;
 * &zex_vm.populate_lock lets one operation at a time fill mirror pages.
 * &zex_vm.mirror_lock, which the notifier takes for write, guards the
 * stale bits of mirror PTEs and the notifiers' sequence numbers: nothing
 * allocates or faults under it, because the notifier may be called from
 * reclaim. Order: &zex_vm.lock, &zex_vm.populate_lock, the mm's
 * mmap_lock, &zex_vm.mirror_lock.
 *
 * Filling follows the kernel's HMM recipe (Documentation/mm/hmm.rst): read
 * the notifier's sequence, fault the pages with hmm_range_fault() under
 * the mm's read lock, then, under mirror_lock, write the PTEs only if no
 * invalidation came in between, else start again. A writable import
 * faults for write, so a copy-on-write page (after fork(), say) is made
 * the host's own before the device may write it. An engine operation
 * holds mirror_lock (read) while it touches the pages, so an invalidation
 * waits until it is done: the device never uses a page the host has let go.
 *
 * Mirror imports are the page table's on-demand bindings (pt/): they
 * cover no page another mapping covers, so their entries are theirs
 * alone. The import keeps the page table's opaque handle of each 2 MiB
 * block it touches, and the notifier marks entries stale through it, never
 * by walking the page table that binds change. A whole block is a 2 MiB
 * leaf while the host backs it with a huge page, a leaf table when not;
 * only a fill changes which, under both locks, with what it needs
 * allocated (zex_pt_block_fill_prepare()) before it takes mirror_lock. A
 * copy calls down from here into the page table, never the other way.
 */

#include <linux/hmm.h>
#include <linux/interval_tree.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>

#include "../common/zex_fault_inject.h"
#include "../common/zex_gfp.h"
#include "zex_mirror.h"
#include "zex_vm.h"

/**
 * struct zex_mirror - a mirror import
 * @notifier: the MMU interval notifier over the range, in the importer's mm.
 * @node: the range, in &zex_vm.mirrors.
 * @vm: the address space it is bound in.
 * @addr: its first byte (host VA == device VA).
 * @npages: its pages.
 * @writable: the device may write; pages are faulted for write.
 * @bound: its PTEs exist (under &zex_vm.mirror_lock).
 * @blocks: the page table's handle of each 2 MiB block it touches, first
 *	block first.
 */
struct zex_mirror {
	struct mmu_interval_notifier notifier;
	struct interval_tree_node node;
	struct zex_vm *vm;
	u64 addr;
	u64 npages;
	bool writable;
	bool bound;
	struct zex_pt_block **blocks;
};

/* 2 MiB blocks the range [@m->addr, @m->node.last] touches. */
static u64 mirror_blocks(struct zex_mirror *m)
{
	return m->node.last / ZEX_PT_HUGE_SIZE - m->addr / ZEX_PT_HUGE_SIZE + 1;
}

/* Where @m keeps the handle of @va's block. */
static struct zex_pt_block **mirror_block_ref(struct zex_mirror *m, u64 va)
{
	return &m->blocks[va / ZEX_PT_HUGE_SIZE - m->addr / ZEX_PT_HUGE_SIZE];
}

static struct zex_pt_block *mirror_block(struct zex_mirror *m, u64 va)
{
	return *mirror_block_ref(m, va);
}

static u64 mirror_end(struct zex_mirror *m)
{
	return m->node.last + 1;
}

static unsigned int mirror_pt_flags(struct zex_mirror *m)
{
	return ZEX_PT_ON_DEMAND | (m->writable ? ZEX_PT_WRITABLE : 0);
}

/* Mark [start, end) stale (mirror_lock held). */
static void mirror_mark_stale(struct zex_mirror *m, u64 start, u64 end)
{
	while (start < end) {
		u64 next = zex_pt_block_end(start, end);

		zex_pt_block_mark_stale(mirror_block(m, start), zex_pt_block_index(start),
					(next - start) >> PAGE_SHIFT);
		start = next;
	}
}

static bool zex_mirror_invalidate(struct mmu_interval_notifier *mni,
				  const struct mmu_notifier_range *range,
				  unsigned long cur_seq)
{
	struct zex_mirror *m = container_of(mni, struct zex_mirror, notifier);
	struct zex_vm *vm = m->vm;

	if (mmu_notifier_range_blockable(range))
		down_write(&vm->mirror_lock);
	else if (!down_write_trylock(&vm->mirror_lock))
		return false;
	mmu_interval_set_seq(mni, cur_seq);
	/* A range may end at ULONG_MAX (the mm going away): clamp, then align. */
	if (m->bound)
		mirror_mark_stale(m, max_t(u64, range->start & PAGE_MASK, m->addr),
				  PAGE_ALIGN(min_t(u64, range->end, mirror_end(m))));
	up_write(&vm->mirror_lock);
	return true;
}

static const struct mmu_interval_notifier_ops zex_mirror_ops = {
	.invalidate = zex_mirror_invalidate,
};

/*
 * Fault @n pages from @va (one 2 MiB block at most) and write their PTEs.
 * Return: 0; -EFAULT when the host maps nothing there that the import may
 * use (no mapping, an I/O or PFN mapping, read-only memory for a writable
 * import, the process gone); -ENOMEM; -EINTR when the caller is killed.
 */
static int fill_range(struct zex_vm *vm, struct zex_mirror *m, u64 va, unsigned int n,
		      unsigned long *pfns)
{
	struct mm_struct *mm = m->notifier.mm;
	struct zex_pt_block *blk = mirror_block(m, va);
	struct zex_pt_fill fill = {};
	struct hmm_range range = {
		.notifier = &m->notifier,
		.start = va,
		.end = va + ((u64)n << PAGE_SHIFT),
		.hmm_pfns = pfns,
		.default_flags = HMM_PFN_REQ_FAULT | (m->writable ? HMM_PFN_REQ_WRITE : 0),
	};
	unsigned int k;
	int ret;

	if (!mmget_not_zero(mm))
		return -EFAULT;
	for (;;) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		range.notifier_seq = mmu_interval_read_begin(&m->notifier);
		ret = mmap_read_lock_killable(mm);
		if (ret)
			break;
		ret = hmm_range_fault(&range);
		mmap_read_unlock(mm);
		if (ret == -EBUSY) {
			cond_resched();
			continue;
		}
		if (ret)
			break;
		for (k = 0; k < n; k++)
			pfns[k] = page_to_pfn(hmm_pfn_to_page(pfns[k]));
		/* What the fill needs is allocated before mirror_lock. */
		ret = zex_pt_block_fill_prepare(&vm->pt, blk, n, pfns, &fill);
		if (ret)
			break;
		down_write(&vm->mirror_lock);
		if (mmu_interval_read_retry(&m->notifier, range.notifier_seq)) {
			up_write(&vm->mirror_lock);
			continue;
		}
		zex_pt_block_fill(&vm->pt, blk, zex_pt_block_index(va), n, pfns, &fill);
		up_write(&vm->mirror_lock);
		break;
	}
	zex_pt_block_fill_release(&vm->pt, &fill);
	mmput(mm);
	if (ret == -ENOMEM || ret == -EINTR)
		return ret;
	return ret ? -EFAULT : 0;
}

/*
 * Fill the stale PTEs of [start, end) within one 2 MiB block; a page that
 * cannot be filled goes to *@fail_va, and nothing after it is filled.
 * *@pfns is the frame list, allocated at the first block that needs it.
 */
static int fill_block(struct zex_vm *vm, struct zex_mirror *m, u64 start, u64 end,
		      unsigned long **pfns, u64 *fail_va)
{
	unsigned int n = (end - start) >> PAGE_SHIFT, k;
	int ret;

	if (!zex_pt_block_any_stale(mirror_block(m, start), zex_pt_block_index(start), n))
		return 0;
	if (!*pfns) {
		*pfns = zex_engine_alloc_fails() ? NULL :
			kmalloc_array(ZEX_PT_ENTRIES, sizeof(**pfns), ZEX_GFP_USER);
		if (!*pfns)
			return -ENOMEM;
	}
	ret = fill_range(vm, m, start, n, *pfns);
	if (ret != -EFAULT)
		return ret;
	/* Some page of the block cannot be filled: fill up to it. */
	for (k = 0; k < n; k++) {
		ret = fill_range(vm, m, start + ((u64)k << PAGE_SHIFT), 1, *pfns);
		if (ret == -EFAULT) {
			*fail_va = start + ((u64)k << PAGE_SHIFT);
			return 0;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* Fill the stale PTEs of [start, end), page-aligned, within @m (populate_lock held). */
static int mirror_fill(struct zex_vm *vm, struct zex_mirror *m, u64 start, u64 end,
		       u64 *fail_va)
{
	unsigned long *pfns = NULL;
	int ret = 0;

	while (!ret && *fail_va == U64_MAX && start < end) {
		u64 next = zex_pt_block_end(start, end);

		ret = fill_block(vm, m, start, next, &pfns, fail_va);
		start = next;
	}
	kfree(pfns);
	return ret;
}

/**
 * zex_mirror_create - a mirror import of [@addr, @addr + @npages pages) of
 *	the caller's memory, its notifier registered, not yet bound
 * @vm: the address space it will be bound in.
 * @addr: page-aligned host address.
 * @npages: pages.
 * @writable: the device may write.
 * @out: receives it.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_mirror_create(struct zex_vm *vm, u64 addr, u64 npages, bool writable,
		      struct zex_mirror **out)
{
	struct zex_mirror *m;
	int ret;

	m = kzalloc(sizeof(*m), ZEX_GFP_USER);
	if (!m)
		return -ENOMEM;
	m->vm = vm;
	m->addr = addr;
	m->npages = npages;
	m->writable = writable;
	m->node.start = addr;
	m->node.last = addr + (npages << PAGE_SHIFT) - 1;
	m->blocks = kvcalloc(mirror_blocks(m), sizeof(*m->blocks), ZEX_GFP_USER);
	if (!m->blocks) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = mmu_interval_notifier_insert(&m->notifier, current->mm, addr,
					   npages << PAGE_SHIFT, &zex_mirror_ops);
	if (ret)
		goto err_free;
	*out = m;
	return 0;

err_free:
	kvfree(m->blocks);
	kfree(m);
	return ret;
}

/**
 * zex_mirror_bind - bind a mirror import and fill all its PTEs
 * @vm: the address space, its lock held.
 * @m: from zex_mirror_create().
 *
 * Return: 0; -EBUSY when another mapping covers a page of the range;
 * -EFAULT when a page cannot be filled (a hole, an I/O or PFN mapping,
 * read-only memory for a writable import); -ENOMEM; -EINTR. Nothing stays
 * bound on failure.
 */
int zex_mirror_bind(struct zex_vm *vm, struct zex_mirror *m)
{
	u64 end = mirror_end(m), va, fail_va = U64_MAX;
	int ret;

	ret = zex_pt_bind(&vm->pt, m->addr, m->npages, NULL, mirror_pt_flags(m));
	if (ret)
		return ret;
	for (va = m->addr; va < end; va = zex_pt_block_end(va, end))
		*mirror_block_ref(m, va) = zex_pt_block_get(&vm->pt, va);
	down_write(&vm->mirror_lock);
	m->bound = true;
	up_write(&vm->mirror_lock);
	interval_tree_insert(&m->node, &vm->mirrors);

	ret = mirror_fill(vm, m, m->addr, end, &fail_va);
	if (!ret && fail_va != U64_MAX) {
		drm_dbg(vm->drm, "mirror import: nothing usable at %llx\n", fail_va);
		ret = -EFAULT;
	}
	if (ret)
		zex_mirror_unbind(vm, m);
	return ret;
}

/**
 * zex_mirror_unbind - take a bound mirror import out of the page table
 * @vm: the address space, its lock held.
 * @m: the import; zex_mirror_free() releases it.
 */
void zex_mirror_unbind(struct zex_vm *vm, struct zex_mirror *m)
{
	down_write(&vm->mirror_lock);
	m->bound = false;
	up_write(&vm->mirror_lock);
	interval_tree_remove(&m->node, &vm->mirrors);
	zex_pt_unbind(&vm->pt, m->addr, m->npages, mirror_pt_flags(m), NULL, NULL);
}

/**
 * zex_mirror_free - unregister the notifier and free an unbound mirror import
 * @m: the import.
 */
void zex_mirror_free(struct zex_mirror *m)
{
	mmu_interval_notifier_remove(&m->notifier);
	kvfree(m->blocks);
	kfree(m);
}

/**
 * zex_mirror_bytes - what a mirror import keeps beside its page-table entries
 * @m: the import.
 *
 * Return: the bytes of its record and its list of block handles.
 */
size_t zex_mirror_bytes(struct zex_mirror *m)
{
	return sizeof(*m) + mirror_blocks(m) * sizeof(*m->blocks);
}

/**
 * zex_mirror_populate - fill the stale PTEs of mirror imports in a range
 * @vm: the address space, its lock held (read is enough).
 * @va: the range's start.
 * @len: its length, non-zero, not wrapping.
 * @fail_va: receives the first page that cannot be filled, or U64_MAX;
 *	nothing after it is filled.
 *
 * The copy engine calls this before it takes &zex_vm.mirror_lock and
 * checks the range; a page may go stale again in between.
 *
 * Return: 0, -ENOMEM or -EINTR.
 */
int zex_mirror_populate(struct zex_vm *vm, u64 va, u64 len, u64 *fail_va)
{
	u64 last = va + len - 1;
	struct interval_tree_node *it;
	int ret = 0;

	*fail_va = U64_MAX;
	if (RB_EMPTY_ROOT(&vm->mirrors.rb_root))
		return 0;
	/* Fillers decide on a block's table before mirror_lock: one at a time. */
	mutex_lock(&vm->populate_lock);
	/* In address order: mirror imports do not overlap. */
	for (it = interval_tree_iter_first(&vm->mirrors, va, last);
	     it && !ret && *fail_va == U64_MAX;
	     it = interval_tree_iter_next(it, va, last)) {
		struct zex_mirror *m = container_of(it, struct zex_mirror, node);

		ret = mirror_fill(vm, m, max_t(u64, va & PAGE_MASK, it->start),
				  min_t(u64, PAGE_ALIGN(last + 1), it->last + 1), fail_va);
	}
	mutex_unlock(&vm->populate_lock);
	return ret;
}
