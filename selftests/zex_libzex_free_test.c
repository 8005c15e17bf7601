// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_free_test.c - zeMemFreeExt's free policies, with the work still to run
 *
 * The driver lists ZE_extension_memory_free_policies and both policies. A
 * copy out of device memory waits on an event the host has not signalled
 * when the memory is freed: a deferred free returns at once and the copy,
 * run later, still reads the memory; a blocking free returns only after the
 * copy ran (the freeing thread is seen asleep in the kernel until the host
 * signals). Either way the pointer is gone from the driver at once (a
 * second free is refused). Every refused call, with its result code.
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define SIZE	(256u << 10)

FIXTURE(fr) {
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	ze_event_pool_handle_t pool;
	ze_command_list_handle_t list;
	uint8_t *in, *out;
};

FIXTURE_SETUP(fr)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 4 };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &self->drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(self->drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(self->drv, &cd, &self->ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 1, &self->dev,
						       &self->pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->dev, &qd,
								  &self->list));
	self->in = malloc(SIZE);
	self->out = calloc(1, SIZE);
	ASSERT_NE(NULL, self->in);
	ASSERT_NE(NULL, self->out);
	zex_fill(self->in, SIZE, 7);
}

FIXTURE_TEARDOWN(fr)
{
	if (!self->ctx)
		return;
	zeCommandListDestroy(self->list);
	zeEventPoolDestroy(self->pool);
	zeContextDestroy(self->ctx);
	free(self->in);
	free(self->out);
}

static ze_event_handle_t event(ze_event_pool_handle_t pool, uint32_t index)
{
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = index,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST,
			       .wait = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t e = NULL;

	return zeEventCreate(pool, &ed, &e) ? NULL : e;
}

/*
 * Device memory holding the test's pattern, and a copy of it to the host
 * appended behind @go, which signals @done: nothing has run of it yet.
 */
static void *pending_copy(struct _test_data_fr *self, ze_event_handle_t go,
			  ze_event_handle_t done)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	void *mem = NULL;

	if (zeMemAllocDevice(self->ctx, &dd, SIZE, 0, self->dev, &mem) ||
	    zeCommandListAppendMemoryCopy(self->list, mem, self->in, SIZE, NULL, 0, NULL) ||
	    zeCommandListHostSynchronize(self->list, UINT64_MAX) ||
	    zeCommandListAppendMemoryCopy(self->list, self->out, mem, SIZE, done, 1, &go))
		return NULL;
	return mem;
}

static const ze_memory_free_ext_desc_t deferred = {
	.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
	.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE,
};

static const ze_memory_free_ext_desc_t blocking = {
	.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
	.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE,
};

TEST_F(fr, the_driver_lists_both_policies)
{
	ze_driver_memory_free_ext_properties_t fp = {
		.stype = ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES };
	ze_driver_properties_t p = { .stype = ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, .pNext = &fp };
	ze_driver_extension_properties_t ext[32];
	uint32_t n = 0, i;
	bool listed = false;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, NULL));
	ASSERT_LE(n, 32);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionProperties(self->drv, &n, ext));
	for (i = 0; i < n; i++)
		if (!strcmp(ext[i].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME))
			listed = ext[i].version == ZE_MEMORY_FREE_POLICIES_EXT_VERSION_1_0;
	EXPECT_TRUE(listed);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetProperties(self->drv, &p));
	EXPECT_EQ(ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
		  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE, fp.freePolicies);
}

TEST_F(fr, a_deferred_free_keeps_the_memory_for_the_work_before_it)
{
	ze_event_handle_t go = event(self->pool, 0), done = event(self->pool, 1);
	void *mem;

	ASSERT_NE(NULL, go);
	ASSERT_NE(NULL, done);
	mem = pending_copy(self, go, done);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemFreeExt(self->ctx, &deferred, mem));
	/* Returned with the copy still waiting; the pointer is gone already. */
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(self->ctx, mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(self->ctx, &deferred, mem));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, UINT64_MAX));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(self->list, UINT64_MAX));
	EXPECT_EQ(0, memcmp(self->in, self->out, SIZE));
	zeEventDestroy(go);
	zeEventDestroy(done);
}

struct blocking_free {
	ze_context_handle_t ctx;
	void *mem;
	_Atomic pid_t tid;
	_Atomic bool returned;
	ze_result_t res;
};

static void *free_blocking(void *arg)
{
	struct blocking_free *b = arg;

	b->tid = (pid_t)syscall(SYS_gettid);
	b->res = zeMemFreeExt(b->ctx, &blocking, b->mem);
	b->returned = true;
	return NULL;
}

TEST_F(fr, a_blocking_free_returns_once_the_work_before_it_ran)
{
	ze_event_handle_t go = event(self->pool, 2), done = event(self->pool, 3);
	struct blocking_free b = { .ctx = self->ctx };
	pthread_t t;

	ASSERT_NE(NULL, go);
	ASSERT_NE(NULL, done);
	b.mem = pending_copy(self, go, done);
	ASSERT_NE(NULL, b.mem);
	ASSERT_EQ(0, pthread_create(&t, NULL, free_blocking, &b));
	/* The free sleeps in the kernel, waiting for the copy. */
	while (!b.returned && (!b.tid || !zex_sleeps_in_syscall(b.tid, SYS_ioctl)))
		sched_yield();
	EXPECT_FALSE(b.returned);
	EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(go));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, b.res);
	/* It returned after the copy: the copy had run. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventQueryStatus(done));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(self->list, UINT64_MAX));
	EXPECT_EQ(0, memcmp(self->in, self->out, SIZE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(self->ctx, b.mem));
	zeEventDestroy(go);
	zeEventDestroy(done);
}

TEST_F(fr, host_and_shared_memory_free_with_either_policy)
{
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_memory_allocation_properties_t mp = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	void *host = NULL, *shared = NULL;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, SIZE, 0, &host));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(self->ctx, &dd, &hd, SIZE, 0, self->dev,
						      &shared));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemFreeExt(self->ctx, &blocking, host));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemFreeExt(self->ctx, &deferred, shared));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, host, &mp, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, mp.type);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, shared, &mp, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, mp.type);
}

TEST_F(fr, refused_calls_say_why)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_memory_free_ext_desc_t d = deferred;
	int on_stack;
	void *mem = NULL;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, SIZE, 0, self->dev, &mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeMemFreeExt(NULL, &d, mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemFreeExt(self->ctx, NULL, mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemFreeExt(self->ctx, &d, NULL));
	d.freePolicy = 4;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeMemFreeExt(self->ctx, &d, mem));
	d.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE;
	/* The properties' stype, not the descriptor's. */
	d.stype = ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(self->ctx, &d, mem));
	d.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(self->ctx, &d, &on_stack));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemFreeExt(self->ctx, &d, (uint8_t *)mem + 4096));
	/* Refused calls left it allocated; a zero-initialised stype is taken. */
	d.stype = 0;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFreeExt(self->ctx, &d, mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFreeExt(self->ctx, &d, mem));
}

ZEX_SELFTEST_MAIN
