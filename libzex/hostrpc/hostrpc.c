// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc.c - the protocol's transitions, as model/hostrpc.pml has them
 *
 * A synchronous call: acquire W (the caller's own slot first, by a CAS of
 * a device-private word), fill the page, publish (mirror, then the request
 * word = mirror + 1, then the slot's summary flag: plain stores), ring if
 * armed, poll the answer word until it equals the request, use the page,
 * free W. Nothing else: the host never touches the slot between its answer
 * and the next request, so there is no clean-up phase, and a slot is free
 * again the moment its caller is done. An asynchronous call marks W
 * collectable right after publishing; a caller that needs the slot takes
 * W over and reads the answer word once: answered (equal to the mirror),
 * the slot is its own.
 *
 * The server: for each summary flag set, clear it (exchange), then look at
 * the group's 64 request words; a slot whose request differs from its
 * answer is taken by a CAS of T, re-read under T, operated on and answered
 * (answer = request, after the page); a slot held by another server marks
 * the flag again. A full pass looks at every group: a device side without
 * a doorbell (a GPU) stores its flag with no order after its request, so
 * a server may take the flag before the request arrives. Before a server
 * sleeps it arms and re-checks the flags (hostrpc_server_arm()): that
 * needs a doorbell, whose device side orders the flag after the request.
 *
 * HOSTRPC_MUTANT_* (defined only by tools/check/tsan-mutants.sh and the GPU
 * check's mutant builds) plant known bugs, which those tests must catch.
 */

#include "hostrpc.h"

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
	/* The seq_cst summary or answer store, then this read: Dekker with arm. */
	if (ring && hr_u32_load_sc(armed) && hr_u32_cas(armed, 1, 0))
		ring(ctx);
#endif
}

/*
 * A waiting caller reads the dead flag every HOSTRPC_DEAD_POLLS-th poll,
 * not at the first: on a GPU each read is a PCIe round trip, and a death
 * is rare and need not be seen at once (a blocking wait reports it
 * itself).
 */
#define HOSTRPC_DEAD_POLLS	64

static HR_FN bool dead_at_poll(struct hostrpc_client *c, uint32_t polls)
{
	return polls % HOSTRPC_DEAD_POLLS == HOSTRPC_DEAD_POLLS - 1 && hr_u32_load(c->sh.dead);
}

/*
 * wait_moved(): until @slot's answer word differs from @seen, polling,
 * then (with a kernel) sleeping. The answer word takes the values of the
 * slot's requests, whose sequence (bits 0-30) only grows, so no later
 * reuse of the slot can bring it back to @seen unseen (2^31 calls away).
 */
static HR_FN int wait_moved(struct hostrpc_client *c, uint32_t slot, uint32_t seen)
{
	uint32_t polls = 0;

	while (hr_u32_load(&c->sh.answer[slot]) == seen) {
		if (dead_at_poll(c, polls))
			return HOSTRPC_DEAD;
#ifndef HR_NO_DOORBELL
		/* Without a doorbell nothing would wake a sleeper: poll. */
		if (c->wait && polls >= c->spin) {
			if (c->wait(c->wait_ctx, slot, seen))
				return HOSTRPC_DEAD;
			continue;
		}
#endif
		hr_relax(polls++);
	}
	return 0;
}

enum hostrpc_take {
	HOSTRPC_TAKEN,		/* answered: the slot is the caller's */
	HOSTRPC_UNANSWERED,	/* marked collectable again; *seen set */
	HOSTRPC_LOST,		/* W changed before the CAS */
};

/*
 * take_collectable(): a W word seen as @owner (an async call's) is taken
 * over by CAS, and only then is the answer read: one read decides (a check
 * before the CAS could be of a call since collected, and the slot reused).
 * Answered (the answer word equals the mirror): the slot is the caller's.
 * Not: it is marked collectable again and *@seen says what the answer word
 * was.
 */
static HR_FN enum hostrpc_take take_collectable(struct hostrpc_client *c, uint32_t slot,
						uint32_t owner, uint32_t *seen)
{
	uint32_t answer;

	if (!hr_own_cas(&c->W[slot], owner, c->id))
		return HOSTRPC_LOST;
	answer = hr_u32_load(&c->sh.answer[slot]);
	if (answer != hr_own_load(&c->M[slot])) {
		hr_own_store(&c->W[slot], c->id | HOSTRPC_OWNER_ASYNC);
		*seen = answer;
		return HOSTRPC_UNANSWERED;
	}
	return HOSTRPC_TAKEN;
}

/**
 * hostrpc_client_collect - free every answered asynchronous call
 * @c: the device side.
 *
 * Calls collect themselves when they find no free slot; this is for a
 * caller that wants the slots back (or to know they are answered).
 *
 * Return: the number of slots freed.
 */
HR_FN uint32_t hostrpc_client_collect(struct hostrpc_client *c)
{
	uint32_t slot, seen, freed = 0;

	for (slot = 0; slot < c->sh.nslots; slot++) {
		uint32_t owner = hr_own_load(&c->W[slot]);

		if ((owner & HOSTRPC_OWNER_ASYNC) &&
		    take_collectable(c, slot, owner, &seen) == HOSTRPC_TAKEN) {
			hr_own_store(&c->W[slot], 0);
			freed++;
		}
	}
	return freed;
}

/**
 * hostrpc_client_begin - acquire a slot
 * @c: the device side.
 * @hint: the caller's own slot (its wave id): with at least as many slots
 *	as concurrent callers, progress needs no fairness from the scheduler.
 * @slotp: the slot acquired, whose page the caller fills next.
 *
 * The caller's own slot (@hint modulo the slots) first. The device
 * scheduler owes no fairness, so progress rests on this: with at least as
 * many slots as callers, no synchronous caller
 * takes another's own slot, so a caller's own slot is free, or held by an
 * asynchronous call (the caller's, or a collector's), which the host is
 * bound to answer: the caller then waits for the host, which is fair,
 * rather than take someone else's slot. When the own slot is held by a
 * synchronous caller (more callers than slots), any free slot, then any
 * answered asynchronous one; none: look again.
 *
 * Return: 0, or %HOSTRPC_DEAD when the host side is dead.
 */
HR_FN int hostrpc_client_begin(struct hostrpc_client *c, uint32_t hint, uint32_t *slotp)
{
	uint32_t own = hint % c->sh.nslots, i, polls = 0, seen;

	for (;;) {
		uint32_t owner;

		/* The usual case in one atomic: the own slot is free. */
		if (hr_own_cas(&c->W[own], 0, c->id)) {
			*slotp = own;
			return 0;
		}
		owner = hr_own_load(&c->W[own]);
		if (!owner)
			continue;	/* freed since: try it again */
		if (owner & HOSTRPC_OWNER_ASYNC) {
			enum hostrpc_take took = take_collectable(c, own, owner, &seen);

			if (took == HOSTRPC_TAKEN) {
				*slotp = own;
				return 0;
			}
			if (took == HOSTRPC_UNANSWERED) {
				/* The host's move is next: wait for it, then look again. */
#ifdef HOSTRPC_MUTANT_OWN_SLOT_WAITS_FOR_VALUE
				/* planted bug: wait for one value of the answer (ABA) */
				uint32_t want = hr_own_load(&c->M[own]);

				while (hr_u32_load(&c->sh.answer[own]) != want &&
				       !hr_u32_load(c->sh.dead))
					hr_relax(polls++);
#else
				if (wait_moved(c, own, seen))
					return HOSTRPC_DEAD;
#endif
			}
			continue;
		}
		for (i = 1; i < c->sh.nslots; i++) {
			uint32_t slot = (own + i) % c->sh.nslots;

			if (!hr_own_load(&c->W[slot]) && hr_own_cas(&c->W[slot], 0, c->id)) {
				*slotp = slot;
				return 0;
			}
		}
		for (i = 1; i < c->sh.nslots; i++) {
			uint32_t slot = (own + i) % c->sh.nslots;

			owner = hr_own_load(&c->W[slot]);
			if ((owner & HOSTRPC_OWNER_ASYNC) &&
			    take_collectable(c, slot, owner, &seen) == HOSTRPC_TAKEN) {
				*slotp = slot;
				return 0;
			}
		}
		if (dead_at_poll(c, polls))
			return HOSTRPC_DEAD;
		hr_relax(polls++);
	}
}

/* The request word after @prev: the next sequence number, of @kind. */
static HR_FN uint32_t next_request(uint32_t prev, uint32_t kind)
{
	return ((prev + 1) & HOSTRPC_SEQ_MASK) | kind;
}

/*
 * raise_flag(): @slot's summary flag after its request word. With a
 * doorbell ordered after it and followed by a ring if the host side is
 * armed; without one a plain store (see hostrpc_client_publish()).
 */
static HR_FN void raise_flag(struct hostrpc_client *c, uint32_t slot)
{
	hr_u32_t *flag = &c->sh.summary[slot / HOSTRPC_GROUP];

#ifndef HR_NO_DOORBELL
	if (c->ring) {
		hr_u32_store_sc(flag, 1);
		hostrpc_doorbell_ring(c->sh.host_armed, c->ring, c->ring_ctx);
		return;
	}
#endif
	hr_u32_store_relaxed(flag, 1);
}

/**
 * hostrpc_client_publish - hand a filled page to the host
 * @c: the device side.
 * @slot: the slot from hostrpc_client_begin().
 *
 * The mirror, then the request word (a release: the page before it), then
 * the slot's summary flag. With a doorbell the flag is ordered after the
 * request and followed by a ring if the host side is armed: a host thread
 * that re-checks the flags before it sleeps must not miss the request.
 * Without one (a GPU, or a CPU caller whose host polls) the flag is a
 * plain store with no order of its own, a hint that may arrive before the
 * request: the host's full passes (hostrpc_server_handle() with @all)
 * find such a request. All plain stores: no read-modify-write of shared
 * memory, no read of it.
 */
HR_FN void hostrpc_client_publish(struct hostrpc_client *c, uint32_t slot)
{
	uint32_t seq = next_request(hr_own_load(&c->M[slot]), 0);

	hr_own_set(&c->M[slot], seq);
	hr_u32_store(&c->sh.request[slot], seq);
	raise_flag(c, slot);
}

/**
 * hostrpc_client_wait_answer - wait for the host's answer to our call
 * @c: the device side.
 * @slot: the call's slot.
 *
 * Return: 0 once the answer word equals the request, %HOSTRPC_DEAD if the
 * host side died.
 */
HR_FN int hostrpc_client_wait_answer(struct hostrpc_client *c, uint32_t slot)
{
	uint32_t want = hr_own_load(&c->M[slot]), seen;

	/* The host moves the answer word once, from the last request to ours. */
	while ((seen = hr_u32_load(&c->sh.answer[slot])) != want)
		if (wait_moved(c, slot, seen))
			return HOSTRPC_DEAD;
	return 0;
}

/**
 * hostrpc_client_end_async - leave a published call to be collected
 * @c: the device side.
 * @slot: the call's slot.
 *
 * Whoever needs the slot next takes it over once the host answered.
 */
HR_FN void hostrpc_client_end_async(struct hostrpc_client *c, uint32_t slot)
{
	hr_own_store(&c->W[slot], c->id | HOSTRPC_OWNER_ASYNC);
}

/**
 * hostrpc_client_end - end a synchronous call after its use
 * @c: the device side.
 * @slot: the call's slot.
 *
 * The slot is free at once: the host is done with it since its answer.
 * A call the host died under frees its slot too (the channel is dead).
 */
HR_FN void hostrpc_client_end(struct hostrpc_client *c, uint32_t slot)
{
	hr_own_store(&c->W[slot], 0);
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
	hostrpc_client_end(c, slot);
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
 * has answered and a caller that needs it (or hostrpc_client_collect())
 * takes it over. A call to a host that is already dead fails.
 *
 * Return: 0, or %HOSTRPC_DEAD when the host side is dead.
 */
HR_FN int hostrpc_client_invoke_async(struct hostrpc_client *c, uint32_t hint,
				      hostrpc_page_fn fill, void *ctx)
{
	uint32_t slot;
	int ret;

	if (hr_u32_load(c->sh.dead))
		return HOSTRPC_DEAD;
	ret = hostrpc_client_begin(c, hint, &slot);
	if (ret)
		return ret;
	fill(&c->sh.pages[slot], ctx);
	hostrpc_client_publish(c, slot);
	hostrpc_client_end_async(c, slot);
	return 0;
}

/* ---- small calls ---- */

/* Lane @lane's word @j of @page (the interleaved layout of page calls). */
static HR_FN volatile uint64_t *small_word(hostrpc_page_t *page, uint32_t lane, uint32_t j)
{
	return (volatile uint64_t *)page + HOSTRPC_LANES * j + lane;
}

/* Lane @lane's two words: @v's halves, each beside @tag. */
static HR_FN void small_store(hostrpc_page_t *page, uint32_t lane, uint32_t tag, uint64_t v)
{
	hr_word_store(small_word(page, lane, 0), (uint64_t)(uint32_t)v << 32 | tag);
	hr_word_store(small_word(page, lane, 1), (v >> 32) << 32 | tag);
}

/* The value two tagged words @lo and @hi carry. */
static HR_FN uint64_t small_untag(uint64_t lo, uint64_t hi)
{
	return (hi >> 32) << 32 | lo >> 32;
}

/**
 * hostrpc_client_small_request - the request word a small call in @slot publishes
 * @c: the device side.
 * @slot: the slot from hostrpc_client_begin().
 *
 * Return: the request word, which is also the tag of the call's words.
 */
HR_FN uint32_t hostrpc_client_small_request(struct hostrpc_client *c, uint32_t slot)
{
	return next_request(hr_own_load(&c->M[slot]), HOSTRPC_REQUEST_SMALL);
}

/**
 * hostrpc_small_put - store a lane's part of a small call
 * @page: the slot's page.
 * @lane: 0 to 31. Every lane's words are stored, calling or not: the host
 *	tells a lane that does not call from a word that has not landed by
 *	the tag.
 * @calls: whether the lane calls.
 * @request: hostrpc_client_small_request().
 * @value: the lane's value.
 */
HR_FN void hostrpc_small_put(hostrpc_page_t *page, uint32_t lane, bool calls, uint32_t request,
			     uint64_t value)
{
	small_store(page, lane, calls ? request : request ^ HOSTRPC_TAG_IDLE, value);
}

/**
 * hostrpc_client_publish_small - hand a small call to the host
 * @c: the device side.
 * @slot: the call's slot.
 * @request: hostrpc_client_small_request(), after every lane's put.
 *
 * No fence: the tags tell the host when the words have landed. After a
 * page call, though, the slot's words hold plain data that could match a
 * tag, so the first small call after one publishes with a release (its
 * words land before the request word). Then the summary flag, as for a
 * page call.
 */
HR_FN void hostrpc_client_publish_small(struct hostrpc_client *c, uint32_t slot,
					uint32_t request)
{
	bool after_small = hr_own_load(&c->M[slot]) & HOSTRPC_REQUEST_SMALL;

	hr_own_set(&c->M[slot], request);
	if (after_small)
		hr_u32_store_relaxed(&c->sh.request[slot], request);
	else
		hr_u32_store(&c->sh.request[slot], request);
	raise_flag(c, slot);
}

/**
 * hostrpc_small_get - a calling lane's answer, if it has landed
 * @c: the device side.
 * @page: the slot's page.
 * @lane: the lane.
 * @request: the call's request word.
 * @polls: the polls so far (every %HOSTRPC_DEAD_POLLS-th also reads the
 *	dead flag).
 * @value: the answer, once both words carry the answer's tag.
 *
 * Return: 1 with *@value set, 0 not yet, %HOSTRPC_DEAD.
 */
HR_FN int hostrpc_small_get(struct hostrpc_client *c, hostrpc_page_t *page, uint32_t lane,
			    uint32_t request, uint32_t polls, uint64_t *value)
{
	uint64_t lo = hr_word_load(small_word(page, lane, 0));
	uint64_t hi = hr_word_load(small_word(page, lane, 1));

	if ((uint32_t)lo == ~request && (uint32_t)hi == ~request) {
		*value = small_untag(lo, hi);
		return 1;
	}
	return dead_at_poll(c, polls) ? HOSTRPC_DEAD : 0;
}

/**
 * hostrpc_client_invoke_small - a small call from one thread for @lanes
 * @c: the device side.
 * @hint: as for hostrpc_client_invoke().
 * @lanes: the lanes that call (bit i: lane i).
 * @in: each calling lane's value (32 entries).
 * @out: each calling lane's answer.
 *
 * Return: 0, or %HOSTRPC_DEAD.
 */
HR_FN int hostrpc_client_invoke_small(struct hostrpc_client *c, uint32_t hint, uint32_t lanes,
				      const uint64_t *in, uint64_t *out)
{
	uint32_t slot, lane, request, polls = 0;
	hostrpc_page_t *page;
	int ret = hostrpc_client_begin(c, hint, &slot);

	if (ret)
		return ret;
	page = &c->sh.pages[slot];
	request = hostrpc_client_small_request(c, slot);
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		hostrpc_small_put(page, lane, lanes >> lane & 1, request, in[lane]);
	hostrpc_client_publish_small(c, slot, request);
	for (lane = 0; lane < HOSTRPC_LANES && !ret; lane++) {
		if (!(lanes >> lane & 1))
			continue;
		while (!(ret = hostrpc_small_get(c, page, lane, request, polls, &out[lane])))
			hr_relax(polls++);
		ret = ret < 0 ? ret : 0;
	}
	hostrpc_client_end(c, slot);
	return ret;
}

/* Whether @tag is one a word of @request may carry once it has landed. */
static HR_FN bool small_tag_of(uint32_t tag, uint32_t request)
{
	return tag == request || tag == (request ^ HOSTRPC_TAG_IDLE) || tag == ~request ||
	       tag == ~(request ^ HOSTRPC_TAG_IDLE);
}

/*
 * lane_landed(): have a lane's two words of @request, @w0 and @w1, landed?
 * Then *@tag is the one they carry. A server that died between a lane's
 * two answer words left one word answered (the complement of the other's
 * tag): the lane counts as not answered, with a value half lost (a call a
 * server died in has an undefined answer, never a hang).
 */
static HR_FN bool lane_landed(uint64_t w0, uint64_t w1, uint32_t request, uint32_t *tag)
{
	uint32_t lo = (uint32_t)w0, hi = (uint32_t)w1;

	if (!small_tag_of(lo, request) || !small_tag_of(hi, request))
		return false;
	if (lo == hi)
		*tag = lo;
	else if (lo == ~hi)
		*tag = lo & HOSTRPC_REQUEST_SMALL ? lo : hi;
	else
		return false;
	return true;
}

/*
 * small_landed(): have all of @request's words landed? Each lane's pair of
 * words carries one tag: @request (the lane calls), @request ^
 * HOSTRPC_TAG_IDLE (it does not), or the complement of either (a server
 * answered the lane and died before it stored the answer word: the lane
 * keeps that answer). Then the lanes still to answer (calling ones, their
 * values in word 0 of their parts of @scratch, 0 for the others) are
 * *@lanes, and *@idle the lanes that do not call and still carry the
 * request's idle tag.
 */
static HR_FN bool small_landed(hostrpc_page_t *page, uint32_t request, hostrpc_page_t *scratch,
			       uint32_t *lanes, uint32_t *idle)
{
	uint32_t lane, tag;

	*lanes = 0;
	*idle = 0;
	for (lane = 0; lane < HOSTRPC_LANES; lane++) {
		uint64_t lo = hr_word_load(small_word(page, lane, 0));
		uint64_t hi = hr_word_load(small_word(page, lane, 1));

#ifdef HOSTRPC_MUTANT_SMALL_NO_TAG_CHECK
		if (!lane_landed(lo, hi, request, &tag))
			tag = request;	/* planted: served whatever the words hold */
#else
		if (!lane_landed(lo, hi, request, &tag))
			return false;
#endif
		*small_word(scratch, lane, 0) = tag == request ? small_untag(lo, hi) : 0;
		*small_word(scratch, lane, 1) = 0;
		if (tag == request)
			*lanes |= 1u << lane;
		else if (tag == (request ^ HOSTRPC_TAG_IDLE))
			*idle |= 1u << lane;
	}
	return true;
}

/*
 * small_answer(): the answers into the page: the idle lanes' words first,
 * then the calling lanes' (each lane's words carry the complement of its
 * tag), so that once every calling lane has its answer the host has
 * written all of the page it writes. Lanes already answered are left as
 * they are.
 */
static HR_FN void small_answer(hostrpc_page_t *page, uint32_t request, hostrpc_page_t *scratch,
			       uint32_t lanes, uint32_t idle)
{
	uint32_t pass, lane;

	for (pass = 0; pass < 2; pass++)
		for (lane = 0; lane < HOSTRPC_LANES; lane++) {
			bool calls = lanes >> lane & 1;
			uint64_t v = calls ? *small_word(scratch, lane, 0) : 0;
			uint32_t tag = ~(calls ? request : request ^ HOSTRPC_TAG_IDLE);

			if (!((pass ? lanes : idle) >> lane & 1))
				continue;
			small_store(page, lane, tag, v);
		}
}

/*
 * The answer word, after the page: a release; with a doorbell toward the
 * device side, seq_cst (then "armed" is read: a Dekker pair).
 */
static HR_FN void store_answer(struct hostrpc_server *s, uint32_t slot, uint32_t request)
{
	if (s->ring)
		hr_u32_store_sc(&s->sh.answer[slot], request);
	else
		hr_u32_store(&s->sh.answer[slot], request);
}

enum hostrpc_served {
	HOSTRPC_IDLE,		/* nothing to do */
	HOSTRPC_SERVED,
	HOSTRPC_NOT_LANDED,	/* a small call whose words are not all there yet */
};

/*
 * A small call: its words copied out (all landed, else not yet), operated
 * on in @scratch, the tagged answers stored, then the answer word: the
 * slot looks answered only once the host is done with its page (a dead
 * device side's slot is freed by the answer word), as for a page call.
 * The calling lanes stop waiting at their own words, so the slot may be
 * taken and published again before the answer word is stored: it is the
 * request served, never the request word re-read.
 */
static HR_FN enum hostrpc_served serve_small(struct hostrpc_server *s, uint32_t slot,
					     uint32_t request, hostrpc_page_fn operate, void *ctx)
{
	hostrpc_page_t scratch, *page = &s->sh.pages[slot];
	uint32_t lanes, idle;

	if (!small_landed(page, request, &scratch, &lanes, &idle))
		return HOSTRPC_NOT_LANDED;
	if (lanes)
		operate(&scratch, ctx);
#ifdef HOSTRPC_MUTANT_SMALL_ANSWER_WORD_FIRST
	store_answer(s, slot, request);	/* planted: the slot looks done too early */
	small_answer(page, request, &scratch, lanes, idle);
#else
	small_answer(page, request, &scratch, lanes, idle);
	store_answer(s, slot, request);
#endif
	return HOSTRPC_SERVED;
}

/* hostrpc_server_answer(): under T, answer @slot if it still needs it. */
static HR_FN enum hostrpc_served hostrpc_server_answer(struct hostrpc_server *s, uint32_t slot,
						       hostrpc_page_fn operate, void *ctx)
{
	uint32_t request = hr_u32_load(&s->sh.request[slot]);

	if (request == hr_u32_load(&s->sh.answer[slot]))
		return HOSTRPC_IDLE;
	if (request & HOSTRPC_REQUEST_SMALL)
		return serve_small(s, slot, request, operate, ctx);
#ifdef HOSTRPC_MUTANT_ANSWER_BEFORE_OPERATE
	store_answer(s, slot, request);	/* planted bug */
	operate(&s->sh.pages[slot], ctx);
#else
	operate(&s->sh.pages[slot], ctx);
	store_answer(s, slot, request);
#endif
	return HOSTRPC_SERVED;
}

/*
 * take_flag(): a set summary flag is the server's once it exchanged it to
 * 0, before it reads the group. A plain read first: an exchange of a clear
 * flag dirties its line.
 */
static HR_FN bool take_flag(hr_u32_t *flag)
{
	if (!hr_u32_load(flag))
		return false;
#ifdef HOSTRPC_MUTANT_SUMMARY_CLEARED_LATE
	return true;	/* planted bug: cleared after the scan, see below */
#else
	return hr_u32_xchg(flag, 0);
#endif
}

/**
 * hostrpc_server_handle - serve the slots that need the host, once
 * @s: the host side.
 * @all: look at every group, flagged or not (a full pass). A device side
 *	without a doorbell stores its flags unordered, so a flag may be taken
 *	before its request arrives: a polling server makes every
 *	%HOSTRPC_FULL_PASS-th pass a full one. Otherwise only flagged groups.
 * @operate: answers a request in place.
 * @ctx: for @operate.
 *
 * Return: whether any slot was served.
 */
HR_FN bool hostrpc_server_handle(struct hostrpc_server *s, bool all, hostrpc_page_fn operate,
				 void *ctx)
{
	uint32_t groups = (s->sh.nslots + HOSTRPC_GROUP - 1) / HOSTRPC_GROUP;
	uint32_t g, slot, end;
	bool served = false;

#ifdef HOSTRPC_MUTANT_NO_FULL_PASS
	all = false;	/* planted bug: a flag that came before its request loses it */
#endif
	for (g = 0; g < groups; g++) {
		hr_u32_t *flag = &s->sh.summary[g];

		if (!take_flag(flag) && !all)
			continue;
		end = (g + 1) * HOSTRPC_GROUP < s->sh.nslots ? (g + 1) * HOSTRPC_GROUP :
							       s->sh.nslots;
		for (slot = g * HOSTRPC_GROUP; slot < end; slot++) {
			if (hr_u32_load(&s->sh.request[slot]) == hr_u32_load(&s->sh.answer[slot]))
				continue;
			if (!hr_own_cas(&s->T[slot], 0, s->id)) {
				/* Another server holds it: have the group looked at again. */
				hr_u32_store_sc(flag, 1);
				continue;
			}
			switch (hostrpc_server_answer(s, slot, operate, ctx)) {
			case HOSTRPC_SERVED:
				served = true;
				break;
			case HOSTRPC_NOT_LANDED:
				/* In flight: have the group looked at again. */
				hr_u32_store_sc(flag, 1);
				break;
			case HOSTRPC_IDLE:
				break;
			}
			hr_own_store(&s->T[slot], 0);
			hostrpc_doorbell_ring(s->sh.device_armed, s->ring, s->ring_ctx);
		}
#ifdef HOSTRPC_MUTANT_SUMMARY_CLEARED_LATE
		hr_u32_store_sc(flag, 0);	/* planted bug: a request between is lost */
#endif
	}
	return served;
}

/**
 * hostrpc_server_poll - one pass of a polling server
 * @s: the host side.
 * @passes: the calling thread's count of its passes, which this advances:
 *	every %HOSTRPC_FULL_PASS-th pass is a full one.
 * @operate: answers a request in place.
 * @ctx: for @operate.
 *
 * Return: whether any slot was served.
 */
HR_FN bool hostrpc_server_poll(struct hostrpc_server *s, uint32_t *passes,
			       hostrpc_page_fn operate, void *ctx)
{
	return hostrpc_server_handle(s, ++*passes % HOSTRPC_FULL_PASS == 0, operate, ctx);
}

/**
 * hostrpc_server_arm - arm the doorbell and re-check before sleeping
 * @s: the host side.
 *
 * Return: true when the caller may sleep until a ring: no summary flag was
 * set after arming. False: work arrived, serve it first.
 */
HR_FN bool hostrpc_server_arm(struct hostrpc_server *s)
{
	uint32_t groups = (s->sh.nslots + HOSTRPC_GROUP - 1) / HOSTRPC_GROUP, g;

	/* seq_cst store, then seq_cst loads: Dekker with the publisher. */
	hr_u32_store_sc(s->sh.host_armed, 1);
#ifdef HOSTRPC_MUTANT_NO_RECHECK
	return true;	/* planted bug: sleeps without the re-check */
#endif
	for (g = 0; g < groups; g++)
		if (hr_u32_load_sc(&s->sh.summary[g]))
			return false;
	return true;
}
