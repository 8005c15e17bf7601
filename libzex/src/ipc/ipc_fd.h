/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_fd.h - the dma-buf an IPC handle names, as an fd of this process (ipc_fd.c)
 */

#ifndef ZEX_IPC_FD_H
#define ZEX_IPC_FD_H

#include <stdbool.h>
#include <stdint.h>

/* Why an fd or a table may not be taken from the exporter (-EPERM). */
#define ZEX_IPC_PTRACE_REFUSED \
	"zex: the exporter's fds may not be taken: pidfd_getfd() and process_vm_readv() " \
	"need ptrace's permission (the same user, or CAP_SYS_PTRACE; see " \
	"/proc/sys/kernel/yama/ptrace_scope)"

uint64_t zex_ipc_fd_id(int fd);
int zex_ipc_fd_resolve(int fd, uint32_t pid, uint64_t id, bool *owned);

#endif /* ZEX_IPC_FD_H */
