/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_ipc.h - the IPC ioctls: buffer objects as one dma-buf per piece
 *
 * Everything zex does with dma-bufs lives in this folder: the ioctls
 * (zex_ipc.c), standard PRIME for one-piece objects (zex_prime.c) and the
 * dma-buf side of pieces (zex_dmabuf.c).
 */

#ifndef _ZEX_IPC_H_
#define _ZEX_IPC_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct zex_piece;

int zex_bo_export_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_ipc_bo_of_pieces(struct drm_device *drm, struct drm_file *file,
			 struct zex_piece **pieces, u32 n, u64 size, bool interleaved,
			 u64 granularity, bool read_only, u32 *handle);
int zex_prime_handle_to_fd(struct drm_device *drm, struct drm_file *file,
			   u32 handle, u32 flags, int *prime_fd);
int zex_prime_fd_to_handle(struct drm_device *drm, struct drm_file *file,
			   int prime_fd, u32 *handle);

#endif /* _ZEX_IPC_H_ */
