/* SPDX-License-Identifier: MIT */
/*
 * DOC: l0_module.h - what the module family gives the families above it
 *
 * The compute engine, opened once at the first need (a module, or a
 * property only the engine can answer), and a launch's capture of a
 * kernel's arguments and group size (l0_kernel.c), which a command list
 * records and the compute threads run.
 */
#ifndef ZEX_L0_MODULE_H
#define ZEX_L0_MODULE_H

#include "compute/engine.h"
#include "l0/base/l0.h"

struct zex_compute_engine *zex_l0_engine(struct zex_l0_driver *drv);

/**
 * struct zex_l0_kernel_capture - a kernel as one launch takes it
 * @kernel: the engine's kernel (held).
 * @args: its arguments' values (owned).
 * @group_size: the group size.
 * @global_offset: the global offset.
 */
struct zex_l0_kernel_capture {
	struct zex_kernel *kernel;
	struct zex_launch_args args;
	uint32_t group_size[3];
	uint32_t global_offset[3];
};

ze_result_t zex_l0_module_new(struct zex_l0_context *ctx, struct zex_l0_device *dev,
			      struct zex_l0_module **out);
int zex_l0_module_read_kernels(struct zex_l0_module *m, const void *spirv, size_t size);
char *zex_l0_compiler_options(const char *flags);
int zex_l0_specialize(const void *input, size_t input_size, const ze_module_constants_t *c,
		      const void **spirv, size_t *size, void **copy);
ze_result_t zex_l0_module_program_create(struct zex_l0_context *ctx, struct zex_l0_device *dev,
					 const ze_module_desc_t *desc,
					 const ze_module_program_exp_desc_t *prog,
					 ze_module_handle_t *phModule,
					 ze_module_build_log_handle_t *phBuildLog);
ze_result_t zex_l0_build_log_new(char *text, ze_module_build_log_handle_t *out);
ze_result_t zex_l0_string_out(const char *text, size_t *size, char *out);
ze_result_t zex_l0_kernel_capture(struct zex_l0_kernel *k, struct zex_l0_kernel_capture *c);
void zex_l0_kernel_capture_release(struct zex_l0_kernel_capture *c);

#endif /* ZEX_L0_MODULE_H */
