/* SPDX-License-Identifier: MIT */
/*
 * DOC: alloc_slot.h - where an allocation is mapped: 64 KiB slots, scratch past the end
 */
#ifndef ZEX_L0_ALLOC_SLOT_H
#define ZEX_L0_ALLOC_SLOT_H

#include <stddef.h>

/* A device page: what a slot's address and size are multiples of. */
#define ZEX_ALLOC_SLOT_PAGE	(64ul << 10)

void *zex_alloc_slot_reserve(size_t size, size_t alignment);
void *zex_alloc_slot_map_fd(int fd, size_t size, size_t alignment);
void zex_alloc_slot_unmap(void *p, size_t size);
void *zex_map_anon_aligned(size_t size, size_t alignment, int prot);

#endif
