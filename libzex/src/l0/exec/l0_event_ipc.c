// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_event_ipc.c - IPC event pools: another process waits for, or signals, this one's events
 *
 * An event pool's memory is one buffer object; its IPC handle is that
 * object's dma-buf fd (first, as a memory handle's, for consumers that pass
 * it with SCM_RIGHTS and write the received number back), with what names
 * the export here and the dma-buf's identity (&struct
 * zex_ipc_event_pool_handle_data). The handle also works copied as bytes:
 * the receiver then takes the fd from the exporter (ipc/ipc_fd.c).
 *
 * The export is the allocation's own (l0/memory/alloc_export.c): the first
 * zeEventPoolGetIpcHandle() makes it, each counts a get,
 * zeEventPoolPutIpcHandle() drops one and the last closes the fd, as
 * zeEventPoolDestroy() does with any left. zeEventPoolOpenIpcHandle()
 * imports the dma-buf, maps and binds it like a pool of its own: both
 * processes' stores and waits see the same words, and the kernel's waits
 * wake device-wide (a job's end, an engine's store), whichever file
 * signalled. The opened pool is not reset: its events keep the exporter's
 * state.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "l0/exec/l0_exec.h"
#include "ipc/ipc_fd.h"
#include "ipc/ipc_handle.h"
#include "l0/ipc/l0_ipc.h"
#include "l0/memory/alloc_export.h"

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
							    ze_ipc_event_pool_handle_t *phIpc)
{
	struct zex_l0_event_pool *pool = zex_l0_event_pool(hEventPool);
	struct zex_ipc_event_pool_handle_data d = { .magic = ZEX_IPC_EVENT_POOL_MAGIC };
	ze_result_t res = ZE_RESULT_SUCCESS;
	struct zex_alloc *a;

	if (!pool)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!phIpc)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!(pool->flags & ZE_EVENT_POOL_FLAG_IPC))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the event pool was not created with ZE_EVENT_POOL_FLAG_IPC");
	if (pool->opened)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: an event pool opened from an IPC handle is not exported again");
	a = zex_alloc_table_find(&pool->drv->allocs, pool->slots);
	if (!a)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	pthread_mutex_lock(&pool->drv->ipc_lock);
	if (zex_alloc_export_get_locked(pool->drv, a)) {
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	} else {
		d.fd = a->ipc_fds[0];
		d.export_id = a->ipc_id;
		d.base = a->base;
		d.size = a->size;
		d.dmabuf_id = zex_ipc_fd_id(d.fd);
		d.count = pool->count;
		d.flags = pool->flags;
		d.pid = (uint32_t)getpid();
		memcpy(phIpc->data, &d, sizeof(d));
	}
	pthread_mutex_unlock(&pool->drv->ipc_lock);
	zex_alloc_put(a);
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
							     ze_ipc_event_pool_handle_t hIpc,
							     ze_event_pool_handle_t *phEventPool)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_ipc_event_pool_handle_data d;
	uint32_t handle;
	uint64_t size;
	bool owned;
	int fd, ret;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!phEventPool)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!zex_ipc_event_pool_handle_get(&hIpc, &d) ||
	    d.size < (uint64_t)d.count * sizeof(struct zex_l0_event_slot))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: not an event pool's IPC handle");
	fd = zex_ipc_fd_resolve(d.fd, d.pid, d.dmabuf_id, &owned);
	if (fd == -EPERM)
		return zex_l0_fail(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS, ZEX_IPC_PTRACE_REFUSED);
	if (fd < 0)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: neither this process nor the exporter holds the handle's fd");
	ret = zex_bo_import(ctx->drv->dev, &fd, 1, false, 0, &handle, &size);
	if (owned)
		close(fd);
	if (ret)
		return ret == -ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY :
					ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (size < d.size) {
		zex_bo_close(ctx->drv->dev, handle);
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	}
	if (zex_l0_event_pool_new(ctx->drv, handle, size, d.flags, d.count,
				  ZEX_L0_POOL_OPENED, phEventPool))
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool)
{
	struct zex_l0_event_pool *pool = zex_l0_event_pool(hEventPool);

	if (!pool)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pool->opened)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the event pool was not opened from an IPC handle");
	return zeEventPoolDestroy(hEventPool);
}

/* 1.6: one get of this process's export dropped; a received handle holds nothing of ours. */
ZE_APIEXPORT ze_result_t ZE_APICALL zeEventPoolPutIpcHandle(ze_context_handle_t hContext,
							    ze_ipc_event_pool_handle_t hIpc)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_ipc_event_pool_handle_data d;
	struct zex_ipc_handle_data export;
	struct zex_alloc *a;

	if (!ctx)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!zex_ipc_event_pool_handle_get(&hIpc, &d))
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: not an event pool's IPC handle");
	if (d.pid != (uint32_t)getpid())
		return ZE_RESULT_SUCCESS;
	export = (struct zex_ipc_handle_data){
		.fd = d.fd, .export_id = d.export_id, .base = d.base,
		.piece = 0, .num_pieces = 1, .pid = d.pid,
	};
	pthread_mutex_lock(&ctx->drv->ipc_lock);
	a = zex_l0_ipc_export_find_locked(ctx->drv, &export);
	if (a && a->kind == ZEX_ALLOC_EVENTS && --a->ipc_gets == 0)
		zex_alloc_export_release(a);
	pthread_mutex_unlock(&ctx->drv->ipc_lock);
	if (!a || a->kind != ZEX_ALLOC_EVENTS) {
		zex_alloc_put(a);
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				   "zex: the handle names no export of an event pool of this process");
	}
	zex_alloc_put(a);
	return ZE_RESULT_SUCCESS;
}
