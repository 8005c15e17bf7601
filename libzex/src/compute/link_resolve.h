/* SPDX-License-Identifier: MIT */
/*
 * DOC: link_resolve.h - which modules a module needs for its imports
 *
 * Given the names each candidate module imports and exports (spirv.h),
 * the modules the first one needs, transitively: for each name it
 * imports, the first candidate that exports it, and so on for what that
 * one imports. A pure function of the tables, with a host test.
 */
#ifndef ZEX_COMPUTE_LINK_RESOLVE_H
#define ZEX_COMPUTE_LINK_RESOLVE_H

#include <stdint.h>

#include "compute/spirv.h"

/**
 * struct zex_link_unit - one candidate's imports and exports
 * @links: its names.
 * @num_links: their number.
 */
struct zex_link_unit {
	const struct zex_spirv_link *links;
	uint32_t num_links;
};

int zex_link_resolve(const struct zex_link_unit *units, uint32_t num, uint32_t *needed,
		     uint32_t *num_needed, const char **missing);

#endif /* ZEX_COMPUTE_LINK_RESOLVE_H */
