// SPDX-License-Identifier: MIT
/*
 * DOC: ipc_socket_test.c - host test of the IPC transport against a hostile peer
 *
 * zexIpcHandlesSend/Recv over stream, seqpacket and datagram socketpairs,
 * and a peer that writes the wire format by hand: messages of no data that
 * carry fds, short and malformed messages, 64-byte handles that are not
 * libzex's, a transfer whose head was lost before a new one, signals
 * without SA_RESTART during a receive, SO_PASSCRED, a stream whose send
 * buffer splits a message. Every case counts /proc/self/fd before and
 * after: a receive keeps the fds of a transfer it returns and no other.
 * Under ASan and UBSan in make check's host layer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "zex/zex_api.h"
#include "ipc/ipc_handle.h"
#include "ipc/ipc_received.h"
#include "ipc/ipc_wire.h"
#include "zex_fd_count.h"


/* @n well-formed handles of one export, each with a new fd (a memfd). */
static void make_handles(ze_ipc_mem_handle_t *h, uint32_t n, uint64_t id)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct zex_ipc_handle_data d = {
			.fd = memfd_create("piece", MFD_CLOEXEC),
			.magic = ZEX_IPC_MAGIC,
			.export_id = id,
			.base = 0x100000,
			.size = (uint64_t)n << 16,
			.piece = i % ZEX_IPC_MAX_HANDLES,
			.num_pieces = n < ZEX_IPC_MAX_HANDLES ? n : ZEX_IPC_MAX_HANDLES,
			.memory_type = ZE_MEMORY_TYPE_DEVICE,
			.pid = (uint32_t)getpid(),
			.dmabuf_id = 1,
		};

		zex_ipc_handle_put(&h[i], &d);
	}
}

static void close_handles(ze_ipc_mem_handle_t *h, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		int fd;

		memcpy(&fd, h[i].data, sizeof(fd));
		close(fd);
	}
}

/* Give received handles back: their fds closed, the record emptied. */
static bool put_received(ze_ipc_mem_handle_t *h, uint32_t n)
{
	bool ok = true;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct zex_ipc_handle_data d;
		int fd;
		uint64_t id;

		memcpy(&d, h[i].data, sizeof(d));
		fd = d.fd;
		id = d.export_id;
		ok &= zex_ipc_received_close(&fd, &id, 1);
	}
	return ok;
}

/* A hand-made message: a header (or @len raw bytes of it) and @nfds fds. */
static ssize_t send_raw(int sock, const void *data, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 16)];
		struct cmsghdr align;
	} control = { 0 };
	struct iovec iov = { (void *)data, len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds)
		zex_ipc_wire_attach_fds(&msg, control.buf, fds, (unsigned int)nfds);
	return sendmsg(sock, &msg, MSG_NOSIGNAL);
}

static int memfds(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fds[i] = memfd_create("x", MFD_CLOEXEC);
	return n;
}

static void close_fds(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

FIXTURE(sock) {
	int sv[2];
	int fds_before;
};

FIXTURE_VARIANT(sock) {
	int type;
};

FIXTURE_VARIANT_ADD(sock, stream) { .type = SOCK_STREAM };
FIXTURE_VARIANT_ADD(sock, seqpacket) { .type = SOCK_SEQPACKET };
FIXTURE_VARIANT_ADD(sock, datagram) { .type = SOCK_DGRAM };

FIXTURE_SETUP(sock)
{
	int buf = 4 << 20;

	self->fds_before = zex_count_fds();
	ASSERT_EQ(0, socketpair(AF_UNIX, variant->type | SOCK_CLOEXEC, 0, self->sv));
	/* Room for a whole transfer in flight: the tests send, then receive. */
	setsockopt(self->sv[0], SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	setsockopt(self->sv[1], SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
}

FIXTURE_TEARDOWN(sock)
{
	close(self->sv[0]);
	close(self->sv[1]);
	EXPECT_EQ(self->fds_before, zex_count_fds());
}

TEST_F(sock, a_transfer_round_trips)
{
	ze_ipc_mem_handle_t h[300], r[300];
	uint32_t n = 300, i;

	if (variant->type == SOCK_DGRAM)
		n = 30;		/* a datagram socketpair's queue is short */
	make_handles(h, n, 7);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(self->sv[0], n, h));
	i = 300;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesRecv(self->sv[1], &i, r));
	ASSERT_EQ(n, i);
	for (i = 0; i < n; i++) {
		int fd;

		/* The same bytes but the fd: the receiver's, at offset 0. */
		EXPECT_EQ(0, memcmp(h[i].data + 4, r[i].data + 4, sizeof(h[i].data) - 4));
		memcpy(&fd, r[i].data, sizeof(fd));
		EXPECT_LE(0, fcntl(fd, F_GETFD));
	}
	EXPECT_EQ(self->fds_before + 2 + 2 * (int)n, zex_count_fds());
	EXPECT_TRUE(put_received(r, n));
	/* Given back: nothing left to close. */
	EXPECT_FALSE(put_received(r, 1));
	close_handles(h, n);
}

TEST_F(sock, a_message_of_no_data_leaves_no_fd)
{
	ze_ipc_mem_handle_t r[8];
	uint32_t n = 8;
	int fds[8];

	if (variant->type == SOCK_STREAM)
		SKIP(return, "a stream carries no message of no data");
	memfds(fds, 8);
	ASSERT_EQ(0, send_raw(self->sv[0], "", 0, fds, 8));
	close_fds(fds, 8);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexIpcHandlesRecv(self->sv[1], &n, r));
	EXPECT_EQ(0, n);
}

TEST_F(sock, short_and_malformed_messages_leave_no_fd)
{
	struct zex_ipc_wire_header hdr = {
		ZEX_IPC_WIRE_MAGIC, ZEX_IPC_WIRE_VERSION, 2, 9, 2, 0,
	};
	ze_ipc_mem_handle_t r[8];
	char junk[15] = "0123456789abcd";
	size_t len;
	uint32_t n;
	int fds[2];

	/* 4 to 15 bytes: less than a header. */
	for (len = 4; len < sizeof(junk); len += 5) {
		memfds(fds, 2);
		ASSERT_EQ((ssize_t)len, send_raw(self->sv[0], junk, len, fds, 2));
		close_fds(fds, 2);
		if (variant->type == SOCK_STREAM)
			shutdown(self->sv[0], SHUT_WR);	/* the rest never comes */
		n = 8;
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexIpcHandlesRecv(self->sv[1], &n, r));
		EXPECT_EQ(0, n);
		if (variant->type == SOCK_STREAM)
			return;
	}
	/* A header that says 2 handles, with fewer fds than handles. */
	memfds(fds, 1);
	ASSERT_LT(0, send_raw(self->sv[0], &hdr, sizeof(hdr), fds, 1));
	close_fds(fds, 1);
	n = 8;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexIpcHandlesRecv(self->sv[1], &n, r));
}

TEST_F(sock, handles_that_are_not_libzex_s_are_refused_and_closed)
{
	struct {
		struct zex_ipc_wire_header hdr;
		ze_ipc_mem_handle_t h[4];
	} m = { .hdr = { ZEX_IPC_WIRE_MAGIC, ZEX_IPC_WIRE_VERSION, 4, 11, 4, 0 } };
	ze_ipc_mem_handle_t r[4];
	uint32_t n = 4;
	int fds[4];

	memset(m.h, 0x5a, sizeof(m.h));
	memfds(fds, 4);
	ASSERT_EQ((ssize_t)sizeof(m), send_raw(self->sv[0], &m, sizeof(m), fds, 4));
	close_fds(fds, 4);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexIpcHandlesRecv(self->sv[1], &n, r));
	EXPECT_EQ(0, n);
}

TEST_F(sock, too_little_room_closes_everything)
{
	ze_ipc_mem_handle_t h[20], r[20];
	uint32_t n = 19;

	make_handles(h, 20, 3);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(self->sv[0], 20, h));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zexIpcHandlesRecv(self->sv[1], &n, r));
	EXPECT_EQ(0, n);
	close_handles(h, 20);
}

TEST_F(sock, the_tail_of_a_lost_transfer_never_mixes_with_the_next)
{
	struct {
		struct zex_ipc_wire_header hdr;
		ze_ipc_mem_handle_t h[2];
	} tail = { .hdr = { ZEX_IPC_WIRE_MAGIC, ZEX_IPC_WIRE_VERSION, 2, 0x1111, 4, 2 } };
	ze_ipc_mem_handle_t h[3], r[8];
	uint32_t n = 8;
	int fds[2];

	/* The second half of transfer 0x1111, whose first half nobody read... */
	make_handles(tail.h, 2, 5);
	memcpy(&fds[0], tail.h[0].data, sizeof(int));
	memcpy(&fds[1], tail.h[1].data, sizeof(int));
	ASSERT_LT(0, send_raw(self->sv[0], &tail, sizeof(tail), fds, 2));
	close_handles(tail.h, 2);
	/* ...then a whole transfer of three. */
	make_handles(h, 3, 6);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(self->sv[0], 3, h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesRecv(self->sv[1], &n, r));
	ASSERT_EQ(3, n);
	EXPECT_EQ(0, memcmp(h[2].data + 4, r[2].data + 4, sizeof(h[2].data) - 4));
	EXPECT_TRUE(put_received(r, 3));
	close_handles(h, 3);
}

TEST_F(sock, credentials_beside_the_fds)
{
	ze_ipc_mem_handle_t h[250], r[250];
	uint32_t n = 250;
	int on = 1;

	if (variant->type == SOCK_DGRAM)
		n = 30;
	ASSERT_EQ(0, setsockopt(self->sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)));
	make_handles(h, n, 8);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(self->sv[0], n, h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesRecv(self->sv[1], &n, r));
	EXPECT_TRUE(put_received(r, n));
	close_handles(h, n);
}

struct sender {
	int sock;
	uint32_t n;
	ze_ipc_mem_handle_t *h;
	pthread_t receiver;
	volatile int receiving;
	ze_result_t res;
};

static void on_signal(int sig)
{
	(void)sig;
}

/* Interrupt the receiver with signals while it waits, then send. */
static void *send_late(void *arg)
{
	struct sender *s = arg;
	int i;

	while (!s->receiving)
		sched_yield();
	for (i = 0; i < 200; i++) {
		pthread_kill(s->receiver, SIGUSR1);
		sched_yield();
	}
	s->res = zexIpcHandlesSend(s->sock, s->n, s->h);
	return NULL;
}

TEST_F(sock, signals_during_a_receive_restart_it)
{
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	ze_ipc_mem_handle_t h[100], r[100];
	struct sender s = { .sock = self->sv[0], .n = 100, .h = h,
			    .receiver = pthread_self() };
	pthread_t t;
	uint32_t n = 100;

	if (variant->type == SOCK_DGRAM)
		s.n = 30;
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	make_handles(h, s.n, 9);
	ASSERT_EQ(0, pthread_create(&t, NULL, send_late, &s));
	s.receiving = 1;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesRecv(self->sv[1], &n, r));
	pthread_join(t, NULL);
	EXPECT_EQ(ZE_RESULT_SUCCESS, s.res);
	EXPECT_EQ(s.n, n);
	EXPECT_TRUE(put_received(r, n));
	close_handles(h, s.n);
	signal(SIGUSR1, SIG_DFL);
}

static void *send_now(void *arg)
{
	struct sender *s = arg;

	s->res = zexIpcHandlesSend(s->sock, s->n, s->h);
	return NULL;
}

TEST_F(sock, a_small_send_buffer_splits_nothing_the_receiver_sees)
{
	ze_ipc_mem_handle_t h[100], r[100];
	struct sender s = { .sock = self->sv[0], .n = 100, .h = h };
	int small = 4096;
	pthread_t t;
	uint32_t n = 100;

	if (variant->type != SOCK_STREAM)
		SKIP(return, "only a stream splits a message");
	ASSERT_EQ(0, setsockopt(self->sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small)));
	ASSERT_EQ(0, setsockopt(self->sv[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)));
	make_handles(h, 100, 10);
	ASSERT_EQ(0, pthread_create(&t, NULL, send_now, &s));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesRecv(self->sv[1], &n, r));
	pthread_join(t, NULL);
	EXPECT_EQ(ZE_RESULT_SUCCESS, s.res);
	EXPECT_EQ(100, n);
	EXPECT_TRUE(put_received(r, n));
	close_handles(h, 100);
}

TEST_HARNESS_MAIN
