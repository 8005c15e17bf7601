// SPDX-License-Identifier: MIT
/*
 * DOC: l0_module_build.c - what creating a module takes: the engine, the flags, the constants, the kernels, the log
 *
 * The compute engine, opened once at the first need; the build flags the
 * compiler sees (compute-runtime's "-ze-*" hints and "-g" dropped); a
 * SPIR-V module with its specialization constants set; a SPIR-V module's
 * kernels added to a Level Zero module's; a build log object. Shared by
 * zeModuleCreate of one module (l0_module.c) or several
 * (l0_module_program.c) and by linking (l0_module_link.c).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0/module/l0_module.h"

/**
 * zex_l0_engine - the compute engine, opened at the first call
 * @drv: the driver.
 *
 * Return: the engine, or NULL (@drv->engine_why says why).
 */
struct zex_compute_engine *zex_l0_engine(struct zex_l0_driver *drv)
{
	struct zex_compute_engine *e;

	pthread_mutex_lock(&drv->engine_lock);
	if (!drv->engine_tried) {
		char why[192] = "";

		drv->engine = zex_engine_open(drv->topo.num_tiles, why, sizeof(why));
		/* The driver's, for zeDriverGetLastErrorDescription's lifetime. */
		snprintf(drv->engine_why, sizeof(drv->engine_why), "zex: no compute engine: %s",
			 why);
		drv->engine_tried = true;
	}
	e = drv->engine;
	pthread_mutex_unlock(&drv->engine_lock);
	return e;
}

/* The flags the compiler sees: @flags without compute-runtime's own (malloc()ed). */
char *zex_l0_compiler_options(const char *flags)
{
	char *out = calloc(1, flags ? strlen(flags) + 1 : 1), *copy, *tok, *save = NULL;

	if (!out || !flags)
		return out;
	copy = strdup(flags);
	if (!copy) {
		free(out);
		return NULL;
	}
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (!strncmp(tok, "-ze-", 4) || !strcmp(tok, "-g"))
			continue;
		if (*out)
			strcat(out, " ");
		strcat(out, tok);
	}
	free(copy);
	return out;
}

/**
 * zex_l0_build_log_new - a build log object holding @text
 * @text: the messages (malloc()ed, taken over; NULL: none).
 * @out: the handle (NULL: the caller wants none, and @text goes).
 *
 * Return: ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY.
 */
ze_result_t zex_l0_build_log_new(char *text, ze_module_build_log_handle_t *out)
{
	struct zex_l0_build_log *log;

	if (!out) {
		free(text);
		return ZE_RESULT_SUCCESS;
	}
	log = zex_object_pool_get(&zex_l0_build_logs);
	if (!log) {
		free(text);
		*out = NULL;
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	log->text = text;
	zex_l0_object_publish(&log->obj);
	*out = (ze_module_build_log_handle_t)log;
	return ZE_RESULT_SUCCESS;
}

/**
 * zex_l0_module_read_kernels - add a SPIR-V module's kernels to a module's
 * @m: the module.
 * @spirv: the SPIR-V.
 * @size: its size.
 *
 * Return: 0, or the reader's -errno (-ENOEXEC not SPIR-V, -EINVAL
 * malformed), -ENOMEM.
 */
int zex_l0_module_read_kernels(struct zex_l0_module *m, const void *spirv, size_t size)
{
	struct zex_spirv_info info;
	struct zex_spirv_kernel *grown;
	int ret = zex_spirv_read(spirv, size, &info, NULL, 0);

	if (ret && ret != -E2BIG)
		return ret;
	grown = realloc(m->kernels, (m->num_kernels + info.num_kernels + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	m->kernels = grown;
	ret = zex_spirv_read(spirv, size, &info, m->kernels + m->num_kernels, info.num_kernels);
	if (!ret)
		m->num_kernels += info.num_kernels;
	return ret;
}

/**
 * zex_l0_specialize - SPIR-V with its specialization constants set
 * @input: the module.
 * @input_size: its size.
 * @c: the constants, or NULL.
 * @spirv: the module to build: @input, or *@copy.
 * @size: its size.
 * @copy: a copy with the constants set (malloc()ed), or NULL.
 *
 * Return: 0; -ENOENT an id the module does not have; -ENOEXEC, -EINVAL
 * not SPIR-V, malformed; -ENOMEM.
 */
int zex_l0_specialize(const void *input, size_t input_size, const ze_module_constants_t *c,
		      const void **spirv, size_t *size, void **copy)
{
	int ret;

	*spirv = input;
	*size = input_size;
	*copy = NULL;
	if (!c || !c->numConstants)
		return 0;
	ret = zex_spirv_specialize(input, input_size, c->numConstants, c->pConstantIds,
				   c->pConstantValues, copy);
	if (!ret)
		*spirv = *copy;
	return ret;
}

/**
 * zex_l0_module_new - a module object of @ctx for @dev, once the engine is there
 * @ctx: the context.
 * @dev: the device.
 * @out: the module (its pool slot, not yet published).
 *
 * Return: ZE_RESULT_SUCCESS; UNSUPPORTED_FEATURE without a compute engine
 * (saying why); OUT_OF_HOST_MEMORY.
 */
ze_result_t zex_l0_module_new(struct zex_l0_context *ctx, struct zex_l0_device *dev,
			      struct zex_l0_module **out)
{
	struct zex_l0_module *m;

	if (!zex_l0_engine(ctx->drv))
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, ctx->drv->engine_why);
	m = zex_object_pool_get(&zex_l0_modules);
	if (!m)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	m->drv = ctx->drv;
	m->device = dev;
	*out = m;
	return ZE_RESULT_SUCCESS;
}
