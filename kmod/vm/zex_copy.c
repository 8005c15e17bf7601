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
 * a fault is reported with its address and reason. It yields the CPU after
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

#include "zex_vm.h"

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

/**
 * zex_vm_copy - copy @args->len bytes from @args->src to @args->dst
 * @vm: the address space both are in.
 * @args: the request, checked by the caller (no wrap, no overlap, a
 *	non-zero length within DRM_ZEX_COPY_MAX_LEN); its fault record is
 *	filled on -EFAULT.
 *
 * Return: 0, -EFAULT (nothing copied), or -EINTR.
 */
int zex_vm_copy(struct zex_vm *vm, struct drm_zex_copy *args)
{
	u64 done = 0;
	int ret;

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
			drm_dbg(vm->drm, "copy killed after %llu of %llu bytes\n",
				done, args->len);
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	mutex_unlock(&vm->lock);
	return ret;
}
