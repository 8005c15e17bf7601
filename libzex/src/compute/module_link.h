/* SPDX-License-Identifier: MIT */
/*
 * DOC: module_link.h - a module's bitcode made whole: what it imports linked in, its launch geometry redirected
 *
 * A SPIR-V module may import functions and variables that other modules
 * export (SPIR-V's LinkageAttributes): zeModuleDynamicLink names the
 * modules, and libzex's device libraries (device_library.h) export what
 * zex's kernels may call. After the translator, the module's bitcode and
 * the bitcode of every module it needs are linked into one, which PoCL
 * builds; the others' kernels are left out, so that only the module's own
 * kernels are built from it. A program of several modules
 * (ZE_experimental_module_program) is linked whole first, every unit's
 * kernels kept and its geometry not yet redirected: the bitcode a module
 * of its own would have.
 */
#ifndef ZEX_COMPUTE_MODULE_LINK_H
#define ZEX_COMPUTE_MODULE_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "compute/llvm.h"

/**
 * struct zex_bitcode - one module's LLVM bitcode, as the translator wrote it
 * @data: the bytes.
 * @size: their number.
 */
struct zex_bitcode {
	const void *data;
	size_t size;
};

/* zex_module_link()'s flags. */
#define ZEX_LINK_KEEP_KERNELS	(1u << 0)	/* every unit's kernels stay */
#define ZEX_LINK_NO_REDIRECT	(1u << 1)	/* the geometry is left as it is */

int zex_module_link(const struct zex_llvm *llvm, const struct zex_bitcode *units, uint32_t num,
		    unsigned int flags, void **out, size_t *out_size, char **log);

#endif /* ZEX_COMPUTE_MODULE_LINK_H */
