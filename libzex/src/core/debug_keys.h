/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: debug_keys.h - compute-runtime's debug keys (libzex-internal)
 *
 * The Level Zero layer reads them at zeInit to decide implicit scaling and
 * the colouring of root-device allocations.
 */

#ifndef ZEX_CORE_DEBUG_KEYS_H
#define ZEX_CORE_DEBUG_KEYS_H

/**
 * struct zex_debug_keys - compute-runtime's implicit-scaling debug keys
 *
 * Each field is -1 when its environment variable is unset.
 */
struct zex_debug_keys {
	int enable_implicit_scaling;		/* EnableImplicitScaling: 0 or 1 */
	int multi_storage_policy;		/* MultiStoragePolicy: 0, 1 or 2 */
	long long multi_storage_granularity_kb;	/* MultiStorageGranularity (KB) */
};

typedef const char *(*zex_getenv_fn)(const char *name);

/* Told of each invalid key: its name and its value. */
typedef void (*zex_invalid_key_fn)(const char *name, const char *value, void *arg);

int zex_debug_keys_read(struct zex_debug_keys *keys, zex_getenv_fn get,
			zex_invalid_key_fn invalid, void *arg);

#endif /* ZEX_CORE_DEBUG_KEYS_H */
