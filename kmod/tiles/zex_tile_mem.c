// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile_mem.c - charge and uncharge a tile's memory
 *
 * The capacity check and the update happen under one lock, so concurrent
 * allocations can never overcommit a tile. Uncharging more than was charged
 * is a driver bug and warns once instead of wrapping the counters.
 */

#include <linux/bug.h>
#include <linux/errno.h>

#include "../common/zex_kunit_export.h"
#include "zex_tile_mem.h"

/**
 * zex_tile_mem_init - set up an empty tile of @size bytes
 * @mem: the accounting to initialise.
 * @size: capacity in bytes.
 */
void zex_tile_mem_init(struct zex_tile_mem *mem, u64 size)
{
	spin_lock_init(&mem->lock);
	mem->size = size;
	mem->used = 0;
	mem->num_bos = 0;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_tile_mem_init);

/**
 * zex_tile_mem_charge - reserve @bytes of the tile for one buffer object
 * @mem: the tile's accounting.
 * @bytes: bytes to reserve, non-zero.
 *
 * Return: 0, or -ENOSPC when the tile cannot hold @bytes more (nothing is
 * charged then).
 */
int zex_tile_mem_charge(struct zex_tile_mem *mem, u64 bytes)
{
	int ret = -ENOSPC;

	spin_lock(&mem->lock);
	if (bytes <= mem->size - mem->used) {
		mem->used += bytes;
		mem->num_bos++;
		ret = 0;
	}
	spin_unlock(&mem->lock);
	return ret;
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_tile_mem_charge);

/**
 * zex_tile_mem_uncharge - release a reservation made by zex_tile_mem_charge()
 * @mem: the tile's accounting.
 * @bytes: the size that was charged.
 */
void zex_tile_mem_uncharge(struct zex_tile_mem *mem, u64 bytes)
{
	spin_lock(&mem->lock);
	if (!WARN_ON_ONCE(bytes > mem->used || !mem->num_bos)) {
		mem->used -= bytes;
		mem->num_bos--;
	}
	spin_unlock(&mem->lock);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_tile_mem_uncharge);

/**
 * zex_tile_mem_usage - read the accounting consistently
 * @mem: the tile's accounting.
 * @usage: filled with size, used bytes and object count.
 */
void zex_tile_mem_usage(struct zex_tile_mem *mem, struct zex_tile_mem_usage *usage)
{
	spin_lock(&mem->lock);
	usage->size = mem->size;
	usage->used = mem->used;
	usage->num_bos = mem->num_bos;
	spin_unlock(&mem->lock);
}
EXPORT_SYMBOL_FOR_ZEX_KUNIT(zex_tile_mem_usage);
