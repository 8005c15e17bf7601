// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_userptr_mirror_test.c - kselftest of mirror imports (DRM_ZEX_USERPTR_MIRROR)
 *
 * A mirror import pins and charges nothing, and the device sees what the
 * host maps now: after madvise(MADV_DONTNEED) the host's zeros (a pinned
 * import keeps the old page), after a mapping is replaced in place its new
 * contents, after fork() its writes land in the parent's own copy. Where
 * the host maps nothing any more (munmap, mremap away, a read-only remap
 * under a writable import, the importer gone) the copy engine faults with
 * DRM_ZEX_FAULT_HOST_UNMAPPED at the first such page, and the rest of the
 * import still works. Compaction migrating its pages changes nothing the
 * device sees. Mirror imports overlap nothing. Threads race host munmap,
 * mmap, madvise and mprotect against device copies: every copy either
 * succeeds with bytes the host wrote there or faults cleanly (run on the
 * debug kernel, KASAN and lockdep watch the kernel side; make stress runs
 * 50 times as many copies).
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "zex_userptr.h"

#define MIRROR		DRM_ZEX_USERPTR_MIRROR
#define DST_SIZE	(64 * PG)

static uint8_t *anon(size_t size)
{
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

FIXTURE(mirror) {
	int fd;
	uint8_t *dst;	/* pinned scratch the device copies into */
	uint32_t dst_id;
};

FIXTURE_SETUP(mirror)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->dst = anon(DST_SIZE);
	ASSERT_NE(NULL, self->dst);
	ASSERT_EQ(0, import(self->fd, self->dst, DST_SIZE, 0, &self->dst_id));
}

FIXTURE_TEARDOWN(mirror)
{
	EXPECT_EQ(0, release(self->fd, self->dst_id));
	close(self->fd);
	munmap(self->dst, DST_SIZE);
}

TEST_F(mirror, reads_and_writes_without_a_pin)
{
	uint8_t *p = anon(16 * PG);
	long long locked = vm_locked_kb();
	uint32_t id;

	ASSERT_NE(NULL, p);
	zex_fill(p, 16 * PG, 1);
	ASSERT_EQ(0, import(self->fd, p, 16 * PG, MIRROR, &id));
	EXPECT_EQ(locked, vm_locked_kb());	/* nothing pinned, nothing charged */
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 16 * PG, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, 16 * PG, 1));
	zex_fill(self->dst, 16 * PG, 2);
	ASSERT_EQ(0, dev_copy(self->fd, self->dst + 5, p + 5, 16 * PG - 10, NULL, NULL));
	EXPECT_EQ(0, memcmp(p + 5, self->dst + 5, 16 * PG - 10));
	EXPECT_EQ(0, release(self->fd, id));
	EXPECT_EQ(-ENOENT, release(self->fd, id));
	munmap(p, 16 * PG);
}

TEST_F(mirror, dontneed_shows_the_hosts_zeros_a_pin_keeps_the_old_page)
{
	uint8_t *m = anon(4 * PG), *pinned = anon(4 * PG);
	uint32_t a, b;

	ASSERT_NE(NULL, m);
	ASSERT_NE(NULL, pinned);
	memset(m, 0x5a, 4 * PG);
	memset(pinned, 0x5a, 4 * PG);
	ASSERT_EQ(0, import(self->fd, m, 4 * PG, MIRROR, &a));
	ASSERT_EQ(0, import(self->fd, pinned, 4 * PG, 0, &b));
	ASSERT_EQ(0, madvise(m, 4 * PG, MADV_DONTNEED));
	ASSERT_EQ(0, madvise(pinned, 4 * PG, MADV_DONTNEED));
	EXPECT_EQ(0, m[0]);
	ASSERT_EQ(0, dev_copy(self->fd, m, self->dst, 4 * PG, NULL, NULL));
	EXPECT_EQ(0, self->dst[0]);
	EXPECT_EQ(0, self->dst[4 * PG - 1]);
	ASSERT_EQ(0, dev_copy(self->fd, pinned, self->dst, 4 * PG, NULL, NULL));
	EXPECT_EQ(0x5a, self->dst[0]);
	/* The device writes the host's new page, which the host then reads. */
	memset(self->dst, 0x33, PG);
	ASSERT_EQ(0, dev_copy(self->fd, self->dst, m + PG, PG, NULL, NULL));
	EXPECT_EQ(0x33, m[PG]);
	EXPECT_EQ(0x33, m[2 * PG - 1]);
	EXPECT_EQ(0, release(self->fd, a));
	EXPECT_EQ(0, release(self->fd, b));
	munmap(m, 4 * PG);
	munmap(pinned, 4 * PG);
}

TEST_F(mirror, a_mapping_replaced_in_place_is_what_the_device_sees)
{
	uint8_t *p = anon(8 * PG), *old = anon(4 * PG);
	uint32_t id;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, old);
	memset(p, 1, 8 * PG);
	ASSERT_EQ(0, import(self->fd, p, 8 * PG, MIRROR, &id));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 8 * PG, NULL, NULL));
	EXPECT_EQ(1, self->dst[3 * PG]);
	/* The old pages live on elsewhere; new ones take their place. */
	ASSERT_EQ(old, mremap(p + 2 * PG, 4 * PG, 4 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, old));
	ASSERT_EQ(p + 2 * PG, mmap(p + 2 * PG, 4 * PG, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	memset(p + 2 * PG, 2, 4 * PG);
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 8 * PG, NULL, NULL));
	EXPECT_EQ(1, self->dst[2 * PG - 1]);
	EXPECT_EQ(2, self->dst[2 * PG]);
	EXPECT_EQ(2, self->dst[6 * PG - 1]);
	EXPECT_EQ(1, self->dst[6 * PG]);
	EXPECT_EQ(0, release(self->fd, id));
	munmap(p, 8 * PG);
	munmap(old, 4 * PG);
}

TEST_F(mirror, unmapped_or_moved_pages_fault_host_unmapped)
{
	uint8_t *p = anon(8 * PG), *target = anon(2 * PG), *moved;
	uint32_t id, reason;
	uint64_t addr;

	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, target);
	zex_fill(p, 8 * PG, 3);
	ASSERT_EQ(0, import(self->fd, p, 8 * PG, MIRROR, &id));
	ASSERT_EQ(0, munmap(p + 5 * PG, PG));
	/* The pages before still work; a copy over the hole writes nothing. */
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 5 * PG, NULL, NULL));
	EXPECT_TRUE(zex_same(self->dst, 5 * PG, 3));
	memset(self->dst, 0, 8 * PG);
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, p + 100, self->dst, 6 * PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 5 * PG, addr);
	EXPECT_EQ(0, self->dst[0]);
	/* Writing there faults the same way, the write checked before any byte moves. */
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, self->dst, p + 4 * PG, 2 * PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 5 * PG, addr);
	/* Moved away with mremap: the old addresses fault. */
	moved = mremap(p + 6 * PG, 2 * PG, 2 * PG, MREMAP_MAYMOVE | MREMAP_FIXED, target);
	ASSERT_EQ(target, moved);
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, p + 6 * PG, self->dst, PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 6 * PG, addr);
	/* Mapped again: the device follows. */
	ASSERT_EQ(p + 5 * PG, mmap(p + 5 * PG, PG, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	memset(p + 5 * PG, 9, PG);
	ASSERT_EQ(0, dev_copy(self->fd, p + 5 * PG, self->dst, PG, NULL, NULL));
	EXPECT_EQ(9, self->dst[PG - 1]);
	EXPECT_EQ(0, release(self->fd, id));
	munmap(p, 6 * PG);
	munmap(moved, 2 * PG);
}

TEST_F(mirror, read_only_host_memory)
{
	uint8_t *p = anon(4 * PG);
	uint32_t rw, ro, reason;
	uint64_t addr;

	ASSERT_NE(NULL, p);
	memset(p, 4, 4 * PG);
	ASSERT_EQ(0, mprotect(p, 4 * PG, PROT_READ));
	EXPECT_EQ(-EFAULT, import(self->fd, p, 4 * PG, MIRROR, NULL));
	ASSERT_EQ(0, import(self->fd, p, 4 * PG, MIRROR | DRM_ZEX_USERPTR_READ_ONLY, &ro));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 4 * PG, NULL, NULL));
	EXPECT_EQ(4, self->dst[4 * PG - 1]);
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, self->dst, p, PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_READ_ONLY, reason);
	EXPECT_EQ(0, release(self->fd, ro));
	/* Made read-only under a writable import: the device loses it. */
	ASSERT_EQ(0, mprotect(p, 4 * PG, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, import(self->fd, p, 4 * PG, MIRROR, &rw));
	ASSERT_EQ(0, mprotect(p + 2 * PG, 2 * PG, PROT_READ));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 2 * PG, NULL, NULL));
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, p, self->dst, 4 * PG, &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ((uintptr_t)p + 2 * PG, addr);
	ASSERT_EQ(0, mprotect(p + 2 * PG, 2 * PG, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 4 * PG, NULL, NULL));
	EXPECT_EQ(0, release(self->fd, rw));
	munmap(p, 4 * PG);
}

TEST_F(mirror, after_fork_device_writes_reach_the_parent_only)
{
	uint8_t *p = anon(2 * PG);
	int to_child[2], to_parent[2];
	uint8_t seen = 0;
	uint32_t id;
	pid_t pid;
	int status;

	ASSERT_NE(NULL, p);
	memset(p, 1, 2 * PG);
	ASSERT_EQ(0, import(self->fd, p, 2 * PG, MIRROR, &id));
	ASSERT_EQ(0, dev_copy(self->fd, p, self->dst, 2 * PG, NULL, NULL));
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char go;

		if (read(to_child[0], &go, 1) != 1)
			_exit(2);
		go = p[0];
		_exit(write(to_parent[1], &go, 1) == 1 ? 0 : 3);
	}
	/* The pages are copy-on-write now: the device must write the parent's own. */
	memset(self->dst, 7, 2 * PG);
	ASSERT_EQ(0, dev_copy(self->fd, self->dst, p, 2 * PG, NULL, NULL));
	EXPECT_EQ(7, p[0]);
	EXPECT_EQ(7, p[2 * PG - 1]);
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(1, read(to_parent[0], &seen, 1));
	EXPECT_EQ(1, seen);	/* the child's copy never saw the device's write */
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, release(self->fd, id));
	munmap(p, 2 * PG);
}

TEST_F(mirror, the_importer_gone_faults_host_unmapped)
{
	struct {
		int32_t ret;
		uint32_t id;
		uint64_t va;
	} msg = { -1, 0, 0 };
	int pipefd[2], status;
	uint32_t reason;
	uint64_t addr;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* The child imports its own memory through the shared file, then exits. */
		uint8_t *p = anon(2 * PG);

		if (!p)
			_exit(2);
		memset(p, 5, 2 * PG);
		msg.ret = import(self->fd, p, 2 * PG, MIRROR, &msg.id);
		msg.va = (uintptr_t)p;
		_exit(write(pipefd[1], &msg, sizeof(msg)) == sizeof(msg) ? 0 : 3);
	}
	ASSERT_EQ(sizeof(msg), read(pipefd[0], &msg, sizeof(msg)));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, msg.ret);
	EXPECT_EQ(-EFAULT, dev_copy(self->fd, (void *)(uintptr_t)msg.va, self->dst, PG,
				    &reason, &addr));
	EXPECT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
	EXPECT_EQ(msg.va, addr);
	EXPECT_EQ(0, release(self->fd, msg.id));
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST_F(mirror, overlaps_nothing)
{
	uint8_t *p = anon(8 * PG);
	struct drm_zex_userptr_import im = { 0 };
	uint32_t m, pin, h;
	struct drm_zex_vm_bind b = { 0 };

	ASSERT_NE(NULL, p);
	memset(p, 1, 8 * PG);
	ASSERT_EQ(0, import(self->fd, p, 4 * PG, 0, &pin));
	EXPECT_EQ(-EBUSY, import(self->fd, p + 3 * PG, 2 * PG, MIRROR, NULL));
	ASSERT_EQ(0, import(self->fd, p + 4 * PG, 4 * PG, MIRROR, &m));
	EXPECT_EQ(-EBUSY, import(self->fd, p + 7 * PG, PG, 0, NULL));
	EXPECT_EQ(-EBUSY, import(self->fd, p + 4 * PG, PG, MIRROR, NULL));
	/* A buffer object bound over it. */
	ASSERT_EQ(0, raw_bo_create(self->fd, PG, 0, &h, NULL));
	b.handle = h;
	b.va = (uintptr_t)p + 5 * PG;
	EXPECT_EQ(-EBUSY, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &b));
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	/* Unknown flags beside it. */
	im.addr = (uintptr_t)p;
	im.size = PG;
	im.flags = MIRROR | 4;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	EXPECT_EQ(0, release(self->fd, pin));
	EXPECT_EQ(0, release(self->fd, m));
	munmap(p, 8 * PG);
}

TEST_F(mirror, holes_and_pfn_maps_do_not_import)
{
	uint8_t *p = anon(3 * PG);
	void *pfnmap;
	uint32_t h;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, munmap(p + PG, PG));
	EXPECT_EQ(-EFAULT, import(self->fd, p, 3 * PG, MIRROR, NULL));
	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * PG, 0, &h, NULL));
	pfnmap = raw_bo_map(self->fd, h, 2 * PG);
	ASSERT_NE(MAP_FAILED, pfnmap);
	EXPECT_EQ(-EFAULT, import(self->fd, pfnmap, 2 * PG, MIRROR, NULL));
	munmap(pfnmap, 2 * PG);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	/* Nothing of the failures stayed: the same range imports now. */
	ASSERT_EQ(p + PG, mmap(p + PG, PG, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	ASSERT_EQ(0, import(self->fd, p, 3 * PG, MIRROR, &h));
	EXPECT_EQ(0, release(self->fd, h));
	munmap(p, 3 * PG);
}

TEST_F(mirror, compaction_moves_pages_under_it)
{
	size_t size = 256 * PG;
	uint8_t *p = anon(size);
	int round;
	uint32_t id;

	ASSERT_NE(NULL, p);
	zex_fill(p, size, 12);
	ASSERT_EQ(0, import(self->fd, p, size, MIRROR, &id));
	if (zex_sysfs_write("/proc/sys/vm/compact_memory", "1")) {
		release(self->fd, id);
		munmap(p, size);
		SKIP(return, "cannot ask for compaction (not root)");
	}
	for (round = 0; round < 4; round++) {
		ASSERT_EQ(0, zex_sysfs_write("/proc/sys/vm/compact_memory", "1"));
		ASSERT_EQ(0, dev_copy(self->fd, p + round * 64 * PG, self->dst, 64 * PG,
				      NULL, NULL));
		EXPECT_EQ(0, memcmp(self->dst, p + round * 64 * PG, 64 * PG));
	}
	EXPECT_EQ(0, release(self->fd, id));
	munmap(p, size);
}

/* The race: a host thread keeps changing the range, the device keeps reading it. */
#define RACE_PAGES	32
#define RACE_COPIES	1500	/* make stress (ZEX_STRESS=1): 50 times as many */

struct race {
	uint8_t *p;
	atomic_int stop;
	atomic_int generation;
};

static void *host_churn(void *arg)
{
	struct race *r = arg;
	unsigned int i;

	for (i = 0; !atomic_load(&r->stop); i++) {
		/* The host writes 1..250 (or leaves fresh zeros); the copy's target starts 0xff. */
		uint8_t g = 1 + atomic_fetch_add(&r->generation, 1) % 250;
		size_t off = ((i / 8) % RACE_PAGES) * PG;	/* one page per round of 8 */

		/* Mostly frees pages under the range; holes come and go. */
		switch (i % 8) {
		case 0:
			munmap(r->p + off, PG);
			break;
		case 1:
			mmap(r->p + off, PG, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			memset(r->p + off, g, PG);
			break;
		case 2:
			mprotect(r->p + off, PG, PROT_READ);
			mprotect(r->p + off, PG, PROT_READ | PROT_WRITE);
			break;
		case 3:
			mmap(r->p, RACE_PAGES * PG, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
			memset(r->p, g, RACE_PAGES * PG);
			break;
		default:
			memset(r->p + off, g, PG);
			madvise(r->p, RACE_PAGES * PG, MADV_DONTNEED);
			break;
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(mirror, host_changes_race_device_copies, 150)
{
	struct race r = { 0 };
	unsigned int c, ok = 0, faults = 0, k;
	pthread_t t;
	uint32_t id;

	r.p = anon(RACE_PAGES * PG);
	ASSERT_NE(NULL, r.p);
	memset(r.p, 1, RACE_PAGES * PG);
	ASSERT_EQ(0, import(self->fd, r.p, RACE_PAGES * PG, MIRROR, &id));
	ASSERT_EQ(0, pthread_create(&t, NULL, host_churn, &r));
	for (c = 0; c < RACE_COPIES * (zex_stress() ? 50 : 1); c++) {
		uint32_t reason = 0;
		uint64_t addr = 0;
		int ret;

		memset(self->dst, 0xff, RACE_PAGES * PG);
		ret = dev_copy(self->fd, r.p, self->dst, RACE_PAGES * PG, &reason, &addr);
		if (ret) {
			ASSERT_EQ(-EFAULT, ret);
			ASSERT_EQ(DRM_ZEX_FAULT_HOST_UNMAPPED, reason);
			ASSERT_LE((uintptr_t)r.p, addr);
			ASSERT_GT((uintptr_t)r.p + RACE_PAGES * PG, addr);
			faults++;
			continue;
		}
		/* Every byte is one the host wrote there, or a fresh page's zero. */
		for (k = 0; k < RACE_PAGES * PG; k++)
			ASSERT_GT(251, self->dst[k]) TH_LOG("byte %u: %#x", k, self->dst[k]);
		ok++;
		/* And the device's writes go to whatever the host maps now. */
		ret = dev_copy(self->fd, self->dst, r.p + (c % RACE_PAGES) * PG, PG,
			       &reason, &addr);
		ASSERT_TRUE(!ret || (ret == -EFAULT && reason == DRM_ZEX_FAULT_HOST_UNMAPPED));
	}
	atomic_store(&r.stop, 1);
	pthread_join(t, NULL);
	TH_LOG("%u copies, %u faulted cleanly", ok + faults, faults);
	EXPECT_LT(0, ok);
	EXPECT_EQ(0, release(self->fd, id));
	/* Closing the file with a live mirror import is the other teardown. */
	ASSERT_EQ(r.p, mmap(r.p, RACE_PAGES * PG, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0));
	ASSERT_EQ(0, import(self->fd, r.p, RACE_PAGES * PG, MIRROR, &id));
	munmap(r.p, RACE_PAGES * PG);
}

ZEX_SELFTEST_MAIN
