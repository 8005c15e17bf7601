/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_dmabuf.h - pieces as dma-bufs
 *
 * What the IPC ioctls (zex_ipc.c) and PRIME (zex_prime.c) use to share
 * pieces: export one as a dma-buf, recognise one on import.
 */

#ifndef _ZEX_DMABUF_H_
#define _ZEX_DMABUF_H_

struct dma_buf;
struct drm_device;
struct zex_piece;

struct dma_buf *zex_dmabuf_export(struct zex_piece *piece, int flags);
struct zex_piece *zex_dmabuf_piece(struct drm_device *drm, struct dma_buf *dmabuf);

#endif /* _ZEX_DMABUF_H_ */
