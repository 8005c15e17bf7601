// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_memory.c - the host side of a channel in the caller's memory
 *
 * A device that reaches host memory by other means than zex.ko (a GPU
 * through pinned, mapped memory) makes the calls; libzex serves them from
 * that memory, laid out as a kernel channel's view (the control page, the
 * host's private words, the slot pages). There is no kernel, so no
 * doorbell: the host side serves by polling and the device side polls.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostrpc_view.h"

/**
 * zex_hostrpc_attach_memory - a host view of a channel in the caller's memory
 * @region: %ZEX_HOSTRPC_REGION_SIZE(@nslots) bytes, 4 KiB aligned, shared
 *	with the device side; its control page and private words are cleared
 *	and the control page's header written here. Stays the caller's:
 *	zex_hostrpc_close() leaves it alone.
 * @size: @region's size.
 * @nslots: 1 to 2048.
 * @out: the host view.
 *
 * Return: 0; -EINVAL (@nslots out of range, @region misaligned or @size
 * too small); -ENOMEM.
 */
int zex_hostrpc_attach_memory(void *region, size_t size, uint32_t nslots,
			      struct zex_hostrpc **out)
{
	struct zex_hostrpc *ch;
	char *control = region;

	if (!nslots || nslots > HOSTRPC_MAX_SLOTS || !region || (uintptr_t)region % 4096 ||
	    size < ZEX_HOSTRPC_REGION_SIZE(nslots))
		return -EINVAL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return -ENOMEM;
	memset(region, 0, ZEX_HOSTRPC_SLOTS_AT);
	*(uint32_t *)(control + ZEX_HOSTRPC_CONTROL_MAGIC) = ZEX_HOSTRPC_MAGIC;
	*(uint32_t *)(control + ZEX_HOSTRPC_CONTROL_VERSION) = ZEX_HOSTRPC_VERSION;
	*(uint32_t *)(control + ZEX_HOSTRPC_CONTROL_NSLOTS) = nslots;
	*(uint64_t *)(control + ZEX_HOSTRPC_CONTROL_MAP_SIZE) = ZEX_HOSTRPC_REGION_SIZE(nslots);
	ch->fd = -1;
	ch->map = region;
	ch->nslots = nslots;
	ch->role = ZEX_HOSTRPC_HOST;
	ch->view_id = 1;
	zex_hostrpc_view_bind(ch, NULL, NULL);
	*out = ch;
	return 0;
}
