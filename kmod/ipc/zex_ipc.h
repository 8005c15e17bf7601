/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_ipc.h - the IPC ioctls: buffer objects as one dma-buf per piece
 *
 * Everything zex does with dma-bufs lives in this folder: the ioctls
 * (zex_ipc.c) and the dma-buf side of pieces (zex_dmabuf.c).
 */

#ifndef _ZEX_IPC_H_
#define _ZEX_IPC_H_

struct drm_device;
struct drm_file;

int zex_bo_export_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int zex_bo_import_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _ZEX_IPC_H_ */
