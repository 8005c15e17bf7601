// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-exec.c - exec queues against their floors, in one run
 *
 * Three rows, each the median of interleaved rounds:
 * - a 64 MiB copy (bound buffer objects on tile 0) through a tile's copy
 *   queue, submit to user fence, against DRM_IOCTL_ZEX_COPY of the same
 *   bytes (goal: at most 1.1 x) and against memcpy() of the same bytes
 *   between the objects' CPU mappings (the ratio, no goal);
 * - the submit-to-signal latency of the smallest job (one store, a user
 *   fence waited for) against a sync object ping-pong with a second thread
 *   and no job (goal: at most 2 x): both cross to another thread and back,
 *   the job to the engine's, the floor to the answering thread. The signal
 *   and wait of one sync object by one thread, which sleeps nowhere, is
 *   printed beside them (no goal);
 * - a 64 MiB copy into an object coloured over every tile through the root
 *   device's compute queue, split between the tiles, against a tile queue
 *   (the speed-up);
 * - the round trip of an empty launch on a long-running compute queue:
 *   submit, the launch published, a second thread (the compute side,
 *   asleep on the record) wakes and reports it done, the job ends, the
 *   user fence is seen; against the smallest job above (goal: at most
 *   1.5 x) and the ping-pong floor. It crosses threads twice more than the
 *   smallest job (to the compute side and back to the queue's context).
 * Prints "BENCH exec ..." lines that tools/bench/table.py reads.
 */

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex_bench.h"
#include "zex_drm_node.h"

#define SIZE	(64ull << 20)
#define ROUNDS	5
#define SRC_VA	0x200000000000ull
#define DST_VA	0x210000000000ull
#define DST2_VA	0x220000000000ull

static int fd;
static uint64_t *fence_mem;
static uint64_t seq;

static int xioctl(unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static uint32_t bo_bound(uint32_t placement, uint64_t va, void **map)
{
	struct drm_zex_bo_create c = { .size = SIZE, .placement = placement };
	struct drm_zex_vm_bind b = { 0 };
	struct drm_zex_bo_mmap_offset m = { 0 };

	if (xioctl(DRM_IOCTL_ZEX_BO_CREATE, &c))
		exit(fprintf(stderr, "zex-bench-exec: bo create: %s\n", strerror(errno)));
	b.handle = c.handle;
	b.va = va;
	m.handle = c.handle;
	if (xioctl(DRM_IOCTL_ZEX_VM_BIND, &b) || xioctl(DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m))
		exit(fprintf(stderr, "zex-bench-exec: bind: %s\n", strerror(errno)));
	*map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
	if (*map == MAP_FAILED)
		exit(fprintf(stderr, "zex-bench-exec: mmap: %s\n", strerror(errno)));
	memset(*map, 1, SIZE);	/* pages in, for every path alike */
	return c.handle;
}

static uint32_t queue(uint16_t cls, uint16_t device)
{
	struct drm_zex_exec_queue_create c = { .engine_class = cls, .device = device };

	if (xioctl(DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c))
		exit(fprintf(stderr, "zex-bench-exec: queue: %s\n", strerror(errno)));
	return c.exec_queue_id;
}

/* One job, waited for through its user fence. */
static void run_cmds(uint32_t q, const struct drm_zex_command *cmd, uint32_t n);

static void run(uint32_t q, const struct drm_zex_command *cmd)
{
	run_cmds(q, cmd, 1);
}

static void run_cmds(uint32_t q, const struct drm_zex_command *cmd, uint32_t n)
{
	struct drm_zex_sync s = { .type = DRM_ZEX_SYNC_USER_FENCE, .flags = DRM_ZEX_SYNC_SIGNAL,
				  .addr = (uintptr_t)fence_mem, .timeline_value = ++seq };
	struct drm_zex_exec e = { .exec_queue_id = q, .num_commands = n,
				  .commands = (uintptr_t)cmd, .num_syncs = 1,
				  .syncs = (uintptr_t)&s };
	struct drm_zex_wait_user_fence w = { .addr = (uintptr_t)fence_mem, .value = seq,
					     .mask = ~0ull, .timeout = -1 };

	if (xioctl(DRM_IOCTL_ZEX_EXEC, &e) || xioctl(DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w))
		exit(fprintf(stderr, "zex-bench-exec: job: %s\n", strerror(errno)));
}

static double copy_queue_ms(uint32_t q, uint64_t dst)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_COPY, .src = SRC_VA, .dst = dst,
				     .len = SIZE };
	double t = bench_now_ms();

	run(q, &c);
	return bench_now_ms() - t;
}

static double copy_ioctl_ms(void)
{
	struct drm_zex_copy c = { .src = SRC_VA, .dst = DST_VA, .len = SIZE };
	double t = bench_now_ms();

	if (xioctl(DRM_IOCTL_ZEX_COPY, &c))
		exit(fprintf(stderr, "zex-bench-exec: copy: %s\n", strerror(errno)));
	return bench_now_ms() - t;
}

static double memcpy_ms(void *dst, const void *src)
{
	double t = bench_now_ms();

	memcpy(dst, src, SIZE);
	return bench_now_ms() - t;
}

#define LAT_N	2000

static double empty_job_us(uint32_t q)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_STORE, .dst = (uintptr_t)&fence_mem[8],
				     .value = 1 };
	double t = bench_now_us();
	int i;

	for (i = 0; i < LAT_N; i++)
		run(q, &c);
	return (bench_now_us() - t) / LAT_N;
}

static double syncobj_round_trip_us(void)
{
	struct drm_syncobj_create c = { 0 };
	struct drm_syncobj_array a = { .count_handles = 1 };
	struct drm_syncobj_wait w = { .count_handles = 1, .timeout_nsec = INT64_MAX };
	double t;
	int i;

	if (xioctl(DRM_IOCTL_SYNCOBJ_CREATE, &c))
		exit(fprintf(stderr, "zex-bench-exec: syncobj: %s\n", strerror(errno)));
	a.handles = (uintptr_t)&c.handle;
	w.handles = (uintptr_t)&c.handle;
	t = bench_now_us();
	for (i = 0; i < LAT_N; i++) {
		if (xioctl(DRM_IOCTL_SYNCOBJ_RESET, &a) || xioctl(DRM_IOCTL_SYNCOBJ_SIGNAL, &a) ||
		    xioctl(DRM_IOCTL_SYNCOBJ_WAIT, &w))
			exit(fprintf(stderr, "zex-bench-exec: syncobj: %s\n", strerror(errno)));
	}
	return (bench_now_us() - t) / LAT_N;
}

static uint32_t ping, pong;
static int pong_rounds;

static void syncobj_wait_reset(uint32_t handle)
{
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&handle, .count_handles = 1,
				      .timeout_nsec = INT64_MAX,
				      .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT };
	struct drm_syncobj_array a = { .handles = (uintptr_t)&handle, .count_handles = 1 };

	if (xioctl(DRM_IOCTL_SYNCOBJ_WAIT, &w) || xioctl(DRM_IOCTL_SYNCOBJ_RESET, &a))
		exit(fprintf(stderr, "zex-bench-exec: syncobj: %s\n", strerror(errno)));
}

static void syncobj_signal(uint32_t handle)
{
	struct drm_syncobj_array a = { .handles = (uintptr_t)&handle, .count_handles = 1 };

	if (xioctl(DRM_IOCTL_SYNCOBJ_SIGNAL, &a))
		exit(fprintf(stderr, "zex-bench-exec: syncobj: %s\n", strerror(errno)));
}

/* The answering thread: each ping signalled, it signals a pong. */
static void *ponger(void *arg)
{
	int i;

	for (i = 0; i < pong_rounds; i++) {
		syncobj_wait_reset(ping);
		syncobj_signal(pong);
	}
	return arg;
}

static double syncobj_ping_pong_us(void)
{
	struct drm_syncobj_create c1 = { 0 }, c2 = { 0 };
	pthread_t t;
	double us;
	int i;

	if (xioctl(DRM_IOCTL_SYNCOBJ_CREATE, &c1) || xioctl(DRM_IOCTL_SYNCOBJ_CREATE, &c2))
		exit(fprintf(stderr, "zex-bench-exec: syncobj: %s\n", strerror(errno)));
	ping = c1.handle;
	pong = c2.handle;
	pong_rounds = LAT_N;
	if (pthread_create(&t, NULL, ponger, NULL))
		exit(fprintf(stderr, "zex-bench-exec: pthread_create failed\n"));
	us = bench_now_us();
	for (i = 0; i < LAT_N; i++) {
		syncobj_signal(ping);
		syncobj_wait_reset(pong);
	}
	us = (bench_now_us() - us) / LAT_N;
	pthread_join(t, NULL);
	return us;
}

/* The compute side: each launch seen on the record, it reports it done. */
static struct drm_zex_launch_record *record;
static uint32_t launch_q;
static int launch_rounds;
static uint64_t launches;

static void *launch_server(void *arg)
{
	int i;

	for (i = 0; i < launch_rounds; i++) {
		uint64_t n = launches + 1 + i;
		struct drm_zex_wait_user_fence w = {
			.addr = (uintptr_t)&record->seqno, .op = DRM_ZEX_COMPARE_GTE, .value = n,
			.mask = ~0ull, .timeout = -1, .flags = DRM_ZEX_WAIT_EXEC_QUEUE,
			.exec_queue_id = launch_q,
		};
		struct drm_zex_launch_report r = { .exec_queue_id = launch_q, .seqno = n };

		if (xioctl(DRM_IOCTL_ZEX_WAIT_USER_FENCE, &w) ||
		    xioctl(DRM_IOCTL_ZEX_LAUNCH_REPORT, &r))
			exit(fprintf(stderr, "zex-bench-exec: serve: %s\n", strerror(errno)));
	}
	return arg;
}

static double empty_launch_us(void)
{
	struct drm_zex_command c = { .op = DRM_ZEX_CMD_LAUNCH, .dst = (uintptr_t)record };
	pthread_t t;
	double us;
	int i;

	launch_rounds = LAT_N;
	if (pthread_create(&t, NULL, launch_server, NULL))
		exit(fprintf(stderr, "zex-bench-exec: pthread_create failed\n"));
	us = bench_now_us();
	for (i = 0; i < LAT_N; i++)
		run_cmds(launch_q, &c, 1);
	us = (bench_now_us() - us) / LAT_N;
	pthread_join(t, NULL);
	launches += LAT_N;
	return us;
}

int main(void)
{
	double q_ms[ROUNDS], io_ms[ROUNDS], mc_ms[ROUNDS], root_ms[ROUNDS], tile_ms[ROUNDS];
	double job_us[ROUNDS], sync_us[ROUNDS], pp_us[ROUNDS], launch_us[ROUNDS];
	struct drm_zex_query_device dev = { 0 };
	struct drm_zex_query qd = { .query = DRM_ZEX_QUERY_DEVICE, .size = sizeof(dev),
				    .data = (uintptr_t)&dev };
	void *src, *dst, *dst2;
	uint32_t copyq, rootq;
	int i;

	fd = zex_drm_open("zex", DRM_NODE_RENDER);
	if (fd < 0)
		return fprintf(stderr, "zex-bench-exec: no zex device\n"), 1;
	if (xioctl(DRM_IOCTL_ZEX_QUERY, &qd))
		return 1;
	fence_mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	{
		struct drm_zex_userptr_import imp = { .addr = (uintptr_t)fence_mem, .size = 4096 };

		if (fence_mem == MAP_FAILED || xioctl(DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp))
			return fprintf(stderr, "zex-bench-exec: import: %s\n", strerror(errno)), 1;
	}
	bo_bound(0, SRC_VA, &src);
	bo_bound(0, DST_VA, &dst);
	bo_bound(DRM_ZEX_DEVICE_ROOT, DST2_VA, &dst2);
	copyq = queue(DRM_ZEX_ENGINE_CLASS_COPY, 0);
	rootq = queue(DRM_ZEX_ENGINE_CLASS_COMPUTE, DRM_ZEX_DEVICE_ROOT);
	{
		struct drm_zex_exec_queue_create c = {
			.engine_class = DRM_ZEX_ENGINE_CLASS_COMPUTE,
			.flags = DRM_ZEX_EXEC_QUEUE_LONG_RUNNING,
		};

		if (xioctl(DRM_IOCTL_ZEX_EXEC_QUEUE_CREATE, &c))
			return fprintf(stderr, "zex-bench-exec: lr queue: %s\n", strerror(errno)), 1;
		launch_q = c.exec_queue_id;
		record = (struct drm_zex_launch_record *)&fence_mem[64];
	}

	for (i = 0; i < ROUNDS; i++) {
		q_ms[i] = copy_queue_ms(copyq, DST_VA);
		io_ms[i] = copy_ioctl_ms();
		mc_ms[i] = memcpy_ms(dst, src);
		root_ms[i] = copy_queue_ms(rootq, DST2_VA);
		tile_ms[i] = copy_queue_ms(copyq, DST2_VA);
		job_us[i] = empty_job_us(copyq);
		sync_us[i] = syncobj_round_trip_us();
		pp_us[i] = syncobj_ping_pong_us();
		launch_us[i] = empty_launch_us();
	}
	printf("BENCH exec copy mib=%llu queue_ms=%.2f ioctl_ms=%.2f memcpy_ms=%.2f\n",
	       SIZE >> 20, bench_median(q_ms, ROUNDS), bench_median(io_ms, ROUNDS),
	       bench_median(mc_ms, ROUNDS));
	printf("BENCH exec latency job_us=%.2f pingpong_us=%.2f syncobj_us=%.2f\n",
	       bench_median(job_us, ROUNDS), bench_median(pp_us, ROUNDS),
	       bench_median(sync_us, ROUNDS));
	printf("BENCH exec split tiles=%u root_ms=%.2f tile_ms=%.2f\n", dev.num_tiles,
	       bench_median(root_ms, ROUNDS), bench_median(tile_ms, ROUNDS));
	printf("BENCH exec launch launch_us=%.2f job_us=%.2f pingpong_us=%.2f\n",
	       bench_median(launch_us, ROUNDS), bench_median(job_us, ROUNDS),
	       bench_median(pp_us, ROUNDS));
	return 0;
}
