// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_host.c - host and shared memory, allocation properties, address ranges
 *
 * Host memory is imported into the device address space (a userptr
 * import), so host and device use the same address; shared memory
 * (zeMemAllocShared) is the same, reported as ZE_MEMORY_TYPE_SHARED with
 * its device. Any power-of-two alignment is honoured; each allocation
 * has a slot of its own (alloc_slot.c). With
 * ze_external_memmap_sysmem_ext_desc_t in pNext the application's own
 * memory is imported and returned unchanged (ZE_MEMORY_TYPE_HOST_IMPORTED;
 * the application keeps ownership, zeMemFree only unmaps it from the
 * device). With ze_external_memory_import_fd_t it is the zex dma-buf
 * named there, mapped whole (l0_mem.c). With ze_external_memory_export_desc_t
 * asking for a dma-buf it is a buffer object of one piece in tile 0's
 * memory (zex's objects live in tile memory), mapped and bound like
 * device memory, so that the export-fd property and IPC hand out its
 * dma-buf. Otherwise libzex allocates the memory itself: a memfd's
 * pages (shmem, charged to the caller's memory cgroup), mapped shared, so
 * that an IPC handle of a host allocation can carry the memfd to another
 * process (l0_ipc.c), which maps the same pages.
 *
 * Which import: memory libzex allocated never changes under it, so it is
 * pinned (charged to RLIMIT_MEMLOCK). The application's own memory is
 * mirrored (DRM_ZEX_USERPTR_MIRROR: nothing pinned or charged, and the
 * device follows whatever the application later does to its mapping),
 * unless the kernel cannot mirror (no HMM): then it is pinned too.
 *
 * Result codes: size 0 is ZE_RESULT_ERROR_UNSUPPORTED_SIZE; a misaligned
 * pointer or size, READ_ONLY with WRITE_COMBINED, a descriptor whose size
 * disagrees, and memory that cannot be mapped (a hole, an I/O mapping,
 * read-only memory without MEM_READ_ONLY, an address whose pages changed
 * under a live import) are ZE_RESULT_ERROR_INVALID_ARGUMENT; a pinned
 * import over RLIMIT_MEMLOCK is ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY.
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "l0/base/l0.h"
#include "l0/memory/alloc_export.h"
#include "l0/memory/alloc_slot.h"
#include "l0/memory/memfd.h"

#define ZEX_HOST_FLAGS	(ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED | \
			 ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED | \
			 ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED | \
			 ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY | (1u << 3))

static void zex_host_release(struct zex_alloc *a)
{
	struct zex_l0_driver *drv = a->owner;

	zex_alloc_export_release(a);
	zex_userptr_release(drv->dev, a->handle);
	/* The application's memory stays the application's. */
	if (a->kind != ZEX_ALLOC_HOST_IMPORTED) {
		zex_alloc_slot_unmap((void *)a->base, a->size);
		if (a->memfd >= 0)
			close(a->memfd);
	}
	free(a);
}

/*
 * Enter @a (its range, kind, device, memfd and import id set) in the
 * table, to go with zex_host_release(); on failure its import goes.
 */
static int host_enter(struct zex_l0_driver *drv, struct zex_alloc *a)
{
	int ret;

	a->owner = drv;
	a->release = zex_host_release;
	ret = zex_alloc_table_insert(&drv->allocs, a);
	if (ret)
		zex_userptr_release(drv->dev, a->handle);
	return ret;
}

static const ze_external_memmap_sysmem_ext_desc_t *find_memmap(const void *pNext)
{
	const ze_base_desc_t *d;

	for (d = pNext; d; d = d->pNext)
		if (d->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC)
			return (const ze_external_memmap_sysmem_ext_desc_t *)d;
	return NULL;
}

/*
 * ze_external_memory_export_desc_t in a host allocation's chain: whether
 * it asks for a dma-buf. Another type is UNSUPPORTED_ENUMERATION.
 */
static ze_result_t export_wanted(const void *pNext, bool *dma_buf)
{
	const ze_base_desc_t *d;

	*dma_buf = false;
	for (d = pNext; d; d = d->pNext) {
		const ze_external_memory_export_desc_t *e = (const void *)d;

		if (d->stype != ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC)
			continue;
		if (e->flags & ~(ze_external_memory_type_flags_t)ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF)
			return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					   "libzex exports host memory as a dma-buf only");
		*dma_buf = e->flags != 0;
	}
	return ZE_RESULT_SUCCESS;
}

/*
 * Host memory to be exported as a dma-buf: a buffer object of one piece,
 * mapped and bound at one address like device memory. zex's objects live
 * in tile memory, so it is tile 0's.
 */
static ze_result_t host_alloc_dma_buf(struct zex_l0_driver *drv, size_t size, size_t alignment,
				      bool read_only, void **pptr)
{
	uint64_t real_size;
	uint32_t handle;
	int ret;

	if (read_only)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "read-only host memory is not exported as a dma-buf");
	ret = zex_bo_create(drv->dev, size, 0, NULL, &handle, &real_size);
	if (ret)
		return zex_l0_bo_create_result(ret);
	ret = zex_l0_map_new(drv, handle, real_size, alignment, ZEX_ALLOC_HOST, NULL, pptr);
	return ret ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
}

static ze_result_t import_result(int ret)
{
	switch (ret) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -ENOMEM:
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	case -E2BIG:
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	default:
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	}
}

/*
 * Host memory for the device: the application's (@map) or new memory,
 * imported into the device's address space, entered in the table as @kind.
 */
static ze_result_t host_alloc(struct zex_l0_context *ctx,
			      const ze_host_mem_alloc_desc_t *host_desc, size_t size,
			      size_t alignment, enum zex_alloc_kind kind,
			      struct zex_l0_device *device, void **pptr)
{
	const ze_external_memmap_sysmem_ext_desc_t *map;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	struct zex_alloc *a;
	bool read_only, dma_buf = false;
	int ret, memfd = -1;
	void *mem;

	if (!zex_l0_stype_ok(host_desc->stype, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (host_desc->flags & ~(ze_host_mem_alloc_flags_t)ZEX_HOST_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	read_only = host_desc->flags & ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY;
	if (read_only && (host_desc->flags & ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (!size)
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (alignment & (alignment - 1))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;

	if (kind == ZEX_ALLOC_HOST) {
		/* A dma-buf imported as host memory: mapped like device memory. */
		ze_result_t res = zex_l0_map_import(ctx->drv, host_desc->pNext, size, alignment,
						    ZEX_ALLOC_HOST, NULL, pptr);

		if (res != ZE_RESULT_NOT_READY)
			return res;
		res = export_wanted(host_desc->pNext, &dma_buf);
		if (res)
			return res;
	}
	map = kind == ZEX_ALLOC_HOST ? find_memmap(host_desc->pNext) : NULL;
	if (map && dma_buf)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "the application's own memory is not exported as a dma-buf");
	if (dma_buf)
		return host_alloc_dma_buf(ctx->drv, size, alignment, read_only, pptr);
	if (map) {
		if (!map->pSystemMemory)
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
		if (!map->size)
			return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
		if (map->size != size || ((uintptr_t)map->pSystemMemory | size) & (page - 1) ||
		    (alignment && (uintptr_t)map->pSystemMemory & (alignment - 1)))
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
		mem = map->pSystemMemory;
		kind = ZEX_ALLOC_HOST_IMPORTED;
	} else {
		if (size > SIZE_MAX - page)
			return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
		size = (size + page - 1) & ~(page - 1);
		memfd = zex_memfd_create("zex-host-memory", size);
		if (memfd < 0)
			return zex_memfd_failed();
		mem = zex_alloc_slot_map_fd(memfd, size, alignment);
		if (!mem) {
			close(memfd);
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		}
	}

	a = calloc(1, sizeof(*a));
	if (!a) {
		ret = -ENOMEM;
		goto err;
	}
	a->memfd = memfd;
	a->num_pieces = 1;
	ret = map ? zex_userptr_import_mirror(ctx->drv->dev, mem, size, read_only, &a->handle) :
		    -EOPNOTSUPP;
	if (ret == -EOPNOTSUPP)
		ret = zex_userptr_import(ctx->drv->dev, mem, size, read_only, &a->handle);
	if (ret)
		goto err;
	a->base = (uintptr_t)mem;
	a->size = size;
	a->kind = kind;
	a->device = device;
	ret = host_enter(ctx->drv, a);
	if (ret) {
		ret = ret == -EEXIST ? -EINVAL : ret;
		goto err;
	}
	*pptr = mem;
	return ZE_RESULT_SUCCESS;

err:
	free(a);
	if (!map) {
		zex_alloc_slot_unmap(mem, size);
		close(memfd);
	}
	return import_result(ret);
}

/**
 * zex_l0_host_map_fd - map another process's host memory (its memfd) here
 * @drv: the driver.
 * @fd: the memfd; the caller keeps it (the mapping holds the pages).
 * @size: the allocation's size, page-aligned.
 * @device: the device it was opened for.
 * @pptr: receives the address.
 *
 * The pages are mapped shared and imported pinned (charged to
 * RLIMIT_MEMLOCK) at their address, entered in the table as
 * ZEX_ALLOC_IPC_HOST. Return: 0, or -errno (-EINVAL for a size the fd
 * does not have).
 */
int zex_l0_host_map_fd(struct zex_l0_driver *drv, int fd, uint64_t size,
		       struct zex_l0_device *device, void **pptr)
{
	struct zex_alloc *a;
	struct stat st;
	void *mem;
	int ret;

	if (!size || size & 4095 || fstat(fd, &st) || (uint64_t)st.st_size < size)
		return -EINVAL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	mem = zex_alloc_slot_map_fd(fd, size, 0);
	if (!mem) {
		free(a);
		return -ENOMEM;
	}
	ret = zex_userptr_import(drv->dev, mem, size, false, &a->handle);
	if (ret)
		goto err;
	a->base = (uintptr_t)mem;
	a->size = size;
	a->kind = ZEX_ALLOC_IPC_HOST;
	a->device = device;
	a->memfd = -1;		/* the exporter's: not this allocation's to close */
	ret = host_enter(drv, a);
	if (ret)
		goto err;
	*pptr = mem;
	return 0;
err:
	zex_alloc_slot_unmap(mem, size);
	free(a);
	return ret;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemAllocHost(ze_context_handle_t hContext,
						   const ze_host_mem_alloc_desc_t *host_desc,
						   size_t size, size_t alignment, void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!host_desc || !pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return host_alloc(ctx, host_desc, size, alignment, ZEX_ALLOC_HOST, NULL, pptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemAllocShared(ze_context_handle_t hContext, const ze_device_mem_alloc_desc_t *device_desc,
		 const ze_host_mem_alloc_desc_t *host_desc, size_t size, size_t alignment,
		 ze_device_handle_t hDevice, void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = NULL;

	if (!ctx || (hDevice && !(dev = zex_l0_device(hDevice))))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!device_desc || !host_desc || !pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(device_desc->stype, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (device_desc->flags & ~(ze_device_mem_alloc_flags_t)0x7)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	/* Host memory the device reaches at the same address: no migration. */
	return host_alloc(ctx, host_desc, size, alignment, ZEX_ALLOC_SHARED, dev, pptr);
}

/*
 * ze_external_memory_export_fd_t chained on the properties: the dma-buf fd
 * of a one-piece buffer object (device memory, or host memory allocated
 * for a dma-buf export), owned by libzex until zeMemFree() (the
 * same fd as the allocation's IPC handle).
 */
static ze_result_t export_fd(struct zex_l0_context *ctx, struct zex_alloc *a,
			     void *pNext)
{
	ze_base_properties_t *ext;
	int fd, ret;

	for (ext = pNext; ext; ext = ext->pNext) {
		ze_external_memory_export_fd_t *e = (ze_external_memory_export_fd_t *)ext;

		if (ext->stype != ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD)
			continue;
		if (e->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF)
			return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					   "libzex exports memory as a dma-buf only");
		ret = zex_alloc_export_fd(ctx->drv, a, &fd);
		if (ret == -EINVAL)
			return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					   "only a buffer object of one piece has one dma-buf fd");
		if (ret)
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		e->fd = fd;
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetAllocProperties(ze_context_handle_t hContext, const void *ptr,
			ze_memory_allocation_properties_t *pMemAllocProperties,
			ze_device_handle_t *phDevice)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	ze_result_t res;
	struct zex_alloc *a;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !pMemAllocProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(pMemAllocProperties->stype, ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	pMemAllocProperties->type = ZE_MEMORY_TYPE_UNKNOWN;
	pMemAllocProperties->id = 0;
	pMemAllocProperties->pageSize = 0;
	if (phDevice)
		*phDevice = NULL;
	if (!a)		/* the spec: an unknown pointer is of unknown type */
		return ZE_RESULT_SUCCESS;
	res = export_fd(ctx, a, pMemAllocProperties->pNext);
	if (res)
		goto out;
	switch (a->kind) {
	case ZEX_ALLOC_DEVICE:
	case ZEX_ALLOC_IPC:
	case ZEX_ALLOC_VIRTUAL_DEVICE:
		pMemAllocProperties->type = ZE_MEMORY_TYPE_DEVICE;
		break;
	case ZEX_ALLOC_VIRTUAL_HOST:
		pMemAllocProperties->type = ZE_MEMORY_TYPE_HOST;
		break;
	case ZEX_ALLOC_SHARED:
		pMemAllocProperties->type = ZE_MEMORY_TYPE_SHARED;
		break;
	case ZEX_ALLOC_HOST:
	case ZEX_ALLOC_IPC_HOST:
		pMemAllocProperties->type = ZE_MEMORY_TYPE_HOST;
		break;
	default:
		pMemAllocProperties->type = ZE_MEMORY_TYPE_HOST_IMPORTED;
		break;
	}
	/* The device it was made on or opened for (a tile is a sub-device). */
	if (phDevice)
		*phDevice = (ze_device_handle_t)a->device;
	pMemAllocProperties->id = a->base;
	pMemAllocProperties->pageSize = 4096;
out:
	zex_alloc_put(a);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetAddressRange(ze_context_handle_t hContext,
							 const void *ptr, void **pBase,
							 size_t *pSize)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_alloc *a;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	if (!a)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (pBase)
		*pBase = (void *)a->base;
	if (pSize)
		*pSize = a->size;
	zex_alloc_put(a);
	return ZE_RESULT_SUCCESS;
}
