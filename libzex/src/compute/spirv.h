/* SPDX-License-Identifier: MIT */
/*
 * DOC: spirv.h - what a SPIR-V module says about its kernels, read without a compiler
 *
 * zeModuleCreate takes SPIR-V (ZE_MODULE_FORMAT_IL_SPIRV); before any
 * compiler sees it, libzex reads the module's header and its entry points:
 * whether it is SPIR-V at all (a native binary is refused as such), the
 * names of its kernels, the work-group size a kernel requires, and how
 * each of a kernel's arguments is passed and its size, the names it
 * imports from other modules and exports to them; and a copy of a
 * module with its specialization constants set. A pure
 * function of the bytes, with a host test of good and malformed modules.
 */
#ifndef ZEX_COMPUTE_SPIRV_H
#define ZEX_COMPUTE_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest kernel name kept, with its terminating NUL. */
#define ZEX_SPIRV_NAME_MAX	256

/**
 * struct zex_spirv_kernel - one kernel entry point of a module
 * @id: its function's result id.
 * @name: its name.
 * @local_size: the work-group size it requires (OpExecutionMode
 *	LocalSize), or all 0.
 * @local_size_hint: the work-group size its source suggests
 *	(LocalSizeHint: OpenCL C's work_group_size_hint), or all 0.
 */
struct zex_spirv_kernel {
	uint32_t id;
	char name[ZEX_SPIRV_NAME_MAX];
	uint32_t local_size[3];
	uint32_t local_size_hint[3];
};

/**
 * struct zex_spirv_info - a module's header and kernels
 * @version: the SPIR-V version word (major << 16 | minor << 8).
 * @num_kernels: kernels found (may exceed the room given: see the return).
 */
struct zex_spirv_info {
	uint32_t version;
	uint32_t num_kernels;
};

/** enum zex_spirv_arg_kind - how a kernel argument is passed */
enum zex_spirv_arg_kind {
	ZEX_SPIRV_ARG_VALUE,	/* bytes: a scalar, vector, or a struct by value */
	ZEX_SPIRV_ARG_POINTER,	/* a global or constant pointer */
	ZEX_SPIRV_ARG_LOCAL,	/* shared local memory, sized at the launch */
	ZEX_SPIRV_ARG_IMAGE,	/* an image */
	ZEX_SPIRV_ARG_SAMPLER,	/* a sampler */
};

/**
 * struct zex_spirv_arg - one argument of a kernel
 * @kind: how it is passed.
 * @size: its size in bytes (a pointer's for pointers and local memory;
 *	0 where the module does not say, an opaque type).
 */
struct zex_spirv_arg {
	enum zex_spirv_arg_kind kind;
	uint32_t size;
};

/**
 * struct zex_spirv_link - a name a module imports or exports
 * @name: the function's or variable's linkage name.
 * @import: whether the module imports it (else it exports it).
 */
struct zex_spirv_link {
	char name[ZEX_SPIRV_NAME_MAX];
	bool import;
};

int zex_spirv_linkage(const void *module, size_t size, struct zex_spirv_link *links,
		      uint32_t max_links, uint32_t *num_links);
int zex_spirv_kernel_args(const void *module, size_t size, const char *kernel,
			  struct zex_spirv_arg *args, uint32_t max_args, uint32_t *num_args);
int zex_spirv_specialize(const void *module, size_t size, uint32_t num, const uint32_t *ids,
			 const void *const *values, void **out);
int zex_spirv_read(const void *module, size_t size, struct zex_spirv_info *info,
		   struct zex_spirv_kernel *kernels, uint32_t max_kernels);

#endif /* ZEX_COMPUTE_SPIRV_H */
