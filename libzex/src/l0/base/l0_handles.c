// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_handles.c - from a handle an application passed to libzex's objects
 *
 * A handle is libzex's when its address is one of libzex's objects of that
 * type: the driver, one of its devices, or a live object of its type's
 * pool (object_pool.c). Nothing is read through a handle before that, so a stale,
 * destroyed, foreign or forged handle is refused as a null handle without
 * touching memory that is not libzex's. When the Level Zero loader runs in
 * a mode that wraps handles (Debian's loader with
 * ZE_ENABLE_LOADER_INTERCEPT=1 or several drivers), calls through its
 * tables arrive unwrapped, but extension functions, called directly, get
 * the wrapper: an address that is not libzex's is given to the loader's
 * zelLoaderTranslateHandle() (looked up at run time, so libzex does not
 * depend on the loader) and what it returns is checked the same way.
 */

#include <dlfcn.h>
#include <pthread.h>

#include "l0/base/l0.h"

/* zel_handle_type_t of <level_zero/loader/ze_loader.h>. */
enum {
	ZEL_HANDLE_DRIVER, ZEL_HANDLE_DEVICE, ZEL_HANDLE_CONTEXT, ZEL_HANDLE_COMMAND_QUEUE,
	ZEL_HANDLE_COMMAND_LIST, ZEL_HANDLE_FENCE, ZEL_HANDLE_EVENT_POOL, ZEL_HANDLE_EVENT,
	ZEL_HANDLE_MODULE = 9, ZEL_HANDLE_MODULE_BUILD_LOG, ZEL_HANDLE_KERNEL,
	ZEL_HANDLE_PHYSICAL_MEM = 13,
};

struct zex_object_pool zex_l0_contexts = ZEX_OBJECT_POOL(struct zex_l0_context);
struct zex_object_pool zex_l0_cmdqueues = ZEX_OBJECT_POOL(struct zex_l0_cmdqueue);
struct zex_object_pool zex_l0_cmdlists = ZEX_OBJECT_POOL(struct zex_l0_cmdlist);
struct zex_object_pool zex_l0_fences = ZEX_OBJECT_POOL(struct zex_l0_fence);
struct zex_object_pool zex_l0_event_pools = ZEX_OBJECT_POOL(struct zex_l0_event_pool);
struct zex_object_pool zex_l0_events = ZEX_OBJECT_POOL(struct zex_l0_event);
struct zex_object_pool zex_l0_physical_mems = ZEX_OBJECT_POOL(struct zex_l0_physical_mem);
struct zex_object_pool zex_l0_modules = ZEX_OBJECT_POOL(struct zex_l0_module);
struct zex_object_pool zex_l0_build_logs = ZEX_OBJECT_POOL(struct zex_l0_build_log);
struct zex_object_pool zex_l0_kernels = ZEX_OBJECT_POOL(struct zex_l0_kernel);

typedef ze_result_t (*zex_translate_fn)(int type, void *in, void **out);

static zex_translate_fn zex_translate;
static pthread_once_t zex_translate_once = PTHREAD_ONCE_INIT;
static _Atomic(struct zex_l0_driver *) zex_registered;

/** zex_l0_handles_register - the driver whose handles are libzex's */
void zex_l0_handles_register(struct zex_l0_driver *drv)
{
	atomic_store(&zex_registered, drv);
}

static void zex_translate_lookup(void)
{
	zex_translate = (zex_translate_fn)dlsym(RTLD_DEFAULT, "zelLoaderTranslateHandle");
}

/* Whether @h is the address of a libzex object of @type. */
static bool zex_is_ours(const void *h, int type)
{
	struct zex_l0_driver *drv = atomic_load(&zex_registered);
	uint32_t i;

	if (!h || !drv)
		return false;
	switch (type) {
	case ZEL_HANDLE_DRIVER:
		return h == drv;
	case ZEL_HANDLE_DEVICE:
		/* The devices the process can see (ZE_FLAT_DEVICE_HIERARCHY, ZE_AFFINITY_MASK). */
		if (h == &drv->root)
			return drv->visible.hierarchy != ZEX_HIERARCHY_FLAT &&
			       drv->visible.tile_mask;
		for (i = 0; i < drv->topo.num_tiles; i++)
			if (h == &drv->tiles[i])
				return drv->visible.tile_mask & (1u << i);
		return false;
	case ZEL_HANDLE_CONTEXT:
		return zex_object_pool_find(&zex_l0_contexts, h) != NULL;
	case ZEL_HANDLE_COMMAND_QUEUE:
		return zex_object_pool_find(&zex_l0_cmdqueues, h) != NULL;
	case ZEL_HANDLE_COMMAND_LIST:
		return zex_object_pool_find(&zex_l0_cmdlists, h) != NULL;
	case ZEL_HANDLE_FENCE:
		return zex_object_pool_find(&zex_l0_fences, h) != NULL;
	case ZEL_HANDLE_EVENT_POOL:
		return zex_object_pool_find(&zex_l0_event_pools, h) != NULL;
	case ZEL_HANDLE_EVENT:
		return zex_object_pool_find(&zex_l0_events, h) != NULL;
	case ZEL_HANDLE_PHYSICAL_MEM:
		return zex_object_pool_find(&zex_l0_physical_mems, h) != NULL;
	case ZEL_HANDLE_MODULE:
		return zex_object_pool_find(&zex_l0_modules, h) != NULL;
	case ZEL_HANDLE_MODULE_BUILD_LOG:
		return zex_object_pool_find(&zex_l0_build_logs, h) != NULL;
	case ZEL_HANDLE_KERNEL:
		return zex_object_pool_find(&zex_l0_kernels, h) != NULL;
	default:
		return false;
	}
}

/* @h itself when it is libzex's, else what the loader says it wraps. */
static void *zex_unwrap(void *h, int type)
{
	void *out = NULL;

	if (!h || zex_is_ours(h, type))
		return h;
	pthread_once(&zex_translate_once, zex_translate_lookup);
	if (!zex_translate || zex_translate(type, h, &out) != ZE_RESULT_SUCCESS ||
	    out == h || !zex_is_ours(out, type))
		return NULL;
	return out;
}

struct zex_l0_driver *zex_l0_driver(ze_driver_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_DRIVER);
}

struct zex_l0_context *zex_l0_context(ze_context_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_CONTEXT);
}

struct zex_l0_device *zex_l0_device(ze_device_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_DEVICE);
}

struct zex_l0_cmdqueue *zex_l0_cmdqueue(ze_command_queue_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_COMMAND_QUEUE);
}

struct zex_l0_cmdlist *zex_l0_cmdlist(ze_command_list_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_COMMAND_LIST);
}

struct zex_l0_fence *zex_l0_fence(ze_fence_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_FENCE);
}

struct zex_l0_event_pool *zex_l0_event_pool(ze_event_pool_handle_t h)
{
	struct zex_l0_event_pool *pool = zex_unwrap(h, ZEL_HANDLE_EVENT_POOL);

	/* A destroyed pool lives on while its events do, without its handle. */
	return pool && !atomic_load(&pool->destroyed) ? pool : NULL;
}

struct zex_l0_event *zex_l0_event(ze_event_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_EVENT);
}

struct zex_l0_physical_mem *zex_l0_physical_mem(ze_physical_mem_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_PHYSICAL_MEM);
}

struct zex_l0_module *zex_l0_module(ze_module_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_MODULE);
}

struct zex_l0_build_log *zex_l0_build_log(ze_module_build_log_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_MODULE_BUILD_LOG);
}

struct zex_l0_kernel *zex_l0_kernel(ze_kernel_handle_t h)
{
	return zex_unwrap(h, ZEL_HANDLE_KERNEL);
}
