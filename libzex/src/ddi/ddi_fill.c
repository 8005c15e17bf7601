// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi_fill.c - hand a dispatch table to the loader
 *
 * The loader asks for each table with the API version it was built for and
 * a table of that version's size. libzex's tables have the layout of the
 * headers it is built with (ZEX_API_VERSION), so a loader of the same major
 * version and the same or a newer minor gets libzex's entries (a newer
 * table's later entries are left as the loader set them); an older minor
 * could not hold them and is refused, as is another major.
 */

#include <string.h>

#include "ddi.h"

ze_result_t zex_ddi_fill(ze_api_version_t version, void *table, const void *ours,
			 size_t size)
{
	if (!table)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZEX_API_VERSION) ||
	    ZE_MINOR_VERSION(version) < ZE_MINOR_VERSION(ZEX_API_VERSION))
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	memcpy(table, ours, size);
	return ZE_RESULT_SUCCESS;
}
