// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Copyright © 2026 The zex authors
 */

/**
 * DOC: zex_exec_test.c - KUnit suite for execution's pure parts
 *
 * The command, sync and launch report checks on tables of good and bad
 * elements (each bad one names the errno it must get), every compare op on both sides of
 * its boundary and under a mask, the split of a copy between tiles for
 * linear and interleaved layouts and host memory (the runs must cover the
 * range exactly, in order, each byte on the tile that holds it), and the
 * ban state machine: the first ban wins, keeps its error and fault (its
 * flags too), wakes the waiters once.
 */

#include <kunit/test.h>
#include <linux/sizes.h>

#include <drm/zex_drm.h>

#include "../exec/zex_command.h"
#include "../exec/zex_exec.h"
#include "../exec/zex_split.h"

struct zex_command_case {
	const char *desc;
	struct drm_zex_command cmd;
	int err;
};

static const struct zex_command_case zex_command_cases[] = {
	{ "copy", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x9000, .len = 64 }, 0 },
	{ "copy, ranges touch", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x1040,
				  .len = 64 }, 0 },
	{ "copy, ranges overlap", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x103f,
				    .len = 64 }, -EINVAL },
	{ "copy, len 0", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x9000 }, -EINVAL },
	{ "copy, too long", { .op = DRM_ZEX_CMD_COPY, .src = 0, .dst = 1ull << 40,
			      .len = DRM_ZEX_COPY_MAX_LEN + 1 }, -E2BIG },
	{ "copy, the longest", { .op = DRM_ZEX_CMD_COPY, .src = 0, .dst = 1ull << 40,
				 .len = DRM_ZEX_COPY_MAX_LEN }, 0 },
	{ "copy, source wraps", { .op = DRM_ZEX_CMD_COPY, .src = ~0ull - 8, .dst = 0x1000,
				  .len = 16 }, -EINVAL },
	{ "copy, destination wraps", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = ~0ull,
				       .len = 2 }, -EINVAL },
	{ "copy with a value", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x9000, .len = 8,
				 .value = 1 }, -EINVAL },
	{ "copy with a pattern", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x9000,
				   .len = 8, .pattern = { 1 } }, -EINVAL },
	{ "pad", { .op = DRM_ZEX_CMD_COPY, .src = 0x1000, .dst = 0x9000, .len = 8, .pad = 1 },
	  -EINVAL },
	{ "fill, 16-byte pattern", { .op = DRM_ZEX_CMD_FILL, .dst = 0x1000, .len = 100,
				     .pattern_size = 16, .pattern = { [15] = 1 } }, 0 },
	{ "fill, pattern size 0", { .op = DRM_ZEX_CMD_FILL, .dst = 0x1000, .len = 100 },
	  -EINVAL },
	{ "fill, pattern size 17", { .op = DRM_ZEX_CMD_FILL, .dst = 0x1000, .len = 100,
				     .pattern_size = 17 }, -EINVAL },
	{ "fill, bytes past the pattern", { .op = DRM_ZEX_CMD_FILL, .dst = 0x1000, .len = 100,
					    .pattern_size = 2, .pattern = { 1, 2, 3 } },
	  -EINVAL },
	{ "fill with a source", { .op = DRM_ZEX_CMD_FILL, .src = 8, .dst = 0x1000, .len = 100,
				  .pattern_size = 1 }, -EINVAL },
	{ "store", { .op = DRM_ZEX_CMD_STORE, .dst = 0x1008, .value = ~0ull }, 0 },
	{ "store, misaligned", { .op = DRM_ZEX_CMD_STORE, .dst = 0x1004 }, -EINVAL },
	{ "store with a length", { .op = DRM_ZEX_CMD_STORE, .dst = 0x1008, .len = 8 },
	  -EINVAL },
	{ "timestamp", { .op = DRM_ZEX_CMD_TIMESTAMP, .dst = 0x1008 }, 0 },
	{ "timestamp with a value", { .op = DRM_ZEX_CMD_TIMESTAMP, .dst = 0x1008, .value = 1 },
	  -EINVAL },
	{ "wait", { .op = DRM_ZEX_CMD_WAIT, .src = 0x1000, .compare = DRM_ZEX_COMPARE_LTE,
		    .value = 3, .mask = 0xff }, 0 },
	{ "wait, unknown compare", { .op = DRM_ZEX_CMD_WAIT, .src = 0x1000, .compare = 6 },
	  -EINVAL },
	{ "wait, misaligned", { .op = DRM_ZEX_CMD_WAIT, .src = 0x1001 }, -EINVAL },
	{ "wait with a destination", { .op = DRM_ZEX_CMD_WAIT, .src = 0x1000, .dst = 8 },
	  -EINVAL },
	{ "launch", { .op = DRM_ZEX_CMD_LAUNCH, .dst = 0x1008, .value = ~0ull }, 0 },
	{ "launch, misaligned", { .op = DRM_ZEX_CMD_LAUNCH, .dst = 0x1004 }, -EINVAL },
	{ "launch, record wraps", { .op = DRM_ZEX_CMD_LAUNCH, .dst = ~0ull - 15 }, -EINVAL },
	{ "launch, the last record", { .op = DRM_ZEX_CMD_LAUNCH, .dst = ~0ull - 31 }, 0 },
	{ "launch, a record to the top", { .op = DRM_ZEX_CMD_LAUNCH, .dst = ~0ull - 23 },
	  -EINVAL },
	{ "launch with a source", { .op = DRM_ZEX_CMD_LAUNCH, .dst = 0x1000, .src = 8 },
	  -EINVAL },
	{ "launch with a mask", { .op = DRM_ZEX_CMD_LAUNCH, .dst = 0x1000, .mask = 1 },
	  -EINVAL },
	{ "launch with a pattern", { .op = DRM_ZEX_CMD_LAUNCH, .dst = 0x1000,
				     .pattern = { [3] = 1 } }, -EINVAL },
	{ "unknown op", { .op = 6, .dst = 0x1000 }, -EINVAL },
};

static void zex_command_case_desc(const struct zex_command_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_command_case, zex_command_cases, zex_command_case_desc);

static void zex_test_command_check(struct kunit *test)
{
	const struct zex_command_case *c = test->param_value;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, c->err, zex_command_check(&c->cmd, &why));
	if (c->err)
		KUNIT_EXPECT_NOT_NULL(test, why);
}

struct zex_sync_case {
	const char *desc;
	struct drm_zex_sync sync;
	int err;
};

static const struct zex_sync_case zex_sync_cases[] = {
	{ "wait for a syncobj", { .type = DRM_ZEX_SYNC_SYNCOBJ, .handle = 1 }, 0 },
	{ "signal a syncobj", { .type = DRM_ZEX_SYNC_SYNCOBJ, .handle = 1,
				.flags = DRM_ZEX_SYNC_SIGNAL }, 0 },
	{ "syncobj with a point", { .type = DRM_ZEX_SYNC_SYNCOBJ, .handle = 1,
				    .timeline_value = 2 }, -EINVAL },
	{ "timeline point", { .type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .handle = 1,
			      .timeline_value = 2 }, 0 },
	{ "timeline point 0", { .type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .handle = 1 }, -EINVAL },
	{ "timeline with an address", { .type = DRM_ZEX_SYNC_TIMELINE_SYNCOBJ, .handle = 1,
					.timeline_value = 2, .addr = 8 }, -EINVAL },
	{ "user fence", { .type = DRM_ZEX_SYNC_USER_FENCE, .flags = DRM_ZEX_SYNC_SIGNAL,
			  .addr = 0x1000, .timeline_value = 5 }, 0 },
	{ "user fence to wait for", { .type = DRM_ZEX_SYNC_USER_FENCE, .addr = 0x1000 },
	  -EINVAL },
	{ "user fence, misaligned", { .type = DRM_ZEX_SYNC_USER_FENCE,
				      .flags = DRM_ZEX_SYNC_SIGNAL, .addr = 0x1004 }, -EINVAL },
	{ "user fence with a handle", { .type = DRM_ZEX_SYNC_USER_FENCE,
					.flags = DRM_ZEX_SYNC_SIGNAL, .addr = 0x1000,
					.handle = 1 }, -EINVAL },
	{ "unknown flag", { .type = DRM_ZEX_SYNC_SYNCOBJ, .handle = 1, .flags = 2 }, -EINVAL },
	{ "unknown type", { .type = 3 }, -EINVAL },
	{ "extensions", { .type = DRM_ZEX_SYNC_SYNCOBJ, .extensions = 8 }, -EINVAL },
	{ "pad", { .type = DRM_ZEX_SYNC_SYNCOBJ, .pad = 1 }, -EINVAL },
	{ "reserved", { .type = DRM_ZEX_SYNC_SYNCOBJ, .reserved = { 0, 1 } }, -EINVAL },
};

static void zex_sync_case_desc(const struct zex_sync_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_sync_case, zex_sync_cases, zex_sync_case_desc);

static void zex_test_sync_check(struct kunit *test)
{
	const struct zex_sync_case *c = test->param_value;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, c->err, zex_sync_check(&c->sync, &why));
	if (c->err)
		KUNIT_EXPECT_NOT_NULL(test, why);
}

static void zex_test_compare(struct kunit *test)
{
	static const struct { u16 op; bool below, equal, above; } ops[] = {
		{ DRM_ZEX_COMPARE_EQ, false, true, false },
		{ DRM_ZEX_COMPARE_NEQ, true, false, true },
		{ DRM_ZEX_COMPARE_GT, false, false, true },
		{ DRM_ZEX_COMPARE_GTE, false, true, true },
		{ DRM_ZEX_COMPARE_LT, true, false, false },
		{ DRM_ZEX_COMPARE_LTE, true, true, false },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		KUNIT_EXPECT_TRUE(test, zex_compare_op_valid(ops[i].op));
		KUNIT_EXPECT_EQ(test, ops[i].below, zex_compare(9, ops[i].op, 10, ~0ull));
		KUNIT_EXPECT_EQ(test, ops[i].equal, zex_compare(10, ops[i].op, 10, ~0ull));
		KUNIT_EXPECT_EQ(test, ops[i].above, zex_compare(11, ops[i].op, 10, ~0ull));
		/* Unsigned: the top bit set is the largest, not negative. */
		KUNIT_EXPECT_EQ(test, ops[i].above, zex_compare(~0ull, ops[i].op, 10, ~0ull));
		/* The mask applies to both sides. */
		KUNIT_EXPECT_EQ(test, ops[i].equal, zex_compare(0x1a, ops[i].op, 0xfa, 0x0f));
	}
	KUNIT_EXPECT_FALSE(test, zex_compare_op_valid(6));
	KUNIT_EXPECT_FALSE(test, zex_compare(1, 6, 1, ~0ull));
}

#define ZEX_MAX_RUNS	64

struct zex_test_runs {
	u32 count;
	u64 offset[ZEX_MAX_RUNS], len[ZEX_MAX_RUNS];
	u32 tile[ZEX_MAX_RUNS];
};

static int zex_test_emit(void *ctx, u64 offset, u64 len, u32 tile)
{
	struct zex_test_runs *r = ctx;

	if (r->count == ZEX_MAX_RUNS)
		return -ENOSPC;
	r->offset[r->count] = offset;
	r->len[r->count] = len;
	r->tile[r->count] = tile;
	r->count++;
	return 0;
}

/* The runs cover [base, base + len) in order, without gaps. */
static void zex_expect_cover(struct kunit *test, const struct zex_test_runs *r, u64 base,
			     u64 len)
{
	u64 at = base;
	u32 i;

	for (i = 0; i < r->count; i++) {
		KUNIT_EXPECT_EQ(test, at, r->offset[i]);
		KUNIT_EXPECT_NE(test, 0, r->len[i]);
		at += r->len[i];
	}
	KUNIT_EXPECT_EQ(test, base + len, at);
}

static void zex_test_split_linear(struct kunit *test)
{
	/* An even split of 5 granules over 3 tiles: 2, 2, 1. */
	static const struct zex_split_piece pieces[] = {
		{ 0, 2 * SZ_64K, 0 }, { 2 * SZ_64K, 2 * SZ_64K, 1 }, { 4 * SZ_64K, SZ_64K, 2 },
	};
	struct zex_split_layout l = { .pieces = pieces, .num_pieces = 3 };
	struct zex_test_runs r = {};

	/* From the middle of piece 0 to the middle of piece 2, at offset 100 of the copy. */
	KUNIT_ASSERT_EQ(test, 0, zex_split_bo(&l, SZ_64K + 5, 3 * SZ_64K, 100,
					      zex_test_emit, &r));
	KUNIT_ASSERT_EQ(test, 3, r.count);
	zex_expect_cover(test, &r, 100, 3 * SZ_64K);
	KUNIT_EXPECT_EQ(test, SZ_64K - 5, r.len[0]);
	KUNIT_EXPECT_EQ(test, 2 * SZ_64K, r.len[1]);
	KUNIT_EXPECT_EQ(test, 5, r.len[2]);
	KUNIT_EXPECT_EQ(test, 0, r.tile[0]);
	KUNIT_EXPECT_EQ(test, 1, r.tile[1]);
	KUNIT_EXPECT_EQ(test, 2, r.tile[2]);

	/* Past the last piece: refused, not read past the array. */
	r.count = 0;
	KUNIT_EXPECT_EQ(test, -EINVAL, zex_split_bo(&l, 4 * SZ_64K, SZ_64K + 1, 0,
						    zex_test_emit, &r));
	/* One byte of one piece. */
	r.count = 0;
	KUNIT_ASSERT_EQ(test, 0, zex_split_bo(&l, 3 * SZ_64K, 1, 0, zex_test_emit, &r));
	KUNIT_ASSERT_EQ(test, 1, r.count);
	KUNIT_EXPECT_EQ(test, 1, r.tile[0]);
}

static void zex_test_split_interleaved(struct kunit *test)
{
	static const struct zex_split_piece pieces[] = {
		{ 0, 3 * SZ_64K, 0 }, { 0, 2 * SZ_64K, 1 }, { 0, 2 * SZ_64K, 2 },
	};
	struct zex_split_layout l = { .pieces = pieces, .num_pieces = 3, .interleaved = true,
				      .granularity = SZ_64K };
	struct zex_test_runs r = {};
	u32 i;

	/* Chunks 1..5 and 10 bytes of chunk 6: tiles 1, 2, 0, 1, 2, 0. */
	KUNIT_ASSERT_EQ(test, 0, zex_split_bo(&l, SZ_64K, 5 * SZ_64K + 10, 0,
					      zex_test_emit, &r));
	KUNIT_ASSERT_EQ(test, 6, r.count);
	zex_expect_cover(test, &r, 0, 5 * SZ_64K + 10);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, (i + 1) % 3, r.tile[i]);
	KUNIT_EXPECT_EQ(test, 10, r.len[5]);
}

static void zex_test_split_even(struct kunit *test)
{
	struct zex_test_runs r = {};

	/* 10 pages and a byte over tiles 1 and 3: 6 pages, then the rest. */
	KUNIT_ASSERT_EQ(test, 0, zex_split_even(7, 10 * PAGE_SIZE + 1, BIT(1) | BIT(3),
						zex_test_emit, &r));
	KUNIT_ASSERT_EQ(test, 2, r.count);
	zex_expect_cover(test, &r, 7, 10 * PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ(test, 6 * PAGE_SIZE, r.len[0]);
	KUNIT_EXPECT_EQ(test, 1, r.tile[0]);
	KUNIT_EXPECT_EQ(test, 3, r.tile[1]);
	/* Less than a page each: the first tile takes it all. */
	r.count = 0;
	KUNIT_ASSERT_EQ(test, 0, zex_split_even(0, 100, 0xff, zex_test_emit, &r));
	KUNIT_ASSERT_EQ(test, 1, r.count);
	KUNIT_EXPECT_EQ(test, 0, r.tile[0]);
	KUNIT_EXPECT_EQ(test, -EINVAL, zex_split_even(0, 100, 0, zex_test_emit, &r));
}

struct zex_report_case {
	const char *desc;
	struct drm_zex_launch_report r;
	int err;
};

static const struct zex_report_case zex_report_cases[] = {
	{ "done", { .exec_queue_id = 1, .tile = 7, .seqno = 1 }, 0 },
	{ "fault", { .seqno = 3, .status = DRM_ZEX_LAUNCH_FAULT,
		     .fault_reason = DRM_ZEX_FAULT_KERNEL_ABORTED, .fault_addr = 0x1000,
		     .fault_flags = DRM_ZEX_FAULT_WRITE }, 0 },
	{ "fault, not mapped", { .seqno = 3, .status = DRM_ZEX_LAUNCH_FAULT,
				 .fault_reason = DRM_ZEX_FAULT_NOT_MAPPED }, 0 },
	{ "fault without a reason", { .seqno = 3, .status = DRM_ZEX_LAUNCH_FAULT }, -EINVAL },
	{ "fault, unknown reason", { .seqno = 3, .status = DRM_ZEX_LAUNCH_FAULT,
				     .fault_reason = 5 }, -EINVAL },
	{ "fault, unknown flag", { .seqno = 3, .status = DRM_ZEX_LAUNCH_FAULT,
				   .fault_reason = 1, .fault_flags = 2 }, -EINVAL },
	{ "done with a reason", { .seqno = 1, .fault_reason = 1 }, -EINVAL },
	{ "done with an address", { .seqno = 1, .fault_addr = 8 }, -EINVAL },
	{ "done with flags", { .seqno = 1, .fault_flags = DRM_ZEX_FAULT_WRITE }, -EINVAL },
	{ "unknown status", { .seqno = 1, .status = 2 }, -EINVAL },
	{ "launch 0", { .seqno = 0 }, -EINVAL },
	{ "tile 8", { .seqno = 1, .tile = DRM_ZEX_MAX_TILES }, -EINVAL },
	{ "tile huge", { .seqno = 1, .tile = ~0u }, -EINVAL },
	{ "extensions", { .seqno = 1, .extensions = 8 }, -EINVAL },
	{ "pad", { .seqno = 1, .pad = 1 }, -EINVAL },
	{ "reserved", { .seqno = 1, .reserved = { 1, 0 } }, -EINVAL },
};

static void zex_report_case_desc(const struct zex_report_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(zex_report_case, zex_report_cases, zex_report_case_desc);

static void zex_test_report_check(struct kunit *test)
{
	const struct zex_report_case *c = test->param_value;
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, c->err, zex_launch_report_check(&c->r, &why));
	if (c->err)
		KUNIT_EXPECT_NOT_NULL(test, why);
}

static void zex_test_ban(struct kunit *test)
{
	struct zex_exec_device *xdev = kunit_kzalloc(test, sizeof(*xdev), GFP_KERNEL);
	struct zex_ring *ring = kunit_kzalloc(test, sizeof(*ring), GFP_KERNEL);
	struct zex_exec_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	struct drm_device *drm = kunit_kzalloc(test, sizeof(*drm), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, xdev);
	KUNIT_ASSERT_NOT_NULL(test, ring);
	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_ASSERT_NOT_NULL(test, drm);
	init_waitqueue_head(&xdev->done_wq);
	/* The fault's ban is logged through it (no struct device: the log says so). */
	xdev->drm = drm;
	ring->xdev = xdev;
	q->ring = ring;
	spin_lock_init(&q->state_lock);
	init_waitqueue_head(&q->done_wq);

	KUNIT_EXPECT_FALSE(test, zex_exec_queue_is_banned(q));
	KUNIT_EXPECT_EQ(test, 0, zex_exec_queue_error(q));
	struct zex_fault fault = {
		.addr = 0x4000, .reason = DRM_ZEX_FAULT_READ_ONLY, .flags = DRM_ZEX_FAULT_WRITE,
	};
	struct zex_fault other = { .addr = 8, .reason = DRM_ZEX_FAULT_NOT_MAPPED };

	KUNIT_EXPECT_TRUE(test, zex_exec_queue_ban(q, -EFAULT, &fault));
	KUNIT_EXPECT_TRUE(test, zex_exec_queue_is_banned(q));
	/* The first ban wakes the device's waits and those tied to the queue. */
	KUNIT_EXPECT_EQ(test, 1, atomic64_read(&xdev->done_seq));
	KUNIT_EXPECT_EQ(test, 1, atomic64_read(&q->done_seq));
	/* A later timeout or destruction does not overwrite the first reason. */
	KUNIT_EXPECT_FALSE(test, zex_exec_queue_ban(q, -ETIME, NULL));
	KUNIT_EXPECT_FALSE(test, zex_exec_queue_ban(q, -EFAULT, &other));
	KUNIT_EXPECT_FALSE(test, zex_exec_queue_ban(q, -ECANCELED, NULL));
	KUNIT_EXPECT_EQ(test, -EFAULT, zex_exec_queue_error(q));
	KUNIT_EXPECT_EQ(test, DRM_ZEX_FAULT_READ_ONLY, q->fault.reason);
	KUNIT_EXPECT_EQ(test, 0x4000, q->fault.addr);
	KUNIT_EXPECT_EQ(test, DRM_ZEX_FAULT_WRITE, q->fault.flags);
	KUNIT_EXPECT_EQ(test, 1, atomic64_read(&xdev->done_seq));
	KUNIT_EXPECT_EQ(test, 1, atomic64_read(&q->done_seq));
}

static struct kunit_case zex_exec_cases[] = {
	KUNIT_CASE_PARAM(zex_test_command_check, zex_command_case_gen_params),
	KUNIT_CASE_PARAM(zex_test_sync_check, zex_sync_case_gen_params),
	KUNIT_CASE_PARAM(zex_test_report_check, zex_report_case_gen_params),
	KUNIT_CASE(zex_test_compare),
	KUNIT_CASE(zex_test_split_linear),
	KUNIT_CASE(zex_test_split_interleaved),
	KUNIT_CASE(zex_test_split_even),
	KUNIT_CASE(zex_test_ban),
	{}
};

static struct kunit_suite zex_exec_suite = {
	.name = "zex_exec",
	.test_cases = zex_exec_cases,
};

kunit_test_suite(zex_exec_suite);
