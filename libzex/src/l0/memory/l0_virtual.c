// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_virtual.c - reserved address ranges, physical memory objects and their mappings
 *
 * zeVirtualMemReserve() reserves host address space (an inaccessible
 * anonymous mapping); since libzex gives device memory one address on both
 * sides, the same addresses are the device's. zePhysicalMemCreate() makes
 * memory without an address: device memory is a buffer object of the
 * device (coloured across the tiles on the root device, as
 * zeMemAllocDevice()'s, or a zex dma-buf imported with
 * ze_external_memory_import_fd_t), host memory a memfd. zeVirtualMemMap() maps a
 * page-aligned range of one at a range of a reservation: on the host, the
 * object's pages (the buffer object's mmap moved into place, or the
 * memfd's); on the device, a bind of that range of the buffer object, or an
 * import of the memfd's pages at the same address. The access attribute is
 * the host mapping's protection and the device's view: read-only, or no
 * view at all while it is NONE (the device faults there, and a command
 * naming it fails). Attributes belong to mappings; reserved pages with no
 * mapping are NONE. A mapping that is unmapped, or whose attribute changes,
 * on part of its range is split there first.
 *
 * A mapping the device sees is an allocation table entry, so commands use
 * it in place (mappings side by side in a reservation too) and
 * zeMemGetAllocProperties() knows it. A mapping of device memory from the
 * object's first byte gives IPC handles of the whole object (l0_ipc.c);
 * so does the object's handle itself, passed as the pointer: its export is
 * an allocation of its own, outside the table, named by the handle's
 * address, which lives until the object is destroyed and its last IPC
 * handle put.
 *
 * Pages are the host's and the device's: addresses, sizes and offsets are
 * multiples of 4 KiB. zeVirtualMemQueryPageSize() advises 4 KiB, the root
 * device's colouring granularity for a size it spreads over the tiles (so
 * that a physical object of a multiple of the advice is not rounded up),
 * and 2 MiB (the device page table's large leaf) from 2 MiB up; a size of
 * 0 asks for the smallest advice.
 * zePhysicalMemDestroy() refuses an object still mapped
 * (ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "l0/base/l0.h"
#include "l0/memory/alloc_export.h"
#include "l0/memory/alloc_slot.h"
#include "l0/memory/memfd.h"

#define PAGE		4096ull
#define SZ_64K		(64ull << 10)
#define SZ_2M		(2ull << 20)
/* The device's address space: 48 bits. */
#define DEVICE_VA_END	(1ull << 48)

/* ze_physical_mem_flag_t as API 1.10 names them (the 1.4 headers: bit 0 TBD). */
#define PHYSICAL_ON_DEVICE	1u
#define PHYSICAL_ON_HOST	2u

/**
 * struct zex_l0_vmapping - part of a physical memory object at an address
 * @base, @size: where, in a reservation.
 * @phys: the object.
 * @offset: the object's byte at @base.
 * @access: the access attribute.
 * @view: the device's view, an allocation table entry; NULL while @access
 *	is NONE.
 */
struct zex_l0_vmapping {
	uintptr_t base;
	uint64_t size;
	struct zex_l0_physical_mem *phys;
	uint64_t offset;
	ze_memory_access_attribute_t access;
	struct zex_alloc *view;
};

static bool page_aligned(uint64_t x)
{
	return !(x & (PAGE - 1));
}

static int prot_of(ze_memory_access_attribute_t access)
{
	switch (access) {
	case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE:
		return PROT_READ | PROT_WRITE;
	case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY:
		return PROT_READ;
	default:
		return PROT_NONE;
	}
}

/* Make [start, start + len) reserved and inaccessible again, in place. */
static int rereserve(uintptr_t start, uint64_t len)
{
	return mmap((void *)start, len, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED ?
	       -errno : 0;
}

/* Under the lock: whether [start, end) lies inside one reservation. */
static bool reserved(const struct zex_l0_virtual *v, uintptr_t start, uintptr_t end)
{
	size_t i;

	for (i = 0; i < v->num_reserved; i++)
		if (start >= v->reservations[i][0] && end <= v->reservations[i][1])
			return true;
	return false;
}

static int reservation_add(struct zex_l0_virtual *v, uintptr_t start, uintptr_t end)
{
	size_t i;

	if (v->num_reserved == v->cap_reserved) {
		size_t cap = v->cap_reserved ? 2 * v->cap_reserved : 16;
		uintptr_t (*r)[2] = realloc(v->reservations, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		v->reservations = r;
		v->cap_reserved = cap;
	}
	for (i = v->num_reserved; i > 0 && v->reservations[i - 1][0] > start; i--)
		memcpy(v->reservations[i], v->reservations[i - 1], sizeof(v->reservations[i]));
	v->reservations[i][0] = start;
	v->reservations[i][1] = end;
	v->num_reserved++;
	return 0;
}

/*
 * Take [start, end), inside one reservation, out of it: the reservation
 * shrinks, goes, or becomes two (which may need room: -ENOMEM).
 */
static int reservation_cut(struct zex_l0_virtual *v, uintptr_t start, uintptr_t end)
{
	size_t i;

	for (i = 0; i < v->num_reserved; i++) {
		uintptr_t *r = v->reservations[i];

		if (start < r[0] || end > r[1])
			continue;
		if (start == r[0] && end == r[1]) {
			memmove(&v->reservations[i], &v->reservations[i + 1],
				(v->num_reserved - i - 1) * sizeof(*v->reservations));
			v->num_reserved--;
		} else if (start == r[0]) {
			r[0] = end;
		} else if (end == r[1]) {
			r[1] = start;
		} else {
			uintptr_t tail = r[1];

			if (reservation_add(v, end, tail))
				return -ENOMEM;
			/* The array may have moved. */
			v->reservations[i][1] = start;
		}
		return 0;
	}
	return -ENOENT;
}

/* Under the lock: the index of the first mapping ending above @addr. */
static size_t map_from(const struct zex_l0_virtual *v, uintptr_t addr)
{
	size_t lo = 0, hi = v->num_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->maps[mid]->base + v->maps[mid]->size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int map_insert(struct zex_l0_virtual *v, struct zex_l0_vmapping *m)
{
	size_t at;

	if (v->num_maps == v->cap_maps) {
		size_t cap = v->cap_maps ? 2 * v->cap_maps : 16;
		struct zex_l0_vmapping **maps = realloc(v->maps, cap * sizeof(*maps));

		if (!maps)
			return -ENOMEM;
		v->maps = maps;
		v->cap_maps = cap;
	}
	at = map_from(v, m->base);
	memmove(&v->maps[at + 1], &v->maps[at], (v->num_maps - at) * sizeof(*v->maps));
	v->maps[at] = m;
	v->num_maps++;
	return 0;
}

static void view_release(struct zex_alloc *a)
{
	zex_alloc_export_release(a);
	free(a);
}

/* Give the device the view of @m its access attribute says. */
static int view_attach(struct zex_l0_driver *drv, struct zex_l0_vmapping *m)
{
	const struct zex_l0_physical_mem *p = m->phys;
	bool ro = m->access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
	bool interleaved = false;
	struct zex_alloc *a;
	int ret;

	if (m->access == ZE_MEMORY_ACCESS_ATTRIBUTE_NONE)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (p->device) {
		ret = zex_bo_layout(drv->dev, p->handle, &a->num_pieces, &interleaved,
				    &a->granularity);
		if (!ret)
			ret = zex_bo_bind_range(drv->dev, p->handle, m->base, m->offset, m->size,
						ro, &a->bind_id);
		a->kind = ZEX_ALLOC_VIRTUAL_DEVICE;
		a->handle = p->handle;
	} else {
		ret = zex_userptr_import(drv->dev, (const void *)m->base, m->size, ro,
					 &a->bind_id);
		a->kind = ZEX_ALLOC_VIRTUAL_HOST;
	}
	if (ret) {
		free(a);
		return ret;
	}
	a->interleaved = interleaved;
	a->base = m->base;
	a->size = m->size;
	a->object_offset = m->offset;
	a->object_size = p->object_size;
	a->device = p->device;
	a->owner = drv;
	a->release = view_release;
	ret = zex_alloc_table_insert(&drv->allocs, a);
	if (ret) {
		if (p->device)
			zex_bo_unbind(drv->dev, a->bind_id);
		else
			zex_userptr_release(drv->dev, a->bind_id);
		free(a);
		return ret;
	}
	m->view = a;
	return 0;
}

/*
 * Take the device's view of @m away, now: the kernel's bind or import goes
 * at once (a new mapping may reuse the addresses), the entry's memory with
 * its last reference. An export racing with this finds no object.
 */
static void view_detach(struct zex_l0_driver *drv, struct zex_l0_vmapping *m)
{
	struct zex_alloc *a = m->view;

	if (!a)
		return;
	m->view = NULL;
	a = zex_alloc_table_remove(&drv->allocs, (const void *)m->base, a->kind);
	if (!a)
		return;
	if (a->kind == ZEX_ALLOC_VIRTUAL_DEVICE)
		zex_bo_unbind(drv->dev, a->bind_id);
	else
		zex_userptr_release(drv->dev, a->bind_id);
	pthread_mutex_lock(&drv->ipc_lock);
	a->handle = 0;
	pthread_mutex_unlock(&drv->ipc_lock);
	zex_alloc_put(a);
}

/*
 * Under the lock: make @addr a boundary between mappings, splitting the one
 * that spans it into two with views of their own.
 */
static int split_at(struct zex_l0_driver *drv, uintptr_t addr)
{
	struct zex_l0_virtual *v = &drv->virt;
	struct zex_l0_vmapping *m, *tail;
	size_t at = map_from(v, addr);
	int ret, ret2;

	if (at == v->num_maps || v->maps[at]->base >= addr)
		return 0;
	m = v->maps[at];
	tail = calloc(1, sizeof(*tail));
	if (!tail)
		return -ENOMEM;
	*tail = *m;
	tail->view = NULL;
	tail->base = addr;
	tail->size = m->base + m->size - addr;
	tail->offset = m->offset + (addr - m->base);
	view_detach(drv, m);
	m->size = addr - m->base;
	ret = map_insert(v, tail);
	if (ret) {
		m->size += tail->size;
		free(tail);
		view_attach(drv, m);
		return ret;
	}
	m->phys->mappings++;
	ret = view_attach(drv, m);
	ret2 = view_attach(drv, tail);
	return ret ? ret : ret2;
}

/* Under the lock: remove every mapping inside [start, end) (boundaries already split). */
static void unmap_inside(struct zex_l0_driver *drv, uintptr_t start, uintptr_t end)
{
	struct zex_l0_virtual *v = &drv->virt;
	size_t at = map_from(v, start), n = 0;

	while (at + n < v->num_maps && v->maps[at + n]->base < end) {
		struct zex_l0_vmapping *m = v->maps[at + n];

		view_detach(drv, m);
		m->phys->mappings--;
		free(m);
		n++;
	}
	memmove(&v->maps[at], &v->maps[at + n], (v->num_maps - at - n) * sizeof(*v->maps));
	v->num_maps -= n;
}

/* The checks every range call makes of (ptr, size). */
static ze_result_t range_check(const void *ptr, size_t size)
{
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!size || !page_aligned(size))
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (!page_aligned((uintptr_t)ptr))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
	if ((uintptr_t)ptr + size < (uintptr_t)ptr)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	return ZE_RESULT_SUCCESS;
}

/*
 * What every call on a reserved range does first: the context and the
 * range checked, the lock taken, the range inside one reservation and,
 * with @split, its ends made boundaries between mappings. On success the
 * lock is held and *@pdrv set; on failure it is not held.
 */
static ze_result_t range_begin(ze_context_handle_t hContext, const void *ptr, size_t size,
			       bool split, struct zex_l0_driver **pdrv)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	uintptr_t start = (uintptr_t)ptr, end = start + size;
	struct zex_l0_driver *drv;
	ze_result_t res;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	res = range_check(ptr, size);
	if (res)
		return res;
	drv = ctx->drv;
	pthread_mutex_lock(&drv->virt.lock);
	if (!reserved(&drv->virt, start, end))
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "the range is not inside one reservation");
	else if (split && (split_at(drv, start) || split_at(drv, end)))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (res) {
		pthread_mutex_unlock(&drv->virt.lock);
		return res;
	}
	*pdrv = drv;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
							      ze_device_handle_t hDevice,
							      size_t size, size_t *pagesize)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	uint64_t page = PAGE, gran;
	struct zex_l0_driver *drv;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pagesize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	drv = ctx->drv;
	if (dev->tile < 0 && zex_l0_root_tile(drv) < 0) {
		/* Spread over the tiles, an object is a multiple of the granularity. */
		gran = drv->keys.multi_storage_granularity_kb >= 0 ?
			       (uint64_t)drv->keys.multi_storage_granularity_kb << 10 :
			       drv->topo.multi_storage_granularity;
		if (size / drv->topo.num_tiles >= gran)
			page = gran;
	}
	if (size >= SZ_2M && page < SZ_2M)
		page = SZ_2M;
	*pagesize = page;
	return ZE_RESULT_SUCCESS;
}

/* Reserve @size bytes, at @hint if it is free there, else aligned to @align. */
static void *reserve(const void *hint, uint64_t size, uint64_t align)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	uintptr_t aligned;
	void *p;

	if (hint) {
		p = mmap((void *)hint, size, PROT_NONE, flags | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != MAP_FAILED && (uintptr_t)p + size <= DEVICE_VA_END)
			return p;
		if (p != MAP_FAILED)
			munmap(p, size);
	}
	if (size > UINT64_MAX - align)
		return NULL;
	p = zex_map_anon_aligned(size, align, PROT_NONE);
	if (!p)
		return NULL;
	aligned = (uintptr_t)p;
	if (aligned + size > DEVICE_VA_END) {
		munmap((void *)aligned, size);
		return NULL;
	}
	return (void *)aligned;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemReserve(ze_context_handle_t hContext,
							const void *pStart, size_t size,
							void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_virtual *v;
	void *p;
	int ret;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!size || !page_aligned(size))
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (!page_aligned((uintptr_t)pStart))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
	/* More than the device's address space holds. */
	if (size >= DEVICE_VA_END)
		return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	p = reserve(pStart, size, size >= SZ_2M ? SZ_2M : SZ_64K);
	if (!p)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	v = &ctx->drv->virt;
	pthread_mutex_lock(&v->lock);
	ret = reservation_add(v, (uintptr_t)p, (uintptr_t)p + size);
	pthread_mutex_unlock(&v->lock);
	if (ret) {
		munmap(p, size);
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	*pptr = p;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemFree(ze_context_handle_t hContext,
						     const void *ptr, size_t size)
{
	uintptr_t start = (uintptr_t)ptr, end = start + size;
	struct zex_l0_driver *drv;
	ze_result_t res;

	res = range_begin(hContext, ptr, size, true, &drv);
	if (res)
		return res;
	if (reservation_cut(&drv->virt, start, end)) {
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	} else {
		unmap_inside(drv, start, end);
		munmap((void *)start, size);
	}
	pthread_mutex_unlock(&drv->virt.lock);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zePhysicalMemCreate(ze_context_handle_t hContext,
							ze_device_handle_t hDevice,
							ze_physical_mem_desc_t *desc,
							ze_physical_mem_handle_t *phPhysicalMemory)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_physical_mem *p;
	uint64_t object_size;
	uint32_t handle = 0;
	int memfd = -1, ret;
	bool host;

	if (!ctx || (hDevice && !dev))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phPhysicalMemory)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(desc->stype, ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (desc->flags & ~(ze_physical_mem_flags_t)(PHYSICAL_ON_DEVICE | PHYSICAL_ON_HOST))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (desc->flags == (PHYSICAL_ON_DEVICE | PHYSICAL_ON_HOST))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "physical memory is on the device or on the host, not both");
	host = desc->flags & PHYSICAL_ON_HOST;
	if (!host && !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc->size)
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (!page_aligned(desc->size))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;

	if (host) {
		memfd = zex_memfd_create("zex-physical-memory", desc->size);
		if (memfd < 0)
			return zex_memfd_failed();
		object_size = desc->size;
	} else {
		/* A dma-buf imported as physical memory, or new memory. */
		ze_result_t res = zex_l0_import_fd(ctx->drv, desc->pNext, &handle, &object_size);

		if (res == ZE_RESULT_SUCCESS && desc->size > object_size) {
			zex_bo_close(ctx->drv->dev, handle);
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					   "the dma-buf is smaller than the physical memory");
		}
		if (res == ZE_RESULT_NOT_READY) {
			ret = zex_l0_device_bo_create(ctx->drv, dev, desc->size, &handle,
						      &object_size);
			res = zex_l0_bo_create_result(ret);
		}
		if (res)
			return res;
	}
	p = zex_object_pool_get(&zex_l0_physical_mems);
	if (!p) {
		if (host)
			close(memfd);
		else
			zex_bo_close(ctx->drv->dev, handle);
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	p->drv = ctx->drv;
	p->device = host ? NULL : dev;
	p->handle = handle;
	p->memfd = memfd;
	p->size = desc->size;
	p->object_size = object_size;
	p->mappings = 0;
	p->export = NULL;
	p->id = __atomic_add_fetch(&ctx->drv->virt.physical_ids, 1, __ATOMIC_RELAXED);
	zex_l0_object_publish(&p->obj);
	*phPhysicalMemory = (ze_physical_mem_handle_t)p;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zePhysicalMemDestroy(ze_context_handle_t hContext,
							 ze_physical_mem_handle_t hPhysicalMemory)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_physical_mem *p = zex_l0_physical_mem(hPhysicalMemory);
	struct zex_l0_driver *drv;
	struct zex_alloc *export;
	uint32_t handle;
	bool mapped;
	int memfd;

	if (!ctx || !p)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pthread_mutex_lock(&p->drv->virt.lock);
	mapped = p->mappings;
	pthread_mutex_unlock(&p->drv->virt.lock);
	if (mapped)
		return zex_l0_fail(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				   "the physical memory is still mapped (zeVirtualMemUnmap first)");
	drv = p->drv;
	handle = p->handle;
	memfd = p->memfd;
	/*
	 * Gone for IPC gets before its memory is: no get makes it an export
	 * now. Its export outlives it while IPC handles of it are out.
	 */
	pthread_mutex_lock(&drv->ipc_lock);
	export = p->export;
	p->export = NULL;
	zex_object_pool_put(&zex_l0_physical_mems, p);
	pthread_mutex_unlock(&drv->ipc_lock);
	zex_alloc_put(export);
	if (memfd >= 0)
		close(memfd);
	else
		zex_bo_close(drv->dev, handle);
	return ZE_RESULT_SUCCESS;
}

static void physical_export_release(struct zex_alloc *a)
{
	zex_alloc_export_release(a);
	free(a);
}

/**
 * zex_l0_physical_export_locked - the export of a physical memory object
 *	whose handle is passed as a pointer (zeMemGetIpcHandle())
 * @drv: the driver.
 * @ptr: what the application passed, or a handle's base: the object's
 *	handle, if it is one (not dereferenced otherwise).
 * @create: give the object its export allocation when it has none.
 *
 * The allocation is the whole object: its buffer object's pieces, or its
 * memfd for host memory; its base is the handle's address, which no
 * allocation of the table can have. Under drv->ipc_lock.
 *
 * Return: the allocation, with a reference for the caller; NULL when @ptr
 * is not a live physical memory object of @drv (or, with @create, out of
 * memory).
 */
struct zex_alloc *zex_l0_physical_export_locked(struct zex_l0_driver *drv, const void *ptr,
						bool create)
{
	struct zex_l0_physical_mem *p = zex_object_pool_find(&zex_l0_physical_mems, ptr);
	bool interleaved = false;
	struct zex_alloc *a;

	if (!p || p->drv != drv)
		return NULL;
	if (!p->export && create) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return NULL;
		a->num_pieces = 1;
		if (p->device && zex_bo_layout(drv->dev, p->handle, &a->num_pieces, &interleaved,
					       &a->granularity)) {
			free(a);
			return NULL;
		}
		a->kind = p->device ? ZEX_ALLOC_VIRTUAL_DEVICE : ZEX_ALLOC_HOST;
		a->handle = p->handle;
		a->memfd = p->memfd;
		a->interleaved = interleaved;
		a->base = (uintptr_t)p;
		a->size = p->object_size;
		a->object_size = p->object_size;
		a->device = p->device;
		a->owner = drv;
		a->release = physical_export_release;
		atomic_init(&a->refs, 1);
		p->export = a;
	}
	if (p->export)
		atomic_fetch_add(&p->export->refs, 1);
	return p->export;
}

/* 1.15: the size asked at creation, and an id no other object of the process has had. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zePhysicalMemGetProperties(ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
			   ze_physical_mem_properties_t *pMemProperties)
{
	const struct zex_l0_physical_mem *p = zex_l0_physical_mem(hPhysicalMem);

	if (!zex_l0_context(hContext) || !p)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pMemProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pMemProperties->stype, ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	pMemProperties->id = p->id;
	pMemProperties->size = p->size;
	return ZE_RESULT_SUCCESS;
}

/* The host side of a new mapping: the object's pages at [ptr, ptr + size). */
static int host_map(struct zex_l0_driver *drv, const struct zex_l0_physical_mem *p,
		    const void *ptr, uint64_t size, uint64_t offset, int prot)
{
	if (p->device)
		return zex_bo_map_at(drv->dev, p->handle, (void *)ptr, offset, size, prot);
	return mmap((void *)ptr, size, prot, MAP_SHARED | MAP_FIXED, p->memfd,
		    (off_t)offset) == MAP_FAILED ? -errno : 0;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemMap(ze_context_handle_t hContext,
						    const void *ptr, size_t size,
						    ze_physical_mem_handle_t hPhysicalMemory,
						    size_t offset,
						    ze_memory_access_attribute_t access)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_physical_mem *p = zex_l0_physical_mem(hPhysicalMemory);
	uintptr_t start = (uintptr_t)ptr, end = start + size;
	struct zex_l0_vmapping *m;
	struct zex_l0_driver *drv;
	struct zex_l0_virtual *v;
	ze_result_t res;
	size_t at;

	if (!ctx || !p)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	res = range_check(ptr, size);
	if (res)
		return res;
	if (access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!page_aligned(offset))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
	if (offset > p->size || size > p->size - offset)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "the range is not inside the physical memory");
	m = calloc(1, sizeof(*m));
	if (!m)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	*m = (struct zex_l0_vmapping){
		.base = start, .size = size, .phys = p, .offset = offset, .access = access,
	};
	drv = ctx->drv;
	v = &drv->virt;
	pthread_mutex_lock(&v->lock);
	at = map_from(v, start);
	if (!reserved(v, start, end) || (at < v->num_maps && v->maps[at]->base < end)) {
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "the range is not free inside one reservation");
		goto err;
	}
	if (host_map(drv, p, ptr, size, offset, prot_of(access))) {
		rereserve(start, size);
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		goto err;
	}
	if (map_insert(v, m)) {
		rereserve(start, size);
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		goto err;
	}
	p->mappings++;
	if (view_attach(drv, m)) {
		unmap_inside(drv, start, end);
		rereserve(start, size);
		pthread_mutex_unlock(&v->lock);
		return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	}
	pthread_mutex_unlock(&v->lock);
	return ZE_RESULT_SUCCESS;
err:
	pthread_mutex_unlock(&v->lock);
	free(m);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeVirtualMemUnmap(ze_context_handle_t hContext,
						      const void *ptr, size_t size)
{
	uintptr_t start = (uintptr_t)ptr, end = start + size;
	struct zex_l0_driver *drv;
	ze_result_t res;

	res = range_begin(hContext, ptr, size, true, &drv);
	if (res)
		return res;
	/* Pages of the range that no mapping held stay as they were. */
	unmap_inside(drv, start, end);
	if (rereserve(start, size))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_unlock(&drv->virt.lock);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void *ptr, size_t size,
			       ze_memory_access_attribute_t access)
{
	uintptr_t start = (uintptr_t)ptr, end = start + size;
	struct zex_l0_driver *drv;
	struct zex_l0_virtual *v;
	ze_result_t res;
	size_t at;

	if (zex_l0_context(hContext) && access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY &&
	    !range_check(ptr, size))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	res = range_begin(hContext, ptr, size, true, &drv);
	if (res)
		return res;
	v = &drv->virt;
	for (at = map_from(v, start); at < v->num_maps && v->maps[at]->base < end; at++) {
		struct zex_l0_vmapping *m = v->maps[at];

		if (m->access == access)
			continue;
		view_detach(drv, m);
		m->access = access;
		if (mprotect((void *)m->base, m->size, prot_of(access)) ||
		    view_attach(drv, m))
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	pthread_mutex_unlock(&v->lock);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void *ptr, size_t size,
			       ze_memory_access_attribute_t *access, size_t *outSize)
{
	uintptr_t start = (uintptr_t)ptr, end = start + size, addr;
	ze_memory_access_attribute_t first = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
	struct zex_l0_driver *drv;
	struct zex_l0_virtual *v;
	ze_result_t res;
	size_t at;

	if (!zex_l0_context(hContext))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!access || !outSize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = range_begin(hContext, ptr, size, false, &drv);
	if (res)
		return res;
	v = &drv->virt;
	/* The run of pages from @ptr with the first page's attribute. */
	at = map_from(v, start);
	if (at < v->num_maps && v->maps[at]->base <= start)
		first = v->maps[at]->access;
	addr = start;
	while (addr < end) {
		const struct zex_l0_vmapping *m = at < v->num_maps ? v->maps[at] : NULL;

		if (m && m->base <= addr) {
			if (m->access != first)
				break;
			addr = m->base + m->size;
			at++;
		} else {
			/* Unmapped pages up to the next mapping: NONE. */
			if (first != ZE_MEMORY_ACCESS_ATTRIBUTE_NONE)
				break;
			addr = m ? m->base : end;
		}
	}
	pthread_mutex_unlock(&v->lock);
	*access = first;
	*outSize = (addr < end ? addr : end) - start;
	return ZE_RESULT_SUCCESS;
}
