// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex-bench-ipc.c - cost of multi-fd export and import, against vgem
 *
 * Usage: zex-bench-ipc N ITERATIONS
 *
 * zex, batched: a root-device object of N pieces (the device must have N
 * tiles); one operation exports all N pieces as fds with one ioctl,
 * imports them as one object in a second DRM file with another, and
 * releases the import and the fds.
 * zex, one at a time: N one-piece objects, each exported, imported and
 * released on its own (2N ioctls, like the floor).
 * vgem, the floor: N dumb objects; one operation PRIME-exports each,
 * imports each into a second vgem file, and releases them (2N ioctls).
 * For N > 1 only "one at a time" against vgem is like for like; batched
 * against vgem shows what batching saves. All three measured in the same
 * process, interleaved in 7 rounds; the median round of each is reported
 * as one line: "BENCH ipc n=N zex_us=… zex_single_us=… vgem_us=…".
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "zex_bench.h"
#include "zex_drm_node.h"

#define die(what) bench_die("zex-bench-ipc", what)

#define ROUNDS 7

static void zex_op(int fd, int fd2, uint32_t handle, unsigned int n)
{
	int fds[DRM_ZEX_MAX_TILES];
	struct drm_zex_bo_export e = {
		.handle = handle, .flags = DRM_CLOEXEC | DRM_RDWR,
		.num_fds = n, .fds = (uintptr_t)fds,
	};
	struct drm_zex_bo_import im = { .fds = (uintptr_t)fds, .num_fds = n };
	struct drm_gem_close c = { 0 };
	unsigned int i;

	if (drmIoctl(fd, DRM_IOCTL_ZEX_BO_EXPORT, &e) || e.num_fds != n)
		die("zex export");
	if (drmIoctl(fd2, DRM_IOCTL_ZEX_BO_IMPORT, &im))
		die("zex import");
	c.handle = im.handle;
	drmIoctl(fd2, DRM_IOCTL_GEM_CLOSE, &c);
	for (i = 0; i < n; i++)
		close(fds[i]);
}

/* N one-piece objects, each exported and imported on its own. */
static void zex_single_op(int fd, int fd2, const uint32_t *handles, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		zex_op(fd, fd2, handles[i], 1);
}

static void vgem_op(int fd, int fd2, const uint32_t *handles, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct drm_gem_close c = { 0 };
		int dfd;

		if (drmPrimeHandleToFD(fd, handles[i], DRM_CLOEXEC | DRM_RDWR, &dfd))
			die("vgem export");
		if (drmPrimeFDToHandle(fd2, dfd, &c.handle))
			die("vgem import");
		drmIoctl(fd2, DRM_IOCTL_GEM_CLOSE, &c);
		close(dfd);
	}
}

int main(int argc, char **argv)
{
	unsigned int n, iters, r, i;
	double zex[ROUNDS], single[ROUNDS], vgem[ROUNDS];
	uint32_t handle, zh[DRM_ZEX_MAX_TILES], vh[DRM_ZEX_MAX_TILES];
	int z, z2, v, v2;

	if (argc != 3)
		return fprintf(stderr, "usage: %s N ITERATIONS\n", argv[0]), 2;
	n = (unsigned int)atoi(argv[1]);
	iters = (unsigned int)atoi(argv[2]);
	if (!n || n > DRM_ZEX_MAX_TILES || !iters)
		return 2;

	z = zex_drm_open("zex", DRM_NODE_RENDER);
	z2 = zex_drm_open("zex", DRM_NODE_RENDER);
	/* Dumb objects are made on the primary node only. */
	v = zex_drm_open("vgem", DRM_NODE_PRIMARY);
	v2 = zex_drm_open("vgem", DRM_NODE_PRIMARY);
	if (z < 0 || z2 < 0 || v < 0 || v2 < 0)
		die("open zex and vgem");

	{
		struct drm_zex_bo_create c = {
			.size = (uint64_t)n << 20,
			.placement = n > 1 ? DRM_ZEX_DEVICE_ROOT : 0,
		};
		struct drm_zex_bo_info info = { 0 };

		if (drmIoctl(z, DRM_IOCTL_ZEX_BO_CREATE, &c))
			die("zex create");
		handle = c.handle;
		info.handle = handle;
		if (drmIoctl(z, DRM_IOCTL_ZEX_BO_INFO, &info) || info.num_pieces != n) {
			fprintf(stderr, "zex-bench-ipc: the object has %u pieces, not %u\n",
				info.num_pieces, n);
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		struct drm_zex_bo_create c = { .size = 1 << 20, .placement = 0 };

		if (drmIoctl(z, DRM_IOCTL_ZEX_BO_CREATE, &c))
			die("zex create one piece");
		zh[i] = c.handle;
	}
	for (i = 0; i < n; i++) {
		struct drm_mode_create_dumb d = { .width = 256, .height = 1024, .bpp = 32 };

		if (drmIoctl(v, DRM_IOCTL_MODE_CREATE_DUMB, &d))
			die("vgem create");
		vh[i] = d.handle;
	}

	/* Warm up both, then alternate rounds so drift hits both alike. */
	zex_op(z, z2, handle, n);
	zex_single_op(z, z2, zh, n);
	vgem_op(v, v2, vh, n);
	for (r = 0; r < ROUNDS; r++) {
		double t0 = bench_now_us();

		for (i = 0; i < iters; i++)
			zex_op(z, z2, handle, n);
		zex[r] = (bench_now_us() - t0) / iters;
		t0 = bench_now_us();
		for (i = 0; i < iters; i++)
			zex_single_op(z, z2, zh, n);
		single[r] = (bench_now_us() - t0) / iters;
		t0 = bench_now_us();
		for (i = 0; i < iters; i++)
			vgem_op(v, v2, vh, n);
		vgem[r] = (bench_now_us() - t0) / iters;
	}
	printf("BENCH ipc n=%u zex_us=%.2f zex_single_us=%.2f vgem_us=%.2f\n", n,
	       bench_median(zex, ROUNDS), bench_median(single, ROUNDS), bench_median(vgem, ROUNDS));
	return 0;
}
