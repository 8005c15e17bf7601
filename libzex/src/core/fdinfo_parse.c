// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: fdinfo_parse.c - parse the usage keys of a zex file's fdinfo
 *
 * A line is "drm-<key>:<whitespace><value>"; a number may end in " KiB",
 * " MiB" (multiplied out) or " ns". A file is zex's when its drm-driver
 * is exactly "zex"; a malformed number in the client id, an engine time
 * or a total is refused rather than read as 0. Keys of other drivers and
 * regions beyond ZEX_MAX_TILES are left alone.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm/zex_drm.h>

#include "core/fdinfo_parse.h"

/* A <uint> with an optional " KiB", " MiB" or " ns"; false if malformed. */
static int zex_parse_amount(const char *v, uint64_t *out)
{
	char *end;
	unsigned long long n;

	while (*v == ' ' || *v == '\t')
		v++;
	if (!isdigit((unsigned char)*v))
		return -EINVAL;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno)
		return -ERANGE;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		n <<= 10;
	else if (!strncmp(end, "MiB", 3))
		n <<= 20;
	*out = n;
	return 0;
}

/* drm-<stat>-tile<N> and drm-<stat>-system into @usage. */
static void zex_parse_memory(const char *key, uint64_t v, struct zex_client_usage *usage)
{
	const char *region;
	char *end;
	unsigned long tile;
	int total = !strncmp(key, "total-", 6), shared = !strncmp(key, "shared-", 7);

	if (!total && !shared)
		return;
	region = key + (total ? 6 : 7);
	if (!strcmp(region, "system")) {
		*(total ? &usage->system_total : &usage->system_shared) = v;
		return;
	}
	if (strncmp(region, "tile", 4) || !isdigit((unsigned char)region[4]))
		return;
	tile = strtoul(region + 4, &end, 10);
	if (*end || tile >= ZEX_MAX_TILES)
		return;
	*(total ? &usage->tile_total[tile] : &usage->tile_shared[tile]) = v;
}

/**
 * zex_fdinfo_parse - what one zex file's fdinfo says of its use
 * @text: the fdinfo, NUL-terminated.
 * @usage: filled in (what is absent is 0).
 *
 * Return: 0; -ENOENT when @text is not a zex file's ("drm-driver: zex"
 * missing), -EINVAL when a zex key's value does not parse.
 */
int zex_fdinfo_parse(const char *text, struct zex_client_usage *usage)
{
	const char *line = text;
	int zex = 0;

	memset(usage, 0, sizeof(*usage));
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[256], *colon, *key;
		uint64_t v;

		if (len < sizeof(buf) && !strncmp(line, "drm-", 4)) {
			memcpy(buf, line, len);
			buf[len] = 0;
			colon = strchr(buf, ':');
			if (colon) {
				*colon = 0;
				key = buf + 4;
				if (!strcmp(key, "driver")) {
					const char *d = colon + 1;

					d += strspn(d, " \t");
					zex = !strcmp(d, "zex");
				} else if (zex_parse_amount(colon + 1, &v)) {
					if (!strcmp(key, "client-id") ||
					    !strncmp(key, "engine-", 7) || !strncmp(key, "total-", 6))
						return -EINVAL;
				} else if (!strcmp(key, "client-id")) {
					usage->client_id = v;
				} else if (!strcmp(key, "engine-compute")) {
					usage->engine_ns[DRM_ZEX_ENGINE_CLASS_COMPUTE] = v;
				} else if (!strcmp(key, "engine-copy")) {
					usage->engine_ns[DRM_ZEX_ENGINE_CLASS_COPY] = v;
				} else {
					zex_parse_memory(key, v, usage);
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return zex ? 0 : -ENOENT;
}

