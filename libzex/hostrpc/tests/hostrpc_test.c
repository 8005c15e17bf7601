// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_test.c - the protocol core under ThreadSanitizer
 *
 * Device threads and host server threads in one process over a shared
 * region, as the model has them: servers serve, then arm and re-check, and
 * sleep on an eventfd that the device's doorbell writes. Every call's page
 * is checked at each hand-over (fill -> operate -> use), so a page touched
 * by both sides at once, or an answer lost, fails the test; a lost wakeup
 * hangs it (the harness's timeout fails it). A dead host fails calls
 * instead of hanging them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../hostrpc.h"

/* A data race aborts the test process: reported is failed. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

/* The shared region and both sides' private words, in plain memory. */
struct region {
	hr_word_t G[HOSTRPC_WORDS], H[HOSTRPC_WORDS], A[HOSTRPC_WORDS];
	hr_u32_t host_armed, device_armed, dead;
	hr_u32_t W[HOSTRPC_MAX_SLOTS], T[HOSTRPC_MAX_SLOTS];
};

struct rig {
	struct region *mem;
	hostrpc_page_t *pages;
	uint32_t nslots;
	int host_efd;		/* the host's interrupt */
	/* The device side's interrupt: a generation, as a kernel wait queue. */
	pthread_mutex_t device_lock;
	pthread_cond_t device_cond;
	uint64_t device_gen;
	_Atomic int stop;
	_Atomic long errors, served_calls, host_rings, device_rings, sleeps, device_sleeps;
};

struct call {
	uint64_t tag;
	struct rig *rig;
};

static struct hostrpc_shared shared_of(struct rig *r)
{
	return (struct hostrpc_shared){ .G = r->mem->G, .H = r->mem->H,
					.host_armed = &r->mem->host_armed,
					.device_armed = &r->mem->device_armed,
					.dead = &r->mem->dead, .pages = r->pages,
					.nslots = r->nslots };
}

static void ring(int efd, _Atomic long *count, _Atomic long *errors)
{
	uint64_t one = 1;

	(*count)++;
	if (write(efd, &one, sizeof(one)) != sizeof(one))
		(*errors)++;
}

static void ring_host(void *ctx)
{
	struct rig *r = ctx;

	ring(r->host_efd, &r->host_rings, &r->errors);
}

/* The device side's interrupt wakes every device-side sleeper. */
static void ring_device(void *ctx)
{
	struct rig *r = ctx;

	r->device_rings++;
	pthread_mutex_lock(&r->device_lock);
	r->device_gen++;
	pthread_cond_broadcast(&r->device_cond);
	pthread_mutex_unlock(&r->device_lock);
}

/*
 * What the kernel's wait ioctl does for a device view, in userspace: get
 * on the wait queue (take the generation), arm the device side, re-check,
 * sleep until a ring moves the generation on.
 */
static bool bit(hr_word_t *map, uint32_t slot)
{
	return (hr_load_sc(&map[slot / 64]) >> (slot % 64)) & 1;
}

static int wait_device(void *ctx, uint32_t slot, enum hostrpc_wait_for what)
{
	struct rig *r = ctx;
	uint64_t gen;
	bool done;

	pthread_mutex_lock(&r->device_lock);
	gen = r->device_gen;
	pthread_mutex_unlock(&r->device_lock);
	hr_u32_store(&r->mem->device_armed, 1);
	if (what == HOSTRPC_WAIT_ANSWER)
		done = bit(r->mem->H, slot);
	else
		done = bit(r->mem->G, slot) == bit(r->mem->H, slot);
	if (done || hr_u32_load(&r->mem->dead))
		return 0;
	r->device_sleeps++;
	pthread_mutex_lock(&r->device_lock);
	while (r->device_gen == gen)
		pthread_cond_wait(&r->device_cond, &r->device_lock);
	pthread_mutex_unlock(&r->device_lock);
	return 0;
}

static void fill(hostrpc_page_t *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++)
			p->cacheline[i].element[j] = c->tag ^ (uint64_t)(i * 8 + j);
}

static void operate(hostrpc_page_t *p, void *ctx)
{
	struct rig *r = ctx;
	uint64_t tag = p->cacheline[0].element[0];
	int i, j;

	if (!tag)
		r->errors++;	/* a cleared page: served twice */
	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++) {
			if (p->cacheline[i].element[j] != (tag ^ (uint64_t)(i * 8 + j)))
				r->errors++;
			p->cacheline[i].element[j] = p->cacheline[i].element[j] * 3 + 1;
		}
	r->served_calls++;
}

static void clear(hostrpc_page_t *p, void *ctx)
{
	(void)ctx;
	memset(p, 0, sizeof(*p));
}

static void use(hostrpc_page_t *p, void *ctx)
{
	struct call *c = ctx;
	int i, j;

	for (i = 0; i < 64; i++)
		for (j = 0; j < 8; j++)
			if (p->cacheline[i].element[j] != (c->tag ^ (uint64_t)(i * 8 + j)) * 3 + 1)
				c->rig->errors++;
}

struct server {
	struct rig *rig;
	struct hostrpc_server s;
};

static void *server_main(void *arg)
{
	struct server *sv = arg;
	struct rig *r = sv->rig;
	uint64_t v;

	while (!r->stop) {
		if (hostrpc_server_handle(&sv->s, operate, clear, r))
			continue;
		if (!hostrpc_server_arm(&sv->s))
			continue;
		r->sleeps++;
		if (read(r->host_efd, &v, sizeof(v)) != sizeof(v))
			break;
	}
	return NULL;
}

struct device {
	struct rig *rig;
	struct hostrpc_client *client;
	uint32_t id, calls;
	bool async;
	int failed;
};

static void *device_main(void *arg)
{
	struct device *d = arg;
	uint32_t n;

	for (n = 0; n < d->calls; n++) {
		struct call c = { .tag = ((uint64_t)(d->id + 1) << 32 | n) * 0x9e3779b97f4a7c15ull,
				  .rig = d->rig };
		int ret;

		if (d->async && n % 2)
			ret = hostrpc_client_invoke_async(d->client, d->id, fill, &c);
		else
			ret = hostrpc_client_invoke(d->client, d->id, fill, use, &c);
		if (ret)
			d->failed++;
	}
	return NULL;
}

struct shape {
	uint32_t nslots;
	int devices, servers, views;
	uint32_t calls;
	bool async, blocking_devices;
};

static struct rig *rig_new(struct __test_metadata *_metadata, uint32_t nslots)
{
	struct rig *r = calloc(1, sizeof(*r));

	ASSERT_NE(NULL, r);
	r->mem = calloc(1, sizeof(*r->mem));
	r->pages = aligned_alloc(4096, nslots * sizeof(hostrpc_page_t));
	ASSERT_NE(NULL, r->mem);
	ASSERT_NE(NULL, r->pages);
	r->nslots = nslots;
	r->host_efd = eventfd(0, EFD_SEMAPHORE);
	ASSERT_LE(0, r->host_efd);
	pthread_mutex_init(&r->device_lock, NULL);
	pthread_cond_init(&r->device_cond, NULL);
	return r;
}

static void rig_free(struct rig *r)
{
	close(r->host_efd);
	pthread_cond_destroy(&r->device_cond);
	pthread_mutex_destroy(&r->device_lock);
	free(r->pages);
	free(r->mem);
	free(r);
}

static void run(struct __test_metadata *_metadata, struct shape sh)
{
	struct rig *r = rig_new(_metadata, sh.nslots);
	struct device *dev = calloc((size_t)sh.devices, sizeof(*dev));
	struct hostrpc_client *views = calloc((size_t)sh.views, sizeof(*views));
	struct server sv[4];
	pthread_t st[4], *dt = calloc((size_t)sh.devices, sizeof(*dt));
	uint64_t wake = 1;
	long expected = (long)sh.devices * sh.calls;
	uint32_t i;
	int k;

	/* Device threads share their view's W, as threads of a process do. */
	for (k = 0; k < sh.views; k++)
		views[k] = (struct hostrpc_client){ .sh = shared_of(r), .W = r->mem->W,
						    .A = r->mem->A, .id = 2 + (uint32_t)k,
						    .spin = 64, .ring = ring_host, .ring_ctx = r,
						    .wait = sh.blocking_devices ? wait_device : NULL,
						    .wait_ctx = r };
	for (k = 0; k < sh.servers; k++) {
		sv[k] = (struct server){ .rig = r,
					 .s = { .sh = shared_of(r), .T = r->mem->T,
						.id = 100 + (uint32_t)k, .ring = ring_device,
						.ring_ctx = r } };
		ASSERT_EQ(0, pthread_create(&st[k], NULL, server_main, &sv[k]));
	}
	for (k = 0; k < sh.devices; k++) {
		dev[k] = (struct device){ .rig = r, .client = &views[k % sh.views],
					  .id = (uint32_t)k, .calls = sh.calls,
					  .async = sh.async };
		ASSERT_EQ(0, pthread_create(&dt[k], NULL, device_main, &dev[k]));
	}
	for (k = 0; k < sh.devices; k++) {
		ASSERT_EQ(0, pthread_join(dt[k], NULL));
		EXPECT_EQ(0, dev[k].failed);
	}
	/* Slots still held (async calls, lazily released sync calls): a
	 * later call's collection frees them once the host is done. */
	for (i = 0; i < 100000; i++) {
		uint32_t held = 0, s;

		hostrpc_client_collect(&views[0]);
		for (s = 0; s < sh.nslots; s++)
			held += hr_u32_load(&r->mem->W[s]) != 0;
		if (!held)
			break;
		usleep(100);
	}
	r->stop = 1;
	for (k = 0; k < sh.servers; k++)
		if (write(r->host_efd, &wake, sizeof(wake)) != sizeof(wake))
			r->errors++;
	for (k = 0; k < sh.servers; k++)
		ASSERT_EQ(0, pthread_join(st[k], NULL));
	EXPECT_EQ(0, r->errors);
	EXPECT_EQ(expected, r->served_calls);
	for (i = 0; i < sh.nslots; i++) {
		EXPECT_EQ(0, hr_u32_load(&r->mem->W[i]));
		EXPECT_EQ(0, hr_u32_load(&r->mem->T[i]));
	}
	for (i = 0; i < HOSTRPC_WORDS; i++) {
		EXPECT_EQ(0, hr_load(&r->mem->G[i]));
		EXPECT_EQ(0, hr_load(&r->mem->H[i]));
		EXPECT_EQ(0, hr_load(&r->mem->A[i]));
	}
	TH_LOG("%d devices x %u calls, %d servers: %ld host rings, %ld host sleeps, "
	       "%ld device rings, %ld device sleeps", sh.devices, sh.calls, sh.servers,
	       r->host_rings, r->sleeps, r->device_rings, r->device_sleeps);
	rig_free(r);
	free(dt);
	free(dev);
	free(views);
}

TEST(one_device_one_server)
{
	run(_metadata, (struct shape){ .nslots = 1, .devices = 1, .servers = 1, .views = 1,
				       .calls = 1000 });
}

/* Bounded for ThreadSanitizer on two cores; make stress goes further. */
TEST(sixty_four_devices_one_server)
{
	run(_metadata, (struct shape){ .nslots = 64, .devices = 64, .servers = 1, .views = 1,
				       .calls = 25 });
}

TEST(sixty_four_devices_two_servers_two_views)
{
	run(_metadata, (struct shape){ .nslots = 64, .devices = 64, .servers = 2, .views = 2,
				       .calls = 25 });
}

TEST(more_devices_than_slots_still_progress)
{
	/* The host is fair, so callers that wait for a slot get one. */
	run(_metadata, (struct shape){ .nslots = 4, .devices = 16, .servers = 2, .views = 1,
				       .calls = 50 });
}

TEST(async_calls_are_collected)
{
	/* Every other call is asynchronous; collections by any caller free them. */
	run(_metadata, (struct shape){ .nslots = 16, .devices = 8, .servers = 2, .views = 2,
				       .calls = 100, .async = true });
}

TEST(async_calls_fill_every_slot_then_collect)
{
	/* Fewer slots than async calls in flight: acquire must collect. */
	run(_metadata, (struct shape){ .nslots = 2, .devices = 4, .servers = 1, .views = 1,
				       .calls = 100, .async = true });
}

TEST(blocking_devices_are_woken_by_the_host)
{
	/* Devices sleep for H (the reverse doorbell); no wakeup may be lost. */
	run(_metadata, (struct shape){ .nslots = 16, .devices = 16, .servers = 2, .views = 1,
				       .calls = 50, .blocking_devices = true });
}

static void *kill_host(void *arg)
{
	hr_u32_t *dead = arg;

	usleep(20000);
	hr_u32_store(dead, 1);
	return NULL;
}

TEST(a_dead_host_fails_calls_instead_of_hanging)
{
	struct rig *r = rig_new(_metadata, 1);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .A = r->mem->A,
				    .id = 2 };
	struct call call = { .tag = 1, .rig = r };
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, kill_host, &r->mem->dead));
	/* No server: the call waits for H until the host is declared dead. */
	EXPECT_EQ(HOSTRPC_DEAD, hostrpc_client_invoke(&c, 0, fill, use, &call));
	ASSERT_EQ(0, pthread_join(t, NULL));
	/* The slot came back, and a new call fails at once. */
	EXPECT_EQ(0, hr_u32_load(&r->mem->W[0]));
	EXPECT_EQ(HOSTRPC_DEAD, hostrpc_client_invoke_async(&c, 0, fill, &call));
	rig_free(r);
}

TEST(a_dead_host_fails_a_caller_waiting_for_a_slot)
{
	struct rig *r = rig_new(_metadata, 1);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .A = r->mem->A,
				    .id = 2 };
	struct call call = { .tag = 1, .rig = r };
	pthread_t t;

	/* The only slot is held by an async call nobody answers. */
	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 0, fill, &call));
	ASSERT_EQ(0, pthread_create(&t, NULL, kill_host, &r->mem->dead));
	EXPECT_EQ(HOSTRPC_DEAD, hostrpc_client_invoke(&c, 0, fill, use, &call));
	ASSERT_EQ(0, pthread_join(t, NULL));
	rig_free(r);
}

TEST(collection_leaves_unanswered_calls_alone)
{
	struct rig *r = rig_new(_metadata, 4);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .A = r->mem->A,
				    .id = 7 };
	struct hostrpc_server s = { .sh = shared_of(r), .T = r->mem->T, .id = 9 };
	struct call call = { .tag = 5, .rig = r };

	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 2, fill, &call));
	EXPECT_EQ(7u | HOSTRPC_OWNER_ASYNC, hr_u32_load(&r->mem->W[2]));
	EXPECT_EQ(1ull << 2, hr_load(&r->mem->A[0]));
	EXPECT_EQ(1ull << 2, hr_load(&r->mem->G[0]));
	/* Not answered: nothing to collect. */
	EXPECT_EQ(0, hostrpc_client_collect(&c));
	EXPECT_EQ(1ull << 2, hr_load(&r->mem->G[0]));
	/* Answered: the first collection releases G, the host clears H, the next frees. */
	EXPECT_TRUE(hostrpc_server_handle(&s, operate, clear, r));
	EXPECT_EQ(0, hostrpc_client_collect(&c));
	EXPECT_EQ(0, hr_load(&r->mem->G[0]));
	EXPECT_EQ(1ull << 2, hr_load(&r->mem->H[0]));
	EXPECT_TRUE(hostrpc_server_handle(&s, operate, clear, r));
	EXPECT_EQ(0, hr_load(&r->mem->H[0]));
	EXPECT_EQ(1, hostrpc_client_collect(&c));
	EXPECT_EQ(0, hr_u32_load(&r->mem->W[2]));
	EXPECT_EQ(0, hr_load(&r->mem->A[0]));
	EXPECT_EQ(1, r->served_calls);
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

TEST(arming_sees_work_and_rings_once)
{
	struct rig *r = rig_new(_metadata, 8);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .A = r->mem->A,
				    .id = 2, .ring = ring_host, .ring_ctx = r };
	struct hostrpc_server s = { .sh = shared_of(r), .T = r->mem->T, .id = 3 };
	struct call call = { .tag = 5, .rig = r };

	/* Nothing to do: the server may sleep, and it is armed. */
	EXPECT_TRUE(hostrpc_server_arm(&s));
	EXPECT_EQ(1, hr_u32_load(&r->mem->host_armed));
	/* Two publications, one arming: one ring. */
	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 0, fill, &call));
	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 1, fill, &call));
	EXPECT_EQ(1, r->host_rings);
	EXPECT_EQ(0, hr_u32_load(&r->mem->host_armed));
	/* Work is there: arming says do not sleep. */
	EXPECT_FALSE(hostrpc_server_arm(&s));
	rig_free(r);
}

/* CPU hogs: more runnable threads than cores, so callers get preempted. */
static _Atomic int hogs_stop;

static void *hog(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	while (!hogs_stop)
		n++;
	return NULL;
}

struct watchdog {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int started, finished;
	unsigned int deadline_s;
};

/*
 * A run that does not finish by its deadline is a hang: report it and end
 * the test process (its threads cannot be taken back). The deadline only
 * detects a hang; no figure is asserted.
 */
static void *watch(void *arg)
{
	struct watchdog *w = arg;
	unsigned int seen = 0;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct timespec until;

		while (w->started == w->finished && w->started != UINT32_MAX)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->started == UINT32_MAX)
			break;
		seen = w->started;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += w->deadline_s;
		while (w->finished < seen && w->started != UINT32_MAX)
			if (pthread_cond_timedwait(&w->cond, &w->lock, &until)) {
				printf("# HANG: run %u did not finish in %u s\n", seen,
				       w->deadline_s);
				fflush(stdout);
				_exit(1);
			}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned int)strtoul(s, NULL, 0) : def;
}

FIXTURE(pressure) {
	int unused;
};

FIXTURE_SETUP(pressure)
{
}

FIXTURE_TEARDOWN(pressure)
{
}

/*
 * The slot-exhaustion and async-collection patterns again and again under
 * CPU pressure (twice as many busy threads as cores): a caller whose own
 * slot is recycled while it waits must not be stranded. HOSTRPC_PRESSURE_RUNS
 * runs (20 here, 500 under make stress), each with a deadline that only
 * tells a hang (HOSTRPC_PRESSURE_DEADLINE_S, 60 s).
 */
TEST_F_TIMEOUT(pressure, recycled_slots_strand_no_caller, 3600)
{
	unsigned int runs = env_uint("HOSTRPC_PRESSURE_RUNS", 20), i;
	struct watchdog w = { .deadline_s = env_uint("HOSTRPC_PRESSURE_DEADLINE_S", 60) };
	int nhogs = 2 * (int)sysconf(_SC_NPROCESSORS_ONLN), k;
	pthread_t hogs[64], wt;

	if (nhogs > 64)
		nhogs = 64;
	pthread_mutex_init(&w.lock, NULL);
	pthread_cond_init(&w.cond, NULL);
	ASSERT_EQ(0, pthread_create(&wt, NULL, watch, &w));
	for (k = 0; k < nhogs; k++)
		ASSERT_EQ(0, pthread_create(&hogs[k], NULL, hog, NULL));
	for (i = 0; i < runs; i++) {
		pthread_mutex_lock(&w.lock);
		w.started = i + 1;
		pthread_cond_broadcast(&w.cond);
		pthread_mutex_unlock(&w.lock);
		if (i % 2)
			run(_metadata, (struct shape){ .nslots = 2, .devices = 4, .servers = 1,
						       .views = 1, .calls = 100, .async = true });
		else
			run(_metadata, (struct shape){ .nslots = 4, .devices = 4, .servers = 2,
						       .views = 2, .calls = 100, .async = true,
						       .blocking_devices = i % 4 == 2 });
		pthread_mutex_lock(&w.lock);
		w.finished = i + 1;
		pthread_cond_broadcast(&w.cond);
		pthread_mutex_unlock(&w.lock);
	}
	pthread_mutex_lock(&w.lock);
	w.started = UINT32_MAX;
	pthread_cond_broadcast(&w.cond);
	pthread_mutex_unlock(&w.lock);
	pthread_join(wt, NULL);
	hogs_stop = 1;
	for (k = 0; k < nhogs; k++)
		pthread_join(hogs[k], NULL);
	TH_LOG("%u runs under %d CPU hogs: no hang", runs, nhogs);
}

/*
 * HOSTRPC_TEST_ONLY=name runs that one test (the planted-bug runs of
 * tools/check/tsan-mutants.sh pick the test that must catch each bug).
 */
static void keep_only(const char *name)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t, *next, *head;

	for (f = __fixture_list; f; f = f->next) {
		head = NULL;
		for (t = f->tests; t; t = next) {
			next = t->next;
			if (strcmp(t->name, name))
				continue;
			t->next = NULL;
			if (!head) {
				head = t;
				t->prev = t;
			} else {
				head->prev->next = t;
				t->prev = head->prev;
				head->prev = t;
			}
		}
		f->tests = head;
	}
}

int main(int argc, char **argv)
{
	const char *only = getenv("HOSTRPC_TEST_ONLY");

	if (only && *only)
		keep_only(only);
	return test_harness_run(argc, argv);
}
