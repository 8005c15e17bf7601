// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_test.c - the protocol core under ThreadSanitizer
 *
 * Device threads and host server threads in one process over a shared
 * region (hostrpc_rig.h), as the model has them: servers serve, then arm
 * and re-check, and sleep on an eventfd that the device's doorbell writes.
 * Every call's page is checked at each hand-over (fill -> operate -> use),
 * so a page touched by both sides at once, or an answer lost, fails the
 * test; a lost wakeup hangs it (the harness's timeout fails it). A dead host fails calls
 * instead of hanging them.
 */
#include "kselftest_harness.h"
#include "hostrpc_rig.h"

/* A data race aborts the test process: reported is failed. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

/*
 * The step-by-step tests' sides over @r, by id: a device side with no
 * doorbell and no wait, a host side.
 */
static struct hostrpc_client client_of(struct rig *r, uint32_t id)
{
	return (struct hostrpc_client){ .sh = shared_of(r), .W = r->mem->W, .M = r->mem->M,
					.id = id };
}

static struct hostrpc_server server_of(struct rig *r, uint32_t id)
{
	return (struct hostrpc_server){ .sh = shared_of(r), .T = r->mem->T, .id = id };
}

/* The step-by-step tests cannot go on without their region. */
static struct rig *rig_or_abort(uint32_t nslots)
{
	struct rig *r = rig_new(nslots, 64);

	if (!r)
		abort();
	return r;
}

static void run(struct __test_metadata *_metadata, struct shape sh)
{
	struct outcome o;

	EXPECT_EQ(0, rig_run(sh, &o));
	EXPECT_EQ(0, o.errors);
	EXPECT_EQ(0, o.failed_calls);
	EXPECT_EQ(o.expected, o.served);
	EXPECT_EQ(0, o.held_words);
	TH_LOG("%d devices x %u calls, %d servers: %ld host rings, %ld host sleeps, "
	       "%ld device rings, %ld device sleeps", sh.devices, sh.calls, sh.servers,
	       o.host_rings, o.host_sleeps, o.device_rings, o.device_sleeps);
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
	/* Devices sleep for the answer (the reverse doorbell); no wakeup may be lost. */
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
	struct rig *r = rig_or_abort(1);
	struct hostrpc_client c = client_of(r, 2);
	struct call call = { .tag = 1, .rig = r };
	pthread_t t;

	ASSERT_EQ(0, pthread_create(&t, NULL, kill_host, &r->mem->dead));
	/* No server: the call waits for its answer until the host is declared dead. */
	EXPECT_EQ(HOSTRPC_DEAD, hostrpc_client_invoke(&c, 0, fill, use, &call));
	ASSERT_EQ(0, pthread_join(t, NULL));
	/* The slot came back, and a new call fails at once. */
	EXPECT_EQ(0, hr_u32_load(&r->mem->W[0]));
	EXPECT_EQ(HOSTRPC_DEAD, hostrpc_client_invoke_async(&c, 0, fill, &call));
	rig_free(r);
}

TEST(a_dead_host_fails_a_caller_waiting_for_a_slot)
{
	struct rig *r = rig_or_abort(1);
	struct hostrpc_client c = client_of(r, 2);
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
	struct rig *r = rig_or_abort(4);
	struct hostrpc_client c = client_of(r, 7);
	struct hostrpc_server s = server_of(r, 9);
	struct call call = { .tag = 5, .rig = r };

	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 2, fill, &call));
	/* Published: mirror and request 1, summary flag set, W collectable. */
	EXPECT_EQ(7u | HOSTRPC_OWNER_ASYNC, hr_u32_load(&r->mem->W[2]));
	EXPECT_EQ(1, hr_u32_load(&r->mem->M[2]));
	EXPECT_EQ(1, hr_u32_load(&r->mem->request[2]));
	EXPECT_EQ(0, hr_u32_load(&r->mem->answer[2]));
	EXPECT_EQ(1, hr_u32_load(&r->mem->summary[0]));
	/* Not answered: nothing to collect, and the slot stays collectable. */
	EXPECT_EQ(0, hostrpc_client_collect(&c));
	EXPECT_EQ(7u | HOSTRPC_OWNER_ASYNC, hr_u32_load(&r->mem->W[2]));
	/* Answered: the server took the flag; one collection frees the slot. */
	EXPECT_TRUE(hostrpc_server_handle(&s, false, operate, r));
	EXPECT_EQ(1, hr_u32_load(&r->mem->answer[2]));
	EXPECT_EQ(0, hr_u32_load(&r->mem->summary[0]));
	EXPECT_FALSE(hostrpc_server_handle(&s, false, operate, r));
	EXPECT_EQ(1, hostrpc_client_collect(&c));
	EXPECT_EQ(0, hr_u32_load(&r->mem->W[2]));
	/* The next call in the slot publishes request 2. */
	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 2, fill, &call));
	EXPECT_EQ(2, hr_u32_load(&r->mem->request[2]));
	EXPECT_TRUE(hostrpc_server_handle(&s, false, operate, r));
	EXPECT_EQ(1, hostrpc_client_collect(&c));
	EXPECT_EQ(2, r->served_calls);
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

/*
 * A request published while a server scans its group, in a slot the scan
 * already passed, must not be lost: the server takes the summary flag
 * before it scans, so the publisher's flag stays for the next pass. The
 * publication happens from inside the server's operation on another slot
 * of the same group, so the order is fixed, not left to the scheduler.
 */
struct scan_race {
	struct rig *r;
	struct hostrpc_client *c;
	struct call late;
	bool published;
};

static void operate_then_publish(hostrpc_page_t *p, void *ctx)
{
	struct scan_race *x = ctx;

	operate(p, x->r);
	if (!x->published) {
		x->published = true;
		if (hostrpc_client_invoke_async(x->c, 0, fill, &x->late))
			x->r->errors++;
	}
}

TEST(a_request_published_during_a_scan_is_not_lost)
{
	struct rig *r = rig_or_abort(4);
	struct hostrpc_client c = client_of(r, 2);
	struct hostrpc_server s = server_of(r, 3);
	struct call first = { .tag = 5, .rig = r };
	struct scan_race x = { .r = r, .c = &c, .late = { .tag = 6, .rig = r } };

	/* Slot 1 published; serving it publishes slot 0, behind the scan. */
	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, 1, fill, &first));
	EXPECT_TRUE(hostrpc_server_handle(&s, false, operate_then_publish, &x));
	EXPECT_TRUE(x.published);
	EXPECT_EQ(1, hr_u32_load(&r->mem->request[0]));
	EXPECT_EQ(0, hr_u32_load(&r->mem->answer[0]));
	/* The next pass finds it; arming first says not to sleep. */
	EXPECT_FALSE(hostrpc_server_arm(&s));
	EXPECT_TRUE(hostrpc_server_handle(&s, false, operate, r));
	EXPECT_EQ(1, hr_u32_load(&r->mem->answer[0]));
	EXPECT_EQ(2, r->served_calls);
	EXPECT_EQ(2, hostrpc_client_collect(&c));
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

/*
 * A device side without a doorbell stores its summary flag with no order
 * after its request, so a server can take the flag before the request
 * arrives (here: the flag cleared by hand after publishing, which is the
 * state that leaves). Passes over flagged groups no longer see the
 * request; a full pass must.
 */
TEST(a_request_whose_flag_came_first_is_found_by_a_full_pass)
{
	struct rig *r = rig_or_abort(HOSTRPC_GROUP + 4);
	struct hostrpc_client c = client_of(r, 2);
	struct hostrpc_server s = server_of(r, 3);
	struct call call = { .tag = 5, .rig = r };
	uint32_t pass;

	ASSERT_EQ(0, hostrpc_client_invoke_async(&c, HOSTRPC_GROUP + 1, fill, &call));
	EXPECT_EQ(1, hr_u32_load(&r->mem->summary[1]));
	hr_u32_store(&r->mem->summary[1], 0);
	for (pass = 1; pass < HOSTRPC_FULL_PASS; pass++)
		EXPECT_FALSE(hostrpc_server_handle(&s, false, operate, r));
	EXPECT_EQ(0, hr_u32_load(&r->mem->answer[HOSTRPC_GROUP + 1]));
	EXPECT_TRUE(hostrpc_server_handle(&s, true, operate, r));
	EXPECT_EQ(1, hr_u32_load(&r->mem->answer[HOSTRPC_GROUP + 1]));
	EXPECT_EQ(1, hostrpc_client_collect(&c));
	EXPECT_EQ(1, r->served_calls);
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

TEST(arming_sees_work_and_rings_once)
{
	struct rig *r = rig_or_abort(8);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .M = r->mem->M,
				    .id = 2, .ring = ring_host, .ring_ctx = r };
	struct hostrpc_server s = server_of(r, 3);
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
