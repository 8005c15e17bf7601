// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_pieces.c - an export's table of its pieces, which one IPC handle names
 *
 * A standard IPC handle has room for one fd, and a coloured allocation is
 * one dma-buf per piece. While an export of several pieces lives, the
 * exporter keeps a table of its pieces' fd numbers and dma-buf identities
 * in its own memory, and every handle of the export carries the table's
 * address. An importer given one handle reads the table with
 * process_vm_readv() (or /proc/<pid>/mem where the kernel has no
 * CONFIG_CROSS_MEMORY_ATTACH) and takes each piece's fd with pidfd_getfd(): the
 * kernel allows both where it allows ptrace (the same user, or
 * CAP_SYS_PTRACE; Yama's ptrace_scope may narrow it), the rule that
 * already applies to a handle copied as bytes (ipc_fd.c). Nothing is
 * trusted: a table that was freed (its magic is cleared first), belongs to
 * another export or has another piece count is refused, and each fd taken
 * must be the dma-buf the table names.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "ipc/ipc_fd.h"
#include "ipc/ipc_pieces.h"

/* The most pieces a table holds: the kernel's limit on one object. */
#define ZEX_IPC_PIECES_MAX	1024

static size_t zex_ipc_pieces_size(uint32_t n)
{
	return sizeof(struct zex_ipc_pieces) + (size_t)n * sizeof(struct zex_ipc_piece);
}

/**
 * zex_ipc_pieces_create - the table of an export's pieces
 * @export_id: the export's id, as its handles carry it.
 * @fds: the exporter's fd of each piece, in order.
 * @n: the pieces, 1 to 1024.
 *
 * Return: the table (free it with zex_ipc_pieces_free()), NULL without
 * memory or for a bad count.
 */
struct zex_ipc_pieces *zex_ipc_pieces_create(uint64_t export_id, const int *fds, uint32_t n)
{
	struct zex_ipc_pieces *t;
	uint32_t i;

	if (!n || n > ZEX_IPC_PIECES_MAX)
		return NULL;
	t = calloc(1, zex_ipc_pieces_size(n));
	if (!t)
		return NULL;
	memcpy(t->magic, ZEX_IPC_PIECES_MAGIC, sizeof(t->magic));
	t->export_id = export_id;
	t->num_pieces = n;
	for (i = 0; i < n; i++) {
		t->pieces[i].fd = fds[i];
		t->pieces[i].dmabuf_id = zex_ipc_fd_id(fds[i]);
	}
	return t;
}

/**
 * zex_ipc_pieces_free - end a table: an importer reading it later is refused
 * @t: the table, or NULL.
 */
void zex_ipc_pieces_free(struct zex_ipc_pieces *t)
{
	if (!t)
		return;
	/* Not optimised away, though the memory is about to be freed. */
	explicit_bzero(t->magic, sizeof(t->magic));
	free(t);
}

/*
 * Read @size bytes at @addr of process @pid through /proc/<pid>/mem: the
 * same permission as process_vm_readv(), for kernels built without it
 * (CONFIG_CROSS_MEMORY_ATTACH).
 */
static ssize_t zex_ipc_proc_mem_read(uint32_t pid, uint64_t addr, void *buf, size_t size)
{
	char path[32];
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/mem", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = pread(fd, buf, size, (off_t)addr);
	close(fd);
	/* An address the exporter does not map reads as EIO there. */
	if (got < 0 && errno == EIO)
		errno = EFAULT;
	return got;
}

/* Read @n pieces' table at @addr of process @pid into @t. */
static int zex_ipc_pieces_read(uint32_t pid, uint64_t addr, struct zex_ipc_pieces *t, uint32_t n)
{
	size_t size = zex_ipc_pieces_size(n);
	struct iovec local = { .iov_base = t, .iov_len = size };
	struct iovec remote = { .iov_base = (void *)(uintptr_t)addr, .iov_len = size };
	ssize_t got;

	if (!addr || addr > INT64_MAX)
		return -EBADF;
	got = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
	if (got < 0 && errno == ENOSYS)
		got = zex_ipc_proc_mem_read(pid, addr, t, size);
	if (got < 0)
		return errno == EFAULT ? -EBADF : errno == EACCES ? -EPERM : -errno;
	return (size_t)got == size ? 0 : -EBADF;
}

/**
 * zex_ipc_pieces_take - fds of this process for pieces of another process's export
 * @pid: the exporter.
 * @addr: its table's address, as the handle carries it.
 * @export_id: the export the handle names.
 * @n: its pieces, as the handle says.
 * @from: the first piece to take (the caller may hold the ones before).
 * @fds: set for pieces @from to @n - 1.
 * @owned: for each of those, whether the fd was taken here (the caller's
 *	to close) or is one this process holds already.
 *
 * Return: 0, or -errno with no fd left open: -EPERM when the exporter's
 * memory or fds may not be taken (ptrace rules), -ESRCH when it is gone,
 * -EBADF when it holds no such table or export any more, -ENOMEM.
 */
int zex_ipc_pieces_take(uint32_t pid, uint64_t addr, uint64_t export_id, uint32_t n,
			uint32_t from, int *fds, bool *owned)
{
	struct zex_ipc_pieces *t;
	uint32_t i;
	int ret;

	if (!n || n > ZEX_IPC_PIECES_MAX || from > n)
		return -EBADF;
	t = malloc(zex_ipc_pieces_size(n));
	if (!t)
		return -ENOMEM;
	ret = zex_ipc_pieces_read(pid, addr, t, n);
	if (!ret && (memcmp(t->magic, ZEX_IPC_PIECES_MAGIC, sizeof(t->magic)) ||
		     t->export_id != export_id || t->num_pieces != n || t->reserved))
		ret = -EBADF;
	for (i = from; !ret && i < n; i++) {
		int fd = zex_ipc_fd_resolve(t->pieces[i].fd, pid, t->pieces[i].dmabuf_id,
					    &owned[i]);

		if (fd < 0)
			ret = fd;
		else
			fds[i] = fd;
	}
	/* All or nothing. */
	while (ret && i-- > from)
		if (owned[i] && fds[i] >= 0)
			close(fds[i]);
	free(t);
	return ret;
}
