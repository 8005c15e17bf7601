// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_userptr_huge_test.c - kselftest of userptr imports of huge pages
 *
 * Memory backed by transparent huge pages and by hugetlbfs imports as
 * 2 MiB leaf entries wherever an import covers a whole aligned 2 MiB block
 * (the debugfs dump counts them), and 4 KiB leaves at unaligned edges. The
 * copy engine reads and writes through them, across block boundaries. A
 * 4 KiB import inside a 2 MiB one splits the leaf; releasing either leaves
 * the other fully readable. A mirror import of THP memory maps 2 MiB
 * leaves too, and follows the host when it splits or zaps a huge page
 * under it. Huge pages are made sure of (MADV_COLLAPSE,
 * hugetlbfs pages reserved when root may); a test that cannot have them
 * skips, and the VM layers count that skip as a failure.
 */

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "zex_anon_huge.h"
#include "zex_userptr.h"

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB	(21 << 26)
#endif

/* @blocks 2 MiB blocks of THP-backed memory, 2 MiB-aligned, filled with @seed. */
static uint8_t *thp_blocks(unsigned int blocks, uint32_t seed)
{
	size_t size = blocks * HUGE_PG;
	uint8_t *raw = mmap(NULL, size + HUGE_PG, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *p;

	if (raw == MAP_FAILED)
		return NULL;
	p = (uint8_t *)(((uintptr_t)raw + HUGE_PG - 1) & ~(HUGE_PG - 1));
	if (madvise(p, size, MADV_HUGEPAGE))
		return NULL;
	zex_fill(p, size, seed);
	if (zex_anon_huge_kb(p) < (long)(size >> 10))
		madvise(p, size, MADV_COLLAPSE);
	if (zex_anon_huge_kb(p) < (long)(size >> 10))
		return NULL;
	return p;
}

/* 4 MiB of hugetlbfs memory; reserves two pages first when root may. */
static uint8_t *hugetlb_blocks(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	char buf[32];
	long long n;

	if (p != MAP_FAILED)
		return p;
	n = zex_sysfs_u64("/proc/sys/vm/nr_hugepages");
	if (n < 0)
		return NULL;
	snprintf(buf, sizeof(buf), "%lld", n + (long long)(size / HUGE_PG));
	if (zex_sysfs_write("/proc/sys/vm/nr_hugepages", buf))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

FIXTURE(huge) {
	int fd;
	uint8_t *small;	/* 4 KiB pages, imported: where the device copies to and from */
	uint32_t small_id;
	bool debugfs;	/* the 2 MiB leaves can be counted (root) */
	long long base;	/* 2 MiB leaves of @small's import: each count is above it */
};

/* A skip in the setup does not stop the test body: each test asks. */
#define REQUIRE_DEBUGFS()						\
	do {								\
		if (!self->debugfs)					\
			SKIP(return, "no debugfs to count 2 MiB leaves");	\
	} while (0)

#define SMALL_SIZE	(6ul << 20)

FIXTURE_SETUP(huge)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->small = mmap(NULL, SMALL_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->small);
	ASSERT_EQ(0, madvise(self->small, SMALL_SIZE, MADV_NOHUGEPAGE));
	memset(self->small, 0, SMALL_SIZE);
	ASSERT_EQ(0, import(self->fd, self->small, SMALL_SIZE, 0, &self->small_id));
	/*
	 * Without huge pages @small's frames may still come 512 contiguous
	 * and aligned (a freed huge page's block handed out in order), which
	 * is a 2 MiB leaf: the counts below are above what its import made.
	 */
	self->base = vm_debugfs("2 MiB leaves: ");
	self->debugfs = self->base >= 0;
}

FIXTURE_TEARDOWN(huge)
{
	EXPECT_EQ(0, release(self->fd, self->small_id));
	close(self->fd);
	munmap(self->small, SMALL_SIZE);
}

/* The device reads and writes huge-page memory at @p (@size bytes, filled with @seed). */
static void check_through_the_engine(struct __test_metadata *_metadata, int fd,
				     uint8_t *small, uint8_t *p, size_t size, uint32_t seed)
{
	ASSERT_EQ(0, dev_copy(fd, p, small, size, NULL, NULL));
	EXPECT_TRUE(zex_same(small, size, seed));
	/* Unaligned, across the 2 MiB boundary, device to huge memory. */
	zex_fill(small, size, seed + 1);
	ASSERT_EQ(0, dev_copy(fd, small + 8, p + HUGE_PG - 3 * PG + 8, 6 * PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(p + HUGE_PG - 3 * PG + 8, small + 8, 6 * PG));
}

TEST_F(huge, thp_imports_as_2mib_leaves)
{
	uint8_t *p = thp_blocks(2, 7);
	uint32_t id, ro;

	REQUIRE_DEBUGFS();
	if (!p)
		SKIP(return, "no transparent huge pages to be had");
	ASSERT_EQ(0, import(self->fd, p, 2 * HUGE_PG, 0, &id));
	EXPECT_EQ(self->base + 2, vm_debugfs("2 MiB leaves: "));
	check_through_the_engine(_metadata, self->fd, self->small, p, 2 * HUGE_PG, 7);
	/* A read-only import of the same blocks shares the leaves. */
	ASSERT_EQ(0, import(self->fd, p, 2 * HUGE_PG, DRM_ZEX_USERPTR_READ_ONLY, &ro));
	EXPECT_EQ(self->base + 2, vm_debugfs("2 MiB leaves: "));
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(self->base + 2, vm_debugfs("2 MiB leaves: "));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->small, 2 * HUGE_PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(p, self->small, 2 * HUGE_PG));
	EXPECT_EQ(0, release(self->fd, ro));
	EXPECT_EQ(self->base, vm_debugfs("2 MiB leaves: "));
	EXPECT_EQ(0, munmap(p, 2 * HUGE_PG));
}

TEST_F(huge, unaligned_edges_use_4k_leaves)
{
	uint8_t *p = thp_blocks(3, 9);
	uint32_t id;

	REQUIRE_DEBUGFS();
	if (!p)
		SKIP(return, "no transparent huge pages to be had");
	/* 1 MiB into the first block to 1 MiB into the third: one whole block. */
	ASSERT_EQ(0, import(self->fd, p + HUGE_PG / 2, 2 * HUGE_PG, 0, &id));
	EXPECT_EQ(self->base + 1, vm_debugfs("2 MiB leaves: "));
	ASSERT_EQ(0, dev_copy(self->fd, p + HUGE_PG / 2, self->small, 2 * HUGE_PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(p + HUGE_PG / 2, self->small, 2 * HUGE_PG));
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(self->base, vm_debugfs("2 MiB leaves: "));
	EXPECT_EQ(0, munmap(p, 3 * HUGE_PG));
}

TEST_F(huge, thp_and_4k_imports_overlap_release_either)
{
	uint32_t reason, whole, part, first;
	uint64_t addr;
	uint8_t *p;

	REQUIRE_DEBUGFS();
	for (first = 0; first < 2; first++) {
		p = thp_blocks(1, 11 + first);
		if (!p)
			SKIP(return, "no transparent huge pages to be had");
		ASSERT_EQ(0, import(self->fd, p, HUGE_PG, 0, &whole));
		EXPECT_EQ(self->base + 1, vm_debugfs("2 MiB leaves: "));
		/* 16 pages inside: the 2 MiB leaf is split into a leaf table. */
		ASSERT_EQ(0, import(self->fd, p + 100 * PG, 16 * PG, 0, &part));
		EXPECT_EQ(self->base, vm_debugfs("2 MiB leaves: "));
		EXPECT_EQ(0, release(self->fd, first ? part : whole));
		if (first) {
			/* The 2 MiB import stays whole. */
			ASSERT_EQ(0, dev_copy(self->fd, p, self->small, HUGE_PG, NULL, NULL));
			EXPECT_EQ(0, memcmp(p, self->small, HUGE_PG));
			EXPECT_EQ(0, release(self->fd, whole));
		} else {
			/* The 16 pages stay; the rest is gone. */
			ASSERT_EQ(0, dev_copy(self->fd, p + 100 * PG, self->small, 16 * PG,
					      NULL, NULL));
			EXPECT_EQ(0, memcmp(p + 100 * PG, self->small, 16 * PG));
			EXPECT_EQ(-EFAULT, dev_copy(self->fd, p + 99 * PG, self->small, PG,
						    &reason, &addr));
			EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, reason);
			EXPECT_EQ(-EFAULT, dev_copy(self->fd, p + 116 * PG, self->small, PG,
						    &reason, &addr));
			EXPECT_EQ((uintptr_t)p + 116 * PG, addr);
			EXPECT_EQ(0, release(self->fd, part));
		}
		EXPECT_EQ(0, munmap(p, HUGE_PG));
	}
}

TEST_F(huge, thp_mirror_imports_as_2mib_leaves_and_follows_a_split)
{
	uint8_t *p = thp_blocks(2, 31);
	uint32_t id, reason;
	uint64_t addr;

	REQUIRE_DEBUGFS();
	if (!p)
		SKIP(return, "no transparent huge pages to be had");
	ASSERT_EQ(0, import(self->fd, p, 2 * HUGE_PG, DRM_ZEX_USERPTR_MIRROR, &id));
	EXPECT_EQ(self->base + 2, vm_debugfs("2 MiB leaves: "));
	check_through_the_engine(_metadata, self->fd, self->small, p, 2 * HUGE_PG, 31);
	/* A hole in the first huge page: the host splits it, the device follows. */
	ASSERT_EQ(0, munmap(p + 7 * PG, PG));
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, p, self->small, HUGE_PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 7 * PG, addr);
	ASSERT_EQ(0, dev_copy(self->fd, p + 8 * PG, self->small, HUGE_PG - 8 * PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(p + 8 * PG, self->small, HUGE_PG - 8 * PG));
	EXPECT_EQ(self->base + 1, vm_debugfs("2 MiB leaves: "));
	/* The second one zapped: the device sees the host's zeros. */
	ASSERT_EQ(0, madvise(p + HUGE_PG, HUGE_PG, MADV_DONTNEED));
	memset(self->small, 0xff, PG);
	ASSERT_EQ(0, dev_copy(self->fd, p + HUGE_PG + 5, self->small, PG, NULL, NULL));
	EXPECT_EQ(0, self->small[0]);
	EXPECT_EQ(0, self->small[PG - 1]);
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(self->base, vm_debugfs("2 MiB leaves: "));
	munmap(p, 7 * PG);
	munmap(p + 8 * PG, 2 * HUGE_PG - 8 * PG);
}

TEST_F(huge, hugetlbfs_imports_as_2mib_leaves)
{
	uint8_t *p = hugetlb_blocks(2 * HUGE_PG);
	uint32_t id, part;

	REQUIRE_DEBUGFS();
	if (!p)
		SKIP(return, "hugetlbfs has no free 2 MiB pages");
	zex_fill(p, 2 * HUGE_PG, 21);
	ASSERT_EQ(0, import(self->fd, p, 2 * HUGE_PG, 0, &id));
	EXPECT_EQ(self->base + 2, vm_debugfs("2 MiB leaves: "));
	check_through_the_engine(_metadata, self->fd, self->small, p, 2 * HUGE_PG, 21);
	ASSERT_EQ(0, import(self->fd, p + HUGE_PG + PG, PG, DRM_ZEX_USERPTR_READ_ONLY, &part));
	EXPECT_EQ(self->base + 1, vm_debugfs("2 MiB leaves: "));
	EXPECT_EQ(0, release(self->fd, id));
	ASSERT_EQ(0, dev_copy(self->fd, p + HUGE_PG + PG, self->small, PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(p + HUGE_PG + PG, self->small, PG));
	EXPECT_EQ(0, release(self->fd, part));
	EXPECT_EQ(self->base, vm_debugfs("2 MiB leaves: "));
	EXPECT_EQ(0, munmap(p, 2 * HUGE_PG));
}

ZEX_SELFTEST_MAIN
