// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_unplug_test.c - kselftest of unload and unplug with users
 *
 * rmmod is refused, not fatal, while a file, a mapping or a job's fence
 * (in a sync_file) holds the module, and possible once the last goes.
 * Unbinding the GPU (or losing one of its tiles) while a file is open
 * unplugs the DRM device: ioctls on the old file fail with -ENODEV, its
 * jobs end with -ENODEV and their waiters wake, an existing mapping keeps
 * its contents until unmapped, closing works, and rebinding brings up a
 * fresh, working device. Launches of long-running queues end as well,
 * their records told to stop, their compute side woken. Every test leaves the device
 * bound, so this file runs last but needs nothing after it.
 */

#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "zex_exec.h"

#define ZEX_PLATFORM_DRIVER	"/sys/bus/platform/drivers/zex"
#define ZEX_TILE_DRIVER		"/sys/bus/auxiliary/drivers/zex.tile"

static int try_rmmod_zex(void)
{
	return syscall(__NR_delete_module, "zex", O_NONBLOCK) ? -errno : 0;
}

static uint32_t *map_new_bo(int fd, size_t size, uint32_t *handle)
{
	struct drm_zex_bo_create c = { .size = size, .placement = 0 };
	struct drm_zex_bo_mmap_offset m = { 0 };
	void *p;

	if (zex_ioctl(fd, DRM_IOCTL_ZEX_BO_CREATE, &c))
		return NULL;
	m.handle = c.handle;
	if (zex_ioctl(fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	*handle = c.handle;
	return p == MAP_FAILED ? NULL : p;
}

static int query_device(int fd)
{
	struct drm_zex_query_device dev;
	struct drm_zex_query q = {
		.query = DRM_ZEX_QUERY_DEVICE,
		.size = sizeof(dev),
		.data = (uintptr_t)&dev,
	};

	return zex_ioctl(fd, DRM_IOCTL_ZEX_QUERY, &q);
}

/* Rebind the GPU if a test left it unbound, and check it works again. */
static int rebind_gpu(void)
{
	int fd, ret;

	if (access(ZEX_PLATFORM_DRIVER "/zex", F_OK) == 0)
		zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex");
	ret = zex_sysfs_write(ZEX_PLATFORM_DRIVER "/bind", "zex");
	if (ret)
		return ret;
	fd = zex_open_render();
	if (fd < 0)
		return -ENODEV;
	ret = query_device(fd);
	close(fd);
	return ret;
}

TEST(rmmod_is_refused_while_a_file_is_open)
{
	int fd = zex_open_render();

	ASSERT_LE(0, fd);
	EXPECT_EQ(-EWOULDBLOCK, try_rmmod_zex());
	EXPECT_EQ(0, query_device(fd));
	close(fd);
}

TEST(rmmod_is_refused_while_a_mapping_lives)
{
	int fd = zex_open_render();
	uint32_t handle, *p;

	ASSERT_LE(0, fd);
	p = map_new_bo(fd, 8192, &handle);
	ASSERT_NE(NULL, p);
	p[0] = 0xc0ffee;
	close(fd);
	EXPECT_EQ(-EWOULDBLOCK, try_rmmod_zex());
	EXPECT_EQ(0xc0ffee, p[0]);
	EXPECT_EQ(0, munmap(p, 8192));
	EXPECT_EQ(0, zex_tile_attr(0, "mem_used"));
}

/* A job's fence in a sync_file holds the module after its file is closed. */
TEST(rmmod_is_refused_while_a_job_fence_lives)
{
	int fd = zex_open_render();
	struct drm_zex_command c;
	struct drm_zex_sync s;
	uint32_t q, out;
	uint64_t *mem;
	int sf;

	ASSERT_LE(0, fd);
	mem = dev_alloc(fd, 4096, NULL);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q));
	ASSERT_EQ(0, syncobj_create(fd, &out));
	c = cmd_store(&mem[0], 7);
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(fd, q, &c, 1, &s, 1));
	ASSERT_EQ(0, syncobj_wait(fd, out, 0, -1));
	sf = syncobj_to_sync_file(fd, out);
	ASSERT_LE(0, sf);
	close(fd);
	EXPECT_EQ(7, mem[0]);
	/* The queue, the job and the file go; the fence stays, and holds the module. */
	EXPECT_EQ(1, zex_module_refs_drop_to(1));
	EXPECT_EQ(-EWOULDBLOCK, try_rmmod_zex());
	EXPECT_EQ(1, sync_file_status(sf));
	close(sf);
	EXPECT_EQ(0, zex_module_refs_drop_to(0));
	munmap(mem, 4096);
}

/*
 * Unbinding with a job running (a wait that never comes true), one queued
 * behind it on its queue, one on another queue waiting for the first (a
 * dependency), and a process asleep in the user fence wait: the jobs end
 * with -ENODEV, the sleeper wakes with -ENODEV, a job that ended before
 * stays signalled, and nothing ran late. (Jobs of two queues on one
 * engine may run in either order, so the job behind is on the same queue.)
 */
TEST(unbind_with_jobs_in_flight)
{
	int fd = zex_open_render();
	struct drm_zex_command never[] = { { 0 }, { 0 } }, late, later, early;
	struct drm_zex_sync s, deps[2];
	uint32_t q1, q2, done, run, queued, waiting;
	struct pollfd p[3] = { { .events = POLLIN }, { .events = POLLIN }, { .events = POLLIN } };
	int sf_done, sf_run, sf_queued, sf_waiting, status;
	uint64_t *mem;
	pid_t pid;

	ASSERT_LE(0, fd);
	mem = dev_alloc(fd, 4096, NULL);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q1));
	ASSERT_EQ(0, queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q2));
	ASSERT_EQ(0, syncobj_create(fd, &done));
	ASSERT_EQ(0, syncobj_create(fd, &run));
	ASSERT_EQ(0, syncobj_create(fd, &queued));
	ASSERT_EQ(0, syncobj_create(fd, &waiting));
	early = cmd_store(&mem[0], 1);
	s = sync_out(done, 0);
	ASSERT_EQ(0, exec(fd, q1, &early, 1, &s, 1));
	ASSERT_EQ(0, syncobj_wait(fd, done, 0, -1));
	never[0] = cmd_wait(&mem[1], DRM_ZEX_COMPARE_EQ, 1);
	never[1] = cmd_store(&mem[2], 2);
	s = sync_out(run, 0);
	ASSERT_EQ(0, exec(fd, q1, never, 2, &s, 1));
	late = cmd_store(&mem[3], 3);
	s = sync_out(queued, 0);
	ASSERT_EQ(0, exec(fd, q1, &late, 1, &s, 1));
	later = cmd_store(&mem[5], 5);
	deps[0] = sync_in(run, 0);
	deps[1] = sync_out(waiting, 0);
	ASSERT_EQ(0, exec(fd, q2, &later, 1, deps, 2));
	sf_done = syncobj_to_sync_file(fd, done);
	sf_run = syncobj_to_sync_file(fd, run);
	sf_queued = syncobj_to_sync_file(fd, queued);
	sf_waiting = syncobj_to_sync_file(fd, waiting);
	ASSERT_LE(0, sf_done);
	ASSERT_LE(0, sf_run);
	ASSERT_LE(0, sf_queued);
	ASSERT_LE(0, sf_waiting);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(wait_ufence(fd, &mem[4], DRM_ZEX_COMPARE_EQ, 1, -1, NULL) == -ENODEV ? 0 : 1);

	ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
	/* Each wakes (not necessarily together). */
	p[0].fd = sf_run;
	p[1].fd = sf_queued;
	p[2].fd = sf_waiting;
	EXPECT_EQ(1, poll(&p[0], 1, -1));
	EXPECT_EQ(1, poll(&p[1], 1, -1));
	EXPECT_EQ(1, poll(&p[2], 1, -1));
	EXPECT_EQ(-ENODEV, sync_file_status(sf_run));
	EXPECT_EQ(-ENODEV, sync_file_status(sf_queued));
	EXPECT_EQ(-ENODEV, sync_file_status(sf_waiting));
	EXPECT_EQ(1, sync_file_status(sf_done));
	close(sf_run);
	close(sf_queued);
	close(sf_waiting);
	close(sf_done);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(-ENODEV, exec(fd, q1, &early, 1, NULL, 0));
	/* Nothing ran after the unplug, even once the wait comes true. */
	mem[1] = 1;
	EXPECT_EQ(0, mem[2]);
	EXPECT_EQ(0, mem[3]);
	EXPECT_EQ(0, mem[5]);
	EXPECT_EQ(0, close(fd));
	munmap(mem, 4096);

	ASSERT_EQ(0, rebind_gpu());
}

/*
 * Unbinding with launches published on a long-running queue of a tile and
 * (under implicit scaling) of the root device, jobs queued behind them, and
 * a compute side asleep on the next launch: the sleeper wakes with an
 * error, nothing after the launches runs, and once the file is closed
 * everything goes, each record having been told to stop.
 */
TEST(unbind_with_launches_pending)
{
	int fd = zex_open_render();
	struct drm_zex_launch_record *rec;
	struct drm_zex_command cmds[2];
	uint32_t q[2], nq = 0, i;
	long long refs;
	uint64_t *mem;
	int status;
	pid_t pid;

	ASSERT_LE(0, fd);
	refs = zex_sysfs_u64("/sys/module/zex/refcnt");
	mem = dev_alloc(fd, 4096, NULL);
	ASSERT_NE(NULL, mem);
	rec = (struct drm_zex_launch_record *)&mem[64];
	for (i = 0; i < 2; i++) {
		struct drm_zex_exec_queue_create c = {
			.engine_class = DRM_ZEX_ENGINE_CLASS_COMPUTE,
			.device = i ? DRM_ZEX_DEVICE_ROOT : 0,
			.flags = DRM_ZEX_EXEC_QUEUE_LONG_RUNNING,
		};
		struct drm_zex_wait_user_fence w = {
			.op = DRM_ZEX_COMPARE_EQ, .value = 1, .mask = ~0ull, .timeout = -1,
		};

		if (i && !zex_implicit_scaling())
			break;
		ASSERT_EQ(0, zex_ioctl(fd, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c));
		q[nq++] = c.exec_queue_id;
		cmds[0] = (struct drm_zex_command){ .op = DRM_ZEX_CMD_LAUNCH,
						    .dst = VA(&rec[i]) };
		cmds[1] = cmd_store(&mem[i], 1);
		ASSERT_EQ(0, exec(fd, c.exec_queue_id, cmds, 2, NULL, 0));
		ASSERT_EQ(0, exec(fd, c.exec_queue_id, cmds, 2, NULL, 0));
		w.addr = VA(&rec[i].seqno);
		ASSERT_EQ(0, zex_ioctl(fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct drm_zex_wait_user_fence w = {
			.addr = VA(&rec[0].seqno), .op = DRM_ZEX_COMPARE_EQ, .value = 2,
			.mask = ~0ull, .timeout = -1, .flags = DRM_ZEX_WAIT_EXEC_QUEUE,
			.exec_queue_id = q[0],
		};
		int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w);

		_exit(ret == -EIO || ret == -ENODEV ? 0 : 1);
	}
	ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_EQ(-ENODEV, exec(fd, q[0], cmds, 2, NULL, 0));
	EXPECT_EQ(0, close(fd));
	EXPECT_GE(refs - 1, zex_module_refs_drop_to(refs - 1));
	for (i = 0; i < nq; i++) {
		EXPECT_EQ(DRM_ZEX_LAUNCH_STOP, rec[i].state);
		EXPECT_EQ(1, rec[i].seqno);
		EXPECT_EQ(0, mem[i]);
	}
	munmap(mem, 4096);
	ASSERT_EQ(0, rebind_gpu());
}

TEST(unbind_with_open_file_and_mapping)
{
	int fd = zex_open_render();
	uint32_t handle, *p;
	struct drm_zex_bo_create c = { .size = 4096 };
	struct drm_gem_close gc = { 0 };
	size_t i;
	bool intact = true;

	ASSERT_LE(0, fd);
	p = map_new_bo(fd, 65536, &handle);
	ASSERT_NE(NULL, p);
	for (i = 0; i < 65536 / 4; i++)
		p[i] = (uint32_t)i;

	ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
	EXPECT_EQ(-ENODEV, query_device(fd));
	EXPECT_EQ(-ENODEV, zex_ioctl(fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	gc.handle = handle;
	EXPECT_EQ(-ENODEV, zex_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc));
	/* No new file can reach the unplugged device. */
	EXPECT_GT(0, zex_open_render());

	/* The mapping still holds the data; writes still land. */
	for (i = 0; i < 65536 / 4; i++)
		intact &= p[i] == (uint32_t)i;
	EXPECT_TRUE(intact);
	p[7] = 77;
	EXPECT_EQ(77, p[7]);
	EXPECT_EQ(0, munmap(p, 65536));
	EXPECT_EQ(0, close(fd));

	ASSERT_EQ(0, rebind_gpu());
}

TEST(losing_a_tile_unplugs_the_device)
{
	unsigned int last = (unsigned int)zex_param("tiles") - 1;
	char name[32];
	int fd = zex_open_render();

	ASSERT_LE(0, fd);
	snprintf(name, sizeof(name), "zex.tile.%u", last);
	ASSERT_EQ(0, zex_sysfs_write(ZEX_TILE_DRIVER "/unbind", name));
	EXPECT_EQ(-ENODEV, query_device(fd));
	/* The tile's attributes went with its driver. */
	EXPECT_EQ(-1, zex_tile_attr(last, "mem_size"));
	close(fd);

	ASSERT_EQ(0, rebind_gpu());
	EXPECT_LT(0, zex_tile_attr(last, "mem_size"));
}

TEST(a_piece_of_an_unplugged_device_is_exdev)
{
	int fd = zex_open_render(), piece, n;
	uint32_t h;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, raw_bo_create(fd, 8192, 0, &h, NULL));
	n = raw_bo_export(fd, h, &piece, 1);
	ASSERT_EQ(1, n);
	close(fd);
	ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
	ASSERT_EQ(0, rebind_gpu());

	/* The new device's memory does not contain the old device's piece. */
	fd = zex_open_render();
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EXDEV, raw_bo_import(fd, &piece, 1, 0, &h, NULL));
	close(fd);
	close(piece);
}

struct waiter {
	int fd;
	int ret;
};

/* A device-side waiter for an answer that never comes. */
static void *wait_forever(void *arg)
{
	struct waiter *w = arg;
	struct drm_zex_hostrpc_wait wt = {
		.slot = 0, .value = 0, .timeout_ns = DRM_ZEX_HOSTRPC_WAIT_FOREVER,
	};

	w->ret = ioctl(w->fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &wt) ? -errno : 0;
	return NULL;
}

/*
 * After an unplug, the hostrpc views fail every request with -ENODEV, as
 * the DRM file does: a sleeping waiter wakes, rings, waits, reads, new
 * views and new mappings are refused, poll() reports an error; existing
 * mappings keep the channel's memory.
 */
TEST(hostrpc_views_fail_with_enodev_after_unplug)
{
	struct drm_zex_hostrpc_create c = { .nslots = 4, .flags = DRM_ZEX_HOSTRPC_CLOEXEC };
	struct drm_zex_hostrpc_open_view o = { .role = DRM_ZEX_HOSTRPC_ROLE_DEVICE };
	struct drm_zex_hostrpc_create again = { 0 };
	struct drm_zex_hostrpc_info info;
	struct waiter w;
	struct pollfd pfd;
	pthread_t thread;
	uint64_t rings;
	int fd = zex_open_render();
	volatile struct drm_zex_hostrpc_control *ctl;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, zex_ioctl(fd, DRM_IOCTL_ZEX_HOSTRPC_CREATE, &c));
	ASSERT_EQ(0, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o));
	ctl = mmap(NULL, c.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	ASSERT_NE(MAP_FAILED, ctl);
	w.fd = o.fd;
	ASSERT_EQ(0, pthread_create(&thread, NULL, wait_forever, &w));

	ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
	/* The unplug woke the waiter (or refused its wait). */
	ASSERT_EQ(0, pthread_join(thread, NULL));
	EXPECT_EQ(-ENODEV, w.ret);
	EXPECT_EQ(-ENODEV, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL));
	EXPECT_EQ(-ENODEV, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL));
	EXPECT_EQ(-ENODEV, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	o.role = DRM_ZEX_HOSTRPC_ROLE_DEVICE;
	EXPECT_EQ(-ENODEV, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o));
	EXPECT_EQ(-1, read(c.fd, &rings, sizeof(rings)));
	EXPECT_EQ(ENODEV, errno);
	pfd = (struct pollfd){ .fd = c.fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLERR | POLLHUP, pfd.revents & (POLLERR | POLLHUP));
	EXPECT_EQ(MAP_FAILED, mmap(NULL, c.map_size, PROT_READ, MAP_SHARED, c.fd, 0));
	EXPECT_EQ(ENODEV, errno);
	/* No new channel either, and the old mapping is the channel's memory. */
	again.nslots = 4;
	EXPECT_EQ(-ENODEV, zex_ioctl(fd, DRM_IOCTL_ZEX_HOSTRPC_CREATE, &again));
	EXPECT_EQ(DRM_ZEX_HOSTRPC_MAGIC, ctl->magic);

	munmap((void *)ctl, c.map_size);
	close(w.fd);
	close(c.fd);
	close(fd);
	ASSERT_EQ(0, rebind_gpu());
}

TEST(rebind_cycles)
{
	int i;

	for (i = 0; i < 3; i++) {
		int fd = zex_open_render();

		ASSERT_LE(0, fd);
		EXPECT_EQ(0, query_device(fd));
		close(fd);
		ASSERT_EQ(0, zex_sysfs_write(ZEX_PLATFORM_DRIVER "/unbind", "zex"));
		EXPECT_GT(0, zex_open_render());
		ASSERT_EQ(0, rebind_gpu());
	}
}

ZEX_SELFTEST_MAIN
