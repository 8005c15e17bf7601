// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_api_1_15_test.c - the calls of API 1.11 to 1.15 beside counter-based events
 *
 * libzex reports API 1.15. Its driver's default context is one context,
 * usable and not the application's to destroy; zeDeviceSynchronize returns
 * only once the work submitted before it ran (the calling thread is seen
 * asleep in the kernel until a gate opens); a physical memory object says
 * its size and an id no other has; zeMemGetIpcHandleWithProperties makes
 * the standard handle for the default kind and refuses a fabric; a
 * physical memory object's handle passed as the pointer exports the whole
 * object, device or host memory, mapped or not. Counter-
 * based events are zex_libzex_event_counter_test's, a launch with its
 * arguments zex_libzex_kernel_test's. Every refused call, with its code.
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define SIZE	(64u << 10)

FIXTURE(api) {
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
};

FIXTURE_SETUP(api)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &self->drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(self->drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(self->drv, &cd, &self->ctx));
}

FIXTURE_TEARDOWN(api)
{
	if (self->ctx)
		zeContextDestroy(self->ctx);
}

TEST_F(api, the_driver_reports_api_1_15)
{
	ze_api_version_t v = 0;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetApiVersion(self->drv, &v));
	EXPECT_EQ(ZE_MAKE_VERSION(1, 15), v);
}

TEST_F(api, the_default_context_is_one_and_the_drivers)
{
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_context_handle_t c = zeDriverGetDefaultContext(self->drv);
	const char *why = NULL;
	void *p = NULL;

	ASSERT_NE(NULL, c);
	EXPECT_EQ(c, zeDriverGetDefaultContext(self->drv));
	EXPECT_NE(self->ctx, c);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextGetStatus(c));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(c, &hd, SIZE, 0, &p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(c, p));
	EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zeContextDestroy(c));
	EXPECT_EQ(c, zeDriverGetDefaultContext(self->drv));
	/* No driver: NULL, and the reason where the loader's callers look. */
	EXPECT_EQ(NULL, zeDriverGetDefaultContext(NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetLastErrorDescription(self->drv, &why));
	EXPECT_NE(NULL, strstr(why, "driver"));
}

struct sync_thread {
	ze_device_handle_t dev;
	_Atomic pid_t tid;
	_Atomic bool returned;
	ze_result_t res;
};

static void *device_synchronize(void *arg)
{
	struct sync_thread *s = arg;

	s->tid = (pid_t)syscall(SYS_gettid);
	s->res = zeDeviceSynchronize(s->dev);
	s->returned = true;
	return NULL;
}

/* A copy held by a gate: zeDeviceSynchronize sleeps until it ran. */
TEST_F(api, device_synchronize_waits_for_the_work_before_it)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST, .wait = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	struct sync_thread s = { .dev = self->dev };
	ze_event_pool_handle_t pool;
	ze_command_list_handle_t l;
	ze_event_handle_t gate;
	uint8_t *src, *dst;
	pthread_t t;

	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceSynchronize(NULL));
	/* Nothing submitted yet: at once. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeDeviceSynchronize(self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 1, &self->dev, &pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(pool, &ed, &gate));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, SIZE, 0, (void **)&src));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, SIZE, 0, (void **)&dst));
	zex_fill(src, SIZE, 9);
	memset(dst, 0, SIZE);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, dst, src, SIZE, NULL, 1,
								   &gate));
	ASSERT_EQ(0, pthread_create(&t, NULL, device_synchronize, &s));
	while (!s.returned && (!s.tid || !zex_sleeps_in_syscall(s.tid, SYS_ioctl)))
		sched_yield();
	EXPECT_FALSE(s.returned);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSignal(gate));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, s.res);
	/* It returned after the copy: the copy had run. */
	EXPECT_EQ(0, memcmp(src, dst, SIZE));
	zeCommandListDestroy(l);
	zeEventDestroy(gate);
	zeEventPoolDestroy(pool);
	zeMemFree(self->ctx, src);
	zeMemFree(self->ctx, dst);
}

TEST_F(api, physical_memory_says_its_size_and_a_unique_id)
{
	ze_physical_mem_desc_t d = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				     .size = 2u << 20 };
	ze_physical_mem_properties_t p1 = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES };
	ze_physical_mem_properties_t p2 = p1;
	ze_physical_mem_handle_t a, b;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(self->ctx, self->dev, &d, &a));
	d.size = 4u << 20;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(self->ctx, self->dev, &d, &b));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemGetProperties(self->ctx, a, &p1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemGetProperties(self->ctx, b, &p2));
	EXPECT_EQ(2u << 20, p1.size);
	EXPECT_EQ(4u << 20, p2.size);
	EXPECT_NE(p1.id, p2.id);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zePhysicalMemGetProperties(NULL, a, &p1));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zePhysicalMemGetProperties(self->ctx, NULL, &p1));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zePhysicalMemGetProperties(self->ctx, a, NULL));
	p1.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zePhysicalMemGetProperties(self->ctx, a, &p1));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, a));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, b));
}

TEST_F(api, an_ipc_handle_with_properties_is_the_standard_one)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_ipc_mem_handle_type_ext_desc_t kind = {
		.stype = ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC,
		.typeFlags = ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT };
	ze_ipc_mem_handle_t plain, with, zero;
	void *mem = NULL;

	memset(&zero, 0, sizeof(zero));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, SIZE, 0, self->dev, &mem));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, mem, &plain));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandleWithProperties(self->ctx, mem, &kind, &with));
	EXPECT_NE(0, memcmp(&with, &zero, sizeof(with)));
	EXPECT_EQ(0, memcmp(&with, &plain, sizeof(with)));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(self->ctx, with));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandleWithProperties(self->ctx, mem, NULL, &with));
	EXPECT_EQ(0, memcmp(&with, &plain, sizeof(with)));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(self->ctx, with));
	kind.typeFlags = ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeMemGetIpcHandleWithProperties(self->ctx, mem, &kind, &with));
	kind.typeFlags = 4;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeMemGetIpcHandleWithProperties(self->ctx, mem, &kind, &with));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeMemGetIpcHandleWithProperties(NULL, mem, NULL, &with));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemGetIpcHandleWithProperties(self->ctx, NULL, NULL, &with));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemGetIpcHandleWithProperties(self->ctx, mem, NULL, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(self->ctx, plain));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(self->ctx, mem));
}

/*
 * A physical memory object's handle as the pointer of zeMemGetIpcHandle:
 * the handle opens (here, in the same process) as the whole object; bytes
 * written through the opened memory are the object's, read through a
 * mapping of it made afterwards. Device memory on the root device (in
 * pieces over the tiles) and host memory alike; a put gives the get back,
 * a second put of it is refused, and a pointer that is neither an
 * allocation nor an object is refused.
 */
TEST_F(api, a_physical_memory_handle_as_the_pointer_exports_the_object)
{
	static const ze_physical_mem_flags_t where[] = { 0, ZE_BIT(1) };
	const size_t size = 2u << 20;
	uint32_t w;
	int local;

	for (w = 0; w < 2; w++) {
		ze_physical_mem_desc_t d = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
					     .flags = where[w], .size = size };
		ze_ipc_mem_handle_t h, zero;
		ze_physical_mem_handle_t phys;
		void *opened = NULL, *va = NULL;
		uint8_t *bytes;
		size_t i;

		memset(&zero, 0, sizeof(zero));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(self->ctx, self->dev, &d, &phys));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, (const void *)phys, &h))
			TH_LOG("%s memory", w ? "host" : "device");
		EXPECT_NE(0, memcmp(&h, &zero, sizeof(h)));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeMemOpenIpcHandle(self->ctx, self->dev, h, 0, &opened));
		bytes = opened;
		for (i = 0; i < size; i += 4096)
			bytes[i] = (uint8_t)(i / 4096 + 1);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemReserve(self->ctx, NULL, size, &va));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeVirtualMemMap(self->ctx, va, size, phys, 0,
					  ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
		bytes = va;
		for (i = 0; i < size; i += 4096)
			ASSERT_EQ((uint8_t)(i / 4096 + 1), bytes[i]) TH_LOG("page %zu", i / 4096);
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(self->ctx, opened));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(self->ctx, h));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemPutIpcHandle(self->ctx, h));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, va, size));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, size));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, phys));
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemGetIpcHandle(self->ctx, &local, &(ze_ipc_mem_handle_t){ 0 }));
}

ZEX_SELFTEST_MAIN
