/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_view.h - a hostrpc view, wherever its memory comes from
 *
 * A view binds the protocol core to one side of a channel: a kernel
 * channel's mmap (hostrpc_channel.c), or memory the caller provides, which
 * the device side reaches by other means (hostrpc_memory.c: the host side
 * of a GPU's calls). Both lay the memory out the same way, as the zex uapi
 * says (hostrpc_channel.c checks these offsets against it): the shared
 * words, one side's private words, the slot pages.
 */

#ifndef ZEX_HOSTRPC_VIEW_H
#define ZEX_HOSTRPC_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "zex/zex_hostrpc.h"
#include "hostrpc/hostrpc.h"

/* Offsets in the control page (struct drm_zex_hostrpc_control). */
#define ZEX_HOSTRPC_CONTROL_MAGIC	0
#define ZEX_HOSTRPC_CONTROL_VERSION	4
#define ZEX_HOSTRPC_CONTROL_NSLOTS	8
#define ZEX_HOSTRPC_CONTROL_MAP_SIZE	16
#define ZEX_HOSTRPC_CONTROL_HOST_ARMED	64
#define ZEX_HOSTRPC_CONTROL_DEVICE_ARMED 128
#define ZEX_HOSTRPC_CONTROL_DEAD	192
#define ZEX_HOSTRPC_CONTROL_SUMMARY	256
#define ZEX_HOSTRPC_CONTROL_REQUEST	4096
#define ZEX_HOSTRPC_CONTROL_ANSWER	12288
/* In the private area (struct drm_zex_hostrpc_private), from its start. */
#define ZEX_HOSTRPC_PRIVATE_OWNER	0
#define ZEX_HOSTRPC_PRIVATE_MIRROR	8192
/* The magic and version a control page carries. */
#define ZEX_HOSTRPC_MAGIC		0x5a585250u
#define ZEX_HOSTRPC_VERSION		2

struct zex_hostrpc {
	int fd;				/* the kernel view, or -1 (caller's memory) */
	void *map;
	size_t map_size;		/* what to unmap; 0: the caller's memory */
	uint32_t nslots;
	enum zex_hostrpc_role role;
	uint32_t view_id;
	struct hostrpc_client client;	/* device views */
	struct hostrpc_server server;	/* host views */
	hostrpc_wait_fn wait;		/* the device side's blocking wait, or NULL */
	_Atomic uint64_t rings_sent;
};

/*
 * zex_hostrpc_view_bind - point the core at a mapped region
 * @ch: the view, with map, nslots, role and view_id set.
 * @ring: the doorbell, or NULL (the other side polls).
 * @wait: the device side's blocking wait, or NULL (it polls).
 */
void zex_hostrpc_view_bind(struct zex_hostrpc *ch, hostrpc_ring_fn ring, hostrpc_wait_fn wait);

#endif /* ZEX_HOSTRPC_VIEW_H */
