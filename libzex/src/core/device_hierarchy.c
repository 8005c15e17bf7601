// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: device_hierarchy.c - ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK
 *
 * ZE_FLAT_DEVICE_HIERARCHY is COMPOSITE (the default: the root device with
 * the tiles as its sub-devices), FLAT or COMBINED (the tiles are the
 * devices). ZE_AFFINITY_MASK lists, separated by commas, what the process
 * sees, in the hierarchy's own numbering: in COMPOSITE "0" (the root device,
 * every tile) or "0.N" (tile N of root device 0); in FLAT and COMBINED "N"
 * (the Nth device: tile N). zex has one root device, so another root index
 * names nothing. Unset or empty, the mask shows every tile. An entry that
 * is malformed or names nothing is ignored and the value reported once;
 * a mask whose entries name nothing shows no tile.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_hierarchy.h"

/* A decimal index below 1000 at *@s, @s moved past it; false if none. */
static bool parse_index(const char **s, uint32_t *out)
{
	uint32_t v = 0;
	int digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 4) {
		v = v * 10 + (uint32_t)(**s - '0');
		(*s)++;
		digits++;
	}
	if (!digits || digits > 3)
		return false;
	*out = v;
	return true;
}

/*
 * The tiles one entry of the mask (from @s to @end) names, or 0 when it
 * names none; *@bad set when it is malformed.
 */
static uint32_t parse_entry(const char *s, const char *end, enum zex_hierarchy h,
			    uint32_t num_tiles, bool *bad)
{
	uint32_t all = num_tiles >= 32 ? UINT32_MAX : (1u << num_tiles) - 1;
	uint32_t first, second;

	if (!parse_index(&s, &first)) {
		*bad = true;
		return 0;
	}
	if (s == end) {
		if (h == ZEX_HIERARCHY_COMPOSITE)
			return first == 0 ? all : 0;
		return first < num_tiles ? 1u << first : 0;
	}
	if (*s != '.' || h != ZEX_HIERARCHY_COMPOSITE) {
		*bad = true;
		return 0;
	}
	s++;
	if (!parse_index(&s, &second) || s != end) {
		*bad = true;
		return 0;
	}
	return first == 0 && second < num_tiles ? 1u << second : 0;
}

/**
 * zex_visible_devices_read - read the hierarchy and the affinity mask
 * @v: filled in.
 * @num_tiles: the device's tiles.
 * @get: getenv, or a stand-in for tests.
 * @invalid: called once for each variable with an invalid value (a
 *	hierarchy it does not name, a mask with a malformed entry).
 * @arg: for @invalid.
 *
 * Return: how many variables were invalid.
 */
int zex_visible_devices_read(struct zex_visible_devices *v, uint32_t num_tiles,
			     zex_getenv_fn get, zex_invalid_key_fn invalid, void *arg)
{
	const char *h = get("ZE_FLAT_DEVICE_HIERARCHY");
	const char *mask = get("ZE_AFFINITY_MASK");
	uint32_t all = num_tiles >= 32 ? UINT32_MAX : (1u << num_tiles) - 1;
	bool bad_mask = false;
	int bad = 0;

	v->hierarchy = ZEX_HIERARCHY_COMPOSITE;
	if (h && !strcmp(h, "FLAT")) {
		v->hierarchy = ZEX_HIERARCHY_FLAT;
	} else if (h && !strcmp(h, "COMBINED")) {
		v->hierarchy = ZEX_HIERARCHY_COMBINED;
	} else if (h && strcmp(h, "COMPOSITE")) {
		invalid("ZE_FLAT_DEVICE_HIERARCHY", h, arg);
		bad++;
	}
	v->tile_mask = all;
	if (!mask || !*mask)
		return bad;
	v->tile_mask = 0;
	for (;;) {
		const char *end = strchr(mask, ',');

		if (!end)
			end = mask + strlen(mask);
		v->tile_mask |= parse_entry(mask, end, v->hierarchy, num_tiles, &bad_mask);
		if (!*end)
			break;
		mask = end + 1;
	}
	if (bad_mask) {
		invalid("ZE_AFFINITY_MASK", get("ZE_AFFINITY_MASK"), arg);
		bad++;
	}
	return bad;
}
