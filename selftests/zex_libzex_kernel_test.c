// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DOC: zex_libzex_kernel_test.c - Level Zero kernels on zex: modules, kernels, launches
 *
 * Through libzex's entry points, with the compute engine (PoCL) loaded:
 * a SPIR-V module (zex_kernels.spv, beside this program) builds, names its
 * kernels and refuses what is not SPIR-V; a kernel checks its arguments'
 * indices and sizes and its group sizes; a launch on a tile's compute
 * queue computes over device memory (device pointers are valid in
 * kernels); a launch on the root device is split between the tiles and
 * every work-item still sees the whole launch (group ids, counts, global
 * ids and sizes, a global offset); a cooperative launch runs all its
 * groups at once, also beside another; a synchronous append of several
 * launches runs them all; launches are ordered with copies and
 * events in one list; a build that fails says why in its log; a kernel
 * that touches memory the process does not map loses its queue alone,
 * one that runs a little past small allocations stays in their pages; a
 * process killed mid-launch leaves the device working; modules that
 * import from each other run once zeModuleDynamicLink links them; launches
 * of every group size and offset share one compiled kernel; every
 * work-item of a launch calls the host through a hostrpc channel, and a
 * server that dies mid-launch fails the calls left, not the launch; and a process
 * without the engine (no OpenCL platform) is told why kernels
 * are unsupported. Must run where the compute packages are installed: it
 * fails, not skips, without them.
 */

#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"
#include "zex/zex_hostrpc.h"

/* The no-engine child: run in a fresh process, with no OpenCL platform. */
#define NO_ENGINE_CHILD	"ZEX_TEST_NO_ENGINE_CHILD"
/* The killed child: a launch that never ends, in a process of its own. */
#define ENDLESS_CHILD	"ZEX_TEST_ENDLESS_CHILD"

static void *read_spirv_file(const char *name, size_t *size)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void *buf = NULL;
	FILE *f;
	long len;

	if (n < 0)
		return NULL;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dirname(exe), name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0) {
		rewind(f);
		buf = malloc((size_t)len);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)len;
	}
	fclose(f);
	return buf;
}

static void *read_spirv(size_t *size)
{
	return read_spirv_file("zex_kernels.spv", size);
}

FIXTURE(kernel) {
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	ze_device_handle_t root;
	ze_device_handle_t tile;
	uint32_t num_tiles;
	ze_module_handle_t module;
};

static ze_module_handle_t build(FIXTURE_DATA(kernel) *self, ze_device_handle_t dev,
				const char *flags, ze_result_t *res, char *log, size_t log_size)
{
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV, .pBuildFlags = flags };
	ze_module_build_log_handle_t bl = NULL;
	ze_module_handle_t m = NULL;
	size_t size = 0;
	void *spirv = read_spirv(&size);

	md.inputSize = size;
	md.pInputModule = spirv;
	*res = spirv ? zeModuleCreate(self->ctx, dev, &md, &m, &bl) : ZE_RESULT_ERROR_UNKNOWN;
	if (log && bl) {
		size = log_size;
		zeModuleBuildLogGetString(bl, &size, log);
	}
	if (bl)
		zeModuleBuildLogDestroy(bl);
	free(spirv);
	return m;
}

FIXTURE_SETUP(kernel)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_result_t res;
	uint32_t n = 1;
	char log[4096] = "";

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeInit(0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&n, &self->drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(self->drv, &n, &self->root));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(self->drv, &cd, &self->ctx));
	n = 1;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->root, &n, &self->tile));
	self->num_tiles = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->root, &self->num_tiles, NULL));
	self->module = build(self, self->root, NULL, &res, log, sizeof(log));
	ASSERT_EQ(ZE_RESULT_SUCCESS, res) {
		const char *why = "";

		zeDriverGetLastErrorDescription(self->drv, &why);
		TH_LOG("%s; build log: %s", why, log);
	}
}

FIXTURE_TEARDOWN(kernel)
{
	if (self->module)
		zeModuleDestroy(self->module);
	if (self->ctx)
		zeContextDestroy(self->ctx);
}

static ze_kernel_handle_t kernel(FIXTURE_DATA(kernel) *self, const char *name)
{
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = name };
	ze_kernel_handle_t k = NULL;

	return zeKernelCreate(self->module, &kd, &k) ? NULL : k;
}

/* An immediate synchronous list on @dev's compute group (ordinal 0). */
static ze_command_list_handle_t immediate(FIXTURE_DATA(kernel) *self, ze_device_handle_t dev)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS };
	ze_command_list_handle_t l = NULL;

	return zeCommandListCreateImmediate(self->ctx, dev, &qd, &l) ? NULL : l;
}

static void *device_mem(FIXTURE_DATA(kernel) *self, ze_device_handle_t dev, size_t size)
{
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	void *p = NULL;

	return zeMemAllocDevice(self->ctx, &dd, size, 0, dev, &p) ? NULL : p;
}

static void *host_mem(FIXTURE_DATA(kernel) *self, size_t size)
{
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	void *p = NULL;

	return zeMemAllocHost(self->ctx, &hd, size, 0, &p) ? NULL : p;
}

TEST_F(kernel, the_module_names_its_kernels)
{
	const char *names[6] = { NULL };
	uint32_t n = 0, i;
	bool scale = false, geometry = false, barrier = false, add = false;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetKernelNames(self->module, &n, NULL));
	ASSERT_EQ(5, n);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetKernelNames(self->module, &n, names));
	for (i = 0; i < n; i++) {
		scale |= !strcmp(names[i], "scale_add");
		geometry |= !strcmp(names[i], "geometry");
		barrier |= !strcmp(names[i], "grid_barrier");
		add |= !strcmp(names[i], "add_constant");
	}
	EXPECT_TRUE(add);
	EXPECT_TRUE(scale);
	EXPECT_TRUE(geometry);
	EXPECT_TRUE(barrier);
}

TEST_F(kernel, what_is_not_spirv_is_refused)
{
	static const uint8_t elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV, .inputSize = sizeof(elf),
				.pInputModule = elf };
	ze_module_handle_t m = NULL;

	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
		  zeModuleCreate(self->ctx, self->root, &md, &m, NULL));
	md.format = ZE_MODULE_FORMAT_NATIVE;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
		  zeModuleCreate(self->ctx, self->root, &md, &m, NULL));
	md.inputSize = 0;
	md.format = ZE_MODULE_FORMAT_IL_SPIRV;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
		  zeModuleCreate(self->ctx, self->root, &md, &m, NULL));
	EXPECT_EQ(NULL, m);
}

/* The compiler's refusal is the build's failure, and its log says why. */
TEST_F(kernel, a_failed_build_says_why_in_its_log)
{
	char log[4096] = "";
	ze_result_t res;
	ze_module_handle_t m = build(self, self->root, "-cl-no-such-option", &res, log,
				     sizeof(log));

	EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, res);
	EXPECT_EQ(NULL, m);
	EXPECT_NE(0, strlen(log));
	/* compute-runtime's own flags are hints: dropped, the build goes on. */
	m = build(self, self->root, "-ze-opt-level=2 -g", &res, NULL, 0);
	EXPECT_EQ(ZE_RESULT_SUCCESS, res);
	if (m)
		zeModuleDestroy(m);
}

TEST_F(kernel, a_kernel_checks_its_arguments_and_group_size)
{
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = "nope" };
	ze_kernel_properties_t props = { .stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES };
	ze_kernel_handle_t k = kernel(self, "scale_add"), none = NULL;
	uint32_t x, y, z;
	int v = 1;
	char name[32];
	size_t size = sizeof(name);

	ASSERT_NE(NULL, k);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(self->module, &kd, &none));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelGetProperties(k, &props));
	EXPECT_EQ(4, props.numKernelArgs);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelGetName(k, &size, name));
	EXPECT_STREQ("scale_add", name);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
		  zeKernelSetArgumentValue(k, 4, sizeof(v), &v));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
		  zeKernelSetArgumentValue(k, 0, sizeof(v), &v));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
		  zeKernelSetArgumentValue(k, 2, 0, &v));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeKernelSetArgumentValue(k, 2, sizeof(v), NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(v), &v));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION, zeKernelSetGroupSize(k, 0, 1, 1));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
		  zeKernelSetGroupSize(k, 1u << 20, 1u << 20, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSuggestGroupSize(k, 96, 1, 1, &x, &y, &z));
	EXPECT_EQ(0, 96 % x);
	EXPECT_EQ(1, y);
	EXPECT_EQ(1, z);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, x, y, z));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelDestroy(k));
}

/* What a run of scale_add takes: its kernel, a list, and @n ints each way. */
struct scale_add_run {
	ze_kernel_handle_t k;
	ze_command_list_handle_t l;
	int *src, *dst, *host;
};

/* scale_add, an immediate list on @dev, and device memory whose src holds 0 to @n - 1. */
static void scale_add_prepare(struct __test_metadata *_metadata, FIXTURE_DATA(kernel) *self,
			      ze_device_handle_t dev, uint32_t n, struct scale_add_run *r)
{
	uint32_t i;

	r->k = kernel(self, "scale_add");
	r->l = immediate(self, dev);
	r->src = device_mem(self, dev, n * sizeof(int));
	r->dst = device_mem(self, dev, n * sizeof(int));
	r->host = host_mem(self, n * sizeof(int));
	ASSERT_NE(NULL, r->k);
	ASSERT_NE(NULL, r->l);
	ASSERT_NE(NULL, r->src);
	ASSERT_NE(NULL, r->dst);
	ASSERT_NE(NULL, r->host);
	for (i = 0; i < n; i++)
		r->host[i] = (int)i;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(r->l, r->src, r->host,
								   n * sizeof(int), NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r->k, 0, sizeof(r->dst), &r->dst));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r->k, 1, sizeof(r->src), &r->src));
}

static void scale_add_release(FIXTURE_DATA(kernel) *self, struct scale_add_run *r)
{
	zeMemFree(self->ctx, r->host);
	zeMemFree(self->ctx, r->dst);
	zeMemFree(self->ctx, r->src);
	zeCommandListDestroy(r->l);
	zeKernelDestroy(r->k);
}

/* scale_add over @n ints of device memory on @dev, through an immediate list. */
static void scale_add_on(struct __test_metadata *_metadata, FIXTURE_DATA(kernel) *self,
			 ze_device_handle_t dev, uint32_t n)
{
	struct scale_add_run r = { 0 };
	ze_group_count_t groups = { n / 8, 1, 1 };
	/*
	 * A value given wider than the argument is cut to it (its low bytes):
	 * 16 bytes for an int, more than its slot, so that bytes not cut
	 * would land on the next argument.
	 */
	struct {
		int64_t low, high;
	} scale = { 3, -1 };
	int add = -7;
	uint32_t i;

	scale_add_prepare(_metadata, self, dev, n, &r);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(r.k, 8, 1, 1));
	/* add first: a wide scale not cut to its int would run into it. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r.k, 3, sizeof(add), &add));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r.k, 2, sizeof(scale), &scale));
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeCommandListAppendLaunchKernel(r.l, r.k, &groups, NULL, 0, NULL));
	memset(r.host, 0, n * sizeof(int));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(r.l, r.host, r.dst,
								   n * sizeof(int), NULL, 0, NULL));
	for (i = 0; i < n; i++)
		ASSERT_EQ((int)i * 3 - 7, r.host[i]) TH_LOG("element %u", i);
	scale_add_release(self, &r);
}

/* zex's native binary is taken back as such, and its kernels run. */
TEST_F(kernel, a_native_binary_is_taken_back)
{
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_NATIVE };
	ze_module_handle_t m = NULL, saved = self->module;
	uint8_t *bin;
	size_t size = 0;

	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(self->module, &size, NULL));
	ASSERT_LT(24, size);
	bin = malloc(size);
	ASSERT_NE(NULL, bin);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(self->module, &size, bin));
	EXPECT_EQ(0, memcmp(bin, "ZEXNATV1", 8));
	md.inputSize = size;
	md.pInputModule = bin;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleCreate(self->ctx, self->tile, &md, &m, NULL));
	self->module = m;
	scale_add_on(_metadata, self, self->tile, 64);
	self->module = saved;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDestroy(m));
	/* One byte off: not zex's. */
	bin[8] = 2;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY,
		  zeModuleCreate(self->ctx, self->tile, &md, &m, NULL));
	free(bin);
}

TEST_F(kernel, a_tile_runs_a_kernel_over_device_memory)
{
	scale_add_on(_metadata, self, self->tile, 4096);
}

TEST_F(kernel, the_root_device_runs_a_kernel_over_device_memory)
{
	scale_add_on(_metadata, self, self->root, 4096);
}

/*
 * An asynchronous immediate list takes a hundred launches of one kernel,
 * its arguments set anew before each, and one synchronize; each launch
 * used the arguments it was appended with (the sum of all of them).
 */
TEST_F(kernel, many_launches_on_an_asynchronous_immediate_list)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_kernel_handle_t k = kernel(self, "scale_add");
	int *buf = host_mem(self, 16 * sizeof(int));
	ze_group_count_t groups = { 2, 1, 1 };
	ze_command_list_handle_t l;
	int scale = 1, add, total = 0, i;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, buf);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->tile, &qd, &l));
	memset(buf, 0, 16 * sizeof(int));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 8, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(buf), &buf));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(buf), &buf));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
	for (i = 0; i < 100; i++) {
		add = i;
		total += i;
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL));
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(l, UINT64_MAX));
	for (i = 0; i < 16; i++)
		EXPECT_EQ(total, buf[i]) TH_LOG("element %d", i);
	zeCommandListDestroy(l);
	zeMemFree(self->ctx, buf);
	zeKernelDestroy(k);
}

/*
 * zeCommandListAppendLaunchKernelWithArguments (API 1.14) sets the group
 * size and every argument as it appends, as the separate calls would: a
 * later plain launch runs with them. What it refuses leaves no launch.
 */
TEST_F(kernel, a_launch_with_its_arguments_sets_them_first)
{
	const uint32_t n = 256;
	ze_kernel_handle_t k = kernel(self, "scale_add");
	ze_command_list_handle_t l = immediate(self, self->tile);
	int *src = host_mem(self, n * sizeof(int));
	int *dst = host_mem(self, n * sizeof(int));
	ze_group_count_t groups = { n / 16, 1, 1 };
	ze_group_size_t size = { 16, 1, 1 }, bad = { 0, 1, 1 };
	int scale = 3, add = 4, junk = 0;
	void *args[] = { &dst, &src, &scale, &add };
	ze_base_desc_t ext = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC };
	uint32_t i;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (i = 0; i < n; i++)
		src[i] = (int)i;
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeCommandListAppendLaunchKernelWithArguments(l, k, groups, size, args, NULL, NULL,
							       0, NULL));
	for (i = 0; i < n; i++)
		ASSERT_EQ((int)i * 3 + 4, dst[i]) TH_LOG("element %u", i);
	/* The kernel keeps them: a plain launch after, with one changed. */
	add = 10;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL));
	for (i = 0; i < n; i++)
		ASSERT_EQ((int)i * 3 + 10, dst[i]) TH_LOG("element %u", i);
	memset(dst, 0, n * sizeof(int));
	args[0] = &junk;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
		  zeCommandListAppendLaunchKernelWithArguments(l, k, groups, bad, args, NULL, NULL,
							       0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeCommandListAppendLaunchKernelWithArguments(l, k, groups, size, args, &ext,
							       NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeCommandListAppendLaunchKernelWithArguments(l, k, groups, size, NULL, NULL,
							       NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListAppendLaunchKernelWithArguments(l, NULL, groups, size, args, NULL,
							       NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeCommandListAppendLaunchKernelWithArguments(NULL, k, groups, size, args, NULL,
							       NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
		  zeCommandListAppendLaunchKernelWithArguments(l, k, groups, size, args, NULL,
							       NULL, 1, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(l, UINT64_MAX));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, dst[i]) TH_LOG("a refused launch ran: element %u", i);
	zeCommandListDestroy(l);
	zeMemFree(self->ctx, src);
	zeMemFree(self->ctx, dst);
	zeKernelDestroy(k);
}

/*
 * Four in-order immediate lists of one engine (the first synchronous),
 * each of many launches adding to its part of the application's heap
 * memory, chained by one counter-based event: each list's last launch
 * waits for the list before it through the event and signals it. The
 * host's wait for the event is a wait for all of them.
 */
TEST_F(kernel, lists_chained_by_a_counter_based_event_over_heap_memory)
{
	static const ze_command_queue_mode_t modes[] = {
		ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
		ZE_COMMAND_QUEUE_MODE_DEFAULT, ZE_COMMAND_QUEUE_MODE_DEFAULT };
	ze_event_counter_based_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC,
					     .flags = ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
						      ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE };
	const uint32_t size = 16, launches = 101;
	ze_kernel_handle_t k = kernel(self, "add_constant");
	ze_command_list_handle_t l[4];
	ze_group_count_t groups = { size, 1, 1 };
	ze_event_handle_t e = NULL;
	uint32_t n, lists, j, i;

	ASSERT_NE(NULL, k);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCounterBasedCreate(self->ctx, self->root, &ed, &e));
	for (n = 0; n < 4; n++) {
		ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
					       .flags = (ze_command_queue_flags_t)ZE_BIT(1),
					       .mode = modes[n] };

		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListCreateImmediate(self->ctx, self->root, &qd, &l[n]));
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 1, 1, 1));
	for (lists = 1; lists <= 4; lists++) {
		int *buf = malloc(lists * size * sizeof(int));
		int total[4] = { 0 };

		ASSERT_NE(NULL, buf);
		memset(buf, 0, lists * size * sizeof(int));
		for (n = 0; n < lists; n++) {
			int *part = buf + n * size;

			ASSERT_EQ(ZE_RESULT_SUCCESS,
				  zeKernelSetArgumentValue(k, 0, sizeof(part), &part));
			for (j = 0; j < launches; j++) {
				int add = (int)(j * 7 + n + 1);
				bool last = j == launches - 1;

				total[n] += add;
				ASSERT_EQ(ZE_RESULT_SUCCESS,
					  zeKernelSetArgumentValue(k, 1, sizeof(add), &add));
				ASSERT_EQ(ZE_RESULT_SUCCESS,
					  zeCommandListAppendLaunchKernel(l[n], k, &groups,
									  last ? e : NULL,
									  last && n ? 1 : 0,
									  last && n ? &e : NULL));
			}
		}
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(e, UINT64_MAX));
		for (n = 0; n < lists; n++)
			for (i = 0; i < size; i++)
				EXPECT_EQ(total[n], buf[n * size + i])
					TH_LOG("%u lists: list %u, element %u", lists, n, i);
		free(buf);
	}
	for (n = 0; n < 4; n++)
		zeCommandListDestroy(l[n]);
	zeEventDestroy(e);
	zeKernelDestroy(k);
}

#define COOP_ROUNDS	16

/*
 * A cooperative launch of as many groups as zeKernelSuggestMaxCooperativeGroupCount
 * says runs them all at once: each waits for all the others (grid_barrier).
 * Two asynchronous immediate lists on the root device take such launches
 * at the same time, round after round, and every launch ends with all its
 * groups seen (that one at a time holds the pools is engine_test's). A
 * tile takes its share of the root's groups, and more than run at once are
 * refused.
 */
TEST_F(kernel, cooperative_launches_run_all_their_groups_at_once)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_kernel_handle_t k = kernel(self, "grid_barrier");
	ze_command_list_handle_t l[2], tile_list;
	uint32_t max = 0, r, i, g;
	ze_group_count_t groups = { 1, 1, 1 };
	int *arrived, *out;

	ASSERT_NE(NULL, k);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSuggestMaxCooperativeGroupCount(k, &max));
	ASSERT_GE(max, self->num_tiles);
	ASSERT_EQ(0, max % self->num_tiles);
	arrived = host_mem(self, 2 * COOP_ROUNDS * sizeof(int));
	out = host_mem(self, 2 * COOP_ROUNDS * max * sizeof(int));
	ASSERT_NE(NULL, arrived);
	ASSERT_NE(NULL, out);
	memset(arrived, 0, 2 * COOP_ROUNDS * sizeof(int));
	memset(out, 0, 2 * COOP_ROUNDS * max * sizeof(int));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 1, 1, 1));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListCreateImmediate(self->ctx, self->root, &qd, &l[i]));
	groups.groupCountX = max;
	for (r = 0; r < COOP_ROUNDS; r++)
		for (i = 0; i < 2; i++) {
			int *a = &arrived[2 * r + i], *o = &out[(2 * r + i) * max];

			ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(a), &a));
			ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(o), &o));
			ASSERT_EQ(ZE_RESULT_SUCCESS,
				  zeCommandListAppendLaunchCooperativeKernel(l[i], k, &groups,
									     NULL, 0, NULL));
		}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(l[i], UINT64_MAX));
	for (r = 0; r < 2 * COOP_ROUNDS; r++)
		for (g = 0; g < max; g++)
			ASSERT_EQ((int)max, out[r * max + g]) TH_LOG("launch %u, group %u", r, g);

	/* One more group than run at once is refused; a tile runs its share. */
	groups.groupCountX = max + 1;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListAppendLaunchCooperativeKernel(l[0], k, &groups, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(self->ctx, self->tile, &qd,
								  &tile_list));
	groups.groupCountX = max / self->num_tiles + 1;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeCommandListAppendLaunchCooperativeKernel(tile_list, k, &groups, NULL, 0,
							     NULL));
	groups.groupCountX = max / self->num_tiles;
	arrived[0] = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(arrived), &arrived));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(out), &out));
	ASSERT_EQ(ZE_RESULT_SUCCESS,
		  zeCommandListAppendLaunchCooperativeKernel(tile_list, k, &groups, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(tile_list, UINT64_MAX));
	EXPECT_EQ((int)groups.groupCountX, out[0]);
	zeCommandListDestroy(tile_list);
	for (i = 0; i < 2; i++)
		zeCommandListDestroy(l[i]);
	zeMemFree(self->ctx, out);
	zeMemFree(self->ctx, arrived);
	zeKernelDestroy(k);
}

/*
 * One append of a synchronous immediate list with several launches (three
 * kernels launched indirectly at once, on a tile and on the root device):
 * the appending thread runs each as it is published, and all of them run.
 */
TEST_F(kernel, a_synchronous_append_of_several_launches_runs_them_all)
{
	ze_device_handle_t devs[2] = { self->tile, self->root };
	ze_kernel_handle_t k[3];
	ze_group_count_t *counts = host_mem(self, 3 * sizeof(*counts));
	uint32_t *how_many = host_mem(self, sizeof(*how_many));
	int *buf = host_mem(self, 3 * 16 * sizeof(int));
	int scale = 0, d, i, j;

	ASSERT_NE(NULL, counts);
	ASSERT_NE(NULL, how_many);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < 3; i++) {
		int *dst = buf + 16 * i;

		k[i] = kernel(self, "scale_add");
		ASSERT_NE(NULL, k[i]);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k[i], 8, 1, 1));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k[i], 0, sizeof(dst), &dst));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k[i], 1, sizeof(dst), &dst));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k[i], 2, sizeof(scale),
								      &scale));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k[i], 3, sizeof(i), &i));
		counts[i] = (ze_group_count_t){ 2, 1, 1 };
	}
	*how_many = 3;
	for (d = 0; d < 2; d++) {
		ze_command_list_handle_t l = immediate(self, devs[d]);

		ASSERT_NE(NULL, l);
		memset(buf, 0xff, 3 * 16 * sizeof(int));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendLaunchMultipleKernelsIndirect(l, 3, k, how_many, counts,
									   NULL, 0, NULL));
		for (i = 0; i < 3; i++)
			for (j = 0; j < 16; j++)
				ASSERT_EQ(i, buf[16 * i + j]) TH_LOG("device %d, launch %d", d, i);
		zeCommandListDestroy(l);
	}
	for (i = 0; i < 3; i++)
		zeKernelDestroy(k[i]);
	zeMemFree(self->ctx, buf);
	zeMemFree(self->ctx, how_many);
	zeMemFree(self->ctx, counts);
}

/* What work-item @id of a launch of @groups groups of @size must see. */
static void expected(uint64_t *o, const uint32_t groups[3], const uint32_t size[3],
		     const uint32_t offset[3], const uint64_t id[3], uint32_t dims)
{
	int d;

	for (d = 0; d < 3; d++) {
		o[d] = id[d] / size[d];
		o[3 + d] = groups[d];
		o[6 + d] = id[d] + offset[d];
		o[9 + d] = (uint64_t)groups[d] * size[d];
		o[12 + d] = offset[d];
	}
	o[15] = dims;
}

/*
 * On the root device the launch runs as one part per tile (the groups
 * along z here: 4 of them, 2 per tile); each work-item still sees the
 * whole launch. Through a regular list, a queue and a fence.
 */
TEST_F(kernel, a_root_launch_split_between_tiles_sees_itself_whole)
{
	const uint32_t groups[3] = { 3, 2, 4 }, size[3] = { 2, 2, 1 }, offset[3] = { 5, 0, 2 };
	uint64_t gs[3] = { 6, 4, 4 }, items = 6 * 4 * 4, id[3], want[16];
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC };
	ze_fence_desc_t fd = { .stype = ZE_STRUCTURE_TYPE_FENCE_DESC };
	ze_group_count_t count = { groups[0], groups[1], groups[2] };
	ze_kernel_handle_t k = kernel(self, "geometry");
	uint64_t *out = host_mem(self, items * 16 * sizeof(uint64_t));
	ze_command_queue_handle_t q;
	ze_command_list_handle_t l;
	ze_fence_handle_t f;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, out);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(self->ctx, self->root, &qd, &q));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(self->ctx, self->root, &ld, &l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceCreate(q, &fd, &f));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, size[0], size[1], size[2]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGlobalOffsetExp(k, offset[0], offset[1],
								offset[2]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(out), &out));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(l, k, &count, NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 1, &l, f));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeFenceHostSynchronize(f, UINT64_MAX));
	for (id[2] = 0; id[2] < gs[2]; id[2]++)
		for (id[1] = 0; id[1] < gs[1]; id[1]++)
			for (id[0] = 0; id[0] < gs[0]; id[0]++) {
				uint64_t lin = (id[2] * gs[1] + id[1]) * gs[0] + id[0];

				expected(want, groups, size, offset, id, 3);
				ASSERT_EQ(0, memcmp(want, out + lin * 16, sizeof(want)))
					TH_LOG("item %lu: group %lu %lu %lu, global id %lu %lu %lu",
					       (unsigned long)lin, (unsigned long)out[lin * 16],
					       (unsigned long)out[lin * 16 + 1],
					       (unsigned long)out[lin * 16 + 2],
					       (unsigned long)out[lin * 16 + 6],
					       (unsigned long)out[lin * 16 + 7],
					       (unsigned long)out[lin * 16 + 8]);
			}
	zeFenceDestroy(f);
	zeCommandListDestroy(l);
	zeCommandQueueDestroy(q);
	zeMemFree(self->ctx, out);
	zeKernelDestroy(k);
}

/*
 * One list: a fill, a launch reading what it filled, a copy of what the
 * launch wrote, then an event; run twice (the list's launches stay).
 */
TEST_F(kernel, launches_are_ordered_with_copies_and_events)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC };
	const uint32_t n = 1024;
	ze_kernel_handle_t k = kernel(self, "scale_add");
	int *src = device_mem(self, self->tile, n * sizeof(int));
	int *dst = device_mem(self, self->tile, n * sizeof(int));
	int *host = host_mem(self, n * sizeof(int));
	ze_group_count_t groups = { n / 16, 1, 1 };
	int pattern = 5, scale = 2, add = 1, run;
	ze_command_queue_handle_t q;
	ze_command_list_handle_t l;
	ze_event_pool_handle_t pool;
	ze_event_handle_t ev;
	uint32_t i;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	ASSERT_NE(NULL, host);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(self->ctx, &pd, 0, NULL, &pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(pool, &ed, &ev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(self->ctx, self->tile, &qd, &q));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(self->ctx, self->tile, &ld, &l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 16, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(dst), &dst));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(src), &src));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(l, src, &pattern, sizeof(int),
								   n * sizeof(int), NULL, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL));
	/* Set after the append: the launch keeps what it captured. */
	scale = 100;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(l, host, dst, n * sizeof(int),
								   ev, 0, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(l));
	for (run = 0; run < 2; run++) {
		memset(host, 0, n * sizeof(int));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostReset(ev));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 1, &l, NULL));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(ev, UINT64_MAX));
		for (i = 0; i < n; i++)
			ASSERT_EQ(11, host[i]) TH_LOG("run %d, element %u", run, i);
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
	zeCommandListDestroy(l);
	zeCommandQueueDestroy(q);
	zeEventDestroy(ev);
	zeEventPoolDestroy(pool);
	zeMemFree(self->ctx, host);
	zeMemFree(self->ctx, dst);
	zeMemFree(self->ctx, src);
	zeKernelDestroy(k);
}

/*
 * Level Zero leaves a list destroyed while a queue runs it undefined; a
 * hostile or careless program does it anyway. Here the queue is held by a
 * launch that waits for the host (grid_barrier's count, started below
 * zero), the second list is destroyed, and its kernel too, before its
 * launch starts, then the gate opens: the launch still runs with what it
 * captured. Freed memory is overwritten (M_PERTURB), so a launch read
 * after its list freed it would not compute this.
 */
TEST_F(kernel, a_list_destroyed_while_its_queue_runs_it_still_runs_its_launches)
{
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC };
	ze_command_list_desc_t ld = { .stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC };
	const uint32_t n = 256;
	ze_kernel_handle_t gate = kernel(self, "grid_barrier");
	ze_kernel_handle_t k = kernel(self, "scale_add");
	_Atomic int *arrived = host_mem(self, sizeof(int));
	int *gate_out = host_mem(self, sizeof(int));
	int *src = host_mem(self, n * sizeof(int));
	int *dst = host_mem(self, n * sizeof(int));
	ze_group_count_t one = { 1, 1, 1 }, groups = { n / 8, 1, 1 };
	ze_command_list_handle_t lists[2];
	int scale = 3, add = 1;
	ze_command_queue_handle_t q;
	uint32_t i;

	ASSERT_EQ(1, mallopt(M_PERTURB, 0xa5));
	ASSERT_NE(NULL, gate);
	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, arrived);
	ASSERT_NE(NULL, gate_out);
	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	atomic_store(arrived, -1);
	for (i = 0; i < n; i++) {
		src[i] = (int)i;
		dst[i] = 0;
	}
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueCreate(self->ctx, self->tile, &qd, &q));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreate(self->ctx, self->tile, &ld,
								 &lists[i]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(gate, 1, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(gate, 0, sizeof(arrived), &arrived));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(gate, 1, sizeof(gate_out),
							      &gate_out));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(lists[0], gate, &one, NULL, 0,
								     NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 8, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(dst), &dst));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(src), &src));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(lists[1], k, &groups, NULL, 0,
								     NULL));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListClose(lists[i]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueExecuteCommandLists(q, 2, lists, NULL));
	/* The gate's group is running: the second list's launch waits behind it. */
	while (atomic_load(arrived) < 0)
		sched_yield();
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(lists[1]));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeKernelDestroy(k));
	atomic_store(arrived, 1000);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandQueueSynchronize(q, UINT64_MAX));
	EXPECT_EQ(1000, *gate_out);
	for (i = 0; i < n; i++)
		ASSERT_EQ(3 * (int)i + 1, dst[i]) TH_LOG("element %u", i);
	zeCommandListDestroy(lists[0]);
	zeCommandQueueDestroy(q);
	zeKernelDestroy(gate);
	zeMemFree(self->ctx, dst);
	zeMemFree(self->ctx, src);
	zeMemFree(self->ctx, gate_out);
	zeMemFree(self->ctx, (void *)arrived);
}

/*
 * A kernel reading memory the process does not map faults like a copy
 * does: its queue is lost (DEVICE_LOST), the process lives, and another
 * queue of the same tile still runs kernels.
 */
TEST_F(kernel, a_kernel_that_faults_loses_its_queue_alone)
{
	char *want = (char *)0x300000000000ull;
	int *bad = mmap(want, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			-1, 0);
	ze_kernel_handle_t k = kernel(self, "scale_add");
	ze_command_list_handle_t lost = immediate(self, self->tile);
	int *dst = device_mem(self, self->tile, 64 * sizeof(int));
	ze_group_count_t groups = { 8, 1, 1 };
	int scale = 1, add = 0;
	const char *why = NULL;

	ASSERT_EQ(want, (char *)bad) TH_LOG("0x300000000000 is taken here");
	ASSERT_EQ(0, munmap(bad, 4096));
	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, lost);
	ASSERT_NE(NULL, dst);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 8, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(dst), &dst));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(bad), &bad));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
	EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST,
		  zeCommandListAppendLaunchKernel(lost, k, &groups, NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandListHostSynchronize(lost, UINT64_MAX));
	/* The description says why, from the kernel's record of the ban. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGetLastErrorDescription(self->drv, &why));
	EXPECT_NE(NULL, strstr(why, "touched memory the device does not map")) TH_LOG("%s", why);
	zeCommandListDestroy(lost);
	zeKernelDestroy(k);
	/* The tile's other queues go on. */
	scale_add_on(_metadata, self, self->tile, 256);
	zeMemFree(self->ctx, dst);
}

/*
 * Make every page of [@from, @to) that nothing maps read-only, so that a
 * write there faults; record them in @pages (up to @max). Return: how many.
 */
static unsigned int read_only_where_free(char *from, char *to, void **pages, unsigned int max)
{
	unsigned int n = 0;
	char *q;

	for (q = from; q < to && n < max; q += 4096) {
		void *p = mmap(q, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
			       MAP_FIXED_NOREPLACE, -1, 0);

		if (p == q)
			pages[n++] = p;
		else if (p != MAP_FAILED)
			munmap(p, 4096);
	}
	return n;
}

/*
 * A kernel that runs past the end of small allocations stays in their
 * 64 KiB device pages, as on a GPU: level-zero-tests' add_two_arrays
 * indexes ints by a byte count, so it reads and writes 32 KiB of 8 KiB
 * buffers. Here the test makes every free page of those 32 KiB read-only
 * first (where the process's own memory could lie); the launch still
 * ends, each allocation holds what the kernel wrote, and each still
 * reports the size it was given. Shared, host and device memory, on the
 * root device (split between the tiles).
 */
TEST_F(kernel, a_kernel_past_the_end_of_small_allocations_stays_in_their_pages)
{
	enum { BYTES = 8192, ITEMS = BYTES };
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_kernel_handle_t k = kernel(self, "scale_add");
	ze_command_list_handle_t l = immediate(self, self->root);
	ze_group_count_t groups = { ITEMS / 8, 1, 1 };
	int scale = 2, add = 1, *mem[3] = { NULL, NULL, NULL };
	void *guards[3 * 8];
	unsigned int i, n, guarded = 0;

	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, l);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocShared(self->ctx, &dd, &hd, BYTES, 0, self->root,
						       (void **)&mem[0]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(self->ctx, &hd, BYTES, 0, (void **)&mem[1]));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(self->ctx, &dd, BYTES, 0, self->root,
						       (void **)&mem[2]));
	for (i = 0; i < BYTES / sizeof(int); i++)
		mem[1][i] = (int)i;
	for (i = 0; i < 3; i++)
		guarded += read_only_where_free((char *)mem[i] + BYTES, (char *)mem[i] + 4 * BYTES,
						guards + guarded, 8);
	TH_LOG("%u free pages within 24 KiB past the allocations made read-only", guarded);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 8, 1, 1));
	/* Host memory into shared memory, then shared into device memory. */
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(int *),
								     &mem[i ? 2 : 0]));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(int *),
								     &mem[i ? 0 : 1]));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(scale), &scale));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 3, sizeof(add), &add));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListHostSynchronize(l, UINT64_MAX));
	}
	for (i = 0; i < BYTES / sizeof(int); i++) {
		ASSERT_EQ(2 * (int)i + 1, mem[0][i]) TH_LOG("shared memory, int %u", i);
		ASSERT_EQ(4 * (int)i + 3, mem[2][i]) TH_LOG("device memory, int %u", i);
	}
	for (i = 0; i < 3; i++) {
		void *base = NULL;
		size_t size = 0;

		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemGetAddressRange(self->ctx, mem[i], &base, &size));
		EXPECT_EQ((void *)mem[i], base);
		EXPECT_EQ((size_t)BYTES, size) TH_LOG("allocation %u", i);
	}
	for (n = 0; n < guarded; n++)
		munmap(guards[n], 4096);
	zeCommandListDestroy(l);
	zeKernelDestroy(k);
	for (i = 0; i < 3; i++)
		zeMemFree(self->ctx, mem[i]);
}

/*
 * The killed child: a launch on a tile whose work-groups never end (each
 * waits for a count that never comes), told to the parent on fd @fd once
 * its first group runs; then it waits to be killed.
 */
/* A module of @name beside this program, built for @dev; NULL on failure (*@res). */
static ze_module_handle_t build_file(FIXTURE_DATA(kernel) *self, ze_device_handle_t dev,
				     const char *name, ze_result_t *res)
{
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV };
	ze_module_handle_t m = NULL;
	void *spirv = read_spirv_file(name, &md.inputSize);

	md.pInputModule = spirv;
	*res = spirv ? zeModuleCreate(self->ctx, dev, &md, &m, NULL) : ZE_RESULT_ERROR_UNKNOWN;
	free(spirv);
	return m;
}

/* Run one-pointer kernel @name of @m over @groups groups of 8 on the root device. */
static ze_result_t run_out(FIXTURE_DATA(kernel) *self, ze_module_handle_t m, const char *name,
			   int *out, uint32_t groups)
{
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = name };
	ze_command_list_handle_t l = immediate(self, self->root);
	ze_group_count_t count = { groups, 1, 1 };
	ze_kernel_handle_t k = NULL;
	ze_result_t res = l ? zeKernelCreate(m, &kd, &k) : ZE_RESULT_ERROR_UNKNOWN;

	if (!res)
		res = zeKernelSetGroupSize(k, 8, 1, 1);
	if (!res)
		res = zeKernelSetArgumentValue(k, 0, sizeof(out), &out);
	if (!res)
		res = zeCommandListAppendLaunchKernel(l, k, &count, NULL, 0, NULL);
	if (k)
		zeKernelDestroy(k);
	if (l)
		zeCommandListDestroy(l);
	return res;
}

/* zeModuleInspectLinkageExt of @n modules, every list asked for, into @log. */
static void inspect(struct __test_metadata *_metadata, ze_module_handle_t *m, uint32_t n,
		    char *log, size_t size)
{
	ze_linkage_inspection_ext_desc_t d = {
		.stype = ZE_STRUCTURE_TYPE_LINKAGE_INSPECTION_EXT_DESC,
		.flags = ZE_LINKAGE_INSPECTION_EXT_FLAG_IMPORTS |
			 ZE_LINKAGE_INSPECTION_EXT_FLAG_UNRESOLVABLE_IMPORTS |
			 ZE_LINKAGE_INSPECTION_EXT_FLAG_EXPORTS,
	};
	ze_module_build_log_handle_t bl = NULL;

	log[0] = '\0';
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleInspectLinkageExt(&d, n, m, &bl));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleBuildLogGetString(bl, &size, log));
	zeModuleBuildLogDestroy(bl);
	d.flags = 0x8;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeModuleInspectLinkageExt(&d, n, m, &bl));
}

/*
 * A module that imports a function is unlinked: its kernels cannot be
 * created, and linking it alone fails, naming the import in the link log;
 * the linkage inspection lists what the modules import, cannot resolve
 * and export.
 * Linked with the module that exports it, its kernel runs the other's code
 * on the root device (whose parts see the whole launch there too), and
 * the kernels both modules name twice() stay each module's own.
 */
TEST_F(kernel, modules_that_import_from_each_other_run_once_linked)
{
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC, .pKernelName = "scaled" };
	ze_module_build_log_handle_t bl = NULL;
	ze_module_handle_t imp, exp, both[2];
	ze_kernel_handle_t k = NULL;
	ze_result_t res;
	char log[4096] = "";
	size_t size = sizeof(log);
	int *out = host_mem(self, 64 * sizeof(int)), i;

	ASSERT_NE(NULL, out);
	imp = build_file(self, self->root, "zex_import_kernels.spv", &res);
	ASSERT_EQ(ZE_RESULT_SUCCESS, res);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED, zeKernelCreate(imp, &kd, &k));
	EXPECT_EQ(ZE_RESULT_ERROR_MODULE_LINK_FAILURE, zeModuleDynamicLink(1, &imp, &bl));
	ASSERT_NE(NULL, bl);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleBuildLogGetString(bl, &size, log));
	EXPECT_NE(NULL, strstr(log, "zex_test_scale")) TH_LOG("link log: %s", log);
	zeModuleBuildLogDestroy(bl);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeModuleDynamicLink(1, NULL, NULL));

	exp = build_file(self, self->root, "zex_export_kernels.spv", &res);
	ASSERT_EQ(ZE_RESULT_SUCCESS, res);
	both[0] = imp;
	both[1] = exp;
	/* What the linkage inspection says before the link. */
	inspect(_metadata, &imp, 1, log, sizeof(log));
	EXPECT_NE(NULL, strstr(log, "Unresolvable Imports:\n\tzex_test_scale\n")) TH_LOG("%s", log);
	inspect(_metadata, both, 2, log, sizeof(log));
	EXPECT_NE(NULL, strstr(log, "Imports:\n\tzex_test_scale\nUnresolvable Imports:\nExports:\n"))
		TH_LOG("%s", log);
	ASSERT_NE(NULL, strstr(log, "Exports:\n"));
	EXPECT_NE(NULL, strstr(strstr(log, "Exports:\n"), "\tzex_test_scale\n")) TH_LOG("%s", log);
	/* The hostrpc call is libzex's to resolve: never unresolvable. */
	inspect(_metadata, &self->module, 1, log, sizeof(log));
	EXPECT_NE(NULL, strstr(log, "Imports:\n\tzex_hostrpc_call\nUnresolvable Imports:\nExports:"))
		TH_LOG("%s", log);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeModuleDynamicLink(2, both, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, run_out(self, imp, "scaled", out, 8));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(10 * i + i / 8, out[i]) TH_LOG("item %d", i);
	ASSERT_EQ(ZE_RESULT_SUCCESS, run_out(self, imp, "twice", out, 8));
	EXPECT_EQ(2, out[63]);
	ASSERT_EQ(ZE_RESULT_SUCCESS, run_out(self, exp, "twice", out, 8));
	EXPECT_EQ(22, out[63]);
	/* Linked already: linking again changes nothing. */
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleDynamicLink(2, both, NULL));
	zeModuleDestroy(imp);
	zeModuleDestroy(exp);
	zeMemFree(self->ctx, out);
}

/* A hostrpc channel's host side, served by polling (a kernel cannot ring). */
struct host_side {
	struct zex_hostrpc *host;
	volatile int stop;
	unsigned int served;
	unsigned int die_after;	/* the server's process dies at this call; 0: never */
};

static void answer(struct zex_hostrpc_page *page, void *ctx)
{
	struct host_side *h = ctx;
	uint64_t *w = page->cacheline[0].element;

	if (h->die_after && __atomic_load_n(&h->served, __ATOMIC_RELAXED) == h->die_after)
		_exit(0);	/* under this call: it is never answered */
	w[2] = 3 * w[0] + w[1];
	__atomic_add_fetch(&h->served, 1, __ATOMIC_RELAXED);
}

static void *serve(void *arg)
{
	struct host_side *h = arg;

	while (!__atomic_load_n(&h->stop, __ATOMIC_ACQUIRE))
		if (zex_hostrpc_serve(h->host, answer, h) <= 0)
			sched_yield();
	return NULL;
}

/* ask_host() over 1024 work-items on the root device, through device view @dv. */
static void ask_host(struct __test_metadata *_metadata, FIXTURE_DATA(kernel) *self,
		     struct zex_hostrpc *dv, uint64_t *answers, int *status)
{
	ze_command_list_handle_t l = immediate(self, self->root);
	ze_group_count_t count = { 16, 1, 1 };
	struct zex_hostrpc_kernel_view view;
	ze_kernel_handle_t k = kernel(self, "ask_host");

	ASSERT_NE(NULL, l);
	ASSERT_NE(NULL, k);
	ASSERT_EQ(0, zex_hostrpc_kernel_view(dv, &view));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(k, 64, 1, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 0, sizeof(view), &view));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 1, sizeof(answers), &answers));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(k, 2, sizeof(status), &status));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendLaunchKernel(l, k, &count, NULL, 0, NULL));
	zeKernelDestroy(k);
	zeCommandListDestroy(l);
}

/*
 * Each of a 1024-item launch's work-items calls the host through a zex
 * hostrpc channel (a device view mapped in this process, the host view
 * served by a thread) and gets its own answer.
 */
TEST_F(kernel, every_work_item_calls_the_host_through_a_hostrpc_channel)
{
	struct host_side h = { 0 };
	struct zex_hostrpc *dv = NULL;
	struct zex_hostrpc_kernel_view view;
	struct zex_device *dev = NULL;
	uint64_t *answers = host_mem(self, 1024 * sizeof(uint64_t));
	int *status = host_mem(self, 1024 * sizeof(int)), i;
	pthread_t server;

	ASSERT_NE(NULL, answers);
	ASSERT_NE(NULL, status);
	ASSERT_EQ(0, zex_device_open(&dev));
	ASSERT_EQ(0, zex_hostrpc_create(dev, 64, &h.host));
	ASSERT_EQ(0, zex_hostrpc_open_view(h.host, ZEX_HOSTRPC_DEVICE, &dv));
	EXPECT_EQ(-EINVAL, zex_hostrpc_kernel_view(h.host, &view));
	ASSERT_EQ(0, pthread_create(&server, NULL, serve, &h));
	ask_host(_metadata, self, dv, answers, status);
	__atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
	pthread_join(server, NULL);
	for (i = 0; i < 1024; i++) {
		ASSERT_EQ(0, status[i]) TH_LOG("item %d", i);
		ASSERT_EQ(3ull * i + 0x5a5a0000u + i, answers[i]) TH_LOG("item %d", i);
	}
	EXPECT_EQ(1024, h.served);
	zex_hostrpc_close(dv);
	zex_hostrpc_close(h.host);
	zex_device_close(dev);
	zeMemFree(self->ctx, answers);
	zeMemFree(self->ctx, status);
}

/*
 * The channel's host side is another process, which dies under its 101st
 * call: the kernel driver marks the channel dead, the launch ends, the
 * calls answered before have their answers and every other call returns
 * ZEX_HOSTRPC_KERNEL_DEAD with its words untouched.
 */
TEST_F(kernel, a_hostrpc_server_that_dies_mid_launch_fails_the_calls_left)
{
	struct host_side h = { .die_after = 100 };
	struct zex_hostrpc *dv = NULL;
	struct zex_device *dev = NULL;
	uint64_t *answers = host_mem(self, 1024 * sizeof(uint64_t));
	int *status = host_mem(self, 1024 * sizeof(int)), i, answered = 0, wstatus;
	pid_t child;

	ASSERT_NE(NULL, answers);
	ASSERT_NE(NULL, status);
	memset(answers, 0, 1024 * sizeof(uint64_t));
	ASSERT_EQ(0, zex_device_open(&dev));
	ASSERT_EQ(0, zex_hostrpc_create(dev, 64, &h.host));
	ASSERT_EQ(0, zex_hostrpc_open_view(h.host, ZEX_HOSTRPC_DEVICE, &dv));
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		/* The host side: serve until the call it dies under. */
		for (;;)
			if (zex_hostrpc_serve(h.host, answer, &h) <= 0)
				sched_yield();
	}
	/* The child's host view is now the channel's only one. */
	zex_hostrpc_close(h.host);
	ask_host(_metadata, self, dv, answers, status);
	ASSERT_EQ(child, waitpid(child, &wstatus, 0));
	EXPECT_TRUE(WIFEXITED(wstatus) && !WEXITSTATUS(wstatus));
	for (i = 0; i < 1024; i++) {
		if (!status[i]) {
			ASSERT_EQ(3ull * i + 0x5a5a0000u + i, answers[i]) TH_LOG("item %d", i);
			answered++;
		} else {
			ASSERT_EQ(ZEX_HOSTRPC_KERNEL_DEAD, status[i]) TH_LOG("item %d", i);
			ASSERT_EQ(0, answers[i]) TH_LOG("item %d", i);
		}
	}
	EXPECT_EQ(100, answered);
	zex_hostrpc_close(dv);
	zex_device_close(dev);
	zeMemFree(self->ctx, answers);
	zeMemFree(self->ctx, status);
}

static int endless_child(int fd)
{
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV };
	ze_command_queue_desc_t qd = { .stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       .mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_kernel_desc_t kd = { .stype = ZE_STRUCTURE_TYPE_KERNEL_DESC,
				.pKernelName = "grid_barrier" };
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_group_count_t groups = { 2, 1, 1 };
	ze_device_handle_t dev, tile;
	ze_command_list_handle_t l;
	ze_driver_handle_t drv;
	ze_context_handle_t ctx;
	ze_module_handle_t m;
	ze_kernel_handle_t k;
	uint32_t n = 1;
	int *mem;

	md.pInputModule = read_spirv(&md.inputSize);
	if (!md.pInputModule || zeInit(0) || zeDriverGet(&n, &drv) ||
	    zeDeviceGet(drv, &n, &dev) || zeDeviceGetSubDevices(dev, &n, &tile) ||
	    zeContextCreate(drv, &cd, &ctx) || zeModuleCreate(ctx, tile, &md, &m, NULL) ||
	    zeKernelCreate(m, &kd, &k) || zeMemAllocHost(ctx, &hd, 64, 0, (void **)&mem) ||
	    zeCommandListCreateImmediate(ctx, tile, &qd, &l))
		return 2;
	mem[0] = -1000000;
	if (zeKernelSetGroupSize(k, 1, 1, 1) ||
	    zeKernelSetArgumentValue(k, 0, sizeof(mem), &mem) ||
	    zeKernelSetArgumentValue(k, 1, sizeof(mem), &mem) ||
	    zeCommandListAppendLaunchKernel(l, k, &groups, NULL, 0, NULL))
		return 3;
	while (__atomic_load_n(&mem[0], __ATOMIC_ACQUIRE) == -1000000)
		sched_yield();
	if (write(fd, "r", 1) != 1)
		return 4;
	for (;;)
		pause();
}

/* The child: no OpenCL platform, so no engine; the module says why. */
static int no_engine_child(void)
{
	static const uint32_t header[5] = { 0x07230203, 0x00010000, 0, 1, 0 };
	ze_module_desc_t md = { .stype = ZE_STRUCTURE_TYPE_MODULE_DESC,
				.format = ZE_MODULE_FORMAT_IL_SPIRV, .inputSize = sizeof(header),
				.pInputModule = (const uint8_t *)header };
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
	ze_module_handle_t m;
	const char *why = "";
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &drv) || zeDeviceGet(drv, &n, &dev) ||
	    zeContextCreate(drv, &cd, &ctx))
		return 2;
	if (zeModuleCreate(ctx, dev, &md, &m, NULL) != ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
		return 3;
	zeDriverGetLastErrorDescription(drv, &why);
	printf("# the child was told: %s\n", why);
	return strstr(why, "no compute engine") && strstr(why, "OpenCL") ? 0 : 4;
}

__attribute__((constructor)) static void maybe_the_child(void)
{
	if (getenv(NO_ENGINE_CHILD))
		exit(no_engine_child());
	if (getenv(ENDLESS_CHILD))
		exit(endless_child(atoi(getenv(ENDLESS_CHILD))));
}

/*
 * A process killed while a launch of its runs (its work-groups busy on the
 * engine's threads, never to end) takes its long-running queue with it;
 * the device and this process's kernels go on.
 */
TEST_F(kernel, a_process_killed_mid_launch_leaves_the_device_working)
{
	char *argv[] = { "zex_libzex_kernel_test", NULL };
	int fds[2], status;
	char c, fd[16];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	snprintf(fd, sizeof(fd), "%d", fds[1]);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The rest of the environment stays: where PoCL and its cache are. */
		close(fds[0]);
		setenv(ENDLESS_CHILD, fd, 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(fds[1]);
	ASSERT_EQ(1, read(fds[0], &c, 1)) {
		waitpid(pid, &status, 0);
		TH_LOG("the child ended first: status %#x", status);
	}
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(fds[0]);
	scale_add_on(_metadata, self, self->tile, 256);
	scale_add_on(_metadata, self, self->root, 256);
}

/* What walk_cache() counts: @kernel_name's work-group functions in PoCL's cache. */
static struct {
	const char *kernel_name;
	int count;
	char names[512];
} wg_functions;

/* <cache>/<2 letters>/<program hash>/<kernel>/<specialization>/: level 4. */
static int count_wg_function(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t len = strlen(wg_functions.kernel_name);
	const char *name = path + ftw->base;

	if (type == FTW_D && ftw->level == 4 && ftw->base > len + 1 &&
	    !strncmp(name - len - 1, wg_functions.kernel_name, len) && name[-len - 2] == '/') {
		wg_functions.count++;
		if (strlen(wg_functions.names) + strlen(name) + 2 < sizeof(wg_functions.names)) {
			strcat(wg_functions.names, " ");
			strcat(wg_functions.names, name);
		}
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

/*
 * A launch never compiles: launches of one kernel with group sizes 1 to 64
 * and a global offset all run one work-group function, compiled once (by
 * default PoCL compiles one for each group size and offset it sees); what
 * each launch computed is right. Counted in a PoCL cache of the test's own.
 */
TEST(launches_of_every_group_size_share_one_compiled_kernel)
{
	FIXTURE_DATA(kernel) data = { 0 }, *self = &data;
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	char cache[] = "/tmp/zex-pocl-cache-XXXXXX";
	const uint32_t n = 128, sizes[] = { 1, 2, 4, 8, 16, 32, 64 };
	struct scale_add_run r = { 0 };
	int add = 5;
	uint32_t i, s, count = 1;
	ze_result_t res;

	ASSERT_NE(NULL, mkdtemp(cache));
	unsetenv("POCL_WORK_GROUP_SPECIALIZATION");
	ASSERT_EQ(0, setenv("POCL_CACHE_DIR", cache, 1));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeInit(0));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDriverGet(&count, &self->drv));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGet(self->drv, &count, &self->root));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeContextCreate(self->drv, &cd, &self->ctx));
	count = 1;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetSubDevices(self->root, &count, &self->tile));
	self->module = build(self, self->tile, NULL, &res, NULL, 0);
	ASSERT_EQ(ZE_RESULT_SUCCESS, res);
	scale_add_prepare(_metadata, self, self->tile, n, &r);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r.k, 3, sizeof(add), &add));
	/* One launch per group size, then one at an offset of 64 items. */
	for (s = 0; s <= sizeof(sizes) / sizeof(sizes[0]); s++) {
		bool offset = s == sizeof(sizes) / sizeof(sizes[0]);
		uint32_t size = offset ? 16 : sizes[s], first = offset ? 64 : 0;
		ze_group_count_t groups = { (n - first) / size, 1, 1 };
		int scale = (int)s + 2;

		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGroupSize(r.k, size, 1, 1));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetGlobalOffsetExp(r.k, first, 0, 0));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeKernelSetArgumentValue(r.k, 2, sizeof(scale), &scale));
		ASSERT_EQ(ZE_RESULT_SUCCESS,
			  zeCommandListAppendLaunchKernel(r.l, r.k, &groups, NULL, 0, NULL));
		memset(r.host, 0, n * sizeof(int));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryCopy(r.l, r.host, r.dst,
									   n * sizeof(int),
									   NULL, 0, NULL));
		for (i = first; i < n; i++)
			ASSERT_EQ((int)i * scale + add, r.host[i])
				TH_LOG("group size %u, element %u", size, i);
	}
	wg_functions.kernel_name = "scale_add";
	ASSERT_EQ(0, nftw(cache, count_wg_function, 16, FTW_PHYS));
	EXPECT_EQ(1, wg_functions.count)
		TH_LOG("work-group functions compiled:%s", wg_functions.names);
	scale_add_release(self, &r);
	zeModuleDestroy(self->module);
	zeContextDestroy(self->ctx);
	EXPECT_EQ(0, nftw(cache, remove_entry, 16, FTW_DEPTH | FTW_PHYS));
}

TEST(without_the_engine_kernels_are_unsupported_saying_why)
{
	char *argv[] = { "zex_libzex_kernel_test", NULL };
	char *envp[] = { NO_ENGINE_CHILD "=1", "OCL_ICD_VENDORS=/nonexistent",
			 "OCL_ICD_FILENAMES=", NULL };
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (!pid) {
		execve("/proc/self/exe", argv, envp);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

ZEX_SELFTEST_MAIN
