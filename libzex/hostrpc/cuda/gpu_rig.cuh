/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: gpu_rig.cuh - a hostrpc channel between this GPU and libzex's servers
 *
 * Shared by the GPU check and the GPU benchmark. The region (control page,
 * the host's private words, the slot pages) is pinned host memory the GPU
 * maps (cudaHostAlloc, mapped); libzex serves it as a view of the
 * caller's memory (zex_hostrpc_attach_memory()) from 1 to 8 polling
 * threads; the GPU's client points at the same words through their device
 * addresses, with W and the mirrors in GPU memory. Also: the kselftest
 * skip code when there is no GPU, and a bounded wait for a kernel.
 */

#ifndef GPU_RIG_CUH
#define GPU_RIG_CUH

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "zex/zex_hostrpc.h"
#include "hostrpc_warp.cuh"

#define KSFT_SKIP 4
#define GPU_MAX_SERVERS 8

#define CUDA_OK(call)								\
	do {									\
		cudaError_t err_ = (call);					\
		if (err_ != cudaSuccess) {					\
			printf("# %s:%d: %s: %s\n", __FILE__, __LINE__, #call,	\
			       cudaGetErrorString(err_));			\
			exit(1);						\
		}								\
	} while (0)

/* No usable GPU: a skip, as kselftests say it. */
static void gpu_require(const char *plan_if_skipped)
{
	int n = 0, map = 0;

	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		printf("%s # SKIP no CUDA GPU\n", plan_if_skipped);
		exit(KSFT_SKIP);
	}
	CUDA_OK(cudaDeviceGetAttribute(&map, cudaDevAttrCanMapHostMemory, 0));
	if (!map) {
		printf("%s # SKIP the GPU cannot map host memory\n", plan_if_skipped);
		exit(KSFT_SKIP);
	}
}

typedef void (*gpu_page_fn)(struct zex_hostrpc_page *page, void *ctx);

struct gpu_channel {
	void *region;			/* host address */
	struct zex_hostrpc *host;	/* libzex's host view */
	struct hostrpc_client client;	/* the GPU's view (device addresses) */
	uint32_t nslots;
	/* the servers */
	pthread_t servers[GPU_MAX_SERVERS];
	int nservers;
	volatile int stop;
	gpu_page_fn operate;
	void *ctx;
};

static void *gpu_server_main(void *arg)
{
	struct gpu_channel *ch = (struct gpu_channel *)arg;

	while (!ch->stop)
		if (zex_hostrpc_serve(ch->host, ch->operate, ch->ctx) <= 0)
			__builtin_ia32_pause();
	return NULL;
}

static char *gpu_dev_addr(char *dev_base, void *region, void *host_addr)
{
	return dev_base + ((char *)host_addr - (char *)region);
}

static void gpu_channel_open(struct gpu_channel *ch, uint32_t nslots)
{
	uint64_t size = ZEX_HOSTRPC_REGION_SIZE(nslots);
	struct zex_hostrpc_layout l;
	char *dev;
	hr_own_t *W, *M;
	int ret;

	memset(ch, 0, sizeof(*ch));
	ch->nslots = nslots;
	CUDA_OK(cudaHostAlloc(&ch->region, size, cudaHostAllocMapped | cudaHostAllocPortable));
	ret = zex_hostrpc_attach_memory(ch->region, size, nslots, &ch->host);
	if (ret) {
		printf("# zex_hostrpc_attach_memory: %d\n", ret);
		exit(1);
	}
	zex_hostrpc_layout(ch->host, &l);
	CUDA_OK(cudaHostGetDevicePointer((void **)&dev, ch->region, 0));
	CUDA_OK(cudaMalloc(&W, nslots * sizeof(*W)));
	CUDA_OK(cudaMalloc(&M, nslots * sizeof(*M)));
	CUDA_OK(cudaMemset(W, 0, nslots * sizeof(*W)));
	CUDA_OK(cudaMemset(M, 0, nslots * sizeof(*M)));
	ch->client.sh.request = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.request);
	ch->client.sh.answer = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.answer);
	ch->client.sh.summary = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.summary);
	ch->client.sh.host_armed = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.host_armed);
	ch->client.sh.device_armed = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.device_armed);
	ch->client.sh.dead = (hr_u32_t *)gpu_dev_addr(dev, ch->region, l.dead);
	ch->client.sh.pages = (hostrpc_page_t *)gpu_dev_addr(dev, ch->region, l.pages);
	ch->client.sh.nslots = nslots;
	ch->client.W = W;
	ch->client.M = M;
}

static void gpu_servers_start(struct gpu_channel *ch, int n, gpu_page_fn operate, void *ctx)
{
	ch->operate = operate;
	ch->ctx = ctx;
	ch->stop = 0;
	ch->nservers = n;
	for (int i = 0; i < n; i++)
		if (pthread_create(&ch->servers[i], NULL, gpu_server_main, ch)) {
			printf("# pthread_create failed\n");
			exit(1);
		}
}

static void gpu_servers_stop(struct gpu_channel *ch)
{
	ch->stop = 1;
	for (int i = 0; i < ch->nservers; i++)
		pthread_join(ch->servers[i], NULL);
	ch->nservers = 0;
}

static void gpu_channel_close(struct gpu_channel *ch)
{
	zex_hostrpc_close(ch->host);
	CUDA_OK(cudaFree(ch->client.W));
	CUDA_OK(cudaFree(ch->client.M));
	CUDA_OK(cudaFreeHost(ch->region));
}

static double gpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Wait for the default stream; false after @seconds (a hung protocol). */
static bool gpu_wait(double seconds)
{
	double end = gpu_now() + seconds;
	cudaError_t err;

	while ((err = cudaStreamQuery(0)) == cudaErrorNotReady) {
		if (gpu_now() > end)
			return false;
		sched_yield();
	}
	CUDA_OK(err);
	return true;
}

/* The resident warps of @kernel at @block threads per block, on all SMs. */
template <typename K>
static int gpu_resident_warps(K kernel, int block, int *sms)
{
	int per_sm = 0;

	CUDA_OK(cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, 0));
	CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
	return per_sm * (block / 32) * *sms;
}

#endif /* GPU_RIG_CUH */
