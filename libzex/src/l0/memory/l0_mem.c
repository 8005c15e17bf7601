// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_mem.c - device memory: zeMemAllocDevice, zeMemFree
 *
 * A device allocation is a zex buffer object mapped into the process and
 * bound in the device address space at the same address: the mapping's
 * address is the allocation's pointer, on the host and on the device (the
 * address jobs use). On a tile it is one piece in that tile's
 * memory. On the root device with implicit scaling it is coloured across
 * the tiles, following the debug keys: EnableImplicitScaling=0 places it
 * on tile 0, MultiStoragePolicy and MultiStorageGranularity override the
 * device's colouring (zex_l0_device_bo_create(), which physical memory
 * objects use too). With ze_external_memory_import_fd_t in the
 * descriptor's chain the allocation is the dma-buf it names (a zex
 * device's), imported and mapped whole.
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "zex/zex_exec.h"
#include "l0/base/l0.h"
#include "l0/memory/alloc_export.h"
#include "l0/memory/alloc_slot.h"

static void zex_l0_release(struct zex_alloc *a)
{
	struct zex_l0_driver *drv = a->owner;

	zex_alloc_export_release(a);
	zex_bo_unbind(drv->dev, a->bind_id);
	zex_alloc_slot_unmap((void *)a->base, a->size);
	zex_bo_close(drv->dev, a->handle);
	free(a);
}

/**
 * zex_l0_map_new - map a new buffer object, bind it there, enter it in the table
 *
 * An object the kernel only lets be read (a read-only IPC export) is
 * bound read-only. Takes over @handle: on failure it is closed.
 * Return: 0 or -errno.
 */
int zex_l0_map_new(struct zex_l0_driver *drv, uint32_t handle, uint64_t size,
		   uint64_t alignment, enum zex_alloc_kind kind,
		   struct zex_l0_device *device, void **pptr)
{
	struct zex_alloc *a = calloc(1, sizeof(*a));
	bool interleaved = false;
	void *p = NULL;
	int ret;

	if (!a) {
		ret = -ENOMEM;
		goto err_close;
	}
	ret = zex_bo_layout(drv->dev, handle, &a->num_pieces, &interleaved,
			    &a->granularity);
	if (!ret) {
		p = zex_alloc_slot_reserve(size, alignment);
		ret = p ? zex_bo_map_at(drv->dev, handle, p, 0, size, PROT_READ | PROT_WRITE) :
			  -errno;
		if (ret && p)
			zex_alloc_slot_unmap(p, size);
	}
	if (ret)
		goto err_free;
	ret = zex_bo_bind(drv->dev, handle, (uintptr_t)p, false, &a->bind_id);
	if (ret == -EACCES)
		ret = zex_bo_bind(drv->dev, handle, (uintptr_t)p, true, &a->bind_id);
	if (ret) {
		zex_alloc_slot_unmap(p, size);
		goto err_free;
	}
	a->interleaved = interleaved;
	a->memfd = -1;
	a->base = (uintptr_t)p;
	a->size = size;
	a->handle = handle;
	a->kind = kind;
	a->device = device;
	a->owner = drv;
	a->release = zex_l0_release;
	ret = zex_alloc_table_insert(&drv->allocs, a);
	if (ret) {
		zex_bo_unbind(drv->dev, a->bind_id);
		zex_alloc_slot_unmap(p, size);
		goto err_free;
	}
	*pptr = p;
	return 0;

err_free:
	free(a);
err_close:
	zex_bo_close(drv->dev, handle);
	return ret;
}

/**
 * zex_l0_device_bo_create - a new buffer object of @dev's memory
 *
 * On a tile, one piece in that tile's memory. On the root device with
 * implicit scaling, coloured across the tiles as the device colours, or
 * as MultiStoragePolicy and MultiStorageGranularity say.
 * Return: 0 or the kernel's -errno.
 */
int zex_l0_device_bo_create(struct zex_l0_driver *drv, const struct zex_l0_device *dev,
			    uint64_t size, uint32_t *handle, uint64_t *real_size)
{
	struct zex_colouring_override colour = { .size = sizeof(colour), .policy = -1 };
	uint32_t placement;

	if (dev->tile >= 0) {
		placement = (uint32_t)dev->tile;
	} else if (zex_l0_root_tile(drv) >= 0) {
		/* The root device is one tile. */
		placement = (uint32_t)zex_l0_root_tile(drv);
	} else {
		placement = ZEX_PLACEMENT_ROOT;
		if (drv->keys.multi_storage_policy >= 0 ||
		    drv->keys.multi_storage_granularity_kb >= 0) {
			colour.policy = drv->keys.multi_storage_policy >= 0 ?
					drv->keys.multi_storage_policy :
					(int)drv->topo.multi_storage_policy;
			colour.granularity_kb = drv->keys.multi_storage_granularity_kb >= 0 ?
				(uint32_t)drv->keys.multi_storage_granularity_kb :
				(uint32_t)(drv->topo.multi_storage_granularity >> 10);
		}
	}
	return zex_bo_create(drv->dev, size, placement, &colour, handle, real_size);
}

/**
 * zex_l0_import_fd - the dma-buf a ze_external_memory_import_fd_t in @pNext names
 * @drv: the driver.
 * @pNext: a descriptor's extension chain.
 * @handle: receives the imported buffer object.
 * @size: receives its size.
 *
 * Return: ZE_RESULT_NOT_READY when the chain imports nothing (the caller
 * allocates), ZE_RESULT_SUCCESS with the object, or the result code:
 * another type than DMA_BUF is UNSUPPORTED_ENUMERATION; an fd that is no
 * dma-buf of a zex device (the kernel's -EINVAL, -EXDEV) INVALID_ARGUMENT.
 */
ze_result_t zex_l0_import_fd(struct zex_l0_driver *drv, const void *pNext, uint32_t *handle,
			     uint64_t *size)
{
	const ze_external_memory_import_fd_t *imp = NULL;
	const ze_base_desc_t *d;
	int ret;

	for (d = pNext; d; d = d->pNext)
		if (d->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD)
			imp = (const ze_external_memory_import_fd_t *)d;
	if (!imp)
		return ZE_RESULT_NOT_READY;
	if (imp->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
				   "libzex imports dma-bufs only");
	ret = zex_bo_import(drv->dev, &imp->fd, 1, false, 0, handle, size);
	if (ret == -ENOMEM)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (ret)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "the fd is no dma-buf of a zex device");
	return ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_map_imported - map a buffer object imported from a dma-buf, whole
 * @drv: the driver.
 * @handle: the object; taken over (closed on failure).
 * @real_size: its size.
 * @size: what the caller asked for, which must fit in it.
 * @alignment: of the address.
 * @kind: the allocation's kind.
 * @device: the device it is for, or NULL.
 * @pptr: receives the address.
 *
 * Return: the result; a dma-buf smaller than @size is INVALID_ARGUMENT.
 */
ze_result_t zex_l0_map_imported(struct zex_l0_driver *drv, uint32_t handle, uint64_t real_size,
				uint64_t size, uint64_t alignment, enum zex_alloc_kind kind,
				struct zex_l0_device *device, void **pptr)
{
	if (size > real_size) {
		zex_bo_close(drv->dev, handle);
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "the dma-buf is smaller than the allocation");
	}
	return zex_l0_map_new(drv, handle, real_size, alignment, kind, device, pptr) ?
		       ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_map_import - map the dma-buf @pNext imports, or say there is none
 *
 * Return: ZE_RESULT_NOT_READY when nothing is imported; else the result,
 * with *@pptr the object's address (its whole size is mapped; @size must
 * fit in it).
 */
ze_result_t zex_l0_map_import(struct zex_l0_driver *drv, const void *pNext, uint64_t size,
			      uint64_t alignment, enum zex_alloc_kind kind,
			      struct zex_l0_device *device, void **pptr)
{
	uint64_t real_size;
	uint32_t handle;
	ze_result_t res;

	res = zex_l0_import_fd(drv, pNext, &handle, &real_size);
	if (res)
		return res;
	return zex_l0_map_imported(drv, handle, real_size, size, alignment, kind, device, pptr);
}

/** zex_l0_bo_create_result - the result code of zex_l0_device_bo_create()'s -errno */
ze_result_t zex_l0_bo_create_result(int err)
{
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -ENOSPC:
		return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	case -E2BIG:
	case -EINVAL:
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	default:
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemAllocDevice(ze_context_handle_t hContext,
						     const ze_device_mem_alloc_desc_t *device_desc,
						     size_t size, size_t alignment,
						     ze_device_handle_t hDevice, void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	uint32_t handle;
	uint64_t real_size;
	ze_result_t res;
	int ret;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!device_desc || !pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_l0_stype_ok(device_desc->stype, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (device_desc->flags & ~(ze_device_mem_alloc_flags_t)0x7)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!size)
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (alignment & (alignment - 1))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;

	res = zex_l0_map_import(ctx->drv, device_desc->pNext, size, alignment, ZEX_ALLOC_DEVICE,
				dev, pptr);
	if (res != ZE_RESULT_NOT_READY)
		return res;
	ret = zex_l0_device_bo_create(ctx->drv, dev, size, &handle, &real_size);
	if (ret)
		return zex_l0_bo_create_result(ret);
	ret = zex_l0_map_new(ctx->drv, handle, real_size, alignment, ZEX_ALLOC_DEVICE, dev,
			     pptr);
	return ret ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_release_alloc_kind - remove the allocation of one of @kinds at @ptr
 *
 * Only the base of an allocation of one of those kinds; its memory goes
 * with the last reference. Return: 0, or -ENOENT.
 */
int zex_l0_release_alloc_kind(struct zex_l0_driver *drv, const void *ptr, int kinds)
{
	struct zex_alloc *a = zex_alloc_table_remove(&drv->allocs, ptr, kinds);

	if (!a)
		return -ENOENT;
	zex_alloc_put(a);
	return 0;
}

/**
 * zex_l0_release_alloc - remove the allocation of one of @kinds starting at @ptr
 *
 * Return: ZE_RESULT_SUCCESS, or the result code for a bad argument.
 */
ze_result_t zex_l0_release_alloc(ze_context_handle_t hContext, const void *ptr,
				 int kinds)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return zex_l0_release_alloc_kind(ctx->drv, ptr, kinds) ?
		       ZE_RESULT_ERROR_INVALID_ARGUMENT : ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemFree(ze_context_handle_t hContext, void *ptr)
{
	/* IPC memory is closed with zeMemCloseIpcHandle(), not freed. */
	return zex_l0_release_alloc(hContext, ptr, ZEX_ALLOC_DEVICE | ZEX_ALLOC_HOST |
				    ZEX_ALLOC_HOST_IMPORTED | ZEX_ALLOC_SHARED);
}
