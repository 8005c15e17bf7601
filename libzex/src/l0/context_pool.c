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
 */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "l0.h"
#include "l0/context_pool.h"

#define ZEX_CONTEXT_CHUNK	256
#define ZEX_CONTEXT_QUARANTINE	4096

struct chunk {
	struct zex_l0_context slots[ZEX_CONTEXT_CHUNK];
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chunk **chunks;		/* sorted by address */
static size_t num_chunks, chunks_room;
static size_t next_unused = ZEX_CONTEXT_CHUNK;	/* in the newest chunk */
static struct chunk *newest;
static struct zex_l0_context *dead_head, *dead_tail;
static size_t num_dead;

static int add_chunk(void)
{
	struct chunk *c = calloc(1, sizeof(*c));
	size_t at;

	if (!c)
		return -1;
	if (num_chunks == chunks_room) {
		size_t room = chunks_room ? 2 * chunks_room : 16;
		struct chunk **n = realloc(chunks, room * sizeof(*n));

		if (!n) {
			free(c);
			return -1;
		}
		chunks = n;
		chunks_room = room;
	}
	for (at = num_chunks; at && chunks[at - 1] > c; at--)
		chunks[at] = chunks[at - 1];
	chunks[at] = c;
	num_chunks++;
	newest = c;
	next_unused = 0;
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
	uintptr_t addr = (uintptr_t)h;
	struct zex_l0_context *ctx = NULL;
	size_t lo = 0, hi;

	pthread_mutex_lock(&pool_lock);
	hi = num_chunks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)chunks[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		uintptr_t base = (uintptr_t)chunks[lo - 1]->slots;
		uintptr_t off = addr - base;

		if (off < sizeof(struct chunk) && off % sizeof(struct zex_l0_context) == 0) {
			ctx = (struct zex_l0_context *)addr;
			if (!atomic_load(&ctx->live))
				ctx = NULL;
		}
	}
	pthread_mutex_unlock(&pool_lock);
	return ctx;
}
