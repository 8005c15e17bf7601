// SPDX-License-Identifier: MIT
/*
 * DOC: engine_test.c - the compute engine on the host: PoCL building and running SPIR-V
 *
 * Needs the compute packages (tools/check/deps.sh installs them) and fails
 * without them: the engine is what this tests. The kernels are
 * tests/kernels/engine_kernels.cl, compiled to SPIR-V beside this test
 * (kernels/engine_kernels.spv). A launch run as the parts a root device's
 * tiles would run (partition.c's split, each part with its struct
 * zex_geometry) must give every work-item the same ids, counts and sizes,
 * byte for byte, as the launch run whole, and both what OpenCL defines.
 */
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "zex_thread_state.h"

#include "compute/engine.h"
#include "compute/partition.h"
#include "hostrpc/hostrpc.h"
#include "zex/zex_hostrpc_kernel.h"

static void *read_file(const char *name, size_t *size)
{
	char exe[PATH_MAX], path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	void *buf;
	long len;

	if (n < 0)
		return NULL;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/kernels/%s", dirname(exe), name);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = (size_t)len;
	return buf;
}

FIXTURE(engine) {
	struct zex_compute_engine *e;
	struct zex_program *p;
	struct zex_engine_queue *q;
	char *log;
};

FIXTURE_SETUP(engine)
{
	char why[256] = "";
	size_t size;
	void *spirv = read_file("engine_kernels.spv", &size);

	ASSERT_NE(NULL, spirv);
	self->e = zex_engine_open(2, why, sizeof(why));
	ASSERT_NE(NULL, self->e) TH_LOG("no compute engine: %s", why);
	ASSERT_EQ(0, zex_program_build(self->e, spirv, size, NULL, &self->p, &self->log))
		TH_LOG("build log: %s", self->log ? self->log : "(none)");
	ASSERT_EQ(0, zex_engine_queue_create(self->e, 0, &self->q));
	free(spirv);
}

FIXTURE_TEARDOWN(engine)
{
	zex_engine_queue_destroy(self->q);
	zex_program_put(self->p);
	zex_engine_close(self->e);
	free(self->log);
}

/* One pointer argument. */
struct one_pointer {
	uint32_t size[1], offset[1];
	void *ptr;
};

static void pointer_args(struct one_pointer *a, struct zex_launch_args *args, void *ptr)
{
	a->size[0] = sizeof(void *);
	a->offset[0] = 0;
	a->ptr = ptr;
	*args = (struct zex_launch_args){ 1, a->size, a->offset, (unsigned char *)&a->ptr };
}

/* What work-item (x, y, z) of a launch must see, in geometry()'s layout. */
static void expected(uint64_t *o, const uint32_t groups[3], const uint32_t size[3],
		     const uint64_t offset[3], const uint64_t id[3], uint32_t dims)
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

/* Run geometry() over @groups of @size, as @tiles parts; the records. */
static uint64_t *run_geometry(struct __test_metadata *_metadata, FIXTURE_DATA(engine) *self,
			      const uint32_t groups[3], const uint32_t size[3],
			      const uint64_t offset[3], uint32_t tiles, uint32_t *parts_run)
{
	uint64_t items = (uint64_t)groups[0] * groups[1] * groups[2] * size[0] * size[1] * size[2];
	uint64_t *out = calloc(items * 16, sizeof(uint64_t));
	const uint32_t start[3] = { 0, 0, 0 };
	struct zex_partition part;
	struct zex_launch_args args;
	struct zex_engine_fault fault;
	struct one_pointer a;
	struct zex_kernel *k;
	uint32_t i;

	EXPECT_NE(NULL, out);
	EXPECT_EQ(0, zex_kernel_create(self->p, "geometry", &k));
	pointer_args(&a, &args, out);
	zex_partition_choose(groups, start, tiles, &part);
	*parts_run = 0;
	for (i = 0; i < part.count; i++) {
		struct zex_geometry g = { .group_start = { 0 } };
		uint32_t first, n, pg[3] = { groups[0], groups[1], groups[2] };
		int d;

		zex_partition_part(&part, groups, i, &first, &n);
		if (!n)
			continue;
		pg[part.dim] = n;
		for (d = 0; d < 3; d++) {
			g.num_groups[d] = groups[d];
			g.global_offset[d] = offset[d];
		}
		g.group_start[part.dim] = first;
		EXPECT_EQ(0, zex_engine_run(self->q, k, &args, size, pg, &g, &fault));
		(*parts_run)++;
	}
	zex_kernel_put(k);
	return out;
}

static void check_geometry(struct __test_metadata *_metadata, FIXTURE_DATA(engine) *self,
			   const uint32_t groups[3], const uint32_t size[3],
			   const uint64_t offset[3], uint32_t dims)
{
	uint64_t gs[3] = { (uint64_t)groups[0] * size[0], (uint64_t)groups[1] * size[1],
			   (uint64_t)groups[2] * size[2] };
	uint64_t items = gs[0] * gs[1] * gs[2], id[3], want[16];
	uint32_t whole_parts, split_parts;
	uint64_t *whole = run_geometry(_metadata, self, groups, size, offset, 1, &whole_parts);
	uint64_t *split = run_geometry(_metadata, self, groups, size, offset, 2, &split_parts);

	ASSERT_EQ(1, whole_parts);
	ASSERT_EQ(2, split_parts);
	for (id[2] = 0; id[2] < gs[2]; id[2]++)
		for (id[1] = 0; id[1] < gs[1]; id[1]++)
			for (id[0] = 0; id[0] < gs[0]; id[0]++) {
				uint64_t lin = (id[2] * gs[1] + id[1]) * gs[0] + id[0];

				expected(want, groups, size, offset, id, dims);
				ASSERT_EQ(0, memcmp(want, whole + lin * 16, sizeof(want)))
					TH_LOG("whole launch, item %lu: group %lu, global id %lu",
					       (unsigned long)lin, (unsigned long)whole[lin * 16],
					       (unsigned long)whole[lin * 16 + 6]);
				ASSERT_EQ(0, memcmp(want, split + lin * 16, sizeof(want)))
					TH_LOG("split launch, item %lu: group %lu %lu %lu, global id %lu",
					       (unsigned long)lin, (unsigned long)split[lin * 16],
					       (unsigned long)split[lin * 16 + 1],
					       (unsigned long)split[lin * 16 + 2],
					       (unsigned long)split[lin * 16 + 6]);
			}
	(void)items;
	free(whole);
	free(split);
}

/* Split along z (4 groups: 2 and 2). */
TEST_F(engine, a_part_sees_the_whole_launch_split_on_z)
{
	const uint32_t groups[3] = { 3, 2, 4 }, size[3] = { 2, 2, 1 };
	const uint64_t offset[3] = { 0, 0, 0 };

	check_geometry(_metadata, self, groups, size, offset, 3);
}

/* One dimension, an odd count: x split 4 and 3. */
TEST_F(engine, a_part_sees_the_whole_launch_split_on_x)
{
	const uint32_t groups[3] = { 7, 1, 1 }, size[3] = { 4, 1, 1 };
	const uint64_t offset[3] = { 0, 0, 0 };

	check_geometry(_metadata, self, groups, size, offset, 1);
}

/* A global offset (zeKernelSetGlobalOffsetExp) is the launch's, not the part's. */
TEST_F(engine, a_global_offset_is_the_launch_s)
{
	const uint32_t groups[3] = { 2, 6, 1 }, size[3] = { 2, 1, 1 };
	const uint64_t offset[3] = { 100, 7, 0 };

	check_geometry(_metadata, self, groups, size, offset, 2);
}

TEST_F(engine, values_and_pointers_are_passed)
{
	struct { int *dst; const int *src; int scale, add; } __attribute__((packed)) v;
	uint32_t sizes[4] = { 8, 8, 4, 4 }, offsets[4] = { 0, 8, 16, 20 };
	const uint32_t size[3] = { 8, 1, 1 }, groups[3] = { 4, 1, 1 };
	struct zex_geometry g = { .num_groups = { 4, 1, 1 } };
	struct zex_launch_args args = { 4, sizes, offsets, (unsigned char *)&v };
	struct zex_engine_fault fault;
	int src[32], dst[32], i;
	struct zex_kernel *k;

	for (i = 0; i < 32; i++)
		src[i] = i;
	memset(dst, 0, sizeof(dst));
	v.dst = dst;
	v.src = src;
	v.scale = 3;
	v.add = -5;
	const struct zex_spirv_arg *a;
	uint32_t n;

	ASSERT_EQ(0, zex_kernel_create(self->p, "scale_add", &k));
	a = zex_kernel_args(k, &n);
	ASSERT_EQ(4, n);
	EXPECT_EQ(ZEX_SPIRV_ARG_POINTER, a[0].kind);
	EXPECT_EQ(ZEX_SPIRV_ARG_POINTER, a[1].kind);
	EXPECT_EQ(ZEX_SPIRV_ARG_VALUE, a[2].kind);
	EXPECT_EQ(4, a[2].size);
	ASSERT_EQ(0, zex_engine_run(self->q, k, &args, size, groups, &g, &fault));
	for (i = 0; i < 32; i++)
		ASSERT_EQ(i * 3 - 5, dst[i]);
	zex_kernel_put(k);
}

TEST_F(engine, shared_local_memory_is_a_size)
{
	struct { int *dst; const int *src; } v;
	uint32_t sizes[3] = { 8, 8, 16 * sizeof(int) }, offsets[3] = { 0, 8, 0 };
	const uint32_t size[3] = { 16, 1, 1 }, groups[3] = { 3, 1, 1 };
	struct zex_geometry g = { .num_groups = { 3, 1, 1 } };
	struct zex_launch_args args = { 3, sizes, offsets, (unsigned char *)&v };
	struct zex_engine_fault fault;
	int src[48], dst[3] = { 0 }, i;
	struct zex_kernel *k;

	for (i = 0; i < 48; i++)
		src[i] = i;
	v.dst = dst;
	v.src = src;
	uint32_t n;

	ASSERT_EQ(0, zex_kernel_create(self->p, "group_sum", &k));
	EXPECT_EQ(ZEX_SPIRV_ARG_LOCAL, zex_kernel_args(k, &n)[2].kind);
	ASSERT_EQ(0, zex_engine_run(self->q, k, &args, size, groups, &g, &fault));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(16 * 16 * i + 120, dst[i]);
	zex_kernel_put(k);
}

/* Sizes as OpenCL C lays them out: a struct's padding, a vector of 3 as 4, packed. */
TEST_F(engine, arguments_have_opencl_c_s_sizes)
{
	const uint32_t want[6] = { 8, 16, 16, 1, 9, 16 };
	const struct zex_spirv_arg *a;
	struct zex_kernel *k;
	uint32_t n, i;

	ASSERT_EQ(0, zex_kernel_create(self->p, "arg_sizes", &k));
	a = zex_kernel_args(k, &n);
	ASSERT_EQ(6, n);
	EXPECT_EQ(ZEX_SPIRV_ARG_POINTER, a[0].kind);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], a[i].size) TH_LOG("argument %u", i);
	for (i = 1; i < 6; i++)
		EXPECT_EQ(ZEX_SPIRV_ARG_VALUE, a[i].kind) TH_LOG("argument %u", i);
	zex_kernel_put(k);
}

/* Run specialized() of @p; its two values. */
static void run_specialized(struct __test_metadata *_metadata, FIXTURE_DATA(engine) *self,
			    struct zex_program *p, long out[2])
{
	const uint32_t one[3] = { 1, 1, 1 };
	struct zex_geometry g = { .num_groups = { 1, 1, 1 } };
	struct zex_launch_args args;
	struct zex_engine_fault fault;
	struct one_pointer a;
	struct zex_kernel *k;

	ASSERT_EQ(0, zex_kernel_create(p, "specialized", &k));
	pointer_args(&a, &args, out);
	ASSERT_EQ(0, zex_engine_run(self->q, k, &args, one, one, &g, &fault));
	zex_kernel_put(k);
}

/* Set constants are the module's new defaults; a narrow signed one is sign-extended. */
TEST_F(engine, specialization_constants_are_set)
{
	uint32_t ids[2] = { 7, 8 }, bad_ids[1] = { 9 };
	uint64_t big = 123456789012ull;
	int8_t small = -5;
	const void *values[2] = { &big, &small };
	struct zex_program *p;
	size_t size;
	void *spirv = read_file("engine_kernels.spv", &size), *copy = NULL;
	long out[2] = { 0 };
	char *log = NULL;

	ASSERT_NE(NULL, spirv);
	run_specialized(_metadata, self, self->p, out);
	EXPECT_EQ(100, out[0]);
	EXPECT_EQ(3, out[1]);
	ASSERT_EQ(0, zex_spirv_specialize(spirv, size, 2, ids, values, &copy));
	ASSERT_EQ(0, zex_program_build(self->e, copy, size, NULL, &p, &log)) TH_LOG("%s", log);
	run_specialized(_metadata, self, p, out);
	EXPECT_EQ(123456789012l, out[0]);
	EXPECT_EQ(-5, out[1]);
	zex_program_put(p);
	free(copy);
	copy = NULL;
	EXPECT_EQ(-ENOENT, zex_spirv_specialize(spirv, size, 1, bad_ids, values, &copy));
	EXPECT_EQ(NULL, copy);
	free(log);
	free(spirv);
}

/* scale_add() of 32 ints from @src to @dst on queue @q; Return: the run's. */
static int scale_add_run(struct zex_kernel *k, struct zex_engine_queue *q, int *dst,
			 const int *src, struct zex_engine_fault *fault)
{
	struct { int *dst; const int *src; int scale, add; } __attribute__((packed)) v = {
		dst, src, 1, 0 };
	uint32_t sizes[4] = { 8, 8, 4, 4 }, offsets[4] = { 0, 8, 16, 20 };
	const uint32_t size[3] = { 8, 1, 1 }, groups[3] = { 4, 1, 1 };
	struct zex_geometry g = { .num_groups = { 4, 1, 1 } };
	struct zex_launch_args args = { 4, sizes, offsets, (unsigned char *)&v };

	return zex_engine_run(q, k, &args, size, groups, &g, fault);
}

/*
 * A page nothing maps: one far from where mmap() places things (it hands
 * out addresses downwards from below the stack), found free and left so.
 */
static char *unmapped_page(void)
{
	char *want = (char *)0x300000000000ull, *p;

	p = mmap(want, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != want)
		return NULL;
	munmap(p, 4096);
	return p;
}

/*
 * A kernel reading memory the process does not map: its part reports the
 * fault (address, a read), the process lives, the page it was lent is
 * gone again, and the engine runs the next launch.
 */
TEST_F(engine, a_kernel_reading_unmapped_memory_faults_and_the_process_lives)
{
	struct zex_engine_fault fault = { 0 };
	int *src = (int *)unmapped_page(), dst[32], good[32], i;
	unsigned char vec;
	struct zex_kernel *k;

	ASSERT_NE(NULL, src);
	ASSERT_EQ(0, zex_kernel_create(self->p, "scale_add", &k));
	EXPECT_EQ(-EFAULT, scale_add_run(k, self->q, dst, src, &fault));
	EXPECT_EQ((uintptr_t)src, fault.addr & ~4095ull);
	EXPECT_FALSE(fault.write);
	EXPECT_FALSE(fault.read_only);
	/* What was lent for the launch is unmapped after it. */
	EXPECT_EQ(-1, mincore(src, 4096, &vec));
	EXPECT_EQ(ENOMEM, errno);
	for (i = 0; i < 32; i++)
		good[i] = i;
	EXPECT_EQ(0, scale_add_run(k, self->q, dst, good, &fault));
	EXPECT_EQ(31, dst[31]);
	zex_kernel_put(k);
}

/*
 * A kernel writing a read-only page cannot go on: the work-item's thread
 * stops for good, the part reports the fault (a write to a read-only page)
 * and its queue takes no more; another tile's queue still runs.
 */
TEST_F(engine, a_kernel_writing_read_only_memory_is_stopped_and_reported)
{
	struct zex_engine_fault fault = { 0 };
	struct zex_engine_queue *other;
	int src[32] = { 0 }, good[32];
	int *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct zex_kernel *k;

	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_EQ(0, zex_kernel_create(self->p, "scale_add", &k));
	EXPECT_EQ(-EFAULT, scale_add_run(k, self->q, ro, src, &fault));
	EXPECT_EQ((uintptr_t)ro, fault.addr & ~4095ull);
	EXPECT_TRUE(fault.write);
	EXPECT_TRUE(fault.read_only);
	EXPECT_EQ(-EIO, scale_add_run(k, self->q, good, src, &fault));
	ASSERT_EQ(0, zex_engine_queue_create(self->e, 1, &other));
	EXPECT_EQ(0, scale_add_run(k, other, good, src, &fault));
	zex_engine_queue_destroy(other);
	zex_kernel_put(k);
}

/* A part of cooperative launch @seqno of @queue that enters, then leaves. */
struct coop_part {
	struct zex_engine_queue *q;
	const void *queue;
	uint64_t seqno;
	_Atomic pid_t tid;
	atomic_int entered;
};

static void *coop_part_run(void *arg)
{
	struct coop_part *c = arg;

	atomic_store(&c->tid, (pid_t)syscall(SYS_gettid));
	zex_engine_cooperative_enter(c->q, c->queue, c->seqno, 1);
	atomic_store(&c->entered, 1);
	zex_engine_cooperative_leave(c->q, c->queue, c->seqno);
	return NULL;
}

/*
 * One cooperative launch at a time holds the pools: another queue's waits
 * (asleep) while both parts of the first run, its second part joining at
 * once; it enters when the last of them leaves. The most groups are the
 * tiles' threads.
 */
TEST_F(engine, one_cooperative_launch_at_a_time_holds_the_pools)
{
	int queue_a, queue_b;
	struct coop_part b = { .q = self->q, .queue = &queue_b, .seqno = 1 };
	pthread_t t;

	EXPECT_EQ(2 * zex_engine_info(self->e)->threads_per_tile,
		  zex_engine_cooperative_groups(self->e, 2));
	zex_engine_cooperative_enter(self->q, &queue_a, 7, 2);
	ASSERT_EQ(0, pthread_create(&t, NULL, coop_part_run, &b));
	while (!atomic_load(&b.entered) &&
	       !(atomic_load(&b.tid) && zex_sleeps_in_syscall(atomic_load(&b.tid), SYS_futex)))
		sched_yield();
	EXPECT_EQ(0, atomic_load(&b.entered));
	zex_engine_cooperative_enter(self->q, &queue_a, 7, 2);
	zex_engine_cooperative_leave(self->q, &queue_a, 7);
	EXPECT_EQ(0, atomic_load(&b.entered));
	zex_engine_cooperative_leave(self->q, &queue_a, 7);
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(1, atomic_load(&b.entered));
}

/* A program of tests/kernels/@name. */
static int build_file(struct zex_compute_engine *e, const char *name, struct zex_program **p,
		      char **log)
{
	size_t size;
	void *spirv = read_file(name, &size);
	int ret;

	if (!spirv)
		return -ENOENT;
	ret = zex_program_build(e, spirv, size, NULL, p, log);
	free(spirv);
	return ret;
}

/* Run one-pointer kernel @name of @p over @groups groups of 8 into @out. */
static int run_out(FIXTURE_DATA(engine) *self, struct zex_program *p, const char *name,
		   int *out, uint32_t groups)
{
	const uint32_t size[3] = { 8, 1, 1 }, pg[3] = { groups, 1, 1 };
	struct zex_geometry g = { .num_groups = { groups, 1, 1 } };
	struct zex_launch_args args;
	struct zex_engine_fault fault;
	struct one_pointer a;
	struct zex_kernel *k;
	int ret = zex_kernel_create(p, name, &k);

	if (ret)
		return ret;
	pointer_args(&a, &args, out);
	ret = zex_engine_run(self->q, k, &args, size, pg, &g, &fault);
	zex_kernel_put(k);
	return ret;
}

/*
 * A module importing a function is not built until it is linked with a
 * module exporting it; then its kernel runs the other's code, and each
 * module's kernel of the same name is its own.
 */
TEST_F(engine, a_module_importing_from_another_is_built_when_linked_with_it)
{
	struct zex_program *imp = NULL, *exp = NULL;
	struct zex_kernel *k = NULL;
	int out[32], i;

	ASSERT_EQ(0, build_file(self->e, "import_kernels.spv", &imp, &self->log));
	ASSERT_EQ(0, build_file(self->e, "export_kernels.spv", &exp, &self->log));
	EXPECT_FALSE(zex_program_linked(imp));
	EXPECT_TRUE(zex_program_linked(exp));
	EXPECT_EQ(-ENOLINK, zex_kernel_create(imp, "scaled", &k));
	EXPECT_EQ(NULL, k);
	ASSERT_EQ(0, zex_program_link(imp, &exp, 1, &self->log))
		TH_LOG("link log: %s", self->log ? self->log : "(none)");
	EXPECT_TRUE(zex_program_linked(imp));
	/* Linking again changes nothing. */
	EXPECT_EQ(0, zex_program_link(imp, &exp, 1, &self->log));
	ASSERT_EQ(0, run_out(self, imp, "scaled", out, 4));
	for (i = 0; i < 32; i++)
		ASSERT_EQ(10 * i + i / 8, out[i]) TH_LOG("item %d", i);
	ASSERT_EQ(0, run_out(self, imp, "twice", out, 4));
	EXPECT_EQ(2, out[31]);
	ASSERT_EQ(0, run_out(self, exp, "twice", out, 4));
	EXPECT_EQ(22, out[31]);
	zex_program_put(imp);
	zex_program_put(exp);
}

/* Linked with modules that do not export its import: -ENOLINK, the log names it. */
TEST_F(engine, a_module_whose_import_nothing_exports_stays_unlinked_saying_which)
{
	struct zex_program *imp = NULL;

	ASSERT_EQ(0, build_file(self->e, "import_kernels.spv", &imp, &self->log));
	EXPECT_EQ(-ENOLINK, zex_program_link(imp, &self->p, 1, &self->log));
	EXPECT_FALSE(zex_program_linked(imp));
	ASSERT_NE(NULL, self->log);
	EXPECT_NE(NULL, strstr(self->log, "zex_test_scale")) TH_LOG("log: %s", self->log);
	zex_program_put(imp);
}

/* Programs of the files @a and @b of tests/kernels, as one. */
static int build_two(struct zex_compute_engine *e, const char *a, const char *b,
		     struct zex_program **p, char **log)
{
	size_t sizes[2];
	void *spirv[2] = { read_file(a, &sizes[0]), read_file(b, &sizes[1]) };
	int ret = spirv[0] && spirv[1] ?
		  zex_program_build_many(e, (const void *const *)spirv, sizes, 2, NULL, p, log) :
		  -ENOENT;

	free(spirv[0]);
	free(spirv[1]);
	return ret;
}

/* A program of two modules has both modules' kernels, each with its own arguments. */
TEST_F(engine, a_program_of_several_modules_has_all_their_kernels)
{
	struct zex_program *p = NULL;
	const struct zex_spirv_arg *a;
	struct zex_kernel *k;
	int out[32];
	uint32_t n;

	ASSERT_EQ(0, build_two(self->e, "engine_kernels.spv", "export_kernels.spv", &p,
			       &self->log)) TH_LOG("log: %s", self->log ? self->log : "(none)");
	ASSERT_TRUE(zex_program_linked(p));
	ASSERT_EQ(0, run_out(self, p, "twice", out, 4));
	EXPECT_EQ(22, out[31]);
	ASSERT_EQ(0, zex_kernel_create(p, "scale_add", &k));
	a = zex_kernel_args(k, &n);
	EXPECT_EQ(4, n);
	EXPECT_EQ(ZEX_SPIRV_ARG_VALUE, a[2].kind);
	zex_kernel_put(k);
	EXPECT_EQ(-ENOENT, zex_kernel_create(p, "not_there", &k));
	zex_program_put(p);
}

/* Two modules of one program that both define a kernel twice() do not link. */
TEST_F(engine, a_program_whose_modules_define_one_name_twice_does_not_build)
{
	struct zex_program *p = NULL;

	EXPECT_EQ(-EINVAL, build_two(self->e, "import_kernels.spv", "export_kernels.spv", &p,
				     &self->log));
	EXPECT_EQ(NULL, p);
	ASSERT_NE(NULL, self->log);
	EXPECT_NE(NULL, strstr(self->log, "twice")) TH_LOG("log: %s", self->log);
}

/* hostrpc in plain memory: the words of a channel of @NSLOTS slots. */
#define NSLOTS	64
struct channel {
	hr_u32_t request[NSLOTS], answer[NSLOTS], summary[NSLOTS / HOSTRPC_GROUP];
	hr_u32_t host_armed, device_armed, dead;
	hr_own_t owner[NSLOTS], mirror[NSLOTS], taken[NSLOTS];
	hostrpc_page_t pages[NSLOTS];
	struct hostrpc_server server;
	atomic_bool stop;
	atomic_uint served;
	unsigned int die_after;	/* calls answered before the host side dies; 0: never */
};

/* The host's answer: word 2 = 3 * word 0 + word 1. */
static void answer(hostrpc_page_t *page, void *ctx)
{
	struct channel *ch = ctx;
	uint64_t *w = page->cacheline[0].element;

	w[2] = 3 * w[0] + w[1];
	atomic_fetch_add(&ch->served, 1);
}

static void *serve(void *arg)
{
	struct channel *ch = arg;
	uint32_t passes = 0;

	while (!atomic_load(&ch->stop)) {
		if (ch->die_after && atomic_load(&ch->served) >= ch->die_after) {
			/*
			 * Die under a call: once one is published and not
			 * answered, do what the kernel driver does when the
			 * last host view closes.
			 */
			uint32_t slot;

			for (slot = 0; slot < NSLOTS; slot++)
				if (atomic_load(&ch->request[slot]) != atomic_load(&ch->answer[slot]))
					break;
			if (slot == NSLOTS)
				continue;
			atomic_store(&ch->dead, 1);
			break;
		}
		if (!hostrpc_server_poll(&ch->server, &passes, answer, ch))
			sched_yield();
	}
	return NULL;
}

static struct channel *channel_new(void)
{
	struct channel *ch = aligned_alloc(4096, (sizeof(struct channel) + 4095) & ~4095ul);

	if (!ch)
		return NULL;
	memset(ch, 0, sizeof(*ch));
	ch->server = (struct hostrpc_server){
		.sh = { ch->request, ch->answer, ch->summary, &ch->host_armed, &ch->device_armed,
			&ch->dead, ch->pages, NSLOTS },
		.T = ch->taken, .id = 1,
	};
	return ch;
}

/* Every work-item of a 1024-item launch calls; Return: the calls that failed. */
static void ask_host(struct __test_metadata *_metadata, FIXTURE_DATA(engine) *self,
		     struct channel *ch, uint64_t *answers, int *status)
{
	struct {
		struct zex_hostrpc_kernel_view view;
		uint64_t *answers;
		int *status;
	} v = {
		.view = {
			.request = (uintptr_t)ch->request, .answer = (uintptr_t)ch->answer,
			.summary = (uintptr_t)ch->summary, .dead = (uintptr_t)&ch->dead,
			.pages = (uintptr_t)ch->pages, .owner = (uintptr_t)ch->owner,
			.mirror = (uintptr_t)ch->mirror, .nslots = NSLOTS, .id = 5,
		},
		.answers = answers, .status = status,
	};
	uint32_t sizes[3] = { sizeof(v.view), 8, 8 }, offsets[3] = { 0, 64, 72 };
	const uint32_t size[3] = { 64, 1, 1 }, groups[3] = { 16, 1, 1 };
	struct zex_geometry g = { .num_groups = { 16, 1, 1 } };
	struct zex_launch_args args = { 3, sizes, offsets, (unsigned char *)&v };
	struct zex_engine_fault fault;
	struct zex_program *p = NULL;
	struct zex_kernel *k;
	pthread_t server;

	ASSERT_EQ(64, sizeof(v.view));
	ASSERT_EQ(0, build_file(self->e, "hostrpc_kernels.spv", &p, &self->log))
		TH_LOG("build log: %s", self->log ? self->log : "(none)");
	/* The device library was linked in at the build. */
	ASSERT_TRUE(zex_program_linked(p)) TH_LOG("log: %s", self->log ? self->log : "(none)");
	ASSERT_EQ(0, zex_kernel_create(p, "ask_host", &k));
	ASSERT_EQ(0, pthread_create(&server, NULL, serve, ch));
	EXPECT_EQ(0, zex_engine_run(self->q, k, &args, size, groups, &g, &fault));
	atomic_store(&ch->stop, true);
	pthread_join(server, NULL);
	zex_kernel_put(k);
	zex_program_put(p);
}

/* Each of 1024 work-items calls the host through hostrpc and gets its own answer. */
TEST_F(engine, every_work_item_of_a_launch_calls_the_host_through_hostrpc)
{
	struct channel *ch = channel_new();
	uint64_t *answers = calloc(1024, sizeof(*answers));
	int *status = calloc(1024, sizeof(*status)), i;

	ASSERT_NE(NULL, ch);
	ask_host(_metadata, self, ch, answers, status);
	for (i = 0; i < 1024; i++) {
		ASSERT_EQ(0, status[i]) TH_LOG("item %d", i);
		ASSERT_EQ(3ull * i + 0x5a5a0000u + i, answers[i]) TH_LOG("item %d", i);
	}
	EXPECT_EQ(1024, atomic_load(&ch->served));
	free(ch);
	free(answers);
	free(status);
}

/*
 * The host side dies after 100 answers, with a call waiting for it: the
 * launch still ends, the calls it answered have their answers and every
 * other call fails as dead.
 */
TEST_F(engine, a_host_side_that_dies_mid_launch_fails_the_calls_left_and_the_launch_ends)
{
	struct channel *ch = channel_new();
	uint64_t *answers = calloc(1024, sizeof(*answers));
	int *status = calloc(1024, sizeof(*status)), i, answered = 0;

	ASSERT_NE(NULL, ch);
	ch->die_after = 100;
	ask_host(_metadata, self, ch, answers, status);
	for (i = 0; i < 1024; i++) {
		if (!status[i]) {
			ASSERT_EQ(3ull * i + 0x5a5a0000u + i, answers[i]) TH_LOG("item %d", i);
			answered++;
		} else {
			ASSERT_EQ(ZEX_HOSTRPC_KERNEL_DEAD, status[i]) TH_LOG("item %d", i);
			ASSERT_EQ(0, answers[i]) TH_LOG("item %d", i);
		}
	}
	EXPECT_EQ(atomic_load(&ch->served), answered);
	EXPECT_LE(100, answered);
	EXPECT_GT(1024, answered);
	free(ch);
	free(answers);
	free(status);
}

/* A kernel whose argument's struct points at its own type (a forward-declared pointer). */
TEST_F(engine, a_struct_pointing_at_its_own_type_is_an_argument)
{
	struct node {
		uint32_t value;
		struct node *next;
	} nodes[4] = { { 10, &nodes[1] }, { 20, &nodes[2] }, { 30, &nodes[3] }, { 40, NULL } };
	struct { struct node *head; int n; } v = { nodes, 4 };
	uint32_t sizes[2] = { 8, 4 }, offsets[2] = { 0, 8 };
	const uint32_t size[3] = { 1, 1, 1 }, groups[3] = { 1, 1, 1 };
	struct zex_geometry g = { .num_groups = { 1, 1, 1 } };
	struct zex_launch_args args = { 2, sizes, offsets, (unsigned char *)&v };
	struct zex_engine_fault fault;
	struct zex_kernel *k;
	int i;

	ASSERT_EQ(0, zex_kernel_create(self->p, "walk_list", &k));
	ASSERT_EQ(0, zex_engine_run(self->q, k, &args, size, groups, &g, &fault));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(10u * (i + 1) + 1, nodes[i].value);
	zex_kernel_put(k);
}

TEST_F(engine, no_such_kernel_is_enoent)
{
	struct zex_kernel *k = NULL;

	EXPECT_EQ(-ENOENT, zex_kernel_create(self->p, "not_there", &k));
	EXPECT_EQ(NULL, k);
}

/* The translator's refusal reaches the build log. */
TEST_F(engine, a_module_the_translator_refuses_is_einval_with_its_words)
{
	uint32_t bad[16] = { 0x07230203, 0x00010000, 0, 100, 0, 0xffff0001 };
	struct zex_program *p = NULL;
	char *log = NULL;

	EXPECT_EQ(-EINVAL, zex_program_build(self->e, bad, sizeof(bad), NULL, &p, &log));
	EXPECT_EQ(NULL, p);
	ASSERT_NE(NULL, log);
	EXPECT_NE(0, strlen(log));
	free(log);
}

/* A build option the compiler does not know fails the build, with its words. */
TEST_F(engine, a_bad_build_option_is_einval_with_the_compiler_s_words)
{
	size_t size;
	void *spirv = read_file("engine_kernels.spv", &size);
	struct zex_program *p = NULL;
	char *log = NULL;

	ASSERT_NE(NULL, spirv);
	EXPECT_EQ(-EINVAL, zex_program_build(self->e, spirv, size, "-not-an-option", &p, &log));
	EXPECT_EQ(NULL, p);
	free(log);
	free(spirv);
}

TEST_F(engine, the_engine_says_what_it_honours)
{
	const struct zex_engine_info *info = zex_engine_info(self->e);

	EXPECT_NE(0, strlen(info->name));
	EXPECT_LT(0, info->threads);
	EXPECT_LE(256, info->max_group_size);
	EXPECT_LT(0, info->local_memory);
}

TEST_HARNESS_MAIN
