// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_ucx_test.c - UCX's Level Zero transports between two processes, on zex
 *
 * UCX, unchanged (built from the vendored tree with --with-ze by
 * tools/check/ucx.sh; /opt/ucx in the VM), through Level Zero loader 1.32.0
 * with libzex its one driver: ucx_info -d lists the ze_copy and ze_ipc
 * transports on zex's device; pairs of processes meeting on 127.0.0.1 move
 * device memory over ze_ipc (the protocol UCX picked names it): the
 * application's own buffers on the root device (coloured: a piece per
 * tile, shared through one standard IPC handle) passed back and forth
 * through UCP with every byte checked (zex_ucp_pingpong), and UCX's
 * ucx_perftest's UCP tag and RMA tests on a tile, with host memory too;
 * its ping-pong tests check every message's data (-V). Both processes of
 * a pair must exit 0 and neither may log an error.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "zex_selftest.h"

#define UCX_DIR		"/opt/ucx"
#define LOADER_DIR	"/opt/level-zero-1.32.0/lib"
#define LIBZEX		"/opt/zex/lib/libzex.so.0"
/* Each case's server listens on its own port. */
#define FIRST_PORT	13337

/* Everything a UCX process of these tests gets in its environment. */
static void ucx_environment(const char *hierarchy, const char *affinity)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/lib:%s:%s", UCX_DIR, LOADER_DIR,
		 getenv("LD_LIBRARY_PATH") ?: "");
	setenv("LD_LIBRARY_PATH", path, 1);
	setenv("ZE_ENABLE_ALT_DRIVERS", LIBZEX, 1);
	/* The transports of one host, and the protocols UCX picks, printed. */
	setenv("UCX_TLS", "sm,ze_copy,ze_ipc,tcp", 1);
	setenv("UCX_PROTO_INFO", "y", 1);
	setenv("UCX_WARN_UNUSED_ENV_VARS", "n", 1);
	if (hierarchy)
		setenv("ZE_FLAT_DEVICE_HIERARCHY", hierarchy, 1);
	if (affinity)
		setenv("ZE_AFFINITY_MASK", affinity, 1);
}

/* Start @argv with ucx_environment(@hierarchy, @affinity), its output in @out. */
static pid_t spawn(char *const argv[], const char *hierarchy, const char *affinity,
		   const char *out)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		ucx_environment(hierarchy, affinity);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* The exit status of @pid, or -1 when it did not exit. */
static int finish(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* All of file @path, NUL-terminated (malloc'd; the caller frees it), or NULL. */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!buf || !f) {
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len == 1) {
			char *more = realloc(buf, cap * 2);

			if (!more)
				break;
			buf = more;
			cap *= 2;
		}
	}
	buf[len] = 0;
	fclose(f);
	return buf;
}

/* Whether a TCP socket listens on @port (the kernel's table, as netstat reads it). */
static bool listening(unsigned int port)
{
	char line[256], want[16];
	bool found = false;
	FILE *f = fopen("/proc/net/tcp", "r");

	if (!f)
		return false;
	snprintf(want, sizeof(want), ":%04X ", port);
	while (!found && fgets(line, sizeof(line), f))
		/* local_address :port, then state 0A (LISTEN) after the remote one. */
		found = strstr(line, want) && strstr(line, " 0A ");
	fclose(f);
	return found;
}

static bool have_ucx(void)
{
	return access(UCX_DIR "/bin/ucx_perftest", X_OK) == 0 &&
	       access(LOADER_DIR "/libze_loader.so.1", R_OK) == 0;
}

TEST(ucx_info_lists_the_ze_transports_on_zex)
{
	char *argv[] = { UCX_DIR "/bin/ucx_info", "-d", NULL };
	char *out;

	if (!have_ucx())
		SKIP(return, "UCX (tools/check/ucx.sh) is not in this VM");
	ASSERT_EQ(0, finish(spawn(argv, NULL, NULL, "/tmp/ucx_info.out")));
	out = slurp("/tmp/ucx_info.out");
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "Transport: ze_copy"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "Transport: ze_ipc"))
		TH_LOG("%s", out);
	free(out);
}

FIXTURE(pair) {
	char server_out[64], client_out[64];
};

/*
 * One pair of processes. UCX's perftest allocates its UCP buffers through
 * UCX's ze_copy, on a sub-device, and UCX's ze_ipc then looks that device
 * up among the root devices alone: perftest runs where the tiles are the
 * devices (FLAT, compute-runtime's default hierarchy) or on one tile.
 * The root device's coloured memory is the application's own
 * (zex_ucp_pingpong), which is how an MPI library gets a GPU buffer.
 */
FIXTURE_VARIANT(pair) {
	bool pingpong;		/* zex_ucp_pingpong, else ucx_perftest */
	const char *test;	/* perftest's -t */
	const char *memory;	/* perftest's -m */
	const char *size;	/* bytes a message */
	const char *count;	/* messages */
	bool validate;		/* perftest's -V: every message's data checked */
	const char *hierarchy;	/* ZE_FLAT_DEVICE_HIERARCHY */
	const char *affinity;	/* ZE_AFFINITY_MASK */
	bool coloured;		/* the root device's memory: needs implicit scaling */
	bool over_ze_ipc;	/* the data goes through ze_ipc */
	unsigned int port;
};

FIXTURE_VARIANT_ADD(pair, root_device_coloured_memory_ucp_pingpong) {
	.pingpong = true, .size = "4194304", .count = "8", .coloured = true,
	.over_ze_ipc = true, .port = FIRST_PORT,
};

FIXTURE_VARIANT_ADD(pair, root_device_coloured_small_messages_ucp_pingpong) {
	.pingpong = true, .size = "65536", .count = "50", .coloured = true,
	.port = FIRST_PORT + 1,
};

FIXTURE_VARIANT_ADD(pair, tile_ucp_pingpong) {
	.pingpong = true, .size = "1048576", .count = "10", .hierarchy = "FLAT",
	.over_ze_ipc = true, .port = FIRST_PORT + 2,
};

FIXTURE_VARIANT_ADD(pair, tile_perftest_tag_latency_validated) {
	.test = "tag_lat", .memory = "ze-device", .size = "1048576", .count = "20",
	.validate = true, .hierarchy = "FLAT", .over_ze_ipc = true, .port = FIRST_PORT + 3,
};

FIXTURE_VARIANT_ADD(pair, tile_by_affinity_perftest_tag_latency_validated) {
	.test = "tag_lat", .memory = "ze-device", .size = "1048576", .count = "20",
	.validate = true, .affinity = "0.0", .over_ze_ipc = true, .port = FIRST_PORT + 4,
};

FIXTURE_VARIANT_ADD(pair, tile_perftest_tag_bandwidth) {
	.test = "tag_bw", .memory = "ze-device", .size = "4194304", .count = "20",
	.hierarchy = "FLAT", .over_ze_ipc = true, .port = FIRST_PORT + 5,
};

FIXTURE_VARIANT_ADD(pair, tile_perftest_put_bandwidth) {
	.test = "ucp_put_bw", .memory = "ze-device", .size = "1048576", .count = "20",
	.hierarchy = "FLAT", .over_ze_ipc = true, .port = FIRST_PORT + 6,
};

FIXTURE_VARIANT_ADD(pair, tile_perftest_get) {
	.test = "ucp_get", .memory = "ze-device", .size = "1048576", .count = "20",
	.hierarchy = "FLAT", .over_ze_ipc = true, .port = FIRST_PORT + 7,
};

FIXTURE_VARIANT_ADD(pair, host_memory_perftest_tag_latency_validated) {
	.test = "tag_lat", .memory = "ze-host", .size = "65536", .count = "20",
	.validate = true, .hierarchy = "FLAT", .port = FIRST_PORT + 8,
};

FIXTURE_SETUP(pair)
{
	snprintf(self->server_out, sizeof(self->server_out), "/tmp/ucx_server_%u.out",
		 variant->port);
	snprintf(self->client_out, sizeof(self->client_out), "/tmp/ucx_client_%u.out",
		 variant->port);
}

FIXTURE_TEARDOWN(pair)
{
}

TEST_F_TIMEOUT(pair, moves_the_data_between_two_processes, 300)
{
	char port[16], *out;
	char *perf_server[] = { UCX_DIR "/bin/ucx_perftest", "-p", port, NULL };
	char *perf_client[16] = {
		UCX_DIR "/bin/ucx_perftest", "127.0.0.1", "-p", port,
		"-t", (char *)variant->test, "-m", (char *)variant->memory,
		"-s", (char *)variant->size, "-n", (char *)variant->count, "-w", "2",
	};
	char *pp_server[] = { UCX_DIR "/bin/zex_ucp_pingpong", "server", port,
			      (char *)variant->size, (char *)variant->count, NULL };
	char *pp_client[] = { UCX_DIR "/bin/zex_ucp_pingpong", "client", "127.0.0.1", port,
			      (char *)variant->size, (char *)variant->count, NULL };
	char **server = variant->pingpong ? pp_server : perf_server;
	char **client = variant->pingpong ? pp_client : perf_client;
	bool done, ze_ipc, errors;
	int client_rc, server_rc;
	char *server_out;
	pid_t spid;

	if (!have_ucx())
		SKIP(return, "UCX (tools/check/ucx.sh) is not in this VM");
	if (variant->coloured && !zex_implicit_scaling())
		SKIP(return, "the root device is one tile here");
	snprintf(port, sizeof(port), "%u", variant->port);
	if (variant->validate)
		perf_client[14] = "-V";
	spid = spawn(server, variant->hierarchy, variant->affinity, self->server_out);
	ASSERT_LT(0, spid);
	/* The client connects once: wait until the server listens (or ends). */
	while (!listening(variant->port)) {
		ASSERT_EQ(0, waitpid(spid, NULL, WNOHANG))
			TH_LOG("the server ended before it listened");
		usleep(10000);
	}
	client_rc = finish(spawn(client, variant->hierarchy, variant->affinity,
				 self->client_out));
	server_rc = finish(spid);
	out = slurp(self->client_out);
	server_out = slurp(self->server_out);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, server_out);
	/*
	 * The last line of results; a protocol through ze_ipc in the table
	 * of those UCX picked; no error logged by either side (a failed call
	 * makes UCX fall back to another protocol, and the data still moves).
	 */
	done = strstr(out, variant->pingpong ? "every byte checked" : "Final:");
	ze_ipc = strstr(out, "| ze_ipc/");
	errors = strstr(out, "UCX  ERROR") || strstr(server_out, "UCX  ERROR");
	EXPECT_EQ(0, client_rc);
	EXPECT_EQ(0, server_rc);
	EXPECT_TRUE(done);
	EXPECT_TRUE(ze_ipc || !variant->over_ze_ipc);
	EXPECT_FALSE(errors);
	if (client_rc || server_rc || !done || (!ze_ipc && variant->over_ze_ipc) || errors)
		TH_LOG("client:\n%s\nserver:\n%s", out, server_out);
	free(server_out);
	free(out);
}

ZEX_SELFTEST_MAIN
