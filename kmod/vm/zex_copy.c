// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_copy.c - the software engines' memory operations: copy, fill, read
 *
 * Every operation of the copy and compute engines on an address space goes
 * through zex_vm_execute(): it checks every source and destination page
 * against the page table before it moves a byte, under the address
 * space's lock held for read, so a faulting operation writes nothing, an
 * operation never races a bind or release, and several operations (the
 * parts of one split copy, other files' queues) run at once. A fault is
 * reported with its address and reason. Pages of mirror imports are filled
 * first where stale (zex_mirror_populate()); the check and the operation
 * then run under the mirror lock (read), so no invalidation can take a
 * page away meanwhile; a page that went stale again between the fill and
 * the check starts the round again. It yields the CPU after every page and
 * stops with -EINTR when the calling task is being killed, or with
 * -ECANCELED when its cancel flag is set (a job the scheduler stopped);
 * the bytes before that point are then written and the rest not.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/zex_drm.h>

#include "zex_mirror.h"
#include "zex_vm.h"

static int zex_op_stopped(const struct zex_vm_op *op)
{
	if (fatal_signal_pending(current))
		return -EINTR;
	if (op->cancel && READ_ONCE(*op->cancel))
		return -ECANCELED;
	return 0;
}

/*
 * Check a range page by page; on a fault fill the record and fail with
 * -EFAULT; -EAGAIN when a mirror page went stale after it was filled
 * (@fail_va: the first mirror page that could not be); -EINTR or
 * -ECANCELED when the operation is stopped meanwhile.
 */
static int zex_op_check(struct zex_vm *vm, u64 va, u64 len, bool write, u64 fail_va,
			struct zex_vm_op *op)
{
	u64 page;

	for (page = va & PAGE_MASK; page < va + len; page += PAGE_SIZE) {
		unsigned long pfn;
		bool writable;
		int ret;

		ret = zex_op_stopped(op);
		if (ret)
			return ret;
		cond_resched();

		ret = zex_pt_lookup(&vm->pt, page, &pfn, &writable);
		if (ret == -ESTALE && page != fail_va)
			return -EAGAIN;
		if (ret == -ESTALE)
			op->fault_reason = DRM_ZEX_FAULT_HOST_UNMAPPED;
		else if (ret)
			op->fault_reason = DRM_ZEX_FAULT_NOT_MAPPED;
		else if (write && !writable)
			op->fault_reason = DRM_ZEX_FAULT_READ_ONLY;
		else
			continue;
		op->fault_addr = max(page, va);
		return -EFAULT;
	}
	return 0;
}

/*
 * Fill the mirror pages of the ranges, then check them under the mirror
 * lock; on success the lock stays held (read) for the operation.
 */
static int zex_op_prepare(struct zex_vm *vm, struct zex_vm_op *op)
{
	bool reads = op->kind != ZEX_VM_OP_FILL, writes = op->kind != ZEX_VM_OP_READ;
	u64 src_fail = U64_MAX, dst_fail = U64_MAX;
	int ret;

	for (;;) {
		ret = 0;
		if (reads)
			ret = zex_mirror_populate(vm, op->src, op->len, &src_fail);
		if (!ret && writes)
			ret = zex_mirror_populate(vm, op->dst, op->len, &dst_fail);
		if (ret)
			return ret;
		down_read(&vm->mirror_lock);
		if (reads)
			ret = zex_op_check(vm, op->src, op->len, false, src_fail, op);
		if (!ret && writes)
			ret = zex_op_check(vm, op->dst, op->len, true, dst_fail, op);
		if (!ret)
			return 0;
		up_read(&vm->mirror_lock);
		if (ret != -EAGAIN)
			return ret;
		ret = zex_op_stopped(op);
		if (ret)
			return ret;
		cond_resched();
	}
}

/* The page frame of @va, checked by zex_op_prepare() under the same locks. */
static struct page *zex_op_page(struct zex_vm *vm, u64 va)
{
	unsigned long pfn;
	bool w;

	if (WARN_ON_ONCE(zex_pt_lookup(&vm->pt, va, &pfn, &w)))
		return NULL;
	return pfn_to_page(pfn);
}

/* Write @n bytes at @d, the pattern's phase being @pos bytes from the start. */
static void zex_op_fill_bytes(const struct zex_vm_op *op, u8 *d, size_t n, u64 pos)
{
	u32 phase = do_div(pos, op->pattern_size);
	size_t i;

	if (n == sizeof(u64) && op->pattern_size == sizeof(u64) && !phase &&
	    IS_ALIGNED((unsigned long)d, sizeof(u64))) {
		u64 v;

		memcpy(&v, op->pattern, sizeof(v));
		/* A store the engine's readers see whole, after what came before. */
		smp_wmb();
		WRITE_ONCE(*(u64 *)d, v);
		return;
	}
	for (i = 0; i < n; i++) {
		d[i] = op->pattern[phase];
		if (++phase == op->pattern_size)
			phase = 0;
	}
}

/* Move one run of @n bytes at @done within one source and one destination page. */
static int zex_op_step(struct zex_vm *vm, struct zex_vm_op *op, u64 done, size_t n)
{
	u64 src = op->src + done, dst = op->dst + done;
	struct page *sp = NULL, *dp = NULL;
	void *s = NULL, *d = NULL;

	if (op->kind != ZEX_VM_OP_FILL) {
		sp = zex_op_page(vm, src);
		if (!sp)
			return -EFAULT;
	}
	if (op->kind != ZEX_VM_OP_READ) {
		dp = zex_op_page(vm, dst);
		if (!dp)
			return -EFAULT;
	}
	if (sp)
		s = kmap_local_page(sp) + offset_in_page(src);
	if (dp)
		d = kmap_local_page(dp) + offset_in_page(dst);
	switch (op->kind) {
	case ZEX_VM_OP_COPY:
		memcpy(d, s, n);
		break;
	case ZEX_VM_OP_FILL:
		zex_op_fill_bytes(op, d, n, op->pattern_phase + done);
		break;
	case ZEX_VM_OP_READ:
		if (n == sizeof(u64) && IS_ALIGNED((unsigned long)s, sizeof(u64)))
			*(u64 *)op->buf = READ_ONCE(*(u64 *)s);
		else
			memcpy(op->buf + done, s, n);
		break;
	}
	if (d)
		kunmap_local(d);
	if (s)
		kunmap_local(s);
	return 0;
}

/**
 * zex_vm_execute - run one engine operation on an address space
 * @vm: the address space.
 * @op: the operation, checked by the caller (no wrap, no overlap of a
 *	copy's ranges, a non-zero length within DRM_ZEX_COPY_MAX_LEN); its
 *	fault record is filled on -EFAULT.
 *
 * Return: 0, -EFAULT (nothing written), -ENOMEM (nothing written), -EINTR
 * or -ECANCELED (written up to some point).
 */
int zex_vm_execute(struct zex_vm *vm, struct zex_vm_op *op)
{
	u64 done = 0;
	int ret;

	down_read(&vm->lock);
	ret = zex_op_prepare(vm, op);
	if (ret) {
		up_read(&vm->lock);
		return ret;
	}
	while (done < op->len) {
		u64 src = op->src + done, dst = op->dst + done;
		size_t n = (size_t)min_t(u64, op->len - done, PAGE_SIZE);

		if (op->kind != ZEX_VM_OP_FILL)
			n = min(n, PAGE_SIZE - offset_in_page(src));
		if (op->kind != ZEX_VM_OP_READ)
			n = min(n, PAGE_SIZE - offset_in_page(dst));
		ret = zex_op_step(vm, op, done, n);
		if (ret)
			break;
		done += n;
		ret = done < op->len ? zex_op_stopped(op) : 0;
		if (ret) {
			drm_dbg(vm->drm, "engine operation stopped (%d) after %llu of %llu bytes\n",
				ret, done, op->len);
			break;
		}
		cond_resched();
	}
	up_read(&vm->mirror_lock);
	up_read(&vm->lock);
	return ret;
}
