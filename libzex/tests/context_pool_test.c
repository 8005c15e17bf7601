// SPDX-License-Identifier: MIT
/*
 * DOC: context_pool_test.c - host unit test of the context pool
 *
 * A destroyed context is not found again, nor is it destroyed twice; its
 * slot is not handed out again before 4096 other destroyed slots; any
 * address that is not a live slot (inside a slot, past a chunk, on the
 * heap, on the stack) is refused without being read (ASan watches); and
 * eight threads creating, finding and destroying at once agree, and so
 * do eight finders while another thread adds 64 chunks (under ASan here,
 * under ThreadSanitizer in the TSan build).
 */
#include <pthread.h>
#include <stdlib.h>

#include "kselftest_harness.h"
#include "l0/base/l0.h"
#include "l0/base/context_pool.h"

static struct zex_l0_context *make(void)
{
	struct zex_l0_context *c = zex_context_pool_get();

	if (c)
		atomic_store(&c->live, true);
	return c;
}

TEST(a_destroyed_context_is_not_found)
{
	struct zex_l0_context *a = make(), *b = make();

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(a, zex_context_pool_find(a));
	EXPECT_EQ(b, zex_context_pool_find(b));
	zex_context_pool_put(a);
	EXPECT_EQ(NULL, zex_context_pool_find(a));
	EXPECT_EQ(b, zex_context_pool_find(b));
	zex_context_pool_put(b);
}

TEST(addresses_that_are_no_live_slot_are_refused)
{
	struct zex_l0_context *a = make();
	int on_stack;
	char *heap = malloc(64);

	ASSERT_NE(NULL, a);
	EXPECT_EQ(NULL, zex_context_pool_find(NULL));
	EXPECT_EQ(NULL, zex_context_pool_find((char *)a + 1));
	EXPECT_EQ(NULL, zex_context_pool_find((char *)a + sizeof(*a) / 2));
	EXPECT_EQ(NULL, zex_context_pool_find(&on_stack));
	EXPECT_EQ(NULL, zex_context_pool_find(heap));
	EXPECT_EQ(NULL, zex_context_pool_find((void *)1));
	EXPECT_EQ(NULL, zex_context_pool_find((void *)UINTPTR_MAX));
	free(heap);
	zex_context_pool_put(a);
}

TEST(a_slot_waits_out_the_quarantine_before_reuse)
{
	static struct zex_l0_context *seen[8192];
	struct zex_l0_context *first = make(), *c;
	int i, reused_at = -1;

	ASSERT_NE(NULL, first);
	zex_context_pool_put(first);
	for (i = 0; i < 8192; i++) {
		c = make();
		ASSERT_NE(NULL, c);
		if (c == first && reused_at < 0)
			reused_at = i;
		seen[i] = c;
		zex_context_pool_put(c);
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
		struct zex_l0_context *c = make();

		if (!c || zex_context_pool_find(c) != c)
			bad++;
		zex_context_pool_put(c);
		if (zex_context_pool_find(c) == c && !atomic_load(&c->live))
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
	struct zex_l0_context *known = arg;
	long bad = 0;

	while (atomic_load(&growing))
		if (zex_context_pool_find(known) != known)
			bad++;
	return (void *)bad;
}

TEST(finders_see_the_index_whole_while_chunks_are_added)
{
	static struct zex_l0_context *made[GROWTH_CONTEXTS];
	struct zex_l0_context *known = make();
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
		EXPECT_EQ(made[i], zex_context_pool_find(made[i]));
	for (i = 0; i < GROWTH_CONTEXTS; i++)
		zex_context_pool_put(made[i]);
	zex_context_pool_put(known);
}

TEST_HARNESS_MAIN
