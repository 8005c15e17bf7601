/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_atomic.h - the atomics hostrpc needs, per platform
 *
 * The protocol core uses nothing but these. Two kinds of word: shared
 * ones, which both sides see (G, H, the armed and dead flags: hr_word_t,
 * hr_u32_t), and private ones, which one side alone reads and writes (the
 * owner words W and T, the async hint: hr_own_t, hr_hint_t). On the CPU
 * both are C11 atomics and, in a hosted build, the wait between polls
 * yields the core. A CUDA build (nvcc defines __CUDACC__) takes
 * hostrpc_atomic_cuda.h instead: system-scope atomics for the shared
 * words, device-scope ones for the private words, which live in GPU
 * memory. HR_FN qualifies every function of the core for its target (for
 * CUDA: a device function). The core itself needs no libc and allocates
 * nothing (a freestanding build, which the host layer of make check links
 * with -nostdlib, only pauses).
 */

#ifndef HOSTRPC_ATOMIC_H
#define HOSTRPC_ATOMIC_H

#ifdef __CUDACC__
#include "hostrpc_atomic_cuda.h"
#else

#define HR_FN

#if __STDC_HOSTED__
#include <sched.h>
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A bitmap word (G, H, the async hint) and a 32-bit word (flags, W, T). */
typedef _Atomic uint64_t hr_word_t;
typedef _Atomic uint32_t hr_u32_t;

static inline uint64_t hr_load(hr_word_t *w)
{
	return atomic_load_explicit(w, memory_order_acquire);
}

/*
 * Sequentially consistent: a G or H update followed by a read of an
 * "armed" flag (and "armed" set, then G and H read) is a Dekker pair,
 * which needs store-load order across the two locations: seq_cst on both
 * sides gives it without a separate fence.
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

static inline uint32_t hr_u32_load(hr_u32_t *f)
{
	return atomic_load_explicit(f, memory_order_seq_cst);
}

static inline void hr_u32_store(hr_u32_t *f, uint32_t v)
{
	atomic_store_explicit(f, v, memory_order_seq_cst);
}

/* The CAS that takes an arming. */
static inline bool hr_u32_cas(hr_u32_t *f, uint32_t from, uint32_t to)
{
	return atomic_compare_exchange_strong_explicit(f, &from, to, memory_order_seq_cst,
						       memory_order_seq_cst);
}

/*
 * Private words: an owner word (W, T) and the async hint. On the CPU they
 * are the same atomics as the shared ones.
 */
typedef _Atomic uint32_t hr_own_t;
typedef _Atomic uint64_t hr_hint_t;

static inline uint32_t hr_own_load(hr_own_t *w)
{
	return atomic_load_explicit(w, memory_order_seq_cst);
}

static inline void hr_own_store(hr_own_t *w, uint32_t v)
{
	atomic_store_explicit(w, v, memory_order_seq_cst);
}

/* The CAS that takes W or T. */
static inline bool hr_own_cas(hr_own_t *w, uint32_t from, uint32_t to)
{
	return atomic_compare_exchange_strong_explicit(w, &from, to, memory_order_seq_cst,
						       memory_order_seq_cst);
}

static inline uint64_t hr_hint_load(hr_hint_t *w)
{
	return atomic_load_explicit(w, memory_order_acquire);
}

static inline void hr_hint_set(hr_hint_t *w, uint64_t bits)
{
	atomic_fetch_or_explicit(w, bits, memory_order_seq_cst);
}

static inline void hr_hint_clear(hr_hint_t *w, uint64_t bits)
{
	atomic_fetch_and_explicit(w, ~bits, memory_order_seq_cst);
}

static inline uint32_t hr_ctz64(uint64_t v)
{
	return (uint32_t)__builtin_ctzll(v);
}

/*
 * Between two polls of the other side; @polls counts the polls so far. A
 * short wait spins on the cache line (the round trip stays at the
 * ping-pong floor); a longer one gives the core away, since on a CPU the
 * "device" is a thread that may share its core with the host thread it
 * waits for. The CUDA shim sleeps the warp briefly instead.
 */
#define HR_SPIN_POLLS	256

static inline void hr_relax(uint32_t polls)
{
#if __STDC_HOSTED__
	if (polls >= HR_SPIN_POLLS) {
		sched_yield();
		return;
	}
#else
	(void)polls;
#endif
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

#endif /* !__CUDACC__ */

#endif /* HOSTRPC_ATOMIC_H */
