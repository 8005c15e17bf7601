// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_handles_test.c - libzex against misused and hostile handles
 *
 * Built twice with libzex compiled in from its sources: under AddressSanitizer
 * (zex_libzex_handles_test) and under ThreadSanitizer
 * (zex_libzex_handles_tsan_test), so that any read of freed memory or any
 * race inside libzex fails the run. A destroyed context, destroyed twice or
 * used after, is refused, also once its address could have been reused; a
 * forged handle (a copy of a context's bytes, a device passed as a context,
 * freed memory) is refused; IPC handles whose bytes name an fd libzex does
 * not hold (its own device fd, an fd of a real export under a wrong id) are
 * refused by put and open, and that fd stays open; destroyed command queues,
 * command lists, event pools, events, fences and physical memory are
 * refused, also once new ones exist, and a handle of one type is none of
 * another; threads
 * destroying and misusing contexts and execution handles at once agree.
 */

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "ipc/ipc_handle.h"

#define K64	65536ull

#ifdef __SANITIZE_THREAD__
/*
 * The debug kernel refuses MADV_DONTDUMP on TSan's shadow (a core-dump
 * hint only): run without it.
 */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "use_madv_dontdump=0";
}
#endif

struct l0 {
	ze_driver_handle_t drv;
	ze_device_handle_t root;
};

static int l0_open(struct l0 *l)
{
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &l->drv))
		return -1;
	n = 1;
	return zeDeviceGet(l->drv, &n, &l->root) ? -1 : 0;
}

static ze_context_handle_t ctx_new(struct l0 *l)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_context_handle_t c = NULL;

	return zeContextCreate(l->drv, &cd, &c) ? NULL : c;
}

static ze_result_t alloc(ze_context_handle_t c, ze_device_handle_t dev, void **p)
{
	ze_device_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };

	return zeMemAllocDevice(c, &d, K64, 0, dev, p);
}

/* libzex's own fd on the zex render node, from /proc/self/fd. */
static int device_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	char path[300], target[64];
	struct dirent *e;
	int fd = -1;

	while (d && (e = readdir(d))) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = 0;
			if (!strncmp(target, "/dev/dri/", 9))
				fd = atoi(e->d_name);
		}
	}
	if (d)
		closedir(d);
	return fd;
}

TEST(a_destroyed_context_is_refused)
{
	ze_context_handle_t a, b;
	struct l0 l;
	void *p;

	ASSERT_EQ(0, l0_open(&l));
	a = ctx_new(&l);
	ASSERT_NE(NULL, a);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(a));
	/* Used after destroy, destroyed twice: refused, nothing read. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, alloc(a, l.root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeContextDestroy(a));
	/* A new context does not bring the old handle back. */
	b = ctx_new(&l);
	ASSERT_NE(NULL, b);
	EXPECT_NE(a, b);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeContextDestroy(a));
	ASSERT_EQ(ZE_RESULT_SUCCESS, alloc(b, l.root, &p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(b, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(b));
}

TEST(a_thousand_contexts_later_the_stale_one_is_still_refused)
{
	ze_context_handle_t stale, c;
	struct l0 l;
	int i;

	ASSERT_EQ(0, l0_open(&l));
	stale = ctx_new(&l);
	ASSERT_NE(NULL, stale);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(stale));
	for (i = 0; i < 1000; i++) {
		c = ctx_new(&l);
		ASSERT_NE(NULL, c);
		EXPECT_NE(stale, c);
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(c));
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeContextDestroy(stale));
}

TEST(forged_handles_are_refused)
{
	ze_context_handle_t c;
	char copy[256], *freed;
	volatile uintptr_t gone;
	struct l0 l;
	void *p;

	ASSERT_EQ(0, l0_open(&l));
	c = ctx_new(&l);
	ASSERT_NE(NULL, c);
	/* The same bytes elsewhere are not a context. */
	memcpy(copy, c, 64);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  alloc((ze_context_handle_t)copy, l.root, &p));
	/* A device or the driver where a context belongs. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  alloc((ze_context_handle_t)l.root, l.root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeContextDestroy((ze_context_handle_t)l.drv));
	/* A context where a device belongs. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, alloc(c, (ze_device_handle_t)c, &p));
	/* Freed memory: ASan fails the run if libzex reads it. */
	freed = malloc(128);
	ASSERT_NE(NULL, freed);
	memcpy(freed, c, 64);
	gone = (uintptr_t)freed;
	free(freed);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeContextDestroy((ze_context_handle_t)gone));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(c));
}

static void forge(ze_ipc_mem_handle_t *h, int fd, uint64_t id, uint64_t base)
{
	struct zex_ipc_handle_data d = {
		.fd = fd, .magic = ZEX_IPC_MAGIC, .export_id = id, .base = base,
		.size = K64, .piece = 0, .num_pieces = 1,
		.memory_type = ZE_MEMORY_TYPE_DEVICE, .pid = (uint32_t)getpid(),
		.dmabuf_id = 1,
	};

	zex_ipc_handle_put(h, &d);
}

TEST(ipc_handles_naming_fds_libzex_does_not_hold_close_nothing)
{
	ze_ipc_mem_handle_t real, fake;
	struct zex_ipc_handle_data d;
	ze_context_handle_t c;
	int dev_fd;
	struct l0 l;
	void *p, *q;

	ASSERT_EQ(0, l0_open(&l));
	c = ctx_new(&l);
	ASSERT_NE(NULL, c);
	dev_fd = device_fd();
	ASSERT_LE(0, dev_fd);
	ASSERT_EQ(ZE_RESULT_SUCCESS, alloc(c, l.root, &p));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(c, p, &real));
	memcpy(&d, real.data, sizeof(d));

	/* libzex's own device fd, dressed as an IPC handle. */
	forge(&fake, dev_fd, d.export_id, d.base);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexMemPutIpcHandles(c, 1, &fake));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemOpenIpcHandle(c, l.root, fake, 0, &q));
	EXPECT_LE(0, fcntl(dev_fd, F_GETFD));
	/* The export's real fd under another id, or another pid. */
	forge(&fake, d.fd, d.export_id + 1, d.base);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexMemPutIpcHandles(c, 1, &fake));
	forge(&fake, d.fd, d.export_id, d.base);
	memcpy(fake.data + offsetof(struct zex_ipc_handle_data, pid), &(uint32_t){ 1 },
	       sizeof(uint32_t));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexMemPutIpcHandles(c, 1, &fake));
	EXPECT_LE(0, fcntl(d.fd, F_GETFD));

	/* libzex still works: the device fd is the one it opened. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(c, 1, &real));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(c, p));
	ASSERT_EQ(ZE_RESULT_SUCCESS, alloc(c, l.root, &p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(c, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(c));
}

/*
 * The execution handles of one context: queue, lists, event pool and event,
 * fence; and physical memory mapped at a reserved range.
 */
struct exec_handles {
	ze_context_handle_t c;
	ze_command_queue_handle_t q;
	ze_command_list_handle_t list, imm;
	ze_event_pool_handle_t pool;
	ze_event_handle_t ev;
	ze_fence_handle_t fence;
	ze_physical_mem_handle_t phys;
	void *va;
};

#define PHYS_SIZE	(64u << 10)

static int exec_new(ze_context_handle_t c, ze_device_handle_t dev, struct exec_handles *h)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC };
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC };
	ze_fence_desc_t fd = { .stype = ZE_STRUCTURE_TYPE_FENCE_DESC };
	ze_physical_mem_desc_t md = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      .size = PHYS_SIZE };

	h->c = c;
	return zePhysicalMemCreate(c, dev, &md, &h->phys) ||
	       zeVirtualMemReserve(c, NULL, PHYS_SIZE, &h->va) ||
	       zeVirtualMemMap(c, h->va, PHYS_SIZE, h->phys, 0,
			       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ||
	       zeCommandQueueCreate(c, dev, &qd, &h->q) ||
	       zeCommandListCreate(c, dev, &ld, &h->list) ||
	       zeCommandListCreateImmediate(c, dev, &qd, &h->imm) ||
	       zeEventPoolCreate(c, &pd, 0, NULL, &h->pool) ||
	       zeEventCreate(h->pool, &ed, &h->ev) ||
	       zeFenceCreate(h->q, &fd, &h->fence) ? -1 : 0;
}

/* Used once: a signal through each list, run and waited for; a fill of the mapping. */
static int exec_use(struct exec_handles *h)
{
	uint8_t seven = 7;

	return zeCommandListAppendSignalEvent(h->list, h->ev) ||
	       zeCommandListAppendMemoryFill(h->imm, h->va, &seven, 1, PHYS_SIZE, NULL, 0,
					     NULL) ||
	       zeCommandListClose(h->list) ||
	       zeCommandQueueExecuteCommandLists(h->q, 1, &h->list, h->fence) ||
	       zeFenceHostSynchronize(h->fence, UINT64_MAX) ||
	       zeEventHostSynchronize(h->ev, UINT64_MAX) ||
	       zeEventHostReset(h->ev) ||
	       zeCommandListAppendSignalEvent(h->imm, h->ev) ||
	       zeCommandListHostSynchronize(h->imm, UINT64_MAX) ||
	       zeEventQueryStatus(h->ev) ||
	       ((uint8_t *)h->va)[PHYS_SIZE - 1] != seven ? -1 : 0;
}

static int exec_destroy(struct exec_handles *h)
{
	return zeFenceDestroy(h->fence) | zeEventDestroy(h->ev) | zeEventPoolDestroy(h->pool) |
	       zeCommandListDestroy(h->imm) | zeCommandListDestroy(h->list) |
	       zeCommandQueueDestroy(h->q) | zeVirtualMemUnmap(h->c, h->va, PHYS_SIZE) |
	       zePhysicalMemDestroy(h->c, h->phys) | zeVirtualMemFree(h->c, h->va, PHYS_SIZE) ?
	       -1 : 0;
}

/* Every call on a destroyed execution handle: refused, nothing read. */
static int exec_refused(struct exec_handles *h)
{
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC };
	ze_event_handle_t ev;
	int bad = 0;
	uint8_t b;

	bad += zeCommandQueueSynchronize(h->q, 0) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandQueueDestroy(h->q) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandListAppendMemoryFill(h->list, &b, &b, 1, 1, NULL, 0, NULL) !=
	       ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandListClose(h->list) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandListDestroy(h->list) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandListHostSynchronize(h->imm, 0) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeCommandListDestroy(h->imm) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeEventHostSignal(h->ev) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeEventQueryStatus(h->ev) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeEventDestroy(h->ev) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeEventCreate(h->pool, &ed, &ev) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeEventPoolDestroy(h->pool) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeFenceQueryStatus(h->fence) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zeFenceDestroy(h->fence) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	bad += zePhysicalMemDestroy(h->c, h->phys) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	/* The range was freed: a stale handle is refused before the range is looked at. */
	bad += zeVirtualMemMap(h->c, h->va, PHYS_SIZE, h->phys, 0,
			       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) !=
	       ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	return bad;
}

TEST(destroyed_execution_handles_are_refused)
{
	struct exec_handles h = { 0 }, h2 = { 0 };
	ze_context_handle_t c;
	struct l0 l;

	ASSERT_EQ(0, l0_open(&l));
	c = ctx_new(&l);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, exec_new(c, l.root, &h));
	ASSERT_EQ(0, exec_use(&h));
	ASSERT_EQ(0, exec_destroy(&h));
	EXPECT_EQ(0, exec_refused(&h));
	/* New ones do not bring the old handles back; a handle of another type is none. */
	ASSERT_EQ(0, exec_new(c, l.root, &h2));
	EXPECT_EQ(0, exec_refused(&h));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListClose((ze_command_list_handle_t)h2.q));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeEventHostSignal((ze_event_handle_t)h2.fence));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandQueueExecuteCommandLists(h2.q, 1, &h.list, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListAppendWaitOnEvents(h2.imm, 1, &h.ev));
	EXPECT_EQ(0, exec_use(&h2));
	EXPECT_EQ(0, exec_destroy(&h2));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(c));
}

#define THREADS 4

struct churn {
	struct l0 *l;
	ze_context_handle_t _Atomic *stale;
	int bad;
};

/* Create, use and destroy contexts; misuse the others' stale ones. */
static void *churn(void *arg)
{
	struct churn *w = arg;
	int i;

	for (i = 0; i < 300; i++) {
		ze_context_handle_t c = ctx_new(w->l), old;
		void *p;

		if (!c) {
			w->bad++;
			continue;
		}
		if (alloc(c, w->l->root, &p) || zeMemFree(c, p))
			w->bad++;
		if (i % 10 == 0) {
			struct exec_handles h = { 0 };

			/* Execution handles too, misused once destroyed while the others run. */
			if (exec_new(c, w->l->root, &h) || exec_use(&h) || exec_destroy(&h))
				w->bad++;
			w->bad += exec_refused(&h);
		}
		if (zeContextDestroy(c))
			w->bad++;
		old = atomic_exchange(w->stale, c);
		if (old && zeContextDestroy(old) != ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
			w->bad++;
	}
	return NULL;
}

TEST(threads_misuse_each_others_destroyed_contexts)
{
	ze_context_handle_t _Atomic stale = NULL;
	struct churn w[THREADS];
	pthread_t t[THREADS];
	struct l0 l;
	int i;

	ASSERT_EQ(0, l0_open(&l));
	for (i = 0; i < THREADS; i++) {
		w[i] = (struct churn){ .l = &l, .stale = &stale };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, churn, &w[i]));
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].bad);
	}
}

ZEX_SELFTEST_MAIN
