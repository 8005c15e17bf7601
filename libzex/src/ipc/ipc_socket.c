// SPDX-License-Identifier: MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: ipc_socket.c - IPC handles over a Unix socket: a small protocol
 *
 * A transfer is the handles of one zexIpcHandlesSend() call, sent as
 * messages of at most %ZEX_IPC_FDS_PER_MSG handles: a header (magic,
 * version, the transfer's random id, its total, the index of the
 * message's first handle and its count), the handles' 64 bytes each, and
 * their fds as SCM_RIGHTS with the message's first byte. Documentation/
 * ipc.rst draws the wire format.
 *
 * The receiver takes one whole transfer or nothing. Stream, seqpacket and
 * datagram sockets all work: on a stream a message may arrive in pieces,
 * and is read to its end (its fds come with its first bytes); a read cut by
 * a signal is read again. Other ancillary data (SO_PASSCRED's credentials)
 * is allowed and skipped. A message that does not start a transfer (the
 * tail of one an earlier receive gave up, say after a receive timeout) is
 * dropped with its fds, so two transfers never mix. Every handle must be
 * a well-formed libzex handle; its fd is written at offset 0 and recorded
 * (ipc_received.c) so that zexMemPutIpcHandles() can close it. On any
 * error, every fd received so far — in this message or the transfer's
 * earlier ones, and any the kernel installed with a message of no data —
 * is closed before the call returns.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "zex/zex_api.h"
#include "ipc/ipc_handle.h"
#include "ipc/ipc_received.h"
#include "ipc/ipc_wire.h"

/* Room for the fds and for other ancillary data beside them (credentials). */
#define ZEX_IPC_CONTROL		(CMSG_SPACE(sizeof(int) * ZEX_IPC_FDS_PER_MSG) + \
				 CMSG_SPACE(sizeof(struct ucred)) + 256)

static int fd_of(const ze_ipc_mem_handle_t *h)
{
	int32_t fd;

	memcpy(&fd, h->data + offsetof(struct zex_ipc_handle_data, fd), sizeof(fd));
	return fd;
}

/* Send all of @len bytes of @msg; @msg's control goes with the first byte. */
static int send_all(int sock, struct msghdr *msg, size_t len)
{
	while (len) {
		ssize_t n = sendmsg(sock, msg, MSG_NOSIGNAL);
		size_t done;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		/* A stream took part of it: the rest goes without the fds. */
		msg->msg_control = NULL;
		msg->msg_controllen = 0;
		for (done = (size_t)n, len -= done; done;) {
			size_t step = done < msg->msg_iov->iov_len ? done : msg->msg_iov->iov_len;

			msg->msg_iov->iov_base = (char *)msg->msg_iov->iov_base + step;
			msg->msg_iov->iov_len -= step;
			done -= step;
			if (!msg->msg_iov->iov_len && msg->msg_iovlen > 1) {
				msg->msg_iov++;
				msg->msg_iovlen--;
			}
		}
	}
	return 0;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesSend(int socket, uint32_t numIpcHandles, const ze_ipc_mem_handle_t *pIpcHandles)
{
	struct zex_ipc_handle_data d;
	uint64_t transfer;
	uint32_t done = 0, i;

	if (!pIpcHandles || !numIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	for (i = 0; i < numIpcHandles; i++)
		if (!zex_ipc_handle_get(&pIpcHandles[i], &d))
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (getrandom(&transfer, sizeof(transfer), 0) != sizeof(transfer))
		transfer = ((uint64_t)getpid() << 32) ^ (uintptr_t)pIpcHandles;
	while (done < numIpcHandles) {
		uint32_t n = numIpcHandles - done;
		union {
			char buf[CMSG_SPACE(sizeof(int) * ZEX_IPC_FDS_PER_MSG)];
			struct cmsghdr align;
		} control;
		struct zex_ipc_wire_header hdr;
		struct iovec iov[2];
		struct msghdr msg = { 0 };
		int fds[ZEX_IPC_FDS_PER_MSG];

		if (n > ZEX_IPC_FDS_PER_MSG)
			n = ZEX_IPC_FDS_PER_MSG;
		hdr = (struct zex_ipc_wire_header){
			.magic = ZEX_IPC_WIRE_MAGIC, .version = ZEX_IPC_WIRE_VERSION,
			.count = (uint16_t)n, .transfer = transfer,
			.total = numIpcHandles, .first = done,
		};
		for (i = 0; i < n; i++)
			fds[i] = fd_of(&pIpcHandles[done + i]);
		iov[0] = (struct iovec){ &hdr, sizeof(hdr) };
		iov[1] = (struct iovec){ (void *)&pIpcHandles[done], n * sizeof(*pIpcHandles) };
		memset(&control, 0, sizeof(control));
		msg.msg_iov = iov;
		msg.msg_iovlen = 2;
		zex_ipc_wire_attach_fds(&msg, control.buf, fds, n);
		if (send_all(socket, &msg, sizeof(hdr) + n * sizeof(*pIpcHandles)))
			return ZE_RESULT_ERROR_INVALID_ARGUMENT;
		done += n;
	}
	return ZE_RESULT_SUCCESS;
}

/* What one receive holds while it runs: every fd it got, until handed over. */
struct receive {
	int sock;
	bool stream;
	int fds[ZEX_IPC_FDS_PER_MSG];	/* the current message's */
	uint32_t nfds;
	bool overflow;			/* more fds than one message may carry */
};

static void close_message_fds(struct receive *r)
{
	while (r->nfds)
		close(r->fds[--r->nfds]);
	r->overflow = false;
}

/* Take the fds of @msg's control data (all SCM_RIGHTS, any other skipped). */
static void take_fds(struct receive *r, struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		size_t n, i;
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (r->nfds < ZEX_IPC_FDS_PER_MSG) {
				r->fds[r->nfds++] = fd;
			} else {
				close(fd);
				r->overflow = true;
			}
		}
	}
}

/*
 * Read @len bytes into @buf (a stream: to the end; otherwise one message,
 * which must be exactly @len long), taking the fds that come with them.
 * Return: 0, -EPIPE at the end of the stream or for a message of no data,
 * -EPROTO for a message of another length, or -errno.
 */
static int read_message(struct receive *r, void *buf, size_t len, size_t *got)
{
	*got = 0;
	do {
		union {
			char buf[ZEX_IPC_CONTROL];
			struct cmsghdr align;
		} control;
		struct iovec iov = { (char *)buf + *got, len - *got };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = control.buf, .msg_controllen = sizeof(control),
		};
		ssize_t n = recvmsg(r->sock, &msg, MSG_CMSG_CLOEXEC |
				    (r->stream ? 0 : MSG_TRUNC));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		/* Fds come even with no data: take them before anything else. */
		take_fds(r, &msg);
		if (msg.msg_flags & MSG_CTRUNC)
			r->overflow = true;
		if (n == 0)
			return -EPIPE;
		if (!r->stream) {
			*got = (size_t)n;
			return (size_t)n == len && !(msg.msg_flags & MSG_TRUNC) ? 0 : -EPROTO;
		}
		*got += (size_t)n;
	} while (*got < len);
	return 0;
}

static bool stream_socket(int sock)
{
	socklen_t len = sizeof(int);
	int type = 0;

	return !getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) && type == SOCK_STREAM;
}

/* Close and forget the fds of the first @n handles of the transfer. */
static void close_received(ze_ipc_mem_handle_t *h, uint32_t n)
{
	struct zex_ipc_handle_data d;

	while (n--) {
		int fd;
		uint64_t id;

		memcpy(&d, h[n].data, sizeof(d));
		fd = d.fd;
		id = d.export_id;
		zex_ipc_received_close(&fd, &id, 1);
	}
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zexIpcHandlesRecv(int socket, uint32_t *numIpcHandles, ze_ipc_mem_handle_t *pIpcHandles)
{
	struct receive r = { .sock = socket, .stream = stream_socket(socket) };
	struct {
		struct zex_ipc_wire_header hdr;
		ze_ipc_mem_handle_t handles[ZEX_IPC_FDS_PER_MSG];
	} *m;
	uint32_t room, got = 0, total = 0, i;
	uint64_t transfer = 0;
	ze_result_t res = ZE_RESULT_SUCCESS;

	if (!numIpcHandles || !pIpcHandles)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	room = *numIpcHandles;
	*numIpcHandles = 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	do {
		uint64_t ids[ZEX_IPC_FDS_PER_MSG];
		struct zex_ipc_handle_data d;
		size_t len;
		int ret;

		memset(&m->hdr, 0, sizeof(m->hdr));
		/* A stream: the header, then as many handles as it says. */
		ret = read_message(&r, m, r.stream ? sizeof(m->hdr) : sizeof(*m), &len);
		if (!r.stream && ret == -EPROTO && len >= sizeof(m->hdr) &&
		    len == sizeof(m->hdr) + m->hdr.count * sizeof(m->handles[0]))
			ret = 0;	/* a whole message, shorter than the most */
		if (!ret && (!zex_ipc_wire_magic_ok(&m->hdr) ||
			     m->hdr.version != ZEX_IPC_WIRE_VERSION || !m->hdr.count ||
			     m->hdr.count > ZEX_IPC_FDS_PER_MSG || !m->hdr.total ||
			     m->hdr.first >= m->hdr.total ||
			     m->hdr.count > m->hdr.total - m->hdr.first))
			ret = -EPROTO;
		if (!ret && r.stream) {
			ret = read_message(&r, m->handles, m->hdr.count * sizeof(m->handles[0]),
					   &len);
		}
		if (ret) {
			res = ret == -ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY :
					       ZE_RESULT_ERROR_INVALID_ARGUMENT;
			break;
		}
		if (r.overflow || r.nfds != m->hdr.count) {
			res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
			break;
		}
		if (!got && m->hdr.first) {
			/* The tail of a transfer given up earlier: drop it. */
			close_message_fds(&r);
			continue;
		}
		if (got && (m->hdr.transfer != transfer || m->hdr.total != total ||
			    m->hdr.first != got)) {
			res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
			break;
		}
		if (!got) {
			transfer = m->hdr.transfer;
			total = m->hdr.total;
			if (total > room) {
				res = ZE_RESULT_ERROR_INVALID_SIZE;
				break;
			}
		}
		for (i = 0; i < m->hdr.count; i++) {
			if (!zex_ipc_handle_get(&m->handles[i], &d)) {
				res = ZE_RESULT_ERROR_INVALID_ARGUMENT;
				break;
			}
			ids[i] = d.export_id;
		}
		if (res)
			break;
		/* From here the fds are libzex's, released by zexMemPutIpcHandles. */
		if (zex_ipc_received_add(r.fds, ids, m->hdr.count)) {
			res = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
			break;
		}
		for (i = 0; i < m->hdr.count; i++) {
			pIpcHandles[got + i] = m->handles[i];
			memcpy(pIpcHandles[got + i].data, &r.fds[i], sizeof(int32_t));
		}
		r.nfds = 0;
		got += m->hdr.count;
	} while (!got || got < total);

	close_message_fds(&r);
	if (res) {
		close_received(pIpcHandles, got);
		got = 0;
	}
	free(m);
	*numIpcHandles = got;
	return res;
}
