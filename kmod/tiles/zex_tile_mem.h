/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_tile_mem.h - accounting of one tile's local memory
 *
 * A tile is the accounting and placement domain of device memory: every
 * buffer object (or piece of one) placed on a tile charges its size to that
 * tile before any backing pages exist, and uncharges it when freed. A
 * charge that would exceed the tile's capacity fails and changes nothing.
 */

#ifndef _ZEX_TILE_MEM_H_
#define _ZEX_TILE_MEM_H_

#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct zex_tile_mem - one tile's memory accounting
 * @lock: protects @used and @num_bos.
 * @size: capacity in bytes, fixed.
 * @used: bytes charged.
 * @num_bos: charges outstanding.
 */
struct zex_tile_mem {
	spinlock_t lock; /* protects used and num_bos */
	u64 size;
	u64 used;
	u64 num_bos;
};

/**
 * struct zex_tile_mem_usage - a consistent snapshot of &struct zex_tile_mem
 * @size: capacity in bytes.
 * @used: bytes charged.
 * @num_bos: charges outstanding.
 */
struct zex_tile_mem_usage {
	u64 size;
	u64 used;
	u64 num_bos;
};

void zex_tile_mem_init(struct zex_tile_mem *mem, u64 size);
int zex_tile_mem_charge(struct zex_tile_mem *mem, u64 bytes);
void zex_tile_mem_uncharge(struct zex_tile_mem *mem, u64 bytes);
void zex_tile_mem_usage(struct zex_tile_mem *mem, struct zex_tile_mem_usage *usage);

#endif /* _ZEX_TILE_MEM_H_ */
