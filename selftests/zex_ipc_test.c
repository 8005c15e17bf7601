// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_ipc_test.c - kselftest of multi-fd export and import
 *
 * Export then import (same file, another file, another process through
 * SCM_RIGHTS), zero-copy in both directions, lifetimes (the exporter's
 * object or whole process gone, the importer's data intact), vgem importing
 * an exported piece, 16 threads exporting and importing at once, and every
 * malformed export or import refused with its errno, leaking no fd and no
 * tile memory.
 */

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "zex_selftest.h"

#define K64	65536ull

/* Send n fds (and nothing else) over a Unix socket. */
static int send_fds(int sock, const int *fds, int n)
{
	char buf[CMSG_SPACE(sizeof(int) * 64)] = { 0 };
	struct iovec iov = { .iov_base = &n, .iov_len = sizeof(n) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = CMSG_SPACE(sizeof(int) * n),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	return sendmsg(sock, &msg, 0) == sizeof(n) ? 0 : -1;
}

static int recv_fds(int sock, int *fds)
{
	char buf[CMSG_SPACE(sizeof(int) * 64)];
	int n = 0;
	struct iovec iov = { .iov_base = &n, .iov_len = sizeof(n) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = buf, .msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != sizeof(n))
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(fds, CMSG_DATA(c), sizeof(int) * n);
	return n;
}

FIXTURE(ipc) {
	int fd;
	unsigned int tiles;
	bool implicit;
};

FIXTURE_SETUP(ipc)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	self->tiles = (unsigned int)zex_param("tiles");
	self->implicit = zex_implicit_scaling();
	ASSERT_EQ(0, zex_tiles_usage());
}

FIXTURE_TEARDOWN(ipc)
{
	close(self->fd);
	EXPECT_EQ(0, zex_tiles_usage());
}

/*
 * An object evenly split over the tiles, a few granules each (one piece
 * without implicit scaling): its pieces follow each other, so a plain
 * import rebuilds it. Interleaved objects have their own test.
 */
static int make_bo(int fd, unsigned int tiles, uint32_t *handle, uint64_t *size)
{
	if (!zex_implicit_scaling())
		return raw_bo_create(fd, 3 * K64 * tiles + 8192, DRM_ZEX_DEVICE_ROOT,
				     handle, size);
	return raw_bo_create_coloured(fd, 3 * K64 * tiles + 8192, 0, 64, handle, size);
}

TEST_F(ipc, export_import_same_file_is_zero_copy)
{
	int fds[DRM_ZEX_MAX_TILES * 8];
	uint64_t size, isize;
	uint32_t h, ih;
	uint8_t *a, *b;
	long long used;
	int n, i;

	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	a = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	zex_fill(a, size, 1);

	n = raw_bo_export(self->fd, h, fds, 64);
	ASSERT_LT(0, n);
	EXPECT_EQ(self->implicit ? (int)self->tiles : 1, n);
	/* The fds are CLOEXEC, as asked. */
	EXPECT_EQ(FD_CLOEXEC, fcntl(fds[0], F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDWR, fcntl(fds[0], F_GETFL) & O_ACCMODE);

	used = zex_tiles_usage();
	ASSERT_EQ(0, raw_bo_import(self->fd, fds, n, 0, &ih, &isize));
	EXPECT_EQ(size, isize);
	EXPECT_NE(h, ih);
	/* No copy: the import charged nothing. */
	EXPECT_EQ(used, zex_tiles_usage());

	b = raw_bo_map(self->fd, ih, isize);
	ASSERT_NE(MAP_FAILED, b);
	EXPECT_TRUE(zex_same(b, size, 1));
	zex_fill(b, size, 2);
	EXPECT_TRUE(zex_same(a, size, 2));

	munmap(a, size);
	munmap(b, size);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, raw_bo_close(self->fd, ih));
}

TEST_F(ipc, same_dma_buf_twice_is_the_same_piece)
{
	int fds[64];
	uint64_t size, s1, s2;
	uint32_t h, i1, i2;
	uint8_t *m1, *m2;
	long long used;
	int n, i;

	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	n = raw_bo_export(self->fd, h, fds, 64);
	ASSERT_LT(0, n);
	ASSERT_EQ(0, raw_bo_close(self->fd, h));
	used = zex_tiles_usage();
	ASSERT_EQ(0, raw_bo_import(self->fd, fds, n, 0, &i1, &s1));
	ASSERT_EQ(0, raw_bo_import(self->fd, fds, n, 0, &i2, &s2));
	EXPECT_EQ(used, zex_tiles_usage());
	m1 = raw_bo_map(self->fd, i1, s1);
	m2 = raw_bo_map(self->fd, i2, s2);
	ASSERT_NE(MAP_FAILED, m1);
	ASSERT_NE(MAP_FAILED, m2);
	zex_fill(m1, s1, 7);
	EXPECT_TRUE(zex_same(m2, s2, 7));
	munmap(m1, s1);
	munmap(m2, s2);
	EXPECT_EQ(0, raw_bo_close(self->fd, i1));
	/* The pieces live while the fds and the other import do. */
	EXPECT_EQ(used, zex_tiles_usage());
	EXPECT_EQ(0, raw_bo_close(self->fd, i2));
	for (i = 0; i < n; i++)
		close(fds[i]);
}

TEST_F(ipc, interleaved_layout_survives_import)
{
	struct drm_zex_piece_info *pc;
	struct drm_zex_bo_info info;
	int fds[DRM_ZEX_MAX_TILES];
	uint64_t size, isize;
	uint32_t h, ih;
	uint8_t *a, *b;
	int n, i;

	if (!self->implicit)
		SKIP(return, "needs implicit scaling");
	ASSERT_EQ(0, raw_bo_create_coloured(self->fd, 7 * K64 * self->tiles + K64, 2, 64,
					    &h, &size));
	n = raw_bo_pieces(self->fd, h, &pc, &info);
	ASSERT_EQ((int)self->tiles, n);
	free(pc);
	EXPECT_EQ(DRM_ZEX_BO_INTERLEAVED, info.layout);
	a = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	zex_fill(a, size, 3);
	ASSERT_EQ(n, raw_bo_export(self->fd, h, fds, DRM_ZEX_MAX_TILES));

	/* Rebuilt with the same layout, the bytes are where they were. */
	ASSERT_EQ(0, raw_bo_import(self->fd, fds, n, info.granularity, &ih, &isize));
	b = raw_bo_map(self->fd, ih, isize);
	ASSERT_NE(MAP_FAILED, b);
	EXPECT_EQ(0, memcmp(a, b, size));
	munmap(b, isize);
	EXPECT_EQ(0, raw_bo_close(self->fd, ih));
	/* A layout the sizes do not fit is refused. */
	EXPECT_EQ(-EINVAL, raw_bo_import(self->fd, fds, n, 2 * info.granularity, &ih, NULL));
	if (n > 2) {
		int swapped[DRM_ZEX_MAX_TILES];

		memcpy(swapped, fds, sizeof(int) * n);
		swapped[0] = fds[n - 1];	/* a short piece first */
		swapped[n - 1] = fds[0];
		EXPECT_EQ(-EINVAL, raw_bo_import(self->fd, swapped, n, info.granularity,
						 &ih, NULL));
	}
	munmap(a, size);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

TEST_F(ipc, cross_process_both_ways_and_lifetimes)
{
	int sv[2], fds[64], status, n, i;
	uint64_t size;
	uint32_t h;
	uint8_t *a;
	pid_t pid;
	char go;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	a = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	zex_fill(a, size, 11);
	n = raw_bo_export(self->fd, h, fds, 64);
	ASSERT_LT(0, n);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		/* The importer: its own DRM file, fds from the socket. */
		int cfd = zex_open_render(), got[64], m, ok = 1;
		uint64_t isize;
		uint32_t ih;
		uint8_t *b;

		close(sv[0]);
		m = recv_fds(sv[1], got);
		if (cfd < 0 || m != n || raw_bo_import(cfd, got, m, 0, &ih, &isize))
			_exit(10);
		b = raw_bo_map(cfd, ih, isize);
		if (b == MAP_FAILED || !zex_same(b, isize, 11))
			_exit(11);
		zex_fill(b, isize, 12);		/* the parent must see this */
		if (write(sv[1], "w", 1) != 1 || read(sv[1], &go, 1) != 1)
			_exit(12);
		/* The exporter freed everything: the data is still here. */
		ok &= zex_same(b, isize, 12);
		/* Now export from here and die; the parent imports after. */
		m = raw_bo_export(cfd, ih, got, 64);
		ok &= m == n && send_fds(sv[1], got, m) == 0;
		_exit(ok ? 0 : 13);
	}
	close(sv[1]);
	ASSERT_EQ(0, send_fds(sv[0], fds, n));
	ASSERT_EQ(1, read(sv[0], &go, 1));
	EXPECT_TRUE(zex_same(a, size, 12));
	/* Drop every trace of the export on this side. */
	munmap(a, size);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	ASSERT_EQ(1, write(sv[0], "g", 1));

	/* The child exported again and exited: import what it sent. */
	ASSERT_EQ(n, recv_fds(sv[0], fds));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, raw_bo_import(self->fd, fds, n, 0, &h, &size));
	a = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	EXPECT_TRUE(zex_same(a, size, 12));
	munmap(a, size);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	close(sv[0]);
}

/* A render or card node driven by vgem, or -1. */
static int open_vgem(void)
{
	char path[32];
	int i, fd;

	for (i = 0; i < 256; i++) {
		drmVersionPtr v;

		snprintf(path, sizeof(path), i < 128 ? "/dev/dri/card%d" : "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && !strcmp(v->name, "vgem")) {
			drmFreeVersion(v);
			return fd;
		}
		drmFreeVersion(v);
		close(fd);
	}
	return -1;
}

/* Whether debugfs shows a dma-buf of inode @ino attached by vgem. */
static int vgem_attached(ino_t ino)
{
	FILE *f = fopen("/sys/kernel/debug/dma_buf/bufinfo", "r");
	char line[512];
	int in_buf = 0, found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long size, inode;
		unsigned int flags, mode, count;

		/* "size flags mode count exp_name ino" starts each buffer. */
		if (sscanf(line, "%llu %x %x %x %*s %llu", &size, &flags, &mode,
			   &count, &inode) == 5)
			in_buf = inode == ino;
		else if (in_buf && strstr(line, "vgem"))
			found = 1;
	}
	fclose(f);
	return found;
}

TEST_F(ipc, vgem_imports_an_exported_piece)
{
	int vfd = open_vgem(), fds[64], n, i, back;
	struct drm_zex_piece_info *pc = NULL;
	struct stat ours, theirs;
	uint64_t size;
	uint32_t h, vh;
	uint8_t *a, *v;

	if (vfd < 0)
		SKIP(return, "no vgem device");
	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	a = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, a);
	zex_fill(a, size, 21);
	n = raw_bo_export(self->fd, h, fds, 64);
	ASSERT_LT(0, n);
	ASSERT_EQ(n, raw_bo_pieces(self->fd, h, &pc, NULL));

	/* vgem attaches and maps the last piece... */
	ASSERT_EQ(0, drmPrimeFDToHandle(vfd, fds[n - 1], &vh));
	ASSERT_EQ(0, fstat(fds[n - 1], &ours));
	EXPECT_EQ(1, vgem_attached(ours.st_ino));
	/* ...holds the very same dma-buf (vgem cannot map imports itself)... */
	ASSERT_EQ(0, drmPrimeHandleToFD(vfd, vh, DRM_CLOEXEC, &back));
	ASSERT_EQ(0, fstat(back, &theirs));
	EXPECT_EQ(ours.st_ino, theirs.st_ino);
	/* ...whose bytes are exactly the piece's. */
	v = mmap(NULL, pc[n - 1].size, PROT_READ, MAP_SHARED, back, 0);
	ASSERT_NE(MAP_FAILED, v);
	EXPECT_EQ(0, memcmp(v, a + pc[n - 1].offset, pc[n - 1].size));
	munmap(v, pc[n - 1].size);
	close(back);

	free(pc);
	munmap(a, size);
	for (i = 0; i < n; i++)
		close(fds[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	close(vfd);
}

TEST_F(ipc, foreign_dma_buf_is_exdev)
{
	struct drm_mode_create_dumb c = { .width = 64, .height = 64, .bpp = 32 };
	int vfd = open_vgem(), dfd;
	uint32_t h;

	if (vfd < 0)
		SKIP(return, "no vgem device");
	ASSERT_EQ(0, zex_ioctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &c));
	ASSERT_EQ(0, drmPrimeHandleToFD(vfd, c.handle, DRM_CLOEXEC | DRM_RDWR, &dfd));
	EXPECT_EQ(-EXDEV, raw_bo_import(self->fd, &dfd, 1, 0, &h, NULL));
	close(dfd);
	close(vfd);
}

TEST_F(ipc, standard_prime_for_one_piece_objects)
{
	int vfd = open_vgem(), pf, again, piece_fd, other, dfd, pieces_fd;
	struct drm_mode_create_dumb c = { .width = 64, .height = 64, .bpp = 32 };
	struct drm_zex_piece_info *pc = NULL;
	struct stat a, b;
	uint32_t h, h2, vh, oh, m;
	uint64_t cap = 0, size;
	uint8_t *p, *q;

	if (vfd < 0)
		SKIP(return, "no vgem device");
	/* Both directions, on the render node libdrm users open. */
	ASSERT_EQ(0, drmGetCap(self->fd, DRM_CAP_PRIME, &cap));
	EXPECT_EQ(DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT, cap);

	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * K64, 0, &h, &size));
	p = raw_bo_map(self->fd, h, size);
	ASSERT_NE(MAP_FAILED, p);
	zex_fill(p, size, 31);
	/* A one-piece object's PRIME fd is its piece's dma-buf. */
	ASSERT_EQ(0, drmPrimeHandleToFD(self->fd, h, DRM_CLOEXEC | DRM_RDWR, &pf));
	ASSERT_EQ(1, raw_bo_export(self->fd, h, &piece_fd, 1));
	ASSERT_EQ(0, fstat(pf, &a));
	ASSERT_EQ(0, fstat(piece_fd, &b));
	EXPECT_EQ(a.st_ino, b.st_ino);
	ASSERT_EQ(0, drmPrimeHandleToFD(self->fd, h, DRM_CLOEXEC | DRM_RDWR, &again));
	ASSERT_EQ(0, fstat(again, &b));
	EXPECT_EQ(a.st_ino, b.st_ino);
	/* Self-import is the same object, as DRM PRIME promises. */
	ASSERT_EQ(0, drmPrimeFDToHandle(self->fd, pf, &h2));
	EXPECT_EQ(h, h2);
	/* Another file imports it and sees the same bytes. */
	other = zex_open_render();
	ASSERT_LE(0, other);
	ASSERT_EQ(0, drmPrimeFDToHandle(other, pf, &oh));
	q = raw_bo_map(other, oh, size);
	ASSERT_NE(MAP_FAILED, q);
	EXPECT_TRUE(zex_same(q, size, 31));
	munmap(q, size);
	/* vgem imports it. */
	EXPECT_EQ(0, drmPrimeFDToHandle(vfd, pf, &vh));

	/* vgem's dma-buf is not tile memory: -EXDEV. */
	ASSERT_EQ(0, zex_ioctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &c));
	ASSERT_EQ(0, drmPrimeHandleToFD(vfd, c.handle, DRM_CLOEXEC | DRM_RDWR, &dfd));
	EXPECT_EQ(-1, drmPrimeFDToHandle(self->fd, dfd, &h2));
	EXPECT_EQ(EXDEV, errno);
	/* Not a dma-buf, not a handle. */
	EXPECT_EQ(-1, drmPrimeFDToHandle(self->fd, self->fd, &h2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, drmPrimeHandleToFD(self->fd, 0xdead, DRM_CLOEXEC, &again));
	EXPECT_EQ(ENOENT, errno);
	/* Several pieces have no single dma-buf: -E2BIG, use BO_EXPORT. */
	ASSERT_EQ(0, raw_bo_create_coloured(self->fd, 4 * K64 * self->tiles, 0, 64, &m, NULL));
	if (raw_bo_pieces(self->fd, m, &pc, NULL) > 1) {
		EXPECT_EQ(-1, drmPrimeHandleToFD(self->fd, m, DRM_CLOEXEC, &pieces_fd));
		EXPECT_EQ(E2BIG, errno);
	} else {
		EXPECT_EQ(0, drmPrimeHandleToFD(self->fd, m, DRM_CLOEXEC, &pieces_fd));
		close(pieces_fd);
	}
	free(pc);
	EXPECT_EQ(0, raw_bo_close(self->fd, m));

	close(dfd);
	close(again);
	close(piece_fd);
	close(pf);
	EXPECT_EQ(0, raw_bo_close(other, oh));
	close(other);
	munmap(p, size);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
	close(vfd);
}

TEST_F(ipc, bad_exports)
{
	struct drm_zex_bo_export e = { 0 };
	int fds[64], before;
	uint64_t size;
	uint32_t h;

	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	before = zex_count_fds();
	e.handle = 0x7fffffff;
	EXPECT_EQ(-ENOENT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	e.handle = h;
	e.flags = O_NONBLOCK;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	e.flags = 0;
	e.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	e.pad = 0;
	e.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	e.reserved[1] = 0;
	/* Count query, then a short array, then a bad pointer. */
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	EXPECT_EQ(self->implicit ? self->tiles : 1, e.num_fds);
	if (e.num_fds > 1) {
		memset(fds, 0x7f, sizeof(fds));
		e.num_fds--;
		e.fds = (uintptr_t)fds;
		EXPECT_EQ(-ENOSPC, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
		EXPECT_EQ(0x7f7f7f7f, fds[0]);
	}
	e.num_fds = 64;
	e.fds = 8;
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_EXPORT, &e));
	/* None of the failures left an fd behind. */
	EXPECT_EQ(before, zex_count_fds());
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

TEST_F(ipc, bad_imports)
{
	struct drm_zex_bo_import im = { 0 };
	int fds[DRM_ZEX_MAX_PIECES + 1], pipefd[2], good[64], n, i, before;
	long long used;
	uint64_t size;
	uint32_t h, ih;

	ASSERT_EQ(0, make_bo(self->fd, self->tiles, &h, &size));
	n = raw_bo_export(self->fd, h, good, 64);
	ASSERT_LT(0, n);
	ASSERT_EQ(0, pipe(pipefd));
	used = zex_tiles_usage();
	before = zex_count_fds();

	im.fds = (uintptr_t)good;
	im.num_fds = 0;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	for (i = 0; i <= DRM_ZEX_MAX_PIECES; i++)
		fds[i] = good[0];
	im.fds = (uintptr_t)fds;
	im.num_fds = DRM_ZEX_MAX_PIECES + 1;
	EXPECT_EQ(-E2BIG, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	/* The same piece twice: its two ranges would alias. */
	im.num_fds = 2;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.num_fds = 1;
	im.flags = 2;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.flags = 0;
	im.granularity = K64;	/* without the interleave flag */
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.flags = DRM_ZEX_BO_INTERLEAVED;
	im.granularity = 3 * K64;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.flags = 0;
	im.granularity = 0;
	im.pad = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.pad = 0;
	im.reserved[0] = 1;
	EXPECT_EQ(-EINVAL, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));
	im.reserved[0] = 0;
	im.fds = 8;
	EXPECT_EQ(-EFAULT, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_IMPORT, &im));

	/* Bad fds, alone and after good ones (which must be released). */
	fds[0] = good[0];
	fds[1] = pipefd[0];
	EXPECT_EQ(-EINVAL, raw_bo_import(self->fd, fds, 2, 0, &ih, NULL));
	fds[1] = self->fd;	/* a DRM fd is not a dma-buf */
	EXPECT_EQ(-EINVAL, raw_bo_import(self->fd, fds, 2, 0, &ih, NULL));
	fds[1] = 4000;		/* not open */
	EXPECT_EQ(-EBADF, raw_bo_import(self->fd, fds, 2, 0, &ih, NULL));
	fds[1] = -1;
	EXPECT_EQ(-EBADF, raw_bo_import(self->fd, fds, 2, 0, &ih, NULL));

	EXPECT_EQ(used, zex_tiles_usage());
	EXPECT_EQ(before, zex_count_fds());
	close(pipefd[0]);
	close(pipefd[1]);
	for (i = 0; i < n; i++)
		close(good[i]);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

struct worker {
	int fd;
	unsigned int tiles, id;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int round;

	for (round = 0; round < 24; round++) {
		int fds[64], n, i;
		uint64_t size, isize;
		uint32_t h, ih;
		uint8_t *a, *b;

		if (make_bo(w->fd, w->tiles, &h, &size)) {
			w->failures++;
			continue;
		}
		a = raw_bo_map(w->fd, h, size);
		if (a == MAP_FAILED) {
			w->failures++;
			raw_bo_close(w->fd, h);
			continue;
		}
		zex_fill(a, size, w->id * 1000 + round);
		n = raw_bo_export(w->fd, h, fds, 64);
		if (n <= 0 || raw_bo_import(w->fd, fds, n, 0, &ih, &isize)) {
			w->failures++;
		} else {
			b = raw_bo_map(w->fd, ih, isize);
			if (b == MAP_FAILED || !zex_same(b, isize, w->id * 1000 + round))
				w->failures++;
			if (b != MAP_FAILED)
				munmap(b, isize);
			raw_bo_close(w->fd, ih);
		}
		for (i = 0; i < n; i++)
			close(fds[i]);
		munmap(a, size);
		raw_bo_close(w->fd, h);
	}
	return NULL;
}

TEST_F(ipc, sixteen_threads_export_and_import)
{
	struct worker w[16];
	pthread_t t[16];
	int i, shared = zex_open_render();

	ASSERT_LE(0, shared);
	for (i = 0; i < 16; i++) {
		/* Half share one DRM file, half have their own. */
		w[i] = (struct worker){ .fd = i % 2 ? shared : zex_open_render(),
					.tiles = self->tiles, .id = (unsigned int)i };
		ASSERT_LE(0, w[i].fd);
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d", i);
		if (i % 2 == 0)
			close(w[i].fd);
	}
	close(shared);
	EXPECT_EQ(0, zex_tiles_usage());
}

ZEX_SELFTEST_MAIN
