// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: hostrpc_gpu_bench.cu - hostrpc between this GPU and host threads, beside its floors
 *
 * One run, one table. Floors, measured here: a bare flag ping-pong over
 * the same pinned memory (one GPU lane stores a flag and fences, one host
 * thread spins and echoes it), round trip median and p99; the same
 * ping-pong from many warps at once (each warp its own pair of flags, a
 * cache line apart; host threads split them), round trips/s; the copy
 * engine's H2D and D2H bandwidth (cudaMemcpy of 256 MiB, pinned); the
 * message ping-pong (with and without the read-back) and the tagged one
 * (below). hostrpc: one warp's synchronous call, a page call carrying 8
 * bytes per lane and a small call (tagged words, 8 bytes per lane), round
 * trip median and p99; calls/s for 1, 132, 528, 2112 and all resident
 * warps with 1, 2, 4 and 8 host threads, with 8 bytes per lane each way
 * in a page call and in a small call, and a full page (each lane 128
 * bytes each way: 4 KiB).
 * Prints "bench ..." lines and a table.
 */

#include <algorithm>
#include <vector>

#include "gpu_rig.cuh"

#define LAT_CALLS	20000

static __device__ uint64_t gpu_ns(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

/* Warps per block: exactly @warps warps in all (8, 4 or 1 per block). */
static uint32_t block_warps(uint32_t warps)
{
	return warps % 8 == 0 ? 8 : warps % 4 == 0 ? 4 : 1;
}

/* Wait for the kernel just launched, or give up: a hung protocol. */
static void finish_or_exit(double seconds, const char *what)
{
	CUDA_OK(cudaGetLastError());
	if (!gpu_wait(seconds)) {
		printf("# %s did not finish in %.0f s\n", what, seconds);
		_exit(1);
	}
}

/* The @n per-call latencies (ns) the kernel wrote at @dlat, which is freed. */
static void fetch_latencies(uint64_t *dlat, uint32_t n, std::vector<uint64_t> *lat)
{
	lat->resize(n);
	CUDA_OK(cudaMemcpy(lat->data(), dlat, n * sizeof(uint64_t), cudaMemcpyDeviceToHost));
	CUDA_OK(cudaFree(dlat));
}

/* ---- floors: the flag ping-pong ---- */

struct flag_pair {
	volatile uint64_t ping;		/* GPU writes */
	uint64_t pad0[7];
	volatile uint64_t pong;		/* host writes */
	uint64_t pad1[7];
};

__global__ void pingpong_kernel(struct flag_pair *pairs, uint32_t rounds, uint64_t *lat)
{
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	struct flag_pair *p = &pairs[warp];

	if (threadIdx.x % 32)
		return;
	for (uint32_t i = 1; i <= rounds; i++) {
		uint64_t t0 = gpu_ns();

		p->ping = i;
		__threadfence_system();
		while (p->pong != i)
			;
		if (lat)
			lat[i - 1] = gpu_ns() - t0;
	}
}

struct echo_ctx {
	struct flag_pair *pairs;
	uint32_t first, count;
	volatile int *stop;
};

static void *echo_main(void *arg)
{
	struct echo_ctx *e = (struct echo_ctx *)arg;

	while (!*e->stop)
		for (uint32_t j = e->first; j < e->first + e->count; j++) {
			uint64_t v = e->pairs[j].ping;

			if (v != e->pairs[j].pong)
				e->pairs[j].pong = v;
		}
	return NULL;
}

/* Round trips/s (and the latencies when @lat) of @warps warps, @threads host threads. */
static double pingpong(uint32_t warps, int threads, uint32_t rounds, std::vector<uint64_t> *lat)
{
	struct flag_pair *pairs, *dpairs;
	uint64_t *dlat = NULL;
	pthread_t tid[GPU_MAX_SERVERS];
	struct echo_ctx ctx[GPU_MAX_SERVERS];
	volatile int stop = 0;
	double t0, t;

	CUDA_OK(cudaHostAlloc(&pairs, warps * sizeof(*pairs), cudaHostAllocMapped));
	memset(pairs, 0, warps * sizeof(*pairs));
	CUDA_OK(cudaHostGetDevicePointer((void **)&dpairs, pairs, 0));
	if (lat)
		CUDA_OK(cudaMalloc(&dlat, rounds * sizeof(uint64_t)));
	for (int i = 0; i < threads; i++) {
		ctx[i] = { pairs, warps * i / threads, warps * (i + 1) / threads - warps * i / threads,
			   &stop };
		pthread_create(&tid[i], NULL, echo_main, &ctx[i]);
	}
	t0 = gpu_now();
	pingpong_kernel<<<warps / block_warps(warps), 32 * block_warps(warps)>>>(dpairs, rounds,
									       dlat);
	finish_or_exit(120, "the ping-pong");
	t = gpu_now() - t0;
	stop = 1;
	for (int i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	if (lat)
		fetch_latencies(dlat, rounds, lat);
	CUDA_OK(cudaFreeHost(pairs));
	return (double)warps * rounds / t;
}

/*
 * ---- floor: the message ping-pong ----
 *
 * What a small call moves, without the protocol: the 32 lanes of one warp
 * write 8 bytes each (256 contiguous bytes), lane 0 fences and raises the
 * flag, a host thread complements the message and answers the flag, lane
 * 0 sees it and every lane reads its 8 bytes back. A one-warp call's like-
 * for-like floor: the flag ping-pong does not move the message. With
 * @read_back false the lanes do not read the answer: what that read costs.
 */
struct message {
	volatile uint64_t word[32];
	struct flag_pair flags;
};

__global__ void message_kernel(struct message *m, uint32_t rounds, bool read_back,
			       uint64_t *lat)
{
	const uint32_t lane = threadIdx.x % 32;
	uint64_t sink = 0;

	for (uint32_t i = 1; i <= rounds; i++) {
		uint64_t t0 = gpu_ns();

		m->word[lane] = i + lane;
		__syncwarp();
		if (lane == 0) {
			__threadfence_system();
			m->flags.ping = i;
			while (m->flags.pong != i)
				;
		}
		__syncwarp();
		if (read_back)
			sink += m->word[lane];
		__syncwarp();
		if (lat && lane == 0)
			lat[i - 1] = gpu_ns() - t0;
	}
	if (sink == 1)
		m->word[lane] = sink;	/* keep the reads */
}

static void *message_echo_main(void *arg)
{
	struct echo_ctx *e = (struct echo_ctx *)arg;
	struct message *m = (struct message *)e->pairs;

	while (!*e->stop) {
		uint64_t v = m->flags.ping;

		if (v == m->flags.pong)
			continue;
		for (int i = 0; i < 32; i++)
			m->word[i] = ~m->word[i];
		__atomic_thread_fence(__ATOMIC_RELEASE);
		m->flags.pong = v;
	}
	return NULL;
}

/*
 * One warp's floor: @size bytes of mapped memory, zeroed; a host thread
 * running @echo over them; @launch(device address, latencies) starts the
 * warp. The latencies of its @rounds round trips.
 */
template <typename Launch>
static void one_warp_floor(size_t size, void *(*echo)(void *), Launch launch, const char *what,
			   uint32_t rounds, std::vector<uint64_t> *lat)
{
	void *m, *dm;
	uint64_t *dlat;
	pthread_t tid;
	struct echo_ctx ctx;
	volatile int stop = 0;

	CUDA_OK(cudaHostAlloc(&m, size, cudaHostAllocMapped));
	memset(m, 0, size);
	CUDA_OK(cudaHostGetDevicePointer(&dm, m, 0));
	CUDA_OK(cudaMalloc(&dlat, rounds * sizeof(uint64_t)));
	ctx = { (struct flag_pair *)m, 0, 1, &stop };
	pthread_create(&tid, NULL, echo, &ctx);
	launch(dm, dlat);
	finish_or_exit(120, what);
	stop = 1;
	pthread_join(tid, NULL);
	fetch_latencies(dlat, rounds, lat);
	CUDA_OK(cudaFreeHost(m));
}

/* The latencies of @rounds message round trips of one warp. */
static void message_pingpong(uint32_t rounds, bool read_back, std::vector<uint64_t> *lat)
{
	one_warp_floor(sizeof(struct message), message_echo_main,
		       [&](void *dm, uint64_t *dlat) {
			       message_kernel<<<1, 32>>>((struct message *)dm, rounds, read_back, dlat);
		       }, "the message ping-pong", rounds, lat);
}

/*
 * ---- floor: the tagged message ping-pong ----
 *
 * The same 32 lanes' exchange with self-validating words instead of a
 * fence and a flag (NCCL's LL protocol across PCIe): each lane stores one
 * 8-byte word, 4 bytes of data beside the round's tag, with no fence; the
 * host waits until all 32 words carry the tag, answers each with the
 * complemented data and the tag in a second row of words, and each lane
 * polls its own answer word until the tag is there. No ordered store, no
 * read after the poll: what a call would cost whose words validate
 * themselves (4 bytes per lane each way here, where a small call carries 8).
 */
struct tagged {
	volatile uint64_t req[32];
	volatile uint64_t ans[32];
};

static __host__ __device__ uint64_t tagged_word(uint32_t data, uint32_t tag)
{
	return (uint64_t)data << 32 | tag;
}

__global__ void tagged_kernel(struct tagged *m, uint32_t rounds, uint64_t *lat)
{
	const uint32_t lane = threadIdx.x % 32;
	uint64_t sink = 0;

	for (uint32_t i = 1; i <= rounds; i++) {
		uint64_t t0 = gpu_ns(), w;

		m->req[lane] = tagged_word(i + lane, i);
		do
			w = m->ans[lane];
		while ((uint32_t)w != i);
		sink += w >> 32;
		__syncwarp();
		if (lat && lane == 0)
			lat[i - 1] = gpu_ns() - t0;
	}
	if (sink == 1)
		m->req[lane] = sink;	/* keep the reads */
}

static void *tagged_echo_main(void *arg)
{
	struct echo_ctx *e = (struct echo_ctx *)arg;
	struct tagged *m = (struct tagged *)e->pairs;
	uint32_t tag = 1;

	while (!*e->stop) {
		int lane;

		for (lane = 0; lane < 32; lane++)
			if ((uint32_t)m->req[lane] != tag)
				break;
		if (lane < 32)
			continue;
		for (lane = 0; lane < 32; lane++)
			m->ans[lane] = tagged_word(~(uint32_t)(m->req[lane] >> 32), tag);
		tag++;
	}
	return NULL;
}

/* The latencies of @rounds tagged round trips of one warp. */
static void tagged_pingpong(uint32_t rounds, std::vector<uint64_t> *lat)
{
	one_warp_floor(sizeof(struct tagged), tagged_echo_main,
		       [&](void *dm, uint64_t *dlat) {
			       tagged_kernel<<<1, 32>>>((struct tagged *)dm, rounds, dlat);
		       }, "the tagged ping-pong", rounds, lat);
}

/* ---- hostrpc ---- */

struct fill_8b {
	uint64_t v;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const { p->word(0) = v; }
};

struct use_8b {
	uint64_t *sink;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const
	{
		*sink += p->word(0);
	}
};

struct fill_full {
	uint64_t v;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const
	{
		for (int i = 0; i < 16; i++)
			p->word(i) = v + i;
	}
};

struct use_full {
	uint64_t *sink;
	__device__ void operator()(struct hostrpc_lane_part *p, uint32_t) const
	{
		uint64_t s = 0;

		for (int i = 0; i < 16; i++)
			s += p->word(i);
		*sink += s;
	}
};

/* What a call of calls_kernel() moves. */
enum call_kind { CALL_PAGE_8B, CALL_PAGE, CALL_SMALL };

__global__ void calls_kernel(struct hostrpc_client base, uint32_t calls, enum call_kind kind,
			     uint64_t *lat, uint64_t *out)
{
	const uint32_t warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	const uint32_t lane = hostrpc_lane_id();
	struct hostrpc_client c = base;
	uint64_t sink = 0;

	c.id = warp + 1;
	for (uint32_t k = 0; k < calls; k++) {
		uint64_t t0 = gpu_ns(), v = 0;
		uint32_t hint = warp;

		if (kind == CALL_SMALL) {
			hostrpc_warp_invoke_small(&c, HOSTRPC_WARP_ALL, hint, k + lane, &v);
			sink += v;
		} else if (kind == CALL_PAGE) {
			hostrpc_warp_invoke(&c, HOSTRPC_WARP_ALL, hint, fill_full{ k + lane },
					    use_full{ &sink });
		} else {
			hostrpc_warp_invoke(&c, HOSTRPC_WARP_ALL, hint, fill_8b{ k + lane },
					    use_8b{ &sink });
		}
		if (lat && lane == 0)
			lat[k] = gpu_ns() - t0;
	}
	if (sink == 42)
		out[0] = sink;	/* keeps the uses */
}

/* Where one warp's call spends its time: begin, publish, wait, end (ns summed). */
__global__ void steps_kernel(struct hostrpc_client c, uint32_t calls, uint64_t *ns)
{
	uint64_t t[5] = {};

	c.id = 1;
	for (uint32_t k = 0; k < calls; k++) {
		uint32_t slot;
		uint64_t a = gpu_ns(), b, d, e, f;

		hostrpc_client_begin(&c, k % 2, &slot);
		b = gpu_ns();
		c.sh.pages[slot].cacheline[0].element[0] = k;
		hostrpc_client_publish(&c, slot);
		d = gpu_ns();
		hostrpc_client_wait_answer(&c, slot);
		e = gpu_ns();
		hostrpc_client_end(&c, slot);
		f = gpu_ns();
		t[0] += b - a;
		t[1] += d - b;
		t[2] += e - d;
		t[3] += f - e;
		t[4] += f - a;
	}
	for (int i = 0; i < 5; i++)
		ns[i] = t[i];
}

static void operate_8b(struct zex_hostrpc_page *page, void *)
{
	for (int lane = 0; lane < 32; lane++) {
		volatile uint64_t &w = hostrpc_lane_part_of(page, lane).word(0);

		w = ~w;
	}
}

static void operate_full(struct zex_hostrpc_page *page, void *)
{
	uint64_t *w = (uint64_t *)page;

	for (int i = 0; i < 512; i++)
		w[i] = ~w[i];
}

static double hostrpc_calls(struct gpu_channel *ch, uint32_t warps, int threads,
			    enum call_kind kind, uint32_t calls, std::vector<uint64_t> *lat)
{
	uint64_t *dlat = NULL, *out;
	double t0, t;

	if (lat)
		CUDA_OK(cudaMalloc(&dlat, calls * sizeof(uint64_t)));
	CUDA_OK(cudaMalloc(&out, sizeof(uint64_t)));
	gpu_servers_start(ch, threads, kind == CALL_PAGE ? operate_full : operate_8b, NULL);
	t0 = gpu_now();
	calls_kernel<<<warps / block_warps(warps), 32 * block_warps(warps)>>>(ch->client, calls,
									     kind, dlat, out);
	finish_or_exit(300, kind == CALL_SMALL ? "the small hostrpc calls" :
			    kind == CALL_PAGE ? "the page hostrpc calls" :
			    "the 8-byte page hostrpc calls");
	t = gpu_now() - t0;
	gpu_servers_stop(ch);
	if (lat)
		fetch_latencies(dlat, calls, lat);
	CUDA_OK(cudaFree(out));
	return (double)warps * calls / t;
}

static double pct(std::vector<uint64_t> v, double p)
{
	std::sort(v.begin(), v.end());
	return v[(size_t)(p * (v.size() - 1))] / 1000.0;
}

/* Round trips per latency bucket (upper bounds in µs; the last is open). */
static void histogram(const char *name, const std::vector<uint64_t> &v)
{
	static const double upper[] = { 2, 3, 4, 5, 6, 8, 10, 15, 20, 50 };
	const int n = sizeof(upper) / sizeof(upper[0]);
	std::vector<size_t> count(n + 1, 0);

	for (uint64_t ns : v) {
		int b = 0;

		while (b < n && ns / 1000.0 >= upper[b])
			b++;
		count[b]++;
	}
	printf("bench hist %s", name);
	for (int b = 0; b <= n; b++) {
		if (b < n)
			printf(" lt%gus=%zu", upper[b], count[b]);
		else
			printf(" ge%gus=%zu", upper[n - 1], count[b]);
	}
	printf("\n");
}

static double copy_gbs(cudaMemcpyKind kind)
{
	const size_t size = 256ull << 20;
	void *host, *dev;
	cudaEvent_t a, b;
	float ms = 0;

	CUDA_OK(cudaHostAlloc(&host, size, 0));
	CUDA_OK(cudaMalloc(&dev, size));
	CUDA_OK(cudaEventCreate(&a));
	CUDA_OK(cudaEventCreate(&b));
	for (int i = 0; i < 2; i++) {	/* the first warms up */
		CUDA_OK(cudaEventRecord(a));
		if (kind == cudaMemcpyHostToDevice)
			CUDA_OK(cudaMemcpy(dev, host, size, kind));
		else
			CUDA_OK(cudaMemcpy(host, dev, size, kind));
		CUDA_OK(cudaEventRecord(b));
		CUDA_OK(cudaEventSynchronize(b));
	}
	CUDA_OK(cudaEventElapsedTime(&ms, a, b));
	CUDA_OK(cudaFreeHost(host));
	CUDA_OK(cudaFree(dev));
	return size / (ms * 1e-3) / 1e9;
}

/* Calls per warp: 5 * 10^5 calls in all, at least 32 and at most 20000 per warp. */
static uint32_t calls_for(uint32_t warps)
{
	return std::max<uint32_t>(32, std::min<uint32_t>(20000, 500000 / warps));
}

int main(void)
{
	static const int threads[] = { 1, 2, 4, 8 };
	std::vector<uint32_t> warps = { 1, 132, 528, 2112 };
	std::vector<uint64_t> lat;
	struct gpu_channel ch;
	cudaDeviceProp prop;
	int sms, resident;
	double h2d, d2h;

	setvbuf(stdout, NULL, _IOLBF, 0);
	gpu_require("# bench");
	CUDA_OK(cudaGetDeviceProperties(&prop, 0));
	resident = gpu_resident_warps(calls_kernel, 32 * block_warps(8), &sms);
	warps.push_back((uint32_t)resident);
	printf("# %s, %d SMs, %d resident warps of the hostrpc kernel, %u slots\n", prop.name, sms,
	       resident, HOSTRPC_MAX_SLOTS);

	h2d = copy_gbs(cudaMemcpyHostToDevice);
	d2h = copy_gbs(cudaMemcpyDeviceToHost);
	printf("bench floor copy h2d_GBps=%.1f d2h_GBps=%.1f\n", h2d, d2h);

	pingpong(1, 1, LAT_CALLS, &lat);
	printf("bench floor pingpong_1warp median_us=%.2f p99_us=%.2f\n", pct(lat, 0.5),
	       pct(lat, 0.99));
	histogram("pingpong_1warp", lat);
	double floor_median = pct(lat, 0.5);

	message_pingpong(LAT_CALLS, true, &lat);
	printf("bench floor message_pingpong_1warp median_us=%.2f p99_us=%.2f\n", pct(lat, 0.5),
	       pct(lat, 0.99));
	histogram("message_pingpong_1warp", lat);
	double message_median = pct(lat, 0.5);

	message_pingpong(LAT_CALLS, false, &lat);
	printf("bench floor message_pingpong_1warp_no_read_back median_us=%.2f p99_us=%.2f\n",
	       pct(lat, 0.5), pct(lat, 0.99));

	tagged_pingpong(LAT_CALLS, &lat);
	printf("bench floor tagged_pingpong_1warp median_us=%.2f p99_us=%.2f\n", pct(lat, 0.5),
	       pct(lat, 0.99));
	histogram("tagged_pingpong_1warp", lat);
	double tagged_median = pct(lat, 0.5);

	gpu_channel_open(&ch, HOSTRPC_MAX_SLOTS);
	hostrpc_calls(&ch, 1, 1, CALL_PAGE_8B, LAT_CALLS, &lat);
	printf("bench hostrpc roundtrip_page_8B_1warp median_us=%.2f p99_us=%.2f "
	       "ratio_to_floor=%.2f ratio_to_message_floor=%.2f\n", pct(lat, 0.5), pct(lat, 0.99),
	       pct(lat, 0.5) / floor_median, pct(lat, 0.5) / message_median);
	histogram("hostrpc_page_8B_1warp", lat);

	hostrpc_calls(&ch, 1, 1, CALL_SMALL, LAT_CALLS, &lat);
	printf("bench hostrpc roundtrip_small_1warp median_us=%.2f p99_us=%.2f ratio_to_floor=%.2f "
	       "ratio_to_tagged_floor=%.2f\n", pct(lat, 0.5), pct(lat, 0.99),
	       pct(lat, 0.5) / floor_median, pct(lat, 0.5) / tagged_median);
	histogram("hostrpc_small_1warp", lat);

	{
		uint64_t *dns, ns[5];
		const uint32_t calls = 20000;

		CUDA_OK(cudaMalloc(&dns, sizeof(ns)));
		gpu_servers_start(&ch, 1, operate_8b, NULL);
		steps_kernel<<<1, 1>>>(ch.client, calls, dns);
		finish_or_exit(60, "the steps");
		gpu_servers_stop(&ch);
		CUDA_OK(cudaMemcpy(ns, dns, sizeof(ns), cudaMemcpyDeviceToHost));
		CUDA_OK(cudaFree(dns));
		printf("bench hostrpc steps_1lane_2slots_us begin=%.2f publish=%.2f wait=%.2f end=%.2f "
		       "total=%.2f\n", ns[0] / 1e3 / calls, ns[1] / 1e3 / calls, ns[2] / 1e3 / calls,
		       ns[3] / 1e3 / calls, ns[4] / 1e3 / calls);
	}

	printf("\n%-8s %-7s %14s %14s %14s %14s %12s\n", "warps", "threads", "pingpong/s",
	       "8B page calls/s", "small calls/s", "page calls/s", "page GB/s");
	for (uint32_t w : warps)
		for (int t : threads) {
			uint32_t n = calls_for(w);
			double pp = pingpong(w, t, n, NULL);
			double page_8b = hostrpc_calls(&ch, w, t, CALL_PAGE_8B, n, NULL);
			double small = hostrpc_calls(&ch, w, t, CALL_SMALL, n, NULL);
			double page = hostrpc_calls(&ch, w, t, CALL_PAGE, n, NULL);

			printf("%-8u %-7d %14.3e %14.3e %14.3e %14.3e %12.2f\n", w, t, pp, page_8b,
			       small, page, page * 4096 / 1e9);
			printf("bench row warps=%u threads=%d pingpong_per_s=%.0f "
			       "page_8B_calls_per_s=%.0f small_calls_per_s=%.0f page_calls_per_s=%.0f "
			       "page_GBps_each_way=%.2f\n", w, t, pp, page_8b, small, page,
			       page * 4096 / 1e9);
			fflush(stdout);
		}
	gpu_channel_close(&ch);
	return 0;
}
