// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: context_pool.c - contexts' memory: never freed, reused only after a quarantine
 *
 * A context handle is a pointer the application keeps, and may use after
 * zeContextDestroy() by mistake (or destroy twice). So a context's memory
 * is never given back to the allocator: contexts live in chunks of slots
 * that libzex keeps, a destroyed slot is marked dead and queued, and a
 * queued slot is reused only once %ZEX_CONTEXT_QUARANTINE others wait
 * behind it. zex_context_pool_find() answers whether a pointer is a live
 * context by its address alone — within a chunk, on a slot boundary, slot
 * live — without reading any memory that is not the pool's. A stale handle
 * is therefore refused until 4096 more contexts have been destroyed after
 * it; memory stays bounded by the live contexts plus the quarantine.
 *
 * Every call names a context, so zex_context_pool_find() takes no lock: it
 * searches an index of the chunks (sorted by address) that is never
 * changed once published; a new chunk publishes a new index, and the old
 * ones are kept, since a finder may still be reading one (a few hundred
 * bytes: an index per chunk, and a chunk per 256 contexts).
 */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "l0/base/l0.h"
#include "l0/base/context_pool.h"

#define ZEX_CONTEXT_CHUNK	256
#define ZEX_CONTEXT_QUARANTINE	4096

struct chunk {
	struct zex_l0_context slots[ZEX_CONTEXT_CHUNK];
};

/* The chunks, sorted by address; @older is the index this one replaced. */
struct chunk_index {
	struct chunk_index *older;
	size_t n;
	struct chunk *chunk[];
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct chunk_index *) chunks;
static size_t next_unused = ZEX_CONTEXT_CHUNK;	/* in the newest chunk */
static struct chunk *newest;
static struct zex_l0_context *dead_head, *dead_tail;
static size_t num_dead;

/* Under pool_lock: a new chunk, and a new index with it (published last). */
static int add_chunk(void)
{
	struct chunk_index *old = atomic_load_explicit(&chunks, memory_order_relaxed);
	size_t n = old ? old->n : 0, i, at = 0;
	struct chunk_index *idx = malloc(sizeof(*idx) + (n + 1) * sizeof(idx->chunk[0]));
	struct chunk *c = calloc(1, sizeof(*c));

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
	newest = c;
	next_unused = 0;
	atomic_store_explicit(&chunks, idx, memory_order_release);
	return 0;
}

/** zex_context_pool_get - a zeroed slot for a new context, or NULL */
struct zex_l0_context *zex_context_pool_get(void)
{
	struct zex_l0_context *ctx = NULL;

	pthread_mutex_lock(&pool_lock);
	if (num_dead > ZEX_CONTEXT_QUARANTINE) {
		ctx = dead_head;
		dead_head = ctx->next_dead;
		if (!dead_head)
			dead_tail = NULL;
		num_dead--;
	} else if (next_unused < ZEX_CONTEXT_CHUNK || !add_chunk()) {
		ctx = &newest->slots[next_unused++];
	}
	pthread_mutex_unlock(&pool_lock);
	if (ctx)
		memset(ctx, 0, sizeof(*ctx));
	return ctx;
}

/** zex_context_pool_put - mark @ctx dead and queue its slot */
void zex_context_pool_put(struct zex_l0_context *ctx)
{
	pthread_mutex_lock(&pool_lock);
	atomic_store(&ctx->live, false);
	ctx->next_dead = NULL;
	if (dead_tail)
		dead_tail->next_dead = ctx;
	else
		dead_head = ctx;
	dead_tail = ctx;
	num_dead++;
	pthread_mutex_unlock(&pool_lock);
}

/** zex_context_pool_find - the live context at @h, or NULL; @h is not read */
struct zex_l0_context *zex_context_pool_find(const void *h)
{
	struct chunk_index *idx = atomic_load_explicit(&chunks, memory_order_acquire);
	uintptr_t addr = (uintptr_t)h, base, off;
	struct zex_l0_context *ctx;
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
	base = (uintptr_t)idx->chunk[lo - 1]->slots;
	off = addr - base;
	if (off >= sizeof(struct chunk) || off % sizeof(struct zex_l0_context))
		return NULL;
	ctx = (struct zex_l0_context *)addr;
	return atomic_load(&ctx->live) ? ctx : NULL;
}
