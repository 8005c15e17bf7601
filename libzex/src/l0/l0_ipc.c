// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_ipc.c - IPC handles: one per piece, one pointer per allocation
 *
 * An IPC handle is the fd of one piece's dma-buf and a description of the
 * allocation it belongs to (&struct zex_ipc_handle_data, in the 64 bytes
 * of ze_ipc_mem_handle_t): which piece, of how many, and the layout, so
 * that zexMemOpenIpcHandles() rebuilds the allocation exactly, interleaved
 * ones included. Single-handle zeMemGetIpcHandle()/zeMemOpenIpcHandle()
 * work when the allocation is one piece and refuse otherwise.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "l0.h"

#define ZEX_IPC_MAGIC	0x5a455849u	/* "ZEXI" */

/* The contents of ze_ipc_mem_handle_t.data. */
struct zex_ipc_handle_data {
	uint32_t magic;
	int32_t fd;
	uint32_t piece;
	uint32_t num_pieces;
	uint32_t memory_type;	/* ze_memory_type_t */
	uint32_t interleaved;
	uint64_t granularity;
	uint64_t size;		/* of the whole allocation */
	uint64_t pid;		/* of the exporter, for diagnostics */
};

_Static_assert(sizeof(struct zex_ipc_handle_data) <= ZE_MAX_IPC_HANDLE_SIZE,
	       "an IPC handle's data fits ze_ipc_mem_handle_t");

static void put_data(ze_ipc_mem_handle_t *h, const struct zex_ipc_handle_data *d)
{
	memset(h->data, 0, sizeof(h->data));
	memcpy(h->data, d, sizeof(*d));
}

static bool get_data(const ze_ipc_mem_handle_t *h, struct zex_ipc_handle_data *d)
{
	memcpy(d, h->data, sizeof(*d));
	return d->magic == ZEX_IPC_MAGIC && d->fd >= 0 && d->num_pieces &&
	       d->piece < d->num_pieces;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemGetIpcHandles(ze_context_handle_t hContext, const void *ptr,
		    uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	ze_result_t res = ZE_RESULT_SUCCESS;
	int fds[ZEX_IPC_MAX_HANDLES];
	struct zex_alloc *a;
	uint32_t n, i;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !numIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	a = zex_alloc_table_find(&ctx->drv->allocs, ptr);
	if (!a || a->kind != ZEX_ALLOC_DEVICE) {
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
	n = a->num_pieces;
	if (n > ZEX_IPC_MAX_HANDLES || zex_bo_export(ctx->drv->dev, a->handle, fds, &n)) {
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct zex_ipc_handle_data d = {
			.magic = ZEX_IPC_MAGIC,
			.fd = fds[i],
			.piece = i,
			.num_pieces = n,
			.memory_type = ZE_MEMORY_TYPE_DEVICE,
			.interleaved = (uint32_t)a->interleaved,
			.granularity = a->granularity,
			.size = a->size,
			.pid = (uint64_t)getpid(),
		};

		put_data(&pIpcHandles[i], &d);
	}
out:
	zex_alloc_put(a);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemPutIpcHandles(ze_context_handle_t hContext, uint32_t numIpcHandles,
		    ze_ipc_mem_handle_t *pIpcHandles)
{
	struct zex_ipc_handle_data d;
	uint32_t i;

	if (!zex_l0_context(hContext))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (numIpcHandles && !pIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* All or nothing: check every handle before closing any fd. */
	for (i = 0; i < numIpcHandles; i++)
		if (!get_data(&pIpcHandles[i], &d))
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	for (i = 0; i < numIpcHandles; i++) {
		get_data(&pIpcHandles[i], &d);
		close(d.fd);
		d.fd = -1;
		d.magic = 0;
		put_data(&pIpcHandles[i], &d);
	}
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexMemOpenIpcHandles(ze_context_handle_t hContext, ze_device_handle_t hDevice,
		     uint32_t numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles,
		     ze_ipc_memory_flags_t flags, void **pptr)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_ipc_handle_data first, d;
	int fds[ZEX_IPC_MAX_HANDLES];
	uint32_t handle, i;
	uint64_t size;
	int ret;

	if (!ctx || !zex_l0_device(hDevice))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pIpcHandles || !pptr)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (flags & ~(ze_ipc_memory_flags_t)ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!numIpcHandles || numIpcHandles > ZEX_IPC_MAX_HANDLES ||
	    !get_data(&pIpcHandles[0], &first) || first.num_pieces != numIpcHandles)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	for (i = 0; i < numIpcHandles; i++) {
		/* Every handle: device memory, piece i of the same allocation. */
		if (!get_data(&pIpcHandles[i], &d) || d.piece != i ||
		    d.num_pieces != first.num_pieces ||
		    d.memory_type != ZE_MEMORY_TYPE_DEVICE ||
		    d.size != first.size || d.interleaved != first.interleaved)
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
		fds[i] = d.fd;
	}
	ret = zex_bo_import(ctx->drv->dev, fds, numIpcHandles, first.interleaved,
			    first.granularity, &handle, &size);
	if (ret == -ENOMEM)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (ret)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	ret = zex_l0_map_new(ctx->drv, handle, size, 0, ZEX_ALLOC_IPC, pptr);
	return ret ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext,
						      const void *ptr,
						      ze_ipc_mem_handle_t *pIpcHandle)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	uint32_t n = 0;
	ze_result_t res;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!ptr || !pIpcHandle)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zexMemGetIpcHandles(hContext, ptr, &n, NULL);
	if (res)
		return res;
	/* Several pieces need several handles: zexMemGetIpcHandles(). */
	if (n != 1)
		return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
	return zexMemGetIpcHandles(hContext, ptr, &n, pIpcHandle);
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
	return zex_l0_release_alloc(hContext, ptr, ZEX_ALLOC_IPC);
}
