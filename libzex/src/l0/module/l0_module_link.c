// SPDX-License-Identifier: MIT
/*
 * DOC: l0_module_link.c - zeModuleDynamicLink: modules built with the modules they import from
 *
 * A module whose SPIR-V imports functions or variables (LinkageAttributes
 * Import) that no device library of libzex exports is created unlinked:
 * its kernels cannot be created (ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
 * until zeModuleDynamicLink names modules that export what it imports.
 * Each unlinked module of the call is then linked with those it needs
 * (found among the call's modules, in their order, transitively, then
 * the device libraries) and built; a name none exports fails the call with
 * ZE_RESULT_ERROR_MODULE_LINK_FAILURE, and the link log says which. A
 * module already linked stays as it is, so linking again is harmless.
 */

#include <errno.h>
#include <stdlib.h>

#include "l0/module/l0_module.h"

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleDynamicLink(uint32_t numModules,
							ze_module_handle_t *phModules,
							ze_module_build_log_handle_t *phLinkLog)
{
	struct zex_program **programs;
	ze_result_t res = ZE_RESULT_SUCCESS;
	char *log = NULL;
	uint32_t i;
	int ret = 0;

	if (phLinkLog)
		*phLinkLog = NULL;
	if (!phModules)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	programs = calloc(numModules ? numModules : 1, sizeof(*programs));
	if (!programs)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	for (i = 0; i < numModules; i++) {
		struct zex_l0_module *m = zex_l0_module(phModules[i]);

		if (!m) {
			free(programs);
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		}
		programs[i] = m->program;
	}
	for (i = 0; i < numModules && !ret; i++)
		ret = zex_program_link(programs[i], programs, numModules, &log);
	free(programs);
	if (ret == -ENOMEM)
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	else if (ret)
		res = zex_l0_fail(ZE_RESULT_ERROR_MODULE_LINK_FAILURE,
				  ret == -ENOLINK ?
				  "zex: a module imports a name no module linked exports (see the link log)" :
				  "zex: the linked modules did not build (see the link log)");
	if (zex_l0_build_log_new(log, phLinkLog) && !res)
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return res;
}
