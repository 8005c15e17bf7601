// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_hostrpc_test.c - the hostrpc channel's kernel ABI, raw
 *
 * Creation and its limits, the mmap layout (shared control page and slot
 * pages, each side's own private words), views and their rules, the
 * doorbell (ring, read, poll, eventfd, the wait ioctl arming and being
 * woken), death (the last host view: dead flag, -EPIPE everywhere on the
 * device side, sleepers woken; a host view's T words released; a device
 * view's slots finished by the kernel's reaper in every state) and every
 * bad input. Each way of closing views and mappings frees the channel
 * (debugfs counts live channels).
 */

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>

#include "zex_selftest.h"

#define LIVE_CHANNELS	"/sys/kernel/debug/zex/hostrpc_channels"

struct view {
	int fd;
	struct drm_zex_hostrpc_info info;
	volatile struct drm_zex_hostrpc_control *ctl;
	volatile struct drm_zex_hostrpc_private *priv;
	volatile uint8_t *slots;
	void *map;
};

static int hr_create(int drm, uint32_t nslots, uint32_t flags, struct drm_zex_hostrpc_create *c)
{
	*c = (struct drm_zex_hostrpc_create){ .nslots = nslots, .flags = flags };
	return zex_ioctl(drm, DRM_IOCTL_ZEX_HOSTRPC_CREATE, c);
}

static int hr_view_map(int fd, struct view *v)
{
	v->fd = fd;
	if (zex_ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &v->info))
		return -1;
	v->map = mmap(NULL, v->info.map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (v->map == MAP_FAILED)
		return -1;
	v->ctl = v->map;
	v->priv = (void *)((char *)v->map + DRM_ZEX_HOSTRPC_PRIVATE_OFFSET);
	v->slots = (uint8_t *)v->map + DRM_ZEX_HOSTRPC_SLOTS_OFFSET;
	return 0;
}

static void hr_view_close(struct view *v)
{
	munmap(v->map, v->info.map_size);
	close(v->fd);
}

static int hr_open_view(int fd, uint32_t role, struct drm_zex_hostrpc_open_view *o)
{
	*o = (struct drm_zex_hostrpc_open_view){ .role = role, .flags = DRM_ZEX_HOSTRPC_CLOEXEC };
	return zex_ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, o);
}

/* Open a view of @role from view @fd and map it. */
static int hr_add_view(int fd, uint32_t role, struct view *v)
{
	struct drm_zex_hostrpc_open_view o;

	if (hr_open_view(fd, role, &o))
		return -1;
	return hr_view_map(o.fd, v);
}

static int hr_wait(int fd, uint32_t slot, uint32_t value, int64_t timeout)
{
	struct drm_zex_hostrpc_wait w = { .slot = slot, .value = value, .timeout_ns = timeout };

	return zex_ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &w);
}

static int hr_ring(int fd)
{
	return zex_ioctl(fd, DRM_ZEX_HOSTRPC_IOCTL_RING, NULL);
}

static long long hr_read(int fd)
{
	uint64_t v;
	ssize_t n = read(fd, &v, sizeof(v));

	return n == sizeof(v) ? (long long)v : -errno;
}

/* The ring a peer makes: take the other side's arming, then ring. */
static bool ring_if_armed(int fd, volatile __u32 *armed)
{
	__u32 one = 1;

	if (!__atomic_compare_exchange_n(armed, &one, 0, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return false;
	return hr_ring(fd) == 0;
}

/* Poll @cond for up to 5 s (the reaper runs from a workqueue). */
#define EVENTUALLY(cond) ({					\
	int64_t __end = zex_now_ns() + 5000000000ll;		\
	bool __ok;						\
	while (!(__ok = (cond)) && zex_now_ns() < __end)		\
		usleep(1000);					\
	__ok;							\
})

FIXTURE(hostrpc) {
	int drm;
};

FIXTURE_SETUP(hostrpc)
{
	self->drm = zex_open_render();
	ASSERT_LE(0, self->drm);
}

FIXTURE_TEARDOWN(hostrpc)
{
	close(self->drm);
}

TEST_F(hostrpc, create_checks_every_field)
{
	struct drm_zex_hostrpc_create c;
	long long cap = zex_param("hostrpc_max_slots");

	ASSERT_LT(0, cap);
	EXPECT_EQ(-EINVAL, hr_create(self->drm, 0, 0, &c));
	EXPECT_EQ(-E2BIG, hr_create(self->drm, (uint32_t)cap + 1, 0, &c));
	EXPECT_EQ(-E2BIG, hr_create(self->drm, DRM_ZEX_HOSTRPC_MAX_SLOTS + 1, 0, &c));
	EXPECT_EQ(-E2BIG, hr_create(self->drm, 0xffffffffu, 0, &c));
	EXPECT_EQ(-EINVAL, hr_create(self->drm, 1, 0x2, &c));
	EXPECT_EQ(-EINVAL, hr_create(self->drm, 1, 0x80000000u, &c));
	c = (struct drm_zex_hostrpc_create){ .nslots = 1, .reserved = { 0, 1 } };
	EXPECT_EQ(-EINVAL, zex_ioctl(self->drm, DRM_IOCTL_ZEX_HOSTRPC_CREATE, &c));

	/* The cap itself is fine, and CLOEXEC is honoured. */
	ASSERT_EQ(0, hr_create(self->drm, (uint32_t)cap, DRM_ZEX_HOSTRPC_CLOEXEC, &c));
	EXPECT_EQ(FD_CLOEXEC, fcntl(c.fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_MAP_SIZE(cap), c.map_size);
	EXPECT_LE(2u, c.view_id);
	close(c.fd);
	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	EXPECT_EQ(0, fcntl(c.fd, F_GETFD) & FD_CLOEXEC);
	close(c.fd);
}

TEST_F(hostrpc, layout_and_mmap_rules)
{
	struct drm_zex_hostrpc_create c;
	struct view host;
	size_t size;
	void *p;

	ASSERT_EQ(0, hr_create(self->drm, 3, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	EXPECT_EQ(3u, host.info.nslots);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_ROLE_HOST, host.info.role);
	EXPECT_EQ(c.view_id, host.info.view_id);
	EXPECT_EQ(0u, host.info.flags);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_SLOTS_OFFSET + 3 * 4096ull, host.info.map_size);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_MAGIC, host.ctl->magic);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_VERSION, host.ctl->version);
	EXPECT_EQ(3u, host.ctl->nslots);
	EXPECT_EQ(host.info.map_size, host.ctl->map_size);
	EXPECT_EQ(0u, host.ctl->host_armed);
	EXPECT_EQ(0u, host.ctl->dead);
	EXPECT_EQ(0u, host.priv->owner[0]);
	/* The last slot page is writable; nothing lies past it. */
	host.slots[3 * 4096 - 1] = 0x5a;
	EXPECT_EQ(0x5a, host.slots[3 * 4096 - 1]);

	size = host.info.map_size;
	p = mmap(NULL, size - 4096, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, size + 4096, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd, 4096);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, c.fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* A second mapping of the same view sees the same memory. */
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, c.fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0x5a, ((uint8_t *)p)[DRM_ZEX_HOSTRPC_SLOTS_OFFSET + 3 * 4096 - 1]);
	munmap(p, size);
	hr_view_close(&host);
}

TEST_F(hostrpc, each_side_maps_its_own_private_words)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct view host, dev, dev2;

	ASSERT_EQ(0, hr_create(self->drm, 2, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	ASSERT_EQ(0, hr_view_map(o.fd, &dev));
	EXPECT_EQ(DRM_ZEX_HOSTRPC_ROLE_DEVICE, dev.info.role);
	EXPECT_EQ(o.view_id, dev.info.view_id);
	EXPECT_NE(host.info.view_id, dev.info.view_id);
	/* A device view opens device views, with fresh ids. */
	ASSERT_EQ(0, hr_add_view(dev.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &dev2));
	EXPECT_NE(dev.info.view_id, dev2.info.view_id);

	dev.priv->owner[1] = dev.info.view_id;		/* W */
	host.priv->owner[1] = host.info.view_id;	/* T */
	EXPECT_EQ(dev.info.view_id, dev2.priv->owner[1]);
	EXPECT_EQ(host.info.view_id, host.priv->owner[1]);
	EXPECT_EQ(dev.info.view_id, dev.priv->owner[1]);
	/* Control page and slot pages are shared by every view. */
	dev.ctl->request[1] = 2;
	dev.slots[4096 + 7] = 0xa5;
	EXPECT_EQ(2u, host.ctl->request[1]);
	EXPECT_EQ(0xa5, host.slots[4096 + 7]);
	host.ctl->answer[1] = 2;
	EXPECT_EQ(2u, dev2.ctl->answer[1]);
	hr_view_close(&dev2);
	hr_view_close(&dev);
	hr_view_close(&host);
}

/*
 * What registering a view with a GPU runtime needs (cudaHostRegister and
 * the like pin the pages long-term): a zex userptr import of a device
 * view's slot pages pins them (FOLL_LONGTERM) and maps them for the
 * device, and the device then reads what the host side wrote through its
 * own view.
 */
TEST_F(hostrpc, a_views_slot_pages_can_be_pinned_long_term)
{
	const size_t len = 2 * 4096;
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct view host, dev;
	struct drm_zex_userptr_import im = { 0 }, scratch_im = { 0 };
	struct drm_zex_copy cp = { 0 };
	struct drm_zex_vm_unbind un = { 0 };
	uint8_t *scratch;
	size_t i;

	ASSERT_EQ(0, hr_create(self->drm, 2, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	ASSERT_EQ(0, hr_view_map(o.fd, &dev));
	for (i = 0; i < len; i++)
		host.slots[i] = (uint8_t)(i * 7 + 3);

	im.addr = (uintptr_t)dev.slots;
	im.size = len;
	ASSERT_EQ(0, zex_ioctl(self->drm, DRM_IOCTL_ZEX_USERPTR_IMPORT, &im));
	scratch = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, scratch);
	memset(scratch, 0, len);
	scratch_im.addr = (uintptr_t)scratch;
	scratch_im.size = len;
	ASSERT_EQ(0, zex_ioctl(self->drm, DRM_IOCTL_ZEX_USERPTR_IMPORT, &scratch_im));
	cp.src = (uintptr_t)dev.slots;
	cp.dst = (uintptr_t)scratch;
	cp.len = len;
	ASSERT_EQ(0, zex_ioctl(self->drm, DRM_IOCTL_ZEX_COPY, &cp));
	for (i = 0; i < len; i++)
		if (scratch[i] != (uint8_t)(i * 7 + 3))
			break;
	EXPECT_EQ(len, i);

	un.id = scratch_im.id;
	EXPECT_EQ(0, zex_ioctl(self->drm, DRM_IOCTL_ZEX_VM_UNBIND, &un));
	un.id = im.id;
	EXPECT_EQ(0, zex_ioctl(self->drm, DRM_IOCTL_ZEX_VM_UNBIND, &un));
	munmap(scratch, len);
	hr_view_close(&dev);
	hr_view_close(&host);
}

TEST_F(hostrpc, open_view_rules)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;

	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	EXPECT_EQ(FD_CLOEXEC, fcntl(o.fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(-EPERM, hr_open_view(o.fd, DRM_ZEX_HOSTRPC_ROLE_HOST, &o));
	EXPECT_EQ(-EINVAL, hr_open_view(c.fd, 2, &o));
	o = (struct drm_zex_hostrpc_open_view){ .role = 0, .flags = 2 };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o));
	o = (struct drm_zex_hostrpc_open_view){ .role = 0, .reserved = 1 };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, &o));
	/* Host views open host views; unknown ioctls are refused. */
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_HOST, &o));
	close(o.fd);
	EXPECT_EQ(-ENOTTY, zex_ioctl(c.fd, _IO('Z', 0x4f), NULL));
	EXPECT_EQ(-EFAULT, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, (void *)8));
	EXPECT_EQ(-EFAULT, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_OPEN_VIEW, (void *)8));
	close(c.fd);
}

TEST_F(hostrpc, rings_are_counted_read_and_polled)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct drm_zex_hostrpc_info info;
	struct pollfd pfd;
	uint32_t small;
	int flags;

	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	flags = fcntl(c.fd, F_GETFL);
	ASSERT_EQ(0, fcntl(c.fd, F_SETFL, flags | O_NONBLOCK));
	ASSERT_EQ(0, fcntl(o.fd, F_SETFL, flags | O_NONBLOCK));

	EXPECT_EQ(-EAGAIN, hr_read(c.fd));
	pfd = (struct pollfd){ .fd = c.fd, .events = POLLIN };
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	/* Two device rings, one read: coalesced into a count of 2. */
	EXPECT_EQ(0, hr_ring(o.fd));
	EXPECT_EQ(0, hr_ring(o.fd));
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN, pfd.revents);
	EXPECT_EQ(-EINVAL, read(c.fd, &small, sizeof(small)) < 0 ? -errno : 0);
	EXPECT_EQ(2, hr_read(c.fd));
	EXPECT_EQ(-EAGAIN, hr_read(c.fd));
	/* The device side did not get them; a host ring goes to it. */
	EXPECT_EQ(-EAGAIN, hr_read(o.fd));
	EXPECT_EQ(0, hr_ring(c.fd));
	EXPECT_EQ(1, hr_read(o.fd));
	ASSERT_EQ(0, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(2u, info.host_rings);
	EXPECT_EQ(1u, info.device_rings);
	close(o.fd);
	close(c.fd);
}

struct ring_later {
	int fd;
	pid_t reader;
};

/* Ring once the reader is asleep in read(): the ring must wake it. */
static void *ring_later(void *arg)
{
	struct ring_later *r = arg;

	while (!zex_sleeps_in_syscall(r->reader, SYS_read))
		sched_yield();
	hr_ring(r->fd);
	return NULL;
}

TEST_F(hostrpc, a_blocking_read_wakes_on_a_ring)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct ring_later r;
	pthread_t t;

	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	r.fd = o.fd;
	r.reader = (pid_t)syscall(SYS_gettid);
	ASSERT_EQ(0, pthread_create(&t, NULL, ring_later, &r));
	/* Blocks (the ringer waits to see it asleep), then takes the ring. */
	EXPECT_EQ(1, hr_read(c.fd));
	pthread_join(t, NULL);
	close(o.fd);
	close(c.fd);
}

TEST_F(hostrpc, eventfd_is_signalled_per_ring)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct drm_zex_hostrpc_eventfd e = { .fd = -1 };
	int efd = eventfd(0, EFD_NONBLOCK), pipefd[2];

	ASSERT_LE(0, efd);
	ASSERT_EQ(0, pipe(pipefd));
	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	e.fd = efd;
	ASSERT_EQ(0, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	EXPECT_EQ(0, hr_ring(o.fd));
	EXPECT_EQ(0, hr_ring(o.fd));
	EXPECT_EQ(2, hr_read(efd));
	/* A host ring is for the device side: not signalled. */
	EXPECT_EQ(0, hr_ring(c.fd));
	EXPECT_EQ(-EAGAIN, hr_read(efd));
	/* Unregistered: no more signals. */
	e.fd = -1;
	ASSERT_EQ(0, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	EXPECT_EQ(0, hr_ring(o.fd));
	EXPECT_EQ(-EAGAIN, hr_read(efd));
	/* Bad input. */
	e.fd = pipefd[0];
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	e.fd = 1000000;
	EXPECT_EQ(-EBADF, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	e = (struct drm_zex_hostrpc_eventfd){ .fd = efd, .flags = 1 };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	e = (struct drm_zex_hostrpc_eventfd){ .fd = efd, .reserved = 1 };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	/* The registration holds the eventfd: closing it first is fine. */
	e = (struct drm_zex_hostrpc_eventfd){ .fd = efd };
	ASSERT_EQ(0, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_SET_EVENTFD, &e));
	close(efd);
	EXPECT_EQ(0, hr_ring(c.fd));
	close(pipefd[0]);
	close(pipefd[1]);
	close(o.fd);
	close(c.fd);
}

TEST_F(hostrpc, wait_checks_every_field)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct drm_zex_hostrpc_wait w;
	int64_t soon = zex_now_ns() + 1000000;

	ASSERT_EQ(0, hr_create(self->drm, 4, 0, &c));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	EXPECT_EQ(-EINVAL, hr_wait(o.fd, 4, 1, soon));
	EXPECT_EQ(-EINVAL, hr_wait(o.fd, 0, 1, -1));
	EXPECT_EQ(-EINVAL, hr_wait(c.fd, 1, 0, soon));
	EXPECT_EQ(-EINVAL, hr_wait(c.fd, 0, 1, soon));
	/* Any answer value is a value to wait to move from. */
	EXPECT_EQ(0, hr_wait(o.fd, 0, 0xfffffff0u, soon));
	/* No flags, on either side. */
	w = (struct drm_zex_hostrpc_wait){ .flags = 1, .timeout_ns = soon };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &w));
	EXPECT_EQ(-EINVAL, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &w));
	w = (struct drm_zex_hostrpc_wait){ .pad = 1, .timeout_ns = soon };
	EXPECT_EQ(-EINVAL, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, &w));
	EXPECT_EQ(-EFAULT, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_WAIT, (void *)8));
	close(o.fd);
	close(c.fd);
}

TEST_F(hostrpc, wait_arms_rechecks_and_times_out)
{
	struct drm_zex_hostrpc_create c;
	struct view host, dev;

	ASSERT_EQ(0, hr_create(self->drm, 70, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &dev));

	/* Nothing to do: the host's wait times out, armed. */
	EXPECT_EQ(-ETIME, hr_wait(c.fd, 0, 0, zex_now_ns() + 20000000));
	EXPECT_EQ(1u, host.ctl->host_armed);
	EXPECT_EQ(-ETIME, hr_wait(c.fd, 0, 0, 0));	/* already passed */
	/* Work published (slot 69, the second group): the re-check sees it. */
	dev.ctl->request[69] = 1;
	__atomic_store_n(&dev.ctl->summary[1], 1, __ATOMIC_SEQ_CST);
	EXPECT_EQ(0, hr_wait(c.fd, 0, 0, DRM_ZEX_HOSTRPC_WAIT_FOREVER));
	EXPECT_EQ(0, hr_wait(c.fd, 0, 0, 0));
	/* The device waits for slot 69's answer to move from 0: armed, then satisfied. */
	EXPECT_EQ(-ETIME, hr_wait(dev.fd, 69, 0, zex_now_ns() + 20000000));
	EXPECT_EQ(1u, dev.ctl->device_armed);
	EXPECT_EQ(0, hr_wait(dev.fd, 69, 5, 0));
	__atomic_store_n(&host.ctl->answer[69], 1, __ATOMIC_SEQ_CST);
	EXPECT_EQ(0, hr_wait(dev.fd, 69, 0, DRM_ZEX_HOSTRPC_WAIT_FOREVER));
	/* A server took the summary flag: no work for the host. */
	host.ctl->summary[1] = 0;
	EXPECT_EQ(-ETIME, hr_wait(c.fd, 0, 0, 0));
	hr_view_close(&dev);
	hr_view_close(&host);
}

struct answer_later {
	struct view *host;
	uint32_t slot;
};

/*
 * The host answering as the protocol says, once the device has armed (so
 * the device is in its wait loop, asleep or about to be): set H, take the
 * arming, ring.
 */
static void *answer_later(void *arg)
{
	struct answer_later *a = arg;

	while (!__atomic_load_n(&a->host->ctl->device_armed, __ATOMIC_SEQ_CST))
		sched_yield();
	__atomic_store_n(&a->host->ctl->answer[a->slot], 1, __ATOMIC_SEQ_CST);
	ring_if_armed(a->host->fd, &a->host->ctl->device_armed);
	return NULL;
}

TEST_F(hostrpc, a_device_waiter_is_woken_by_the_hosts_ring)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_info info;
	struct view host, dev;
	struct answer_later a = { .host = &host, .slot = 1 };
	pthread_t t;

	ASSERT_EQ(0, hr_create(self->drm, 2, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &dev));
	ASSERT_EQ(0, pthread_create(&t, NULL, answer_later, &a));
	/* No deadline: a lost wakeup hangs, and the harness fails the test. */
	EXPECT_EQ(0, hr_wait(dev.fd, 1, 0, DRM_ZEX_HOSTRPC_WAIT_FOREVER));
	pthread_join(t, NULL);
	ASSERT_EQ(0, zex_ioctl(dev.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(1u, info.device_rings);
	/*
	 * device_armed may be 1 again: a delivery re-arms for a waiter still
	 * on the queue, and this one may still be leaving it. That costs a
	 * spare ring later, never a lost one.
	 */
	hr_view_close(&dev);
	hr_view_close(&host);
}

/* Close the last host view once the device side has armed to sleep. */
static void *close_later(void *arg)
{
	struct view *v = arg;

	while (!__atomic_load_n(&v->ctl->device_armed, __ATOMIC_SEQ_CST))
		sched_yield();
	hr_view_close(v);
	return NULL;
}

TEST_F(hostrpc, the_last_host_view_kills_the_channel)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o2;
	struct drm_zex_hostrpc_info info;
	struct view host, dev;
	struct pollfd pfd;
	pthread_t t;

	ASSERT_EQ(0, hr_create(self->drm, 2, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_HOST, &o2));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &dev));
	/* One host view of two gone: alive. */
	close(o2.fd);
	ASSERT_EQ(0, zex_ioctl(dev.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(0u, info.flags);
	/* A device blocked waiting for an answer is woken by the death, with -EPIPE. */
	ASSERT_EQ(0, pthread_create(&t, NULL, close_later, &host));
	EXPECT_EQ(-EPIPE, hr_wait(dev.fd, 0, 0, DRM_ZEX_HOSTRPC_WAIT_FOREVER));
	pthread_join(t, NULL);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_DEAD_HOST, dev.ctl->dead);
	ASSERT_EQ(0, zex_ioctl(dev.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(DRM_ZEX_HOSTRPC_INFO_DEAD, info.flags);
	EXPECT_EQ(-EPIPE, hr_ring(dev.fd));
	EXPECT_EQ(-EPIPE, hr_wait(dev.fd, 0, 0, 0));
	EXPECT_EQ(-EPIPE, hr_read(dev.fd));
	EXPECT_EQ(-EPIPE, hr_open_view(dev.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o2));
	pfd = (struct pollfd){ .fd = dev.fd, .events = POLLIN };
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLHUP, pfd.revents & POLLHUP);
	/* The device's mapping stays valid. */
	dev.slots[0] = 1;
	EXPECT_EQ(1, dev.slots[0]);
	hr_view_close(&dev);
}

TEST_F(hostrpc, a_mapping_keeps_a_host_view_alive)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_open_view o;
	struct drm_zex_hostrpc_info info;
	struct view host;

	ASSERT_EQ(0, hr_create(self->drm, 1, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
	close(c.fd);
	ASSERT_EQ(0, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(0u, info.flags);
	munmap(host.map, host.info.map_size);
	ASSERT_EQ(0, zex_ioctl(o.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(DRM_ZEX_HOSTRPC_INFO_DEAD, info.flags);
	close(o.fd);
}

TEST_F(hostrpc, a_dead_host_views_t_words_are_released)
{
	struct drm_zex_hostrpc_create c;
	struct view a, b;

	ASSERT_EQ(0, hr_create(self->drm, 4, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &a));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_HOST, &b));
	a.priv->owner[0] = a.info.view_id;
	b.priv->owner[1] = b.info.view_id;
	b.priv->owner[3] = b.info.view_id;
	hr_view_close(&b);
	EXPECT_EQ(a.info.view_id, a.priv->owner[0]);
	EXPECT_EQ(0u, a.priv->owner[1]);
	EXPECT_EQ(0u, a.priv->owner[3]);
	/* Their group is flagged again, so a live server looks at them. */
	EXPECT_EQ(1u, a.ctl->summary[0]);
	hr_view_close(&a);
}

TEST_F(hostrpc, a_dead_device_views_slots_are_finished_and_freed)
{
	struct drm_zex_hostrpc_create c;
	struct drm_zex_hostrpc_info info;
	struct view host, dead, live;
	uint32_t id;

	ASSERT_EQ(0, hr_create(self->drm, 4, 0, &c));
	ASSERT_EQ(0, hr_view_map(c.fd, &host));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &live));
	ASSERT_EQ(0, hr_add_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &dead));
	id = dead.info.view_id;
	/* The dying view holds: slot 0 published (request 1, not answered),
	 * slot 1 acquired only, slot 2 an async call (request 4) the host
	 * has not answered yet, slot 3 the live view's. */
	dead.priv->owner[0] = id;
	host.ctl->request[0] = 1;
	dead.priv->owner[1] = id;
	dead.priv->owner[2] = id | DRM_ZEX_HOSTRPC_OWNER_ASYNC;
	host.ctl->request[2] = 4;
	host.ctl->answer[2] = 3;
	live.priv->owner[3] = live.info.view_id;
	hr_view_close(&dead);

	/* Slot 1 is free at once; 0 and 2 wait for the host. */
	ASSERT_EQ(0, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(1u, info.reaped);
	EXPECT_EQ(2u, info.orphans);
	EXPECT_EQ(0u, live.priv->owner[1]);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_OWNER_ORPHAN, live.priv->owner[0]);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_OWNER_ORPHAN, live.priv->owner[2]);
	EXPECT_EQ(live.info.view_id, live.priv->owner[3]);
	EXPECT_EQ(1u, host.ctl->device_armed);

	/* The host answers slot 2, ringing as it must: it comes back. */
	__atomic_store_n(&host.ctl->answer[2], 4, __ATOMIC_SEQ_CST);
	EXPECT_TRUE(ring_if_armed(c.fd, &host.ctl->device_armed));
	EXPECT_TRUE(EVENTUALLY(live.priv->owner[2] == 0));
	EXPECT_EQ(4u, live.priv->mirror[2]);
	EXPECT_EQ(DRM_ZEX_HOSTRPC_OWNER_ORPHAN, live.priv->owner[0]);
	/* Then slot 0: the last orphan comes back. */
	__atomic_store_n(&host.ctl->answer[0], 1, __ATOMIC_SEQ_CST);
	EXPECT_TRUE(ring_if_armed(c.fd, &host.ctl->device_armed));
	EXPECT_TRUE(EVENTUALLY(live.priv->owner[0] == 0));
	EXPECT_EQ(1u, live.priv->mirror[0]);
	ASSERT_EQ(0, zex_ioctl(c.fd, DRM_ZEX_HOSTRPC_IOCTL_INFO, &info));
	EXPECT_EQ(3u, info.reaped);
	EXPECT_EQ(0u, info.orphans);
	EXPECT_EQ(live.info.view_id, live.priv->owner[3]);
	hr_view_close(&live);
	hr_view_close(&host);
}

/* Close three views and their mappings in every order: each frees it all. */
TEST_F(hostrpc, every_close_order_frees_the_channel)
{
	static const int orders[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					  { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	long long before = zex_sysfs_u64(LIVE_CHANNELS);
	int i, k;

	if (before < 0)
		SKIP(return, "no debugfs");
	for (i = 0; i < 6; i++) {
		struct drm_zex_hostrpc_create c;
		struct drm_zex_hostrpc_open_view o;
		struct view v[3];

		ASSERT_EQ(0, hr_create(self->drm, 8, 0, &c));
		ASSERT_EQ(0, hr_view_map(c.fd, &v[0]));
		ASSERT_EQ(0, hr_open_view(c.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
		ASSERT_EQ(0, hr_view_map(o.fd, &v[1]));
		ASSERT_EQ(0, hr_open_view(o.fd, DRM_ZEX_HOSTRPC_ROLE_DEVICE, &o));
		ASSERT_EQ(0, hr_view_map(o.fd, &v[2]));
		/* Something in flight, so the reaper has work. */
		v[1].priv->owner[0] = v[1].info.view_id;
		v[1].ctl->request[0] = 1;
		EXPECT_EQ(before + 1, zex_sysfs_u64(LIVE_CHANNELS));
		for (k = 0; k < 3; k++) {
			/* Half the time the fd goes before the mapping. */
			struct view *x = &v[orders[i][k]];

			if (i % 2) {
				close(x->fd);
				munmap(x->map, x->info.map_size);
			} else {
				hr_view_close(x);
			}
		}
		EXPECT_TRUE(EVENTUALLY(zex_sysfs_u64(LIVE_CHANNELS) == before));
	}
}

ZEX_SELFTEST_MAIN
