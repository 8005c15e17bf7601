/* SPDX-License-Identifier: MIT */
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_wire.h - the message header of the IPC socket transport
 *
 * Each message of a transfer: this header, then its handles' 64 bytes
 * each, with their fds as one SCM_RIGHTS (ipc_socket.c; the tests and the
 * fuzz target write it by hand). Documentation/ipc.rst draws it.
 */

#ifndef ZEX_L0_IPC_WIRE_H
#define ZEX_L0_IPC_WIRE_H

#include <stdint.h>

#define ZEX_IPC_WIRE_MAGIC	0x5a455857u	/* "ZEXW" */
#define ZEX_IPC_WIRE_VERSION	2
#define ZEX_IPC_FDS_PER_MSG	250		/* under the kernel's SCM_MAX_FD */

struct zex_ipc_wire_header {
	uint32_t magic;
	uint16_t version;
	uint16_t count;		/* handles in this message */
	uint64_t transfer;	/* the transfer's id */
	uint32_t total;		/* handles in the whole transfer */
	uint32_t first;		/* index of this message's first handle */
};

_Static_assert(sizeof(struct zex_ipc_wire_header) == 24, "the header has no padding");

#endif /* ZEX_L0_IPC_WIRE_H */
