// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: l0_handles.c - from a handle an application passed to libzex's objects
 *
 * A handle is libzex's when it starts with libzex's DDI header and carries
 * the magic of its type. Anything else is either garbage (refused as a
 * null handle) or, when the Level Zero loader runs in its intercept mode
 * (ZE_ENABLE_LOADER_INTERCEPT=1, or several drivers), the loader's wrapper
 * of one of libzex's handles: calls through the loader's tables arrive
 * unwrapped, but extension functions, called directly, get the wrapper.
 * Those are translated back with the loader's zelLoaderTranslateHandle(),
 * looked up at run time so libzex does not depend on the loader.
 */

#include <dlfcn.h>
#include <pthread.h>

#include "l0.h"

/* zel_handle_type_t of <level_zero/loader/ze_loader.h>. */
enum { ZEL_HANDLE_DRIVER, ZEL_HANDLE_DEVICE, ZEL_HANDLE_CONTEXT };

typedef ze_result_t (*zex_translate_fn)(int type, void *in, void **out);

static zex_translate_fn zex_translate;
static pthread_once_t zex_translate_once = PTHREAD_ONCE_INIT;

static void zex_translate_lookup(void)
{
	zex_translate = (zex_translate_fn)dlsym(RTLD_DEFAULT, "zelLoaderTranslateHandle");
}

/* @h itself when it is libzex's, else what the loader says it wraps. */
static void *zex_unwrap(void *h, int type)
{
	void *out = NULL;

	if (!h || zex_ddi_is_ours(h))
		return h;
	pthread_once(&zex_translate_once, zex_translate_lookup);
	if (!zex_translate || zex_translate(type, h, &out) != ZE_RESULT_SUCCESS ||
	    out == h || !zex_ddi_is_ours(out))
		return NULL;
	return out;
}

struct zex_l0_driver *zex_l0_driver(ze_driver_handle_t h)
{
	struct zex_l0_driver *d = zex_unwrap(h, ZEL_HANDLE_DRIVER);

	return d && d->magic == ZEX_L0_DRIVER_MAGIC ? d : NULL;
}

struct zex_l0_context *zex_l0_context(ze_context_handle_t h)
{
	struct zex_l0_context *c = zex_unwrap(h, ZEL_HANDLE_CONTEXT);

	return c && c->magic == ZEX_L0_CONTEXT_MAGIC ? c : NULL;
}

struct zex_l0_device *zex_l0_device(ze_device_handle_t h)
{
	struct zex_l0_device *d = zex_unwrap(h, ZEL_HANDLE_DEVICE);

	return d && d->magic == ZEX_L0_DEVICE_MAGIC ? d : NULL;
}
