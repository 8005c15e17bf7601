// SPDX-License-Identifier: MIT
/*
 * DOC: debug_keys_test.c - host unit test of zex_debug_keys_read()
 *
 * A fake environment feeds each key valid, boundary and malformed values;
 * malformed ones are refused by name, each once, and never take a valid
 * key down with them.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "core/debug_keys.h"

static const char *fake_env[3][2];

static const char *fake_getenv(const char *name)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (fake_env[i][0] && !strcmp(fake_env[i][0], name))
			return fake_env[i][1];
	return NULL;
}

/* What the reader reported: the invalid keys' names, in order. */
static const char *reported[3];
static int num_reported;

static void record_invalid(const char *name, const char *value, void *arg)
{
	(void)value;
	(void)arg;
	if (num_reported < 3)
		reported[num_reported] = name;
	num_reported++;
}

static int read_keys(struct zex_debug_keys *k)
{
	num_reported = 0;
	return zex_debug_keys_read(k, fake_getenv, record_invalid, NULL);
}

static void set_env(const char *scaling, const char *policy, const char *gran)
{
	fake_env[0][0] = "EnableImplicitScaling";
	fake_env[0][1] = scaling;
	fake_env[1][0] = "MultiStoragePolicy";
	fake_env[1][1] = policy;
	fake_env[2][0] = "MultiStorageGranularity";
	fake_env[2][1] = gran;
}

TEST(unset_keys_are_minus_one)
{
	struct zex_debug_keys k;

	set_env(NULL, NULL, NULL);
	ASSERT_EQ(0, read_keys(&k));
	EXPECT_EQ(-1, k.enable_implicit_scaling);
	EXPECT_EQ(-1, k.multi_storage_policy);
	EXPECT_EQ(-1, k.multi_storage_granularity_kb);
	EXPECT_EQ(0, num_reported);
}

TEST(valid_values)
{
	struct zex_debug_keys k;

	set_env("0", "2", "128");
	ASSERT_EQ(0, read_keys(&k));
	EXPECT_EQ(0, k.enable_implicit_scaling);
	EXPECT_EQ(2, k.multi_storage_policy);
	EXPECT_EQ(128, k.multi_storage_granularity_kb);
	set_env("1", "0", "64");
	ASSERT_EQ(0, read_keys(&k));
	EXPECT_EQ(1, k.enable_implicit_scaling);
	EXPECT_EQ(64, k.multi_storage_granularity_kb);
	set_env(NULL, NULL, "1048576");
	ASSERT_EQ(0, read_keys(&k));
	EXPECT_EQ(1048576, k.multi_storage_granularity_kb);
}

TEST(invalid_values_are_named)
{
	static const char *const bad_scaling[] = { "2", "-1", "", "1x", " 1", "yes" };
	static const char *const bad_policy[] = { "3", "-0", "0x1" };
	static const char *const bad_gran[] = { "32", "96", "0", "2097152",
						"99999999999999999999999" };
	struct zex_debug_keys k;
	unsigned int i;

	for (i = 0; i < sizeof(bad_scaling) / sizeof(bad_scaling[0]); i++) {
		set_env(bad_scaling[i], NULL, NULL);
		EXPECT_EQ(1, read_keys(&k));
		EXPECT_STREQ("EnableImplicitScaling", reported[0]);
	}
	for (i = 0; i < sizeof(bad_policy) / sizeof(bad_policy[0]); i++) {
		set_env("1", bad_policy[i], NULL);
		EXPECT_EQ(1, read_keys(&k));
		EXPECT_STREQ("MultiStoragePolicy", reported[0]);
	}
	for (i = 0; i < sizeof(bad_gran) / sizeof(bad_gran[0]); i++) {
		set_env(NULL, "1", bad_gran[i]);
		EXPECT_EQ(1, read_keys(&k));
		EXPECT_STREQ("MultiStorageGranularity", reported[0]);
	}
}

TEST(an_invalid_key_does_not_take_the_others_down)
{
	struct zex_debug_keys k;

	/* The case that used to drop every key after the first bad one. */
	set_env("banana", "2", "128");
	EXPECT_EQ(1, read_keys(&k));
	EXPECT_EQ(1, num_reported);
	EXPECT_STREQ("EnableImplicitScaling", reported[0]);
	EXPECT_EQ(-1, k.enable_implicit_scaling);
	EXPECT_EQ(2, k.multi_storage_policy);
	EXPECT_EQ(128, k.multi_storage_granularity_kb);
	/* Every invalid key named, once each. */
	set_env("2", "x", "96");
	EXPECT_EQ(3, read_keys(&k));
	ASSERT_EQ(3, num_reported);
	EXPECT_STREQ("EnableImplicitScaling", reported[0]);
	EXPECT_STREQ("MultiStoragePolicy", reported[1]);
	EXPECT_STREQ("MultiStorageGranularity", reported[2]);
	set_env("1", "bad", "64");
	EXPECT_EQ(1, read_keys(&k));
	EXPECT_EQ(1, k.enable_implicit_scaling);
	EXPECT_EQ(-1, k.multi_storage_policy);
	EXPECT_EQ(64, k.multi_storage_granularity_kb);
}

TEST_HARNESS_MAIN
