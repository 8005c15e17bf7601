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
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "../hostrpc.h"

/* A data race aborts the test process: reported is failed. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1";
}

struct rig {
	struct hostrpc_shared shared;
	hostrpc_page_t *pages;
	struct hostrpc_server server;
	int efd;
	_Atomic int stop;
	_Atomic long errors, served_calls, rings, sleeps;
};

struct call {
	uint64_t tag;
	struct rig *rig;
};

/* The device side's one view (W is device-wide), shared by device threads. */
static struct hostrpc_client *shared_client;

static void ring(void *ctx)
{
	struct rig *r = ctx;
	uint64_t one = 1;

	r->rings++;
	if (write(r->efd, &one, sizeof(one)) != sizeof(one))
		r->errors++;
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

static void *server_main(void *arg)
{
	struct rig *r = arg;
	uint64_t v;

	while (!r->stop) {
		if (hostrpc_server_handle(&r->server, operate, clear, r))
			continue;
		if (!hostrpc_server_arm(&r->server))
			continue;
		r->sleeps++;
		if (read(r->efd, &v, sizeof(v)) != sizeof(v))
			break;
	}
	return NULL;
}

struct device {
	struct rig *rig;
	uint32_t id, calls;
	int failed;
};

static void *device_main(void *arg)
{
	struct device *d = arg;
	uint32_t n;

	for (n = 0; n < d->calls; n++) {
		struct call c = { .tag = ((uint64_t)d->id << 32 | n) * 0x9e3779b97f4a7c15ull,
				  .rig = d->rig };

		if (hostrpc_client_invoke(shared_client, d->id, fill, use, &c))
			d->failed++;
	}
	return NULL;
}

static void run(struct __test_metadata *_metadata, uint32_t nslots, int ndev,
		int nserv, uint32_t calls)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct device *dev = calloc((size_t)ndev, sizeof(*dev));
	pthread_t st[4], *dt = calloc((size_t)ndev, sizeof(*dt));
	uint64_t wake = 1;
	int i;

	ASSERT_NE(NULL, r);
	r->pages = aligned_alloc(4096, nslots * sizeof(hostrpc_page_t));
	ASSERT_NE(NULL, r->pages);
	r->efd = eventfd(0, EFD_SEMAPHORE);
	ASSERT_LE(0, r->efd);
	r->server = (struct hostrpc_server){ .shared = &r->shared, .pages = r->pages,
					     .nslots = nslots };
	/* One device-side view: W is shared by every device thread. */
	shared_client = calloc(1, sizeof(*shared_client));
	*shared_client = (struct hostrpc_client){ .shared = &r->shared, .pages = r->pages,
						  .nslots = nslots, .ring = ring, .ring_ctx = r };
	for (i = 0; i < nserv; i++)
		ASSERT_EQ(0, pthread_create(&st[i], NULL, server_main, r));
	for (i = 0; i < ndev; i++) {
		dev[i] = (struct device){ .rig = r, .id = (uint32_t)i, .calls = calls };
		ASSERT_EQ(0, pthread_create(&dt[i], NULL, device_main, &dev[i]));
	}
	for (i = 0; i < ndev; i++) {
		ASSERT_EQ(0, pthread_join(dt[i], NULL));
		EXPECT_EQ(0, dev[i].failed);
	}
	r->stop = 1;
	for (i = 0; i < nserv; i++)
		if (write(r->efd, &wake, sizeof(wake)) != sizeof(wake))
			r->errors++;
	for (i = 0; i < nserv; i++)
		ASSERT_EQ(0, pthread_join(st[i], NULL));
	EXPECT_EQ(0, r->errors);
	EXPECT_EQ((long)ndev * calls, r->served_calls);
	TH_LOG("%d devices x %u calls, %d servers: %ld rings, %ld sleeps", ndev, calls,
	       nserv, r->rings, r->sleeps);
	close(r->efd);
	free(r->pages);
	free(dt);
	free(dev);
	free(shared_client);
	free(r);
}

TEST(one_device_one_server)
{
	run(_metadata, 1, 1, 1, 1000);
}

/* Bounded for ThreadSanitizer on two cores; make stress goes further. */
TEST(sixty_four_devices_one_server)
{
	run(_metadata, 64, 64, 1, 25);
}

TEST(sixty_four_devices_two_servers)
{
	run(_metadata, 64, 64, 2, 25);
}

TEST(more_devices_than_slots_still_progress)
{
	/* The host is fair, so callers that wait for a slot get one. */
	run(_metadata, 4, 16, 2, 50);
}

static void *kill_host(void *arg)
{
	struct hostrpc_shared *sh = arg;

	usleep(20000);
	hr_flag_store(&sh->dead, 1);
	return NULL;
}

TEST(a_dead_host_fails_calls_instead_of_hanging)
{
	struct hostrpc_shared sh;
	hostrpc_page_t *pages = aligned_alloc(4096, sizeof(hostrpc_page_t));
	struct hostrpc_client c = { .shared = &sh, .pages = pages, .nslots = 1 };
	struct call call = { .tag = 1 };
	pthread_t t;

	memset(&sh, 0, sizeof(sh));
	ASSERT_EQ(0, pthread_create(&t, NULL, kill_host, &sh));
	/* No server: the call waits for H until the host is declared dead. */
	EXPECT_EQ(-1, hostrpc_client_invoke(&c, 0, fill, use, &call));
	ASSERT_EQ(0, pthread_join(t, NULL));
	/* The slot came back. */
	EXPECT_EQ(0, hr_load(&c.W[0]));
	free(pages);
}

TEST_HARNESS_MAIN
