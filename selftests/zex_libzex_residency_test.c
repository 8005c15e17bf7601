// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex_libzex_residency_test.c - zeContextMakeMemoryResident and zeContextEvictMemory
 *
 * zex's allocations are resident for their whole life: a range inside a
 * device, host or shared allocation is made resident and evicted
 * successfully (and stays usable: a copy through it after the eviction
 * gives the bytes); a range running past its allocation's end, memory the
 * driver never allocated, a NULL pointer and NULL handles are refused
 * with their specific errors.
 */

#include <stdlib.h>
#include <string.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

FIXTURE(residency) {
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
};

FIXTURE_SETUP(residency)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_driver_handle_t drv;
	uint32_t n = 1;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeInit(0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &self->ctx));
}

FIXTURE_TEARDOWN(residency)
{
	zeContextDestroy(self->ctx);
}

/* Each kind of allocation: resident and evicted whole and in part; still usable. */
TEST_F(residency, an_allocation_is_made_resident_and_evicted_and_stays_usable)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	const size_t size = 1 << 20;
	ze_command_list_handle_t l;
	char *mem[3], *back;
	int i;

	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeMemAllocDevice(self->ctx, &dd, size, 0, self->dev, (void **)&mem[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, size, 0, (void **)&mem[1]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(self->ctx, &dd, &hd, size, 0, self->dev,
						      (void **)&mem[2]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &l));
	back = malloc(size);
	ASSERT_NE(NULL, back);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(ZE_RESULT_SUCCESS,
			  zeContextMakeMemoryResident(self->ctx, self->dev, mem[i], size));
		EXPECT_EQ(ZE_RESULT_SUCCESS,
			  zeContextMakeMemoryResident(self->ctx, self->dev, mem[i] + 4096, 4096));
		EXPECT_EQ(ZE_RESULT_SUCCESS,
			  zeContextEvictMemory(self->ctx, self->dev, mem[i], size));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendMemoryFill(l, mem[i], &i, 1, size, NULL, 0, NULL));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendMemoryCopy(l, back, mem[i], size, NULL, 0, NULL));
		EXPECT_EQ(i, back[0]);
		EXPECT_EQ(i, back[size - 1]);
	}
	free(back);
	zeCommandListDestroy(l);
	for (i = 0; i < 3; i++)
		zeMemFree(self->ctx, mem[i]);
}

/* Past the end, memory the driver never allocated, NULL: each refused as such. */
TEST_F(residency, ranges_outside_allocations_and_null_are_refused)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	char *mem, *other = malloc(4096);

	ASSERT_NE(NULL, other);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, 65536, 0, self->dev,
						      (void **)&mem));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeContextMakeMemoryResident(self->ctx, self->dev, mem + 4096, 65536));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeContextEvictMemory(self->ctx, self->dev, mem, 65537));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeContextMakeMemoryResident(self->ctx, self->dev, other, 4096));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeContextMakeMemoryResident(self->ctx, self->dev, NULL, 4096));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeContextMakeMemoryResident(NULL, self->dev, mem, 4096));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeContextEvictMemory(self->ctx, NULL, mem, 4096));
	zeMemFree(self->ctx, mem);
	free(other);
}

ZEX_SELFTEST_MAIN
