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
 * zeModuleInspectLinkageExt lists what a set of modules imports, cannot
 * resolve and exports, from the same linkage tables.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "compute/llvm.h"
#include "l0/module/l0_module.h"

/*
 * The programs of @n module handles (*@out, to free) and their engine;
 * Return: ZE_RESULT_SUCCESS, INVALID_NULL_HANDLE or OUT_OF_HOST_MEMORY.
 */
static ze_result_t module_programs(uint32_t n, ze_module_handle_t *handles,
				   struct zex_program ***out, struct zex_compute_engine **e)
{
	struct zex_program **programs = calloc(n ? n : 1, sizeof(*programs));
	uint32_t i;

	if (!programs)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	for (i = 0; i < n; i++) {
		struct zex_l0_module *m = zex_l0_module(handles[i]);

		if (!m) {
			free(programs);
			return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		}
		programs[i] = m->program;
		if (e)
			*e = zex_l0_engine(m->drv);
	}
	*out = programs;
	return ZE_RESULT_SUCCESS;
}

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
	res = module_programs(numModules, phModules, &programs, NULL);
	if (res)
		return res;
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

/* Does a module of @p export @name? */
static bool set_exports(struct zex_program *const *p, uint32_t n, const char *name)
{
	uint32_t i, j, num;

	for (i = 0; i < n; i++) {
		const struct zex_spirv_link *l = zex_program_links(p[i], &num);

		for (j = 0; j < num; j++)
			if (!l[j].import && !strcmp(l[j].name, name))
				return true;
	}
	return false;
}

/* Was @name listed under the current heading already (by an earlier module)? */
static bool listed(struct zex_program *const *p, uint32_t upto, uint32_t at, const char *name,
		   bool import)
{
	uint32_t i, j, num;

	for (i = 0; i <= upto; i++) {
		const struct zex_spirv_link *l = zex_program_links(p[i], &num);

		for (j = 0; j < (i == upto ? at : num); j++)
			if (l[j].import == import && !strcmp(l[j].name, name))
				return true;
	}
	return false;
}

/*
 * One section of the inspection log: @heading, then each name once (of
 * imports, or of exports), tab-indented; for imports, @unresolvable keeps
 * only those no module of the set and no device library exports.
 */
static void inspect_section(struct zex_compute_engine *e, struct zex_program *const *p,
			    uint32_t n, const char *heading, bool import, bool unresolvable,
			    char **log)
{
	uint32_t i, j, num;

	zex_llvm_log(log, "%s", heading);
	for (i = 0; i < n; i++) {
		const struct zex_spirv_link *l = zex_program_links(p[i], &num);

		for (j = 0; j < num; j++) {
			if (l[j].import != import || listed(p, i, j, l[j].name, import))
				continue;
			if (unresolvable && (set_exports(p, n, l[j].name) ||
					     zex_engine_library_exports(e, l[j].name)))
				continue;
			zex_llvm_log(log, "\t%s", l[j].name);
		}
	}
}

#define INSPECT_FLAGS	(ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS | \
			 ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS | \
			 ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS)

/*
 * zeModuleInspectLinkageExt (ZE_extension_linkage_inspection): a log of
 * the set's imports, those none of it (nor libzex's device libraries)
 * exports, and its exports, as the flags ask: a heading line each
 * ("Imports:", "Unresolvable Imports:", "Exports:"), then one
 * tab-indented name a line, each name once, in the modules' order.
 */
ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleInspectLinkageExt(ze_linkage_inspection_ext_desc_t *pInspectDesc,
							      uint32_t numModules,
							      ze_module_handle_t *phModules,
							      ze_module_build_log_handle_t *phLog)
{
	struct zex_program **programs;
	struct zex_compute_engine *e = NULL;
	char *log = NULL;
	ze_result_t res;

	if (!pInspectDesc || !phModules || !phLog)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*phLog = NULL;
	if (pInspectDesc->flags & ~(ze_linkage_inspection_ext_flags_t)INSPECT_FLAGS)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	res = module_programs(numModules, phModules, &programs, &e);
	if (res)
		return res;
	if (pInspectDesc->flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS)
		inspect_section(e, programs, numModules, "Imports:", true, false, &log);
	if (pInspectDesc->flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS)
		inspect_section(e, programs, numModules, "Unresolvable Imports:", true, true,
				&log);
	if (pInspectDesc->flags & ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS)
		inspect_section(e, programs, numModules, "Exports:", false, false, &log);
	free(programs);
	return zex_l0_build_log_new(log, phLog);
}
