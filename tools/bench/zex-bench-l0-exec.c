// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-l0-exec.c - Level Zero execution against libzex's core calls, in one run
 *
 * Usage: zex-bench-l0-exec [ITERATIONS]
 *
 * libzex's Level Zero entry points, called directly (no loader), against
 * the same work through libzex's core API (zex_exec.h) on a device handle
 * of the bench's own; each row the median of interleaved rounds:
 * - 64 MiB copies through a synchronous immediate command list on tile 0's
 *   first copy engine, host to device (zeMemAllocHost memory into
 *   zeMemAllocDevice memory of tile 0) and device to device, against one
 *   COPY of the same bytes on a core exec queue of the same engine,
 *   between bound buffer objects, waited for through a timeline sync
 *   object (goal: at most 1.1 x). Not quite like for like: the list's host
 *   source is host pages libzex imported, the floor's source is a buffer
 *   object (both are system memory on this emulated device);
 * - an empty regular command list executed and synchronized on a command
 *   queue of the same engine, against the smallest core job (one STORE
 *   signalling a timeline point, waited for): what a Level Zero round trip
 *   adds to the kernel's (goal: at most 1.2 x);
 * - an event signalled by an asynchronous immediate list and waited for
 *   with zeEventHostSynchronize, against the same core job (no goal).
 * Prints "BENCH l0exec ..." lines that tools/bench/table.py reads.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zex/zex.h"
#include "zex/zex_api.h"
#include "zex/zex_exec.h"
#include "zex_bench.h"

#define SIZE		(64ull << 20)
#define ROUNDS		5
#define SRC_VA		0x200000000000ull
#define DST_VA		0x210000000000ull
#define DST2_VA		0x220000000000ull
#define SCRATCH_VA	0x230000000000ull

static void fail(const char *what, long err)
{
	fprintf(stderr, "zex-bench-l0-exec: %s failed (%ld)\n", what, err);
	exit(1);
}

#define CHECK(call) do { long _r = (long)(call); if (_r) fail(#call, _r); } while (0)

/* The floor: the bench's own device handle, buffer objects, queue and timeline. */
struct core {
	struct zex_device *dev;
	uint32_t queue, syncobj;
	uint64_t point;
};

static void core_bo(struct core *c, uint64_t size, uint32_t tile, uint64_t va)
{
	uint32_t handle, id;
	uint64_t real;

	CHECK(zex_bo_create(c->dev, size, tile, NULL, &handle, &real));
	CHECK(zex_bo_bind(c->dev, handle, va, false, &id));
}

/* One job of one command, signalling the next point, waited for. */
static void core_run(struct core *c, const struct drm_zex_command *cmd)
{
	struct drm_zex_sync s = { .type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ,
				  .flags = DRM_ZEX_SYNC_SIGNAL, .handle = c->syncobj,
				  .timeline_value = ++c->point };

	CHECK(zex_exec(c->dev, c->queue, cmd, 1, &s, 1));
	CHECK(zex_syncobj_wait(c->dev, c->syncobj, c->point, -1));
}

static double core_copy_ms(struct core *c, uint64_t src, uint64_t dst)
{
	struct drm_zex_command cmd = { .op = DRM_ZEX_CMD_COPY, .src = src, .dst = dst,
				       .len = SIZE };
	double t = bench_now_ms();

	core_run(c, &cmd);
	return bench_now_ms() - t;
}

static double core_store_us(struct core *c, long iters)
{
	struct drm_zex_command cmd = { .op = DRM_ZEX_CMD_STORE, .dst = SCRATCH_VA, .value = 1 };
	double t = bench_now_us();
	long i;

	for (i = 0; i < iters; i++)
		core_run(c, &cmd);
	return (bench_now_us() - t) / (double)iters;
}

/* The Level Zero side: tile 0, its copy group's first engine. */
struct l0 {
	ze_context_handle_t ctx;
	ze_device_handle_t tile0;
	ze_command_list_handle_t sync_list, async_list, empty;
	ze_command_queue_handle_t queue;
	ze_event_pool_handle_t pool;
	ze_event_handle_t event;
	void *host, *dev, *dev2;
};

static void l0_open(struct l0 *l)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .ordinal = 1, .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      .commandQueueGroupOrdinal = 1 };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST,
			       .wait = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_driver_handle_t drv;
	ze_device_handle_t root;
	uint32_t n = 1;

	CHECK(zeInit(0));
	CHECK(zeDriverGet(&n, &drv));
	CHECK(zeDeviceGet(drv, &n, &root));
	n = 1;
	CHECK(zeDeviceGetSubDevices(root, &n, &l->tile0));
	CHECK(zeContextCreate(drv, &cd, &l->ctx));
	CHECK(zeCommandListCreateImmediate(l->ctx, l->tile0, &qd, &l->sync_list));
	qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
	CHECK(zeCommandListCreateImmediate(l->ctx, l->tile0, &qd, &l->async_list));
	CHECK(zeCommandQueueCreate(l->ctx, l->tile0, &qd, &l->queue));
	CHECK(zeCommandListCreate(l->ctx, l->tile0, &ld, &l->empty));
	CHECK(zeCommandListClose(l->empty));
	CHECK(zeEventPoolCreate(l->ctx, &pd, 0, NULL, &l->pool));
	CHECK(zeEventCreate(l->pool, &ed, &l->event));
	CHECK(zeMemAllocHost(l->ctx, &hd, SIZE, 4096, &l->host));
	CHECK(zeMemAllocDevice(l->ctx, &dd, SIZE, 4096, l->tile0, &l->dev));
	CHECK(zeMemAllocDevice(l->ctx, &dd, SIZE, 4096, l->tile0, &l->dev2));
	/* Pages in, for every path alike. */
	memset(l->host, 1, SIZE);
}

static double l0_copy_ms(struct l0 *l, void *dst, const void *src)
{
	double t = bench_now_ms();

	CHECK(zeCommandListAppendMemoryCopy(l->sync_list, dst, src, SIZE, NULL, 0, NULL));
	return bench_now_ms() - t;
}

static double l0_empty_us(struct l0 *l, long iters)
{
	double t = bench_now_us();
	long i;

	for (i = 0; i < iters; i++) {
		CHECK(zeCommandQueueExecuteCommandLists(l->queue, 1, &l->empty, NULL));
		CHECK(zeCommandQueueSynchronize(l->queue, UINT64_MAX));
	}
	return (bench_now_us() - t) / (double)iters;
}

static double l0_event_us(struct l0 *l, long iters)
{
	double t = bench_now_us();
	long i;

	for (i = 0; i < iters; i++) {
		CHECK(zeCommandListAppendSignalEvent(l->async_list, l->event));
		CHECK(zeEventHostSynchronize(l->event, UINT64_MAX));
		CHECK(zeEventHostReset(l->event));
	}
	return (bench_now_us() - t) / (double)iters;
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 2000;
	double h2d[ROUNDS], d2d[ROUNDS], core_h2d[ROUNDS], core_d2d[ROUNDS];
	double empty[ROUNDS], event[ROUNDS], store[ROUNDS];
	struct core c = { 0 };
	struct l0 l = { 0 };
	int r;

	if (iters < 1)
		fail("ITERATIONS", iters);
	l0_open(&l);
	CHECK(zex_device_open(&c.dev));
	/* Tile 1 holds the floor's stand-in for host memory and its second target. */
	core_bo(&c, SIZE, 1, SRC_VA);
	core_bo(&c, SIZE, 0, DST_VA);
	core_bo(&c, SIZE, 1, DST2_VA);
	core_bo(&c, 4096, 0, SCRATCH_VA);
	CHECK(zex_exec_queue_create(c.dev, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &c.queue));
	CHECK(zex_syncobj_create(c.dev, &c.syncobj));
	/* One of each first: every page in, every path warm. */
	l0_copy_ms(&l, l.dev, l.host);
	l0_copy_ms(&l, l.dev2, l.dev);
	core_copy_ms(&c, SRC_VA, DST_VA);
	core_copy_ms(&c, DST_VA, DST2_VA);
	for (r = 0; r < ROUNDS; r++) {
		h2d[r] = l0_copy_ms(&l, l.dev, l.host);
		core_h2d[r] = core_copy_ms(&c, SRC_VA, DST_VA);
		d2d[r] = l0_copy_ms(&l, l.dev2, l.dev);
		core_d2d[r] = core_copy_ms(&c, DST_VA, DST2_VA);
		empty[r] = l0_empty_us(&l, iters);
		store[r] = core_store_us(&c, iters);
		event[r] = l0_event_us(&l, iters);
	}
	printf("BENCH l0exec copy mib=%llu h2d_ms=%.2f d2d_ms=%.2f core_h2d_ms=%.2f core_d2d_ms=%.2f\n",
	       SIZE >> 20, bench_median(h2d, ROUNDS), bench_median(d2d, ROUNDS),
	       bench_median(core_h2d, ROUNDS), bench_median(core_d2d, ROUNDS));
	printf("BENCH l0exec roundtrip empty_list_us=%.2f event_us=%.2f core_job_us=%.2f\n",
	       bench_median(empty, ROUNDS), bench_median(event, ROUNDS),
	       bench_median(store, ROUNDS));
	return 0;
}
