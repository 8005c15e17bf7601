// SPDX-License-Identifier: MIT
/*
 * DOC: engine.c - PoCL through the OpenCL ICD loader, loaded at run time
 *
 * The engine is the first OpenCL platform whose CPU device builds SPIR
 * bitcode (PoCL: "-x spir -spir-std=1.2"); libOpenCL.so.1 is dlopen()ed
 * and its entry points taken by name, so libzex links nothing of it.
 * Kernel pointers are the process's own addresses (device memory is
 * mapped at its device address), passed as SVM pointers, which PoCL's
 * CPU device takes as they are. A kernel object's arguments and its
 * enqueue go together under its lock (OpenCL's clSetKernelArg is not
 * thread-safe on one kernel); OpenCL captures them at the enqueue, so two
 * tiles' parts of one launch, or launches of one kernel on two queues,
 * never see each other's.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute/dynload.h"
#include "compute/engine.h"
#include "compute/device_library.h"
#include "compute/kernel_faults.h"
#include "compute/link_resolve.h"
#include "compute/module_link.h"
#include "compute/translation_cache.h"
#include "compute/translator.h"
#include "zex/zex.h"

#define CL_FN(name) __typeof__(&name) name
struct cl_api {
	CL_FN(clGetPlatformIDs);
	CL_FN(clGetDeviceIDs);
	CL_FN(clGetDeviceInfo);
	CL_FN(clCreateSubDevices);
	CL_FN(clCreateContext);
	CL_FN(clReleaseContext);
	CL_FN(clCreateCommandQueueWithProperties);
	CL_FN(clReleaseCommandQueue);
	CL_FN(clCreateProgramWithBinary);
	CL_FN(clBuildProgram);
	CL_FN(clGetProgramBuildInfo);
	CL_FN(clReleaseProgram);
	CL_FN(clCreateKernel);
	CL_FN(clReleaseKernel);
	CL_FN(clGetKernelWorkGroupInfo);
	CL_FN(clSetKernelArg);
	CL_FN(clSetKernelArgSVMPointer);
	CL_FN(clEnqueueNDRangeKernel);
	CL_FN(clFinish);
	CL_FN(clSetEventCallback);
	CL_FN(clGetEventInfo);
	CL_FN(clReleaseEvent);
};

#define CL_SYM(name) { offsetof(struct cl_api, name), #name }
static const struct {
	size_t offset;
	const char *name;
} cl_symbols[] = {
	CL_SYM(clGetPlatformIDs), CL_SYM(clGetDeviceIDs), CL_SYM(clGetDeviceInfo),
	CL_SYM(clCreateSubDevices),
	CL_SYM(clCreateContext), CL_SYM(clReleaseContext),
	CL_SYM(clCreateCommandQueueWithProperties), CL_SYM(clReleaseCommandQueue),
	CL_SYM(clCreateProgramWithBinary), CL_SYM(clBuildProgram),
	CL_SYM(clGetProgramBuildInfo), CL_SYM(clReleaseProgram), CL_SYM(clCreateKernel),
	CL_SYM(clReleaseKernel),
	CL_SYM(clGetKernelWorkGroupInfo), CL_SYM(clSetKernelArg),
	CL_SYM(clSetKernelArgSVMPointer), CL_SYM(clEnqueueNDRangeKernel), CL_SYM(clFinish),
	CL_SYM(clSetEventCallback), CL_SYM(clGetEventInfo), CL_SYM(clReleaseEvent),
};

#define OPENCL_LIBRARY	"libOpenCL.so.1"
/* How PoCL builds SPIR bitcode. */
#define SPIR_OPTIONS	"-x spir -spir-std=1.2"

/* The most tile engines: one sub-device each (more tiles share them). */
#define MAX_POOLS	8

struct zex_compute_engine {
	void *lib;
	struct cl_api cl;
	struct zex_llvm *llvm;
	cl_device_id device;
	cl_device_id pools[MAX_POOLS];	/* the tiles' sub-devices */
	cl_uint num_pools;
	cl_device_id devices[MAX_POOLS + 1];	/* @device, then @pools */
	cl_context context;
	struct zex_engine_info info;
	atomic_uint refs;	/* the engine's own, one per program */
	/* The cooperative launch whose parts hold the pools now (see below). */
	pthread_mutex_t coop_lock;
	pthread_cond_t coop_free;
	const void *coop_owner;
	uint64_t coop_seqno;
	uint32_t coop_parts, coop_left;
	/* The device libraries, translated at the first module that imports. */
	pthread_mutex_t libraries_lock;
	bool libraries_tried;
	struct zex_program *libraries[ZEX_DEVICE_LIBRARIES];
	/* What the translator wrote for the modules built so far (may be NULL). */
	struct zex_translation_cache *translations;
};

/*
 * A module: its SPIR-V, its bitcode and linkage (for itself and for the
 * modules that import from it), and, once everything it imports is found,
 * the program PoCL built (NULL before: the module is unlinked).
 */
struct zex_program {
	struct zex_compute_engine *e;
	pthread_mutex_t lock;	/* @program's building */
	cl_program program;
	void *spirv;		/* the module, for its kernels' arguments */
	size_t spirv_size;
	void *bitcode;
	size_t bitcode_size;
	struct zex_spirv_link *links;
	uint32_t num_links;
	char *options;
	/* A program of several modules: each (translated, never built). */
	struct zex_program **parts;
	uint32_t num_parts;
	atomic_uint refs;	/* the module's, one per kernel */
};

struct zex_kernel {
	struct zex_program *p;
	cl_kernel kernel;
	char *name;
	pthread_mutex_t lock;	/* arguments, then the enqueue */
	atomic_uint refs;	/* the creator's, one per launch naming it */
	uint32_t num_args;
	struct zex_spirv_arg *args;
	uint64_t private_memory;
	uint64_t max_group_size;
	uint32_t preferred_multiple;
};

struct zex_engine_queue {
	struct zex_compute_engine *e;
	cl_command_queue queue;
	bool stuck;	/* a part of it will never end: it takes no more */
};

/*
 * PoCL compiles a kernel's work-group function again for each new group
 * size and offset of its launches (a compiler run, and a link, each time);
 * a GPU's kernel is compiled once, at its module's build. One function per
 * kernel, taking any group size, keeps a launch from compiling: level-zero-
 * tests' 128 offset launches took 2.7 s each under TCG, then 0.1 s. Set
 * before PoCL is loaded (it reads its environment), never over a value the
 * environment already gives (once, at the engine's opening: setenv() is
 * not safe against another thread's getenv(), a window libzex keeps to
 * that one call).
 */
#define POCL_SPECIALIZATION	"POCL_WORK_GROUP_SPECIALIZATION"

static void *load_symbols(struct zex_compute_engine *e, char *why, size_t why_size)
{
	size_t i;

	e->lib = zex_dlopen(OPENCL_LIBRARY);
	if (!e->lib) {
		const char *err = dlerror();

		snprintf(why, why_size, "%s not found (Debian: ocl-icd-libopencl1): %s",
			 OPENCL_LIBRARY, err ? err : "a static program loads no library");
		return NULL;
	}
	for (i = 0; i < sizeof(cl_symbols) / sizeof(cl_symbols[0]); i++) {
		void *fn = dlsym(e->lib, cl_symbols[i].name);

		if (!fn) {
			snprintf(why, why_size, "%s has no %s", OPENCL_LIBRARY, cl_symbols[i].name);
			return NULL;
		}
		memcpy((char *)&e->cl + cl_symbols[i].offset, &fn, sizeof(fn));
	}
	return e->lib;
}

/* The first CPU device of any platform. */
static int find_device(struct zex_compute_engine *e, char *why, size_t why_size)
{
	cl_platform_id platforms[16];
	cl_uint n = 0, i;

	if (e->cl.clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS || !n) {
		snprintf(why, why_size,
			 "no OpenCL platform (Debian: pocl-opencl-icd, libpocl2)");
		return -ENODEV;
	}
	for (i = 0; i < n && i < 16; i++)
		if (e->cl.clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &e->device,
					 NULL) == CL_SUCCESS)
			return 0;
	snprintf(why, why_size, "no OpenCL CPU device (Debian: pocl-opencl-icd, libpocl2)");
	return -ENODEV;
}

/* The precisions, atomics and limits kernels have. */
static void read_features(struct zex_compute_engine *e)
{
	struct zex_engine_info *info = &e->info;
	cl_device_fp_config fp = 0;
	size_t params = 0, printf_size = 0, size = 0;
	char *ext;

	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(params), &params,
			      NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(printf_size),
			      &printf_size, NULL);
	info->max_args_size = params;
	info->printf_buffer = printf_size;
	if (e->cl.clGetDeviceInfo(e->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(fp), &fp,
				  NULL) == CL_SUCCESS)
		info->fp32_config = fp;
	fp = 0;
	if (e->cl.clGetDeviceInfo(e->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp,
				  NULL) == CL_SUCCESS)
		info->fp64_config = fp;
	fp = 0;
	if (e->cl.clGetDeviceInfo(e->device, CL_DEVICE_HALF_FP_CONFIG, sizeof(fp), &fp,
				  NULL) == CL_SUCCESS)
		info->fp16_config = fp;
	if (e->cl.clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) != CL_SUCCESS)
		return;
	ext = calloc(1, size + 1);
	if (!ext)
		return;
	if (e->cl.clGetDeviceInfo(e->device, CL_DEVICE_EXTENSIONS, size, ext, NULL) ==
	    CL_SUCCESS) {
		info->fp16 = strstr(ext, "cl_khr_fp16") != NULL;
		info->fp64 = strstr(ext, "cl_khr_fp64") != NULL;
		info->int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
	}
	free(ext);
	if (!info->fp16)
		info->fp16_config = 0;
	if (!info->fp64)
		info->fp64_config = 0;
}

static void read_info(struct zex_compute_engine *e)
{
	struct zex_engine_info *info = &e->info;
	cl_uint units = 0;
	size_t dims[3] = { 0 }, group = 0;
	cl_ulong local = 0;

	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_NAME, sizeof(info->name) - 1, info->name,
			      NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DRIVER_VERSION, sizeof(info->version) - 1,
			      info->version, NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units,
			      NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(group), &group,
			      NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(dims), dims,
			      NULL);
	e->cl.clGetDeviceInfo(e->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local, NULL);
	read_features(e);
	info->threads = units;
	info->max_group_size = group;
	info->max_group_dims[0] = dims[0];
	info->max_group_dims[1] = dims[1];
	info->max_group_dims[2] = dims[2];
	info->local_memory = local;
}

/*
 * Each tile's engine is a pool of its own: a sub-device of an equal share
 * of the CPU device's compute units (at least one; tiles beyond the
 * units share the pools in turn). Without sub-devices, every tile runs on
 * the whole device.
 */
static void split_pools(struct zex_compute_engine *e, uint32_t tiles)
{
	cl_uint per = tiles ? e->info.threads / tiles : e->info.threads;
	cl_device_partition_property props[3] = { CL_DEVICE_PARTITION_EQUALLY, per ? per : 1, 0 };
	cl_uint n = 0;

	e->devices[0] = e->device;
	if (tiles > 1 && e->info.threads > 1 &&
	    e->cl.clCreateSubDevices(e->device, props, MAX_POOLS, e->pools, &n) == CL_SUCCESS)
		e->num_pools = n < MAX_POOLS ? n : MAX_POOLS;
	memcpy(e->devices + 1, e->pools, e->num_pools * sizeof(e->pools[0]));
	e->info.threads_per_tile = e->num_pools ? props[1] : e->info.threads;
}

/**
 * zex_engine_open - load the compute engine
 * @tiles: the tiles it serves, each with a pool of its own.
 * @why: where to say why not.
 * @why_size: its room.
 *
 * Return: the engine, or NULL (@why says what is missing).
 */
struct zex_compute_engine *zex_engine_open(uint32_t tiles, char *why, size_t why_size)
{
	struct zex_compute_engine *e = calloc(1, sizeof(*e));
	cl_int err;

	if (!e) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	atomic_init(&e->refs, 1);
	pthread_mutex_init(&e->coop_lock, NULL);
	pthread_cond_init(&e->coop_free, NULL);
	pthread_mutex_init(&e->libraries_lock, NULL);
	setenv(POCL_SPECIALIZATION, "0", 0);
	if (zex_translator_available(why, why_size) || !load_symbols(e, why, why_size) ||
	    find_device(e, why, why_size))
		goto fail;
	e->llvm = zex_llvm_load(why, why_size);
	if (!e->llvm)
		goto fail;
	read_info(e);
	split_pools(e, tiles);
	e->translations = zex_translation_cache_new(ZEX_TRANSLATION_CACHE_BYTES);
	e->context = e->cl.clCreateContext(NULL, 1 + e->num_pools, e->devices, NULL, NULL, &err);
	if (!e->context) {
		snprintf(why, why_size, "the OpenCL CPU device has no context (%d)", err);
		goto fail;
	}
	return e;
fail:
	zex_translation_cache_free(e->translations);
	zex_llvm_unload(e->llvm);
	if (e->lib)
		dlclose(e->lib);
	free(e);
	return NULL;
}

static void program_free(struct zex_program *p);

static void engine_put(struct zex_compute_engine *e)
{
	uint32_t i;

	if (atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	for (i = 0; i < ZEX_DEVICE_LIBRARIES; i++)
		if (e->libraries[i])
			program_free(e->libraries[i]);
	pthread_mutex_destroy(&e->libraries_lock);
	zex_translation_cache_free(e->translations);
	if (e->context)
		e->cl.clReleaseContext(e->context);
	zex_llvm_unload(e->llvm);
	pthread_cond_destroy(&e->coop_free);
	pthread_mutex_destroy(&e->coop_lock);
	/* PoCL's threads stay (it has no unload): so does the library. */
	free(e);
}

/** zex_engine_close - drop the opener's hold; the last program's end frees it */
void zex_engine_close(struct zex_compute_engine *e)
{
	if (e)
		engine_put(e);
}

/** zex_engine_info - what the engine is and honours */
const struct zex_engine_info *zex_engine_info(const struct zex_compute_engine *e)
{
	return &e->info;
}

static void log_build(struct zex_compute_engine *e, cl_program program, char **log)
{
	size_t size = 0, had = *log ? strlen(*log) : 0;
	char *grown;

	if (e->cl.clGetProgramBuildInfo(program, e->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
					&size) != CL_SUCCESS || size <= 1)
		return;
	grown = realloc(*log, had + size + 1);
	if (!grown)
		return;
	*log = grown;
	if (e->cl.clGetProgramBuildInfo(program, e->device, CL_PROGRAM_BUILD_LOG, size,
					grown + had, NULL) != CL_SUCCESS)
		size = 0;
	grown[had + size] = '\0';
}

/* PoCL builds @bitcode for the device and each pool: *@out, or -EINVAL (see @log). */
static int build_cl(struct zex_compute_engine *e, const void *bitcode, size_t size,
		    const char *options, cl_program *out, char **log)
{
	size_t sizes[MAX_POOLS + 1];
	const unsigned char *binaries[MAX_POOLS + 1];
	cl_int statuses[MAX_POOLS + 1], err;
	cl_program program;
	char *opts = NULL;
	cl_uint i;
	int ret = -EINVAL;

	if (asprintf(&opts, "%s %s", SPIR_OPTIONS, options) < 0)
		return -ENOMEM;
	/* The same binary for the device and each pool. */
	for (i = 0; i <= e->num_pools; i++) {
		sizes[i] = size;
		binaries[i] = bitcode;
	}
	program = e->cl.clCreateProgramWithBinary(e->context, 1 + e->num_pools, e->devices, sizes,
						  binaries, statuses, &err);
	if (program) {
		err = e->cl.clBuildProgram(program, 1 + e->num_pools, e->devices, opts, NULL, NULL);
		log_build(e, program, log);
		if (err == CL_SUCCESS)
			ret = 0;
		else if (err == CL_OUT_OF_HOST_MEMORY)
			ret = -ENOMEM;
		if (ret)
			e->cl.clReleaseProgram(program);
		else
			*out = program;
	}
	free(opts);
	return ret;
}

/* The translator's messages, as lines of the build log. */
static void log_messages(char **log, char *messages)
{
	size_t n = messages ? strlen(messages) : 0;

	while (n && messages[n - 1] == '\n')
		n--;
	if (n)
		zex_llvm_log(log, "%.*s", (int)n, messages);
	free(messages);
}

/* The translator's bitcode for @spirv: the cache's, or a new translation kept there. */
static int translate(struct zex_compute_engine *e, const void *spirv, size_t size,
		     void **bitcode, size_t *bitcode_size, char **log)
{
	char *messages = NULL;
	int ret;

	if (e->translations && !zex_translation_cache_lookup(e->translations, spirv, size, bitcode,
							     bitcode_size, &messages)) {
		log_messages(log, messages);
		return 0;
	}
	ret = zex_spirv_translate(spirv, size, bitcode, bitcode_size, &messages);
	if (!ret && e->translations)
		zex_translation_cache_insert(e->translations, spirv, size, *bitcode, *bitcode_size,
					     messages);
	log_messages(log, messages);
	return ret;
}

/* The module translated, its linkage read: a program not yet built. */
static int program_new(struct zex_compute_engine *e, const void *spirv, size_t size,
		       const char *options, struct zex_program **out, char **log)
{
	struct zex_program *p = calloc(1, sizeof(*p));
	uint32_t n = 0;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = zex_spirv_linkage(spirv, size, NULL, 0, &n);
	if (ret == -E2BIG) {
		p->links = calloc(n, sizeof(*p->links));
		ret = p->links ? zex_spirv_linkage(spirv, size, p->links, n, &n) : -ENOMEM;
	}
	if (ret) {
		if (ret != -ENOMEM)
			zex_llvm_log(log, "zex: the module's linkage decorations are malformed");
		ret = ret == -ENOMEM ? -ENOMEM : -EINVAL;
		goto err;
	}
	p->num_links = n;
	ret = translate(e, spirv, size, &p->bitcode, &p->bitcode_size, log);
	if (ret)
		goto err;
	p->spirv = malloc(size);
	p->options = strdup(options ? options : "");
	if (!p->spirv || !p->options) {
		ret = -ENOMEM;
		goto err;
	}
	memcpy(p->spirv, spirv, size);
	p->spirv_size = size;
	pthread_mutex_init(&p->lock, NULL);
	atomic_fetch_add(&e->refs, 1);
	p->e = e;
	atomic_init(&p->refs, 1);
	*out = p;
	return 0;
err:
	free(p->options);
	free(p->spirv);
	free(p->bitcode);
	free(p->links);
	free(p);
	return ret;
}

/* The device libraries, translated once (one that does not translate is left out). */
static struct zex_program *const *device_libraries(struct zex_compute_engine *e)
{
	uint32_t i;

	pthread_mutex_lock(&e->libraries_lock);
	for (i = 0; i < ZEX_DEVICE_LIBRARIES && !e->libraries_tried; i++) {
		size_t size = 0;
		const void *spirv = zex_device_library(i, &size);
		char *log = NULL;

		if (spirv && program_new(e, spirv, size, NULL, &e->libraries[i], &log))
			e->libraries[i] = NULL;
		/* The engine's own: they hold no reference to it. */
		if (e->libraries[i])
			atomic_fetch_sub(&e->refs, 1);
		free(log);
	}
	e->libraries_tried = true;
	pthread_mutex_unlock(&e->libraries_lock);
	return e->libraries;
}

/**
 * zex_engine_library_exports - whether one of libzex's device libraries exports a name
 * @e: the engine.
 * @name: a linkage name.
 *
 * Return: true when a module importing @name has it linked in at its build.
 */
bool zex_engine_library_exports(struct zex_compute_engine *e, const char *name)
{
	struct zex_program *const *libs = device_libraries(e);
	uint32_t i, j;

	for (i = 0; i < ZEX_DEVICE_LIBRARIES; i++)
		for (j = 0; libs[i] && j < libs[i]->num_links; j++)
			if (!libs[i]->links[j].import && !strcmp(libs[i]->links[j].name, name))
				return true;
	return false;
}

/*
 * Link @p with what it imports from @with (then the device libraries) and
 * build it. -ENOLINK: a name nothing exports; @quiet: say nothing of it.
 */
static int program_link(struct zex_program *p, struct zex_program *const *with, uint32_t num,
			bool quiet, char **log)
{
	struct zex_program *const *libs = device_libraries(p->e);
	uint32_t total = 1 + num + ZEX_DEVICE_LIBRARIES, i, n = 0, num_needed = 0;
	struct zex_link_unit *units = calloc(total, sizeof(*units));
	struct zex_program **from = calloc(total, sizeof(*from));
	uint32_t *needed = calloc(total, sizeof(*needed));
	struct zex_bitcode *code = calloc(total, sizeof(*code));
	const char *missing = NULL;
	size_t size = 0;
	void *whole = NULL;
	int ret = -ENOMEM;

	if (!units || !from || !needed || !code)
		goto out;
	from[n++] = p;
	for (i = 0; i < num; i++)
		if (with[i] != p)
			from[n++] = with[i];
	for (i = 0; i < ZEX_DEVICE_LIBRARIES; i++)
		if (libs[i])
			from[n++] = libs[i];
	for (i = 0; i < n; i++)
		units[i] = (struct zex_link_unit){ from[i]->links, from[i]->num_links };
	ret = zex_link_resolve(units, n, needed, &num_needed, &missing);
	if (ret) {
		if (!quiet)
			zex_llvm_log(log, "zex: no module linked exports %s, which the module imports",
				     missing);
		goto out;
	}
	code[0] = (struct zex_bitcode){ p->bitcode, p->bitcode_size };
	for (i = 0; i < num_needed; i++)
		code[1 + i] = (struct zex_bitcode){ from[needed[i]]->bitcode,
						    from[needed[i]]->bitcode_size };
	ret = zex_module_link(p->e->llvm, code, 1 + num_needed, 0, &whole, &size, log);
	if (!ret)
		ret = build_cl(p->e, whole, size, p->options, &p->program, log);
	free(whole);
out:
	free(units);
	free(from);
	free(needed);
	free(code);
	return ret;
}

/**
 * zex_program_build - translate a SPIR-V module and build it
 * @e: the engine.
 * @spirv: the module.
 * @size: its size.
 * @options: OpenCL build options to add, or NULL.
 * @out: the program.
 * @log: the translator's, LLVM's and the compiler's messages (malloc()ed).
 *
 * A module that imports names no device library exports is not built
 * yet: zex_program_linked() says so, and zex_program_link() builds it.
 *
 * Return: 0; -EINVAL when the module does not translate or build (@log
 * says why); -ENOMEM; -ENOENT when the translator cannot run.
 */
int zex_program_build(struct zex_compute_engine *e, const void *spirv, size_t size,
		      const char *options, struct zex_program **out, char **log)
{
	struct zex_program *p;
	int ret = program_new(e, spirv, size, options, &p, log);

	if (ret)
		return ret;
	ret = program_link(p, NULL, 0, true, log);
	if (ret && ret != -ENOLINK) {
		zex_program_put(p);
		return ret;
	}
	*out = p;
	return 0;
}

/**
 * zex_program_build_many - one program of several SPIR-V modules, linked together
 * @e: the engine.
 * @spirv: the modules.
 * @sizes: their sizes.
 * @num: their number (at least 1).
 * @options: OpenCL build options to add, or NULL.
 * @out: the program: every module's kernels, their imports of each other
 *	resolved (what none of them exports is imported as by one module).
 * @log: the translator's, LLVM's and the compiler's messages.
 *
 * Return: as zex_program_build(); -EINVAL also when two of the modules
 * define one name.
 */
int zex_program_build_many(struct zex_compute_engine *e, const void *const *spirv,
			   const size_t *sizes, uint32_t num, const char *options,
			   struct zex_program **out, char **log)
{
	struct zex_program *p = calloc(1, sizeof(*p));
	struct zex_bitcode *code = calloc(num, sizeof(*code));
	uint32_t i, n = 0;
	int ret = -ENOMEM;

	if (!p || !code || !(p->parts = calloc(num, sizeof(*p->parts))) ||
	    !(p->options = strdup(options ? options : "")))
		goto err;
	for (i = 0; i < num; i++) {
		ret = program_new(e, spirv[i], sizes[i], options, &p->parts[i], log);
		if (ret)
			goto err;
		/* The parts are the program's: they hold no reference to the engine. */
		atomic_fetch_sub(&e->refs, 1);
		p->num_parts++;
		n += p->parts[i]->num_links;
		code[i] = (struct zex_bitcode){ p->parts[i]->bitcode, p->parts[i]->bitcode_size };
	}
	ret = -ENOMEM;
	p->links = calloc(n ? n : 1, sizeof(*p->links));
	if (!p->links)
		goto err;
	for (i = 0; i < num; i++) {
		memcpy(p->links + p->num_links, p->parts[i]->links,
		       p->parts[i]->num_links * sizeof(*p->links));
		p->num_links += p->parts[i]->num_links;
	}
	ret = zex_module_link(e->llvm, code, num, ZEX_LINK_KEEP_KERNELS | ZEX_LINK_NO_REDIRECT,
			      &p->bitcode, &p->bitcode_size, log);
	if (ret)
		goto err;
	free(code);
	code = NULL;
	pthread_mutex_init(&p->lock, NULL);
	atomic_fetch_add(&e->refs, 1);
	p->e = e;
	atomic_init(&p->refs, 1);
	ret = program_link(p, NULL, 0, true, log);
	if (ret && ret != -ENOLINK) {
		zex_program_put(p);
		return ret;
	}
	*out = p;
	return 0;
err:
	if (p) {
		for (i = 0; i < p->num_parts; i++)
			program_free(p->parts[i]);
		free(p->parts);
		free(p->links);
		free(p->bitcode);
		free(p->options);
		free(p);
	}
	free(code);
	return ret;
}

/** zex_program_linked - whether a program is built (everything it imports found) */
bool zex_program_linked(struct zex_program *p)
{
	bool linked;

	pthread_mutex_lock(&p->lock);
	linked = p->program;
	pthread_mutex_unlock(&p->lock);
	return linked;
}

/**
 * zex_program_links - the names a program imports and exports
 * @p: the program.
 * @num: their number.
 *
 * Return: the names, as its SPIR-V's LinkageAttributes give them.
 */
const struct zex_spirv_link *zex_program_links(const struct zex_program *p, uint32_t *num)
{
	*num = p->num_links;
	return p->links;
}

/**
 * zex_program_link - build a program with the programs it imports from
 * @p: a program (one already built stays as it is).
 * @with: the programs its imports may be found in (others of a
 *	zeModuleDynamicLink; @p itself among them is skipped), searched in
 *	order, then the device libraries.
 * @num: entries in @with.
 * @log: appended to: what is missing, LLVM's and the compiler's messages.
 *
 * Return: 0; -ENOLINK when a name it imports is exported by none;
 * -EINVAL when the whole does not link or build (see @log); -ENOMEM.
 */
int zex_program_link(struct zex_program *p, struct zex_program *const *with, uint32_t num,
		     char **log)
{
	int ret = 0;

	pthread_mutex_lock(&p->lock);
	if (!p->program)
		ret = program_link(p, with, num, false, log);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/** zex_program_spirv - the SPIR-V a program was built from (its module's, specialized) */
const void *zex_program_spirv(const struct zex_program *p, size_t *size)
{
	*size = p->spirv_size;
	return p->spirv;
}

static void program_free(struct zex_program *p)
{
	uint32_t i;

	for (i = 0; i < p->num_parts; i++)
		program_free(p->parts[i]);
	free(p->parts);
	if (p->program)
		p->e->cl.clReleaseProgram(p->program);
	pthread_mutex_destroy(&p->lock);
	free(p->spirv);
	free(p->bitcode);
	free(p->links);
	free(p->options);
	free(p);
}

/** zex_program_put - drop a hold on a program (the module's, or a kernel's) */
void zex_program_put(struct zex_program *p)
{
	struct zex_compute_engine *e;

	if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	e = p->e;
	program_free(p);
	engine_put(e);
}

/**
 * zex_kernel_create - a kernel of a built program
 * @p: the program.
 * @name: the kernel's name.
 * @out: the kernel.
 *
 * Return: 0, -ENOENT when the program has no such kernel, -ENOLINK when it
 * is not built yet (it imports names not linked), -ENOMEM.
 */
int zex_kernel_create(struct zex_program *p, const char *name, struct zex_kernel **out)
{
	struct zex_compute_engine *e = p->e;
	struct zex_kernel *k = calloc(1, sizeof(*k));
	const struct zex_program *src = p;
	uint32_t n = 0, i;
	cl_ulong priv = 0;
	size_t group = 0, multiple = 0;
	cl_int err;
	int ret;

	if (!k)
		return -ENOMEM;
	/* A program of several modules: the one that has the kernel says its arguments. */
	for (i = 0; i < p->num_parts; i++) {
		src = p->parts[i];
		if (zex_spirv_kernel_args(src->spirv, src->spirv_size, name, NULL, 0,
					  &n) != -ENOENT)
			break;
	}
	ret = zex_spirv_kernel_args(src->spirv, src->spirv_size, name, NULL, 0, &n);
	if (ret == -E2BIG) {
		k->args = calloc(n, sizeof(*k->args));
		ret = k->args ? zex_spirv_kernel_args(src->spirv, src->spirv_size, name, k->args,
						      n, &n) : -ENOMEM;
	}
	if (ret == -ENOEXEC)
		ret = -ENOENT;
	if (ret)
		goto err_free;
	k->name = strdup(name);
	if (!k->name) {
		ret = -ENOMEM;
		goto err_free;
	}
	pthread_mutex_lock(&p->lock);
	k->kernel = p->program ? e->cl.clCreateKernel(p->program, name, &err) : NULL;
	if (!p->program)
		err = CL_INVALID_PROGRAM_EXECUTABLE;
	pthread_mutex_unlock(&p->lock);
	if (!k->kernel) {
		ret = err == CL_OUT_OF_HOST_MEMORY ? -ENOMEM :
		      err == CL_INVALID_PROGRAM_EXECUTABLE ? -ENOLINK : -ENOENT;
		goto err_free;
	}
	e->cl.clGetKernelWorkGroupInfo(k->kernel, e->device, CL_KERNEL_PRIVATE_MEM_SIZE,
				       sizeof(priv), &priv, NULL);
	e->cl.clGetKernelWorkGroupInfo(k->kernel, e->device, CL_KERNEL_WORK_GROUP_SIZE,
				       sizeof(group), &group, NULL);
	if (e->cl.clGetKernelWorkGroupInfo(k->kernel, e->device,
					   CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
					   sizeof(multiple), &multiple, NULL) != CL_SUCCESS || !multiple)
		multiple = 1;
	k->preferred_multiple = multiple > UINT32_MAX ? UINT32_MAX : (uint32_t)multiple;
	k->num_args = n;
	k->private_memory = priv;
	k->max_group_size = group ? group : e->info.max_group_size;
	pthread_mutex_init(&k->lock, NULL);
	atomic_init(&k->refs, 1);
	atomic_fetch_add(&p->refs, 1);
	k->p = p;
	*out = k;
	return 0;

err_free:
	free(k->name);
	free(k->args);
	free(k);
	return ret;
}

/** zex_kernel_get - another hold on a kernel (a launch's); Return: @k */
struct zex_kernel *zex_kernel_get(struct zex_kernel *k)
{
	atomic_fetch_add(&k->refs, 1);
	return k;
}

/** zex_kernel_put - drop a hold on a kernel; the last lets it go */
void zex_kernel_put(struct zex_kernel *k)
{
	if (!k || atomic_fetch_sub(&k->refs, 1) != 1)
		return;
	k->p->e->cl.clReleaseKernel(k->kernel);
	pthread_mutex_destroy(&k->lock);
	zex_program_put(k->p);
	free(k->name);
	free(k->args);
	free(k);
}

/** zex_kernel_args - a kernel's arguments: how each is passed, its size */
const struct zex_spirv_arg *zex_kernel_args(const struct zex_kernel *k, uint32_t *num)
{
	*num = k->num_args;
	return k->args;
}

/** zex_kernel_private_memory - a work-item's private memory, as the compiler says */
uint64_t zex_kernel_private_memory(const struct zex_kernel *k)
{
	return k->private_memory;
}

/** zex_kernel_preferred_multiple - the group size multiple the engine runs best */
uint32_t zex_kernel_preferred_multiple(const struct zex_kernel *k)
{
	return k->preferred_multiple;
}

/** zex_kernel_max_group_size - the most work-items a group of this kernel may have */
uint64_t zex_kernel_max_group_size(const struct zex_kernel *k)
{
	return k->max_group_size;
}

/**
 * zex_engine_queue_create - an in-order queue of a tile's pool, for one thread
 * @e: the engine.
 * @tile: the tile whose pool runs what it is given.
 * @out: the queue.
 *
 * Return: 0 or -ENOMEM.
 */
int zex_engine_queue_create(struct zex_compute_engine *e, uint32_t tile,
			    struct zex_engine_queue **out)
{
	struct zex_engine_queue *q = calloc(1, sizeof(*q));
	cl_int err;

	if (!q)
		return -ENOMEM;
	q->queue = e->cl.clCreateCommandQueueWithProperties(e->context, e->num_pools ?
							    e->pools[tile % e->num_pools] :
							    e->device, NULL, &err);
	if (!q->queue) {
		free(q);
		return -ENOMEM;
	}
	atomic_fetch_add(&e->refs, 1);
	q->e = e;
	*out = q;
	return 0;
}

/** zex_engine_queue_destroy - let a queue go (nothing runs on it) */
void zex_engine_queue_destroy(struct zex_engine_queue *q)
{
	if (!q)
		return;
	/* A stuck part's command never ends: the queue stays, as its thread does. */
	if (q->stuck) {
		free(q);
		return;
	}
	q->e->cl.clReleaseCommandQueue(q->queue);
	engine_put(q->e);
	free(q);
}

static cl_int set_args(struct zex_compute_engine *e, struct zex_kernel *k,
		       const struct zex_launch_args *args)
{
	cl_int err = CL_SUCCESS;
	uint32_t i;

	for (i = 0; i < args->num && err == CL_SUCCESS; i++) {
		const void *value = args->data + args->offset[i];
		void *ptr;

		switch (k->args[i].kind) {
		case ZEX_SPIRV_ARG_LOCAL:
			err = e->cl.clSetKernelArg(k->kernel, i, args->size[i], NULL);
			break;
		case ZEX_SPIRV_ARG_POINTER:
			memcpy(&ptr, value, sizeof(ptr));
			err = e->cl.clSetKernelArgSVMPointer(k->kernel, i, ptr);
			break;
		default:
			err = e->cl.clSetKernelArg(k->kernel, i, args->size[i], value);
			break;
		}
	}
	return err;
}

static void CL_CALLBACK part_ended(cl_event ev, cl_int status, void *data)
{
	struct zex_fault_watch *w = data;

	(void)ev;
	(void)status;
	atomic_store(&w->ended, 1);
	zex_faults_wake(w);
	zex_faults_put(w);
}

/* Wait for @ev's callback, or for its part to be stuck; Return: its status, or 1 when stuck. */
static cl_int wait_part(struct zex_compute_engine *e, cl_event ev, struct zex_fault_watch *w)
{
	cl_int status = CL_QUEUED;

	for (;;) {
		unsigned int seen = atomic_load(&w->wake);

		if (atomic_load(&w->ended))
			break;
		if (atomic_load(&w->stuck))
			return 1;
		zex_faults_sleep(w, seen);
	}
	if (e->cl.clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status,
				 NULL) != CL_SUCCESS)
		return CL_INVALID_EVENT;
	return status;
}

/**
 * zex_engine_run - run one part of a launch, and wait for it
 * @q: the engine queue of the calling thread.
 * @k: the kernel.
 * @args: its arguments, as the launch captured them (every one set).
 * @group_size: the work-group size.
 * @part_groups: the part's work-groups in each dimension.
 * @geometry: the part's view of the launch; read by the kernel, so it
 *	stays until the part has run.
 * @fault: where a memory fault is told (kernel_faults.c).
 *
 * The work dimension is the highest one with more than one work-item.
 *
 * Return: 0; -EFAULT when the kernel touched memory the process does not
 * map (or wrote a read-only page): @fault says where; -EINVAL when the
 * engine refused the launch; -ENOMEM; -EIO when a part on this queue is
 * stuck after such a fault (it runs nothing more).
 */
int zex_engine_run(struct zex_engine_queue *q, struct zex_kernel *k,
		   const struct zex_launch_args *args, const uint32_t group_size[3],
		   const uint32_t part_groups[3], const struct zex_geometry *geometry,
		   struct zex_engine_fault *fault)
{
	struct zex_compute_engine *e = q->e;
	size_t global[3], local[3], offset[3] = { (size_t)geometry, 0, 0 };
	struct zex_fault_watch *w;
	cl_event ev = NULL;
	cl_uint dims = 1;
	cl_int err;
	int d;

	if (q->stuck)
		return -EIO;
	for (d = 0; d < 3; d++) {
		local[d] = group_size[d];
		global[d] = (size_t)part_groups[d] * group_size[d];
		if (d && geometry->num_groups[d] * group_size[d] > 1)
			dims = (cl_uint)d + 1;
	}
	if (!global[0] || !global[1] || !global[2])
		return 0;
	/* On the heap, held by us and by the part's completion callback. */
	w = malloc(sizeof(*w));
	if (!w || zex_faults_install() || zex_faults_watch(w, k->name)) {
		free(w);
		return -ENOMEM;
	}
	pthread_mutex_lock(&k->lock);
	err = set_args(e, k, args);
	if (err == CL_SUCCESS)
		err = e->cl.clEnqueueNDRangeKernel(q->queue, k->kernel, dims, offset, global, local,
						   0, NULL, &ev);
	pthread_mutex_unlock(&k->lock);
	if (err == CL_SUCCESS) {
		err = e->cl.clSetEventCallback(ev, CL_COMPLETE, part_ended, w);
		if (err == CL_SUCCESS)
			err = wait_part(e, ev, w);
		else
			e->cl.clFinish(q->queue);
	}
	/* No callback was set: its hold goes here. */
	if (err != CL_SUCCESS && err != 1 && !atomic_load(&w->ended))
		zex_faults_put(w);
	zex_faults_unwatch(w);
	d = atomic_load(&w->faulted);
	if (d) {
		fault->addr = w->addr;
		fault->write = w->write;
		fault->read_only = w->read_only;
	}
	if (err == 1) {
		/* Never ends: the event and the queue stay; so does the callback's hold. */
		q->stuck = true;
		zex_faults_put(w);
		return -EFAULT;
	}
	if (ev)
		e->cl.clReleaseEvent(ev);
	zex_faults_put(w);
	if (d)
		return -EFAULT;
	if (err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES)
		return -ENOMEM;
	return err == CL_SUCCESS ? 0 : -EINVAL;
}

/**
 * DOC: Cooperative launches
 *
 * A work-group runs on one thread of its tile's pool from its start to its
 * end, and PoCL hands a launch of no more groups than the pool has threads
 * one group per thread: all its groups run at once, so they may wait for
 * each other (a barrier across the launch, made of atomics). That holds
 * while nothing else keeps a thread: another launch's groups end by
 * themselves, another cooperative launch's may not (each could hold some
 * threads while waiting for its groups that have none). So one cooperative
 * launch at a time holds the pools: its parts (one per tile) enter, the
 * first taking them, the others of the same launch joining, and the last
 * to leave gives them back. A thread parked by a fault is no longer the
 * pool's, and counts against every tile's pool.
 */

/**
 * zex_engine_cooperative_groups - the most work-groups a cooperative launch may have
 * @e: the engine.
 * @tiles: the tiles the launch is split between.
 *
 * Return: the threads of @tiles' pools (at least 1).
 */
uint32_t zex_engine_cooperative_groups(struct zex_compute_engine *e, uint32_t tiles)
{
	uint32_t parked = zex_faults_parked();
	uint32_t per_tile = e->info.threads_per_tile > parked ?
			    e->info.threads_per_tile - parked : 1;

	return per_tile * (tiles ? tiles : 1);
}

/**
 * zex_engine_cooperative_enter - a cooperative launch's part takes the pools
 * @q: the part's engine queue.
 * @queue: the queue the launch runs on (any address naming it).
 * @seqno: the launch's number there.
 * @parts: how many parts it has (the tiles with groups of it).
 *
 * Waits while another cooperative launch holds them.
 */
void zex_engine_cooperative_enter(struct zex_engine_queue *q, const void *queue, uint64_t seqno,
				  uint32_t parts)
{
	struct zex_compute_engine *e = q->e;

	pthread_mutex_lock(&e->coop_lock);
	while (e->coop_owner && (e->coop_owner != queue || e->coop_seqno != seqno))
		pthread_cond_wait(&e->coop_free, &e->coop_lock);
	if (!e->coop_owner) {
		e->coop_owner = queue;
		e->coop_seqno = seqno;
		e->coop_parts = parts;
		e->coop_left = 0;
	}
	pthread_mutex_unlock(&e->coop_lock);
}

/** zex_engine_cooperative_leave - a part has run; the last gives the pools back */
void zex_engine_cooperative_leave(struct zex_engine_queue *q, const void *queue, uint64_t seqno)
{
	struct zex_compute_engine *e = q->e;

	pthread_mutex_lock(&e->coop_lock);
	if (e->coop_owner == queue && e->coop_seqno == seqno && ++e->coop_left == e->coop_parts) {
		e->coop_owner = NULL;
		pthread_cond_broadcast(&e->coop_free);
	}
	pthread_mutex_unlock(&e->coop_lock);
}

/**
 * zex_compute_info - what would run this process's kernels
 * @tiles: the device's tiles.
 * @info: filled in; @info->why says what is missing when there is none.
 *
 * Opens the compute engine and closes it again.
 * Return: 0, or -ENODEV without an engine.
 */
int zex_compute_info(uint32_t tiles, struct zex_compute_info *info)
{
	struct zex_compute_engine *e;

	memset(info, 0, sizeof(*info));
	e = zex_engine_open(tiles, info->why, sizeof(info->why));
	if (!e)
		return -ENODEV;
	snprintf(info->name, sizeof(info->name), "%s", e->info.name);
	snprintf(info->version, sizeof(info->version), "%s", e->info.version);
	info->threads = e->info.threads;
	info->threads_per_tile = e->info.threads_per_tile;
	info->max_group_size = e->info.max_group_size;
	zex_engine_close(e);
	return 0;
}
