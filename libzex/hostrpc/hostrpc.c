// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc.c - the protocol's transitions, as model/hostrpc.pml has them
 *
 * A synchronous call: collect finished calls, acquire W (scanning from
 * the caller's own slot), fill, publish G, ring if armed, wait for H, use,
 * clear G, ring if armed, and mark W collectable: the slot is freed (W
 * cleared) once the host has cleared H, by the collection that every
 * later call runs first. An asynchronous call marks W collectable right
 * after publishing G; a collection clears its G once H is set, and frees
 * it once H is clear again. Any device-side caller may collect any slot. The server: find a
 * slot whose G and H differ, take T, re-read under T, operate (set H) or
 * clear (clear H), ring the device if armed, drop T. Before a server
 * sleeps it arms and re-checks (hostrpc_server_arm()).
 *
 * HOSTRPC_MUTANT_* (defined only by tools/check/tsan-mutants.sh) plant
 * known bugs, which the ThreadSanitizer test must catch.
 */

#include "hostrpc.h"

static HR_FN uint64_t bit_of(uint32_t slot)
{
	return 1ull << (slot % 64);
}

static HR_FN bool test(hr_word_t *map, uint32_t slot)
{
	return hr_load(&map[slot / 64]) & bit_of(slot);
}

/*
 * hostrpc_doorbell_ring(): take the other side's arming if set, then ring.
 * Without a doorbell (@ring NULL) the other side never sleeps: it polls,
 * and nothing is read.
 */
static HR_FN void hostrpc_doorbell_ring(hr_u32_t *armed, hostrpc_ring_fn ring, void *ctx)
{
#ifdef HR_NO_DOORBELL
	/* A target with no doorbell (a GPU): the other side polls. */
	(void)armed, (void)ring, (void)ctx;
#else
	/* The seq_cst G or H update, then this seq_cst read: Dekker with arm. */
	if (ring && hr_u32_load(armed) && hr_u32_cas(armed, 1, 0))
		ring(ctx);
#endif
}

static HR_FN void client_ring(struct hostrpc_client *c)
{
	hostrpc_doorbell_ring(c->sh.host_armed, c->ring, c->ring_ctx);
}

static HR_FN bool host_dead(struct hostrpc_client *c)
{
	return hr_u32_load(c->sh.dead);
}

/*
 * A waiting caller reads the dead flag at its first poll and every
 * HOSTRPC_DEAD_POLLS-th after: on a GPU each read is a PCIe round trip,
 * and a death is rare and need not be seen at once (a blocking wait
 * reports it itself).
 */
#define HOSTRPC_DEAD_POLLS	64

static HR_FN bool dead_at_poll(struct hostrpc_client *c, uint32_t polls)
{
	return polls % HOSTRPC_DEAD_POLLS == 0 && host_dead(c);
}

/**
 * hostrpc_client_collect - the garbage collection of asynchronous calls
 * @c: the device side.
 *
 * Every slot holding an async call moves on as far as it can without
 * waiting: answered (G and H set) -> G cleared; cleared by the host (G and
 * H clear) -> freed. A slot is taken over by CAS on its W word first, so
 * two collectors never act on one slot.
 *
 * Return: the number of slots freed.
 */
HR_FN uint32_t hostrpc_client_collect(struct hostrpc_client *c)
{
	uint32_t w, freed = 0, words = (c->sh.nslots + 63) / 64;
	uint64_t hints[HOSTRPC_WORDS];

	/* All hint words first: loads that do not wait for each other. */
	for (w = 0; w < words; w++)
		hints[w] = hr_hint_load(&c->A[w]);
	for (w = 0; w < words; w++) {
		uint64_t hint = hints[w], turn;

		if (!hint)
			continue;
		/*
		 * The slots that are the host's turn, from one read of each
		 * word (on a GPU each read of G or H crosses PCIe): a slot
		 * that changed since is seen at the next collection, and what
		 * is decided is re-read under W below.
		 */
		turn = hr_load(&c->sh.G[w]) ^ hr_load(&c->sh.H[w]);
		hint &= ~turn;
		while (hint) {
			uint64_t bit = hint & -hint;
			uint32_t slot = w * 64 + hr_ctz64(bit);
			uint32_t owner = hr_own_load(&c->W[slot]);
			bool g, h;

			hint &= hint - 1;
			if (!(owner & HOSTRPC_OWNER_ASYNC))
				continue;
			if (!hr_own_cas(&c->W[slot], owner, c->id))
				continue;	/* another collector took it */
			/* Ours now; only the host moves H, and not in these states. */
			g = test(c->sh.G, slot);
			h = test(c->sh.H, slot);
			if (g && h) {
				/* hostrpc_client_release() without a use. */
				hr_fetch_and(&c->sh.G[w], ~bit);
				client_ring(c);
				hr_own_store(&c->W[slot], c->id | HOSTRPC_OWNER_ASYNC);
			} else if (!g && !h) {
				/* Free: the hint first, then W. */
				hr_hint_clear(&c->A[w], bit);
				hr_own_store(&c->W[slot], 0);
				freed++;
			} else {
				hr_own_store(&c->W[slot], c->id | HOSTRPC_OWNER_ASYNC);
			}
		}
	}
	return freed;
}

/**
 * hostrpc_client_wait_answer - wait for the host's answer to our call
 * @c: the device side.
 * @slot: the call's slot.
 *
 * Return: 0 once @slot's H is set, %HOSTRPC_DEAD if the host side died.
 */
HR_FN int hostrpc_client_wait_answer(struct hostrpc_client *c, uint32_t slot)
{
	uint32_t polls = 0;

	while (!test(c->sh.H, slot)) {
		if (dead_at_poll(c, polls))
			return HOSTRPC_DEAD;
		if (c->wait && polls >= c->spin) {
			if (c->wait(c->wait_ctx, slot, HOSTRPC_WAIT_ANSWER))
				return HOSTRPC_DEAD;
			continue;
		}
		hr_relax(polls++);
	}
	return 0;
}

/*
 * Wait while @slot is the host's turn (G != H). The slot is not ours: it
 * may be freed, taken by another caller and published again while we
 * wait, so we never wait for one value of H (the host may have cleared it
 * and set it again for another call, which then waits for a collector:
 * us). We wait for the host's move, whichever it is; the host rings the
 * device side after every move, and the wait arms before its re-check,
 * so the move cannot be missed. The caller re-reads the whole slot after.
 */
static HR_FN int wait_host_turn(struct hostrpc_client *c, uint32_t slot)
{
	uint32_t polls = 0;

	while (test(c->sh.G, slot) != test(c->sh.H, slot)) {
		if (dead_at_poll(c, polls))
			return HOSTRPC_DEAD;
		if (c->wait && polls >= c->spin)
			return c->wait(c->wait_ctx, slot, HOSTRPC_WAIT_HOST_TURN);
		hr_relax(polls++);
	}
	return 0;
}

/*
 * hostrpc_client_acquire(): the first free slot from the caller's own
 * (@hint) on; when every slot is taken, collect and scan again. The
 * device scheduler owes no fairness, so progress rests on this: with at
 * least as many slots as callers, no synchronous caller takes another's
 * own slot, so a caller's own slot is free or on its way back (released,
 * the host to clear H) when it calls; on its way back, the caller waits
 * for the host, which is fair, rather than take another caller's slot.
 */
static HR_FN int hostrpc_client_acquire(struct hostrpc_client *c, uint32_t hint,
					      uint32_t *slotp)
{
	uint32_t own = hint % c->sh.nslots, i, polls = 0;

	for (;;) {
		uint32_t w = hr_own_load(&c->W[own]);

		if ((w & HOSTRPC_OWNER_ASYNC) && !test(c->sh.G, own)) {
			/* On its way back: the host's clear of H frees it. */
#ifdef HOSTRPC_MUTANT_OWN_SLOT_WAITS_FOR_H
			/* planted bug: wait for one value of H (ABA) */
			while (test(c->sh.H, own) && !host_dead(c))
				hr_relax(polls++);
#else
			if (wait_host_turn(c, own))
				return HOSTRPC_DEAD;
#endif
			hostrpc_client_collect(c);
		}
		for (i = 0; i < c->sh.nslots; i++) {
			uint32_t slot = (own + i) % c->sh.nslots;

			if (!hr_own_load(&c->W[slot]) && hr_own_cas(&c->W[slot], 0, c->id)) {
				*slotp = slot;
				return 0;
			}
		}
		if (dead_at_poll(c, polls))
			return HOSTRPC_DEAD;
		if (!hostrpc_client_collect(c))
			hr_relax(polls++);
	}
}

/**
 * hostrpc_client_publish - hand a filled page to the host
 * @c: the device side.
 * @slot: the slot from hostrpc_client_begin().
 *
 * Sets G after the page (seq_cst), then rings if the host side is armed.
 */
HR_FN void hostrpc_client_publish(struct hostrpc_client *c, uint32_t slot)
{
	hr_fetch_or(&c->sh.G[slot / 64], bit_of(slot));
	client_ring(c);
}

/**
 * hostrpc_client_end_async - leave a published call to the collection
 * @c: the device side.
 * @slot: the call's slot.
 *
 * Any caller's collection may finish the slot: W first, then the hint.
 */
HR_FN void hostrpc_client_end_async(struct hostrpc_client *c, uint32_t slot)
{
	hr_own_store(&c->W[slot], c->id | HOSTRPC_OWNER_ASYNC);
	hr_hint_set(&c->A[slot / 64], bit_of(slot));
}

/**
 * hostrpc_client_begin - what every call starts with
 * @c: the device side.
 * @hint: the caller's own slot (its wave id): with at least as many slots
 *	as concurrent callers, progress needs no fairness from the scheduler.
 * @slotp: the slot acquired, whose page the caller fills next.
 *
 * Collects finished calls and acquires a slot.
 *
 * Return: 0, or %HOSTRPC_DEAD when the host side is dead.
 */
HR_FN int hostrpc_client_begin(struct hostrpc_client *c, uint32_t hint, uint32_t *slotp)
{
	if (host_dead(c))
		return HOSTRPC_DEAD;
	hostrpc_client_collect(c);
	return hostrpc_client_acquire(c, hint, slotp);
}

/**
 * hostrpc_client_end - end a synchronous call after its use
 * @c: the device side.
 * @slot: the call's slot.
 * @ret: what hostrpc_client_wait_answer() returned.
 *
 * Releases the page: clears G and rings (the host must clear H). The slot
 * is free only once the host has cleared H; rather than wait for that, it
 * is left to the collection of a later call, as for an async call, so a
 * caller's round trip is one hand-over each way. A call the host died
 * under frees its slot at once.
 */
HR_FN void hostrpc_client_end(struct hostrpc_client *c, uint32_t slot, int ret)
{
	/* hostrpc_client_release() */
	hr_fetch_and(&c->sh.G[slot / 64], ~bit_of(slot));
	client_ring(c);
	if (ret)
		hr_own_store(&c->W[slot], 0);
	else
		hostrpc_client_end_async(c, slot);	/* hostrpc_client_release_lazily() */
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
 * Return: 0, or %HOSTRPC_DEAD when the host side is dead.
 */
HR_FN int hostrpc_client_invoke(struct hostrpc_client *c, uint32_t hint, hostrpc_page_fn fill,
				hostrpc_page_fn use, void *ctx)
{
	uint32_t slot;
	int ret = hostrpc_client_begin(c, hint, &slot);

	if (ret)
		return ret;
	fill(&c->sh.pages[slot], ctx);
	hostrpc_client_publish(c, slot);
	ret = hostrpc_client_wait_answer(c, slot);
	if (!ret)
		use(&c->sh.pages[slot], ctx);
	hostrpc_client_end(c, slot, ret);
	return ret;
}

/**
 * hostrpc_client_invoke_async - an asynchronous call
 * @c: the device side.
 * @hint: as for hostrpc_client_invoke().
 * @fill: writes the request into the page.
 * @ctx: for @fill.
 *
 * Returns once the call is published; the slot stays held until the host
 * has answered and a later collection (hostrpc_client_collect(), which
 * every call runs first) has released and freed it.
 *
 * Return: 0, or %HOSTRPC_DEAD when the host side is dead.
 */
HR_FN int hostrpc_client_invoke_async(struct hostrpc_client *c, uint32_t hint,
				      hostrpc_page_fn fill, void *ctx)
{
	uint32_t slot;
	int ret = hostrpc_client_begin(c, hint, &slot);

	if (ret)
		return ret;
	fill(&c->sh.pages[slot], ctx);
	hostrpc_client_publish(c, slot);
	hostrpc_client_end_async(c, slot);
	return 0;
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
HR_FN bool hostrpc_server_handle(struct hostrpc_server *s, hostrpc_page_fn operate,
				 hostrpc_page_fn clear, void *ctx)
{
	bool served = false;
	uint32_t w, slot;

	for (w = 0; w < (s->sh.nslots + 63) / 64; w++) {
		uint64_t todo = hr_load(&s->sh.G[w]) ^ hr_load(&s->sh.H[w]);

		while (todo) {
			uint64_t bit = todo & -todo;
			bool g, h;

			todo &= todo - 1;
			slot = w * 64 + hr_ctz64(bit);
			if (slot >= s->sh.nslots || !hr_own_cas(&s->T[slot], 0, s->id))
				continue;	/* another server holds it */
			/* Re-read under T. */
			g = test(s->sh.G, slot);
			h = test(s->sh.H, slot);
			if (g && !h) {
				/* hostrpc_server_operate() */
#ifdef HOSTRPC_MUTANT_H_BEFORE_OPERATE
				hr_fetch_or(&s->sh.H[w], bit);	/* planted bug */
				operate(&s->sh.pages[slot], ctx);
#else
				operate(&s->sh.pages[slot], ctx);
				hr_fetch_or(&s->sh.H[w], bit);
#endif
				served = true;
			} else if (!g && h) {
				/* hostrpc_server_clear() */
				clear(&s->sh.pages[slot], ctx);
				hr_fetch_and(&s->sh.H[w], ~bit);
				served = true;
			}
			hr_own_store(&s->T[slot], 0);
			if (g != h)
				hostrpc_doorbell_ring(s->sh.device_armed, s->ring, s->ring_ctx);
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
HR_FN bool hostrpc_server_arm(struct hostrpc_server *s)
{
	uint32_t w;

	/* seq_cst store, then seq_cst loads: Dekker with the ring. */
	hr_u32_store(s->sh.host_armed, 1);
#ifdef HOSTRPC_MUTANT_NO_RECHECK
	return true;	/* planted bug: sleeps without the re-check */
#endif
	for (w = 0; w < (s->sh.nslots + 63) / 64; w++) {
		uint64_t todo = hr_load_sc(&s->sh.G[w]) ^ hr_load_sc(&s->sh.H[w]);

		if (w == s->sh.nslots / 64)
			todo &= bit_of(s->sh.nslots) - 1;
		if (todo)
			return false;
	}
	return true;
}
