/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: alloc_table.h - which allocation a pointer belongs to
 *
 * Every allocation libzex hands out (device memory, IPC imports) is an
 * entry of an address-ordered table, found by any pointer inside it.
 * Entries are reference-counted: a lookup returns a reference, so a
 * zeMemFree() on one thread cannot pull an allocation from under another
 * thread that is exporting it; the memory is released with the last
 * reference. Pure code with no I/O: unit-tested on the host.
 */

#ifndef ZEX_ALLOC_TABLE_H
#define ZEX_ALLOC_TABLE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct zex_alloc;

/** What releases an allocation's memory once nothing refers to it. */
typedef void (*zex_alloc_release_fn)(struct zex_alloc *alloc);

struct zex_ipc_pieces;

/**
 * struct zex_alloc - one allocation
 * @base: its first byte.
 * @size: its size.
 * @refs: references: the table's, plus one per lookup not yet put.
 * @release: called with the last reference.
 * @owner: for the caller (the device or context), unused by the table.
 * @kind: the caller's kind of memory, one bit (matched by removal).
 * @handle, @num_pieces, @interleaved, @granularity, @device, @bind_id: the
 *	caller's description of the memory, unused by the table.
 * @ipc_fds, @ipc_pieces, @ipc_gets, @ipc_id, @ipc_exported_fd: the
 *	caller's exported fds (one per piece, or NULL), their table for
 *	importers (several pieces only), how many holders they have, the
 *	export's id, and whether the allocation's properties handed one out.
 * @atomics: the caller's atomic access attribute of the allocation.
 * @memfd: the memfd of host or shared memory libzex allocated (kinds
 *	HOST and SHARED without an application's memory); unused otherwise.
 * @object_offset, @object_size: where @base is in the memory object behind
 *	it and that object's size, for an allocation that maps part of one
 *	(0, 0: the allocation is the whole object).
 */
struct zex_alloc {
	uintptr_t base;
	uint64_t size;
	atomic_uint refs;
	zex_alloc_release_fn release;
	void *owner;
	int kind;
	uint32_t handle;
	uint32_t num_pieces;
	int interleaved;
	uint64_t granularity;
	void *device;
	uint32_t bind_id;
	int *ipc_fds;
	struct zex_ipc_pieces *ipc_pieces;
	uint32_t ipc_gets;
	uint64_t ipc_id;
	bool ipc_exported_fd;
	atomic_uint atomics;
	int memfd;
	uint64_t object_offset;
	uint64_t object_size;
};

struct zex_alloc_table {
	pthread_mutex_t lock;
	struct zex_alloc **entries;	/* sorted by base */
	size_t count, capacity;
};

void zex_alloc_table_init(struct zex_alloc_table *t);
void zex_alloc_table_fini(struct zex_alloc_table *t);
int zex_alloc_table_insert(struct zex_alloc_table *t, struct zex_alloc *a);
struct zex_alloc *zex_alloc_table_find(struct zex_alloc_table *t, const void *ptr);
bool zex_alloc_table_covers(struct zex_alloc_table *t, const void *ptr, uint64_t len);
struct zex_alloc *zex_alloc_table_find_if(struct zex_alloc_table *t,
					  bool (*match)(const struct zex_alloc *a,
							const void *arg),
					  const void *arg);
struct zex_alloc *zex_alloc_table_remove(struct zex_alloc_table *t, const void *base,
					 int kinds);
void zex_alloc_put(struct zex_alloc *a);

#endif /* ZEX_ALLOC_TABLE_H */
