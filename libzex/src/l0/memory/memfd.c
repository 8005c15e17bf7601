// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: memfd.c - the memfds host, shared and host physical memory live in
 *
 * Memory libzex allocates for the host side is a memfd's pages, and the
 * allocation keeps its memfd open for as long as it lives (an IPC handle
 * of it hands a duplicate to another process). A process with many live
 * allocations therefore holds as many descriptors, and they count against
 * the same RLIMIT_NOFILE as every other open() in the process: with the
 * usual soft limit of 1024 (against a hard limit of 4096 to 524288) the
 * thousandth allocation made the next descriptor anyone asked for fail,
 * PoCL's fopen() of its kernel cache included. So zeInit raises the soft
 * limit to the hard one (zex_fd_limit_raise()), and memfd_create() meeting
 * EMFILE raises it again (the application may have lowered it since) and
 * repeats the call. A process that never holds a thousand descriptors
 * sees no change; select() watches descriptors below 1024 whatever the
 * limit. Past the hard limit an allocation fails with EMFILE, which the
 * callers report as ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY and say why.
 */

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "l0/memory/memfd.h"

static pthread_mutex_t raise_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * zex_fd_limit_raise - raise the soft RLIMIT_NOFILE to the hard one
 *
 * Return: whether it grew.
 */
bool zex_fd_limit_raise(void)
{
	struct rlimit lim;
	bool raised = false;

	pthread_mutex_lock(&raise_lock);
	if (!getrlimit(RLIMIT_NOFILE, &lim) && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		raised = !setrlimit(RLIMIT_NOFILE, &lim);
	}
	pthread_mutex_unlock(&raise_lock);
	return raised;
}

/**
 * zex_memfd_create - a close-on-exec memfd of @size bytes
 * @name: what /proc shows it as.
 * @size: its size.
 *
 * Return: the memfd, or -1 with errno set (EMFILE: the process holds as
 * many descriptors as its hard limit lets it).
 */
int zex_memfd_create(const char *name, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	int err;

	if (fd < 0 && errno == EMFILE && zex_fd_limit_raise())
		fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}
