/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * DOC: zex_fd_count.h - how many fds this process holds
 *
 * The kselftests, libzex's host tests and its fuzz targets prove that no
 * call leaks or wrongly closes an fd by counting /proc/self/fd around it.
 */
#ifndef ZEX_FD_COUNT_H
#define ZEX_FD_COUNT_H

#include <dirent.h>

static inline int zex_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

#endif /* ZEX_FD_COUNT_H */
