// SPDX-License-Identifier: MIT
/*
 * DOC: hostrpc_scale.c - the protocol core at the seed's scale, on real cores
 *
 * The rig of hostrpc_rig.h built natively (no sanitizer, -O2): device
 * threads and server threads over plain memory, the host's interrupt an
 * eventfd, the device side's a condition variable. Every call is verified
 * (its reply must be the answer to its own request, no call lost or
 * answered twice, every word back to 0 at the end).
 *
 *   hostrpc_scale check   the seed's scale: 1024 callers x 1000 calls
 *                         against 1, 2 and 4 servers, and 10^6 calls
 *                         between a sleeping caller and a sleeping server;
 *                         TAP, exit 1 on any failure
 *   hostrpc_scale bench   calls/s for 1, 16, 256 and 1024 callers against
 *                         1, 2 and 4 servers that sleep when idle (whole
 *                         pages), and against 1 and 2 servers that poll
 *                         (one cache line each way), beside a
 *                         cache-line ping-pong between two threads
 *                         measured in the same run (the floor of one
 *                         round trip)
 */
#include "hostrpc_rig.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The floor: two threads passing one cache line back and forth. */
static _Atomic uint64_t ball;

static void *pong(void *arg)
{
	uint64_t n = (uint64_t)(uintptr_t)arg, i;

	for (i = 0; i < n; i++) {
		uint32_t polls = 0;

		while (ball != 2 * i + 1)
			hr_relax(polls++);
		ball = 2 * i + 2;
	}
	return NULL;
}

static double pingpong_per_s(uint64_t n)
{
	pthread_t t;
	uint64_t i;
	double t0;

	ball = 0;
	if (pthread_create(&t, NULL, pong, (void *)(uintptr_t)n))
		abort();
	t0 = now_s();
	for (i = 0; i < n; i++) {
		uint32_t polls = 0;

		ball = 2 * i + 1;
		while (ball != 2 * i + 2)
			hr_relax(polls++);
	}
	pthread_join(t, NULL);
	return (double)n / (now_s() - t0);
}

/* One slot per caller (the seed's N >= callers), one view per 64 callers. */
static struct shape shape_of(int callers, int servers, uint32_t calls, bool sleeping)
{
	return (struct shape){
		.nslots = callers < 64 ? 64 : (uint32_t)callers,
		.devices = callers, .servers = servers,
		.views = callers < 64 ? 1 : callers / 64,
		.calls = calls, .blocking_devices = sleeping,
	};
}

/*
 * One bench row: about 200000 calls, at least 100 per caller. Rows with
 * polling servers make small calls (one cache line of the page each way),
 * like for like with the cache-line floor; the others move whole pages.
 */
static int bench_row(int callers, int servers, bool polling, double floor)
{
	uint32_t calls = 200000 / (uint32_t)callers;
	struct shape sh;
	struct outcome o;
	int bad;

	if (calls < 100)
		calls = 100;
	sh = shape_of(callers, servers, calls, false);
	sh.polling_servers = polling;
	sh.small = polling;
	bad = rig_run(sh, &o);
	printf("| %d callers x %d %s servers%s | %ld | %.0f | %.2f | %.4f |\n",
	       callers, servers, polling ? "polling, small calls," : "sleeping, page calls,",
	       bad ? " (FAILED)" : "",
	       o.served, (double)o.served / o.seconds, (double)o.served / o.seconds / floor,
	       (double)o.host_rings / (double)(o.served ? o.served : 1));
	return bad;
}

static int check(void)
{
	static const int servers[] = { 1, 2, 4 };
	struct outcome o;
	int i, n = 0, failed = 0;

	printf("TAP version 13\n1..4\n");
	for (i = 0; i < 3; i++) {
		int bad = rig_run(shape_of(1024, servers[i], 1000, false), &o);

		printf("%sok %d 1024 callers x 1000 calls, %d servers: %ld calls verified, "
		       "%.0f calls/s, %.4f host rings per call\n", bad ? "not " : "", ++n,
		       servers[i], o.served, (double)o.served / o.seconds,
		       (double)o.host_rings / (double)(o.served ? o.served : 1));
		if (bad)
			printf("# errors %ld, failed calls %ld, served %ld of %ld, held %ld\n",
			       o.errors, o.failed_calls, o.served, o.expected, o.held_words);
		failed |= bad;
	}
	{
		/* 10^6 calls with both sides asleep between them. */
		int bad = rig_run(shape_of(1, 1, 1000000, true), &o);

		printf("%sok %d 10^6 calls between a sleeping caller and a sleeping server: "
		       "%ld verified, %.0f calls/s, %.4f host and %.4f device rings per call\n",
		       bad ? "not " : "", ++n, o.served, (double)o.served / o.seconds,
		       (double)o.host_rings / (double)(o.served ? o.served : 1),
		       (double)o.device_rings / (double)(o.served ? o.served : 1));
		failed |= bad;
	}
	return failed;
}

/*
 * The floor is measured before and after the rows and the better of the
 * two counts: on a shared machine the two threads' placement changes
 * between runs, and a floor must be what the hardware can do.
 */
static int bench(void)
{
	static const int callers[] = { 1, 16, 256, 1024 }, servers[] = { 1, 2, 4 };
	double before = pingpong_per_s(1000000), after, floor;
	int c, s, failed = 0;

	printf("| row | calls | calls/s | vs floor | host rings/call |\n|---|---|---|---|---|\n");
	for (c = 0; c < 4; c++)
		for (s = 0; s < 2; s++)
			failed |= bench_row(callers[c], servers[s], true, before);
	for (c = 0; c < 4; c++)
		for (s = 0; s < 3; s++)
			failed |= bench_row(callers[c], servers[s], false, before);
	after = pingpong_per_s(1000000);
	floor = before > after ? before : after;
	printf("| floor: cache-line ping-pong, 2 threads, before the rows | 1000000 | %.0f | - | - |\n",
	       before);
	printf("| floor: the same after the rows | 1000000 | %.0f | - | - |\n", after);
	printf("(vs floor: against the one before the rows; against the better of the two, "
	       "multiply by %.2f)\n", before / floor);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc == 2 && !strcmp(argv[1], "bench"))
		return bench();
	fprintf(stderr, "usage: %s check|bench\n", argv[0]);
	return 2;
}
