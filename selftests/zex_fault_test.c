// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_fault_test.c - kselftest of zex's error paths under fault injection
 *
 * Uses the kernel's per-task fault injection (/proc/thread-self/fail-nth,
 * with failslab and fail_page_alloc told not to spare sleeping allocations)
 * to make the 1st, 2nd, 3rd, ... allocation of an ioctl fail, until the
 * ioctl runs through without reaching the injected fault. Every injected
 * failure must return a clean error and leave nothing behind: no handle,
 * no tile memory charged; the kmemleak scan at the end of the VM run
 * catches anything an error path forgot to free. Skips (KSFT_SKIP) on a
 * kernel without fault injection, such as the stock Debian kernel (the
 * debug layer requires every test here to run).
 *
 * Every ioctl of the DRM file and of hostrpc views, and every file
 * operation (open, mmap and the faults behind it, read, poll), is swept;
 * operations that allocate nothing must run through at the first fault
 * armed, which the sweep checks as well. What the engines allocate in
 * their own workers as jobs run, which no task's fail-nth reaches, is
 * swept the same way through zex's fault attribute
 * (debugfs zex/fail_engine_alloc: its space makes the n-th fail).
 */

#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/mman.h>

#include "zex_exec.h"

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define MAX_SWEEP	2000

static bool fault_injection_ready(void)
{
	static const char *const knobs[][2] = {
		{ "/sys/kernel/debug/failslab/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/failslab/verbose", "0" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "/sys/kernel/debug/fail_page_alloc/verbose", "0" },
	};
	unsigned int i;

	if (access(FAIL_NTH, W_OK))
		return false;
	for (i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++)
		if (zex_sysfs_write(knobs[i][0], knobs[i][1]))
			return false;
	return true;
}

/* Arm the n-th fault site of this thread; 0 disarms. */
static int fail_nth_arm(unsigned int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", n);
	return zex_sysfs_write(FAIL_NTH, buf);
}

/* True when the armed fault was reached (the counter ran down to 0). */
static bool fail_nth_fired(void)
{
	long long left = zex_sysfs_u64(FAIL_NTH);

	fail_nth_arm(0);
	return left == 0;
}

FIXTURE(fault) {
	int fd;
	bool ready;
};

FIXTURE_SETUP(fault)
{
	self->fd = zex_open_render();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, zex_tiles_usage());
	self->ready = fault_injection_ready();
}

FIXTURE_TEARDOWN(fault)
{
	close(self->fd);
}

/*
 * The 6.1 harness runs the test body even after SKIP() in FIXTURE_SETUP,
 * so each test checks for itself.
 */
#define REQUIRE_FAULT_INJECTION() do {					\
	if (!self->ready)						\
		SKIP(return, "kernel without fault injection (fail-nth, failslab)"); \
} while (0)

TEST_F(fault, bo_create)
{
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_bo_create c = { .size = 65536, .placement = 0 };
		struct drm_gem_close gc = { 0 };
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			gc.handle = c.handle;
			ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
			break;
		}
		injected++;
		if (!ret) {
			/* The fault hit something that may fail silently. */
			gc.handle = c.handle;
			ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
		} else {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		}
		ASSERT_EQ(0, zex_tiles_usage()) TH_LOG("fault %u left memory charged", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	TH_LOG("%u allocation faults injected", injected);
	EXPECT_LT(0, injected);
}

TEST_F(fault, bo_mmap_offset_and_map)
{
	struct drm_zex_bo_create c = { .size = 8192, .placement = 0 };
	struct drm_gem_close gc = { 0 };
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_CREATE, &c));
	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_bo_mmap_offset m = { .handle = c.handle };
		int ret;
		void *p;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_BO_MMAP_OFFSET, &m);
		p = ret ? MAP_FAILED : mmap(NULL, 8192, PROT_READ | PROT_WRITE,
					    MAP_SHARED, self->fd, (off_t)m.offset);
		if (p != MAP_FAILED)
			((volatile char *)p)[0] = 1;	/* fault a page in */
		if (!fail_nth_fired()) {
			ASSERT_NE(MAP_FAILED, p);
			munmap(p, 8192);
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		if (p != MAP_FAILED)
			munmap(p, 8192);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
	gc.handle = c.handle;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_GEM_CLOSE, &gc));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(fault, query)
{
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	for (n = 1; n < MAX_SWEEP; n++) {
		unsigned char buf[4096];
		struct drm_zex_query q = {
			.query = DRM_ZEX_QUERY_ENGINES,
			.size = sizeof(buf),
			.data = (uintptr_t)buf,
		};
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &q);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
}

TEST_F(fault, export_and_import)
{
	unsigned int n, injected = 0;
	uint64_t size = 4 * 65536 * (uint64_t)zex_param("tiles");
	uint32_t h;

	REQUIRE_FAULT_INJECTION();

	ASSERT_EQ(0, raw_bo_create(self->fd, size, DRM_ZEX_DEVICE_ROOT, &h, NULL));
	for (n = 1; n < MAX_SWEEP; n++) {
		int fds[DRM_ZEX_MAX_TILES], before = zex_count_fds(), got, i, ret;
		uint32_t ih = 0;

		ASSERT_EQ(0, fail_nth_arm(n));
		got = raw_bo_export(self->fd, h, fds, DRM_ZEX_MAX_TILES);
		ret = got < 0 ? got : raw_bo_import(self->fd, fds, (uint32_t)got, 0, &ih, NULL);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			for (i = 0; i < got; i++)
				close(fds[i]);
			ASSERT_EQ(0, raw_bo_close(self->fd, ih));
			break;
		}
		injected++;
		if (ret)
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		if (!ret)
			ASSERT_EQ(0, raw_bo_close(self->fd, ih));
		for (i = 0; got > 0 && i < got; i++)
			close(fds[i]);
		/* A failed export installed no fd. */
		ASSERT_EQ(before, zex_count_fds()) TH_LOG("fault %u", n);
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
	ASSERT_EQ(0, raw_bo_close(self->fd, h));
	EXPECT_EQ(0, zex_tiles_usage());
}

TEST_F(fault, open_and_close)
{
	const char *node = NULL;
	char path[64];
	unsigned int n, injected = 0;
	int fd;

	REQUIRE_FAULT_INJECTION();

	/* The node this fixture's fd has open. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", self->fd);
	node = realpath(path, NULL);
	ASSERT_NE(NULL, node);
	for (n = 1; n < MAX_SWEEP; n++) {
		ASSERT_EQ(0, fail_nth_arm(n));
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (!fail_nth_fired()) {
			ASSERT_LE(0, fd);
			close(fd);
			break;
		}
		injected++;
		if (fd >= 0)
			close(fd);
		else
			ASSERT_EQ(ENOMEM, errno) TH_LOG("fault %u", n);
	}
	free((void *)node);
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
}

/*
 * The generic sweep: what one operation does, how to undo it when it
 * succeeded, and the state that must be the same after every failure.
 */
struct sweep_ctx {
	int fd;			/* the DRM file */
	int view;		/* a host view, when the operation needs one */
	int dview;		/* a device view */
	uint32_t handle;	/* a buffer object */
	uint32_t id;		/* a mapping made by the operation */
	int newfd;		/* a descriptor made by the operation */
	void *map;		/* a mapping made by the operation */
	size_t map_size;
	void *host;		/* host memory for imports */
};

typedef int (*sweep_op)(struct sweep_ctx *c);
typedef void (*sweep_undo)(struct sweep_ctx *c);

#define LIVE_CHANNELS	"/sys/kernel/debug/zex/hostrpc_channels"
#define SWEEP_VA	0x100000000000ull

struct sweep_state {
	long long tiles, channels;
	int fds;
};

static struct sweep_state sweep_state(void)
{
	return (struct sweep_state){
		.tiles = zex_tiles_usage(),
		.channels = zex_sysfs_u64(LIVE_CHANNELS),
		.fds = zex_count_fds(),
	};
}

/*
 * Fail the 1st, 2nd, ... allocation of @op until it runs through. Each
 * failure must be -ENOMEM (or what @op maps it to) and leave the state
 * as it was. Returns how many faults made @op fail: a fault may also hit
 * an allocation that is allowed to fail quietly (6.12's debug kernel
 * allocates for its own bookkeeping on paths where 6.1 did not), which
 * must leave @op's result and the state as they are.
 */
static unsigned int sweep(struct __test_metadata *_metadata, struct sweep_ctx *c,
			  sweep_op op, sweep_undo undo, int fail_errno)
{
	struct sweep_state before = sweep_state(), after;
	unsigned int n, failed = 0;

	for (n = 1; n < MAX_SWEEP; n++) {
		int ret;

		if (fail_nth_arm(n))
			break;
		ret = op(c);
		if (!fail_nth_fired()) {
			EXPECT_EQ(0, ret) TH_LOG("without a fault");
			if (!ret && undo)
				undo(c);
			break;
		}
		if (!ret) {
			/* The fault hit something that may fail silently. */
			if (undo)
				undo(c);
		} else {
			failed++;
			EXPECT_EQ(fail_errno, ret) TH_LOG("fault %u", n);
		}
		after = sweep_state();
		EXPECT_EQ(before.tiles, after.tiles) TH_LOG("fault %u left memory charged", n);
		EXPECT_EQ(before.channels, after.channels) TH_LOG("fault %u left a channel", n);
		EXPECT_EQ(before.fds, after.fds) TH_LOG("fault %u left a descriptor", n);
	}
	EXPECT_GT(MAX_SWEEP, n);
	return failed;
}

static int op_bo_info(struct sweep_ctx *c)
{
	struct drm_zex_piece_info pieces[DRM_ZEX_MAX_PIECES];
	struct drm_zex_bo_info i = {
		.handle = c->handle, .num_pieces = DRM_ZEX_MAX_PIECES,
		.pieces = (uintptr_t)pieces,
	};

	return zex_ioctl(c->fd, DRM_IOCTL_ZEX_BO_INFO, &i);
}

static int op_userptr_import(struct sweep_ctx *c)
{
	struct drm_zex_userptr_import im = { .addr = (uintptr_t)c->host, .size = 16 * 4096 };
	int ret = zex_ioctl(c->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im);

	c->id = im.id;
	return ret;
}

static int op_userptr_mirror(struct sweep_ctx *c)
{
	struct drm_zex_userptr_import im = {
		.addr = (uintptr_t)c->host, .size = 16 * 4096, .flags = DRM_ZEX_USERPTR_MIRROR,
	};
	int ret = zex_ioctl(c->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im);

	c->id = im.id;
	return ret;
}

static int op_vm_bind(struct sweep_ctx *c)
{
	struct drm_zex_vm_bind b = { .handle = c->handle, .va = SWEEP_VA };
	int ret = zex_ioctl(c->fd, DRM_IOCTL_ZEX_VM_BIND, &b);

	c->id = b.id;
	return ret;
}

static void undo_mapping(struct sweep_ctx *c)
{
	struct drm_zex_vm_unbind u = { .id = c->id };

	zex_ioctl(c->fd, DRM_IOCTL_ZEX_VM_UNBIND, &u);
}

/* Unbind what op_vm_bind() made, then bind it again (the undo). */
static int op_vm_unbind(struct sweep_ctx *c)
{
	struct drm_zex_vm_unbind u = { .id = c->id };

	return zex_ioctl(c->fd, DRM_IOCTL_ZEX_VM_UNBIND, &u);
}

static void undo_unbind(struct sweep_ctx *c)
{
	fail_nth_arm(0);
	op_vm_bind(c);
}

static int op_copy(struct sweep_ctx *c)
{
	struct drm_zex_copy cp = {
		.src = SWEEP_VA, .dst = SWEEP_VA + 8 * 4096 + 3, .len = 4 * 4096,
	};

	return zex_ioctl(c->fd, DRM_IOCTL_ZEX_COPY, &cp);
}

static int op_hostrpc_create(struct sweep_ctx *c)
{
	struct drm_zex_hostrpc_create cr = { .nslots = 64, .flags = DRM_ZEX_HOSTRPC_CLOEXEC };
	int ret = zex_ioctl(c->fd, DRM_IOCTL_ZEX_HOSTRPC_CREATE, &cr);

	c->newfd = cr.fd;
	return ret;
}

static void undo_close(struct sweep_ctx *c)
{
	close(c->newfd);
}

static int op_open_view(struct sweep_ctx *c)
{
	struct drm_zex_hostrpc_open_view o = {
		.role = DRM_ZEX_HOSTRPC_ROLE_DEVICE, .flags = DRM_ZEX_HOSTRPC_CLOEXEC,
	};
	int ret = zex_ioctl(c->view, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o);

	c->newfd = o.fd;
	return ret;
}

static int op_view_requests(struct sweep_ctx *c)
{
	struct drm_zex_hostrpc_wait w = { .slot = 0, .value = 1, .timeout_ns = 0 };
	struct drm_zex_hostrpc_eventfd e = { .fd = c->newfd };
	struct drm_zex_hostrpc_info info;
	struct pollfd p = { .fd = c->view, .events = POLLIN };
	uint64_t rings;
	int ret;

	ret = zex_ioctl(c->view, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info);
	ret = ret ?: zex_ioctl(c->dview, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL);
	ret = ret ?: zex_ioctl(c->view, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL);
	ret = ret ?: zex_ioctl(c->dview, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &w);
	ret = ret ?: zex_ioctl(c->view, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e);
	e.fd = -1;
	ret = ret ?: zex_ioctl(c->view, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e);
	if (!ret && poll(&p, 1, 0) != 1)
		ret = -EIO;
	if (!ret && read(c->view, &rings, sizeof(rings)) != sizeof(rings))
		ret = -errno;
	return ret;
}

/* mmap() @fd and fault every page in (writing when @write). */
static int map_and_touch(struct sweep_ctx *c, int fd, bool write)
{
	volatile uint8_t *p;
	size_t i;

	p = mmap(NULL, c->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	for (i = 0; i < c->map_size; i += 4096)
		if (write)
			p[i] = 1;
		else
			(void)p[i];
	c->map = (void *)p;
	return 0;
}

static int op_view_mmap(struct sweep_ctx *c)
{
	return map_and_touch(c, c->view, false);
}

static int op_dmabuf_mmap(struct sweep_ctx *c)
{
	return map_and_touch(c, c->newfd, true);
}

static void undo_unmap(struct sweep_ctx *c)
{
	munmap(c->map, c->map_size);
}

TEST_F(fault, bo_info)
{
	struct sweep_ctx c = { .fd = self->fd };

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, raw_bo_create(self->fd, 65536, DRM_ZEX_DEVICE_ROOT, &c.handle, NULL));
	EXPECT_LT(0, sweep(_metadata, &c, op_bo_info, NULL, -ENOMEM));
	EXPECT_EQ(0, raw_bo_close(self->fd, c.handle));
}

TEST_F(fault, userptr_import_and_release)
{
	struct sweep_ctx c = { .fd = self->fd };

	REQUIRE_FAULT_INJECTION();
	c.host = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c.host);
	memset(c.host, 1, 16 * 4096);
	EXPECT_LT(0, sweep(_metadata, &c, op_userptr_import, undo_mapping, -ENOMEM));
	/* A mirror import: its record, leaf list, notifier, tables, fill list. */
	EXPECT_LT(0, sweep(_metadata, &c, op_userptr_mirror, undo_mapping, -ENOMEM));
	munmap(c.host, 16 * 4096);
}

TEST_F(fault, vm_bind_unbind_and_copy)
{
	struct sweep_ctx c = { .fd = self->fd };

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, raw_bo_create(self->fd, 65536, 0, &c.handle, NULL));
	EXPECT_LT(0, sweep(_metadata, &c, op_vm_bind, undo_mapping, -ENOMEM));
	/* Unbinding and copying allocate nothing that can fail them. */
	ASSERT_EQ(0, op_vm_bind(&c));
	EXPECT_EQ(0, sweep(_metadata, &c, op_copy, NULL, -ENOMEM));
	EXPECT_EQ(0, sweep(_metadata, &c, op_vm_unbind, undo_unbind, -ENOMEM));
	undo_mapping(&c);
	EXPECT_EQ(0, raw_bo_close(self->fd, c.handle));
}

TEST_F(fault, hostrpc_create)
{
	struct sweep_ctx c = { .fd = self->fd };

	REQUIRE_FAULT_INJECTION();
	EXPECT_LT(0, sweep(_metadata, &c, op_hostrpc_create, undo_close, -ENOMEM));
}

TEST_F(fault, hostrpc_views_requests_and_mappings)
{
	struct drm_zex_hostrpc_create cr = { .nslots = 8, .flags = DRM_ZEX_HOSTRPC_CLOEXEC };
	struct drm_zex_hostrpc_open_view o = {
		.role = DRM_ZEX_HOSTRPC_ROLE_DEVICE, .flags = DRM_ZEX_HOSTRPC_CLOEXEC,
	};
	struct sweep_ctx c = { .fd = self->fd };

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_HOSTRPC_CREATE, &cr));
	ASSERT_EQ(0, zex_ioctl(cr.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o));
	c.view = cr.fd;
	c.dview = o.fd;
	c.map_size = cr.map_size;
	EXPECT_LT(0, sweep(_metadata, &c, op_open_view, undo_close, -ENOMEM));
	c.newfd = eventfd(0, EFD_CLOEXEC);
	ASSERT_LE(0, c.newfd);
	EXPECT_EQ(0, sweep(_metadata, &c, op_view_requests, NULL, -ENOMEM));
	close(c.newfd);
	/* The mmap() syscall itself allocates (the VMA). */
	EXPECT_LT(0, sweep(_metadata, &c, op_view_mmap, undo_unmap, -ENOMEM));
	close(c.dview);
	close(c.view);
}

TEST_F(fault, dma_buf_mmap_and_fault)
{
	struct sweep_ctx c = { .fd = self->fd, .map_size = 65536 };
	uint32_t h;

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, raw_bo_create(self->fd, 65536, 0, &h, NULL));
	ASSERT_EQ(1, raw_bo_export(self->fd, h, &c.newfd, 1));
	EXPECT_LT(0, sweep(_metadata, &c, op_dmabuf_mmap, undo_unmap, -ENOMEM));
	close(c.newfd);
	EXPECT_EQ(0, raw_bo_close(self->fd, h));
}

TEST_F(fault, exec_queue_create)
{
	unsigned int n, injected = 0;

	REQUIRE_FAULT_INJECTION();

	for (n = 1; n < MAX_SWEEP; n++) {
		uint32_t id = 0;
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &id);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			ASSERT_EQ(0, queue_destroy(self->fd, id));
			break;
		}
		injected++;
		if (!ret) {
			ASSERT_EQ(0, queue_destroy(self->fd, id));
		} else {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		}
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
}

/* A job touching a bound piece (implicit sync), signalling a timeline point and a user fence. */
TEST_F(fault, exec)
{
	struct drm_zex_vm_bind bind = { 0 };
	unsigned int n, injected = 0;
	uint8_t *bo_va = (uint8_t *)0x200000000000ull;
	const uint8_t pat = 7;
	uint32_t q, bo, tl;
	uint64_t *mem;

	REQUIRE_FAULT_INJECTION();

	mem = dev_alloc(self->fd, 4096, NULL);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &q));
	ASSERT_EQ(0, raw_bo_create(self->fd, 65536, 0, &bo, NULL));
	bind.handle = bo;
	bind.va = (uintptr_t)bo_va;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &bind));
	ASSERT_EQ(0, syncobj_create(self->fd, &tl));
	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_command cmds[] = { cmd_fill(bo_va, 65536, &pat, 1),
						  cmd_copy(bo_va, &mem[8], 64) };
		struct drm_zex_sync s[] = { sync_out(tl, n), sync_user_fence(&mem[0], n) };
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = exec(self->fd, q, cmds, 2, s, 2);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			ASSERT_EQ(0, wait_ufence(self->fd, &mem[0], DRM_ZEX_COMPARE_EQ, n, -1, NULL));
			ASSERT_EQ(0, syncobj_wait(self->fd, tl, n, -1));
			break;
		}
		injected++;
		if (!ret) {
			ASSERT_EQ(0, wait_ufence(self->fd, &mem[0], DRM_ZEX_COMPARE_EQ, n, -1,
						 NULL));
		} else {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault %u", n);
		}
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(0, injected);
	EXPECT_EQ(pat, ((uint8_t *)mem)[64]);
	EXPECT_EQ(0, queue_destroy(self->fd, q));
}

/* The wait allocates nothing itself; a fault in what it calls fails it cleanly. */
TEST_F(fault, wait_user_fence)
{
	unsigned int n;
	uint64_t *mem;

	REQUIRE_FAULT_INJECTION();

	mem = dev_alloc(self->fd, 4096, NULL);
	ASSERT_NE(NULL, mem);
	mem[0] = 3;
	for (n = 1; n < MAX_SWEEP; n++) {
		int ret;

		ASSERT_EQ(0, fail_nth_arm(n));
		ret = wait_ufence(self->fd, &mem[0], DRM_ZEX_COMPARE_EQ, 3, 0, NULL);
		if (!fail_nth_fired()) {
			ASSERT_EQ(0, ret);
			break;
		}
		ASSERT_TRUE(ret == 0 || ret == -ENOMEM || ret == -EFAULT) TH_LOG("fault %u: %d", n, ret);
	}
	ASSERT_GT(MAX_SWEEP, n);
}

#define ENGINE_FAIL	"/sys/kernel/debug/zex/fail_engine_alloc"

/* Fail the n-th allocation an engine makes from now on (0: none). */
static int engine_fail_arm(unsigned int n)
{
	char buf[16];
	int ret = zex_sysfs_write(ENGINE_FAIL "/probability", "0");

	if (ret || !n)
		return ret;
	snprintf(buf, sizeof(buf), "%u", n);
	ret = zex_sysfs_write(ENGINE_FAIL "/verbose", "0") ||
	      zex_sysfs_write(ENGINE_FAIL "/space", buf) ||
	      zex_sysfs_write(ENGINE_FAIL "/times", "1");
	return ret ? ret : zex_sysfs_write(ENGINE_FAIL "/probability", "100");
}

/* Whether the armed fault fired (its one time was used), disarming it. */
static bool engine_fail_fired(void)
{
	long long times = zex_sysfs_u64(ENGINE_FAIL "/times");

	engine_fail_arm(0);
	return times == 0;
}

/*
 * A job on the root compute queue copying from a mirror import into an
 * object coloured over the tiles: a hardware fence, the split of the
 * copy, each part, the mirror's frame list. A job whose allocation fails
 * ends with -ENOMEM on its fence (its queue banned, when it had started);
 * the sweep goes on until a job runs through, and copies what it should.
 */
TEST_F(fault, engine_allocations)
{
	const uint64_t size = 256 * 1024;
	struct drm_zex_userptr_import imp = { .size = size, .flags = DRM_ZEX_USERPTR_MIRROR };
	struct drm_zex_vm_bind bind = { 0 };
	uint8_t *bo_va = (uint8_t *)0x300000000000ull, *src, *dst;
	unsigned int n, injected = 0;
	uint32_t q, bo;
	uint64_t sz;

	REQUIRE_FAULT_INJECTION();
	ASSERT_EQ(0, access(ENGINE_FAIL "/space", W_OK)) TH_LOG("no zex/fail_engine_alloc");

	src = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, src);
	zex_fill(src, size, 11);
	imp.addr = (uintptr_t)src;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_USERPTR_IMPORT, &imp));
	ASSERT_EQ(0, raw_bo_create_coloured(self->fd, size, 1, 64, &bo, &sz));
	bind.handle = bo;
	bind.va = (uintptr_t)bo_va;
	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_VM_BIND, &bind));
	dst = raw_bo_map(self->fd, bo, sz);
	ASSERT_NE(MAP_FAILED, dst);
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, DRM_ZEX_DEVICE_ROOT,
				  &q));
	for (n = 1; n < MAX_SWEEP; n++) {
		struct drm_zex_command c = cmd_copy(src, bo_va, size);
		struct drm_zex_exec_queue_get_state st;
		struct drm_zex_sync s;
		uint32_t out;
		int status;

		/* A page the host maps anew: the mirror faults it in again. */
		madvise(src, 4096, MADV_DONTNEED);
		zex_fill(src, size, 11 + n);
		ASSERT_EQ(0, syncobj_create(self->fd, &out));
		s = sync_out(out, 0);
		ASSERT_EQ(0, engine_fail_arm(n));
		ASSERT_EQ(0, exec(self->fd, q, &c, 1, &s, 1));
		ASSERT_EQ(0, syncobj_wait(self->fd, out, 0, -1));
		status = syncobj_status(self->fd, out);
		if (!engine_fail_fired()) {
			ASSERT_EQ(1, status);
			EXPECT_TRUE(zex_same(dst, size, 11 + n));
			break;
		}
		injected++;
		EXPECT_EQ(-ENOMEM, status) TH_LOG("fault %u", n);
		ASSERT_EQ(0, queue_state(self->fd, q, &st));
		if (st.state) {
			EXPECT_EQ(-ENOMEM, st.error);
			ASSERT_EQ(0, queue_destroy(self->fd, q));
			ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0,
						  DRM_ZEX_DEVICE_ROOT, &q));
		}
	}
	ASSERT_GT(MAX_SWEEP, n);
	EXPECT_LT(zex_implicit_scaling() ? 3 : 1, injected);
	EXPECT_EQ(0, queue_destroy(self->fd, q));
	munmap(dst, sz);
	munmap(src, size);
}

ZEX_SELFTEST_MAIN
