// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ddi_extensions.c - zeDriverGetExtensionFunctionAddress: extension entry points by name
 *
 * The functions of the extensions libzex lists (the multiple IPC handles:
 * zexMem*IpcHandles in src/l0/ipc, zexIpcHandlesSend/Recv, the socket
 * transport of src/ipc) and compute-runtime's host pointer registration
 * (zexDriver*Pointer*, src/l0/memory) are reached by name, not through a dispatch
 * table; like the tables, this list sits at the top and points down at
 * the entry points.
 */

#include <string.h>

#include "l0/base/l0.h"

static const struct {
	const char *name;
	void *fn;
} zex_extension_functions[] = {
	{ "zexMemGetIpcHandles", (void *)zexMemGetIpcHandles },
	{ "zexMemOpenIpcHandles", (void *)zexMemOpenIpcHandles },
	{ "zexMemPutIpcHandles", (void *)zexMemPutIpcHandles },
	{ "zexIpcHandlesSend", (void *)zexIpcHandlesSend },
	{ "zexIpcHandlesRecv", (void *)zexIpcHandlesRecv },
	{ "zexDriverImportExternalPointer", (void *)zexDriverImportExternalPointer },
	{ "zexDriverReleaseImportedPointer", (void *)zexDriverReleaseImportedPointer },
	{ "zexDriverGetHostPointerBaseAddress", (void *)zexDriverGetHostPointerBaseAddress },
};

ZE_APIEXPORT ze_result_t ZE_APICALL
zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver, const char *name,
				    void **ppFunctionAddress)
{
	size_t i;

	if (!zex_l0_driver(hDriver))
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!name || !ppFunctionAddress)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < sizeof(zex_extension_functions) / sizeof(zex_extension_functions[0]); i++)
		if (!strcmp(name, zex_extension_functions[i].name)) {
			*ppFunctionAddress = zex_extension_functions[i].fn;
			return ZE_RESULT_SUCCESS;
		}
	*ppFunctionAddress = NULL;
	return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}
