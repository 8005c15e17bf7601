// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_ipc.c - IPC handles: one per piece, one exported fd per piece, owned by libzex
 *
 * An IPC handle is the dma-buf fd of one piece, in the handle's first four
 * bytes as compute-runtime puts it (consumers such as MPI libraries read it
 * there to pass it with SCM_RIGHTS and write the received number back), and
 * a description of the allocation it belongs to (&struct
 * zex_ipc_handle_data): which piece of how many and the layout, so that
 * zexMemOpenIpcHandles() rebuilds the allocation exactly, interleaved ones
 * included.
 *
 * The fds belong to libzex. The first zeMemGetIpcHandle() or
 * zexMemGetIpcHandles() on an allocation exports it once, one fd per
 * piece; later gets return the same fds and count a reference each;
 * zeMemPutIpcHandle()/zexMemPutIpcHandles() drop one, and the last closes
 * the fds, as zeMemFree() does with any left. A handle is released only
 * when it names an export libzex still holds: the allocation at the
 * handle's base in this process, with the handle's export id and the fd of
 * that piece. Any other bytes are refused, so no fd libzex does not own is
 * ever closed. zeMemOpenIpcHandle() does not take the fd it is given: the
 * receiver keeps it (and may close it once the memory is open). A handle
 * copied as bytes (shared memory, a file) still holds the exporter's fd
 * number: the open then takes the dma-buf from the exporter with
 * pidfd_getfd() (ipc/ipc_fd.c), imports it and closes what it took.
 *
 * Host memory libzex allocated is a memfd: its handle carries the memfd
 * (memory type HOST) and an open maps the same pages shared and imports
 * them for the device. Host memory allocated for a dma-buf export is a
 * buffer object: its handle (memory type HOST) carries the dma-buf, which
 * an open imports and maps.
 *
 * A mapping of a physical memory object (zeVirtualMemMap) at the object's
 * first byte exports the object: the handle's size is the object's, and
 * an open maps all of it. So does the object's handle passed as the
 * pointer (API 1.15), mapped or not: the export is the object's own
 * (l0_virtual.c), the handle's base the object handle's address.
 *
 * The standard zeMemGetIpcHandle() names the whole allocation with one
 * handle, however many pieces: piece 0's, whose bytes carry the address
 * of the export's table of pieces in the exporter (ipc/ipc_pieces.c).
 * zeMemOpenIpcHandle() of it (or zexMemOpenIpcHandles() of that one
 * handle) takes the other pieces from the exporter: the runtimes that
 * pass one handle (UCX, MPI libraries) share coloured memory unchanged.
 * zeMemPutIpcHandle() of it gives back that get.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "l0/base/l0.h"
#include "ipc/ipc_fd.h"
#include "ipc/ipc_handle.h"
#include "ipc/ipc_pieces.h"
#include "l0/memory/alloc_export.h"
#include "ipc/ipc_received.h"
#include "l0/ipc/l0_ipc.h"

/* The handle of piece @i of @a's export. */
static void fill_handle(const struct zex_alloc *a, uint32_t i, ze_ipc_mem_handle_t *h)
{
	struct zex_ipc_handle_data d = {
		.fd = a->ipc_fds[i],
		.magic = ZEX_IPC_MAGIC,
		.export_id = a->ipc_id,
		.base = a->base,
		.size = a->object_size ? a->object_size : a->size,
		.pieces_at = (uintptr_t)a->ipc_pieces,
		.granularity = a->interleaved ? (uint32_t)a->granularity : 0,
		.piece = (uint16_t)i,
		.num_pieces = (uint16_t)a->num_pieces,
		.memory_type = a->kind == ZEX_ALLOC_HOST ? ZE_MEMORY_TYPE_HOST :
							  ZE_MEMORY_TYPE_DEVICE,
		.interleaved = (uint8_t)a->interleaved,
		.pid = (uint32_t)getpid(),
		.dmabuf_id = zex_ipc_fd_id(a->ipc_fds[i]),
	};

	zex_ipc_handle_put(h, &d);
}

static void fill_handles(const struct zex_alloc *a, ze_ipc_mem_handle_t *h)
{
	uint32_t i;

	for (i = 0; i < a->num_pieces; i++)
		fill_handle(a, i, &h[i]);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemGetIpcHandles(ze_context_handle_t hContext, const void *ptr,
		    uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	ze_result_t res = ZE_RESULT_SUCCESS;
	struct zex_alloc *a;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !numIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	if (!a || !zex_alloc_ipc_exportable(a) || a->num_pieces > ZEX_IPC_MAX_HANDLES) {
		res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
		goto out;
	}
	if (*numIpcHandles == 0 || *numIpcHandles > a->num_pieces)
		*numIpcHandles = a->num_pieces;
	if (!pIpcHandles)
		goto out;
	if (*numIpcHandles < a->num_pieces) {
		res = ZE_RESULT_ERROR_INVALID_SIZE;
		goto out;
	}
	pthread_mutex_lock(&ctx->drv->ipc_lock);
	if (zex_alloc_export_get_locked(ctx->drv, a))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	else
		fill_handles(a, pIpcHandles);
	pthread_mutex_unlock(&ctx->drv->ipc_lock);
out:
	zex_alloc_put(a);
	return res;
}

/**
 * zex_l0_ipc_export_find_locked - the allocation an export names, with a reference
 * @drv: the driver.
 * @d: the export as a handle names it: exporter pid, base, export id,
 *	piece, number of pieces and that piece's fd.
 *
 * Return: the allocation at d->base in this process, exported with d's id,
 * whose fd of that piece is d->fd; or NULL. Under drv->ipc_lock.
 */
struct zex_alloc *zex_l0_ipc_export_find_locked(struct zex_l0_driver *drv,
						const struct zex_ipc_handle_data *d)
{
	struct zex_alloc *a;

	if (d->pid != (uint32_t)getpid())
		return NULL;
	a = zex_alloc_table_find(&drv->allocs, (const void *)(uintptr_t)d->base);
	if (!a)
		a = zex_l0_physical_export_locked(drv, (const void *)(uintptr_t)d->base, false);
	if (a && (a->base != d->base || !a->ipc_fds || a->ipc_id != d->export_id ||
		  a->num_pieces != d->num_pieces || a->ipc_fds[d->piece] != d->fd)) {
		zex_alloc_put(a);
		a = NULL;
	}
	return a;
}

/* Drop a get of the export @h names; false when it names none. */
static bool put_exported(struct zex_l0_driver *drv, uint32_t n, ze_ipc_mem_handle_t *h)
{
	uint8_t seen[ZEX_IPC_MAX_HANDLES / 8] = { 0 };
	struct zex_ipc_handle_data first, d;
	struct zex_alloc *a;
	bool ok = true;
	uint32_t i;

	zex_ipc_handle_get(&h[0], &first);
	pthread_mutex_lock(&drv->ipc_lock);
	a = zex_l0_ipc_export_find_locked(drv, &first);
	/* One handle of a get that named them all (zeMemGetIpcHandle()). */
	if (a && n == 1 && first.num_pieces > 1)
		ok = !first.piece && first.pieces_at == (uintptr_t)a->ipc_pieces;
	/* Every piece of that export once, in any order, each with its fd. */
	for (i = 0; a && ok && n > 1 && i < n; i++) {
		ok = zex_ipc_handle_get(&h[i], &d) && d.num_pieces == n &&
		     d.export_id == first.export_id && d.base == first.base &&
		     !(seen[d.piece / 8] & (1u << (d.piece % 8))) &&
		     d.fd == a->ipc_fds[d.piece];
		seen[d.piece / 8] |= (uint8_t)(1u << (d.piece % 8));
	}
	ok = ok && a;
	if (ok && --a->ipc_gets == 0)
		zex_alloc_export_release(a);
	pthread_mutex_unlock(&drv->ipc_lock);
	zex_alloc_put(a);
	return ok;
}

/* Close the fds of handles zexIpcHandlesRecv() installed; false when not. */
static bool put_received(uint32_t n, ze_ipc_mem_handle_t *h)
{
	uint64_t ids[ZEX_IPC_MAX_HANDLES];
	int fds[ZEX_IPC_MAX_HANDLES];
	struct zex_ipc_handle_data d;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (!zex_ipc_handle_get(&h[i], &d) || d.num_pieces != n)
			return false;
		fds[i] = d.fd;
		ids[i] = d.export_id;
	}
	return zex_ipc_received_close(fds, ids, n);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemPutIpcHandles(ze_context_handle_t hContext, uint32_t numIpcHandles,
		    ze_ipc_mem_handle_t *pIpcHandles)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_ipc_handle_data first;
	uint32_t i;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!numIpcHandles)
		return ZE_RESULT_SUCCESS;
	if (!pIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* All the handles of one get or one receive, or the one that names all. */
	if (!zex_ipc_handle_get(&pIpcHandles[0], &first) ||
	    (first.num_pieces != numIpcHandles && numIpcHandles != 1))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "not every IPC handle of one allocation, in order");
	if (!put_exported(ctx->drv, numIpcHandles, pIpcHandles) &&
	    (first.num_pieces != numIpcHandles || !put_received(numIpcHandles, pIpcHandles)))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "IPC handles that name no export or receive libzex holds");
	/* A released handle names nothing any more. */
	for (i = 0; i < numIpcHandles; i++)
		memset(pIpcHandles[i].data, 0, sizeof(pIpcHandles[i].data));
	return ZE_RESULT_SUCCESS;
}

/*
 * Host memory: one handle carrying the exporter's memfd, or the dma-buf
 * of host memory that is a buffer object; mapped here.
 */
static ze_result_t open_host(struct zex_l0_context *ctx, struct zex_l0_device *dev,
			     const struct zex_ipc_handle_data *d, void **pptr)
{
	ze_result_t res;
	uint32_t handle;
	uint64_t size;
	bool owned;
	int fd, ret;

	if (d->num_pieces != 1 || d->piece)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	fd = zex_ipc_fd_resolve(d->fd, d->pid, d->dmabuf_id, &owned);
	if (fd == -EPERM)
		return zex_l0_fail(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS, ZEX_IPC_PTRACE_REFUSED);
	if (fd < 0)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/* A dma-buf imports (the kernel refuses a memfd with -EINVAL). */
	ret = zex_bo_import(ctx->drv->dev, &fd, 1, false, 0, &handle, &size);
	if (!ret) {
		res = zex_l0_map_imported(ctx->drv, handle, size, d->size, 0, ZEX_ALLOC_IPC_HOST,
					  dev, pptr);
	} else {
		if (ret == -EINVAL)
			ret = zex_l0_host_map_fd(ctx->drv, fd, d->size, dev, pptr);
		res = ret == -EINVAL || ret == -EXDEV ? ZE_RESULT_ERROR_INVALID_ARGUMENT :
			ret ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
	}
	/* The import or mapping holds the pages; an fd taken here is closed. */
	if (owned)
		close(fd);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemOpenIpcHandles(ze_context_handle_t hContext, ze_device_handle_t hDevice,
		     uint32_t numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles,
		     ze_ipc_memory_flags_t flags, void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_ipc_handle_data first, d;
	int fds[ZEX_IPC_MAX_HANDLES];
	bool owned[ZEX_IPC_MAX_HANDLES], whole;
	uint32_t handle, i, n;
	uint64_t size;
	int ret = 0;

	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pIpcHandles || !pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Both biases are hints; the emulated device has no cache to bias. */
	if (flags & ~(ze_ipc_memory_flags_t)(ZE_IPC_MEMORY_FLAG_BIAS_CACHED |
					     ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!numIpcHandles || numIpcHandles > ZEX_IPC_MAX_HANDLES ||
	    !zex_ipc_handle_get(&pIpcHandles[0], &first))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/* Every piece's handle, or piece 0's alone when it names them all. */
	whole = numIpcHandles == 1 && first.num_pieces > 1;
	if (first.num_pieces != numIpcHandles && !(whole && !first.piece && first.pieces_at))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (first.memory_type == ZE_MEMORY_TYPE_HOST)
		return open_host(ctx, dev, &first, pptr);
	for (i = 0; i < numIpcHandles; i++) {
		/* Every handle: device memory, piece i of the same export. */
		if (!zex_ipc_handle_get(&pIpcHandles[i], &d) || d.piece != i ||
		    d.num_pieces != first.num_pieces || d.export_id != first.export_id ||
		    d.memory_type != ZE_MEMORY_TYPE_DEVICE ||
		    d.size != first.size || d.interleaved != first.interleaved)
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	}
	/* Each piece's dma-buf as an fd here: received, or taken from the exporter. */
	for (n = 0; n < numIpcHandles && ret >= 0; n++) {
		zex_ipc_handle_get(&pIpcHandles[n], &d);
		ret = zex_ipc_fd_resolve(d.fd, d.pid, d.dmabuf_id, &owned[n]);
		fds[n] = ret;
	}
	/* The other pieces, from the exporter's table. */
	if (whole && ret >= 0) {
		ret = zex_ipc_pieces_take(first.pid, first.pieces_at, first.export_id,
					  first.num_pieces, 1, fds, owned);
		if (!ret)
			n = first.num_pieces;
	}
	if (ret >= 0)
		ret = zex_bo_import(ctx->drv->dev, fds, n, first.interleaved,
				    first.granularity, &handle, &size);
	/* The import holds the dma-bufs; the fds taken here are closed. */
	for (i = 0; i < n; i++)
		if (fds[i] >= 0 && owned[i])
			close(fds[i]);
	if (ret == -EPERM)
		return zex_l0_fail(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS, ZEX_IPC_PTRACE_REFUSED);
	if (ret == -ENOMEM)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (ret)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	ret = zex_l0_map_new(ctx->drv, handle, size, 0, ZEX_ALLOC_IPC, dev, pptr);
	return ret ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext,
						      const void *ptr,
						      ze_ipc_mem_handle_t *pIpcHandle)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	ze_result_t res = ZE_RESULT_SUCCESS;
	struct zex_alloc *a;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !pIpcHandle)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Piece 0's handle: of several pieces, it names them all (its table's address). */
	pthread_mutex_lock(&ctx->drv->ipc_lock);
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	/* Or a physical memory object's handle, passed as the pointer. */
	if (!a)
		a = zex_l0_physical_export_locked(ctx->drv, ptr, true);
	if (!a)
		res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	else if (!zex_alloc_ipc_exportable(a) || a->num_pieces > ZEX_IPC_MAX_HANDLES)
		res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	else if (zex_alloc_export_get_locked(ctx->drv, a))
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	else
		fill_handle(a, 0, pIpcHandle);
	pthread_mutex_unlock(&ctx->drv->ipc_lock);
	zex_alloc_put(a);
	return res;
}

/*
 * zeMemGetIpcHandleWithProperties - zeMemGetIpcHandle() with the kind of
 * handle asked for: a ze_ipc_mem_handle_type_ext_desc_t in @pNext (other
 * structures are extensions libzex does not know, and are passed over).
 * Its DEFAULT (or no flag) is the one kind zex makes; FABRIC_ACCESSIBLE
 * names a fabric zex has none of.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetIpcHandleWithProperties(ze_context_handle_t hContext, const void *ptr, void *pNext,
				ze_ipc_mem_handle_t *pIpcHandle)
{
	const ze_base_desc_t *d;

	if (!zex_l0_context(hContext))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !pIpcHandle)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (d = pNext; d; d = d->pNext) {
		const ze_ipc_mem_handle_type_ext_desc_t *type = (const void *)d;

		if (d->stype != ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC)
			continue;
		if (type->typeFlags & ~(ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT |
					ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE))
			return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ENUMERATION,
					   "zex: unknown ze_ipc_mem_handle_type_flags_t bits");
		if (type->typeFlags & ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE)
			return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					   "zex: no fabric: an IPC handle is for processes of this host");
	}
	return zeMemGetIpcHandle(hContext, ptr, pIpcHandle);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemPutIpcHandle(ze_context_handle_t hContext,
						      ze_ipc_mem_handle_t handle)
{
	/* By value: the caller's copy keeps its bytes, as the spec's call. */
	return zexMemPutIpcHandles(hContext, 1, &handle);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemOpenIpcHandle(ze_context_handle_t hContext,
						       ze_device_handle_t hDevice,
						       ze_ipc_mem_handle_t handle,
						       ze_ipc_memory_flags_t flags,
						       void **pptr)
{
	return zexMemOpenIpcHandles(hContext, hDevice, 1, &handle, flags, pptr);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemCloseIpcHandle(ze_context_handle_t hContext,
							const void *ptr)
{
	return zex_l0_release_alloc(hContext, ptr, ZEX_ALLOC_IPC | ZEX_ALLOC_IPC_HOST);
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetFileDescriptorFromIpcHandleExp(ze_context_handle_t hContext,
				       ze_ipc_mem_handle_t ipcHandle, uint64_t *pHandle)
{
	struct zex_ipc_handle_data d;

	if (!zex_l0_context(hContext))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pHandle)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_ipc_handle_get(&ipcHandle, &d))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	*pHandle = (uint64_t)d.fd;
	return ZE_RESULT_SUCCESS;
}

/* One piece of exportable device memory whose exported fd is *@arg. */
static bool exports_fd(const struct zex_alloc *a, const void *arg)
{
	return zex_alloc_exportable(a) && a->num_pieces == 1 && a->ipc_fds &&
	       a->ipc_fds[0] == *(const int *)arg;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zeMemGetIpcHandleFromFileDescriptorExp(ze_context_handle_t hContext, uint64_t handle,
				       ze_ipc_mem_handle_t *pIpcHandle)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_alloc *a;
	int fd;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pIpcHandle)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (handle > INT32_MAX)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	/*
	 * Only an fd libzex exported (zeMemGetAllocProperties with
	 * ze_external_memory_export_fd_t, or an IPC get) of a one-piece
	 * allocation: the handle is that export's, with its reference.
	 */
	pthread_mutex_lock(&ctx->drv->ipc_lock);
	fd = (int)handle;
	a = zex_alloc_table_find_if(&ctx->drv->allocs, exports_fd, &fd);
	if (a) {
		a->ipc_gets++;
		fill_handles(a, pIpcHandle);
	}
	pthread_mutex_unlock(&ctx->drv->ipc_lock);
	zex_alloc_put(a);
	return a ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
