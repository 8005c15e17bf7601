// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_fault_test.c - kselftest of zex's error paths under fault injection
 *
 * Uses the kernel's per-task fault injection (/proc/thread-self/fail-nth,
 * with failslab and fail_page_alloc told not to spare sleeping allocations)
 * to make the 1st, 2nd, 3rd, ... allocation of an ioctl fail, until the
 * ioctl runs through without reaching the injected fault. Every injected
 * failure must return a clean error and leave nothing behind: no handle,
 * no tile memory charged; the kmemleak scan at the end of the VM run
 * catches anything an error path forgot to free. Skips (KSFT_SKIP) on a
 * kernel without fault injection, such as the stock Debian kernel.
 */

#include <stdint.h>
#include <sys/mman.h>

#include "zex_selftest.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define MAX_SWEEP	2000

static bool fault_injection_ready(void)
{
	static const char *const knobs[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};
	unsigned int i;

	if (access(FAIL_NTH, W_OK))
		return false;
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (zex_sysfs_write(knobs[i][0], knobs[i][1]))
			return false;
	return true;
}

/* Arm the n-th fault site of this thread; 0 disarms. */
static int fail_nth_arm(unsigned int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", n);
	return zex_sysfs_write(FAIL_NTH, buf);
}

/* True when the armed fault was reached (the counter ran down to 0). */
static bool fail_nth_fired(void)
{
	long long left = zex_sysfs_u64(FAIL_NTH);

	fail_nth_arm(0);
	return left == 0;
}

FIXTURE(fault) {
	int fd;
	bool ready;
};

FIXTURE_SETUP(fault)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, zex_tiles_usage());
	self->ready = fault_injection_ready();
}

FIXTURE_TEARDOWN(fault)
{
	close(self->fd);
}

/*
 * The 6.1 harness runs the test body even after SKIP() in FIXTURE_SETUP,
 * so each test checks for itself.
 */
#define REQUIRE_FAULT_INJECTION() do {					\
	if (!self->ready)						\
		SKIP(return, "kernel without fault injection (fail-nth, failslab)"); \
} while (0)

TEST_F(fault, bo_create)
{
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_bo_create c = { .size = 65536, .placement = 0 };
		struct drm_gem_close gc = { 0 };
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			gc.handle = c.handle;
			ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
			break;
		}
		injected++;
		if (!ret) {
			/* The fault hit something that may fail silently. */
			gc.handle = c.handle;
			ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
		} else {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		}
		ASSERT_EQ(0, zex_tiles_usage()) TH_LOG("fault %u left memory charged", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	TH_LOG("%u allocation faults injected", injected);
	EXPECT_LT(0, injected);
}

TEST_F(fault, bo_mmap_offset_and_map)
{
	struct drm_zex_bo_create c = { .size = 8192, .placement = 0 };
	struct drm_gem_close gc = { 0 };
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_bo_mmap_offset m = { .handle = c.handle };
		int ret;
		void *p;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m);
		p = ret ? MAP_FAILED : mmap(NULL, 8192, PROT_READ | PROT_WRITE,
					    MAP_SHARED, self->fd, (off_t)m.offset);
		if (p != MAP_FAILED)
			((volatile char *)p)[0] = 1;	/* fault a page in */
		if (!fail_nth_fired()) {
			ASSERT_NE(MAP_FAILED, p);
			munmap(p, 8192);
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		if (p != MAP_FAILED)
			munmap(p, 8192);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
	gc.handle = c.handle;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(fault, query)
{
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	for (n = 1; n < MAX_SWEEP; n++) {
		unsigned char buf[4096];
		struct drm_zex_query q = {
			.query = DRM_ZEX_QUERY_ENGINES,
			.size = sizeof(buf),
			.data = (uintptr_t)buf,
		};
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
}

TEST_F(fault, export_and_import)
{
	unsigned int n, injected = 0;
	uint64_t size = 4 * 65536 * (uint64_t)zex_param("tiles");
	uint32_t h;

	REQUIRE_FAULT_INJECTION();

	ASSERT_EQ(0, raw_bo_create(self->fd, size, DRM_ZEX_DEVICE_ROOT, &h, NULL));
	for (n = 1; n < MAX_SWEEP; n++) {
		int fds[DRM_ZEX_MAX_TILES], before = zex_count_fds(), got, i, ret;
		uint32_t ih = 0;

		ASSERT_EQ(0, fail_nth_arm(n));
		got = raw_bo_export(self->fd, h, fds, DRM_ZEX_MAX_TILES);
		ret = got < 0 ? got : raw_bo_import(self->fd, fds, (uint32_t)got, 0, &ih, NULL);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			for (i = 0; i < got; i++)
				close(fds[i]);
			ASSERT_EQ(0, raw_bo_close(self->fd, ih));
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		if (!ret)
			ASSERT_EQ(0, raw_bo_close(self->fd, ih));
		for (i = 0; got > 0 && i < got; i++)
			close(fds[i]);
		/* A failed export installed no fd. */
		ASSERT_EQ(before, zex_count_fds()) TH_LOG("fault %u", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
	ASSERT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(fault, open_and_close)
{
	const char *node = NULL;
	char path[64];
	unsigned int n, injected = 0;
	int fd;

	REQUIRE_FAULT_INJECTION();

	/* The node this fixture's fd has open. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", self->fd);
	node = realpath(path, NULL);
	ASSERT_NE(NULL, node);
	for (n = 1; n < MAX_SWEEP; n++) {
		ASSERT_EQ(0, fail_nth_arm(n));
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (!fail_nth_fired()) {
			ASSERT_LE(0, fd);
			close(fd);
			break;
		}
		injected++;
		if (fd >= 0)
			close(fd);
		else
			ASSERT_EQ(ENOMEM, errno) TH_LOG("fault %u", n);
	}
	free((void *)node);
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
}

ZEX_SELFTEST_MAIN
