/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_selftest.h - what every zex kselftest shares
 *
 * Finds the zex render node the way a runtime does (zex_drm_node.h), and
 * provides ZEX_SELFTEST_MAIN: a main() that prints a
 * TAP skip and exits with KSFT_SKIP (4) when no zex device is present, and
 * otherwise runs the kselftest harness. Also small helpers for sysfs, for
 * issuing ioctls with errno captured and for becoming an unprivileged user.
 */

#ifndef ZEX_SELFTEST_H
#define ZEX_SELFTEST_H

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "kselftest_harness.h"
#include "zex_drm_node.h"
#include "zex_fd_count.h"
#include "zex_thread_state.h"

#define ZEX_SYSFS_PLATFORM	"/sys/bus/platform/devices/zex"
#define ZEX_SYSFS_PARAMS	"/sys/module/zex/parameters"
#define ZEX_SYSFS_TILES		"/sys/bus/auxiliary/devices"

/* The zex render node, found as a runtime or a render-group user would; -1: none. */
static inline int zex_open_render(void)
{
	return zex_drm_open("zex", DRM_NODE_RENDER);
}

/* The unprivileged user the tests become: nobody. */
#define ZEX_NOBODY		65534

/*
 * Become @uid with no groups and no capabilities, as any render-group user
 * acting on a node root opened. (The process stays dumpable, so that it
 * can still read its own /proc/self.) Returns 0 or -errno.
 */
static inline int zex_become_user(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid) ||
	    prctl(PR_SET_DUMPABLE, 1))
		return -errno;
	return 0;
}

/* ioctl() that returns 0 or -errno, retrying on EINTR as libdrm does. */
static inline int zex_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

/* Read an unsigned number from a sysfs file; returns -1 when unreadable. */
static inline long long zex_sysfs_u64(const char *path)
{
	unsigned long long v;
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	return ok ? (long long)v : -1;
}

static inline long long zex_param(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), ZEX_SYSFS_PARAMS "/%s", name);
	return zex_sysfs_u64(path);
}

/* The kernel colours root allocations: implicit scaling on, more than one tile. */
static inline bool zex_implicit_scaling(void)
{
	return zex_param("enable_implicit_scaling") && zex_param("tiles") > 1;
}

static inline long long zex_tile_attr(unsigned int tile, const char *attr)
{
	char path[256];

	snprintf(path, sizeof(path), ZEX_SYSFS_TILES "/zex.tile.%u/%s", tile, attr);
	return zex_sysfs_u64(path);
}

/* Write a string to a sysfs file; returns 0 or -errno. */
static inline int zex_sysfs_write(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	n = n < 0 ? -errno : 0;
	close(fd);
	return (int)n;
}

/* CLOCK_MONOTONIC in nanoseconds (the clock of hostrpc wait deadlines). */
static inline int64_t zex_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Wait until zex's module count drops to @count or below (what is freed
 * after the last reference goes, and a killed queue's teardown, happen on
 * workqueues); the count then. It gives up after 20 s: a count that stays
 * above is a leak.
 */
static inline long long zex_module_refs_drop_to(long long count)
{
	long long refs;
	int i;

	for (i = 0; i < 20000; i++) {
		refs = zex_sysfs_u64("/sys/module/zex/refcnt");
		if (refs <= count)
			break;
		usleep(1000);
	}
	return refs;
}

/* Raw buffer-object helpers: the ioctls themselves, no libzex. */
/* Create a buffer object; returns 0 or -errno. */
static inline int raw_bo_create(int fd, uint64_t size, uint32_t placement,
				uint32_t *handle, uint64_t *out_size)
{
	struct drm_zex_bo_create c = { .size = size, .placement = placement };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (out_size)
			*out_size = c.size;
	}
	return ret;
}

/* Create on the root device with a colouring override. */
static inline int raw_bo_create_coloured(int fd, uint64_t size, uint32_t policy,
					 uint32_t granularity_kb, uint32_t *handle,
					 uint64_t *out_size)
{
	struct drm_zex_bo_create c = {
		.size = size,
		.placement = DRM_ZEX_DEVICE_ROOT,
		.flags = DRM_ZEX_BO_CREATE_COLOURING,
		.multi_storage_policy = policy,
		.multi_storage_granularity_kb = granularity_kb,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (out_size)
			*out_size = c.size;
	}
	return ret;
}

static inline int raw_bo_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return zex_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* Map a whole buffer object read-write; MAP_FAILED on error. */
static inline void *raw_bo_map(int fd, uint32_t handle, size_t size)
{
	struct drm_zex_bo_mmap_offset m = { .handle = handle };

	if (zex_ioctl(fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m))
		return MAP_FAILED;
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)m.offset);
}

/*
 * The pieces of a buffer object: *pieces is malloc'd (free it), *info
 * receives the layout. Returns the number of pieces, or -errno.
 */
static inline int raw_bo_pieces(int fd, uint32_t handle,
				struct drm_zex_piece_info **pieces,
				struct drm_zex_bo_info *info)
{
	struct drm_zex_bo_info i = { .handle = handle };
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_INFO, &i);

	if (ret)
		return ret;
	*pieces = calloc(i.num_pieces, sizeof(**pieces));
	if (!*pieces)
		return -ENOMEM;
	i.pieces = (uintptr_t)*pieces;
	ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_INFO, &i);
	if (ret) {
		free(*pieces);
		return ret;
	}
	if (info)
		*info = i;
	return (int)i.num_pieces;
}

/* Export every piece; fds must hold max entries. Returns the count or -errno. */
static inline int raw_bo_export(int fd, uint32_t handle, int *fds, uint32_t max)
{
	struct drm_zex_bo_export e = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
		.num_fds = max,
		.fds = (uintptr_t)fds,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_EXPORT, &e);

	return ret ? ret : (int)e.num_fds;
}

/* Import n dma-bufs as one buffer object (linear, or interleaved at gran). */
static inline int raw_bo_import(int fd, const int *fds, uint32_t n, uint64_t gran,
				uint32_t *handle, uint64_t *size)
{
	struct drm_zex_bo_import im = {
		.fds = (uintptr_t)fds,
		.num_fds = n,
		.flags = gran ? DRM_ZEX_BO_INTERLEAVED : 0,
		.granularity = gran,
	};
	int ret = zex_ioctl(fd, DRM_IOCTL_ZEX_BO_IMPORT, &im);

	if (!ret) {
		*handle = im.handle;
		if (size)
			*size = im.size;
	}
	return ret;
}

/* A position-dependent pattern, to tell every 8 bytes of a buffer apart. */
static inline void zex_fill(void *buf, size_t size, uint32_t seed)
{
	uint8_t *p = buf;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8)
		*(uint64_t *)(p + i) = (i * 0x9e3779b97f4a7c15ull) ^ seed;
}

/* Whether @buf holds zex_fill()'s pattern for @seed. */
static inline bool zex_same(const void *buf, size_t size, uint32_t seed)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i + 8 <= size; i += 8)
		if (*(const uint64_t *)(p + i) != ((i * 0x9e3779b97f4a7c15ull) ^ seed))
			return false;
	return true;
}

/* Bytes charged on every tile together, plus the piece count. */
static inline long long zex_tiles_usage(void)
{
	unsigned int t, tiles = (unsigned int)zex_param("tiles");
	long long used = 0;

	for (t = 0; t < tiles; t++)
		used += zex_tile_attr(t, "mem_used") + zex_tile_attr(t, "num_bos");
	return used;
}


/*
 * A kselftest main that skips cleanly (exit 4, KSFT_SKIP) when zex is not
 * loaded, as kselftests do for absent hardware.
 */
/*
 * ZEX_STRESS=1 (make stress, make fuzz) scales some tests up; their time
 * limit grows from the harness's 30 s to an hour (ZEX_TEST_TIMEOUT seconds
 * when set), so a hang still ends the run.
 */
static inline bool zex_stress(void)
{
	const char *s = getenv("ZEX_STRESS");

	return s && *s == '1';
}

/*
 * The harness's limit on a test only tells a hang: the tests wait for
 * events, never for time. 30 s is what a test takes on a busy host under
 * TCG with KASAN, not a hang (a thread-heavy libzex test went past it), so
 * no test gets less than 300 s (the runner gives a program 600); under
 * ZEX_STRESS every test gets the stress limit.
 */
#define ZEX_TEST_TIMEOUT_FLOOR	300

static inline void zex_test_timeouts(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	const char *limit = getenv("ZEX_TEST_TIMEOUT");	/* seconds, make fuzz */
	int stress = limit && *limit ? atoi(limit) : 3600;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next) {
			if (zex_stress())
				t->timeout = stress;
			else if (t->timeout < ZEX_TEST_TIMEOUT_FLOOR)
				t->timeout = ZEX_TEST_TIMEOUT_FLOOR;
		}
}

#define ZEX_SELFTEST_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		int fd = zex_open_render();				\
		if (fd < 0) {						\
			ksft_print_header();				\
			ksft_exit_skip("no zex device (is zex.ko loaded?)\n"); \
		}							\
		close(fd);						\
		zex_test_timeouts();					\
		return test_harness_run(argc, argv);			\
	}

#endif /* ZEX_SELFTEST_H */
