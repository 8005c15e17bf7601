// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: debug_keys.c - compute-runtime's implicit-scaling debug keys
 *
 * EnableImplicitScaling (0/1), MultiStoragePolicy (0 even, 1 chunk,
 * 2 interleave) and MultiStorageGranularity (KB, a power of two >= 64), read
 * from the environment as compute-runtime reads them. Each key is judged on
 * its own: a value that is not a plain decimal number in range is refused
 * by name, never half-parsed, and the other keys still count.
 */

#include <errno.h>
#include <stdbool.h>
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
 * zex_debug_keys_read - read the debug keys, each on its own
 * @keys: filled in; unset and invalid keys are -1.
 * @get: getenv, or a stand-in for tests.
 * @invalid: called once for each key set to an invalid value, with its name
 *	and value; the other keys are read all the same.
 * @arg: for @invalid.
 *
 * Return: how many keys were invalid.
 */
int zex_debug_keys_read(struct zex_debug_keys *keys, zex_getenv_fn get,
			zex_invalid_key_fn invalid, void *arg)
{
	static const struct {
		const char *name;
		long long min, max;
		bool power_of_two;
	} defs[] = {
		{ "EnableImplicitScaling", 0, 1, false },
		{ "MultiStoragePolicy", 0, 2, false },
		{ "MultiStorageGranularity", 64, 1024 * 1024, true },
	};
	long long v[3];
	int bad = 0;
	size_t i;

	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		if (parse_key(get, defs[i].name, defs[i].min, defs[i].max, &v[i]) ||
		    (defs[i].power_of_two && v[i] != -1 && (v[i] & (v[i] - 1)))) {
			v[i] = -1;
			bad++;
			invalid(defs[i].name, get(defs[i].name), arg);
		}
	}
	keys->enable_implicit_scaling = (int)v[0];
	keys->multi_storage_policy = (int)v[1];
	keys->multi_storage_granularity_kb = v[2];
	return bad;
}
