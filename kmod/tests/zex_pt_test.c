// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_pt_test.c - KUnit suite for the software page table
 *
 * A reference model (an xarray from page number to the PTE it expects:
 * frame, bindings covering it, writable bindings; and one from 2 MiB block
 * to the leaf it expects there: a 2 MiB leaf or a leaf table) follows
 * random bind and unbind sequences — overlapping, adjacent, nested, whole
 * 2 MiB blocks and parts of them, across 2 MiB, 1 GiB and 512 GiB
 * boundaries, some failing with -EBUSY. Even 2 MiB blocks of the device
 * VA are backed by huge frames (512 contiguous, aligned ones), odd blocks
 * by a small pool of single pages, so 4 KiB and 2 MiB leaves overlap and
 * split as they do for THP memory. After every operation the touched PTEs
 * are compared (frame, counts, leaf size); every few operations the whole
 * table is: every PTE of the model, every table's live count recomputed
 * from its entries, no empty table below the root, the 2 MiB leaves
 * exactly the model's, and the tables allocated at each level exactly the
 * leaf-table blocks, and the distinct 1 GiB and 512 GiB blocks with a live
 * page. On-demand bindings (exclusive, stale until filled) have their own
 * case.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/xarray.h>

#include "../pt/zex_pt.h"

struct model_pte {
	unsigned long pfn;
	unsigned int count, wcount;
};

struct binding {
	u64 va, npages;
	unsigned int flags;
};

#define POOL	61	/* real pages the frames of odd blocks come from (prime) */
#define HUGE_POOL 3	/* huge frames (2 MiB each) the even blocks come from */
#define HUGE_ORDER ZEX_PT_SHIFT

/* What the model expects of a 2 MiB block of the device VA. */
enum block_leaf { BLOCK_EMPTY, BLOCK_HUGE, BLOCK_TABLE };

struct pt_ctx {
	struct kunit *test;
	struct zex_pt pt;
	struct xarray model;	/* page number -> packed model_pte */
	struct xarray blocks;	/* 2 MiB block number -> enum block_leaf */
	struct binding live[256];
	unsigned int nlive;
	u64 rng;
	struct page **pages;
	struct page **pool;
	struct page **huge;
};

#define MAX_PAGES	(3 * ZEX_PT_ENTRIES + 64)

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

/*
 * The frame a page number maps to; @skew makes a conflicting one. Even
 * 2 MiB blocks: page i of a huge frame; odd ones: a page of the pool.
 */
static struct page *page_of(struct pt_ctx *c, u64 pageno, unsigned int skew)
{
	u64 block = pageno >> ZEX_PT_SHIFT;

	if (block % 2 == 0)
		return c->huge[(block / 2 + skew) % HUGE_POOL] + (pageno & (ZEX_PT_ENTRIES - 1));
	return c->pool[(pageno + skew) % POOL];
}

static enum block_leaf block_of(struct pt_ctx *c, u64 pageno)
{
	return xa_to_value(xa_load(&c->blocks, pageno >> ZEX_PT_SHIFT) ?: xa_mk_value(0));
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
	KUNIT_ASSERT_EQ_MSG(c->test, zex_pt_leaf_size(&c->pt, pageno << PAGE_SHIFT),
			    block_of(c, pageno) == BLOCK_HUGE ? ZEX_PT_HUGE_SIZE : PAGE_SIZE,
			    "page %llx", pageno);
}

/* Recompute live counts from the entries; count tables per level, 2 MiB leaves. */
static void check_node(struct pt_ctx *c, struct zex_pt_node *node, int level,
		       unsigned long *seen, unsigned long *huge)
{
	unsigned int i, live = 0;

	seen[level]++;
	for (i = 0; i < ZEX_PT_ENTRIES; i++) {
		struct zex_pt_node *child = level ? zex_pt_child(node, i) : NULL;
		bool used = ((u64 *)node->entries)[i] != 0;

		live += used;
		if (child)
			check_node(c, child, level - 1, seen, huge);
		else if (used && level == 1)
			(*huge)++;
		else
			KUNIT_ASSERT_TRUE_MSG(c->test, !used || !level, "leaf at level %d", level);
	}
	KUNIT_ASSERT_EQ_MSG(c->test, node->live, live, "level %d", level);
	if (level < ZEX_PT_LEVELS - 1)
		KUNIT_ASSERT_NE_MSG(c->test, live, 0, "empty table kept at level %d", level);
}

static void check_all(struct pt_ctx *c)
{
	unsigned long seen[ZEX_PT_LEVELS] = {}, want[ZEX_PT_LEVELS] = { 0, 0, 0, 1 };
	u64 last[ZEX_PT_LEVELS - 1] = { ~0ull, ~0ull, ~0ull };
	unsigned long idx, huge = 0, want_huge = 0;
	void *entry;
	int l;

	/* The model is sorted: count distinct blocks per level in one pass. */
	xa_for_each(&c->model, idx, entry) {
		cond_resched();
		check_page(c, idx);
		for (l = 0; l < ZEX_PT_LEVELS - 1; l++) {
			u64 block = (u64)idx >> (ZEX_PT_SHIFT * (l + 1));

			if (block == last[l])
				continue;
			last[l] = block;
			/* A 2 MiB leaf takes the place of a leaf table. */
			if (l == 0 && block_of(c, idx) == BLOCK_HUGE)
				want_huge++;
			else
				want[l]++;
		}
	}
	check_node(c, c->pt.root, ZEX_PT_LEVELS - 1, seen, &huge);
	KUNIT_ASSERT_EQ(c->test, huge, want_huge);
	KUNIT_ASSERT_EQ(c->test, c->pt.huge, want_huge);
	for (l = 0; l < ZEX_PT_LEVELS; l++) {
		KUNIT_ASSERT_EQ_MSG(c->test, seen[l], want[l], "tables at level %d", l);
		KUNIT_ASSERT_EQ_MSG(c->test, c->pt.nodes[l], want[l], "allocated at level %d", l);
	}
}

/*
 * The leaf the model expects for block @block after a bind covering
 * @covered of its pages: a whole block of huge frames makes or joins a
 * 2 MiB leaf unless the block has a leaf table; anything else goes into
 * the leaf table, splitting a 2 MiB leaf.
 */
static void model_block_bound(struct pt_ctx *c, u64 block, u64 covered)
{
	enum block_leaf now = block_of(c, block << ZEX_PT_SHIFT);
	bool whole_huge = covered == ZEX_PT_ENTRIES && block % 2 == 0;

	if (now == BLOCK_TABLE || !whole_huge)
		now = BLOCK_TABLE;
	else
		now = BLOCK_HUGE;
	xa_store(&c->blocks, block, xa_mk_value(now), GFP_KERNEL);
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
	ret = zex_pt_bind(&c->pt, va, npages, c->pages, writable ? ZEX_PT_WRITABLE : 0);
	KUNIT_ASSERT_EQ(c->test, ret, conflict ? -EBUSY : 0);
	if (ret)
		return ret;
	for (i = 0; i < npages; i++) {
		struct model_pte m = unpack(xa_load(&c->model, first + i));

		xa_store(&c->model, first + i,
			 pack(frame_of(c, first + i, skew), m.count + 1, m.wcount + writable),
			 GFP_KERNEL);
	}
	for (i = first >> ZEX_PT_SHIFT; i <= (first + npages - 1) >> ZEX_PT_SHIFT; i++) {
		u64 lo = max(first, i << ZEX_PT_SHIFT);
		u64 hi = min(first + npages, (i + 1) << ZEX_PT_SHIFT);

		model_block_bound(c, i, hi - lo);
	}
	return 0;
}

/* What an unbind reported: each page of the binding, in order, in runs. */
struct unbind_seen {
	struct pt_ctx *c;
	u64 first, n;
};

static void saw_run(struct page *page, unsigned long npages, void *ctx)
{
	struct unbind_seen *seen = ctx;
	unsigned long k;

	/* A run stays within one aligned block of 512 frames. */
	KUNIT_EXPECT_LE(seen->c->test, (page_to_pfn(page) & (ZEX_PT_ENTRIES - 1)) + npages,
			ZEX_PT_ENTRIES);
	for (k = 0; k < npages; k++, seen->n++) {
		struct model_pte m = unpack(xa_load(&seen->c->model, seen->first + seen->n));

		KUNIT_EXPECT_EQ_MSG(seen->c->test, page_to_pfn(page) + k, m.pfn, "page %llx",
				    seen->first + seen->n);
	}
}

static void do_unbind(struct pt_ctx *c, unsigned int which)
{
	struct binding b = c->live[which];
	u64 first = b.va >> PAGE_SHIFT, i;
	struct unbind_seen seen = { .c = c, .first = first };
	bool writable = b.flags & ZEX_PT_WRITABLE;

	zex_pt_unbind(&c->pt, b.va, b.npages, b.flags, saw_run, &seen);
	KUNIT_EXPECT_EQ(c->test, seen.n, b.npages);
	for (i = 0; i < b.npages; i++) {
		struct model_pte m = unpack(xa_load(&c->model, first + i));

		if (m.count == 1)
			xa_erase(&c->model, first + i);
		else
			xa_store(&c->model, first + i,
				 pack(m.pfn, m.count - 1, m.wcount - writable), GFP_KERNEL);
	}
	/* A block with no page left has no leaf. */
	for (i = first >> ZEX_PT_SHIFT; i <= (first + b.npages - 1) >> ZEX_PT_SHIFT; i++) {
		unsigned long idx = i << ZEX_PT_SHIFT;

		if (!xa_find(&c->model, &idx, ((i + 1) << ZEX_PT_SHIFT) - 1, XA_PRESENT))
			xa_erase(&c->blocks, i);
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
	for (i = POOL; i < POOL + HUGE_POOL; i++)
		if (pool[i])
			__free_pages(pool[i], HUGE_ORDER);
}

static void pt_ctx_init(struct kunit *test, struct pt_ctx *c, u64 seed)
{
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	/* A pool per init, freed when the test case ends, however it ends. */
	c->pool = kunit_kcalloc(test, POOL + HUGE_POOL, sizeof(*c->pool), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->pool);
	KUNIT_ASSERT_NOT_NULL(test, kunit_alloc_resource(test, pool_init, pool_free,
							 GFP_KERNEL, c->pool));
	for (i = 0; i < POOL; i++) {
		c->pool[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->pool[i]);
	}
	/* The buddy allocator aligns a block of order 9 to 512 frames. */
	c->huge = c->pool + POOL;
	for (i = 0; i < HUGE_POOL; i++) {
		c->huge[i] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, HUGE_ORDER);
		KUNIT_ASSERT_NOT_NULL(test, c->huge[i]);
	}
	c->test = test;
	c->rng = seed;
	c->nlive = 0;
	xa_init(&c->model);
	xa_init(&c->blocks);
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
	xa_destroy(&c->blocks);
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
	for (op = 0; op < 600; op++) {
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

			/* 1 in 3: whole 2 MiB blocks, as a THP-backed import is. */
			if ((r >> 53) % 3 == 0) {
				va = ALIGN_DOWN(va, ZEX_PT_HUGE_SIZE);
				npages = ZEX_PT_ENTRIES * (1 + (r >> 56) % 3);
			}
			if (!do_bind(c, va, npages, writable, skew))
				c->live[c->nlive++] = (struct binding){
					va, npages, writable ? ZEX_PT_WRITABLE : 0 };
			check_range(c, va, npages);
		}
		if (op % 40 == 0)
			check_all(c);
		/*
		 * Under KASAN and TCG on a busy host the sequence runs for
		 * minutes: let RCU see this CPU pass a quiescent state.
		 */
		cond_resched();
	}
	pt_ctx_fini(c);
}

static void zex_test_pt_overlap_release_either(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	/* Seed 001's hazard: A and B overlap; releasing one keeps the other. */
	pt_ctx_init(test, c, 1);
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M - 8 * SZ_4K, 16, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M - 8 * SZ_4K, 16, ZEX_PT_WRITABLE };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M, 64, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M, 64, 0 };
	do_unbind(c, 0);	/* release A: B's 64 pages all stay */
	check_range(c, SZ_2M - 8 * SZ_4K, 72);
	check_all(c);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M, NULL), 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_2M - SZ_4K, NULL), 0);
	pt_ctx_fini(c);

	pt_ctx_init(test, c, 2);
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M - 8 * SZ_4K, 16, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M - 8 * SZ_4K, 16, ZEX_PT_WRITABLE };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_2M, 64, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_2M, 64, 0 };
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
	c->live[c->nlive++] = (struct binding){ SZ_1G - 4 * SZ_4K, 4, ZEX_PT_WRITABLE };
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_1G, 4, true, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_1G, 4, ZEX_PT_WRITABLE };
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_1G - SZ_4K, NULL), 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, SZ_1G, NULL), 1);
	/* Nested inside the first. */
	KUNIT_ASSERT_EQ(test, do_bind(c, SZ_1G - 3 * SZ_4K, 1, false, 0), 0);
	c->live[c->nlive++] = (struct binding){ SZ_1G - 3 * SZ_4K, 1, 0 };
	check_all(c);
	/* A conflicting frame changes nothing. */
	KUNIT_EXPECT_EQ(test, do_bind(c, SZ_1G - 2 * SZ_4K, 8, true, 1), -EBUSY);
	check_all(c);
	pt_ctx_fini(c);
}

static void bind_live(struct pt_ctx *c, u64 va, u64 npages, bool writable)
{
	KUNIT_ASSERT_EQ(c->test, do_bind(c, va, npages, writable, 0), 0);
	c->live[c->nlive++] = (struct binding){ va, npages, writable ? ZEX_PT_WRITABLE : 0 };
}

static void zex_test_pt_huge_and_small_release_either(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u64 block = 2ull * SZ_1G;	/* an even 2 MiB block: huge frames */
	int first;

	for (first = 0; first < 2; first++) {
		pt_ctx_init(test, c, 10 + first);
		bind_live(c, block, ZEX_PT_ENTRIES, false);	/* one 2 MiB leaf */
		KUNIT_EXPECT_EQ(test, c->pt.huge, 1);
		KUNIT_EXPECT_EQ(test, c->pt.nodes[0], 0);
		bind_live(c, block + 100 * SZ_4K, 16, true);	/* splits it */
		KUNIT_EXPECT_EQ(test, c->pt.huge, 0);
		KUNIT_EXPECT_EQ(test, c->pt.nodes[0], 1);
		check_all(c);
		/* Release the 2 MiB import, or the 4 KiB one: the other stays whole. */
		do_unbind(c, first);
		check_range(c, block, ZEX_PT_ENTRIES);
		check_all(c);
		KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, block + 100 * SZ_4K, NULL), 1);
		KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, block, NULL), first ? 1 : 0);
		pt_ctx_fini(c);
	}

	/* Two 2 MiB imports share one leaf; a conflicting one changes nothing. */
	pt_ctx_init(test, c, 12);
	bind_live(c, block, ZEX_PT_ENTRIES, true);
	bind_live(c, block, ZEX_PT_ENTRIES, false);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 1);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, block + SZ_1M, NULL), 2);
	KUNIT_EXPECT_EQ(test, do_bind(c, block, ZEX_PT_ENTRIES, true, 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, do_bind(c, block + SZ_1M, 1, true, 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 1);
	check_all(c);
	do_unbind(c, 0);
	KUNIT_EXPECT_EQ(test, zex_pt_leaf_size(&c->pt, block), ZEX_PT_HUGE_SIZE);
	check_all(c);
	pt_ctx_fini(c);
}

static void zex_test_pt_on_demand(struct kunit *test)
{
	struct pt_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	u64 va = SZ_4M - 4 * SZ_4K, block = SZ_8M;
	unsigned int i, first = (va >> PAGE_SHIFT) & (ZEX_PT_ENTRIES - 1);
	struct zex_pt_fill fill = {};
	struct zex_pt_block *blk;
	unsigned long *pfns, pfn, tables;
	bool writable;

	pt_ctx_init(test, c, 20);
	pfns = kunit_kcalloc(test, ZEX_PT_ENTRIES, sizeof(*pfns), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pfns);
	bind_live(c, va - SZ_4K, 1, true);
	/* An on-demand binding shares no page, either way round. */
	KUNIT_EXPECT_EQ(test, zex_pt_bind(&c->pt, va - SZ_4K, 2, NULL, ZEX_PT_ON_DEMAND), -EBUSY);
	KUNIT_ASSERT_EQ(test, zex_pt_bind(&c->pt, va, 8, NULL,
					  ZEX_PT_ON_DEMAND | ZEX_PT_WRITABLE), 0);
	KUNIT_EXPECT_EQ(test, zex_pt_bind(&c->pt, va + SZ_4K, 1, c->pool, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, zex_pt_bind(&c->pt, va, 1, NULL, ZEX_PT_ON_DEMAND), -EBUSY);
	/* Parts of blocks: leaf tables. Stale until filled; filled, then stale again. */
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va, &pfn, &writable), -ESTALE);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, va, NULL), 1);
	blk = zex_pt_block_get(&c->pt, va);
	KUNIT_ASSERT_NOT_NULL(test, blk);
	KUNIT_EXPECT_TRUE(test, zex_pt_block_any_stale(blk, first, 4));
	for (i = 0; i < 4; i++)
		pfns[i] = page_to_pfn(c->pool[i]);
	/* A leaf table already: nothing to allocate. */
	KUNIT_EXPECT_EQ(test, zex_pt_block_fill_prepare(&c->pt, blk, 4, pfns, &fill), 0);
	KUNIT_EXPECT_NULL(test, fill.table);
	zex_pt_block_fill(&c->pt, blk, first, 4, pfns, &fill);	/* the first block's four */
	KUNIT_EXPECT_FALSE(test, zex_pt_block_any_stale(blk, first, 4));
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va + 3 * SZ_4K, &pfn, &writable), 0);
	KUNIT_EXPECT_EQ(test, pfn, pfns[3]);
	KUNIT_EXPECT_TRUE(test, writable);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va + 4 * SZ_4K, &pfn, &writable), -ESTALE);
	zex_pt_block_mark_stale(blk, first + 1, 2);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va, &pfn, &writable), 0);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va + SZ_4K, &pfn, &writable), -ESTALE);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va + 3 * SZ_4K, &pfn, &writable), 0);
	/* The neighbour's own PTE is not on demand: never made stale. */
	zex_pt_block_mark_stale(blk, first - 1, 1);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, va - SZ_4K, &pfn, &writable), 0);
	zex_pt_unbind(&c->pt, va, 8, ZEX_PT_ON_DEMAND | ZEX_PT_WRITABLE, NULL, NULL);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, va, NULL), 0);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, va + 7 * SZ_4K, NULL), 0);
	check_all(c);

	/* A whole block: a stale 2 MiB leaf, no leaf table. */
	tables = c->pt.nodes[0];
	KUNIT_ASSERT_EQ(test, zex_pt_bind(&c->pt, block, ZEX_PT_ENTRIES, NULL,
					  ZEX_PT_ON_DEMAND), 0);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 1);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + SZ_1M, &pfn, &writable), -ESTALE);
	blk = zex_pt_block_get(&c->pt, block);
	for (i = 0; i < ZEX_PT_ENTRIES; i++)
		pfns[i] = page_to_pfn(c->huge[0]) + i;
	/* A huge page behind it: a 2 MiB leaf, read-only like the binding. */
	KUNIT_EXPECT_EQ(test, zex_pt_block_fill_prepare(&c->pt, blk, ZEX_PT_ENTRIES, pfns,
							&fill), 0);
	KUNIT_EXPECT_NULL(test, fill.table);
	zex_pt_block_fill(&c->pt, blk, 0, ZEX_PT_ENTRIES, pfns, &fill);
	KUNIT_EXPECT_EQ(test, zex_pt_leaf_size(&c->pt, block + SZ_1M), ZEX_PT_HUGE_SIZE);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + SZ_1M, &pfn, &writable), 0);
	KUNIT_EXPECT_EQ(test, pfn, pfns[256]);
	KUNIT_EXPECT_FALSE(test, writable);
	/* Part of it invalidated: all of it is stale. */
	zex_pt_block_mark_stale(blk, 3, 1);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + SZ_1M, &pfn, &writable), -ESTALE);
	/* Small pages behind part of it now: a leaf table, the rest still stale. */
	for (i = 0; i < 4; i++)
		pfns[i] = page_to_pfn(c->pool[i]);
	/* A fill prepared, then given up: its table is freed. */
	KUNIT_ASSERT_EQ(test, zex_pt_block_fill_prepare(&c->pt, blk, 4, pfns, &fill), 0);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables + 1);
	zex_pt_block_fill_release(&c->pt, &fill);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables);
	KUNIT_EXPECT_NULL(test, fill.table);
	KUNIT_ASSERT_EQ(test, zex_pt_block_fill_prepare(&c->pt, blk, 4, pfns, &fill), 0);
	KUNIT_ASSERT_NOT_NULL(test, fill.table);
	/* Prepared twice: the table it has is kept, not leaked or doubled. */
	KUNIT_EXPECT_EQ(test, zex_pt_block_fill_prepare(&c->pt, blk, 4, pfns, &fill), 0);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables + 1);
	zex_pt_block_fill(&c->pt, blk, 0, 4, pfns, &fill);
	KUNIT_EXPECT_NULL(test, fill.table);
	zex_pt_block_fill_release(&c->pt, &fill);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 0);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables + 1);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + 2 * SZ_4K, &pfn, &writable), 0);
	KUNIT_EXPECT_EQ(test, pfn, pfns[2]);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + 4 * SZ_4K, &pfn, &writable), -ESTALE);
	KUNIT_EXPECT_EQ(test, zex_pt_leaf_size(&c->pt, block), PAGE_SIZE);
	/* A huge page again: back to a 2 MiB leaf, the table freed. */
	for (i = 0; i < ZEX_PT_ENTRIES; i++)
		pfns[i] = page_to_pfn(c->huge[1]) + i;
	zex_pt_block_fill(&c->pt, blk, 0, ZEX_PT_ENTRIES, pfns, &fill);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 1);
	KUNIT_EXPECT_EQ(test, c->pt.nodes[0], tables);
	KUNIT_EXPECT_EQ(test, zex_pt_lookup(&c->pt, block + 4 * SZ_4K, &pfn, &writable), 0);
	KUNIT_EXPECT_EQ(test, pfn, pfns[4]);
	KUNIT_EXPECT_EQ(test, zex_pt_count(&c->pt, block + 4 * SZ_4K, NULL), 1);
	/* Nothing else may bind there. */
	KUNIT_EXPECT_EQ(test, zex_pt_bind(&c->pt, block, 1, c->huge, 0), -EBUSY);
	zex_pt_unbind(&c->pt, block, ZEX_PT_ENTRIES, ZEX_PT_ON_DEMAND, NULL, NULL);
	KUNIT_EXPECT_EQ(test, c->pt.huge, 0);
	check_all(c);
	pt_ctx_fini(c);
}

static struct kunit_case zex_pt_test_cases[] = {
	KUNIT_CASE(zex_test_pt_huge_and_small_release_either),
	KUNIT_CASE(zex_test_pt_on_demand),
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
