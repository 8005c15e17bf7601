// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_test.c - the protocol core under ThreadSanitizer
 *
 * Device threads and host server threads in one process over a shared
 * region (hostrpc_rig.h), as the model has them: servers serve, then arm
 * and re-check, and sleep on an eventfd that the device's doorbell writes.
 * Every call's page is checked at each hand-over (fill -> operate -> use),
 * so a page touched by both sides at once, or an answer lost, fails the
 * test; a lost wakeup stops the calls, which the rig's stall watch reports
 * (no call served in 60 s). A dead host fails calls instead of hanging
 * them.
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

/*
 * Small calls: lane 0's value has bit 63 set (a page call's first word
 * never does), so one operation serves both kinds; a small call's calling
 * lanes get 3v + 1.
 */
#define SMALL_MARK	(1ull << 63)

static void operate_any(hostrpc_page_t *p, void *ctx)
{
	struct rig *r = ctx;
	uint64_t *w = (uint64_t *)p;
	uint32_t lane;

	if (!(w[0] & SMALL_MARK)) {
		operate(p, ctx);
		return;
	}
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		w[lane] = w[lane] * 3 + 1;
	r->served_calls++;
}

static uint64_t small_value(uint32_t lane, uint32_t k)
{
	return SMALL_MARK | (uint64_t)(k + 1) << 33 | lane << 8 | 0x5a;
}

/* Lanes that call (with lane 0, which carries SMALL_MARK): not every third. */
#define SMALL_LANES	0xb6db6db7u

TEST(small_calls_step_by_step)
{
	struct rig *r = rig_or_abort(4);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .M = r->mem->M,
				    .id = 2 };
	struct hostrpc_server s = { .sh = shared_of(r), .T = r->mem->T, .id = 3 };
	uint32_t slot, request, lane, k;
	uint64_t v;

	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, hostrpc_client_begin(&c, 1, &slot));
		ASSERT_EQ(1, slot);
		request = hostrpc_client_small_request(&c, slot);
		EXPECT_EQ(HOSTRPC_REQUEST_SMALL | (k + 1), request);
		for (lane = 0; lane < HOSTRPC_LANES; lane++)
			hostrpc_small_put(&r->pages[slot], lane, SMALL_LANES >> lane & 1,
					  request, small_value(lane, k));
		hostrpc_client_publish_small(&c, slot, request);
		EXPECT_EQ(request, hr_u32_load(&r->mem->request[slot]));
		EXPECT_EQ(1, hr_u32_load(&r->mem->summary[0]));
		EXPECT_TRUE(hostrpc_server_handle(&s, false, operate_any, r));
		EXPECT_EQ(request, hr_u32_load(&r->mem->answer[slot]));
		for (lane = 0; lane < HOSTRPC_LANES; lane++) {
			int got = hostrpc_small_get(&c, &r->pages[slot], lane, request, 0, &v);

			if (SMALL_LANES >> lane & 1) {
				EXPECT_EQ(1, got);
				EXPECT_EQ(small_value(lane, k) * 3 + 1, v);
			} else {
				/* Answered with the idle tag: no answer for it. */
				EXPECT_EQ(0, got);
			}
		}
		hostrpc_client_end(&c, slot);
	}
	/* A page call after small ones: its request word is not small. */
	EXPECT_EQ(0, hostrpc_client_invoke_async(&c, 1, fill, &(struct call){ 5, r }));
	EXPECT_EQ(3u, hr_u32_load(&r->mem->request[1]));
	EXPECT_EQ(2, r->served_calls);
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

/*
 * A small call whose words have not all landed is left for a later pass
 * (its group flagged again), and served once they are there.
 */
TEST(a_small_call_is_served_only_once_its_words_land)
{
	struct rig *r = rig_or_abort(4);
	struct hostrpc_client c = { .sh = shared_of(r), .W = r->mem->W, .M = r->mem->M,
				    .id = 2 };
	struct hostrpc_server s = { .sh = shared_of(r), .T = r->mem->T, .id = 3 };
	uint32_t slot, request, lane;
	uint64_t v;

	ASSERT_EQ(0, hostrpc_client_begin(&c, 0, &slot));
	request = hostrpc_client_small_request(&c, slot);
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		if (lane != 7)
			hostrpc_small_put(&r->pages[slot], lane, true, request,
					  small_value(lane, 0));
	hostrpc_client_publish_small(&c, slot, request);
	EXPECT_FALSE(hostrpc_server_handle(&s, true, operate_any, r));
	EXPECT_EQ(0, hr_u32_load(&r->mem->answer[slot]));
	EXPECT_EQ(1, hr_u32_load(&r->mem->summary[0]));
	EXPECT_EQ(0, r->served_calls);
	/* Lane 7's words land. */
	hostrpc_small_put(&r->pages[slot], 7, true, request, small_value(7, 0));
	EXPECT_TRUE(hostrpc_server_handle(&s, false, operate_any, r));
	EXPECT_EQ(1, hostrpc_small_get(&c, &r->pages[slot], 7, request, 0, &v));
	EXPECT_EQ(small_value(7, 0) * 3 + 1, v);
	hostrpc_client_end(&c, slot);
	EXPECT_EQ(1, r->served_calls);
	rig_free(r);
}

/* A polling server for operate_any(), every HOSTRPC_FULL_PASS-th pass full. */
struct small_server {
	struct rig *r;
	struct hostrpc_server *s;
};

static void *small_server_main(void *arg)
{
	struct small_server *ss = arg;
	uint32_t passes = 0, idle = 0;

	while (!ss->r->stop) {
		if (hostrpc_server_poll(ss->s, &passes, operate_any, ss->r))
			idle = 0;
		else
			hr_relax(idle++);
	}
	return NULL;
}

/* Lane @lane's words of @page as a server's answer leaves them: @v, tag @tag. */
static void answer_lane(hostrpc_page_t *page, uint32_t lane, uint32_t tag, uint64_t v)
{
	volatile uint64_t *w = (volatile uint64_t *)page;

	w[lane] = (uint64_t)(uint32_t)v << 32 | tag;
	w[HOSTRPC_LANES + lane] = (v >> 32) << 32 | tag;
}

/*
 * A server that died in the middle of a small call's answer (some lanes
 * answered, one lane's first word only, the answer word not stored) leaves
 * it to another server, which answers the lanes still waiting (the one
 * half answered with an undefined value, but answered) and then the answer
 * word; one that died after every lane's answer leaves only the answer
 * word to store.
 */
TEST(a_small_call_half_answered_by_a_dead_server_is_completed)
{
	struct rig *r = rig_or_abort(4);
	struct hostrpc_client c = client_of(r, 2);
	struct hostrpc_server s = server_of(r, 3);
	uint32_t slot, request, lane;
	uint64_t v;

	ASSERT_EQ(0, hostrpc_client_begin(&c, 0, &slot));
	request = hostrpc_client_small_request(&c, slot);
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		hostrpc_small_put(&r->pages[slot], lane, true, request, small_value(lane, 0));
	hostrpc_client_publish_small(&c, slot, request);
	/* The dead server answered lanes 1-15 with 77 + lane, and lane 16's first word. */
	for (lane = 1; lane < 16; lane++)
		answer_lane(&r->pages[slot], lane, ~request, 77 + lane);
	((volatile uint64_t *)&r->pages[slot])[16] = ~request;
	EXPECT_TRUE(hostrpc_server_handle(&s, true, operate_any, r));
	EXPECT_EQ(request, hr_u32_load(&r->mem->answer[slot]));
	for (lane = 0; lane < HOSTRPC_LANES; lane++) {
		ASSERT_EQ(1, hostrpc_small_get(&c, &r->pages[slot], lane, request, 0, &v));
		if (lane != 16)
			EXPECT_EQ(lane && lane < 16 ? 77 + lane : small_value(lane, 0) * 3 + 1,
				  v);
	}
	hostrpc_client_end(&c, slot);
	EXPECT_EQ(1, r->served_calls);

	/* Every lane answered, lane 31 idle: the answer word is all that is left. */
	ASSERT_EQ(0, hostrpc_client_begin(&c, 0, &slot));
	request = hostrpc_client_small_request(&c, slot);
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		hostrpc_small_put(&r->pages[slot], lane, lane != 31, request,
				  small_value(lane, 1));
	hostrpc_client_publish_small(&c, slot, request);
	for (lane = 0; lane < HOSTRPC_LANES; lane++)
		answer_lane(&r->pages[slot], lane,
			    ~(lane != 31 ? request : request ^ HOSTRPC_TAG_IDLE), 5);
	EXPECT_TRUE(hostrpc_server_handle(&s, true, operate_any, r));
	EXPECT_EQ(request, hr_u32_load(&r->mem->answer[slot]));
	ASSERT_EQ(1, hostrpc_small_get(&c, &r->pages[slot], 0, request, 0, &v));
	EXPECT_EQ(5, v);
	hostrpc_client_end(&c, slot);
	EXPECT_EQ(1, r->served_calls);	/* nothing left to operate on */
	EXPECT_EQ(0, r->errors);
	rig_free(r);
}

/*
 * Someone watching a slot as the kernel's reaper does (the answer word
 * equal to the request: the host is done with the page) never finds a
 * word of that call still carrying its request's tag: the tagged answers
 * are stored before the answer word.
 */
struct small_watch {
	struct rig *r;
	_Atomic long seen, early;
};

static void *small_watch_main(void *arg)
{
	struct small_watch *sw = arg;
	uint32_t last = 0;

	/* It spins: looking rarely, it would miss the early words it is for. */
	while (!sw->r->stop) {
		uint32_t request = hr_u32_load(&sw->r->mem->request[0]);
		uint32_t lane;

		if (!(request & HOSTRPC_REQUEST_SMALL) || request == last ||
		    hr_u32_load(&sw->r->mem->answer[0]) != request)
			continue;
		last = request;
		sw->seen++;
		for (lane = 0; lane < 2 * HOSTRPC_LANES; lane++) {
			volatile uint64_t *w = (volatile uint64_t *)&sw->r->pages[0] + lane;
			uint32_t tag = (uint32_t)hr_word_load(w);

			if (tag == request || tag == (request ^ HOSTRPC_TAG_IDLE)) {
				sw->early++;
				break;
			}
		}
	}
	return NULL;
}

TEST(a_small_calls_answer_word_comes_after_its_words)
{
	struct rig *r = rig_or_abort(1);
	struct hostrpc_client c = client_of(r, 2);
	struct hostrpc_server s = server_of(r, 3);
	struct small_server ss = { r, &s };
	struct small_watch sw = { .r = r };
	uint64_t in[HOSTRPC_LANES], out[HOSTRPC_LANES];
	pthread_t st, wt;
	uint32_t k, lane;

	ASSERT_EQ(0, pthread_create(&st, NULL, small_server_main, &ss));
	ASSERT_EQ(0, pthread_create(&wt, NULL, small_watch_main, &sw));
	for (k = 0; k < 5000; k++) {
		for (lane = 0; lane < HOSTRPC_LANES; lane++)
			in[lane] = small_value(lane, k);
		ASSERT_EQ(0, hostrpc_client_invoke_small(&c, 0, SMALL_LANES, in, out));
	}
	r->stop = 1;
	ASSERT_EQ(0, pthread_join(st, NULL));
	ASSERT_EQ(0, pthread_join(wt, NULL));
	TH_LOG("the watcher looked at %ld answered calls", (long)sw.seen);
	/* A watcher that saw no answered call proved nothing. */
	EXPECT_LT(0, sw.seen);
	EXPECT_EQ(0, sw.early);
	EXPECT_EQ(5000, r->served_calls);
	rig_free(r);
}

/* Threads playing warps: small and page calls in turn on their own slots. */
struct small_caller {
	struct rig *r;
	struct hostrpc_client c;
	uint32_t id, calls;
	_Atomic long *wrong;
};

static void *small_caller_main(void *arg)
{
	struct small_caller *sc = arg;
	uint64_t in[HOSTRPC_LANES], out[HOSTRPC_LANES];
	uint32_t k, lane;

	for (k = 0; k < sc->calls; k++) {
		if (k % 3 == 2) {
			struct call call = { .tag = (uint64_t)sc->id << 32 | (k + 1), .rig = sc->r };

			if (hostrpc_client_invoke(&sc->c, sc->id, fill, use, &call))
				(*sc->wrong)++;
			continue;
		}
		for (lane = 0; lane < HOSTRPC_LANES; lane++)
			in[lane] = small_value(lane, k) ^ (uint64_t)sc->id << 16;
		if (hostrpc_client_invoke_small(&sc->c, sc->id, SMALL_LANES, in, out)) {
			(*sc->wrong)++;
			continue;
		}
		for (lane = 0; lane < HOSTRPC_LANES; lane++)
			if (SMALL_LANES >> lane & 1 && out[lane] != in[lane] * 3 + 1)
				(*sc->wrong)++;
	}
	return NULL;
}

TEST(small_and_page_calls_from_eight_threads_two_servers)
{
	struct rig *r = rig_or_abort(8);
	struct small_caller sc[8];
	struct hostrpc_server sv[2];
	struct small_server ss[2];
	pthread_t t[8], st[2];
	_Atomic long wrong = 0;
	int i;

	for (i = 0; i < 2; i++) {
		sv[i] = (struct hostrpc_server){ .sh = shared_of(r), .T = r->mem->T, .id = 10 + i };
		ss[i] = (struct small_server){ r, &sv[i] };
		ASSERT_EQ(0, pthread_create(&st[i], NULL, small_server_main, &ss[i]));
	}
	for (i = 0; i < 8; i++) {
		sc[i] = (struct small_caller){ .r = r, .id = (uint32_t)i, .calls = 300,
					       .wrong = &wrong,
					       .c = { .sh = shared_of(r), .W = r->mem->W,
						      .M = r->mem->M, .id = (uint32_t)i + 1 } };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, small_caller_main, &sc[i]));
	}
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, pthread_join(t[i], NULL));
	r->stop = 1;
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_join(st[i], NULL));
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, r->errors);
	EXPECT_EQ(8 * 300, r->served_calls);
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
 * runs (20 here, 500 under make stress); a stranded caller stops the calls,
 * which the rig's stall watch reports.
 */
TEST_F_TIMEOUT(pressure, recycled_slots_strand_no_caller, 3600)
{
	unsigned int runs = env_uint("HOSTRPC_PRESSURE_RUNS", 20), i;
	int nhogs = 2 * (int)sysconf(_SC_NPROCESSORS_ONLN), k;
	pthread_t hogs[64];

	if (nhogs > 64)
		nhogs = 64;
	for (k = 0; k < nhogs; k++)
		ASSERT_EQ(0, pthread_create(&hogs[k], NULL, hog, NULL));
	for (i = 0; i < runs; i++) {
		if (i % 2)
			run(_metadata, (struct shape){ .nslots = 2, .devices = 4, .servers = 1,
						       .views = 1, .calls = 100, .async = true });
		else
			run(_metadata, (struct shape){ .nslots = 4, .devices = 4, .servers = 2,
						       .views = 2, .calls = 100, .async = true,
						       .blocking_devices = i % 4 == 2 });
	}
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

	struct __fixture_metadata *f;
	struct __test_metadata *t;

	if (only && *only)
		keep_only(only);
	/*
	 * Progress bounds a test (the rig's stall watch), not the harness's
	 * 30 s: ThreadSanitizer's threads on a busy two-core machine may
	 * take minutes. The harness's limit stays as a last resort.
	 */
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			if (t->timeout < 3600)
				t->timeout = 3600;
	return test_harness_run(argc, argv);
}
