// SPDX-License-Identifier: MIT
/*
 * DOC: l0_module.c - zeModule*: SPIR-V modules built by the compute engine
 *
 * zeModuleCreate takes SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV): libzex sets
 * its specialization constants in a copy (an id the module does not have
 * is refused), reads its kernels (spirv.c: a native binary is refused as
 * one), and the compute engine translates and builds it (engine.c). The build log holds
 * the translator's, LLVM's and the compiler's own words. Of the build
 * flags, compute-runtime's "-ze-*" ones (optimization levels, buffer
 * offsets, register files) are hints the engine has no use for and are
 * dropped, as is "-g"; the others (OpenCL's "-cl-*" options) go to the
 * compiler, which refuses what it does not know. The engine is opened at
 * the first need; a machine without it answers
 * ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, saying what is missing. A module
 * that imports names libzex's device libraries do not export is created
 * unlinked, for zeModuleDynamicLink (l0_module_link.c); several modules
 * created as one are l0_module_program.c's, and what both take (the
 * engine, the flags, the constants, the log) l0_module_build.c's.
 *
 * zex's native binary (zeModuleGetNativeBinary) is the module as built: a
 * 24-byte header (the magic "ZEXNATV1", a version word, a reserved word,
 * the SPIR-V's size, little-endian) and the SPIR-V with its
 * specialization constants set. zeModuleCreate takes it back as
 * ZE_MODULE_FORMAT_NATIVE (PoCL's cache finds what it built before); any
 * other native binary is ZE_RESULT_ERROR_INVALID_NATIVE_BINARY.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l0/module/l0_module.h"

/**
 * zex_l0_string_out - a string out, the Level Zero way
 * @text: the string.
 * @size: in: the room at @out (0 or no @out: a query); out: the string's
 *	size with its NUL.
 * @out: where it goes.
 *
 * Return: ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_INVALID_SIZE when @out is too small.
 */
ze_result_t zex_l0_string_out(const char *text, size_t *size, char *out)
{
	size_t len = strlen(text) + 1;

	if (!*size || !out) {
		*size = len;
		return ZE_RESULT_SUCCESS;
	}
	if (*size < len)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	memcpy(out, text, len);
	*size = len;
	return ZE_RESULT_SUCCESS;
}

/* zex's native binary: this header, then the module's SPIR-V as built. */
struct native_header {
	char magic[8];
	uint32_t version;
	uint32_t reserved;
	uint64_t size;
};

#define NATIVE_MAGIC	"ZEXNATV1"

/* The SPIR-V in zex's native binary @bin of @size bytes, or NULL. */
static const void *native_spirv(const void *bin, size_t size, size_t *spirv_size)
{
	struct native_header h;

	if (size < sizeof(h))
		return NULL;
	memcpy(&h, bin, sizeof(h));
	if (memcmp(h.magic, NATIVE_MAGIC, 8) || h.version != 1 || h.reserved ||
	    h.size != size - sizeof(h))
		return NULL;
	*spirv_size = h.size;
	return (const char *)bin + sizeof(h);
}


/*
 * The module as built: @desc's SPIR-V with its specialization constants
 * set (in *@copy, to free), or the SPIR-V in zex's native binary.
 */
static int specialize(const ze_module_desc_t *desc, const void **spirv, size_t *size,
		      void **copy)
{
	if (desc->format == ZE_MODULE_FORMAT_NATIVE) {
		*copy = NULL;
		*spirv = native_spirv(desc->pInputModule, desc->inputSize, size);
		return *spirv ? 0 : -ENOEXEC;
	}
	return zex_l0_specialize(desc->pInputModule, desc->inputSize, desc->pConstants, spirv,
				 size, copy);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleCreate(ze_context_handle_t hContext,
						   ze_device_handle_t hDevice,
						   const ze_module_desc_t *desc,
						   ze_module_handle_t *phModule,
						   ze_module_build_log_handle_t *phBuildLog)
{
	struct zex_l0_context *ctx = zex_l0_context(hContext);
	struct zex_l0_device *dev = zex_l0_device(hDevice);
	struct zex_l0_module *m;
	struct zex_compute_engine *e;
	const ze_base_desc_t *ext;
	char *log = NULL, *options;
	const void *spirv;
	void *copy = NULL;
	ze_result_t res;
	size_t size;
	int ret;

	if (phBuildLog)
		*phBuildLog = NULL;
	if (!ctx || !dev)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!desc || !phModule)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* Several modules as one (ZE_experimental_module_program). */
	for (ext = desc->pNext; ext; ext = ext->pNext)
		if (ext->stype == ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC)
			return zex_l0_module_program_create(ctx, dev, desc,
							    (const ze_module_program_exp_desc_t *)ext,
							    phModule, phBuildLog);
	if (!desc->pInputModule)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV && desc->format != ZE_MODULE_FORMAT_NATIVE)
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!desc->inputSize)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	if (desc->pConstants && desc->pConstants->numConstants &&
	    (!desc->pConstants->pConstantIds || !desc->pConstants->pConstantValues))
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	res = zex_l0_module_new(ctx, dev, &m);
	if (res)
		return res;
	e = zex_l0_engine(ctx->drv);
	ret = specialize(desc, &spirv, &size, &copy);
	if (ret == -ENOENT) {
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "zex: no specialization constant of the module has that id");
		goto err;
	}
	if (ret == -ENOEXEC) {
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
				  "zex: not a native binary of zex's (build SPIR-V)");
		goto err;
	}
	if (!ret)
		ret = zex_l0_module_read_kernels(m, spirv, size);
	if (ret == -ENOEXEC || ret == -EINVAL) {
		res = zex_l0_fail(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
				  ret == -ENOEXEC ? "zex: the module is not SPIR-V" :
						    "zex: the SPIR-V module is malformed");
		goto err;
	} else if (ret) {
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		goto err;
	}
	options = zex_l0_compiler_options(desc->pBuildFlags);
	ret = options ? zex_program_build(e, spirv, size, options, &m->program, &log) : -ENOMEM;
	free(options);
	free(copy);
	copy = NULL;
	if (ret == -ENOMEM) {
		res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		goto err;
	} else if (ret) {
		res = zex_l0_fail(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
				  "zex: the module did not build (see its build log)");
		goto err;
	}
	res = zex_l0_build_log_new(log, phBuildLog);
	if (res) {
		zex_program_put(m->program);
		free(m->kernels);
		zex_object_pool_put(&zex_l0_modules, m);
		return res;
	}
	zex_l0_object_publish(&m->obj);
	*phModule = (ze_module_handle_t)m;
	return ZE_RESULT_SUCCESS;

err:
	free(copy);
	free(m->kernels);
	zex_object_pool_put(&zex_l0_modules, m);
	/* The log of a failed build is the application's to read. */
	if (zex_l0_build_log_new(log, phBuildLog))
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	return res;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleDestroy(ze_module_handle_t hModule)
{
	struct zex_l0_module *m = zex_l0_module(hModule);
	struct zex_program *program;
	struct zex_spirv_kernel *kernels;

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	program = m->program;
	kernels = m->kernels;
	zex_object_pool_put(&zex_l0_modules, m);
	/* Kernels and launches hold the program: it goes with the last. */
	zex_program_put(program);
	free(kernels);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetKernelNames(ze_module_handle_t hModule,
							   uint32_t *pCount, const char **pNames)
{
	struct zex_l0_module *m = zex_l0_module(hModule);
	uint32_t i;

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (!*pCount || !pNames) {
		*pCount = m->num_kernels;
		return ZE_RESULT_SUCCESS;
	}
	if (*pCount > m->num_kernels)
		*pCount = m->num_kernels;
	for (i = 0; i < *pCount; i++)
		pNames[i] = m->kernels[i].name;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetProperties(ze_module_handle_t hModule,
							  ze_module_properties_t *pModuleProperties)
{
	struct zex_l0_module *m = zex_l0_module(hModule);

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pModuleProperties)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	/* No module imports another's functions here: nothing is left to link. */
	pModuleProperties->flags = 0;
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog)
{
	struct zex_l0_build_log *log = zex_l0_build_log(hModuleBuildLog);

	char *text;

	if (!log)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	text = log->text;
	zex_object_pool_put(&zex_l0_build_logs, log);
	free(text);
	return ZE_RESULT_SUCCESS;
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
							      size_t *pSize, char *pBuildLog)
{
	struct zex_l0_build_log *log = zex_l0_build_log(hModuleBuildLog);
	const char *text;

	if (!log)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pSize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	text = log->text ? log->text : "";
	return zex_l0_string_out(text, pSize, pBuildLog);
}

ZE_APIEXPORT ze_result_t ZE_APICALL zeModuleGetNativeBinary(ze_module_handle_t hModule,
							    size_t *pSize,
							    uint8_t *pModuleNativeBinary)
{
	struct zex_l0_module *m = zex_l0_module(hModule);
	struct native_header h = { .magic = NATIVE_MAGIC, .version = 1 };
	const void *spirv;
	size_t size;

	if (!m)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!pSize)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	spirv = zex_program_spirv(m->program, &size);
	if (!spirv)
		return zex_l0_fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				   "zex: a module of several SPIR-V modules has no native binary");
	h.size = size;
	if (!pModuleNativeBinary) {
		*pSize = sizeof(h) + size;
		return ZE_RESULT_SUCCESS;
	}
	if (*pSize < sizeof(h) + size)
		return ZE_RESULT_ERROR_INVALID_SIZE;
	memcpy(pModuleNativeBinary, &h, sizeof(h));
	memcpy(pModuleNativeBinary + sizeof(h), spirv, size);
	*pSize = sizeof(h) + size;
	return ZE_RESULT_SUCCESS;
}
