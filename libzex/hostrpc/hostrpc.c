// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc.c - the protocol's transitions, as model/hostrpc.pml has them
 *
 * A synchronous call: acquire W (scanning from the caller's own slot),
 * fill, publish G, ring if armed, wait for H, use, clear G, ring if armed,
 * wait for !H, clear W. The server: find a slot whose G and H differ, take
 * T, re-read under T, operate (set H) or clear (clear H), drop T. Before a
 * server sleeps it arms and re-checks (hostrpc_server_arm()).
 */

#include "hostrpc.h"

static uint64_t bit_of(uint32_t slot)
{
	return 1ull << (slot % 64);
}

static bool test(hr_word_t *map, uint32_t slot)
{
	return hr_load(&map[slot / 64]) & bit_of(slot);
}

/* hostrpc_doorbell_ring(): take the arming if it is there, then ring. */
static void hostrpc_doorbell_ring(struct hostrpc_client *c)
{
	/* The seq_cst G update, then this seq_cst read: Dekker with arm. */
	if (hr_flag_load(&c->shared->armed) && hr_flag_cas(&c->shared->armed, 1, 0) && c->ring)
		c->ring(c->ring_ctx);
}

/* hostrpc_client_acquire(): the first free slot from @hint on. */
static uint32_t hostrpc_client_acquire(struct hostrpc_client *c, uint32_t hint)
{
	uint32_t slot = hint % c->nslots;

	while (!hr_try_set(&c->W[slot / 64], bit_of(slot))) {
		slot = (slot + 1) % c->nslots;
		hr_relax();
	}
	return slot;
}

/* Wait until the host's H for @slot is @want; -1 if the host died. */
static int wait_h(struct hostrpc_client *c, uint32_t slot, bool want)
{
	while (test(c->shared->H, slot) != want) {
		if (hr_flag_load(&c->shared->dead))
			return -1;
		hr_relax();
	}
	return 0;
}

/**
 * hostrpc_client_invoke - a synchronous call
 * @c: the device side.
 * @hint: the caller's own slot (its wave id): with at least as many slots
 *	as concurrent callers, progress needs no fairness from the scheduler.
 * @fill: writes the request into the page.
 * @use: reads the answer from the page.
 * @ctx: for @fill and @use.
 *
 * Return: 0, or -1 when the host side is dead.
 */
int hostrpc_client_invoke(struct hostrpc_client *c, uint32_t hint, hostrpc_page_fn fill,
			  hostrpc_page_fn use, void *ctx)
{
	uint32_t slot = hostrpc_client_acquire(c, hint);
	hostrpc_page_t *page = &c->pages[slot];
	int ret;

	fill(page, ctx);
	/* hostrpc_client_publish(): G after the page (release), then ring. */
	hr_fetch_or(&c->shared->G[slot / 64], bit_of(slot));
	hostrpc_doorbell_ring(c);
	ret = wait_h(c, slot, true);
	if (!ret)
		use(page, ctx);
	/* hostrpc_client_release(): clear G, ring (the host must clear H),
	 * wait for !H, then give the slot back. */
	hr_fetch_and(&c->shared->G[slot / 64], ~bit_of(slot));
	hostrpc_doorbell_ring(c);
	if (!ret)
		ret = wait_h(c, slot, false);
	hr_fetch_and(&c->W[slot / 64], ~bit_of(slot));
	return ret;
}

/**
 * hostrpc_server_handle - serve every slot that needs the host once
 * @s: the host side.
 * @operate: answers a request in place.
 * @clear: tidies a page the device is done with (may be a no-op).
 * @ctx: for both.
 *
 * Return: whether any slot was served.
 */
bool hostrpc_server_handle(struct hostrpc_server *s, hostrpc_page_fn operate,
			   hostrpc_page_fn clear, void *ctx)
{
	bool served = false;
	uint32_t w, slot;

	for (w = 0; w < (s->nslots + 63) / 64; w++) {
		uint64_t todo = hr_load(&s->shared->G[w]) ^ hr_load(&s->shared->H[w]);

		while (todo) {
			uint64_t bit = todo & -todo;
			bool g, h;

			todo &= todo - 1;
			slot = w * 64 + (uint32_t)__builtin_ctzll(bit);
			if (slot >= s->nslots || !hr_try_set(&s->T[w], bit))
				continue;	/* another server holds it */
			/* Re-read under T. */
			g = test(s->shared->G, slot);
			h = test(s->shared->H, slot);
			if (g && !h) {
				/* hostrpc_server_operate() */
				operate(&s->pages[slot], ctx);
				hr_fetch_or(&s->shared->H[w], bit);
				served = true;
			} else if (!g && h) {
				/* hostrpc_server_clear() */
				clear(&s->pages[slot], ctx);
				hr_fetch_and(&s->shared->H[w], ~bit);
				served = true;
			}
			hr_fetch_and(&s->T[w], ~bit);
		}
	}
	return served;
}

/**
 * hostrpc_server_arm - arm the doorbell and re-check before sleeping
 * @s: the host side.
 *
 * Return: true when the caller may sleep until a ring: nothing needed the
 * host after arming. False: work arrived, serve it first.
 */
bool hostrpc_server_arm(struct hostrpc_server *s)
{
	uint32_t w;

	/* seq_cst store, then seq_cst loads: Dekker with the ring. */
	hr_flag_store(&s->shared->armed, 1);
	for (w = 0; w < (s->nslots + 63) / 64; w++)
		if (hr_load_sc(&s->shared->G[w]) ^ hr_load_sc(&s->shared->H[w]))
			return false;
	return true;
}
