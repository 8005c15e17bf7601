// SPDX-License-Identifier: MIT
/*
 * DOC: translation_cache_test.c - host unit test of the translated modules' cache
 *
 * A module kept is found by its bytes alone (a module of the same size
 * and other bytes is not), with its bitcode and messages as they were,
 * given as copies; beyond the capacity the least recently used go first
 * (a lookup counts as a use); the bytes held never exceed the capacity;
 * a module kept twice is one entry; an entry larger than the capacity is
 * not kept; threads looking up and inserting at once all find what they
 * kept.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "compute/translation_cache.h"

/* A module of @size bytes made from @seed, and its "bitcode". */
static void fill(unsigned char *buf, size_t size, unsigned int seed)
{
	size_t i;

	for (i = 0; i < size; i++)
		buf[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}

static int lookup_seed(struct zex_translation_cache *c, unsigned int seed, size_t size,
		       unsigned int want_seed, size_t want_size)
{
	unsigned char spirv[4096], want[4096];
	char *messages = NULL;
	void *bitcode = NULL;
	size_t got = 0;
	int ret;

	fill(spirv, size, seed);
	ret = zex_translation_cache_lookup(c, spirv, size, &bitcode, &got, &messages);
	if (ret)
		return ret;
	fill(want, want_size, want_seed);
	ret = got == want_size && !memcmp(bitcode, want, got) ? 0 : -EBADMSG;
	free(bitcode);
	free(messages);
	return ret;
}

/* Module @seed of @size bytes, its bitcode that of seed + 1000, twice the size. */
static void insert_seed(struct zex_translation_cache *c, unsigned int seed, size_t size,
			const char *messages)
{
	unsigned char spirv[4096], bitcode[8192];

	fill(spirv, size, seed);
	fill(bitcode, size * 2, seed + 1000);
	zex_translation_cache_insert(c, spirv, size, bitcode, size * 2, messages);
}

TEST(a_kept_module_is_found_by_its_bytes_with_its_bitcode_and_messages)
{
	struct zex_translation_cache *c = zex_translation_cache_new(1 << 20);
	unsigned char spirv[256], other[256];
	char *messages = NULL;
	void *bitcode = NULL;
	unsigned int entries;
	size_t size = 0;

	ASSERT_NE(NULL, c);
	fill(spirv, sizeof(spirv), 1);
	EXPECT_EQ(-ENOENT, zex_translation_cache_lookup(c, spirv, sizeof(spirv), &bitcode,
							 &size, &messages));
	insert_seed(c, 1, sizeof(spirv), "warning: one\nwarning: two\n");
	ASSERT_EQ(0, zex_translation_cache_lookup(c, spirv, sizeof(spirv), &bitcode, &size,
						  &messages));
	EXPECT_EQ(0, lookup_seed(c, 1, sizeof(spirv), 1001, sizeof(spirv) * 2));
	ASSERT_NE(NULL, messages);
	EXPECT_STREQ("warning: one\nwarning: two\n", messages);
	/* A copy: what the caller does to it is not in the cache. */
	memset(bitcode, 0, size);
	free(bitcode);
	free(messages);
	EXPECT_EQ(0, lookup_seed(c, 1, sizeof(spirv), 1001, sizeof(spirv) * 2));

	/* Same size, one byte other: not the module. */
	memcpy(other, spirv, sizeof(other));
	other[sizeof(other) / 2] ^= 1;
	EXPECT_EQ(-ENOENT, zex_translation_cache_lookup(c, other, sizeof(other), &bitcode,
							 &size, &messages));
	/* A prefix of it: not the module either. */
	EXPECT_EQ(-ENOENT, zex_translation_cache_lookup(c, spirv, sizeof(spirv) - 1, &bitcode,
							 &size, &messages));

	/* No messages: none given back. */
	insert_seed(c, 2, 100, NULL);
	fill(spirv, 100, 2);
	messages = (char *)"untouched";
	ASSERT_EQ(0, zex_translation_cache_lookup(c, spirv, 100, &bitcode, &size, &messages));
	EXPECT_EQ(NULL, messages);
	free(bitcode);

	/* Kept twice: one entry. */
	insert_seed(c, 2, 100, NULL);
	zex_translation_cache_bytes(c, &entries);
	EXPECT_EQ(2u, entries);
	zex_translation_cache_free(c);
}

TEST(beyond_the_capacity_the_least_recently_used_go_first)
{
	/* Room for three entries of a 1000-byte module (3000 bytes with bitcode), not four. */
	struct zex_translation_cache *c = zex_translation_cache_new(3 * 3200);
	unsigned int entries, seed;

	ASSERT_NE(NULL, c);
	for (seed = 1; seed <= 3; seed++)
		insert_seed(c, seed, 1000, NULL);
	zex_translation_cache_bytes(c, &entries);
	ASSERT_EQ(3u, entries);
	/* 1 used again: 2 is now the least recently used. */
	ASSERT_EQ(0, lookup_seed(c, 1, 1000, 1001, 2000));
	insert_seed(c, 4, 1000, NULL);
	EXPECT_EQ(-ENOENT, lookup_seed(c, 2, 1000, 1002, 2000));
	EXPECT_EQ(0, lookup_seed(c, 1, 1000, 1001, 2000));
	EXPECT_EQ(0, lookup_seed(c, 3, 1000, 1003, 2000));
	EXPECT_EQ(0, lookup_seed(c, 4, 1000, 1004, 2000));
	EXPECT_GE(3u * 3200, zex_translation_cache_bytes(c, &entries));
	EXPECT_EQ(3u, entries);

	/*
	 * A larger one drops as many as it needs, least recently used first:
	 * the lookups above left 4, 3, 1 in that order; 1 and 3 go.
	 */
	insert_seed(c, 5, 1200, NULL);
	EXPECT_EQ(0, lookup_seed(c, 5, 1200, 1005, 2400));
	EXPECT_EQ(0, lookup_seed(c, 4, 1000, 1004, 2000));
	EXPECT_EQ(-ENOENT, lookup_seed(c, 1, 1000, 1001, 2000));
	EXPECT_EQ(-ENOENT, lookup_seed(c, 3, 1000, 1003, 2000));
	EXPECT_GE(3u * 3200, zex_translation_cache_bytes(c, &entries));
	EXPECT_EQ(2u, entries);
	zex_translation_cache_free(c);
}

TEST(an_entry_larger_than_the_capacity_is_not_kept)
{
	struct zex_translation_cache *c = zex_translation_cache_new(4000);
	unsigned int entries;

	ASSERT_NE(NULL, c);
	insert_seed(c, 1, 500, NULL);
	/* 2000 bytes of module and 4000 of bitcode. */
	insert_seed(c, 2, 2000, NULL);
	EXPECT_EQ(-ENOENT, lookup_seed(c, 2, 2000, 1002, 4000));
	/* Nothing was dropped for it. */
	EXPECT_EQ(0, lookup_seed(c, 1, 500, 1001, 1000));
	zex_translation_cache_bytes(c, &entries);
	EXPECT_EQ(1u, entries);
	zex_translation_cache_free(c);
}

struct worker {
	struct zex_translation_cache *c;
	unsigned int first;
	int failures;
};

static void *work(void *data)
{
	struct worker *w = data;
	unsigned int round, i;

	for (round = 0; round < 50; round++)
		for (i = 0; i < 8; i++) {
			unsigned int seed = w->first + i;
			int ret = lookup_seed(w->c, seed, 300, seed + 1000, 600);

			if (ret == -ENOENT)
				insert_seed(w->c, seed, 300, "m\n");
			else if (ret)
				w->failures++;
		}
	return NULL;
}

TEST(threads_sharing_the_cache_find_what_they_kept)
{
	/* Room for every thread's modules: what one kept, it finds. */
	struct zex_translation_cache *c = zex_translation_cache_new(1 << 20);
	struct worker w[4];
	pthread_t t[4];
	unsigned int i, entries;

	ASSERT_NE(NULL, c);
	for (i = 0; i < 4; i++) {
		/* Threads 0 and 1 share their modules, as do 2 and 3. */
		w[i] = (struct worker){ .c = c, .first = (i / 2) * 8 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, work, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].failures);
	}
	zex_translation_cache_bytes(c, &entries);
	EXPECT_EQ(16u, entries);
	for (i = 0; i < 16; i++)
		EXPECT_EQ(0, lookup_seed(c, i, 300, i + 1000, 600));
	zex_translation_cache_free(c);
}

TEST_HARNESS_MAIN
