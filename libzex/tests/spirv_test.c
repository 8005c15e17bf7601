// SPDX-License-Identifier: MIT
/*
 * DOC: spirv_test.c - host unit test of zex_spirv_read()
 *
 * A module built here word by word (two kernels, one with a required
 * work-group size, a shader entry point that is not a kernel, an
 * execution mode that is not a size) gives its kernels; the same module
 * in the other byte order gives the same; a native binary and a short
 * file are not SPIR-V; a zero length, an instruction past the end, a name
 * without its NUL, a bad LocalSize and a ragged size are malformed; too
 * little room is -E2BIG with the count; every truncation reads nothing
 * past the end (the test runs under ASan).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "compute/spirv.h"

#define MAX_WORDS	128

struct module {
	uint32_t w[MAX_WORDS];
	size_t n;
};

static void emit(struct module *m, uint32_t v)
{
	m->w[m->n++] = v;
}

/* An instruction: its first word from its length, then @n operands. */
static void op(struct module *m, uint32_t opcode, const uint32_t *ops, size_t n)
{
	size_t i;

	emit(m, (uint32_t)(n + 1) << 16 | opcode);
	for (i = 0; i < n; i++)
		emit(m, ops[i]);
}

/* OpEntryPoint @model %@id "@name": the name packed low byte first, NUL-padded. */
static void entry(struct module *m, uint32_t model, uint32_t id, const char *name)
{
	uint32_t ops[32] = { model, id };
	size_t len = strlen(name) + 1, words = (len + 3) / 4, i;

	for (i = 0; i < len; i++)
		ops[2 + i / 4] |= (uint32_t)(unsigned char)name[i] << (8 * (i % 4));
	op(m, 15, ops, 2 + words);
}

static void good_module(struct module *m)
{
	static const uint32_t cap[] = { 4 }, model[] = { 2, 2 };
	static const uint32_t size1[] = { 1, 17, 8, 4, 1 }, contraction[] = { 2, 31 };

	memset(m, 0, sizeof(*m));
	emit(m, 0x07230203);
	emit(m, 0x00010200);
	emit(m, 0);
	emit(m, 10);
	emit(m, 0);
	op(m, 17, cap, 1);
	op(m, 14, model, 2);
	entry(m, 6, 1, "add");
	entry(m, 6, 2, "module_add_constant");
	entry(m, 5, 3, "shader");
	op(m, 16, size1, 5);
	op(m, 16, contraction, 2);
}

static int read_module(const struct module *m, size_t bytes, struct zex_spirv_info *info,
		       struct zex_spirv_kernel *k, uint32_t max)
{
	return zex_spirv_read(m->w, bytes, info, k, max);
}

TEST(kernels_names_and_sizes)
{
	struct zex_spirv_kernel k[4];
	struct zex_spirv_info info;
	struct module m;

	good_module(&m);
	ASSERT_EQ(0, read_module(&m, m.n * 4, &info, k, 4));
	EXPECT_EQ(0x00010200, info.version);
	ASSERT_EQ(2, info.num_kernels);
	EXPECT_STREQ("add", k[0].name);
	EXPECT_EQ(1, k[0].id);
	EXPECT_EQ(8, k[0].local_size[0]);
	EXPECT_EQ(4, k[0].local_size[1]);
	EXPECT_EQ(1, k[0].local_size[2]);
	EXPECT_STREQ("module_add_constant", k[1].name);
	EXPECT_EQ(0, k[1].local_size[0]);
}

TEST(the_other_byte_order_reads_the_same)
{
	struct zex_spirv_kernel k[4];
	struct zex_spirv_info info;
	struct module m;
	size_t i;

	good_module(&m);
	for (i = 0; i < m.n; i++)
		m.w[i] = __builtin_bswap32(m.w[i]);
	ASSERT_EQ(0, read_module(&m, m.n * 4, &info, k, 4));
	ASSERT_EQ(2, info.num_kernels);
	EXPECT_STREQ("module_add_constant", k[1].name);
	EXPECT_EQ(8, k[0].local_size[0]);
}

TEST(what_is_not_spirv_or_is_malformed)
{
	static const unsigned char elf[32] = { 0x7f, 'E', 'L', 'F' };
	struct zex_spirv_kernel k[4];
	struct zex_spirv_info info;
	struct module m;
	size_t at;

	EXPECT_EQ(-ENOEXEC, zex_spirv_read(elf, sizeof(elf), &info, k, 4));
	good_module(&m);
	EXPECT_EQ(-ENOEXEC, read_module(&m, 16, &info, k, 4));
	EXPECT_EQ(-ENOEXEC, zex_spirv_read(NULL, 0, &info, k, 4));
	EXPECT_EQ(-EINVAL, read_module(&m, m.n * 4 - 2, &info, k, 4));
	/* A zero length: the capability instruction says 0 words. */
	m.w[5] = 17;
	EXPECT_EQ(-EINVAL, read_module(&m, m.n * 4, &info, k, 4));
	/* The last instruction runs past the end. */
	good_module(&m);
	m.w[m.n - 3] = 9u << 16 | 16;
	EXPECT_EQ(-EINVAL, read_module(&m, m.n * 4, &info, k, 4));
	/* "add" without its NUL: its word full, nothing after in the instruction. */
	good_module(&m);
	at = 5 + 2 + 3;
	EXPECT_EQ(15u | 4u << 16, m.w[at]);
	m.w[at + 3] = 'a' | 'd' << 8 | 'd' << 16 | 'x' << 24;
	EXPECT_EQ(-EINVAL, read_module(&m, m.n * 4, &info, k, 4));
	/* A LocalSize of two numbers. */
	good_module(&m);
	m.w[m.n - 9] = 5u << 16 | 16;
	m.w[m.n - 4] = 3u << 16 | 16;
	EXPECT_EQ(-EINVAL, read_module(&m, m.n * 4, &info, k, 4));
}

TEST(too_little_room_says_how_many)
{
	struct zex_spirv_kernel k[1];
	struct zex_spirv_info info;
	struct module m;

	good_module(&m);
	EXPECT_EQ(-E2BIG, read_module(&m, m.n * 4, &info, k, 1));
	EXPECT_EQ(2, info.num_kernels);
	EXPECT_STREQ("add", k[0].name);
	EXPECT_EQ(8, k[0].local_size[0]);
}

TEST(every_truncation_stays_inside)
{
	struct zex_spirv_kernel k[4];
	struct zex_spirv_info info;
	struct module m;
	size_t bytes;

	good_module(&m);
	for (bytes = 0; bytes <= m.n * 4; bytes++) {
		/* Exactly @bytes of their own: a read past them is an ASan report. */
		void *copy = malloc(bytes ? bytes : 1);
		int ret;

		ASSERT_NE(NULL, copy);
		memcpy(copy, m.w, bytes);
		ret = zex_spirv_read(copy, bytes, &info, k, 4);
		free(copy);
		EXPECT_TRUE(ret == 0 || ret == -EINVAL || ret == -ENOEXEC) TH_LOG("%zu", bytes);
	}
}

/* OpDecorate %@id LinkageAttributes "@name" @type (0 Export, 1 Import). */
static void linkage(struct module *m, uint32_t id, const char *name, uint32_t type)
{
	uint32_t ops[32] = { id, 41 };
	size_t len = strlen(name) + 1, words = (len + 3) / 4, i;

	for (i = 0; i < len; i++)
		ops[2 + i / 4] |= (uint32_t)(unsigned char)name[i] << (8 * (i % 4));
	ops[2 + words] = type;
	op(m, 71, ops, 3 + words);
}

TEST(imports_and_exports_but_not_builtins)
{
	static const uint32_t builtin[] = { 7, 11, 28 };
	struct zex_spirv_link links[4];
	struct module m;
	uint32_t n = 99;

	good_module(&m);
	linkage(&m, 7, "__spirv_BuiltInGlobalInvocationId", 1);
	op(&m, 71, builtin, 3);
	linkage(&m, 8, "zex_hostrpc_call", 1);
	linkage(&m, 9, "exported_function", 0);
	linkage(&m, 10, "kept_once", 2);
	ASSERT_EQ(0, zex_spirv_linkage(m.w, m.n * 4, links, 4, &n));
	ASSERT_EQ(3, n);
	EXPECT_STREQ("zex_hostrpc_call", links[0].name);
	EXPECT_TRUE(links[0].import);
	EXPECT_STREQ("exported_function", links[1].name);
	EXPECT_FALSE(links[1].import);
	/* LinkOnceODR is a definition: an export. */
	EXPECT_FALSE(links[2].import);
	/* Counting only. */
	EXPECT_EQ(-E2BIG, zex_spirv_linkage(m.w, m.n * 4, NULL, 0, &n));
	EXPECT_EQ(3, n);
}

TEST(a_malformed_linkage_decoration_is_einval)
{
	static const uint32_t no_type[] = { 8, 41, 0x0061 }, no_nul[] = { 8, 41, 0x61616161 };
	struct zex_spirv_link links[2];
	struct module m;
	uint32_t n;

	good_module(&m);
	/* "a" and its NUL, but no linkage type after it. */
	op(&m, 71, no_type, 3);
	EXPECT_EQ(-EINVAL, zex_spirv_linkage(m.w, m.n * 4, links, 2, &n));
	good_module(&m);
	op(&m, 71, no_nul, 3);
	EXPECT_EQ(-EINVAL, zex_spirv_linkage(m.w, m.n * 4, links, 2, &n));
	EXPECT_EQ(-ENOEXEC, zex_spirv_linkage("not spir-v at all", 17, links, 2, &n));
}

TEST_HARNESS_MAIN
