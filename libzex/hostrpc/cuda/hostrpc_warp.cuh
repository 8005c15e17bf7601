/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_warp.cuh - the device half of hostrpc on a CUDA GPU, one call per warp
 *
 * The protocol core (../hostrpc.c, compiled here as device code with the
 * CUDA atomics of hostrpc_atomic_cuda.h) driven by a warp: the lanes the
 * caller names in a mask, as for __shfl_sync(), make one call together;
 * they elect a leader (the lowest), the leader collects, acquires a slot
 * and broadcasts it; each lane fills its own 128-byte part of the page,
 * 16 words interleaved with the other lanes' (word j of lane i is the
 * page's word 32j + i), so that the warp's stores and loads of one word
 * each are 256 contiguous bytes, whole cache lines across PCIe; the
 * leader publishes and waits for the answer; each lane uses its part; the
 * leader ends the call. Lanes outside the mask never take part (their
 * parts stay as they were), and no step waits for another warp: a warp
 * that never calls holds nothing up.
 *
 * The mask is the caller's, never __activemask(): with independent thread
 * scheduling the lanes that reach a call together need not be the lanes
 * that make it (after a loop whose lanes left at different times, or when
 * they call from two places in the code), and a warp split into groups
 * that each called as the warp would share one owner id and slot.
 *
 * HOSTRPC_MUTANT_WARP_* (defined only by the GPU check's mutant builds) plant
 * known bugs, which the check must catch.
 *
 * The client's words: the request, answer and summary words, the flags
 * and the pages in pinned host memory (device addresses of it), W and the
 * mirrors in GPU memory. Its ring and wait are NULL (a GPU makes no system
 * call): the host side serves by polling, and the leader polls its answer
 * word.
 */

#ifndef HOSTRPC_WARP_CUH
#define HOSTRPC_WARP_CUH

#include "../hostrpc.c"

/** The mask of a call every lane of the warp makes. */
#define HOSTRPC_WARP_ALL	0xffffffffu

/** One lane's part of a slot's page: 16 words, every 32nd of the page. */
struct hostrpc_lane_part {
	volatile uint64_t *first;	/* the page's word of the lane's number */

	__host__ __device__ volatile uint64_t &word(uint32_t i) const { return first[32 * i]; }
};

/* Lane @lane's part of @page (host or device code). */
static __host__ __device__ inline struct hostrpc_lane_part hostrpc_lane_part_of(void *page,
										  uint32_t lane)
{
	return hostrpc_lane_part{ (volatile uint64_t *)page + lane };
}

static __device__ inline uint32_t hostrpc_lane_id(void)
{
	uint32_t lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}

/*
 * The leader's part of a call, the broadcast and the hand-over between
 * lanes. Every lane's writes to the page happen before the leader's
 * publish (the warp barrier orders them, and the publish is a release at
 * system scope, which carries what happened before it), and the leader's
 * acquire of the answer word happens before any lane reads the answer (the warp
 * barrier again).
 */
/*
 * The lanes that make the call. HOSTRPC_MUTANT_WARP_ACTIVE_MASK plants the
 * bug of taking whichever lanes happen to be converged.
 */
static __device__ inline uint32_t hostrpc_warp_lanes(uint32_t mask)
{
#ifdef HOSTRPC_MUTANT_WARP_ACTIVE_MASK
	return mask & __activemask();
#else
	return mask;
#endif
}

template <typename Fill, typename Use>
static __device__ int hostrpc_warp_call(struct hostrpc_client *c, uint32_t lanes, uint32_t hint,
					bool async, Fill fill, Use use)
{
	const uint32_t mask = hostrpc_warp_lanes(lanes);
	const uint32_t lane = hostrpc_lane_id();
	const uint32_t leader = __ffs(mask) - 1;
	uint32_t slot = 0;
	int ret = 0;
	struct hostrpc_lane_part part;

	if (lane == leader)
		ret = hostrpc_client_begin(c, hint, &slot);
	ret = __shfl_sync(mask, ret, leader);
	if (ret)
		return ret;
	slot = __shfl_sync(mask, slot, leader);
	part = hostrpc_lane_part_of(&c->sh.pages[slot], lane);
	fill(&part, lane);
	__syncwarp(mask);
	if (lane == leader) {
		hostrpc_client_publish(c, slot);
		if (async)
			hostrpc_client_end_async(c, slot);
		else
			ret = hostrpc_client_wait_answer(c, slot);
	}
	if (async)
		return 0;
#ifdef HOSTRPC_MUTANT_WARP_USE_BEFORE_ANSWER
	/* planted bug: the lanes read the page without waiting for the leader */
	use(&part, lane);
	ret = __shfl_sync(mask, ret, leader);
#else
	ret = __shfl_sync(mask, ret, leader);
	if (!ret)
		use(&part, lane);
#endif
	__syncwarp(mask);
	if (lane == leader)
		hostrpc_client_end(c, slot);
	__syncwarp(mask);
	return ret;
}

/**
 * hostrpc_warp_invoke - a synchronous call by the lanes of @mask
 * @c: the device side (this warp's copy: its id is the warp's owner id).
 * @mask: the lanes that make this call; every one of them must call (from
 *        anywhere in the code), as with __shfl_sync().
 * @hint: the warp's own slot (its global warp number).
 * @fill: fill(part, lane), each lane its part.
 * @use: use(part, lane), each lane its part of the answer.
 *
 * Return: 0, or %HOSTRPC_DEAD when the host side is gone.
 */
template <typename Fill, typename Use>
static __device__ int hostrpc_warp_invoke(struct hostrpc_client *c, uint32_t mask, uint32_t hint,
					  Fill fill, Use use)
{
	return hostrpc_warp_call(c, mask, hint, false, fill, use);
}

/**
 * hostrpc_warp_invoke_async - an asynchronous call by the lanes of @mask
 * @c: the device side.
 * @mask: the lanes that make this call (see hostrpc_warp_invoke()).
 * @hint: the warp's own slot.
 * @fill: fill(part, lane).
 *
 * Returns once published; a later call's collection frees the slot.
 *
 * Return: 0, or %HOSTRPC_DEAD.
 */
struct hostrpc_no_use {
	__device__ void operator()(struct hostrpc_lane_part *, uint32_t) const {}
};

template <typename Fill>
static __device__ int hostrpc_warp_invoke_async(struct hostrpc_client *c, uint32_t mask,
						uint32_t hint, Fill fill)
{
	return hostrpc_warp_call(c, mask, hint, true, fill, hostrpc_no_use());
}

/**
 * hostrpc_warp_invoke_small - a small call by the lanes of @mask
 * @c: the device side.
 * @mask: the lanes that make this call (see hostrpc_warp_invoke()).
 * @hint: the warp's own slot.
 * @in: this lane's value.
 * @out: this lane's answer.
 *
 * No page and no fence: each lane stores its value in two tagged words,
 * the leader also stores the other lanes' (tagged idle) and publishes, and each lane
 * polls its own words until they carry the answer's tag (no read of the
 * answer word, no read after the poll). See hostrpc_client_publish_small().
 *
 * Return: 0, or %HOSTRPC_DEAD.
 */
static __device__ int hostrpc_warp_invoke_small(struct hostrpc_client *c, uint32_t lanes,
						uint32_t hint, uint64_t in, uint64_t *out)
{
	const uint32_t mask = hostrpc_warp_lanes(lanes);
	const uint32_t lane = hostrpc_lane_id();
	const uint32_t leader = __ffs(mask) - 1;
	uint32_t slot = 0, request = 0, polls = 0, l;
	hostrpc_page_t *page;
	int ret = 0;

	if (lane == leader) {
		ret = hostrpc_client_begin(c, hint, &slot);
		if (!ret)
			request = hostrpc_client_small_request(c, slot);
	}
	ret = __shfl_sync(mask, ret, leader);
	if (ret)
		return ret;
	slot = __shfl_sync(mask, slot, leader);
	request = __shfl_sync(mask, request, leader);
	page = &c->sh.pages[slot];
	hostrpc_small_put(page, lane, true, request, in);
	if (lane == leader)
		for (l = 0; l < HOSTRPC_LANES; l++)
			if (!(mask >> l & 1))
				hostrpc_small_put(page, l, false, request, 0);
	__syncwarp(mask);
	if (lane == leader)
		hostrpc_client_publish_small(c, slot, request);
	while (!(ret = hostrpc_small_get(c, page, lane, request, polls, out)))
		hr_relax(polls++);
	ret = __any_sync(mask, ret < 0) ? HOSTRPC_DEAD : 0;
	/*
	 * Every lane's last poll before the leader frees the slot: a warp
	 * barrier. The vote does not do it: it orders no memory, and where
	 * the caller ignores the return value the compiler drops it; the
	 * leader then frees the slot while other lanes still poll, and the
	 * slot's next owner overwrites the words they wait for.
	 */
#ifndef HOSTRPC_MUTANT_WARP_FREE_BEFORE_POLLS
	__syncwarp(mask);
#endif
	if (lane == leader)
		hostrpc_client_end(c, slot);
	__syncwarp(mask);
	return ret;
}

#endif /* HOSTRPC_WARP_CUH */
