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
	struct drm_zex_hostrpc_wait dev_h1 = { .slot = 69, .value = 1 };

	/* Work is there: no arming, no sleep. */
	ch->control->g[1] = BIT_ULL(5);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &now), 0);
	KUNIT_EXPECT_EQ(test, ch->control->host_armed, 0u);
	/* None: armed, and the timeout passed. */
	ch->control->g[1] = 0;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &now), -ETIME);
	KUNIT_EXPECT_EQ(test, ch->control->host_armed, 1u);
	/* The device side the same way, for H of one slot. */
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_h1), -ETIME);
	KUNIT_EXPECT_EQ(test, ch->control->device_armed, 1u);
	ch->control->device_armed = 0;
	ch->control->h[1] = BIT_ULL(5);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_h1), 0);
	KUNIT_EXPECT_EQ(test, ch->control->device_armed, 0u);
	/* Bad input. */
	dev_h1.slot = 70;
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &dev_h1), -EINVAL);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(host, &dev_h1), -EINVAL);
	zex_hostrpc_view_destroy(host);
	KUNIT_EXPECT_EQ(test, zex_hostrpc_wait(dev, &now), -EPIPE);
	zex_hostrpc_view_destroy(dev);
	zex_hostrpc_channel_put(ch);
}

static void zex_test_hostrpc_work_mask(struct kunit *test)
{
	struct zex_hostrpc_channel *ch = zex_test_channel(test, 65);

	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	/* Bits past the last slot are not work, whoever set them. */
	ch->control->g[1] = ~1ull;
	ch->control->g[5] = ~0ull;
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	ch->control->g[1] = 1;		/* slot 64 published */
	KUNIT_EXPECT_TRUE(test, zex_hostrpc_host_has_work(ch));
	ch->control->h[1] = 1;		/* answered */
	KUNIT_EXPECT_FALSE(test, zex_hostrpc_host_has_work(ch));
	ch->control->g[1] = 0;		/* released: H to clear */
	KUNIT_EXPECT_TRUE(test, zex_hostrpc_host_has_work(ch));
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

	/* G,H per slot: 0:00 1:10 2:11 3:01; slot 4 is the live view's. */
	w[0] = dead->id;
	w[1] = dead->id;
	w[2] = dead->id | DRM_ZEX_HOSTRPC_OWNER_ASYNC;
	w[3] = dead->id;
	w[4] = live->id;
	c->g[0] = BIT_ULL(1) | BIT_ULL(2);
	c->h[0] = BIT_ULL(2) | BIT_ULL(3);
	ch->priv[ZEX_HOSTRPC_DEVICE]->async[0] = BIT_ULL(2);
	zex_hostrpc_view_destroy(dead);

	KUNIT_EXPECT_EQ(test, w[0], 0u);			/* freed */
	KUNIT_EXPECT_EQ(test, w[1], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);	/* host's turn */
	KUNIT_EXPECT_EQ(test, w[2], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);	/* released */
	KUNIT_EXPECT_EQ(test, w[3], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);	/* host's turn */
	KUNIT_EXPECT_EQ(test, w[4], live->id);
	KUNIT_EXPECT_EQ(test, c->g[0], BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, atomic_read(&ch->norphans), 3);
	KUNIT_EXPECT_EQ(test, ch->reaped, 1ull);
	KUNIT_EXPECT_EQ(test, c->device_armed, 1u);

	/* The host moves every slot on; the reaper follows. */
	c->h[0] = BIT_ULL(1) | BIT_ULL(2) | BIT_ULL(3);	/* 1 answered */
	c->h[0] &= ~(BIT_ULL(2) | BIT_ULL(3));		/* 2, 3 cleared */
	zex_hostrpc_reap(ch);
	KUNIT_EXPECT_EQ(test, w[2], 0u);
	KUNIT_EXPECT_EQ(test, w[3], 0u);
	KUNIT_EXPECT_EQ(test, ch->priv[ZEX_HOSTRPC_DEVICE]->async[0], 0ull);
	KUNIT_EXPECT_EQ(test, c->g[0], 0ull);			/* 1 released */
	KUNIT_EXPECT_EQ(test, w[1], DRM_ZEX_HOSTRPC_OWNER_ORPHAN);
	c->h[0] = 0;
	zex_hostrpc_reap(ch);
	KUNIT_EXPECT_EQ(test, w[1], 0u);
	KUNIT_EXPECT_EQ(test, atomic_read(&ch->norphans), 0);
	KUNIT_EXPECT_EQ(test, ch->reaped, 4ull);
	KUNIT_EXPECT_EQ(test, w[4], live->id);

	zex_hostrpc_view_destroy(live);
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
	{}
};

static struct kunit_suite zex_hostrpc_test_suite = {
	.name = "zex_hostrpc",
	.test_cases = zex_hostrpc_test_cases,
};

kunit_test_suite(zex_hostrpc_test_suite);
