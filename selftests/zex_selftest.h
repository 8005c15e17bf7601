/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_selftest.h - what every zex kselftest shares
 *
 * Finds the zex render node the way a runtime does, through libdrm's
 * drmGetDevices2(), and provides ZEX_SELFTEST_MAIN: a main() that prints a
 * TAP skip and exits with KSFT_SKIP (4) when no zex device is present, and
 * otherwise runs the kselftest harness. Also small helpers for sysfs and
 * for issuing ioctls with errno captured.
 */

#ifndef ZEX_SELFTEST_H
#define ZEX_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/zex_drm.h>

#include "kselftest_harness.h"

#define ZEX_SYSFS_PLATFORM	"/sys/bus/platform/devices/zex"
#define ZEX_SYSFS_PARAMS	"/sys/module/zex/parameters"
#define ZEX_SYSFS_TILES		"/sys/bus/auxiliary/devices"

/* Open the first render node whose driver is "zex"; -1 when there is none. */
static inline int zex_open_render(void)
{
	drmDevicePtr devs[64];
	int n, i, fd = -1;

	n = drmGetDevices2(0, devs, 64);
	for (i = 0; i < n && fd < 0; i++) {
		drmVersionPtr ver;
		int cand;

		if (!(devs[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		cand = open(devs[i]->nodes[DRM_NODE_RENDER], O_RDWR | O_CLOEXEC);
		if (cand < 0)
			continue;
		ver = drmGetVersion(cand);
		if (ver && !strcmp(ver->name, "zex"))
			fd = cand;
		else
			close(cand);
		drmFreeVersion(ver);
	}
	if (n > 0)
		drmFreeDevices(devs, n);
	return fd;
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

/*
 * A kselftest main that skips cleanly (exit 4, KSFT_SKIP) when zex is not
 * loaded, as kselftests do for absent hardware.
 */
#define ZEX_SELFTEST_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		int fd = zex_open_render();				\
		if (fd < 0) {						\
			ksft_print_header();				\
			ksft_exit_skip("no zex device (is zex.ko loaded?)\n"); \
		}							\
		close(fd);						\
		return test_harness_run(argc, argv);			\
	}

#endif /* ZEX_SELFTEST_H */
