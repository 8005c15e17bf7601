/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_atomic_cuda.h - the atomics hostrpc needs, on a CUDA GPU
 *
 * hostrpc_atomic.h's names for device code that nvcc compiles. The shared
 * words (request, answer and summary words, the armed and dead flags) are
 * in pinned host memory that the GPU reaches over PCIe: system-scope
 * loads and stores, never a read-modify-write (this GPU has no native
 * host atomics; the host alone exchanges summary flags, and the device
 * half never calls that). The private words (W, the mirrors) are in GPU
 * memory and only GPU threads touch them: device scope, no PCIe.
 *
 * Orders: the GPU half has no doorbell (a GPU makes no system call; the
 * host side polls), so HR_NO_DOORBELL compiles the ring out of the core,
 * and with it the protocol's only store-load (Dekker) pairs: a summary
 * flag stored, then the other side's armed flag read. What is left needs
 * acquire and release only, and that is what these give: a sequentially
 * consistent operation at system scope costs a MEMBAR.SYS on every call.
 * (The CPU build keeps seq_cst for the Dekker pairs, as the model assumes;
 * the GPU check verifies this one.)
 */

#ifndef HOSTRPC_ATOMIC_CUDA_H
#define HOSTRPC_ATOMIC_CUDA_H

#include <cuda/atomic>
#include <stdint.h>

#define HR_FN __device__
#define HR_NO_DOORBELL 1

typedef uint32_t hr_u32_t;
typedef uint32_t hr_own_t;

#define HR_SYS(type, p) cuda::atomic_ref<type, cuda::thread_scope_system>(*(p))
#define HR_DEV(type, p) cuda::atomic_ref<type, cuda::thread_scope_device>(*(p))
#define HR_ACQ cuda::std::memory_order_acquire
#define HR_REL cuda::std::memory_order_release
#define HR_AR cuda::std::memory_order_acq_rel

static __device__ inline uint32_t hr_u32_load(hr_u32_t *f)
{
	return HR_SYS(uint32_t, f).load(HR_ACQ);
}

static __device__ inline void hr_u32_store(hr_u32_t *f, uint32_t v)
{
	HR_SYS(uint32_t, f).store(v, HR_REL);
}

/*
 * A summary flag: a hint stored after the request's release, with no
 * fence of its own (a MEMBAR.SYS costs 0.8 us): it may reach the host
 * before the request, and the servers' full passes find such a request.
 */
static __device__ inline void hr_u32_store_relaxed(hr_u32_t *f, uint32_t v)
{
	HR_SYS(uint32_t, f).store(v, cuda::std::memory_order_relaxed);
}

/* No doorbell, so no Dekker pair: acquire and release suffice. */
static __device__ inline uint32_t hr_u32_load_sc(hr_u32_t *f)
{
	return HR_SYS(uint32_t, f).load(HR_ACQ);
}

static __device__ inline void hr_u32_store_sc(hr_u32_t *f, uint32_t v)
{
	HR_SYS(uint32_t, f).store(v, HR_REL);
}

static __device__ inline bool hr_u32_cas(hr_u32_t *f, uint32_t from, uint32_t to)
{
	return HR_SYS(uint32_t, f).compare_exchange_strong(from, to, HR_AR);
}

static __device__ inline uint32_t hr_u32_xchg(hr_u32_t *f, uint32_t v)
{
	return HR_SYS(uint32_t, f).exchange(v, HR_AR);
}

/*
 * A tagged word of a small call's page: one 8-byte access at system scope,
 * relaxed both ways (no fence: the tag says whether the word landed; the
 * lanes read nothing else the host wrote, and W's release after the polls
 * orders them before the slot's next use).
 */
static __device__ inline uint64_t hr_word_load(volatile uint64_t *w)
{
	return HR_SYS(uint64_t, (uint64_t *)w).load(cuda::std::memory_order_relaxed);
}

static __device__ inline void hr_word_store(volatile uint64_t *w, uint64_t v)
{
	HR_SYS(uint64_t, (uint64_t *)w).store(v, cuda::std::memory_order_relaxed);
}

static __device__ inline uint32_t hr_own_load(hr_own_t *w)
{
	return HR_DEV(uint32_t, w).load(HR_ACQ);
}

static __device__ inline void hr_own_store(hr_own_t *w, uint32_t v)
{
	HR_DEV(uint32_t, w).store(v, HR_REL);
}

/* A mirror: relaxed (no fence); W's release and acquire carry it. */
static __device__ inline void hr_own_set(hr_own_t *w, uint32_t v)
{
	HR_DEV(uint32_t, w).store(v, cuda::std::memory_order_relaxed);
}

/* Taking W: acquire only (nothing before it is published by it). */
static __device__ inline bool hr_own_cas(hr_own_t *w, uint32_t from, uint32_t to)
{
	return HR_DEV(uint32_t, w).compare_exchange_strong(from, to, HR_ACQ,
							   cuda::std::memory_order_relaxed);
}

/*
 * Between two polls. A poll of host memory is itself a PCIe read (about
 * 1 us), so the first few follow each other at once (the round trip stays
 * near the ping-pong floor); after that the warp sleeps, longer each time
 * up to HR_SLEEP_MAX_NS, so that thousands of waiting warps leave the link
 * to the calls.
 */
#define HR_SPIN_POLLS		4
#define HR_SLEEP_MIN_NS		128
#define HR_SLEEP_MAX_NS		2048

static __device__ inline void hr_relax(uint32_t polls)
{
	uint32_t ns;

	if (polls < HR_SPIN_POLLS)
		return;
	ns = HR_SLEEP_MIN_NS << min(polls - HR_SPIN_POLLS, 4u);
	__nanosleep(min(ns, (uint32_t)HR_SLEEP_MAX_NS));
}

#endif /* HOSTRPC_ATOMIC_CUDA_H */
