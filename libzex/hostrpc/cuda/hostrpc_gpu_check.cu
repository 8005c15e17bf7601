// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_gpu_check.cu - hostrpc's device half on a real GPU, every call verified
 *
 * One warp alone (20 000 calls); one warp per SM, on all slots, then on
 * 32 slots (slots change hands between warps at every call; the scheduler
 * is fair enough for that in practice, though the protocol's progress
 * argument asks for a slot per warp); 16 warps per SM, more than the
 * slots, small calls only, every lane; then a grid with one block on every
 * SM and as many warps as the channel has slots allows (no two warps share
 * an own slot) make calls to libzex's polling servers, 1, 2, 4 and 8 of
 * them. Except in the run of small calls only, warps differ by their
 * number modulo 8: 0-3 call with all 32 lanes, every fourth call
 * asynchronous; 4 with the odd lanes only; 5 with lane 31 only; 6 with
 * lanes 0-15, synchronous only; 7 never call; warps 1, 4 and 5 make two
 * calls in three small ones (tagged words, no page); in warps 1 and 2 the
 * odd lanes call from another place in the code than the even ones (one
 * call still: the lanes are the caller's mask, not those that happen to be
 * converged). Every lane's part of a request carries its warp, call, lane
 * and a checksum; the host checks each request and answers it with the
 * complement, the GPU checks every answer word. Afterwards every call must
 * have been served exactly once, with exactly its lanes' parts. TAP
 * output; exit 4 (skip) without a GPU.
 */

#include "gpu_rig.cuh"

#define CALLS		48		/* per warp */
#define LONE_CALLS	20000		/* the lone warp's */
#define SHARED_SLOTS	32		/* slots of the run where warps share them */
#define SHARED_CALLS	1000		/* per warp, in that run */
#define SMALL_CALLS	240		/* per warp, in the run of small calls only */
#define MAGIC		0xa5ull
#define BLOCK_WARPS_MAX	32

/* word 0 of a lane's part (a small call's value): magic, async, lane, call, small, warp */
static __host__ __device__ uint64_t tag_of(uint32_t warp, uint32_t k, uint32_t lane, bool async,
					   bool small)
{
	return MAGIC << 56 | (uint64_t)async << 55 | (uint64_t)lane << 50 | (uint64_t)k << 33 |
	       (uint64_t)small << 32 | warp;
}

static __host__ __device__ uint64_t word_of(uint64_t tag, uint32_t i)
{
	return i ? tag * (2 * i + 1) + i : tag;
}

/*
 * What the warps of a run call: the varied mix below, or small calls only
 * from every lane of every warp (the mix of a warp that frees its slot
 * while its lanes still wait: many warps, slots changing hands, every call
 * polled by 32 lanes).
 */
enum mix { MIX_VARIED, MIX_SMALL };

/* Which lanes of warp @w call, and whether it calls at all. */
static __host__ __device__ uint32_t lanes_of(uint32_t w, enum mix m)
{
	if (m == MIX_SMALL)
		return 0xffffffffu;
	switch (w % 8) {
	case 4: return 0xaaaaaaaau;
	case 5: return 0x80000000u;
	case 6: return 0x0000ffffu;
	case 7: return 0;
	default: return 0xffffffffu;
	}
}

/*
 * Small calls: warps 1, 4 and 5 modulo 8, two calls in three (so a small
 * call follows a page call, and another small one, on one slot). Warp 0,
 * the lone warp's, makes page calls only: their flags are the ones a full
 * pass must find.
 */
static __host__ __device__ bool is_small(uint32_t w, uint32_t k, enum mix m)
{
	return m == MIX_SMALL || ((w % 8 == 1 || w % 8 == 4 || w % 8 == 5) && k % 3 != 0);
}

/* Whether the lanes of warp @w make each call from two places in the code. */
static __host__ __device__ bool two_sites(uint32_t w, enum mix m)
{
	return m == MIX_VARIED && (w % 8 == 1 || w % 8 == 2);
}

static __host__ __device__ bool is_async(uint32_t w, uint32_t k, enum mix m)
{
	return m == MIX_VARIED && w % 8 < 4 && k % 4 == 3 && !is_small(w, k, m);
}

struct fill_req {
	uint64_t tag;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const
	{
		for (uint32_t i = 0; i < 16; i++)
			p->word(i) = word_of(tag, i);
	}
};

struct check_answer {
	uint64_t tag;
	unsigned long long *errors;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const
	{
		for (uint32_t i = 0; i < 16; i++)
			if (p->word(i) != ~word_of(tag, i))
				atomicAdd(errors, 1ull);
	}
};

/*
 * Call @k of @warp by this lane. @site tells the two places in the kernel
 * the lanes call from (the same code, inlined twice).
 */
template <int site>
static __device__ __forceinline__ int one_call(struct hostrpc_client *c, enum mix m,
					       uint32_t warp, uint32_t k, uint32_t lane,
					       unsigned long long *errors)
{
	const uint32_t mask = lanes_of(warp, m);
	uint64_t tag = tag_of(warp, k, lane, is_async(warp, k, m), is_small(warp, k, m));
	int ret;

	if (site)
		__nanosleep(100);	/* the two places differ */
	if (is_small(warp, k, m)) {
		uint64_t out = 0;

		ret = hostrpc_warp_invoke_small(c, mask, warp, tag, &out);
		if (!ret && out != ~tag)
			atomicAdd(errors, 1ull);
	} else if (is_async(warp, k, m)) {
		ret = hostrpc_warp_invoke_async(c, mask, warp, fill_req{ tag });
	} else {
		ret = hostrpc_warp_invoke(c, mask, warp, fill_req{ tag },
					  check_answer{ tag, errors });
	}
	return ret;
}

/*
 * @progress (pinned host memory): each warp's first calling lane stores the
 * number of the call it is at, then @calls, so that a hung run can say how
 * far the warps got.
 */
__global__ void calls_kernel(struct hostrpc_client base, enum mix m, uint32_t calls,
			     unsigned long long *errors, unsigned long long *dead,
			     volatile uint32_t *progress)
{
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	const uint32_t lane = hostrpc_lane_id();
	struct hostrpc_client c = base;

	c.id = warp + 1;
	if (!(lanes_of(warp, m) >> lane & 1))
		return;
	for (uint32_t k = 0; k < calls; k++) {
		int ret;

		if (lane == __ffs(lanes_of(warp, m)) - 1)
			progress[warp] = k;

		/* warps 1 and 2 modulo 8: odd and even lanes call from two places */
		if (two_sites(warp, m) && lane % 2)
			ret = one_call<1>(&c, m, warp, k, lane, errors);
		else
			ret = one_call<0>(&c, m, warp, k, lane, errors);
		if (ret)
			atomicAdd(dead, 1ull);
	}
	if (lane == __ffs(lanes_of(warp, m)) - 1)
		progress[warp] = calls;
}

/*
 * The run of small calls only: a kernel of its own, as plain as a user's
 * (every lane calls, the return value ignored, as many callers do: then
 * nothing in the call may rest on the lanes' vote on it, which the
 * compiler drops; a dead host shows as a wrong answer).
 */
__global__ void small_calls_kernel(struct hostrpc_client base, uint32_t calls,
				   unsigned long long *errors, volatile uint32_t *progress)
{
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	const uint32_t lane = hostrpc_lane_id();
	struct hostrpc_client c = base;

	c.id = warp + 1;
	for (uint32_t k = 0; k < calls; k++) {
		uint64_t tag = tag_of(warp, k, lane, false, true), out = 0;

		if (lane == 0)
			progress[warp] = k;
		hostrpc_warp_invoke_small(&c, HOSTRPC_WARP_ALL, warp, tag, &out);
		if (out != ~tag)
			atomicAdd(errors, 1ull);
	}
	if (lane == 0)
		progress[warp] = calls;
}

/* What the host saw: per call, how often it was served and which lanes. */
struct host_record {
	enum mix mix;
	uint32_t nwarps, calls;		/* calls per warp */
	unsigned *served;		/* [warp * calls + k] */
	unsigned *lanes;		/* [warp * calls + k]: the lanes' bits */
	unsigned long errors;
	char first_error[160];
};

static void host_error(struct host_record *r, const char *what, uint64_t word)
{
	if (__atomic_fetch_add(&r->errors, 1, __ATOMIC_RELAXED) == 0)
		snprintf(r->first_error, sizeof(r->first_error), "%s (word %#llx)", what,
			 (unsigned long long)word);
}

static void host_operate(struct zex_hostrpc_page *page, void *ctx)
{
	struct host_record *r = (struct host_record *)ctx;
	int64_t call = -1;
	uint32_t lanes = 0, calling = 0xffffffffu;

	/*
	 * The lanes that call: those of the warp the first well-formed part
	 * names. The others' parts hold whatever an earlier call left (never
	 * filled, an old answer, a small call's tagged words).
	 */
	for (uint32_t lane = 0; lane < 32; lane++) {
		uint64_t tag = hostrpc_lane_part_of(page, lane).word(0);

		if (tag >> 56 == MAGIC && (tag >> 50 & 31) == lane && (uint32_t)tag < r->nwarps) {
			calling = lanes_of((uint32_t)tag, r->mix);
			break;
		}
	}
	for (uint32_t lane = 0; lane < 32; lane++) {
		struct hostrpc_lane_part part = hostrpc_lane_part_of(page, lane);
		uint64_t tag = part.word(0);
		uint32_t warp = (uint32_t)tag, k = (uint32_t)(tag >> 33) & 0x1ffff;
		bool small = tag >> 32 & 1;

		if (!(calling >> lane & 1) || !tag || (~tag) >> 56 == MAGIC)
			continue;	/* an inactive lane's part: never filled, or an old answer */
		if (tag >> 56 != MAGIC || (tag >> 50 & 31) != lane || warp >= r->nwarps ||
		    k >= r->calls) {
			host_error(r, "malformed part", tag);
			continue;
		}
		/* A small call's value is word 0 of its lane's part: nothing else. */
		for (uint32_t i = 1; i < 16 && !small; i++)
			if (part.word(i) != word_of(tag, i))
				host_error(r, "torn part", tag);
		if (call < 0)
			call = (int64_t)warp * r->calls + k;
		else if (call != (int64_t)warp * r->calls + k)
			host_error(r, "parts of two calls in one page", tag);
		lanes |= 1u << lane;
		/*
		 * A page call's operation takes time: the answer is written
		 * over about a microsecond per page, so that an answer word
		 * stored before it (the planted bug) lets the GPU read a
		 * half-written page. A small call's is operated on in a copy:
		 * at full speed, as fast as the GPU's warps can turn slots.
		 */
		for (int spin = 0; spin < 16 && !small; spin++)
			__builtin_ia32_pause();
		for (uint32_t i = 0; i < 16; i++)
			part.word(i) = ~part.word(i);
	}
	if (call < 0) {
		host_error(r, "an empty page was published", 0);
		return;
	}
	__atomic_fetch_add(&r->served[call], 1, __ATOMIC_RELAXED);
	__atomic_fetch_or(&r->lanes[call], lanes, __ATOMIC_RELAXED);
}

static int run(int test, enum mix m, uint32_t nslots, uint32_t nwarps, int warps_per_block,
	       int servers, uint32_t per_warp, int *failed)
{
	struct gpu_channel ch;
	struct host_record rec = {};
	unsigned long long *errors, *dead, dev_errors = 0, dev_dead = 0;
	uint32_t *progress, *dev_progress;
	unsigned long wrong = 0, calls = 0;
	double t0;
	bool done;

	gpu_channel_open(&ch, nslots);
	rec.mix = m;
	rec.nwarps = nwarps;
	rec.calls = per_warp;
	rec.served = (unsigned *)calloc((size_t)nwarps * per_warp, sizeof(unsigned));
	rec.lanes = (unsigned *)calloc((size_t)nwarps * per_warp, sizeof(unsigned));
	CUDA_OK(cudaMalloc(&errors, sizeof(*errors)));
	CUDA_OK(cudaMalloc(&dead, sizeof(*dead)));
	CUDA_OK(cudaMemset(errors, 0, sizeof(*errors)));
	CUDA_OK(cudaMemset(dead, 0, sizeof(*dead)));
	CUDA_OK(cudaHostAlloc(&progress, nwarps * sizeof(*progress), cudaHostAllocMapped));
	memset(progress, 0, nwarps * sizeof(*progress));
	CUDA_OK(cudaHostGetDevicePointer((void **)&dev_progress, progress, 0));
	gpu_servers_start(&ch, servers, host_operate, &rec);
	t0 = gpu_now();
	if (m == MIX_SMALL)
		small_calls_kernel<<<nwarps / warps_per_block, warps_per_block * 32>>>(
			ch.client, per_warp, errors, dev_progress);
	else
		calls_kernel<<<nwarps / warps_per_block, warps_per_block * 32>>>(
			ch.client, m, per_warp, errors, dead, dev_progress);
	CUDA_OK(cudaGetLastError());
	done = gpu_wait(30);
	if (!done) {
		unsigned long n = 0;
		uint32_t behind = 0, least = per_warp;

		for (uint32_t i = 0; i < nwarps * per_warp; i++)
			n += __atomic_load_n(&rec.served[i], __ATOMIC_RELAXED);
		for (uint32_t w = 0; w < nwarps; w++) {
			uint32_t k = ((volatile uint32_t *)progress)[w];

			if (lanes_of(w, m) && k < per_warp) {
				behind++;
				least = k < least ? k : least;
			}
		}
		printf("not ok %d %u warps, %u slots, %d server%s: the calls did not finish in 30 s "
		       "(%lu served; %u warp%s unfinished, one at call %u of %u)\n", test, nwarps,
		       nslots, servers, servers > 1 ? "s" : "", n, behind, behind > 1 ? "s" : "",
		       least, per_warp);
		fflush(stdout);
		_exit(1);	/* a hung kernel: nothing left to check */
	}
	/* The last async calls are answered but never collected: serve them out. */
	for (int spin = 0; spin < 100000 && zex_hostrpc_serve(ch.host, host_operate, &rec) > 0; spin++)
		;
	gpu_servers_stop(&ch);
	CUDA_OK(cudaMemcpy(&dev_errors, errors, sizeof(dev_errors), cudaMemcpyDeviceToHost));
	CUDA_OK(cudaMemcpy(&dev_dead, dead, sizeof(dev_dead), cudaMemcpyDeviceToHost));
	for (uint32_t w = 0; w < nwarps; w++)
		for (uint32_t k = 0; k < per_warp; k++) {
			uint32_t idx = w * per_warp + k;
			unsigned want = lanes_of(w, m) ? 1 : 0;

			calls += want;
			if (rec.served[idx] != want || (want && rec.lanes[idx] != lanes_of(w, m)))
				wrong++;
		}
	bool ok = !wrong && !rec.errors && !dev_errors && !dev_dead;
	printf("%s %d %u warps (%u per block) on %u slots, %d server thread%s: %lu calls each "
	       "served exactly once with its lanes' parts, every answer checked (%.2f s)\n",
	       ok ? "ok" : "not ok", test, nwarps, (unsigned)warps_per_block, nslots, servers,
	       servers > 1 ? "s" : "", calls, gpu_now() - t0);
	if (!ok)
		printf("# calls served wrongly: %lu; host errors: %lu%s%s; answer words wrong: %llu;"
		       " dead: %llu\n", wrong, rec.errors, rec.errors ? ", first: " : "",
		       rec.first_error, dev_errors, dev_dead);
	*failed |= !ok;
	CUDA_OK(cudaFree(errors));
	CUDA_OK(cudaFree(dead));
	CUDA_OK(cudaFreeHost(progress));
	free(rec.served);
	free(rec.lanes);
	gpu_channel_close(&ch);
	return 0;
}

int main(void)
{
	static const int servers[] = { 1, 2, 4, 8 };
	cudaDeviceProp prop;
	int sms, resident, per_block, failed = 0, test = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	gpu_require("1..0");
	CUDA_OK(cudaGetDeviceProperties(&prop, 0));
	resident = gpu_resident_warps(calls_kernel, 32 * 8, &sms);
	/* One block per SM, as many warps as the slots allow. */
	per_block = HOSTRPC_MAX_SLOTS / sms;
	if (per_block > BLOCK_WARPS_MAX)
		per_block = BLOCK_WARPS_MAX;
	printf("TAP version 13\n1..%zu\n", sizeof(servers) / sizeof(servers[0]) + 4);
	printf("# %s, %d SMs; this kernel: %d resident warps (%d per SM), so a channel "
	       "every resident warp may call at once needs %d slots; %d slots: %d warps of "
	       "%d per SM\n", prop.name, sms, resident, resident / sms, resident,
	       HOSTRPC_MAX_SLOTS, per_block * sms, per_block);
	/*
	 * One warp alone first: no other warp's flag comes to the rescue of
	 * one the host took before its request arrived (the GPU stores the
	 * flag with no fence after the request, and on the H100 it does
	 * arrive first at times): only the servers' full passes find those.
	 * Then one warp per SM; then one warp per SM on a channel of
	 * SHARED_SLOTS slots, so that slots change hands between warps all
	 * the time; then small calls only from 16 warps per SM, more than
	 * the slots (a warp that frees its slot before every lane is done
	 * polling loses their answers to the next owner: the H100 hangs such
	 * calls within a second); then the full grid with each number of
	 * servers.
	 */
	run(++test, MIX_VARIED, HOSTRPC_MAX_SLOTS, 1, 1, 1, LONE_CALLS, &failed);
	run(++test, MIX_VARIED, HOSTRPC_MAX_SLOTS, (uint32_t)sms, 1, 1, CALLS, &failed);
	run(++test, MIX_VARIED, SHARED_SLOTS, (uint32_t)sms, 1, 2, SHARED_CALLS, &failed);
	run(++test, MIX_SMALL, HOSTRPC_MAX_SLOTS, (uint32_t)(16 * sms), 8, 1, SMALL_CALLS, &failed);
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		run(++test, MIX_VARIED, HOSTRPC_MAX_SLOTS, (uint32_t)(per_block * sms), per_block,
		    servers[i], CALLS, &failed);
	return failed;
}
