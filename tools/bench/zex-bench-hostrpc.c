// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-hostrpc.c - hostrpc round trips against their floors
 *
 * Two floors between the same two threads, measured in the same run: a
 * bare one-cache-line ping-pong (both sides spin) and an eventfd ping-pong
 * (both sides sleep in read()). Then synchronous hostrpc calls over a zex
 * channel:
 *
 * - polling: callers never sleep, servers never arm;
 * - blocking: a server that has had nothing to do for 20 us arms and
 *   sleeps in the wait ioctl, a caller that has polled H 64 times sleeps in
 *   the wait ioctl; one caller thinks 200 us between calls, so the server
 *   is asleep when each call arrives (the latency of waking it), and the
 *   sustained rows have no think time (the doorbell rate under load).
 *
 * Per configuration: round-trip median and p99 in microseconds, calls per
 * second, and doorbell syscalls (rings) per call. Prints "BENCH hostrpc"
 * lines for tools/bench/table.py.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "zex/zex_hostrpc.h"
#include "zex_bench.h"

#define SERVER_IDLE_SPIN_NS	20000
#define CALLER_SPIN_POLLS	64
#define THINK_NS		200000

static void cpu_relax(void)
{
	__builtin_ia32_pause();
}

static void think(int64_t ns)
{
	int64_t end = bench_now_ns() + ns;

	while (bench_now_ns() < end)
		cpu_relax();
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Median and p99 of @n samples (sorted in place), in microseconds. */
static void percentiles(int64_t *lat, size_t n, double *median, double *p99)
{
	qsort(lat, n, sizeof(*lat), cmp_i64);
	*median = lat[n / 2] / 1000.0;
	*p99 = lat[(n * 99) / 100] / 1000.0;
}

/* ---- floor: one cache line, both sides spinning ---- */

static _Atomic uint64_t line __attribute__((aligned(64)));
static _Atomic int floor_stop;

static void *pong_line(void *arg)
{
	uint64_t seen = 0;

	(void)arg;
	while (!floor_stop) {
		uint64_t v = atomic_load_explicit(&line, memory_order_acquire);

		if (v != seen && (v & 1)) {
			atomic_store_explicit(&line, v + 1, memory_order_release);
			seen = v + 1;
		} else {
			cpu_relax();
		}
	}
	return NULL;
}

static void floor_pingpong(size_t iters)
{
	int64_t *lat = calloc(iters, sizeof(*lat));
	double med, p99;
	int64_t t0, t1;
	pthread_t t;
	size_t i;

	floor_stop = 0;
	atomic_store(&line, 0);
	pthread_create(&t, NULL, pong_line, NULL);
	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		int64_t s = bench_now_ns();
		uint64_t v = 2 * i + 1;

		atomic_store_explicit(&line, v, memory_order_release);
		while (atomic_load_explicit(&line, memory_order_acquire) != v + 1)
			cpu_relax();
		lat[i] = bench_now_ns() - s;
	}
	t1 = bench_now_ns();
	floor_stop = 1;
	pthread_join(t, NULL);
	percentiles(lat, iters, &med, &p99);
	printf("BENCH hostrpc mode=floor-pingpong devices=1 servers=1 median_us=%.3f p99_us=%.3f "
	       "calls_per_s=%.0f rings_per_call=0\n", med, p99, iters * 1e9 / (double)(t1 - t0));
	free(lat);
}

/* ---- floor: eventfd ping-pong, both sides sleeping ---- */

static int efd_ping, efd_pong;

static void *pong_eventfd(void *arg)
{
	uint64_t v;

	(void)arg;
	while (read(efd_ping, &v, sizeof(v)) == sizeof(v)) {
		if (v == 2)
			break;
		v = 1;
		if (write(efd_pong, &v, sizeof(v)) != sizeof(v))
			break;
	}
	return NULL;
}

static void floor_eventfd(size_t iters, int64_t think_ns)
{
	int64_t *lat = calloc(iters, sizeof(*lat));
	uint64_t one = 1, two = 2, v;
	double med, p99;
	int64_t t0, t1;
	pthread_t t;
	size_t i;

	efd_ping = eventfd(0, 0);
	efd_pong = eventfd(0, 0);
	pthread_create(&t, NULL, pong_eventfd, NULL);
	t0 = bench_now_ns();
	for (i = 0; i < iters; i++) {
		int64_t s = bench_now_ns();

		if (write(efd_ping, &one, sizeof(one)) != sizeof(one) ||
		    read(efd_pong, &v, sizeof(v)) != sizeof(v))
			abort();
		lat[i] = bench_now_ns() - s;
		if (think_ns)
			think(think_ns);
	}
	t1 = bench_now_ns();
	if (write(efd_ping, &two, sizeof(two)) != sizeof(two))
		abort();
	pthread_join(t, NULL);
	close(efd_ping);
	close(efd_pong);
	percentiles(lat, iters, &med, &p99);
	printf("BENCH hostrpc mode=floor-eventfd%s devices=1 servers=1 median_us=%.3f p99_us=%.3f "
	       "calls_per_s=%.0f rings_per_call=0\n", think_ns ? "-think" : "", med, p99,
	       iters * 1e9 / (double)(t1 - t0));
	free(lat);
}

/* ---- hostrpc ---- */

struct config {
	bool blocking;
	int devices, servers;
	uint32_t calls;
	int64_t think_ns;
};

struct server {
	struct zex_hostrpc *view;
	const struct config *cfg;
	pthread_t thread;
};

static _Atomic int servers_stop;

static void fill(struct zex_hostrpc_page *p, void *ctx)
{
	p->cacheline[0].element[0] = *(uint64_t *)ctx;
}

static void operate(struct zex_hostrpc_page *p, void *ctx)
{
	(void)ctx;
	p->cacheline[0].element[0]++;
}

static void use(struct zex_hostrpc_page *p, void *ctx)
{
	if (p->cacheline[0].element[0] != *(uint64_t *)ctx + 1)
		abort();
}

static void *server_main(void *arg)
{
	struct server *s = arg;
	int64_t idle = bench_now_ns();

	while (!servers_stop) {
		if (zex_hostrpc_serve(s->view, operate, NULL) > 0) {
			idle = bench_now_ns();
			continue;
		}
		if (!s->cfg->blocking || bench_now_ns() - idle < SERVER_IDLE_SPIN_NS) {
			cpu_relax();
			continue;
		}
		if (zex_hostrpc_arm(s->view) == 1)
			zex_hostrpc_wait(s->view, INT64_MAX);
		idle = bench_now_ns();
	}
	return NULL;
}

struct device {
	struct zex_hostrpc *view;
	const struct config *cfg;
	uint32_t id;
	int64_t *lat;
};

static void *device_main(void *arg)
{
	struct device *d = arg;
	uint32_t i;

	for (i = 0; i < d->cfg->calls; i++) {
		uint64_t tag = ((uint64_t)d->id << 32) | i;
		int64_t s = bench_now_ns();

		if (zex_hostrpc_call(d->view, d->id, fill, use, &tag))
			abort();
		d->lat[i] = bench_now_ns() - s;
		if (d->cfg->think_ns)
			think(d->cfg->think_ns);
	}
	return NULL;
}

static void on_signal(int sig)
{
	(void)sig;
}

static int run_hostrpc(struct zex_device *dev, const struct config *cfg)
{
	struct zex_hostrpc *host, *dv;
	struct server srv[4];
	struct device *d = calloc((size_t)cfg->devices, sizeof(*d));
	pthread_t *t = calloc((size_t)cfg->devices, sizeof(*t));
	size_t n = (size_t)cfg->devices * cfg->calls;
	int64_t *lat = calloc(n, sizeof(*lat)), t0, t1;
	struct zex_hostrpc_stats st;
	double med, p99;
	int i, ret;

	ret = zex_hostrpc_create(dev, (uint32_t)cfg->devices, &host);
	if (ret)
		return ret;
	ret = zex_hostrpc_open_view(host, ZEX_HOSTRPC_DEVICE, &dv);
	if (ret)
		return ret;
	zex_hostrpc_set_spin(dv, cfg->blocking ? CALLER_SPIN_POLLS : UINT32_MAX);
	servers_stop = 0;
	for (i = 0; i < cfg->servers; i++) {
		srv[i] = (struct server){ .cfg = cfg };
		if (zex_hostrpc_open_view(host, ZEX_HOSTRPC_HOST, &srv[i].view))
			return -1;
		pthread_create(&srv[i].thread, NULL, server_main, &srv[i]);
	}
	t0 = bench_now_ns();
	for (i = 0; i < cfg->devices; i++) {
		d[i] = (struct device){ .view = dv, .cfg = cfg, .id = (uint32_t)i,
					.lat = lat + (size_t)i * cfg->calls };
		pthread_create(&t[i], NULL, device_main, &d[i]);
	}
	for (i = 0; i < cfg->devices; i++)
		pthread_join(t[i], NULL);
	t1 = bench_now_ns();
	servers_stop = 1;
	for (i = 0; i < cfg->servers; i++) {
		do {
			pthread_kill(srv[i].thread, SIGUSR1);
			usleep(1000);
		} while (pthread_tryjoin_np(srv[i].thread, NULL) == EBUSY);
		zex_hostrpc_close(srv[i].view);
	}
	zex_hostrpc_stats(dv, &st);
	/* Busy time only: the think time between calls is not throughput. */
	if (cfg->think_ns)
		t1 -= (int64_t)cfg->calls * cfg->think_ns;
	percentiles(lat, n, &med, &p99);
	printf("BENCH hostrpc mode=%s%s devices=%d servers=%d median_us=%.3f p99_us=%.3f "
	       "calls_per_s=%.0f rings_per_call=%.4f\n",
	       cfg->blocking ? "blocking" : "polling", cfg->think_ns ? "-think" : "",
	       cfg->devices, cfg->servers, med, p99, n * 1e9 / (double)(t1 - t0),
	       (double)st.rings_sent / (double)n);
	zex_hostrpc_close(dv);
	zex_hostrpc_close(host);
	free(lat);
	free(t);
	free(d);
	return 0;
}

int main(int argc, char **argv)
{
	size_t iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	static const int devs[] = { 1, 4, 16, 64 };
	struct sigaction sa = { .sa_handler = on_signal };
	struct zex_device *dev;
	unsigned int i;
	int s;

	sigaction(SIGUSR1, &sa, NULL);
	if (zex_device_open(&dev)) {
		fprintf(stderr, "zex-bench-hostrpc: no zex device\n");
		return 4;
	}
	floor_pingpong(iters);
	floor_eventfd(iters / 4, 0);
	floor_eventfd(iters / 20, THINK_NS);
	for (s = 1; s <= 2; s++)
		for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
			struct config c = { .blocking = false, .devices = devs[i], .servers = s,
					    .calls = (uint32_t)(iters / (size_t)devs[i] / 2) };

			if (run_hostrpc(dev, &c))
				return 1;
		}
	{
		struct config c = { .blocking = true, .devices = 1, .servers = 1,
				    .calls = (uint32_t)(iters / 20), .think_ns = THINK_NS };

		if (run_hostrpc(dev, &c))
			return 1;
	}
	for (s = 1; s <= 2; s++)
		for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
			struct config c = { .blocking = true, .devices = devs[i], .servers = s,
					    .calls = (uint32_t)(iters / (size_t)devs[i] / 4) };

			if (run_hostrpc(dev, &c))
				return 1;
		}
	zex_device_close(dev);
	return 0;
}
