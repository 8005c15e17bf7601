// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_libzex_ipc_test.c - libzex's Level Zero IPC, in the VM
 *
 * Through libzex only: topology (a root device, tiles as sub-devices),
 * seed 000's zexMemGetIpcHandles count rules, a cross-process round trip
 * with zexIpcHandlesSend/Recv and zexMemOpenIpcHandles in both directions,
 * handles copied as bytes opened through the exporter (pidfd_getfd),
 * single-handle IPC, one standard handle naming a coloured allocation
 * (opened in another process as UCX does, refused once put and for a
 * user who may not ptrace the exporter),
 * host memory shared with another process through its memfd, a dma-buf
 * imported as device, host and physical memory, host memory allocated
 * for a dma-buf export (mapped, imported back, opened in another process),
 * an event pool's handle copied as bytes opened in another process,
 * zexMemPutIpcHandles, the debug keys (each in a fresh process, since
 * zeInit reads them once), result codes for bad arguments, and 16 threads
 * allocating, exporting, opening and freeing at once.
 */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "zex_selftest.h"
#include "zex/zex_api.h"

#define K64	65536ull

struct l0 {
	ze_driver_handle_t drv;
	ze_device_handle_t root;
	ze_device_handle_t tiles[DRM_ZEX_MAX_TILES];
	uint32_t num_tiles;
	ze_context_handle_t ctx;
};

static int l0_open(struct l0 *l)
{
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	uint32_t n = 1;

	if (zeInit(0) || zeDriverGet(&n, &l->drv) || n != 1)
		return -1;
	n = 1;
	if (zeDeviceGet(l->drv, &n, &l->root) || n != 1)
		return -1;
	l->num_tiles = 0;
	if (zeDeviceGetSubDevices(l->root, &l->num_tiles, NULL) ||
	    zeDeviceGetSubDevices(l->root, &l->num_tiles, l->tiles))
		return -1;
	return zeContextCreate(l->drv, &cd, &l->ctx) ? -1 : 0;
}

static void *alloc(struct l0 *l, ze_device_handle_t dev, size_t size)
{
	ze_device_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	void *p = NULL;

	return zeMemAllocDevice(l->ctx, &d, size, 0, dev, &p) ? NULL : p;
}

TEST(topology_through_libzex)
{
	struct l0 l;

	ASSERT_EQ(0, l0_open(&l));
	EXPECT_EQ((uint32_t)zex_param("tiles"), l.num_tiles);
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ENUMERATION, zeInit(0x80));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zeDeviceGet(NULL, &l.num_tiles, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(l.ctx));
}

TEST(get_ipc_handles_count_rules)
{
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES + 4];
	size_t size = 4 * K64 * (size_t)zex_param("tiles");
	uint32_t want = zex_implicit_scaling() ? (uint32_t)zex_param("tiles") : 1, n;
	struct l0 l;
	void *p;

	ASSERT_EQ(0, l0_open(&l));
	p = alloc(&l, l.root, size);
	ASSERT_NE(NULL, p);

	n = 0;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, p, &n, NULL));
	EXPECT_EQ(want, n);
	n = want + 3;	/* larger than the count: set to the count */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, p, &n, h));
	EXPECT_EQ(want, n);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, n, h));
	if (want > 1) {
		n = want - 1;
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zexMemGetIpcHandles(l.ctx, p, &n, h));
	}
	n = 0;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zexMemGetIpcHandles(l.ctx, (char *)p + size, &n, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexMemGetIpcHandles(l.ctx, &n, &n, NULL));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zexMemGetIpcHandles(l.ctx, p, NULL, h));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, zexMemGetIpcHandles(NULL, p, &n, h));
	/* An interior pointer names the same allocation. */
	n = 0;
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, (char *)p + 4096, &n, NULL));
	EXPECT_EQ(want, n);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(l.ctx, p));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST(cross_process_round_trip)
{
	size_t size = 6 * K64 * (size_t)zex_param("tiles") + 8192;
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
	int sv[2], status;
	uint32_t n = DRM_ZEX_MAX_TILES;
	struct l0 l;
	pid_t pid;
	char c;
	void *p;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ze_ipc_mem_handle_t got[DRM_ZEX_MAX_TILES];
		uint32_t m = DRM_ZEX_MAX_TILES, i;
		void *q;
		int ok;

		close(sv[0]);
		if (l0_open(&l) || zexIpcHandlesRecv(sv[1], &m, got))
			_exit(10);
		if (zexMemOpenIpcHandles(l.ctx, l.root, m, got, 0, &q))
			_exit(11);
		ok = zex_same(q, size, 5);
		zex_fill(q, size, 6);
		/* Closing the IPC pointer with zeMemFree is refused. */
		ok &= zeMemFree(l.ctx, q) == ZE_RESULT_ERROR_INVALID_ARGUMENT;
		ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_SUCCESS;
		ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_ERROR_INVALID_ARGUMENT;
		for (i = 0; i < m; i++)
			close(*(int32_t *)(got[i].data + 4));
		ok &= write(sv[1], "d", 1) == 1;
		_exit(ok ? 0 : 12);
	}
	close(sv[1]);
	ASSERT_EQ(0, l0_open(&l));
	p = alloc(&l, l.root, size);
	ASSERT_NE(NULL, p);
	zex_fill(p, size, 5);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, p, &n, h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(sv[0], n, h));
	ASSERT_EQ(1, read(sv[0], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(zex_same(p, size, 6));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, n, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	close(sv[0]);
}

/*
 * Handles copied as bytes (no SCM_RIGHTS: shared memory, a pipe, a file)
 * hold the exporter's fd numbers: the open takes each piece's dma-buf from
 * the exporter; a handle whose dma-buf identity is not that fd's opens
 * nothing.
 */
TEST(handles_copied_as_bytes_open_through_the_exporter)
{
	size_t size = 6 * K64 * (size_t)zex_param("tiles") + 8192;
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
	uint32_t n = DRM_ZEX_MAX_TILES;
	int sv[2], status;
	struct l0 l;
	pid_t pid;
	char c;
	void *p;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ze_ipc_mem_handle_t got[DRM_ZEX_MAX_TILES], bad;
		ssize_t len;
		uint32_t m;
		void *q;
		int ok;

		close(sv[0]);
		len = read(sv[1], got, sizeof(got));
		if (l0_open(&l) || len <= 0 || len % sizeof(got[0]))
			_exit(10);
		m = (uint32_t)(len / sizeof(got[0]));
		/* Another dma-buf's identity: refused, nothing opened. */
		bad = got[0];
		bad.data[56] ^= 1;
		ok = zeMemOpenIpcHandle(l.ctx, l.root, bad, 0, &q) ==
		     ZE_RESULT_ERROR_INVALID_ARGUMENT;
		if (zexMemOpenIpcHandles(l.ctx, l.root, m, got, 0, &q))
			_exit(11);
		ok &= zex_same(q, size, 5);
		zex_fill(q, size, 6);
		ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_SUCCESS;
		ok &= write(sv[1], "d", 1) == 1;
		_exit(ok ? 0 : 12);
	}
	close(sv[1]);
	ASSERT_EQ(0, l0_open(&l));
	p = alloc(&l, l.root, size);
	ASSERT_NE(NULL, p);
	zex_fill(p, size, 5);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, p, &n, h));
	ASSERT_EQ((ssize_t)(n * sizeof(h[0])), write(sv[0], h, n * sizeof(h[0])));
	ASSERT_EQ(1, read(sv[0], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_TRUE(zex_same(p, size, 6));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, n, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	close(sv[0]);
}

/*
 * What UCX's ze_ipc transport does with a coloured allocation on the root
 * device: one standard handle, copied as bytes with the exporter's pid;
 * the receiver takes the fd at byte 0 with pidfd_getfd(), writes its own
 * number there and opens the handle. The whole allocation opens (the
 * other pieces come from the exporter), both sides see each other's
 * writes; once the exporter has put the handle the same bytes open
 * nothing, though the receiver still holds piece 0; a receiver that may
 * not ptrace the exporter (another user) gets
 * ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS and no fd.
 */
/*
 * The receiving process of the test below: @who 0 opens as UCX does, @who
 * 1 is another user. Reads the handle from @in, answers on @out; its exit
 * status says what failed.
 */
static int ucx_like_receiver(int who, int in, int out, size_t size)
{
	ze_ipc_mem_handle_t got;
	int pidfd, fd, before, ok = 1;
	struct l0 l;
	void *q;
	char c;

	if (l0_open(&l))
		return 10;
	/* Another user, with no capability. */
	if (who == 1 && (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)))
		return 11;
	if (read(in, &got, sizeof(got)) != sizeof(got))
		return 12;
	before = zex_count_fds();
	pidfd = (int)syscall(SYS_pidfd_open, getppid(), 0);
	fd = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, *(int32_t *)got.data, 0);
	if (who == 1) {
		/* No ptrace permission: neither UCX's take nor libzex's. */
		ok &= fd < 0 && errno == EPERM;
		ok &= zeMemOpenIpcHandle(l.ctx, l.root, got, 0, &q) ==
		      ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
		ok &= zex_count_fds() == before + (pidfd >= 0);
		return ok ? 0 : 13;
	}
	if (fd < 0)
		return 14;
	memcpy(got.data, &fd, sizeof(fd));
	if (zeMemOpenIpcHandle(l.ctx, l.root, got, 0, &q))
		return 15;
	ok &= zex_same(q, size, 5);
	zex_fill(q, size, 6);
	ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_SUCCESS;
	/* The fds taken for the other pieces are closed. */
	ok &= zex_count_fds() == before + 2;
	ok &= write(out, "d", 1) == 1;
	/* The exporter has put its handle: the same bytes open nothing. */
	ok &= read(in, &c, 1) == 1;
	ok &= zeMemOpenIpcHandle(l.ctx, l.root, got, 0, &q) == ZE_RESULT_ERROR_INVALID_ARGUMENT;
	ok &= zex_count_fds() == before + 2;
	return ok ? 0 : 16;
}

TEST(one_standard_handle_opens_a_coloured_allocation_in_another_process)
{
	size_t size = 6 * K64 * (size_t)zex_param("tiles") + 8192;
	int to_child[2][2], to_parent[2], status, who;
	ze_ipc_mem_handle_t h;
	struct l0 l;
	pid_t pid[2];
	char c;
	void *p;

	if (!zex_implicit_scaling())
		SKIP(return, "root allocations are one piece without implicit scaling");
	ASSERT_EQ(0, pipe(to_parent));
	/* Before the allocation: the children inherit none of its fds. */
	for (who = 0; who < 2; who++) {
		ASSERT_EQ(0, pipe(to_child[who]));
		pid[who] = fork();
		ASSERT_LE(0, pid[who]);
		if (!pid[who])
			_exit(ucx_like_receiver(who, to_child[who][0], to_parent[1], size));
	}
	ASSERT_EQ(0, l0_open(&l));
	p = alloc(&l, l.root, size);
	ASSERT_NE(NULL, p);
	zex_fill(p, size, 5);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(l.ctx, p, &h));
	/* The other user answers by its exit. */
	ASSERT_EQ(sizeof(h), write(to_child[1][1], &h, sizeof(h)));
	ASSERT_EQ(pid[1], waitpid(pid[1], &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(sizeof(h), write(to_child[0][1], &h, sizeof(h)));
	ASSERT_EQ(1, read(to_parent[0], &c, 1));
	EXPECT_TRUE(zex_same(p, size, 6));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(l.ctx, h));
	ASSERT_EQ(1, write(to_child[0][1], "p", 1));
	ASSERT_EQ(pid[0], waitpid(pid[0], &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	for (who = 0; who < 2; who++) {
		close(to_child[who][0]);
		close(to_child[who][1]);
	}
	close(to_parent[0]);
	close(to_parent[1]);
}

/*
 * Host memory libzex allocated travels as its memfd: the other process
 * maps the same pages (host memory there too, and the device reaches it:
 * a fill through an immediate list lands where the exporter sees it);
 * it is no dma-buf, so the export-fd property refuses it.
 */
TEST(host_memory_ipc_shares_the_pages)
{
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC };
	ze_external_memory_export_fd_t fd = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
	};
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, .pNext = &fd,
	};
	size_t size = 5 * 4096;
	ze_ipc_mem_handle_t h;
	int sv[2], status;
	struct l0 l;
	pid_t pid;
	char c;
	void *p;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ze_command_queue_desc_t qd = {
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
			.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
		};
		ze_memory_allocation_properties_t mp = {
			.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
		};
		ze_command_list_handle_t list;
		ze_ipc_mem_handle_t got;
		uint8_t nine = 9;
		int ok;
		void *q;

		close(sv[0]);
		if (read(sv[1], &got, sizeof(got)) != sizeof(got) || l0_open(&l))
			_exit(10);
		if (zeMemOpenIpcHandle(l.ctx, l.root, got, 0, &q))
			_exit(11);
		ok = zex_same(q, size, 7);
		ok &= zeMemGetAllocProperties(l.ctx, q, &mp, NULL) == ZE_RESULT_SUCCESS &&
		      mp.type == ZE_MEMORY_TYPE_HOST;
		ok &= zeCommandListCreateImmediate(l.ctx, l.root, &qd, &list) ==
		      ZE_RESULT_SUCCESS &&
		      zeCommandListAppendMemoryFill(list, (uint8_t *)q + 4096, &nine, 1, 4096,
						    NULL, 0, NULL) == ZE_RESULT_SUCCESS &&
		      zeCommandListDestroy(list) == ZE_RESULT_SUCCESS;
		((uint8_t *)q)[0] = 0xee;
		ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_SUCCESS;
		ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_ERROR_INVALID_ARGUMENT;
		ok &= write(sv[1], "d", 1) == 1;
		_exit(ok ? 0 : 12);
	}
	close(sv[1]);
	ASSERT_EQ(0, l0_open(&l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(l.ctx, &hd, size, 0, &p));
	zex_fill(p, size, 7);
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  zeMemGetAllocProperties(l.ctx, p, &props, NULL));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(l.ctx, p, &h));
	ASSERT_EQ(sizeof(h), write(sv[0], &h, sizeof(h)));
	ASSERT_EQ(1, read(sv[0], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0xee, ((uint8_t *)p)[0]);
	EXPECT_EQ(9, ((uint8_t *)p)[4096]);
	EXPECT_EQ(9, ((uint8_t *)p)[2 * 4096 - 1]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(l.ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	close(sv[0]);
}

/*
 * A device allocation's dma-buf imported back as device, host and physical
 * memory: each sees the same bytes and writes through to the others; an
 * import of another type, of an fd that is no zex dma-buf, or larger than
 * the dma-buf is refused.
 */
TEST(dma_bufs_import_as_device_host_and_physical_memory)
{
	ze_device_external_memory_properties_t ep = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES,
	};
	ze_external_memory_export_fd_t ex = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, .fd = -1,
	};
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, .pNext = &ex,
	};
	ze_external_memory_import_fd_t im = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
	};
	ze_device_mem_alloc_desc_t dd = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
					  .pNext = &im };
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					.pNext = &im };
	ze_physical_mem_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      .pNext = &im, .size = K64 };
	ze_physical_mem_handle_t phys;
	uint8_t *p, *d, *h, *v = NULL;
	struct l0 l;
	int memfd;

	ASSERT_EQ(0, l0_open(&l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeDeviceGetExternalMemoryProperties(l.root, &ep));
	EXPECT_EQ(ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, ep.memoryAllocationImportTypes);
	p = alloc(&l, l.root, K64);	/* one piece: one dma-buf */
	ASSERT_NE(NULL, p);
	zex_fill(p, K64, 3);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(l.ctx, p, &props, NULL));
	im.fd = (uint32_t)ex.fd;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(l.ctx, &dd, K64, 0, l.root, (void **)&d));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(l.ctx, &hd, K64, 0, (void **)&h));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemCreate(l.ctx, l.root, &pd, &phys));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemReserve(l.ctx, NULL, K64, (void **)&v));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemMap(l.ctx, v, K64, phys, 0,
						     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
	EXPECT_NE(p, d);
	EXPECT_TRUE(zex_same(d, K64, 3));
	EXPECT_TRUE(zex_same(h, K64, 3));
	EXPECT_TRUE(zex_same(v, K64, 3));
	d[7] = 0x71;
	EXPECT_EQ(0x71, p[7]);
	EXPECT_EQ(0x71, h[7]);
	EXPECT_EQ(0x71, v[7]);
	/* Refused: another type, an fd of no zex dma-buf, more than it holds. */
	im.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
		  zeMemAllocDevice(l.ctx, &dd, K64, 0, l.root, (void **)&v));
	im.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	memfd = memfd_create("not-a-dma-buf", MFD_CLOEXEC);
	ASSERT_LE(0, memfd);
	im.fd = (uint32_t)memfd;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemAllocDevice(l.ctx, &dd, K64, 0, l.root, (void **)&v));
	close(memfd);
	im.fd = (uint32_t)ex.fd;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemAllocDevice(l.ctx, &dd, 2 * K64, 0, l.root, (void **)&v));
	pd.size = 2 * K64;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zePhysicalMemCreate(l.ctx, l.root, &pd, &phys));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, d));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeVirtualMemFree(l.ctx, v, K64));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zePhysicalMemDestroy(l.ctx, phys));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(l.ctx));
}

/* In a child: open host memory's IPC handle from @sock, check and write it. */
static int host_child(int sock, size_t size, int seed)
{
	ze_memory_allocation_properties_t mp = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};
	ze_ipc_mem_handle_t got;
	struct l0 l;
	int ok;
	void *q;

	if (read(sock, &got, sizeof(got)) != sizeof(got) || l0_open(&l))
		return 10;
	if (zeMemOpenIpcHandle(l.ctx, l.root, got, 0, &q))
		return 11;
	ok = zex_same(q, size, seed);
	ok &= zeMemGetAllocProperties(l.ctx, q, &mp, NULL) == ZE_RESULT_SUCCESS &&
	      mp.type == ZE_MEMORY_TYPE_HOST;
	((uint8_t *)q)[1] = 0xc1;
	ok &= zeMemCloseIpcHandle(l.ctx, q) == ZE_RESULT_SUCCESS;
	ok &= write(sock, "d", 1) == 1;
	return ok ? 0 : 12;
}

/*
 * Host memory allocated with an export descriptor asking for a dma-buf:
 * its dma-buf (the export-fd property) maps on the host and imports back
 * as host memory over the same bytes, the device writes it, and its IPC
 * handle opens in another process as host memory. Another export type,
 * read-only memory and the application's own memory are refused.
 */
TEST(host_memory_allocated_for_export_is_a_dma_buf)
{
	ze_external_memory_export_desc_t xd = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
	};
	ze_host_mem_alloc_desc_t hd = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					.pNext = &xd };
	ze_external_memory_export_fd_t ex = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, .fd = -1,
	};
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, .pNext = &ex,
	};
	ze_external_memory_import_fd_t im = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
	};
	ze_host_mem_alloc_desc_t id = { .stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					.pNext = &im };
	ze_command_queue_desc_t qd = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
		.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
	};
	ze_external_memmap_sysmem_ext_desc_t mm = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC,
		.pNext = &xd, .size = K64,
	};
	ze_command_list_handle_t list;
	ze_ipc_mem_handle_t ih;
	uint8_t *p, *h, *m, five = 5;
	int sv[2], status;
	struct l0 l;
	pid_t pid;
	char c;
	void *q;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sv[0]);
		_exit(host_child(sv[1], K64, 4));
	}
	close(sv[1]);
	ASSERT_EQ(0, l0_open(&l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(l.ctx, &hd, K64 - 100, 0, (void **)&p));
	zex_fill(p, K64, 3);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetAllocProperties(l.ctx, p, &props, NULL));
	EXPECT_EQ(ZE_MEMORY_TYPE_HOST, props.type);
	ASSERT_LE(0, ex.fd);
	/* The dma-buf maps on the host over the same pages. */
	m = mmap(NULL, K64, PROT_READ | PROT_WRITE, MAP_SHARED, ex.fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	EXPECT_TRUE(zex_same(m, K64, 3));
	m[5] = 0x55;
	EXPECT_EQ(0x55, p[5]);
	/* And imports back as host memory. */
	im.fd = (uint32_t)ex.fd;
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocHost(l.ctx, &id, K64, 0, (void **)&h));
	EXPECT_NE(p, h);
	EXPECT_EQ(0x55, h[5]);
	/* The device writes it. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeCommandListCreateImmediate(l.ctx, l.root, &qd, &list));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListAppendMemoryFill(list, p + 4096, &five, 1, 4096,
								   NULL, 0, NULL));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeCommandListDestroy(list));
	EXPECT_EQ(5, h[4096]);
	EXPECT_EQ(5, m[2 * 4096 - 1]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, h));
	munmap(m, K64);
	/* Its IPC handle opens in another process as host memory. */
	zex_fill(p, K64, 4);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(l.ctx, p, &ih));
	ASSERT_EQ(sizeof(ih), write(sv[0], &ih, sizeof(ih)));
	ASSERT_EQ(1, read(sv[0], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0xc1, p[1]);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(l.ctx, ih));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	close(sv[0]);
	/* Refused: another type, read-only memory, the application's memory. */
	xd.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
		  zeMemAllocHost(l.ctx, &hd, K64, 0, &q));
	xd.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	hd.flags = ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeMemAllocHost(l.ctx, &hd, K64, 0, &q));
	hd.flags = 0;
	mm.pSystemMemory = mmap(NULL, K64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);
	ASSERT_NE(MAP_FAILED, mm.pSystemMemory);
	hd.pNext = &mm;
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeMemAllocHost(l.ctx, &hd, K64, 0, &q));
	munmap(mm.pSystemMemory, K64);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(l.ctx));
}

/*
 * An event pool's IPC handle copied as bytes (no fd passed): another
 * process opens the pool through the exporter and its device signals an
 * event the exporter's host waits for.
 */
TEST(an_event_pool_handle_copied_as_bytes_opens_in_another_process)
{
	ze_event_pool_desc_t pd = { .stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
				    .flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC,
				    .count = 2 };
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC, .index = 1,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_ipc_event_pool_handle_t h;
	ze_event_pool_handle_t pool;
	ze_event_handle_t ev;
	int sv[2], status;
	struct l0 l;
	pid_t pid;
	char c;

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		ze_command_queue_desc_t qd = {
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
			.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
		};
		ze_command_list_handle_t list;
		ze_event_pool_handle_t opened;
		ze_event_handle_t theirs;
		int ok;

		close(sv[0]);
		if (read(sv[1], &h, sizeof(h)) != sizeof(h) || l0_open(&l))
			_exit(10);
		if (zeEventPoolOpenIpcHandle(l.ctx, h, &opened) ||
		    zeEventCreate(opened, &ed, &theirs)) {
			ok = write(sv[1], "f", 1);
			_exit(11);
		}
		ok = zeCommandListCreateImmediate(l.ctx, l.root, &qd, &list) ==
		     ZE_RESULT_SUCCESS &&
		     zeCommandListAppendSignalEvent(list, theirs) == ZE_RESULT_SUCCESS &&
		     zeCommandListDestroy(list) == ZE_RESULT_SUCCESS;
		ok &= zeEventDestroy(theirs) == ZE_RESULT_SUCCESS;
		ok &= zeEventPoolCloseIpcHandle(opened) == ZE_RESULT_SUCCESS;
		ok &= write(sv[1], "d", 1) == 1;
		_exit(ok ? 0 : 12);
	}
	close(sv[1]);
	ASSERT_EQ(0, l0_open(&l));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolCreate(l.ctx, &pd, 0, NULL, &pool));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventCreate(pool, &ed, &ev));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeEventPoolGetIpcHandle(pool, &h));
	/* Bytes only: the child takes the dma-buf from this process. */
	ASSERT_EQ(sizeof(h), write(sv[0], &h, sizeof(h)));
	/* The child's list is synchronous: its signal landed before its reply. */
	ASSERT_EQ(1, read(sv[0], &c, 1));
	EXPECT_EQ('d', c);
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventHostSynchronize(ev, 0));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolPutIpcHandle(l.ctx, h));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventDestroy(ev));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeEventPoolDestroy(pool));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeContextDestroy(l.ctx));
	close(sv[0]);
}

TEST(single_handle_ipc)
{
	ze_ipc_mem_handle_t one, many[DRM_ZEX_MAX_TILES];
	uint32_t n = DRM_ZEX_MAX_TILES;
	struct l0 l;
	void *p, *q, *r;

	ASSERT_EQ(0, l0_open(&l));
	/* One piece: on a tile. */
	p = alloc(&l, l.tiles[l.num_tiles - 1], 3 * K64);
	ASSERT_NE(NULL, p);
	zex_fill(p, 3 * K64, 9);
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(l.ctx, p, &one));
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemOpenIpcHandle(l.ctx, l.root, one, 0, &q));
	EXPECT_NE(p, q);
	EXPECT_TRUE(zex_same(q, 3 * K64, 9));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(l.ctx, q));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, 1, &one));
	/* A put handle is no handle. */
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zexMemPutIpcHandles(l.ctx, 1, &one));

	if (zex_implicit_scaling()) {
		size_t size = 4 * K64 * l.num_tiles;
		ze_ipc_mem_handle_t part;

		/* Several pieces: the one standard handle names them all. */
		r = alloc(&l, l.root, size);
		ASSERT_NE(NULL, r);
		zex_fill(r, size, 4);
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemGetIpcHandle(l.ctx, r, &one));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemOpenIpcHandle(l.ctx, l.root, one, 0, &q));
		EXPECT_TRUE(zex_same(q, size, 4));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemCloseIpcHandle(l.ctx, q));
		/* The same export: its piece 0's handle is the one handle. */
		ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, r, &n, many));
		ASSERT_LT(1u, n);
		EXPECT_EQ(0, memcmp(&one, &many[0], sizeof(one)));
		/* Another piece alone, a subset past piece 0, or out of order: refused. */
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  zeMemOpenIpcHandle(l.ctx, l.root, many[1], 0, &q));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  zexMemOpenIpcHandles(l.ctx, l.root, n - 1, &many[1], 0, &q));
		part = many[0];
		many[0] = many[1];
		many[1] = part;
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  zexMemOpenIpcHandles(l.ctx, l.root, n, many, 0, &q));
		many[1] = many[0];
		many[0] = part;
		/* Two gets, two puts: one of each kind; a third is refused. */
		EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, n, many));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemPutIpcHandle(l.ctx, one));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemPutIpcHandle(l.ctx, one));
		/* Put, the export's table is gone: the handle opens nothing. */
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  zeMemOpenIpcHandle(l.ctx, l.root, one, 0, &q));
		EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, r));
	}
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemCloseIpcHandle(l.ctx, p));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST(put_closes_every_fd_and_recv_leaks_none)
{
	ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES], got[1];
	uint32_t n = DRM_ZEX_MAX_TILES, room = 1;
	int before, sv[2];
	struct l0 l;
	void *p;

	ASSERT_EQ(0, l0_open(&l));
	p = alloc(&l, l.root, 4 * K64 * l.num_tiles);
	ASSERT_NE(NULL, p);
	before = zex_count_fds();
	ASSERT_EQ(ZE_RESULT_SUCCESS, zexMemGetIpcHandles(l.ctx, p, &n, h));
	EXPECT_EQ(before + (int)n, zex_count_fds());
	if (n > 1) {
		/* Too little room: an error, and the received fds are closed. */
		ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv));
		ASSERT_EQ(ZE_RESULT_SUCCESS, zexIpcHandlesSend(sv[0], n, h));
		EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, zexIpcHandlesRecv(sv[1], &room, got));
		close(sv[0]);
		close(sv[1]);
	}
	EXPECT_EQ(before + (int)n, zex_count_fds());
	EXPECT_EQ(ZE_RESULT_SUCCESS, zexMemPutIpcHandles(l.ctx, n, h));
	EXPECT_EQ(before, zex_count_fds());
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
}

/* Allocate on the root in a fresh process with @env set; returns pieces per tile. */
static int pieces_with_keys(const char *const *env, uint64_t size, long long *used)
{
	int pipefd[2], status, t;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		ze_ipc_mem_handle_t h[DRM_ZEX_MAX_PIECES];
		uint32_t n = DRM_ZEX_MAX_PIECES;
		long long u[DRM_ZEX_MAX_TILES + 1] = { 0 };
		struct l0 l;
		void *p;

		for (; *env; env += 2)
			setenv(env[0], env[1], 1);
		if (l0_open(&l))
			_exit(1);
		p = alloc(&l, l.root, size);
		if (!p || zexMemGetIpcHandles(l.ctx, p, &n, h))
			_exit(2);
		u[0] = n;
		for (t = 0; t < (int)l.num_tiles; t++)
			u[t + 1] = zex_tile_attr((unsigned int)t, "mem_used");
		if (write(pipefd[1], u, sizeof(u)) != sizeof(u))
			_exit(3);
		zexMemPutIpcHandles(l.ctx, n, h);
		zeMemFree(l.ctx, p);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], used, sizeof(long long) * (DRM_ZEX_MAX_TILES + 1)) !=
	    (ssize_t)(sizeof(long long) * (DRM_ZEX_MAX_TILES + 1)))
		used[0] = -1;
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? (int)used[0] : -1;
}

TEST(debug_keys_steer_root_allocations)
{
	static const char *const off[] = { "EnableImplicitScaling", "0", NULL };
	static const char *const chunk[] = { "MultiStoragePolicy", "1",
					     "MultiStorageGranularity", "128", NULL };
	static const char *const inter[] = { "MultiStoragePolicy", "2", NULL };
	static const char *const bad[] = { "MultiStoragePolicy", "7", NULL };
	unsigned int tiles = (unsigned int)zex_param("tiles");
	uint64_t size = 16 * K64 * tiles;
	long long used[DRM_ZEX_MAX_TILES + 1];
	unsigned int t;

	if (!zex_implicit_scaling())
		SKIP(return, "needs implicit scaling");
	/* Off: the root is tile 0, one piece. */
	ASSERT_EQ(1, pieces_with_keys(off, size, used));
	EXPECT_EQ((long long)size, used[1]);
	for (t = 1; t < tiles; t++)
		EXPECT_EQ(0, used[t + 1]);
	/* Chunks of 128 KiB, round robin over the tiles. */
	ASSERT_EQ((int)(size / (128 * 1024)), pieces_with_keys(chunk, size, used));
	for (t = 0; t < tiles; t++)
		EXPECT_EQ((long long)(size / tiles), used[t + 1]);
	/* Interleave: one piece per tile. */
	ASSERT_EQ((int)tiles, pieces_with_keys(inter, size, used));
	/* An invalid key is ignored: the module's defaults apply. */
	ASSERT_EQ((int)tiles, pieces_with_keys(bad, size, used));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST(bad_arguments)
{
	ze_device_mem_alloc_desc_t d = { .stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC };
	struct l0 l;
	void *p;

	ASSERT_EQ(0, l0_open(&l));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeMemAllocDevice(l.ctx, &d, 0, 0, l.root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		  zeMemAllocDevice(l.ctx, &d, 4096, 3000, l.root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeMemAllocDevice(NULL, &d, 4096, 0, l.root, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
		  zeMemAllocDevice(l.ctx, &d, 4096, 0, (ze_device_handle_t)&d, &p));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
		  zeMemAllocDevice(l.ctx, NULL, 4096, 0, l.root, &p));
	d.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT,
		  zeMemAllocDevice(l.ctx, &d, 4096, 0, l.root, &p));
	d.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	EXPECT_EQ(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
		  zeMemAllocDevice(l.ctx, &d, (size_t)(zex_param("tile_mem_mb") << 20) + 4096,
				   0, l.tiles[0], &p));
	/* A large alignment is honoured. */
	ASSERT_EQ(ZE_RESULT_SUCCESS, zeMemAllocDevice(l.ctx, &d, 8192, 1 << 21, l.root, &p));
	EXPECT_EQ(0, (uintptr_t)p & ((1 << 21) - 1));
	EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(l.ctx, (char *)p + 4096));
	EXPECT_EQ(ZE_RESULT_SUCCESS, zeMemFree(l.ctx, p));
	EXPECT_EQ(0, zex_tiles_usage());
}

struct worker {
	struct l0 *l;
	int seed, failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int round;

	for (round = 0; round < 16; round++) {
		ze_ipc_mem_handle_t h[DRM_ZEX_MAX_TILES];
		uint32_t n = DRM_ZEX_MAX_TILES;
		size_t size = 2 * K64 * w->l->num_tiles + 4096 * (size_t)round;
		void *p = alloc(w->l, w->l->root, size), *q;

		if (!p) {
			w->failures++;
			continue;
		}
		zex_fill(p, size, (uint32_t)(w->seed + round));
		if (zexMemGetIpcHandles(w->l->ctx, p, &n, h) ||
		    zexMemOpenIpcHandles(w->l->ctx, w->l->root, n, h, 0, &q)) {
			w->failures++;
		} else {
			w->failures += !zex_same(q, size, (uint32_t)(w->seed + round));
			w->failures += zeMemCloseIpcHandle(w->l->ctx, q) != ZE_RESULT_SUCCESS;
			w->failures += zexMemPutIpcHandles(w->l->ctx, n, h) != ZE_RESULT_SUCCESS;
		}
		w->failures += zeMemFree(w->l->ctx, p) != ZE_RESULT_SUCCESS;
	}
	return NULL;
}

TEST(sixteen_threads)
{
	struct worker w[16];
	pthread_t t[16];
	struct l0 l;
	int i;

	ASSERT_EQ(0, l0_open(&l));
	for (i = 0; i < 16; i++) {
		w[i] = (struct worker){ .l = &l, .seed = i * 100 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (i = 0; i < 16; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		EXPECT_EQ(0, w[i].failures) TH_LOG("thread %d", i);
	}
	EXPECT_EQ(0, zex_tiles_usage());
}

ZEX_SELFTEST_MAIN
