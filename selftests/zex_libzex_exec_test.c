// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_exec_test.c - libzex's core execution API against the kernel
 *
 * A buffer object bound at its own CPU address runs jobs there: a fill
 * seen through the mapping, a copy into imported host memory, a timeline
 * sync object's points signalled in order and waited for (and polled with
 * a timeout of 0), a user fence waited for, with a timeout that passes,
 * and a wait a signal interrupts going on to its end. A queue at its most
 * jobs in flight answers -EBUSY; a bad queue -ENOENT. A long-running
 * queue's launches are served by a thread through the core API: one
 * reported done (the job goes on), one reported faulted (the queue is
 * banned with the fault, the next wait for a launch fails with -EIO).
 */

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/time.h>

#include "zex_selftest.h"
#include "zex/zex_exec.h"

#define SIZE	(64u << 10)

FIXTURE(core) {
	struct zex_device *dev;
	uint32_t bo, bind, queue, syncobj;
	uint8_t *map;		/* the object, bound at this address */
	uint64_t *host;		/* imported anonymous memory */
	uint32_t host_id;
};

FIXTURE_SETUP(core)
{
	if (zex_device_open(&self->dev))
		SKIP(return, "no zex device");
	ASSERT_EQ(0, zex_bo_create(self->dev, SIZE, 0, NULL, &self->bo, NULL));
	ASSERT_EQ(0, zex_bo_map(self->dev, self->bo, SIZE, 0, (void **)&self->map));
	ASSERT_EQ(0, zex_bo_bind(self->dev, self->bo, (uintptr_t)self->map, false, &self->bind));
	self->host = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	ASSERT_EQ(0, zex_userptr_import(self->dev, self->host, SIZE, false, &self->host_id));
	ASSERT_EQ(0, zex_exec_queue_create(self->dev, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0,
					   &self->queue));
	ASSERT_EQ(0, zex_syncobj_create(self->dev, &self->syncobj));
}

FIXTURE_TEARDOWN(core)
{
	if (!self->dev)
		return;
	zex_syncobj_destroy(self->dev, self->syncobj);
	zex_exec_queue_destroy(self->dev, self->queue);
	zex_userptr_release(self->dev, self->host_id);
	zex_bo_unbind(self->dev, self->bind);
	munmap(self->map, SIZE);
	munmap(self->host, SIZE);
	zex_bo_close(self->dev, self->bo);
	zex_device_close(self->dev);
}

static struct drm_zex_command fill(void *dst, uint64_t len, uint8_t byte)
{
	struct drm_zex_command c = {
		.op = DRM_ZEX_CMD_FILL, .dst = (uintptr_t)dst, .len = len, .pattern_size = 1,
	};

	c.pattern[0] = byte;
	return c;
}

static struct drm_zex_sync point(uint32_t syncobj, uint64_t value)
{
	return (struct drm_zex_sync){
		.type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .flags = DRM_ZEX_SYNC_SIGNAL,
		.handle = syncobj, .timeline_value = value,
	};
}

TEST_F(core, a_bound_object_runs_jobs_at_its_own_address)
{
	struct drm_zex_command cmds[2] = {
		fill(self->map, SIZE, 0x5a),
		{ .op = DRM_ZEX_CMD_COPY, .src = (uintptr_t)self->map,
		  .dst = (uintptr_t)self->host, .len = SIZE },
	};
	struct drm_zex_sync s = point(self->syncobj, 1);
	size_t i;
	bool same = true;

	ASSERT_EQ(0, zex_exec(self->dev, self->queue, cmds, 2, &s, 1));
	ASSERT_EQ(0, zex_syncobj_wait(self->dev, self->syncobj, 1, -1));
	for (i = 0; i < SIZE; i++)
		same &= self->map[i] == 0x5a && ((uint8_t *)self->host)[i] == 0x5a;
	EXPECT_TRUE(same);
}

TEST_F(core, timeline_points_and_user_fences_are_waited_for)
{
	struct drm_zex_command hold = {
		.op = DRM_ZEX_CMD_WAIT, .src = (uintptr_t)&self->host[0], .value = 1,
		.mask = ~0ull, .compare = DRM_ZEX_COMPARE_EQ,
	};
	struct drm_zex_command store = {
		.op = DRM_ZEX_CMD_STORE, .dst = (uintptr_t)&self->host[1], .value = 7,
	};
	struct drm_zex_sync s = point(self->syncobj, 1), s2 = point(self->syncobj, 2);

	ASSERT_EQ(0, zex_exec(self->dev, self->queue, &hold, 1, &s, 1));
	ASSERT_EQ(0, zex_exec(self->dev, self->queue, &store, 1, &s2, 1));
	/* Held: a poll and a short wait both time out. */
	EXPECT_EQ(-ETIME, zex_syncobj_wait(self->dev, self->syncobj, 2, 0));
	EXPECT_EQ(-ETIME, zex_wait_user_fence(self->dev, &self->host[1], DRM_ZEX_COMPARE_EQ, 7,
					      ~0ull, 1000000));
	self->host[0] = 1;
	EXPECT_EQ(0, zex_wait_user_fence(self->dev, &self->host[1], DRM_ZEX_COMPARE_EQ, 7,
					 ~0ull, -1));
	EXPECT_EQ(0, zex_syncobj_wait(self->dev, self->syncobj, 2, -1));
	EXPECT_EQ(0, zex_syncobj_wait(self->dev, self->syncobj, 1, 0));
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A wait interrupted by a signal (no SA_RESTART) goes on until it ends. */
TEST_F(core, a_wait_goes_on_after_a_signal)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 20000 } };
	int64_t t0 = zex_now_ns();

	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	/* Nothing ever stores 1 here: the whole timeout passes. */
	EXPECT_EQ(-ETIME, zex_wait_user_fence(self->dev, &self->host[2], DRM_ZEX_COMPARE_EQ, 1,
					      ~0ull, 200000000));
	EXPECT_LE(200000000, zex_now_ns() - t0);
	signal(SIGALRM, SIG_DFL);
}

TEST_F(core, errors_come_back_as_negative_errnos)
{
	long long max_jobs = zex_param("exec_max_jobs");
	struct drm_zex_command hold = {
		.op = DRM_ZEX_CMD_WAIT, .src = (uintptr_t)&self->host[0], .value = 1,
		.mask = ~0ull, .compare = DRM_ZEX_COMPARE_EQ,
	};
	struct drm_zex_command store = {
		.op = DRM_ZEX_CMD_STORE, .dst = (uintptr_t)&self->host[1], .value = 1,
	};
	uint32_t id;
	long long i;

	EXPECT_EQ(-ENOENT, zex_exec(self->dev, self->queue + 100, &store, 1, NULL, 0));
	EXPECT_EQ(-EINVAL, zex_exec_queue_create(self->dev, 99, 0, 0, &id));
	ASSERT_LT(0, max_jobs);
	ASSERT_EQ(0, zex_exec(self->dev, self->queue, &hold, 1, NULL, 0));
	for (i = 1; i < max_jobs; i++)
		ASSERT_EQ(0, zex_exec(self->dev, self->queue, &store, 1, NULL, 0));
	EXPECT_EQ(-EBUSY, zex_exec(self->dev, self->queue, &store, 1, NULL, 0));
	self->host[0] = 1;
}

/* The compute side: serves launch 1 well, faults launch 2. */
struct server {
	struct zex_device *dev;
	uint32_t queue;
	struct drm_zex_launch_record *rec;
	int ret[4];
};

static void *serve(void *arg)
{
	struct server *s = arg;

	s->ret[0] = zex_launch_wait(s->dev, s->queue, s->rec, 1, -1);
	s->ret[1] = s->rec->cookie == 11 ? zex_launch_report(s->dev, s->queue, 0, 1) : -1;
	s->ret[2] = zex_launch_wait(s->dev, s->queue, s->rec, 2, -1);
	s->ret[3] = zex_launch_report_fault(s->dev, s->queue, 0, 2, 0x1000,
					    DRM_ZEX_FAULT_NOT_MAPPED, true);
	return NULL;
}

TEST_F(core, a_long_running_queue_s_launches_are_served)
{
	struct drm_zex_launch_record *rec = (struct drm_zex_launch_record *)&self->host[64];
	struct drm_zex_command cmds[2] = {
		{ .op = DRM_ZEX_CMD_LAUNCH, .dst = (uintptr_t)rec, .value = 11 },
		{ .op = DRM_ZEX_CMD_STORE, .dst = (uintptr_t)&self->host[3], .value = 5 },
	};
	struct drm_zex_sync done = {
		.type = DRM_ZEX_SYNC_USER_FENCE, .flags = DRM_ZEX_SYNC_SIGNAL,
		.addr = (uintptr_t)&self->host[4], .timeline_value = 1,
	};
	struct drm_zex_exec_queue_get_state st;
	struct server srv = { .dev = self->dev, .rec = rec };
	pthread_t t;

	ASSERT_EQ(0, zex_exec_queue_create_lr(self->dev, 0, 0, &srv.queue));
	EXPECT_EQ(-ETIME, zex_launch_wait(self->dev, srv.queue, rec, 1, 0));
	ASSERT_EQ(0, pthread_create(&t, NULL, serve, &srv));
	ASSERT_EQ(0, zex_exec(self->dev, srv.queue, cmds, 2, &done, 1));
	ASSERT_EQ(0, zex_wait_user_fence(self->dev, &self->host[4], DRM_ZEX_COMPARE_EQ, 1,
					 ~0ull, -1));
	EXPECT_EQ(5, self->host[3]);
	cmds[0].value = 12;
	ASSERT_EQ(0, zex_exec(self->dev, srv.queue, cmds, 1, NULL, 0));
	EXPECT_EQ(-EIO, zex_launch_wait(self->dev, srv.queue, rec, 3, -1));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, srv.ret[0]);
	EXPECT_EQ(0, srv.ret[1]);
	EXPECT_EQ(0, srv.ret[2]);
	EXPECT_EQ(0, srv.ret[3]);
	ASSERT_EQ(0, zex_exec_queue_state(self->dev, srv.queue, &st));
	EXPECT_EQ(-EFAULT, st.error);
	EXPECT_EQ(0x1000, st.fault_addr);
	EXPECT_EQ(DRM_ZEX_FAULT_WRITE, st.fault_flags);
	/* A report of a queue the file does not have. */
	EXPECT_EQ(-ENOENT, zex_launch_report(self->dev, srv.queue + 1000, 0, 1));
	EXPECT_EQ(0, zex_exec_queue_destroy(self->dev, srv.queue));
}

ZEX_SELFTEST_MAIN
