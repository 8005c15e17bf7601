// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_hostrpc_test.c - KUnit suite for the hostrpc channel
 *
 * Channel lifecycle (sizes, the control page, view ids, the dead flag when
 * the last host view goes, every channel freed), arming (the wait arms
 * only when it must sleep, and its re-check sees work published before),
 * ring coalescing (one ring per arming; rings counted and read as one
 * number), the host's work mask at the end of a partial bitmap word, and
 * the reaper's table for a dead device view's slots.
 */

#include <kunit/test.h>
#include <linux/poll.h>

#include "../hostrpc/zex_hostrpc.h"

static struct zex_hostrpc_channel *zex_test_channel(struct kunit *test, u32 nslots)
{
	struct zex_hostrpc_channel *ch = zex_hostrpc_channel_create(NULL, nslots);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ch);
	return ch;
}

static struct zex_hostrpc_view *zex_test_view(struct kunit *test,
					      struct zex_hostrpc_channel *ch,
					      enum zex_hostrpc_side side)
{
	struct zex_hostrpc_view *view = zex_hostrpc_view_create(ch, side);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, view);
	return view;
}

static void zex_test_hostrpc_lifecycle(struct kunit *test)
{
	static const u32 sizes[] = { 1, 63, 64, 65, DRM_ZEX_HOSTRPC_MAX_SLOTS };
	int live = atomic_read(&zex_hostrpc_channels_live);
	const u32 too_many = DRM_ZEX_HOSTRPC_MAX_SLOTS + 1;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct zex_hostrpc_channel *ch = zex_test_channel(test, sizes[i]);
		struct zex_hostrpc_view *host, *dev;

		KUNIT_EXPECT_EQ(test, atomic_read(&zex_hostrpc_channels_live), live + 1);
		KUNIT_EXPECT_EQ(test, ch->control->magic, DRM_ZEX_HOSTRPC_MAGIC);
		KUNIT_EXPECT_EQ(test, ch->control->version, DRM_ZEX_HOSTRPC_VERSION);
		KUNIT_EXPECT_EQ(test, ch->control->nslots, sizes[i]);
		KUNIT_EXPECT_EQ(test, ch->control->map_size,
				DRM_ZEX_HOSTRPC_MAP_SIZE(sizes[i]));
		host = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
		dev = zex_test_view(test, ch, ZEX_HOSTRPC_DEVICE);
		KUNIT_EXPECT_GE(test, host->id, 2u);
		KUNIT_EXPECT_NE(test, host->id, dev->id);
		/* The views hold the channel now. */
		zex_hostrpc_channel_put(ch);
		zex_hostrpc_view_destroy(host);
		KUNIT_EXPECT_TRUE(test, READ_ONCE(ch->dead));
		KUNIT_EXPECT_EQ(test, ch->control->dead, DRM_ZEX_HOSTRPC_DEAD_HOST);
		KUNIT_EXPECT_EQ(test, PTR_ERR(zex_hostrpc_view_create(ch, ZEX_HOSTRPC_DEVICE)),
				-EPIPE);
		zex_hostrpc_view_destroy(dev);
		KUNIT_EXPECT_EQ(test, atomic_read(&zex_hostrpc_channels_live), live);
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(zex_hostrpc_channel_create(NULL, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(zex_hostrpc_channel_create(NULL, too_many)), -EINVAL);
	KUNIT_EXPECT_EQ(test, atomic_read(&zex_hostrpc_channels_live), live);
}

static void zex_test_hostrpc_device_views_do_not_keep_it_alive(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 4);
	struct zex_hostrpc_view *h1 = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	struct zex_hostrpc_view *h2 = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	struct zex_hostrpc_view *dev = zex_test_view(test, ch, ZEX_HOSTRPC_DEVICE);

	zex_hostrpc_view_destroy(h1);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(ch->dead));
	KUNIT_EXPECT_EQ(test, zex_hostrpc_ring(dev), 0);
	zex_hostrpc_view_destroy(h2);
	KUNIT_EXPECT_TRUE(test, READ_ONCE(ch->dead));
	KUNIT_EXPECT_EQ(test, zex_hostrpc_ring(dev), -EPIPE);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_poll_mask(dev) & EPOLLHUP, EPOLLHUP);
	zex_hostrpc_view_destroy(dev);
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_ring_coalescing(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 8);
	struct zex_hostrpc_view *host = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	u64 count = 0;

	/* Not armed: a peer does not ring. */
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_ring_if_armed(ch, ZEX_HOSTRPC_HOST));
	KUNIT_EXPECT_EQ(test, ch->side[ZEX_HOSTRPC_HOST].rings, 0ull);
	/* One arming, one ring, however many publishers. */
	WRITE_ONCE(ch->control->host_armed, 1);
	KUNIT_EXPECT_TRUE(test, zex_hostrpc_ring_if_armed(ch, ZEX_HOSTRPC_HOST));
	KUNIT_EXPECT_EQ(test, ch->control->host_armed, 0u);
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_ring_if_armed(ch, ZEX_HOSTRPC_HOST));
	KUNIT_EXPECT_EQ(test, ch->side[ZEX_HOSTRPC_HOST].rings, 1ull);
	/* The device side's arming is separate. */
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_ring_if_armed(ch, ZEX_HOSTRPC_DEVICE));
	/* Rings not yet read add up into one read. */
	zex_hostrpc_deliver(ch, ZEX_HOSTRPC_HOST);
	zex_hostrpc_deliver(ch, ZEX_HOSTRPC_HOST);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_poll_mask(host), EPOLLIN | EPOLLRDNORM);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_read(host, true, &count), (ssize_t)sizeof(count));
	KUNIT_EXPECT_EQ(test, count, 3ull);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_read(host, true, &count), -EAGAIN);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_poll_mask(host), 0u);
	KUNIT_EXPECT_EQ(test, ch->side[ZEX_HOSTRPC_HOST].rings, 3ull);
	KUNIT_EXPECT_EQ(test, ch->side[ZEX_HOSTRPC_DEVICE].rings, 0ull);
	zex_hostrpc_view_destroy(host);
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_wait_arms_only_to_sleep(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 70);
	struct zex_hostrpc_view *host = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	struct zex_hostrpc_view *dev = zex_test_view(test, ch, ZEX_HOSTRPC_DEVICE);
	struct drm_zex_hostrpc_wait now = { .timeout_ns = 0 };
	struct drm_zex_hostrpc_wait dev_moved = { .slot = 69, .value = 7 };

	/* Work is there: no arming, no sleep. */
	ch->control->summary[1] = 1;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &now), 0);
	KUNIT_EXPECT_EQ(test, ch->control->host_armed, 0u);
	/* None: armed, and the timeout passed. */
	ch->control->summary[1] = 0;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &now), -ETIME);
	KUNIT_EXPECT_EQ(test, ch->control->host_armed, 1u);
	/* The device side the same way, for one slot's answer to move. */
	ch->control->answer[69] = 7;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_moved), -ETIME);
	KUNIT_EXPECT_EQ(test, ch->control->device_armed, 1u);
	ch->control->device_armed = 0;
	ch->control->answer[69] = 8;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_moved), 0);
	KUNIT_EXPECT_EQ(test, ch->control->device_armed, 0u);
	/* Bad input. */
	dev_moved.slot = 70;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_moved), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &dev_moved), -EINVAL);
	dev_moved.slot = 0;
	dev_moved.flags = 1;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_moved), -EINVAL);
	zex_hostrpc_view_destroy(host);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &now), -EPIPE);
	zex_hostrpc_view_destroy(dev);
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_work_mask(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 65);

	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	/* Flags past the last slot's group are not work, whoever set them. */
	ch->control->summary[2] = 1;
	ch->control->summary[31] = 1;
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	ch->control->summary[1] = 1;	/* slot 64 published */
	KUNIT_EXPECT_TRUE(test, zex_hostrpc_host_has_work(ch));
	ch->control->summary[1] = 0;	/* a server took the flag */
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_reaper_table(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 5);
	struct zex_hostrpc_view *host = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	struct zex_hostrpc_view *live = zex_test_view(test, ch, ZEX_HOSTRPC_DEVICE);
	struct zex_hostrpc_view *dead = zex_test_view(test, ch, ZEX_HOSTRPC_DEVICE);
	struct drm_zex_hostrpc_control *c = ch->control;
	u32 *w = ch->priv[ZEX_HOSTRPC_DEVICE]->owner;
	u32 *m = ch->priv[ZEX_HOSTRPC_DEVICE]->mirror;

	/*
	 * Request/answer per slot: 0: 3/3 (answered), 1: 5/4 (the host's
	 * turn), 2: 2/1 (async, the host's turn), 3: 0/0 (taken, nothing
	 * published, mirror ahead); slot 4 is the live view's.
	 */
	w[0] = dead->id;
	w[1] = dead->id;
	w[2] = dead->id | DRM_ZEX_HOSTRPC_OWNER_ASYNC;
	w[3] = dead->id;
	w[4] = live->id;
	c->request[0] = 3;
	c->answer[0] = 3;
	c->request[1] = 5;
	c->answer[1] = 4;
	c->request[2] = 2;
	c->answer[2] = 1;
	m[3] = 1;
	zex_hostrpc_view_destroy(dead);

	KUNIT_EXPECT_EQ(test, w[0], 0u);			/* freed */
	KUNIT_EXPECT_EQ(test, m[0], 3u);
	KUNIT_EXPECT_EQ(test, w[1], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);	/* host's turn */
	KUNIT_EXPECT_EQ(test, w[2], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);	/* host's turn */
	KUNIT_EXPECT_EQ(test, w[3], 0u);			/* freed */
	KUNIT_EXPECT_EQ(test, m[3], 0u);			/* mirror = request */
	KUNIT_EXPECT_EQ(test, w[4], live->id);
	KUNIT_EXPECT_EQ(test, atomic_read(&ch->norphans), 2);
	KUNIT_EXPECT_EQ(test, ch->reaped, 2ull);
	KUNIT_EXPECT_EQ(test, c->device_armed, 1u);

	/* The host answers one, then the other; the reaper follows. */
	c->answer[1] = 5;
	zex_hostrpc_reap(ch);
	KUNIT_EXPECT_EQ(test, w[1], 0u);
	KUNIT_EXPECT_EQ(test, m[1], 5u);
	KUNIT_EXPECT_EQ(test, w[2], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);
	c->answer[2] = 2;
	zex_hostrpc_reap(ch);
	KUNIT_EXPECT_EQ(test, w[2], 0u);
	KUNIT_EXPECT_EQ(test, atomic_read(&ch->norphans), 0);
	KUNIT_EXPECT_EQ(test, ch->reaped, 4ull);
	KUNIT_EXPECT_EQ(test, w[4], live->id);

	zex_hostrpc_view_destroy(live);
	zex_hostrpc_view_destroy(host);
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_dead_server_flags_its_slots(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 130);
	struct zex_hostrpc_view *host = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	struct zex_hostrpc_view *dying = zex_test_view(test, ch, ZEX_HOSTRPC_HOST);
	u32 *t = ch->priv[ZEX_HOSTRPC_HOST]->owner;

	/* A server died holding slot 129 (its flag taken): look again. */
	t[129] = dying->id;
	zex_hostrpc_view_destroy(dying);
	KUNIT_EXPECT_EQ(test, t[129], 0u);
	KUNIT_EXPECT_EQ(test, ch->control->summary[2], 1u);
	KUNIT_EXPECT_EQ(test, ch->control->summary[0], 0u);
	zex_hostrpc_view_destroy(host);
	zex_hostrpc_channel_put(ch);
}

static struct kunit_case zex_hostrpc_test_cases[] = {
	KUNIT_CASE(zex_test_hostrpc_lifecycle),
	KUNIT_CASE(zex_test_hostrpc_device_views_do_not_keep_it_alive),
	KUNIT_CASE(zex_test_hostrpc_ring_coalescing),
	KUNIT_CASE(zex_test_hostrpc_wait_arms_only_to_sleep),
	KUNIT_CASE(zex_test_hostrpc_work_mask),
	KUNIT_CASE(zex_test_hostrpc_reaper_table),
	KUNIT_CASE(zex_test_hostrpc_dead_server_flags_its_slots),
	{}
};

static struct kunit_suite zex_hostrpc_test_suite = {
	.name = "zex_hostrpc",
	.test_cases = zex_hostrpc_test_cases,
};

kunit_test_suite(zex_hostrpc_test_suite);
