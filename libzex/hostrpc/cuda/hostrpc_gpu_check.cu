// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_gpu_check.cu - hostrpc's device half on a real GPU, every call verified
 *
 * One warp alone (20 000 calls), then a grid with one block on every SM
 * and as many warps as the channel has slots allows (so that no two warps
 * share an own slot: the protocol's progress argument) make calls to
 * libzex's polling servers, 1, 2, 4 and 8 of them. Warps differ by their
 * number modulo 8: 0-3 call with all 32 lanes, every fourth call
 * asynchronous; 4 with the odd lanes only; 5 with lane 31 only; 6 with
 * lanes 0-15, synchronous only; 7 never call; warps 1, 4 and 5 make two
 * calls in three small ones (tagged words, no page). Every
 * lane's part of a request carries its warp, call, lane and a checksum;
 * the host checks each request and answers it with the complement, the
 * GPU checks every answer word. Afterwards every call must have been
 * served exactly once, with exactly its active lanes' parts. TAP output;
 * exit 4 (skip) without a GPU.
 */

#include "gpu_rig.cuh"

#define CALLS		48		/* per warp */
#define LONE_CALLS	20000		/* the lone warp's */
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

/* Which lanes of warp @w call, and whether it calls at all. */
static __host__ __device__ uint32_t lanes_of(uint32_t w)
{
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
static __host__ __device__ bool is_small(uint32_t w, uint32_t k)
{
	return (w % 8 == 1 || w % 8 == 4 || w % 8 == 5) && k % 3 != 0;
}

static __host__ __device__ bool is_async(uint32_t w, uint32_t k)
{
	return w % 8 < 4 && k % 4 == 3 && !is_small(w, k);
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

__global__ void calls_kernel(struct hostrpc_client base, uint32_t calls,
			     unsigned long long *errors, unsigned long long *dead)
{
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	const uint32_t lane = hostrpc_lane_id();
	struct hostrpc_client c = base;

	c.id = warp + 1;
	if (!(lanes_of(warp) >> lane & 1))
		return;
	for (uint32_t k = 0; k < calls; k++) {
		uint64_t tag = tag_of(warp, k, lane, is_async(warp, k), is_small(warp, k));
		int ret;

		if (is_small(warp, k)) {
			uint64_t out = 0;

			ret = hostrpc_warp_invoke_small(&c, warp, tag, &out);
			if (!ret && out != ~tag)
				atomicAdd(errors, 1ull);
		} else if (is_async(warp, k))
			ret = hostrpc_warp_invoke_async(&c, warp, fill_req{ tag });
		else
			ret = hostrpc_warp_invoke(&c, warp, fill_req{ tag },
						  check_answer{ tag, errors });
		if (ret)
			atomicAdd(dead, 1ull);
	}
}

/* What the host saw: per call, how often it was served and which lanes. */
struct host_record {
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
			calling = lanes_of((uint32_t)tag);
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
		 * An operation takes time: the answer is written over about a
		 * microsecond per page, so that an answer word stored before
		 * it (the planted bug) lets the GPU read a half-written page.
		 */
		for (int spin = 0; spin < 16; spin++)
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

static int run(int test, uint32_t nwarps, int warps_per_block, int servers, uint32_t per_warp,
	       int *failed)
{
	struct gpu_channel ch;
	struct host_record rec = {};
	unsigned long long *errors, *dead, dev_errors = 0, dev_dead = 0;
	unsigned long wrong = 0, calls = 0;
	double t0;
	bool done;

	gpu_channel_open(&ch, HOSTRPC_MAX_SLOTS);
	rec.nwarps = nwarps;
	rec.calls = per_warp;
	rec.served = (unsigned *)calloc((size_t)nwarps * per_warp, sizeof(unsigned));
	rec.lanes = (unsigned *)calloc((size_t)nwarps * per_warp, sizeof(unsigned));
	CUDA_OK(cudaMalloc(&errors, sizeof(*errors)));
	CUDA_OK(cudaMalloc(&dead, sizeof(*dead)));
	CUDA_OK(cudaMemset(errors, 0, sizeof(*errors)));
	CUDA_OK(cudaMemset(dead, 0, sizeof(*dead)));
	gpu_servers_start(&ch, servers, host_operate, &rec);
	t0 = gpu_now();
	calls_kernel<<<nwarps / warps_per_block, warps_per_block * 32>>>(ch.client, per_warp, errors,
									dead);
	CUDA_OK(cudaGetLastError());
	done = gpu_wait(30);
	if (!done) {
		unsigned long n = 0;

		for (uint32_t i = 0; i < nwarps * per_warp; i++)
			n += __atomic_load_n(&rec.served[i], __ATOMIC_RELAXED);
		printf("not ok %d %u warps, %d servers: the calls did not finish in 30 s "
		       "(%lu served)\n", test, nwarps, servers, n);
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
			unsigned want = lanes_of(w) ? 1 : 0;

			calls += want;
			if (rec.served[idx] != want || (want && rec.lanes[idx] != lanes_of(w)))
				wrong++;
		}
	bool ok = !wrong && !rec.errors && !dev_errors && !dev_dead;
	printf("%s %d %u warps (%u per block), %d server thread%s: %lu calls each served "
	       "exactly once with its lanes' parts, every answer checked (%.2f s)\n",
	       ok ? "ok" : "not ok", test, nwarps, (unsigned)warps_per_block, servers,
	       servers > 1 ? "s" : "", calls, gpu_now() - t0);
	if (!ok)
		printf("# calls served wrongly: %lu; host errors: %lu%s%s; answer words wrong: %llu;"
		       " dead: %llu\n", wrong, rec.errors, rec.errors ? ", first: " : "",
		       rec.first_error, dev_errors, dev_dead);
	*failed |= !ok;
	CUDA_OK(cudaFree(errors));
	CUDA_OK(cudaFree(dead));
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
	resident = gpu_resident_warps(calls_kernel, 32 * BLOCK_WARPS_MAX, &sms);
	/* One block per SM, as many warps as the slots allow. */
	per_block = HOSTRPC_MAX_SLOTS / sms;
	if (per_block > BLOCK_WARPS_MAX)
		per_block = BLOCK_WARPS_MAX;
	printf("TAP version 13\n1..%zu\n", sizeof(servers) / sizeof(servers[0]) + 2);
	printf("# %s, %d SMs; this kernel: %d resident warps (%d per SM), so a channel "
	       "every resident warp may call at once needs %d slots; %d slots: %d warps of "
	       "%d per SM\n", prop.name, sms, resident, resident / sms, resident,
	       HOSTRPC_MAX_SLOTS, per_block * sms, per_block);
	/*
	 * One warp alone first: no other warp's flag comes to the rescue of
	 * one the host took before its request arrived (the GPU stores the
	 * flag with no fence after the request, and on the H100 it does
	 * arrive first at times): only the servers' full passes find those.
	 * Then one warp per SM, then the full grid with each number of
	 * servers.
	 */
	run(++test, 1, 1, 1, LONE_CALLS, &failed);
	run(++test, (uint32_t)sms, 1, 1, CALLS, &failed);
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		run(++test, (uint32_t)(per_block * sms), per_block, servers[i], CALLS, &failed);
	return failed;
}
