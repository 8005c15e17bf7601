// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex-bench-kernel.c - Level Zero kernels on zex against PoCL called directly, in one run
 *
 * Usage: zex-bench-kernel [ITERATIONS]
 *
 * The kernels of zex_bench_kernels.spv (beside this program), each row the
 * median of interleaved rounds:
 * - an empty kernel's launch round trip, one work-item, through a
 *   synchronous immediate command list on tile 0's compute engine, against
 *   the same SPIR-V (translated by llvm-spirv-15, built by PoCL) enqueued
 *   on an OpenCL queue and finished (goal: at most 1.5 x): what zex's
 *   launch protocol (a kernel job, a long-running queue, a serving thread)
 *   adds to PoCL's own launch;
 * - spin() over 4096 work-items on tile 0, against the same through PoCL
 *   directly (goal: zex at least 0.9 x PoCL's speed), and against the same
 *   loop in C -O2 on one thread (printed, no goal). Like for like: the
 *   floor runs on an OpenCL sub-device of a tile's share of the CPUs, as
 *   tile 0's pool is;
 * - spin() on the root device, split between the tiles, against tile 0
 *   alone (goal: at least 1.7 x where the machine has a CPU per tile for
 *   the engine; printed with the CPU count).
 * libzex has PoCL compile one work-group function per kernel, for any group
 * size (POCL_WORK_GROUP_SPECIALIZATION=0, set in this process when the
 * first module is built): the floor, PoCL in the same process, builds its
 * kernels after that, the same way.
 * Prints "BENCH kernel ..." lines that tools/bench/table.py reads.
 */

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zex/zex_api.h"
#include "zex_bench.h"

#define ROUNDS		5
#define ITEMS		4096
#define GROUP		64
#define SPIN		20000

static const char *prog = "zex-bench-kernel";

#define CHECK(call) do {						\
	long _r = (long)(call);						\
	if (_r) {							\
		fprintf(stderr, "%s: %s failed (%ld)\n", prog, #call, _r); \
		exit(1);						\
	}								\
} while (0)

static char dir[PATH_MAX];

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0)
		bench_die(prog, path);
	rewind(f);
	buf = malloc((size_t)len);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		bench_die(prog, path);
	fclose(f);
	*size = (size_t)len;
	return buf;
}

/* The floor: PoCL through OpenCL, on the bitcode the translator makes. */
struct floor {
	cl_context ctx;
	cl_command_queue q;
	cl_kernel empty, spin;
};

static void floor_open(struct floor *fl, uint32_t tiles)
{
	cl_device_partition_property props[3] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
	cl_device_id pools[8];
	cl_uint units = 0, n = 0;
	char cmd[PATH_MAX * 2 + 64], bc[] = "/tmp/zex-bench-kernel-XXXXXX";
	const unsigned char *bin;
	cl_platform_id p;
	cl_device_id d;
	cl_program pr;
	size_t size;
	cl_int err;
	int fd = mkstemp(bc);

	if (fd < 0)
		bench_die(prog, "mkstemp");
	close(fd);
	snprintf(cmd, sizeof(cmd), "llvm-spirv-15 -r %s/zex_bench_kernels.spv -o %s", dir, bc);
	CHECK(system(cmd));
	bin = read_file(bc, &size);
	unlink(bc);
	CHECK(clGetPlatformIDs(1, &p, NULL));
	CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &d, NULL));
	/* A tile's share of the compute units, as libzex gives each tile. */
	CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL));
	if (tiles > 1 && units > 1) {
		props[1] = units / tiles ? units / tiles : 1;
		if (clCreateSubDevices(d, props, 8, pools, &n) == CL_SUCCESS && n)
			d = pools[0];
	}
	fl->ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
	CHECK(err);
	fl->q = clCreateCommandQueueWithProperties(fl->ctx, d, NULL, &err);
	CHECK(err);
	pr = clCreateProgramWithBinary(fl->ctx, 1, &d, &size, &bin, NULL, &err);
	CHECK(err);
	CHECK(clBuildProgram(pr, 1, &d, "-x spir -spir-std=1.2", NULL, NULL));
	fl->empty = clCreateKernel(pr, "empty", &err);
	CHECK(err);
	fl->spin = clCreateKernel(pr, "spin", &err);
	CHECK(err);
	free((void *)bin);
}

static double floor_run(struct floor *fl, cl_kernel k, void *out, uint32_t n, size_t items,
			size_t group)
{
	double t0 = bench_now_us();

	CHECK(clSetKernelArgSVMPointer(k, 0, out));
	if (k == fl->spin)
		CHECK(clSetKernelArg(k, 1, sizeof(n), &n));
	CHECK(clEnqueueNDRangeKernel(fl->q, k, 1, NULL, &items, &group, 0, NULL, NULL));
	CHECK(clFinish(fl->q));
	return bench_now_us() - t0;
}

/* zex: a module, its kernels, a synchronous immediate list per device. */
struct zex {
	ze_context_handle_t ctx;
	ze_device_handle_t root, tile;
	ze_kernel_handle_t empty, spin;
	ze_command_list_handle_t on_tile, on_root;
};

static ze_command_list_handle_t immediate(struct zex *z, ze_device_handle_t dev)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_command_list_handle_t l;

	CHECK(zeCommandListCreateImmediate(z->ctx, dev, &qd, &l));
	return l;
}

static uint32_t zex_open(struct zex *z)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV };
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC };
	char path[PATH_MAX + 32];
	ze_driver_handle_t drv;
	ze_module_handle_t m;
	uint32_t n = 1, tiles;
	size_t size;

	CHECK(zeInit(0));
	CHECK(zeDriverGet(&n, &drv));
	CHECK(zeDeviceGet(drv, &n, &z->root));
	n = 0;
	CHECK(zeDeviceGetSubDevices(z->root, &n, NULL));
	tiles = n;
	n = 1;
	CHECK(zeDeviceGetSubDevices(z->root, &n, &z->tile));
	CHECK(zeContextCreate(drv, &cd, &z->ctx));
	snprintf(path, sizeof(path), "%s/zex_bench_kernels.spv", dir);
	md.pInputModule = read_file(path, &size);
	md.inputSize = size;
	CHECK(zeModuleCreate(z->ctx, z->root, &md, &m, NULL));
	kd.pKernelName = "empty";
	CHECK(zeKernelCreate(m, &kd, &z->empty));
	kd.pKernelName = "spin";
	CHECK(zeKernelCreate(m, &kd, &z->spin));
	z->on_tile = immediate(z, z->tile);
	z->on_root = immediate(z, z->root);
	free((void *)md.pInputModule);
	return tiles;
}

static double zex_run(struct zex *z, ze_command_list_handle_t l, ze_kernel_handle_t k, void *out,
		      uint32_t n, uint32_t items, uint32_t group)
{
	ze_group_count_t count = { items / group, 1, 1 };
	double t0 = bench_now_us();

	CHECK(zeKernelSetGroupSize(k, group, 1, 1));
	CHECK(zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
	if (k == z->spin)
		CHECK(zeKernelSetArgumentValue(k, 1, sizeof(n), &n));
	CHECK(zeCommandListAppendLaunchKernel(l, k, &count, NULL, 0, NULL));
	return bench_now_us() - t0;
}

/* The loop spin() runs, in C, one thread. */
static double c_run(uint32_t *out, uint32_t n)
{
	double t0 = bench_now_us();
	uint32_t i, j;

	for (i = 0; i < ITEMS; i++) {
		uint32_t x = i + 1;

		for (j = 0; j < n; j++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
		}
		out[i] = x;
	}
	return bench_now_us() - t0;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 200, r, i;
	double launch[2][ROUNDS], spin[3][ROUNDS], scale[2][ROUNDS];
	uint32_t *out = aligned_alloc(4096, ITEMS * sizeof(uint32_t));
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct floor fl;
	struct zex z;
	void *zout;

	if (len < 0 || !out || iters < 1)
		bench_die(prog, "setup");
	exe[len] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(exe));
	floor_open(&fl, zex_open(&z));
	CHECK(zeMemAllocHost(z.ctx, &hd, ITEMS * sizeof(uint32_t), 0, &zout));
	/* Warm both: builds, the long-running queues, PoCL's specializations. */
	zex_run(&z, z.on_tile, z.empty, zout, 0, 1, 1);
	zex_run(&z, z.on_tile, z.spin, zout, 1, ITEMS, GROUP);
	zex_run(&z, z.on_root, z.spin, zout, 1, ITEMS, GROUP);
	floor_run(&fl, fl.empty, out, 0, 1, 1);
	floor_run(&fl, fl.spin, out, 1, ITEMS, GROUP);
	for (r = 0; r < ROUNDS; r++) {
		double t[2] = { 0, 0 };

		for (i = 0; i < iters; i++) {
			t[0] += zex_run(&z, z.on_tile, z.empty, zout, 0, 1, 1);
			t[1] += floor_run(&fl, fl.empty, out, 0, 1, 1);
		}
		launch[0][r] = t[0] / iters;
		launch[1][r] = t[1] / iters;
		spin[0][r] = zex_run(&z, z.on_tile, z.spin, zout, SPIN, ITEMS, GROUP) / 1e3;
		spin[1][r] = floor_run(&fl, fl.spin, out, SPIN, ITEMS, GROUP) / 1e3;
		spin[2][r] = c_run(out, SPIN) / 1e3;
		scale[0][r] = spin[0][r];
		scale[1][r] = zex_run(&z, z.on_root, z.spin, zout, SPIN, ITEMS, GROUP) / 1e3;
	}
	if (memcmp(out, zout, ITEMS * sizeof(uint32_t)))
		fprintf(stderr, "%s: zex's spin() and C's differ\n", prog);
	printf("BENCH kernel launch zex_us=%.2f pocl_us=%.2f\n", bench_median(launch[0], ROUNDS),
	       bench_median(launch[1], ROUNDS));
	printf("BENCH kernel spin zex_ms=%.2f pocl_ms=%.2f c_ms=%.2f\n",
	       bench_median(spin[0], ROUNDS), bench_median(spin[1], ROUNDS),
	       bench_median(spin[2], ROUNDS));
	printf("BENCH kernel scale tile_ms=%.2f root_ms=%.2f cpus=%ld\n",
	       bench_median(scale[0], ROUNDS), bench_median(scale[1], ROUNDS),
	       sysconf(_SC_NPROCESSORS_ONLN));
	return 0;
}
