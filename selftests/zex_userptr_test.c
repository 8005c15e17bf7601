// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_userptr_test.c - kselftest of userptr imports and the copy engine
 *
 * Heap, stack and global memory import at device VA == host VA and the
 * software copy engine moves bytes between them, seen by the host. Read-only
 * imports read but fault on write, and read-only host memory imports only
 * read-only. Overlapping imports survive the release of either; adjacent
 * ones both work. A host munmap() under an import leaves the device the
 * pinned pages. RLIMIT_MEMLOCK is enforced and nothing stays charged on
 * failure. 8 threads import and release at once. Every bad input has its
 * errno, and the copy engine's fault record names the address and reason.
 * Buffer objects bind into the same tables, whole or a range of them at a
 * VA of its own (the device sees byte @offset there).
 */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "zex_userptr.h"

#define DST_PAGES	512ul	/* the fixture's scratch: room for a coloured object */

static uint8_t global_bss[8 * PG] __attribute__((aligned(4096)));
static uint8_t global_data[4 * PG] __attribute__((aligned(4096))) = { 1, 2, 3 };

FIXTURE(userptr) {
	int fd;
	uint8_t *dst;	/* a writable imported scratch area */
	uint32_t dst_id;
};

FIXTURE_SETUP(userptr)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->dst = aligned_alloc(PG, DST_PAGES * PG);
	ASSERT_NE(NULL, self->dst);
	memset(self->dst, 0, DST_PAGES * PG);
	ASSERT_EQ(0, import(self->fd, self->dst, DST_PAGES * PG, 0, &self->dst_id));
}

FIXTURE_TEARDOWN(userptr)
{
	EXPECT_EQ(0, release(self->fd, self->dst_id));
	close(self->fd);
	free(self->dst);
	EXPECT_EQ(0, vm_locked_kb());
}

TEST_F(userptr, heap_stack_and_globals_through_the_copy_engine)
{
	uint8_t stack[4 * PG] __attribute__((aligned(4096)));
	uint8_t *heap = aligned_alloc(PG, 16 * PG);
	uint32_t a, b, c, d;

	ASSERT_NE(NULL, heap);
	zex_fill(heap, 16 * PG, 1);
	zex_fill(stack, sizeof(stack), 2);
	zex_fill(global_bss, sizeof(global_bss), 3);
	zex_fill(global_data, sizeof(global_data), 4);
	ASSERT_EQ(0, import(self->fd, heap, 16 * PG, 0, &a));
	ASSERT_EQ(0, import(self->fd, stack, sizeof(stack), 0, &b));
	ASSERT_EQ(0, import(self->fd, global_bss, sizeof(global_bss), 0, &c));
	ASSERT_EQ(0, import(self->fd, global_data, sizeof(global_data), 0, &d));

	/* Device reads what the host wrote... */
	ASSERT_EQ(0, dev_copy(self->fd, heap, self->dst, 16 * PG, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, 16 * PG, 1));
	ASSERT_EQ(0, dev_copy(self->fd, stack, self->dst, sizeof(stack), NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, sizeof(stack), 2));
	ASSERT_EQ(0, dev_copy(self->fd, global_bss, self->dst, sizeof(global_bss), NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, sizeof(global_bss), 3));
	/* ...and the host sees what the device wrote, unaligned and across pages. */
	ASSERT_EQ(0, dev_copy(self->fd, global_data, heap + 100, sizeof(global_data) - 200,
			      NULL, NULL));
	EXPECT_EQ(0, memcmp(heap + 100, global_data, sizeof(global_data) - 200));

	EXPECT_EQ(0, release(self->fd, a));
	EXPECT_EQ(0, release(self->fd, b));
	EXPECT_EQ(0, release(self->fd, c));
	EXPECT_EQ(0, release(self->fd, d));
	EXPECT_EQ(-ENOENT, release(self->fd, a));
	free(heap);
}

TEST_F(userptr, read_only_imports)
{
	uint8_t *ro = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *rw = aligned_alloc(PG, 4 * PG);
	uint64_t addr;
	uint32_t reason, a, b;
	int ffd;
	void *file;

	ASSERT_NE(MAP_FAILED, ro);
	ASSERT_NE(NULL, rw);
	zex_fill(ro, 4 * PG, 7);
	memset(rw, 0xee, 4 * PG);
	ASSERT_EQ(0, mprotect(ro, 4 * PG, PROT_READ));
	/* Read-only host memory: only with the flag. */
	EXPECT_EQ(-EFAULT, import(self->fd, ro, 4 * PG, 0, &a));
	EXPECT_EQ(0, vm_locked_kb() - DST_PAGES * PG / 1024);
	ASSERT_EQ(0, import(self->fd, ro, 4 * PG, DRM_ZEX_USERPTR_READ_ONLY, &a));
	ASSERT_EQ(0, import(self->fd, rw, 4 * PG, DRM_ZEX_USERPTR_READ_ONLY, &b));
	/* The device reads it... */
	ASSERT_EQ(0, dev_copy(self->fd, ro, self->dst, 4 * PG, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, 4 * PG, 7));
	/* ...and faults writing it, writing nothing. */
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, self->dst, rw + 8, 64, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_READ_ONLY, reason);
	EXPECT_EQ((uintptr_t)rw + 8, addr);
	EXPECT_EQ(0xee, rw[8]);
	EXPECT_EQ(0, release(self->fd, a));
	EXPECT_EQ(0, release(self->fd, b));

	/* A read-only file mapping, the same way. */
	ffd = open("/opt/zex/selftests/zex_userptr_test", O_RDONLY);
	if (ffd < 0)
		ffd = open("/proc/self/exe", O_RDONLY);
	ASSERT_LE(0, ffd);
	file = mmap(NULL, 2 * PG, PROT_READ, MAP_SHARED, ffd, 0);
	ASSERT_NE(MAP_FAILED, file);
	EXPECT_EQ(-EFAULT, import(self->fd, file, 2 * PG, 0, &a));
	ASSERT_EQ(0, import(self->fd, file, 2 * PG, DRM_ZEX_USERPTR_READ_ONLY, &a));
	ASSERT_EQ(0, dev_copy(self->fd, file, self->dst, 2 * PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(self->dst, file, 2 * PG));
	EXPECT_EQ(0, release(self->fd, a));
	munmap(file, 2 * PG);
	close(ffd);
	munmap(ro, 4 * PG);
	free(rw);
}

TEST_F(userptr, overlapping_imports_survive_either_release)
{
	uint8_t *p = aligned_alloc(PG, 24 * PG);
	int order;

	ASSERT_NE(NULL, p);
	zex_fill(p, 24 * PG, 9);
	for (order = 0; order < 2; order++) {
		uint32_t a, b;

		ASSERT_EQ(0, import(self->fd, p, 16 * PG, 0, &a));		/* pages 0-15 */
		ASSERT_EQ(0, import(self->fd, p + 8 * PG, 16 * PG, 0, &b));	/* pages 8-23 */
		ASSERT_EQ(0, release(self->fd, order ? b : a));
		/* The other import's every page is still there for the device. */
		memset(self->dst, 0, 16 * PG);
		ASSERT_EQ(0, dev_copy(self->fd, order ? p : p + 8 * PG, self->dst, 16 * PG,
				      NULL, NULL));
		EXPECT_EQ(0, memcmp(self->dst, order ? p : p + 8 * PG, 16 * PG));
		/* ...and only those. */
		EXPECT_EQ(-EFAULT, dev_copy(self->fd, order ? p + 16 * PG : p, self->dst, PG,
					    NULL, NULL));
		ASSERT_EQ(0, release(self->fd, order ? a : b));
	}
	free(p);
}

TEST_F(userptr, adjacent_imports)
{
	uint8_t *p = aligned_alloc(PG, 16 * PG);
	uint64_t addr;
	uint32_t a, b, reason;

	ASSERT_NE(NULL, p);
	zex_fill(p, 16 * PG, 11);
	ASSERT_EQ(0, import(self->fd, p, 8 * PG, 0, &a));
	ASSERT_EQ(0, import(self->fd, p + 8 * PG, 8 * PG, 0, &b));
	/* One copy across the seam. */
	ASSERT_EQ(0, dev_copy(self->fd, p + 4 * PG, self->dst, 8 * PG, NULL, NULL));
	EXPECT_EQ(0, memcmp(self->dst, p + 4 * PG, 8 * PG));
	ASSERT_EQ(0, release(self->fd, a));
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, p + 4 * PG, self->dst, 8 * PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 4 * PG, addr);
	ASSERT_EQ(0, dev_copy(self->fd, p + 8 * PG, self->dst, 8 * PG, NULL, NULL));
	ASSERT_EQ(0, release(self->fd, b));
	free(p);
}

TEST_F(userptr, munmap_under_an_import_keeps_the_pinned_pages)
{
	uint8_t *p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t a;

	ASSERT_NE(MAP_FAILED, p);
	zex_fill(p, 8 * PG, 13);
	ASSERT_EQ(0, import(self->fd, p, 8 * PG, 0, &a));
	ASSERT_EQ(0, munmap(p, 8 * PG));
	/* The device still reads the pinned pages, old contents and all. */
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 8 * PG, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, 8 * PG, 13));
	/* Host memory mapped there now is other pages: a new import conflicts. */
	ASSERT_EQ(p, mmap(p, 8 * PG, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	p[0] = 1;
	EXPECT_EQ(-EBUSY, import(self->fd, p, 8 * PG, 0, NULL));
	ASSERT_EQ(0, release(self->fd, a));
	munmap(p, 8 * PG);
}

TEST_F(userptr, rlimit_memlock)
{
	int status;
	pid_t pid = fork();

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit lim = { 32 * PG, 32 * PG };
		uint8_t *p = aligned_alloc(PG, 64 * PG);
		uint32_t a = 0, b = 0;
		int bad = 0;

		/* Without CAP_IPC_LOCK the limit applies (the fixture's 64 pages
		 * were charged to the parent). */
		memset(p, 1, 64 * PG);
		/* setuid() makes /proc/self root's until dumpable again. */
		if (setrlimit(RLIMIT_MEMLOCK, &lim) || setuid(65534) ||
		    prctl(PR_SET_DUMPABLE, 1))
			_exit(10);
		bad |= import(self->fd, p, 16 * PG, 0, &a) != 0;
		bad |= (import(self->fd, p + 16 * PG, 32 * PG, 0, &b) != -ENOMEM) << 1;
		/* The refused import left no charge: the headroom is intact... */
		bad |= (import(self->fd, p + 16 * PG, 16 * PG, 0, &b) != 0) << 2;
		bad |= (import(self->fd, p + 32 * PG, PG, 0, NULL) != -ENOMEM) << 3;
		bad |= (release(self->fd, a) || release(self->fd, b)) << 4;
		/* ...and releasing gave every page back. */
		bad |= (import(self->fd, p, 32 * PG, 0, &a) != 0) << 5;
		bad |= release(self->fd, a) << 6;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

struct worker {
	int fd, failures;
	uint8_t *mem;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int round;

	for (round = 0; round < 40; round++) {
		/* Overlapping windows of the shared buffer. */
		size_t off = (size_t)(round % 8) * 4 * PG;
		uint32_t id;

		if (import(w->fd, w->mem + off, 16 * PG, 0, &id)) {
			w->failures++;
			continue;
		}
		w->failures += release(w->fd, id) != 0;
	}
	return NULL;
}

TEST_F(userptr, eight_threads_import_and_release)
{
	uint8_t *mem = aligned_alloc(PG, 64 * PG);
	struct worker w[8];
	pthread_t t[8];
	int i;

	ASSERT_NE(NULL, mem);
	zex_fill(mem, 64 * PG, 17);
	for (i = 0; i < 8; i++) {
		w[i] = (struct worker){ .fd = self->fd, .mem = mem };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, w[i].failures);
	}
	/* Every page came off: nothing left mapped, nothing charged but ours. */
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, mem, self->dst, PG, NULL, NULL));
	EXPECT_EQ(DST_PAGES * PG / 1024, vm_locked_kb());
	free(mem);
}

TEST_F(userptr, bad_imports)
{
	struct drm_zex_userptr_import im = { 0 };
	struct drm_zex_vm_unbind rel = { 0 };
	uint8_t *p = aligned_alloc(PG, 4 * PG);
	uint8_t *hole = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t h, id;
	void *pfnmap;

	ASSERT_NE(NULL, p);
	ASSERT_NE(MAP_FAILED, hole);
	im.addr = (uintptr_t)p;
	im.size = PG;
	im.flags = 4;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	im.flags = 0;
	im.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	im.reserved[1] = 0;
	EXPECT_EQ(-EINVAL, import(self->fd, p, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, import(self->fd, p + 1, PG, 0, NULL));
	EXPECT_EQ(-EINVAL, import(self->fd, p, PG + 1, 0, NULL));
	EXPECT_EQ(-EINVAL, import(self->fd, (void *)(uintptr_t)(UINT64_MAX & ~(PG - 1)),
				  2 * PG, 0, NULL));
	EXPECT_EQ(-E2BIG, import(self->fd, p, (1ull << 32) + PG, 0, NULL));
	EXPECT_EQ(-EFAULT, import(self->fd, (void *)0xffff888000000000ull, PG, 0, NULL));
	/* A hole in the middle. */
	ASSERT_EQ(0, munmap(hole + PG, PG));
	EXPECT_EQ(-EFAULT, import(self->fd, hole, 3 * PG, 0, NULL));
	/* A PFN mapping (a zex buffer object's). */
	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * PG, 0, &h, NULL));
	pfnmap = raw_bo_map(self->fd, h, 2 * PG);
	ASSERT_NE(MAP_FAILED, pfnmap);
	EXPECT_EQ(-EFAULT, import(self->fd, pfnmap, 2 * PG, 0, NULL));
	munmap(pfnmap, 2 * PG);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	/* Release: unknown id, pad. */
	EXPECT_EQ(-ENOENT, release(self->fd, 0x7fffffff));
	ASSERT_EQ(0, import(self->fd, p, PG, 0, &id));
	rel.id = id;
	rel.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_UNBIND, &rel));
	EXPECT_EQ(0, release(self->fd, id));
	/* Nothing of the failures stayed charged. */
	EXPECT_EQ(DST_PAGES * PG / 1024, vm_locked_kb());
	munmap(hole, PG);
	munmap(hole + 2 * PG, PG);
	free(p);
}

TEST_F(userptr, bad_copies_and_isolation)
{
	struct drm_zex_copy c = { 0 };
	uint32_t reason;
	uint64_t addr;
	int other;

	c.src = (uintptr_t)self->dst;
	c.dst = (uintptr_t)self->dst + 32 * PG;
	c.len = PG;
	c.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_COPY, &c));
	c.flags = 0;
	c.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_COPY, &c));
	c.reserved[0] = 0;
	EXPECT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_COPY, &c));
	/* Overlapping, wrapping, too long. */
	EXPECT_EQ(-EINVAL, dev_copy(self->fd, self->dst, self->dst + 100, PG, NULL, NULL));
	EXPECT_EQ(-EINVAL, dev_copy(self->fd, (void *)(uintptr_t)(UINT64_MAX - 10), self->dst,
				    PG, NULL, NULL));
	EXPECT_EQ(-E2BIG, dev_copy(self->fd, self->dst, self->dst + 32 * PG, (1ull << 30) + 1,
				   NULL, NULL));
	EXPECT_EQ(0, dev_copy(self->fd, self->dst, self->dst + 32 * PG, 0, NULL, NULL));
	/* Reading past the import: the fault names the first unmapped byte. */
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, self->dst + (DST_PAGES - 1) * PG, self->dst,
				    2 * PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, reason);
	EXPECT_EQ((uintptr_t)self->dst + DST_PAGES * PG, addr);
	/* Another file's address space does not have our import. */
	other = zex_open_render();
	ASSERT_LE(0, other);
	EXPECT_EQ(-EFAULT, dev_copy(other, self->dst, self->dst + 32 * PG, PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, reason);
	EXPECT_EQ((uintptr_t)self->dst, addr);
	close(other);
}

TEST_F(userptr, debugfs_shows_the_tables)
{
	char path[128], line[256], cmd[160];
	uint8_t *p = aligned_alloc(1 << 21, 4 << 20);
	int leaves = -1, mappings = -1, record = -1;
	FILE *f;
	uint32_t a;

	ASSERT_NE(NULL, p);
	/* 4 KiB pages: leaf tables, not 2 MiB leaves (zex_userptr_huge_test). */
	ASSERT_EQ(0, madvise(p, 4 << 20, MADV_NOHUGEPAGE));
	memset(p, 1, 4 << 20);
	ASSERT_EQ(0, import(self->fd, p, 4 << 20, 0, &a));
	snprintf(cmd, sizeof(cmd), "ls /sys/kernel/debug/zex/vm-%d-* 2>/dev/null | tail -n1",
		 getpid());
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	if (!fgets(path, sizeof(path), f))
		path[0] = 0;
	pclose(f);
	path[strcspn(path, "\n")] = 0;
	if (!path[0]) {
		release(self->fd, a);
		free(p);
		SKIP(return, "no debugfs");
	}
	f = fopen(path, "r");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "level 0: %d tables", &leaves);
		sscanf(line, "mappings: %d of %d bytes", &mappings, &record);
	}
	fclose(f);
	/* 4 MiB, 2 MiB aligned, plus the fixture's 64 pages. */
	EXPECT_LE(2, leaves);
	EXPECT_GE(4, leaves);
	/* This import and the fixture's, each a record of its own. */
	EXPECT_EQ(2, mappings);
	EXPECT_LT(0, record);
	EXPECT_EQ(0, release(self->fd, a));
	free(p);
}

static int bo_bind(int fd, uint32_t handle, uint64_t va, uint32_t flags, uint32_t *id)
{
	struct drm_zex_vm_bind b = { .handle = handle, .va = va, .flags = flags };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_VM_BIND, &b);

	if (!ret && id)
		*id = b.id;
	return ret;
}

/* @range bytes of the object from @offset at @va (0, 0: the whole object). */
static int bo_bind_range(int fd, uint32_t handle, uint64_t va, uint64_t offset, uint64_t range,
			 uint32_t *id)
{
	struct drm_zex_vm_bind b = { .handle = handle, .va = va, .offset = offset,
				     .range = range };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_VM_BIND, &b);

	if (!ret && id)
		*id = b.id;
	return ret;
}

#define BO_VA	0x100000000000ull	/* 16 TiB: device VA only */

TEST_F(userptr, buffer_objects_bind_into_the_same_tables)
{
	unsigned int tiles = (unsigned int)zex_param("tiles");
	uint64_t size, addr;
	uint32_t h, h2, id, ro, reason;
	uint8_t *map;

	uint64_t gran = (uint64_t)zex_param("multi_storage_granularity_kb") << 10;

	/* Coloured (two granules a tile) when the device scales, else one piece. */
	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * gran * tiles, DRM_ZEX_DEVICE_ROOT, &h, &size));
	ASSERT_GE(DST_PAGES * PG, size);
	map = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, map);
	zex_fill(map, size, 23);
	ASSERT_EQ(0, bo_bind(self->fd, h, BO_VA, 0, &id));
	/* The device reads the object in its mapping's order... */
	ASSERT_EQ(0, dev_copy(self->fd, (void *)(uintptr_t)BO_VA, self->dst, size, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, size, 23));
	/* ...and writes it: the host sees it through the mapping. */
	zex_fill(self->dst, size, 24);
	ASSERT_EQ(0, dev_copy(self->fd, self->dst, (void *)(uintptr_t)BO_VA, size, NULL, NULL));
	EXPECT_TRUE(zex_same(map, size, 24));
	/* The binding holds the object: closing the handle changes nothing. */
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	ASSERT_EQ(0, dev_copy(self->fd, (void *)(uintptr_t)BO_VA, self->dst, PG, NULL, NULL));
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, (void *)(uintptr_t)BO_VA, self->dst, PG,
				    &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, reason);
	munmap(map, size);
	EXPECT_EQ(0, zex_tiles_usage());

	/* Read-only binding: reads work, writes fault. */
	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * PG, 0, &h, NULL));
	ASSERT_EQ(0, bo_bind(self->fd, h, BO_VA, DRM_ZEX_VM_BIND_READ_ONLY, &ro));
	EXPECT_EQ(0, dev_copy(self->fd, (void *)(uintptr_t)BO_VA, self->dst, 2 * PG, NULL, NULL));
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, self->dst, (void *)(uintptr_t)(BO_VA + 8), 8,
				    &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_READ_ONLY, reason);
	EXPECT_EQ(BO_VA + 8, addr);
	/* Another object over the same VA maps other pages: refused. */
	ASSERT_EQ(0, raw_bo_create(self->fd, PG, 0, &h2, NULL));
	EXPECT_EQ(-EBUSY, bo_bind(self->fd, h2, BO_VA, 0, NULL));
	EXPECT_EQ(0, raw_bo_close(self->fd, h2));
	EXPECT_EQ(0, release(self->fd, ro));
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

/*
 * Ranges of one object (coloured over the tiles when the device scales) at
 * VAs of their own: the device reads and writes each range's bytes, byte
 * @offset at the VA; a range of 0 from an offset is the rest.
 */
TEST_F(userptr, ranges_of_an_object_bind_where_asked)
{
	unsigned int tiles = (unsigned int)zex_param("tiles");
	uint64_t gran = (uint64_t)zex_param("multi_storage_granularity_kb") << 10;
	uint64_t size, half;
	uint32_t h, a, b;
	uint8_t *map;

	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * gran * tiles, DRM_ZEX_DEVICE_ROOT, &h, &size));
	ASSERT_GE(DST_PAGES * PG, size);
	half = size / 2 & ~(PG - 1);
	map = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, map);
	zex_fill(map, size, 31);
	/* The second half first, one page in; then the rest from there. */
	ASSERT_EQ(0, bo_bind_range(self->fd, h, BO_VA, half, size - half, &a));
	ASSERT_EQ(0, bo_bind_range(self->fd, h, BO_VA + size, PG, 0, &b));
	ASSERT_EQ(0, dev_copy(self->fd, (void *)(uintptr_t)BO_VA, self->dst, size - half,
			      NULL, NULL));
	EXPECT_EQ(0, memcmp(self->dst, map + half, size - half));
	ASSERT_EQ(0, dev_copy(self->fd, (void *)(uintptr_t)(BO_VA + size), self->dst, size - PG,
			      NULL, NULL));
	EXPECT_EQ(0, memcmp(self->dst, map + PG, size - PG));
	/* A write through a range lands at its offset in the object. */
	memset(self->dst, 0x5a, PG);
	ASSERT_EQ(0, dev_copy(self->fd, self->dst, (void *)(uintptr_t)(BO_VA + PG), PG,
			      NULL, NULL));
	EXPECT_EQ(0x5a, map[half + PG]);
	EXPECT_EQ(0x5a, map[half + 2 * PG - 1]);
	EXPECT_NE(0x5a, map[half + PG - 1]);
	EXPECT_EQ(0, release(self->fd, a));
	EXPECT_EQ(0, release(self->fd, b));
	munmap(map, size);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(userptr, bad_binds)
{
	struct drm_zex_vm_bind b = { 0 };
	uint32_t h, id;

	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * PG, 0, &h, NULL));
	EXPECT_EQ(-ENOENT, bo_bind(self->fd, 0x7fffffff, BO_VA, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_bind(self->fd, h, BO_VA + 1, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_bind(self->fd, h, BO_VA, 2, NULL));
	EXPECT_EQ(-EINVAL, bo_bind(self->fd, h, (1ull << 48) - PG, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_bind(self->fd, h, UINT64_MAX & ~(PG - 1), 0, NULL));
	b.handle = h;
	b.va = BO_VA;
	b.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &b));
	b.pad = 0;
	/* Ranges: unaligned, past the object, wrapping. */
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, 1, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, 2 * PG, 0, NULL));
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, PG, 2 * PG, NULL));
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, 0, 3 * PG, NULL));
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, BO_VA, PG, UINT64_MAX & ~(PG - 1), NULL));
	/* The range's own end decides: a page fits below 2^48 where two do not. */
	EXPECT_EQ(-EINVAL, bo_bind_range(self->fd, h, (1ull << 48) - PG, 0, 2 * PG, NULL));
	EXPECT_EQ(0, bo_bind_range(self->fd, h, (1ull << 48) - PG, PG, PG, &id));
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, zex_tiles_usage());
}

ZEX_SELFTEST_MAIN
