// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: object_pool.c - objects' memory: never freed, reused only after a quarantine
 *
 * A handle is a pointer the application keeps, and may use after it
 * destroyed the object by mistake (or destroy twice). So an object's memory
 * is never given back to the allocator: objects of one type live in chunks
 * of slots that libzex keeps, a destroyed slot is marked dead and queued,
 * and a queued slot is reused only once %ZEX_OBJECT_QUARANTINE others wait
 * behind it. zex_object_pool_find() answers whether a pointer is a live
 * object of the pool by its address alone — within a chunk, on a slot
 * boundary, slot live — without reading any memory that is not the
 * pool's. A stale handle is therefore refused until 4096 more objects of
 * its type have been destroyed after it; memory stays bounded by the live
 * objects plus the quarantine.
 *
 * Every call names an object, so zex_object_pool_find() takes no lock: it
 * searches an index of the chunks (sorted by address) that is never
 * changed once published; a new chunk publishes a new index, and the old
 * ones are kept, since a finder may still be reading one (a few hundred
 * bytes: an index per chunk, and a chunk per 256 objects).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "l0/base/object_pool.h"

/* The chunks, sorted by address; @older is the index this one replaced. */
struct zex_object_index {
	struct zex_object_index *older;
	size_t n;
	char *chunk[];
};

static size_t chunk_bytes(const struct zex_object_pool *pool)
{
	return ZEX_OBJECT_CHUNK * pool->slot_size;
}

/* Under the pool's lock: a new chunk, and a new index with it (published last). */
static int add_chunk(struct zex_object_pool *pool)
{
	struct zex_object_index *old = atomic_load_explicit(&pool->chunks, memory_order_relaxed);
	size_t n = old ? old->n : 0, i, at = 0;
	struct zex_object_index *idx = malloc(sizeof(*idx) + (n + 1) * sizeof(idx->chunk[0]));
	char *c = calloc(ZEX_OBJECT_CHUNK, pool->slot_size);

	if (!c || !idx) {
		free(c);
		free(idx);
		return -1;
	}
	idx->older = old;
	idx->n = n + 1;
	for (i = 0; i < n; i++) {
		if (old->chunk[i] < c)
			at = i + 1;
		idx->chunk[i + (old->chunk[i] > c)] = old->chunk[i];
	}
	idx->chunk[at] = c;
	pool->newest = c;
	pool->next_unused = 0;
	atomic_store_explicit(&pool->chunks, idx, memory_order_release);
	return 0;
}

/** zex_object_pool_get - a slot for a new object, zeroed after its header, or NULL */
void *zex_object_pool_get(struct zex_object_pool *pool)
{
	struct zex_l0_object *obj = NULL;

	pthread_mutex_lock(&pool->lock);
	if (pool->num_dead > ZEX_OBJECT_QUARANTINE) {
		obj = pool->dead_head;
		pool->dead_head = obj->next_dead;
		if (!pool->dead_head)
			pool->dead_tail = NULL;
		pool->num_dead--;
	} else if (pool->next_unused < ZEX_OBJECT_CHUNK || !add_chunk(pool)) {
		obj = (struct zex_l0_object *)(pool->newest +
					       pool->next_unused++ * pool->slot_size);
	}
	pthread_mutex_unlock(&pool->lock);
	/*
	 * What follows the header is zeroed. The header is left alone: @live
	 * is already false and a finder may be reading it, and the DDI header
	 * is rewritten with the same tables when the object is published.
	 */
	if (obj) {
		obj->next_dead = NULL;
		memset(obj + 1, 0, pool->slot_size - sizeof(*obj));
	}
	return obj;
}

/** zex_object_pool_put - mark @obj dead and queue its slot */
void zex_object_pool_put(struct zex_object_pool *pool, void *obj)
{
	struct zex_l0_object *o = obj;

	pthread_mutex_lock(&pool->lock);
	atomic_store(&o->live, false);
	o->next_dead = NULL;
	if (pool->dead_tail)
		pool->dead_tail->next_dead = o;
	else
		pool->dead_head = o;
	pool->dead_tail = o;
	pool->num_dead++;
	pthread_mutex_unlock(&pool->lock);
}

/** zex_object_pool_find - the live object of @pool at @h, or NULL; @h is not read */
void *zex_object_pool_find(struct zex_object_pool *pool, const void *h)
{
	struct zex_object_index *idx = atomic_load_explicit(&pool->chunks, memory_order_acquire);
	uintptr_t addr = (uintptr_t)h, off;
	struct zex_l0_object *obj;
	size_t lo = 0, hi = idx ? idx->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)idx->chunk[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	off = addr - (uintptr_t)idx->chunk[lo - 1];
	if (off >= chunk_bytes(pool) || off % pool->slot_size)
		return NULL;
	obj = (struct zex_l0_object *)addr;
	return atomic_load(&obj->live) ? obj : NULL;
}
