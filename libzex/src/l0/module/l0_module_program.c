// SPDX-License-Identifier: MIT
/*
 * DOC: l0_module_program.c - ZE_experimental_module_program: several SPIR-V modules created as one module
 *
 * zeModuleCreate with a ze_module_program_exp_desc_t in its chain: each
 * SPIR-V module (with its own specialization constants) is read and
 * translated, and the engine links them into one program
 * (zex_program_build_many()): every module's kernels are the module's,
 * their imports of each other are resolved, and what none of them exports
 * leaves the module unlinked, for zeModuleDynamicLink, as a single
 * module's would. The build flags of the modules are passed together.
 * Such a module has no native binary of zex's (one SPIR-V module each).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0/module/l0_module.h"

/* The modules' build flags, the compiler's part of each, in one string. */
static char *all_options(const ze_module_program_exp_desc_t *prog)
{
	char *all = strdup(""), *one, *grown;
	uint32_t i;

	for (i = 0; all && prog->pBuildFlags && i < prog->count; i++) {
		one = zex_l0_compiler_options(prog->pBuildFlags[i]);
		if (!one || asprintf(&grown, "%s %s", all, one) < 0)
			grown = NULL;
		free(one);
		free(all);
		all = grown;
	}
	return all;
}

/* Validate @prog; Return: ZE_RESULT_SUCCESS or the error. */
static ze_result_t check_program(const ze_module_desc_t *desc,
				 const ze_module_program_exp_desc_t *prog)
{
	uint32_t i;

	if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
		return zex_l0_fail(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				   "zex: a program of modules takes SPIR-V only");
	if (!prog->count)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	if (!prog->inputSizes || !prog->pInputModules)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < prog->count; i++) {
		const ze_module_constants_t *c = prog->pConstants ? prog->pConstants[i] : NULL;

		if (!prog->pInputModules[i])
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
		if (!prog->inputSizes[i])
			return ZE_RESULT_ERROR_INVALID_SIZE;
		if (c && c->numConstants && (!c->pConstantIds || !c->pConstantValues))
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	}
	return ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_module_program_create - zeModuleCreate of several SPIR-V modules
 * @ctx: the context.
 * @dev: the device.
 * @desc: the module descriptor (its format must be IL SPIR-V).
 * @prog: the modules, in @desc's chain.
 * @phModule: the module.
 * @phBuildLog: the build log, or NULL.
 *
 * Return: as zeModuleCreate.
 */
ze_result_t zex_l0_module_program_create(struct zex_l0_context *ctx, struct zex_l0_device *dev,
					 const ze_module_desc_t *desc,
					 const ze_module_program_exp_desc_t *prog,
					 ze_module_handle_t *phModule,
					 ze_module_build_log_handle_t *phBuildLog)
{
	struct zex_compute_engine *e;
	struct zex_l0_module *m;
	const void **spirv = NULL;
	void **copies = NULL;
	size_t *sizes = NULL;
	char *log = NULL, *options = NULL;
	ze_result_t res = check_program(desc, prog);
	uint32_t i;
	int ret = 0;

	if (res)
		return res;
	res = zex_l0_module_new(ctx, dev, &m);
	if (res)
		return res;
	e = zex_l0_engine(ctx->drv);
	spirv = calloc(prog->count, sizeof(*spirv));
	copies = calloc(prog->count, sizeof(*copies));
	sizes = calloc(prog->count, sizeof(*sizes));
	options = all_options(prog);
	if (!spirv || !copies || !sizes || !options)
		ret = -ENOMEM;
	for (i = 0; i < prog->count && !ret; i++) {
		ret = zex_l0_specialize(prog->pInputModules[i], prog->inputSizes[i],
					prog->pConstants ? prog->pConstants[i] : NULL, &spirv[i],
					&sizes[i], &copies[i]);
		if (!ret)
			ret = zex_l0_module_read_kernels(m, spirv[i], sizes[i]);
	}
	if (ret == -ENOENT)
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "zex: no specialization constant of the module has that id");
	else if (ret == -ENOEXEC || ret == -EINVAL)
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
				  ret == -ENOEXEC ? "zex: a module of the program is not SPIR-V" :
						    "zex: a SPIR-V module of the program is malformed");
	else if (ret)
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	if (!res) {
		ret = zex_program_build_many(e, spirv, sizes, prog->count, options, &m->program,
					     &log);
		if (ret == -ENOMEM)
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		else if (ret)
			res = zex_l0_fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
					  "zex: the modules did not build (see the build log)");
	}
	for (i = 0; copies && i < prog->count; i++)
		free(copies[i]);
	free(copies);
	free(spirv);
	free(sizes);
	free(options);
	if (!res) {
		res = zex_l0_build_log_new(log, phBuildLog);
		if (!res) {
			zex_l0_object_publish(&m->obj);
			*phModule = (ze_module_handle_t)m;
			return ZE_RESULT_SUCCESS;
		}
		zex_program_put(m->program);
		log = NULL;
	}
	free(m->kernels);
	m->kernels = NULL;
	m->num_kernels = 0;
	zex_object_pool_put(&zex_l0_modules, m);
	if (log && zex_l0_build_log_new(log, phBuildLog))
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return res;
}
