// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_socket.c - IPC handles over a Unix socket
 *
 * One message per batch of at most %ZEX_IPC_FDS_PER_MSG handles: a header
 * (magic, batch size, total), the handles' 64-byte data, and their fds as
 * SCM_RIGHTS. The receiver writes the fds it received into the handles'
 * data (offset 0), so the handles are ready for zexMemOpenIpcHandles(),
 * and records them (ipc_received.c): they are libzex's until
 * zexMemPutIpcHandles() closes them. A short, malformed or truncated
 * message is an error and every fd received so far is closed: nothing
 * leaks into the receiver.
 */

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "l0.h"
#include "l0/ipc_handle.h"
#include "l0/ipc_received.h"

#define ZEX_IPC_WIRE_MAGIC	0x5a455857u	/* "ZEXW" */
#define ZEX_IPC_FDS_PER_MSG	250		/* under the kernel's SCM_MAX_FD */

struct wire_header {
	uint32_t magic;
	uint32_t count;		/* handles in this message */
	uint32_t total;		/* handles in the whole transfer */
	uint32_t pad;
};

static int fd_of(const ze_ipc_mem_handle_t *h)
{
	int32_t fd;

	memcpy(&fd, h->data + offsetof(struct zex_ipc_handle_data, fd), sizeof(fd));
	return fd;
}

static void set_fd(ze_ipc_mem_handle_t *h, int fd)
{
	int32_t v = fd;

	memcpy(h->data + offsetof(struct zex_ipc_handle_data, fd), &v, sizeof(v));
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesSend(int socket, uint32_t numIpcHandles, const ze_ipc_mem_handle_t *pIpcHandles)
{
	uint32_t done = 0;

	if (!pIpcHandles || !numIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	while (done < numIpcHandles) {
		uint32_t n = numIpcHandles - done, i;
		char control[CMSG_SPACE(sizeof(int) * ZEX_IPC_FDS_PER_MSG)];
		struct wire_header hdr;
		struct iovec iov[2];
		struct msghdr msg = { 0 };
		struct cmsghdr *c;
		int fds[ZEX_IPC_FDS_PER_MSG];

		if (n > ZEX_IPC_FDS_PER_MSG)
			n = ZEX_IPC_FDS_PER_MSG;
		hdr = (struct wire_header){ ZEX_IPC_WIRE_MAGIC, n, numIpcHandles, 0 };
		for (i = 0; i < n; i++)
			fds[i] = fd_of(&pIpcHandles[done + i]);
		iov[0] = (struct iovec){ &hdr, sizeof(hdr) };
		iov[1] = (struct iovec){ (void *)&pIpcHandles[done], n * sizeof(*pIpcHandles) };
		memset(control, 0, sizeof(control));
		msg.msg_iov = iov;
		msg.msg_iovlen = 2;
		msg.msg_control = control;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
		if (sendmsg(socket, &msg, MSG_NOSIGNAL) !=
		    (ssize_t)(sizeof(hdr) + n * sizeof(*pIpcHandles)))
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
		done += n;
	}
	return ZE_RESULT_SUCCESS;
}

static uint64_t export_id_of(const ze_ipc_mem_handle_t *h)
{
	uint64_t id;

	memcpy(&id, h->data + offsetof(struct zex_ipc_handle_data, export_id), sizeof(id));
	return id;
}

/* Close the fds of the first @n handles received, and forget them. */
static void close_received(ze_ipc_mem_handle_t *h, uint32_t n)
{
	while (n--) {
		int fd = fd_of(&h[n]);
		uint64_t id = export_id_of(&h[n]);

		zex_ipc_received_close(&fd, &id, 1);
	}
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesRecv(int socket, uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles)
{
	uint32_t room, got = 0, total = 1;

	if (!numIpcHandles || !pIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	room = *numIpcHandles;
	while (got < total) {
		char control[CMSG_SPACE(sizeof(int) * ZEX_IPC_FDS_PER_MSG)];
		ze_ipc_mem_handle_t batch[ZEX_IPC_FDS_PER_MSG];
		struct wire_header hdr;
		struct iovec iov[2] = { { &hdr, sizeof(hdr) }, { batch, sizeof(batch) } };
		struct msghdr msg = {
			.msg_iov = iov, .msg_iovlen = 2,
			.msg_control = control, .msg_controllen = sizeof(control),
		};
		struct cmsghdr *c;
		uint64_t ids[ZEX_IPC_FDS_PER_MSG];
		int fds[ZEX_IPC_FDS_PER_MSG];
		uint32_t nfds = 0, i;
		ssize_t len;

		len = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
		for (c = len > 0 ? CMSG_FIRSTHDR(&msg) : NULL; c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
				nfds = (uint32_t)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
				memcpy(fds, CMSG_DATA(c), nfds * sizeof(int));
			}
		}
		if (len < (ssize_t)sizeof(hdr) || hdr.magic != ZEX_IPC_WIRE_MAGIC ||
		    !hdr.count || hdr.count > ZEX_IPC_FDS_PER_MSG || nfds != hdr.count ||
		    (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ||
		    len != (ssize_t)(sizeof(hdr) + hdr.count * sizeof(*batch)) ||
		    (got && hdr.total != total) || got + hdr.count > hdr.total ||
		    got + hdr.count > room) {
			bool too_small = len > 0 && hdr.magic == ZEX_IPC_WIRE_MAGIC &&
					 got + hdr.count > room;

			for (i = 0; i < nfds; i++)
				close(fds[i]);
			close_received(pIpcHandles, got);
			*numIpcHandles = 0;
			return too_small ? ZE_RESULT_ERROR_INVALID_SIZE :
					   ZE_RESULT_ERROR_INVALID_ARGUMENT;
		}
		total = hdr.total;
		for (i = 0; i < hdr.count; i++) {
			pIpcHandles[got + i] = batch[i];
			set_fd(&pIpcHandles[got + i], fds[i]);
			ids[i] = export_id_of(&batch[i]);
		}
		/* From here the fds are libzex's, released by zexMemPutIpcHandles. */
		if (zex_ipc_received_add(fds, ids, hdr.count)) {
			for (i = 0; i < hdr.count; i++)
				close(fds[i]);
			close_received(pIpcHandles, got);
			*numIpcHandles = 0;
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		}
		got += hdr.count;
	}
	*numIpcHandles = got;
	return ZE_RESULT_SUCCESS;
}
