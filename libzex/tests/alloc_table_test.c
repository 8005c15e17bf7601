// SPDX-License-Identifier: MIT
/*
 * DOC: alloc_table_test.c - host unit test of the allocation table
 *
 * Lookups by interior pointers and edges, overlap refusal, adjacency,
 * removal only by exact base, references outliving removal, ranges
 * covered by one entry or by entries side by side (not across a gap), and eight
 * threads inserting, finding and removing at once (under ASan, UBSan).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "l0/base/alloc_table.h"

static int released;

static void count_release(struct zex_alloc *a)
{
	__atomic_add_fetch(&released, 1, __ATOMIC_SEQ_CST);
	free(a);
}

static struct zex_alloc *mk(uintptr_t base, uint64_t size)
{
	struct zex_alloc *a = calloc(1, sizeof(*a));

	a->base = base;
	a->size = size;
	a->kind = 1;
	a->release = count_release;
	return a;
}

TEST(find_by_any_interior_pointer)
{
	struct zex_alloc_table t;
	struct zex_alloc *a, *f;

	zex_alloc_table_init(&t);
	released = 0;
	ASSERT_EQ(0, zex_alloc_table_insert(&t, a = mk(0x10000, 0x3000)));
	ASSERT_EQ(0, zex_alloc_table_insert(&t, mk(0x20000, 0x1000)));
	EXPECT_EQ(NULL, zex_alloc_table_find(&t, (void *)0xffff));
	f = zex_alloc_table_find(&t, (void *)0x10000);
	EXPECT_EQ(a, f);
	zex_alloc_put(f);
	f = zex_alloc_table_find(&t, (void *)0x12fff);
	EXPECT_EQ(a, f);
	zex_alloc_put(f);
	EXPECT_EQ(NULL, zex_alloc_table_find(&t, (void *)0x13000));
	EXPECT_EQ(NULL, zex_alloc_table_find(&t, (void *)0x21000));
	zex_alloc_table_fini(&t);
	EXPECT_EQ(2, released);
}

TEST(overlaps_refused_adjacency_allowed)
{
	struct zex_alloc_table t;
	struct zex_alloc *x;

	zex_alloc_table_init(&t);
	released = 0;
	ASSERT_EQ(0, zex_alloc_table_insert(&t, mk(0x10000, 0x2000)));
	x = mk(0x11000, 0x2000);
	EXPECT_EQ(-EEXIST, zex_alloc_table_insert(&t, x));
	x->base = 0xf000;
	EXPECT_EQ(-EEXIST, zex_alloc_table_insert(&t, x));
	x->base = 0x10800;
	x->size = 0x100;
	EXPECT_EQ(-EEXIST, zex_alloc_table_insert(&t, x));
	x->size = 0;
	EXPECT_EQ(-EINVAL, zex_alloc_table_insert(&t, x));
	x->base = UINTPTR_MAX - 10;
	x->size = 100;
	EXPECT_EQ(-EINVAL, zex_alloc_table_insert(&t, x));
	free(x);
	/* Page-adjacent on both sides is fine. */
	EXPECT_EQ(0, zex_alloc_table_insert(&t, mk(0x12000, 0x1000)));
	EXPECT_EQ(0, zex_alloc_table_insert(&t, mk(0xe000, 0x2000)));
	zex_alloc_table_fini(&t);
	EXPECT_EQ(3, released);
}

TEST(ranges_covered_by_entries_side_by_side)
{
	struct zex_alloc_table t;

	zex_alloc_table_init(&t);
	/* [0x10000, 0x12000) [0x12000, 0x13000) gap [0x14000, 0x15000) */
	ASSERT_EQ(0, zex_alloc_table_insert(&t, mk(0x10000, 0x2000)));
	ASSERT_EQ(0, zex_alloc_table_insert(&t, mk(0x12000, 0x1000)));
	ASSERT_EQ(0, zex_alloc_table_insert(&t, mk(0x14000, 0x1000)));
	EXPECT_TRUE(zex_alloc_table_covers(&t, (void *)0x10000, 0x2000));
	EXPECT_TRUE(zex_alloc_table_covers(&t, (void *)0x11000, 0x2000));
	EXPECT_TRUE(zex_alloc_table_covers(&t, (void *)0x10000, 0x3000));
	EXPECT_TRUE(zex_alloc_table_covers(&t, (void *)0x12fff, 0));
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0x10000, 0x3001));
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0x12000, 0x3000));
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0x13000, 0x10));
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0xf000, 0x2000));
	EXPECT_TRUE(zex_alloc_table_covers(&t, (void *)0x14fff, 1));
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0x14fff, 2));
	/* A range that wraps is covered by nothing. */
	EXPECT_FALSE(zex_alloc_table_covers(&t, (void *)0x14000, UINT64_MAX));
	zex_alloc_table_fini(&t);
}

TEST(remove_by_exact_base_and_references_outlive_it)
{
	struct zex_alloc_table t;
	struct zex_alloc *a, *held;

	zex_alloc_table_init(&t);
	released = 0;
	ASSERT_EQ(0, zex_alloc_table_insert(&t, a = mk(0x40000, 0x4000)));
	EXPECT_EQ(NULL, zex_alloc_table_remove(&t, (void *)0x41000, -1));
	held = zex_alloc_table_find(&t, (void *)0x41000);
	ASSERT_EQ(a, held);
	EXPECT_EQ(NULL, zex_alloc_table_remove(&t, (void *)0x40000, 2));
	EXPECT_EQ(a, zex_alloc_table_remove(&t, (void *)0x40000, 1));
	EXPECT_EQ(NULL, zex_alloc_table_find(&t, (void *)0x41000));
	zex_alloc_put(a);		/* the table's reference */
	EXPECT_EQ(0, released);		/* still held by the lookup */
	EXPECT_EQ(0x4000, held->size);
	zex_alloc_put(held);
	EXPECT_EQ(1, released);
	zex_alloc_table_fini(&t);
}

static struct zex_alloc_table shared;

static void *churn(void *arg)
{
	uintptr_t base = (uintptr_t)arg;
	int i;

	for (i = 0; i < 2000; i++) {
		uintptr_t b = base + (uintptr_t)(i % 50) * 0x1000;
		struct zex_alloc *a = mk(b, 0x1000), *f;

		if (zex_alloc_table_insert(&shared, a)) {
			free(a);
			return (void *)1;
		}
		f = zex_alloc_table_find(&shared, (void *)(b + 10));
		if (f != a)
			return (void *)2;
		zex_alloc_put(f);
		if (zex_alloc_table_remove(&shared, (void *)b, -1) != a)
			return (void *)3;
		zex_alloc_put(a);
	}
	return NULL;
}

TEST(eight_threads)
{
	pthread_t th[8];
	void *ret;
	int i;

	zex_alloc_table_init(&shared);
	released = 0;
	for (i = 0; i < 8; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, churn,
					    (void *)(uintptr_t)(0x1000000 * (i + 1))));
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, pthread_join(th[i], &ret));
		EXPECT_EQ(NULL, ret);
	}
	EXPECT_EQ(8 * 2000, released);
	zex_alloc_table_fini(&shared);
}

TEST_HARNESS_MAIN
