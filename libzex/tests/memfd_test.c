// SPDX-License-Identifier: MIT
/*
 * DOC: memfd_test.c - host unit test of the memfds host memory lives in
 *
 * A memfd has the size asked for and closes on exec; past the soft
 * RLIMIT_NOFILE the soft limit is raised to the hard one and the memfd
 * made; at the hard limit the call fails with EMFILE and raises nothing;
 * a size the file cannot have fails and leaves no descriptor behind.
 * (The harness runs each test in a process of its own: the limits set
 * here end with it.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "l0/memory/memfd.h"

/* How many descriptors the process holds. */
static int open_fds(void)
{
	int n = 0, fd;

	for (fd = 0; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

static void set_limits(struct __test_metadata *_metadata, rlim_t soft, rlim_t hard)
{
	struct rlimit lim = { .rlim_cur = soft, .rlim_max = hard };

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &lim));
}

TEST(a_memfd_has_its_size_and_closes_on_exec)
{
	struct stat st;
	int fd = zex_memfd_create("zex-test", 3 << 16);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_EQ(3 << 16, st.st_size);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST(past_the_soft_limit_the_limit_is_raised_to_the_hard_one)
{
	struct rlimit lim;
	int i, fd;

	set_limits(_metadata, 64, 256);
	for (i = 0; i < 150; i++) {
		fd = zex_memfd_create("zex-test", 4096);
		ASSERT_LE(0, fd) TH_LOG("memfd %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &lim));
	EXPECT_EQ(256, lim.rlim_cur);
	EXPECT_EQ(256, lim.rlim_max);
}

TEST(at_the_hard_limit_it_fails_with_emfile)
{
	struct rlimit lim;
	int i, fd = 0;

	set_limits(_metadata, 64, 64);
	for (i = 0; i < 64 && fd >= 0; i++)
		fd = zex_memfd_create("zex-test", 4096);
	ASSERT_EQ(-1, fd);
	EXPECT_EQ(EMFILE, errno);
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &lim));
	EXPECT_EQ(64, lim.rlim_cur);
}

TEST(a_size_the_file_cannot_have_fails_and_leaves_no_descriptor)
{
	int before = open_fds();

	EXPECT_EQ(-1, zex_memfd_create("zex-test", SIZE_MAX));
	EXPECT_NE(0, errno);
	EXPECT_EQ(before, open_fds());
}

TEST_HARNESS_MAIN
