/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc.h - the hostrpc protocol core (seed 003)
 *
 * Shared state (&struct hostrpc_shared): per slot a 4 KiB page, a request
 * word (device writes, host reads) and an answer word (host writes, device
 * reads); a summary flag per 64 slots; the two sides' "armed" flags and
 * the "dead" flag. Private state: the owner words W and the mirrors of the
 * request words on the device side (&struct hostrpc_client), the owner
 * words T on the host side (&struct hostrpc_server). An owner word is 0
 * when free, else the holder's id, taken by CAS; an asynchronous call's W
 * also carries %HOSTRPC_OWNER_ASYNC so that any device-side caller may
 * collect it once answered.
 *
 * The core only holds pointers: the zex kernel channel's mmap
 * (libzex/src/core/hostrpc_channel.c), plain memory (the tests) or pinned
 * host and GPU memory (cuda/) supply them. The state table and the
 * doorbell proof are in Documentation/hostrpc.rst; model/hostrpc.pml names
 * these functions. Freestanding: no libc, no allocation; atomics through
 * hostrpc_atomic.h.
 */

#ifndef HOSTRPC_H
#define HOSTRPC_H

#include "hostrpc_atomic.h"

#define HOSTRPC_MAX_SLOTS	2048
/* Slots per summary flag. */
#define HOSTRPC_GROUP		64
#define HOSTRPC_GROUPS		(HOSTRPC_MAX_SLOTS / HOSTRPC_GROUP)
/*
 * A polling server looks at every slot once in this many passes: a device
 * side without a doorbell may have its flag taken before its request
 * arrives (hostrpc_client_publish()).
 */
#define HOSTRPC_FULL_PASS	64

/*
 * Small calls: bit 31 of a request word says the call is small. Its data
 * travels in tagged words, not behind a fence: word j (j <
 * HOSTRPC_SMALL_WORDS) of each lane's part holds 32 bits of the lane's
 * value above a 32-bit tag, the request word for a lane that calls, that
 * word ^ HOSTRPC_TAG_IDLE for one that does not, and the complements of
 * those in the answer. A word whose tag is not this call's has not landed.
 */
#define HOSTRPC_REQUEST_SMALL	0x80000000u
#define HOSTRPC_SEQ_MASK	0x7fffffffu
#define HOSTRPC_TAG_IDLE	0x40000000u
#define HOSTRPC_SMALL_WORDS	2
#define HOSTRPC_LANES		32

/* Owner words (the same values as the zex uapi's). */
#define HOSTRPC_OWNER_ID_MASK	0x00ffffffu
#define HOSTRPC_OWNER_ASYNC	0x80000000u

/* What the calls return when the other side is gone. */
#define HOSTRPC_DEAD		(-1)

typedef struct {
	uint64_t element[8];
} hostrpc_cacheline_t;

typedef struct {
	hostrpc_cacheline_t cacheline[64];
} hostrpc_page_t;

/** What both sides see. */
struct hostrpc_shared {
	hr_u32_t *request;		/* per slot: device writes, host reads */
	hr_u32_t *answer;		/* per slot: host writes, device reads */
	hr_u32_t *summary;		/* per 64 slots: device sets, host clears */
	hr_u32_t *host_armed;		/* a host thread wants a ring */
	hr_u32_t *device_armed;		/* a device waiter wants a ring */
	hr_u32_t *dead;			/* the host side is gone */
	hostrpc_page_t *pages;
	uint32_t nslots;
};

typedef void (*hostrpc_ring_fn)(void *ctx);

/*
 * Block until @slot's answer word differs from @value (the host answered
 * since the caller read it), or a device-side ring woke the caller, who
 * re-checks; HOSTRPC_DEAD when the host is gone. It must arm the device
 * side's doorbell and re-check before sleeping, as the kernel's wait
 * ioctl does.
 */
typedef int (*hostrpc_wait_fn)(void *ctx, uint32_t slot, uint32_t value);
typedef void (*hostrpc_page_fn)(hostrpc_page_t *page, void *ctx);

/** The device side's view. */
struct hostrpc_client {
	struct hostrpc_shared sh;
	hr_own_t *W;			/* owner words, device-private */
	hr_own_t *M;			/* mirrors of the request words, device-private */
	uint32_t id;			/* this caller's owner id, not 0 */
	uint32_t spin;			/* polls of an answer before blocking in @wait */
	hostrpc_ring_fn ring;		/* the doorbell (a syscall, an MMIO write); */
	void *ring_ctx;			/* NULL: the host side polls */
	hostrpc_wait_fn wait;		/* NULL: always poll */
	void *wait_ctx;
};

/** The host side's view. */
struct hostrpc_server {
	struct hostrpc_shared sh;
	hr_own_t *T;			/* owner words, host-private */
	uint32_t id;			/* this server's owner id, not 0 */
	hostrpc_ring_fn ring;		/* rings the device side; NULL: it */
	void *ring_ctx;			/* polls */
};

HR_FN int hostrpc_client_invoke(struct hostrpc_client *c, uint32_t hint, hostrpc_page_fn fill,
				hostrpc_page_fn use, void *ctx);
HR_FN int hostrpc_client_invoke_async(struct hostrpc_client *c, uint32_t hint,
				      hostrpc_page_fn fill, void *ctx);
HR_FN uint32_t hostrpc_client_collect(struct hostrpc_client *c);

/*
 * A call in steps, for callers that fill and use the page together (a
 * GPU warp: one lane takes the slot, every lane fills its part, one lane
 * publishes and waits, every lane uses its part, one lane ends the call):
 * begin (collect, acquire a slot), fill the page, publish, wait for the
 * answer, use it, end (or end_async right after publishing).
 * hostrpc_client_invoke() is these steps in a row.
 */
HR_FN int hostrpc_client_begin(struct hostrpc_client *c, uint32_t hint, uint32_t *slot);
HR_FN void hostrpc_client_publish(struct hostrpc_client *c, uint32_t slot);
HR_FN int hostrpc_client_wait_answer(struct hostrpc_client *c, uint32_t slot);
HR_FN void hostrpc_client_end(struct hostrpc_client *c, uint32_t slot);
HR_FN void hostrpc_client_end_async(struct hostrpc_client *c, uint32_t slot);

/*
 * A small call in steps (a GPU warp: one lane begins, every lane puts its
 * value, one lane publishes, every lane gets its answer, one lane ends):
 * begin, hostrpc_client_small_request() for the tag, hostrpc_small_put()
 * for every lane (calling or not), hostrpc_client_publish_small(), then
 * hostrpc_small_get() for each calling lane until it has its answer,
 * hostrpc_client_end(). hostrpc_client_invoke_small() is these in a row.
 */
HR_FN uint32_t hostrpc_client_small_request(struct hostrpc_client *c, uint32_t slot);
HR_FN void hostrpc_small_put(hostrpc_page_t *page, uint32_t lane, bool calls, uint32_t request,
			     uint64_t value);
HR_FN void hostrpc_client_publish_small(struct hostrpc_client *c, uint32_t slot,
					uint32_t request);
HR_FN int hostrpc_small_get(struct hostrpc_client *c, hostrpc_page_t *page, uint32_t lane,
			    uint32_t request, uint32_t polls, uint64_t *value);
HR_FN int hostrpc_client_invoke_small(struct hostrpc_client *c, uint32_t hint, uint32_t lanes,
				      const uint64_t *in, uint64_t *out);

HR_FN bool hostrpc_server_handle(struct hostrpc_server *s, bool all, hostrpc_page_fn operate,
				 void *ctx);
HR_FN bool hostrpc_server_poll(struct hostrpc_server *s, uint32_t *passes,
			       hostrpc_page_fn operate, void *ctx);
HR_FN bool hostrpc_server_arm(struct hostrpc_server *s);

#endif /* HOSTRPC_H */
