// SPDX-License-Identifier: MIT
/*
 * DOC: object_pool_test.c - host unit test of the object pools
 *
 * A destroyed object is not found again, nor is it destroyed twice; its
 * slot is not handed out again before 4096 other destroyed slots; any
 * address that is not a live slot (inside a slot, past a chunk, on the
 * heap, on the stack) is refused without being read (ASan watches); and
 * eight threads creating, finding and destroying at once agree, and so
 * do eight finders while another thread adds 64 chunks (under ASan here,
 * under ThreadSanitizer in the TSan build); an object of one pool is not
 * found in another, even at an address that is a slot boundary there.
 */
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "l0/base/object_pool.h"

/* A type the size of none of libzex's (so slots are not a power of two). */
struct thing {
	struct zex_l0_object obj;
	char payload[40];
};

/* One whose slots are a multiple of struct thing's: boundaries coincide. */
struct big_thing {
	struct zex_l0_object obj;
	char payload[sizeof(struct thing) * 3 - sizeof(struct zex_l0_object)];
};

static struct zex_object_pool things = ZEX_OBJECT_POOL(struct thing);
static struct zex_object_pool big_things = ZEX_OBJECT_POOL(struct big_thing);

/* Stand-ins for the DDI tables the handles point at. */
const ze_dditable_driver_t zex_ddi_ze;
const zet_dditable_driver_t zex_ddi_zet;
const zes_dditable_driver_t zex_ddi_zes;

static struct thing *make(void)
{
	struct thing *c = zex_object_pool_get(&things);

	if (c)
		zex_l0_object_publish(&c->obj);
	return c;
}

static struct thing *find(const void *h)
{
	return zex_object_pool_find(&things, h);
}

static void put(struct thing *t)
{
	zex_object_pool_put(&things, t);
}

TEST(a_destroyed_object_is_not_found)
{
	struct thing *a = make(), *b = make();

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(a, find(a));
	EXPECT_EQ(b, find(b));
	put(a);
	EXPECT_EQ(NULL, find(a));
	EXPECT_EQ(b, find(b));
	put(b);
}

TEST(addresses_that_are_no_live_slot_are_refused)
{
	struct thing *a = make();
	int on_stack;
	char *heap = malloc(64);

	ASSERT_NE(NULL, a);
	EXPECT_EQ(NULL, find(NULL));
	EXPECT_EQ(NULL, find((char *)a + 1));
	EXPECT_EQ(NULL, find((char *)a + sizeof(*a) / 2));
	EXPECT_EQ(NULL, find(&on_stack));
	EXPECT_EQ(NULL, find(heap));
	EXPECT_EQ(NULL, find((void *)1));
	EXPECT_EQ(NULL, find((void *)UINTPTR_MAX));
	free(heap);
	put(a);
}

TEST(a_slot_waits_out_the_quarantine_before_reuse)
{
	static struct thing *seen[8192];
	struct thing *first = make(), *c;
	int i, reused_at = -1;

	ASSERT_NE(NULL, first);
	put(first);
	for (i = 0; i < 8192; i++) {
		c = make();
		ASSERT_NE(NULL, c);
		if (c == first && reused_at < 0)
			reused_at = i;
		seen[i] = c;
		put(c);
	}
	/* Not before 4096 others were destroyed after it. */
	EXPECT_LE(4096, reused_at);
	(void)seen;
}

#define THREADS 8

static void *churn(void *arg)
{
	long bad = 0;
	int i;

	(void)arg;
	for (i = 0; i < 20000; i++) {
		struct thing *c = make();

		if (!c || find(c) != c)
			bad++;
		put(c);
		if (find(c) == c && !atomic_load(&c->obj.live))
			bad++;
	}
	return (void *)bad;
}

TEST(threads_create_find_and_destroy_at_once)
{
	pthread_t t[THREADS];
	void *bad;
	int i;

	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, churn, NULL));
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &bad);
		EXPECT_EQ(0, (long)bad);
	}
}

/* Finders while another thread adds chunks: the index they search is whole. */
#define GROWTH_CONTEXTS	(64 * 256)

static _Atomic int growing;

static void *find_while_growing(void *arg)
{
	struct thing *known = arg;
	long bad = 0;

	while (atomic_load(&growing))
		if (find(known) != known)
			bad++;
	return (void *)bad;
}

TEST(finders_see_the_index_whole_while_chunks_are_added)
{
	static struct thing *made[GROWTH_CONTEXTS];
	struct thing *known = make();
	pthread_t t[THREADS];
	void *bad;
	int i;

	ASSERT_NE(NULL, known);
	atomic_store(&growing, 1);
	for (i = 0; i < THREADS; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, find_while_growing, known));
	for (i = 0; i < GROWTH_CONTEXTS; i++) {
		made[i] = make();
		ASSERT_NE(NULL, made[i]);
	}
	atomic_store(&growing, 0);
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &bad);
		EXPECT_EQ(0, (long)bad);
	}
	for (i = 0; i < GROWTH_CONTEXTS; i++)
		EXPECT_EQ(made[i], find(made[i]));
	for (i = 0; i < GROWTH_CONTEXTS; i++)
		put(made[i]);
	put(known);
}

/* Pools do not answer for each other's slots. */
TEST(an_object_of_another_pool_is_refused)
{
	struct big_thing *b = zex_object_pool_get(&big_things);
	struct thing *t = make();

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, t);
	zex_l0_object_publish(&b->obj);
	EXPECT_EQ(b, zex_object_pool_find(&big_things, b));
	EXPECT_EQ(NULL, zex_object_pool_find(&things, b));
	EXPECT_EQ(NULL, zex_object_pool_find(&big_things, t));
	/* A struct thing's size into a big slot: a boundary of neither. */
	EXPECT_EQ(NULL, zex_object_pool_find(&big_things, (char *)b + sizeof(struct thing)));
	zex_object_pool_put(&big_things, b);
	EXPECT_EQ(NULL, zex_object_pool_find(&big_things, b));
	put(t);
}

TEST_HARNESS_MAIN
