// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: debug_keys.c - compute-runtime's implicit-scaling debug keys
 *
 * EnableImplicitScaling (0/1), MultiStoragePolicy (0 even, 1 chunk,
 * 2 interleave) and MultiStorageGranularity (KB, a power of two >= 64), read
 * from the environment as compute-runtime reads them. A value that is not a
 * plain decimal number in range is refused by name, never half-parsed.
 */

#include <errno.h>
#include <stdlib.h>

#include "core/debug_keys.h"

static int parse_key(zex_getenv_fn get, const char *name, long long min,
		     long long max, long long *out)
{
	const char *s = get(name);
	char *end;
	long long v;

	*out = -1;
	if (!s)
		return 0;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/**
 * zex_debug_keys_read - read the debug keys
 * @keys: filled in; unset keys are -1.
 * @get: getenv, or a stand-in for tests.
 * @bad_key: set to the name of the first invalid key, when there is one.
 *
 * Return: 0, or -EINVAL when a key is set to an invalid value.
 */
int zex_debug_keys_read(struct zex_debug_keys *keys, zex_getenv_fn get,
			const char **bad_key)
{
	long long v;

	keys->enable_implicit_scaling = -1;
	keys->multi_storage_policy = -1;
	keys->multi_storage_granularity_kb = -1;

	if (parse_key(get, "EnableImplicitScaling", 0, 1, &v))
		goto bad_scaling;
	keys->enable_implicit_scaling = (int)v;
	if (parse_key(get, "MultiStoragePolicy", 0, 2, &v))
		goto bad_policy;
	keys->multi_storage_policy = (int)v;
	if (parse_key(get, "MultiStorageGranularity", 64, 1024 * 1024, &v) ||
	    (v != -1 && (v & (v - 1))))
		goto bad_granularity;
	keys->multi_storage_granularity_kb = v;
	return 0;

bad_scaling:
	*bad_key = "EnableImplicitScaling";
	return -EINVAL;
bad_policy:
	*bad_key = "MultiStoragePolicy";
	return -EINVAL;
bad_granularity:
	*bad_key = "MultiStorageGranularity";
	return -EINVAL;
}
