/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_atomic_opencl.h - the atomics hostrpc needs, in a zex kernel
 *
 * hostrpc_atomic.h's names for OpenCL C (clang-15 -cl-std=CL2.0, target
 * spir64), the device half that zex's own kernels link (opencl/). A zex
 * kernel runs on a CPU thread of the application's process and reaches a
 * channel's device view as global memory: every word, shared or private,
 * is a volatile global uint. OpenCL C 1.2's atomic functions on global
 * pointers are what the SPIR-V translator and PoCL 3.1 carry through to
 * the CPU (their generic-address-space forms do not link): each is a
 * sequentially consistent read-modify-write there, so an acquire load is
 * atomic_add(p, 0) and a release store atomic_xchg(), stronger than the
 * protocol asks and ordered against the page's plain accesses around
 * them. A relaxed store is a volatile store.
 *
 * A kernel makes no system call: there is no doorbell (HR_NO_DOORBELL:
 * the host side polls, as for a GPU) and a waiting caller does not sleep;
 * between polls it only polls again (OpenCL C has no pause or yield).
 */

#ifndef HOSTRPC_ATOMIC_OPENCL_H
#define HOSTRPC_ATOMIC_OPENCL_H

/* The core's functions are emitted only where a kernel library calls them. */
#define HR_FN __attribute__((internal_linkage))
#define HR_NO_DOORBELL 1

typedef uint uint32_t;
typedef ulong uint64_t;

typedef volatile __global uint hr_u32_t;
typedef volatile __global uint hr_own_t;

static inline uint32_t hr_u32_load(hr_u32_t *f)
{
	return atomic_add(f, 0u);
}

static inline void hr_u32_store(hr_u32_t *f, uint32_t v)
{
	atomic_xchg(f, v);
}

static inline void hr_u32_store_relaxed(hr_u32_t *f, uint32_t v)
{
	*f = v;
}

static inline uint32_t hr_u32_load_sc(hr_u32_t *f)
{
	return atomic_add(f, 0u);
}

static inline void hr_u32_store_sc(hr_u32_t *f, uint32_t v)
{
	atomic_xchg(f, v);
}

static inline bool hr_u32_cas(hr_u32_t *f, uint32_t from, uint32_t to)
{
	return atomic_cmpxchg(f, from, to) == from;
}

static inline uint32_t hr_u32_xchg(hr_u32_t *f, uint32_t v)
{
	return atomic_xchg(f, v);
}

/*
 * A small call's tagged word: one aligned 8-byte access, which the CPU
 * makes whole; the volatile access keeps the compiler from splitting or
 * moving it.
 */
static inline uint64_t hr_word_load(volatile uint64_t *w)
{
	return *w;
}

static inline void hr_word_store(volatile uint64_t *w, uint64_t v)
{
	*w = v;
}

static inline uint32_t hr_own_load(hr_own_t *w)
{
	return atomic_add(w, 0u);
}

static inline void hr_own_store(hr_own_t *w, uint32_t v)
{
	atomic_xchg(w, v);
}

static inline void hr_own_set(hr_own_t *w, uint32_t v)
{
	*w = v;
}

static inline bool hr_own_cas(hr_own_t *w, uint32_t from, uint32_t to)
{
	return atomic_cmpxchg(w, from, to) == from;
}

static inline void hr_relax(uint32_t polls)
{
	(void)polls;
}

#endif /* HOSTRPC_ATOMIC_OPENCL_H */
