/* SPDX-License-Identifier: MIT */
/*
 * DOC: engine.h - the compute engine: SPIR-V modules built and run by PoCL
 *
 * Kernels run on the application's own threads through OpenCL, whose CPU
 * implementation (PoCL, Debian's libpocl2) is loaded at run time, with the
 * SPIR-V translator and libLLVM-15: a machine without them opens no engine
 * and says which is missing. A module is translated, its geometry
 * built-ins redirected (launch_geometry.h), and built; a kernel's
 * arguments are captured at each launch; a module that imports from
 * others is built once they are named (zex_program_link()), with libzex's
 * device libraries linked in where it imports from them; a launch part runs on one engine
 * queue (one per thread that serves a tile) and ends when its work-groups
 * have all run. Each tile's parts run on a pool of its own: a sub-device
 * with an equal share of the CPU device's compute units.
 */
#ifndef ZEX_COMPUTE_ENGINE_H
#define ZEX_COMPUTE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compute/launch_geometry.h"
#include "compute/spirv.h"

struct zex_compute_engine;
struct zex_program;
struct zex_kernel;
struct zex_engine_queue;

/**
 * struct zex_engine_info - what the engine is and honours
 * @name: the OpenCL device's name (PoCL's CPU device).
 * @version: the implementation's version string.
 * @threads: its compute units (the threads of its pool).
 * @threads_per_tile: those of each tile's pool.
 * @max_group_size: the most work-items in a work-group.
 * @max_group_dims: the most in each dimension.
 * @local_memory: the most shared local memory a work-group may have.
 * @max_args_size: the most bytes a kernel's arguments may take.
 * @printf_buffer: the room for a launch's printf() output.
 * @fp16, @fp64, @int64_atomics: whether kernels have them.
 * @fp16_config, @fp32_config, @fp64_config: OpenCL's cl_device_fp_config
 *	of each precision (0 where it has none).
 */
struct zex_engine_info {
	char name[128];
	char version[128];
	uint32_t threads;
	uint32_t threads_per_tile;
	uint64_t max_group_size;
	uint64_t max_group_dims[3];
	uint64_t local_memory;
	uint64_t max_args_size;
	uint64_t printf_buffer;
	bool fp16, fp64, int64_atomics;
	uint64_t fp16_config, fp32_config, fp64_config;
};

/**
 * struct zex_launch_args - a kernel's arguments as a launch captured them
 * @num: arguments.
 * @size: each one's size.
 * @offset: each one's bytes in @data (not for local memory).
 * @data: the values.
 */
struct zex_launch_args {
	uint32_t num;
	uint32_t *size;
	uint32_t *offset;
	unsigned char *data;
};

struct zex_compute_engine *zex_engine_open(uint32_t tiles, char *why, size_t why_size);
void zex_engine_close(struct zex_compute_engine *e);
const struct zex_engine_info *zex_engine_info(const struct zex_compute_engine *e);

int zex_program_build(struct zex_compute_engine *e, const void *spirv, size_t size,
		      const char *options, struct zex_program **out, char **log);
int zex_program_build_many(struct zex_compute_engine *e, const void *const *spirv,
			   const size_t *sizes, uint32_t num, const char *options,
			   struct zex_program **out, char **log);
bool zex_engine_library_exports(struct zex_compute_engine *e, const char *name);
bool zex_program_linked(struct zex_program *p);
const struct zex_spirv_link *zex_program_links(const struct zex_program *p, uint32_t *num);
int zex_program_link(struct zex_program *p, struct zex_program *const *with, uint32_t num,
		     char **log);
void zex_program_put(struct zex_program *p);
const void *zex_program_spirv(const struct zex_program *p, size_t *size);

int zex_kernel_create(struct zex_program *p, const char *name, struct zex_kernel **out);
struct zex_kernel *zex_kernel_get(struct zex_kernel *k);
void zex_kernel_put(struct zex_kernel *k);
const struct zex_spirv_arg *zex_kernel_args(const struct zex_kernel *k, uint32_t *num);
uint64_t zex_kernel_private_memory(const struct zex_kernel *k);
uint64_t zex_kernel_max_group_size(const struct zex_kernel *k);
uint32_t zex_kernel_preferred_multiple(const struct zex_kernel *k);

int zex_engine_queue_create(struct zex_compute_engine *e, uint32_t tile,
			    struct zex_engine_queue **out);
void zex_engine_queue_destroy(struct zex_engine_queue *q);
/**
 * struct zex_engine_fault - a part's memory fault (zex_engine_run()'s -EFAULT)
 * @addr: the first faulting address.
 * @write: whether it was a write.
 * @read_only: the page was mapped read-only (else not mapped).
 */
struct zex_engine_fault {
	uint64_t addr;
	bool write;
	bool read_only;
};

int zex_engine_run(struct zex_engine_queue *q, struct zex_kernel *k,
		   const struct zex_launch_args *args, const uint32_t group_size[3],
		   const uint32_t part_groups[3], const struct zex_geometry *geometry,
		   struct zex_engine_fault *fault);

uint32_t zex_engine_cooperative_groups(struct zex_compute_engine *e, uint32_t tiles);
void zex_engine_cooperative_enter(struct zex_engine_queue *q, const void *queue, uint64_t seqno,
				  uint32_t parts);
void zex_engine_cooperative_leave(struct zex_engine_queue *q, const void *queue, uint64_t seqno);

#endif /* ZEX_COMPUTE_ENGINE_H */
