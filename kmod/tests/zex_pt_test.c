// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt_test.c - KUnit suite for the software page table
 *
 * A reference model (an xarray from page number to the PTE it expects:
 * frame, bindings covering it, writable bindings) follows random bind and
 * unbind sequences — overlapping, adjacent, nested, across 2 MiB, 1 GiB
 * and 512 GiB boundaries, some failing with -EBUSY. After every operation
 * the touched PTEs are compared; every few operations the whole table is:
 * every PTE of the model, every table's live count recomputed from its
 * entries, no empty table below the root, and tables allocated at each
 * level exactly the distinct 2 MiB, 1 GiB and 512 GiB blocks with a live
 * page. Frames come from a small pool of real pages, reused across pages.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/xarray.h>

#include "../vm/zex_pt.h"

struct model_pte {
	unsigned long pfn;
	unsigned int count, wcount;
};

struct binding {
	u64 va, npages;
	bool writable;
};

#define POOL	61	/* real pages the frames are drawn from (prime) */

struct pt_ctx {
	struct kunit *test;
	struct zex_pt pt;
	struct xarray model;	/* page number -> packed model_pte */
	struct binding live[256];
	unsigned int nlive;
	u64 rng;
	struct page **pages;
	struct page **pool;
};

#define MAX_PAGES	1100

static u64 next_rand(struct pt_ctx *c)
{
	c->rng ^= c->rng << 13;
	c->rng ^= c->rng >> 7;
	c->rng ^= c->rng << 17;
	return c->rng;
}

static void *pack(unsigned long pfn, unsigned int count, unsigned int wcount)
{
	return xa_mk_value((pfn << 24) | (count << 12) | wcount);
}

static struct model_pte unpack(void *entry)
{
	unsigned long v = entry ? xa_to_value(entry) : 0;

	return (struct model_pte){ v >> 24, (v >> 12) & 0xfff, v & 0xfff };
}

/* The frame a page number maps to; @skew makes a conflicting one. */
static struct page *page_of(struct pt_ctx *c, u64 pageno, unsigned int skew)
{
	return c->pool[(pageno + skew) % POOL];
}

static unsigned long frame_of(struct pt_ctx *c, u64 pageno, unsigned int skew)
{
	return page_to_pfn(page_of(c, pageno, skew));
}

static void check_page(struct pt_ctx *c, u64 pageno)
{
	struct model_pte m = unpack(xa_load(&c->model, pageno));
	unsigned int writers;
	unsigned long pfn;
	bool writable;
	int ret = zex_pt_lookup(&c->pt, pageno << PAGE_SHIFT, &pfn, &writable);

	KUNIT_ASSERT_EQ_MSG(c->test, zex_pt_count(&c->pt, pageno << PAGE_SHIFT, &writers),
			    m.count, "page %llx", pageno);
	KUNIT_ASSERT_EQ_MSG(c->test, writers, m.wcount, "page %llx", pageno);
	if (!m.count) {
		KUNIT_ASSERT_EQ_MSG(c->test, ret, -ENOENT, "page %llx", pageno);
		return;
	}
	KUNIT_ASSERT_EQ_MSG(c->test, ret, 0, "page %llx", pageno);
	KUNIT_ASSERT_EQ_MSG(c->test, pfn, m.pfn, "page %llx", pageno);
	KUNIT_ASSERT_EQ_MSG(c->test, writable, m.wcount > 0, "page %llx", pageno);
}

/* Recompute live counts from the entries; count tables per level. */
static void check_node(struct pt_ctx *c, struct zex_pt_node *node, int level,
		       unsigned long *seen)
{
	unsigned int i, live = 0;

	seen[level]++;
	for (i = 0; i < ZEX_PT_ENTRIES; i++) {
		if (level == 0) {
			live += ((u64 *)node->entries)[i] != 0;
		} else {
			struct zex_pt_node *child = ((struct zex_pt_node **)node->entries)[i];

			if (child) {
				live++;
				check_node(c, child, level - 1, seen);
			}
		}
	}
	KUNIT_ASSERT_EQ_MSG(c->test, node->live, live, "level %d", level);
	if (level < ZEX_PT_LEVELS - 1)
		KUNIT_ASSERT_NE_MSG(c->test, live, 0, "empty table kept at level %d", level);
}

static void check_all(struct pt_ctx *c)
{
	unsigned long seen[ZEX_PT_LEVELS] = {}, want[ZEX_PT_LEVELS] = { 0, 0, 0, 1 };
	u64 last[ZEX_PT_LEVELS - 1] = { ~0ull, ~0ull, ~0ull };
	unsigned long idx;
	void *entry;
	int l;

	/* The model is sorted: count distinct blocks per level in one pass. */
	xa_for_each(&c->model, idx, entry) {
		check_page(c, idx);
		for (l = 0; l < ZEX_PT_LEVELS - 1; l++) {
			u64 block = (u64)idx >> (ZEX_PT_SHIFT * (l + 1));

			if (block != last[l]) {
				last[l] = block;
				want[l]++;
			}
		}
	}
	check_node(c, c->pt.root, ZEX_PT_LEVELS - 1, seen);
	for (l = 0; l < ZEX_PT_LEVELS; l++) {
		KUNIT_ASSERT_EQ_MSG(c->test, seen[l], want[l], "tables at level %d", l);
		KUNIT_ASSERT_EQ_MSG(c->test, c->pt.nodes[l], want[l], "allocated at level %d", l);
	}
}

static int do_bind(struct pt_ctx *c, u64 va, u64 npages, bool writable, unsigned int skew)
{
	u64 first = va >> PAGE_SHIFT, i;
	bool conflict = false;
	int ret;

	for (i = 0; i < npages; i++) {
		struct model_pte m = unpack(xa_load(&c->model, first + i));

		c->pages[i] = page_of(c, first + i, skew);
		conflict |= m.count && (m.pfn != frame_of(c, first + i, skew) ||
					m.count == ZEX_PT_MAX_OVERLAP);
	}
	ret = zex_pt_bind(&c->pt, va, npages, c->pages, writable);
	KUNIT_ASSERT_EQ(c->test, ret, conflict ? -EBUSY : 0);
	if (ret)
		return ret;
	for (i = 0; i < npages; i++) {
		struct model_pte m = unpack(xa_load(&c->model, first + i));

		xa_store(&c->model, first + i,
			 pack(frame_of(c, first + i, skew), m.count + 1, m.wcount + writable),
			 GFP_KERNEL);
	}
	return 0;
}

/* What an unbind reported: each page of the binding, in order. */
struct unbind_seen {
	struct pt_ctx *c;
	u64 first, n;
};

static void saw_page(struct page *page, void *ctx)
{
	struct unbind_seen *seen = ctx;
	struct model_pte m = unpack(xa_load(&seen->c->model, seen->first + seen->n));

	KUNIT_EXPECT_EQ_MSG(seen->c->test, page_to_pfn(page), m.pfn, "page %llx",
			    seen->first + seen->n);
	seen->n++;
}

static void do_unbind(struct pt_ctx *c, unsigned int which)
{
	struct binding b = c->live[which];
	u64 first = b.va >> PAGE_SHIFT, i;
	struct unbind_seen seen = { .c = c, .first = first };

	zex_pt_unbind(&c->pt, b.va, b.npages, b.writable, saw_page, &seen);
	KUNIT_EXPECT_EQ(c->test, seen.n, b.npages);
	for (i = 0; i < b.npages; i++) {
		struct model_pte m = unpack(xa_load(&c->model, first + i));

		if (m.count == 1)
			xa_erase(&c->model, first + i);
		else
			xa_store(&c->model, first + i,
				 pack(m.pfn, m.count - 1, m.wcount - b.writable), GFP_KERNEL);
	}
	c->live[which] = c->live[--c->nlive];
}

static void check_range(struct pt_ctx *c, u64 va, u64 npages)
{
	u64 i, first = va >> PAGE_SHIFT;

	/* The range and one page either side (adjacency). */
	for (i = first ? first - 1 : 0; i <= first + npages; i++)
		check_page(c, i);
}

static int pool_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void pool_free(struct kunit_resource *res)
{
	struct page **pool = res->data;
	unsigned int i;

	for (i = 0; i < POOL; i++)
		if (pool[i])
			__free_page(pool[i]);
}

static void pt_ctx_init(struct kunit *test, struct pt_ctx *c, u64 seed)
{
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	/* A pool per init, freed when the test case ends, however it ends. */
	c->pool = kunit_kcalloc(test, POOL, sizeof(*c->pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->pool);
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, pool_init, pool_free,
							 GFP_KERNEL, c->pool));
	for (i = 0; i < POOL; i++) {
		c->pool[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->pool[i]);
	}
	c->test = test;
	c->rng = seed;
	c->nlive = 0;
	xa_init(&c->model);
	c->pages = kunit_kcalloc(test, MAX_PAGES, sizeof(*c->pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->pages);
	KUNIT_ASSERT_EQ(test, zex_pt_init(&c->pt), 0);
}

static void pt_ctx_fini(struct pt_ctx *c)
{
	while (c->nlive)
		do_unbind(c, c->nlive - 1);
	check_all(c);
	KUNIT_EXPECT_EQ(c->test, c->pt.root->live, 0);
	zex_pt_fini(&c->pt);
	xa_destroy(&c->model);
}

/* Hot spots: starts that straddle 2 MiB, 1 GiB and 512 GiB boundaries. */
static const u64 hot[] = {
	SZ_4M, SZ_1G - SZ_2M, 2ull * SZ_1G - 12 * SZ_4K, (512ull << 30) - SZ_1M,
	(3ull << 30) + SZ_2M - 40 * SZ_4K,
};

static void zex_test_pt_random_sequences(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int op;

	pt_ctx_init(test, c, 0x2545f4914f6cdd1dull);
	for (op = 0; op < 400; op++) {
		u64 r = next_rand(c);

		if (c->nlive && (r % 5 < 2 || c->nlive == ARRAY_SIZE(c->live))) {
			struct binding b = c->live[r % c->nlive];

			do_unbind(c, (unsigned int)(r % c->nlive));
			check_range(c, b.va, b.npages);
		} else {
			u64 base = hot[(r >> 8) % ARRAY_SIZE(hot)];
			s64 shift = (s64)((r >> 16) % 2048) - 1024;
			u64 va = base + shift * PAGE_SIZE;
			u64 npages = 1 + (r >> 32) % (MAX_PAGES - 1);
			bool writable = (r >> 48) & 1;
			unsigned int skew = ((r >> 50) % 16 == 0);	/* 1 in 16 conflicts */

			if (!do_bind(c, va, npages, writable, skew))
				c->live[c->nlive++] = (struct binding){ va, npages, writable };
			check_range(c, va, npages);
		}
		if (op % 40 == 0)
			check_all(c);
	}
	pt_ctx_fini(c);
}

static void zex_test_pt_overlap_release_either(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	/* Seed 001's hazard: A and B overlap; releasing one keeps the other. */
	pt_ctx_init(test, c, 1);
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M - 8 * SZ_4K, 16, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M - 8 * SZ_4K, 16, true };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M, 64, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M, 64, false };
	do_unbind(c, 0);	/* release A: B's 64 pages all stay */
	check_range(c, SZ_2M - 8 * SZ_4K, 72);
	check_all(c);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M, NULL), 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M - SZ_4K, NULL), 0);
	pt_ctx_fini(c);

	pt_ctx_init(test, c, 2);
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M - 8 * SZ_4K, 16, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M - 8 * SZ_4K, 16, true };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M, 64, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M, 64, false };
	do_unbind(c, 1);	/* release B: A's 16 pages stay, writable */
	check_all(c);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M + 7 * SZ_4K, NULL), 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M + 8 * SZ_4K, NULL), 0);
	pt_ctx_fini(c);
}

static void zex_test_pt_adjacent_and_nested(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	pt_ctx_init(test, c, 3);
	/* Adjacent at a 1 GiB boundary: both succeed, no page shared. */
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_1G - 4 * SZ_4K, 4, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_1G - 4 * SZ_4K, 4, true };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_1G, 4, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_1G, 4, true };
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_1G - SZ_4K, NULL), 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_1G, NULL), 1);
	/* Nested inside the first. */
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_1G - 3 * SZ_4K, 1, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_1G - 3 * SZ_4K, 1, false };
	check_all(c);
	/* A conflicting frame changes nothing. */
	KUNIT_EXPECT_EQ(test, do_bind(c, SZ_1G - 2 * SZ_4K, 8, true, 1), -EBUSY);
	check_all(c);
	pt_ctx_fini(c);
}

static struct kunit_case zex_pt_test_cases[] = {
	KUNIT_CASE(zex_test_pt_overlap_release_either),
	KUNIT_CASE(zex_test_pt_adjacent_and_nested),
	KUNIT_CASE(zex_test_pt_random_sequences),
	{}
};

static struct kunit_suite zex_pt_test_suite = {
	.name = "zex_pt",
	.test_cases = zex_pt_test_cases,
};

kunit_test_suite(zex_pt_test_suite);
