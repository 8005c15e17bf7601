// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_prime.c - standard DRM PRIME for one-piece buffer objects
 *
 * Generic DRM userspace shares buffers with DRM_IOCTL_PRIME_HANDLE_TO_FD
 * and DRM_IOCTL_PRIME_FD_TO_HANDLE (libdrm's drmPrimeHandleToFD() and
 * drmPrimeFDToHandle()), one dma-buf per buffer object. A zex buffer
 * object made of one piece is exactly that: its export is the piece's
 * dma-buf, the same one DRM_IOCTL_ZEX_BO_EXPORT gives, and its import is a
 * one-fd DRM_IOCTL_ZEX_BO_IMPORT, except that importing into a file that
 * already has a handle to that object returns that handle, as generic
 * PRIME users expect. An object of several pieces has no single
 * dma-buf: PRIME export refuses it with -E2BIG, and DRM_IOCTL_ZEX_BO_EXPORT
 * exports it as one fd per piece. Import takes only this device's pieces:
 * another exporter's dma-buf (vgem's, say) is -EXDEV, since zex's memory is
 * tile memory it allocates itself.
 */

#include <linux/dma-buf.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/idr.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "../bo/zex_bo.h"
#include "../tiles/zex_piece.h"
#include "zex_dmabuf.h"
#include "zex_ipc.h"

int zex_prime_handle_to_fd(struct drm_device *drm, struct drm_file *file,
			   u32 handle, u32 flags, int *prime_fd)
{
	struct dma_buf *buf;
	struct zex_bo *bo;
	int fd, ret;

	/* The DRM core refused flags other than DRM_CLOEXEC and DRM_RDWR. */
	bo = zex_bo_lookup(file, handle);
	if (!bo) {
		drm_dbg(drm, "PRIME export: no buffer object %u\n", handle);
		return -ENOENT;
	}
	if (bo->num_pieces != 1) {
		drm_dbg(drm, "PRIME export: %u pieces; DRM_IOCTL_ZEX_BO_EXPORT exports each\n",
			bo->num_pieces);
		ret = -E2BIG;
		goto out;
	}
	if (bo->read_only && (flags & DRM_RDWR)) {
		drm_dbg(drm, "PRIME export: read-write export of a read-only object\n");
		ret = -EACCES;
		goto out;
	}
	fd = get_unused_fd_flags(flags & DRM_CLOEXEC ? O_CLOEXEC : 0);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	buf = zex_dmabuf_export(bo->pieces[0].piece, flags & DRM_RDWR ? O_RDWR : O_RDONLY);
	if (IS_ERR(buf)) {
		put_unused_fd(fd);
		ret = PTR_ERR(buf);
		goto out;
	}
	fd_install(fd, buf->file);
	*prime_fd = fd;
	ret = 0;
out:
	drm_gem_object_put(&bo->base);
	return ret;
}

/*
 * The handle @file already has for @obj, as DRM PRIME returns on a
 * self-import: a walk of the file's handles (the caller's own, so the
 * cost is theirs). Return: 0 and *@handle, or -ENOENT.
 */
static int zex_prime_handle_of(struct drm_file *file, struct drm_gem_object *obj,
			       u32 *handle)
{
	struct drm_gem_object *o;
	int id, ret = -ENOENT;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, o, id)
		if (o == obj) {
			*handle = id;
			ret = 0;
			break;
		}
	spin_unlock(&file->table_lock);
	return ret;
}

int zex_prime_fd_to_handle(struct drm_device *drm, struct drm_file *file,
			   int prime_fd, u32 *handle)
{
	struct zex_piece *piece;
	struct dma_buf *buf;
	struct zex_bo *solo;
	bool read_only;
	int ret;

	buf = dma_buf_get(prime_fd);
	if (IS_ERR(buf)) {
		drm_dbg(drm, "PRIME import: fd %d is not a dma-buf\n", prime_fd);
		return PTR_ERR(buf);
	}
	piece = zex_dmabuf_piece(drm, buf);
	read_only = !(buf->file->f_mode & FMODE_WRITE);
	dma_buf_put(buf);
	if (IS_ERR(piece)) {
		drm_dbg(drm, "PRIME import: fd %d is not this device's memory\n", prime_fd);
		return PTR_ERR(piece);
	}
	/* The piece's one-piece object, already a handle here: that handle. */
	solo = read_only ? NULL : zex_bo_get_solo(piece);
	if (solo) {
		ret = zex_prime_handle_of(file, &solo->base, handle);
		drm_gem_object_put(&solo->base);
		if (!ret) {
			drm_gem_object_put(&piece->base.base);
			return 0;
		}
	}
	return zex_ipc_bo_of_pieces(drm, file, &piece, 1, piece->base.base.size, false, 0,
				    read_only, handle);
}
