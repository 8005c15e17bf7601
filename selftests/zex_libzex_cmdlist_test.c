// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_cmdlist_test.c - libzex's command queues, command lists and fences
 *
 * Level Zero's execution on zex's engines, through libzex's entry points:
 * the queue groups the device reports; regular lists run on queues of
 * both groups, in both modes, with fences; immediate lists, synchronous
 * and asynchronous; copies between device memory and the application's
 * heap and stack (which libzex imports for the job), fills of every
 * pattern size, region copies, global timestamps; lists longer than one
 * kernel job keep their order; regular lists run through an immediate
 * one; queue priorities order a tile's engine (root-device queues under
 * implicit scaling stay normal); every refused call with its result code;
 * zero-initialised descriptors taken (compute-runtime's leniency, which
 * UCX relies on), other types refused; image limits all 0, images
 * refused, and the last error saying why.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "zex/zex_ddi.h"

#define SIZE	(256u << 10)

FIXTURE(l0) {
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	uint32_t num_groups;
	ze_command_queue_group_properties_t groups[4];
	uint8_t *mem;	/* device memory */
};

FIXTURE_SETUP(l0)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_driver_handle_t drv;
	uint32_t n = 1, i;

	if (zeInit(0) || zeDriverGet(&n, &drv) || !n)
		SKIP(return, "no zex driver");
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(drv, &n, &self->dev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &self->ctx));
	self->num_groups = 4;
	for (i = 0; i < 4; i++)
		self->groups[i].stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetCommandQueueGroupProperties(
		self->dev, &self->num_groups, self->groups));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, SIZE, 0, self->dev,
						      (void **)&self->mem));
}

FIXTURE_TEARDOWN(l0)
{
	if (!self->ctx)
		return;
	zeMemFree(self->ctx, self->mem);
	zeContextDestroy(self->ctx);
}

static ze_command_queue_handle_t queue(struct _test_data_l0 *self, uint32_t ordinal,
				       ze_command_queue_mode_t mode)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .ordinal = ordinal, .mode = mode };
	ze_command_queue_handle_t q = NULL;

	return zeCommandQueueCreate(self->ctx, self->dev, &qd, &q) ? NULL : q;
}

static ze_command_list_handle_t list(struct _test_data_l0 *self, uint32_t ordinal)
{
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      .commandQueueGroupOrdinal = ordinal };
	ze_command_list_handle_t l = NULL;

	return zeCommandListCreate(self->ctx, self->dev, &ld, &l) ? NULL : l;
}

static ze_command_list_handle_t immediate(struct _test_data_l0 *self, uint32_t ordinal,
					  ze_command_queue_mode_t mode)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .ordinal = ordinal, .mode = mode };
	ze_command_list_handle_t l = NULL;

	return zeCommandListCreateImmediate(self->ctx, self->dev, &qd, &l) ? NULL : l;
}

TEST_F(l0, queue_groups_say_what_the_engines_do)
{
	ASSERT_EQ(2, self->num_groups);
	EXPECT_TRUE(self->groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
	EXPECT_TRUE(self->groups[0].flags &
		    ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS);
	EXPECT_TRUE(self->groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
	EXPECT_EQ(ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY, self->groups[1].flags);
	EXPECT_EQ(256, self->groups[0].maxMemoryFillPatternSize);
	EXPECT_EQ(256, self->groups[1].maxMemoryFillPatternSize);
	EXPECT_LE(1, self->groups[0].numQueues);
	EXPECT_EQ(2, self->groups[1].numQueues);
}

/* Heap -> device -> stack and back through a regular list, on each group and mode. */
TEST_F(l0, regular_lists_copy_through_the_device)
{
	uint8_t *heap = malloc(SIZE), stack[4096];
	uint32_t g, mode;

	ASSERT_NE(NULL, heap);
	for (g = 0; g < self->num_groups; g++)
		for (mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
		     mode <= ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS; mode++) {
			ze_command_queue_handle_t q = queue(self, g, mode);
			ze_command_list_handle_t l = list(self, g);
			ze_fence_desc_t fd = { .stype = ZE_STRUCTURE_TYPE_FENCE_DESC };
			ze_fence_handle_t f;

			uint32_t ordinal = 99, index = 99;

			ASSERT_NE(NULL, q);
			ASSERT_NE(NULL, l);
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueGetOrdinal(q, &ordinal));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueGetIndex(q, &index));
			EXPECT_EQ(g, ordinal);
			EXPECT_EQ(0, index);
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(q, &fd, &f));
			EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceQueryStatus(f));
			zex_fill(heap, SIZE, g * 2 + mode);
			memset(stack, 0, sizeof(stack));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(
				l, self->mem, heap, SIZE, NULL, 0, NULL));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendBarrier(l, NULL, 0, NULL));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(
				l, stack, self->mem + 4096, sizeof(stack), NULL, 0, NULL));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
			ASSERT_EQ(ZE_RESULT_SUCCESS,
				  zeCommandQueueExecuteCommandLists(q, 1, &l, f));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceHostSynchronize(f, UINT64_MAX));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceQueryStatus(f));
			EXPECT_EQ(0, memcmp(stack, heap + 4096, sizeof(stack)));
			EXPECT_EQ(0, memcmp(self->mem, heap, SIZE));
			/* Run again after a reset of the fence: the same again. */
			memset(stack, 0, sizeof(stack));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceReset(f));
			EXPECT_EQ(ZE_RESULT_NOT_READY, zeFenceQueryStatus(f));
			ASSERT_EQ(ZE_RESULT_SUCCESS,
				  zeCommandQueueExecuteCommandLists(q, 1, &l, f));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceQueryStatus(f));
			EXPECT_EQ(0, memcmp(stack, heap + 4096, sizeof(stack)));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceDestroy(f));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(l));
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueDestroy(q));
		}
	free(heap);
}

/*
 * Every pattern size on both groups, through immediate lists of both
 * modes: up to 16 bytes one kernel FILL, longer ones its pieces and
 * doubling copies; the fill's size is no multiple of the pattern, and
 * shorter than the longest pattern once.
 */
TEST_F(l0, immediate_lists_fill_with_every_pattern_size)
{
	static const size_t sizes[] = { SIZE - 3, 40 };
	uint8_t *back = malloc(SIZE), pattern[256];
	uint32_t ordinal, mode, n;
	size_t ps, i;

	ASSERT_NE(NULL, back);
	for (i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(i * 7 + 1);
	for (ordinal = 0; ordinal < 2; ordinal++)
		for (mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
		     mode <= ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS; mode++) {
			ze_command_list_handle_t l = immediate(self, ordinal, mode);

			ASSERT_NE(NULL, l);
			for (ps = 1; ps <= sizeof(pattern); ps *= 2)
				for (n = 0; n < 2; n++) {
					size_t size = sizes[n];
					bool ok = true;

					memset(back, 0, SIZE);
					ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(
						l, self->mem, back, SIZE, NULL, 0, NULL));
					ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(
						l, self->mem, pattern, ps, size, NULL, 0, NULL));
					ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(
						l, back, self->mem, SIZE, NULL, 0, NULL));
					ASSERT_EQ(ZE_RESULT_SUCCESS,
						  zeCommandListHostSynchronize(l, UINT64_MAX));
					for (i = 0; i < SIZE; i++)
						ok &= back[i] == (i < size ? pattern[i % ps] : 0);
					EXPECT_TRUE(ok) TH_LOG("group %u, pattern %zu, size %zu",
							       ordinal, ps, size);
				}
			EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(l));
		}
	free(back);
}

/* 2000 fills of one byte, more than one kernel job: the last one wins. */
TEST_F(l0, a_long_list_keeps_its_order)
{
	ze_command_queue_handle_t q = queue(self, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_list_handle_t l = list(self, 0);
	uint8_t b, back[64];
	int i;

	ASSERT_NE(NULL, q);
	ASSERT_NE(NULL, l);
	for (i = 0; i < 2000; i++) {
		b = (uint8_t)i;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(
			l, self->mem, &b, 1, sizeof(back), NULL, 0, NULL));
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, back, self->mem,
								   sizeof(back), NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
	for (i = 0; i < (int)sizeof(back); i++)
		EXPECT_EQ((uint8_t)1999, back[i]);
	zeCommandListDestroy(l);
	zeCommandQueueDestroy(q);
}

/*
 * Priorities on one engine (group 0, queue 0 of @dev): a holder list, once
 * it says it runs, waits for the host; lists of a low, a normal and a high
 * priority queue are then executed in that order. Each records in @seen
 * the mark the list before it left on the engine (the holder's is 10),
 * then leaves its own (low 1, normal 2, high 3). Return: 0 or -1.
 */
static int run_priorities(struct _test_data_l0 *self, ze_device_handle_t dev, uint64_t seen[3])
{
	static const ze_command_queue_priority_t prio[3] = {
		ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
		ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH,
	};
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 2 };
	ze_event_desc_t ed[2] = { { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 0 },
				  { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 1 } };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC };
	ze_command_queue_handle_t q[4] = { 0 };
	ze_command_list_handle_t l[4] = { 0 };
	ze_event_handle_t running = NULL, go = NULL;
	ze_event_pool_handle_t pool = NULL;
	uint64_t ten = 10, *m = NULL;
	int i, bad = 0;

	if (zeEventPoolCreate(self->ctx, &pd, 0, NULL, &pool) ||
	    zeEventCreate(pool, &ed[0], &running) || zeEventCreate(pool, &ed[1], &go) ||
	    zeMemAllocHost(self->ctx, &hd, 4096, 0, (void **)&m))
		return -1;
	memset(m, 0, 4096);
	for (i = 0; i < 4; i++) {
		ze_command_queue_desc_t qd = {
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
			.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
			.priority = i ? prio[i - 1] : ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
		};
		uint64_t mine = (uint64_t)i;

		bad |= zeCommandQueueCreate(self->ctx, dev, &qd, &q[i]) ||
		       zeCommandListCreate(self->ctx, dev, &ld, &l[i]);
		if (bad)
			break;
		if (!i)
			bad |= zeCommandListAppendSignalEvent(l[0], running) ||
			       zeCommandListAppendWaitOnEvents(l[0], 1, &go) ||
			       zeCommandListAppendMemoryFill(l[0], m, &ten, 8, 8, NULL, 0, NULL);
		else
			bad |= zeCommandListAppendMemoryCopy(l[i], &m[i], m, 8, NULL, 0, NULL) ||
			       zeCommandListAppendMemoryFill(l[i], m, &mine, 8, 8, NULL, 0, NULL);
		bad |= zeCommandListClose(l[i]) ||
		       zeCommandQueueExecuteCommandLists(q[i], 1, &l[i], NULL);
		/* The holder runs before the others come. */
		if (!i)
			bad |= zeEventHostSynchronize(running, UINT64_MAX);
	}
	bad |= zeEventHostSignal(go);
	for (i = 0; i < 4; i++) {
		if (q[i])
			bad |= zeCommandQueueSynchronize(q[i], UINT64_MAX) ||
			       zeCommandQueueDestroy(q[i]);
		if (l[i])
			zeCommandListDestroy(l[i]);
	}
	memcpy(seen, &m[1], 3 * sizeof(*seen));
	zeMemFree(self->ctx, m);
	zeEventDestroy(running);
	zeEventDestroy(go);
	zeEventPoolDestroy(pool);
	return bad ? -1 : 0;
}

/*
 * A tile's engine runs the high priority list first, then normal, then low;
 * the root device's queues under implicit scaling all run at normal
 * priority (as compute-runtime's), in the order they were executed.
 */
TEST_F(l0, queue_priorities_order_a_tiles_engine)
{
	ze_device_handle_t tile;
	uint32_t n = 1;
	uint64_t seen[3];

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->dev, &n, &tile));
	if (n) {
		ASSERT_EQ(0, run_priorities(self, tile, seen));
		EXPECT_EQ(10, seen[2]);
		EXPECT_EQ(3, seen[1]);
		EXPECT_EQ(2, seen[0]);
	}
	ASSERT_EQ(0, run_priorities(self, self->dev, seen));
	if (self->groups[0].numQueues == 1) {
		/* Implicit scaling: one root compute queue, no priorities. */
		EXPECT_EQ(10, seen[0]);
		EXPECT_EQ(1, seen[1]);
		EXPECT_EQ(2, seen[2]);
	} else {
		EXPECT_EQ(10, seen[2]);
		EXPECT_EQ(3, seen[1]);
		EXPECT_EQ(2, seen[0]);
	}
}

TEST_F(l0, region_copies_and_timestamps)
{
	ze_command_list_handle_t l = immediate(self, 0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
	ze_copy_region_t src = { .originX = 3, .originY = 2, .width = 10, .height = 4, .depth = 1 };
	ze_copy_region_t dst = { .originX = 0, .originY = 1, .width = 10, .height = 4, .depth = 1 };
	uint8_t in[32 * 8], out[16 * 8];
	uint64_t ts[2] = { 0 };
	uint32_t x, y;
	bool ok = true;

	ASSERT_NE(NULL, l);
	zex_fill(in, sizeof(in), 9);
	memset(out, 0, sizeof(out));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWriteGlobalTimestamp(l, &ts[0], NULL, 0,
									      NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopyRegion(
		l, out, &dst, 16, 0, in, &src, 32, 0, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendWriteGlobalTimestamp(l, &ts[1], NULL, 0,
									      NULL));
	for (y = 0; y < 8; y++)
		for (x = 0; x < 16; x++) {
			bool inside = y >= 1 && y < 5 && x < 10;
			uint8_t want = inside ? in[(y - 1 + 2) * 32 + x + 3] : 0;

			ok &= out[y * 16 + x] == want;
		}
	EXPECT_TRUE(ok);
	EXPECT_LT(0, ts[0]);
	EXPECT_LE(ts[0], ts[1]);
	zeCommandListDestroy(l);
}

TEST_F(l0, refused_calls_say_why)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC };
	ze_fence_desc_t fd = { .stype = ZE_STRUCTURE_TYPE_FENCE_DESC };
	ze_command_queue_handle_t q = queue(self, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_queue_handle_t q2 = queue(self, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS), bad;
	ze_command_list_handle_t l = list(self, 0), copy = list(self, 1), dead = list(self, 0);
	ze_fence_handle_t f2;
	uint8_t b = 0;
	void *gone;

	ASSERT_NE(NULL, q);
	ASSERT_NE(NULL, q2);
	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, copy);
	ASSERT_NE(NULL, dead);
	qd.ordinal = self->num_groups;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandQueueCreate(self->ctx, self->dev, &qd, &bad));
	qd.ordinal = 1;
	qd.index = self->groups[1].numQueues;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandQueueCreate(self->ctx, self->dev, &qd, &bad));
	qd.index = 0;
	qd.mode = 7;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION,
		  zeCommandQueueCreate(self->ctx, self->dev, &qd, &bad));
	/* Not closed; of the other group; a fence of another queue. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(copy));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
		  zeCommandQueueExecuteCommandLists(q, 1, &copy, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(q2, &fd, &f2));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandQueueExecuteCommandLists(q, 1, &l, f2));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zeCommandQueueExecuteCommandLists(q, 0, &l, NULL));
	/* A closed list takes nothing more. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListAppendMemoryFill(l, self->mem, &b, 1, 1, NULL, 0, NULL));
	/* Bad fills and copies. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListReset(l));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
		  zeCommandListAppendMemoryFill(l, self->mem, &b, 3, 6, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
		  zeCommandListAppendMemoryFill(l, self->mem, &b, 512, 1024, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS,
		  zeCommandListAppendMemoryCopy(l, self->mem + 8, self->mem, 16, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeCommandListAppendMemoryCopy(l, NULL, self->mem, 16, NULL, 0, NULL));
	/* Memory that is no longer there: refused when the list runs. */
	gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, gone);
	munmap(gone, 4096);
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeCommandListAppendMemoryCopy(l, self->mem, gone, 64, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
	/* Only an immediate list is synchronized; destroyed handles are refused. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandListHostSynchronize(l, 0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(dead));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandListDestroy(dead));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeCommandListClose(dead));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceDestroy(f2));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeFenceQueryStatus(f2));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandQueueSynchronize((ze_command_queue_handle_t)self->ctx, 0));
	/* A context on a device that is not one. */
	{
		ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
		ze_device_handle_t not_a_device = (ze_device_handle_t)self->ctx;
		ze_driver_handle_t drv;
		ze_context_handle_t c;
		uint32_t n = 1;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			  zeContextCreateEx(drv, &cd, 1, &not_a_device, &c));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			  zeContextCreateEx(drv, &cd, 1, NULL, &c));
	}
	/* The queue still runs work after all that. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
	zeCommandListDestroy(l);
	zeCommandListDestroy(copy);
	zeCommandQueueDestroy(q2);
	zeCommandQueueDestroy(q);
}

/*
 * Regular lists run through an immediate list, twice: they stay closed
 * and reusable; what may not be appended is refused.
 */
/*
 * Descriptors left zero-initialised (stype 0, as UCX passes them and
 * compute-runtime takes them) are taken for the type the call expects, and
 * work; a descriptor of another type is refused.
 */
TEST_F(l0, zero_initialised_descriptors_work_and_other_types_are_refused)
{
	ze_command_queue_desc_t qd = {};
	ze_command_list_desc_t ld = {};
	ze_context_desc_t cd = {};
	ze_fence_desc_t fd = {};
	ze_device_mem_alloc_desc_t dd = {};
	ze_host_mem_alloc_desc_t hd = {};
	ze_memory_allocation_properties_t props = {};
	ze_device_properties_t dp = {};
	ze_command_list_handle_t imm, regular;
	ze_context_handle_t ctx, other;
	ze_command_queue_handle_t q;
	ze_driver_handle_t drv;
	ze_fence_handle_t fence;
	uint32_t n = 1;
	void *d, *h;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(drv, &cd, &ctx));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(ctx, &dd, 4096, 0, self->dev, &d));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(ctx, &hd, 4096, 0, &h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(ctx, self->dev, &qd, &q));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(ctx, self->dev, &ld, &regular));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(q, &fd, &fence));
	memset(h, 0x5a, 4096);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(regular, d, h, 4096, NULL, 0,
								   NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(regular));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 1, &regular, fence));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceHostSynchronize(fence, UINT64_MAX));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(ctx, self->dev, &qd, &imm));
	memset(h, 0, 4096);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(imm, h, d, 4096, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(imm, UINT64_MAX));
	EXPECT_EQ(0x5a, ((uint8_t *)h)[4095]);
	/*
	 * Zero-initialised properties structures are filled in too (UCX's UCM
	 * and compute-benchmarks pass them).
	 */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(ctx, d, &props, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_DEVICE, props.type);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetProperties(self->dev, &dp));
	EXPECT_EQ(ZE_DEVICE_TYPE_GPU, dp.type);

	/* Another type: refused. */
	cd.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
	qd.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
	ld.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
	fd.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	dd.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeContextCreate(drv, &cd, &other));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeCommandQueueCreate(ctx, self->dev, &qd, &q));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListCreate(ctx, self->dev, &ld, &regular));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeFenceCreate(q, &fd, &fence));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemAllocDevice(ctx, &dd, 4096, 0, self->dev, &d));
	props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemGetAllocProperties(ctx, d, &props, NULL));
	dp.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeDeviceGetProperties(self->dev, &dp));

	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(imm));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeFenceDestroy(fence));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(regular));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueDestroy(q));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(ctx, d));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(ctx));
}

TEST_F(l0, regular_lists_run_through_an_immediate_list)
{
	ze_command_list_handle_t imm = immediate(self, 0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_list_handle_t fill = list(self, 0), back = list(self, 0);
	ze_command_list_handle_t open = list(self, 0), copy = list(self, 1);
	ze_command_list_handle_t both[2] = { fill, back };
	uint8_t b, out[4096];
	int round;
	size_t i;

	ASSERT_NE(NULL, imm);
	ASSERT_NE(NULL, fill);
	ASSERT_NE(NULL, back);
	ASSERT_NE(NULL, open);
	ASSERT_NE(NULL, copy);
	b = 0x5a;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(fill, self->mem, &b, 1,
								   sizeof(out), NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(back, out, self->mem,
								   sizeof(out), NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(fill));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(back));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(copy));
	for (round = 0; round < 2; round++) {
		bool ok = true;

		memset(out, 0, sizeof(out));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListImmediateAppendCommandListsExp(
			imm, 2, both, NULL, 0, NULL));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(imm, UINT64_MAX));
		for (i = 0; i < sizeof(out); i++)
			ok &= out[i] == 0x5a;
		EXPECT_TRUE(ok) TH_LOG("round %d", round);
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListImmediateAppendCommandListsExp(fill, 1, &back, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListImmediateAppendCommandListsExp(imm, 1, &open, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
		  zeCommandListImmediateAppendCommandListsExp(imm, 1, &imm, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
		  zeCommandListImmediateAppendCommandListsExp(imm, 1, &copy, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeCommandListImmediateAppendCommandListsExp(imm, 1, NULL, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(imm, UINT64_MAX));
	zeCommandListDestroy(copy);
	zeCommandListDestroy(open);
	zeCommandListDestroy(back);
	zeCommandListDestroy(fill);
	zeCommandListDestroy(imm);
}

/*
 * Images are not zex's: the device's image limits are all 0 (the
 * specification's "unsupported"), the entries that make them say so, and
 * the last error says why.
 */
TEST_F(l0, images_are_not_supported_and_say_why)
{
	ze_device_image_properties_t ip = { .stype = ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES };
	ze_image_desc_t id = { .stype = ZE_STRUCTURE_TYPE_IMAGE_DESC };
	ze_image_dditable_t it;
	ze_driver_handle_t drv;
	ze_image_handle_t img;
	const char *why = NULL;
	uint32_t n = 1;

	memset(&ip.maxImageDims1D, 0xff, sizeof(ip) - offsetof(ze_device_image_properties_t, maxImageDims1D));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetImageProperties(self->dev, &ip));
	EXPECT_EQ(0, ip.maxImageDims1D);
	EXPECT_EQ(0, ip.maxImageDims2D);
	EXPECT_EQ(0, ip.maxImageDims3D);
	EXPECT_EQ(0, ip.maxImageBufferSize);
	EXPECT_EQ(0, ip.maxImageArraySlices);
	EXPECT_EQ(0, ip.maxSamplers);
	EXPECT_EQ(0, ip.maxReadImageArgs);
	EXPECT_EQ(0, ip.maxWriteImageArgs);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeDeviceGetImageProperties(self->dev, NULL));
	ip.stype = ZE_STRUCTURE_TYPE_IMAGE_PROPERTIES;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeDeviceGetImageProperties(self->dev, &ip));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceGetImageProperties(NULL, &ip));

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeGetImageProcAddrTable(ZE_API_VERSION_CURRENT, &it));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  it.pfnCreate(self->ctx, self->dev, &id, &img));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetLastErrorDescription(drv, &why));
	EXPECT_NE(NULL, strstr(why, "zeImageCreate")) TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "no images or samplers"));
}

/* A launch names a kernel, and runs on the compute group only. */
TEST_F(l0, a_launch_needs_a_kernel)
{
	ze_group_count_t groups = { 1, 1, 1 };
	ze_command_list_handle_t l = list(self, 0);

	ASSERT_NE(NULL, l);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListAppendLaunchKernel(l, NULL, &groups, NULL, 0, NULL));
	zeCommandListDestroy(l);
}

ZEX_SELFTEST_MAIN
