// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_security_test.c - kselftest of what an unprivileged user can do
 *
 * Any user in the render group can open the render node. These tests act as
 * such a user (uid 65534, no capabilities, after root opened the node) or
 * as root where they need to set up a cgroup, and check the promises of
 * Documentation/security.rst: no private (copy-on-write) mapping of any
 * mappable object; mappings that stay right after munmap() splits,
 * mprotect(), mremap() and fork(); read-only exports that stay read-only
 * through import, mmap, bind, copy and export; bounded mapping and channel
 * counts; kernel memory charged to the caller's memory cgroup and refused
 * cleanly at its limit; a copy that stops when its caller is killed; no
 * descriptor installed when the copy-out of HOSTRPC_CREATE faults; exec
 * queues and jobs in flight bounded, and jobs charged, for such a user.
 */

#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "zex_cgroup.h"
#include "zex_exec.h"

#define PG		4096ul
#define LIVE_CHANNELS	"/sys/kernel/debug/zex/hostrpc_channels"
#define BIND_VA		0x100000000000ull	/* 16 TiB: device VA only */

static int bind_bo(int fd, uint32_t handle, uint64_t va, uint32_t flags, uint32_t *id)
{
	struct drm_zex_vm_bind b = { .handle = handle, .va = va, .flags = flags };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_VM_BIND, &b);

	if (!ret && id)
		*id = b.id;
	return ret;
}

static int unbind(int fd, uint32_t id)
{
	struct drm_zex_vm_unbind u = { .id = id };

	return zex_ioctl(fd, DRM_IOCTL_ZEX_VM_UNBIND, &u);
}

static int export_flags(int fd, uint32_t handle, uint32_t flags, int *fds, uint32_t max)
{
	struct drm_zex_bo_export e = {
		.handle = handle, .flags = flags, .num_fds = max, .fds = (uintptr_t)fds,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_EXPORT, &e);

	return ret ? ret : (int)e.num_fds;
}

static int64_t mmap_offset(int fd, uint32_t handle)
{
	struct drm_zex_bo_mmap_offset m = { .handle = handle };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m);

	return ret ? ret : (int64_t)m.offset;
}

/* errno of a mmap() that must fail, or 0 when it succeeded (and is undone). */
static int mmap_errno(int fd, size_t size, int prot, int flags, off_t off)
{
	void *p = mmap(NULL, size, prot, flags, fd, off);

	if (p != MAP_FAILED) {
		munmap(p, size);
		return 0;
	}
	return errno;
}

static int hr_create(int drm, uint32_t nslots, struct drm_zex_hostrpc_create *c)
{
	*c = (struct drm_zex_hostrpc_create){ .nslots = nslots, .flags = DRM_ZEX_HOSTRPC_CLOEXEC };
	return zex_ioctl(drm, DRM_IOCTL_ZEX_HOSTRPC_CREATE, c);
}

/* A one-piece object of @pages pages on tile 0, filled with @seed. */
static uint32_t filled_bo(struct __test_metadata *_metadata, int fd, size_t pages,
			  uint32_t seed)
{
	uint32_t h;
	void *p;

	ASSERT_EQ(0, raw_bo_create(fd, pages * PG, 0, &h, NULL));
	p = raw_bo_map(fd, h, pages * PG);
	ASSERT_NE(MAP_FAILED, p);
	zex_fill(p, pages * PG, seed);
	munmap(p, pages * PG);
	return h;
}

FIXTURE(sec) {
	int fd;
};

FIXTURE_SETUP(sec)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(sec)
{
	close(self->fd);
}

/* Every mappable object refuses MAP_PRIVATE: a PFN map cannot be COWed. */
TEST_F(sec, private_mappings_of_every_object_are_refused)
{
	struct drm_zex_hostrpc_create c;
	uint32_t h = filled_bo(_metadata, self->fd, 16, 1);
	int64_t off = mmap_offset(self->fd, h);
	int dmabuf, shared;
	volatile uint8_t *p;

	ASSERT_LE(0, off);
	ASSERT_EQ(1, export_flags(self->fd, h, DRM_CLOEXEC | DRM_RDWR, &dmabuf, 1));
	ASSERT_EQ(0, hr_create(self->fd, 4, &c));
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));

	EXPECT_EQ(EINVAL, mmap_errno(self->fd, 16 * PG, PROT_READ, MAP_PRIVATE, off));
	EXPECT_EQ(EINVAL, mmap_errno(self->fd, 16 * PG, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE, off));
	EXPECT_EQ(EINVAL, mmap_errno(dmabuf, 16 * PG, PROT_READ, MAP_PRIVATE, 0));
	EXPECT_EQ(EINVAL, mmap_errno(c.fd, c.map_size, PROT_READ, MAP_PRIVATE, 0));

	/* The shared mappings still work, and read what was written. */
	p = mmap(NULL, 16 * PG, PROT_READ, MAP_SHARED, self->fd, off);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(zex_same((const void *)p, 16 * PG, 1));
	munmap((void *)p, 16 * PG);
	shared = mmap_errno(c.fd, c.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	EXPECT_EQ(0, shared);
	close(dmabuf);
	close(c.fd);
}

/*
 * A mapping of @size bytes of @fd at @off, checked against @ref (another
 * mapping of the same bytes) after each way of cutting or moving it.
 */
static void check_mapping_geometry(struct __test_metadata *_metadata, int fd, off_t off,
				   size_t size, size_t skip, const uint8_t *ref)
{
	size_t pages = size / PG;
	uint8_t *m, *moved, orig_moved, orig_mid;
	pid_t pid;
	int status;

	/* munmap() of the first pages: the rest shows the same bytes. */
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, munmap(m, skip + 4 * PG));
	EXPECT_EQ(0, memcmp(m + skip + 4 * PG, ref + skip + 4 * PG, size - skip - 4 * PG));
	munmap(m + skip + 4 * PG, size - skip - 4 * PG);

	/* mprotect() of a middle part splits the mapping in three. */
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	ASSERT_NE(MAP_FAILED, m);
	ASSERT_EQ(0, mprotect(m + skip + 2 * PG, 2 * PG, PROT_READ));
	EXPECT_EQ(0, memcmp(m + skip, ref + skip, size - skip));

	/* mremap() of the last four pages elsewhere. */
	moved = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, moved);
	ASSERT_EQ(moved, mremap(m + (pages - 4) * PG, 4 * PG, 4 * PG,
				MREMAP_MAYMOVE | MREMAP_FIXED, moved));
	EXPECT_EQ(0, memcmp(moved, ref + (pages - 4) * PG, 4 * PG));
	/* Growing a mapping of the object is refused. */
	EXPECT_EQ(MAP_FAILED, mremap(moved, 4 * PG, 8 * PG, MREMAP_MAYMOVE));

	/* fork(): the child's writes land in the same pages. */
	orig_moved = ref[(pages - 4) * PG];
	orig_mid = ref[size - 5 * PG];
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		moved[0] ^= 0xff;
		m[size - 5 * PG] ^= 0xff;
		_exit(memcmp(m + skip, ref + skip, size - skip - 4 * PG) ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ((uint8_t)(orig_moved ^ 0xff), moved[0]);
	EXPECT_EQ((uint8_t)(orig_moved ^ 0xff), ref[(pages - 4) * PG]);
	EXPECT_EQ((uint8_t)(orig_mid ^ 0xff), m[size - 5 * PG]);
	EXPECT_EQ((uint8_t)(orig_mid ^ 0xff), ref[size - 5 * PG]);
	moved[0] ^= 0xff;
	m[size - 5 * PG] ^= 0xff;
	munmap(moved, 4 * PG);
	munmap(m, size - 4 * PG);
}

TEST_F(sec, buffer_object_mappings_survive_split_mremap_and_fork)
{
	uint32_t h = filled_bo(_metadata, self->fd, 16, 2);
	int64_t off = mmap_offset(self->fd, h);
	uint8_t *ref;

	ASSERT_LE(0, off);
	ref = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, off);
	ASSERT_NE(MAP_FAILED, ref);
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));
	check_mapping_geometry(_metadata, self->fd, off, 16 * PG, 0, ref);
	/* Page 4 is BO page 4, not page 0, after the first 4 went. */
	EXPECT_TRUE(zex_same(ref, 16 * PG, 2));
	munmap(ref, 16 * PG);
}

TEST_F(sec, dma_buf_mappings_survive_split_mremap_and_fork)
{
	uint32_t h = filled_bo(_metadata, self->fd, 16, 3);
	uint8_t *ref, *at4;
	int dmabuf;

	ASSERT_EQ(1, export_flags(self->fd, h, DRM_CLOEXEC | DRM_RDWR, &dmabuf, 1));
	ref = mmap(NULL, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	ASSERT_NE(MAP_FAILED, ref);
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));
	check_mapping_geometry(_metadata, dmabuf, 0, 16 * PG, 0, ref);
	/* A mapping at a page offset shows the piece from that page on. */
	at4 = mmap(NULL, 8 * PG, PROT_READ, MAP_SHARED, dmabuf, 4 * PG);
	ASSERT_NE(MAP_FAILED, at4);
	EXPECT_EQ(0, memcmp(at4, ref + 4 * PG, 8 * PG));
	munmap(at4, 8 * PG);
	EXPECT_TRUE(zex_same(ref, 16 * PG, 3));
	munmap(ref, 16 * PG);
	close(dmabuf);
}

TEST_F(sec, hostrpc_view_mappings_survive_split_mremap_and_fork)
{
	struct drm_zex_hostrpc_create c;
	uint8_t *ref;

	ASSERT_EQ(0, hr_create(self->fd, 16, &c));
	ref = mmap(NULL, c.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	ASSERT_NE(MAP_FAILED, ref);
	zex_fill(ref + DRM_ZEX_HOSTRPC_SLOTS_OFFSET, 16 * PG, 4);
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));
	/* Cut past the control page and private words: slots stay in place. */
	check_mapping_geometry(_metadata, c.fd, 0, c.map_size,
			       DRM_ZEX_HOSTRPC_SLOTS_OFFSET, ref);
	EXPECT_TRUE(zex_same(ref + DRM_ZEX_HOSTRPC_SLOTS_OFFSET, 16 * PG, 4));
	munmap(ref, c.map_size);
	close(c.fd);
}

/* A dma-buf exported without DRM_RDWR gives read-only access every way. */
TEST_F(sec, read_only_exports_stay_read_only)
{
	uint32_t h = filled_bo(_metadata, self->fd, 16, 5), ro, self_ro, scratch, id;
	struct drm_zex_copy cp = { .len = PG };
	int other, dmabuf, again;
	int64_t off;
	uint8_t *p;

	ASSERT_EQ(1, export_flags(self->fd, h, DRM_CLOEXEC, &dmabuf, 1));
	other = zex_open_render();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));

	/* The dma-buf itself: a read-only file. */
	EXPECT_EQ(EACCES, mmap_errno(dmabuf, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0));

	/* Imported by another file: mmap. */
	ASSERT_EQ(0, raw_bo_import(other, &dmabuf, 1, 0, &ro, NULL));
	off = mmap_offset(other, ro);
	ASSERT_LE(0, off);
	EXPECT_EQ(EACCES, mmap_errno(other, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, off));
	p = mmap(NULL, 16 * PG, PROT_READ, MAP_SHARED, other, off);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_TRUE(zex_same(p, 16 * PG, 5));
	EXPECT_EQ(-1, mprotect(p, 16 * PG, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	munmap(p, 16 * PG);

	/* Bind: read-only only; copy: never into it. */
	EXPECT_EQ(-EACCES, bind_bo(other, ro, BIND_VA, 0, NULL));
	ASSERT_EQ(0, bind_bo(other, ro, BIND_VA, DRM_ZEX_VM_BIND_READ_ONLY, &id));
	ASSERT_EQ(0, raw_bo_create(other, 16 * PG, 0, &scratch, NULL));
	ASSERT_EQ(0, bind_bo(other, scratch, BIND_VA + 64 * PG, 0, NULL));
	cp.src = BIND_VA;
	cp.dst = BIND_VA + 64 * PG;
	EXPECT_EQ(0, zex_ioctl(other, DRM_IOCTL_ZEX_COPY, &cp));
	cp.src = BIND_VA + 64 * PG;
	cp.dst = BIND_VA;
	EXPECT_EQ(-EFAULT, zex_ioctl(other, DRM_IOCTL_ZEX_COPY, &cp));
	EXPECT_EQ(DRM_ZEX_FAULT_READ_ONLY, cp.fault_reason);

	/* Export again: read-only only. */
	EXPECT_EQ(-EACCES, export_flags(other, ro, DRM_CLOEXEC | DRM_RDWR, &again, 1));
	ASSERT_EQ(1, export_flags(other, ro, DRM_CLOEXEC, &again, 1));
	EXPECT_EQ(EACCES, mmap_errno(again, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED, 0));
	close(again);

	/* Imported back by the exporter: not its writable object. */
	ASSERT_EQ(0, raw_bo_import(self->fd, &dmabuf, 1, 0, &self_ro, NULL));
	EXPECT_NE(h, self_ro);
	off = mmap_offset(self->fd, self_ro);
	ASSERT_LE(0, off);
	EXPECT_EQ(EACCES, mmap_errno(self->fd, 16 * PG, PROT_READ | PROT_WRITE, MAP_SHARED,
				     off));
	/* ... while the exporter's own object stays writable. */
	p = raw_bo_map(self->fd, h, 16 * PG);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, 16 * PG);

	EXPECT_EQ(0, unbind(other, id));
	close(other);
	close(dmabuf);
}

/* vm_max_mappings bounds imports and binds of one file together. */
TEST_F_TIMEOUT(sec, mappings_per_file_are_bounded, 300)
{
	long long max = zex_param("vm_max_mappings");
	static uint8_t page[PG] __attribute__((aligned(PG)));
	struct drm_zex_userptr_import im = { .addr = (uintptr_t)page, .size = PG };
	uint32_t h, first = 0, id;
	long long i;
	int other;

	ASSERT_LT(0, max);
	ASSERT_EQ(0, raw_bo_create(self->fd, PG, 0, &h, NULL));
	other = zex_open_render();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));
	for (i = 0; i < max; i++) {
		ASSERT_EQ(0, bind_bo(self->fd, h, BIND_VA + i * PG, 0, &id)) TH_LOG("bind %lld", i);
		if (!i)
			first = id;
	}
	EXPECT_EQ(-ENOSPC, bind_bo(self->fd, h, BIND_VA + max * PG, 0, NULL));
	EXPECT_EQ(-ENOSPC, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	/* Another file has its own budget. */
	EXPECT_EQ(0, zex_ioctl(other, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	close(other);
	ASSERT_EQ(0, unbind(self->fd, first));
	EXPECT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
}

/*
 * A child that becomes @uid and creates hostrpc channels until refused,
 * then writes a byte to @ready and holds them until @hold is closed.
 * Returns how many it made, or a negative step that failed.
 */
static int channels_until_refused(int drm, uid_t uid, int ready, int hold)
{
	struct drm_zex_hostrpc_create c;
	int n = 0, ret;
	char byte;

	if (zex_become_user(uid))
		return -1;
	/* Each channel lives on in its mapping after its fd is closed. */
	while (!(ret = hr_create(drm, 1, &c))) {
		if (mmap(NULL, c.map_size, PROT_READ, MAP_SHARED, c.fd, 0) == MAP_FAILED)
			return -2;
		close(c.fd);
		if (++n > 100000)
			return -3;
	}
	if (ret != -ENOSPC)
		return -4;
	/* Still refused: the limit is not a passing failure. */
	if (hr_create(drm, 1, &c) != -ENOSPC)
		return -5;
	if (write(ready, "x", 1) != 1)
		return -6;
	(void)!read(hold, &byte, 1);
	return n;
}

/* Fork a child running channels_until_refused() as @uid; *ready gets its pipe. */
static pid_t spawn_channel_user(int drm, uid_t uid, const int hold[2], int *ready)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		close(hold[1]);
		_exit(channels_until_refused(drm, uid, p[1], hold[0]));
	}
	close(p[1]);
	*ready = p[0];
	return pid;
}

/* hostrpc_max_channels bounds the live channels of one user. */
TEST_F(sec, hostrpc_channels_per_user_are_bounded)
{
	long long max = zex_param("hostrpc_max_channels");
	long long live = zex_sysfs_u64(LIVE_CHANNELS);
	int ready_a, ready_b, hold[2];
	pid_t a, b;
	char byte;

	ASSERT_LT(0, max);
	ASSERT_GE(120, max) TH_LOG("the test counts channels in an exit status");
	ASSERT_EQ(0, pipe(hold));
	a = spawn_channel_user(self->fd, ZEX_NOBODY, hold, &ready_a);
	ASSERT_LT(0, a);
	EXPECT_EQ(1, read(ready_a, &byte, 1));
	EXPECT_EQ(live + max, zex_sysfs_u64(LIVE_CHANNELS));
	/* A second user, while the first holds its whole budget. */
	b = spawn_channel_user(self->fd, ZEX_NOBODY - 1, hold, &ready_b);
	ASSERT_LT(0, b);
	EXPECT_EQ(1, read(ready_b, &byte, 1));
	EXPECT_EQ(live + 2 * max, zex_sysfs_u64(LIVE_CHANNELS));
	close(hold[1]);
	EXPECT_EQ(max, child_result(a));
	EXPECT_EQ(max, child_result(b));
	close(hold[0]);
	close(ready_a);
	close(ready_b);
	/* Every channel went with its mappings. */
	EXPECT_EQ(live, zex_sysfs_u64(LIVE_CHANNELS));
}

/*
 * Kernel memory of channels, binds and imports is charged to the caller's
 * memory cgroup; at its limit each fails with -ENOMEM, and nothing else is
 * affected.
 */
TEST_F(sec, allocations_are_charged_to_the_memory_cgroup)
{
	char dir[128], limit[32];
	struct drm_zex_hostrpc_create c;
	long long before, after;
	uint32_t big, id;
	pid_t pid;
	int adj;

	ASSERT_EQ(0, cg_create(dir, sizeof(dir), "security")) TH_LOG("no memory controller");
	/* A 16 MiB object whose pages the bind below must allocate. */
	ASSERT_EQ(0, raw_bo_create(self->fd, 16 << 20, 0, &big, NULL));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int ok = 1;

		/* At the limit the charge fails; there is no one to kill. */
		adj = open("/proc/self/oom_score_adj", O_WRONLY);
		ok &= adj >= 0 && write(adj, "-1000", 5) == 5;
		ok &= !cg_join(dir);
		before = cg_read(dir, "memory.current");
		ok &= !hr_create(self->fd, 2048, &c);
		after = cg_read(dir, "memory.current");
		/* 2048 slot pages, 8 MiB, are charged here. */
		ok &= after - before >= 2048 * (long long)PG;
		close(c.fd);
		if (!ok)
			_exit(1);

		snprintf(limit, sizeof(limit), "%lld", cg_read(dir, "memory.current") + (1 << 20));
		ok &= !cg_write(dir, "memory.max", limit);
		ok &= hr_create(self->fd, 2048, &c) == -ENOMEM;
		ok &= bind_bo(self->fd, big, BIND_VA, 0, &id) == -ENOMEM;
		ok &= !cg_write(dir, "memory.max", "max");
		/* Past the limit, all works again. */
		ok &= !hr_create(self->fd, 2048, &c);
		close(c.fd);
		ok &= !bind_bo(self->fd, big, BIND_VA, 0, &id);
		ok &= !unbind(self->fd, id);
		_exit(ok ? 0 : 2);
	}
	EXPECT_EQ(0, child_result(pid));
	/* The rest of the system never noticed. */
	EXPECT_EQ(0, hr_create(self->fd, 2048, &c));
	close(c.fd);
	EXPECT_EQ(0, raw_bo_close(self->fd, big));
	EXPECT_EQ(0, rmdir(dir));
}

/*
 * The child of exec_limits_hold_for_an_unprivileged_user, as @uid in
 * cgroup @dir: 0 when every bound held and the jobs were charged, else
 * the number of the check that failed.
 */
static int exec_as_user(int fd, uid_t uid, const char *dir)
{
	long long max_queues = zex_param("exec_max_queues");
	long long max_jobs = zex_param("exec_max_jobs");
	static struct drm_zex_command big[DRM_ZEX_EXEC_MAX_COMMANDS + 1];
	struct drm_zex_command hold;
	long long before, after, i;
	uint32_t q, id = 0;
	uint64_t *mem;
	int ret;

	if (cg_join(dir) || zex_become_user(uid))
		return 1;
	mem = dev_alloc(fd, PG, NULL);
	if (!mem || queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q))
		return 2;
	for (i = 1; i < max_queues; i++)
		if (queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id))
			return 3;
	if (queue_create(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id) != -EMFILE)
		return 4;
	for (i = 0; i <= DRM_ZEX_EXEC_MAX_COMMANDS; i++)
		big[i] = cmd_store(&mem[2], (uint64_t)i);
	if (exec(fd, q, big, DRM_ZEX_EXEC_MAX_COMMANDS + 1, NULL, 0) != -EINVAL)
		return 5;
	/* The engine held by a job that waits for mem[1]; the rest queue up. */
	hold = cmd_wait(&mem[1], DRM_ZEX_COMPARE_EQ, 1);
	if (exec(fd, q, &hold, 1, NULL, 0))
		return 6;
	before = cg_read(dir, "memory.current");
	for (i = 1; i < max_jobs; i++)
		if (exec(fd, q, big, DRM_ZEX_EXEC_MAX_COMMANDS, NULL, 0))
			return 7;
	after = cg_read(dir, "memory.current");
	if (exec(fd, q, big, 1, NULL, 0) != -EBUSY)
		return 8;
	/* Each job's commands, 32 KiB, were charged here (less a charge batch). */
	if (after - before < (max_jobs - 1) * (long long)sizeof(big[0]) *
			     DRM_ZEX_EXEC_MAX_COMMANDS - (512 << 10))
		return 9;
	mem[1] = 1;
	ret = wait_ufence(fd, &mem[2], DRM_ZEX_COMPARE_EQ, DRM_ZEX_EXEC_MAX_COMMANDS - 1, -1,
			  NULL);
	return ret ? 10 : 0;
}

/*
 * An unprivileged user meets the exec bounds (queues per file, commands
 * per job, jobs in flight per queue) and pays for its jobs' memory.
 */
TEST_F(sec, exec_limits_hold_for_an_unprivileged_user)
{
	char dir[128];
	pid_t pid;

	ASSERT_LE(32, zex_param("exec_max_jobs")) TH_LOG("too few jobs to see their charge");
	ASSERT_EQ(0, cg_create(dir, sizeof(dir), "exec")) TH_LOG("no memory controller");
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(exec_as_user(self->fd, ZEX_NOBODY, dir));
	EXPECT_EQ(0, child_result(pid));
	EXPECT_EQ(0, rmdir(dir));
}

/*
 * A 1 GiB copy with misaligned ends, killed while it runs, stops: the
 * destination never receives the last source chunk. The source is one
 * object bound 255 times and a second one bound last; the destination is
 * one object bound 256 times, so it ends up holding the second source
 * object's bytes only if the copy ran to its end.
 */
TEST_F(sec, a_killed_copy_stops)
{
	const size_t chunk = 4 << 20;
	const unsigned int binds = 1024 / 4;
	uint32_t a = filled_bo(_metadata, self->fd, chunk / PG, 6);
	uint32_t b = filled_bo(_metadata, self->fd, chunk / PG, 7);
	uint32_t d, i;
	struct drm_zex_copy check = { 0 };
	uint8_t *dst, *ref_a, *ref_b;
	int attempt, stopped = 0;

	ASSERT_EQ(0, raw_bo_create(self->fd, chunk, 0, &d, NULL));
	for (i = 0; i < binds; i++) {
		ASSERT_EQ(0, bind_bo(self->fd, i + 1 < binds ? a : b,
				     BIND_VA + (uint64_t)i * chunk, DRM_ZEX_VM_BIND_READ_ONLY, NULL));
		ASSERT_EQ(0, bind_bo(self->fd, d, 2 * BIND_VA + (uint64_t)i * chunk, 0, NULL));
	}
	dst = raw_bo_map(self->fd, d, chunk);
	ref_a = raw_bo_map(self->fd, a, chunk);
	ref_b = raw_bo_map(self->fd, b, chunk);
	ASSERT_NE(MAP_FAILED, dst);
	ASSERT_NE(MAP_FAILED, ref_a);
	ASSERT_NE(MAP_FAILED, ref_b);

	/* The binds work: the last chunk's copy, the way the long one goes. */
	check.src = BIND_VA + (uint64_t)(binds - 1) * chunk + 1;
	check.dst = 2 * BIND_VA + 3;
	check.len = 2 * PG;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_COPY, &check));
	EXPECT_EQ(0, memcmp(dst + PG + 2, ref_b + PG, 8));

	for (attempt = 0; attempt < 20 && !stopped; attempt++) {
		int sync[2], sc;
		char go;
		pid_t pid;

		memset(dst, 0, chunk);
		ASSERT_EQ(0, pipe(sync));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			struct drm_zex_copy cp = {
				.src = BIND_VA + 1, .dst = 2 * BIND_VA + 3,
				.len = (uint64_t)binds * chunk - PG,
			};

			if (zex_become_user(ZEX_NOBODY))
				_exit(1);
			(void)!write(sync[1], "x", 1);
			ioctl(self->fd, DRM_IOCTL_ZEX_COPY, &cp);
			_exit(0);
		}
		ASSERT_EQ(1, read(sync[0], &go, 1));
		/* Wait until the copy has written the first chunk's page 1. */
		while (memcmp(dst + PG + 2, ref_a + PG, 8) &&
		       memcmp(dst + PG + 2, ref_b + PG, 8) && !waitpid(pid, &sc, WNOHANG))
			sched_yield();
		if (memcmp(dst + PG + 2, ref_a + PG, 8)) {
			/* It ended, or ran through, before we looked: again. */
			kill(pid, SIGKILL);
			waitpid(pid, &sc, 0);
			close(sync[0]);
			close(sync[1]);
			continue;
		}
		ASSERT_EQ(0, kill(pid, SIGKILL));
		ASSERT_EQ(pid, waitpid(pid, &sc, 0));
		EXPECT_TRUE(WIFSIGNALED(sc));
		close(sync[0]);
		close(sync[1]);
		/* dst[o] = src chunk j [o - 2]; look at o = 4 KiB + 2. */
		EXPECT_NE(0, memcmp(dst + PG + 2, ref_b + PG, 8))
			TH_LOG("attempt %d: the copy ran to its end after SIGKILL", attempt);
		stopped = 1;
	}
	EXPECT_TRUE(stopped);
	munmap(dst, chunk);
	munmap(ref_a, chunk);
	munmap(ref_b, chunk);
}

/*
 * HOSTRPC_CREATE with arguments the kernel can read but not write back: it
 * fails with -EFAULT and leaves no descriptor and no channel.
 */
TEST_F(sec, hostrpc_create_with_a_faulting_copy_out_leaks_nothing)
{
	struct drm_zex_hostrpc_create *args;
	int next;

	args = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, args);
	args->nslots = 4;
	ASSERT_EQ(0, mprotect(args, PG, PROT_READ));
	ASSERT_EQ(0, zex_become_user(ZEX_NOBODY));
	/* The lowest free descriptor, which a leaked one would take. */
	next = dup(0);
	ASSERT_LE(0, next);
	close(next);
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_HOSTRPC_CREATE, args));
	EXPECT_EQ(next, dup(0));
	munmap(args, PG);
}

ZEX_SELFTEST_MAIN
