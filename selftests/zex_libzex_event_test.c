// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_event_test.c - libzex's events and event pools
 *
 * Events signalled and reset by the host and by the device; a device wait
 * on an event the host signals later, ordering two queues; a host thread
 * asleep in zeEventHostSynchronize woken by another thread's signal (no
 * job of its own ends); kernel timestamps of a copy, read by the host,
 * copied by the device, and per tile (the query kernel timestamps
 * extension; synchronized ones from a mapped pool); an IPC event pool
 * opened again sharing its events; a pool destroyed before its events
 * keeping them; every refused call with its result code.
 */

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define SIZE	(64u << 10)

FIXTURE(ev) {
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	ze_event_pool_handle_t pool, ts_pool;
	uint8_t *mem;
};

FIXTURE_SETUP(ev)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 8 };
	ze_driver_handle_t drv;
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &self->ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 1, &self->dev,
						       &self->pool));
	pd.flags |= ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &self->ts_pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, SIZE, 0, self->dev,
						      (void **)&self->mem));
}

FIXTURE_TEARDOWN(ev)
{
	if (!self->ctx)
		return;
	zeMemFree(self->ctx, self->mem);
	zeEventPoolDestroy(self->ts_pool);
	zeEventPoolDestroy(self->pool);
	zeContextDestroy(self->ctx);
}

static ze_event_handle_t event(ze_event_pool_handle_t pool, uint32_t index)
{
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = index,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST,
			       .wait = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t e = NULL;

	return zeEventCreate(pool, &ed, &e) ? NULL : e;
}

static ze_command_list_handle_t immediate(struct _test_data_ev *self, uint32_t ordinal)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .ordinal = ordinal,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_command_list_handle_t l = NULL;

	return zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &l) ? NULL : l;
}

TEST_F(ev, the_host_signals_and_resets)
{
	ze_event_handle_t e = event(self->pool, 0);

	ASSERT_NE(NULL, e);
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 0));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 1000000));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(e));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

/*
 * Queue A waits for an event the host signals later, then copies and
 * signals a second event, which queue B waits for before copying on.
 */
TEST_F(ev, device_waits_order_queues_and_the_host)
{
	ze_event_handle_t go = event(self->pool, 1), mid = event(self->pool, 2);
	ze_event_handle_t done = event(self->pool, 3);
	ze_command_list_handle_t a = immediate(self, 0), b = immediate(self, 1);
	uint8_t *in = malloc(SIZE), *out = calloc(1, SIZE);

	ASSERT_NE(NULL, go);
	ASSERT_NE(NULL, mid);
	ASSERT_NE(NULL, done);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, out);
	zex_fill(in, SIZE, 5);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(a, self->mem, in, SIZE, mid,
								   1, &go));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(b, out, self->mem, SIZE, done,
								   1, &mid));
	/* Nothing moved before the host's go. */
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(mid));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(mid));
	EXPECT_EQ(0, memcmp(in, out, SIZE));
	/* The device resets one, the host sees it. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendEventReset(b, mid));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(b, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(mid));
	zeCommandListDestroy(a);
	zeCommandListDestroy(b);
	zeEventDestroy(go);
	zeEventDestroy(mid);
	zeEventDestroy(done);
	free(in);
	free(out);
}

static _Atomic pid_t sleeper_tid;

static void *sleeper(void *e)
{
	sleeper_tid = (pid_t)syscall(SYS_gettid);
	return (void *)(uintptr_t)zeEventHostSynchronize(e, UINT64_MAX);
}

/* A waiter asleep in the kernel wakes at another thread's host signal. */
TEST_F(ev, a_host_signal_wakes_a_sleeping_host_wait)
{
	ze_event_handle_t e = event(self->pool, 4);
	pthread_t t;
	void *res;

	ASSERT_NE(NULL, e);
	sleeper_tid = 0;
	ASSERT_EQ(0, pthread_create(&t, NULL, sleeper, e));
	while (!sleeper_tid || !zex_sleeps_in_syscall(sleeper_tid, SYS_ioctl))
		sched_yield();
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(e));
	ASSERT_EQ(0, pthread_join(t, &res));
	EXPECT_EQ(ZE_RESULT_SUCCESS, (ze_result_t)(uintptr_t)res);
	zeEventDestroy(e);
}

TEST_F(ev, kernel_timestamps_of_a_copy)
{
	ze_event_handle_t e = event(self->ts_pool, 0);
	ze_command_list_handle_t l = immediate(self, 1);
	ze_kernel_timestamp_result_t r, copied[2];
	uint8_t *in = malloc(SIZE);

	ASSERT_NE(NULL, e);
	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, in);
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryKernelTimestamp(e, &r));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, self->mem, in, SIZE, e, 0,
								   NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(e, &r));
	EXPECT_LT(0, r.global.kernelStart);
	EXPECT_LE(r.global.kernelStart, r.global.kernelEnd);
	EXPECT_LE(r.context.kernelStart, r.context.kernelEnd);
	memset(copied, 0, sizeof(copied));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendQueryKernelTimestamps(
		l, 1, &e, &copied[1], NULL, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(l, UINT64_MAX));
	EXPECT_EQ(0, memcmp(&r, &copied[1], sizeof(r)));
	zeCommandListDestroy(l);
	zeEventDestroy(e);
	free(in);
}

/*
 * ZE_extension_event_query_kernel_timestamps: one packet per tile of the
 * device asked (the root device: every tile), each the operation's own
 * timestamps; synchronized ones (the host's time domain, which is the
 * device clock's) from a pool with mapped timestamps only.
 */
TEST_F(ev, kernel_timestamps_per_tile_and_synchronized)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
					     ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP,
				    .count = 1 };
	ze_event_query_kernel_timestamps_results_ext_properties_t res = {
		.stype = ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_RESULTS_EXT_PROPERTIES,
	};
	ze_event_query_kernel_timestamps_ext_properties_t caps = {
		.stype = ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES,
	};
	ze_device_properties_t props = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
					 .pNext = &caps };
	ze_synchronized_timestamp_result_ext_t sync[DRM_ZEX_MAX_TILES + 1];
	ze_kernel_timestamp_result_t ts[DRM_ZEX_MAX_TILES + 1], one;
	ze_command_list_handle_t l = immediate(self, 1);
	ze_device_handle_t tiles[DRM_ZEX_MAX_TILES];
	uint32_t n = 0, tiles_n = DRM_ZEX_MAX_TILES, i;
	ze_event_pool_handle_t mapped;
	ze_event_handle_t e, plain = event(self->ts_pool, 1);
	uint8_t *in = calloc(1, SIZE);

	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, plain);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(self->dev, &props));
	EXPECT_EQ(ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_KERNEL |
		  ZE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_FLAG_SYNCHRONIZED, caps.flags);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->dev, &tiles_n, tiles));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &mapped));
	e = event(mapped, 0);
	ASSERT_NE(NULL, e);

	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestampsExt(e, self->dev, &n, NULL));
	EXPECT_EQ(tiles_n, n);
	n = 0;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestampsExt(e, tiles[0], &n, NULL));
	EXPECT_EQ(1, n);
	/* Not signalled: nothing written. */
	n = tiles_n;
	res.pKernelTimestampsBuffer = ts;
	res.pSynchronizedTimestampsBuffer = sync;
	memset(ts, 0, sizeof(ts));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryKernelTimestampsExt(e, self->dev, &n, &res));
	EXPECT_EQ(0, ts[0].global.kernelEnd);

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, self->mem, in, SIZE, e, 0,
								   NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(e, &one));
	EXPECT_LE(one.global.kernelStart, one.global.kernelEnd);
	EXPECT_NE(0, one.global.kernelStart);
	/* A count above the packets is cut to them; the element after stays. */
	n = tiles_n + 1;
	memset(&ts[tiles_n], 0xa5, sizeof(ts[tiles_n]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestampsExt(e, self->dev, &n, &res));
	ASSERT_EQ(tiles_n, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, memcmp(&one, &ts[i], sizeof(one)));
		EXPECT_EQ(one.global.kernelStart, sync[i].global.kernelStart);
		EXPECT_EQ(one.global.kernelEnd, sync[i].global.kernelEnd);
		EXPECT_EQ(one.context.kernelEnd, sync[i].context.kernelEnd);
	}
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ull, ts[tiles_n].global.kernelStart);

	/* Synchronized timestamps need a mapped pool; a wrong stype is refused. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, self->mem, in, SIZE, plain,
								   0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(plain, UINT64_MAX));
	n = 1;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeEventQueryKernelTimestampsExt(plain, self->dev, &n, &res));
	res.pSynchronizedTimestampsBuffer = NULL;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestampsExt(plain, self->dev, &n, &res));
	res.stype = ZE_STRUCTURE_TYPE_EVENT_QUERY_KERNEL_TIMESTAMPS_EXT_PROPERTIES;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeEventQueryKernelTimestampsExt(plain, self->dev, &n, &res));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeEventQueryKernelTimestampsExt(plain, self->dev, NULL, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeEventQueryKernelTimestampsExt(plain, NULL, &n, NULL));
	/* An event without timestamps has none to give. */
	zeEventDestroy(plain);
	plain = event(self->pool, 6);
	ASSERT_NE(NULL, plain);
	n = 0;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeEventQueryKernelTimestampsExt(plain, self->dev, &n, NULL));
	zeEventDestroy(plain);
	zeEventDestroy(e);
	zeEventPoolDestroy(mapped);
	zeCommandListDestroy(l);
	free(in);
}

/*
 * A pool destroyed before its events (the specification forbids it; test
 * suites do it) loses its handle at once, and keeps its memory for the
 * events still there: they still signal and are destroyed as usual.
 */
TEST_F(ev, a_pool_destroyed_before_its_events_keeps_them_until_they_go)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 2 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 1 };
	ze_event_handle_t e, f = NULL;
	ze_event_pool_handle_t p;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &p));
	e = event(p, 0);
	ASSERT_NE(NULL, e);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolDestroy(p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventPoolDestroy(p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventCreate(p, &ed, &f));
	EXPECT_EQ(NULL, f);
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventDestroy(e));
}

TEST_F(ev, refused_calls_say_why)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, .count = 0 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 8 };
	ze_event_handle_t e = event(self->pool, 5), again;
	ze_event_pool_handle_t p;
	ze_kernel_timestamp_result_t r;
	ze_command_list_handle_t l = immediate(self, 0);

	ASSERT_NE(NULL, e);
	ASSERT_NE(NULL, l);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &p));
	pd.count = 1;
	pd.flags = 0x100;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeEventPoolCreate(self->ctx, &pd, 0, NULL, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventCreate(self->pool, &ed, &again));
	ed.index = 5;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventCreate(self->pool, &ed, &again));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventQueryKernelTimestamp(e, &r));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zeCommandListAppendWaitOnEvents(l, 0, &e));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventDestroy(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandListAppendSignalEvent(l, e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListAppendBarrier(l, NULL, 1, &e));
	/* The index is free again. */
	again = event(self->pool, 5);
	EXPECT_NE(NULL, again);
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(again));
	zeEventDestroy(again);
	zeCommandListDestroy(l);
}

/*
 * An IPC event pool opened again (here, in the exporting process: the
 * dma-buf is the same one another process imports) shares its events: a
 * signal by the device through the opened pool reaches the exporter's
 * host wait, the opened pool keeps the exporter's state, and the calls a
 * handle can misuse are refused.
 */
TEST_F(ev, an_ipc_event_pool_shares_its_events)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC,
				    .count = 4 };
	ze_ipc_event_pool_handle_t h, bad;
	ze_event_pool_handle_t pool, opened;
	ze_event_handle_t mine, theirs, early, early_theirs;
	ze_command_list_handle_t l = immediate(self, 0);
	int fd;

	ASSERT_NE(NULL, l);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &pool));
	mine = event(pool, 0);
	early = event(pool, 1);
	ASSERT_NE(NULL, mine);
	ASSERT_NE(NULL, early);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(early));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolGetIpcHandle(pool, &h));
	memcpy(&fd, h.data, sizeof(fd));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolOpenIpcHandle(self->ctx, h, &opened));
	theirs = event(opened, 0);
	early_theirs = event(opened, 1);
	ASSERT_NE(NULL, theirs);
	ASSERT_NE(NULL, early_theirs);
	/* Created in the opened pool, an event keeps the exporter's state. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(early_theirs));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(theirs));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(l, theirs));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(mine, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(mine));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(theirs));

	/* Misuse: an opened pool is not exported again nor destroyed as an export. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(opened, &bad));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolCloseIpcHandle(pool));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(self->pool, &bad));
	bad = h;
	bad.data[4] ^= 1;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolOpenIpcHandle(self->ctx, bad, &opened));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolPutIpcHandle(self->ctx, bad));
	/* An fd number that names nothing, here or in the exporter. */
	bad = h;
	memset(bad.data, 0x7f, 3);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolOpenIpcHandle(self->ctx, bad, &opened));

	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(theirs));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(early_theirs));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCloseIpcHandle(opened));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeEventPoolCloseIpcHandle(opened));
	/* The last put closes the export's fd; a second put names nothing. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolPutIpcHandle(self->ctx, h));
	EXPECT_EQ(-1, fcntl(fd, F_GETFD));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolPutIpcHandle(self->ctx, h));
	zeEventDestroy(mine);
	zeEventDestroy(early);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolDestroy(pool));
	zeCommandListDestroy(l);
}

ZEX_SELFTEST_MAIN
