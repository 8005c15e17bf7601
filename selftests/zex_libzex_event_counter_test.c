// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_event_counter_test.c - counter-based events follow their last signal
 *
 * zeEventCounterBasedCreate (API 1.15): an event never signalled counts as
 * signalled; appended as the signal of an operation it stands for that
 * operation until another append takes it; a regular list's execution
 * takes it anew each time; a later signal on another queue is not undone
 * when the first queue's signal happens after it; a device wait on it
 * holds its operation until the signal it stood for when appended. The
 * host never signals or resets one. Each keeps its own timestamps, however
 * many there are. The events of a pool made with the
 * experimental counter-based pool descriptor (listed as an extension) are
 * counter-based the same way. Operations are held back by regular
 * events the host signals (gates), so that what has or has not run is
 * known, not timed (and each list that must run while another is held
 * is on an engine of its own). Every refused call, with its result code.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define SIZE	4096u
#define GATES	8
/* API 1.7's in-order flags, which the 1.4 headers lack. */
#define QUEUE_FLAG_IN_ORDER	((ze_command_queue_flags_t)ZE_BIT(1))
#define LIST_FLAG_IN_ORDER	((ze_command_list_flags_t)ZE_BIT(3))

FIXTURE(cb) {
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	ze_event_pool_handle_t pool;
	ze_event_handle_t gate[GATES];
	ze_command_list_handle_t l1, l2;
	uint8_t *src, *dst;
};

/*
 * An asynchronous in-order immediate list on the @n-th engine of the
 * device (its queue groups' queues in order): one engine runs one job at
 * a time, so lists that must run while another waits are on engines of
 * their own.
 */
static ze_command_list_handle_t immediate(FIXTURE_DATA(cb) *self, uint32_t n)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .flags = QUEUE_FLAG_IN_ORDER,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_command_queue_group_properties_t g[8];
	ze_command_list_handle_t l = NULL;
	uint32_t count = 8, i;

	for (i = 0; i < count; i++)
		g[i] = (ze_command_queue_group_properties_t){
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES };
	if (zeDeviceGetCommandQueueGroupProperties(self->dev, &count, g))
		return NULL;
	for (i = 0; i < count && n >= g[i].numQueues; i++)
		n -= g[i].numQueues;
	if (i == count)
		return NULL;
	qd.ordinal = i;
	qd.index = n;
	return zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &l) ? NULL : l;
}

FIXTURE_SETUP(cb)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = GATES };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	uint32_t n = 1, i;

	if (zeInit(0) || zeDriverGet(&n, &self->drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(self->drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(self->drv, &cd, &self->ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 1, &self->dev,
						       &self->pool));
	for (i = 0; i < GATES; i++) {
		ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = i,
				       .signal = ZE_EVENT_SCOPE_FLAG_HOST,
				       .wait = ZE_EVENT_SCOPE_FLAG_HOST };

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(self->pool, &ed, &self->gate[i]));
	}
	self->l1 = immediate(self, 0);
	self->l2 = immediate(self, 1);
	ASSERT_NE(NULL, self->l1);
	ASSERT_NE(NULL, self->l2);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, SIZE, 0, (void **)&self->src));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, SIZE, 0, (void **)&self->dst));
	zex_fill(self->src, SIZE, 3);
	memset(self->dst, 0, SIZE);
}

FIXTURE_TEARDOWN(cb)
{
	uint32_t i;

	if (!self->ctx)
		return;
	/* Whatever a failed case left waiting runs, then goes. */
	for (i = 0; i < GATES; i++)
		if (self->gate[i])
			zeEventHostSignal(self->gate[i]);
	if (self->l1) {
		zeCommandListHostSynchronize(self->l1, UINT64_MAX);
		zeCommandListDestroy(self->l1);
	}
	if (self->l2) {
		zeCommandListHostSynchronize(self->l2, UINT64_MAX);
		zeCommandListDestroy(self->l2);
	}
	for (i = 0; i < GATES; i++)
		if (self->gate[i])
			zeEventDestroy(self->gate[i]);
	zeEventPoolDestroy(self->pool);
	zeMemFree(self->ctx, self->src);
	zeMemFree(self->ctx, self->dst);
	zeContextDestroy(self->ctx);
}

static ze_event_handle_t counter_event(FIXTURE_DATA(cb) *self, ze_event_counter_based_flags_t flags)
{
	ze_event_counter_based_desc_t d = { .stype = ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC,
					    .flags = flags };
	ze_event_handle_t e = NULL;

	return zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e) ? NULL : e;
}

/* Copy @len bytes at @off of src to dst on @l, after @gate (if any), signalling @signal. */
static ze_result_t copy(FIXTURE_DATA(cb) *self, ze_command_list_handle_t l, size_t off,
			size_t len, ze_event_handle_t signal, ze_event_handle_t gate)
{
	return zeCommandListAppendMemoryCopy(l, self->dst + off, self->src + off, len, signal,
					     gate ? 1 : 0, gate ? &gate : NULL);
}

TEST_F(cb, an_event_never_signalled_counts_as_signalled)
{
	ze_event_handle_t e = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);

	ASSERT_NE(NULL, e);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, 0));
	/* A wait on it holds nothing back. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(self->l1, self->dst, self->src,
								   SIZE, NULL, 1, &e));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(self->l1, UINT64_MAX));
	EXPECT_EQ(0, memcmp(self->src, self->dst, SIZE));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

/*
 * Signalled by A, then by B on the same list: it stands for B. A runs (a
 * gate-held marker after it says so) and the event is still not ready;
 * B runs and it is.
 */
TEST_F(cb, the_event_stands_for_its_last_signal)
{
	ze_event_handle_t e = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
						  ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE);
	ze_event_handle_t *g = self->gate;

	ASSERT_NE(NULL, e);
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 0, 64, e, g[0]));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(self->l1, g[1]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 64, 64, e, g[2]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(g[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(g[1], UINT64_MAX));
	/* A ran; B waits for its gate. */
	EXPECT_EQ(0, memcmp(self->src, self->dst, 64));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(g[2]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	EXPECT_EQ(0, memcmp(self->src, self->dst, 128));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

/*
 * Signalled on the first list by an operation held by a gate, then on the
 * second by one that runs at once: it stands for the second. When the
 * first list's signal happens after, the event stays signalled.
 */
TEST_F(cb, a_late_signal_on_another_queue_does_not_take_the_event_back)
{
	ze_event_handle_t e = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	ze_event_handle_t *g = self->gate;

	ASSERT_NE(NULL, e);
	/* Give the first list's counter a lead over the second's. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 0, 64, e, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 0, 64, e, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 64, 64, e, g[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendSignalEvent(self->l1, g[1]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l2, 128, 64, e, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(g[1]));
	EXPECT_EQ(0, memcmp(self->src + 128, self->dst + 128, 64));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(g[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(g[1], UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, 0));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

/*
 * A device wait on the event holds the second list's copy until the
 * signal the event stood for then; a signal appended after the wait is
 * not what it waits for.
 */
TEST_F(cb, a_device_wait_holds_its_operation_until_the_signal)
{
	ze_event_handle_t e = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	ze_command_list_handle_t l3 = immediate(self, 2);
	ze_event_handle_t *g = self->gate;

	ASSERT_NE(NULL, e);
	ASSERT_NE(NULL, l3);
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 0, 64, e, g[0]));
	/* Waits for e: its own signal is g[1]. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(self->l2, self->dst + 64,
								   self->src + 64, 64, g[1], 1,
								   &e));
	/* e moves on to a copy that runs at once: the wait above still holds. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, l3, 128, 64, e, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(g[1]));
	EXPECT_NE(0, memcmp(self->src + 64, self->dst + 64, 64));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(g[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(g[1], UINT64_MAX));
	EXPECT_EQ(0, memcmp(self->src, self->dst, 192));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(l3));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

/*
 * A regular in-order list signalling the event, run twice: each
 * execution takes the event anew (not ready until that run's gate opens),
 * and the kernel timestamps of the signalling copy are there.
 */
TEST_F(cb, each_execution_of_a_regular_list_takes_the_event)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .flags = QUEUE_FLAG_IN_ORDER };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      .flags = LIST_FLAG_IN_ORDER };
	ze_event_handle_t e = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE |
						  ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP);
	ze_kernel_timestamp_result_t ts = { 0 };
	ze_command_queue_handle_t q;
	ze_command_list_handle_t l;
	int run;

	ASSERT_NE(NULL, e);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(self->ctx, self->dev, &qd, &q));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(self->ctx, self->dev, &ld, &l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, l, 0, SIZE, e, self->gate[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	for (run = 0; run < 2; run++) {
		memset(self->dst, 0, SIZE);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(self->gate[0]));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
		EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e)) TH_LOG("run %d", run);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(self->gate[0]));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
		EXPECT_EQ(0, memcmp(self->src, self->dst, SIZE)) TH_LOG("run %d", run);
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(e, &ts));
	EXPECT_NE(0, ts.global.kernelStart);
	EXPECT_LE(ts.global.kernelStart, ts.global.kernelEnd);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
	zeCommandListDestroy(l);
	zeCommandQueueDestroy(q);
	/* The queue is gone; the event still says what its signal did. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
}

#define MANY	150

/*
 * More counter-based events than a page of slots holds, twice over: each
 * keeps its own kernel timestamps (an in-order list's copies signal them
 * one after the other, so each ends before the next starts); an event
 * without timestamps has none to query; events made again in the slots of
 * destroyed ones start with none.
 */
TEST_F(cb, many_events_each_keep_their_own_timestamps)
{
	static ze_kernel_timestamp_result_t ts[MANY];
	static ze_event_handle_t e[MANY];
	ze_event_handle_t plain = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	int round, i;

	ASSERT_NE(NULL, plain);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < MANY; i++) {
			e[i] = counter_event(self, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
						   ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP);
			ASSERT_NE(NULL, e[i]) TH_LOG("event %d", i);
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(e[i], &ts[i]));
			ASSERT_EQ(0, ts[i].global.kernelStart) TH_LOG("round %d, event %d", round, i);
		}
		for (i = 0; i < MANY; i++)
			ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 0, SIZE, e[i], NULL));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e[MANY - 1], UINT64_MAX));
		for (i = 0; i < MANY; i++)
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventQueryKernelTimestamp(e[i], &ts[i]));
		for (i = 0; i < MANY; i++) {
			EXPECT_NE(0, ts[i].global.kernelStart) TH_LOG("event %d", i);
			EXPECT_LE(ts[i].global.kernelStart, ts[i].global.kernelEnd);
			if (i)
				EXPECT_LE(ts[i - 1].global.kernelEnd, ts[i].global.kernelStart)
					TH_LOG("events %d and %d", i - 1, i);
		}
		for (i = 0; i < MANY; i++)
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e[i]));
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventQueryKernelTimestamp(plain, &ts[0]));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(plain));
}

/* Whether the driver lists extension @name. */
static bool lists_extension(ze_driver_handle_t drv, const char *name)
{
	ze_driver_extension_properties_t ext[32];
	uint32_t n = 32, i;

	if (zeDriverGetExtensionProperties(drv, &n, ext))
		return false;
	for (i = 0; i < n; i++)
		if (!strcmp(ext[i].name, name))
			return true;
	return false;
}

/*
 * An event of a pool made with ze_event_pool_counter_based_exp_desc_t is
 * counter-based: ready before any signal, not ready again when a new
 * operation takes it (a regular event would stay signalled until reset),
 * never signalled or reset by the host. The pool refuses unknown flags
 * and sharing between processes.
 */
TEST_F(cb, a_counter_based_pool_makes_counter_based_events)
{
	ze_event_pool_counter_based_exp_desc_t cbd = {
		.stype = ZE_STRUCTURE_TYPE_COUNTER_BASED_EVENT_POOL_EXP_DESC,
		.flags = ZE_EVENT_POOL_COUNTER_BASED_EXP_FLAG_IMMEDIATE };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, .pNext = &cbd,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 2 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 1 };
	ze_event_pool_handle_t pool = NULL, refused = NULL;
	ze_event_handle_t e = NULL, *g = self->gate;
	int run;

	EXPECT_TRUE(lists_extension(self->drv, ZE_EVENT_POOL_COUNTER_BASED_EXP_NAME));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 1, &self->dev, &pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(pool, &ed, &e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(e));
	for (run = 0; run < 2; run++) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->l1, 64 * run, 64, e, g[run]));
		EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(e)) TH_LOG("run %d", run);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(g[run]));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
		EXPECT_EQ(0, memcmp(self->src, self->dst, 64 * (run + 1))) TH_LOG("run %d", run);
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventHostSignal(e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventHostReset(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(e));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolDestroy(pool));

	cbd.flags = 0x4;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeEventPoolCreate(self->ctx, &pd, 1, &self->dev, &refused));
	cbd.flags = 0;
	pd.flags |= ZE_EVENT_POOL_FLAG_IPC;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeEventPoolCreate(self->ctx, &pd, 1, &self->dev, &refused));
	EXPECT_EQ(NULL, refused);
}

TEST_F(cb, refused_calls_say_why)
{
	ze_event_counter_based_desc_t d = { .stype = ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC };
	ze_event_handle_t e = NULL, made = counter_event(self, 0);

	ASSERT_NE(NULL, made);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeEventCounterBasedCreate(NULL, self->dev, &d, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeEventCounterBasedCreate(self->ctx, NULL, &d, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeEventCounterBasedCreate(self->ctx, self->dev, NULL, &e));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, NULL));
	d.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e));
	d.stype = ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC;
	d.flags = 0x80;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e));
	d.flags = 0;
	d.signal = 0x8;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e));
	d.signal = 0;
	d.flags = ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP |
		  ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e));
	d.flags = ZE_EVENT_COUNTER_BASED_FLAG_IPC;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeEventCounterBasedCreate(self->ctx, self->dev, &d, &e));
	EXPECT_EQ(NULL, e);
	/* The host neither signals nor resets one; nor does a reset append. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventHostSignal(made));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventHostReset(made));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListAppendEventReset(self->l1, made));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(made));
}

ZEX_SELFTEST_MAIN
