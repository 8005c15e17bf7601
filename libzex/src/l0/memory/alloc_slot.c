// SPDX-License-Identifier: MIT
/*
 * DOC: alloc_slot.c - where an allocation is mapped: 64 KiB slots, scratch past the end
 *
 * A GPU maps memory in pages of 64 KiB: a kernel that runs past the end
 * of a small allocation reads and writes the rest of that allocation's
 * last page, never another allocation and never the process's own memory.
 * Kernels here run in the process, over the same addresses as the host,
 * so libzex places every allocation it maps (device, shared and host
 * memory, and what IPC opens) the same way: in a slot of its size rounded
 * up to 64 KiB, at a multiple of 64 KiB (or of a larger alignment asked
 * for). The allocation's object is mapped over the slot's start; the rest
 * of the slot is private anonymous memory (zeros, given pages only where
 * something writes, no part of the object: copies, exports, the kernel
 * driver's page tables and every size libzex reports leave it out). A
 * kernel that writes a few KiB past an 8 KiB buffer (level-zero-tests'
 * add_two_arrays indexes ints by a byte count) then writes scratch, where
 * without a slot it wrote whatever the process had mapped next: a read-only
 * page of a shared object (the launch faulted) or, worse, writable data.
 * Beyond the slot, kernel_faults.c lends zero pages where nothing is mapped.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#include "l0/memory/alloc_slot.h"

static size_t slot_size(size_t size)
{
	return (size + ZEX_ALLOC_SLOT_PAGE - 1) & ~(ZEX_ALLOC_SLOT_PAGE - 1);
}

/**
 * zex_alloc_slot_reserve - a new slot for an allocation of @size bytes
 * @size: the allocation's size, not 0.
 * @alignment: 0 or a power of two the address must be a multiple of.
 *
 * The caller maps the allocation's object over the slot's start
 * (MAP_FIXED); the rest stays scratch.
 * Return: the slot's (and the allocation's) address, or NULL with errno
 * set (EINVAL for a size too large to round up).
 */
void *zex_alloc_slot_reserve(size_t size, size_t alignment)
{
	if (alignment < ZEX_ALLOC_SLOT_PAGE)
		alignment = ZEX_ALLOC_SLOT_PAGE;
	if (!size || size > SIZE_MAX - 2 * alignment) {
		errno = EINVAL;
		return NULL;
	}
	return zex_map_anon_aligned(slot_size(size), alignment, PROT_READ | PROT_WRITE);
}

/**
 * zex_map_anon_aligned - private anonymous memory at a multiple of @alignment
 * @size: bytes, page-aligned; @size + @alignment must not overflow.
 * @alignment: a power of two, at least a page.
 * @prot: the pages' protection (PROT_NONE for a reservation).
 *
 * Over-maps by the alignment and trims both ends; nothing is reserved
 * against overcommit (MAP_NORESERVE). Return: the address, or NULL with
 * errno set.
 */
void *zex_map_anon_aligned(size_t size, size_t alignment, int prot)
{
	size_t span = size + alignment;
	uintptr_t base, start;
	void *p = mmap(NULL, span, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	base = (uintptr_t)p;
	start = (base + alignment - 1) & ~(uintptr_t)(alignment - 1);
	if (start > base)
		munmap(p, start - base);
	if (base + span > start + size)
		munmap((void *)(start + size), base + span - (start + size));
	return (void *)start;
}

/**
 * zex_alloc_slot_map_fd - @size bytes of @fd (from offset 0) mapped shared at a new slot
 * @fd: a memfd.
 * @size: the allocation's size, not 0.
 * @alignment: as for zex_alloc_slot_reserve().
 *
 * Return: the address, or NULL with errno set.
 */
void *zex_alloc_slot_map_fd(int fd, size_t size, size_t alignment)
{
	void *p = zex_alloc_slot_reserve(size, alignment);
	int err;

	if (!p || mmap(p, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) != MAP_FAILED)
		return p;
	err = errno;
	zex_alloc_slot_unmap(p, size);
	errno = err;
	return NULL;
}

/**
 * zex_alloc_slot_unmap - unmap the slot of an allocation of @size bytes at @p
 * @p: what zex_alloc_slot_reserve() or zex_alloc_slot_map_fd() returned.
 * @size: the size it was given.
 */
void zex_alloc_slot_unmap(void *p, size_t size)
{
	munmap(p, slot_size(size));
}
