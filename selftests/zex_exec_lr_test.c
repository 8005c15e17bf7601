// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_exec_lr_test.c - kselftest of long-running queues and launches
 *
 * A compute side in userspace, as libzex will be one: it sleeps on a
 * launch's record with DRM_IOCTL_ZEX_WAIT_USER_FENCE, runs "the kernel"
 * (here: a few stores of its own) and reports. What is checked: a launch
 * and a WAIT command that take four job timeouts end well on long-running
 * queues while the same WAIT on a normal queue is stopped at one; copies
 * before and after a launch are ordered around it, and a job with nothing
 * to wait for does not pass one that waits for a sync object; two
 * long-running queues of one engine and a normal queue beside them never
 * wait for one another; what would turn a userspace wait into a dma-fence
 * is refused (sync objects to signal) or left out (the reservation's
 * fences, a dma-buf's sync_file); a fault report bans the queue alone with
 * the report's fault; forged and stray reports, bad fields and limits get
 * their errors; a server killed mid-launch, an fd closed by another thread
 * and a destroy with a launch pending end the launch (its record says
 * stop) and wake the waiters; a root-device launch under implicit scaling
 * waits for every tile and a fault on one stops the others. Every wait is
 * for the event it checks; the one delay (three job timeouts) is what the
 * first test is about, and is the kernel's own timeout of a wait on a word
 * nothing writes.
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

static int lr_queue_create(int fd, uint16_t dev, uint16_t inst, uint32_t *id)
{
	return queue_create_flags(fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, inst, dev,
				  DRM_ZEX_EXEC_QUEUE_PRIORITY_NORMAL,
				  DRM_ZEX_EXEC_QUEUE_LONG_RUNNING, id);
}

static struct drm_zex_command cmd_launch(struct drm_zex_launch_record *rec, uint64_t cookie)
{
	return (struct drm_zex_command){ .op = DRM_ZEX_CMD_LAUNCH, .dst = VA(rec),
					 .value = cookie };
}

static int report(int fd, uint32_t q, uint32_t tile, uint64_t seqno)
{
	struct drm_zex_launch_report r = { .exec_queue_id = q, .tile = tile, .seqno = seqno };

	return zex_ioctl(fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r);
}

static int report_fault(int fd, uint32_t q, uint32_t tile, uint64_t seqno, uint64_t addr,
			uint32_t reason, uint32_t flags)
{
	struct drm_zex_launch_report r = {
		.exec_queue_id = q, .tile = tile, .seqno = seqno,
		.status = DRM_ZEX_LAUNCH_FAULT, .fault_addr = addr, .fault_reason = reason,
		.fault_flags = flags,
	};

	return zex_ioctl(fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r);
}

/* Wait, tied to @q (-EIO once it is banned), until *addr >= value. */
static int wait_on_queue(int fd, uint32_t q, const void *addr, uint64_t value, uint64_t mask)
{
	struct drm_zex_wait_user_fence w = {
		.addr = VA(addr), .op = DRM_ZEX_COMPARE_GTE, .value = value, .mask = mask,
		.timeout = FOREVER, .flags = DRM_ZEX_WAIT_EXEC_QUEUE, .exec_queue_id = q,
	};

	return zex_ioctl(fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w);
}

/* The record's tile_mask and state as one 64-bit word: state is the high half. */
#define STATE_MASK	0xffffffff00000000ull

static int wait_stopped(int fd, struct drm_zex_launch_record *rec)
{
	struct drm_zex_wait_user_fence w = {
		.addr = VA(&rec->tile_mask), .op = DRM_ZEX_COMPARE_NEQ, .mask = STATE_MASK,
		.timeout = FOREVER,
	};

	return zex_ioctl(fd, DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w) ?:
	       (rec->state == DRM_ZEX_LAUNCH_STOP ? 0 : -1);
}

static struct drm_zex_query_device query_device(int fd)
{
	struct drm_zex_query_device dev = { 0 };
	struct drm_zex_query q = {
		.query = DRM_ZEX_QUERY_DEVICE, .size = sizeof(dev), .data = VA(&dev),
	};

	zex_ioctl(fd, DRM_IOCTL_ZEX_QUERY, &q);
	return dev;
}

FIXTURE(lr) {
	int fd;
	uint32_t q;
	uint8_t *mem;	/* 64 pages, imported */
	struct drm_zex_launch_record *rec;	/* page 62 */
	uint64_t *flag;	/* page 63: flags and fences */
};

FIXTURE_SETUP(lr)
{
	self->fd = zex_open_render();
	if (self->fd < 0)
		SKIP(return, "no zex render node");
	ASSERT_EQ(0, lr_queue_create(self->fd, 0, 0, &self->q));
	self->mem = dev_alloc(self->fd, 64 * PAGE, NULL);
	ASSERT_NE(NULL, self->mem);
	self->rec = (struct drm_zex_launch_record *)(self->mem + 62 * PAGE);
	self->flag = (uint64_t *)(self->mem + 63 * PAGE);
}

FIXTURE_TEARDOWN(lr)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * A launch, and a WAIT command on another long-running queue, both four job
 * timeouts long (any one past the first would have stopped them); the same
 * WAIT on a normal queue is stopped at one.
 */
TEST_F(lr, a_launch_outlives_four_job_timeouts_a_normal_wait_does_not)
{
	struct drm_zex_query_device dev = query_device(self->fd);
	struct drm_zex_command launch = cmd_launch(self->rec, 0xc0c0);
	struct drm_zex_command never = cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1);
	struct drm_zex_command waits[2] = {
		cmd_wait(&self->flag[1], DRM_ZEX_COMPARE_EQ, 1),
		cmd_store(&self->flag[3], 3),
	};
	struct drm_zex_sync uf = sync_user_fence(&self->flag[0], 7), out;
	struct drm_zex_exec_queue_get_state st;
	uint32_t normal, syncobj, waiter;

	ASSERT_LT(0, dev.job_timeout_ms);
	ASSERT_EQ(0, lr_queue_create(self->fd, 0, 1, &waiter));
	ASSERT_EQ(0, exec(self->fd, waiter, waits, 2, NULL, 0));
	ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, &uf, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	EXPECT_EQ(1, self->rec->seqno);
	EXPECT_EQ(0xc0c0, self->rec->cookie);
	EXPECT_EQ(1, self->rec->tile_mask);
	EXPECT_EQ(0, self->rec->state);

	/* The same wait on a normal compute queue of the same engine is stopped. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &normal));
	ASSERT_EQ(0, syncobj_create(self->fd, &syncobj));
	out = sync_out(syncobj, 0);
	ASSERT_EQ(0, exec(self->fd, normal, &never, 1, &out, 1));
	ASSERT_EQ(0, syncobj_wait(self->fd, syncobj, 0, FOREVER));
	EXPECT_EQ(-ETIME, syncobj_status(self->fd, syncobj));

	/* Four job timeouts in all: the kernel's own timeout of a wait nothing ends. */
	EXPECT_EQ(-ETIME, wait_ufence(self->fd, &self->flag[2], DRM_ZEX_COMPARE_EQ, 1,
				      3ll * dev.job_timeout_ms * 1000000, NULL));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, st.jobs_completed);
	EXPECT_EQ(0, self->flag[0]);
	EXPECT_EQ(0, self->flag[3]);
	/* The word the WAITs read is written: the long-running one goes on. */
	__atomic_store_n(&self->flag[1], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_on_queue(self->fd, waiter, &self->flag[3], 3, ~0ull));
	ASSERT_EQ(0, queue_state(self->fd, waiter, &st));
	EXPECT_EQ(0, st.state);
	ASSERT_EQ(0, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 7, ~0ull));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(1, st.jobs_completed);
	EXPECT_EQ(0, self->rec->state);
	ASSERT_EQ(0, queue_state(self->fd, normal, &st));
	EXPECT_EQ(-ETIME, st.error);
}

TEST_F(lr, copies_are_ordered_around_a_launch)
{
	uint8_t *a = self->mem, *b = self->mem + 8 * PAGE, *c = self->mem + 16 * PAGE;
	struct drm_zex_command cmds[3] = {
		cmd_copy(a, b, 8 * PAGE),
		cmd_launch(self->rec, 1),
		cmd_copy(b, c, 8 * PAGE),
	};
	struct drm_zex_sync uf = sync_user_fence(&self->flag[0], 1);
	int round;

	for (round = 0; round < 3; round++) {
		uint64_t n = round + 1;

		zex_fill(a, 8 * PAGE, 100 + round);
		self->flag[0] = 0;
		ASSERT_EQ(0, exec(self->fd, self->q, cmds, 3, &uf, 1));
		ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, n, ~0ull));
		EXPECT_EQ(n, self->rec->seqno);
		/* The copy before has landed; the one after has not run. */
		EXPECT_TRUE(zex_same(b, 8 * PAGE, 100 + round));
		EXPECT_FALSE(zex_same(c, 8 * PAGE, 100 + round));
		/* "The kernel" rewrites b; the copy after must carry its result. */
		zex_fill(b, 8 * PAGE, 200 + round);
		ASSERT_EQ(0, report(self->fd, self->q, 0, n));
		ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 1, ~0ull));
		EXPECT_TRUE(zex_same(c, 8 * PAGE, 200 + round));
	}
}

/*
 * A job with nothing to wait for goes to the queue's context at once, but
 * never past an earlier job of the queue still waiting for a sync object.
 */
TEST_F(lr, a_ready_job_does_not_pass_one_that_waits)
{
	uint64_t *v = &self->flag[8], *w = &self->flag[9];
	struct drm_zex_command hold = cmd_wait(&self->flag[4], DRM_ZEX_COMPARE_EQ, 1);
	struct drm_zex_command first = cmd_store(v, 1);
	struct drm_zex_command second = cmd_copy(v, w, sizeof(*v));
	struct drm_zex_sync s[2];
	uint32_t copyq, syncobj;

	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &copyq));
	ASSERT_EQ(0, syncobj_create(self->fd, &syncobj));
	s[0] = sync_out(syncobj, 0);
	ASSERT_EQ(0, exec(self->fd, copyq, &hold, 1, s, 1));
	s[0] = sync_in(syncobj, 0);
	ASSERT_EQ(0, exec(self->fd, self->q, &first, 1, s, 1));
	s[0] = sync_user_fence(&self->flag[0], 1);
	ASSERT_EQ(0, exec(self->fd, self->q, &second, 1, s, 1));
	__atomic_store_n(&self->flag[4], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 1, ~0ull));
	EXPECT_EQ(1, *w);
}

TEST_F(lr, queues_of_one_engine_and_a_normal_one_never_wait_for_each_other)
{
	struct drm_zex_launch_record *rec2 = self->rec + 1;
	struct drm_zex_command l1 = cmd_launch(self->rec, 1), l2 = cmd_launch(rec2, 2);
	struct drm_zex_command copy = cmd_copy(self->mem, self->mem + PAGE, PAGE);
	struct drm_zex_sync uf1 = sync_user_fence(&self->flag[0], 1);
	struct drm_zex_sync uf2 = sync_user_fence(&self->flag[1], 1);
	struct drm_zex_exec_queue_get_state st;
	uint32_t q2, normal, syncobj;
	struct drm_zex_sync out;

	ASSERT_EQ(0, lr_queue_create(self->fd, 0, 0, &q2));
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &normal));
	ASSERT_EQ(0, exec(self->fd, self->q, &l1, 1, &uf1, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	/* Queue 1's launch is not served: queue 2's and the normal job go on. */
	ASSERT_EQ(0, exec(self->fd, q2, &l2, 1, &uf2, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, q2, &rec2->seqno, 1, ~0ull));
	ASSERT_EQ(0, report(self->fd, q2, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, q2, &self->flag[1], 1, ~0ull));
	ASSERT_EQ(0, syncobj_create(self->fd, &syncobj));
	out = sync_out(syncobj, 0);
	zex_fill(self->mem, PAGE, 9);
	ASSERT_EQ(0, exec(self->fd, normal, &copy, 1, &out, 1));
	ASSERT_EQ(0, syncobj_wait(self->fd, syncobj, 0, FOREVER));
	EXPECT_EQ(1, syncobj_status(self->fd, syncobj));
	EXPECT_TRUE(zex_same(self->mem + PAGE, PAGE, 9));
	/* All the while queue 1 waited, and still does. */
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
	EXPECT_EQ(0, st.jobs_completed);
	EXPECT_EQ(0, self->flag[0]);
	ASSERT_EQ(0, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 1, ~0ull));
}

TEST_F(lr, what_would_make_a_dma_fence_is_refused_or_left_out)
{
	struct drm_zex_command launch = cmd_launch(self->rec, 0);
	struct drm_zex_command store = cmd_store(&self->flag[0], 1);
	struct dma_buf_export_sync_file exported = { .flags = DMA_BUF_SYNC_RW, .fd = -1 };
	struct drm_zex_exec_queue_create create = { 0 };
	uint8_t *bo_va = (uint8_t *)0x200000000000ull;
	struct drm_zex_vm_bind bind = { 0 };
	struct drm_zex_command cmds[2];
	struct drm_zex_sync s[2];
	uint32_t syncobj, normal, copyq, bo;
	struct pollfd p;
	const uint8_t pat = 0x33;
	uint64_t size;
	int dmabuf, i;

	ASSERT_EQ(0, syncobj_create(self->fd, &syncobj));
	s[0] = sync_out(syncobj, 0);
	EXPECT_EQ(-EOPNOTSUPP, exec(self->fd, self->q, &store, 1, s, 1));
	s[0] = sync_out(syncobj, 5);
	EXPECT_EQ(-EOPNOTSUPP, exec(self->fd, self->q, &store, 1, s, 1));
	/* A launch needs a long-running queue; long-running needs a compute engine. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &normal));
	EXPECT_EQ(-EOPNOTSUPP, exec(self->fd, normal, &launch, 1, NULL, 0));
	create.engine_class = DRM_ZEX_ENGINE_CLASS_COPY;
	create.flags = DRM_ZEX_EXEC_QUEUE_LONG_RUNNING;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &create));
	create.engine_class = DRM_ZEX_ENGINE_CLASS_COMPUTE;
	create.flags = 2;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &create));
	/* Nothing was submitted by the refused calls. */
	EXPECT_EQ(0, self->flag[0]);

	/* A sync object to wait for is taken, and waited for. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &copyq));
	cmds[0] = cmd_wait(&self->flag[3], DRM_ZEX_COMPARE_EQ, 1);
	s[0] = sync_out(syncobj, 0);
	ASSERT_EQ(0, exec(self->fd, copyq, cmds, 1, s, 1));
	s[0] = sync_in(syncobj, 0);
	s[1] = sync_user_fence(&self->flag[0], 2);
	ASSERT_EQ(0, exec(self->fd, self->q, &store, 1, s, 2));
	__atomic_store_n(&self->flag[3], 1, __ATOMIC_RELEASE);
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 2, ~0ull));

	/*
	 * A long-running job that writes a shared object leaves no fence in its
	 * reservation: while it waits for a sync object (so not even handed to
	 * its context), and then for its launch, the dma-buf polls ready and its
	 * sync_file is signalled.
	 */
	ASSERT_EQ(0, raw_bo_create(self->fd, 64 * 1024, 0, &bo, &size));
	bind.handle = bo;
	bind.va = VA(bo_va);
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &bind));
	ASSERT_EQ(1, raw_bo_export(self->fd, bo, &dmabuf, 1));
	cmds[0] = cmd_wait(&self->flag[4], DRM_ZEX_COMPARE_EQ, 1);
	s[0] = sync_out(syncobj, 0);
	ASSERT_EQ(0, exec(self->fd, copyq, cmds, 1, s, 1));
	cmds[0] = cmd_fill(bo_va, size, &pat, 1);
	cmds[1] = cmd_launch(self->rec, 0);
	s[0] = sync_in(syncobj, 0);
	s[1] = sync_user_fence(&self->flag[0], 3);
	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 2, s, 2));
	p = (struct pollfd){ .fd = dmabuf, .events = POLLOUT };
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(1, poll(&p, 1, 0));
		ASSERT_EQ(0, ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exported));
		EXPECT_EQ(1, sync_file_status(exported.fd));
		close(exported.fd);
		if (!i) {
			__atomic_store_n(&self->flag[4], 1, __ATOMIC_RELEASE);
			ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1,
						   ~0ull));
		}
	}
	ASSERT_EQ(0, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 3, ~0ull));
	close(dmabuf);
}

TEST_F(lr, a_fault_report_bans_the_queue_alone)
{
	struct drm_zex_launch_record *rec2 = self->rec + 1;
	struct drm_zex_command cmds[2] = { cmd_launch(self->rec, 0), cmd_store(&self->flag[1], 1) };
	struct drm_zex_command l2 = cmd_launch(rec2, 0);
	struct drm_zex_sync uf = sync_user_fence(&self->flag[2], 1);
	struct drm_zex_exec_queue_get_state st;
	uint32_t q2;

	ASSERT_EQ(0, lr_queue_create(self->fd, 0, 0, &q2));
	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 2, NULL, 0));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	ASSERT_EQ(0, report_fault(self->fd, self->q, 0, 1, 0xdead000, DRM_ZEX_FAULT_KERNEL_ABORTED,
				  DRM_ZEX_FAULT_WRITE));
	EXPECT_EQ(-EIO, wait_on_queue(self->fd, self->q, &self->flag[1], 1, ~0ull));
	ASSERT_EQ(0, wait_stopped(self->fd, self->rec));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(DRM_ZEX_EXEC_QUEUE_BANNED, st.state);
	EXPECT_EQ(-EFAULT, st.error);
	EXPECT_EQ(DRM_ZEX_FAULT_KERNEL_ABORTED, st.fault_reason);
	EXPECT_EQ(0xdead000, st.fault_addr);
	EXPECT_EQ(DRM_ZEX_FAULT_WRITE, st.fault_flags);
	/* The command after the launch never ran; later work and reports are refused. */
	EXPECT_EQ(0, self->flag[1]);
	EXPECT_EQ(-EIO, exec(self->fd, self->q, cmds, 2, NULL, 0));
	EXPECT_EQ(-EIO, report(self->fd, self->q, 0, 1));
	/* The other queue of the engine goes on. */
	ASSERT_EQ(0, exec(self->fd, q2, &l2, 1, &uf, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, q2, &rec2->seqno, 1, ~0ull));
	ASSERT_EQ(0, report(self->fd, q2, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, q2, &self->flag[2], 1, ~0ull));
	/* An engine fault says read or write too: a store is a write. */
	cmds[0] = cmd_store((void *)0x1000, 1);
	ASSERT_EQ(0, exec(self->fd, q2, cmds, 1, NULL, 0));
	EXPECT_EQ(-EIO, wait_on_queue(self->fd, q2, &self->flag[3], 1, ~0ull));
	ASSERT_EQ(0, queue_state(self->fd, q2, &st));
	EXPECT_EQ(-EFAULT, st.error);
	EXPECT_EQ(0x1000, st.fault_addr);
	EXPECT_EQ(DRM_ZEX_FAULT_WRITE, st.fault_flags);
}

TEST_F(lr, forged_stray_and_bad_reports_are_refused)
{
	struct drm_zex_command cmds[2] = { cmd_launch(self->rec, 0), cmd_launch(self->rec, 0) };
	struct drm_zex_sync uf = sync_user_fence(&self->flag[0], 1);
	struct drm_zex_launch_report r = { .exec_queue_id = self->q, .seqno = 1 };
	uint32_t normal, other_q;
	int other;

	/* Nothing published yet. */
	EXPECT_EQ(-ESRCH, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 2, &uf, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	/* The next launch, not yet published; a tile the queue does not run on. */
	EXPECT_EQ(-ESRCH, report(self->fd, self->q, 0, 2));
	EXPECT_EQ(-ESRCH, report(self->fd, self->q, 1, 1));
	r.status = 2;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r));
	r.status = DRM_ZEX_LAUNCH_FAULT;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r));
	r.status = 0;
	r.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r));
	r.pad = 0;
	r.tile = DRM_ZEX_MAX_TILES;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_LAUNCH_REPORT, &r));
	/* No such queue; a queue that is not long-running. */
	EXPECT_EQ(-ENOENT, report(self->fd, 4000, 0, 1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &normal));
	EXPECT_EQ(-EOPNOTSUPP, report(self->fd, normal, 0, 1));
	/* Another file's queue of the same id is that file's: not this launch. */
	other = zex_open_render();
	ASSERT_LE(0, other);
	EXPECT_EQ(-ENOENT, report(other, self->q, 0, 1));
	ASSERT_EQ(0, lr_queue_create(other, 0, 0, &other_q));
	EXPECT_EQ(self->q, other_q);
	EXPECT_EQ(-ESRCH, report(other, other_q, 0, 1));
	close(other);
	/* The launch itself is untouched: its report is taken, once. */
	ASSERT_EQ(0, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 2, ~0ull));
	EXPECT_EQ(-ESRCH, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, report(self->fd, self->q, 0, 2));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 1, ~0ull));
}

TEST_F(lr, limits_hold)
{
	struct drm_zex_query_device dev = query_device(self->fd);
	struct drm_zex_command launch = cmd_launch(self->rec, 0);
	uint32_t i, id, last = 0;

	ASSERT_LE(1, dev.max_lr_exec_queues);
	/* The fixture made one. */
	for (i = 1; i < dev.max_lr_exec_queues; i++)
		ASSERT_EQ(0, lr_queue_create(self->fd, 0, i % 4, &last));
	EXPECT_EQ(-EMFILE, lr_queue_create(self->fd, 0, 0, &id));
	/* Normal queues are not counted against it. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &id));
	if (last) {
		ASSERT_EQ(0, queue_destroy(self->fd, last));
		ASSERT_EQ(0, lr_queue_create(self->fd, 0, 0, &id));
	}
	/* Unfinished jobs of one queue: a launch waits, the rest queue behind it. */
	for (i = 0; i < dev.max_jobs_in_flight; i++)
		ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, NULL, 0));
	EXPECT_EQ(-EBUSY, exec(self->fd, self->q, &launch, 1, NULL, 0));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	ASSERT_EQ(0, report(self->fd, self->q, 0, 1));
	/* One ended: room for one more, as soon as it has gone. */
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 2, ~0ull));
	while (exec(self->fd, self->q, &launch, 1, NULL, 0) == -EBUSY)
		ASSERT_EQ(-ETIME, wait_ufence(self->fd, &self->flag[0], DRM_ZEX_COMPARE_EQ, 1,
					      1000000, NULL));
}

struct closer {
	int fd;
	pid_t waiter;
};

/* Close the fd once the waiter sleeps in its ioctl on it. */
static void *close_fd(void *arg)
{
	struct closer *c = arg;

	while (!zex_sleeps_in_syscall(c->waiter, SYS_ioctl))
		usleep(1000);
	close(c->fd);
	return NULL;
}

TEST_F(lr, closing_the_fd_in_another_thread_ends_the_launch)
{
	struct drm_zex_command launch = cmd_launch(self->rec, 0);
	long long refs = zex_sysfs_u64("/sys/module/zex/refcnt");
	struct closer c = { .fd = self->fd, .waiter = syscall(SYS_gettid) };
	pthread_t t;

	ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, NULL, 0));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	/*
	 * The server sleeps on the next launch; another thread closes the only
	 * descriptor: the process no longer serves the queue, the wait ends.
	 */
	ASSERT_EQ(0, pthread_create(&t, NULL, close_fd, &c));
	EXPECT_EQ(-EIO, wait_on_queue(self->fd, self->q, &self->rec->seqno, 2, ~0ull));
	ASSERT_EQ(0, pthread_join(t, NULL));
	self->fd = -1;
	/* What the file held goes; the launch's record said stop before. */
	EXPECT_GE(refs - 1, zex_module_refs_drop_to(refs - 1));
	EXPECT_EQ(DRM_ZEX_LAUNCH_STOP, self->rec->state);
}

TEST_F(lr, a_server_killed_mid_launch_bans_its_queues)
{
	struct drm_zex_exec_queue_get_state st;
	int pipefd[2], status;
	uint32_t q;
	pid_t pid;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct drm_zex_command launch = cmd_launch(self->rec, 0);
		uint32_t child_q;

		/* The child creates the queue: it is the server. */
		if (lr_queue_create(self->fd, 0, 1, &child_q) ||
		    exec(self->fd, child_q, &launch, 1, NULL, 0) ||
		    wait_on_queue(self->fd, child_q, &self->rec->seqno, 1, ~0ull) ||
		    write(pipefd[1], &child_q, sizeof(child_q)) != sizeof(child_q))
			_exit(1);
		pause();
		_exit(2);
	}
	ASSERT_EQ(sizeof(q), read(pipefd[0], &q, sizeof(q)));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* This process still holds the file; the queue's server is gone. */
	EXPECT_EQ(-EIO, wait_on_queue(self->fd, q, &self->rec->seqno, 2, ~0ull));
	ASSERT_EQ(0, wait_stopped(self->fd, self->rec));
	ASSERT_EQ(0, queue_state(self->fd, q, &st));
	EXPECT_EQ(-EPIPE, st.error);
	EXPECT_EQ(-EIO, report(self->fd, q, 0, 1));
	/* The queue this process made is served still. */
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(0, st.state);
}

TEST_F(lr, destroy_and_close_with_launches_pending)
{
	struct drm_zex_command launch = cmd_launch(self->rec, 0);
	long long refs;
	int i;

	ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, NULL, 0));
	ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, NULL, 0));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	ASSERT_EQ(0, queue_destroy(self->fd, self->q));
	ASSERT_EQ(0, wait_stopped(self->fd, self->rec));
	EXPECT_EQ(1, self->rec->seqno);
	EXPECT_EQ(-ENOENT, report(self->fd, self->q, 0, 1));
	/* Close with launches published on several queues: everything goes. */
	refs = zex_sysfs_u64("/sys/module/zex/refcnt");
	for (i = 0; i < 4; i++) {
		struct drm_zex_launch_record *rec = self->rec + 1 + i;
		uint32_t q;

		launch = cmd_launch(rec, i);
		ASSERT_EQ(0, lr_queue_create(self->fd, 0, i, &q));
		ASSERT_EQ(0, exec(self->fd, q, &launch, 1, NULL, 0));
		ASSERT_EQ(0, exec(self->fd, q, &launch, 1, NULL, 0));
		ASSERT_EQ(0, wait_on_queue(self->fd, q, &rec->seqno, 1, ~0ull));
	}
	close(self->fd);
	self->fd = -1;
	EXPECT_GE(refs - 1, zex_module_refs_drop_to(refs - 1));
}

/* The root device's engine under implicit scaling: one launch, every tile. */
FIXTURE(lr_root) {
	int fd;
	uint32_t q;
	uint16_t tile_mask;
	uint8_t *mem;
	struct drm_zex_launch_record *rec;
	uint64_t *flag;
};

FIXTURE_SETUP(lr_root)
{
	struct drm_zex_query_device dev;

	self->fd = zex_open_render();
	if (self->fd < 0)
		SKIP(return, "no zex render node");
	dev = query_device(self->fd);
	if (!(dev.flags & DRM_ZEX_DEVICE_IMPLICIT_SCALING) || dev.num_tiles < 2)
		SKIP(return, "no implicit scaling across tiles");
	self->tile_mask = (1u << dev.num_tiles) - 1;
	ASSERT_EQ(0, lr_queue_create(self->fd, DRM_ZEX_DEVICE_ROOT, 0, &self->q));
	self->mem = dev_alloc(self->fd, 4 * PAGE, NULL);
	ASSERT_NE(NULL, self->mem);
	self->rec = (struct drm_zex_launch_record *)self->mem;
	self->flag = (uint64_t *)(self->mem + 3 * PAGE);
}

FIXTURE_TEARDOWN(lr_root)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The 6.1 harness runs the test body even after SKIP() in FIXTURE_SETUP. */
#define NEED_TILES() do {							\
	if (!self->tile_mask)							\
		SKIP(return, "no implicit scaling across tiles");		\
} while (0)

TEST_F(lr_root, a_launch_ends_when_the_last_tile_reports)
{
	struct drm_zex_command cmds[2] = { cmd_launch(self->rec, 5), cmd_store(&self->flag[1], 1) };
	struct drm_zex_sync uf = sync_user_fence(&self->flag[0], 1);
	unsigned int tile, last;

	NEED_TILES();
	last = 31 - __builtin_clz(self->tile_mask);
	ASSERT_EQ(0, exec(self->fd, self->q, cmds, 2, &uf, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	EXPECT_EQ(self->tile_mask, self->rec->tile_mask);
	for (tile = 0; tile < last; tile++) {
		ASSERT_EQ(0, report(self->fd, self->q, tile, 1));
		EXPECT_EQ(-ESRCH, report(self->fd, self->q, tile, 1));
	}
	/* Still waiting for the last tile: its report is taken, and ends the launch. */
	EXPECT_EQ(0, self->flag[1]);
	ASSERT_EQ(0, report(self->fd, self->q, last, 1));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->flag[0], 1, ~0ull));
	EXPECT_EQ(1, self->flag[1]);
	EXPECT_EQ(-ESRCH, report(self->fd, self->q, 0, 1));
}

TEST_F(lr_root, a_fault_on_one_tile_stops_the_others)
{
	struct drm_zex_command launch = cmd_launch(self->rec, 5);
	struct drm_zex_exec_queue_get_state st;

	NEED_TILES();
	ASSERT_EQ(0, exec(self->fd, self->q, &launch, 1, NULL, 0));
	ASSERT_EQ(0, wait_on_queue(self->fd, self->q, &self->rec->seqno, 1, ~0ull));
	ASSERT_EQ(0, report_fault(self->fd, self->q, 1, 1, 0x5000, DRM_ZEX_FAULT_NOT_MAPPED, 0));
	/* Tile 0's part, still running, is told to stop; its report is refused. */
	ASSERT_EQ(0, wait_stopped(self->fd, self->rec));
	EXPECT_EQ(-EIO, report(self->fd, self->q, 0, 1));
	ASSERT_EQ(0, queue_state(self->fd, self->q, &st));
	EXPECT_EQ(-EFAULT, st.error);
	EXPECT_EQ(DRM_ZEX_FAULT_NOT_MAPPED, st.fault_reason);
	EXPECT_EQ(0x5000, st.fault_addr);
	EXPECT_EQ(0, st.fault_flags);
}

ZEX_SELFTEST_MAIN
