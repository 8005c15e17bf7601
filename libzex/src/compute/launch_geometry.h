/* SPDX-License-Identifier: MIT */
/*
 * DOC: launch_geometry.h - what a kernel sees of its launch when it runs one part of it
 *
 * A root-device launch runs as one part per tile, each part a launch of
 * the engine over some of the work-groups. OpenCL's get_group_id() does
 * not follow a launch's global offset, and get_num_groups() and
 * get_global_size() see only the part: so a module's calls of the
 * geometry built-ins are redirected, once, at build, to functions that
 * read the whole launch's geometry from a block the engine passes as the
 * part's global offset (struct zex_geometry). Every launch runs this way,
 * a tile's too (one part: the whole), so that a Level Zero global offset
 * needs no other path.
 */
#ifndef ZEX_COMPUTE_LAUNCH_GEOMETRY_H
#define ZEX_COMPUTE_LAUNCH_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#include "compute/llvm.h"

/**
 * struct zex_geometry - one part's view of its launch, read by the module
 * @group_start: the part's first work-group in each dimension.
 * @num_groups: the whole launch's work-groups in each dimension.
 * @global_offset: the launch's global offset (zeKernelSetGlobalOffsetExp).
 *
 * Its layout is the module's: three arrays of three 64-bit words, in this
 * order (launch_geometry.c's functions index it so).
 */
struct zex_geometry {
	uint64_t group_start[3];
	uint64_t num_groups[3];
	uint64_t global_offset[3];
};

int zex_geometry_redirect(const struct zex_llvm *llvm, llvm_context c, llvm_module m, char **log);

#endif /* ZEX_COMPUTE_LAUNCH_GEOMETRY_H */
