// SPDX-License-Identifier: MIT
/*
 * DOC: recv_fuzz.c - libFuzzer target: zexIpcHandlesRecv() against any peer
 *
 * Each input is a peer: a socket type, the receiver's room, and up to eight
 * messages, each either raw bytes or a well-formed message of the wire
 * format with bytes flipped, sent with up to twenty fds (fresh memfds).
 * The receiver reads with a non-blocking socket (a peer that stops early
 * ends the receive instead of hanging it). Whatever it returns, the
 * process must hold exactly the fds it held before plus those of the
 * handles returned, which are then given back: a leaked or doubly closed
 * fd aborts. Built with clang -fsanitize=fuzzer,address,undefined.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "zex/zex_api.h"
#include "ipc/ipc_handle.h"
#include "ipc/ipc_received.h"
#include "ipc/ipc_wire.h"
#include "zex_fd_count.h"


struct input {
	const uint8_t *p;
	size_t left;
};

static uint32_t take(struct input *in, size_t bytes)
{
	uint32_t v = 0;

	while (bytes--) {
		v = v << 8 | (in->left ? *in->p : 0);
		if (in->left) {
			in->p++;
			in->left--;
		}
	}
	return v;
}

/* A well-formed message of @count handles at @first of @total. */
static size_t good_message(uint8_t *buf, uint16_t count, uint32_t first, uint32_t total)
{
	struct zex_ipc_wire_header hdr = {
		ZEX_IPC_WIRE_MAGIC, ZEX_IPC_WIRE_VERSION, count, 0x1234, total, first,
	};
	uint16_t i;

	memcpy(buf, &hdr, sizeof(hdr));
	for (i = 0; i < count; i++) {
		struct zex_ipc_handle_data d = {
			.fd = 3, .magic = ZEX_IPC_MAGIC, .export_id = 77, .base = 0x10000,
			.size = 65536, .piece = i, .num_pieces = count,
			.memory_type = ZE_MEMORY_TYPE_DEVICE, .pid = 1, .dmabuf_id = 1,
		};

		memcpy(buf + sizeof(hdr) + i * sizeof(d), &d, sizeof(d));
	}
	return sizeof(hdr) + count * sizeof(struct zex_ipc_handle_data);
}

static void send_message(int sock, const uint8_t *data, size_t len, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 20)];
		struct cmsghdr align;
	} control;
	struct iovec iov = { (void *)data, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	int fds[20], i;

	memset(&control, 0, sizeof(control));
	for (i = 0; i < nfds; i++)
		fds[i] = memfd_create("fuzz", MFD_CLOEXEC);
	if (nfds)
		zex_ipc_wire_attach_fds(&msg, control.buf, fds, (unsigned int)nfds);
	(void)!sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
	for (i = 0; i < nfds; i++)
		close(fds[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };
	static ze_ipc_mem_handle_t out[400];
	struct input in = { data, size };
	static uint8_t buf[24 + 40 * 64];
	int sv[2], before, after, messages, m;
	uint32_t room, n, i;
	ze_result_t res;

	before = zex_count_fds();
	if (socketpair(AF_UNIX, types[take(&in, 1) % 3] | SOCK_CLOEXEC, 0, sv))
		return 0;
	room = take(&in, 2) % 400;
	messages = (int)take(&in, 1) % 9;
	for (m = 0; m < messages; m++) {
		uint32_t kind = take(&in, 1);
		int nfds = (int)take(&in, 1) % 21;
		size_t len;

		if (kind & 1) {
			/* A good message with up to 40 handles, then flipped bytes. */
			uint16_t count = (uint16_t)(take(&in, 1) % 41);
			uint32_t flips = take(&in, 1) % 8;

			len = good_message(buf, count, take(&in, 1) % 4 ? 0 : take(&in, 2),
					   count + take(&in, 1) % 4);
			while (flips--) {
				uint32_t at = take(&in, 2) % len;

				buf[at] ^= (uint8_t)take(&in, 1);
			}
		} else {
			len = take(&in, 2) % sizeof(buf);
			for (i = 0; i < len; i++)
				buf[i] = (uint8_t)take(&in, 1);
		}
		send_message(sv[0], buf, len, nfds);
	}
	close(sv[0]);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	n = room;
	res = zexIpcHandlesRecv(sv[1], &n, out);
	if (res != ZE_RESULT_SUCCESS && n)
		abort();	/* a failed receive returns nothing */
	if (n > room)
		abort();
	close(sv[1]);
	after = zex_count_fds();
	/* Only the returned handles' fds are left, each recorded once. */
	if (after != before + (int)n)
		abort();
	for (i = 0; i < n; i++) {
		struct zex_ipc_handle_data d;
		int fd;
		uint64_t id;

		memcpy(&d, out[i].data, sizeof(d));
		fd = d.fd;
		id = d.export_id;
		if (!zex_ipc_received_close(&fd, &id, 1))
			abort();
	}
	if (zex_count_fds() != before)
		abort();
	return 0;
}
