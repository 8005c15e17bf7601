// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi_fill.c - hand a dispatch table to the loader
 *
 * The loader asks for each table with the API version it was built for and
 * a table of that version's size. libzex's tables are those of
 * ZEX_API_VERSION (1.15), each entry with the minor version it appeared in:
 * a loader of version 1.x gets the entries of 1.x and before, so an older
 * loader's smaller table is never overrun (Debian 12's loader asks for
 * 1.4), and a newer loader's later entries are left as it set them (NULL:
 * it refuses those calls for a driver of an older version). A loader older
 * than 1.4, another major version, or a table newer than the loader's
 * version is refused.
 */

#include <string.h>

#include "ddi.h"

/* The oldest version asked for: the tables of the 1.4 headers are whole. */
#define ZEX_DDI_OLDEST_MINOR	4

ze_result_t zex_ddi_fill(ze_api_version_t version, void *table, const void *ours,
			 const uint8_t *since, size_t entries)
{
	uint32_t minor = ZE_MINOR_VERSION(version);
	size_t n = 0;

	if (!table)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZEX_API_VERSION) ||
	    minor < ZEX_DDI_OLDEST_MINOR)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	while (n < entries && since[n] <= minor)
		n++;
	if (!n)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	/* A table is an array of function pointers. */
	memcpy(table, ours, n * sizeof(void (*)(void)));
	return ZE_RESULT_SUCCESS;
}
