// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-l0.c - what a Level Zero call costs on each path into libzex
 *
 * Usage: zex-bench-l0 [ITERATIONS]
 *
 * Three ways to call zeMemGetAllocProperties and zeDeviceGetProperties, in
 * one process on the same objects: through the stock loader (linked as an
 * application links it, libzex found with ZE_ENABLE_ALT_DRIVERS), through
 * the handle's DDI header as a DDI-aware loader does
 * (h->pCore->Mem->pfnGetAllocProperties), and directly (libzex's own
 * function, from dlsym). The direct call is the floor. Rounds alternate the
 * paths so that drift hits all three; the median round is printed per call
 * as "BENCH l0 call=... path=... ns=...".
 */

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <level_zero/ze_api.h>

#include "zex/zex_ddi.h"
#include "zex_bench.h"

#define ROUNDS	9

typedef ze_result_t (*alloc_props_fn)(ze_context_handle_t, const void *,
				      ze_memory_allocation_properties_t *, ze_device_handle_t *);
typedef ze_result_t (*device_props_fn)(ze_device_handle_t, ze_device_properties_t *);

static void fail(const char *what)
{
	fprintf(stderr, "zex-bench-l0: %s failed\n", what);
	exit(1);
}

enum path { LOADER, HEADER, DIRECT, NPATHS };
static const char *const path_name[NPATHS] = { "loader", "header", "direct" };

struct bench {
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	void *ptr;
	alloc_props_fn direct_alloc;
	device_props_fn direct_dev;
	long iters;
};

/* ns per call of one path; every call must succeed. */
static double run_alloc(const struct bench *b, enum path p)
{
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	const ze_handle_t *h = (const ze_handle_t *)b->ctx;
	ze_result_t r = 0;
	double t0 = (double)bench_now_ns();
	long i;

	for (i = 0; i < b->iters; i++) {
		if (p == LOADER)
			r |= zeMemGetAllocProperties(b->ctx, b->ptr, &ap, NULL);
		else if (p == HEADER)
			r |= h->pCore->Mem->pfnGetAllocProperties(b->ctx, b->ptr, &ap, NULL);
		else
			r |= b->direct_alloc(b->ctx, b->ptr, &ap, NULL);
	}
	if (r || ap.type != ZE_MEMORY_TYPE_DEVICE)
		fail("zeMemGetAllocProperties");
	return ((double)bench_now_ns() - t0) / b->iters;
}

static double run_device(const struct bench *b, enum path p)
{
	ze_device_properties_t dp = { .stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES };
	const ze_handle_t *h = (const ze_handle_t *)b->dev;
	ze_result_t r = 0;
	double t0 = (double)bench_now_ns();
	long i;

	for (i = 0; i < b->iters; i++) {
		if (p == LOADER)
			r |= zeDeviceGetProperties(b->dev, &dp);
		else if (p == HEADER)
			r |= h->pCore->Device->pfnGetProperties(b->dev, &dp);
		else
			r |= b->direct_dev(b->dev, &dp);
	}
	if (r || dp.type != ZE_DEVICE_TYPE_GPU)
		fail("zeDeviceGetProperties");
	return ((double)bench_now_ns() - t0) / b->iters;
}

static void report(const char *call, double (*run)(const struct bench *, enum path),
		   const struct bench *b)
{
	double ns[NPATHS][ROUNDS];
	int r, p;

	for (p = 0; p < NPATHS; p++)	/* warm caches and branch predictors */
		run(b, p);
	for (r = 0; r < ROUNDS; r++)
		for (p = 0; p < NPATHS; p++)
			ns[(p + r) % NPATHS][r] = run(b, (p + r) % NPATHS);
	for (p = 0; p < NPATHS; p++) {
		qsort(ns[p], ROUNDS, sizeof(double), bench_cmp_double);
		printf("BENCH l0 call=%s path=%s ns=%.1f\n", call, path_name[p], ns[p][ROUNDS / 2]);
	}
}

int main(int argc, char **argv)
{
	const char *lib = getenv("ZEX_LIBZEX") ? getenv("ZEX_LIBZEX") : "/opt/zex/lib/libzex.so.0";
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	struct bench b = { .iters = argc > 1 ? atol(argv[1]) : 200000 };
	ze_driver_handle_t drv;
	uint32_t n = 1;
	void *handle;

	setenv("ZE_ENABLE_ALT_DRIVERS", lib, 1);
	if (zeInit(0) || zeDriverGet(&n, &drv) || n != 1 ||
	    zeDeviceGet(drv, &n, &b.dev) || zeContextCreate(drv, &cd, &b.ctx) ||
	    zeMemAllocDevice(b.ctx, &dd, 65536, 0, b.dev, &b.ptr))
		return fprintf(stderr, "zex-bench-l0: no zex driver through the loader\n"), 1;
	/* The loader's copy of libzex, not a second one. */
	handle = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
	if (!handle)
		return fprintf(stderr, "zex-bench-l0: libzex not loaded by the loader\n"), 1;
	b.direct_alloc = (alloc_props_fn)dlsym(handle, "zeMemGetAllocProperties");
	b.direct_dev = (device_props_fn)dlsym(handle, "zeDeviceGetProperties");
	if (!b.direct_alloc || !b.direct_dev ||
	    ((const ze_handle_t *)b.ctx)->pCore != ((const ze_handle_t *)b.dev)->pCore)
		return fprintf(stderr, "zex-bench-l0: handles are not libzex's\n"), 1;

	report("zeMemGetAllocProperties", run_alloc, &b);
	report("zeDeviceGetProperties", run_device, &b);
	zeMemFree(b.ctx, b.ptr);
	zeContextDestroy(b.ctx);
	return 0;
}
