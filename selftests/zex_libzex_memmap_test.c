// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_memmap_test.c - libzex's zeMemAllocHost with external memory
 *
 * Seed 001 through libzex: heap, stack and global memory mapped with
 * ze_external_memmap_sysmem_ext_desc_t come back at the same address as
 * ZE_MEMORY_TYPE_HOST_IMPORTED with their address range, free cleanly and
 * stay the application's; every result code of the extension (misaligned,
 * size 0, READ_ONLY with WRITE_COMBINED, unmappable or read-only memory,
 * unknown pointers) and ordinary zeMemAllocHost; the application's memory
 * mirrored (not charged to RLIMIT_MEMLOCK), libzex's own pinned (bounded
 * by it, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY past it);
 * zeMemAllocShared's and zeMemAllocDevice's memory entering the device's
 * address space (debugfs counts the mapping) and leaving it at zeMemFree;
 * compute-runtime's host pointer registration (zexDriverImportExternalPointer
 * and its pair) as MPI libraries use it; more host and shared allocations
 * live at once than the soft RLIMIT_NOFILE allows descriptors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "zex_userptr.h"
#include "zex/zex_api.h"

static uint8_t global_bss[4 * PG] __attribute__((aligned(4096)));

static ze_context_handle_t ctx_open(void)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_driver_handle_t drv;
	ze_context_handle_t ctx = NULL;
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &drv) || zeContextCreate(drv, &cd, &ctx))
		return NULL;
	return ctx;
}

static ze_result_t memmap(ze_context_handle_t ctx, void *mem, size_t size,
			  ze_host_mem_alloc_flags_t flags, void **out)
{
	ze_external_memmap_sysmem_ext_desc_t map = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC,
		.pSystemMemory = mem,
		.size = size,
	};
	ze_host_mem_alloc_desc_t d = {
		.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
		.pNext = &map,
		.flags = flags,
	};

	return zeMemAllocHost(ctx, &d, size, 0, out);
}

static ze_memory_type_t type_of(ze_context_handle_t ctx, const void *p)
{
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};

	if (zeMemGetAllocProperties(ctx, p, &props, NULL))
		return (ze_memory_type_t)-1;
	return props.type;
}

TEST(heap_stack_and_global_are_imported_in_place)
{
	uint8_t stack[2 * PG] __attribute__((aligned(4096)));
	uint8_t *heap = aligned_alloc(PG, 8 * PG);
	ze_context_handle_t ctx = ctx_open();
	void *mems[3] = { heap, stack, global_bss }, *out, *base;
	size_t sizes[3] = { 8 * PG, sizeof(stack), sizeof(global_bss) }, size;
	int i;

	ASSERT_NE(NULL, ctx);
	ASSERT_NE(NULL, heap);
	for (i = 0; i < 3; i++) {
		zex_fill(mems[i], sizes[i], (uint32_t)i);
		ASSERT_EQ(ZE_RESULT_SUCCESS, memmap(ctx, mems[i], sizes[i], 0, &out));
		EXPECT_EQ(mems[i], out);
		EXPECT_EQ(ZE_MEMORY_TYPE_HOST_IMPORTED, type_of(ctx, (char *)out + 100));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeMemGetAddressRange(ctx, (char *)out + PG + 1, &base, &size));
		EXPECT_EQ(mems[i], base);
		EXPECT_EQ(sizes[i], size);
		/* Overlapping mappings are refused by libzex's table. */
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, memmap(ctx, mems[i], PG, 0, &out));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(ctx, (char *)mems[i] + PG));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, mems[i]));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(ctx, mems[i]));
		/* The memory stays the application's, untouched. */
		EXPECT_TRUE(zex_same(mems[i], sizes[i], (uint32_t)i));
		EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(ctx, mems[i]));
	}
	free(heap);
	zeContextDestroy(ctx);
}

TEST(result_codes)
{
	ze_context_handle_t ctx = ctx_open();
	uint8_t *heap = aligned_alloc(PG, 4 * PG);
	uint8_t *ro = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *none = mmap(NULL, 2 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ze_external_memmap_sysmem_ext_desc_t map = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC,
		.pSystemMemory = heap, .size = 2 * PG,
	};
	ze_host_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
				       .pNext = &map };
	void *out, *base;
	size_t size;

	ASSERT_NE(NULL, ctx);
	ASSERT_NE(NULL, heap);
	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_NE(MAP_FAILED, none);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, memmap(ctx, heap + 8, PG, 0, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, memmap(ctx, heap, PG + 8, 0, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, memmap(ctx, heap, 0, 0, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  memmap(ctx, heap, PG, ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY |
			 ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED, &out));
	/* Memory that cannot be mapped, and read-only memory without the flag. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, memmap(ctx, none, 2 * PG, 0, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, memmap(ctx, ro, 2 * PG, 0, &out));
	ASSERT_EQ(ZE_RESULT_SUCCESS, memmap(ctx, ro, 2 * PG,
					    ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY, &out));
	EXPECT_EQ(ro, out);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, ro));
	/* The descriptor's size must be the allocation's. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemAllocHost(ctx, &d, PG, 0, &out));
	map.pSystemMemory = NULL;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeMemAllocHost(ctx, &d, 2 * PG, 0, &out));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, memmap(NULL, heap, PG, 0, &out));
	/* Unknown pointers. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(ctx, heap));
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(ctx, heap));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetAddressRange(ctx, heap, &base, &size));

	/* Ordinary host memory still works, and the device can use it. */
	d.pNext = NULL;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(ctx, &d, 3 * PG + 5, 0, &out));
	EXPECT_EQ(ZE_MEMORY_TYPE_HOST, type_of(ctx, out));
	memset(out, 0x42, 3 * PG + 5);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, out));
	munmap(ro, 2 * PG);
	munmap(none, 2 * PG);
	free(heap);
	zeContextDestroy(ctx);
}

/*
 * The application's memory is mirrored: not pinned, not charged, so an
 * unprivileged user maps more than RLIMIT_MEMLOCK; libzex's own host
 * memory is pinned and bounded by it.
 */
TEST(rlimit_memlock_bounds_pinned_host_memory_only)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit lim = { 8 * PG, 8 * PG };
		ze_context_handle_t ctx = ctx_open();
		ze_host_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
		uint8_t *heap = aligned_alloc(PG, 16 * PG);
		void *out;
		int bad = 0;

		if (!ctx || !heap || setrlimit(RLIMIT_MEMLOCK, &lim) || setuid(65534))
			_exit(10);
		memset(heap, 1, 16 * PG);
		bad |= memmap(ctx, heap, 16 * PG, 0, &out) != ZE_RESULT_SUCCESS;
		bad |= (vm_locked_kb() != 0) << 1;
		bad |= (zeMemFree(ctx, heap) != ZE_RESULT_SUCCESS) << 2;
		bad |= (zeMemAllocHost(ctx, &d, 16 * PG, 0, &out) !=
			ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY) << 3;
		bad |= (zeMemAllocHost(ctx, &d, 4 * PG, 0, &out) != ZE_RESULT_SUCCESS) << 4;
		bad |= (vm_locked_kb() != 4 * PG / 1024) << 5;
		bad |= (zeMemFree(ctx, out) != ZE_RESULT_SUCCESS) << 6;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Each host or shared allocation libzex makes holds a memfd: zeInit
 * raises the soft RLIMIT_NOFILE to the hard one, and eleven hundred live
 * at once past a soft limit lowered again to 256 (an allocation that runs
 * out raises it again); at the hard limit the next one is refused with
 * ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, and the last error names the limit.
 */
TEST(host_allocations_outnumber_the_soft_descriptor_limit)
{
	enum { N = 1100 };
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
		ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
		ze_context_handle_t ctx;
		ze_driver_handle_t drv;
		ze_device_handle_t dev;
		static void *mem[N];
		const char *why = "";
		struct rlimit lim;
		ze_result_t res = ZE_RESULT_SUCCESS;
		uint32_t n = 1;
		int i, made = 0, bad = 0;

		/* zeInit raises the soft limit to the hard one... */
		if (getrlimit(RLIMIT_NOFILE, &lim) || lim.rlim_max < N + 200)
			_exit(100);
		lim.rlim_cur = 256;
		if (setrlimit(RLIMIT_NOFILE, &lim))
			_exit(101);
		ctx = ctx_open();
		if (!ctx || zeDriverGet(&n, &drv) || zeDeviceGet(drv, &n, &dev) ||
		    getrlimit(RLIMIT_NOFILE, &lim))
			_exit(102);
		bad |= (lim.rlim_cur != lim.rlim_max) << 6;
		/* ...and so does an allocation that finds it lowered again. */
		lim.rlim_cur = 256;
		if (setrlimit(RLIMIT_NOFILE, &lim))
			_exit(103);
		for (i = 0; i < N; i++) {
			res = i & 1 ? zeMemAllocShared(ctx, &dd, &hd, PG, 0, dev, &mem[i]) :
				      zeMemAllocHost(ctx, &hd, PG, 0, &mem[i]);
			if (res)
				break;
			memset(mem[i], i, PG);
			made++;
		}
		bad |= (made != N) << 0;
		for (i = 0; i < made; i++)
			bad |= (zeMemFree(ctx, mem[i]) != ZE_RESULT_SUCCESS) << 1;

		/* Now the hard limit: a few descriptors left, then none. */
		lim.rlim_max = lim.rlim_cur = (rlim_t)(dup(0)) + 4;
		close((int)lim.rlim_cur - 4);
		if (setrlimit(RLIMIT_NOFILE, &lim))
			_exit(104);
		for (made = 0; made < 16; made++) {
			res = zeMemAllocHost(ctx, &hd, PG, 0, &mem[made]);
			if (res)
				break;
		}
		bad |= (res != ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY) << 2;
		bad |= (made == 16) << 3;
		zeDriverGetLastErrorDescription(drv, &why);
		bad |= !strstr(why, "RLIMIT_NOFILE") << 4;
		for (i = 0; i < made; i++)
			bad |= (zeMemFree(ctx, mem[i]) != ZE_RESULT_SUCCESS) << 5;
		zeContextDestroy(ctx);
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* The mappings of this process's zex address space, from debugfs; -1 without it. */
static int device_mappings(void)
{
	char cmd[160], path[128] = "", line[256];
	int mappings = -1, record;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "ls /sys/kernel/debug/zex/vm-%d-* 2>/dev/null | tail -n1",
		 getpid());
	f = popen(cmd, "r");
	if (!f)
		return -1;
	if (!fgets(path, sizeof(path), f))
		path[0] = 0;
	pclose(f);
	path[strcspn(path, "\n")] = 0;
	f = path[0] ? fopen(path, "r") : NULL;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		sscanf(line, "mappings: %d of %d bytes", &mappings, &record);
	fclose(f);
	return mappings;
}

TEST(shared_memory_is_mapped_for_the_device)
{
	ze_context_handle_t ctx = ctx_open();
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	int before;
	void *s;

	ASSERT_NE(NULL, ctx);
	before = device_mappings();
	if (before < 0)
		SKIP(goto out, "no debugfs");
	/* Shared memory is a host allocation in the device's address space. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(ctx, &dd, &hd, 5 * PG, 1 << 21, NULL, &s));
	EXPECT_EQ(0, (uintptr_t)s & ((1 << 21) - 1));
	EXPECT_EQ(before + 1, device_mappings());
	EXPECT_EQ(ZE_MEMORY_TYPE_SHARED, type_of(ctx, s));
	memset(s, 3, 5 * PG);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, s));
	EXPECT_EQ(before, device_mappings());
	/* libzex's memory goes with it: nothing is mapped there any more. */
	EXPECT_EQ(-1, msync(s, PG, MS_ASYNC));
	EXPECT_EQ(ENOMEM, errno);
	/* Bad arguments. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemAllocShared(ctx, NULL, &hd, PG, 0, NULL, &s));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		  zeMemAllocShared(ctx, &dd, &hd, 0, 0, NULL, &s));
	dd.flags = 0x100;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeMemAllocShared(ctx, &dd, &hd, PG, 0, NULL, &s));
out:
	zeContextDestroy(ctx);
}

/* Device memory is bound in the device's address space at its pointer. */
TEST(device_memory_is_mapped_for_the_device)
{
	ze_context_handle_t ctx = ctx_open();
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	uint32_t n = 1;
	int before;
	void *d;

	ASSERT_NE(NULL, ctx);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &dev));
	before = device_mappings();
	if (before < 0)
		SKIP(goto out, "no debugfs");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, 3 * PG, 0, dev, &d));
	EXPECT_EQ(before + 1, device_mappings());
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, d));
	EXPECT_EQ(before, device_mappings());
out:
	zeContextDestroy(ctx);
}

typedef ze_result_t (*import_fn)(ze_driver_handle_t, void *, size_t);
typedef ze_result_t (*release_fn)(ze_driver_handle_t, void *);
typedef ze_result_t (*base_fn)(ze_driver_handle_t, void *, void **);

/*
 * compute-runtime's host pointer registration, found by name as MPICH
 * finds it: any address and size; a range inside a registration is
 * registered already, one overlapping it otherwise is refused; two
 * buffers sharing a page both register; registered memory is no libzex
 * allocation; the device copies into it with no import of its own (the
 * mappings stay the registrations'); a release takes any address inside
 * and ends it.
 */
TEST(host_pointers_register_for_the_device_as_mpi_libraries_do)
{
	ze_context_handle_t ctx = ctx_open();
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	uint8_t *heap = malloc(4 * PG), *p = heap + 24, *q, *dev_mem;
	uint8_t *ro = mmap(NULL, 2 * PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *none = mmap(NULL, 2 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST };
	size_t size = 2 * PG + 50, i;
	ze_command_list_handle_t list;
	ze_event_pool_handle_t pool;
	ze_event_handle_t done;
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	import_fn import;
	release_fn release;
	base_fn base_of;
	uint32_t n = 1;
	void *base;
	int before;

	ASSERT_NE(NULL, ctx);
	ASSERT_NE(NULL, heap);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionFunctionAddress(
		drv, "zexDriverImportExternalPointer", (void **)&import));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionFunctionAddress(
		drv, "zexDriverReleaseImportedPointer", (void **)&release));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetExtensionFunctionAddress(
		drv, "zexDriverGetHostPointerBaseAddress", (void **)&base_of));
	/* What the copy below uses, made first: the count is of the registrations. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(ctx, &pd, 0, NULL, &pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(pool, &ed, &done));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(ctx, dev, &qd, &list));
	before = device_mappings();
	if (before < 0)
		SKIP(goto out, "no debugfs");

	ASSERT_EQ(ZE_RESULT_SUCCESS, import(drv, p, size));
	EXPECT_EQ(before + 1, device_mappings());
	/* Inside: registered already. Across either end: refused. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, import(drv, p + 8, 16));
	EXPECT_EQ(before + 1, device_mappings());
	EXPECT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, import(drv, p + size - 8, 64));
	EXPECT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, import(drv, p - 8, 16));
	/* The next buffer, in the same page: registered too. */
	q = p + size;
	ASSERT_EQ(ZE_RESULT_SUCCESS, import(drv, q, 100));
	EXPECT_EQ(before + 2, device_mappings());
	EXPECT_EQ(ZE_RESULT_SUCCESS, base_of(drv, p + 100, &base));
	EXPECT_EQ(p, base);
	EXPECT_EQ(ZE_RESULT_SUCCESS, base_of(drv, q + 99, &base));
	EXPECT_EQ(q, base);
	EXPECT_EQ(ZE_RESULT_SUCCESS, base_of(drv, p, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, base_of(drv, q + 100, &base));
	/* No allocation of libzex. */
	EXPECT_EQ(ZE_MEMORY_TYPE_UNKNOWN, type_of(ctx, p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(ctx, p));

	/* The device writes it with no import of its own. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, size, 0, dev, (void **)&dev_mem));
	for (i = 0; i < size; i++)
		dev_mem[i] = (uint8_t)(i * 7 + 1);
	memset(p, 0, size);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(list, p, dev_mem, size, done,
								   0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(done, UINT64_MAX));
	EXPECT_EQ(0, memcmp(p, dev_mem, size));
	/*
	 * The registrations and the device memory: an import of the copy's
	 * own would be held until the queue is next waited for.
	 */
	EXPECT_EQ(before + 3, device_mappings());
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, dev_mem));

	/* Any address inside ends the registration; then it is unknown. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, release(drv, p + 10));
	EXPECT_EQ(before + 1, device_mappings());
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, release(drv, p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, base_of(drv, p, &base));
	EXPECT_EQ(ZE_RESULT_SUCCESS, release(drv, q));
	EXPECT_EQ(before, device_mappings());

	/* Bad arguments; memory that cannot be imported; read-only memory. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, import(drv, NULL, 8));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, import(drv, p, 0));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, import(NULL, p, 8));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, import(drv, none, 2 * PG));
	EXPECT_EQ(before, device_mappings());
	ASSERT_NE(MAP_FAILED, ro);
	EXPECT_EQ(ZE_RESULT_SUCCESS, import(drv, ro, 2 * PG));
	EXPECT_EQ(ZE_RESULT_SUCCESS, release(drv, ro));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeDriverGetExtensionFunctionAddress(drv, "zexDriverNoSuchThing", &base));
out:
	zeCommandListDestroy(list);
	zeEventDestroy(done);
	zeEventPoolDestroy(pool);
	munmap(ro, 2 * PG);
	munmap(none, 2 * PG);
	free(heap);
	zeContextDestroy(ctx);
}

ZEX_SELFTEST_MAIN
