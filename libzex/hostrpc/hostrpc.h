/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc.h - the hostrpc protocol core (seed 003)
 *
 * Shared state: per slot a 4 KiB page and the G and H bits (bitmaps in
 * &struct hostrpc_shared), the host's "armed" flag and the "dead" flag.
 * Private state: W on the device side (&struct hostrpc_client), T on the
 * host side (&struct hostrpc_server). The state tables and the doorbell
 * proof are in Documentation/hostrpc.rst; the model in
 * model/hostrpc.pml names these functions. Freestanding: no libc, no
 * allocation; atomics through hostrpc_atomic.h.
 */

#ifndef HOSTRPC_H
#define HOSTRPC_H

#include "hostrpc_atomic.h"

#define HOSTRPC_MAX_SLOTS	2048
#define HOSTRPC_WORDS		(HOSTRPC_MAX_SLOTS / 64)

typedef struct {
	uint64_t element[8];
} hostrpc_cacheline_t;

typedef struct {
	hostrpc_cacheline_t cacheline[64];
} hostrpc_page_t;

/** The region both sides map: bitmaps and flags (the pages follow it). */
struct hostrpc_shared {
	hr_word_t G[HOSTRPC_WORDS];	/* device writes, host reads */
	hr_word_t H[HOSTRPC_WORDS];	/* host writes, device reads */
	hr_flag_t armed;		/* host wants a ring */
	hr_flag_t dead;			/* the other side is gone */
};

typedef void (*hostrpc_ring_fn)(void *ctx);
typedef void (*hostrpc_page_fn)(hostrpc_page_t *page, void *ctx);

/** The device side's view. */
struct hostrpc_client {
	struct hostrpc_shared *shared;
	hostrpc_page_t *pages;
	hr_word_t W[HOSTRPC_WORDS];	/* device-private */
	uint32_t nslots;
	hostrpc_ring_fn ring;		/* the doorbell (a syscall, an MMIO write) */
	void *ring_ctx;
};

/** The host side's view. */
struct hostrpc_server {
	struct hostrpc_shared *shared;
	hostrpc_page_t *pages;
	hr_word_t T[HOSTRPC_WORDS];	/* host-private */
	uint32_t nslots;
};

int hostrpc_client_invoke(struct hostrpc_client *c, uint32_t hint, hostrpc_page_fn fill,
			  hostrpc_page_fn use, void *ctx);
bool hostrpc_server_handle(struct hostrpc_server *s, hostrpc_page_fn operate,
			   hostrpc_page_fn clear, void *ctx);
bool hostrpc_server_arm(struct hostrpc_server *s);

#endif /* HOSTRPC_H */
