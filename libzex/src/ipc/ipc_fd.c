// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_fd.c - the dma-buf an IPC handle names, as an fd of this process
 *
 * A handle travels two ways. Passed over a Unix socket with SCM_RIGHTS,
 * the receiver writes the fd it received over the handle's first bytes;
 * copied as plain bytes (shared memory, a file), it still holds the
 * exporter's fd number, which means nothing here. The handle also carries
 * the dma-buf's identity (its inode number, unique among live dma-bufs)
 * and the exporter's pid, so the receiver tells the two apart: an fd of
 * this process that is that dma-buf is used as it is; otherwise the fd is
 * taken from the exporter with pidfd_getfd(), which the kernel allows where
 * ptrace would be (same user, or CAP_SYS_PTRACE; Yama may narrow it).
 */

#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ipc/ipc_fd.h"

/**
 * zex_ipc_fd_id - the identity of the dma-buf behind @fd, for a handle
 *
 * Return: its inode number, 0 when @fd is not open.
 */
uint64_t zex_ipc_fd_id(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_ino;
}

/**
 * zex_ipc_fd_resolve - an fd of this process for the dma-buf a handle names
 * @fd: the handle's fd: received here, or the exporter's number.
 * @pid: the exporter.
 * @id: the dma-buf's identity (zex_ipc_fd_id() in the exporter).
 * @owned: set when the fd returned was taken here and is the caller's to
 *	close.
 *
 * Return: the fd, or -errno: -EBADF when neither this process nor the
 * exporter holds that dma-buf at that number, -EPERM when the exporter's
 * fds may not be taken.
 */
int zex_ipc_fd_resolve(int fd, uint32_t pid, uint64_t id, bool *owned)
{
	int pidfd, got;

	*owned = false;
	if (fd < 0 || !id)
		return -EBADF;
	if (zex_ipc_fd_id(fd) == id)
		return fd;
	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (pidfd < 0)
		return -errno;
	got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (got < 0) {
		got = -errno;
		close(pidfd);
		return got;
	}
	close(pidfd);
	if (zex_ipc_fd_id(got) != id) {
		close(got);
		return -EBADF;
	}
	*owned = true;
	return got;
}
