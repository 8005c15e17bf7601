// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: alloc_export.c - an allocation's dma-buf fds: made once, shared, closed last
 *
 * The first IPC get (or export-fd property query) of a device allocation
 * (or of a mapping of a physical object from its first byte) exports it,
 * one dma-buf fd per piece, as does host memory that is a buffer object;
 * host memory libzex allocated as a memfd exports a duplicate of the
 * memfd instead (IPC handles only: it is no dma-buf). The
 * fds stay on the allocation with a count of their holders and an export
 * id that names this export in handles; an export of several pieces also
 * keeps their table (ipc/ipc_pieces.c), whose address every handle
 * carries, so that one handle names them all. Later gets share them; the
 * last put, or zeMemFree(), closes them and ends the table. Every field
 * is under the driver's ipc_lock.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "ipc/ipc_pieces.h"
#include "l0/base/l0.h"
#include "l0/memory/alloc_export.h"

/* Export ids: distinct within the process, and unlikely across processes. */
static _Atomic uint64_t zex_next_export_id;

/**
 * zex_alloc_exportable - whether @a is a buffer object that exports as a whole
 *
 * A device allocation, host memory that is a buffer object (allocated for
 * a dma-buf export, or a dma-buf imported as host memory), or a mapping
 * of a physical memory object from the object's first byte: its export
 * is the whole object (an open maps all of it, as the specification says
 * of handles of physical memory).
 */
bool zex_alloc_exportable(const struct zex_alloc *a)
{
	return a->kind == ZEX_ALLOC_DEVICE || (a->kind == ZEX_ALLOC_HOST && a->memfd < 0) ||
	       (a->kind == ZEX_ALLOC_VIRTUAL_DEVICE && !a->object_offset);
}

/**
 * zex_alloc_ipc_exportable - whether IPC handles can name @a
 *
 * Exportable buffer objects (their dma-bufs), or host memory libzex
 * allocated as a memfd (the memfd).
 */
bool zex_alloc_ipc_exportable(const struct zex_alloc *a)
{
	return zex_alloc_exportable(a) || (a->kind == ZEX_ALLOC_HOST && a->memfd >= 0);
}


/**
 * zex_alloc_export_release - close an allocation's exported fds (zeMemFree)
 *
 * Called with the allocation's last reference, so no get or put can race.
 */
void zex_alloc_export_release(struct zex_alloc *a)
{
	uint32_t i;

	if (!a->ipc_fds)
		return;
	/* The table first: an importer reading it now is refused. */
	zex_ipc_pieces_free(a->ipc_pieces);
	a->ipc_pieces = NULL;
	for (i = 0; i < a->num_pieces; i++)
		close(a->ipc_fds[i]);
	free(a->ipc_fds);
	a->ipc_fds = NULL;
}

/**
 * zex_alloc_export_get_locked - export @a once; a reference for the caller
 *
 * Under drv->ipc_lock. Return: 0 or -ENOMEM.
 */
int zex_alloc_export_get_locked(struct zex_l0_driver *drv, struct zex_alloc *a)
{
	uint32_t n = a->num_pieces;
	int *fds;

	if (a->ipc_fds) {
		a->ipc_gets++;
		return 0;
	}
	fds = calloc(n, sizeof(*fds));
	if (!fds)
		return -ENOMEM;
	if (a->kind == ZEX_ALLOC_HOST && a->memfd >= 0) {
		/* Host memory travels as its memfd. */
		fds[0] = fcntl(a->memfd, F_DUPFD_CLOEXEC, 0);
		if (fds[0] < 0) {
			free(fds);
			return -ENOMEM;
		}
	} else if (zex_bo_export(drv->dev, a->handle, fds, &n) || n != a->num_pieces) {
		free(fds);
		return -ENOMEM;
	}
	/* A random start: an id from another process is not one of ours. */
	if (!zex_next_export_id) {
		uint64_t seed = ((uint64_t)getpid() << 32) ^ (uintptr_t)&seed ^ a->base;

		zex_next_export_id = seed | 1;
	}
	a->ipc_id = zex_next_export_id++;
	if (n > 1) {
		a->ipc_pieces = zex_ipc_pieces_create(a->ipc_id, fds, n);
		if (!a->ipc_pieces) {
			while (n--)
				close(fds[n]);
			free(fds);
			return -ENOMEM;
		}
	}
	a->ipc_fds = fds;
	a->ipc_gets = 1;
	return 0;
}

/**
 * zex_alloc_export_fd - the dma-buf fd of a one-piece buffer object
 *
 * For ze_external_memory_export_fd_t: the allocation's one exported fd,
 * held until zeMemFree() (the export holds a reference of its own, taken
 * once). Return: 0, -EINVAL for memory that is not a buffer object of
 * one piece, -ENOMEM.
 */
int zex_alloc_export_fd(struct zex_l0_driver *drv, struct zex_alloc *a, int *fd)
{
	int ret = 0;

	if (!zex_alloc_exportable(a) || a->num_pieces != 1)
		return -EINVAL;
	pthread_mutex_lock(&drv->ipc_lock);
	if (!a->ipc_exported_fd) {
		ret = zex_alloc_export_get_locked(drv, a);
		a->ipc_exported_fd = !ret;
	}
	if (!ret)
		*fd = a->ipc_fds[0];
	pthread_mutex_unlock(&drv->ipc_lock);
	return ret;
}
