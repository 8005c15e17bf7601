/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_atomic.h - the atomics hostrpc needs, per platform
 *
 * The protocol core uses nothing but these; on the CPU they are C11
 * atomics and sched_yield(). A GPU build supplies its own (device-scope
 * atomics, a wave sleep) with the same names; the core itself needs no
 * libc and allocates nothing.
 */

#ifndef HOSTRPC_ATOMIC_H
#define HOSTRPC_ATOMIC_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef _Atomic uint64_t hr_word_t;
typedef _Atomic uint32_t hr_flag_t;

static inline uint64_t hr_load(hr_word_t *w)
{
	return atomic_load_explicit(w, memory_order_acquire);
}

/*
 * Sequentially consistent: a G or H update followed by a read of "armed"
 * (and "armed" set, then G and H read) is a Dekker pair, which needs
 * store-load order across the two locations: seq_cst on both sides gives
 * it without a separate fence.
 */
static inline uint64_t hr_fetch_or(hr_word_t *w, uint64_t bits)
{
	return atomic_fetch_or_explicit(w, bits, memory_order_seq_cst);
}

static inline uint64_t hr_fetch_and(hr_word_t *w, uint64_t bits)
{
	return atomic_fetch_and_explicit(w, bits, memory_order_seq_cst);
}

static inline uint64_t hr_load_sc(hr_word_t *w)
{
	return atomic_load_explicit(w, memory_order_seq_cst);
}

/* Set @bit in @w only if it was clear: the CAS that takes W or T. */
static inline bool hr_try_set(hr_word_t *w, uint64_t bit)
{
	return !(hr_fetch_or(w, bit) & bit);
}

static inline uint32_t hr_flag_load(hr_flag_t *f)
{
	return atomic_load_explicit(f, memory_order_seq_cst);
}

static inline void hr_flag_store(hr_flag_t *f, uint32_t v)
{
	atomic_store_explicit(f, v, memory_order_seq_cst);
}

static inline bool hr_flag_cas(hr_flag_t *f, uint32_t from, uint32_t to)
{
	return atomic_compare_exchange_strong_explicit(f, &from, to, memory_order_seq_cst,
						       memory_order_seq_cst);
}

/*
 * Between two polls of the other side. On a CPU the "device" is a thread
 * sharing cores with the host threads it waits for: give the core away. A
 * GPU shim would sleep the wave briefly instead.
 */
static inline void hr_relax(void)
{
	sched_yield();
}

#endif /* HOSTRPC_ATOMIC_H */
