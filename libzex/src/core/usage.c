// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: usage.c - the kernel's usage counters, read: sysfs, the query ioctl, fdinfo
 *
 * An engine's files are found from the render node: its character
 * device's sysfs folder (/sys/dev/char/<major>:<minor>/device) is the
 * GPU's platform device. The clients of the device are the open files
 * of every process this one may look into (/proc/<pid>/fd/<n> whose
 * target is the render node, by device number), each read from that fd's
 * fdinfo; a file reached through several fds or processes (dup, fork,
 * SCM_RIGHTS) is one client per process, told apart by drm-client-id.
 * Processes of other users are not visible to an unprivileged caller,
 * as /proc says. The fdinfo's text is parsed by fdinfo_parse.c.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


#include <drm/zex_drm.h>

#include "core/usage.h"

/* The render node's device number; 0 when it cannot be read. */
static dev_t zex_usage_rdev(struct zex_device *dev)
{
	struct stat st;

	return fstat(zex_device_fd(dev), &st) ? 0 : st.st_rdev;
}

/**
 * zex_usage_engine_read - one file of an engine's sysfs folder
 * @dev: the device.
 * @engine: the folder's name ("tile0-ccs0", "root-ccs0").
 * @attr: the file ("busy_ns", "job_timeout_ms").
 * @value: its number.
 *
 * Return: 0 or -errno (-ENOENT: no such engine or file).
 */
int zex_usage_engine_read(struct zex_device *dev, const char *engine, const char *attr,
			  uint64_t *value)
{
	dev_t rdev = zex_usage_rdev(dev);
	unsigned long long v;
	char path[256];
	FILE *f;
	int n;

	if (!rdev)
		return -ENODEV;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/engines/%s/%s",
		 major(rdev), minor(rdev), engine, attr);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	if (n != 1)
		return -EPROTO;
	*value = v;
	return 0;
}

/**
 * zex_usage_tile_memory - a tile's memory and the bytes of it in use now
 * @dev: the device.
 * @tile: the tile.
 * @size: its size.
 * @used: the bytes buffer objects hold (every process's).
 *
 * Return: 0 or -errno (-EINVAL: no such tile).
 */
int zex_usage_tile_memory(struct zex_device *dev, uint32_t tile, uint64_t *size,
			  uint64_t *used)
{
	struct zex_topology topo = { .size = sizeof(topo) };
	int ret = zex_device_query_topology(dev, &topo);

	if (ret)
		return ret;
	if (tile >= topo.num_tiles)
		return -EINVAL;
	*size = topo.tiles[tile].mem_size;
	*used = topo.tiles[tile].mem_used;
	return 0;
}

/* Whether @id is among the @n ids seen. */
static int zex_seen(const uint64_t *ids, size_t n, uint64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* The clients of one process: each file of the device once. */
static int zex_usage_process(pid_t pid, dev_t rdev, zex_client_fn fn, void *ctx)
{
	uint64_t seen[64];
	size_t nseen = 0;
	char path[320], text[4096];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;	/* gone, or not ours to see */
	while (!ret && (e = readdir(d))) {
		struct zex_client_usage usage;
		struct stat st;
		ssize_t n;
		int f;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, e->d_name);
		if (stat(path, &st) || !S_ISCHR(st.st_mode) || st.st_rdev != rdev)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, e->d_name);
		f = open(path, O_RDONLY | O_CLOEXEC);
		if (f < 0)
			continue;
		n = read(f, text, sizeof(text) - 1);
		close(f);
		if (n <= 0)
			continue;
		text[n] = 0;
		if (zex_fdinfo_parse(text, &usage) || zex_seen(seen, nseen, usage.client_id))
			continue;
		if (nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = usage.client_id;
		ret = fn(pid, &usage, ctx);
	}
	closedir(d);
	return ret;
}

/**
 * zex_usage_clients - every open file of the device this process may see
 * @dev: the device.
 * @fn: called once per file and process, with what its fdinfo says.
 * @ctx: @fn's.
 *
 * Return: 0, what @fn returned to stop, or -errno when /proc cannot be read.
 */
int zex_usage_clients(struct zex_device *dev, zex_client_fn fn, void *ctx)
{
	dev_t rdev = zex_usage_rdev(dev);
	struct dirent *e;
	DIR *proc;
	int ret = 0;

	if (!rdev)
		return -ENODEV;
	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while (!ret && (e = readdir(proc))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		ret = zex_usage_process((pid_t)pid, rdev, fn, ctx);
	}
	closedir(proc);
	return ret;
}
