// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_memory_test.c - host unit test of hostrpc views of the caller's memory
 *
 * zex_hostrpc_attach_memory() without a kernel: its argument checks, the
 * control page it writes, the layout it reports, the calls a view of the
 * caller's memory refuses (no doorbell, no kernel), and calls made by
 * threads playing the device (the protocol core over the reported layout,
 * polling, as a GPU does) served by libzex's polling servers, every
 * answer checked (under ASan and UBSan).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "core/hostrpc_view.h"

#define NSLOTS		64
#define CALLERS		4
#define CALLS		2000
#define SERVERS		2

static void *region_alloc(uint32_t nslots)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, ZEX_HOSTRPC_REGION_SIZE(nslots)))
		return NULL;
	return p;
}

TEST(attach_checks_its_arguments)
{
	size_t size = ZEX_HOSTRPC_REGION_SIZE(NSLOTS);
	char *r = region_alloc(NSLOTS);
	struct zex_hostrpc *ch = NULL;

	ASSERT_NE(NULL, r);
	EXPECT_EQ(-EINVAL, zex_hostrpc_attach_memory(NULL, size, NSLOTS, &ch));
	EXPECT_EQ(-EINVAL, zex_hostrpc_attach_memory(r, size, 0, &ch));
	EXPECT_EQ(-EINVAL, zex_hostrpc_attach_memory(r, ZEX_HOSTRPC_REGION_SIZE(2049),
						     2049, &ch));
	EXPECT_EQ(-EINVAL, zex_hostrpc_attach_memory(r + 64, size - 4096, NSLOTS - 1, &ch));
	EXPECT_EQ(-EINVAL, zex_hostrpc_attach_memory(r, size - 1, NSLOTS, &ch));
	EXPECT_EQ(NULL, ch);
	free(r);
}

TEST(attach_writes_the_header_and_reports_the_layout)
{
	char *r = region_alloc(NSLOTS);
	struct zex_hostrpc *ch;
	struct zex_hostrpc_layout l;

	ASSERT_NE(NULL, r);
	memset(r, 0xff, ZEX_HOSTRPC_REGION_SIZE(NSLOTS));
	ASSERT_EQ(0, zex_hostrpc_attach_memory(r, ZEX_HOSTRPC_REGION_SIZE(NSLOTS), NSLOTS, &ch));
	EXPECT_EQ(ZEX_HOSTRPC_MAGIC, *(uint32_t *)(r + ZEX_HOSTRPC_CONTROL_MAGIC));
	EXPECT_EQ(ZEX_HOSTRPC_VERSION, *(uint32_t *)(r + ZEX_HOSTRPC_CONTROL_VERSION));
	EXPECT_EQ(NSLOTS, *(uint32_t *)(r + ZEX_HOSTRPC_CONTROL_NSLOTS));
	EXPECT_EQ(ZEX_HOSTRPC_REGION_SIZE(NSLOTS),
		  *(uint64_t *)(r + ZEX_HOSTRPC_CONTROL_MAP_SIZE));
	ASSERT_EQ(0, zex_hostrpc_layout(ch, &l));
	EXPECT_EQ((void *)r, l.region);
	EXPECT_EQ((void *)(r + ZEX_HOSTRPC_CONTROL_REQUEST), (void *)l.request);
	EXPECT_EQ((void *)(r + ZEX_HOSTRPC_CONTROL_ANSWER), (void *)l.answer);
	EXPECT_EQ((void *)(r + ZEX_HOSTRPC_CONTROL_SUMMARY), (void *)l.summary);
	EXPECT_EQ((void *)(r + ZEX_HOSTRPC_SLOTS_AT), (void *)l.pages);
	EXPECT_EQ(0u, l.request[NSLOTS - 1] | l.answer[NSLOTS - 1] | l.summary[0] |
		      *l.host_armed | *l.device_armed | *l.dead);
	/* The slot pages are the caller's: left as they were. */
	EXPECT_EQ(0xff, (uint8_t)r[ZEX_HOSTRPC_SLOTS_AT]);
	EXPECT_EQ((uint32_t)NSLOTS, zex_hostrpc_slots(ch));
	zex_hostrpc_close(ch);
	/* Closing leaves the memory alone. */
	EXPECT_EQ(NSLOTS, *(uint32_t *)(r + ZEX_HOSTRPC_CONTROL_NSLOTS));
	free(r);
}

static void nop(struct zex_hostrpc_page *page, void *ctx)
{
	(void)page;
	(void)ctx;
}

TEST(a_view_of_memory_has_no_kernel_and_no_doorbell)
{
	char *r = region_alloc(NSLOTS);
	struct zex_hostrpc *ch, *other = NULL;
	struct zex_hostrpc_stats st;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, zex_hostrpc_attach_memory(r, ZEX_HOSTRPC_REGION_SIZE(NSLOTS), NSLOTS, &ch));
	EXPECT_EQ(-1, zex_hostrpc_fd(ch));
	EXPECT_EQ(-EOPNOTSUPP, zex_hostrpc_arm(ch));
	EXPECT_EQ(-EOPNOTSUPP, zex_hostrpc_wait(ch, 0));
	EXPECT_EQ(-EOPNOTSUPP, zex_hostrpc_stats(ch, &st));
	EXPECT_EQ(-EOPNOTSUPP, zex_hostrpc_set_eventfd(ch, -1));
	EXPECT_EQ(-EOPNOTSUPP, zex_hostrpc_open_view(ch, ZEX_HOSTRPC_DEVICE, &other));
	EXPECT_EQ(NULL, other);
	/* A host view: the device side's calls are refused. */
	EXPECT_EQ(-EINVAL, zex_hostrpc_call(ch, 0, nop, nop, NULL));
	EXPECT_EQ(-EINVAL, zex_hostrpc_collect(ch));
	EXPECT_EQ(0, zex_hostrpc_serve(ch, nop, NULL));
	zex_hostrpc_close(ch);
	free(r);
}

static void count_call(struct zex_hostrpc_page *page, void *ctx)
{
	(void)page;
	(*(int *)ctx)++;
}

/*
 * A device side without a doorbell (a GPU) stores its summary flag with no
 * order after its request: the host may take the flag before the request
 * arrives. Here that state is made by hand (request published, flag
 * clear); each serving thread's every HOSTRPC_FULL_PASS-th call of
 * zex_hostrpc_serve() looks at every slot, so it is served within that
 * many calls.
 */
TEST(serving_finds_a_request_whose_flag_it_took_early)
{
	char *r = region_alloc(NSLOTS);
	struct zex_hostrpc *ch;
	struct zex_hostrpc_layout l;
	int served = 0, calls = 0;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, zex_hostrpc_attach_memory(r, ZEX_HOSTRPC_REGION_SIZE(NSLOTS), NSLOTS, &ch));
	ASSERT_EQ(0, zex_hostrpc_layout(ch, &l));
	__atomic_store_n(&l.request[NSLOTS - 1], 1, __ATOMIC_RELEASE);
	while (!served && calls < HOSTRPC_FULL_PASS) {
		int ret = zex_hostrpc_serve(ch, count_call, &served);

		EXPECT_EQ(served, ret);	/* 1 once served, else 0 */
		calls++;
	}
	EXPECT_EQ(1, served);
	EXPECT_EQ(1u, __atomic_load_n(&l.answer[NSLOTS - 1], __ATOMIC_ACQUIRE));
	/* Answered: no later pass, full or not, serves it again. */
	for (calls = 0; calls < HOSTRPC_FULL_PASS; calls++)
		EXPECT_EQ(0, zex_hostrpc_serve(ch, count_call, &served));
	EXPECT_EQ(1, served);
	zex_hostrpc_close(ch);
	free(r);
}

/* Callers that play the device: the core over the layout, polling. */
struct rig {
	struct zex_hostrpc *host;
	struct zex_hostrpc_layout l;
	hr_own_t W[NSLOTS];
	hr_own_t M[NSLOTS];
	_Atomic int stop;
	_Atomic long wrong, served;
};

struct caller {
	struct rig *rig;
	uint32_t id;
	uint64_t want;
};

static void fill(hostrpc_page_t *page, void *ctx)
{
	struct caller *c = ctx;

	page->cacheline[0].element[0] = c->want;
	page->cacheline[63].element[7] = ~c->want;
}

static void use(hostrpc_page_t *page, void *ctx)
{
	struct caller *c = ctx;

	if (page->cacheline[0].element[0] != c->want * 3 ||
	    page->cacheline[63].element[7] != c->want)
		c->rig->wrong++;
}

static void operate(struct zex_hostrpc_page *page, void *ctx)
{
	struct rig *r = ctx;
	uint64_t v = page->cacheline[0].element[0];

	if (page->cacheline[63].element[7] != ~v)
		r->wrong++;
	page->cacheline[0].element[0] = v * 3;
	page->cacheline[63].element[7] = v;
	r->served++;
}

static void *caller_main(void *arg)
{
	struct caller *c = arg;
	struct rig *r = c->rig;
	struct hostrpc_client cl = {
		.sh = {
			.request = (hr_u32_t *)r->l.request,
			.answer = (hr_u32_t *)r->l.answer,
			.summary = (hr_u32_t *)r->l.summary,
			.host_armed = (hr_u32_t *)r->l.host_armed,
			.device_armed = (hr_u32_t *)r->l.device_armed,
			.dead = (hr_u32_t *)r->l.dead,
			.pages = (hostrpc_page_t *)r->l.pages, .nslots = r->l.nslots,
		},
		.W = r->W, .M = r->M, .id = c->id,
	};

	for (int k = 0; k < CALLS; k++) {
		c->want = (uint64_t)c->id << 32 | (uint64_t)k;
		if (k % 5 == 4)
			hostrpc_client_invoke_async(&cl, c->id, fill, c);
		else if (hostrpc_client_invoke(&cl, c->id, fill, use, c))
			r->wrong++;
	}
	return NULL;
}

static void *server_main(void *arg)
{
	struct rig *r = arg;

	while (!r->stop)
		if (zex_hostrpc_serve(r->host, operate, r) < 0)
			r->wrong++;
	return NULL;
}

TEST(polling_callers_are_served_from_the_callers_memory)
{
	static struct rig r;
	char *mem = region_alloc(NSLOTS);
	pthread_t callers[CALLERS], servers[SERVERS];
	struct caller c[CALLERS];
	int i;

	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, zex_hostrpc_attach_memory(mem, ZEX_HOSTRPC_REGION_SIZE(NSLOTS), NSLOTS,
					       &r.host));
	ASSERT_EQ(0, zex_hostrpc_layout(r.host, &r.l));
	for (i = 0; i < SERVERS; i++)
		ASSERT_EQ(0, pthread_create(&servers[i], NULL, server_main, &r));
	for (i = 0; i < CALLERS; i++) {
		c[i] = (struct caller){ .rig = &r, .id = (uint32_t)i + 1 };
		ASSERT_EQ(0, pthread_create(&callers[i], NULL, caller_main, &c[i]));
	}
	for (i = 0; i < CALLERS; i++)
		pthread_join(callers[i], NULL);
	/* The last asynchronous calls: answered once the servers see them. */
	while (r.served < CALLERS * CALLS)
		sched_yield();
	r.stop = 1;
	for (i = 0; i < SERVERS; i++)
		pthread_join(servers[i], NULL);
	EXPECT_EQ(0, r.wrong);
	EXPECT_EQ(CALLERS * CALLS, r.served);
	zex_hostrpc_close(r.host);
	free(mem);
}

TEST_HARNESS_MAIN
