/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_handle.h - the bytes of libzex's ze_ipc_mem_handle_t and ze_ipc_event_pool_handle_t
 *
 * The dma-buf fd first (offset 0, where compute-runtime puts it and where
 * consumers read and rewrite it), then what names the export in the
 * exporting process and what zexMemOpenIpcHandles() needs to rebuild the
 * allocation. Documentation/libzex.rst shows the layout.
 */

#ifndef ZEX_IPC_HANDLE_H
#define ZEX_IPC_HANDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <level_zero/ze_api.h>

/*
 * Four bytes, the same on every host (no NUL): "ZEXK", the layout with the
 * address of the export's table of pieces ("ZEXJ" and "ZEXI", the ones
 * before it, are refused).
 */
#define ZEX_IPC_MAGIC	"ZEXK"

/* The most handles one allocation exports: the kernel's piece limit. */
#define ZEX_IPC_MAX_HANDLES	1024

/* The contents of ze_ipc_mem_handle_t.data. */
struct zex_ipc_handle_data {
	int32_t fd;		/* first, as compute-runtime's handles */
	char magic[4];		/* ZEX_IPC_MAGIC */
	uint64_t export_id;	/* which export of the exporter */
	uint64_t base;		/* the allocation, in the exporter */
	uint64_t size;		/* of the whole allocation */
	uint64_t pieces_at;	/* the exporter's table of pieces (ipc_pieces.h); 0: one */
	uint32_t granularity;
	uint16_t piece;
	uint16_t num_pieces;
	uint8_t memory_type;	/* ze_memory_type_t */
	uint8_t interleaved;
	uint16_t reserved;	/* 0 */
	uint32_t pid;		/* of the exporter */
	uint64_t dmabuf_id;	/* the piece's dma-buf identity (ipc/ipc_fd.h) */
};

_Static_assert(sizeof(struct zex_ipc_handle_data) == ZE_MAX_IPC_HANDLE_SIZE,
	       "an IPC handle's data fills ze_ipc_mem_handle_t");
_Static_assert(offsetof(struct zex_ipc_handle_data, fd) == 0,
	       "the fd is at offset 0, where consumers read it");

static inline void zex_ipc_handle_put(ze_ipc_mem_handle_t *h,
				      const struct zex_ipc_handle_data *d)
{
	memcpy(h->data, d, sizeof(*d));
}

/** zex_ipc_handle_get - @h's data; whether it is well-formed */
static inline bool zex_ipc_handle_get(const ze_ipc_mem_handle_t *h,
				      struct zex_ipc_handle_data *d)
{
	memcpy(d, h->data, sizeof(*d));
	return !memcmp(d->magic, ZEX_IPC_MAGIC, sizeof(d->magic)) && d->fd >= 0 &&
	       d->num_pieces &&
	       d->num_pieces <= ZEX_IPC_MAX_HANDLES && d->piece < d->num_pieces &&
	       d->interleaved <= 1 && !d->reserved && d->dmabuf_id &&
	       (d->num_pieces > 1 || !d->pieces_at);
}

/* An event pool's handle: "ZEXE" instead. */
#define ZEX_IPC_EVENT_POOL_MAGIC	"ZEXE"

/* The contents of ze_ipc_event_pool_handle_t.data. */
struct zex_ipc_event_pool_handle_data {
	int32_t fd;		/* first, as a memory handle's */
	char magic[4];		/* ZEX_IPC_EVENT_POOL_MAGIC */
	uint64_t export_id;	/* which export of the exporter */
	uint64_t base;		/* the pool's memory, in the exporter */
	uint64_t size;		/* of the pool's memory */
	uint64_t dmabuf_id;	/* the dma-buf's identity (ipc/ipc_fd.h) */
	uint32_t count;		/* events */
	uint32_t flags;		/* ze_event_pool_flags_t */
	uint32_t pid;		/* of the exporter */
	uint32_t reserved[3];	/* 0 */
};

_Static_assert(sizeof(struct zex_ipc_event_pool_handle_data) == ZE_MAX_IPC_HANDLE_SIZE,
	       "an event pool handle's data fills ze_ipc_event_pool_handle_t");

/** zex_ipc_event_pool_handle_get - @h's data; whether it is well-formed */
static inline bool zex_ipc_event_pool_handle_get(const ze_ipc_event_pool_handle_t *h,
						 struct zex_ipc_event_pool_handle_data *d)
{
	memcpy(d, h->data, sizeof(*d));
	return !memcmp(d->magic, ZEX_IPC_EVENT_POOL_MAGIC, sizeof(d->magic)) && d->fd >= 0 &&
	       d->count && d->dmabuf_id && !d->reserved[0] && !d->reserved[1] && !d->reserved[2];
}

#endif /* ZEX_IPC_HANDLE_H */
