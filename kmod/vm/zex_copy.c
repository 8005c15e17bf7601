// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_copy.c - the copy engine: a copy between two device addresses
 *
 * The copy engine checks every source and destination page against the
 * page table before it moves a byte, under the address space's lock, so a
 * faulting copy writes nothing and a copy never races a bind or release;
 * a fault is reported with its address and reason. Pages of mirror
 * imports are filled first where stale (zex_mirror_populate()); the check
 * and the copy then run under the mirror lock, so no invalidation can take
 * a page away meanwhile; a page that went stale again between the fill
 * and the check starts the round again. It yields the CPU after
 * every page and stops with -EINTR when the caller is being killed; the
 * bytes before that point are then copied and the rest not (a killed
 * caller never sees the result).
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>

#include <drm/drm_device.h>
#include <drm/drm_print.h>
#include <drm/zex_drm.h>

#include "zex_mirror.h"
#include "zex_vm.h"

/*
 * Check a range page by page; on a fault fill the record and fail with
 * -EFAULT; -EAGAIN when a mirror page went stale after it was filled
 * (@fail_va: the first mirror page that could not be); -EINTR when the
 * caller is killed meanwhile.
 */
static int zex_copy_check(struct zex_vm *vm, u64 va, u64 len, bool write, u64 fail_va,
			  struct drm_zex_copy *args)
{
	u64 page;

	for (page = va & PAGE_MASK; page < va + len; page += PAGE_SIZE) {
		unsigned long pfn;
		bool writable;
		int ret;

		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();

		ret = zex_pt_lookup(&vm->pt, page, &pfn, &writable);
		if (ret == -ESTALE && page != fail_va)
			return -EAGAIN;
		if (ret == -ESTALE)
			args->fault_reason = DRM_ZEX_FAULT_HOST_UNMAPPED;
		else if (ret)
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

/*
 * Fill the mirror pages of both ranges, then check both under the mirror
 * lock; on success the lock stays held for the copy.
 */
static int zex_copy_prepare(struct zex_vm *vm, struct drm_zex_copy *args)
{
	u64 src_fail, dst_fail;
	int ret;

	for (;;) {
		ret = zex_mirror_populate(vm, args->src, args->len, &src_fail);
		if (!ret)
			ret = zex_mirror_populate(vm, args->dst, args->len, &dst_fail);
		if (ret)
			return ret;
		mutex_lock(&vm->mirror_lock);
		ret = zex_copy_check(vm, args->src, args->len, false, src_fail, args);
		if (!ret)
			ret = zex_copy_check(vm, args->dst, args->len, true, dst_fail, args);
		if (!ret)
			return 0;
		mutex_unlock(&vm->mirror_lock);
		if (ret != -EAGAIN)
			return ret;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
}

/**
 * zex_vm_copy - copy @args->len bytes from @args->src to @args->dst
 * @vm: the address space both are in.
 * @args: the request, checked by the caller (no wrap, no overlap, a
 *	non-zero length within DRM_ZEX_COPY_MAX_LEN); its fault record is
 *	filled on -EFAULT.
 *
 * Return: 0, -EFAULT (nothing copied), -ENOMEM (nothing copied), or -EINTR.
 */
int zex_vm_copy(struct zex_vm *vm, struct drm_zex_copy *args)
{
	u64 done = 0;
	int ret;

	mutex_lock(&vm->lock);
	ret = zex_copy_prepare(vm, args);
	if (ret) {
		mutex_unlock(&vm->lock);
		return ret;
	}
	while (done < args->len) {
		u64 src = args->src + done, dst = args->dst + done;
		size_t n = min3(PAGE_SIZE - offset_in_page(src), PAGE_SIZE - offset_in_page(dst),
				(unsigned long)(args->len - done));
		unsigned long spfn, dpfn;
		bool w;
		void *s, *d;

		/* Checked under the same locks: a miss here is a bug, not a fault. */
		if (WARN_ON_ONCE(zex_pt_lookup(&vm->pt, src, &spfn, &w) ||
				 zex_pt_lookup(&vm->pt, dst, &dpfn, &w))) {
			ret = -EFAULT;
			break;
		}
		s = kmap_local_page(pfn_to_page(spfn));
		d = kmap_local_page(pfn_to_page(dpfn));
		memcpy(d + offset_in_page(dst), s + offset_in_page(src), n);
		kunmap_local(d);
		kunmap_local(s);
		done += n;
		if (fatal_signal_pending(current)) {
			drm_dbg(vm->drm, "copy killed after %llu of %llu bytes\n",
				done, args->len);
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	mutex_unlock(&vm->mirror_lock);
	mutex_unlock(&vm->lock);
	return ret;
}
