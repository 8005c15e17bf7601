// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_ipc.c - multi-fd export and import of buffer objects
 *
 * DRM_IOCTL_ZEX_BO_EXPORT turns every piece of a buffer object into its own
 * dma-buf fd, in piece order; a piece exported again gets the same dma-buf
 * (zex_dmabuf_export()). It is all or nothing: the fds are reserved and
 * the dma-bufs made first, the fd array is copied out, and only then are the
 * fds installed, so a failure at any step leaves no fd and no dma-buf
 * behind (an installed fd cannot be taken back).
 *
 * DRM_IOCTL_ZEX_BO_IMPORT builds one buffer object from N such fds. Only
 * pieces of this device are accepted (zex_dmabuf_piece()): the new
 * object references those very pieces, so the import is zero-copy and
 * outlives the exporter. Importing one piece whose one-piece object still
 * lives returns that object, as DRM PRIME does on self-import. An
 * interleaved layout can be rebuilt when the pieces' sizes fit it. The same
 * piece twice is refused (-EINVAL): its two ranges would alias.
 *
 * Access modes hold across the round trip: a dma-buf exported without
 * DRM_RDWR is a read-only file, and an object imported from any read-only
 * dma-buf is a read-only object (&zex_bo.read_only): it maps only without
 * PROT_WRITE, binds only with DRM_ZEX_VM_BIND_READ_ONLY, is never a copy's
 * destination, and exports again only read-only (-EACCES otherwise). Such
 * an import never returns a writable one-piece object of the same piece.
 */

#include <linux/dma-buf.h>
#include <linux/file.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>

#include <drm/zex_drm.h>

#include "../bo/zex_bo.h"
#include "../common/zex_check.h"
#include "../common/zex_gfp.h"
#include "../tiles/zex_piece.h"
#include "zex_dmabuf.h"
#include "zex_ipc.h"

int zex_bo_export_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct drm_zex_bo_export *args = data;
	struct dma_buf *bufs_small[DRM_ZEX_MAX_TILES], **bufs = NULL;
	int fds_small[DRM_ZEX_MAX_TILES];
	struct zex_bo *bo;
	u32 n, i, fds_made = 0, bufs_made = 0;
	int *fds = NULL;
	int ret = 0;

	if (zex_ioctl_check(drm, args->flags & ~(DRM_CLOEXEC | DRM_RDWR)) ||
	    zex_ioctl_check(drm, args->pad) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]))
		return -EINVAL;

	bo = zex_bo_lookup(file, args->handle);
	if (zex_ioctl_check(drm, !bo))
		return -ENOENT;
	if (zex_ioctl_check(drm, bo->read_only && (args->flags & DRM_RDWR))) {
		ret = -EACCES;
		goto out_put;
	}

	n = bo->num_pieces;
	if (!args->num_fds)
		goto out_count;
	if (zex_ioctl_check(drm, args->num_fds < n)) {
		ret = -ENOSPC;
		goto out_put;
	}

	/* The common case, one piece per tile, needs no allocation. */
	if (n <= ARRAY_SIZE(fds_small)) {
		fds = fds_small;
		bufs = bufs_small;
	} else {
		fds = kvmalloc_array(n, sizeof(*fds), ZEX_GFP_USER);
		bufs = kvmalloc_array(n, sizeof(*bufs), ZEX_GFP_USER);
		if (!fds || !bufs) {
			ret = -ENOMEM;
			goto out_free;
		}
	}

	for (; fds_made < n; fds_made++) {
		ret = get_unused_fd_flags(args->flags & DRM_CLOEXEC ? O_CLOEXEC : 0);
		if (ret < 0)
			goto out_unwind;
		fds[fds_made] = ret;
	}
	for (; bufs_made < n; bufs_made++) {
		struct dma_buf *buf;

		buf = zex_dmabuf_export(bo->pieces[bufs_made].piece,
					args->flags & DRM_RDWR ? O_RDWR : O_RDONLY);
		if (IS_ERR(buf)) {
			ret = PTR_ERR(buf);
			goto out_unwind;
		}
		bufs[bufs_made] = buf;
	}
	if (copy_to_user(u64_to_user_ptr(args->fds), fds, array_size(n, sizeof(*fds)))) {
		ret = -EFAULT;
		goto out_unwind;
	}

	/* Past the last failure point: hand every dma-buf's file to its fd. */
	for (i = 0; i < n; i++)
		fd_install(fds[i], bufs[i]->file);
	ret = 0;
	goto out_free;

out_unwind:
	while (bufs_made--)
		dma_buf_put(bufs[bufs_made]);
	while (fds_made--)
		put_unused_fd(fds[fds_made]);
out_free:
	if (fds != fds_small) {
		kvfree(bufs);
		kvfree(fds);
	}
out_count:
	if (!ret)
		args->num_fds = n;
out_put:
	drm_gem_object_put(&bo->base);
	return ret;
}

/*
 * Interleaving C chunks over n pieces gives piece t ceil((C - t) / n)
 * chunks: the first C % n pieces one chunk more than the rest.
 */
static bool zex_fits_interleave(struct zex_piece **pieces, u32 n, u64 granularity)
{
	u64 first = pieces[0]->base.base.size;
	u32 i;

	for (i = 0; i < n; i++) {
		u64 size = pieces[i]->base.base.size;

		if (size & (granularity - 1) || !size)
			return false;
		if (size != first && size != first - granularity)
			return false;
		if (i && size > pieces[i - 1]->base.base.size)
			return false;
	}
	return true;
}

/**
 * zex_ipc_bo_of_pieces - a handle to a buffer object made of @pieces
 * @drm: the device.
 * @file: the file that gets the handle.
 * @pieces: @n pieces, each with a reference, which this takes over
 *	(whatever the result).
 * @n: how many.
 * @size: their total size.
 * @interleaved: the layout.
 * @granularity: the interleaving's chunk (0 when linear).
 * @read_only: whether any of them came from a read-only dma-buf.
 * @handle: the new handle.
 *
 * One piece, linear, writable: the object already made of it, if it lives,
 * as DRM PRIME does on self-import (a read-only import must not hand out
 * that writable object); else a new object.
 *
 * Return: 0 or a negative errno.
 */
int zex_ipc_bo_of_pieces(struct drm_device *drm, struct drm_file *file,
			 struct zex_piece **pieces, u32 n, u64 size, bool interleaved,
			 u64 granularity, bool read_only, u32 *handle)
{
	struct zex_bo *bo;
	u32 i;
	int ret;

	bo = n == 1 && !interleaved && !read_only ? zex_bo_get_solo(pieces[0]) : NULL;
	if (bo) {
		drm_gem_object_put(&pieces[0]->base.base);
	} else {
		bo = zex_bo_alloc(drm, n, size, interleaved, granularity, read_only);
		if (IS_ERR(bo)) {
			for (i = 0; i < n; i++)
				drm_gem_object_put(&pieces[i]->base.base);
			return PTR_ERR(bo);
		}
		for (i = 0; i < n; i++)
			zex_bo_add_piece(bo, pieces[i]);
		if (n == 1 && !interleaved && !read_only)
			zex_bo_set_solo(bo);
	}
	ret = drm_gem_handle_create(file, &bo->base, handle);
	drm_gem_object_put(&bo->base);
	return ret;
}

int zex_bo_import_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file)
{
	struct drm_zex_bo_import *args = data;
	bool interleaved = args->flags & DRM_ZEX_BO_INTERLEAVED;
	bool bad_granularity = interleaved ?
		args->granularity < SZ_64K || args->granularity > SZ_1G ||
		!is_power_of_2(args->granularity) :
		args->granularity != 0;
	struct zex_piece *pieces_small[DRM_ZEX_MAX_TILES], **pieces;
	int fds_small[DRM_ZEX_MAX_TILES];
	u32 n = args->num_fds, got = 0, i, j;
	bool read_only = false;
	u64 size = 0;
	int *fds;
	int ret;

	if (zex_ioctl_check(drm, args->flags & ~DRM_ZEX_BO_INTERLEAVED) ||
	    zex_ioctl_check(drm, args->pad) ||
	    zex_ioctl_check(drm, args->reserved[0] || args->reserved[1]) ||
	    zex_ioctl_check(drm, !n))
		return -EINVAL;
	if (zex_ioctl_check(drm, n > DRM_ZEX_MAX_PIECES))
		return -E2BIG;
	if (zex_ioctl_check(drm, bad_granularity))
		return -EINVAL;

	if (n <= ARRAY_SIZE(fds_small)) {
		fds = fds_small;
		pieces = pieces_small;
	} else {
		fds = kvmalloc_array(n, sizeof(*fds), ZEX_GFP_USER);
		pieces = kvcalloc(n, sizeof(*pieces), ZEX_GFP_USER);
		if (!fds || !pieces) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	if (copy_from_user(fds, u64_to_user_ptr(args->fds), array_size(n, sizeof(*fds)))) {
		ret = -EFAULT;
		goto out_free;
	}

	for (; got < n; got++) {
		struct dma_buf *buf = dma_buf_get(fds[got]);

		if (IS_ERR(buf)) {
			ret = PTR_ERR(buf);
			drm_dbg(drm, "fd %d (index %u) is not a dma-buf: %d\n",
				fds[got], got, ret);
			goto out_put;
		}
		pieces[got] = zex_dmabuf_piece(drm, buf);
		if (!(buf->file->f_mode & FMODE_WRITE))
			read_only = true;
		dma_buf_put(buf);
		if (IS_ERR(pieces[got])) {
			ret = PTR_ERR(pieces[got]);
			drm_dbg(drm, "fd %d (index %u) is not this device's memory\n",
				fds[got], got);
			goto out_put;
		}
		size += pieces[got]->base.base.size;
	}
	/* A piece twice would make two ranges of one object alias. */
	for (j = 1; j < n; j++) {
		for (i = 0; i < j; i++) {
			if (pieces[i] == pieces[j]) {
				drm_dbg(drm, "fd index %u is the piece of index %u again\n", j, i);
				ret = -EINVAL;
				goto out_put;
			}
		}
	}
	if (interleaved &&
	    zex_ioctl_check(drm, !zex_fits_interleave(pieces, n, args->granularity))) {
		ret = -EINVAL;
		goto out_put;
	}

	ret = zex_ipc_bo_of_pieces(drm, file, pieces, n, size, interleaved,
				   interleaved ? args->granularity : 0, read_only,
				   &args->handle);
	got = 0;	/* taken by zex_ipc_bo_of_pieces() */
	if (!ret)
		args->size = size;

out_put:
	while (got--)
		drm_gem_object_put(&pieces[got]->base.base);
out_free:
	if (fds != fds_small) {
		kvfree(pieces);
		kvfree(fds);
	}
	return ret;
}
