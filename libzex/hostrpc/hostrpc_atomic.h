/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_atomic.h - the atomics hostrpc needs, per platform
 *
 * The protocol core uses nothing but these. Two kinds of word: shared
 * ones, which both sides see (request, answer and summary words, the armed
 * and dead flags: hr_u32_t), and private ones, which one side alone reads
 * and writes (the owner words W and T, the device's mirrors: hr_own_t).
 * On the CPU both are C11 atomics and, in a hosted build, the wait between polls
 * yields the core. A CUDA build (nvcc defines __CUDACC__) takes
 * hostrpc_atomic_cuda.h instead: system-scope atomics for the shared
 * words, device-scope ones for the private words, which live in GPU
 * memory. An OpenCL C build (a zex kernel's device library) takes
 * hostrpc_atomic_opencl.h. HR_FN qualifies every function of the core for
 * its target (for CUDA: a device function). The core itself needs no libc and allocates
 * nothing (a freestanding build, which the host layer of make check links
 * with -nostdlib, only pauses).
 */

#ifndef HOSTRPC_ATOMIC_H
#define HOSTRPC_ATOMIC_H

#if defined(__CUDACC__)
#include "hostrpc_atomic_cuda.h"
#elif defined(__OPENCL_C_VERSION__)
#include "hostrpc_atomic_opencl.h"
#else

#define HR_FN

#if __STDC_HOSTED__
#include <sched.h>
#endif
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A word both sides see: request, answer, summary, armed and dead flags. */
typedef _Atomic uint32_t hr_u32_t;

/* A poll of the other side's word: acquire, so its page is ours to read. */
static inline uint32_t hr_u32_load(hr_u32_t *f)
{
	return atomic_load_explicit(f, memory_order_acquire);
}

/* A request or answer word, stored after the page: release. */
static inline void hr_u32_store(hr_u32_t *f, uint32_t v)
{
	atomic_store_explicit(f, v, memory_order_release);
}

/*
 * A summary flag of a device side without a doorbell: a hint, which may
 * become visible before the request stored just before it (the servers'
 * full passes find such a request).
 */
static inline void hr_u32_store_relaxed(hr_u32_t *f, uint32_t v)
{
	atomic_store_explicit(f, v, memory_order_relaxed);
}

/*
 * Sequentially consistent: a summary flag stored and then an "armed" flag
 * read (and "armed" set, then the summary flags read) is a Dekker pair,
 * which needs store-load order across the two locations: seq_cst on both
 * sides gives it without a separate fence.
 */
static inline uint32_t hr_u32_load_sc(hr_u32_t *f)
{
	return atomic_load_explicit(f, memory_order_seq_cst);
}

static inline void hr_u32_store_sc(hr_u32_t *f, uint32_t v)
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
 * A server takes a summary flag: acquire, so the requests it then reads
 * are at least those published before the flag it took (host side only).
 */
static inline uint32_t hr_u32_xchg(hr_u32_t *f, uint32_t v)
{
	return atomic_exchange_explicit(f, v, memory_order_acq_rel);
}

/*
 * A tagged word of a small call's page: one 8-byte access. The tag, not
 * an order, says whether the word landed; acquire and release (free on
 * x86) make the word that was read carry what its writer did before it,
 * as a page's hand-over does.
 */
static inline uint64_t hr_word_load(volatile uint64_t *w)
{
	return __atomic_load_n(w, __ATOMIC_ACQUIRE);
}

static inline void hr_word_store(volatile uint64_t *w, uint64_t v)
{
	__atomic_store_n(w, v, __ATOMIC_RELEASE);
}

/* Private words, one side's alone: owner words (W, T) and mirrors. */
typedef _Atomic uint32_t hr_own_t;

static inline uint32_t hr_own_load(hr_own_t *w)
{
	return atomic_load_explicit(w, memory_order_acquire);
}

static inline void hr_own_store(hr_own_t *w, uint32_t v)
{
	atomic_store_explicit(w, v, memory_order_release);
}

/*
 * A mirror, written by the slot's holder: relaxed. Whoever reads it next
 * holds W, and W changes hands by release and acquire after this store.
 */
static inline void hr_own_set(hr_own_t *w, uint32_t v)
{
	atomic_store_explicit(w, v, memory_order_relaxed);
}

/*
 * The CAS that takes W or T: acquire (what the last holder did before its
 * release is seen); taking publishes nothing, so no release.
 */
static inline bool hr_own_cas(hr_own_t *w, uint32_t from, uint32_t to)
{
	return atomic_compare_exchange_strong_explicit(w, &from, to, memory_order_acquire,
						       memory_order_acquire);
}

/*
 * Between two polls of the other side; @polls counts the polls so far. The
 * first few spin on the cache line; after that the core is given away,
 * since on a CPU the "device" is a thread that may share its core with the
 * host thread it waits for, or with a thousand other callers. Measured with
 * hostrpc_scale bench on two cores: 8 polls keep one caller against a
 * polling server at 0.74 x the cache-line ping-pong and let 1024 callers
 * make 0.8 M calls/s; 256 polls made 0.65 x and 0.32 M calls/s. The CUDA
 * shim sleeps the warp briefly instead.
 */
#define HR_SPIN_POLLS	8

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

#endif /* neither CUDA nor OpenCL C */

#endif /* HOSTRPC_ATOMIC_H */
