// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_exec_test.c - kselftest of exec queues, jobs, syncs and user fences
 *
 * What a runtime relies on: jobs of one queue run in order; a job waits
 * for the sync objects (binary, timeline points, imported sync_files, from
 * other queues and other processes) it names and signals those it names;
 * user fences are written when a job ends and the wait ioctl wakes on
 * them for every compare op, times out, is interrupted by a signal and
 * restarts; implicit sync orders two processes' jobs on a shared piece,
 * as dma-buf poll() and DMA_BUF_IOCTL_EXPORT_SYNC_FILE report, but not a
 * wait on a word and the store that ends it; a faulting
 * job and a job that outlives the timeout end with their errors, ban their
 * queue alone; a root-device queue's split copies give the bytes a tile
 * queue gives, for every colouring policy; a free engine runs the ready
 * job of the highest priority first, and high priority needs
 * CAP_SYS_NICE; the limits hold. Nothing waits
 * for a delay: a job is held back by a WAIT command on a flag the test
 * sets, and every assertion waits for the event it checks.
 */

#include <linux/dma-buf.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "zex_exec.h"

#define PAGE	4096u
#define FOREVER	(-1ll)

FIXTURE(exec) {
	int fd;
	uint32_t q;
	uint8_t *mem;	/* 64 pages, imported */
	uint64_t *flag;	/* the last page: flags and fences */
};

FIXTURE_SETUP(exec)
{
	self->fd = zex_open_render();
	if (self->fd < 0)
		SKIP(return, "no zex render node");
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &self->q));
	self->mem = dev_alloc(self->fd, 64 * PAGE, NULL);
	ASSERT_NE(NULL, self->mem);
	self->flag = (uint64_t *)(self->mem + 63 * PAGE);
}

FIXTURE_TEARDOWN(exec)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* Run one job on @q and wait for it through a user fence. */
static int run_job(int fd, uint32_t q, const struct drm_zex_command *cmds, uint32_t n,
		   uint64_t *fence)
{
	static uint64_t seq;
	struct drm_zex_sync s = sync_user_fence(fence, ++seq);
	int ret = exec(fd, q, cmds, n, &s, 1);

	if (ret)
		return ret;
	return wait_ufence(fd, fence, DRM_ZEX_COMPARE_EQ, seq, FOREVER, NULL);
}

TEST_F(exec, commands_run_in_order)
{
	uint8_t *a = self->mem, *b = self->mem + 8 * PAGE;
	uint64_t *ts = (uint64_t *)(self->mem + 16 * PAGE);
	const uint8_t pat[3] = { 1, 2, 3 };
	struct drm_zex_command cmds[] = {
		cmd_timestamp(&ts[0]),
		cmd_fill(a + 5, 3 * PAGE, pat, 3),
		cmd_copy(a + 5, b + 7, 3 * PAGE),
		cmd_store(&ts[2], 0x1122334455667788ull),
		cmd_timestamp(&ts[1]),
	};
	size_t i;

	ASSERT_EQ(0, run_job(self->fd, self->q, cmds, 5, &self->flag[0]));
	for (i = 0; i < 3 * PAGE; i++)
		ASSERT_EQ(pat[i % 3], b[7 + i]);
	EXPECT_EQ(0, b[6]);
	EXPECT_EQ(0, b[7 + 3 * PAGE]);
	EXPECT_EQ(0x1122334455667788ull, ts[2]);
	EXPECT_NE(0, ts[0]);
	EXPECT_LE(ts[0], ts[1]);
}

TEST_F(exec, jobs_of_one_queue_run_in_order)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command hold = cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1);
	struct drm_zex_command first[] = { hold, cmd_store(&v[0], 1) };
	struct drm_zex_command second = cmd_copy(&v[0], &v[1], 8);

	ASSERT_EQ(0, exec(self->fd, self->q, first, 2, NULL, 0));
	ASSERT_EQ(0, exec(self->fd, self->q, &second, 1, NULL, 0));
	self->flag[1] = 1;
	struct drm_zex_command noop = cmd_store(&v[2], 2);

	ASSERT_EQ(0, run_job(self->fd, self->q, &noop, 1, &self->flag[0]));
	EXPECT_EQ(1, v[1]);
}

TEST_F(exec, every_engine_runs_a_job)
{
	struct drm_zex_query q = { .query = DRM_ZEX_QUERY_ENGINES };
	struct drm_zex_query_engines *e;
	uint64_t *v = (uint64_t *)self->mem;
	uint32_t i;

	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	e = calloc(1, q.size);
	q.data = VA(e);
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q));
	for (i = 0; i < e->num_engines; i++) {
		struct drm_zex_command c = cmd_store(&v[i], 100 + i);
		uint32_t id = 0;

		ASSERT_EQ(0, queue_create(self->fd, e->engines[i].engine_class,
					  e->engines[i].engine_instance, e->engines[i].device, &id));
		ASSERT_EQ(0, run_job(self->fd, id, &c, 1, &self->flag[0]));
		EXPECT_EQ(100 + i, v[i]);
		EXPECT_EQ(0, queue_destroy(self->fd, id));
	}
	free(e);
}

TEST_F(exec, syncobjs_order_queues)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command first[] = {
		cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1), cmd_store(&v[0], 7),
	};
	struct drm_zex_command second = cmd_copy(&v[0], &v[1], 8);
	struct drm_zex_command third = cmd_copy(&v[1], &v[2], 8);
	uint32_t q2, bin, tl, done;
	struct drm_zex_sync s1[] = { { 0 }, { 0 } }, s2[2], s3[2];

	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 1, 0, &q2));
	ASSERT_EQ(0, syncobj_create(self->fd, &bin));
	ASSERT_EQ(0, syncobj_create(self->fd, &tl));
	ASSERT_EQ(0, syncobj_create(self->fd, &done));
	s1[0] = sync_out(bin, 0);
	s1[1] = sync_out(tl, 5);
	s2[0] = sync_in(bin, 0);
	s2[1] = sync_out(tl, 6);
	s3[0] = sync_in(tl, 6);
	s3[1] = sync_out(done, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, first, 2, s1, 2));
	ASSERT_EQ(0, exec(self->fd, q2, &second, 1, s2, 2));
	ASSERT_EQ(0, exec(self->fd, self->q, &third, 1, s3, 2));
	/* Held back by the first job's wait: nothing signalled. */
	EXPECT_EQ(-ETIME, syncobj_wait(self->fd, tl, 5, 0));
	EXPECT_EQ(0, syncobj_status(self->fd, done));
	self->flag[1] = 1;
	ASSERT_EQ(0, syncobj_wait(self->fd, done, 0, FOREVER));
	EXPECT_EQ(0, syncobj_wait(self->fd, tl, 6, 0));
	EXPECT_EQ(1, syncobj_status(self->fd, done));
	EXPECT_EQ(7, v[2]);
}

TEST_F(exec, sync_file_orders_two_processes)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command first[] = {
		cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1), cmd_store(&v[0], 9),
	};
	uint32_t out;
	struct drm_zex_sync s;
	int sf, pipefd[2], status;
	pid_t pid;
	char c;

	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, first, 2, &s, 1));
	sf = syncobj_to_sync_file(self->fd, out);
	ASSERT_LE(0, sf);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* Its own file and address space: the same shared pages, imported again. */
		int fd = zex_open_render();
		struct drm_zex_userptr_import imp = { .addr = VA(self->mem), .size = 64 * PAGE };
		struct drm_zex_command copy = cmd_copy(&v[0], &v[1], 8);
		struct drm_zex_sync cs[2];
		uint32_t q, in, done;

		if (fd < 0 || zex_ioctl(fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp) ||
		    queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &q) ||
		    syncobj_create(fd, &in) || syncobj_create(fd, &done) ||
		    sync_file_to_syncobj(fd, sf, in))
			_exit(2);
		cs[0] = sync_in(in, 0);
		cs[1] = sync_out(done, 0);
		if (exec(fd, q, &copy, 1, cs, 2))
			_exit(3);
		if (write(pipefd[1], "s", 1) != 1)
			_exit(4);
		if (syncobj_wait(fd, done, 0, FOREVER))
			_exit(5);
		_exit(v[1] == 9 ? 0 : 6);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	/* The child's job waits for ours, which waits for the flag. */
	EXPECT_EQ(0, v[1]);
	EXPECT_EQ(0, sync_file_status(sf));
	self->flag[1] = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(1, sync_file_status(sf));
	close(sf);
}

TEST_F(exec, wait_user_fence_every_op)
{
	static const struct { uint16_t op; uint64_t yes, no; } t[] = {
		{ DRM_ZEX_COMPARE_EQ, 50, 51 },  { DRM_ZEX_COMPARE_NEQ, 49, 50 },
		{ DRM_ZEX_COMPARE_GT, 49, 50 },  { DRM_ZEX_COMPARE_GTE, 50, 51 },
		{ DRM_ZEX_COMPARE_LT, 51, 50 },  { DRM_ZEX_COMPARE_LTE, 50, 49 },
	};
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_wait_user_fence w = {
		.addr = VA(&v[0]), .op = DRM_ZEX_COMPARE_EQ, .value = 0x50,
		.mask = 0xf0, .timeout = 0,
	};
	int64_t left;
	size_t i;

	v[0] = 50;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		EXPECT_EQ(0, wait_ufence(self->fd, &v[0], t[i].op, t[i].yes, 0, NULL));
		EXPECT_EQ(-ETIME, wait_ufence(self->fd, &v[0], t[i].op, t[i].no, 1000, &left));
		EXPECT_EQ(0, left);
	}
	/* The mask applies to both sides: 0x5f & 0xf0 == 0x50. */
	v[0] = 0x5f;
	EXPECT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	w.op = 6;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	w.op = 0;
	w.addr = VA(&v[0]) + 4;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	w.addr = 0x1000;
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	w.addr = VA(&v[0]);
	w.flags = DRM_ZEX_WAIT_EXEC_QUEUE;
	w.exec_queue_id = 999;
	EXPECT_EQ(-ENOENT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	w.flags = 4;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
}

struct setter {
	volatile uint64_t *flag;
};

static void *set_flag(void *arg)
{
	struct setter *s = arg;

	*s->flag = 1;
	return NULL;
}

TEST_F(exec, wait_user_fence_wakes_on_job_end)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command cmds[] = { cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1) };
	struct drm_zex_sync s = sync_user_fence(&v[0], 42);
	struct setter st = { &self->flag[1] };
	pthread_t th;

	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 1, &s, 1));
	EXPECT_EQ(-ETIME, wait_ufence(self->fd, &v[0], DRM_ZEX_COMPARE_EQ, 42, 0, NULL));
	ASSERT_EQ(0, pthread_create(&th, NULL, set_flag, &st));
	EXPECT_EQ(0, wait_ufence(self->fd, &v[0], DRM_ZEX_COMPARE_EQ, 42, FOREVER, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(42, v[0]);
}

/*
 * A job that stores an event's value and then waits for another still
 * wakes the host waiting for the first: the STORE wakes the waiters, not
 * only the job's end (which here comes only after the host answers).
 */
TEST_F(exec, wait_user_fence_wakes_on_a_store_in_a_running_job)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command cmds[] = {
		cmd_store(&v[0], 7),
		cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1),
		cmd_store(&v[1], 8),
	};
	struct drm_zex_exec_queue_get_state st;
	struct drm_zex_sync s;
	uint32_t out;

	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 3, &s, 1));
	ASSERT_EQ(0, wait_ufence(self->fd, &v[0], DRM_ZEX_COMPARE_EQ, 7, FOREVER, NULL));
	/* Woken while the job still waits: neither ended nor banned. */
	EXPECT_EQ(0, v[1]);
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, syncobj_status(self->fd, out));
	self->flag[1] = 1;
	ASSERT_EQ(0, syncobj_wait(self->fd, out, 0, FOREVER));
	EXPECT_EQ(1, syncobj_status(self->fd, out));
	EXPECT_EQ(8, v[1]);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A child blocked in the wait gets SIGUSR1 until the wait returns; its errno is the status. */
static int wait_interrupted(int fd, uint64_t *addr, bool restart, int64_t timeout)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = restart ? SA_RESTART : 0 };
	struct sigaction old;
	int status, pidfd;
	pid_t pid;

	/* The child has the handler from its first instruction on. */
	sigaction(SIGUSR1, &sa, &old);
	pid = fork();
	if (!pid)
		_exit(-wait_ufence(fd, addr, DRM_ZEX_COMPARE_EQ, 1, timeout, NULL));
	sigaction(SIGUSR1, &old, NULL);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };

		kill(pid, SIGUSR1);
		if (poll(&p, 1, 20) == 1)
			break;
	}
	close(pidfd);
	waitpid(pid, &status, 0);
	return WEXITSTATUS(status);
}

TEST_F(exec, wait_user_fence_signal_and_restart)
{
	uint64_t *v = (uint64_t *)self->mem;

	/* Interrupted: EINTR to a handler without SA_RESTART. */
	EXPECT_EQ(EINTR, wait_interrupted(self->fd, &v[0], false, FOREVER));
	/* Restarted with what is left of a relative timeout, until it runs out. */
	EXPECT_EQ(ETIME, wait_interrupted(self->fd, &v[0], true, 200 * 1000 * 1000));
}

/*
 * A job that waits on a word of a buffer object, submitted before the job
 * that stores it on another engine: the store runs, the wait ends, no
 * queue is banned (the words are not in the reservation).
 */
TEST_F(exec, a_wait_on_a_word_does_not_hold_up_its_store)
{
	struct drm_zex_exec_queue_get_state st;
	struct drm_zex_vm_bind bind = { 0 };
	uint64_t *word = (uint64_t *)0x210000000000ull;
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command waiter[2], storer;
	struct drm_zex_sync s;
	uint32_t bo, q2, out;

	ASSERT_EQ(0, raw_bo_create(self->fd, 64 * 1024, 0, &bo, NULL));
	bind.handle = bo;
	bind.va = VA(word);
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &bind));
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &q2));
	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	waiter[0] = cmd_wait(word, DRM_ZEX_COMPARE_EQ, 1);
	waiter[1] = cmd_store(&v[0], 7);
	storer = cmd_store(word, 1);
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, waiter, 2, &s, 1));
	ASSERT_EQ(0, exec(self->fd, q2, &storer, 1, NULL, 0));
	ASSERT_EQ(0, syncobj_wait(self->fd, out, 0, FOREVER));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, st.error);
	EXPECT_EQ(7, v[0]);
}

/* A piece of a buffer object shared with a second process through a dma-buf. */
TEST_F(exec, implicit_sync_orders_two_processes)
{
	uint32_t bo, out;
	uint64_t size;
	struct drm_zex_vm_bind bind = { 0 };
	struct drm_zex_command fill[2];
	struct drm_zex_sync s;
	uint8_t *bo_va = (uint8_t *)0x200000000000ull;
	const uint8_t pat = 0x5a;
	struct dma_buf_export_sync_file exported = { .flags = DMA_BUF_SYNC_READ, .fd = -1 };
	int dmabuf, pipefd[2], status;
	struct pollfd p;
	pid_t pid;
	char c;

	ASSERT_EQ(0, raw_bo_create(self->fd, 64 * 1024, 0, &bo, &size));
	bind.handle = bo;
	bind.va = VA(bo_va);
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &bind));
	ASSERT_EQ(1, raw_bo_export(self->fd, bo, &dmabuf, 1));
	fill[0] = cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1);
	fill[1] = cmd_fill(bo_va, size, &pat, 1);
	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, fill, 2, &s, 1));

	/* The exporter's write is pending: poll() and the exported sync_file say so. */
	p = (struct pollfd){ .fd = dmabuf, .events = POLLIN };
	EXPECT_EQ(0, poll(&p, 1, 0));
	ASSERT_EQ(0, ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exported));
	EXPECT_EQ(0, sync_file_status(exported.fd));
	close(exported.fd);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = zex_open_render();
		uint32_t handle, q;
		uint8_t *dst = dev_alloc(fd, size, NULL);
		uint8_t *va = (uint8_t *)0x300000000000ull;
		struct drm_zex_vm_bind b = { 0 };
		struct drm_zex_command copy = cmd_copy(va, dst, size);
		uint64_t *fence = (uint64_t *)dst;
		struct drm_zex_sync uf;
		size_t i;

		if (!dst || raw_bo_import(fd, &dmabuf, 1, 0, &handle, NULL))
			_exit(2);
		b.handle = handle;
		b.va = VA(va);
		/* Another engine: only the dma_resv orders the two jobs. */
		if (zex_ioctl(fd, DRM_IOCTL_ZEX_VM_BIND, &b) ||
		    queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &q))
			_exit(3);
		copy.len = size - 8;
		copy.dst = VA(dst + 8);
		uf = sync_user_fence(fence, 1);
		if (exec(fd, q, &copy, 1, &uf, 1))
			_exit(4);
		if (write(pipefd[1], "s", 1) != 1)
			_exit(5);
		if (wait_ufence(fd, fence, DRM_ZEX_COMPARE_EQ, 1, FOREVER, NULL))
			_exit(6);
		for (i = 8; i < size; i++)
			if (dst[i] != pat)
				_exit(7);
		_exit(0);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	self->flag[1] = 1;
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(1, poll(&p, 1, -1));
	close(dmabuf);
}

TEST_F(exec, fault_bans_the_queue_alone)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command bad = cmd_copy((void *)0x1000, &v[0], 64);
	struct drm_zex_command good = cmd_store(&v[1], 3);
	struct drm_zex_exec_queue_get_state st;
	uint32_t out, q2;
	struct drm_zex_sync s;

	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, &bad, 1, &s, 1));
	ASSERT_EQ(0, syncobj_wait(self->fd, out, 0, FOREVER));
	EXPECT_EQ(-EFAULT, syncobj_status(self->fd, out));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(DRM_ZEX_EXEC_QUEUE_BANNED, st.state);
	EXPECT_EQ(-EFAULT, st.error);
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, st.fault_reason);
	EXPECT_EQ(0x1000, st.fault_addr);
	EXPECT_EQ(1, st.jobs_completed);
	EXPECT_EQ(-EIO, exec(self->fd, self->q, &good, 1, NULL, 0));
	/* Another queue on the same engine goes on. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q2));
	ASSERT_EQ(0, run_job(self->fd, q2, &good, 1, &self->flag[0]));
	EXPECT_EQ(3, v[1]);
	ASSERT_EQ(0, queue_state(self->fd, q2, &st));
	EXPECT_EQ(0, st.state);
}

TEST_F(exec, timeout_bans_the_queue_alone)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command never = cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1);
	struct drm_zex_command good = cmd_store(&v[1], 4);
	struct drm_zex_exec_queue_get_state st;
	struct drm_zex_wait_user_fence w = {
		.addr = VA(&v[2]), .value = 1, .mask = ~0ull, .timeout = -1,
		.flags = DRM_ZEX_WAIT_EXEC_QUEUE,
	};
	struct drm_zex_sync s, s2;
	uint32_t out, out2, q2;

	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q2));
	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	ASSERT_EQ(0, syncobj_create(self->fd, &out2));
	s = sync_out(out, 0);
	s2 = sync_out(out2, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, &never, 1, &s, 1));
	/* Queued behind it on the same engine. */
	ASSERT_EQ(0, exec(self->fd, q2, &good, 1, &s2, 1));
	ASSERT_EQ(0, syncobj_wait(self->fd, out2, 0, FOREVER));
	EXPECT_EQ(1, syncobj_status(self->fd, out2));
	EXPECT_EQ(4, v[1]);
	EXPECT_EQ(-ETIME, syncobj_status(self->fd, out));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(DRM_ZEX_EXEC_QUEUE_BANNED, st.state);
	EXPECT_EQ(-ETIME, st.error);
	EXPECT_EQ(-EIO, exec(self->fd, self->q, &good, 1, NULL, 0));
	w.exec_queue_id = self->q;
	EXPECT_EQ(-EIO, zex_ioctl(self->fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w));
	ASSERT_EQ(0, queue_state(self->fd, q2, &st));
	EXPECT_EQ(0, st.state);
}

/* The root device's compute queue splits copies; a tile queue does not. Same bytes. */
TEST_F(exec, root_queue_copies_match_a_tile_queue)
{
	const uint64_t size = 1024 * 1024 + 3 * PAGE;
	uint32_t policy, rootq;

	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, DRM_ZEX_DEVICE_ROOT,
				  &rootq));
	for (policy = 0; policy <= 2; policy++) {
		uint32_t src, dst1, dst2;
		uint8_t *s, *d1, *d2;
		uint64_t sz;
		struct drm_zex_vm_bind b = { 0 };
		uint8_t *sva = (uint8_t *)0x400000000000ull, *d1va = sva + (64ull << 20),
			*d2va = sva + (128ull << 20);
		struct drm_zex_command c1 = cmd_copy(sva + 3, d1va + 5, size - 8);
		struct drm_zex_command c2 = cmd_copy(sva + 3, d2va + 5, size - 8);
		const uint8_t pat[5] = { 9, 8, 7, 6, 5 };
		struct drm_zex_command f1 = cmd_fill(d1va + size - 2 * PAGE - 1, PAGE + 2, pat, 5);
		struct drm_zex_command f2 = cmd_fill(d2va + size - 2 * PAGE - 1, PAGE + 2, pat, 5);
		struct drm_zex_command j1[] = { c1, f1 }, j2[] = { c2, f2 };

		ASSERT_EQ(0, raw_bo_create_coloured(self->fd, size, policy, 64, &src, &sz));
		ASSERT_EQ(0, raw_bo_create_coloured(self->fd, size, policy, 64, &dst1, NULL));
		ASSERT_EQ(0, raw_bo_create_coloured(self->fd, size, policy, 64, &dst2, NULL));
		s = raw_bo_map(self->fd, src, sz);
		d1 = raw_bo_map(self->fd, dst1, sz);
		d2 = raw_bo_map(self->fd, dst2, sz);
		ASSERT_NE(MAP_FAILED, s);
		ASSERT_NE(MAP_FAILED, d1);
		ASSERT_NE(MAP_FAILED, d2);
		zex_fill(s, sz, policy + 1);
		memset(d1, 0xee, sz);
		memset(d2, 0xee, sz);
		b.handle = src;
		b.va = VA(sva);
		ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &b));
		b.handle = dst1;
		b.va = VA(d1va);
		ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &b));
		b.handle = dst2;
		b.va = VA(d2va);
		ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &b));
		ASSERT_EQ(0, run_job(self->fd, rootq, j1, 2, &self->flag[0]));
		ASSERT_EQ(0, run_job(self->fd, self->q, j2, 2, &self->flag[0]));
		EXPECT_EQ(0, memcmp(d1, d2, sz));
		EXPECT_EQ(0, memcmp(d1 + 5, s + 3, 1024));
		munmap(s, sz);
		munmap(d1, sz);
		munmap(d2, sz);
		/* Closing the handles does not unbind: a new file per policy keeps VAs free. */
		close(self->fd);
		self->fd = zex_open_render();
		ASSERT_LE(0, self->fd);
		ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0,
					  DRM_ZEX_DEVICE_ROOT, &rootq));
		ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &self->q));
		self->mem = dev_alloc(self->fd, 64 * PAGE, NULL);
		ASSERT_NE(NULL, self->mem);
		self->flag = (uint64_t *)(self->mem + 63 * PAGE);
	}
}

/*
 * While the engine runs a job (held by a WAIT, once it said it runs), jobs
 * of a low, a normal and a high priority queue on it are submitted in that
 * order; once it is
 * free it runs them highest priority first, whatever the order of
 * submission. Each job records the mark the job before it left, then
 * leaves its own: the marks say the order without a clock (a coarse clock
 * can give several jobs one timestamp).
 */
TEST_F(exec, priorities_choose_the_next_job)
{
	static const uint16_t prio[3] = {
		DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW, DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL,
		DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH,
	};
	uint64_t *mark = (uint64_t *)self->mem, *seen = mark + 1, *fence = mark + 8;
	uint64_t *running = mark + 16;
	struct drm_zex_command hold[] = {
		cmd_store(running, 1), cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1),
		cmd_store(mark, 10),
	};
	uint32_t q[3];
	int i;

	/* The holder runs (its first store says so) before the others come. */
	ASSERT_EQ(0, exec(self->fd, self->q, hold, 3, NULL, 0));
	ASSERT_EQ(0, wait_ufence(self->fd, running, DRM_ZEX_COMPARE_EQ, 1, FOREVER, NULL));
	for (i = 0; i < 3; i++) {
		struct drm_zex_command job[] = {
			cmd_copy(mark, &seen[i], 8), cmd_store(mark, (uint64_t)i + 1),
		};
		struct drm_zex_sync s = sync_user_fence(&fence[i], 1);

		ASSERT_EQ(0, queue_create_prio(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, prio[i],
					       &q[i]));
		ASSERT_EQ(0, exec(self->fd, q[i], job, 2, &s, 1));
	}
	self->flag[1] = 1;
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, wait_ufence(self->fd, &fence[i], DRM_ZEX_COMPARE_EQ, 1, FOREVER,
					 NULL));
	/* The holder, then high, normal, low. */
	EXPECT_EQ(10, seen[2]);
	EXPECT_EQ(3, seen[1]);
	EXPECT_EQ(2, seen[0]);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, queue_destroy(self->fd, q[i]));
}

/* High priority needs CAP_SYS_NICE; an unknown priority is refused. */
TEST_F(exec, high_priority_needs_cap_sys_nice)
{
	uint32_t id;
	pid_t pid;
	int status;

	EXPECT_EQ(-EINVAL, queue_create_prio(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, 3, &id));
	ASSERT_EQ(0, queue_create_prio(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0,
				       DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH, &id));
	EXPECT_EQ(0, queue_destroy(self->fd, id));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* A render-group user: the node is open, no capabilities. */
		if (setresuid(65534, 65534, 65534))
			_exit(2);
		if (queue_create_prio(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0,
				      DRM_ZEX_EXEC_QUEUE_PRIORITY_HIGH, &id) != -EPERM)
			_exit(1);
		_exit(queue_create_prio(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0,
					DRM_ZEX_EXEC_QUEUE_PRIORITY_LOW, &id) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(exec, bad_arguments_are_refused)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command good = cmd_store(&v[0], 1), bad;
	struct drm_zex_exec e = { .exec_queue_id = self->q, .num_commands = 1,
				  .commands = VA(&good) };
	struct drm_zex_sync s;
	uint32_t id = 0;

	EXPECT_EQ(-EINVAL, queue_create(self->fd, 2, 0, 0, &id));
	EXPECT_EQ(-EINVAL, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 2, 0, &id));
	EXPECT_EQ(-EINVAL, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 8, &id));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, 12345));
	e.flags = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC, &e));
	e.flags = 0;
	e.num_commands = 0;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC, &e));
	e.num_commands = DRM_ZEX_EXEC_MAX_COMMANDS + 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC, &e));
	e.num_commands = 1;
	e.commands = 8;
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC, &e));
	e.commands = VA(&good);
	e.exec_queue_id = 999;
	EXPECT_EQ(-ENOENT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC, &e));
	e.exec_queue_id = self->q;
	bad = good;
	bad.op = DRM_ZEX_CMD_LAUNCH + 1;
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &bad, 1, NULL, 0));
	bad = good;
	bad.dst += 4;
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &bad, 1, NULL, 0));
	bad = cmd_copy(&v[0], &v[1], 16);
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &bad, 1, NULL, 0));
	bad = cmd_copy(&v[0], &v[100], DRM_ZEX_COPY_MAX_LEN + 1);
	EXPECT_EQ(-E2BIG, exec(self->fd, self->q, &bad, 1, NULL, 0));
	bad = cmd_fill(&v[0], 8, &v[0], 1);
	bad.pattern_size = 17;
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &bad, 1, NULL, 0));
	bad = cmd_copy((void *)~0ull, &v[0], 16);
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &bad, 1, NULL, 0));
	s = sync_in(4242, 0);
	EXPECT_EQ(-ENOENT, exec(self->fd, self->q, &good, 1, &s, 1));
	s = sync_out(4242, 0);
	EXPECT_EQ(-ENOENT, exec(self->fd, self->q, &good, 1, &s, 1));
	s = sync_user_fence(&v[1], 1);
	s.flags = 0;
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &good, 1, &s, 1));
	s = sync_user_fence((uint8_t *)&v[1] + 1, 1);
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &good, 1, &s, 1));
	s = sync_out(1, 0);
	s.type = 3;
	EXPECT_EQ(-EINVAL, exec(self->fd, self->q, &good, 1, &s, 1));
	/* Nothing refused ran, and the queue still works. */
	ASSERT_EQ(0, run_job(self->fd, self->q, &good, 1, &self->flag[0]));
}

TEST_F(exec, limits_hold)
{
	long long max_queues = zex_param("exec_max_queues");
	long long max_jobs = zex_param("exec_max_jobs");
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command hold[] = { cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1) };
	struct drm_zex_command st = cmd_store(&v[0], 1);
	long long i;
	uint32_t id = 0;

	ASSERT_LT(0, max_queues);
	ASSERT_LT(0, max_jobs);
	for (i = 1; i < max_queues; i++)
		ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id));
	EXPECT_EQ(-EMFILE, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id));
	ASSERT_EQ(0, queue_destroy(self->fd, id));
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id));

	ASSERT_EQ(0, exec(self->fd, self->q, hold, 1, NULL, 0));
	for (i = 1; i < max_jobs; i++)
		ASSERT_EQ(0, exec(self->fd, self->q, &st, 1, NULL, 0));
	EXPECT_EQ(-EBUSY, exec(self->fd, self->q, &st, 1, NULL, 0));
	self->flag[1] = 1;
	ASSERT_EQ(0, run_job(self->fd, id, &st, 1, &self->flag[0]));
}

/* Closing the file and killing the process with jobs queued and running. */
TEST_F(exec, close_and_kill_with_jobs_in_flight)
{
	uint64_t *v = (uint64_t *)self->mem;
	struct drm_zex_command hold[] = { cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1),
					  cmd_store(&v[0], 1) };
	uint32_t out;
	struct drm_zex_command c;
	struct pollfd p = { .events = POLLIN };
	struct drm_zex_sync s;
	int sf, status;
	pid_t pid;

	ASSERT_EQ(0, syncobj_create(self->fd, &out));
	s = sync_out(out, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, hold, 2, &s, 1));
	sf = syncobj_to_sync_file(self->fd, out);
	ASSERT_LE(0, sf);
	p.fd = sf;
	/* Closing the file cancels the job; its fence outlives the file, with the error. */
	close(self->fd);
	self->fd = -1;
	EXPECT_EQ(1, poll(&p, 1, -1));
	EXPECT_EQ(-ECANCELED, sync_file_status(sf));
	self->flag[1] = 1;
	EXPECT_EQ(0, v[0]);
	close(sf);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd = zex_open_render();
		uint64_t *mem = dev_alloc(fd, PAGE, NULL);
		struct drm_zex_command c[] = { cmd_wait(&mem[1], DRM_ZEX_COMPARE_EQ, 1) };
		uint32_t q;
		int k;

		if (!mem || queue_create(fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &q))
			_exit(2);
		for (k = 0; k < 8; k++)
			exec(fd, q, c, 1, NULL, 0);
		kill(getpid(), SIGKILL);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	/* The device goes on. */
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &self->q));
	self->mem = dev_alloc(self->fd, 64 * PAGE, NULL);
	ASSERT_NE(NULL, self->mem);
	v = (uint64_t *)self->mem;
	c = cmd_store(&v[0], 5);
	ASSERT_EQ(0, run_job(self->fd, self->q, &c, 1, &v[1]));
	EXPECT_EQ(5, v[0]);
}

ZEX_SELFTEST_MAIN
