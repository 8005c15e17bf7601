/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_wire.h - the message header of the IPC socket transport
 *
 * Each message of a transfer: this header, then its handles' 64 bytes
 * each, with their fds as one SCM_RIGHTS (ipc_socket.c; the tests and the
 * fuzz target write it by hand, and all attach the fds with
 * zex_ipc_wire_attach_fds()). Documentation/ipc.rst draws it.
 */

#ifndef ZEX_IPC_WIRE_H
#define ZEX_IPC_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/*
 * The magic is four bytes, "ZEXW" on every host; the numbers after it are
 * in the host's order (a Unix socket never leaves the host).
 */
#define ZEX_IPC_WIRE_MAGIC	"ZEXW"
#define ZEX_IPC_WIRE_VERSION	3
#define ZEX_IPC_FDS_PER_MSG	250		/* under the kernel's SCM_MAX_FD */

struct zex_ipc_wire_header {
	char magic[4];		/* ZEX_IPC_WIRE_MAGIC, no NUL */
	uint16_t version;
	uint16_t count;		/* handles in this message */
	uint64_t transfer;	/* the transfer's id */
	uint32_t total;		/* handles in the whole transfer */
	uint32_t first;		/* index of this message's first handle */
};

_Static_assert(sizeof(struct zex_ipc_wire_header) == 24, "the header has no padding");

static inline bool zex_ipc_wire_magic_ok(const struct zex_ipc_wire_header *h)
{
	return !memcmp(h->magic, ZEX_IPC_WIRE_MAGIC, sizeof(h->magic));
}

/*
 * zex_ipc_wire_attach_fds - @n fds as @msg's one SCM_RIGHTS message
 * @control: zeroed room of at least CMSG_SPACE(sizeof(int) * @n) bytes,
 *	aligned for struct cmsghdr; @n is not 0.
 */
static inline void zex_ipc_wire_attach_fds(struct msghdr *msg, void *control, const int *fds,
					   unsigned int n)
{
	struct cmsghdr *c;

	msg->msg_control = control;
	msg->msg_controllen = CMSG_SPACE(sizeof(int) * n);
	c = CMSG_FIRSTHDR(msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
}

#endif /* ZEX_IPC_WIRE_H */
