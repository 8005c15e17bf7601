// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_host_import.c - zexDriverImportExternalPointer and its pair: host memory registered for the device
 *
 * compute-runtime's driver extension, which MPI libraries call on their
 * host buffers (as CUDA's cudaHostRegister): the application's own memory,
 * any address and size, stays where it is and the device reaches it
 * without an import per submission. A registration is a pinned userptr
 * import of the pages that hold the range (charged to RLIMIT_MEMLOCK;
 * pinned imports may share pages, so two buffers of one page each
 * register), kept in the driver beside the allocation table, not in it:
 * registered memory is no allocation of libzex (zeMemGetAllocProperties
 * says UNKNOWN, zeMemFree and IPC handles refuse it), as in
 * compute-runtime. Memory that is not writable is imported read-only.
 *
 * The rules, compute-runtime's: a null pointer or size 0 is
 * ZE_RESULT_ERROR_INVALID_ARGUMENT; a range inside one registration is
 * already registered (ZE_RESULT_SUCCESS, nothing more to release); one
 * that overlaps a registration otherwise is
 * ZE_RESULT_ERROR_OVERLAPPING_REGIONS; memory the kernel cannot import (a
 * hole, an I/O mapping) is ZE_RESULT_ERROR_INVALID_ARGUMENT, and over
 * RLIMIT_MEMLOCK ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY. A release takes any
 * address inside a registration and ends all of it; an address in none is
 * ZE_RESULT_ERROR_INVALID_ARGUMENT. zexDriverGetHostPointerBaseAddress
 * gives the registration's first byte (the address the application
 * registered), or ZE_RESULT_ERROR_INVALID_ARGUMENT. Memory a submitted
 * job still uses is not to be released, as with zeMemFree().
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "l0/base/l0.h"

/* Under the lock: the index of the first registration that ends after @addr. */
static size_t first_after(const struct zex_l0_host_imports *imports, uintptr_t addr)
{
	size_t lo = 0, end = imports->num;

	while (lo < end) {
		size_t mid = lo + (end - lo) / 2;

		if (imports->ranges[mid].base + imports->ranges[mid].size <= addr)
			lo = mid + 1;
		else
			end = mid;
	}
	return lo;
}

/* Under the lock: the registration holding @addr, or NULL. */
static struct zex_l0_host_import *find(struct zex_l0_host_imports *imports, uintptr_t addr)
{
	size_t i = first_after(imports, addr);

	return i < imports->num && imports->ranges[i].base <= addr ? &imports->ranges[i] : NULL;
}

/**
 * zex_l0_host_import_covers - whether one registration holds [addr, addr + len)
 * @drv: the driver.
 * @addr: the first byte.
 * @len: bytes, not 0.
 *
 * Return: true when the device reaches the range through a registration.
 */
bool zex_l0_host_import_covers(struct zex_l0_driver *drv, uintptr_t addr, uint64_t len)
{
	struct zex_l0_host_imports *imports = &drv->host_imports;
	const struct zex_l0_host_import *r;
	bool covers;

	/* Every command's check: no lock while nothing is registered. */
	if (!__atomic_load_n(&imports->num, __ATOMIC_ACQUIRE))
		return false;
	pthread_mutex_lock(&imports->lock);
	r = find(imports, addr);
	covers = r && len <= r->base + r->size - addr;
	pthread_mutex_unlock(&imports->lock);
	return covers;
}

/* Import the pages of [base, base + size): writable, else read-only. */
static int import_pages(struct zex_l0_driver *drv, uintptr_t base, uint64_t size, uint32_t *id)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = base & ~(page - 1);
	uint64_t len = ((base + size + page - 1) & ~(page - 1)) - start;
	int ret = zex_userptr_import(drv->dev, (const void *)start, len, false, id);

	if (ret == -EFAULT)
		ret = zex_userptr_import(drv->dev, (const void *)start, len, true, id);
	return ret;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zexDriverImportExternalPointer(ze_driver_handle_t hDriver,
								    void *ptr, size_t size)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	uintptr_t base = (uintptr_t)ptr;
	struct zex_l0_host_imports *imports;
	ze_result_t res = ZE_RESULT_SUCCESS;
	size_t i;
	uint32_t id;
	int ret;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !size || size > UINTPTR_MAX - base - (uintptr_t)sysconf(_SC_PAGESIZE))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: a host pointer to import needs an address and a size");
	imports = &drv->host_imports;
	pthread_mutex_lock(&imports->lock);
	i = first_after(imports, base);
	if (i < imports->num && imports->ranges[i].base <= base &&
	    size <= imports->ranges[i].base + imports->ranges[i].size - base)
		goto out;	/* inside one: registered already */
	if (i < imports->num && imports->ranges[i].base < base + size) {
		res = zex_l0_fail(ZE_RESULT_ERROR_OVERLAPPING_REGIONS,
				  "zex: the range overlaps host memory registered before");
		goto out;
	}
	if (imports->num == imports->cap) {
		size_t cap = imports->cap ? 2 * imports->cap : 16;
		struct zex_l0_host_import *n = realloc(imports->ranges, cap * sizeof(*n));

		if (!n) {
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
			goto out;
		}
		imports->ranges = n;
		imports->cap = cap;
	}
	ret = import_pages(drv, base, size, &id);
	if (ret) {
		res = ret == -ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY :
		      zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "zex: the kernel cannot import that host memory");
		goto out;
	}
	memmove(&imports->ranges[i + 1], &imports->ranges[i], (imports->num - i) * sizeof(imports->ranges[0]));
	imports->ranges[i] = (struct zex_l0_host_import){ .base = base, .size = size, .import_id = id };
	__atomic_store_n(&imports->num, imports->num + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&imports->lock);
	return res;
}

/*
 * The registration holding @ptr, copied to *@out; with @remove, also
 * taken out of the driver's. False when there is none.
 */
static bool lookup(struct zex_l0_driver *drv, const void *ptr, bool remove,
		   struct zex_l0_host_import *out)
{
	struct zex_l0_host_imports *imports = &drv->host_imports;
	struct zex_l0_host_import *r;

	pthread_mutex_lock(&imports->lock);
	r = ptr && imports->num ? find(imports, (uintptr_t)ptr) : NULL;
	if (r) {
		*out = *r;
		if (remove) {
			memmove(r, r + 1, (size_t)(&imports->ranges[imports->num] - (r + 1)) *
				sizeof(*r));
			__atomic_store_n(&imports->num, imports->num - 1, __ATOMIC_RELEASE);
		}
	}
	pthread_mutex_unlock(&imports->lock);
	return r;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver,
								     void *ptr)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	struct zex_l0_host_import r;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!lookup(drv, ptr, true, &r))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the pointer is in no registered host memory");
	zex_userptr_release(drv->dev, r.import_id);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zexDriverGetHostPointerBaseAddress(ze_driver_handle_t hDriver,
									void *ptr,
									void **baseAddress)
{
	struct zex_l0_driver *drv = zex_l0_driver(hDriver);
	struct zex_l0_host_import r;

	if (!drv)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!lookup(drv, ptr, false, &r))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (baseAddress)
		*baseAddress = (void *)r.base;
	return ZE_RESULT_SUCCESS;
}
