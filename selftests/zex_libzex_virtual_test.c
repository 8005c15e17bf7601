// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_virtual_test.c - libzex's reserved ranges, physical memory and mappings
 *
 * zeVirtualMemReserve, zePhysicalMemCreate and zeVirtualMemMap through
 * libzex against the kernel: device memory (one piece or coloured over
 * the tiles) mapped whole, from an offset, and side by side in one
 * reservation, filled and copied by the engines and seen by the host at
 * the same bytes; host memory mapped at two ranges, one set of pages;
 * access attributes: NONE leaves the device no view, READONLY refuses the
 * device's writes (the copy fails, the memory stays), a change on part of
 * a mapping splits it and the query reports the run; unmapping part of a
 * mapping leaves the rest working; IPC handles and the dma-buf fd of a
 * mapping name the whole physical object; every refused call with its
 * result code.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define PG	4096ul
/* The sizes the tests map: 16 device pages, a multiple of the advice. */
#define UNIT	(16 * PG)

FIXTURE(vm) {
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	ze_command_list_handle_t list;	/* synchronous immediate, copy group */
	size_t page;			/* zeVirtualMemQueryPageSize's advice */
	uint8_t *host;			/* 4 pages of the application's heap */
};

FIXTURE_SETUP(vm)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_driver_handle_t drv;
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &self->ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &self->list));
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeVirtualMemQueryPageSize(self->ctx, self->dev, 1, &self->page));
	self->host = aligned_alloc(PG, 4 * PG);
	ASSERT_NE(NULL, self->host);
}

FIXTURE_TEARDOWN(vm)
{
	if (!self->ctx)
		return;
	free(self->host);
	zeCommandListDestroy(self->list);
	zeContextDestroy(self->ctx);
}

static ze_physical_mem_handle_t physical(struct _test_data_vm *self, bool host, size_t size)
{
	ze_physical_mem_desc_t d = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				     .flags = host ? 2 : 1, .size = size };
	ze_physical_mem_handle_t p = NULL;

	return zePhysicalMemCreate(self->ctx, host ? NULL : self->dev, &d, &p) ? NULL : p;
}

static uint8_t *reserve(struct _test_data_vm *self, size_t size)
{
	void *p = NULL;

	return zeVirtualMemReserve(self->ctx, NULL, size, &p) ? NULL : p;
}

static ze_result_t fill(struct _test_data_vm *self, void *dst, uint8_t byte, size_t len)
{
	return zeCommandListAppendMemoryFill(self->list, dst, &byte, 1, len, NULL, 0, NULL);
}

static ze_result_t copy(struct _test_data_vm *self, void *dst, const void *src, size_t len)
{
	return zeCommandListAppendMemoryCopy(self->list, dst, src, len, NULL, 0, NULL);
}

static bool all(const uint8_t *p, uint8_t byte, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != byte)
			return false;
	return true;
}

static ze_memory_type_t type_of(struct _test_data_vm *self, const void *p)
{
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};

	if (zeMemGetAllocProperties(self->ctx, p, &props, NULL))
		return (ze_memory_type_t)-1;
	return props.type;
}

TEST_F(vm, the_page_size_advice_fits_the_device)
{
	size_t big, zero;

	/* The device's page for small sizes; its large leaf from 2 MiB. */
	EXPECT_EQ(PG, self->page);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemQueryPageSize(self->ctx, self->dev, 8 << 20, &big));
	EXPECT_EQ(2ul << 20, big);
	/* A size of 0 asks for the smallest advice. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemQueryPageSize(self->ctx, self->dev, 0, &zero));
	EXPECT_EQ(self->page, zero);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeVirtualMemQueryPageSize(self->ctx, self->dev, 1, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeVirtualMemQueryPageSize(self->ctx, NULL, 1, &zero));
}

/*
 * Device memory mapped whole: the engines fill and copy it at the reserved
 * address, the host reads the same bytes there, and allocation properties
 * call it device memory; unmapped, the address is unknown again.
 */
TEST_F(vm, device_memory_runs_at_its_reserved_address)
{
	size_t size = 2 * UNIT;
	ze_physical_mem_handle_t p = physical(self, false, size);
	uint8_t *va = reserve(self, size);

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, va);
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(self, va));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va, size, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, type_of(self, va + size - 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va, 0x3c, size));
	EXPECT_TRUE(all(va, 0x3c, size));
	memset(self->host, 0, 4 * PG);
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->host, va + size - 4 * PG, 4 * PG));
	EXPECT_TRUE(all(self->host, 0x3c, 4 * PG));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, va, size));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(self, va));
	/* Unmapping what is no longer mapped changes nothing. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, va, size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, size));
}

/*
 * Two objects side by side in one reservation, one of them from an offset:
 * one fill spans both, and each object holds its bytes where the mapping
 * put them (seen through a second mapping of it from its start).
 */
TEST_F(vm, mappings_side_by_side_and_from_an_offset)
{
	size_t size = 2 * UNIT;
	ze_physical_mem_handle_t a = physical(self, false, size);
	ze_physical_mem_handle_t b = physical(self, false, 2 * size);
	uint8_t *va = reserve(self, 4 * size);

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, va);
	/* [a whole][b from @size][b whole] */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va, size, a, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va + size, size, b, size,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va + 2 * size, 2 * size, b, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va + 2 * size, 0x11, 2 * size));
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va + size - PG, 0x77, 2 * PG));
	/* The fill crossed from a into b's second half. */
	EXPECT_TRUE(all(va + size - PG, 0x77, 2 * PG));
	EXPECT_TRUE(all(va + 3 * size, 0x77, PG));
	EXPECT_TRUE(all(va + 3 * size + PG, 0x11, size - PG));
	EXPECT_TRUE(all(va + 2 * size, 0x11, size));
	/* The device reads b's second half at both addresses. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->host, va + size, 2 * PG));
	EXPECT_TRUE(all(self->host, 0x77, PG));
	EXPECT_TRUE(all(self->host + PG, 0x11, PG));
	EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zePhysicalMemDestroy(self->ctx, b));
	/* Freeing the reservation unmaps everything in it. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, 4 * size));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(self, va + size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, a));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, b));
}

/* Host memory at two ranges is one set of pages, for the host and the device. */
TEST_F(vm, host_memory_mapped_twice_is_one_memory)
{
	size_t size = 8 * PG;
	ze_physical_mem_handle_t p = physical(self, true, size);
	uint8_t *x = reserve(self, size), *y = reserve(self, size);

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, y);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, x, size, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, y, size, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	EXPECT_EQ(ZE_MEMORY_TYPE_HOST, type_of(self, y));
	x[5] = 0xab;
	EXPECT_EQ(0xab, y[5]);
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, y + PG, 0x42, PG));
	EXPECT_TRUE(all(x + PG, 0x42, PG));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, x, size));
	EXPECT_EQ(0xab, y[5]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, y, size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, x, size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, y, size));
}

/*
 * Attributes: a new reservation is NONE; READONLY on the second half of a
 * mapping splits it (the query reports each run); the device reads there
 * but its write fails and leaves the memory as it was; NONE takes the
 * device's view away; partial unmapping leaves the rest mapped.
 */
TEST_F(vm, access_attributes_split_and_are_enforced)
{
	ze_memory_access_attribute_t access;
	size_t size = 2 * UNIT, half = size / 2, out;
	ze_physical_mem_handle_t p = physical(self, false, size);
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_command_list_handle_t doomed;
	uint8_t *va = reserve(self, size);

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, va);
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeVirtualMemGetAccessAttribute(self->ctx, va, size, &access, &out));
	EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, access);
	EXPECT_EQ(size, out);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va, size, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(self, va));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemSetAccessAttribute(
		self->ctx, va, size, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va, 0x21, size));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemSetAccessAttribute(
		self->ctx, va + half, half, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeVirtualMemGetAccessAttribute(self->ctx, va, size, &access, &out));
	EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, access);
	EXPECT_EQ(half, out);
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeVirtualMemGetAccessAttribute(self->ctx, va + half, half, &access, &out));
	EXPECT_EQ(ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, access);
	EXPECT_EQ(half, out);
	/* Both halves still read, each from its own bytes. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va + half - PG, 0x65, PG));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->host, va + half - PG, 2 * PG));
	EXPECT_TRUE(all(self->host, 0x65, PG));
	EXPECT_TRUE(all(self->host + PG, 0x21, PG));
	/* A write into the read-only half fails, on a queue of its own. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->dev, &qd,
								  &doomed));
	memset(self->host, 0x99, PG);
	EXPECT_NE(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(doomed, va + half, self->host,
								   PG, NULL, 0, NULL));
	zeCommandListDestroy(doomed);
	EXPECT_TRUE(all(va + half, 0x21, PG));
	/* NONE: no view for the device; the host page is inaccessible too. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemSetAccessAttribute(
		self->ctx, va, half, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(self, va));
	EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, type_of(self, va + half));
	/* Unmapping the first half leaves the second. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, va, half));
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->host, va + size - PG, PG));
	EXPECT_TRUE(all(self->host, 0x21, PG));
	EXPECT_EQ(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, zePhysicalMemDestroy(self->ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemUnmap(self->ctx, va, size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, size));
}

/*
 * A mapping from the object's first byte exports the whole object: an open
 * in this process sees the bytes; one from an offset exports nothing.
 */
TEST_F(vm, ipc_handles_name_the_physical_object)
{
	size_t size = UNIT;	/* one piece: one handle */
	ze_physical_mem_handle_t p = physical(self, false, size);
	uint8_t *va = reserve(self, 2 * size), *opened = NULL;
	ze_external_memory_export_fd_t fd = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, .fd = -1,
	};
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};
	ze_ipc_mem_handle_t h;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, va);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va, size, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va + size, PG, p, PG,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, fill(self, va, 0x5e, size));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetIpcHandle(self->ctx, va + size, &h));
	/* The object's dma-buf fd: from the first byte's mapping only. */
	props.pNext = &fd;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeMemGetAllocProperties(self->ctx, va + size, &props, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(self->ctx, va, &props, NULL));
	EXPECT_LE(0, fd.fd);
	EXPECT_EQ(size, (size_t)lseek(fd.fd, 0, SEEK_END));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(self->ctx, va, &h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemOpenIpcHandle(self->ctx, self->dev, h, 0,
							(void **)&opened));
	ASSERT_NE(NULL, opened);
	ASSERT_EQ(ZE_RESULT_SUCCESS, copy(self, self->host, opened + size - PG, PG));
	EXPECT_TRUE(all(self->host, 0x5e, PG));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(self->ctx, opened));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(self->ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, 2 * size));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, p));
}

TEST_F(vm, result_codes)
{
	ze_physical_mem_desc_t d = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				     .size = UNIT };
	ze_physical_mem_handle_t p = physical(self, false, UNIT), q;
	ze_memory_access_attribute_t access;
	uint8_t *va = reserve(self, 2 * UNIT), *hint;
	size_t out;
	void *got;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, va);
	/* Physical memory. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zePhysicalMemCreate(NULL, self->dev, &d, &q));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zePhysicalMemCreate(self->ctx, NULL, &d, &q));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zePhysicalMemCreate(self->ctx, self->dev, NULL, &q));
	d.flags = 4;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zePhysicalMemCreate(self->ctx, self->dev, &d, &q));
	d.flags = 3;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zePhysicalMemCreate(self->ctx, self->dev, &d, &q));
	d.flags = 0;
	d.size = 0;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		  zePhysicalMemCreate(self->ctx, self->dev, &d, &q));
	d.size = PG + 1;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zePhysicalMemCreate(self->ctx, self->dev, &d, &q));
	d.size = PG;
	d.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zePhysicalMemCreate(self->ctx, self->dev, &d, &q));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zePhysicalMemDestroy(self->ctx, NULL));
	/* Reservations. */
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(self->ctx, NULL, 0, &got));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemReserve(self->ctx, NULL, 100, &got));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeVirtualMemReserve(self->ctx, va + 1, PG, &got));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeVirtualMemReserve(self->ctx, NULL, PG, NULL));
	/* A hint at taken addresses still reserves, elsewhere. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemReserve(self->ctx, va, PG, (void **)&hint));
	EXPECT_NE(va, hint);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, hint, PG));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemFree(self->ctx, hint, PG));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemFree(self->ctx, self->host, PG));
	/* Maps. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeVirtualMemMap(self->ctx, va, PG, NULL, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeVirtualMemMap(self->ctx, NULL, PG, p, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeVirtualMemMap(self->ctx, va, PG, p, 0, (ze_memory_access_attribute_t)3));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		  zeVirtualMemMap(self->ctx, va, 0, p, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeVirtualMemMap(self->ctx, va + 8, PG, p, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeVirtualMemMap(self->ctx, va, PG, p, 8, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	/* Past the object; outside a reservation; over another mapping. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemMap(self->ctx, va, UNIT, p, PG,
				  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemMap(self->ctx, self->host, PG, p, 0,
				  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemMap(self->ctx, va + UNIT + PG, UNIT, p, 0,
				  ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(self->ctx, va, UNIT, p, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemMap(self->ctx, va + PG, PG, p, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	/* Attributes and unmaps. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeVirtualMemSetAccessAttribute(self->ctx, va, PG,
						 (ze_memory_access_attribute_t)7));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		  zeVirtualMemSetAccessAttribute(self->ctx, va, PG + 1,
						 ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemSetAccessAttribute(self->ctx, self->host, PG,
						 ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeVirtualMemGetAccessAttribute(self->ctx, va, PG, NULL, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeVirtualMemGetAccessAttribute(self->ctx, va, 4 * UNIT, &access, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, zeVirtualMemUnmap(self->ctx, va + 1, PG));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeVirtualMemUnmap(self->ctx, self->host, PG));
	/* zeMemFree is for allocations, not mappings. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(self->ctx, va));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(self->ctx, va, 2 * UNIT));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(self->ctx, p));
}

/* The device's properties say read-only is enforced. */
TEST_F(vm, read_only_is_enforced_says_the_device)
{
	ze_device_readonly_memory_ext_properties_t ro = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES,
	};
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, .pNext = &ro };

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(self->dev, &dp));
	EXPECT_EQ(ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED, ro.readonlyCapability);
}

ZEX_SELFTEST_MAIN
