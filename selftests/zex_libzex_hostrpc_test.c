// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_hostrpc_test.c - hostrpc calls through libzex and zex.ko
 *
 * The protocol end to end over a kernel channel: synchronous and
 * asynchronous calls with every page verified at each hand-over (fill ->
 * operate -> use), device threads that sleep in the kernel for H, servers
 * that sleep in the wait ioctl, in poll() on the channel fd or on an
 * eventfd. Every wait is unbounded, so a lost wakeup hangs the test and
 * the harness's timeout fails it. Device processes with views of their
 * own; kill -9 of a device process mid-call (the others go on, its slots
 * come back); kill -9 of the server (callers fail with -EPIPE instead of
 * hanging). Two of them again as an unprivileged user.
 *
 * ZEX_STRESS=1 (make stress) runs many callers through the kernel channel:
 * ZEX_HOSTRPC_CALLERS device threads (default 1024) x ZEX_HOSTRPC_CALLS
 * calls each (default STRESS_CALLS) against 1, 2 and 4 servers, and 10^5
 * calls with both sides asleep. (The full 1024 x 1000 runs natively,
 * libzex/hostrpc/tests/hostrpc_scale.c.)
 */

#define STRESS_CALLS	100

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/eventfd.h>
#include <sys/wait.h>

#include "zex_selftest.h"
#include "zex/zex_hostrpc.h"

#define TAG_SLOW	(1ull << 63)	/* operate sleeps: a call stays in flight */
#define TAG_HANG	(1ull << 62)	/* operate says so on hang_pipe, then never returns */

static int hang_pipe[2] = { -1, -1 };

enum serve_mode { SERVE_WAIT, SERVE_POLL, SERVE_EVENTFD };

struct rig {
	struct zex_device *dev;
	struct zex_hostrpc *host;
	_Atomic int stop;
	_Atomic long errors, served;
};

struct call {
	uint64_t tag;
	struct rig *rig;
	_Atomic long *errors;
};

static void fill(struct zex_hostrpc_page *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++)
			p->cacheline[i].element[j] = c->tag ^ (uint64_t)(i * 8 + j);
}

static void operate(struct zex_hostrpc_page *p, void *ctx)
{
	struct rig *r = ctx;
	uint64_t tag = p->cacheline[0].element[0];
	int i, j;

	if (!tag)
		r->errors++;
	if (tag & TAG_SLOW)
		usleep(30000);
	if (tag & TAG_HANG) {
		/* In operate for good: only the server's death ends this call. */
		if (write(hang_pipe[1], "h", 1) != 1)
			r->errors++;
		for (;;)
			pause();
	}
	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++) {
			if (p->cacheline[i].element[j] != (tag ^ (uint64_t)(i * 8 + j)))
				r->errors++;
			p->cacheline[i].element[j] = p->cacheline[i].element[j] * 3 + 1;
		}
	r->served++;
}

static void use(struct zex_hostrpc_page *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++)
			if (p->cacheline[i].element[j] != (c->tag ^ (uint64_t)(i * 8 + j)) * 3 + 1)
				(*c->errors)++;
}

static void on_signal(int sig)
{
}

struct server {
	struct rig *rig;
	struct zex_hostrpc *view;
	enum serve_mode mode;
	pthread_t thread;
	long sleeps;
};

/* Serve; sleep unboundedly when idle, in the chosen way. */
static void *server_main(void *arg)
{
	struct server *s = arg;
	int fd = zex_hostrpc_fd(s->view), efd = -1;
	uint64_t v;

	if (s->mode == SERVE_EVENTFD) {
		efd = eventfd(0, 0);
		if (efd < 0 || zex_hostrpc_set_eventfd(s->view, efd))
			s->rig->errors++;
	}
	while (!s->rig->stop) {
		struct pollfd pfd = { .fd = s->mode == SERVE_EVENTFD ? efd : fd, .events = POLLIN };
		int ret = zex_hostrpc_serve(s->view, operate, s->rig);

		if (ret < 0)
			s->rig->errors++;
		if (ret)
			continue;
		if (s->mode == SERVE_WAIT) {
			ret = zex_hostrpc_wait(s->view, INT64_MAX);
			if (ret && ret != -EINTR)
				s->rig->errors++;
			s->sleeps++;
			continue;
		}
		if (zex_hostrpc_arm(s->view) != 1)
			continue;
		s->sleeps++;
		if (poll(&pfd, 1, -1) == 1 && read(pfd.fd, &v, sizeof(v)) != sizeof(v))
			s->rig->errors++;
	}
	if (efd >= 0)
		close(efd);
	return NULL;
}

static void servers_start(struct __test_metadata *_metadata, struct rig *r, struct server *s,
			  int n, const enum serve_mode *modes)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int k;

	/* No SA_RESTART: a signal gets a server out of its sleep to stop. */
	sigaction(SIGUSR1, &sa, NULL);
	for (k = 0; k < n; k++) {
		s[k] = (struct server){ .rig = r, .mode = modes[k] };
		ASSERT_EQ(0, zex_hostrpc_open_view(r->host, ZEX_HOSTRPC_HOST, &s[k].view));
		ASSERT_EQ(0, pthread_create(&s[k].thread, NULL, server_main, &s[k]));
	}
}

static void servers_stop(struct rig *r, struct server *s, int n)
{
	int k;

	r->stop = 1;
	for (k = 0; k < n; k++) {
		do {
			pthread_kill(s[k].thread, SIGUSR1);
			usleep(1000);
		} while (pthread_tryjoin_np(s[k].thread, NULL) == EBUSY);
		zex_hostrpc_close(s[k].view);
	}
	r->stop = 0;
}

struct device {
	struct rig *rig;
	struct zex_hostrpc *view;
	uint32_t id, calls;
	bool async;
	_Atomic long errors;
	long failed;
};

static void *device_main(void *arg)
{
	struct device *d = arg;
	uint32_t n;

	for (n = 0; n < d->calls; n++) {
		struct call c = { .tag = (((uint64_t)(d->id + 1) << 32 | n) * 0x9e3779b97f4a7c15ull) &
					 ~(TAG_SLOW | TAG_HANG),
				  .rig = d->rig, .errors = &d->errors };
		int ret;

		if (d->async && n % 2)
			ret = zex_hostrpc_call_async(d->view, d->id, fill, &c);
		else
			ret = zex_hostrpc_call(d->view, d->id, fill, use, &c);
		if (ret)
			d->failed++;
	}
	return NULL;
}

/*
 * Who makes and serves the calls once the node is open: root (0), or a
 * test's unprivileged user (each test runs in a process of its own).
 */
static uid_t rig_uid;

static void rig_open(struct __test_metadata *_metadata, struct rig *r, uint32_t nslots)
{
	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, zex_device_open(&r->dev));
	if (rig_uid)
		ASSERT_EQ(0, zex_become_user(rig_uid));
	ASSERT_EQ(0, zex_hostrpc_create(r->dev, nslots, &r->host));
}

static void rig_close(struct rig *r)
{
	zex_hostrpc_close(r->host);
	zex_device_close(r->dev);
}

/* Through a mapping of the view's own: is every W word free? */
static bool all_slots_free(struct zex_hostrpc *dv)
{
	struct drm_zex_hostrpc_info info;
	volatile struct drm_zex_hostrpc_private *priv;
	bool free = true;
	uint32_t i;
	void *map;

	if (zex_ioctl(zex_hostrpc_fd(dv), DRM_ZEX_HOSTRPC_IOCTL_INFO, &info))
		return false;
	map = mmap(NULL, info.map_size, PROT_READ, MAP_SHARED, zex_hostrpc_fd(dv), 0);
	if (map == MAP_FAILED)
		return false;
	priv = (void *)((char *)map + DRM_ZEX_HOSTRPC_PRIVATE_OFFSET);
	for (i = 0; i < info.nslots; i++)
		free &= priv->owner[i] == 0;
	munmap(map, info.map_size);
	return free;
}

/* Collect until every slot is free again (async calls in flight). */
/* Collect until every slot is free; a slot never freed hangs the test. */
static bool collect_all(struct zex_hostrpc *dv)
{
	for (;;) {
		zex_hostrpc_collect(dv);
		if (all_slots_free(dv))
			return true;
		sched_yield();
	}
}

/* A positive number from the environment, or @def. */
static uint32_t env_count(const char *name, uint32_t def)
{
	const char *s = getenv(name);
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 && v <= 1000000 ? (uint32_t)v : def;
}

/* The stress scale: callers (and slots) x calls each. */
static void stress_scale(uint32_t *callers, uint32_t *calls)
{
	*callers = env_count("ZEX_HOSTRPC_CALLERS", 1024);
	*calls = env_count("ZEX_HOSTRPC_CALLS", STRESS_CALLS);
}

/*
 * @ndev device threads x @calls against servers of @modes; device threads
 * sleep in the kernel after @spin polls; async calls are all collected
 * before it returns. Returns the process's voluntary context switches
 * (sleeps) per call.
 */
static double run(struct __test_metadata *_metadata, uint32_t nslots, int ndev, uint32_t calls,
		int nserv, const enum serve_mode *modes, uint32_t spin, bool async)
{
	struct rig r;
	struct server s[4];
	struct zex_hostrpc *dv;
	struct device *d = calloc((size_t)ndev, sizeof(*d));
	pthread_t *t = calloc((size_t)ndev, sizeof(*t));
	struct zex_hostrpc_stats st;
	struct rusage ru0, ru1;
	long total = 0;
	int64_t t0;
	double secs, sleeps;
	int k;

	if (!d || !t)
		return -1;
	rig_open(_metadata, &r, nslots);
	ASSERT_EQ(0, zex_hostrpc_open_view(r.host, ZEX_HOSTRPC_DEVICE, &dv));
	ASSERT_EQ(0, zex_hostrpc_set_spin(dv, spin));
	servers_start(_metadata, &r, s, nserv, modes);
	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &ru0));
	t0 = zex_now_ns();
	for (k = 0; k < ndev; k++) {
		d[k] = (struct device){ .rig = &r, .view = dv, .id = (uint32_t)k, .calls = calls,
					.async = async };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, device_main, &d[k]));
	}
	for (k = 0; k < ndev; k++) {
		ASSERT_EQ(0, pthread_join(t[k], NULL));
		EXPECT_EQ(0, d[k].failed);
		EXPECT_EQ(0, d[k].errors);
		total += d[k].calls;
	}
	/* Async calls still out are freed by collection once served. */
	EXPECT_TRUE(collect_all(dv));
	secs = (double)(zex_now_ns() - t0) / 1e9;
	ASSERT_EQ(0, getrusage(RUSAGE_SELF, &ru1));
	servers_stop(&r, s, nserv);
	EXPECT_EQ(0, r.errors);
	EXPECT_EQ(total, r.served);
	ASSERT_EQ(0, zex_hostrpc_stats(dv, &st));
	sleeps = (double)(ru1.ru_nvcsw - ru0.ru_nvcsw) / (double)total;
	TH_LOG("%d devices x %u calls, %d servers: %ld calls verified, %.0f calls/s, "
	       "%llu doorbell rings (%.3f per call), %llu rings to the device side, "
	       "%.1f sleeps per call",
	       ndev, calls, nserv, total, (double)total / secs,
	       (unsigned long long)st.rings_sent, (double)st.rings_sent / (double)total,
	       (unsigned long long)st.device_rings,
	       sleeps);
	zex_hostrpc_close(dv);
	rig_close(&r);
	free(t);
	free(d);
	return sleeps;
}

static const enum serve_mode wait1[] = { SERVE_WAIT };
static const enum serve_mode poll1[] = { SERVE_POLL };
static const enum serve_mode poll_eventfd[] = { SERVE_POLL, SERVE_EVENTFD };
static const enum serve_mode mixed4[] = { SERVE_WAIT, SERVE_POLL, SERVE_EVENTFD, SERVE_WAIT };

static void run_stress(struct __test_metadata *_metadata, int nserv,
		       const enum serve_mode *modes)
{
	uint32_t callers, calls;

	stress_scale(&callers, &calls);
	run(_metadata, callers, (int)callers, calls, nserv, modes, 64, false);
}

TEST(sync_calls_one_device_one_server)
{
	run(_metadata, 1, 1, zex_stress() ? 100000 : 1000, 1, wait1, 64, false);
}

TEST(async_calls_are_answered_and_collected)
{
	run(_metadata, 8, 4, 200, 1, poll1, 64, true);
}

TEST(sixty_four_devices_one_server)
{
	if (zex_stress())
		run_stress(_metadata, 1, wait1);
	else
		run(_metadata, 64, 64, 20, 1, poll1, 16, false);
}

TEST(sixty_four_devices_two_servers)
{
	if (zex_stress())
		run_stress(_metadata, 2, poll_eventfd);
	else
		run(_metadata, 64, 64, 20, 2, poll_eventfd, 16, false);
}

TEST(four_servers_every_way_of_sleeping)
{
	if (zex_stress())
		run_stress(_metadata, 4, mixed4);
	else
		run(_metadata, 16, 16, 20, 4, mixed4, 16, false);
}

TEST(blocking_on_both_sides_loses_no_wakeup)
{
	/* Devices sleep at once (spin 0), servers sleep at once: every
	 * hand-over goes through a doorbell; 10^5 calls under make stress. */
	run(_metadata, 4, 4, zex_stress() ? 25000 : 250, 2, poll_eventfd, 0, false);
}

/*
 * 64 callers asleep in the kernel (spin 0) against one sleeping server: a
 * ring to the device side wakes the caller whose answer came, not every
 * sleeper. Counted, not timed: the process's voluntary sleeps per call
 * stay a handful (a caller's sleep and the server's), where waking every
 * sleeper on every ring costs one sleep per sleeper per call.
 */
TEST(a_ring_wakes_its_caller_not_every_sleeper)
{
	double sleeps = run(_metadata, 64, 64, 20, 1, wait1, 0, false);

	EXPECT_LT(0, sleeps);
	EXPECT_GE(8.0, sleeps);
}

/*
 * As an unprivileged user (no groups, no capabilities) on the node root
 * opened, as any render-group user: the channel, its views, async calls
 * and their collection, callers asleep in the kernel at once (spin 0),
 * servers asleep in the wait ioctl, in poll() and on an eventfd.
 */
TEST(an_unprivileged_user_makes_and_serves_calls)
{
	rig_uid = ZEX_NOBODY;
	run(_metadata, 16, 16, 20, 4, mixed4, 0, true);
	EXPECT_EQ(ZEX_NOBODY, geteuid());
}

/* The sleeps-per-call count again, as that user. */
TEST(an_unprivileged_users_ring_wakes_its_caller)
{
	double sleeps;

	rig_uid = ZEX_NOBODY;
	sleeps = run(_metadata, 64, 64, 20, 1, wait1, 0, false);
	EXPECT_LT(0, sleeps);
	EXPECT_GE(8.0, sleeps);
	EXPECT_EQ(ZEX_NOBODY, geteuid());
}

TEST(calls_from_device_processes_with_their_own_views)
{
	struct rig r;
	struct server s[1];
	struct zex_hostrpc *dv;
	pid_t pid[4];
	int k, status;

	rig_open(_metadata, &r, 8);
	ASSERT_EQ(0, zex_hostrpc_open_view(r.host, ZEX_HOSTRPC_DEVICE, &dv));
	servers_start(_metadata, &r, s, 1, wait1);
	for (k = 0; k < 4; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (!pid[k]) {
			struct zex_hostrpc *own;
			struct device dd = { .rig = &r, .id = (uint32_t)k * 2, .calls = 100 };

			/* Its own view, from the inherited one. */
			if (zex_hostrpc_open_view(dv, ZEX_HOSTRPC_DEVICE, &own))
				_exit(2);
			dd.view = own;
			device_main(&dd);
			_exit(dd.failed || dd.errors ? 1 : 0);
		}
	}
	for (k = 0; k < 4; k++) {
		ASSERT_EQ(pid[k], waitpid(pid[k], &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	servers_stop(&r, s, 1);
	EXPECT_EQ(0, r.errors);
	EXPECT_EQ(400, r.served);
	zex_hostrpc_close(dv);
	rig_close(&r);
}

static void *fill_every_slot(void *arg)
{
	struct device *d = arg;
	struct call c = { .tag = 77, .rig = d->rig, .errors = &d->errors };
	uint32_t i;

	for (i = 0; i < zex_hostrpc_slots(d->view); i++)
		if (zex_hostrpc_call_async(d->view, i, fill, &c))
			d->failed++;
	return NULL;
}

TEST(kill_9_of_a_device_process_mid_call)
{
	const uint32_t nslots = 4;
	struct rig r;
	struct server s[1];
	struct zex_hostrpc *dv;
	struct zex_hostrpc_stats st;
	struct device d[2];
	pthread_t t[2];
	long served;
	pid_t pid;
	int k, status, ready[2];

	rig_open(_metadata, &r, nslots);
	ASSERT_EQ(0, zex_hostrpc_open_view(r.host, ZEX_HOSTRPC_DEVICE, &dv));
	servers_start(_metadata, &r, s, 1, wait1);
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct zex_hostrpc *own;
		_Atomic long errors = 0;
		uint32_t n;

		if (zex_hostrpc_open_view(dv, ZEX_HOSTRPC_DEVICE, &own))
			_exit(2);
		if (write(ready[1], "x", 1) != 1)
			_exit(2);
		/* Slow calls on two slots, sync and async, until killed. */
		for (n = 0;; n++) {
			struct call c = { .tag = TAG_SLOW | n, .rig = &r, .errors = &errors };

			zex_hostrpc_call_async(own, 0, fill, &c);
			zex_hostrpc_call(own, 1, fill, use, &c);
		}
	}
	{
		char x;

		ASSERT_EQ(1, read(ready[0], &x, 1));
	}
	usleep(100000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));

	/* The others go on, on the remaining slots and then on all. */
	for (k = 0; k < 2; k++) {
		d[k] = (struct device){ .rig = &r, .view = dv, .id = 2 + (uint32_t)k, .calls = 50 };
		ASSERT_EQ(0, pthread_create(&t[k], NULL, device_main, &d[k]));
	}
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, pthread_join(t[k], NULL));
		EXPECT_EQ(0, d[k].failed);
		EXPECT_EQ(0, d[k].errors);
	}
	/* Its slots come back once the host is done with them (no deadline). */
	for (;;) {
		ASSERT_EQ(0, zex_hostrpc_stats(dv, &st));
		if (!st.orphans)
			break;
		sched_yield();
	}
	EXPECT_EQ(0u, st.orphans);
	EXPECT_LE(1u, st.reaped);
	TH_LOG("reaped %llu slots of the killed process", (unsigned long long)st.reaped);

	/* Every slot is free: with the server stopped, one async call per
	 * slot must all get a slot (a lost slot would block the last). */
	EXPECT_TRUE(collect_all(dv));
	servers_stop(&r, s, 1);
	served = r.served;
	d[0] = (struct device){ .rig = &r, .view = dv };
	ASSERT_EQ(0, pthread_create(&t[0], NULL, fill_every_slot, &d[0]));
	/* A lost slot blocks it for ever: the harness's timeout fails the test. */
	EXPECT_EQ(0, pthread_join(t[0], NULL));
	EXPECT_EQ(0, d[0].failed);
	/* Drain them, so nothing is left in flight. */
	servers_start(_metadata, &r, s, 1, wait1);
	EXPECT_TRUE(collect_all(dv));
	EXPECT_EQ(served + nslots, r.served);
	servers_stop(&r, s, 1);
	EXPECT_EQ(0, r.errors);
	zex_hostrpc_close(dv);
	rig_close(&r);
}

TEST(kill_9_of_the_server_fails_callers_instead_of_hanging)
{
	struct rig r;
	struct zex_hostrpc *dv;
	struct zex_hostrpc_stats st;
	_Atomic long errors = 0;
	struct call c = { .tag = 5, .rig = &r, .errors = &errors };
	pid_t pid;
	int status;

	rig_open(_metadata, &r, 2);
	ASSERT_EQ(0, zex_hostrpc_open_view(r.host, ZEX_HOSTRPC_DEVICE, &dv));
	ASSERT_EQ(0, zex_hostrpc_set_spin(dv, 16));
	ASSERT_EQ(0, pipe(hang_pipe));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct server s = { .rig = &r, .view = r.host, .mode = SERVE_WAIT };

		server_main(&s);
		_exit(0);
	}
	/* The parent keeps no host view: the child's is the only one. */
	zex_hostrpc_close(r.host);
	r.host = NULL;
	EXPECT_EQ(0, zex_hostrpc_call(dv, 0, fill, use, &c));
	/* The server dies while it operates on a call (it says when it is there). */
	c.tag = TAG_HANG | 6;
	if (fork() == 0) {
		char h;

		if (read(hang_pipe[0], &h, 1) == 1)
			kill(pid, SIGKILL);
		_exit(0);
	}
	EXPECT_EQ(-EPIPE, zex_hostrpc_call(dv, 1, fill, use, &c));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	/* Later calls fail at once, sync or async. */
	EXPECT_EQ(-EPIPE, zex_hostrpc_call(dv, 0, fill, use, &c));
	EXPECT_EQ(-EPIPE, zex_hostrpc_call_async(dv, 0, fill, &c));
	ASSERT_EQ(0, zex_hostrpc_stats(dv, &st));
	EXPECT_EQ(1u, st.dead);
	EXPECT_EQ(0, errors);
	while (wait(NULL) > 0)
		;
	zex_hostrpc_close(dv);
	zex_device_close(r.dev);
}

TEST(views_refuse_the_other_sides_calls)
{
	struct rig r;
	struct zex_hostrpc *dv, *other = NULL;
	struct call c = { .tag = 1 };
	int efd = eventfd(0, 0);

	rig_open(_metadata, &r, 1);
	ASSERT_EQ(0, zex_hostrpc_open_view(r.host, ZEX_HOSTRPC_DEVICE, &dv));
	EXPECT_EQ(-EINVAL, zex_hostrpc_call(r.host, 0, fill, use, &c));
	EXPECT_EQ(-EINVAL, zex_hostrpc_call_async(r.host, 0, fill, &c));
	EXPECT_EQ(-EINVAL, zex_hostrpc_collect(r.host));
	EXPECT_EQ(-EINVAL, zex_hostrpc_set_spin(r.host, 1));
	EXPECT_EQ(-EINVAL, zex_hostrpc_serve(dv, operate, &r));
	EXPECT_EQ(-EINVAL, zex_hostrpc_arm(dv));
	EXPECT_EQ(-EINVAL, zex_hostrpc_wait(dv, 0));
	EXPECT_EQ(-EPERM, zex_hostrpc_open_view(dv, ZEX_HOSTRPC_HOST, &other));
	EXPECT_EQ(-EINVAL, zex_hostrpc_create(r.dev, 0, &other));
	EXPECT_EQ(-E2BIG, zex_hostrpc_create(r.dev, 4096, &other));
	/* Not a channel view (adopt closes it). */
	ASSERT_LE(0, efd);
	EXPECT_EQ(-ENOTTY, zex_hostrpc_adopt(efd, &other));
	EXPECT_EQ(NULL, other);
	zex_hostrpc_close(dv);
	rig_close(&r);
}

ZEX_SELFTEST_MAIN
