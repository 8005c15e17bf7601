// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/*
 * DOC: zex_usage_test.c - kselftest of fdinfo's usage stats and the engines' sysfs counters
 *
 * What a monitoring tool reads: every line zex prints in a render node's
 * fdinfo follows the grammar of the DRM usage-stats document (a parser
 * of its key types and units checks each); drm-client-id tells files
 * apart and a dup of one from another; a file's drm-engine-copy grows by
 * at least the time its copy jobs ran (each job writes a timestamp when it
 * starts and when it ends) while another file's and its own compute
 * time do not, and keeps what it counted when the queue goes; the memory
 * keys follow a buffer object's create, export, import into another
 * file and close, tile by tile, and a userptr import's; every engine the
 * query lists has its sysfs folder, whose busy_ns grows with the same
 * jobs and which another user, with no group and no file of the node
 * open, reads; an engine group (a tile's copy engines, the device's)
 * counts two overlapping jobs as at least the longer and never more than
 * the time that passed; each job, however short, has added to its file's
 * time by the moment its user fence reads done.
 */

#include <ctype.h>

#include "zex_exec.h"
#include "zex_userptr.h"

#define MIB		(1ull << 20)
/* How finely an engine group keeps a busy period's start (usage.rst). */
#define GROUP_UNIT_NS	16384
#define FOREVER		(-1ll)

/* The whole fdinfo of @fd, NUL-terminated, in @buf. */
static int fdinfo_read(int fd, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return -errno;
	n = read(f, buf, size - 1);
	close(f);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	return 0;
}

/*
 * The value of @key in @fd's fdinfo, in its base unit (a size's KiB and
 * MiB multiplied out, an engine's "ns" taken off); -1 when absent.
 */
static long long fdinfo_value(int fd, const char *key)
{
	static char buf[8192];
	size_t len = strlen(key);
	char *line, *end;
	unsigned long long v;

	if (fdinfo_read(fd, buf, sizeof(buf)))
		return -1;
	for (line = buf; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (strncmp(line, key, len) || line[len] != ':')
			continue;
		v = strtoull(line + len + 1, &end, 10);
		while (*end == ' ')
			end++;
		if (!strncmp(end, "KiB", 3))
			v <<= 10;
		else if (!strncmp(end, "MiB", 3))
			v <<= 20;
		return (long long)v;
	}
	return -1;
}

/* <uint>, then nothing or exactly one of @units; the rest of the line. */
static bool uint_with_unit(const char *v, const char *const *units)
{
	const char *p = v;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (!*p)
		return !units || !units[0] || !strcmp(units[0], "");
	if (*p++ != ' ')
		return false;
	for (; units && *units; units++)
		if (**units && !strcmp(p, *units))
			return true;
	return false;
}

static bool keystr(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || *s == ':')
			return false;
	return true;
}

/*
 * Whether one "drm-" line follows the document: its key is of a type it
 * defines, and the value has that type's form and unit. @why says what
 * failed.
 */
static bool drm_line_valid(char *line, const char **why)
{
	static const char *const sizes[] = { "", "KiB", "MiB", NULL };
	static const char *const ns[] = { "ns", NULL };
	static const char *const none[] = { "", NULL };
	static const char *const mem[] = { "total-", "shared-", "resident-", "purgeable-",
					   "active-", "memory-", NULL };
	char *colon = strchr(line, ':'), *key = line, *v;
	const char *const *m;

	*why = "no colon";
	if (!colon)
		return false;
	*colon = 0;
	v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	*why = "whitespace in the key";
	if (!keystr(key))
		return false;
	*why = "bad value";
	if (!strcmp(key, "drm-driver"))
		return *v != 0;
	if (!strcmp(key, "drm-client-id"))
		return uint_with_unit(v, none);
	if (!strncmp(key, "drm-engine-capacity-", 20))
		return keystr(key + 20) && uint_with_unit(v, none) && strtoull(v, NULL, 10) > 0;
	if (!strncmp(key, "drm-engine-", 11))
		return keystr(key + 11) && uint_with_unit(v, ns);
	for (m = mem; *m; m++)
		if (!strncmp(key + 4, *m, strlen(*m)))
			return keystr(key + 4 + strlen(*m)) && uint_with_unit(v, sizes);
	*why = "a key the document does not define";
	return false;
}

FIXTURE(usage) {
	int fd;
	uint32_t q;
	uint8_t *mem;	/* 64 MiB, imported */
};

FIXTURE_SETUP(usage)
{
	self->fd = zex_open_render();
	if (self->fd < 0)
		SKIP(return, "no zex render node");
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 0, 0, &self->q));
	self->mem = dev_alloc(self->fd, 64 * MIB, NULL);
	ASSERT_NE(NULL, self->mem);
}

FIXTURE_TEARDOWN(usage)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * Run @n copy jobs of 16 MiB on @q, each between two timestamps the job
 * itself writes; returns the sum of what lies between them, in ns. Each
 * is waited for through its out-fence, which signals after the job's time
 * is counted (a user fence is written before).
 */
static long long timed_copies(struct __test_metadata *_metadata, int fd, uint32_t q,
			      uint8_t *mem, int n)
{
	uint64_t *ts = (uint64_t *)(mem + 48 * MIB);
	long long sum = 0;
	uint32_t done;
	int i;

	EXPECT_EQ(0, syncobj_create(fd, &done));
	for (i = 0; i < n; i++) {
		struct drm_zex_command c[3] = {
			cmd_timestamp(&ts[0]),
			cmd_copy(mem, mem + 16 * MIB, 16 * MIB),
			cmd_timestamp(&ts[1]),
		};
		struct drm_zex_sync s = sync_out(done, 0);

		EXPECT_EQ(0, exec(fd, q, c, 3, &s, 1));
		EXPECT_EQ(0, syncobj_wait(fd, done, 0, FOREVER));
		EXPECT_LT(ts[0], ts[1]);
		sum += (long long)(ts[1] - ts[0]);
	}
	return sum;
}

TEST_F(usage, every_line_follows_the_usage_stats_grammar)
{
	uint32_t bo, root;
	int fds[DRM_ZEX_MAX_TILES];
	char buf[8192], *line, *next;
	const char *why;
	int drm_lines = 0, n;

	ASSERT_EQ(0, raw_bo_create(self->fd, 3 * MIB + 4096, 0, &bo, NULL));
	ASSERT_EQ(0, raw_bo_create(self->fd, 4 * MIB, DRM_ZEX_DEVICE_ROOT, &root, NULL));
	n = raw_bo_export(self->fd, root, fds, DRM_ZEX_MAX_TILES);
	ASSERT_LT(0, n);
	timed_copies(_metadata, self->fd, self->q, self->mem, 1);
	ASSERT_EQ(0, fdinfo_read(self->fd, buf, sizeof(buf)));
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		ASSERT_NE(NULL, next);
		*next++ = 0;
		if (strncmp(line, "drm-", 4)) {
			/* The VFS's own lines. */
			EXPECT_TRUE(!strncmp(line, "pos:", 4) || !strncmp(line, "flags:", 6) ||
				    !strncmp(line, "mnt_id:", 7) || !strncmp(line, "ino:", 4))
				TH_LOG("not a drm- line: %s", line);
			continue;
		}
		drm_lines++;
		EXPECT_TRUE(drm_line_valid(line, &why))
			TH_LOG("%s: %s", line, why);
	}
	EXPECT_LE(4, drm_lines);
	ASSERT_EQ(0, fdinfo_read(self->fd, buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "drm-driver:\tzex\n"));
	EXPECT_LT(0, fdinfo_value(self->fd, "drm-engine-copy"));
	EXPECT_LE(0, fdinfo_value(self->fd, "drm-engine-compute"));
	EXPECT_LE(0, fdinfo_value(self->fd, "drm-total-system"));
	while (n--)
		close(fds[n]);
}

TEST_F(usage, client_ids_tell_files_apart_but_not_dups)
{
	int other = zex_open_render(), dup_fd = dup(self->fd);
	long long id = fdinfo_value(self->fd, "drm-client-id");

	ASSERT_LE(0, other);
	ASSERT_LE(0, dup_fd);
	EXPECT_LT(0, id);
	EXPECT_EQ(id, fdinfo_value(dup_fd, "drm-client-id"));
	EXPECT_NE(id, fdinfo_value(other, "drm-client-id"));
	EXPECT_LT(0, fdinfo_value(other, "drm-client-id"));
	close(other);
	close(dup_fd);
}

TEST_F(usage, copy_time_grows_by_the_jobs_run_time_for_its_file_alone)
{
	int other = zex_open_render();
	long long before, compute, other_copy, ran, after, capacity;

	ASSERT_LE(0, other);
	before = fdinfo_value(self->fd, "drm-engine-copy");
	compute = fdinfo_value(self->fd, "drm-engine-compute");
	other_copy = fdinfo_value(other, "drm-engine-copy");
	ASSERT_LE(0, before);
	ASSERT_LE(0, compute);
	ASSERT_EQ(0, other_copy);

	ran = timed_copies(_metadata, self->fd, self->q, self->mem, 4);
	after = fdinfo_value(self->fd, "drm-engine-copy");
	EXPECT_LE(before + ran, after)
		TH_LOG("the jobs ran %lld ns between their timestamps; the counter grew %lld",
		       ran, after - before);
	EXPECT_EQ(compute, fdinfo_value(self->fd, "drm-engine-compute"));
	EXPECT_EQ(0, fdinfo_value(other, "drm-engine-copy"));
	EXPECT_EQ(0, fdinfo_value(other, "drm-engine-compute"));
	/* Copy engines: two per tile. */
	capacity = fdinfo_value(self->fd, "drm-engine-capacity-copy");
	EXPECT_EQ(2 * zex_param("tiles"), capacity);

	/* What the queue ran stays counted once it is gone. */
	ASSERT_EQ(0, queue_destroy(self->fd, self->q));
	EXPECT_LE(after, fdinfo_value(self->fd, "drm-engine-copy"));
	close(other);
}

/*
 * Short jobs (one store each), each waited for through its user fence:
 * the file's copy time has grown when the fence reads done, by 1 ns at
 * least however coarse the kernel's clock (a job that ran used the engine).
 */
TEST_F(usage, every_job_counts_before_its_user_fence_says_it_ended)
{
	uint64_t *fence = (uint64_t *)(self->mem + 40 * MIB), *slot = fence + 8;
	long long before = fdinfo_value(self->fd, "drm-engine-copy"), after;
	uint64_t i;

	ASSERT_LE(0, before);
	for (i = 1; i <= 32; i++) {
		struct drm_zex_command c = cmd_store(slot, i);
		struct drm_zex_sync s = sync_user_fence(fence, i);

		ASSERT_EQ(0, exec(self->fd, self->q, &c, 1, &s, 1));
		ASSERT_EQ(0, wait_ufence(self->fd, fence, DRM_ZEX_COMPARE_GTE, i, FOREVER, NULL));
		after = fdinfo_value(self->fd, "drm-engine-copy");
		ASSERT_LT(before, after)
			TH_LOG("job %llu: its fence reads done, the file's copy time has not grown",
			       (unsigned long long)i);
		before = after;
	}
}

/* @stat of tile @tile in @fd's fdinfo: drm-<stat>-tile<tile>. */
static long long tile_value(int fd, const char *stat, unsigned int tile)
{
	char key[48];

	snprintf(key, sizeof(key), "drm-%s-tile%u", stat, tile);
	return fdinfo_value(fd, key);
}

TEST_F(usage, memory_keys_follow_create_export_import_and_close)
{
	unsigned int tiles = zex_param("tiles"), last = tiles - 1, t;
	int other = zex_open_render(), fds[DRM_ZEX_MAX_TILES], n;
	long long total[DRM_ZEX_MAX_TILES], sum = 0;
	long long sys = fdinfo_value(self->fd, "drm-total-system");
	uint32_t bo, mine;
	void *host;

	ASSERT_LE(0, other);
	ASSERT_LE(1, tiles);
	for (t = 0; t < tiles; t++) {
		total[t] = tile_value(self->fd, "total", t);
		ASSERT_LE(0, total[t]);
		EXPECT_EQ(0, tile_value(other, "total", t));
		sum += total[t];
	}
	EXPECT_EQ(-1, tile_value(self->fd, "total", tiles));
	ASSERT_EQ(64 * MIB, sys);
	EXPECT_EQ(64 * MIB, fdinfo_value(self->fd, "drm-resident-system"));

	/* 2 MiB on the last tile: private, in that tile's memory alone. */
	ASSERT_EQ(0, raw_bo_create(self->fd, 2 * MIB, last, &bo, NULL));
	for (t = 0; t < tiles; t++)
		EXPECT_EQ(total[t] + (t == last ? 2 * MIB : 0), tile_value(self->fd, "total", t));
	EXPECT_EQ(0, tile_value(self->fd, "shared", last));
	EXPECT_EQ(0, tile_value(other, "total", last));

	/* Exported: shared. Imported by another file: there too, shared. */
	n = raw_bo_export(self->fd, bo, fds, DRM_ZEX_MAX_TILES);
	ASSERT_EQ(1, n);
	EXPECT_EQ(2 * MIB, tile_value(self->fd, "shared", last));
	ASSERT_EQ(0, raw_bo_import(other, fds, 1, 0, &mine, NULL));
	EXPECT_EQ(2 * MIB, tile_value(other, "total", last));
	EXPECT_EQ(2 * MIB, tile_value(other, "shared", last));

	/* Closed by its creator: gone from its keys, still the importer's. */
	close(fds[0]);
	ASSERT_EQ(0, raw_bo_close(self->fd, bo));
	EXPECT_EQ(total[last], tile_value(self->fd, "total", last));
	EXPECT_EQ(2 * MIB, tile_value(other, "total", last));
	ASSERT_EQ(0, raw_bo_close(other, mine));
	EXPECT_EQ(0, tile_value(other, "total", last));

	/* A root object coloured over the tiles counts in each tile's memory. */
	if (zex_implicit_scaling()) {
		long long now = 0;

		ASSERT_EQ(0, raw_bo_create_coloured(self->fd, 4 * MIB, DRM_ZEX_MULTI_STORAGE_EVEN,
						    64, &bo, NULL));
		for (t = 0; t < tiles; t++) {
			EXPECT_LT(total[t], tile_value(self->fd, "total", t));
			now += tile_value(self->fd, "total", t);
		}
		EXPECT_EQ(sum + 4 * MIB, now);
		ASSERT_EQ(0, raw_bo_close(self->fd, bo));
	}

	/* Host memory: a userptr import counts in "system" until released. */
	host = mmap(NULL, 8 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, host);
	memset(host, 1, 8 * MIB);
	ASSERT_EQ(0, import(self->fd, host, 8 * MIB, 0, &mine));
	EXPECT_EQ(sys + 8 * MIB, fdinfo_value(self->fd, "drm-total-system"));
	EXPECT_EQ(sys + 8 * MIB, fdinfo_value(self->fd, "drm-resident-system"));
	ASSERT_EQ(0, release(self->fd, mine));
	EXPECT_EQ(sys, fdinfo_value(self->fd, "drm-total-system"));
	munmap(host, 8 * MIB);
	close(other);
}

/* An engine's sysfs value, or -1. */
static long long engine_attr(const char *engine, const char *attr)
{
	char path[256];

	snprintf(path, sizeof(path), ZEX_SYSFS_PLATFORM "/engines/%s/%s", engine, attr);
	return zex_sysfs_u64(path);
}

TEST_F(usage, every_engine_has_sysfs_counters_any_user_reads)
{
	uint8_t qbuf[sizeof(struct drm_zex_query_engines) + 64 * sizeof(struct drm_zex_engine_info)];
	struct drm_zex_query_engines *e = (void *)qbuf;
	struct drm_zex_query query = {
		.query = DRM_ZEX_QUERY_ENGINES, .size = sizeof(qbuf), .data = VA(qbuf),
	};
	long long before, ran, after;
	char name[32];
	pid_t pid;
	int status;
	uint32_t i;

	ASSERT_EQ(0, zex_ioctl(self->fd, DRM_IOCTL_ZEX_QUERY, &query));
	for (i = 0; i < e->num_engines; i++) {
		const struct drm_zex_engine_info *en = &e->engines[i];
		const char *cls = en->engine_class == DRM_ZEX_ENGINE_CLASS_COPY ? "bcs" : "ccs";

		if (en->device == DRM_ZEX_DEVICE_ROOT) {
			/* The root device's own engine spans tiles; else it is tile 0's. */
			if (__builtin_popcount(en->tile_mask) < 2)
				continue;
			snprintf(name, sizeof(name), "root-%s%u", cls, en->engine_instance);
		} else {
			snprintf(name, sizeof(name), "tile%u-%s%u", en->device, cls,
				 en->engine_instance);
		}
		EXPECT_EQ(en->engine_instance, engine_attr(name, "instance")) TH_LOG("%s", name);
		EXPECT_LE(0, engine_attr(name, "busy_ns")) TH_LOG("%s", name);
		EXPECT_EQ(zex_param("job_timeout_ms"), engine_attr(name, "job_timeout_ms"));
		if (en->device != DRM_ZEX_DEVICE_ROOT)
			EXPECT_EQ(en->device, engine_attr(name, "tile")) TH_LOG("%s", name);
	}

	before = engine_attr("tile0-bcs0", "busy_ns");
	ran = timed_copies(_metadata, self->fd, self->q, self->mem, 2);
	after = engine_attr("tile0-bcs0", "busy_ns");
	EXPECT_LE(before + ran, after);

	/* Another user, with no node open and no group, reads the same counters. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (zex_become_user(ZEX_NOBODY))
			_exit(2);
		_exit(engine_attr("tile0-bcs0", "busy_ns") >= after ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Two jobs on tile 0's two copy engines, running at once: each writes a
 * timestamp and stores that it started, waits for the host's go, and
 * writes a timestamp at its end. The host lets them go once both have
 * started, after holding them a while (so that they overlap for most of
 * their time; nothing below depends on how long).
 */
TEST_F(usage, an_engine_group_counts_the_union_of_its_engines_jobs)
{
	uint64_t *mem = (uint64_t *)(self->mem + 32 * MIB);
	uint64_t *go = &mem[0], *ts = &mem[8], *started = &mem[16];
	long long g0, d0, e0, g1, d1, e1, durations = 0, longest = 0;
	struct timespec hold = { 0, 20 * 1000 * 1000 };
	uint32_t q[2] = { self->q }, done[2];
	int64_t begin, end;
	int i;

	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COPY, 1, 0, &q[1]));
	ASSERT_EQ(0, syncobj_create(self->fd, &done[0]));
	ASSERT_EQ(0, syncobj_create(self->fd, &done[1]));
	g0 = engine_attr("tile0-bcs-all", "busy_ns");
	d0 = engine_attr("bcs-all", "busy_ns");
	e0 = engine_attr("tile0-bcs0", "busy_ns") + engine_attr("tile0-bcs1", "busy_ns");
	ASSERT_LE(0, g0);
	ASSERT_LE(0, d0);
	begin = zex_now_ns();
	for (i = 0; i < 2; i++) {
		struct drm_zex_command c[4] = {
			cmd_timestamp(&ts[2 * i]),
			cmd_store(&started[i], 1),
			cmd_wait(go, DRM_ZEX_COMPARE_EQ, 1),
			cmd_timestamp(&ts[2 * i + 1]),
		};
		struct drm_zex_sync s = sync_out(done[i], 0);

		ASSERT_EQ(0, exec(self->fd, q[i], c, 4, &s, 1));
	}
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, wait_ufence(self->fd, &started[i], DRM_ZEX_COMPARE_EQ, 1, FOREVER,
					 NULL));
	nanosleep(&hold, NULL);
	__atomic_store_n(go, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 2; i++) {
		long long d;

		/* Signalled once the job's time is counted. */
		ASSERT_EQ(0, syncobj_wait(self->fd, done[i], 0, FOREVER));
		d = (long long)(ts[2 * i + 1] - ts[2 * i]);
		durations += d;
		longest = d > longest ? d : longest;
	}
	end = zex_now_ns();
	g1 = engine_attr("tile0-bcs-all", "busy_ns");
	d1 = engine_attr("bcs-all", "busy_ns");
	e1 = engine_attr("tile0-bcs0", "busy_ns") + engine_attr("tile0-bcs1", "busy_ns");

	/* Each engine counts its own job; the group at least the longer one... */
	EXPECT_LE(e0 + durations, e1);
	EXPECT_LE(g0 + longest, g1);
	/*
	 * ...and never more than the time that passed: the union, not the
	 * sum (a period's start is kept in 16 us units, rounded down).
	 */
	EXPECT_GE(end - begin + GROUP_UNIT_NS, g1 - g0)
		TH_LOG("group %lld ns in %lld ns; the engines %lld", g1 - g0, (long long)(end - begin),
		       e1 - e0);
	/* The device's group holds the tile's (no other tile ran a copy). */
	EXPECT_LE(g1 - g0, d1 - d0);
	EXPECT_GE(end - begin + GROUP_UNIT_NS, d1 - d0);
	EXPECT_EQ(0, queue_destroy(self->fd, q[1]));

	/* A job on a compute engine counts in the compute groups, not the copy ones. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_ZEX_ENGINE_CLASS_COMPUTE, 0, 0, &q[1]));
	g0 = engine_attr("tile0-ccs-all", "busy_ns");
	d0 = engine_attr("ccs-all", "busy_ns");
	e0 = engine_attr("tile0-bcs-all", "busy_ns");
	durations = timed_copies(_metadata, self->fd, q[1], self->mem, 1);
	EXPECT_LE(g0 + durations, engine_attr("tile0-ccs-all", "busy_ns"));
	EXPECT_LE(d0 + durations, engine_attr("ccs-all", "busy_ns"));
	EXPECT_EQ(e0, engine_attr("tile0-bcs-all", "busy_ns"));
	EXPECT_EQ(0, queue_destroy(self->fd, q[1]));
}

ZEX_SELFTEST_MAIN
